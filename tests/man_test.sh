#!/usr/bin/env bash
# The man page renders without a warning from man or groff, fits 80 columns, names the
# installed README and holds every command's help, as the tool prints it.
set -euo pipefail
page=$1 tool=$2
shift 2
command -v man >/dev/null || { echo "man is not installed: skipped"; exit 77; }
text=$(MANWIDTH=100 man --warnings -E UTF-8 -l "$page" 2>"$page.err")
if [ -s "$page.err" ]; then
    echo "not ok: man -l $page warns:"; cat "$page.err"; rm -f "$page.err"; exit 1
fi
rm -f "$page.err"
# At the usual 80 columns no line runs over (the help is rewrapped for man's indent).
wide=$(MANWIDTH=80 man -E UTF-8 -l "$page" 2>/dev/null | awk 'length > 80' || true)
if [ -n "$wide" ]; then
    echo "not ok: $(wc -l <<<"$wide") lines of $page are wider than 80 columns:"
    echo "$wide"
    exit 1
fi
# It points to the README where meson install puts it.
grep -qE 'share/doc/nqueens/README\.md' <<<"$text" ||
    { echo "not ok: $page does not say where the installed README is"; exit 1; }
for cmd in "$@"; do
    usage=$("$tool" "$cmd" --help | head -n 1 | sed 's/^usage: //')
    grep -qF -- "$usage" <<<"$text" || { echo "not ok: '$usage' is not in $page"; exit 1; }
    for opt in $("$tool" "$cmd" --help | grep -oE -- '--[a-z][a-z-]+' | sort -u); do
        grep -qF -- "$opt" <<<"$text" || { echo "not ok: $cmd $opt is not in $page"; exit 1; }
    done
done
echo "ok: $page renders and has the help of: $*"
