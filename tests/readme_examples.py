#!/usr/bin/env python3
"""The README says what the tool does: run its `$ nqueens ...` examples and compare.

usage: readme_examples.py README.md path/to/nqueens

Every indented or fenced code block line that starts with `$ nqueens ` is run with the
built tool (on two CPUs, as the examples were, when the machine has them), stdout and
stderr together, and what follows it in the block up to the next `$ ` line is what it
must print. Numbers may differ only where they are times: a number before `s`, and
the JSON members seconds, setup_seconds, cpu_seconds and solutions_per_second (and pinned_threads,
which depends on the build having hwloc, and simd, the vector path this CPU runs), but the example's own times must agree (CPU
time at least the wall time on several threads, the rate (total - reused_total) / seconds). A `...`
line stands for any lines. Examples
that need a keyboard (`^C`) or take over a second (a board past MAX_N) are skipped.

It also checks two things a reader sees that the tool does not run: every option of a
synopsis line (`    nqueens CMD ...`) is spelled as `nqueens CMD --help` spells it, and
a table is followed by a blank line (else the sentence after it renders as a row).
"""
import json
import os
import re
import shlex
import subprocess
import sys

MAX_N = 14  # the largest board an example may count or list: well under a second
VOLATILE = {"seconds", "setup_seconds", "cpu_seconds", "solutions_per_second", "pinned_threads",
            "simd"}
NUMBER = re.compile(r"^-?\d+(\.\d+)?$")


def code_blocks(lines):
    """(line number, text) lists: indented blocks after a blank line, and fenced ones."""
    blocks, cur, fenced, prev_blank = [], None, False, True
    for i, line in enumerate(lines, 1):
        if line.startswith("```"):
            if fenced:
                blocks.append(cur)
                cur, fenced = None, False
            else:
                cur, fenced = [], True
            continue
        if fenced:
            cur.append((i, line))
            continue
        if line.startswith("    ") and (cur is not None or prev_blank):
            if cur is None:
                cur = []
            cur.append((i, line[4:]))
        elif cur is not None and line.strip() == "":
            cur.append((i, ""))
        elif cur is not None:
            blocks.append(cur)
            cur = None
        prev_blank = line.strip() == ""
    if cur:
        blocks.append(cur)
    return blocks


def examples(blocks):
    """(line number, command, expected lines) for every `$ nqueens` line."""
    out = []
    for block in blocks:
        cmd = None
        for i, text in block:
            if text.startswith("$ "):
                if cmd:
                    out.append(cmd)
                cmd = (i, text[2:], []) if text.startswith("$ nqueens ") else None
            elif cmd:
                cmd[2].append(text)
        if cmd:
            out.append(cmd)
    return out


def skipped(cmd, expected):
    if any("^C" in e for e in expected):
        return "needs a keyboard"
    words = shlex.split(cmd)
    if words[1] in ("count", "list") and len(words) > 2 and words[2].isdigit():
        if int(words[2]) > MAX_N:
            return "takes over a second"
    if words[1] in ("verify", "bench"):
        if any(w.isdigit() and int(w) > MAX_N for w in words[2:]):
            return "takes over a second"
    return None


def two_cpus():
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) >= 2:
        os.sched_setaffinity(0, cpus[:2])


def strip_tail(lines):
    while lines and lines[-1].strip() == "":
        lines = lines[:-1]
    return lines


def same_words(want, got):
    """Lines equal word for word, but a number before `s` (a time) may differ."""
    w, g = want.split(), got.split()
    if len(w) != len(g):
        return False
    for k, (a, b) in enumerate(zip(w, g)):
        if a == b:
            continue
        is_time = k + 1 < len(w) and w[k + 1] == "s" and g[k + 1] == "s"
        if not (is_time and NUMBER.match(a) and NUMBER.match(b)):
            return False
    return True


