#!/usr/bin/env python3
"""Large real C programs through the differential test: SQLite, Lua and bzip2, run under lli.

tests/apps/*_app.c each include a real program's sources, taken from the crates.io crate that
bundles them (fetched with `cargo fetch` as scripts/corpus.py does, into target/corpus-crates),
in one translation unit with a `main` that runs a fixed workload and prints its results:
  sqlite_app.c  the SQLite 3.46 amalgamation (libsqlite3-sys), ~30 SQL statements on an
                in-memory database (recursive CTEs, indexes, joins, window functions, JSON,
                triggers, a rolled-back transaction, an error)
  lua_app.c     Lua 5.4.7 (lua-src), the interpreter running a script of string patterns,
                tables, closures, metatables, coroutines, errors, load/dump and a sieve
  bzip2_app.c   bzip2 1.0.8 (bzip2-sys), compressing and decompressing generated data at
                several block sizes and work factors
scripts/difftest.py then runs them through ../shared/tools/difftest.py: clang -O0 of the whole
program, our tool on it, `opt -passes=verify`, and the output under lli compared with the input
program's, for --pipelines (default mem2reg and mem2reg+phi-elim), LLVM 19 and 14, with and
without -g; allocas and phis are compared with `opt -passes=mem2reg` as for csmith programs.
A program that does not compile or does not run to the end is a failure here, never a skip.

Usage: python3 scripts/apps.py [--llvm 19,14] [--g both|no|yes] [--pipelines default,phi-elim]
                               [--jobs 2] [--tool CMD] [--variant O0|O1np]
(--variant O1np: clang -O1 -Xclang -disable-llvm-passes instead of -O0, see scripts/difftest.py)
"""
import argparse
import glob
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import corpus  # noqa: E402
import harness  # noqa: E402
from harness import REPO  # noqa: E402

# program -> (crate in corpus.CRATES, include folder under the crate's root)
APPS = {
    "sqlite_app.c": ("sqlite", "sqlite3"),
    "lua_app.c": ("lua", "lua-5.4.7"),
    "bzip2_app.c": ("bzip2", "bzip2-1.0.8"),
}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("--tool", default=harness.DEFAULT_TOOL)
    ap.add_argument("--llvm", default="19,14")
    ap.add_argument("--g", default="both", choices=["both", "no", "yes"])
    ap.add_argument("--pipelines", default="default,phi-elim")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--variant", default="O0", choices=["O0", "O1np"])
    a = ap.parse_args()
    found = sorted(os.path.basename(f) for f in glob.glob(os.path.join(REPO, "tests", "apps", "*_app.c")))
    if found != sorted(APPS):
        harness.die(f"tests/apps holds {found}, this script knows {sorted(APPS)}: keep them in step")
    roots = corpus.fetch_crates(sorted({c for c, _ in APPS.values()}),
                                os.path.join(REPO, "target", "corpus-crates"))
    flags = [f"--cflag=-I{os.path.join(roots[c], d)}" for c, d in APPS.values()]
    inputs = [os.path.join(REPO, "tests", "apps", f) for f in sorted(APPS)]
    print(f"apps: {', '.join(sorted(APPS))}", flush=True)
    # lli compiles the whole program before running it: SQLite takes 5 to 10 s per run here.
    rc, report = harness.run_difftest("apps", [
        "--tool", a.tool, "--seeds", "none", "--no-own", "--pipelines", a.pipelines,
        "--llvm", a.llvm, "--g", a.g, "--jobs", str(a.jobs), "--timeout", "120",
        "--label", "apps-", "--variant", a.variant, *flags, *inputs])
    # Every program must have run to the end in every cell: a timeout under lli ("ok-unrun")
    # would leave its behaviour unchecked.
    for c in (report or {}).get("difftest", []):
        st = c.get("statuses", {})
        if st.get("ok", 0) != len(inputs):
            print(f"apps: {c['cell']}: {st.get('ok', 0)} of {len(inputs)} programs ran and agreed ({st})")
            rc = rc or 1
    sys.exit(rc)


if __name__ == "__main__":
    main()
