#!/usr/bin/env python3
"""Build the corpus of LLVM IR modules the round-trip check and the benchmarks run on.

Sets (--sets, comma-separated; default all):
  csmith       csmith programs, seeds --seeds (A..B), `--max-funcs --max-funcs`
  c, cpp       the project's own programs, tests/c/*.c and tests/cpp/*.cpp
  conformance  ../shared/conformance/llvm-mem2reg/*.ll, copied as they are
  scale        ../shared/tools/gen_scale.py shapes ladder/nest/switch/chain at a few sizes
  crates       large real C code bundled in crates.io crates (sqlite3 amalgamation, Lua 5.1-5.4,
               zlib, bzip2, zstd, liblzma), fetched with `cargo fetch` in a scratch project
               under target/, each .c compiled on its own
Every C/C++ source is compiled with clang-19 (opaque pointers) and clang-14 (typed pointers)
-S -emit-llvm -w, in the variants (--variants): O0 = -O0 -Xclang -disable-O0-optnone,
O0g = the same with -g, O0n = the same keeping value names, O1np = -O1 -Xclang
-disable-llvm-passes. Output: OUT/<set>/<stem>.c<19|14>-<variant>.ll, and OUT/manifest.tsv
(path, set, source, compiler, variant, pointers, bytes, lines). Work is incremental: a module
newer than its source is kept (--clean starts over). Prints a summary; exits 1 if a source
that must compile does not.

Usage:
  python3 scripts/corpus.py                         # everything, csmith seeds 1..40 -> target/corpus
  python3 scripts/corpus.py --sets c,cpp,conformance --out target/corpus-small
  python3 scripts/corpus.py --sets crates --crates sqlite --compilers 19 --variants O0,O0g
"""
import argparse
import concurrent.futures as cf
import glob
import json
import os
import shutil
import subprocess
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from harness import REPO, SHARED, run  # noqa: E402

ALL_SETS = ["csmith", "c", "cpp", "conformance", "scale", "crates"]
# gen_scale.py shapes and sizes for the corpus (the benchmark uses larger ones).
SCALE = [(shape, n, v) for shape in ("ladder", "nest", "switch", "chain") for n, v in ((100, 10), (1000, 50))]

# Crates that bundle C sources: crate spec for Cargo.toml, and the translation units to build.
# Each unit list: (glob patterns relative to the crate root, include dirs, extra flags).
CRATES = {
    "sqlite": ('libsqlite3-sys = { version = "=0.30.1", features = ["bundled"] }', "libsqlite3-sys",
               [(["sqlite3/sqlite3.c"], [], [])]),
    "lua": ('lua-src = "=547.1.0"', "lua-src",
            [([f"{d}/*.c"], [d], []) for d in ("lua-5.1.5", "lua-5.2.4", "lua-5.3.6", "lua-5.4.7")]),
    "zlib": ('libz-sys = { version = "=1.1.31", default-features = false, features = ["static"] }', "libz-sys",
             [(["src/zlib/*.c"], ["src/zlib"], ["-D_LARGEFILE64_SOURCE=1"])]),
    "bzip2": ('bzip2-sys = "=0.1.13"', "bzip2-sys",
              [([f"bzip2-1.0.8/{f}.c" for f in ("blocksort", "huffman", "crctable", "randtable",
                                                "compress", "decompress", "bzlib", "bzip2")],
                ["bzip2-1.0.8"], ["-D_FILE_OFFSET_BITS=64"])]),
    "zstd": ('zstd-sys = "=2.1.3"', "zstd-sys",
             [([f"zstd/lib/{d}/*.c" for d in ("common", "compress", "decompress", "dictBuilder",
                                              "legacy", "deprecated")],
               ["zstd/lib", "zstd/lib/common", "zstd/lib/legacy"],
               ["-DZSTD_LEGACY_SUPPORT=1", "-DXXH_PRIVATE_API", "-DZSTD_DISABLE_ASM",
                "-DZSTD_MULTITHREAD"])]),
    "lzma": ('lzma-sys = { version = "=0.1.20", features = ["static"] }', "lzma-sys",
             [([f"xz-5.2/src/liblzma/{d}/*.c" for d in ("common", "lzma", "lz", "check", "delta",
                                                        "rangecoder", "simple")]
               + ["xz-5.2/src/common/tuklib_cpucores.c", "xz-5.2/src/common/tuklib_physmem.c"],
               [f"xz-5.2/src/liblzma/{d}" for d in ("api", "lzma", "lz", "check", "simple", "delta",
                                                     "common", "rangecoder")]
               + ["xz-5.2/src/common", "."],
               ["-DHAVE_CONFIG_H=1", "-std=c99"])]),
}
# liblzma sources its own build skips (table generators, small-table variants).
SKIP_STEMS = ("crc32_small", "crc64_small", "crc32_tablegen", "crc64_tablegen", "fastpos_tablegen",
              "price_tablegen")


