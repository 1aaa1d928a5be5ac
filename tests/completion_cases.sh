#!/usr/bin/env bash
# What TAB must offer, for the bash and the zsh completion alike (sourced by
# completion_test.sh and completion_zsh_test.sh): the commands the tool names, every
# option of every command's help, and for each option with a fixed set of values exactly
# the words the tool's own usage error lists as accepted, in every spelling (--opt=,
# --opt WORD, -o WORD). So a value added in C and missed in a completion, an option the
# help lists and a completion lacks, or a stray word parsed out of the help's prose
# ('all' for count, 'or' for bench) fails.

# accepted PROG CMD OPT: the words the tool's usage error lists for a bad value of OPT
# ("expected one of auto, prefix, d4" / "expected columns, board or luogu"); empty when
# it lists no plain words (a number range). "(not in this build)" entries are left out.
accepted() {
    local prog=$1 cmd=$2 opt=$3 msg
    case $cmd in count | list) set -- "$cmd" 4 ;; *) set -- "$cmd" ;; esac
    # an unknown option after it, so that a value it takes ends the run there too
    msg=$("$prog" "$@" "$opt=__none__" --__none__ 2>&1 >/dev/null |
        sed -n "s/.*'__none__': expected //p")
    msg=${msg#one of }
    grep -qE "^[a-z0-9-]+( \(not in this build\))?((, | or )[a-z0-9-]+( \(not in this build\))?)*$" \
        <<<"$msg" || return 0
    sed -e 's/, / /g' -e 's/ or / /g' -e 's/[a-z0-9-]* (not in this build)//g' <<<"$msg" |
        tr ' ' '\n' | sed '/^$/d' | sort -u | xargs
}

# case SHELLS KIND LINE WORDS NAME: one line of the table, fields split by '|'. SHELLS: bash,
# zsh or both; KIND: has (WORDS all offered), lacks (none offered), exactly (WORDS and
# nothing else); LINE starts with the tool's name, TAB is pressed at its end.
case_line() {
    printf '%s|%s|%s|%s|%s\n' "$@"
}

