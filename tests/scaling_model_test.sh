#!/bin/sh
# bench/scaling-model on four tasks whose schedules are worked by hand: the queue's order
# on one, two and four workers with the file's setup and with a modelled one, and a
# one-line error with exit 2 for a bad --setup.
# usage: scaling_model_test.sh path/to/bench/scaling-model
set -u
model=$1
. "$(dirname "$0")/checks.sh"
times=$(mktemp "${TMPDIR:-/tmp}/nq-scaling-XXXXXX")
trap 'rm -f "$times"' EXIT
printf '# setup_seconds 0.5\ntask,predicted,cpu_seconds\n1,0,4\n2,0,3\n3,0,2\n4,0,1\n' >"$times"

# want: "WORKERS MAKESPAN SPEEDUP EFFICIENCY" rows, from ARGS...
check() {
    want=$1
    shift
    got=$("$model" "$times" "$@" | awk '!/^#/ && $1 != "workers" {printf "%s %s %s %s;", $1, $2, $3, $4}')
    [ "$got" = "$want" ] || fail "$*: '$got', not '$want'"
}
# one worker 10 s of tasks; two: 4 and 3, then 2 after the 3 and 1 after the 4: 5 s
check '1 10.500 1.00 100.0;2 5.500 1.91 95.5;4 4.500 2.33 58.3;' --threads 1,2,4
# setup 1 + 2 / T + 0.25 T: 3.25 s on one, 2.5 s on two and on four
check '1 13.250 1.00 100.0;2 7.500 1.77 88.3;4 6.500 2.04 51.0;' --threads 1,2,4 --setup 1,2,0.25
# costliest first by the measured time: the same order here
check '2 5.500 1.91 95.5;' --threads 2 --order measured

for bad in 1,2 1,2,x 1,-2,0; do
    err=$("$model" "$times" --setup "$bad" 2>&1 >/dev/null)
    rc=$?
    [ "$rc" = 2 ] || fail "--setup $bad: exit $rc, not 2"
    [ "$(printf '%s\n' "$err" | wc -l)" = 1 ] || fail "--setup $bad: not one line: $err"
done

[ "$fails" = 0 ] && echo "scaling-model: every schedule as worked by hand"
exit $((fails > 0))
