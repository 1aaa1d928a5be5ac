#!/usr/bin/env python3
"""The README and the docs say what the tool does: run their `$ nqueens ...` examples
and compare.

usage: readme_examples.py path/to/nqueens [--mpi path/to/nqueens-mpi] FILE.md|FOLDER...

(a FOLDER: every .md file in it)

Every indented or fenced code block line that starts with `$ nqueens ` is run with the
built tool (on two CPUs, as the examples were, when the machine has them), stdout and
stderr together, and what follows it in the block up to the next `$ ` line is what it
must print. The examples of one block run in one fresh folder of their own, so that a
later one finds the files an earlier one made (a journal to resume, slices to merge).
With --mpi, a `$ mpirun ... build/src/mpi/nqueens-mpi ...` line runs that tool under
mpirun, as root with the two variables the text beside it names. Numbers may differ only where they are times: a number before `s` (in an estimate,
every number with a decimal point: times and what is projected from them), and
the JSON members seconds, setup_seconds, cpu_seconds and solutions_per_second (and pinned_threads,
which depends on the build having hwloc, and simd, the vector path this CPU runs), but the example's own times must agree (CPU
time at least the wall time on several threads, the rate (total - reused_total) / seconds). A `...`
line stands for any lines. An example whose output starts
with `^C` is run and sent one SIGINT once its journal has grown (tasks are being
recorded); there, and in the rest of its block, the number before `of` (the tasks done
by then) may differ too. Examples that take over a second (a board past MAX_N, but for
an interrupted one and its resume) are skipped, and so is a merge of journals that no
example of its block makes.

It also checks two things a reader sees that the tool does not run: every option of a
synopsis line (`    nqueens CMD ...`) is spelled as `nqueens CMD --help` spells it, and
a table is followed by a blank line (else the sentence after it renders as a row).
"""
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time

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


MPI_TOOL = "build/src/mpi/nqueens-mpi"


def runnable(text):
    return text.startswith("$ nqueens ") or (text.startswith("$ mpirun ") and MPI_TOOL in text)


def examples(blocks):
    """For every block, the (line number, command, expected lines) of its `$` lines that
    run the tool."""
    out = []
    for block in blocks:
        cmds, cmd = [], None
        for i, text in block:
            if text.startswith("$ "):
                if cmd:
                    cmds.append(cmd)
                cmd = (i, text[2:], []) if runnable(text) else None
            elif cmd:
                cmd[2].append(text)
        if cmd:
            cmds.append(cmd)
        if cmds:
            out.append(cmds)
    return out


def interrupted(expected):
    return bool(expected) and expected[0].startswith("^C")


def skipped(cmd, expected, after_interrupt, folder, mpi):
    words = shlex.split(cmd)
    if words[0] == "mpirun":
        if not mpi or not shutil.which("mpirun"):
            return "no nqueens-mpi or mpirun here"
        return None
    if words[1] == "merge" and not all(os.path.exists(os.path.join(folder, w))
                                       for w in words[2:] if not w.startswith("-")):
        return "merges journals of a run not shown"
    if interrupted(expected) or after_interrupt:
        return None
    if words[1] in ("count", "list") and len(words) > 2 and words[2].isdigit():
        if int(words[2]) > MAX_N:
            return "takes over a second"
    if words[1] in ("verify", "bench"):  # sizes alone, or in a list (bench --n 14-17,20)
        if any(int(v) > MAX_N for w in words[2:] for v in re.findall(r"\d+", w)
               if re.fullmatch(r"[\d,-]+", w)):
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


def may_differ(w, g, k, loose):
    """Whether word k of want (w) and got (g), both numbers, may differ: a time (before
    `s`), and with loose["of"] the tasks done (before `of`), with loose["decimals"] any
    number with a decimal point."""
    a, b = w[k], g[k]
    if not (NUMBER.match(a.rstrip(",")) and NUMBER.match(b.rstrip(","))):
        return False
    if k + 1 < len(w) and w[k + 1] == "s" and g[k + 1] == "s":
        return True
    if loose.get("of") and k + 1 < len(w) and w[k + 1] == "of" and g[k + 1] == "of":
        return True
    return bool(loose.get("decimals")) and "." in a and "." in b


def same_words(want, got, loose):
    """Lines equal word for word, but a number before `s` (a time) may differ."""
    w, g = want.split(), got.split()
    if len(w) != len(g):
        return False
    return all(a == b or may_differ(w, g, k, loose) for k, (a, b) in enumerate(zip(w, g)))


