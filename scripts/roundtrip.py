#!/usr/bin/env python3
"""Round-trip check: mem2reg must write what opt writes, byte for byte.

For every module M (.ll files under the given dirs, or given files), with opt = opt-19, or
opt-14 for modules written with typed pointers (clang-14 output; detected from the text):
  bytes    mem2reg --passes= M          must equal  opt -S M                  byte for byte
  mem2reg  mem2reg M                    must equal  opt -passes=mem2reg -S M  byte for byte
Both tools are given M's path, so the `; ModuleID` and made-up `source_filename` lines agree.
The byte checks are promised for modules LLVM printed: a module that `opt -S` changes (a
hand-written test, a module LLVM 19 upgrades as it reads it) is judged by re-reading instead,
`opt -S < M` vs `opt -S < (mem2reg --passes= M)` (the reader and printer lose nothing LLVM
reads), its byte results only counted.
With --idempotent, the tool's own output read and printed again must also come out byte-identical
(catches text opt normalises away, e.g. a metadata attachment printed twice).
A module that opt itself rejects is skipped and counted apart; mem2reg should reject it too
(exit status 1). If mem2reg accepts it (exit 0) the disagreement is listed but is not a
failure unless --strict-rejects: such modules are often valid for a newer LLVM (the
conformance copies of llvm.lifetime.* with one operand are). Any other exit status there (a
crash, a timeout) is a failure, as is, for modules opt reads, a tool failure, output opt
rejects, or a difference the module is held to.

Usage: scripts/roundtrip.py [--tool CMD] [--jobs 2] [--report DIR] [--timeout S] [--no-mem2reg]
                            [--strict-rejects] [--idempotent] [--max-shown N] [--quiet] DIR_OR_FILE...
  --tool       command line of the tool (default target/release/mem2reg); for the harness
               self-check: --tool scripts/opt-standin.py
  --report     folder for one .diff per failing module (default target/roundtrip-report)
  --no-mem2reg skip the mem2reg pipeline check (read and write only)
Last lines: byte-identical counts per check, then "N identical / M total" (modules with no
failure / modules opt reads); exit 0 iff no failure.
"""
import argparse
import concurrent.futures as cf
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from harness import run  # noqa: E402


def strip_module_id(text):
    if text.startswith(b"; ModuleID"):
        nl = text.find(b"\n")
        return text[nl + 1:] if nl >= 0 else b""
    return text


def tail(err, n=400):
    if not isinstance(err, bytes):
        return str(err)
    return err.decode(errors="replace").strip()[-n:]


def first_difference(a, b, context=3):
    al, bl = a.split(b"\n"), b.split(b"\n")
    i = 0
    n = min(len(al), len(bl))
    while i < n and al[i] == bl[i]:
        i += 1
    lo = max(0, i - context)
    out = [f"first difference at line {i + 2} (after the ModuleID line); lines {len(al)} vs {len(bl)}"]
    out += ["  opt:     " + x.decode(errors="replace")[:200] for x in al[lo:i + context]]
    out += ["  via tool:" + x.decode(errors="replace")[:200] for x in bl[lo:i + context]]
    return "\n".join(out)


def write_report(args, tmpdir, path, suffix, a, b):
    """One unified diff for a failing module in the report folder."""
    if not args.report:
        return
    os.makedirs(args.report, exist_ok=True)
    name = os.path.relpath(path, args.common).replace("/", "__") + suffix
    pa, pb = os.path.join(tmpdir, name + ".opt"), os.path.join(tmpdir, name + ".tool")
    with open(pa, "wb") as f:
        f.write(a)
    with open(pb, "wb") as f:
        f.write(b)
    with open(os.path.join(args.report, name + ".diff"), "wb") as f:
        d = subprocess.run(["diff", "-u", "--label", "opt", "--label", "tool", pa, pb],
                           stdout=subprocess.PIPE).stdout
        f.write(d[: 1 << 20])
    os.remove(pa)
    os.remove(pb)


def tool_output(args, argv, out):
    """Runs the tool writing to `out`; (exit status, stderr, seconds, the bytes written)."""
    trc, _, terr, tdt = run(args.tool_argv + argv + ["-o", out], args.timeout)
    got = None
    if trc == 0 and os.path.exists(out):
        with open(out, "rb") as f:
            got = f.read()
    return trc, terr, tdt, got


