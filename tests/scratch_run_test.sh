#!/bin/sh
# scratch_run.py: the test's files go to a folder of its own ($TMPDIR), removed however the
# test ends (a pass, a failure, a crash, a SIGTERM such as meson's on a timeout), and the
# exit status is the test's; and no C test makes a file of its own outside scratch.h.
# usage: scratch_run_test.sh path/to/scratch_run.py path/to/tests
set -u
run=$1 tests=$2
. "$(dirname "$0")/checks.sh"

# how the test ends | the status the wrapper must give
for case in 'exit 0|0' 'exit 3|3' 'kill -SEGV $$|139' 'kill -TERM $$|143'; do
    end=${case%|*} want=${case#*|}
    dir=$("$run" sh -c 'echo "$TMPDIR"; touch "$TMPDIR/nq-left"; '"$end")
    rc=$?
    [ "$rc" = "$want" ] || fail "'$end': exit $rc, not $want"
    case $dir in "${TMPDIR:-/tmp}"/nq-test-*) ;; *) fail "'$end': TMPDIR was '$dir'" ;; esac
    [ ! -e "$dir" ] || fail "'$end': $dir is still there"
done

# SIGTERM to the wrapper (meson stops a test that ran past its time so): passed on to the
# test, and the folder goes once the test has ended. The test prints its pid too, so that a
# wrapper that failed to pass the signal on leaves a FAIL here, not a sleep that holds
# meson's pipe until this test's own time runs out.
out=$(mktemp "${TMPDIR:-/tmp}/nq-scratch-out-XXXXXX")
"$run" sh -c 'echo "$TMPDIR $$"; touch "$TMPDIR/nq-left"; exec sleep 30' >"$out" &
pid=$!
for _ in $(seq 100); do [ -s "$out" ] && break; sleep 0.05; done
read -r dir child <"$out"
kill -TERM "$pid"
wait "$pid"
rc=$?
[ "$rc" = 143 ] || fail "SIGTERM to the wrapper: exit $rc, not 143"
if kill -0 "$child" 2>/dev/null; then
    fail "SIGTERM to the wrapper: the test ($child) still runs"
    kill -KILL "$child"
fi
[ -n "$dir" ] && [ ! -e "$dir" ] || fail "SIGTERM to the wrapper: '$dir' is still there"
rm -f "$out"

# Every C test's temporary file comes from scratch.h, so that it lands in the folder.
stray=$(grep -rnE --include='*.c' --include='*.h' 'mkstemp|mkdtemp|tmpfile *\(|"/tmp/nq-' "$tests" |
    grep -v '^[^:]*/scratch\.h:')
[ -z "$stray" ] || fail "temporary files made outside scratch.h:
$stray"

[ "$fails" = 0 ] && echo "scratch_run: every ending removes the folder"
exit $((fails > 0))
