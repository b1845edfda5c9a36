//! README.md's examples, run: every ```` ```console ```` block is a list of `$ COMMAND` lines,
//! each followed by the exact output (stdout and stderr, as a terminal shows them) that the
//! command must print (blank lines at its end aside); and the ```` ```llvm ```` block right after the first screen's commands
//! must be what `mem2reg examples/max.ll` prints. The README cannot drift from the code.
//!
//! Commands run through `sh` in a fresh temporary directory (they may write files there), with
//! `target/release/mem2reg` replaced by the binary under test and `examples/` by the
//! repository's. A block whose commands need a program that is not installed (`dot`) is
//! skipped, unless CI=true, where that is a failure.

use std::path::{Path, PathBuf};
use std::process::Command;

fn readme() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap()
}

/// The fenced blocks of `text` with the given info string, in order.
fn blocks<'a>(text: &'a str, info: &str) -> Vec<&'a str> {
    let fence = format!("```{info}\n");
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find(&fence) {
        let body = &rest[i + fence.len()..];
        let end = body.find("```\n").expect("unclosed code block");
        out.push(&body[..end]);
        rest = &body[end..];
    }
    out
}

fn have(program: &str) -> bool {
    Command::new("sh")
        .arg("-c")
        .arg(format!("command -v {program}"))
        .output()
        .is_ok_and(|o| o.status.success())
}

fn scratch_dir(k: usize) -> PathBuf {
    let d = std::env::temp_dir().join(format!("mem2reg-readme-{}-{k}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn console_examples_print_what_the_readme_shows() {
    let root = env!("CARGO_MANIFEST_DIR");
    let bin = env!("CARGO_BIN_EXE_mem2reg");
    let text = readme();
    let consoles = blocks(&text, "console");
    assert!(!consoles.is_empty(), "README.md has no console examples");
    let mut failures = Vec::new();
    let mut ran = 0;
    for (k, block) in consoles.iter().enumerate() {
        // (command, expected output) pairs.
        let mut steps: Vec<(String, String)> = Vec::new();
        for line in block.lines() {
            if let Some(cmd) = line.strip_prefix("$ ") {
                steps.push((cmd.to_string(), String::new()));
            } else if let Some((_, out)) = steps.last_mut() {
                out.push_str(line);
                out.push('\n');
            }
        }
        let missing: Vec<&str> = ["dot"]
            .into_iter()
            .filter(|p| steps.iter().any(|(c, _)| c.starts_with(&format!("{p} "))) && !have(p))
            .collect();
        if !missing.is_empty() {
            if std::env::var("CI").is_ok_and(|v| v == "true") {
                failures.push(format!("console block {k}: {missing:?} not installed"));
            }
            continue;
        }
        let dir = scratch_dir(k);
        for (cmd, want) in &steps {
            let real = cmd
                .replace("target/release/mem2reg", bin)
                .replace("examples/", &format!("{root}/examples/"));
            let out = Command::new("sh")
                .arg("-c")
                .arg(format!("exec 2>&1; {real}"))
                .current_dir(&dir)
                .output()
                .unwrap();
            let got = String::from_utf8_lossy(&out.stdout).replace(root, ".");
            ran += 1;
            if !out.status.success() {
                failures.push(format!("`{cmd}` failed ({}):\n{got}", out.status));
            } else if got.trim_end_matches('\n') != want.trim_end_matches('\n') {
                failures.push(format!(
                    "`{cmd}`: README shows\n{want}--- but it prints\n{got}---"
                ));
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
    assert!(
        failures.is_empty(),
        "{} of {ran} README commands differ:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn first_screen_output_is_what_mem2reg_prints_for_max() {
    let text = readme();
    let shown = blocks(&text, "llvm")[0];
    let out = Command::new(env!("CARGO_BIN_EXE_mem2reg"))
        .arg("examples/max.ll")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout), shown);
}
