# Sourced by the shell tests (. "$(dirname "$0")/checks.sh"): the failed checks' count and
# the checks they all make alike.
fails=0

# One failed check: its line, counted.
fail() {
    echo "FAIL: $*"
    fails=$((fails + 1))
}

# PROGRAM ARGS...: the command refuses them, with exit 2 and one line on stderr.
refused() {
    err=$("$@" 2>&1 >/dev/null)
    rc=$?
    [ $rc -eq 2 ] || fail "$*: exit $rc, not 2"
    [ "$(echo "$err" | wc -l)" -eq 1 ] && [ -n "$err" ] || fail "$*: not one line: $err"
}

# NAME: the closing line, and the status, 0 when every check passed.
finish() {
    [ $fails -eq 0 ] && echo "$1: all checks passed"
    [ $fails -eq 0 ]
}
