#!/usr/bin/env python3
"""Differential accept/reject check of our reader against LLVM's (llvm-as), on mutated modules.

Each mutant of a real module (a token or line deleted, duplicated, swapped or replaced, a
value renamed, a type or number changed, the text cut short, a keyword inserted) is read by
    llvm-as-19 -disable-verify    (llvm-as-14 for typed-pointer modules)
    mem2reg --passes= -disable-verify
and the two must agree: we reject exactly when LLVM's reader rejects, and then our error is
on the same line as LLVM's (the column is counted, not required). Both run without the
verifier, because the verifier is not the reader. For mutants the reader accepts, the
verifiers are compared too and only counted ("notes"): `opt -passes=verify` against our
default input verification (`mem2reg --passes=`), since the semantic verifier is another
issue's work.

A disagreement is a failure: its mutant and both messages go to target/reject-agreement/
(NNNN.ll and NNNN.txt); the exit status is 1 if any mutant disagrees on accept/reject or on
the error line. Deterministic for a given --seed, files and --count.

Usage: scripts/reject-agreement.py [--seed N] [--count N] [--tool CMD] [--jobs 2]
                                   [--report DIR] [--verifier] [--quiet] [FILE_OR_DIR...]
  FILE_OR_DIR  modules to mutate (default: the conformance tests, tests/filetests inputs and
               a few clang -O0 -g modules of target/corpus); files over 200 KB are skipped
  --count      mutants in all (default 300), spread round-robin over the modules
  --verifier   also compare verifiers on mutants the reader accepts (slower)
Last line: "reject-agreement: N mutants, A agree, D disagree (...)".
"""
import argparse
import concurrent.futures as cf
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402

MAX_BYTES = 200_000
TOKEN = re.compile(
    rb'(?P<comment>;[^\n]*)'
    rb'|(?P<tok>[%@$!]?"[^"\n]*":?'
    rb'|c"[^"\n]*"'
    rb'|[%@$!#^]?[-A-Za-z$._0-9\\]+:?'
    rb'|\.\.\.|[=,*\[\]{}<>()|:!#])'
)
TYPES = [b"i1", b"i8", b"i16", b"i32", b"i64", b"i128", b"ptr", b"float", b"double", b"half",
         b"void", b"label", b"metadata", b"token", b"<2 x i32>", b"[2 x i8]", b"{ i32 }",
         b"i32*", b"i8**", b"%struct.S", b"x86_fp80", b"fp128", b"ptr addrspace(1)"]
NUMBERS = [b"0", b"1", b"-1", b"2", b"7", b"255", b"65536", b"4294967296",
           b"18446744073709551616", b"99999999999999999999999", b"0.5", b"1.0e10",
           b"0x7FF0000000000000", b"true", b"false"]
KEYWORDS = [b"define", b"declare", b"global", b"constant", b"alloca", b"load", b"store",
            b"call", b"ret", b"br", b"phi", b"add", b"getelementptr", b"undef", b"poison",
            b"null", b"zeroinitializer", b"distinct", b"!{}", b"!0", b"#0", b"%0", b"@0",
            b"x", b"to", b"label", b"align", b"blockaddress", b"#dbg_value", b"type", b"opaque",
            b"}", b"{", b"(", b")", b",", b"=", b"*", b"...", b"0:", b"entry:", b"!DILocation",
            b"!DIExpression()", b"metadata", b"personality", b"comdat", b"section \"s\""]


def tokens(text):
    return [(m.start(), m.end()) for m in TOKEN.finditer(text) if m.group("tok")]


def lines_of(text):
    out, start = [], 0
    for i, c in enumerate(text):
        if c == 10:
            out.append((start, i + 1))
            start = i + 1
    if start < len(text):
        out.append((start, len(text)))
    return out


def splice(text, a, b, new):
    return text[:a] + new + text[b:]


def pick_tok(rng, toks, text, pred=None):
    cands = toks if pred is None else [t for t in toks if pred(text[t[0]:t[1]])]
    return rng.choice(cands) if cands else None


