//! Bad input: every malformed module gets one clear error with a location (the message LLVM's
//! own reader gives, where we know it), and no input makes the reader panic, hang or overflow
//! its stack — truncated files, random bytes, token soup, non-UTF-8 bytes, nesting 20,000
//! deep, files of hundreds of MB. Valid oddities (raw bytes in comments and strings, deep but
//! legal nesting) are read and printed back unchanged.
//!
//! The expected messages below are what `llvm-as-19` prints for the same files (with its name
//! replaced by ours); `scripts/reject-agreement.py` checks the same on mutants of real modules.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::Arc;

use mem2reg::text::{parser, print_module};
use mem2reg::Threads;
use ssa::testing::Rng;

/// Reads `src` as a module: `Ok(printed text)` or `Err(rendered error)`. Panics only if the
/// reader panics (the test then fails), or if an error has no location.
fn read(src: &[u8]) -> Result<Vec<u8>, String> {
    match parser::parse_with(Arc::from(src), Threads::new(2)) {
        Ok(m) => Ok(print_module(&m, Threads::new(2))),
        Err(e) => {
            assert!(e.line >= 1 && e.col >= 1, "error without a location: {e:?}");
            Err(e.render("t.ll"))
        }
    }
}

/// The CLI's stderr and exit code for `src` given as file `t.ll`.
fn cli(name: &str, src: &[u8]) -> (String, Option<i32>) {
    let dir = std::env::temp_dir().join(format!("mem2reg-bad-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("t.ll"), src).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_mem2reg"))
        .args(["--passes=", "t.ll", "-o", "out.ll"])
        .current_dir(&dir)
        .output()
        .unwrap();
    let written = dir.join("out.ll").exists();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(
        written,
        o.status.success(),
        "output written only on success"
    );
    (
        String::from_utf8_lossy(&o.stderr).into_owned(),
        o.status.code(),
    )
}

#[test]
fn errors_are_llvms_with_location_and_caret() {
    let cases: &[(&str, &str, &str)] = &[
        (
            "unknown keyword",
            "define i32 @f() {\n  %x = frobnicate i32 1\n  ret i32 %x\n}\n",
            "t.ll:2:8: error: expected instruction opcode",
        ),
        (
            "undefined value",
            "define i32 @f() {\n  ret i32 %y\n}\n",
            "t.ll:2:11: error: use of undefined value '%y'",
        ),
        (
            "duplicate local",
            "define i32 @f() {\n  %x = add i32 1, 2\n  %x = add i32 3, 4\n  ret i32 %x\n}\n",
            "t.ll:3:3: error: multiple definition of local value named 'x'",
        ),
        (
            "named void result",
            "define void @f() {\n  %x = call void @g()\n  ret void\n}\ndeclare void @g()\n",
            "t.ll:2:3: error: instructions returning void cannot have a name",
        ),
        (
            "name forward referenced with another type",
            "define i32 @f(i32 %a) {\ne:\n  br label %n\nn:\n  %p = phi i64 [ 0, %e ], [ %q, %n ]\n  %q = add i32 %a, 1\n  br label %n\n}\n",
            "t.ll:6:3: error: instruction forward referenced with type 'i64'",
        ),
        (
            "label name given to a value",
            "define i32 @f(i32 %a) {\ne:\n  br label %x\nb:\n  %x = add i32 %a, 1\n  ret i32 %x\n}\n",
            "t.ll:5:3: error: instruction forward referenced with type 'label'",
        ),
        (
            "label number given to a value",
            "define i32 @f(i32 %a) {\ne:\n  br label %1\nb:\n  %1 = add i32 %a, 1\n  ret i32 %1\n}\n",
            "t.ll:5:3: error: instruction forward referenced with type 'label'",
        ),
        (
            "duplicate global",
            "@g = global i32 0\n@g = global i32 1\n",
            "t.ll:2:1: error: redefinition of global '@g'",
        ),
        (
            "missing block",
            "define void @f() {\nentry:\n  br label %nowhere\n}\n",
            "t.ll:3:12: error: use of undefined value '%nowhere'",
        ),
        (
            "type mismatch",
            "define i32 @f(i64 %a) {\n  %x = add i32 %a, 1\n  ret i32 %x\n}\n",
            "t.ll:2:16: error: '%a' defined with type 'i64' but expected 'i32'",
        ),
        (
            "typed operand where a value goes",
            "define i32 @f(i32 %a) {\n  %x = icmp eq i32 %a, i64 1\n  ret i32 %x\n}\n",
            "t.ll:2:24: error: expected value token",
        ),
        (
            "empty body",
            "define void @f() {\n}\n",
            "t.ll:2:1: error: function body requires at least one basic block",
        ),
        (
            "no terminator",
            "define void @f() {\nentry:\n  %x = add i32 1, 2\n}\n",
            "t.ll:4:1: error: expected instruction opcode",
        ),
        (
            "end of file in a body",
            "define i32 @f() {\n  %x = add i32 1, 2\n  ret i32 %x\n",
            "t.ll:4:1: error: found end of file when expecting more instructions",
        ),
        (
            "unknown byte after a name",
            "define i32 @f() {\n  %x = add i32 1, 2\n  %y ~= add i32 1, 2\n  ret i32 0\n}\n",
            "t.ll:3:6: error: expected '=' after instruction name",
        ),
        (
            "unknown byte at top level",
            "define void @f() {\n  ret void\n}\n~\n",
            "t.ll:4:1: error: expected top-level entity",
        ),
        (
            "undefined metadata",
            "define void @f() {\n  ret void, !dbg !7\n}\n",
            "t.ll:2:19: error: use of undefined metadata '!7'",
        ),
        (
            "undefined metadata in a node",
            "!0 = !{!1}\n",
            "t.ll:1:9: error: use of undefined metadata '!1'",
        ),
        (
            "misspelt DWARF encoding",
            "!named = !{!0}\n!0 = !DIBasicType(name: \"u\", size: 32, encoding: DW_ATE_unsignedx)\n",
            "t.ll:2:50: error: invalid DWARF type attribute encoding 'DW_ATE_unsignedx'",
        ),
        (
            "misspelt debug info flag",
            "!named = !{!0}\n!0 = !DIBasicType(name: \"u\", size: 32, flags: DIFlagPublic | DIFlagZero)\n",
            "t.ll:2:62: error: invalid debug info flag 'DIFlagZero'",
        ),
        (
            "undefined function",
            "define void @f() {\n  call void @nope()\n  ret void\n}\n",
            "t.ll:2:13: error: use of undefined value '@nope'",
        ),
    ];
    for (what, src, want) in cases {
        let (stderr, code) = cli(what, src.as_bytes());
        assert_eq!(code, Some(1), "{what}: {stderr}");
        let mut lines = stderr.lines();
        assert_eq!(
            lines.next(),
            Some(format!("mem2reg: {want}").as_str()),
            "{what}"
        );
        // Then the source line and a caret under the column.
        let col: usize = want.split(':').nth(2).unwrap().parse().unwrap();
        let (line, caret) = (lines.next().unwrap(), lines.next().unwrap());
        assert!(src.contains(line), "{what}: {line:?}");
        assert_eq!(caret, format!("{}^", " ".repeat(col - 1)), "{what}");
        assert_eq!(lines.next(), None, "{what}: one error only");
    }
}

