#!/usr/bin/env bash
# scripts/setup installs per step: `build` (what scripts/run needs) leaves Open MPI,
# Criterion, clang-format and help2man out, `test` has them. Run as a user without
# sudo and with nothing installed (fake dpkg-query, id and sudo), it only says so.
set -uo pipefail
setup=$1
fake=$(mktemp -d)
trap 'rm -rf "$fake"' EXIT
printf '#!/bin/sh\nexit 1\n' >"$fake/dpkg-query"
printf '#!/bin/sh\necho 1000\n' >"$fake/id"
printf '#!/bin/sh\nexit 1\n' >"$fake/sudo"
chmod +x "$fake"/*
failures=0
missing() { PATH="$fake:$PATH" "$setup" "$@" 2>&1 | sed -n 's/^setup: missing packages: //p'; }
check() {
    local name=$1 want=$2 got=$3 has=no
    [[ " $got " == *" $4 "* ]] && has=yes
    if [ "$has" = "$want" ]; then
        echo "ok: $name"
    else
        echo "not ok: $name (missing list: $got)"
        failures=$((failures + 1))
    fi
}
b=$(missing build)
t=$(missing test)
p=$(missing plot)
for pkg in libopenmpi-dev openmpi-bin clang-format libcriterion-dev help2man zsh tmux gnuplot-nox; do
    check "build does not install $pkg" no "$b" "$pkg"
done
for pkg in gcc meson ninja-build libhwloc-dev; do
    check "build installs $pkg" yes "$b" "$pkg"
done
for pkg in libopenmpi-dev clang-format libcriterion-dev help2man bash-completion tmux zsh meson; do
    check "test installs $pkg" yes "$t" "$pkg"
done
c=$(missing cross)
for pkg in gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user meson; do
    check "cross installs $pkg" yes "$c" "$pkg"
done
check "cross leaves Criterion out" no "$c" libcriterion-dev
check "plot installs gnuplot-nox" yes "$p" gnuplot-nox
check "plot installs only that" no "$p" meson
exit $((failures > 0))