def is_name(s):
    return len(s) > 1 and s[:1] in b"%@" and not s.endswith(b":")


def is_type(s):
    return s in (b"ptr", b"void", b"float", b"double", b"half", b"label", b"metadata") or (
        re.fullmatch(rb"i\d+\**", s) is not None)


def is_number(s):
    return re.fullmatch(rb"-?\d+(\.\d*)?([eE][-+]?\d+)?|0x[0-9A-Fa-f]+|true|false", s) is not None


def mutate(rng, text):
    """One mutant of `text`: (description, bytes)."""
    toks, lines = tokens(text), lines_of(text)
    if not toks or not lines:
        return "empty", b""
    for _ in range(20):
        kind = rng.choice(["del-tok", "dup-tok", "swap-tok", "replace-tok", "del-line",
                           "dup-line", "swap-line", "rename", "rename", "retype", "retype",
                           "renumber", "truncate", "insert-kw"])
        if kind == "del-tok":
            a, b = rng.choice(toks)
            return f"{kind}@{a}", splice(text, a, b, b"")
        if kind == "dup-tok":
            a, b = rng.choice(toks)
            return f"{kind}@{a}", splice(text, a, a, text[a:b] + b" ")
        if kind == "swap-tok":
            i = rng.randrange(len(toks) - 1) if len(toks) > 1 else 0
            if i + 1 >= len(toks):
                continue
            (a, b), (c, d) = toks[i], toks[i + 1]
            return f"{kind}@{a}", text[:a] + text[c:d] + text[b:c] + text[a:b] + text[d:]
        if kind == "replace-tok":
            a, b = rng.choice(toks)
            c, d = rng.choice(toks)
            return f"{kind}@{a}", splice(text, a, b, text[c:d])
        if kind in ("del-line", "dup-line", "swap-line"):
            i = rng.randrange(len(lines))
            a, b = lines[i]
            if kind == "del-line":
                return f"{kind}:{i + 1}", splice(text, a, b, b"")
            if kind == "dup-line":
                return f"{kind}:{i + 1}", splice(text, a, a, text[a:b])
            if i + 1 >= len(lines):
                continue
            c, d = lines[i + 1]
            return f"{kind}:{i + 1}", text[:a] + text[c:d] + text[a:b] + text[d:]
        if kind == "rename":
            t = pick_tok(rng, toks, text, is_name)
            if not t:
                continue
            old = text[t[0]:t[1]]
            same = [text[a:b] for a, b in toks if text[a:a + 1] == old[:1] and is_name(text[a:b])]
            new = rng.choice(same + [old[:1] + b"m2r_fresh", old[:1] + b"7777"])
            return f"{kind}@{t[0]}", splice(text, t[0], t[1], new)
        if kind == "retype":
            t = pick_tok(rng, toks, text, is_type)
            if not t:
                continue
            return f"{kind}@{t[0]}", splice(text, t[0], t[1], rng.choice(TYPES))
        if kind == "renumber":
            t = pick_tok(rng, toks, text, is_number)
            if not t:
                continue
            return f"{kind}@{t[0]}", splice(text, t[0], t[1], rng.choice(NUMBERS))
        if kind == "truncate":
            n = rng.randrange(len(text) + 1)
            return f"{kind}@{n}", text[:n]
        if kind == "insert-kw":
            a, _ = rng.choice(toks)
            return f"{kind}@{a}", splice(text, a, a, rng.choice(KEYWORDS) + b" ")
    return "none", text


LOC = re.compile(r":(\d+):(\d+): error: (.*)")
_IDENT = rb"[A-Za-z0-9_.$%@\"\\-]"
_PTR = re.compile(rb"(?<!" + _IDENT + rb")ptr(?!" + _IDENT + rb")")
_SKIP = re.compile(rb'"[^"]*"|;[^\n]*|/\*.*?\*/', re.S)


