#!/usr/bin/env python3
"""A stand-in for target/release/mem2reg built from real LLVM, to check the test harnesses.

Takes the mem2reg command line (`[INPUT] [-o OUTPUT] [--passes=P|-passes=P|-p P] [-S]
[-disable-output]`, default pipeline `mem2reg`, empty pipeline = read and write only) and runs
`opt-19` on it, or `opt-14` when the module is written with typed pointers (clang-14 output),
so the printed IR keeps the input's pointer style as mem2reg must. Pass names with no `opt`
twin are mapped: `phi-elim` -> `reg2mem` (no phi survives). Any other flag goes to opt as is,
so the conformance runner can use it too.

Every harness must score 100% with it, e.g.
    python3 scripts/roundtrip.py --tool scripts/opt-standin.py target/corpus
    python3 scripts/difftest.py --tool scripts/opt-standin.py --seeds 1..10
    scripts/test.sh --standin
"""
import os
import re
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402

PASS_MAP = {"phi-elim": "reg2mem"}


def main(argv):
    inp, out, passes, extra = None, None, None, []
    i = 0
    while i < len(argv):
        a = argv[i]
        flag, sep, val = a.lstrip("-").partition("=")
        if a.startswith("-") and a != "-" and flag in ("o", "passes", "p"):
            if not sep:
                i += 1
                if i >= len(argv):
                    print(f"opt-standin: option '{a}' needs a value", file=sys.stderr)
                    return 2
                val = argv[i]
            if flag == "o":
                out = val
            else:
                passes = val
        elif a == "-S" or a == "--S":
            pass
        elif a.startswith("-") and a != "-":
            extra.append(a)
        else:
            inp = a
        i += 1
    data = sys.stdin.buffer.read() if inp in (None, "-") else None
    if data is None:
        try:
            with open(inp, "rb") as f:
                data = f.read()
        except OSError as e:
            print(f"opt-standin: {inp}: error: Could not open input file: {e.strerror}", file=sys.stderr)
            return 1
    style = harness.pointer_style(data.decode("utf-8", "replace") + "\n")
    opt = "opt-14" if style == "typed" else "opt-19"
    if passes is None:  # our default pipeline, unless opt is asked for a -O level instead
        passes = "" if any(re.fullmatch(r"-O[0-3sz]", e) for e in extra) else "mem2reg"
    names = [PASS_MAP.get(p.strip(), p.strip()) for p in passes.split(",") if p.strip()]
    cmd = [opt, "-S"] + (["-passes=" + ",".join(names)] if names else []) + extra
    if out is not None:
        cmd += ["-o", out]
    return subprocess.run(cmd, input=data).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