def check(path, args, tmpdir):
    """Returns dict(path, status, detail, opt_s, tool_s, bytes_rw, bytes_m2r, held)."""
    r = {"path": path, "status": "identical", "detail": "", "opt_s": 0.0, "tool_s": 0.0, "opt_ok": True,
         "bytes_rw": None, "bytes_m2r": None}
    ver = harness.llvm_for(path)
    opt = [f"opt-{ver}"]
    r["opt"] = opt[0]
    rc, ref, err, dt = run(opt + ["-S", path], args.timeout)
    r["opt_s"] = dt
    out = os.path.join(tmpdir, f"{abs(hash(path))}-{os.path.basename(path)}")
    r["opt_ok"] = rc == 0
    if rc != 0:
        trc, _, terr, tdt = run(args.tool_argv + ["--passes=", path, "-o", out], args.timeout)
        r["tool_s"] = tdt
        if trc == 1:
            r["status"] = "both-reject"
        elif trc == 0:
            r["status"] = "reject-mismatch"
            r["detail"] = f"{opt[0]} rejects it ({tail(err, 200)}) but the tool accepts it"
        else:  # a crash, a timeout or a usage error is never an answer
            r["status"] = "tool-failed" if trc != "timeout" else "tool-timeout"
            r["detail"] = f"{opt[0]} rejects it, and the tool exits {trc} (expected 1): {tail(terr)}"
        if os.path.exists(out):
            os.remove(out)
        return r
    with open(path, "rb") as f:
        source = f.read()
    # The byte checks hold for what LLVM printed: opt -S leaves such a module as it is.
    printed_by_llvm = strip_module_id(ref) == strip_module_id(source)
    trc, terr, tdt, got = tool_output(args, ["--passes=", path], out)
    r["tool_s"] = tdt
    if got is None:
        r["status"] = "tool-failed" if trc != "timeout" else "tool-timeout"
        r["detail"] = f"exit {trc}: {tail(terr)}"
        return r
    r["bytes_rw"] = got == ref
    try:
        if args.idempotent:
            again = out + ".again.ll"
            trc2, terr2, _, twice = tool_output(args, ["--passes=", out], again)
            if twice is None:
                r["status"], r["detail"] = "not-idempotent", f"the tool fails on its own output: exit {trc2}: {tail(terr2)}"
                return r
            os.remove(again)
            if strip_module_id(got) != strip_module_id(twice):
                r["status"] = "not-idempotent"
                r["detail"] = "printing its own output again changes it: " + first_difference(
                    strip_module_id(got), strip_module_id(twice)).replace("opt:     ", "once:    ").replace(
                    "via tool:", "twice:   ")
                return r
        if not r["bytes_rw"]:
            if printed_by_llvm:
                r["status"] = "different"
                r["detail"] = "--passes=: " + first_difference(strip_module_id(ref), strip_module_id(got))
                write_report(args, tmpdir, path, "", ref, got)
                return r
            # Hand-written input: what LLVM reads from ours must be what it reads from it.
            with open(path, "rb") as f:
                rc1, norm_ref, _, dt1 = run(opt + ["-S"], args.timeout, stdin=f)
            with open(out, "rb") as f:
                rc2, norm_got, err2, dt2 = run(opt + ["-S"], args.timeout, stdin=f)
            r["opt_s"] += dt1 + dt2
            if rc2 != 0:
                r["status"] = "output-rejected"
                r["detail"] = f"{opt[0]} rejects the tool's output: {tail(err2)}"
                return r
            a, b = strip_source_filename(norm_ref), strip_source_filename(norm_got)
            if a != b:
                r["status"] = "different"
                r["detail"] = "re-read: " + first_difference(strip_module_id(a), strip_module_id(b))
                write_report(args, tmpdir, path, "", a, b)
                return r
    finally:
        if os.path.exists(out):
            os.remove(out)
    if args.no_mem2reg:
        return r
    rc, ref2, err, dt = run(opt + ["-passes=mem2reg", "-S", path], args.timeout)
    r["opt_s"] += dt
    trc, terr, tdt, got2 = tool_output(args, [path], out)
    r["tool_s"] += tdt
    if os.path.exists(out):
        os.remove(out)
    if rc != 0 or got2 is None:
        r["status"] = "tool-failed" if rc == 0 else "opt-failed"
        r["detail"] = f"mem2reg pipeline: tool exit {trc}: {tail(terr)}; opt exit {rc}: {tail(err)}"
        return r
    r["bytes_m2r"] = got2 == ref2
    if not r["bytes_m2r"] and printed_by_llvm:
        r["status"] = "different"
        r["detail"] = "mem2reg: " + first_difference(strip_module_id(ref2), strip_module_id(got2))
        write_report(args, tmpdir, path, ".mem2reg", ref2, got2)
    return r


