#!/usr/bin/env bash
# ./scripts/test must run the unit suite even in a build dir configured without it (as
# scripts/run leaves one made before Criterion was installed), and its summary must fail
# when no Criterion test ran. Builds a second, small tree (-O0, optional parts off).
set -uo pipefail
src=$1
# scripts/test runs meson test, which would run this test again in the inner tree.
[ -n "${NQ_TEST_COMMAND_INNER:-}" ] && exit 77
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
check() {
    if [ "$2" = yes ]; then echo "ok: $1"; else echo "not ok: $1"; failures=$((failures + 1)); fi
}
meson setup "$tmp/b" "$src" --buildtype=debug -Dnative=false -Dtests=disabled -Dmpi=disabled \
    -Dcuda=disabled -Dman=disabled -Dhwloc=disabled >"$tmp/setup.log" 2>&1 ||
    { cat "$tmp/setup.log"; exit 1; }
inner() { NQ_TEST_COMMAND_INNER=1 NQ_BUILD_DIR="$tmp/b" "$src/scripts/test" "$@" >"$tmp/out" 2>&1; }

inner queue-unit
rc=$?
summary=$(tail -n 1 "$tmp/out")
echo "# with -Dtests=disabled: rc $rc, $summary"
check "scripts/test exits 0" "$([ $rc -eq 0 ] && echo yes)"
check "the Criterion tests ran" "$([[ $summary =~ ^tests:\ [1-9][0-9]*\ passed,\ 0\ failed ]] && echo yes)"
check "the unit test is in the log" "$(grep -q '"name": "[^"]*queue-unit"' "$tmp/b/meson-logs/testlog.json" && echo yes)"

# Only a script test selected: no Criterion test in the log, so the summary says FAILED.
inner setup-steps
rc=$?
summary=$(tail -n 1 "$tmp/out")
echo "# no Criterion test: rc $rc, $summary"
check "scripts/test fails when no Criterion test ran" "$([ $rc -ne 0 ] && echo yes)"
check "the summary says the unit suite did not run" "$([[ $summary == *"unit suite did not run"* ]] && echo yes)"
[ $failures -eq 0 ] || { echo "# scripts/test output:"; sed 's/^/#   /' "$tmp/out"; }
exit $((failures > 0))
