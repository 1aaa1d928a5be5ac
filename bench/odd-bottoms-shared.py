#!/usr/bin/env python3
"""bench/odd-bottoms-shared.py N: how many bottom half-board lists an odd board's join
tasks make, and how many they would make if a worker kept the lists of a block of B
consecutive tasks (by id) and made each one once, for B = 1, 4, .., 1024.

A task is a top column set C; for each middle column m of weight (join_orbit_size) it
makes the bottoms on D = the columns that are neither C's nor m. Tasks (C, m) and
(C', m') with the same D could share one list, made without the middle queen and then
kept per m as the tops are. Counted from the definition, no engine run: the task set,
orbit rule and order are those of src/engines/join_tasks.c. docs/join.md ("Next",
growth) quotes n = 17, 19 and 21 (5 s at n = 21)."""
import sys

n = int(sys.argv[1]) if len(sys.argv) > 1 else 17
if n % 2 == 0 or not 3 <= n <= 23:
    sys.exit("odd-bottoms-shared: N must be odd, 3 to 23")
h = centre = (n - 1) // 2
full = (1 << n) - 1


def mirrored(c):
    return sum(1 << (n - 1 - j) for j in range(n) if c >> j & 1)


def orbit_size(top, m):
    """(top, m)'s orbit under the mirror and the turn over, 0 unless it is the least key."""
    if top >> m & 1:
        return 0
    bottom = full & ~top & ~(1 << m)
    mm = n - 1 - m
    keys = [(m, top), (mm, mirrored(top)), (m, bottom), (mm, mirrored(bottom))]
    return len(set(keys)) if min(keys) == keys[0] else 0


def next_subset(x):
    low = x & -x
    ripple = x + low
    return ripple | (((x ^ ripple) >> 2) // low)


tasks = []
c = (1 << h) - 1
while not c >> n:
    middles = [m for m in range(n) if orbit_size(c, m)]
    if middles:
        tasks.append((c, middles))
    c = next_subset(c)
pairs = sum(len(ms) for _, ms in tasks)
print(f"n={n}: {len(tasks)} tasks, {pairs} (top, middle) pairs: one bottom list each today")
for block in (1, 4, 16, 64, 256, 1024):
    lists = 0
    for i in range(0, len(tasks), block):
        lists += len({full & ~c & ~(1 << m) for c, ms in tasks[i:i + block] for m in ms})
    print(f"  blocks of {block:4d} tasks: {lists:7d} lists, {pairs / lists:.2f} pairs a list")