def llvm_for_text(text):
    """The LLVM whose rules our reader follows for this text (module.rs): 14 when the module
    spells typed pointers (`*` outside comments and strings) and never `ptr`, else 19."""
    if _PTR.search(text):
        return "19"
    return "14" if b"*" in _SKIP.sub(b" ", text) else "19"


def verdict(rc, err):
    """(accepted, line, col, message) from a run; accepted is None for a crash or timeout."""
    if rc == "timeout":
        return None, 0, 0, "timeout"
    if rc not in (0, 1) or b"PLEASE submit a bug report" in err:
        return None, 0, 0, f"crashed (exit {rc})"
    text = err.decode("utf-8", "replace")
    m = LOC.search(text)
    if rc == 0:
        return True, 0, 0, ""
    if m:
        return False, int(m.group(1)), int(m.group(2)), m.group(3)
    return False, 0, 0, text.strip().splitlines()[0] if text.strip() else f"exit {rc}"


def check(job):
    """Runs both readers on one mutant; returns a result dict."""
    idx, src, desc, data, _, tool, verifier = job
    llvm = llvm_for_text(data)
    with tempfile.NamedTemporaryFile(suffix=".ll", delete=False) as f:
        f.write(data)
        path = f.name
    try:
        rc, _, err, _ = harness.run([f"llvm-as-{llvm}", "-disable-verify", path, "-o", "/dev/null"],
                                    timeout=60)
        theirs = verdict(rc, err)
        rc, _, err, _ = harness.run(tool + ["--passes=", "-disable-verify", path, "-disable-output"],
                                    timeout=60)
        ours = verdict(rc, err)
        crash = rc not in (0, 1) or b"panicked" in err or (rc == 1 and not ours[1])
        res = dict(idx=idx, src=src, desc=desc, llvm=llvm, theirs=theirs, ours=ours,
                   crash=crash, ours_err=err.decode("utf-8", "replace")[:2000])
        if verifier and theirs[0] and ours[0]:
            rc, _, err, _ = harness.run([f"opt-{llvm}", "-passes=verify", "-disable-output", path],
                                        timeout=60)
            res["opt_verify"] = rc == 0
            rc, _, err, _ = harness.run(tool + ["--passes=", path, "-disable-output"], timeout=60)
            res["our_verify"] = rc == 0
        return res
    finally:
        os.unlink(path)


def default_inputs():
    roots = [os.path.join(harness.SHARED, "conformance", "llvm-mem2reg"),
             os.path.join(harness.REPO, "tests", "filetests")]
    files = []
    for r in roots:
        for d, _, fs in os.walk(r):
            files += [os.path.join(d, f) for f in fs if f.endswith(".ll") and ".out." not in f
                      and not f.endswith(".expected.ll")]
    corpus = os.path.join(harness.REPO, "target", "corpus", "c")
    for name in ("arrays.c19-O0g.ll", "arrays.c14-O0g.ll", "bit_ops.c19-O0n.ll",
                 "atomic_volatile.c19-O1np.ll", "alloca_vla.c14-O0.ll"):
        p = os.path.join(corpus, name)
        if os.path.exists(p):
            files.append(p)
    return files


def collect(paths):
    files = []
    for p in paths:
        if os.path.isdir(p):
            for d, _, fs in os.walk(p):
                files += [os.path.join(d, f) for f in fs if f.endswith(".ll")]
        else:
            files.append(p)
    return sorted(f for f in files if os.path.getsize(f) <= MAX_BYTES)


