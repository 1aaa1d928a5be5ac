#!/bin/sh
# bench/join-growth on a stand-in for nqueens (its JSON fields, fixed times): each
# round's count, estimate, count again and the step from the counts' mean, exit 1 where a
# count is not verified, and a one-line error with exit 2 for bad arguments or a command
# that fails.
# usage: join_growth_test.sh path/to/bench/join-growth
set -u
growth=$1
. "$(dirname "$0")/checks.sh"
dir=$(mktemp -d "${TMPDIR:-/tmp}/nq-growth-XXXXXX")
trap 'rm -rf "$dir"' EXIT

# a stand-in: count takes 9 s, then 11 s (a file keeps the turn), verified as VERIFIED;
# estimate 8,000 s (4,000 .. 16,000); another command exits 2
stand_in() { # NAME VERIFIED
    cat >"$dir/$1" <<EOS
#!/bin/sh
case "\$1" in
count)
    if [ -e "$dir/$1.turn" ]; then s=11; rm "$dir/$1.turn"; else s=9; touch "$dir/$1.turn"; fi
    echo "{\"cpu_seconds\": \$s, \"verified\": $2}" ;;
estimate)
    echo '{"cpu_seconds": 8000, "cpu_seconds_low": 4000, "cpu_seconds_high": 16000,'
    echo ' "sampled_tasks": 12, "sampled_in_parts": 3}' ;;
*) echo "nqueens: no such command" >&2; exit 2 ;;
esac
EOS
    chmod +x "$dir/$1"
}
stand_in good true
stand_in unverified false

# 8,000 / mean(9, 11) = 800 over two steps: x28.284 (20 .. 40 by the interval)
out=$("$growth" "$dir/good" --from 3 --to 5 --seconds 1 --seeds 1,2)
rc=$?
[ $rc -eq 0 ] || fail "good: exit $rc"
[ "$(echo "$out" | grep -c 'step 3 to 5: x28.284 a step (20.000 .. 40.000 by the interval)')" -eq 2 ] ||
    fail "steps: $out"
echo "$out" | grep -q 'the counts 9 s and 11 s (1.222x)' || fail "counts: $out"
echo "$out" | grep -q 'estimate 5 --seconds 1 --seed 2: 8000 s CPU (4000 .. 1.6e+04), 12 tasks' ||
    fail "estimate: $out"
echo "$out" | grep -q '^steps over 2 rounds: x28.284 .. x28.284, mean x28.284$' || fail "rounds: $out"

"$growth" "$dir/unverified" --from 3 --to 5 --seconds 1 >/dev/null
rc=$?
[ $rc -eq 1 ] || fail "unverified: exit $rc, not 1"

refused "$growth"
refused "$growth" "$dir/good" --from 5 --to 3
refused "$growth" "$dir/good" --from 3 --to 28
refused "$growth" "$dir/good" --seconds 0
refused "$growth" "$dir/good" --seeds 1,x
refused "$growth" "$dir/good" --from x
refused "$growth" "$dir/none"
refused "$growth" /bin/false
refused "$growth" /bin/echo

finish join-growth