def fresh(out, src):
    return os.path.exists(out) and os.path.getsize(out) > 0 and os.path.getmtime(out) >= os.path.getmtime(src)


def compile_one(job):
    """job: dict(src, out, cc, flags). Returns (job, ok, error text)."""
    if fresh(job["out"], job["src"]):
        return job, True, ""
    os.makedirs(os.path.dirname(job["out"]), exist_ok=True)
    tmp = job["out"] + ".part"
    rc, _, err, _ = run([job["cc"], *job["flags"], job["src"], "-o", tmp], 600)
    if rc != 0:
        if os.path.exists(tmp):
            os.remove(tmp)
        return job, False, (err.decode(errors="replace") if isinstance(err, bytes) else "")[-800:] or f"rc {rc}"
    os.replace(tmp, job["out"])
    return job, True, ""


def c_jobs(set_name, srcs, out_dir, compilers, variants, extra=(), name_of=None):
    jobs = []
    for src in srcs:
        cpp = src.endswith((".cpp", ".cc"))
        stem = os.path.splitext(name_of(src) if name_of else os.path.basename(src))[0]
        for v in compilers:
            cc = f"clang++-{v}" if cpp else f"clang-{v}"
            for var in variants:
                flags = harness.VARIANTS[var] + harness.COMMON_CFLAGS + list(extra)
                jobs.append({"set": set_name, "src": src, "cc": cc, "ver": v, "variant": var,
                             "flags": flags,
                             "out": os.path.join(out_dir, f"{stem}.c{v}-{var}.ll")})
    return jobs


