#!/usr/bin/env bash
# bench/list.sh [N] [RUNS]: time `nqueens list N > /dev/null` in its formats and thread
# counts against the counting baseline (../shared/reference/baseline.c), interleaved,
# and print the median wall time of each and its ratio to the baseline.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-15}
runs=${2:-5}
nq=${NQ_BUILD_DIR:-build}/src/cli/nqueens
base=$(mktemp -d)/baseline
cc -O3 -march=native -o "$base" ../shared/reference/baseline.c
labels=("baseline count" "list columns -t1" "list columns -t2" "list leetcode -t2"
    "list acwing -t2" "count -t1")
cmds=("$base $n" "$nq list $n --threads 1 --no-pin" "$nq list $n --threads 2 --no-pin"
    "$nq list $n --format leetcode --threads 2 --no-pin"
    "$nq list $n --format acwing --threads 2 --no-pin" "$nq count $n --threads 1 --no-pin")
declare -A times
for ((r = 0; r < runs; r++)); do
    for i in "${!cmds[@]}"; do
        t0=$(date +%s.%N)
        ${cmds[$i]} >/dev/null
        t1=$(date +%s.%N)
        times[$i]+="$(echo "$t1 - $t0" | bc) "
    done
done
median() { tr ' ' '\n' | grep . | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
b=$(echo "${times[0]}" | median)
printf '%-20s %10s %8s   (n=%d, median of %d, interleaved)\n' "" "seconds" "/base" "$n" "$runs"
for i in "${!cmds[@]}"; do
    m=$(echo "${times[$i]}" | median)
    printf '%-20s %10.3f %8.2f\n' "${labels[$i]}" "$m" "$(echo "$m / $b" | bc -l)"
done
