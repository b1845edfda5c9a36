//! Differential smoke test against real LLVM: csmith seeds 1..3 plus tests/c and tests/cpp,
//! compiled with clang-19 and clang-14 at -O0, through `mem2reg` and `mem2reg
//! --passes=mem2reg,phi-elim`; every result must verify with opt and behave like the original
//! under lli (../shared/tools/difftest.py, driven by scripts/difftest.py). The full matrix
//! (also reg2mem and -g, 40 seeds) runs in scripts/test.sh; the 300-seed bar by hand.
//!
//! Needs LLVM 19 and 14 and csmith (scripts/install-deps.sh); set MEM2REG_SKIP_LLVM_TESTS=1 to
//! skip on a machine without them (never under CI).

use std::process::Command;

mod common;
use common::{root, tool, tools_present};

#[test]
fn smoke_programs_behave_like_llvm_mem2reg() {
    let tools = [
        "python3",
        "csmith",
        "clang-19",
        "clang++-19",
        "opt-19",
        "lli-19",
        "clang-14",
        "clang++-14",
        "opt-14",
        "lli-14",
    ];
    if !tools_present(&tools) {
        return;
    }
    let out = Command::new("python3")
        .arg(root().join("scripts/difftest.py"))
        .args([
            "--tool",
            &tool(),
            "--seeds",
            "1..3",
            "--llvm",
            "19,14",
            "--g",
            "no",
        ])
        .args(["--pipelines", "default,phi-elim"])
        .current_dir(root())
        .output()
        .expect("python3 runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim_start().starts_with('{'))
        .collect();
    let shown = lines[lines.len().saturating_sub(60)..].join("\n");
    assert!(
        out.status.success(),
        "difftest failed:\n{shown}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    println!("{shown}");
}
