#!/usr/bin/env python3
"""Benchmarks of mem2reg against opt-19, measured side by side in the same run.

Every figure is the median of --runs runs (ours and opt alternate, so both see the same
machine), wall time plus peak RSS of the child (os.wait4 rusage). A command whose runs are
short gets more of them, up to MIN_SECONDS of runs in all (at most MAX_RUNS): a 20 ms run is
mostly process start and scheduler noise, and five of them gave growth factors that moved by
a third from one run of the bench to the next. Ratios are ours / opt: below 1 means faster
(or smaller) than opt-19.

Sections (--sections, comma-separated, default all):
  rw      read + write only:  mem2reg --passes= IN -o OUT      vs  opt-19 -S IN -o OUT
  m2r     end-to-end:         mem2reg IN -o OUT                vs  opt-19 -passes=mem2reg -S IN -o OUT
          rw and m2r run on the largest real modules: the sqlite3 amalgamation (clang-19 -O0,
          -O0 -g, -O1 -disable-llvm-passes), zstd's largest unit (zstd_lazy.c, -O0 and -O0 -g:
          heavy force-inlined code) and Lua 5.4's VM loop (lvm.c, -O0 -g); they are built
          by scripts/corpus.py into target/bench-inputs/ when missing. Also built here: the
          whole Lua 5.4 interpreter in one module as Lua's onelua.c makes it (-O0 and -O0 -g,
          LUA_USE_JUMPTABLE: computed goto, so blockaddress), from lua-src in cargo's
          registry, and a generated dispatch loop with 1,000 blockaddress targets.
  pass    the promotion pass alone on the same real modules: our `mem2reg` row's thread time
          from --time-passes with --threads 1 (so it is one thread's time, like opt's) against
          opt-19's PromotePass line from -time-passes (neither counts parsing or printing).
          opt times the DominatorTreeAnalysis and AssumptionAnalysis PromotePass asks for on
          lines of their own; ours computes its CFG and dominator tree inside the pass and
          reports their share on the row "mem2reg, of which CFG and dominator tree".
          Three ratios: ours whole / PromotePass; ours without CFG and dominator tree /
          PromotePass (like for like); ours whole / PromotePass + its two analyses.
  cpu1    one core: user + system CPU time of `mem2reg --threads=1` against opt-19's, on the
          same real modules and gen_scale.py chain 1000 100 (the bar: 0.2x).
  growth  gen_scale.py shapes ladder/nest/switch/chain at N = --sizes (1000,4000,16000),
          V = 100: time per size and growth factor per 4x N, ours and opt-19's (mem2reg).
          Ours' runs of a size come in a row, then opt's (not alternated: each tool's growth
          with its own data in the caches).
          opt is stopped after --opt-timeout seconds (default 300) and reported as
          "timed out at T s"; --skip-opt nest:16000,... does not run opt there at all
          (opt-19 on nest N=16000 takes ~218 s and 4.8 GB).
  phielim mem2reg --passes=mem2reg  vs  mem2reg --passes=mem2reg,phi-elim  on the same shapes:
          both times and the extra cost of phi elimination.
  analyses  the control-flow analyses alone on the same shapes: our `analyses` pass (CFG,
          dominator tree, live-in bound and pruned iterated frontier of every slot; its time
          from --time-passes; median of 5 processes per run, since millisecond runs are noisy)
          against opt-19's PromotePass time from -time-passes (opt's
          whole mem2reg, without its DominatorTreeAnalysis); growth per 4x N.
  playground  `mem2reg serve` (bench/playground.py): POST /api/model per view (passes, diff,
          cfg, dom, frontier, placement, renaming, phielim, and all at once) for a generated
          function of ~1,000 instructions in 47 blocks; median ms of --runs (at least 15)
          requests on loopback. The bar: every view under 100 ms. Needs no opt.
  peer    on-the-fly SSA construction (bench/peer/bench_section.py): our builder (toy-ir's
          FunctionBuilder over ssa::construct::on_the_fly) against cranelift-frontend on the
          same front-end scripts (wasmtime issue 4923's chain, ladder/nest/switch at 1000,
          4000, 16000, straight-line code); `peer SHAPE N ours_s cranelift_s ratio` per case
          (medians of at least 5 interleaved runs) and growth per 4x N. Bars: ratio <= 0.5,
          our growth <= 4.5; a miss prints FAIL and the exit status is 1. Needs no opt.

Usage:
  python3 bench/bench.py                                 # everything, 3 runs each
  python3 bench/bench.py --sections rw,m2r --runs 5
  python3 bench/bench.py --sections growth,phielim --sizes 1000,4000 --shapes ladder,switch
  python3 bench/bench.py --skip-opt nest:16000           # skip opt's 218 s nest case
  python3 bench/bench.py --quick                         # 1 run, sizes 1000,4000: a smoke test
  python3 bench/bench.py --tool scripts/opt-standin.py   # check the harness itself
Output: one table per section, then a single JSON line {"bench": ...}. Exit 1 if our tool
failed anywhere.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "scripts"))
import harness  # noqa: E402
from harness import REPO, SHARED  # noqa: E402

INPUTS = os.path.join(REPO, "target", "bench-inputs")
# (path under INPUTS, label)
REAL = [
    ("crates/sqlite/sqlite3_sqlite3.c19-O0.ll", "sqlite3 -O0"),
    ("crates/sqlite/sqlite3_sqlite3.c19-O0g.ll", "sqlite3 -O0 -g"),
    ("crates/sqlite/sqlite3_sqlite3.c19-O1np.ll", "sqlite3 -O1 nopass"),
    ("crates/zstd/zstd_lib_compress_zstd_lazy.c19-O0.ll", "zstd_lazy -O0"),
    ("crates/zstd/zstd_lib_compress_zstd_lazy.c19-O0g.ll", "zstd_lazy -O0 -g"),
    ("crates/lua/lua-5.4.7_lvm.c19-O0g.ll", "lua 5.4 lvm -O0 -g"),
]
# Large modules built here rather than by corpus.py (see extra_inputs): a whole interpreter in one
# translation unit with computed goto and -g, and a generated dispatch loop with many
# blockaddress targets. Both stream (their blockaddress needs the targets' numbering only).
EXTRA = [("onelua/onelua-5.4.7.c19-O0g.ll", "lua 5.4 onelua -O0 -g"),
         ("onelua/onelua-5.4.7.c19-O0.ll", "lua 5.4 onelua -O0"),
         ("synth/dispatch-N1000.ll", "dispatch 1000 labels")]
# Lua's own onelua.c order: core, then auxiliary library, then standard libraries.
ONELUA_FILES = ["lzio", "lctype", "lopcodes", "lmem", "lundump", "ldump", "lstate", "lgc", "llex",
                "lcode", "lparser", "ldebug", "lfunc", "lobject", "ltm", "lstring", "ltable", "ldo",
                "lvm", "lapi", "lauxlib", "lbaselib", "lcorolib", "ldblib", "liolib", "lmathlib",
                "loadlib", "loslib", "lstrlib", "ltablib", "lutf8lib", "linit"]
SHAPES = ["ladder", "nest", "switch", "chain"]
# A command is run until its runs add up to MIN_SECONDS (at least --runs, at most MAX_RUNS).
MIN_SECONDS = 1.0
MAX_RUNS = 51

# analyses section: our runs per opt run. Our analyses take milliseconds, where one run is
# mostly scheduler and page-fault noise, so the median is taken over more runs (each a fresh
# process, as in real use: repeating the pass in one process would time it with warm caches,
# which flatters the small sizes only).
ANALYSES_RUNS_PER_RUN = 5


def measure_once(cmd, timeout, out_path):
    """Run cmd once. Returns (wall seconds, peak RSS MiB, status) with status 'ok', 'timeout'
    or 'rc N: stderr tail'."""
    err = tempfile.TemporaryFile()
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err)
    killed = []
    timer = None
    if timeout:
        def kill():
            killed.append(1)
            p.kill()
        timer = threading.Timer(timeout, kill)
        timer.start()
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.monotonic() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    if timer:
        timer.cancel()
    rss = ru.ru_maxrss / 1024.0
    if out_path and os.path.exists(out_path):
        os.remove(out_path)
    if killed:
        return wall, rss, "timeout"
    if p.returncode != 0:
        err.seek(0)
        tail = err.read().decode(errors="replace").strip().splitlines()[-1:] or [""]
        return wall, rss, f"rc {p.returncode}: {tail[0][:160]}"
    return wall, rss, "ok"


class Bench:
    def __init__(self, args):
        self.args = args
        self.tool = harness.check_tool(args.tool)
        self.tmp = tempfile.mkdtemp(prefix="bench-")
        self.ours_failed = False

    def out(self, tag):
        return os.path.join(self.tmp, tag + ".ll")

    def pair(self, ours_cmd, opt_cmd, runs, opt_timeout=None, skip_opt=False, alternate=True):
        """Alternate ours and opt for `runs` runs (more for short commands: MIN_SECONDS);
        returns dict of medians. With alternate=False, all of ours' runs come first, then
        opt's (so opt's runs do not evict ours' data from the caches between two of ours)."""
        res = {"ours": [], "opt": []}
        status = {"ours": "ok", "opt": "ok" if not skip_opt else "skipped"}

        def wants(side):
            xs = res[side]
            if len(xs) < runs:
                return True
            return len(xs) < MAX_RUNS and sum(w for w, _ in xs) < MIN_SECONDS

        sides = (("ours", ours_cmd, self.args.timeout), ("opt", opt_cmd, opt_timeout))
        # Alternating, a round takes one run of each side; else each side's runs come in turn.
        for group in ([sides] if alternate else [sides[:1], sides[1:]]):
            while any(status[side] == "ok" and cmd is not None and wants(side) for side, cmd, _ in group):
                for side, cmd, to in group:
                    if status[side] != "ok" or cmd is None or not wants(side):
                        continue
                    o = self.out(side)
                    w, r, st = measure_once(cmd + ["-o", o], to, o)
                    if st != "ok":
                        status[side] = st
                        res[side] = [(w, r)]
                        if side == "ours":
                            self.ours_failed = True
                        continue
                    res[side].append((w, r))
        out = {}
        for side in ("ours", "opt"):
            xs = res[side]
            out[side] = {
                "status": status[side],
                "s": round(statistics.median(w for w, _ in xs), 4) if xs else None,
                "rss_mb": round(statistics.median(r for _, r in xs), 1) if xs else None,
                "runs": len(xs),
            }
        o, p = out["ours"], out["opt"]
        ok = o["status"] == "ok" and p["status"] == "ok"
        out["time_ratio"] = round(o["s"] / p["s"], 3) if ok and p["s"] else None
        out["rss_ratio"] = round(o["rss_mb"] / p["rss_mb"], 3) if ok and p["rss_mb"] else None
        return out


