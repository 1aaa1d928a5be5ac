#!/usr/bin/env bash
# The bash completion as a user meets it: `meson install --destdir`, then an interactive
# bash (bash --norc -i in tmux) with bash-completion, whose on-demand loader must find
# the installed files for nqueens and nqueens-mpi alike; TAB is pressed with send-keys
# and what bash shows is read back with capture-pane. Skipped (77) without tmux or
# bash-completion.
# usage: completion_interactive_test.sh BUILD NQUEENS [NQUEENS-MPI]
set -uo pipefail
build=$1 tool=$2 mpi=${3:-}
loader=/usr/share/bash-completion/bash_completion
command -v tmux >/dev/null || { echo "tmux is not installed: skipped"; exit 77; }
[ -f "$loader" ] || { echo "bash-completion is not installed: skipped"; exit 77; }
work=$(mktemp -d)
sock=$work/tmux.sock
trap 'tmux -S "$sock" kill-server 2>/dev/null; rm -rf "$work"' EXIT
meson install -C "$build" --destdir "$work/dest" --no-rebuild >"$work/install.log" 2>&1 ||
    { cat "$work/install.log"; exit 1; }
dir=$(find "$work/dest" -type d -path '*/bash-completion/completions' | head -n 1)
[ -n "$dir" ] || { echo "not ok: no bash-completion/completions folder installed"; exit 1; }
mkdir "$work/bin" "$work/files"
touch "$work/files/journal.nqj"
ln -s "$(realpath "$tool")" "$work/bin/nqueens"
[ -z "$mpi" ] || ln -s "$(realpath "$mpi")" "$work/bin/nqueens-mpi"

# A clean environment: the installed folder is where bash-completion looks for a user's
# completions, and nothing is loaded before the first TAB.
# One TAB lists every match, without asking or paging.
cat >"$work/rc" <<RC
PS1='$ '
bind 'set show-all-if-ambiguous on'
bind 'set completion-query-items 1000'
bind 'set page-completions off'
source $loader
RC
tmux -S "$sock" new-session -d -x 200 -y 50 \
    env -i HOME="$work" HISTFILE=/dev/null TERM=xterm PATH="$work/bin:/usr/bin:/bin" \
    BASH_COMPLETION_USER_DIR="${dir%/completions}" bash --norc --noprofile -i
tmux -S "$sock" send-keys -l "source $work/rc; echo @@0"
tmux -S "$sock" send-keys Enter

# screen K: what the screen shows between the marker lines "@@K-1" and "@@K"; waits
# up to 10 s for "@@K"
screen() {
    local k=$1 tries=0 text
    while [ $((tries += 1)) -le 200 ]; do
        text=$(tmux -S "$sock" capture-pane -p -J -S -10000)
        if grep -qx "@@$k" <<<"$text"; then
            awk -v k="$k" '$0 == "@@" k {exit} on; $0 == "@@" k - 1 {on = 1}' <<<"$text"
            return
        fi
        sleep 0.05
    done
    echo "(no answer: $text)"
}

failures=0 k=0
screen 0 >/dev/null
# tab NAME LINE [+WORD|-WORD]...: types LINE, presses TAB, and checks that the screen
# then shows each +WORD and no -WORD (as whole words): in the list of matches, or in
# the line itself when the match was one and bash put it there
tab() {
    local name=$1 line=$2 shown check bad=""
    shift 2
    k=$((k + 1))
    tmux -S "$sock" send-keys -l "$line"
    tmux -S "$sock" send-keys Tab
    # the line as completed stays on the screen, run as a comment
    tmux -S "$sock" send-keys C-a '#' Enter
    tmux -S "$sock" send-keys -l "echo @@$k"
    tmux -S "$sock" send-keys Enter
    shown=$(screen "$k")
    for check in "$@"; do
        case $check in
        +*) grep -qwF -- "${check#+}" <<<"$shown" || bad+=" lacks ${check#+}" ;;
        -*) grep -qwF -- "${check#-}" <<<"$shown" && bad+=" shows ${check#-}" ;;
        esac
    done
    if [ -n "$bad" ]; then
        echo "not ok: $name:$bad; the screen:"
        printf '    %s\n' "${shown//$'\n'/$'\n'    }"
        failures=$((failures + 1))
    else
        echo "ok: $name"
    fi
}

# nqueens-mpi first, so that nothing has loaded the script under the name nqueens
if [ -n "$mpi" ]; then
    tab "nqueens-mpi -- loads the completion" "nqueens-mpi --" +--help +--version
    tab "nqueens-mpi count --wor completes" "nqueens-mpi count --wor" +--worker-timeout
fi
# the engines count's help names: "one of auto, prefix, d4, cuda, join (default: auto)"
engines=$("$tool" count --help | sed -n 's/.*--engine E .*one of \([^(]*\) (.*/\1/p' | tr -d ,)
args=()
for e in $engines; do args+=("+$e"); done
tab "count --engine= lists the engines" "nqueens count --engine=" "${args[@]}" -all
tab "count -e lists no 'all'" "nqueens count -e " "${args[@]}" -all
tab "bench -e lists 'all', no 'or'" "nqueens bench -e " "${args[@]}" +all -or
tab "--progress= lists the modes" "nqueens count --progress=" +bar +json
tab "list --format=l" "nqueens list 8 --format=l" +leetcode +luogu -columns
tab "a command by its prefix" "nqueens li" +list
tab "--checkpoint takes a file" "nqueens count 8 --checkpoint $work/files/jo" +"$work/files/journal.nqj"
echo "completion-interactive: $failures failed of $k"
exit $((failures > 0))
