#!/usr/bin/env python3
"""Write a help2man include file with a COMMANDS section: each command's --help, as the
tool prints it, so that the man page cannot disagree with the help.

usage: man-commands.py TOOL OUT COMMAND..."""
import re
import subprocess
import sys
import textwrap

# man indents a section's text by 7 columns: a help line of 80 would render at 87.
WIDTH = 80 - 7 - 1


def wrap(text):
    """Help lines longer than WIDTH broken between words; an option's description
    continues under its own column, any other line under its first word."""
    out = []
    for line in text.splitlines():
        if len(line) <= WIDTH:
            out.append(line)
            continue
        m = re.match(r"^(\s+-.*?\s\s+)\S", line)
        indent = len(m.group(1)) if m else len(line) - len(line.lstrip())
        out += textwrap.wrap(line, WIDTH, subsequent_indent=" " * indent,
                             break_long_words=False, break_on_hyphens=False,
                             drop_whitespace=True) or [line]
    return "\n".join(out)


def roff(text):
    """Help text as literal roff lines: backslashes escaped, no line read as a request."""
    out = []
    for line in text.splitlines():
        line = line.replace("\\", "\\e").replace("-", "\\-")
        out.append("\\&" + line if line[:1] in (".", "'") else line)
    return "\n".join(out)


def main():
    tool, path, commands = sys.argv[1], sys.argv[2], sys.argv[3:]
    parts = ["[COMMANDS]"]
    for cmd in commands:
        text = subprocess.run([tool, cmd, "--help"], check=True, capture_output=True,
                              text=True).stdout
        usage, _, rest = text.partition("\n")
        parts += [f".SS {cmd}", ".nf", roff(wrap(usage.removeprefix("usage: "))), "",
                  roff(wrap(rest)), ".fi"]
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(parts) + "\n")


if __name__ == "__main__":
    main()
