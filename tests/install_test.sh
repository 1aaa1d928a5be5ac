#!/usr/bin/env bash
# What `meson install --destdir` gives runs as it is: the installed nqueens finds the
# installed libnqueens (RPATH), not the build tree's, and counts; the man page and the
# shell completion are where they belong when they were built.
set -euo pipefail
build=$1
dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT
meson install -C "$build" --destdir "$dest" --no-rebuild >"$dest.log" 2>&1 ||
    { cat "$dest.log"; rm -f "$dest.log"; exit 1; }
rm -f "$dest.log"
tool=$(find "$dest" -path '*/bin/nqueens' -type f | head -n 1)
[ -n "$tool" ] || { echo "not ok: no bin/nqueens under the destdir"; exit 1; }
got=$(env -u LD_LIBRARY_PATH "$tool" count 8 --no-pin)
[ "$got" = 92 ] || { echo "not ok: installed nqueens count 8 printed '$got'"; exit 1; }
lib=$(env -u LD_LIBRARY_PATH ldd "$tool" | awk '/libnqueens/ {print $3}')
case "$lib" in
"$dest"/*) echo "ok: installed nqueens runs with the installed $lib" ;;
*) echo "not ok: installed nqueens uses '$lib', not the one under the destdir"; exit 1 ;;
esac
comp=$(find "$dest" -path '*/bash-completion/completions/nqueens' -type f)
[ -n "$comp" ] || { echo "not ok: no bash completion installed"; exit 1; }
echo "ok: bash completion at ${comp#"$dest"}"
if [ -f "$build/man/nqueens.1" ]; then
    page=$(find "$dest" -path '*/man1/nqueens.1' -type f)
    [ -n "$page" ] || { echo "not ok: the man page was built but not installed"; exit 1; }
    echo "ok: man page at ${page#"$dest"}"
fi
