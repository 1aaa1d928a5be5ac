#!/usr/bin/env python3
"""Test helper: check an `nqueens bench` report in FORMAT (json, github, bencher).

usage: bench_report_check.py FORMAT FILE
Strict JSON (NaN and Infinity rejected), the required fields, numbers finite and in order.
For json, prints one line per result: engine n threads total verified.
Exit 0 if the report is sound, else 1 with the reason on stderr."""
import json
import math
import sys

CONTEXT = ["date", "host", "cpu_model", "logical_cpus", "physical_cores", "allowed_cpus",
           "numa_nodes", "compiler", "flags", "build_type", "git_revision", "version"]
RESULT = ["engine", "n", "threads", "runs", "min", "median", "max", "total", "verified",
          "solutions_per_second", "speedup", "efficiency"]


def reject(const):
    raise ValueError(f"non-finite number {const}")


def number(v, what, allow_null=False):
    if v is None and allow_null:
        return
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
        raise ValueError(f"{what} is not a finite number: {v!r}")


def check_json(doc):
    ctx = doc["context"]
    for k in CONTEXT:
        if k not in ctx:
            raise ValueError(f"context lacks {k}")
    if not doc["results"]:
        raise ValueError("no results")
    for r in doc["results"]:
        for k in RESULT:
            if k not in r:
                raise ValueError(f"result lacks {k}")
        for k in ("min", "median", "max", "solutions_per_second"):
            number(r[k], k)
        for k in ("speedup", "efficiency"):
            number(r[k], k, allow_null=True)
        if not r["runs"] or any(number(x, "run") or x <= 0 for x in r["runs"]):
            raise ValueError("runs must be positive seconds")
        if not r["min"] <= r["median"] <= r["max"]:
            raise ValueError("min <= median <= max does not hold")
        if not isinstance(r["verified"], bool) or not isinstance(r["total"], int):
            raise ValueError("verified must be a boolean and total an integer")
        print(r["engine"], r["n"], r["threads"], r["total"], str(r["verified"]).lower())


def check_github(doc):
    if not isinstance(doc, list) or not doc:
        raise ValueError("github format must be a non-empty array")
    for e in doc:
        if not isinstance(e["name"], str) or not isinstance(e["unit"], str):
            raise ValueError("name and unit must be strings")
        number(e["value"], "value")
        if not isinstance(e["range"], str) or not isinstance(e["extra"], str):
            raise ValueError("range and extra must be strings")


def check_bencher(doc):
    if not isinstance(doc, dict) or not doc:
        raise ValueError("bencher format must be a non-empty object")
    for name, measures in doc.items():
        lat = measures["latency"]
        for k in ("value", "lower_value", "upper_value"):
            number(lat[k], k)
        if not lat["lower_value"] <= lat["value"] <= lat["upper_value"]:
            raise ValueError(f"{name}: lower_value <= value <= upper_value does not hold")


def main():
    fmt, path = sys.argv[1], sys.argv[2]
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f, parse_constant=reject)
        {"json": check_json, "github": check_github, "bencher": check_bencher}[fmt](doc)
    except (OSError, ValueError, KeyError, TypeError) as e:
        print(f"bench_report_check: {fmt} {path}: {type(e).__name__}: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
