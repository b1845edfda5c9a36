#!/usr/bin/env python3
"""Differential testing against real LLVM: drives ../shared/tools/difftest.py over a matrix.

Inputs: csmith programs for --seeds (generated with `csmith --seed N --max-funcs 8`, cached in
target/csmith/mf8/), plus tests/c/*.c and tests/cpp/*.cpp, plus any extra files or folders.
Matrix: every --pipelines entry x every --llvm version (19 = opaque pointers, 14 = typed
pointers) x without and with -g. Pipelines:
  default   TOOL                                   (mem2reg)
  phi-elim  TOOL --passes=mem2reg,phi-elim         (SSA out again: no phi may survive)
  reg2mem   TOOL --passes=mem2reg,reg2mem
Each cell runs `python3 ../shared/tools/difftest.py --tool "TOOL ..." --llvm V [-g]`, which
compiles each program with clang -O0, runs TOOL on it, verifies the result with opt, runs it
with lli and compares output and exit status with the unmodified program. The figures of each
cell go into a table, then one JSON line; exit 1 if any cell has a wrong, invalid or failed
result, or an input that clang cannot compile or opt cannot read (a harness problem).

Usage:
  python3 scripts/difftest.py --seeds 1..40                  # the CI size
  python3 scripts/difftest.py --seeds 1..300                 # the full bar, by hand
  python3 scripts/difftest.py --tool scripts/opt-standin.py --seeds 1..10   # harness self-check
  python3 scripts/difftest.py --tool "target/release/mem2reg --uninit=zero" --label zero-
                                  # extra tool options go in CMD; --label keeps their cells apart
  options: --tool CMD (default target/release/mem2reg)  --llvm 19,14  --g both|no|yes
           --pipelines default,phi-elim,reg2mem  --jobs 2  --timeout 10 (lli, seconds)
           --no-own (skip tests/c and tests/cpp)  --keep-work (keep target/difftest/<cell>/)
           --cflag F (repeatable)  --allow-no-compile (for foreign suites, see scripts/torture.py)
           --variant O1np (clang -O1 -Xclang -disable-llvm-passes instead of -O0: lifetime
           markers, TBAA; cells named o1np-...)
Each cell's full output is kept in target/difftest/<cell>.log.
"""
import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from harness import REPO, SHARED  # noqa: E402

