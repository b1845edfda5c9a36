#!/usr/bin/env python3
"""Compare mem2reg's verifier and analysis printers with LLVM's on real programs.

For every input module:
  verify      mem2reg (which verifies its input, as opt does) must accept exactly what
              `opt -passes=verify` accepts (opt-19 for opaque pointers, opt-14 for typed ones);
  domtree     `--passes='print<domtree>'` must equal opt-19's output byte for byte;
  domfrontier `--passes='print<domfrontier>'` must equal opt-19's output up to the order of the
              per-block lines (opt orders them by memory address); each line must be equal;
  dot         `--passes=dot-cfg,dot-dom` must write the files opt-19 writes, equal once node
              names are numbered in order of appearance, opt's heat colors and probability
              tooltips are dropped, metadata numbers (which opt renumbers) are blanked, and our
              phi highlighting (a record row and a fill) is undone.
(The printers are compared on opaque-pointer modules only: opt-19 reads no typed pointers.)

Inputs: .ll files or directories on the command line, plus
  --csmith N        N csmith programs (seeds 1..N), each compiled by clang-19 and clang-14 at
                    -O0 (optnone off) and -O2: 4 modules per program;
  --scale           gen_scale.py shapes (ladder, nest, switch, chain) at a few sizes.
Usage: scripts/compare-analysis.py [--bin target/release/mem2reg] [--csmith 50] [--scale] [FILES]
Exit status 1 if anything differs.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, errors="replace", **kw)


def csmith_modules(n, work):
    out = []
    for seed in range(1, n + 1):
        c = os.path.join(work, f"cs{seed}.c")
        # In the work folder: csmith writes a platform.info file into its current directory.
        r = run(["csmith", "--seed", str(seed), "--max-funcs", "8", "-o", c], cwd=work)
        if r.returncode != 0:
            continue
        for clang in ("clang-19", "clang-14"):
            for opt in ("-O0", "-O2"):
                ll = os.path.join(work, f"cs{seed}-{clang}{opt}.ll")
                cmd = [clang, opt, "-S", "-emit-llvm", "-w", "-I/usr/include/csmith", c, "-o", ll]
                if opt == "-O0":
                    cmd[2:2] = ["-Xclang", "-disable-O0-optnone"]
                if run(cmd).returncode == 0:
                    out.append(ll)
    return out


def scale_modules(work):
    gen = "/work/shared/tools/gen_scale.py"
    out = []
    for shape in ("ladder", "nest", "switch", "chain"):
        for n, v in ((1, 1), (5, 3), (40, 8), (300, 4)):
            ll = os.path.join(work, f"scale-{shape}-{n}-{v}.ll")
            with open(ll, "w") as f:
                if subprocess.run([sys.executable, gen, shape, str(n), str(v)], stdout=f).returncode:
                    continue
            out.append(ll)
            # The same shapes after LLVM's mem2reg: phis, and a tree worth printing.
            ssa = ll.replace(".ll", "-ssa.ll")
            if run(["opt-19", "-passes=mem2reg", "-S", ll, "-o", ssa]).returncode == 0:
                out.append(ssa)
    return out


def collect(paths):
    out = []
    for p in paths:
        if os.path.isdir(p):
            out += sorted(os.path.join(p, f) for f in os.listdir(p) if f.endswith(".ll"))
        else:
            out.append(p)
    return out


def typed(path):
    with open(path, errors="replace") as f:
        text = f.read()
    return " ptr " not in text and "ptr)" not in text and "*" in text


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(ROOT, "target/release/mem2reg"))
    ap.add_argument("--csmith", type=int, default=0)
    ap.add_argument("--scale", action="store_true")
    ap.add_argument("files", nargs="*")
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix="compare-analysis-")
    files = collect(a.files) + csmith_modules(a.csmith, work)
    if a.scale:
        files += scale_modules(work)
    counts = {k: [0, 0] for k in ("verify", "domtree", "domfrontier", "dot")}
    bad = []
    for f in files:
        opt = "opt-14" if typed(f) else "opt-19"
        o = run([opt, "-passes=verify", "-disable-output", f])
        m = run([a.bin, "--passes=", "-disable-output", f])
        counts["verify"][0] += 1
        if (o.returncode == 0) == (m.returncode == 0):
            counts["verify"][1] += 1
        else:
            bad.append(f"verify {f}: {opt} rc={o.returncode} ours rc={m.returncode}\n"
                       f"  {opt}: {o.stderr.strip()[:300]}\n  ours: {m.stderr.strip()[:300]}")
        if opt != "opt-19" or o.returncode != 0:
            continue
        for p in ("domtree", "domfrontier"):
            ob = run(["opt-19", f"-passes=print<{p}>", "-disable-output", f]).stderr
            mb = run([a.bin, f"--passes=print<{p}>", "-disable-output", f]).stderr
            same = ob == mb if p == "domtree" else canon(ob) == canon(mb)
            counts[p][0] += 1
            counts[p][1] += same
            if not same:
                bad.append(f"{p} {f}: differs from opt-19")
        same = dot_files(a.bin, f, work)
        counts["dot"][0] += 1
        counts["dot"][1] += same
        if not same:
            bad.append(f"dot {f}: differs from opt-19")
    for k, (n, ok) in counts.items():
        print(f"{k:12} {ok}/{n} equal")
    for b in bad:
        print(b)
    print(f"(inputs in {work})")
    return 1 if bad else 0


def dot_files(binary, f, work):
    """Runs both dot writers in fresh directories on opt's canonical text of `f` (labels show
    instructions as written, and our printer keeps the input's spelling); compares the files."""
    canonical = os.path.join(work, "canonical.ll")
    if run(["opt-19", "-S", f, "-o", canonical]).returncode != 0:
        return False
    f = canonical
    dirs = []
    for tool in ("opt-19", binary):
        d = tempfile.mkdtemp(dir=work)
        flag = "-passes=" if tool == "opt-19" else "--passes="
        run([tool, flag + "dot-cfg,dot-dom", "-disable-output", os.path.abspath(f)], cwd=d)
        dirs.append(d)
    names = [sorted(os.listdir(d)) for d in dirs]
    if names[0] != names[1] or not names[0]:
        return False
    for n in names[0]:
        a, b = (dot_canon(open(os.path.join(d, n), errors="replace").read()) for d in dirs)
        if a != b:
            return False
    return True


def dot_canon(text):
    """Node ids numbered by first appearance; colors, tooltips and phi highlighting removed."""
    ids = {}
    def node(m):
        return "N%d" % ids.setdefault(m.group(0), len(ids))
    text = re.sub(r"Node0x[0-9a-f]+", node, text)
    text = re.sub(r'color="#[0-9a-f]+", style=filled, fillcolor="#[0-9a-f]+" ', "", text)
    text = text.replace('style=filled,fillcolor="#fff2b3",', "")
    text = re.sub(r'\[tooltip="[^"]*" \]', "", text)
    text = re.sub(r"!\d+", "!N", text)  # opt renumbers metadata when printing; we keep the input's
    return text.replace("\\l|", "\\l")


def canon(text):
    """print<domfrontier> per function: the header, then the set of block lines."""
    out, cur = [], None
    for line in text.splitlines():
        if line.startswith("DominanceFrontier for function"):
            cur = [line, []]
            out.append(cur)
        elif cur is not None:
            cur[1].append(line)
    return [(h, sorted(ls)) for h, ls in out]


if __name__ == "__main__":
    sys.exit(main())
