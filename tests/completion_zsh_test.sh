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

completion_cases "$tool" "$mpi" "$work/files" | grep -v '^bash|' >"$work/cases"
cut -d'|' -f3 "$work/cases" >"$work/lines"
zsh -f "$here/completion_zsh_harness.zsh" "$work/fpath" "$work/bin" "$work/lines" "$work/out" ||
    { echo "not ok: the zsh harness failed"; exit 1; }
failures=0 k=0
while IFS='|' read -r _ kind line want name; do
    k=$((k + 1))
    # the words between the markers "@@ k-1" and "@@ k"
    got=$(awk -v k="$k" '$0 == "@@ " k {exit} on && NF; $0 == "@@ " k - 1 {on = 1}' "$work/out")
    completion_check "$kind" "$want" "$got" "zsh: $name" "$line"
done <"$work/cases"
echo "completion-zsh: $failures failed of $k"
exit $((failures > 0))
