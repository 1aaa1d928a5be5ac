#!/usr/bin/env bash
# The bash completion, called the way bash calls it: the line split into COMP_WORDS as
# readline splits it (COMP_WORDBREAKS makes '--engine=' two words, '--engine' and '='),
# with COMP_LINE and COMP_POINT. It offers the commands the tool names, every option of
# every command's help, and for each option with a fixed set of values exactly the words
# the tool's own usage error lists as accepted (so a value added in C and missed here, or
# a stray word parsed out of the help, fails), files for the path options, and the same
# for nqueens-mpi.
# usage: completion_test.sh SCRIPT NQUEENS [NQUEENS-MPI]
set -uo pipefail
script=$1 tool=$2 mpi=${3:-}
failures=0
# shellcheck source=/dev/null
source "$script"

fail() {
    echo "not ok: $*"
    failures=$((failures + 1))
}

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

# has NAME WORD LINE: TAB at the end of LINE (for nqueens) offers WORD
has() {
    local got
    got=$(replies "$tool" "$3")
    if grep -qxF -- "$2" <<<"$got"; then echo "ok: $1"; else fail "$1: want '$2' for '$3', got: $(xargs <<<"$got")"; fi
}

# lacks NAME WORD LINE: it does not offer WORD
lacks() {
    local got
    got=$(replies "$tool" "$3")
    if grep -qxF -- "$2" <<<"$got"; then fail "$1: '$3' offers '$2'"; else echo "ok: $1"; fi
}

# exactly PROG NAME "WORDS" LINE: TAB offers WORDS (space-separated) and nothing else
exactly() {
    local want got
    want=$(tr ' ' '\n' <<<"$3" | sed '/^$/d' | sort -u)
    got=$(replies "$1" "$4")
    if [ "$got" = "$want" ]; then
        echo "ok: $2"
    else
        fail "$2: '$4' offers '$(xargs <<<"$got")', want '$(xargs <<<"$want")'"
    fi
}

# accepted PROG CMD OPT: the words the tool's usage error lists for a bad value of OPT
# ("expected one of auto, prefix, d4" / "expected columns, board or luogu"); empty when
# the message lists no plain words (a number range). "(not in this build)" entries are
# left out, since the build refuses them.
accepted() {
    local prog=$1 cmd=$2 opt=$3 msg
    case $cmd in count | list) set -- "$cmd" 4 ;; *) set -- "$cmd" ;; esac
    msg=$("$prog" "$@" "$opt=__none__" 2>&1 >/dev/null | sed -n "s/.*'__none__': expected //p")
    msg=${msg#one of }
    # only a plain list of words: "a, b, c" or "a, b or c"
    grep -qE "^[a-z0-9-]+( \(not in this build\))?((, | or )[a-z0-9-]+( \(not in this build\))?)*$" \
        <<<"$msg" || return 0
    sed -e 's/, / /g' -e 's/ or / /g' -e 's/[a-z0-9-]* (not in this build)//g' <<<"$msg" |
        tr ' ' '\n' | sed '/^$/d' | sort -u
}

commands=$("$tool" --help | awk '/^commands:/ {on = 1; next} on && /^  [a-z]/ {print $1} on && /^$/ {exit}')
exactly "$tool" "the commands and the top options" "$commands --help --version" "nqueens "
exactly "$tool" "the top long options" "--help --version" "nqueens --"
has "a prefix of a command" verify "nqueens ve"
exactly "$tool" "help's commands" "$commands" "nqueens help "
lacks "help takes one command" count "nqueens help count "

