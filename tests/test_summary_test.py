"""scripts/test-summary on forged meson logs: Criterion's subtests counted one by one, and
a test whose run failed counted as a failure even where its own `ok` lines say nothing
failed (readme-examples prints one per example, then exits 1 on a wrong one).
usage: test_summary_test.py path/to/scripts/test-summary"""
import json
import os
import subprocess
import sys
import tempfile

CRITERION = "# Criterion v2.4.1\nok 1 - unit::a\nnot ok 2 - unit::b\nok 3 - unit::c # SKIP off\n"


def entry(name, result, stdout=""):
    return json.dumps({"name": name, "result": result, "stdout": stdout})


def summary(tool, lines):
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        f.write("".join(line + "\n" for line in lines))
    try:
        p = subprocess.run([tool, f.name], capture_output=True, text=True)
    finally:
        os.unlink(f.name)
    return p.returncode, p.stdout.strip()


def main():
    tool = sys.argv[1]
    cases = [
        ("Criterion's subtests, one failed",
         [entry("crit", "FAIL", CRITERION)], 0, "tests: 1 passed, 1 failed, 1 skipped"),
        ("a script's ok lines, then its exit 1",
         [entry("crit", "OK", "# Criterion v2.4.1\nok 1 - unit::a\n"),
          entry("readme-examples", "FAIL", "ok   README.md:10: nqueens 8\nFAIL README.md:12\n")],
         0, "tests: 2 passed, 1 failed, 0 skipped"),
        ("a timeout after ok lines, a plain pass, a plain skip",
         [entry("crit", "TIMEOUT", "# Criterion v2.4.1\nok 1 - unit::a\n"),
          entry("lint", "OK"), entry("gpu", "SKIP")],
         0, "tests: 2 passed, 1 failed, 1 skipped"),
        ("no Criterion test",
         [entry("lint", "OK")], 1,
         "tests: 1 passed, 0 failed, 0 skipped (FAILED: the unit suite did not run"),
    ]
    fails = 0
    for what, lines, want_rc, want in cases:
        rc, got = summary(tool, lines)
        if rc != want_rc or not got.startswith(want):
            print(f"FAIL {what}: exit {rc}, printed {got!r}; want exit {want_rc}, {want!r}")
            fails += 1
        else:
            print(f"ok   {what}")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
