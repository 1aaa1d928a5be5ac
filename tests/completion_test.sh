#!/usr/bin/env bash
# The bash completion, called the way bash calls it: the line split into COMP_WORDS as
# readline splits it (COMP_WORDBREAKS makes '--engine=' two words, '--engine' and '='),
# with COMP_LINE, COMP_POINT and the function's three arguments, for every case of
# completion_cases.sh (the commands, every option of the help, the values each one
# accepts, files), for nqueens and nqueens-mpi.
# usage: completion_test.sh SCRIPT NQUEENS [NQUEENS-MPI]
set -uo pipefail
script=$1 tool=$2 mpi=${3:-}
# shellcheck source=/dev/null
source "$script"

# replies TOOL LINE: what TAB at the end of LINE offers, sorted, one a line. The words
# are split as readline does with the default COMP_WORDBREAKS (the lines here hold no
# quotes): at blanks, and each run of '=' or ':' a word of its own.
replies() {
    local prog=$1 line=$2 rest=$2 word=
    local -a words=()
    while [ -n "$rest" ]; do
        case ${rest:0:1} in
        ' ') [ -n "$word" ] && words+=("$word") && word= ;;
        = | :) [ -n "$word" ] && words+=("$word") && word=
            while [[ ${rest:0:1} == [=:] ]]; do word+=${rest:0:1}; rest=${rest:1}; done
            words+=("$word") word=
            continue ;;
        *) word+=${rest:0:1} ;;
        esac
        rest=${rest:1}
    done
    # the word under the cursor: the one being typed, or a new empty one after a blank
    if [ -n "$word" ]; then words+=("$word"); elif [ "${line: -1}" = ' ' ]; then words+=(''); fi
    local func
    func=$(complete -p "${prog##*/}" 2>/dev/null | sed -n 's/.*-F \([^ ]*\).*/\1/p')
    [ -n "$func" ] || { echo "(no completion for ${prog##*/})"; return; }
    words[0]=$prog
    COMP_WORDS=("${words[@]}") COMP_CWORD=$((${#words[@]} - 1)) COMP_LINE=$line
    COMP_POINT=${#line} COMPREPLY=()
    # bash passes the text readline completes ('' right after '=') and the word before
    local text=${words[COMP_CWORD]}
    [[ $text == *[!=:]* ]] || text=
    "$func" "${prog##*/}" "$text" "${words[COMP_CWORD - 1]}"
    [ ${#COMPREPLY[@]} -eq 0 ] || printf '%s\n' "${COMPREPLY[@]}" | sort -u
}

failures=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck source=tests/completion_cases.sh
source "${0%/*}/completion_cases.sh"
while IFS='|' read -r shells kind line want name; do
    [ "$shells" = zsh ] && continue
    prog=$tool
    [[ $line == nqueens-mpi* ]] && prog=$mpi
    completion_check "$kind" "$want" "$(replies "$prog" "$line")" "$name" "$line"
done < <(completion_cases "$tool" "$mpi" "$work")

# the words come from the tool: a stub that knows one more format gets it offered
mkdir "$work/stub"
completion_stub "$work/stub" "$(realpath "$tool")"
while IFS='|' read -r shells kind line want name; do
    completion_check "$kind" "$want" "$(replies "$work/stub/nqueens" "$line")" "stub: $name" "$line"
done < <(stub_cases)

# every vector path offered is one the tool knows: it runs, or says this CPU lacks it
for p in $(replies "$tool" "nqueens count 8 --simd "); do
    out=$("$tool" count 4 --simd "$p" 2>&1) || grep -q "this CPU lacks it" <<<"$out" ||
        { echo "not ok: --simd $p is refused: $out"; failures=$((failures + 1)); }
done
echo "completion: $failures failed"
exit $((failures > 0))
