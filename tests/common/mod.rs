//! Helpers the integration tests that drive external tools share: the repository root, the
//! binary under test, and the check that the tools are installed (a clear failure when they
//! are not, never a silent skip under CI).

#![allow(dead_code)] // each test binary uses its own subset

use std::path::PathBuf;
use std::process::Command;

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The binary under test; MEM2REG_TOOL overrides it (e.g. scripts/opt-standin.py, to check the
/// harness itself).
pub fn tool() -> String {
    std::env::var("MEM2REG_TOOL").unwrap_or_else(|_| env!("CARGO_BIN_EXE_mem2reg").to_string())
}

/// Whether the external tools are there; panics with a clear message when they are not,
/// unless the skip is asked for explicitly (MEM2REG_SKIP_LLVM_TESTS) outside CI.
pub fn tools_present(tools: &[&str]) -> bool {
    let missing: Vec<&str> = tools
        .iter()
        .copied()
        .filter(|t| {
            !Command::new("sh")
                .args(["-c", &format!("command -v {t}")])
                .output()
                .map(|o| o.status.success())
                .unwrap_or(false)
        })
        .collect();
    if missing.is_empty() {
        return true;
    }
    let ci = std::env::var("CI").map(|v| v == "true").unwrap_or(false);
    if !ci && std::env::var_os("MEM2REG_SKIP_LLVM_TESTS").is_some() {
        eprintln!("SKIPPED (MEM2REG_SKIP_LLVM_TESTS): missing {missing:?}");
        return false;
    }
    panic!("missing tools {missing:?}: run scripts/install-deps.sh (or set MEM2REG_SKIP_LLVM_TESTS=1 outside CI)");
}