# Every option of every command's help, long and short; the value-taking ones complete
# in each spelling: '--opt=', '--opt ', and the short letter.
for cmd in $commands; do
    [ "$cmd" = help ] && continue
    help=$("$tool" "$cmd" --help)
    for opt in $(grep -oE -- '(^|[ ,])--[a-z][a-z-]+' <<<"$help" | tr -d ' ,' | sort -u); do
        has "$cmd offers $opt" "$opt" "nqueens $cmd ${opt:0:4}"
    done
    for short in $(grep -oE -- '^  -[a-zA-Z],' <<<"$help" | tr -d ' ,'); do
        has "$cmd offers $short" "$short" "nqueens $cmd -"
    done
    # "  -e, --engine E   ..." / "      --simd P   ...": options with a value
    while read -r short long; do
        want=$(accepted "$tool" "$cmd" "$long")
        [ -n "$want" ] || continue
        [ "$cmd" = bench ] && [ "$long" = --engine ] && want=$(printf '%s\nall\n' "$want" | sort -u)
        want=$(xargs <<<"$want")
        exactly "$tool" "$cmd $long= offers what it accepts" "$want" "nqueens $cmd $long="
        exactly "$tool" "$cmd $long=<prefix>" "$(tr ' ' '\n' <<<"$want" | grep "^${want:0:1}")" \
            "nqueens $cmd $long=${want:0:1}"
        exactly "$tool" "$cmd $long <word> offers what it accepts" "$want" "nqueens $cmd $long "
        [ "$short" = - ] ||
            exactly "$tool" "$cmd $short offers what it accepts" "$want" "nqueens $cmd $short "
    done < <(sed -nE 's/^  (-[a-zA-Z]|  ), (--[a-z][a-z-]+) [A-Z]+( .*)?$/\1 \2/p;
                      s/^      (--[a-z][a-z-]+) [A-Z]+( .*)?$/- \1/p' <<<"$help" | tr -s ' ')
    # --progress takes its value only after '=' (optional argument)
    if grep -qF -- '--progress[=' <<<"$help"; then
        exactly "$tool" "$cmd --progress= offers its modes" "$(accepted "$tool" "$cmd" --progress | xargs)" \
            "nqueens $cmd --progress="
        has "$cmd --progress offers --progress=json" --progress=json "nqueens $cmd --progress"
    fi
done

# The words that motivated this test: count's engines are not bench's 'all', and nothing
# of the help's prose ('or', 'but') is offered as an engine.
lacks "count -e has no 'all'" all "nqueens count -e "
lacks "verify --engine has no 'all'" all "nqueens verify --engine "
has "bench -e has 'all'" all "nqueens bench -e "
lacks "bench -e has no 'or'" or "nqueens bench -e "
lacks "bench -e has no 'but'" but "nqueens bench -e "
has "bench -e takes a list" d4,join "nqueens bench -e d4,j"
has "bench -t takes powers" powers "nqueens bench -t "
has "count -t takes max" max "nqueens count 8 -t "
lacks "count -t has no powers" powers "nqueens count 8 -t "
has "--simd offers auto" auto "nqueens count 8 --simd "
# every path offered is one the tool knows: it runs, or says this CPU lacks it
for p in $(replies "$tool" "nqueens count 8 --simd "); do
    out=$("$tool" count 4 --simd "$p" 2>&1) || grep -q "this CPU lacks it" <<<"$out" ||
        fail "--simd $p is refused: $out"
done
exactly "$tool" "a number takes no words" "" "nqueens count 8 --prefix-rows "
exactly "$tool" "N takes no words" "" "nqueens count "
lacks "list takes no --engine" --engine "nqueens list 8 --en"
lacks "after -- no options" --json "nqueens count -- --js"
has "a unique prefix of an option takes its value" join "nqueens count --eng "

# Path options complete file names.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
touch "$work/journal.nqj"
for line in "count 8 --checkpoint " "count 8 --subtotals=" "bench -o " "bench --out="; do
    has "$line<files>" "$work/journal.nqj" "nqueens $line$work/jo"
done

# nqueens-mpi: its one command and count's options with its own.
if [ -n "$mpi" ]; then
    exactly "$mpi" "nqueens-mpi's commands" "count help --help --version" "nqueens-mpi "
    exactly "$mpi" "nqueens-mpi help's commands" "count help" "nqueens-mpi help "
    for opt in $("$mpi" count --help | grep -oE -- '(^|[ ,])--[a-z][a-z-]+' | tr -d ' ,' | sort -u); do
        got=$(replies "$mpi" "nqueens-mpi count ${opt:0:4}")
        if grep -qxF -- "$opt" <<<"$got"; then
            echo "ok: nqueens-mpi count offers $opt"
        else
            fail "nqueens-mpi count ${opt:0:4} offers '$(xargs <<<"$got")', not $opt"
        fi
    done
    exactly "$mpi" "nqueens-mpi count --engine=" "$(accepted "$mpi" count --engine | xargs)" \
        "nqueens-mpi count --engine="
    exactly "$mpi" "nqueens-mpi count --worker-timeout takes a number" "" \
        "nqueens-mpi count --worker-timeout "
fi
echo "completion: $failures failed"
exit $((failures > 0))
