#!/usr/bin/env python3
"""Writes the expected outputs of `nqueens list` under tests/data/ for the boards the
tests check by name. A third, separate derivation: every permutation of the columns,
kept when no two queens share a diagonal (itertools yields them in lexicographic order).
Checked by hand against the published samples: LeetCode 51 and AcWing 843 for n = 4,
Luogu P1219 for n = 6 (2 4 6 1 3 5 / 3 6 2 5 1 4 / 4 1 5 2 6 3 / 4), and the first 8x8
solution 1 5 8 6 3 7 2 4. Run from tests/data: ./expected.py"""
from itertools import permutations


def solutions(n):
    for p in permutations(range(n)):
        if len({c + r for r, c in enumerate(p)}) == n and len({c - r for r, c in enumerate(p)}) == n:
            yield p


def board(p):
    return ["." * c + "Q" + "." * (len(p) - c - 1) for c in p]


def columns(p):
    return " ".join(str(c + 1) for c in p) + "\n"


for n in (1, 4, 5, 6, 8):
    sols = list(solutions(n))
    out = {
        "columns": "".join(columns(p) for p in sols),
        "leetcode": "[" + ",".join("[" + ",".join('"%s"' % row for row in board(p)) + "]" for p in sols) + "]\n",
        "acwing": "".join("".join(row + "\n" for row in board(p)) + "\n" for p in sols),
        "luogu": "".join(columns(p) for p in sols[:3]) + "%d\n" % len(sols),
    }
    for fmt, text in out.items():
        with open("list-%d.%s.txt" % (n, fmt), "w") as f:
            f.write(text)
