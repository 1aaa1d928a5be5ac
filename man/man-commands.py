#!/usr/bin/env python3
"""Write a help2man include file with a COMMANDS section: each command's --help, as the
tool prints it, so that the man page cannot disagree with the help.

usage: man-commands.py TOOL OUT COMMAND..."""
import subprocess
import sys


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
        parts += [f".SS {cmd}", ".nf", roff(usage.removeprefix("usage: ")), "", roff(rest), ".fi"]
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(parts) + "\n")


if __name__ == "__main__":
    main()
