#!/usr/bin/env python3
"""Nothing in the tree reaches outside it: a user clones the project alone.

usage: stands_alone.py SOURCE_ROOT

Every file of the tree (git's tracked and untracked-but-not-ignored files where the tree
is a git checkout, else every file below SOURCE_ROOT but build folders) is read as text
and each line that names the folder beside the checkout where the developers keep their
reference material, as a relative path or as meson path pieces, is
printed as `path:line: text`; the script then exits 1. scripts/standalone is the same
check run for real: the tree cloned into an empty folder, built and tested there.
"""
import os
import re
import subprocess
import sys

# Spelt in pieces so that this file does not name what it looks for.
OUTSIDE = re.compile(r"\.\./" + "shared" + r"|'\.\.'\s*/\s*'" + "shared" + "'")


def tree_files(root):
    try:
        out = subprocess.run(
            ["git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            check=True, capture_output=True).stdout
        return [p for p in out.decode().split("\0") if p]
    except (OSError, subprocess.CalledProcessError):
        files = []
        for d, dirs, names in os.walk(root):
            dirs[:] = [x for x in dirs if x != ".git" and not x.startswith("build")]
            files += [os.path.relpath(os.path.join(d, x), root) for x in names]
        return files


def main():
    root = sys.argv[1]
    found = 0
    for rel in sorted(tree_files(root)):
        path = os.path.join(root, rel)
        if not os.path.isfile(path) or os.path.islink(path):
            continue
        with open(path, "rb") as f:
            data = f.read()
        if b"\0" in data:
            continue
        for no, line in enumerate(data.decode("utf-8", "replace").splitlines(), 1):
            if OUTSIDE.search(line):
                print(f"{rel}:{no}: {line.strip()}")
                found += 1
    if found:
        print(f"{found} line(s) reach outside the tree: the project must stand alone", file=sys.stderr)
        return 1
    print(f"stands alone: {len(tree_files(root))} files, none names a path outside the tree")
    return 0


if __name__ == "__main__":
    sys.exit(main())
