//! The command line's contract: opt's spelling, exit codes (0 ok, 1 input/pass error, 2 usage),
//! errors on stderr in opt's shape, and an output file written only on success.

use std::path::PathBuf;
use std::process::{Command, Output};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_mem2reg"))
}

fn run(args: &[&str], stdin: &[u8]) -> Output {
    use std::io::Write;
    let mut child = bin()
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    child.wait_with_output().unwrap()
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("mem2reg-cli-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Asserts that `dir` holds exactly `n` entries: the run left no temporary file behind.
fn assert_files(dir: &std::path::Path, n: usize) {
    let names: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), n, "no temporary file left behind: {names:?}");
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn help_and_version_succeed() {
    let o = run(&["--help"], b"");
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stdout).contains("--passes=PIPELINE"));
    let o = run(&["--version"], b"");
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("mem2reg "));
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &["--bogus"][..],
        &["a.ll", "b.ll"],
        &["-o"],
        &["--threads=0"],
    ] {
        let o = run(args, b"");
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).starts_with("mem2reg: "), "{}", stderr(&o));
    }
}

#[test]
fn missing_input_is_an_error_in_opts_shape() {
    let o = run(&["/nonexistent/x.ll", "--passes="], b"");
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o),
        "mem2reg: /nonexistent/x.ll: error: Could not open input file: No such file or directory\n"
    );
}

#[test]
fn unknown_pass_is_an_error() {
    let o = run(&["--passes=frobnicate"], b"");
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stderr(&o), "mem2reg: unknown pass name 'frobnicate'\n");
}

#[test]
fn parse_error_has_location_and_caret_and_keeps_existing_output() {
    let d = scratch("parse-error");
    let out = d.join("out.ll");
    std::fs::write(&out, "precious\n").unwrap();
    let o = run(
        &["--passes=", "-o", out.to_str().unwrap()],
        b"define void @f() {\n  %x = bogus\n}\n",
    );
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(&o);
    assert!(e.starts_with("mem2reg: <stdin>:2:"), "{e}");
    assert!(e.contains("error: ") && e.trim_end().ends_with('^'), "{e}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "precious\n");
    assert_files(&d, 1);
}

#[test]
fn bitcode_input_is_named_as_such() {
    // The first bytes of what `clang -c -emit-llvm` writes, and Apple's wrapper magic.
    for magic in [
        &b"BC\xC0\xDE\x35\x14\x00\x00\x05\x00"[..],
        b"\xDE\xC0\x17\x0B\x00\x00",
    ] {
        let o = run(&["-S"], magic);
        assert_eq!(o.status.code(), Some(1));
        let e = stderr(&o);
        assert!(
            e.starts_with("mem2reg: <stdin>:1:1: error: input is LLVM bitcode, not IR text"),
            "{e}"
        );
        assert!(!e.contains('\0'), "no raw bytes echoed: {e:?}");
        assert!(o.stdout.is_empty());
    }
}

#[test]
fn in_place_rewrite_is_atomic_and_round_trips() {
    let d = scratch("in-place");
    let f = d.join("m.ll");
    let src = "define i32 @f(i32 %a) {\nentry:\n  %r = add i32 %a, 1\n  ret i32 %r\n}\n";
    std::fs::write(&f, src).unwrap();
    let o = run(
        &["--passes=", f.to_str().unwrap(), "-o", f.to_str().unwrap()],
        b"",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let got = std::fs::read_to_string(&f).unwrap();
    assert!(got.contains("%r = add i32 %a, 1\n  ret i32 %r"), "{got}");
    assert_files(&d, 1);
}

/// Runs the tool with `-o fifo` while a thread reads the FIFO; returns the run and what the
/// thread read. (Opening a FIFO to read blocks until a writer opens it: if the tool never
/// does, this opens it to write and closes it, so the reader sees an empty stream.)
fn run_into_fifo(fifo: &std::path::Path, args: &[&str], stdin: &[u8]) -> (Output, Vec<u8>) {
    let f = fifo.to_path_buf();
    let reader = std::thread::spawn(move || std::fs::read(f).unwrap());
    let mut all: Vec<&str> = args.to_vec();
    all.extend(["-o", fifo.to_str().unwrap()]);
    let o = run(&all, stdin);
    while !reader.is_finished() {
        let unblock = std::fs::OpenOptions::new().write(true).open(fifo);
        drop(unblock);
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    (o, reader.join().unwrap())
}

#[test]
fn output_that_is_not_a_regular_file_is_written_in_place_only_on_success() {
    // A FIFO stands here for /dev/null and other devices: a temporary file renamed over it
    // would replace it (as root, /dev/null itself) with a regular file.
    use std::os::unix::fs::FileTypeExt;
    let d = scratch("fifo");
    let fifo = d.join("out.fifo");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let src = b"define i32 @f(i32 %a) {\n  %p = alloca i32\n  store i32 %a, ptr %p\n  %v = load i32, ptr %p\n  ret i32 %v\n}\n";
    let (o, got) = run_into_fifo(&fifo, &["-passes=mem2reg"], src);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        String::from_utf8_lossy(&got),
        "define i32 @f(i32 %a) {\n  ret i32 %a\n}\n"
    );
    let (o, got) = run_into_fifo(
        &fifo,
        &["-passes="],
        b"define void @f() {\n  %x = bogus\n}\n",
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(got.is_empty(), "nothing written on failure");
    let kind = std::fs::symlink_metadata(&fifo).unwrap().file_type();
    assert!(kind.is_fifo(), "still a FIFO: {kind:?}");
    assert_files(&d, 1);
}

#[test]
fn output_behind_a_symlink_replaces_the_target_and_keeps_link_and_permissions() {
    use std::os::unix::fs::PermissionsExt;
    let d = scratch("symlink");
    let (real, link) = (d.join("real.ll"), d.join("link.ll"));
    std::fs::write(&real, "old\n").unwrap();
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o600)).unwrap();
    std::os::unix::fs::symlink("real.ll", &link).unwrap();
    let o = run(
        &["--passes=", "-o", link.to_str().unwrap()],
        b"define void @g() {\n  ret void\n}\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(
        std::fs::read_to_string(&real).unwrap(),
        "define void @g() {\n  ret void\n}\n"
    );
    let mode = std::fs::metadata(&real).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    assert_files(&d, 2);
}

#[test]
fn stdin_to_stdout_and_disable_output() {
    let src = b"define void @g() {\n  ret void\n}\n";
    let o = run(&["-passes=", "-S", "-"], src);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        "define void @g() {\n  ret void\n}\n"
    );
    let o = run(&["-p", "", "-disable-output"], src);
    assert!(o.status.success() && o.stdout.is_empty());
}