def cell(entry, key="s", fmt="{:.3f}"):
    st = entry["status"]
    if st == "ok":
        return fmt.format(entry[key])
    if st == "timeout":
        return f"timeout@{entry['s']:.0f}s"
    if st == "skipped":
        return "skipped"
    return "FAILED"


def ratio(x):
    if x is None:
        return "-"
    return f"{x:.2f}x" if x >= 0.1 else f"{x:.3f}x"


def ensure_real_inputs(args):
    missing = [p for p, _ in REAL if not os.path.exists(os.path.join(INPUTS, p))]
    if missing:
        print(f"building benchmark inputs in {INPUTS} (scripts/corpus.py) ...", flush=True)
        cmd = [sys.executable, os.path.join(REPO, "scripts", "corpus.py"), "--out", INPUTS,
               "--sets", "crates", "--crates", "sqlite,lua,zstd", "--compilers", "19",
               "--variants", "O0,O0g,O1np"]
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if p.returncode != 0:
            harness.die("corpus.py failed:\n" + p.stdout.decode(errors="replace")[-2000:])
    return [(os.path.join(INPUTS, p), label) for p, label in REAL if os.path.exists(os.path.join(INPUTS, p))] + extra_inputs()


def onelua_source():
    """The Lua 5.4.7 sources of the lua-src crate in cargo's registry (fetched by corpus.py's
    crates set), or None."""
    import glob
    home = os.environ.get("CARGO_HOME", os.path.expanduser("~/.cargo"))
    found = sorted(glob.glob(os.path.join(home, "registry", "src", "*", "lua-src-*", "lua-5.4.7")))
    return found[-1] if found else None


