#!/usr/bin/env python3
"""The `peer` section of bench/bench.py: mem2reg's on-the-fly SSA builder against
cranelift-frontend's, on the same front-end scripts, in one process, runs interleaved.

Builds bench/peer (its own cargo workspace: cranelift is compiled for the benchmark only) in
release and runs its `peer` binary with --json. Each side times building one whole function
from an IR-independent script: ours replays it through toy-ir's FunctionBuilder (over
ssa::construct::on_the_fly) and `finish`, cranelift through its FunctionBuilder and `finalize`.
Figures are medians of --runs timed runs per side (at least 5; one warm-up first), except that
a side stops once its runs add up to --max-time seconds (cranelift on nest N = 16,000 takes
about a minute per run, so it is timed once; the line says `runs 1`).

Cases: wasmtime issue 4923's chain (15,000 blocks, and 3,750 / 60,000 for growth), gen_scale's
ladder, nest and switch at N = 1000, 4000, 16000 (V = 100), straight-line code with 100,000
variables (and 25,000 / 400,000 for growth).

Bars (issue 27): ours <= 0.5x cranelift's time on every case; ours grows at most 4.5x per 4x N.
A missed bar prints FAIL and makes the section fail. Also runnable alone:
  python3 bench/peer/bench_section.py [--runs 5] [--shapes nest,ladder] [--sizes 1000,4000]
"""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
RATIO_BAR = 0.5
GROWTH_BAR = 4.5
MIN_RUNS = 5


def build():
    """cargo build --release of bench/peer; returns the path of the `peer` binary."""
    cmd = ["cargo", "build", "--release", "--bin", "peer", "--message-format=json",
           "--manifest-path", os.path.join(HERE, "Cargo.toml")]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        raise SystemExit(f"peer: cargo build failed:\n{p.stderr[-3000:]}")
    for line in p.stdout.splitlines():
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        if msg.get("reason") == "compiler-artifact" and msg.get("target", {}).get("name") == "peer" \
                and msg.get("executable"):
            return msg["executable"]
    raise SystemExit("peer: cargo build named no `peer` executable")


def verdicts(report):
    """The bar checks: a list of (ok, text), one per case and per growth step."""
    out = []
    for c in report["cases"]:
        r = c["ratio"]
        ok = r is not None and r <= RATIO_BAR
        out.append((ok, f"{c['shape']} {c['n']}: ours/cranelift {r:.3f} (bar <= {RATIO_BAR})"
                    if r is not None else f"{c['shape']} {c['n']}: ours not measured"))
    for g in report["growth"]:
        x = g["ours_per_4x"]
        ok = x is not None and x <= GROWTH_BAR
        out.append((ok, f"{g['shape']} {g['from']}->{g['to']}: ours x{x:.2f} per 4x N (bar <= {GROWTH_BAR})"
                    if x is not None else f"{g['shape']} growth: ours not measured"))
    return out


def run(runs, shapes=None, sizes=None, max_time=30.0):
    """Builds and runs the peer benchmark, prints the table; returns the section's result."""
    exe = build()
    cmd = [exe, "--json", "--runs", str(max(runs, MIN_RUNS)), "--max-time", str(max_time)]
    if shapes:
        cmd += ["--shapes", shapes]
    if sizes:
        cmd += ["--sizes", sizes]
    print(f"\n== peer: on-the-fly SSA, ours (toy-ir FunctionBuilder over ssa::construct::on_the_fly) "
          f"vs cranelift-frontend; medians of >= {max(runs, MIN_RUNS)} interleaved runs "
          f"(one run when a side's runs reach {max_time:g} s); seconds")
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        raise SystemExit(f"peer: {' '.join(cmd)} failed ({p.returncode}):\n{p.stderr[-3000:]}")
    report = json.loads(p.stdout.strip().splitlines()[-1])
    print("peer SHAPE N ours_s cranelift_s ratio   (runs ours/cranelift)")
    for c in report["cases"]:
        ours = "-" if c["ours_s"] is None else f"{c['ours_s']:.6f}"
        ratio = "-" if c["ratio"] is None else f"{c['ratio']:.3f}"
        print(f"peer {c['shape']} {c['n']} {ours} {c['cranelift_s']:.6f} {ratio}"
              f"   ({c['ours_runs']}/{c['cranelift_runs']})")
    print("growth SHAPE FROM->TO ours_per_4x cranelift_per_4x")
    for g in report["growth"]:
        ours = "-" if g["ours_per_4x"] is None else f"{g['ours_per_4x']:.2f}"
        print(f"growth {g['shape']} {g['from']}->{g['to']} {ours} {g['cranelift_per_4x']:.2f}")
    checks = verdicts(report)
    failed = [text for ok, text in checks if not ok]
    for text in failed:
        print(f"FAIL {text}")
    print(f"peer bars: {len(checks) - len(failed)}/{len(checks)} met"
          + ("" if not failed else " -- FAIL"))
    report["failed"] = failed
    return report


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=MIN_RUNS)
    ap.add_argument("--shapes", default=None)
    ap.add_argument("--sizes", default=None)
    ap.add_argument("--max-time", type=float, default=30.0)
    a = ap.parse_args()
    result = run(a.runs, a.shapes, a.sizes, a.max_time)
    sys.exit(1 if result["failed"] else 0)


if __name__ == "__main__":
    sys.dont_write_bytecode = True
    main()