/// Runs the tool with `stdin` as its standard input (a file, a directory).
fn run_with_stdin(args: &[&str], stdin: std::fs::File) -> Output {
    bin().args(args).stdin(stdin).output().unwrap()
}

#[test]
fn stdin_redirected_from_a_file_reads_from_its_position_to_its_end() {
    use std::io::{Seek, SeekFrom};
    let d = scratch("stdin-file");
    let path = d.join("in.ll");
    let first = "define i32 @f() {\n  %a = alloca i32\n  store i32 7, ptr %a\n  %v = load i32, ptr %a\n  ret i32 %v\n}\n";
    let second = "define void @g() {\n  ret void\n}\n";
    std::fs::write(&path, format!("{first}{second}")).unwrap();
    let o = run_with_stdin(&[], std::fs::File::open(&path).unwrap());
    assert!(o.status.success(), "{}", stderr(&o));
    let by_path = bin().arg(&path).output().unwrap();
    assert_eq!(o.stdout, by_path.stdout);
    assert!(String::from_utf8_lossy(&o.stdout).contains("ret i32 7"));
    // A shell's `{ read line; mem2reg; } < in.ll`: only what is left is read.
    let mut f = std::fs::File::open(&path).unwrap();
    f.seek(SeekFrom::Start(first.len() as u64)).unwrap();
    let o = run_with_stdin(&["-passes="], f);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(String::from_utf8_lossy(&o.stdout), second);
    // As opt-19 says it.
    let o = run_with_stdin(&[], std::fs::File::open(&d).unwrap());
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o),
        "mem2reg: <stdin>: error: Could not open input file: Is a directory\n"
    );
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn cfg_dot_prefix_names_the_file_as_opt_does() {
    let dir = scratch("dot-prefix");
    let prefix = dir.join("cfg");
    let flag = format!("-cfg-dot-filename-prefix={}", prefix.display());
    let o = run(
        &["-passes=dot-cfg", "-disable-output", &flag],
        b"define void @f() {\n  ret void\n}\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let file = dir.join("cfg.f.dot");
    assert_eq!(stderr(&o), format!("Writing '{}'...\n", file.display()));
    let dot = std::fs::read_to_string(&file).unwrap();
    assert!(dot.starts_with("digraph \"CFG for 'f' function\""), "{dot}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn time_passes_reports_the_analyses_inside_mem2reg_apart() {
    let src = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/max.ll")).unwrap();
    let o = run(&["--time-passes", "--threads", "1", "-o", "-", "-"], &src);
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    // opt's layout: thread time, its percent, wall time, its percent, the name.
    let row = |name: &str| -> Vec<f64> {
        let line = err.lines().find(|l| l.ends_with(&format!("  {name}")));
        let line = line.unwrap_or_else(|| panic!("no '{name}' row in:\n{err}"));
        let nums: Vec<f64> = line
            .split_whitespace()
            .filter_map(|w| w.parse().ok())
            .collect();
        nums[..2].to_vec()
    };
    let whole = row("mem2reg")[0];
    let part = row("mem2reg, of which CFG and dominator tree")[0];
    // Every stage is a row, and the wall times add up to the total.
    let stages = [
        "Read input file",
        "Read module level",
        "Read function bodies",
        "Verify input",
        "mem2reg",
        "Print",
        "Write output",
        "Untimed",
    ];
    let sum: f64 = stages.iter().map(|s| row(s)[1]).sum();
    let total = row("Total")[1];
    assert!((sum - total).abs() <= 0.0005 * stages.len() as f64, "{err}");
    // max's slot is stored on two paths: promoting it needs the dominator tree (its row is
    // there; opt's four decimals may round it to 0).
    assert!(part <= whole, "{err}");
    // Without --time-passes nothing is measured or printed.
    let o = run(&["-disable-output", "-"], &src);
    assert!(o.status.success() && o.stderr.is_empty(), "{}", stderr(&o));
}

/// A slot read before any store on one path (for `--uninit`).
const READ_BEFORE_STORE: &[u8] = b"define i32 @f(i1 %c, i32 %a) {
entry:
  %x = alloca i32, align 4
  br i1 %c, label %then, label %join
then:
  store i32 %a, ptr %x, align 4
  br label %join
join:
  %l = load i32, ptr %x, align 4
  ret i32 %l
}
";

#[test]
fn uninit_takes_one_of_four_values() {
    let phi = |args: &[&str]| -> String {
        let o = run(args, READ_BEFORE_STORE);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        let out = String::from_utf8_lossy(&o.stdout).into_owned();
        let line = out.lines().find(|l| l.contains(" = phi ")).unwrap_or("");
        line.trim().to_string()
    };
    let llvm = "%x.0 = phi i32 [ %a, %then ], [ undef, %entry ]";
    assert_eq!(phi(&[]), llvm);
    assert_eq!(phi(&["--uninit=undef"]), llvm);
    assert_eq!(phi(&["-uninit", "zero"]), "%x.0 = phi i32 [ %a, %then ], [ 0, %entry ]");
    assert_eq!(phi(&["--uninit=freeze"]), "%x.0 = phi i32 [ %a, %then ], [ %x.fr, %entry ]");
    // Poison may stand for %a: the phi folds away.
    assert_eq!(phi(&["--uninit=poison"]), "");
    for args in [&["--uninit=garbage"][..], &["--uninit"], &["--uninit="]] {
        let o = run(args, b"");
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).starts_with("mem2reg: "), "{}", stderr(&o));
    }
    let o = run(&["--uninit=zeroes"], b"");
    assert!(stderr(&o).contains("unknown value 'zeroes' (undef, poison, zero, freeze)"));
}