def build_onelua(out, debug):
    """Lua 5.4.7, core and libraries, as one translation unit the way Lua's onelua.c includes
    them (generated, not committed: Lua is MIT-licensed, its sources stay in the registry),
    compiled with clang-19 -O0 [-g] -Xclang -disable-O0-optnone and LUA_USE_JUMPTABLE, so
    luaV_execute dispatches by computed goto through a table of blockaddress constants."""
    src = onelua_source()
    if not src:
        return False
    os.makedirs(os.path.dirname(out), exist_ok=True)
    c = os.path.join(os.path.dirname(out), "onelua.c")
    with open(c, "w") as fh:
        fh.write("/* generated by bench/bench.py: Lua's onelua.c, core and libraries in one unit */\n"
                 "#define LUA_CORE\n#define LUA_LIB\n#include \"lprefix.h\"\n")
        fh.writelines(f'#include "{f}.c"\n' for f in ONELUA_FILES)
    cmd = ["clang-19", "-S", "-emit-llvm", "-w", "-O0", "-Xclang", "-disable-O0-optnone",
           "-DLUA_USE_JUMPTABLE=1", "-DLUA_USE_LINUX", "-I", src, c, "-o", out + ".part"]
    if debug:
        cmd.insert(4, "-g")
    if subprocess.run(cmd).returncode != 0:
        return False
    os.replace(out + ".part", out)
    return True


