"""Shared helpers for the test and benchmark scripts (python3, stdlib only).

Imported by scripts/corpus.py, scripts/roundtrip.py, scripts/difftest.py,
scripts/check-programs.py, scripts/opt-standin.py and bench/bench.py; not a command itself.
"""
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.normpath(os.path.join(REPO, "..", "shared"))
DEFAULT_TOOL = os.path.join(REPO, "target", "release", "mem2reg")
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")

# clang flags that give the classic "-O0 but promotable" IR mem2reg is meant for.
O0 = ["-O0", "-Xclang", "-disable-O0-optnone"]
# Build variants of a C/C++ source: name -> extra flags. Every variant is built with clang-19
# (opaque pointers) and clang-14 (typed pointers).
VARIANTS = {
    "O0": O0,
    "O0g": O0 + ["-g"],
    "O0n": O0 + ["-fno-discard-value-names"],  # value names: %retval, %x.addr, %for.body ...
    "O1np": ["-O1", "-Xclang", "-disable-llvm-passes"],  # lifetime markers, TBAA, no optnone
}
COMMON_CFLAGS = ["-S", "-emit-llvm", "-w"]


def die(msg, code=1):
    print(f"{os.path.basename(sys.argv[0])}: error: {msg}", file=sys.stderr, flush=True)
    sys.exit(code)


def require(*cmds):
    """Exit with a clear message if a command is missing (the tests never silently skip)."""
    missing = [c for c in cmds if not (shutil.which(c) or os.access(c, os.X_OK))]
    if missing:
        die("missing tools: " + " ".join(missing) + " (run scripts/install-deps.sh)")


def tool_cmd(tool):
    """A tool given as a command line string ("path --flag") -> argv list."""
    argv = shlex.split(tool)
    if argv and "/" in argv[0] and not os.path.isabs(argv[0]):
        argv[0] = os.path.abspath(argv[0])
    return argv


def check_tool(tool):
    argv = tool_cmd(tool)
    if not argv or not (shutil.which(argv[0]) or os.access(argv[0], os.X_OK)):
        die(f"tool not found or not executable: {tool!r} (build it: cargo build --release)")
    return argv


def run(cmd, timeout=None, stdin=None, input=None, cwd=None):
    """Run cmd; returns (rc, stdout bytes, stderr bytes, seconds). rc is 'timeout' on timeout."""
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, stdin=stdin if input is None else None, input=input,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout, cwd=cwd)
        return p.returncode, p.stdout, p.stderr, time.monotonic() - t0
    except subprocess.TimeoutExpired:
        return "timeout", b"", b"", time.monotonic() - t0


def parse_range(text):
    """'1..40' or '1-40' or '7' -> range(1, 41)."""
    m = re.fullmatch(r"\s*(\d+)\s*(?:(?:\.\.|-)\s*(\d+))?\s*", text)
    if not m:
        raise ValueError(f"bad seed range {text!r} (want A..B)")
    a = int(m.group(1))
    b = int(m.group(2) or a)
    return range(a, b + 1)


def csmith_include():
    """The folder holding csmith.h, from libcsmith-dev's file list (fallback /usr/include/csmith)."""
    rc, out, _, _ = run(["dpkg", "-L", "libcsmith-dev"]) if shutil.which("dpkg") else (1, b"", b"", 0)
    if rc == 0:
        for line in out.decode().splitlines():
            if line.endswith("/csmith.h"):
                return os.path.dirname(line)
    for d in ("/usr/include/csmith", "/usr/local/include/csmith"):
        if os.path.exists(os.path.join(d, "csmith.h")):
            return d
    die("csmith.h not found (install libcsmith-dev: scripts/install-deps.sh)")


def csmith_sources(seeds, max_funcs, out_dir):
    """Generate csmith programs seed by seed into out_dir (kept: regenerated only if missing)."""
    require("csmith")
    os.makedirs(out_dir, exist_ok=True)
    files = []
    for s in seeds:
        f = os.path.join(out_dir, f"csmith-{s:05d}.c")
        if not os.path.exists(f) or os.path.getsize(f) == 0:
            tmp = f + ".part"
            # cwd: csmith writes a platform.info file into its working folder
            rc, _, err, _ = run(["csmith", "--seed", str(s), "--max-funcs", str(max_funcs), "-o", tmp], 120,
                                cwd=out_dir)
            if rc != 0:
                die(f"csmith --seed {s} failed: {err.decode(errors='replace')[-300:]}")
            os.replace(tmp, f)
        files.append(f)
    return files


# --- typed (LLVM <= 14) vs opaque (LLVM >= 15) pointers ---------------------------------------
_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"')
_OPAQUE = re.compile(r"(?:^|[\s(,{<\[=])ptr(?=[\s,)}>\]]|$)")
_TYPED = re.compile(r"\*")  # outside strings and comments, `*` only ever spells a typed pointer


def pointer_style(path_or_text):
    """'opaque', 'typed' or 'none' (no pointer type seen) for a .ll file or text.

    Decided by the first code line that shows a pointer type; strings and comments are ignored,
    so a `c"ptr"` constant or a `; ptr` comment does not count."""
    if "\n" in path_or_text or not os.path.exists(path_or_text):
        lines = path_or_text.splitlines()
    else:
        lines = open(path_or_text, encoding="utf-8", errors="replace")
    try:
        for line in lines:
            if "ptr" not in line and "*" not in line:
                continue
            code = _STRINGS.sub('""', line).split(";", 1)[0]
            if _OPAQUE.search(code):
                return "opaque"
            if _TYPED.search(code):
                return "typed"
        return "none"
    finally:
        if hasattr(lines, "close"):
            lines.close()


def llvm_for(path):
    """LLVM major version whose `opt` reads this module as written: 14 for typed pointers."""
    return "14" if pointer_style(path) == "typed" else "19"


def fmt_s(seconds):
    return f"{seconds:.1f}s" if seconds < 100 else f"{seconds / 60:.1f}min"


def run_difftest(name, args):
    """Runs scripts/difftest.py with `args`, echoing its output; returns (exit status, its
    JSON report or None). Callers check the report's cells for what their inputs demand;
    `name` prefixes the message when no report came."""
    cmd = [sys.executable, os.path.join(REPO, "scripts", "difftest.py"), *args]
    proc = subprocess.Popen(cmd, cwd=REPO, stdout=subprocess.PIPE, text=True)
    report = None
    for line in proc.stdout:
        print(line, end="", flush=True)
        if line.startswith('{"difftest"'):
            report = json.loads(line)
    rc = proc.wait()
    if report is None:
        print(f"{name}: no report from scripts/difftest.py")
        rc = rc or 1
    return rc, report
