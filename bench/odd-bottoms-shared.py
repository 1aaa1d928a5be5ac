#!/usr/bin/env python3
"""bench/odd-bottoms-shared.py N [SAMPLES]: how many bottom half-board lists an odd board's
join tasks make, and how many they would make if a worker kept the lists of a block of B
consecutive tasks (by id) and made each one once, for B = 1, 4, .., 1024. Then, for
SAMPLES (top, middle) pairs drawn from the tasks (seeded; 0: none), how much longer a
bottom list is made without the middle queen (as a shared one must be) than with it.

A task is a top column set C; for each middle column m of weight (join_orbit_size) it
makes the bottoms on D = the columns that are neither C's nor m. Tasks (C, m) and
(C', m') with the same D could share one list, made without the middle queen and then
kept per m as the tops are. Counted from the definition, no engine run: the task set,
orbit rule and order are those of src/engines/join_tasks.c. docs/join.md ("Next",
growth) quotes n = 17 to 23 (half a minute at n = 21, six at 23)."""
import random
import sys

try:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 17
    samples = int(sys.argv[2]) if len(sys.argv) > 2 else 0
except ValueError:
    n = samples = -1
if n % 2 == 0 or not 3 <= n <= 23 or samples < 0:
    print("odd-bottoms-shared: N must be odd, 3 to 23, and SAMPLES 0 or more", file=sys.stderr)
    sys.exit(2)
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


def bottoms(d, m):
    """The half-boards of the h rows below the middle row on the columns d: with the
    middle queen at m (it attacks row r's columns m - r and m + r) and without it."""
    cols = [c for c in range(n) if d >> c & 1]

    def place(r, used, down, up, mid):
        if r > h:
            return 1
        found = 0
        for c in cols:
            if used >> c & 1 or down >> (c - r + n) & 1 or up >> (c + r) & 1:
                continue
            if mid and c in (m - r, m + r):
                continue
            found += place(r + 1, used | 1 << c, down | 1 << (c - r + n), up | 1 << (c + r), mid)
        return found

    return place(1, 0, 0, 0, True), place(1, 0, 0, 0, False)


if samples > 0:
    rng = random.Random(1)
    kept = unkept = 0
    for _ in range(samples):
        c, ms = rng.choice(tasks)
        m = rng.choice(ms)
        w, wo = bottoms(full & ~c & ~(1 << m), m)
        kept, unkept = kept + w, unkept + wo
    print(f"  {samples} (top, middle) pairs: a bottom list holds {kept / samples:.0f} half-boards "
          f"on average, {unkept / samples:.0f} without the middle queen ({unkept / kept:.2f}x)")
