#!/usr/bin/env python3
"""Byte comparison with opt: `mem2reg ARGS M` against `opt ARGS -S M`, for every module M.

For each .ll under the given folders (or each given file), runs opt-19 (opt-14 for modules
written with typed pointers, as scripts/harness.py detects them) and the tool with the same
pass arguments and M's path, and compares stdout byte for byte, `; ModuleID` line included.
Prints one line per module that differs (its first differing line) or that opt rejects, then
the counts per LLVM version. Exit 0 iff every module opt reads gives opt's bytes.

Usage: scripts/opt_bytes.py [--tool CMD] [--args "-passes=mem2reg"] [--jobs 2] DIR_OR_FILE...
"""
import argparse
import concurrent.futures as cf
import os
import shlex
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from harness import run  # noqa: E402


def modules(inputs):
    """The .ll files named or found under the inputs, sorted."""
    found = []
    for p in inputs:
        if os.path.isdir(p):
            for d, _, files in os.walk(p):
                found += [os.path.join(d, f) for f in files if f.endswith(".ll")]
        else:
            found.append(p)
    return sorted(found)


def first_difference(a, b):
    """`line N: opt | tool` for the first line where the two texts differ."""
    al, bl = a.split(b"\n"), b.split(b"\n")
    i = 0
    while i < min(len(al), len(bl)) and al[i] == bl[i]:
        i += 1
    line = lambda v: (v[i].decode(errors="replace")[:120] if i < len(v) else "<end>")
    return f"line {i + 1}: opt {line(al)!r} | tool {line(bl)!r}"


def compare(path, args):
    """(llvm version, status, detail): status is same, different, opt-rejects or tool-failed."""
    ver = harness.llvm_for(path)
    rc, ref, err, _ = run([f"opt-{ver}"] + args.pass_args + ["-S", path], args.timeout)
    if rc != 0:
        return ver, "opt-rejects", err.decode(errors="replace").strip()[-120:]
    trc, got, terr, _ = run(args.tool_argv + args.pass_args + ["-S", path], args.timeout)
    if trc != 0:
        return ver, "tool-failed", f"exit {trc}: {terr.decode(errors='replace').strip()[-200:]}"
    if got == ref:
        return ver, "same", ""
    return ver, "different", first_difference(ref, got)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0], epilog=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("inputs", nargs="+")
    ap.add_argument("--tool", default=harness.DEFAULT_TOOL)
    ap.add_argument("--args", default="-passes=mem2reg", help="pass arguments given to both")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=600)
    args = ap.parse_args()
    args.tool_argv = harness.tool_cmd(args.tool)
    args.pass_args = shlex.split(args.args)
    paths = modules(args.inputs)
    counts = {}
    with cf.ThreadPoolExecutor(args.jobs) as ex:
        for path, (ver, status, detail) in zip(paths, ex.map(lambda p: compare(p, args), paths)):
            counts.setdefault(ver, {}).setdefault(status, 0)
            counts[ver][status] += 1
            if status != "same":
                print(f"{status}\topt-{ver}\t{os.path.relpath(path)}\t{detail}", flush=True)
    bad = 0
    for ver in sorted(counts):
        c = counts[ver]
        read = sum(n for s, n in c.items() if s != "opt-rejects")
        print(f"opt-{ver}: {c.get('same', 0)} / {read} byte-identical"
              + "".join(f", {s} {n}" for s, n in sorted(c.items()) if s != "same"))
        bad += read - c.get("same", 0)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
