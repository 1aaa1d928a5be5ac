#!/bin/sh
# bench/join-tasks-ab on stand-ins for bench-join-tasks (its output format, fixed times):
# the ratio of each round and the median, exit 1 where a subtotal differs, and a one-line
# error with exit 2 for bad arguments or a program that fails. Skipped (77) without two
# CPUs to pin to.
# usage: join_tasks_ab_test.sh path/to/bench/join-tasks-ab
set -u
taskset -c 1 true 2>/dev/null || { echo "SKIP: no CPU 1 to pin to"; exit 77; }
ab=$1
. "$(dirname "$0")/checks.sh"
dir=$(mktemp -d "${TMPDIR:-/tmp}/nq-ab-XXXXXX")
trap 'rm -rf "$dir"' EXIT

# a stand-in: each id with subtotal SUB (id + SUB), 0.1 s each; the sum SUM
stand_in() { # NAME SUB SUM
    cat >"$dir/$1" <<EOS
#!/bin/sh
shift
shift
for i in "\$@"; do echo "\$i \$((i + $2)) 0.1000"; done
echo "sum of the \$# tasks after the first: $3 s"
EOS
    chmod +x "$dir/$1"
}
stand_in a 0 2.000
stand_in b 0 1.500
stand_in c 1 1.500
printf '#!/bin/sh\necho "bench-join-tasks: invalid argument" >&2\nexit 2\n' >"$dir/bad"
chmod +x "$dir/bad"

out=$("$ab" "$dir/a" "$dir/b" 16 3 0 5 10)
rc=$?
[ $rc -eq 0 ] || fail "the same subtotals: exit $rc"
[ "$(echo "$out" | grep -c 'B/A 0.750, same subtotals')" -eq 3 ] || fail "rounds: $out"
echo "$out" | grep -q '^median B/A over 3 rounds: 0.750$' || fail "median: $out"
echo "$out" | grep -q '^round 2: A 2.000 s (cpu 1), B 1.500 s (cpu 0)' || fail "swap: $out"

out=$("$ab" "$dir/a" "$dir/c" 16 1 0 5 10)
rc=$?
[ $rc -eq 1 ] || fail "differing subtotals: exit $rc, not 1"
echo "$out" | grep -q 'SUBTOTALS DIFFER' || fail "differing subtotals: $out"

refused "$ab" "$dir/a" "$dir/b"
refused "$ab" "$dir/a" "$dir/none" 16 1 0
refused "$ab" "$dir/a" "$dir/b" 16 0 0
refused "$ab" "$dir/a" "$dir/b" 16 x 0
refused "$ab" "$dir/bad" "$dir/b" 16 1 0

finish join-tasks-ab
