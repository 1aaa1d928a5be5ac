#!/usr/bin/env python3
"""Test helper: check an `nqueens bench` report in FORMAT (json, csv, google-benchmark,
github, bencher, hyperfine).

usage: bench_report_check.py FORMAT FILE
Strict JSON (NaN and Infinity rejected), the required fields, numbers finite and in order.
For json and csv, prints one line per result: engine n threads total verified simd unique
(simd and unique "-" for an engine without them).
Exit 0 if the report is sound, else 1 with the reason on stderr."""
import csv
import json
import math
import sys

SCHEMA = 2
CONTEXT = ["date", "host", "cpu_model", "logical_cpus", "physical_cores", "allowed_cpus",
           "numa_nodes", "compiler", "flags", "build_type", "git_revision", "version",
           "repeat", "warmup", "pinning", "load_average", "interrupted"]
RESULT = ["engine", "n", "threads", "simd", "runs", "min_seconds", "median_seconds", "max_seconds",
          "sum_seconds", "median_cpu_seconds", "total", "verified", "verified_against",
          "solutions_per_second", "speedup", "efficiency", "tasks", "prefix_rows",
          "pinned_threads", "engine_asked", "mean_seconds", "stddev_seconds", "mean_cpu_seconds",
          "median_setup_seconds", "unique", "worker_memory"]
CSV = ["engine", "n", "threads", "runs", "median_seconds", "min_seconds", "max_seconds",
       "median_cpu_seconds", "solutions_per_second", "speedup", "efficiency", "total",
       "verified", "verified_against", "tasks", "prefix_rows", "pinned_threads", "simd",
       "mean_seconds", "stddev_seconds", "mean_cpu_seconds", "median_setup_seconds", "unique",
       "engine_asked", "worker_memory"]
HYPERFINE = ["command", "mean", "stddev", "median", "user", "system", "min", "max", "times"]
SIMD = ("scalar", "avx2", "avx512")


def reject(const):
    raise ValueError(f"non-finite number {const}")


def number(v, what, allow_null=False):
    if v is None and allow_null:
        return
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
        raise ValueError(f"{what} is not a finite number: {v!r}")


def check_spread(mean, stddev, lo, hi, runs, what):
    """mean within min..max; a standard deviation from 2 runs on, none (null) before."""
    number(mean, f"{what} mean")
    if not lo - 1e-12 <= mean <= hi + 1e-12:
        raise ValueError(f"{what}: min <= mean <= max does not hold")
    if runs < 2:
        if stddev is not None:
            raise ValueError(f"{what}: a standard deviation of one run")
    else:
        number(stddev, f"{what} stddev")
        if stddev < 0:
            raise ValueError(f"{what}: negative standard deviation")


def check_engine(name):
    if name == "auto":
        raise ValueError("engine must name the engine that ran, not auto")


def check_worker_memory(engine, v):
    """The join's workers' bytes (at least 4 MiB); none (null, or empty in CSV) for the rest."""
    if engine != "join":
        if v is not None:
            raise ValueError(f"worker_memory of {engine} must be null: {v!r}")
    elif isinstance(v, bool) or not isinstance(v, int) or v < 4 << 20:
        raise ValueError(f"worker_memory of join must be its bytes: {v!r}")


def check_json(doc):
    if doc.get("schema") != SCHEMA:
        raise ValueError(f"schema is {doc.get('schema')!r}, not {SCHEMA}")
    ctx = doc["context"]
    for k in CONTEXT:
        if k not in ctx:
            raise ValueError(f"context lacks {k}")
    if not isinstance(ctx["pinning"], bool) or len(ctx["load_average"]) != 2:
        raise ValueError("pinning must be a boolean and load_average two numbers")
    if not doc["results"] and not ctx["interrupted"]:
        raise ValueError("no results")
    for r in doc["results"]:
        for k in RESULT:
            if k not in r:
                raise ValueError(f"result lacks {k}")
        for k in ("min_seconds", "median_seconds", "max_seconds", "median_cpu_seconds",
                  "solutions_per_second"):
            number(r[k], k)
        for k in ("speedup", "efficiency"):
            number(r[k], k, allow_null=True)
        if not r["runs"]:
            raise ValueError("no runs")
        for run in r["runs"]:
            number(run["seconds"], "seconds")
            number(run["cpu_seconds"], "cpu_seconds")
            if run["seconds"] <= 0 or run["cpu_seconds"] < 0:
                raise ValueError("runs must be positive seconds")
        if not r["min_seconds"] <= r["median_seconds"] <= r["max_seconds"]:
            raise ValueError("min <= median <= max does not hold")
        if not isinstance(r["verified"], bool) or not isinstance(r["total"], int):
            raise ValueError("verified must be a boolean and total an integer")
        if not isinstance(r["pinned_threads"], int) or isinstance(r["pinned_threads"], bool):
            raise ValueError("pinned_threads must be an integer")
        if r["simd"] is not None and r["simd"] not in SIMD:
            raise ValueError(f"simd must be null or one of {', '.join(SIMD)}: {r['simd']!r}")
        check_engine(r["engine"])
        check_spread(r["mean_seconds"], r["stddev_seconds"], r["min_seconds"], r["max_seconds"],
                     len(r["runs"]), "seconds")
        if r["unique"] is not None and (not isinstance(r["unique"], int) or r["unique"] < 1):
            raise ValueError("unique must be null or a positive integer")
        check_worker_memory(r["engine"], r["worker_memory"])
        print(r["engine"], r["n"], r["threads"], r["total"], str(r["verified"]).lower(),
              r["simd"] or "-", "-" if r["unique"] is None else r["unique"])


