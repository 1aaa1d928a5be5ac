#!/usr/bin/env python3
"""The wrapper meson runs every test under (tests/meson.build, add_test_setup's exe_wrapper).

usage: scratch_run.py TEST [ARGS...]

Makes one temporary folder for this run of the test, gives it to the test and to every
program it starts as $TMPDIR (tests/scratch.h makes the C tests' files there, mktemp
and Python's tempfile look there anyway), and removes it when the test ends, whether it
passed, failed, crashed or was stopped: meson's SIGTERM on a timeout, or a Ctrl-C, is
passed on to the test, and the folder goes once the test has ended. The exit status is
the test's, a test killed by a signal kills this wrapper with the same signal.
"""
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile


def main():
    scratch = tempfile.mkdtemp(prefix="nq-test-")
    # The handlers go in before the child starts: a SIGTERM that came between the start
    # and the handlers would end this wrapper alone, leaving the test running and its
    # folder behind. One that comes before the child exists waits in `held`.
    child, held = None, []

    def forward(sig, _frame):
        if child is None:
            held.append(sig)
        else:
            child.send_signal(sig)

    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, forward)
    try:
        child = subprocess.Popen(sys.argv[1:], env=dict(os.environ, TMPDIR=scratch))
    except BaseException:
        shutil.rmtree(scratch, ignore_errors=True)
        raise
    for sig in held:
        child.send_signal(sig)
    try:
        rc = child.wait()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    if rc < 0:  # die of the same signal, without a core of this wrapper
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        signal.signal(-rc, signal.SIG_DFL)
        os.kill(os.getpid(), -rc)
    return rc


if __name__ == "__main__":
    sys.exit(main())
