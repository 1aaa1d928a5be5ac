#!/usr/bin/env bash
# libnqueens.so exports the public API only: every defined dynamic symbol is an nq_ name
# (and the API is there).
set -euo pipefail
nm=$1 lib=$2
syms=$("$nm" -D --defined-only "$lib" | awk '{print $3}')
bad=$(grep -v '^nq_' <<<"$syms" || true)
if [ -n "$bad" ]; then
    echo "not nq_ names exported by $lib:" $bad
    exit 1
fi
grep -qx nq_count <<<"$syms" || { echo "nq_count is not exported by $lib"; exit 1; }
echo "exports: $(wc -l <<<"$syms") nq_ symbols, nothing else"
