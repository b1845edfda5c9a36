#!/usr/bin/env python3
"""GCC's C torture tests (gcc.c-torture/execute) through the differential test.

The tests come from Debian's gcc-12-source package (scripts/install-deps.sh installs it): its
source tarball is read once and the execute/*.c files are extracted to target/torture/. Then
scripts/difftest.py runs them, as real programs, through mem2reg with clang-19 and clang-14,
with and without -g: every output must pass opt's verifier, behave as the input under lli,
keep no more allocas than opt -passes=mem2reg and have no more phis in total.

The tests are written for GCC: compiled with -std=gnu89 -w, about 3% still use what clang
does not accept (nested functions, ...): those count as no-compile and are not an error here.

Usage: python3 scripts/torture.py [--llvm 19,14] [--g both|no|yes] [--jobs 2] [--tool CMD]
                                  [--variant O0|O1np]
(--variant O1np: clang -O1 -Xclang -disable-llvm-passes instead of -O0, see scripts/difftest.py)
"""
import argparse
import glob
import os
import sys
import tarfile

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from harness import REPO  # noqa: E402

TARBALL = "/usr/src/gcc-12/gcc-12.2.0-dfsg.tar.xz"
MEMBER = "/gcc/testsuite/gcc.c-torture/execute/"


def extract(dest):
    """The execute/*.c files (top level of that folder only, with the headers they include),
    extracted once into `dest`."""
    done = os.path.join(dest, ".complete")
    if os.path.exists(done):
        return sorted(glob.glob(os.path.join(dest, "*.c")))
    if not os.path.exists(TARBALL):
        harness.die(f"{TARBALL} not found: install Debian's gcc-12-source (scripts/install-deps.sh)")
    os.makedirs(dest, exist_ok=True)
    n = 0
    with tarfile.open(TARBALL, "r:xz") as tar:
        for m in tar:
            i = m.name.find(MEMBER)
            if i < 0 or not m.isfile() or not m.name.endswith((".c", ".h")):
                continue
            rest = m.name[i + len(MEMBER):]
            if "/" in rest:
                continue  # subfolders (builtins/, ieee/) need their own drivers
            with open(os.path.join(dest, rest), "wb") as out:
                out.write(tar.extractfile(m).read())
            n += m.name.endswith(".c")
    if n == 0:
        harness.die(f"no {MEMBER}*.c in {TARBALL}")
    open(done, "w").close()
    return sorted(glob.glob(os.path.join(dest, "*.c")))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("--tool", default=harness.DEFAULT_TOOL)
    ap.add_argument("--llvm", default="19,14")
    ap.add_argument("--g", default="both", choices=["both", "no", "yes"])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--variant", default="O0", choices=["O0", "O1np"])
    a = ap.parse_args()
    files = extract(os.path.join(REPO, "target", "torture", "execute"))
    print(f"torture: {len(files)} tests from {TARBALL}", flush=True)
    rc, report = harness.run_difftest("torture", [
        "--tool", a.tool, "--seeds", "none", "--no-own", "--pipelines", "default",
        "--llvm", a.llvm, "--g", a.g, "--jobs", str(a.jobs), "--timeout", "20",
        "--label", "torture-", "--variant", a.variant, "--allow-no-compile", "--cflag=-w", "--cflag=-std=gnu89",
        os.path.join(REPO, "target", "torture", "execute")])
    # A cell where most tests did not compile tested nothing: that is a failure, not a pass.
    for c in (report or {}).get("difftest", []):
        st = c.get("statuses", {})
        judged = sum(n for k, n in st.items() if k not in ("no-compile", "llvm-rejects", "ub-excluded"))
        if judged < 0.9 * len(files):
            print(f"torture: {c['cell']}: only {judged} of {len(files)} tests judged")
            rc = rc or 1
    sys.exit(rc)


if __name__ == "__main__":
    main()
