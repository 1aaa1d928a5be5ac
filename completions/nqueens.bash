# bash completion for nqueens and nqueens-mpi: the commands, each command's options and
# engines read from its own --help and the vector paths from its --version (so they never
# go stale), and the words and files the options take.

_nqueens_help()
{
    "$1" "$2" --help 2>/dev/null
}

_nqueens()
{
    local tool=${COMP_WORDS[0]} cur=${COMP_WORDS[COMP_CWORD]} prev cmd help
    prev=${COMP_WORDS[COMP_CWORD - 1]}
    COMPREPLY=()
    if [ "$COMP_CWORD" -eq 1 ]; then
        case ${tool##*/} in
        nqueens-mpi) COMPREPLY=($(compgen -W "count help --help --version" -- "$cur")) ;;
        *) COMPREPLY=($(compgen -W "count verify list bench help --help --version" -- "$cur")) ;;
        esac
        return
    fi
    cmd=${COMP_WORDS[1]}
    if [ "$cmd" = help ]; then
        [ "$COMP_CWORD" -eq 2 ] && COMPREPLY=($(compgen -W "count verify list bench" -- "$cur"))
        return
    fi
    case $prev in
    -e | --engine)
        # "  -e, --engine E   one of prefix, d4, cuda (default: d4)"
        help=$(_nqueens_help "$tool" "$cmd" | sed -n 's/.*--engine [A-Z]* *[a-z ]*\(one of\|from\) \([^(]*\).*/\2/p')
        COMPREPLY=($(compgen -W "${help//,/ } all" -- "$cur"))
        return
        ;;
    --simd)
        # "join vector paths: scalar, avx2, avx512 (auto here: avx512)": the ones built in
        help=$("$tool" --version 2>/dev/null | sed -n 's/^join vector paths: \([^(]*\).*/\1/p')
        COMPREPLY=($(compgen -W "auto ${help//,/ }" -- "$cur"))
        return
        ;;
    -f | --format)
        case $cmd in
        list) COMPREPLY=($(compgen -W "columns board leetcode acwing luogu" -- "$cur")) ;;
        bench) COMPREPLY=($(compgen -W "text json csv google-benchmark github bencher" -- "$cur")) ;;
        esac
        return
        ;;
    -t | --threads)
        COMPREPLY=($(compgen -W "max $([ "$cmd" = bench ] && echo powers)" -- "$cur"))
        return
        ;;
    --checkpoint | --subtotals | -o | --out)
        COMPREPLY=($(compgen -f -- "$cur"))
        return
        ;;
    -n | --n | -l | --limit | -r | --repeat | -w | --warmup | --prefix-rows | --sync-interval | --devices)
        return
        ;;
    esac
    if [ "${cur:0:1}" = - ]; then
        help=$(_nqueens_help "$tool" "$cmd" | grep -oE -- '--[a-z][a-z-]*(\[=[a-z|]*\])?' | sed 's/\[=.*//' | sort -u)
        COMPREPLY=($(compgen -W "$help --progress=bar --progress=json" -- "$cur"))
        case $cur in --progress*) ;; *) COMPREPLY=($(compgen -W "$help" -- "$cur")) ;; esac
    fi
}
complete -F _nqueens nqueens nqueens-mpi
