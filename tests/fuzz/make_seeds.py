#!/usr/bin/env python3
# Writes the fuzz target's seed corpus (tests/fuzz/corpus/): journals in the format of
# src/store/journal_codec.h, whole and damaged. Rerun after a format change.
import os
import struct
import zlib

here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")


def header(n=12, tasks=500, engine=b"prefix", params=b"prefix_rows=3", version=3,
           journal_id=bytes(range(16)), slice_=(0, 0, 0, 0)):
    """Version 3 (176 bytes, with the slice: index, count, first task, end task) or 2."""
    h = b"NQJOURNL" + struct.pack("<IIQ", version, n, tasks)
    h += engine.ljust(24, b"\0") + params.ljust(72, b"\0") + journal_id
    if version == 2:
        h += struct.pack("<I", 0)
    else:
        h += struct.pack("<IIQQ", *slice_) + bytes(12)
    return h + struct.pack("<I", zlib.crc32(h))


def record(task, sub, kind=1, hdr=None):
    """A record bound to its journal: the CRC runs over the header's bytes before its own
    CRC first."""
    key = zlib.crc32((hdr or header())[:-4])
    r = struct.pack("<QQI", task, sub, kind)
    return r + struct.pack("<I", zlib.crc32(r, key))


def v1_header(n=12, tasks=500):
    h = b"NQJOURNL" + struct.pack("<IIQ", 1, n, tasks)
    h += b"prefix".ljust(24, b"\0") + b"prefix_rows=3".ljust(72, b"\0") + struct.pack("<I", 0)
    return h + struct.pack("<I", zlib.crc32(h))


other = header(journal_id=b"another journal!")
seeds = {
    "header-only": header(),
    "three-records": header() + record(0, 10) + record(1, 20) + record(2, 30),
    "torn-fragment": header() + record(0, 10) + record(1, 20)[:11],
    "torn-last-record": header() + record(0, 10) + record(1, 20)[:-1] + b"\x00",
    "duplicate-same": header() + record(5, 1) + record(5, 1),
    "duplicate-conflict": header() + record(5, 1) + record(5, 2),
    "id-out-of-range": header(tasks=4) + record(4, 1, hdr=header(tasks=4)),
    "bad-kind": header() + record(0, 1, kind=2) + record(1, 1),
    "another-journals-body": header() + record(0, 1, hdr=other) + record(1, 1, hdr=other),
    "future-version": header(version=4),
    "version-2": header(version=2) + record(0, 10, hdr=header(version=2)),
    "slice": header(slice_=(1, 3, 100, 200)) + record(100, 1, hdr=header(slice_=(1, 3, 100, 200)))
    + record(199, 2, hdr=header(slice_=(1, 3, 100, 200))),
    "record-outside-slice": header(slice_=(1, 3, 100, 200))
    + record(200, 1, hdr=header(slice_=(1, 3, 100, 200))),
    "bad-slice": header(slice_=(3, 3, 0, 0)),
    "version-1": v1_header() + b"\0" * 24,
    "not-a-journal": b"task,subtotal\n0,167\n",
}
os.makedirs(here, exist_ok=True)
for name, data in seeds.items():
    with open(os.path.join(here, name), "wb") as f:
        f.write(data)
