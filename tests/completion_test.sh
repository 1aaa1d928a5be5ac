#!/usr/bin/env bash
# The bash completion offers the commands, each command's options (read from its help),
# every engine the tool names, and the format words the tool accepts.
set -uo pipefail
script=$1 tool=$2
failures=0
source "$script"

# complete WORDS... : COMPREPLY for the last word, sorted on one line
complete_words() {
    COMP_WORDS=("$tool" "$@")
    COMP_CWORD=$#
    _nqueens
    printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' '
}

expect() {
    local name=$1 want=$2
    shift 2
    local got
    got=$(complete_words "$@")
    if [[ " $got " == *" $want "* ]]; then
        echo "ok: $name"
    else
        echo "not ok: $name: want '$want' in '$got'"
        failures=$((failures + 1))
    fi
}

expect "commands" "count" ""
expect "a prefix of a command" "verify" "ve"
expect "help's commands" "bench" help ""
expect "list's formats" "board" list 8 --format ""
expect "bench's formats" "google-benchmark" bench -f ""
expect "threads" "max" count 8 -t ""
expect "list has --unique" "--unique" list 8 --u
for cmd in count verify list bench; do
    for opt in $("$tool" "$cmd" --help | grep -oE -- '--[a-z][a-z-]+' | sort -u); do
        expect "$cmd offers $opt" "$opt" "$cmd" "$opt"
    done
done
for e in $("$tool" count --help | sed -n 's/.*one of \([^(]*\).*/\1/p' | tr -d ,); do
    expect "engine $e" "$e" count 8 --engine ""
done
expect "--simd auto" "auto" count 8 --simd ""
expect "--simd scalar" "scalar" bench --simd ""
# every path offered is one the tool knows: it runs, or says this CPU lacks it
for p in $(complete_words count 8 --simd ""); do
    "$tool" count 4 --simd "$p" >/dev/null 2>&1 || "$tool" count 4 --simd "$p" 2>&1 | grep -q "this CPU lacks it" ||
        { echo "not ok: --simd $p is refused"; failures=$((failures + 1)); }
done
for f in $(complete_words list 8 -f ""); do
    "$tool" list 4 -f "$f" >/dev/null || { echo "not ok: list -f $f is refused"; failures=$((failures + 1)); }
done
for f in $(complete_words bench -f ""); do
    "$tool" bench --help | grep -q -- "$f" || { echo "not ok: bench -f $f not in the help"; failures=$((failures + 1)); }
done
[ -z "$(complete_words list 8 --en | tr -d " ")" ] || { echo "not ok: list offers --engine"; failures=$((failures + 1)); }
exit $((failures > 0))
