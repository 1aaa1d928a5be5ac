#!/usr/bin/env bash
# Parallel efficiency of nqueens-mpi: 1 rank vs P ranks, each with 1 thread, side by side
# (interleaved, median of R runs), plus plain nqueens with 1 thread as the no-MPI floor.
# Reports wall time of the whole command, the count's own seconds (after MPI start-up),
# and CPU seconds (user + sys of every process), which a busy shared machine disturbs less.
# Usage: bench/mpi_efficiency.sh [N=16] [P=2] [R=3]   (after ./scripts/build)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-16} p=${2:-2} runs=${3:-3}
dir=${NQ_BUILD_DIR:-build}
mpirun=(mpirun -q --oversubscribe)
[ "$(id -u)" -eq 0 ] && mpirun+=(--allow-run-as-root)
declare -A wall inner cpu
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
wall_of() { # prints "wall inner cpu" seconds for one run of the command
    local out t TIMEFORMAT='%R %U %S'
    { time "$@" >"$tmp"; } 2>"$tmp.t"
    out=$(cat "$tmp")
    read -r -a t < <(tail -n 1 "$tmp.t")
    rm -f "$tmp.t"
    echo "${t[0]} $(sed -n 's/.*"seconds": \([0-9.]*\).*/\1/p' <<<"$out") $(echo "${t[1]} + ${t[2]}" | bc)"
}
for ((r = 1; r <= runs; r++)); do
    for cfg in nqueens mpi1 "mpi$p"; do
        case $cfg in
        nqueens) cmd=("$dir/src/cli/nqueens" count "$n" --threads 1 --json) ;;
        mpi*) cmd=("${mpirun[@]}" -np "${cfg#mpi}" "$dir/src/mpi/nqueens-mpi" count "$n" --threads 1 --json) ;;
        esac
        read -r w i c < <(wall_of "${cmd[@]}")
        wall[$cfg]+="$w " inner[$cfg]+="$i " cpu[$cfg]+="$c "
        echo "run $r $cfg: wall ${w}s, count ${i}s, cpu ${c}s" >&2
    done
done
median() { tr ' ' '\n' <<<"$1" | sed '/^$/d' | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for cfg in nqueens mpi1 "mpi$p"; do
    printf '%-8s median wall %7.3f s   count %7.3f s   cpu %7.3f s\n' "$cfg" \
        "$(median "${wall[$cfg]}")" "$(median "${inner[$cfg]}")" "$(median "${cpu[$cfg]}")"
done
m1=$(median "${inner[mpi1]}") mp=$(median "${inner[mpi$p]}")
c1=$(median "${cpu[mpi1]}") cp=$(median "${cpu[mpi$p]}")
echo "speedup 1 -> $p ranks: $(echo "scale=3; $m1 / $mp" | bc)x, efficiency $(echo "scale=3; $m1 / ($p * $mp)" | bc)"
echo "cpu seconds $p ranks / 1 rank: $(echo "scale=3; $cp / $c1" | bc) (1.000 = no overhead)"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