def dispatch_ir(n, helpers=200):
    """A bytecode-interpreter shape: one function whose dispatch loop jumps through a table of
    `n` blockaddress constants (numbered labels, as clang writes them) with `indirectbr`, its
    state in stack slots as at -O0, and `helpers` small functions around it."""
    out = [f"@tab = internal constant [{n} x ptr] ["
           + ", ".join(f"ptr blockaddress(@interp, %{10 + 12 * k})" for k in range(n)) + "]\n"]
    out.append("define i32 @interp(ptr %0, i32 %1) {\n  %3 = alloca ptr, align 8\n"
               "  %4 = alloca i32, align 4\n  %5 = alloca i32, align 4\n"
               "  store ptr %0, ptr %3, align 8\n  store i32 0, ptr %4, align 4\n"
               "  store i32 %1, ptr %5, align 4\n  br label %6\n\n6:\n"
               "  %7 = load ptr, ptr %3, align 8\n  %8 = load i32, ptr %7, align 4\n"
               f"  %9 = urem i32 %8, {n}\n  %x = zext i32 %9 to i64\n"
               f"  %p = getelementptr [{n} x ptr], ptr @tab, i64 0, i64 %x\n"
               "  %t = load ptr, ptr %p, align 8\n  indirectbr ptr %t, ["
               + ", ".join(f"label %{10 + 12 * k}" for k in range(n)) + ", label %exit]\n")
    for k in range(n):
        b = 10 + 12 * k
        out.append(f"\n{b}:\n  %{b + 1} = load i32, ptr %4, align 4\n  %{b + 2} = add i32 %{b + 1}, {k}\n"
                   f"  store i32 %{b + 2}, ptr %4, align 4\n  %{b + 3} = load ptr, ptr %3, align 8\n"
                   f"  %{b + 4} = getelementptr i32, ptr %{b + 3}, i64 1\n  store ptr %{b + 4}, ptr %3, align 8\n"
                   f"  %{b + 5} = load i32, ptr %5, align 4\n  %{b + 6} = sub i32 %{b + 5}, 1\n"
                   f"  store i32 %{b + 6}, ptr %5, align 4\n  %{b + 7} = icmp eq i32 %{b + 6}, 0\n"
                   f"  %{b + 8} = load i32, ptr %4, align 4\n  %{b + 9} = xor i32 %{b + 8}, %{b + 6}\n"
                   f"  %{b + 10} = icmp slt i32 %{b + 9}, 0\n"
                   f"  br i1 %{b + 7}, label %exit, label %6\n")
    out.append("\nexit:\n  %r = load i32, ptr %4, align 4\n  ret i32 %r\n}\n")
    for h in range(helpers):
        out.append(f"\ndefine i32 @h{h}(i32 %0) {{\n  %2 = alloca i32, align 4\n  store i32 %0, ptr %2, align 4\n"
                   f"  %3 = load i32, ptr %2, align 4\n  %4 = mul i32 %3, {h + 1}\n  store i32 %4, ptr %2, align 4\n"
                   "  %5 = load i32, ptr %2, align 4\n  ret i32 %5\n}\n")
    return "".join(out)


def extra_inputs():
    """The EXTRA modules, built when missing (onelua needs lua-src in cargo's registry)."""
    found = []
    for rel, label in EXTRA:
        path = os.path.join(INPUTS, rel)
        if not os.path.exists(path):
            if rel.startswith("onelua/"):
                if not build_onelua(path, "O0g" in rel):
                    print(f"skipping {label}: no lua-src 5.4.7 in cargo's registry (scripts/corpus.py --sets crates fetches it)")
                    continue
            else:
                os.makedirs(os.path.dirname(path), exist_ok=True)
                n = int(rel.split("-N")[1].split(".")[0])
                with open(path + ".part", "w") as fh:
                    fh.write(dispatch_ir(n))
                os.replace(path + ".part", path)
        found.append((path, label))
    return found


def scale_input(shape, n, v):
    d = os.path.join(INPUTS, "scale")
    os.makedirs(d, exist_ok=True)
    f = os.path.join(d, f"{shape}-N{n}-V{v}.ll")
    gen = os.path.join(SHARED, "tools", "gen_scale.py")
    if not os.path.exists(f) or os.path.getmtime(f) < os.path.getmtime(gen):
        with open(f + ".part", "w") as fh:
            if subprocess.run([sys.executable, gen, shape, str(n), str(v)], stdout=fh).returncode != 0:
                harness.die(f"gen_scale.py {shape} {n} {v} failed")
        os.replace(f + ".part", f)
    return f


