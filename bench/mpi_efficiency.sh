#!/usr/bin/env bash
# Parallel efficiency of nqueens-mpi: 1 rank vs P ranks, each with 1 thread, plus plain
# nqueens with 1 thread as the no-MPI floor, timed with hyperfine (one warm-up, R runs
# each). Reports the median wall time of the whole command, the median of the count's own
# seconds (after MPI start-up, from its --json line) and the mean CPU seconds (user + sys
# of every process), which a busy shared machine disturbs less.
# Usage: bench/mpi_efficiency.sh [N=16] [P=2] [R=3]   (after ./scripts/build)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-16} p=${2:-2} runs=${3:-3}
dir=${NQ_BUILD_DIR:-build}
./scripts/setup --bench
mpirun="mpirun -q --oversubscribe"
[ "$(id -u)" -eq 0 ] && mpirun+=" --allow-run-as-root"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# One hyperfine per configuration, so that each one's output (the --json lines, warm-up
# first) lands in a file of its own.
for cfg in nqueens mpi1 "mpi$p"; do
    case $cfg in
    nqueens) cmd="$dir/src/cli/nqueens count $n --threads 1 --json" ;;
    mpi*) cmd="$mpirun -np ${cfg#mpi} $dir/src/mpi/nqueens-mpi count $n --threads 1 --json" ;;
    esac
    hyperfine -N --style basic --warmup 1 --runs "$runs" --output "$tmp/$cfg.out" \
        --export-json "$tmp/$cfg.json" -n "$cfg" "$cmd" >&2
done
python3 - "$tmp" "$p" "$runs" <<'PY'
import json, os, re, statistics, sys
tmp, p, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
stats = {}
for cfg in ["nqueens", "mpi1", "mpi" + p]:
    r = json.load(open(os.path.join(tmp, cfg + ".json")))["results"][0]
    inner = [float(s) for s in re.findall(r'"seconds": ([0-9.]+)', open(os.path.join(tmp, cfg + ".out")).read())]
    inner = inner[-runs:]  # the warm-up run's line comes first
    stats[cfg] = (r["median"], statistics.median(inner), r["user"] + r["system"])
    print(f"{cfg:8} median wall {stats[cfg][0]:7.3f} s   count {stats[cfg][1]:7.3f} s   "
          f"cpu {stats[cfg][2]:7.3f} s")
m1, mp = stats["mpi1"][1], stats["mpi" + p][1]
c1, cp = stats["mpi1"][2], stats["mpi" + p][2]
print(f"speedup 1 -> {p} ranks: {m1 / mp:.3f}x, efficiency {m1 / (int(p) * mp):.3f}")
print(f"cpu seconds {p} ranks / 1 rank: {cp / c1:.3f} (1.000 = no overhead)")
PY
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"
