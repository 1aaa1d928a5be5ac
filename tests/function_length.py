#!/usr/bin/env python3
"""No function in src/ is longer than a screen: a long one should be a list of named steps.

usage: function_length.py SRC_DIR [MAX_LINES]

Every function definition in SRC_DIR's *.c and *.cu files is measured from the first line
of its signature to its closing brace; each one over MAX_LINES (80 unless given) is printed
as `path:line: name N lines` and the script exits 1. Comments, strings, character literals
and preprocessor lines are blanked first, so that a brace in any of them does not count.
"""
import os
import re
import sys

DEFAULT_MAX = 80
# A top-level `{` after `=` opens an initialiser, not a body.
INITIALISER = re.compile(r"=\s*$")
NAME_BEFORE_PAREN = re.compile(r"([A-Za-z_]\w*)\s*$")
# Parenthesised words of a signature that are not its name (CUDA's launch bounds too).
ATTRIBUTES = ("__attribute__", "__declspec", "alignas", "_Alignas", "__launch_bounds__")


def blank(text):
    """The text with comments, literals and preprocessor lines replaced by spaces, newlines
    kept, so that offsets and line numbers still match the file."""
    out = list(text)
    i, n = 0, len(text)
    line_start = True

    def wipe(a, b):
        for k in range(a, b):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        c = text[i]
        if line_start and c == "#":
            j = i
            # A directive runs to the first newline not escaped by a backslash.
            while j < n and not (text[j] == "\n" and text[j - 1] != "\\"):
                j += 1
            wipe(i, j)
            i = j
            continue
        if c == "\n":
            line_start = True
            i += 1
            continue
        if c in " \t":
            i += 1
            continue
        line_start = False
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            wipe(i, j)
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            wipe(i, j)
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            wipe(i, j + 1)
            i = j + 1
        else:
            i += 1
    return "".join(out)


def functions(text):
    """(name, first line, line count) of each function defined at file scope."""
    code = blank(text)
    found = []
    depth = 0
    head_start = 0  # where the text before the next top-level block begins
    open_at = None
    for i, c in enumerate(code):
        if c == "{":
            if depth == 0:
                open_at = i
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                head = code[head_start:open_at]
                entry = function_head(code, head_start, head)
                if entry is not None:
                    name, first = entry
                    last = code.count("\n", 0, i) + 1
                    found.append((name, first, last - first + 1))
                head_start = i + 1
        elif c == ";" and depth == 0:
            head_start = i + 1
    return found


def function_head(code, head_start, head):
    """(name, first line) when the text before a top-level `{` is a function signature,
    else None: a struct, enum, union or initialiser, or an `extern "C"` block."""
    # A type's body has no parenthesis before it (its members' come after the brace).
    if "(" not in head or INITIALISER.search(head):
        return None
    # The name is the identifier before the parenthesis that opens the parameter list:
    # the first `(` at depth zero whose identifier is not an attribute.
    match = None
    depth = 0
    for k, c in enumerate(head):
        if c == "(":
            if depth == 0:
                m = NAME_BEFORE_PAREN.search(head[:k])
                if m and m.group(1) not in ATTRIBUTES:
                    match = m
                    break
            depth += 1
        elif c == ")":
            depth -= 1
    if match is None:
        return None
    lead = len(head) - len(head.lstrip())
    first = code.count("\n", 0, head_start + lead) + 1
    return match.group(1), first


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__.strip().splitlines()[2])
    root = sys.argv[1]
    limit = int(sys.argv[2]) if len(sys.argv) == 3 else DEFAULT_MAX
    offenders = 0
    checked = 0
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for fname in sorted(filenames):
            if not fname.endswith((".c", ".cu")):
                continue
            path = os.path.join(dirpath, fname)
            with open(path, encoding="utf-8") as f:
                text = f.read()
            shown = os.path.relpath(path, os.path.dirname(os.path.abspath(root)))
            for name, line, count in functions(text):
                checked += 1
                if count > limit:
                    print(f"{shown}:{line}: {name} {count} lines")
                    offenders += 1
    if checked == 0:
        sys.exit(f"function_length: no functions found under {root}")
    if offenders:
        print(f"function_length: {offenders} of {checked} functions over {limit} lines")
        return 1
    print(f"function_length: {checked} functions, none over {limit} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