/// Every prefix of real modules (cut every few bytes) is read or rejected with a location.
#[test]
fn truncated_modules_never_crash() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ll"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    let (mut ok, mut rejected) = (0, 0);
    for f in files {
        let text = std::fs::read(&f).unwrap();
        for cut in (0..text.len()).step_by(5) {
            match read(&text[..cut]) {
                Ok(_) => ok += 1,
                Err(_) => rejected += 1,
            }
        }
        assert!(read(&text).is_ok(), "{} reads whole", f.display());
    }
    assert!(ok > 0 && rejected > 0, "ok {ok}, rejected {rejected}");
}

/// Random bytes, and random soups of LLVM tokens (which get further into the reader).
#[test]
fn random_input_never_crashes() {
    const TOKENS: &[&str] = &[
        "define",
        "declare",
        "i32",
        "ptr",
        "i8*",
        "%x",
        "@g",
        "!0",
        "!{",
        "}",
        "{",
        "(",
        ")",
        "[",
        "]",
        "<",
        ">",
        ",",
        "=",
        "x",
        "label",
        "%bb",
        "bb:",
        "br",
        "ret",
        "phi",
        "load",
        "store",
        "alloca",
        "call",
        "getelementptr",
        "inbounds",
        "align 4",
        "c\"a\\00\"",
        "0x1p3",
        "-7",
        "zeroinitializer",
        "undef",
        "poison",
        "metadata",
        "#0",
        "attributes",
        "type",
        "opaque",
        "\n",
        " ",
        "; c\n",
        "\"q\"",
        "blockaddress",
        "switch",
        "!DILocation(line: 1)",
        "...",
        "global",
        "constant",
        "x86_fp80 0xK4000",
        "<2 x i32>",
        "%T = type {",
        "void",
        "@f()",
    ];
    let mut rng = Rng::new(0x6d65_6d32);
    for _ in 0..2000 {
        let len = rng.below(200) as usize;
        let src: Vec<u8> = if rng.below(4) == 0 {
            (0..len).map(|_| rng.below(256) as u8).collect()
        } else {
            let mut s = Vec::new();
            for _ in 0..len / 4 {
                s.extend_from_slice(TOKENS[rng.below(TOKENS.len() as u64) as usize].as_bytes());
                s.push(b' ');
            }
            s
        };
        if let Ok(printed) = read(&src) {
            assert_eq!(
                read(&printed),
                Ok(printed.clone()),
                "printed text reads back"
            );
        }
    }
}

