#!/usr/bin/env bash
# scripts/bench-compare on crafted reports: the same, faster, slower within the noise or
# the threshold (exit 0), slower beyond both (exit 1), unverified (1), bad input (2).
set -uo pipefail
compare=${1:-"$(dirname "$0")/../scripts/bench-compare"}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
failures=0

# report FILE RUNS... : one result (prefix, n=14, threads=1) with these run times, in
# the vocabulary of schema 2 (OLD_SCHEMA=1: the unversioned one before it; SCHEMA=1: schema
# 1; SIMD=path: the vector path the result ran; ENGINE=name, ASKED=name: the engine that
# ran and the one asked; HYPERFINE=1: as hyperfine --export-json).
report() {
    local f=$1 verified=${VERIFIED:-true} old=${OLD_SCHEMA:-0} simd=${SIMD:-}
    shift
    ENGINE=${ENGINE:-prefix} ASKED=${ASKED:-} HYPERFINE=${HYPERFINE:-0} SCHEMA=${SCHEMA:-2} \
        python3 - "$f" "$verified" "$old" "$simd" "$@" <<'PY'
import json, os, statistics, sys
f, verified, old, simd = sys.argv[1], sys.argv[2] == "true", sys.argv[3] == "1", sys.argv[4]
runs = [float(x) for x in sys.argv[5:]]
engine = os.environ["ENGINE"]
if os.environ["HYPERFINE"] == "1":
    mean = statistics.mean(runs)
    json.dump({"results": [{"command": f"nqueens count 14 --engine {engine} --threads 1",
                            "mean": mean, "stddev": statistics.stdev(runs),
                            "median": statistics.median(runs), "user": mean, "system": 0.0,
                            "min": min(runs), "max": max(runs), "times": runs,
                            "exit_codes": [0 if verified else 1] * len(runs),
                            "parameters": {"engine": engine, "n": "14", "threads": "1"}}]},
              open(f, "w"))
    sys.exit(0)
if old:
    result = {"runs": runs, "min": min(runs), "median": statistics.median(runs),
              "max": max(runs)}
else:
    result = {"runs": [{"seconds": x, "cpu_seconds": x} for x in runs],
              "min_seconds": min(runs), "median_seconds": statistics.median(runs),
              "max_seconds": max(runs)}
result.update({"engine": engine, "n": 14, "threads": 1, "verified": verified})
if simd:
    result["simd"] = simd
if os.environ["ASKED"]:
    result["engine_asked"] = os.environ["ASKED"]
doc = {"context": {"version": "test"}, "results": [result]}
if not old:
    doc["schema"] = int(os.environ["SCHEMA"])
json.dump(doc, open(f, "w"))
PY
}

# expect WANT_RC WANT_TEXT NAME ARGS... : run bench-compare, check its exit code and output.
expect() {
    local want=$1 text=$2 name=$3 out rc
    shift 3
    out=$("$compare" "$@" 2>&1)
    rc=$?
    if [ "$rc" -ne "$want" ] || ! grep -q -- "$text" <<<"$out"; then
        echo "not ok: $name: exit $rc (want $want), want output with '$text':"
        echo "$out" | sed 's/^/    /'
        failures=$((failures + 1))
    else
        echo "ok: $name"
    fi
}

