//! Round-trip smoke test: a small corpus (tests/c and tests/cpp through clang-19 and clang-14,
//! -O0 with and without -g; the shared conformance modules; small gen_scale shapes) must come out
//! byte for byte as opt writes it: `mem2reg --passes= M` as `opt -S M`, and `mem2reg M` as
//! `opt -passes=mem2reg -S M` (opt-14 for typed-pointer modules), for every module LLVM printed;
//! a hand-written module must read back through `opt -S` as the original does.
//!
//! Drives scripts/corpus.py and scripts/roundtrip.py (the full corpus runs in scripts/test.sh).
//! Needs LLVM 19 and 14 (scripts/install-deps.sh); set MEM2REG_SKIP_LLVM_TESTS=1 to skip on a
//! machine without them (never under CI).

use std::path::Path;
use std::process::Command;

mod common;
use common::{root, tool, tools_present};

fn python(script: &Path, args: &[&str]) -> (bool, String) {
    let out = Command::new("python3")
        .arg(script)
        .args(args)
        .current_dir(root())
        .output()
        .expect("python3 runs");
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&out.stderr));
    (out.status.success(), text)
}

fn tail(text: &str, lines: usize) -> String {
    let v: Vec<&str> = text.lines().collect();
    v[v.len().saturating_sub(lines)..].join("\n")
}

#[test]
fn smoke_corpus_gives_opts_bytes() {
    if !tools_present(&[
        "python3",
        "clang-19",
        "clang++-19",
        "clang-14",
        "clang++-14",
        "opt-19",
        "opt-14",
    ]) {
        return;
    }
    let corpus = root().join("target").join("corpus-smoke");
    let corpus = corpus.to_str().unwrap();
    let (ok, out) = python(
        &root().join("scripts/corpus.py"),
        &[
            "--out",
            corpus,
            "--sets",
            "c,cpp,conformance,scale",
            "--variants",
            "O0,O0g",
        ],
    );
    assert!(ok, "scripts/corpus.py failed:\n{}", tail(&out, 40));
    let (ok, out) = python(
        &root().join("scripts/roundtrip.py"),
        &[
            "--quiet",
            "--max-shown",
            "10",
            "--tool",
            &tool(),
            "--report",
            root()
                .join("target/roundtrip-report-smoke")
                .to_str()
                .unwrap(),
            corpus,
        ],
    );
    assert!(ok, "round-trip failures:\n{}", tail(&out, 80));
    // Both byte checks ran and were counted (roundtrip.py fails on any held difference).
    for check in ["--passes= vs opt -S", "mem2reg vs opt -passes=mem2reg -S"] {
        assert!(
            out.lines()
                .any(|l| l.starts_with(&format!("byte-identical, {check}: "))),
            "no {check} byte count in:\n{}",
            tail(&out, 12)
        );
    }
    println!("{}", tail(&out, 12));
}
