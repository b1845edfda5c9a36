#!/usr/bin/env python3
"""Check the project's own test programs (tests/c/*.c, tests/cpp/*.cpp) are fit to be tests.

For every program: compile with clang-19 and clang-14 at -O0 (-disable-O0-optnone) to .ll, run
each under lli-19 / lli-14, and compare stdout and exit code with a native build made with
AddressSanitizer + UndefinedBehaviorSanitizer (clang-19 -O1, any report is an error). All runs
must agree on stdout and exit status (a program may return a checksum as its status; a signal
or a sanitizer report is an error). A program whose first line contains `lli: no` is only compiled (kept for
round-trip and verifier checks; the comment must say why).

Usage: scripts/check-programs.py [--jobs 2] [--no-sanitize] [FILES or DIRS ...]
Default inputs: tests/c tests/cpp. Exit 0 iff every program passes.
"""
import argparse
import concurrent.futures as cf
import os
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from harness import run  # noqa: E402


def check(src, work, sanitize):
    cpp = src.endswith((".cpp", ".cc"))
    name = os.path.basename(src)
    with open(src, encoding="utf-8", errors="replace") as f:
        first = f.readline()
    run_it = "lli: no" not in first
    outs = {}
    problems = []
    for v in ("19", "14"):
        cc = f"clang++-{v}" if cpp else f"clang-{v}"
        ll = os.path.join(work, f"{name}.{v}.ll")
        rc, _, err, _ = run([cc, *harness.O0, *harness.COMMON_CFLAGS, src, "-o", ll], 300)
        if rc != 0:
            problems.append(f"{cc} failed: {err.decode(errors='replace')[-500:]}")
            continue
        if run_it:
            rc, out, err, _ = run([f"lli-{v}", ll], 60)
            outs[f"lli-{v}"] = (rc, out)
            if not isinstance(rc, int) or not 0 <= rc < 256:
                problems.append(f"lli-{v} exit {rc}: {err.decode(errors='replace')[-300:]}")
    if run_it and sanitize:
        exe = os.path.join(work, f"{name}.asan")
        cc = "clang++-19" if cpp else "clang-19"
        flags = ["-O1", "-g", "-fsanitize=address,undefined", "-fno-sanitize-recover=all", "-w"]
        rc, _, err, _ = run([cc, *flags, src, "-o", exe, "-lm"], 300)
        if rc != 0:
            problems.append(f"sanitizer build failed: {err.decode(errors='replace')[-500:]}")
        else:
            env_rc, out, err, _ = run([exe], 60)
            outs["native+asan+ubsan"] = (env_rc, out)
            if err.strip() or not isinstance(env_rc, int) or not 0 <= env_rc < 256:
                problems.append(f"sanitized run exit {env_rc}: {err.decode(errors='replace')[-600:]}")
    if run_it and len({o for o in outs.values()}) > 1:
        keys = list(outs)
        problems.append("outputs differ between " + ", ".join(
            f"{k} ({len(outs[k][1])}B rc {outs[k][0]})" for k in keys))
    if run_it and outs and not any(o[1] for o in outs.values()):
        problems.append("prints nothing")
    return src, run_it, problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("inputs", nargs="*")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--no-sanitize", action="store_true")
    a = ap.parse_args()
    harness.require("clang-19", "clang++-19", "clang-14", "clang++-14", "lli-19", "lli-14")
    inputs = a.inputs or [os.path.join(harness.REPO, "tests", "c"), os.path.join(harness.REPO, "tests", "cpp")]
    files = []
    for i in inputs:
        if os.path.isdir(i):
            files += sorted(os.path.join(i, f) for f in os.listdir(i) if f.endswith((".c", ".cpp", ".cc")))
        else:
            files.append(i)
    if not files:
        harness.die("no programs found")
    bad = 0
    compiled_only = []
    with tempfile.TemporaryDirectory(prefix="check-programs-") as work:
        with cf.ThreadPoolExecutor(a.jobs) as ex:
            for src, ran, problems in ex.map(lambda f: check(f, work, not a.no_sanitize), files):
                rel = os.path.relpath(src, harness.REPO)
                if not ran:
                    compiled_only.append(rel)
                if problems:
                    bad += 1
                    print(f"FAIL {rel}")
                    for p in problems:
                        print("  " + p.rstrip().replace("\n", "\n  "))
                else:
                    print(f"ok   {rel}" + ("" if ran else " (compiled only: not run under lli)"))
    print(f"programs: {len(files) - bad} passed, {bad} failed")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