def accepted_by_both(path, tool):
    llvm = llvm_for_text(open(path, "rb").read())
    rc1, _, _, _ = harness.run([f"llvm-as-{llvm}", "-disable-verify", path, "-o", "/dev/null"], 60)
    rc2, _, _, _ = harness.run(tool + ["--passes=", "-disable-verify", path, "-disable-output"], 60)
    return llvm, rc1 == 0, rc2 == 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("paths", nargs="*")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--tool", default=harness.DEFAULT_TOOL)
    ap.add_argument("--jobs", type=int, default=int(os.environ.get("JOBS", "2")))
    ap.add_argument("--report", default=os.path.join(harness.REPO, "target", "reject-agreement"))
    ap.add_argument("--verifier", action="store_true")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args()
    harness.require("llvm-as-19", "llvm-as-14", "opt-19", "opt-14")
    tool = harness.check_tool(args.tool)
    files = collect(args.paths) if args.paths else sorted(f for f in default_inputs()
                                                          if os.path.getsize(f) <= MAX_BYTES)
    bases = []
    for f in files:
        llvm, theirs, ours = accepted_by_both(f, tool)
        if theirs and ours:
            bases.append((f, llvm, open(f, "rb").read()))
        elif theirs != ours:
            print(f"BASE DISAGREES {f}: llvm-as-{llvm} {'accepts' if theirs else 'rejects'}, "
                  f"we {'accept' if ours else 'reject'}")
    if not bases:
        harness.die("no module that both readers accept")
    rng = random.Random(args.seed)
    jobs = []
    for i in range(args.count):
        f, llvm, text = bases[i % len(bases)]
        desc, data = mutate(rng, text)
        jobs.append((i, f, desc, data, llvm, tool, args.verifier))
    if os.path.isdir(args.report):
        shutil.rmtree(args.report)
    counts = dict(agree=0, accept_only_ours=0, reject_only_ours=0, line=0, crash=0,
                  col=0, msg=0, llvm_crash=0)
    notes = dict(both_verify_ok=0, both_verify_reject=0, only_opt_rejects=0, only_we_reject=0)
    with cf.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
        results = sorted(ex.map(check, jobs), key=lambda r: r["idx"])
    bad = 0
    for r, job in zip(results, jobs):
        t, o = r["theirs"], r["ours"]
        why = None
        if r["crash"] or o[0] is None:
            counts["crash"] += 1
            why = "crash or malformed error"
        elif t[0] is None:
            counts["llvm_crash"] += 1  # LLVM's reader crashed: nothing to agree with
        elif t[0] and not o[0]:
            counts["reject_only_ours"] += 1
            why = "we reject, LLVM accepts"
        elif o[0] and not t[0]:
            counts["accept_only_ours"] += 1
            why = "we accept, LLVM rejects"
        elif not t[0] and t[1] != o[1]:
            counts["line"] += 1
            why = "error on another line"
        else:
            counts["agree"] += 1
            if not t[0]:
                counts["col"] += t[2] != o[2]
                counts["msg"] += t[3] != o[3]
        if "opt_verify" in r:
            a, b = r["opt_verify"], r["our_verify"]
            key = ("both_verify_ok" if a and b else "both_verify_reject" if not a and not b
                   else "only_opt_rejects" if b else "only_we_reject")
            notes[key] += 1
        if why:
            bad += 1
            os.makedirs(args.report, exist_ok=True)
            stem = os.path.join(args.report, f"{r['idx']:04d}")
            with open(stem + ".ll", "wb") as f:
                f.write(job[3])
            with open(stem + ".txt", "w") as f:
                f.write(f"{why}\nfrom {r['src']} ({r['desc']}), llvm-as-{r['llvm']}\n"
                        f"llvm: {t}\nours: {o}\n{r['ours_err']}\n")
            if not args.quiet or bad <= 20:
                print(f"{stem}.ll: {why}: {r['desc']} of {os.path.basename(r['src'])}\n"
                      f"    llvm-as-{r['llvm']}: {t[1]}:{t[2]}: {t[3]}\n"
                      f"    ours:        {o[1]}:{o[2]}: {o[3]}")
    total = len(results)
    extra = f"; verifier notes: {notes}" if args.verifier else ""
    print(f"reject-agreement: {total} mutants of {len(bases)} modules, {counts['agree']} agree "
          f"({counts['col']} on another column, {counts['msg']} with another message), {bad} "
          f"disagree (accept only ours {counts['accept_only_ours']}, reject only ours "
          f"{counts['reject_only_ours']}, other line {counts['line']}, crash {counts['crash']}); "
          f"LLVM crashed on {counts['llvm_crash']}{extra}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