PIPELINES = {"default": "", "phi-elim": "--passes=mem2reg,phi-elim", "reg2mem": "--passes=mem2reg,reg2mem"}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("inputs", nargs="*", help="extra .c/.cpp/.ll files or folders")
    ap.add_argument("--tool", default=harness.DEFAULT_TOOL)
    ap.add_argument("--seeds", default="1..40")
    ap.add_argument("--max-funcs", type=int, default=8)
    ap.add_argument("--llvm", default="19,14")
    ap.add_argument("--g", default="both", choices=["both", "no", "yes"])
    ap.add_argument("--pipelines", default=",".join(PIPELINES))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=10)
    ap.add_argument("--no-own", action="store_true")
    ap.add_argument("--keep-work", action="store_true")
    ap.add_argument("--max-shown", type=int, default=25, help="failure lines printed per cell (all go to its log)")
    ap.add_argument("--cflag", action="append", default=[], help="extra clang flag (repeatable)")
    ap.add_argument("--label", default="", help="prefix of the cell names (and their logs)")
    ap.add_argument("--variant", default="O0", choices=["O0", "O1np"],
                    help="how clang builds the programs: -O0 (the driver's own flags) or "
                         "-O1 -Xclang -disable-llvm-passes (lifetime markers)")
    ap.add_argument("--allow-no-compile", action="store_true",
                    help="inputs clang cannot compile are counted, not an error (foreign test suites)")
    a = ap.parse_args()
    if a.variant == "O1np":
        # later flags win over the driver's -O0; -disable-O0-optnone then does nothing
        a.cflag += harness.VARIANTS["O1np"]
        a.label = "o1np-" + a.label

    tool_argv = harness.check_tool(a.tool)
    versions = [v for v in a.llvm.split(",") if v]
    harness.require(*[f"{t}-{v}" for v in versions for t in ("clang", "clang++", "opt", "lli")])
    driver = os.path.join(SHARED, "tools", "difftest.py")
    if not os.path.exists(driver):
        harness.die(f"{driver} not found (../shared must sit beside the repository)")
    pipelines = [p for p in a.pipelines.split(",") if p]
    for p in pipelines:
        if p not in PIPELINES:
            harness.die(f"unknown pipeline {p!r} (pipelines: {', '.join(PIPELINES)})")
    gs = {"both": [False, True], "no": [False], "yes": [True]}[a.g]

    inputs = []
    seeds = harness.parse_range(a.seeds) if a.seeds not in ("", "none") else []
    if seeds:  # exactly this range's files (the cache folder may hold other seeds)
        inputs += harness.csmith_sources(seeds, a.max_funcs, os.path.join(REPO, "target", "csmith", f"mf{a.max_funcs}"))
    if not a.no_own:
        inputs += [os.path.join(REPO, "tests", "c"), os.path.join(REPO, "tests", "cpp")]
    inputs += [os.path.abspath(i) for i in a.inputs]
    if not inputs:
        harness.die("nothing to test")
    inc = harness.csmith_include() if seeds else None

    work_root = os.path.join(REPO, "target", "difftest")
    tool_str = shlex.join(tool_argv)
    cells = []
    t_all = time.monotonic()
    for p in pipelines:
        tool = tool_str + (" " + PIPELINES[p] if PIPELINES[p] else "")
        for v in versions:
            for g in gs:
                name = f"{a.label}{p}-llvm{v}{'-g' if g else ''}"
                work = os.path.join(work_root, name)
                shutil.rmtree(work, ignore_errors=True)
                os.makedirs(work)
                cmd = [sys.executable, driver, "--tool", tool, "--llvm", v, "--jobs", str(a.jobs),
                       "--timeout", str(a.timeout), "--keep", work, "--root", REPO]
                if g:
                    cmd.append("-g")
                if inc:
                    cmd.append(f"--cflag=-I{inc}")
                cmd += [f"--cflag={f}" for f in a.cflag]
                cmd += inputs
                print(f"--- {name}: {tool} (llvm {v}{', -g' if g else ''})", flush=True)
                t0 = time.monotonic()
                proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=REPO)
                lines = []
                with open(work + ".log", "w") as log:
                    for raw in proc.stdout:
                        line = raw.decode(errors="replace").rstrip("\n")
                        lines.append(line)
                        log.write(line + "\n")
                        if len(lines) <= a.max_shown or not line.startswith("{"):
                            print("    " + line, flush=True)
                        elif len(lines) == a.max_shown + 1:
                            print(f"    (more failures: first {a.max_shown} shown; all in {work}.log)", flush=True)
                rc = proc.wait()
                dt = time.monotonic() - t0
                summary = {}
                for line in reversed(lines):
                    if line.startswith("{") and '"statuses"' in line:
                        summary = json.loads(line)
                        break
                figure = lines[-1] if lines else "(no output)"
                st = summary.get("statuses", {})
                if rc == 0 and ((st.get("no-compile") and not a.allow_no_compile) or st.get("llvm-rejects")):
                    # every input compiles and opt reads it when the machine is sound: a
                    # program that fails here is a harness problem, never a pass
                    print(f"    ERROR: {st.get('no-compile', 0)} inputs did not compile and "
                          f"{st.get('llvm-rejects', 0)} were rejected by opt-{v}", flush=True)
                    rc = 1
                cells.append({"cell": name, "pipeline": p, "llvm": v, "g": g, "exit": rc,
                              "seconds": round(dt, 1), "figure": figure, **summary})
                if not a.keep_work:
                    shutil.rmtree(work, ignore_errors=True)

    n_inputs = f"csmith seeds {a.seeds} ({len(seeds)})" if seeds else "no csmith"
    print(f"\ndifferential test: {n_inputs}" + ("" if a.no_own else " + tests/c + tests/cpp")
          + f"; tool {tool_str}; {harness.fmt_s(time.monotonic() - t_all)}")
    hdr = f"{'cell':<24} {'result':<7} {'correct':>9} {'phis ours/llvm':>15} {'allocas ours/llvm':>18} {'tool s':>7} {'wall':>7}  statuses"
    print(hdr)
    print("-" * len(hdr))
    for c in cells:
        st = c.get("statuses", {})
        judged = sum(n for k, n in st.items() if k not in ("no-compile", "llvm-rejects", "ub-excluded"))
        good = st.get("ok", 0) + st.get("ok-unrun", 0)
        cnt = c.get("counts", {})
        phi = cnt.get("phi", {})
        al = cnt.get("alloca", {})
        print(f"{c['cell']:<24} {'PASS' if c['exit'] == 0 else 'FAIL':<7} {good:>4}/{judged:<4} "
              f"{phi.get('ours', 0):>7}/{phi.get('llvm', 0):<7} {al.get('ours', 0):>8}/{al.get('llvm', 0):<9} "
              f"{c.get('tool_seconds_total', 0):>7.1f} {c['seconds']:>6.0f}s  "
              + ", ".join(f"{k} {n}" for k, n in sorted(st.items())))
    failed = [c for c in cells if c["exit"] != 0]
    print(json.dumps({"difftest": cells, "failed_cells": [c["cell"] for c in failed]}))
    print(f"cells: {len(cells) - len(failed)} passed, {len(failed)} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
