#!/usr/bin/env bash
# What `meson install --destdir` gives runs as it is: the installed nqueens finds the
# installed libnqueens (RPATH), not the build tree's, and counts; the man page and the
# shell completion are where they belong when they were built; nqueens.pc names no path
# of the building machine, and the library page's example (docs/library.md) builds with
# it and runs the two ways the page says (LD_LIBRARY_PATH, an rpath).
set -euo pipefail
build=$1
libpage=${2:-}
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
# bash-completion's loader sources completions/<command> the first time <command> is
# completed: nqueens-mpi needs a file of that name too, and the loader must find both.
if [ -n "$(find "$dest" -path '*/bin/nqueens-mpi' -type f)" ]; then
    [ "$(cat "${comp%/*}/nqueens-mpi" 2>/dev/null)" = "$(cat "$comp")" ] ||
        { echo "not ok: no bash completion for nqueens-mpi beside ${comp#"$dest"}"; exit 1; }
    loader=/usr/share/bash-completion/bash_completion
    if [ -f "$loader" ]; then
        for cmd in nqueens-mpi nqueens; do
            got=$(env -i PATH=/usr/bin:/bin BASH_COMPLETION_USER_DIR="${comp%/completions/*}" \
                bash --norc --noprofile -c "source $loader; _completion_loader $cmd; complete -p $cmd" 2>&1)
            [[ $got == *"-F _nqueens"* ]] ||
                { echo "not ok: bash-completion does not load the completion of $cmd: $got"; exit 1; }
        done
        echo "ok: bash-completion's loader finds the completions of nqueens and nqueens-mpi"
    fi
fi
zcomp=$(find "$dest" -path '*/zsh/site-functions/_nqueens' -type f)
[ -n "$zcomp" ] || { echo "not ok: no zsh completion in share/zsh/site-functions"; exit 1; }
head -n 1 "$zcomp" | grep -qx '#compdef nqueens nqueens-mpi' ||
    { echo "not ok: ${zcomp#"$dest"} does not name both tools on its #compdef line"; exit 1; }
echo "ok: zsh completion at ${zcomp#"$dest"}"
if [ -f "$build/man/nqueens.1" ]; then
    page=$(find "$dest" -path '*/man1/nqueens.1' -type f)
    [ -n "$page" ] || { echo "not ok: the man page was built but not installed"; exit 1; }
    echo "ok: man page at ${page#"$dest"}"
fi
doc=$(find "$dest" -path '*/share/doc/nqueens/README.md' -type f)
[ -n "$doc" ] || { echo "not ok: the README the man page points to is not installed"; exit 1; }
[ -f "${doc%/*}/docs/checkpoints.md" ] || { echo "not ok: the README's docs/ are not beside it"; exit 1; }
echo "ok: README and docs at ${doc%/*}"
pc=$(find "$dest" -name nqueens.pc -type f | head -n 1)
[ -n "$pc" ] || { echo "not ok: no nqueens.pc installed"; exit 1; }
# Every path in it is under ${prefix}: an absolute one (a CUDA runtime) is the build
# machine's.
if grep -E '^(Libs|Libs\.private|Cflags):' "$pc" | grep -qE '(^|[ :])-?[LI]?/'; then
    echo "not ok: nqueens.pc names a path of this machine:"
    grep -E '^(Libs|Cflags)' "$pc"
    exit 1
fi
echo "ok: nqueens.pc names no absolute path"
if [ -n "$libpage" ] && command -v pkg-config >/dev/null && command -v cc >/dev/null; then
    work=$(mktemp -d)
    trap 'rm -rf "$dest" "$work"' EXIT
    awk '/^```c$/ {on = 1; next} on && /^```$/ {exit} on' "$libpage" >"$work/count16.c"
    [ -s "$work/count16.c" ] || { echo "not ok: no C example in $libpage"; exit 1; }
    export PKG_CONFIG_PATH=${pc%/*} PKG_CONFIG_SYSROOT_DIR=$dest
    libdir=$(dirname "$(find "$dest" -name libnqueens.so -type l | head -n 1)")
    # shellcheck disable=SC2046 # the flags are words
    cc "$work/count16.c" $(pkg-config --cflags --libs nqueens) -o "$work/plain"
    # shellcheck disable=SC2046
    cc "$work/count16.c" $(pkg-config --cflags --libs nqueens) -Wl,-rpath,"$libdir" \
        -o "$work/rpath"
    if env -u LD_LIBRARY_PATH "$work/plain" >/dev/null 2>&1; then
        echo "not ok: the example ran without the library path (is libnqueens on the system?)"
        exit 1
    fi
    for run in "env LD_LIBRARY_PATH=$libdir $work/plain" "env -u LD_LIBRARY_PATH $work/rpath"; do
        got=$($run)
        case "$got" in
        "14772512 solutions in "*) ;;
        *) echo "not ok: the example of $libpage ($run) printed '$got'"; exit 1 ;;
        esac
    done
    echo "ok: the example of ${libpage##*/} builds with nqueens.pc and runs both ways"
fi
