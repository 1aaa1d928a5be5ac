# bash completion for nqueens and nqueens-mpi: the commands, each command's options, and
# the values an option takes in every spelling (--engine join, --engine=join, -e join).
# The option tables follow each command's --help, and the values come from the tool
# (nqueens --list-values COMMAND OPTION); tests/completion_test.sh fails when a table
# lacks an option of the help or a value the tool accepts.
# Installed as completions/nqueens and, for the on-demand loader, as nqueens-mpi too.

# Options per command: '=' after a name marks a value, '[=]' a value only after '='
# (getopt's optional argument); "-e|--engine=" pairs the short letter with the long name.
_nqueens_opts_common='-h|--help -V|--version'
_nqueens_opts_count_shared='-t|--threads= -e|--engine= --prefix-rows= --no-pin --devices=
    --simd= --max-memory= --worker-memory= --checkpoint= --sync-interval= --progress[=]
    --no-progress
    --subtotals= -j|--json -u|--unique'
_nqueens_opts_count="$_nqueens_opts_count_shared --slice= --task-times="
_nqueens_opts_merge='-j|--json -u|--unique'
_nqueens_opts_verify='-t|--threads= -e|--engine= --prefix-rows= --no-pin --devices= --simd= --max-memory=
    --worker-memory= -j|--json'
_nqueens_opts_list='-f|--format= -l|--limit= -u|--unique -t|--threads= --prefix-rows=
    --no-pin --progress[=] --no-progress'
_nqueens_opts_bench='-n|--n= -t|--threads= -e|--engine= -r|--repeat= -w|--warmup= -f|--format=
    -o|--out= --export= --prefix-rows= --no-pin --devices= --simd= --max-memory=
    --worker-memory='
_nqueens_opts_estimate='-t|--threads= -e|--engine= --prefix-rows= --simd= --worker-memory=
    -s|--seconds= --seed=
    --max-tasks= --sample= -j|--json'
_nqueens_opts_mpi_count="$_nqueens_opts_count_shared --worker-timeout="

# _nqueens_reply CUR [PREFIX] WORD...: COMPREPLY = the WORDs that start with CUR, each
# after PREFIX (what the word being completed holds before CUR).
_nqueens_reply()
{
    local cur=$1 prefix=$2
    shift 2
    mapfile -t COMPREPLY < <(compgen -P "$prefix" -W "$*" -- "$cur")
}

# _nqueens_words TOOL CMD OPTION: the words OPTION (a long name) takes, if a fixed set,
# as the tool itself lists them (its engines, formats, vector paths, 'max', 'all').
_nqueens_words()
{
    "$1" --list-values "$2" "$3" 2>/dev/null
}

# _nqueens_value TOOL CMD OPTION CUR PREFIX: COMPREPLY = the values of OPTION that
# complete CUR, each after PREFIX.
_nqueens_value()
{
    local tool=$1 cmd=$2 opt=$3 cur=$4 prefix=$5
    case $opt in
    --checkpoint | --subtotals | --task-times | --out | --sample)
        compopt -o filenames 2>/dev/null
        mapfile -t COMPREPLY < <(compgen -f -P "$prefix" -- "$cur")
        return
        ;;
    --export) # FORMAT=FILE: the format and its '=', then (one word) a file name
        if [[ $cur == *=* ]]; then
            _nqueens_value "$tool" "$cmd" --out "${cur#*=}" "$prefix${cur%%=*}="
        else
            compopt -o nospace 2>/dev/null
            # shellcheck disable=SC2046 # the words are words
            _nqueens_reply "$cur" "$prefix" $(_nqueens_words "$tool" "$cmd" --export | sed 's/$/=/')
        fi
        return
        ;;
    esac
    # bench takes comma-separated lists of engines and of thread counts
    if [ "$cmd" = bench ] && [[ $opt == --engine || $opt == --threads ]] && [[ $cur == *,* ]]; then
        prefix+=${cur%,*},
        cur=${cur##*,}
    fi
    # shellcheck disable=SC2046 # the words are words
    _nqueens_reply "$cur" "$prefix" $(_nqueens_words "$tool" "$cmd" "$opt")
}

