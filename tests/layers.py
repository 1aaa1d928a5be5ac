#!/usr/bin/env python3
"""The layers of src/ (docs/layout.md) run one way: no include and no call from a lower
layer to a higher one, or sideways between layers that stand apart, and no two files that
call each other.

usage: layers.py SRC_DIR BUILD_DIR [NM]

Each file of SRC_DIR has the layer of its folder (a file directly in SRC_DIR is the
library's top, "lib"). Includes are read from the sources (`#include "..."`, found beside
the file or from SRC_DIR, as the compiler does); calls from the objects of BUILD_DIR (the
compile_commands.json meson writes names each object's source): a global symbol one
object leaves undefined and another defines is a call, or a data reference, from the
first source file to the second. Each violation is printed on a line of its own and the
script exits 1.
"""
import json
import os
import re
import subprocess
import sys

# What each layer may use besides itself. The public header (include/nqueens/) and the
# build's generated headers (config.h) are open to every layer.
ALLOWED = {
    "core": set(),
    "engines": {"core"},
    "runtime": {"core"},
    "store": {"core"},
    "gpu": {"engines", "runtime", "core"},
    "lib": {"gpu", "engines", "runtime", "store", "core"},
    "tools": {"core"},
    "cli": {"tools", "core"},
    "mpi": {"tools", "core"},
}
LIBRARY = {"core", "engines", "runtime", "store", "gpu", "lib"}
TOOLS = {"tools", "cli", "mpi"}
FOLDERS = {"core", "engines", "runtime", "store", "gpu", "tools", "cli", "mpi"}
SOURCE_EXT = (".c", ".h", ".cu")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def layer_of(rel):
    """The layer of a path relative to SRC_DIR, or None for one outside the layers."""
    parts = rel.split(os.sep)
    if len(parts) == 1:
        return "lib"
    return parts[0] if parts[0] in FOLDERS else None


def may_use(user, used, symbol=None):
    """Whether layer user may include (symbol None) or call into layer used. Above the
    library, a call into any of its layers is through the public API: an nq_ name."""
    if user == used or used in ALLOWED[user]:
        return True
    return symbol is not None and user in TOOLS and used in LIBRARY and symbol.startswith("nq_")


def source_files(src):
    for root, _, names in os.walk(src):
        for name in sorted(names):
            if name.endswith(SOURCE_EXT):
                yield os.path.relpath(os.path.join(root, name), src)


def include_violations(src):
    out = []
    for rel in source_files(src):
        user = layer_of(rel)
        if user is None:
            continue
        with open(os.path.join(src, rel), encoding="utf-8") as f:
            text = f.read()
        for m in INCLUDE.finditer(text):
            name = m.group(1)
            beside = os.path.normpath(os.path.join(os.path.dirname(rel), name))
            if os.path.exists(os.path.join(src, beside)):
                target = beside
            elif os.path.exists(os.path.join(src, name)):
                target = os.path.normpath(name)
            else:
                continue  # the public header or a generated one
            used = layer_of(target)
            if used is not None and not may_use(user, used):
                out.append("%s includes %s: %s may not use %s" % (rel, target, user, used))
    return out


def objects(src, build):
    """(source path relative to src, object path) for every object of a file in src."""
    with open(os.path.join(build, "compile_commands.json"), encoding="utf-8") as f:
        commands = json.load(f)
    src = os.path.realpath(src)
    for c in commands:
        path = os.path.realpath(os.path.join(c["directory"], c["file"]))
        obj = os.path.join(c["directory"], c["output"])
        if path.startswith(src + os.sep) and os.path.exists(obj):
            yield os.path.relpath(path, src), obj


def symbols(nm, obj, *flags):
    text = subprocess.run([nm, "-P", *flags, obj], check=True, capture_output=True,
                          text=True).stdout
    return {line.split()[0] for line in text.splitlines() if line.strip()}


def call_violations(src, build, nm):
    defined, undefined = {}, {}
    for rel, obj in objects(src, build):
        for sym in symbols(nm, obj, "-g", "--defined-only"):
            defined.setdefault(sym, set()).add(rel)
        undefined.setdefault(rel, set()).update(symbols(nm, obj, "-u"))
    if not undefined:
        return ["no objects of %s in %s: build it first" % (src, build)]
    calls = {}  # (caller, callee) -> a symbol of the call, for the message
    for caller, syms in undefined.items():
        for sym in sorted(syms):
            callees = defined.get(sym, set()) - {caller}
            # a name two programs define (main) is the one of the caller's folder
            near = {c for c in callees if os.path.dirname(c) == os.path.dirname(caller)}
            for callee in near or callees:
                calls.setdefault((caller, callee), sym)
    out = []
    for (caller, callee), sym in sorted(calls.items()):
        user, used = layer_of(caller), layer_of(callee)
        if user is not None and used is not None and not may_use(user, used, sym):
            out.append("%s calls %s in %s: %s may not use %s" % (caller, sym, callee, user, used))
        if caller < callee and (callee, caller) in calls:
            out.append("%s and %s call each other (%s, %s)" %
                       (caller, callee, sym, calls[(callee, caller)]))
    return out


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    src, build = sys.argv[1], sys.argv[2]
    nm = sys.argv[3] if len(sys.argv) > 3 else "nm"
    found = include_violations(src) + call_violations(src, build, nm)
    for line in found:
        print(line)
    if found:
        sys.exit(1)
    print("layers: one way")


if __name__ == "__main__":
    main()
