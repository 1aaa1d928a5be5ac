#!/usr/bin/env bash
# bench/list.sh [N] [RUNS]: time `nqueens list N > /dev/null` in its formats and thread
# counts against the counting baseline (bench/baseline.c) with hyperfine
# (one warm-up, RUNS runs each), and print the median wall time and mean CPU time of each
# and their ratios to the baseline; the JSON export stays in $NQ_BUILD_DIR/bench-list.json.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-15}
runs=${2:-5}
dir=${NQ_BUILD_DIR:-build}
./scripts/setup --bench
nq=$dir/src/cli/nqueens
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
base=$tmp/baseline
cc -O3 -march=native -o "$base" bench/baseline.c
json="$dir/bench-list.json"
hyperfine -N --style basic --warmup 1 --runs "$runs" --export-json "$json" \
    -n "baseline count" "$base $n" \
    -n "list columns -t1" "$nq list $n --threads 1 --no-pin" \
    -n "list columns -t2" "$nq list $n --threads 2 --no-pin" \
    -n "list leetcode -t2" "$nq list $n --format leetcode --threads 2 --no-pin" \
    -n "list acwing -t2" "$nq list $n --format acwing --threads 2 --no-pin" \
    -n "count -t1" "$nq count $n --threads 1 --no-pin" >&2
bench/hyperfine-summary.py "$json" "n=$n, $runs runs each (seconds):"