# _nqueens_find OPTIONS WORD: the entry of OPTIONS that WORD names ("-e", "--engine" or a
# unique prefix of it, as getopt_long takes), or nothing.
_nqueens_find()
{
    local entry name found="" count=0
    for entry in $1; do
        for name in ${entry//|/ }; do
            name=${name%%[[=]*}
            if [ "$name" = "$2" ]; then
                echo "$entry"
                return
            fi
            if [[ $2 == --?* && $name == "$2"* ]]; then
                found=$entry
                count=$((count + 1))
            fi
        done
    done
    [ "$count" -eq 1 ] && echo "$found"
}

# _nqueens_exports OPTIONS I: whether COMP_WORDS[I] is the FORMAT of --export FORMAT=
# (after '--export' or '--export' '=').
_nqueens_exports()
{
    local i=$2
    [ "$i" -ge 3 ] || return 1
    [ "${COMP_WORDS[i - 1]}" = = ] && i=$((i - 1))
    [[ ${COMP_WORDS[i - 1]} == --?* ]] || return 1
    [ "$(_nqueens_find "$1" "${COMP_WORDS[i - 1]}")" = --export= ]
}

_nqueens()
{
    local tool=${COMP_WORDS[0]} cword=$COMP_CWORD
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
    local prog=${tool##*/} cmd=${COMP_WORDS[1]} commands opts entry named="" prefix="" i
    COMPREPLY=()
    case $prog in
    nqueens-mpi) commands='count help' ;;
    *) commands='count merge verify list bench estimate help' ;;
    esac
    if [ "$cword" -eq 1 ]; then
        _nqueens_reply "$cur" "" "$commands" --help --version
        return
    fi
    if [ "$cmd" = help ]; then
        [ "$cword" -eq 2 ] && _nqueens_reply "$cur" "" "$commands"
        return
    fi
    case " $commands " in *" $cmd "*) ;; *) return ;; esac
    for ((i = 2; i < cword; i++)); do
        [ "${COMP_WORDS[i]}" = -- ] && return # the rest is positional
    done
    opts=_nqueens_opts_$cmd
    [ "$prog" = nqueens-mpi ] && opts=_nqueens_opts_mpi_$cmd
    opts="${!opts} $_nqueens_opts_common"

    # The option a value belongs to. COMP_WORDBREAKS holds '=' by default, so bash splits
    # '--engine=jo' into '--engine' '=' 'jo' and '--engine=' into '--engine' '='; a
    # COMP_WORDBREAKS without '=' leaves '--engine=jo' whole, and the reply must repeat
    # '--engine='.
    if [ "$cur" = = ]; then
        named=$prev cur=
    elif [ "$prev" = = ] && [ "$cword" -ge 3 ]; then
        named=${COMP_WORDS[cword - 2]}
    elif [[ $cur == --*=* ]]; then
        named=${cur%%=*} prefix=${cur%%=*}= cur=${cur#*=}
    fi
    # the FILE of --export FORMAT=FILE, which the '=' split off ('--export' 'json' '='
    # 'out', or '--export' '=' 'json' '=' 'out')
    if [ "$cur" = = ] && _nqueens_exports "$opts" $((cword - 1)); then
        _nqueens_value "$tool" "$cmd" --out "" ""
        return
    elif [ "$prev" = = ] && [ "$cword" -ge 3 ] && _nqueens_exports "$opts" $((cword - 2)); then
        _nqueens_value "$tool" "$cmd" --out "$cur" ""
        return
    fi
    if [ -n "$named" ]; then
        entry=$(_nqueens_find "$opts" "$named")
        case $entry in
        *= | *'[=]')
            entry=${entry%%[[=]*}
            _nqueens_value "$tool" "$cmd" "${entry##*|}" "$cur" "$prefix"
            ;;
        esac
        return
    fi
    # a value in the next word: only for a required one ('--progress json' is a positional)
    if [[ $prev == -* ]]; then
        entry=$(_nqueens_find "$opts" "$prev")
        if [[ $entry == *= ]]; then
            entry=${entry%=}
            _nqueens_value "$tool" "$cmd" "${entry##*|}" "$cur" ""
            return
        fi
    fi
    if [[ $cur != -* ]]; then
        # merge's journals; every other positional is a number
        [ "$cmd" = merge ] && mapfile -t COMPREPLY < <(compgen -f -- "$cur")
        return
    fi
    # long names, the short letters unless '--' is typed, and '--progress=bar' and the
    # like once the name of an optional value is typed whole
    local -a words=()
    local long value
    for entry in $opts; do
        long=${entry%%[[=]*}
        long=${long##*|}
        words+=("$long")
        [[ $entry == *'|'* && $cur != --* ]] && words+=("${entry%%|*}")
        if [[ $entry == *'[=]' && $cur == "$long"* ]]; then
            for value in $(_nqueens_words "$tool" "$cmd" "$long"); do
                words+=("$long=$value")
            done
        fi
    done
    _nqueens_reply "$cur" "" "${words[@]}"
}
complete -F _nqueens nqueens nqueens-mpi