def check_csv(text):
    rows = list(csv.DictReader(text.splitlines()))
    if not rows or list(rows[0].keys()) != CSV:
        raise ValueError(f"the header is not {','.join(CSV)}")
    for r in rows:
        for k in ("median_seconds", "min_seconds", "max_seconds", "median_cpu_seconds",
                  "solutions_per_second"):
            number(float(r[k]), k)
        for k in ("speedup", "efficiency"):
            if r[k] != "":
                number(float(r[k]), k)
        if not float(r["min_seconds"]) <= float(r["median_seconds"]) <= float(r["max_seconds"]):
            raise ValueError("min <= median <= max does not hold")
        if r["verified"] not in ("true", "false") or int(r["runs"]) < 1:
            raise ValueError("verified must be true or false, runs at least 1")
        if r["simd"] not in ("",) + SIMD:
            raise ValueError(f"simd must be empty or one of {', '.join(SIMD)}: {r['simd']!r}")
        check_engine(r["engine"])
        check_worker_memory(r["engine"], int(r["worker_memory"]) if r["worker_memory"] else None)
        check_spread(float(r["mean_seconds"]),
                     float(r["stddev_seconds"]) if r["stddev_seconds"] else None,
                     float(r["min_seconds"]), float(r["max_seconds"]), int(r["runs"]), "seconds")
        print(r["engine"], r["n"], r["threads"], int(r["total"]), r["verified"], r["simd"] or "-",
              r["unique"] or "-")


def check_google(doc):
    if not isinstance(doc.get("context"), dict) or not doc["benchmarks"]:
        raise ValueError("google-benchmark needs a context and benchmarks")
    for b in doc["benchmarks"]:
        if not isinstance(b["name"], str) or b["time_unit"] not in ("ns", "us", "ms", "s"):
            raise ValueError("name must be a string and time_unit ns, us, ms or s")
        number(b["real_time"], "real_time")
        number(b["cpu_time"], "cpu_time")
        if not isinstance(b["iterations"], int) or b["iterations"] < 1:
            raise ValueError("iterations must be a positive integer")
        if b["name"] != f"{b['run_name']}_{b['aggregate_name']}":
            raise ValueError(f"{b['name']}: not run_name _ aggregate_name")
    aggregates = {}
    for b in doc["benchmarks"]:
        aggregates.setdefault(b["run_name"], set()).add(b["aggregate_name"])
        check_engine(b["run_name"].split("/")[0])
    for name, have in aggregates.items():
        if not {"median", "mean"} <= have:
            raise ValueError(f"{name}: the median and the mean, each an aggregate")


def check_github(doc):
    if not isinstance(doc, list) or not doc:
        raise ValueError("github format must be a non-empty array")
    for e in doc:
        if not isinstance(e["name"], str) or not isinstance(e["unit"], str):
            raise ValueError("name and unit must be strings")
        number(e["value"], "value")
        if not isinstance(e["range"], str) or not isinstance(e["extra"], str):
            raise ValueError("range and extra must be strings")
        if "mean " not in e["extra"] or "stddev " not in e["extra"]:
            raise ValueError("extra must give the mean and the standard deviation")


def check_bencher(doc):
    if not isinstance(doc, dict) or not doc:
        raise ValueError("bencher format must be a non-empty object")
    for name, measures in doc.items():
        lat = measures["latency"]
        for k in ("value", "lower_value", "upper_value"):
            number(lat[k], k)
        if not 0 <= lat["lower_value"] <= lat["value"] <= lat["upper_value"]:
            raise ValueError(f"{name}: 0 <= lower_value <= value <= upper_value does not hold")
        mean = measures["latency-mean"]
        number(mean["value"], "latency-mean")
        if "lower_value" in mean and not 0 <= mean["lower_value"] <= mean["value"] <= \
                mean["upper_value"]:
            raise ValueError(f"{name}: latency-mean: 0 <= lower_value <= value <= upper_value "
                             "does not hold")


def check_hyperfine(doc):
    """hyperfine --export-json: what bench/hyperfine-summary.py and hyperfine's own
    scripts read."""
    if not isinstance(doc.get("results"), list) or not doc["results"]:
        raise ValueError("hyperfine format needs a non-empty results list")
    for r in doc["results"]:
        for k in HYPERFINE:
            if k not in r:
                raise ValueError(f"result lacks {k}")
        if not isinstance(r["command"], str) or not r["times"]:
            raise ValueError("command must be a string and times non-empty")
        for k in ("median", "min", "max", "user", "system"):
            number(r[k], k)
        for t in r["times"]:
            number(t, "times")
        times = sorted(r["times"])
        if r["min"] != times[0] or r["max"] != times[-1]:
            raise ValueError("min and max must be those of times")
        check_spread(r["mean"], r["stddev"], r["min"], r["max"], len(times), r["command"])
        if abs(r["mean"] - sum(times) / len(times)) > 1e-9 * max(1.0, r["mean"]):
            raise ValueError("mean must be the mean of times")


def main():
    fmt, path = sys.argv[1], sys.argv[2]
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        if fmt == "csv":
            check_csv(text)
        else:
            doc = json.loads(text, parse_constant=reject)
            {"json": check_json, "google-benchmark": check_google, "github": check_github,
             "bencher": check_bencher, "hyperfine": check_hyperfine}[fmt](doc)
    except (OSError, ValueError, KeyError, TypeError) as e:
        print(f"bench_report_check: {fmt} {path}: {type(e).__name__}: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