def same_lines(want, got):
    """want against got; a `...` line in want matches any lines (none included)."""
    if not want:
        return not got
    if want[0].strip() == "...":
        return any(same_lines(want[1:], got[k:]) for k in range(len(got) + 1))
    return bool(got) and same_words(want[0], got[0]) and same_lines(want[1:], got[1:])


def same_json(want, got):
    try:
        w, g = json.loads(" ".join(want)), json.loads(" ".join(got))
    except ValueError as e:
        return "not JSON: %s" % e
    if list(w) != list(g):
        return "members %s, the tool writes %s" % (list(w), list(g))
    # the example's own times must be ones a run could give
    if w.get("threads", 1) > 1 and w.get("cpu_seconds") is not None and \
            w["cpu_seconds"] < w["seconds"]:
        return "the example's cpu_seconds %s is below its seconds %s on %d threads" % (
            w["cpu_seconds"], w["seconds"], w["threads"])
    if "solutions_per_second" in w and w.get("seconds"):
        rate = (w["total"] - w.get("reused_total", 0)) / w["seconds"]
        if abs(w["solutions_per_second"] - rate) > 1e-3 * rate:
            return ("the example's solutions_per_second is not (total - reused_total) / "
                    "seconds (%.0f)" % rate)
    diff = [k for k in w if k not in VOLATILE and w[k] != g[k]]
    return "differ in %s" % ", ".join("%s (%r, %r)" % (k, w[k], g[k]) for k in diff) if diff else None


def check_example(tool, line, cmd, expected):
    words = shlex.split(cmd)
    run = subprocess.run([tool] + words[1:], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         preexec_fn=two_cpus, timeout=60)
    got = strip_tail(run.stdout.decode("utf-8", "replace").split("\n"))
    want = strip_tail(expected)
    if run.returncode != 0:
        return "exit %d: %s" % (run.returncode, "\n".join(got))
    if want and want[0].startswith("{"):
        why = same_json(want, got)
    else:
        why = None if same_lines(want, got) else "prints:\n%s" % "\n".join(got)
    return why


def check_synopses(tool, lines):
    """Every option in a synopsis line is spelled as the command's help spells it."""
    errors, helps = [], {}
    for i, line in enumerate(lines, 1):
        m = re.match(r"^    nqueens (count|verify|list|bench) ", line)
        if not m:
            continue
        cmd = m.group(1)
        if cmd not in helps:
            helps[cmd] = subprocess.run([tool, cmd, "--help"], stdout=subprocess.PIPE,
                                        check=True).stdout.decode()
        for opt in re.findall(r"--[a-z][a-z-]*(?:\[=[^\]]*\])?", line):
            if opt not in helps[cmd]:
                errors.append("README.md:%d: %s is not in 'nqueens %s --help'" % (i, opt, cmd))
    return errors


def check_tables(lines):
    """A table row followed by a line that is neither a row nor blank renders it as a row."""
    errors = []
    for i in range(len(lines) - 1):
        row, nxt = lines[i], lines[i + 1]
        if row.startswith("|") and nxt.strip() and not nxt.startswith("|"):
            errors.append("README.md:%d: no blank line after the table: %s" % (i + 2, nxt))
    return errors


def main():
    readme, tool = sys.argv[1], sys.argv[2]
    with open(readme, encoding="utf-8") as f:
        lines = f.read().split("\n")
    errors = check_synopses(tool, lines) + check_tables(lines)
    ran = 0
    for line, cmd, expected in examples(code_blocks(lines)):
        why = skipped(cmd, expected)
        if why:
            print("skip README.md:%d: %s (%s)" % (line, cmd, why))
            continue
        ran += 1
        why = check_example(tool, line, cmd, expected)
        if why:
            errors.append("README.md:%d: $ %s: %s" % (line, cmd, why))
        else:
            print("ok   README.md:%d: %s" % (line, cmd))
    if ran == 0:
        errors.append("no example ran: is %s the README?" % readme)
    for e in errors:
        print("FAIL " + e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