# completion_cases NQUEENS NQUEENS-MPI DIR: the table; NQUEENS-MPI may be empty; DIR an
# empty folder that the file cases fill.
completion_cases() {
    local tool=$1 mpi=$2 work=$3 commands cmd help opt short long want simd prog line
    local -A seen=()
    commands=$("$tool" --help | awk '/^commands:/ {on = 1; next}
        on && /^  [a-z]/ {print $1} on && /^$/ {exit}' | xargs)
    # the paths --version says this build carries, as the completions offer them
    simd=$("$tool" --version | sed -n 's/^join vector paths: \([^(]*\).*/\1/p' | tr -d ,)
    case_line bash exactly "nqueens " "$commands --help --version" "the commands and the top options"
    case_line zsh exactly "nqueens " "$commands" "the commands"
    case_line both exactly "nqueens --" "--help --version" "the top long options"
    case_line both has "nqueens ve" verify "a prefix of a command"
    case_line both exactly "nqueens help " "$commands" "help's commands"
    case_line both lacks "nqueens help count " count "help takes one command"

    for prog in nqueens nqueens-mpi; do
        [ "$prog" = nqueens-mpi ] && { [ -n "$mpi" ] || break; tool=$mpi commands=count; }
        for cmd in $commands; do
            [ "$cmd" = help ] && continue
            help=$("$tool" "$cmd" --help)
            for opt in $(grep -oE -- '(^|[ ,])--[a-z][a-z-]+' <<<"$help" | tr -d ' ,' | sort -u); do
                case_line both has "$prog $cmd ${opt:0:4}" "$opt" "$prog $cmd offers $opt"
            done
            for short in $(grep -oE -- '^  -[a-zA-Z],' <<<"$help" | tr -d ' ,'); do
                case_line both has "$prog $cmd -" "$short" "$prog $cmd offers $short"
            done
            # "  -e, --engine E   ..." / "      --simd P   ...": the options with a value
            while read -r short long meta; do
                [ "$meta" = FILE ] && continue
                # nqueens-mpi parses count's options with count's code (count_args.c)
                # and takes half a second to start (MPI_Init): it is asked only about
                # the options of its own
                if [ -n "${seen[$cmd:$long]+set}" ]; then
                    want=${seen[$cmd:$long]}
                else
                    want=$(accepted "$tool" "$cmd" "$long")
                    seen[$cmd:$long]=$want
                fi
                [ "$long" = --simd ] && [ -n "$want" ] && want="auto $simd"
                [ -n "$want" ] || continue
                [ "$cmd:$long" = bench:--engine ] && want+=" all"
                case_line both exactly "$prog $cmd $long=" "$want" "$prog $cmd $long= offers what it accepts"
                case_line both exactly "$prog $cmd $long=${want:0:1}" \
                    "$(tr ' ' '\n' <<<"$want" | grep "^${want:0:1}" | xargs)" "$prog $cmd $long=<prefix>"
                case_line both exactly "$prog $cmd $long " "$want" "$prog $cmd $long WORD offers what it accepts"
                [ "$short" = - ] ||
                    case_line both exactly "$prog $cmd $short " "$want" "$prog $cmd $short offers what it accepts"
            done < <(sed -nE 's/^  (-[a-zA-Z]), (--[a-z][a-z-]+) ([A-Z]+)( .*)?$/\1 \2 \3/p;
                              s/^      (--[a-z][a-z-]+) ([A-Z]+)( .*)?$/- \1 \2/p' <<<"$help")
            # --progress takes its value only after '=' (an optional argument)
            if grep -qF -- '--progress[=' <<<"$help"; then
                case_line both exactly "$prog $cmd --progress=" "$(accepted "$tool" "$cmd" --progress)" \
                    "$prog $cmd --progress= offers its modes"
                case_line bash has "$prog $cmd --progress" --progress=json "$prog $cmd --progress offers --progress=json"
            fi
        done
    done

    # The words that motivated this table: count's engines are not bench's 'all', and
    # nothing of the help's prose ('or', 'but') is offered as an engine.
    case_line both lacks "nqueens count -e " all "count -e has no 'all'"
    case_line both lacks "nqueens verify --engine " all "verify --engine has no 'all'"
    case_line both has "nqueens bench -e " all "bench -e has 'all'"
    case_line both lacks "nqueens bench -e " "or but" "bench -e has no 'or' or 'but'"
    case_line bash has "nqueens bench -e d4,j" d4,join "bench -e takes a list"
    case_line zsh has "nqueens bench -e d4,j" join "bench -e takes a list"
    case_line both has "nqueens bench -t " "max powers" "bench -t takes max and powers"
    case_line both has "nqueens count 8 -t " max "count -t takes max"
    case_line both lacks "nqueens count 8 -t " powers "count -t has no powers"
    case_line both exactly "nqueens count 8 --prefix-rows " "" "a number takes no words"
    case_line both exactly "nqueens count " "" "N takes no words"
    case_line both lacks "nqueens list 8 --en" --engine "list takes no --engine"
    case_line both lacks "nqueens count -- --js" --json "after -- no options"
    case_line bash has "nqueens count --eng " join "a unique prefix of an option takes its value"
    if [ -n "$mpi" ]; then
        case_line bash exactly "nqueens-mpi " "count help --help --version" "nqueens-mpi's commands"
        case_line zsh exactly "nqueens-mpi " "count help" "nqueens-mpi's commands"
        case_line both exactly "nqueens-mpi help " "count help" "nqueens-mpi help's commands"
        case_line both exactly "nqueens-mpi count --worker-timeout " "" "nqueens-mpi --worker-timeout takes a number"
    fi
    # --export FORMAT=FILE: bench's formats, each with its '=' (zsh adds the '=' as a
    # suffix, apart from the word), then a file name
    want=$(accepted "$1" bench --format)
    for line in "bench --export " "bench --export="; do
        case_line bash exactly "nqueens $line" "$(sed 's/\([^ ]*\)/\1=/g' <<<"$want")" "$line<format>="
        case_line zsh exactly "nqueens $line" "$want" "$line<format>="
    done
    case_line bash exactly "nqueens bench --export hy" hyperfine= "--export <prefix>"
    # Path options complete file names (kind file: a word ending in the name).
    touch "$work/journal.nqj"
    for opt in "count 8 --checkpoint " "count 8 --subtotals=" "bench -o " "bench --out=" \
        "bench --export json=" "bench --export=csv="; do
        case_line both file "nqueens $opt$work/jo" journal.nqj "$opt<files>"
    done
    case_line both file "nqueens merge $work/journal.nqj $work/jo" journal.nqj "merge <journals>"
    [ -z "$mpi" ] || case_line both lacks "nqueens-mpi count --sl" --slice "nqueens-mpi takes no --slice"
}

# completion_stub DIR TOOL: DIR/nqueens, TOOL with one more list format and bench format
# that only its --list-values names (TOOL itself would refuse them), and stub_cases: the
# lines where TAB must offer that word. A completion that keeps a list of its own, not
# the tool's, fails them.
completion_stub() {
    cat >"$1/nqueens" <<EOF
#!/bin/sh
case "\$*" in
"--list-values list --format" | "--list-values bench --format") "$2" "\$@"; echo zz-tool-only ;;
*) exec "$2" "\$@" ;;
esac
EOF
    chmod +x "$1/nqueens"
}

stub_cases() {
    case_line both has "nqueens list --format=" zz-tool-only "list --format= offers the tool's formats"
    case_line both has "nqueens list -f " zz-tool-only "list -f offers the tool's formats"
    case_line both has "nqueens bench --format " zz-tool-only "bench --format offers the tool's formats"
}

# completion_check KIND WANT GOT NAME LINE: "ok: NAME", or "not ok: ..." and failures+1.
# GOT holds the offered words one a line.
completion_check() {
    local kind=$1 want=$2 got=$3 name=$4 line=$5 w bad=
    case $kind in
    has) for w in $want; do grep -qxF -- "$w" <<<"$got" || bad=1; done ;;
    lacks) for w in $want; do grep -qxF -- "$w" <<<"$got" && bad=1; done ;;
    exactly) [ "$(sort -u <<<"$got" | sed '/^$/d')" = "$(tr ' ' '\n' <<<"$want" | sed '/^$/d' | sort -u)" ] || bad=1 ;;
    file) grep -qE -- "(^|/)$want\$" <<<"$got" || bad=1 ;;
    esac
    if [ -n "$bad" ]; then
        echo "not ok: $name: '$line' offers '$(xargs <<<"$got")'; $kind '$want'"
        failures=$((failures + 1))
    else
        echo "ok: $name"
    fi
}