def section_real(b, kind, inputs):
    a = b.args
    rows = []
    title = {"rw": "read + write: mem2reg --passes= IN -o OUT  vs  opt-19 -S IN -o OUT",
             "m2r": "end-to-end: mem2reg IN -o OUT  vs  opt-19 -passes=mem2reg -S IN -o OUT"}[kind]
    print(f"\n== {title}  (median of {a.runs}+ runs, more until they add up to {MIN_SECONDS:g} s; ratio = ours/opt)")
    print(f"{'module':<22} {'MB':>6} {'ours s':>9} {'opt s':>9} {'time':>7} {'ours MiB':>9} {'opt MiB':>9} {'RSS':>7}")
    for path, label in inputs:
        mb = os.path.getsize(path) / 1e6
        if kind == "rw":
            ours, opt = b.tool + ["--passes=", path], [a.opt, "-S", path]
        else:
            ours, opt = b.tool + [path], [a.opt, "-passes=mem2reg", "-S", path]
        r = b.pair(ours, opt, a.runs, opt_timeout=a.opt_timeout)
        print(f"{label:<22} {mb:>6.1f} {cell(r['ours']):>9} {cell(r['opt']):>9} {ratio(r['time_ratio']):>7} "
              f"{cell(r['ours'], 'rss_mb', '{:.0f}'):>9} {cell(r['opt'], 'rss_mb', '{:.0f}'):>9} {ratio(r['rss_ratio']):>7}"
              + ("" if r["ours"]["status"] == "ok" else f"   ours: {r['ours']['status']}"), flush=True)
        rows.append({"module": os.path.relpath(path, INPUTS), "label": label, "mb": round(mb, 2), **r})
    return rows


