#!/usr/bin/env bash
# The zsh completion, in a real interactive zsh (completion_zsh_harness.zsh presses TAB
# in zsh -f -i after compinit, with the file's folder on fpath), for every case of
# completion_cases.sh that is not bash's alone. Skipped (77) without zsh.
# usage: completion_zsh_test.sh _nqueens NQUEENS [NQUEENS-MPI]
set -uo pipefail
file=$1 tool=$2 mpi=${3:-}
command -v zsh >/dev/null || { echo "zsh is not installed: skipped"; exit 77; }
here=${0%/*}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck source=tests/completion_cases.sh
source "$here/completion_cases.sh"
# the tools by their names, as a user types them; the file alone on fpath's front
mkdir "$work/bin" "$work/fpath" "$work/files"
ln -s "$(realpath "$tool")" "$work/bin/nqueens"
[ -z "$mpi" ] || ln -s "$(realpath "$mpi")" "$work/bin/nqueens-mpi"
cp "$file" "$work/fpath/_nqueens"

failures=0 total=0
# run_cases CASES BIN NAME: each case of CASES typed in one zsh with BIN first on its path
run_cases() {
    local k=0
    cut -d'|' -f3 "$1" >"$1.lines"
    zsh -f "$here/completion_zsh_harness.zsh" "$work/fpath" "$2" "$1.lines" "$1.out" ||
        { echo "not ok: the zsh harness failed"; exit 1; }
    while IFS='|' read -r _ kind line want name; do
        k=$((k + 1))
        # the words between the markers "@@ k-1" and "@@ k"
        got=$(awk -v k="$k" '$0 == "@@ " k {exit} on && NF; $0 == "@@ " k - 1 {on = 1}' "$1.out")
        completion_check "$kind" "$want" "$got" "zsh: $3$name" "$line"
    done <"$1"
    total=$((total + k))
}
completion_cases "$tool" "$mpi" "$work/files" | grep -v '^bash|' >"$work/cases"
run_cases "$work/cases" "$work/bin" ""
# the words come from the tool: a stub that knows one more format gets it offered
mkdir "$work/stub"
completion_stub "$work/stub" "$(realpath "$tool")"
stub_cases | grep -v '^bash|' >"$work/stub-cases"
run_cases "$work/stub-cases" "$work/stub" "stub: "
echo "completion-zsh: $failures failed of $total"
exit $((failures > 0))