#[test]
fn max_promoted_leaves_the_rest_with_a_remark() {
    let d = scratch("max-promoted");
    let yaml = d.join("r.yaml");
    let flag = format!("-pass-remarks-output={}", yaml.display());
    let src = b"define i32 @f(i32 %a) {
  %x = alloca i32, align 4
  %y = alloca i32, align 4
  store i32 %a, ptr %x, align 4
  store i32 %a, ptr %y, align 4
  %l = load i32, ptr %y, align 4
  %m = load i32, ptr %y, align 4
  %n = add i32 %l, %m
  ret i32 %n
}
";
    let o = run(&["--max-promoted=1", &flag, "--explain"], src);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("%x = alloca") && !out.contains("%y = alloca"), "{out}");
    let remarks = std::fs::read_to_string(&yaml).unwrap();
    assert!(remarks.contains("Alloca:          '%x'"), "{remarks}");
    assert!(remarks.contains("Beyond --max-promoted=1"), "{remarks}");
    assert!(stderr(&o).contains("f: %x: stays in memory: Beyond --max-promoted=1"));
    let o = run(&["--max-promoted=0"], src);
    assert!(String::from_utf8_lossy(&o.stdout).contains("%y = alloca"));
    for bad in ["--max-promoted=-1", "--max-promoted=two", "--max-promoted"] {
        assert_eq!(run(&[bad], b"").status.code(), Some(2), "{bad}");
    }
    std::fs::remove_dir_all(d).unwrap();
}

#[test]
fn promote_byval_is_off_by_default() {
    let src = b"define i32 @f(ptr byval(i32) align 4 %p) {
  %l = load i32, ptr %p, align 4
  ret i32 %l
}
";
    let o = run(&[], src);
    assert!(String::from_utf8_lossy(&o.stdout).contains("%l = load i32, ptr %p, align 4"));
    for flag in ["--promote-byval", "-promote-byval"] {
        let o = run(&[flag], src);
        assert!(o.status.success(), "{}", stderr(&o));
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(out.contains("%p.val = load i32, ptr %p, align 4\n  ret i32 %p.val"), "{out}");
    }
}