#[test]
fn non_utf8_bytes() {
    // Raw bytes in comments and strings are fine for LLVM, and kept.
    let ok = b"; comment \xff\xfe\n@s = global [2 x i8] c\"\xff\xfe\"\n";
    let (stderr, code) = cli("utf8-ok", ok);
    assert_eq!(code, Some(0), "{stderr}");
    // In a name they are an error with a location (the caret line is lossy UTF-8).
    let bad = b"define i32 @f() {\n  %x\xff = add i32 1, 2\n  ret i32 0\n}\n";
    let err = read(bad).unwrap_err();
    assert!(
        err.starts_with("t.ll:2:5: error: expected '=' after instruction name"),
        "{err}"
    );
    assert!(err.contains('\u{fffd}'), "{err}");
}

/// Types and constant expressions nested 20,000 deep: opt-19 overflows its stack on these;
/// they are valid, so we read them and print them back unchanged.
#[test]
fn nesting_20000_deep() {
    let n = 20_000;
    let array = format!(
        "@g = global {}i32{} zeroinitializer\n",
        "[1 x ".repeat(n),
        "]".repeat(n)
    );
    let structs = format!(
        "@g = global {}i32{} zeroinitializer\n",
        "{ ".repeat(n),
        " }".repeat(n)
    );
    let gep = format!(
        "@x = global i8 0\n@g = global ptr {}@x{}\n",
        "getelementptr (i8, ptr ".repeat(n),
        ", i64 1)".repeat(n)
    );
    let in_body = format!(
        "@x = global i8 0\ndefine ptr @f() {{\n  ret ptr {}@x{}\n}}\n",
        "getelementptr (i8, ptr ".repeat(n),
        ", i64 1)".repeat(n)
    );
    let metadata = format!(
        "!named = !{{!0}}\n!0 = {}!{{}}{}\n",
        "!{".repeat(n),
        "}".repeat(n)
    );
    for (what, src) in [
        ("array type", array),
        ("struct type", structs),
        ("gep constant", gep),
        ("constant in a body", in_body),
        ("metadata", metadata),
    ] {
        let printed = read(src.as_bytes()).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_eq!(read(&printed), Ok(printed.clone()), "{what}");
        // Unbalanced: an error with a location, not a crash.
        let cut = &src.as_bytes()[..src.len() - n / 2];
        assert!(read(cut).is_err(), "{what} cut short");
    }
}

/// A module of about 300 MB is read and written through the CLI, and the same file cut in
/// the middle of its last function is an error on the right line.
#[test]
fn hundreds_of_megabytes() {
    let dir = std::env::temp_dir().join(format!("mem2reg-bad-{}-huge", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("huge.ll");
    let mut body = String::from("define i32 @f0(i32 %a) {\nentry:\n");
    for k in 0..2000 {
        body.push_str(&format!("  %v{k} = add i32 %a, {k}\n"));
    }
    body.push_str("  ret i32 %v1999\n}\n\n");
    let per_fn = body.len();
    let count = 300_000_000 / per_fn;
    let mut w = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    for i in 0..count {
        w.write_all(body.replacen("@f0(", &format!("@f{i}("), 1).as_bytes())
            .unwrap();
    }
    w.flush().unwrap();
    drop(w);
    let size = std::fs::metadata(&path).unwrap().len();
    assert!(size > 290_000_000, "{size}");
    let run = |file: &PathBuf| {
        Command::new(env!("CARGO_BIN_EXE_mem2reg"))
            .arg("--passes=")
            .arg(file)
            .stdout(Stdio::null())
            .output()
            .unwrap()
    };
    let o = run(&path);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // Cut inside the last function: the error names the line of the cut.
    let lines_before = (count - 1) * body.lines().count() + body.lines().count() / 2;
    let f = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    let keep: usize = body
        .lines()
        .take(body.lines().count() / 2)
        .map(|l| l.len() + 1)
        .sum();
    f.set_len((size as usize - per_fn + keep) as u64).unwrap();
    drop(f);
    let o = run(&path);
    let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(o.status.code(), Some(1), "{stderr}");
    let want = format!("huge.ll:{}:1: error: ", lines_before + 1);
    assert!(stderr.contains(&want), "want {want} in {stderr}");
}
