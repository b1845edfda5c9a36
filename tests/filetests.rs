//! Filetests: the executable specification. Each `tests/filetests/<group>/<name>.ll` is run
//! through the `mem2reg` binary with the arguments on its `; ARGS:` line (default: `--passes=`),
//! and its stdout (and, for failing runs, `exit N` plus stderr; for files with a `; STDERR`
//! line, stderr after stdout) must equal `<name>.out`, the input's path written `INPUT`.
//!
//! Re-bless after an intended change: `BLESS=1 cargo test --test filetests`, then review the
//! diff of the `.out` files like any code change. A missing `.out` is an error unless blessing.
//! When `opt-19` is installed, every successful output is also checked with
//! `opt-19 -passes=verify` (typed-pointer outputs with `opt-14`), and a file with a
//! `; SAME-AS-OPT: -passes=...` line must give the module opt gives (see `same_as_opt`).
//! A file with a `; NEWER-THAN-LLVM-19` line is written for a newer LLVM (one-operand lifetime
//! intrinsics, which opt-19 rejects): its output is compared with its `.out` only.

use std::path::{Path, PathBuf};
use std::process::Command;

fn files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/filetests");
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "ll") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

fn args_of(text: &str) -> Vec<String> {
    for line in text.lines() {
        if let Some(rest) = line.trim_start().strip_prefix("; ARGS:") {
            return rest.split_whitespace().map(String::from).collect();
        }
    }
    vec!["--passes=".to_string()]
}

fn have(tool: &str) -> bool {
    Command::new(tool)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Whether `ir` spells pointer types the LLVM 14 way (`i32*`): a `*` right after a type, and
/// no `ptr` type anywhere. Text with no pointer type at all (every slot promoted) counts as
/// opaque: opt-19 reads it, while opt-14 may reject newer parts of it (module flags).
fn typed_pointers(ir: &str) -> bool {
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'.';
    let mut star = false;
    for line in ir.lines() {
        let code = line.split(';').next().unwrap_or("").as_bytes();
        for (i, w) in code.windows(3).enumerate() {
            let before = i.checked_sub(1).map(|j| code[j]);
            let after = code.get(i + 3).copied();
            if w == b"ptr" && !before.is_some_and(ident) && !after.is_some_and(ident) {
                return false;
            }
        }
        star |= code
            .windows(2)
            .any(|w| w[1] == b'*' && (w[0].is_ascii_alphanumeric() || b"]}>)*".contains(&w[0])));
    }
    star
}

/// For a file with a `; SAME-AS-OPT: ARGS` line: `opt -S` of our output must equal what
/// `opt ARGS -S` makes of the input (the ModuleID and source_filename lines aside), so the
/// claim "the same as LLVM" is checked on every run, not once when the test was written.
fn same_as_opt(path: &Path, text: &str, ours: &str, opt: &str) -> Option<String> {
    let opt_args: Vec<&str> = text
        .lines()
        .find_map(|l| l.trim_start().strip_prefix("; SAME-AS-OPT:"))?
        .split_whitespace()
        .collect();
    let tmp = std::env::temp_dir().join(format!(
        "filetest-{}-{}-ours.ll",
        std::process::id(),
        path.file_stem().unwrap().to_string_lossy()
    ));
    std::fs::write(&tmp, ours).unwrap();
    let run = |args: &[&str], file: &Path| {
        let o = Command::new(opt)
            .args(args)
            .arg("-S")
            .arg(file)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&o.stdout).into_owned();
        let kept: Vec<&str> = text
            .lines()
            .filter(|l| !l.starts_with("; ModuleID") && !l.starts_with("source_filename"))
            .collect();
        (o.status.success(), kept.join("\n"), o.stderr)
    };
    let (ok_ours, ours_by_opt, err_ours) = run(&[], &tmp);
    let (ok_ref, reference, err_ref) = run(&opt_args, path);
    let _ = std::fs::remove_file(&tmp);
    if !ok_ours || !ok_ref {
        return Some(format!(
            "{}: SAME-AS-OPT: {opt} failed:\n{}{}",
            path.display(),
            String::from_utf8_lossy(&err_ours),
            String::from_utf8_lossy(&err_ref)
        ));
    }
    (ours_by_opt != reference).then(|| {
        format!(
            "{}: `{opt} -S` of our output differs from `{opt} {} -S` of the input\n\
             --- {opt}'s\n{reference}\n--- ours, printed by {opt}\n{ours_by_opt}",
            path.display(),
            opt_args.join(" ")
        )
    })
}

