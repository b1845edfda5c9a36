//! Rust front-end output through `--promote-byte-arrays`: each `tests/rust/*.rs` (no_std
//! programs that print with the C library's printf) is compiled by the rustc that builds this
//! project, at opt-level 0, with and without debug info. rustc gives every local an
//! `alloca [N x i8]`, which LLVM's mem2reg leaves alone; with the option most must go, the
//! result must pass `opt-19 -passes=verify`, and it must print and exit exactly as the
//! original under `lli-19`.
//!
//! rustc's IR is newer than LLVM 19 (rustc 1.95 uses LLVM 22): we read it as it is, and only
//! the copies handed to opt-19 and lli-19 lose the few attributes LLVM 19 does not know
//! ([`for_llvm19`]). The core library's panic functions, which the programs call only on
//! overflow or a bad index, are defined for lli as calls of `abort` ([`stubs`]).
//!
//! Needs LLVM 19 (scripts/install-deps.sh); set MEM2REG_SKIP_LLVM_TESTS=1 to skip on a
//! machine without it (never under CI).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;
use common::{root, tool, tools_present};

fn run(cmd: &mut Command) -> Output {
    cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"))
}

fn ok(cmd: &mut Command) -> Output {
    let out = run(cmd);
    assert!(
        out.status.success(),
        "{cmd:?} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// `text` without the attributes LLVM 19's reader rejects: `captures(...)`,
/// `initializes((...))`, `dead_on_return` and `nocreateundeforpoison`.
fn for_llvm19(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix(" dead_on_return") {
            rest = r;
        } else if let Some(r) = rest.strip_prefix(" nocreateundeforpoison") {
            rest = r;
        } else if rest.starts_with(" captures(") || rest.starts_with(" initializes(") {
            // Up to the matching parenthesis.
            let mut depth = 0;
            let mut end = 0;
            for (i, c) in rest.char_indices() {
                match c {
                    '(' => depth += 1,
                    ')' => {
                        depth -= 1;
                        if depth == 0 {
                            end = i + 1;
                            break;
                        }
                    }
                    _ => {}
                }
            }
            rest = &rest[end..];
        } else {
            let c = rest.chars().next().expect("not empty");
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

/// A module defining every function `module` declares with a Rust-mangled name (`@_R...`,
/// the core library's panic functions) as a call of `abort`.
fn stubs(module: &str) -> String {
    let mut out = String::from("declare void @abort()\n");
    for line in module.lines().filter(|l| l.starts_with("declare ")) {
        let Some(at) = line.find("@_R") else { continue };
        let name: String = line[at + 1..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '$' || *c == '.')
            .collect();
        out += &format!("define void @{name}() {{\n  call void @abort()\n  unreachable\n}}\n");
    }
    out
}

fn count(text: &str, what: &str) -> usize {
    text.matches(what).count()
}

/// Compiles `src` with `debuginfo`, promotes with `--promote-byte-arrays`, and checks the
/// result; returns the allocas before and after.
fn check(src: &Path, debuginfo: u32, dir: &Path) -> (usize, usize) {
    let stem = src.file_stem().unwrap().to_string_lossy().to_string();
    let input = dir.join(format!("{stem}-g{debuginfo}.ll"));
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    ok(Command::new(rustc)
        .args([
            "--edition",
            "2021",
            "-C",
            "opt-level=0",
            "-C",
            "panic=abort",
        ])
        .args(["--crate-type=bin", "--emit=llvm-ir"])
        .arg(format!("-Cdebuginfo={debuginfo}"))
        .arg("-o")
        .arg(&input)
        .arg(src));
    let output = dir.join(format!("{stem}-g{debuginfo}.out.ll"));
    ok(Command::new(tool())
        .args(["--promote-byte-arrays"])
        .arg(&input)
        .arg("-o")
        .arg(&output));
    let before = std::fs::read_to_string(&input).unwrap();
    let after = std::fs::read_to_string(&output).unwrap();
    let (in19, out19) = (dir.join("in19.ll"), dir.join("out19.ll"));
    std::fs::write(&in19, for_llvm19(&before)).unwrap();
    std::fs::write(&out19, for_llvm19(&after)).unwrap();
    let stub = dir.join("stubs.ll");
    std::fs::write(&stub, stubs(&before)).unwrap();
    ok(Command::new("opt-19")
        .args(["-passes=verify", "-disable-output"])
        .arg(&out19));
    let lli = |m: &PathBuf| {
        let o = run(Command::new("lli-19")
            .arg(format!("-extra-module={}", stub.display()))
            .arg(m));
        (
            o.status.code(),
            o.stdout,
            String::from_utf8_lossy(&o.stderr).to_string(),
        )
    };
    let (want, got) = (lli(&in19), lli(&out19));
    assert_eq!(
        want.0,
        Some(0),
        "{stem}: the original fails under lli: {}",
        want.2
    );
    assert_eq!(
        got, want,
        "{stem} -Cdebuginfo={debuginfo}: behaviour differs"
    );
    (count(&before, " = alloca "), count(&after, " = alloca "))
}

#[test]
fn rust_programs_behave_the_same_with_byte_arrays_promoted() {
    if !tools_present(&["opt-19", "lli-19"]) {
        return;
    }
    let dir = std::env::temp_dir().join(format!("mem2reg-rust-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut sources: Vec<PathBuf> = std::fs::read_dir(root().join("tests/rust"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "rs"))
        .collect();
    sources.sort();
    assert!(sources.len() >= 2, "{sources:?}");
    for src in &sources {
        for debuginfo in [0, 2] {
            let (before, after) = check(src, debuginfo, &dir);
            println!(
                "{}: -Cdebuginfo={debuginfo}: allocas {before} -> {after}",
                src.display()
            );
            // Many of rustc's slots are scalars in byte arrays (pairs, accessed at an offset,
            // are SROA's work): at least a third go.
            assert!(
                after * 3 < before * 2,
                "{}: {before} -> {after}",
                src.display()
            );
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn attributes_llvm19_rejects_are_removed() {
    let text =
        "declare void @f(ptr captures(none) noundef, ptr initializes((0, 8)) dead_on_return)\n\
                attributes #0 = { nocreateundeforpoison nounwind }\n";
    assert_eq!(
        for_llvm19(text),
        "declare void @f(ptr noundef, ptr)\nattributes #0 = { nounwind }\n"
    );
    let s = stubs("declare void @_RNvNt4core9panicking5panic(ptr)\ndeclare void @g()\n");
    assert_eq!(
        s,
        "declare void @abort()\ndefine void @_RNvNt4core9panicking5panic() {\n  \
         call void @abort()\n  unreachable\n}\n"
    );
}
