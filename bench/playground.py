#!/usr/bin/env python3
"""The playground section of bench/bench.py: how fast `mem2reg serve` answers each view.

Generates an LLVM IR function of about 1,000 instructions (47 blocks, so the CFG pictures are
laid out too; 8 slots, diamonds and loops), starts `TOOL serve --port 0`, and times
POST /api/model for each view alone (views=[v]) and for all views at once: the median of
--runs requests after one warm-up, in milliseconds, wall time seen by the client on loopback.
The bar (issue 30) is under 100 ms per view on this machine. Also runnable alone:
  python3 bench/playground.py [--tool target/release/mem2reg] [--runs 15]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time
import urllib.request

VIEWS = ["passes", "diff", "cfg", "dom", "frontier", "placement", "renaming", "phielim"]
SLOTS = 8
DIAMONDS = 15


def generate(target=1000):
    """A function with SLOTS slots and DIAMONDS diamonds (every other one looping back to its
    head), padded with arithmetic to about `target` instructions. Returns (text, insts, blocks)."""
    def body(pad):
        out = []
        out.append("define i32 @gen(i32 %p, i32 %n) {")
        out.append("entry:")
        for s in range(SLOTS):
            out.append(f"  %s{s} = alloca i32")
        for s in range(SLOTS):
            out.append(f"  store i32 %p, ptr %s{s}")
        out.append("  br label %head0")
        t = [0]

        def tmp():
            t[0] += 1
            return f"%t{t[0]}"

        def work(slots, store):
            vals = []
            for s in slots:
                v = tmp()
                out.append(f"  {v} = load i32, ptr %s{s}")
                vals.append(v)
            acc = vals[0]
            for k in range(pad):
                v = tmp()
                out.append(f"  {v} = add i32 {acc}, {vals[k % len(vals)]}")
                acc = v
            for s in store:
                out.append(f"  store i32 {acc}, ptr %s{s}")
            return acc

        for k in range(DIAMONDS):
            a, b2, c = k % SLOTS, (k + 3) % SLOTS, (k + 5) % SLOTS
            out.append(f"head{k}:")
            acc = work([a, b2, c], [a])
            cond = tmp()
            out.append(f"  {cond} = icmp slt i32 {acc}, %n")
            out.append(f"  br i1 {cond}, label %then{k}, label %join{k}")
            out.append(f"then{k}:")
            work([b2, c], [b2, c])
            out.append(f"  br label %join{k}")
            out.append(f"join{k}:")
            acc = work([a, c], [c])
            nxt = f"head{k + 1}" if k + 1 < DIAMONDS else "exit"
            if k % 2 == 0:
                cond = tmp()
                out.append(f"  {cond} = icmp sgt i32 {acc}, %p")
                out.append(f"  br i1 {cond}, label %head{k}, label %{nxt}")
            else:
                out.append(f"  br label %{nxt}")
        out.append("exit:")
        r = tmp()
        out.append(f"  {r} = load i32, ptr %s0")
        out.append(f"  ret i32 {r}")
        out.append("}")
        return out

    pad = 1
    while True:
        lines = body(pad)
        insts = sum(1 for l in lines if l.startswith("  "))
        if insts >= target:
            return "\n".join(lines) + "\n", insts, 2 + 3 * DIAMONDS
        pad += 1


def post(url, payload):
    req = urllib.request.Request(url + "api/model", data=json.dumps(payload).encode(),
                                 headers={"Content-Type": "application/json"})
    t0 = time.perf_counter()
    with urllib.request.urlopen(req, timeout=60) as r:
        body = r.read()
        status = r.status
    return (time.perf_counter() - t0) * 1000, status, len(body)


def run(tool, runs):
    """Times every view; returns the section's rows (dicts)."""
    src, insts, blocks = generate()
    proc = subprocess.Popen([tool, "serve", "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    if "http://" not in line:
        proc.kill()
        raise SystemExit(f"playground: the server did not start: {line!r} {proc.stderr.read()}")
    url = "http://" + line.split("http://")[1].split()[0]
    rows = []
    print(f"\n== playground: POST /api/model per view, generated function: {insts} instructions, {blocks} blocks, {SLOTS} slots; median of {runs} ms")
    print(f"{'view':<12} {'median ms':>10} {'min ms':>8} {'max ms':>8} {'bytes':>10}")
    try:
        for view in VIEWS + ["all"]:
            payload = {"lang": "llvm", "source": src}
            if view != "all":
                payload["views"] = [view]
            _, status, _ = post(url, payload)  # warm-up
            if status != 200:
                raise SystemExit(f"playground: view {view} answered {status}")
            times, size = [], 0
            for _ in range(runs):
                ms, status, size = post(url, payload)
                times.append(ms)
            med = statistics.median(times)
            rows.append({"view": view, "median_ms": round(med, 2), "min_ms": round(min(times), 2),
                         "max_ms": round(max(times), 2), "bytes": size})
            print(f"{view:<12} {med:>10.2f} {min(times):>8.2f} {max(times):>8.2f} {size:>10}")
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    worst = max(r["median_ms"] for r in rows if r["view"] != "all")
    print(f"slowest single view: {worst:.2f} ms (bar: < 100 ms)")
    return {"instructions": insts, "blocks": blocks, "runs": runs, "rows": rows, "slowest_view_ms": worst}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tool", default=os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "target", "release", "mem2reg"))
    ap.add_argument("--runs", type=int, default=15)
    a = ap.parse_args()
    print(json.dumps({"bench": {"playground": run(a.tool, a.runs)}}))


if __name__ == "__main__":
    sys.exit(main())