report "$dir/base.json" 1.00 1.01 1.02 1.03 1.04
report "$dir/faster.json" 0.60 0.61 0.62 0.63 0.64
report "$dir/slow16.json" 1.60 1.62 1.63 1.65 1.66
report "$dir/slow5.json" 1.05 1.06 1.07 1.08 1.09
# old with wide noise, and a 30% slower new whose runs mostly overlap it
report "$dir/noisy.json" 0.90 1.00 1.30 1.60 1.90
report "$dir/noisy_slow.json" 1.50 1.60 1.70 1.80 1.95
# an outlier in the old runs makes the ranges overlap; the rank test still sees it
report "$dir/outlier.json" 1.00 1.01 1.02 1.03 1.04 1.05 1.06 1.07 3.00
report "$dir/outlier_slow.json" 1.50 1.51 1.52 1.53 1.54 1.55 1.56 1.57 1.58
VERIFIED=false report "$dir/wrong.json" 1.00 1.01 1.02 1.03 1.04
OLD_SCHEMA=1 report "$dir/old_base.json" 1.00 1.01 1.02 1.03 1.04
SIMD=avx512 report "$dir/avx512.json" 1.00 1.01 1.02 1.03 1.04
SIMD=avx2 report "$dir/avx2.json" 1.00 1.01 1.02 1.03 1.04
SCHEMA=1 report "$dir/schema1.json" 1.00 1.01 1.02 1.03 1.04
HYPERFINE=1 report "$dir/hyperfine.json" 1.00 1.01 1.02 1.03 1.04
HYPERFINE=1 report "$dir/hyperfine_slow.json" 1.60 1.62 1.63 1.65 1.66
HYPERFINE=1 VERIFIED=false report "$dir/hyperfine_failed.json" 1.00 1.01 1.02 1.03 1.04
SCHEMA=1 ENGINE=auto report "$dir/auto1.json" 1.00 1.01 1.02 1.03 1.04
ENGINE=join ASKED=auto report "$dir/join_slow.json" 1.60 1.62 1.63 1.65 1.66
echo '{"results": 3}' >"$dir/bad.json"
echo 'not json' >"$dir/garbage.json"

expect 0 "same" "self-compare passes" "$dir/base.json" "$dir/base.json"
expect 0 "faster" "faster passes" "$dir/base.json" "$dir/faster.json"
expect 1 "REGRESSION (ranges disjoint)" "uniform 1.6x slowdown fails" "$dir/base.json" "$dir/slow16.json"
expect 0 "slower, within threshold" "5% slower passes" "$dir/base.json" "$dir/slow5.json"
expect 0 "slower, within noise" "30% slower inside the noise passes" "$dir/noisy.json" "$dir/noisy_slow.json"
expect 1 "REGRESSION (rank test" "slower beyond noise despite an outlier fails" "$dir/outlier.json" "$dir/outlier_slow.json"
expect 0 "slower, within threshold" "1.6x with --threshold 70 passes" "$dir/base.json" "$dir/slow16.json" --threshold 70
expect 1 "not verified" "an unverified new count fails" "$dir/base.json" "$dir/wrong.json"
expect 0 "same" "a report from before schema 1 compares with a new one" "$dir/old_base.json" "$dir/base.json"
expect 1 "REGRESSION (ranges disjoint)" "and finds the slowdown" "$dir/old_base.json" "$dir/slow16.json"
expect 0 "same (simd avx512 -> avx2)" "another vector path is said" "$dir/avx512.json" "$dir/avx2.json"
expect 0 "same (simd - -> avx512)" "and a report without paths" "$dir/base.json" "$dir/avx512.json"
expect 0 "same" "a schema 1 report compares with a schema 2 one" "$dir/schema1.json" "$dir/base.json"
expect 0 "same" "a hyperfine export compares with a report" "$dir/base.json" "$dir/hyperfine.json"
expect 1 "REGRESSION (ranges disjoint)" "and two exports find the slowdown" "$dir/hyperfine.json" "$dir/hyperfine_slow.json"
expect 1 "not verified" "a run that exited nonzero fails" "$dir/hyperfine.json" "$dir/hyperfine_failed.json"
expect 1 "REGRESSION" "a schema 1 auto row matches the engine that ran for auto" "$dir/auto1.json" "$dir/join_slow.json"
expect 2 "not an nqueens bench" "a report without results is a usage error" "$dir/base.json" "$dir/bad.json"
expect 2 "cannot read" "garbage is a usage error" "$dir/garbage.json" "$dir/base.json"
expect 2 "cannot read" "a missing file is a usage error" "$dir/none.json" "$dir/base.json"
expect 2 "invalid --threshold" "a bad threshold is a usage error" "$dir/base.json" "$dir/base.json" --threshold x
expect 2 "expected two reports" "one report is a usage error" "$dir/base.json"

[ "$failures" -eq 0 ] && echo "bench-compare: all cases passed" || exit 1