/// Runs one filetest; returns a description of the mismatch, if any.
fn run_one(path: &Path, bless: bool) -> Option<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let args = args_of(&text);
    let out = Command::new(env!("CARGO_BIN_EXE_mem2reg"))
        .args(&args)
        .arg(path)
        .output()
        .unwrap();
    // The input's path shows in stdout too where a pass writes the module's name (debugify).
    let mut got = String::from_utf8_lossy(&out.stdout).replace(path.to_str().unwrap(), "INPUT");
    if !out.status.success() {
        got = format!(
            "exit {}\n{}",
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stderr).replace(path.to_str().unwrap(), "INPUT")
        );
    } else if args
        .iter()
        .all(|a| !a.contains("print-copies") && a != "-disable-output")
        && !text.lines().any(|l| l.trim() == "; NEWER-THAN-LLVM-19")
    {
        let opt = if typed_pointers(&got) {
            "opt-14"
        } else {
            "opt-19"
        };
        if have(opt) {
            let tmp = std::env::temp_dir().join(format!(
                "filetest-{}-{}.ll",
                std::process::id(),
                path.file_stem().unwrap().to_string_lossy()
            ));
            std::fs::write(&tmp, &got).unwrap();
            let v = Command::new(opt)
                .args(["-passes=verify", "-disable-output"])
                .arg(&tmp)
                .output()
                .unwrap();
            let _ = std::fs::remove_file(&tmp);
            if !v.status.success() {
                return Some(format!(
                    "{}: {opt} rejects the output:\n{}",
                    path.display(),
                    String::from_utf8_lossy(&v.stderr)
                ));
            }
            if let Some(e) = same_as_opt(path, &text, &got, opt) {
                return Some(e);
            }
        } else if std::env::var("CI").is_ok_and(|v| v == "true") {
            return Some(format!("{opt} is not installed (required under CI=true)"));
        }
    }
    if out.status.success() && text.lines().any(|l| l.trim() == "; STDERR") {
        // Printer passes write to stderr, as opt's do: tests marked `; STDERR` compare it too.
        got.push_str(
            &String::from_utf8_lossy(&out.stderr).replace(path.to_str().unwrap(), "INPUT"),
        );
    }
    let expected_path = path.with_extension("out");
    if bless {
        std::fs::write(&expected_path, &got).unwrap();
        return None;
    }
    match std::fs::read_to_string(&expected_path) {
        Ok(want) if want == got => None,
        Ok(want) => Some(format!(
            "{}: output differs from {}\n--- expected\n{want}\n--- got\n{got}",
            path.display(),
            expected_path.display()
        )),
        Err(_) => Some(format!(
            "{}: no {} (run with BLESS=1 to create it)",
            path.display(),
            expected_path.display()
        )),
    }
}

#[test]
fn filetests() {
    let bless = std::env::var("BLESS").is_ok_and(|v| v == "1");
    let files = files();
    assert!(!files.is_empty(), "no filetests found");
    let failures: Vec<String> = files.iter().filter_map(|p| run_one(p, bless)).collect();
    assert!(
        failures.is_empty(),
        "{} of {} filetests failed:\n\n{}",
        failures.len(),
        files.len(),
        failures.join("\n\n")
    );
}