def cpu_once(cmd, out_path, timeout):
    """Run cmd once; returns (user + system CPU seconds, peak RSS MiB) or None on failure."""
    p = subprocess.Popen(cmd + ["-o", out_path], stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    timer = threading.Timer(timeout, p.kill) if timeout else None
    if timer:
        timer.start()
    _, status, ru = os.wait4(p.pid, 0)
    if timer:
        timer.cancel()
    if os.path.exists(out_path):
        os.remove(out_path)
    if os.waitstatus_to_exitcode(status) != 0:
        return None
    return ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024.0


def section_cpu1(b, inputs):
    """One core: CPU time (user + system) of `mem2reg --threads=1 IN -o OUT` against opt-19's
    `-passes=mem2reg -S IN -o OUT`, alternating, median of --runs (the bar: 0.2x)."""
    a = b.args
    print(f"\n== one core: mem2reg --threads=1 IN -o OUT  vs  opt-19 -passes=mem2reg -S IN -o OUT,"
          f" user+system CPU seconds (median of {a.runs}; ratio = ours/opt)")
    print(f"{'module':<22} {'MB':>6} {'ours cpu':>9} {'opt cpu':>9} {'ratio':>7} {'ours MiB':>9} {'opt MiB':>9}")
    rows = []
    for path, label in inputs:
        ours, opt = [], []
        for _ in range(a.runs):
            o = cpu_once(b.tool + ["--threads=1", path], b.out("ours"), a.timeout)
            if o is None:
                b.ours_failed = True
                break
            ours.append(o)
            p = cpu_once([a.opt, "-passes=mem2reg", "-S", path], b.out("opt"), a.opt_timeout)
            if p is not None:
                opt.append(p)
        med = lambda xs, k: statistics.median(x[k] for x in xs) if xs else None  # noqa: E731
        oc, pc = med(ours, 0), med(opt, 0)
        r = oc / pc if oc and pc else None
        fmt = lambda x, f="{:.3f}": f.format(x) if x is not None else "-"  # noqa: E731
        print(f"{label:<22} {os.path.getsize(path) / 1e6:>6.1f} {fmt(oc):>9} {fmt(pc):>9} {ratio(r):>7} "
              f"{fmt(med(ours, 1), '{:.0f}'):>9} {fmt(med(opt, 1), '{:.0f}'):>9}", flush=True)
        rows.append({"module": os.path.relpath(path, INPUTS), "label": label, "ours_cpu_s": oc,
                     "opt_cpu_s": pc, "ratio": r and round(r, 3)})
    return rows


def growth_factor(prev, cur):
    if prev and cur and prev["status"] == "ok" and cur["status"] == "ok" and prev["s"]:
        return cur["s"] / prev["s"]
    return None


def section_growth(b, shapes, sizes, v):
    a = b.args
    skip = {tuple(x.split(":")) for x in a.skip_opt.split(",") if ":" in x}
    print(f"\n== growth: mem2reg IN -o OUT  vs  opt-19 -passes=mem2reg -S  on gen_scale.py SHAPE N {v}"
          f"  (median of {a.runs}+ runs, more until they add up to {MIN_SECONDS:g} s, ours in a row, then opt's; 'x4' = time growth when N grows 4x; linear = 4.0)")
    print(f"{'shape':<7} {'N':>6} {'MB':>6} {'ours s':>9} {'x4':>6} {'ours MiB':>9} {'opt s':>13} {'x4':>6} {'opt MiB':>9} {'time':>7}")
    rows = []
    for shape in shapes:
        prev = None
        for n in sizes:
            f = scale_input(shape, n, v)
            skip_opt = (shape, str(n)) in skip
            # Ours' runs in a row, then opt's: growth is each tool's own, caches included.
            r = b.pair(b.tool + [f], [a.opt, "-passes=mem2reg", "-S", f], a.runs,
                       opt_timeout=a.opt_timeout, skip_opt=skip_opt, alternate=False)
            go = growth_factor(prev and prev["ours"], r["ours"])
            gp = growth_factor(prev and prev["opt"], r["opt"])
            r["ours"]["growth_x4"] = round(go, 2) if go else None
            r["opt"]["growth_x4"] = round(gp, 2) if gp else None
            print(f"{shape:<7} {n:>6} {os.path.getsize(f) / 1e6:>6.1f} {cell(r['ours']):>9} {go and f'{go:.1f}' or '-':>6} "
                  f"{cell(r['ours'], 'rss_mb', '{:.0f}'):>9} {cell(r['opt']):>13} {gp and f'{gp:.1f}' or '-':>6} "
                  f"{cell(r['opt'], 'rss_mb', '{:.0f}'):>9} {ratio(r['time_ratio']):>7}", flush=True)
            if r["opt"]["status"] == "timeout":
                print(f"        opt timed out at {a.opt_timeout:.0f} s (--opt-timeout)")
            rows.append({"shape": shape, "n": n, "v": v, **r})
            prev = r
    return rows


def section_phielim(b, shapes, sizes, v):
    a = b.args
    print(f"\n== phi elimination cost: mem2reg --passes=mem2reg  vs  --passes=mem2reg,phi-elim  (median of {a.runs}+ runs, more until they add up to {MIN_SECONDS:g} s)")
    print(f"{'shape':<7} {'N':>6} {'mem2reg s':>10} {'+phi-elim s':>12} {'extra s':>9} {'ratio':>7} {'MiB':>7} {'+pe MiB':>8}")
    rows = []
    for shape in shapes:
        for n in sizes:
            f = scale_input(shape, n, v)
            r = b.pair(b.tool + ["--passes=mem2reg", f], b.tool + ["--passes=mem2reg,phi-elim", f], a.runs)
            if r["opt"]["status"] not in ("ok", "skipped"):
                b.ours_failed = True
            m, pe = r["ours"], r["opt"]  # here "opt" is the phi-elim pipeline
            extra = pe["s"] - m["s"] if m["status"] == pe["status"] == "ok" else None
            print(f"{shape:<7} {n:>6} {cell(m):>10} {cell(pe):>12} {extra is not None and f'{extra:.3f}' or '-':>9} "
                  f"{ratio(r['time_ratio'] and 1 / r['time_ratio']):>7} {cell(m, 'rss_mb', '{:.0f}'):>7} "
                  f"{cell(pe, 'rss_mb', '{:.0f}'):>8}", flush=True)
            rows.append({"shape": shape, "n": n, "v": v, "mem2reg": m, "mem2reg_phielim": pe,
                         "phielim_extra_s": round(extra, 4) if extra is not None else None})
    return rows


def timed_stage(cmd, pattern, timeout, extra=()):
    """Runs cmd; returns the seconds on the first stderr line matching `pattern` (a regex with
    one group), or None when the run fails or times out. With `extra` patterns, returns the
    pair (that, the sum of it and the first match of each extra pattern; None if one is
    missing)."""
    import re
    try:
        p = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, timeout=timeout)
    except subprocess.TimeoutExpired:
        return (None, None) if extra else None
    err = p.stderr.decode(errors="replace")
    found = [re.search(x, err, re.M) for x in (pattern, *extra)] if p.returncode == 0 else [None]
    main = float(found[0].group(1)) if found[0] else None
    if not extra:
        return main
    total = main + sum(float(m.group(1)) for m in found[1:]) if all(found) else None
    return main, total


def opt_wall_pat(name):
    """The wall-clock column of `name` in opt's -time-passes report: the last "seconds
    (percent)" pair before the name (opt leaves out the system-time column when it is zero,
    so the number of columns before it varies)."""
    return r"([0-9.]+) \(\s*[0-9.]+%\)\s+" + name + r"\s*$"