def strip_source_filename(text):
    """Text after the ModuleID and source_filename lines (a module read from stdin and one
    read from a file differ there)."""
    text = strip_module_id(text)
    if text.startswith(b"source_filename"):
        nl = text.find(b"\n")
        return text[nl + 1:] if nl >= 0 else b""
    return text


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("inputs", nargs="+")
    ap.add_argument("--tool", default=harness.DEFAULT_TOOL)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=600)
    ap.add_argument("--report", default=os.path.join(harness.REPO, "target", "roundtrip-report"))
    ap.add_argument("--strict-rejects", action="store_true",
                    help="fail when opt rejects a module the tool accepts")
    ap.add_argument("--no-mem2reg", action="store_true",
                    help="check reading and writing only, not the mem2reg pipeline")
    ap.add_argument("--idempotent", action="store_true",
                    help="also require that the tool's output, read and printed again, is unchanged")
    ap.add_argument("--quiet", action="store_true", help="print only failures and the summary")
    ap.add_argument("--max-shown", type=int, default=50, help="failures printed in detail (all go to the report)")
    args = ap.parse_args()
    args.tool_argv = harness.check_tool(args.tool)
    harness.require("opt-19", "opt-14", "diff")
    files = []
    for i in args.inputs:
        if os.path.isdir(i):
            for dp, _, fs in os.walk(i):
                files += [os.path.join(dp, f) for f in fs if f.endswith(".ll")]
        elif os.path.isfile(i):
            files.append(i)
        else:
            harness.die(f"no such file or folder: {i}")
    files = sorted(set(os.path.abspath(f) for f in files))
    if not files:
        harness.die("no .ll modules found in " + " ".join(args.inputs))
    args.common = os.path.commonpath([os.path.dirname(f) for f in files])
    if args.report and os.path.isdir(args.report):
        shutil.rmtree(args.report)
    # biggest first, so that a large module does not run alone at the end
    order = sorted(files, key=lambda f: -os.path.getsize(f))
    t0 = time.monotonic()
    results = []
    shown = 0
    with tempfile.TemporaryDirectory(prefix="roundtrip-") as tmpdir:
        with cf.ThreadPoolExecutor(args.jobs) as ex:
            futs = [ex.submit(check, f, args, tmpdir) for f in order]
            for k, fut in enumerate(cf.as_completed(futs), 1):
                r = fut.result()
                results.append(r)
                rel = os.path.relpath(r["path"], args.common)
                if r["status"] not in ("identical", "both-reject", "reject-mismatch") or (
                        r["status"] == "reject-mismatch" and args.strict_rejects):
                    shown += 1
                    if shown <= args.max_shown:
                        print(f"FAIL [{r['status']}] {rel}\n    " + r["detail"].replace("\n", "\n    "), flush=True)
                    elif shown == args.max_shown + 1:
                        print(f"(more failures: details of the first {args.max_shown} only)", flush=True)
                elif not args.quiet and k % 250 == 0:
                    print(f"  ... {k}/{len(files)} checked ({harness.fmt_s(time.monotonic() - t0)})", flush=True)
    by = {}
    for r in results:
        by.setdefault(r["status"], []).append(r)
    identical = len(by.get("identical", []))
    rejected = [r for r in results if r["status"] in ("both-reject", "reject-mismatch")]
    failed = [r for r in results if r["status"] not in ("identical", "both-reject")
              and not (r["status"] == "reject-mismatch" and not args.strict_rejects)]
    judged = sum(1 for r in results if r["opt_ok"])
    rel = lambda r: os.path.relpath(r["path"], args.common)
    print(f"round-trip of {len(results)} modules under {args.common} with {args.tool} "
          f"({args.jobs} jobs, {harness.fmt_s(time.monotonic() - t0)})")
    opt_s = sum(r["opt_s"] for r in results)
    tool_s = sum(r["tool_s"] for r in results)
    print(f"time summed over modules: tool {tool_s:.1f} s, opt -S (twice per module) {opt_s:.1f} s")
    if rejected:
        print(f"skipped, opt rejects them ({len(rejected)}):")
        for r in sorted(rejected, key=rel):
            if r["status"] == "both-reject":
                note = "the tool rejects it too"
            elif r["status"] == "reject-mismatch":
                note = "DISAGREEMENT (the tool accepts it" + (
                    "; a failure with --strict-rejects)" if not args.strict_rejects else ")")
            else:
                note = f"{r['status'].upper()}"
            print(f"  {rel(r)} [{r['opt']}]: {note}")
            if r["status"] != "both-reject":
                print("      " + r["detail"].replace("\n", "\n      "))
    if failed:
        lines = [f"  [{r['status']}] {rel(r)}" for r in sorted(failed, key=rel)]
        print(f"failures ({len(failed)}):")
        print("\n".join(lines[: args.max_shown * 4]))
        if len(lines) > args.max_shown * 4:
            print(f"  ... and {len(lines) - args.max_shown * 4} more")
        if args.report:
            os.makedirs(args.report, exist_ok=True)
            with open(os.path.join(args.report, "failures.txt"), "w") as f:
                f.write("\n".join(f"{l.strip()}\t{r['detail']!r}" for l, r in zip(lines, sorted(failed, key=rel))) + "\n")
            print(f"all failures with details: {args.report}/failures.txt" +
                  (f"; diffs: {args.report}/*.diff" if by.get("different") else ""))
    statuses = ", ".join(f"{k} {len(v)}" for k, v in sorted(by.items()))
    print(f"statuses: {statuses}")
    for key, what in (("bytes_rw", "--passes= vs opt -S"), ("bytes_m2r", "mem2reg vs opt -passes=mem2reg -S")):
        done = [r for r in results if r.get(key) is not None]
        if done:
            same = sum(1 for r in done if r[key])
            print(f"byte-identical, {what}: {same} / {len(done)}")
            missed = sorted(rel(r) for r in done if not r[key])
            if missed and not args.quiet:
                print("  not byte-identical (" + ("held to re-reading, or differing on purpose" if not failed else
                      "see failures") + "): " + ", ".join(missed[:40]) + (" ..." if len(missed) > 40 else ""))
    print(f"{identical} identical / {judged} total")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
