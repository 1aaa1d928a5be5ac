#!/usr/bin/env python3
# Writes the fuzz target's seed corpus (tests/fuzz/corpus/): journals in the format of
# src/store/journal_codec.h, whole and damaged. Rerun after a format change.
import os
import struct
import zlib

here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")


def header(n=12, tasks=500, engine=b"prefix", params=b"prefix_rows=3", version=1):
    h = b"NQJOURNL" + struct.pack("<IIQ", version, n, tasks)
    h += engine.ljust(24, b"\0") + params.ljust(72, b"\0") + struct.pack("<I", 0)
    return h + struct.pack("<I", zlib.crc32(h))


def record(task, sub, kind=1):
    r = struct.pack("<QQI", task, sub, kind)
    return r + struct.pack("<I", zlib.crc32(r))


seeds = {
    "header-only": header(),
    "three-records": header() + record(0, 10) + record(1, 20) + record(2, 30),
    "torn-fragment": header() + record(0, 10) + record(1, 20)[:11],
    "torn-last-record": header() + record(0, 10) + record(1, 20)[:-1] + b"\x00",
    "duplicate-same": header() + record(5, 1) + record(5, 1),
    "duplicate-conflict": header() + record(5, 1) + record(5, 2),
    "id-out-of-range": header(tasks=4) + record(4, 1),
    "bad-kind": header() + record(0, 1, kind=2) + record(1, 1),
    "future-version": header(version=2),
    "not-a-journal": b"task,subtotal\n0,167\n",
}
os.makedirs(here, exist_ok=True)
for name, data in seeds.items():
    with open(os.path.join(here, name), "wb") as f:
        f.write(data)