def ours_thread_pat(name):
    """The thread-time column (the first) of row `name` of our --time-passes table (opt's
    layout: thread time, wall time, name); with --threads 1 it is one thread's time."""
    return r"^\s*([0-9.]+) \(\s*[0-9.]+%\)\s+[0-9.]+ \(\s*[0-9.]+%\)\s+" + name + r"\s*$"


OPT_PROMOTE_PAT = opt_wall_pat("PromotePass")
# What PromotePass asks the analysis manager for; opt times them on their own lines (the
# pass's own timer stops while they run). Ours computes its CFG and dominator tree inside
# 'pass mem2reg', so the like-for-like figure adds these to PromotePass.
OPT_PROMOTE_ANALYSES = (opt_wall_pat("DominatorTreeAnalysis"), opt_wall_pat("AssumptionAnalysis"))


def stage_medians(b, ours_cmd, ours_pat, per_run, path, skip_opt=False, ours_part=None):
    """Alternates `per_run` runs of our command with one of opt-19's mem2reg, `--runs` times;
    returns the medians (ours' stage time matched by `ours_pat`, opt's PromotePass time, opt's
    PromotePass plus the analyses it requests), or None for a side with no successful run. A
    failed run of ours marks the bench failed. With `ours_part` (a pattern for a part of our
    stage), a fourth median: our stage time without that part, run by run."""
    a = b.args
    ours, ours_rest, opt, opt_all = [], [], [], []
    for _ in range(a.runs):
        for _ in range(per_run):
            t = timed_stage(ours_cmd, ours_pat, a.timeout, (ours_part,) if ours_part else ())
            if ours_part:
                t, t_with_part = t
                if t is not None and t_with_part is not None:
                    ours_rest.append(2 * t - t_with_part)
            if t is None:
                b.ours_failed = True
            else:
                ours.append(t)
        if not skip_opt:
            t, t_all = timed_stage([a.opt, "-passes=mem2reg", "-disable-output", "-time-passes", path],
                                   OPT_PROMOTE_PAT, a.opt_timeout, OPT_PROMOTE_ANALYSES)
            if t is not None:
                opt.append(t)
            if t_all is not None:
                opt_all.append(t_all)
    med = lambda xs: statistics.median(xs) if xs else None  # noqa: E731
    if ours_part:
        return med(ours), med(opt), med(opt_all), med(ours_rest)
    return med(ours), med(opt), med(opt_all)


def section_pass(b, inputs):
    a = b.args
    print(f"\n== the pass alone: our 'pass mem2reg' (--time-passes, --threads 1; whole, and without"
          f" its CFG and dominator tree)  vs  opt-19 PromotePass (-time-passes; without its"
          f" DominatorTreeAnalysis and AssumptionAnalysis, and with them)  (median of {a.runs};"
          f" ratio = ours/opt)")
    print(f"{'module':<22} {'MB':>6} {'ours s':>9} {'Promote s':>10} {'ratio':>7} {'ours-DT s':>10}"
          f" {'ratio':>7} {'Promote+an s':>13} {'ratio':>7}")
    rows = []
    for path, label in inputs:
        o, p, pa, orest = stage_medians(
            b, b.tool + ["--threads", "1", "--time-passes", "-disable-output", path],
            ours_thread_pat("mem2reg"), 1, path,
            ours_part=ours_thread_pat("mem2reg, of which CFG and dominator tree"))
        r = o / p if o and p else None
        rr = orest / p if orest and p else None
        ra = o / pa if o and pa else None
        print(f"{label:<22} {os.path.getsize(path) / 1e6:>6.1f} {o is not None and f'{o:.4f}' or 'failed':>9} "
              f"{p is not None and f'{p:.4f}' or '-':>10} {ratio(r):>7} "
              f"{orest is not None and f'{orest:.4f}' or '-':>10} {ratio(rr):>7} "
              f"{pa is not None and f'{pa:.4f}' or '-':>13} {ratio(ra):>7}", flush=True)
        rows.append({"module": os.path.relpath(path, INPUTS), "label": label, "ours_s": o,
                     "opt_promote_s": p, "ratio": r and round(r, 3),
                     "ours_without_cfg_domtree_s": orest,
                     "ratio_without_analyses": rr and round(rr, 3),
                     "opt_promote_analyses_s": pa, "ratio_with_analyses": ra and round(ra, 3)})
    return rows