def fetch_crates(names, work):
    """cargo fetch the crates in a scratch project; returns {crate name: source root}."""
    harness.require("cargo")
    os.makedirs(os.path.join(work, "src"), exist_ok=True)
    deps = "\n".join(CRATES[n][0] for n in names)
    manifest = os.path.join(work, "Cargo.toml")
    text = ('[package]\nname = "mem2reg-corpus-crates"\nversion = "0.0.0"\nedition = "2021"\n'
            f'publish = false\n\n[workspace]\n\n[dependencies]\n{deps}\n')
    if not os.path.exists(manifest) or open(manifest).read() != text:
        with open(manifest, "w") as f:
            f.write(text)
    lib = os.path.join(work, "src", "lib.rs")
    if not os.path.exists(lib):
        open(lib, "w").close()
    env = {k: v for k, v in os.environ.items() if not k.startswith("CARGO_") or k == "CARGO_HOME"}
    p = subprocess.run(["cargo", "fetch", "--manifest-path", manifest], env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if p.returncode != 0:
        harness.die("cargo fetch failed:\n" + p.stdout.decode(errors="replace")[-2000:])
    p = subprocess.run(["cargo", "metadata", "--format-version", "1", "--manifest-path", manifest,
                        "--offline"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        harness.die("cargo metadata failed:\n" + p.stderr.decode(errors="replace")[-2000:])
    roots = {pkg["name"]: os.path.dirname(pkg["manifest_path"]) for pkg in json.loads(p.stdout)["packages"]}
    out = {}
    for n in names:
        pkg = CRATES[n][1]
        if pkg not in roots:
            harness.die(f"crate {pkg} not found after cargo fetch")
        out[n] = roots[pkg]
    return out


def crate_jobs(names, out_dir, compilers, variants, work):
    roots = fetch_crates(names, work)
    jobs = []
    for n in names:
        root = roots[n]
        for patterns, incs, flags in CRATES[n][2]:
            srcs = sorted({f for p in patterns for f in glob.glob(os.path.join(root, p))
                           if os.path.splitext(os.path.basename(f))[0] not in SKIP_STEMS})
            if not srcs:
                harness.die(f"crate {n}: no sources match {patterns} under {root}")
            extra = [f"-I{os.path.join(root, i)}" for i in incs] + flags
            name_of = lambda s, root=root: os.path.relpath(s, root).replace("/", "_")
            jobs += c_jobs("crates", srcs, os.path.join(out_dir, n), compilers, variants, extra, name_of)
    return jobs


def count_lines(path):
    n = 0
    with open(path, "rb") as f:
        while True:
            b = f.read(1 << 20)
            if not b:
                return n
            n += b.count(b"\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("--out", default=os.path.join(REPO, "target", "corpus"))
    ap.add_argument("--sets", default=",".join(ALL_SETS))
    ap.add_argument("--seeds", default="1..40", help="csmith seeds A..B")
    ap.add_argument("--max-funcs", type=int, default=8)
    ap.add_argument("--compilers", default="19,14")
    ap.add_argument("--variants", default=",".join(harness.VARIANTS))
    ap.add_argument("--crates", default=",".join(CRATES))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--clean", action="store_true", help="remove OUT first")
    ap.add_argument("--list", action="store_true", help="print every module, not only the summary")
    a = ap.parse_args()
    sets = [s for s in a.sets.split(",") if s]
    for s in sets:
        if s not in ALL_SETS:
            harness.die(f"unknown set {s!r} (sets: {', '.join(ALL_SETS)})")
    compilers = [c for c in a.compilers.split(",") if c]
    variants = [v for v in a.variants.split(",") if v]
    for v in variants:
        if v not in harness.VARIANTS:
            harness.die(f"unknown variant {v!r} (variants: {', '.join(harness.VARIANTS)})")
    crates = [c for c in a.crates.split(",") if c]
    for c in crates:
        if c not in CRATES:
            harness.die(f"unknown crate {c!r} (crates: {', '.join(CRATES)})")
    harness.require(*[f"clang-{v}" for v in compilers], *[f"clang++-{v}" for v in compilers])
    out = os.path.abspath(a.out)
    if a.clean and os.path.isdir(out):
        shutil.rmtree(out)
    os.makedirs(out, exist_ok=True)
    t0 = time.monotonic()

    jobs, copied = [], []
    if "csmith" in sets:
        inc = harness.csmith_include()
        srcs = harness.csmith_sources(harness.parse_range(a.seeds), a.max_funcs,
                                      os.path.join(REPO, "target", "csmith", f"mf{a.max_funcs}"))
        jobs += c_jobs("csmith", srcs, os.path.join(out, "csmith"), compilers, variants, [f"-I{inc}"])
    for s, ext in (("c", (".c",)), ("cpp", (".cpp", ".cc"))):
        if s in sets:
            d = os.path.join(REPO, "tests", s)
            srcs = sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith(ext)) if os.path.isdir(d) else []
            if not srcs:
                harness.die(f"no programs in {d}")
            jobs += c_jobs(s, srcs, os.path.join(out, s), compilers, variants)
    if "conformance" in sets:
        src_dir = os.path.join(SHARED, "conformance", "llvm-mem2reg")
        if not os.path.isdir(src_dir):
            harness.die(f"{src_dir} not found (../shared must sit beside the repository)")
        dst = os.path.join(out, "conformance")
        os.makedirs(dst, exist_ok=True)
        for f in sorted(os.listdir(src_dir)):
            if f.endswith(".ll"):
                shutil.copyfile(os.path.join(src_dir, f), os.path.join(dst, f))
                copied.append(("conformance", os.path.join(dst, f), os.path.join(src_dir, f), "-", "as-is"))
    if "scale" in sets:
        gen = os.path.join(SHARED, "tools", "gen_scale.py")
        dst = os.path.join(out, "scale")
        os.makedirs(dst, exist_ok=True)
        for shape, n, v in SCALE:
            f = os.path.join(dst, f"{shape}-N{n}-V{v}.ll")
            if not fresh(f, gen):
                with open(f + ".part", "w") as fh:
                    if subprocess.run([sys.executable, gen, shape, str(n), str(v)], stdout=fh).returncode != 0:
                        harness.die(f"gen_scale.py {shape} {n} {v} failed")
                os.replace(f + ".part", f)
            copied.append(("scale", f, f"gen_scale.py {shape} {n} {v}", "-", "generated"))
    if "crates" in sets:
        jobs += crate_jobs(crates, os.path.join(out, "crates"), compilers, variants,
                           os.path.join(REPO, "target", "corpus-crates"))

    failures = []
    done = 0
    rows = []
    with cf.ThreadPoolExecutor(a.jobs) as ex:
        for job, ok, err in ex.map(compile_one, jobs):
            done += 1
            if not ok:
                failures.append((job, err))
                continue
            rows.append((job["set"], job["out"], job["src"], job["cc"], job["variant"]))
            if done % 200 == 0:
                print(f"  ... {done}/{len(jobs)} compiled", flush=True)
    rows += copied

    manifest = []
    for set_name, path, src, cc, variant in rows:
        manifest.append({"path": os.path.relpath(path, out), "set": set_name,
                         "source": os.path.relpath(src, REPO) if os.path.isabs(src) else src,
                         "compiler": cc, "variant": variant, "pointers": harness.pointer_style(path),
                         "bytes": os.path.getsize(path), "lines": count_lines(path)})
    manifest.sort(key=lambda m: m["path"])
    with open(os.path.join(out, "manifest.tsv"), "w") as f:
        keys = list(manifest[0]) if manifest else []
        f.write("\t".join(keys) + "\n")
        for m in manifest:
            f.write("\t".join(str(m[k]) for k in keys) + "\n")

    if a.list:
        for m in manifest:
            print(f"{m['bytes']:>11}  {m['lines']:>8}  {m['pointers']:<6}  {m['path']}")
    print(f"corpus {out} ({harness.fmt_s(time.monotonic() - t0)})")
    print(f"{'set':<12} {'modules':>8} {'MB':>9} {'lines':>11}  largest")
    for s in sets:
        ms = [m for m in manifest if m["set"] == s]
        if not ms:
            print(f"{s:<12} {0:>8}")
            continue
        big = max(ms, key=lambda m: m["bytes"])
        print(f"{s:<12} {len(ms):>8} {sum(m['bytes'] for m in ms) / 1e6:>9.1f} "
              f"{sum(m['lines'] for m in ms):>11}  {big['path']} ({big['bytes'] / 1e6:.1f} MB)")
    typed = sum(1 for m in manifest if m["pointers"] == "typed")
    print(f"{'total':<12} {len(manifest):>8} {sum(m['bytes'] for m in manifest) / 1e6:>9.1f} "
          f"{sum(m['lines'] for m in manifest):>11}  ({typed} typed-pointer modules)")
    print(f"manifest: {os.path.join(out, 'manifest.tsv')}")
    if failures:
        print(f"{len(failures)} compile failures:")
        for job, err in failures:
            print(f"  {job['cc']} {job['variant']} {os.path.relpath(job['src'], REPO)}")
            print("    " + err.strip().splitlines()[-1] if err.strip() else "")
        sys.exit(1)


if __name__ == "__main__":
    main()