def same_lines(want, got, loose):
    """want against got; a `...` line in want matches any lines (none included)."""
    if not want:
        return not got
    if want[0].strip() == "...":
        return any(same_lines(want[1:], got[k:], loose) for k in range(len(got) + 1))
    return bool(got) and same_words(want[0], got[0], loose) and \
        same_lines(want[1:], got[1:], loose)


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


def interrupt_when_recording(proc, journal):
    """One SIGINT to proc once journal has grown past its first size (the header): the
    count is recording tasks, its handlers long set. False if proc ended first."""
    first, deadline = None, time.monotonic() + 60
    while proc.poll() is None and time.monotonic() < deadline:
        size = os.path.getsize(journal) if os.path.exists(journal) else None
        if first is None:
            first = size
        elif size is not None and size > first:
            proc.send_signal(signal.SIGINT)
            return True
        time.sleep(0.005)
    return False


def command(tool, mpi, words):
    """The argv and environment of an example's words."""
    env = dict(os.environ)
    if words[0] == "mpirun":
        if os.geteuid() == 0:  # what the text beside the example says root needs
            env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
        # Open MPI leaks from components it dlcloses, which no suppression can name: under
        # ASan (scripts/sanitize) an MPI example checks memory errors, not leaks, as mpi-unit
        env["LSAN_OPTIONS"] = "detect_leaks=0"
        return [mpi if w == MPI_TOOL else w for w in words], env
    return [tool] + words[1:], env


def check_example(tool, mpi, folder, cmd, expected, loose):
    words = shlex.split(cmd)
    argv, env = command(tool, mpi, words)
    want = strip_tail(expected)
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            preexec_fn=two_cpus, cwd=folder, env=env)
    status = 0
    if interrupted(want):
        want = [want[0][2:]] + want[1:]
        journal = os.path.join(folder, words[words.index("--checkpoint") + 1])
        status = 128 + signal.SIGINT if interrupt_when_recording(proc, journal) else "a SIGINT"
    try:
        out, _ = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        return "still running after 60 s (killed)"
    got = strip_tail(out.decode("utf-8", "replace").split("\n"))
    if proc.returncode != status:
        return "exit %d (expected %s): %s" % (proc.returncode, status, "\n".join(got))
    if want and want[0].startswith("{"):
        return same_json(want, got)
    return None if same_lines(want, got, loose) else "prints:\n%s" % "\n".join(got)


def check_synopses(tool, lines, name):
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
                errors.append("%s:%d: %s is not in 'nqueens %s --help'" % (name, i, opt, cmd))
    return errors


def check_tables(lines, name):
    """A table row followed by a line that is neither a row nor blank renders it as a row."""
    errors = []
    for i in range(len(lines) - 1):
        row, nxt = lines[i], lines[i + 1]
        if row.startswith("|") and nxt.strip() and not nxt.startswith("|"):
            errors.append("%s:%d: no blank line after the table: %s" % (name, i + 2, nxt))
    return errors


def check_block(tool, mpi, name, block, errors):
    """The examples of one block, in a folder of their own; how many ran."""
    ran, after_interrupt = 0, False
    folder = tempfile.mkdtemp(prefix="examples-")
    try:
        for line, cmd, expected in block:
            where = "%s:%d" % (name, line)
            why = skipped(cmd, expected, after_interrupt, folder, mpi)
            if why:
                print("skip %s: %s (%s)" % (where, cmd, why))
                continue
            after_interrupt = after_interrupt or interrupted(expected)
            loose = {"of": after_interrupt, "decimals": shlex.split(cmd)[1] == "estimate"}
            ran += 1
            why = check_example(tool, mpi, folder, cmd, expected, loose)
            if why:
                errors.append("%s: $ %s: %s" % (where, cmd, why))
            else:
                print("ok   %s: %s" % (where, cmd))
    finally:
        shutil.rmtree(folder)
    return ran


def main():
    args = sys.argv[1:]
    tool, mpi = args.pop(0), None
    if args[:1] == ["--mpi"]:
        mpi = args[1]
        args = args[2:]
    errors, ran, paths = [], 0, []
    for arg in args:
        paths += sorted(os.path.join(arg, f) for f in os.listdir(arg) if f.endswith(".md")) \
            if os.path.isdir(arg) else [arg]
    for path in paths:
        name = os.path.relpath(path, os.path.dirname(paths[0]))
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
        errors += check_synopses(tool, lines, name) + check_tables(lines, name)
        for block in examples(code_blocks(lines)):
            ran += check_block(tool, mpi, name, block, errors)
    if ran == 0:
        errors.append("no example ran: are %s the README and the docs?" % " ".join(args))
    for e in errors:
        print("FAIL " + e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