def section_analyses(b, shapes, sizes, v):
    a = b.args
    skip = {tuple(x.split(":")) for x in a.skip_opt.split(",") if ":" in x}
    print(f"\n== analyses: mem2reg --passes=analyses (CFG, domtree, live-in bound, pruned IDF per slot)"
          f"  vs  opt-19 PromotePass (-time-passes), median of {a.runs}")
    print(f"{'shape':<7} {'N':>6} {'ours s':>9} {'x4':>6} {'opt Promote s':>14} {'x4':>6} {'ratio':>7}")
    rows, prev = [], {}
    for shape in shapes:
        prev = {}
        for n in sizes:
            f = scale_input(shape, n, v)
            skip_opt = (shape, str(n)) in skip
            o, p, _ = stage_medians(b, b.tool + ["--passes=analyses", "-disable-output", "--time-passes", f],
                                    ours_thread_pat("analyses"), ANALYSES_RUNS_PER_RUN, f, skip_opt)
            go = o / prev["ours"] if o and prev.get("ours") else None
            gp = p / prev["opt"] if p and prev.get("opt") else None
            r = o / p if o and p else None
            print(f"{shape:<7} {n:>6} {o is not None and f'{o:.4f}' or 'failed':>9} {go and f'{go:.1f}' or '-':>6} "
                  f"{p is not None and f'{p:.4f}' or ('skipped' if skip_opt else '-'):>14} {gp and f'{gp:.1f}' or '-':>6} "
                  f"{ratio(r):>7}", flush=True)
            rows.append({"shape": shape, "n": n, "v": v, "ours_s": o, "opt_promote_s": p,
                         "ours_growth_x4": go and round(go, 2), "opt_growth_x4": gp and round(gp, 2),
                         "ratio": r and round(r, 4)})
            prev = {"ours": o, "opt": p}
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("--tool", default=harness.DEFAULT_TOOL)
    ap.add_argument("--opt", default="opt-19")
    ap.add_argument("--sections", default="rw,m2r,pass,cpu1,growth,phielim,analyses,playground,peer")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--shapes", default=",".join(SHAPES))
    ap.add_argument("--sizes", default="1000,4000,16000")
    ap.add_argument("--vars", type=int, default=100, help="V of gen_scale.py")
    ap.add_argument("--opt-timeout", type=float, default=300)
    ap.add_argument("--timeout", type=float, default=900, help="limit for our tool per run")
    ap.add_argument("--skip-opt", default="", help="shape:N pairs where opt is not run, e.g. nest:16000")
    ap.add_argument("--quick", action="store_true", help="1 run, sizes 1000,4000")
    a = ap.parse_args()
    if a.quick:
        a.runs, a.sizes = 1, "1000,4000"
    sections = [s for s in a.sections.split(",") if s]
    if any(s not in ("playground", "peer") for s in sections):
        harness.require(a.opt)
    b = Bench(a)
    shapes = [s for s in a.shapes.split(",") if s]
    sizes = [int(s) for s in a.sizes.split(",") if s]
    t0 = time.monotonic()
    print(f"bench: tool {' '.join(b.tool)} vs {a.opt}; {os.cpu_count()} cores; runs {a.runs}")
    result = {"tool": " ".join(b.tool), "opt": a.opt, "runs": a.runs}
    try:
        if any(s in sections for s in ("rw", "m2r", "pass", "cpu1")):
            inputs = ensure_real_inputs(a)
            for s in ("rw", "m2r"):
                if s in sections:
                    result[s] = section_real(b, s, inputs)
            if "pass" in sections:
                result["pass"] = section_pass(b, inputs)
            if "cpu1" in sections:
                chain = (scale_input("chain", 1000, 100), "chain 1000 100")
                result["cpu1"] = section_cpu1(b, inputs + [chain])
        if "growth" in sections:
            result["growth"] = section_growth(b, shapes, sizes, a.vars)
        if "phielim" in sections:
            result["phielim"] = section_phielim(b, shapes, sizes, a.vars)
        if "analyses" in sections:
            result["analyses"] = section_analyses(b, shapes, sizes, a.vars)
        if "playground" in sections:
            import playground  # bench/playground.py
            result["playground"] = playground.run(b.tool[0], max(a.runs, 15))
        if "peer" in sections:
            sys.path.insert(0, os.path.join(HERE, "peer"))
            import bench_section as peer  # bench/peer/bench_section.py
            result["peer"] = peer.run(a.runs)
    finally:
        for f in os.listdir(b.tmp):
            os.remove(os.path.join(b.tmp, f))
        os.rmdir(b.tmp)
    result["seconds"] = round(time.monotonic() - t0, 1)
    result["ours_failed"] = b.ours_failed
    print(f"\nbench took {harness.fmt_s(result['seconds'])}" + ("; OUR TOOL FAILED somewhere (see tables)" if b.ours_failed else ""))
    print(json.dumps({"bench": result}))
    peer_failed = bool(result.get("peer", {}).get("failed"))
    sys.exit(1 if b.ours_failed or peer_failed else 0)


if __name__ == "__main__":
    main()
