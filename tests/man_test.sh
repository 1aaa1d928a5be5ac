#!/usr/bin/env bash
# The man page renders without a warning from man or groff and holds every command's
# help, as the tool prints it.
set -euo pipefail
page=$1 tool=$2
shift 2
command -v man >/dev/null || { echo "man is not installed: skipped"; exit 77; }
text=$(MANWIDTH=100 man --warnings -E UTF-8 -l "$page" 2>"$page.err")
if [ -s "$page.err" ]; then
    echo "not ok: man -l $page warns:"; cat "$page.err"; rm -f "$page.err"; exit 1
fi
rm -f "$page.err"
for cmd in "$@"; do
    usage=$("$tool" "$cmd" --help | head -n 1 | sed 's/^usage: //')
    grep -qF -- "$usage" <<<"$text" || { echo "not ok: '$usage' is not in $page"; exit 1; }
    for opt in $("$tool" "$cmd" --help | grep -oE -- '--[a-z][a-z-]+' | sort -u); do
        grep -qF -- "$opt" <<<"$text" || { echo "not ok: $cmd $opt is not in $page"; exit 1; }
    done
done
echo "ok: $page renders and has the help of: $*"
