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
    // A run that stops early (a usage error) may close stdin before reading it.
    let _ = child.stdin.take().unwrap().write_all(stdin);
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

/// What opt-19 writes before the first function of a module read from stdin that has no
/// `source_filename` (checked against opt in `output_starts_like_opts`).
const STDIN_HEADER: &str = "; ModuleID = '<stdin>'\nsource_filename = \"<stdin>\"\n\n";

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
    let e = stderr(&o);
    assert!(
        e.starts_with(
            "mem2reg: unknown pass name 'frobnicate'\nvalid pass names: mem2reg, verify, "
        ),
        "{e}"
    );
    assert!(
        !e.contains("did you mean"),
        "nothing is close to frobnicate: {e}"
    );
    // A typo gets the closest name.
    let o = run(&["-passes=mem2reg,phi-elmi"], b"");
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(&o);
    assert!(
        e.starts_with("mem2reg: unknown pass name 'phi-elmi'; did you mean 'phi-elim'?\n"),
        "{e}"
    );
    assert!(
        e.contains("print<domfrontier>") && e.contains("dot-dom-only"),
        "{e}"
    );
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
        format!("{STDIN_HEADER}define i32 @f(i32 %a) {{\n  ret i32 %a\n}}\n")
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
        format!("{STDIN_HEADER}define void @g() {{\n  ret void\n}}\n")
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
        format!("{STDIN_HEADER}define void @g() {{\n  ret void\n}}\n")
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
    // The same module but for its name: `<stdin>`, or the path as given.
    let named = String::from_utf8_lossy(&by_path.stdout).replace(path.to_str().unwrap(), "<stdin>");
    assert_eq!(String::from_utf8_lossy(&o.stdout), named);
    assert!(String::from_utf8_lossy(&o.stdout).contains("ret i32 7"));
    // A shell's `{ read line; mem2reg; } < in.ll`: only what is left is read.
    let mut f = std::fs::File::open(&path).unwrap();
    f.seek(SeekFrom::Start(first.len() as u64)).unwrap();
    let o = run_with_stdin(&["-passes="], f);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        format!("{STDIN_HEADER}{second}")
    );
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
    // LLVM 19 folds phi(%a, undef) to %a (the default, opt-19's bytes); newer LLVM keeps it,
    // as %a may be poison.
    assert_eq!(phi(&[]), "");
    assert_eq!(phi(&["--uninit=undef"]), "");
    let kept = "%x.0 = phi i32 [ %a, %then ], [ undef, %entry ]";
    assert_eq!(phi(&["--uninit=undef", "--undef-rules=newer"]), kept);
    assert_eq!(
        phi(&["-uninit", "zero"]),
        "%x.0 = phi i32 [ %a, %then ], [ 0, %entry ]"
    );
    assert_eq!(
        phi(&["--uninit=freeze"]),
        "%x.0 = phi i32 [ %a, %then ], [ %x.fr, %entry ]"
    );
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
fn undef_rules_choose_llvm_19_or_newer() {
    let out = |args: &[&str], src: &[u8]| -> String {
        let o = run(args, src);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    // phi(%a, undef), %a an argument that may be poison.
    let phis = |args: &[&str]| out(args, READ_BEFORE_STORE).matches(" = phi ").count();
    assert_eq!(phis(&[]), 0);
    assert_eq!(phis(&["--undef-rules=auto"]), 0);
    assert_eq!(phis(&["--undef-rules=llvm19"]), 0);
    assert_eq!(phis(&["--undef-rules=newer"]), 1);
    assert_eq!(phis(&["-undef-rules", "newer"]), 1);
    // A module written for LLVM 22 (one-operand lifetime markers) gets the newer rules.
    let mut newer = READ_BEFORE_STORE.to_vec();
    newer.extend_from_slice(b"declare void @llvm.lifetime.start.p0(ptr)\n");
    assert_eq!(out(&[], &newer).matches(" = phi ").count(), 1);
    assert_eq!(
        out(&["--undef-rules=llvm19"], &newer)
            .matches(" = phi ")
            .count(),
        0
    );
    for bad in [
        &["--undef-rules=llvm20"][..],
        &["--undef-rules"],
        &["--undef-rules="],
    ] {
        let o = run(bad, b"");
        assert_eq!(o.status.code(), Some(2), "{bad:?}");
        assert!(stderr(&o).starts_with("mem2reg: "), "{}", stderr(&o));
    }
    let o = run(&["--undef-rules=strict"], b"");
    assert!(
        stderr(&o).contains("--undef-rules: unknown value 'strict' (auto, llvm19, newer)"),
        "{}",
        stderr(&o)
    );
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
    assert!(
        out.contains("%x = alloca") && !out.contains("%y = alloca"),
        "{out}"
    );
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
        assert!(
            out.contains("%p.val = load i32, ptr %p, align 4\n  ret i32 %p.val"),
            "{out}"
        );
    }
}

const TWO_FUNCS: &str = "\
define i32 @f(i32 %a) {
entry:
  %x = alloca i32
  store i32 %a, ptr %x
  %v = load i32, ptr %x
  ret i32 %v
}

define i32 @g(i32 %a) {
  ret i32 %a
}
";

#[test]
fn help_lists_every_pass_and_says_what_explain_does() {
    let o = run(&["--help"], b"");
    let help = String::from_utf8_lossy(&o.stdout).into_owned();
    for pass in [
        "mem2reg",
        "verify",
        "require<verify>",
        "phi-elim",
        "reg2mem",
        "debugify",
        "check-debugify",
        "print<domtree>",
        "print<domfrontier>",
        "dot-cfg",
        "dot-cfg-only",
        "dot-dom",
        "dot-dom-only",
        "analyses",
    ] {
        assert!(
            help.contains(&format!("\n  {pass} "))
                || help.contains(&format!("\n  {pass},"))
                || help.contains(&format!(", {pass} ")),
            "{pass} missing:\n{help}"
        );
        // Every pass --help names is one --passes= accepts.
        let o = run(&[&format!("--passes={pass}"), "-disable-output"], b"");
        assert!(o.status.success(), "{pass}: {}", stderr(&o));
    }
    assert!(help.contains("Explain every slot mem2reg saw"), "{help}");
    assert!(!help.contains("per slot left in memory"), "{help}");
}

#[test]
fn double_dash_ends_the_options() {
    let d = scratch("double-dash");
    std::fs::write(d.join("-odd-name.ll"), TWO_FUNCS).unwrap();
    let o = bin()
        .current_dir(&d)
        .args(["--", "-odd-name.ll"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("define i32 @f(i32 %a)") && !out.contains("alloca"),
        "{out}"
    );
    // Without `--` it is an unknown option.
    let o = bin().current_dir(&d).arg("-odd-name.ll").output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).starts_with("mem2reg: unknown option '-odd-name.ll'"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn stats_show_only_nonzero_counters_of_passes_that_ran() {
    let o = run(&["--stats", "-disable-output"], TWO_FUNCS.as_bytes());
    assert!(o.status.success());
    assert_eq!(
        stderr(&o),
        "===-------------------------------------------------------------------------===\n                          ... Statistics Collected ...\n===-------------------------------------------------------------------------===\n\n\
         1 mem2reg - Number of loads removed\n\
         1 mem2reg - Number of alloca's promoted\n\
         1 mem2reg - Number of alloca's promoted with a single store\n\
         1 mem2reg - Number of stores removed\n\n"
    );
    // phi-elim and reg2mem did not run: no rows of theirs. Nothing counted: no table.
    let o = run(
        &["-stats", "--passes=verify", "-disable-output"],
        TWO_FUNCS.as_bytes(),
    );
    assert!(o.status.success());
    assert_eq!(stderr(&o), "");
    let o = run(&["-stats", "--passes=reg2mem", "-disable-output"], b"define i32 @h(i1 %c) {\nentry:\n  br i1 %c, label %a, label %b\na:\n  br label %b\nb:\n  %p = phi i32 [ 1, %entry ], [ 2, %a ]\n  ret i32 %p\n}\n");
    let e = stderr(&o);
    assert!(
        e.contains(" reg2mem - Number of phi-nodes demoted\n"),
        "{e}"
    );
    assert!(!e.contains("mem2reg ") && !e.contains("phi-elim"), "{e}");
}

#[test]
fn print_copies_without_phi_elim_is_a_usage_error() {
    for (flag, shown) in [
        ("--print-copies", "--print-copies"),
        ("-print-copies", "-print-copies"),
    ] {
        let o = run(&[flag, "--passes=mem2reg"], TWO_FUNCS.as_bytes());
        assert_eq!(o.status.code(), Some(2));
        assert!(stderr(&o).starts_with(&format!("mem2reg: {shown} lists phi-elim's copies, but the pipeline 'mem2reg' has no phi-elim\n")), "{}", stderr(&o));
    }
    let o = run(
        &["--print-copies", "--passes=mem2reg,phi-elim"],
        TWO_FUNCS.as_bytes(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn print_before_and_after_all_dump_as_opt_does() {
    // The text opt-19 writes for `-passes=mem2reg,verify -print-before-all -print-after-all`.
    let o = run(
        &[
            "-passes=mem2reg,verify",
            "-print-before-all",
            "-print-after-all",
            "-disable-output",
        ],
        TWO_FUNCS.as_bytes(),
    );
    assert!(o.status.success());
    assert_eq!(
        stderr(&o),
        "; *** IR Dump Before PromotePass on f ***\ndefine i32 @f(i32 %a) {\nentry:\n  %x = alloca i32, align 4\n  store i32 %a, ptr %x, align 4\n  %v = load i32, ptr %x, align 4\n  ret i32 %v\n}\n\
         ; *** IR Dump After PromotePass on f ***\ndefine i32 @f(i32 %a) {\nentry:\n  ret i32 %a\n}\n\
         ; *** IR Dump Before PromotePass on g ***\ndefine i32 @g(i32 %a) {\n  ret i32 %a\n}\n\
         ; *** IR Dump After PromotePass on g ***\ndefine i32 @g(i32 %a) {\n  ret i32 %a\n}\n"
    );
    // A module pass dumps the module.
    let o = run(
        &["-passes=debugify", "--print-after-all", "-disable-output"],
        TWO_FUNCS.as_bytes(),
    );
    let e = stderr(&o);
    assert!(
        e.starts_with("; *** IR Dump After NewPMDebugifyPass on [module] ***\n"),
        "{e}"
    );
    assert!(e.contains("!llvm.debugify"), "{e}");
}

#[test]
fn debug_pass_manager_names_the_passes_as_they_run() {
    let o = run(
        &[
            "-passes=mem2reg,verify",
            "-debug-pass-manager",
            "-disable-output",
        ],
        TWO_FUNCS.as_bytes(),
    );
    assert!(o.status.success());
    assert_eq!(
        stderr(&o),
        "Running pass: PromotePass on f (4 instructions)\n\
         Running pass: VerifierPass on f (1 instruction)\n\
         Running pass: PromotePass on g (1 instruction)\n\
         Running pass: VerifierPass on g (1 instruction)\n"
    );
    let o = run(
        &[
            "-passes=debugify,check-debugify",
            "--debug-pass-manager",
            "-disable-output",
        ],
        TWO_FUNCS.as_bytes(),
    );
    let e = stderr(&o);
    assert!(
        e.starts_with("Running pass: NewPMDebugifyPass on [module]\n"),
        "{e}"
    );
    assert!(
        e.contains("Running pass: NewPMCheckDebugifyPass on [module]\n"),
        "{e}"
    );
}

#[test]
fn explain_and_remarks_list_slots_in_source_order() {
    // %late is promoted by the general path, %early stays in memory, %mid is dead:
    // mem2reg decides them in another order, --explain lists them as the source does.
    let src = "\
declare void @use(ptr)

define i32 @f(i1 %c) {
entry:
  %early = alloca i32
  %mid = alloca i32
  %late = alloca i32
  call void @use(ptr %early)
  store i32 1, ptr %late
  br i1 %c, label %a, label %b
a:
  store i32 2, ptr %late
  br label %b
b:
  %v = load i32, ptr %late
  ret i32 %v
}
";
    let d = scratch("explain-order");
    let yaml = d.join("r.yaml");
    let o = run(
        &[
            "--explain",
            "-disable-output",
            &format!("-pass-remarks-output={}", yaml.display()),
        ],
        src.as_bytes(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let heads: Vec<String> = stderr(&o)
        .lines()
        .filter(|l| !l.starts_with(' '))
        .map(|l| l.split(": ").take(2).collect::<Vec<_>>().join(": "))
        .collect();
    assert_eq!(heads, ["f: %early", "f: %mid", "f: %late"]);
    let yaml = std::fs::read_to_string(&yaml).unwrap();
    assert!(yaml.contains("Alloca:          '%early'"), "{yaml}");
}

#[test]
fn messages_name_options_as_typed() {
    for (arg, shown) in [
        ("--max-slot-size=x", "--max-slot-size needs a number"),
        ("-max-slot-size=x", "-max-slot-size needs a number"),
        ("--threads=0", "--threads needs a positive number"),
        ("-threads=0", "-threads needs a positive number"),
        ("-ssa=odd", "-ssa: unknown flavour 'odd'"),
        ("--uninit=odd", "--uninit: unknown value 'odd'"),
        ("--bogus", "unknown option '--bogus'"),
        ("-bogus", "unknown option '-bogus'"),
    ] {
        let o = run(&[arg], b"");
        assert_eq!(o.status.code(), Some(2), "{arg}");
        assert!(
            stderr(&o).starts_with(&format!("mem2reg: {shown}")),
            "{arg}: {}",
            stderr(&o)
        );
    }
    let o = run(&["--phi-copy-limit"], b"");
    assert!(
        stderr(&o).starts_with("mem2reg: option '--phi-copy-limit' needs a value"),
        "{}",
        stderr(&o)
    );
}

/// Runs `opt-19` (when installed) with `args` on `stdin`; its stdout.
fn opt19(args: &[&str], stdin: &[u8]) -> Option<Vec<u8>> {
    use std::io::Write;
    let mut child = Command::new("opt-19")
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .ok()?;
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "opt-19 {args:?} fails");
    Some(o.stdout)
}

#[test]
fn output_starts_like_opts() {
    // The empty module, from stdin and by path; a module whose source_filename is given.
    let empty = run(&["-passes=mem2reg"], b"");
    assert!(empty.status.success());
    assert_eq!(
        String::from_utf8_lossy(&empty.stdout),
        STDIN_HEADER.trim_end_matches('\n').to_string() + "\n"
    );
    let d = scratch("header");
    let f = d.join("we\"ird\\x.ll");
    std::fs::write(&f, "").unwrap();
    let o = bin().arg(&f).output().unwrap();
    let shown = f.to_str().unwrap();
    let escaped = shown.replace('\\', "\\\\").replace('"', "\\22");
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        format!("; ModuleID = '{shown}'\nsource_filename = \"{escaped}\"\n")
    );
    let named = b"source_filename = \"x.c\"\ndefine void @g() {\n  ret void\n}\n";
    let o = run(&["-passes="], named);
    let want =
        "; ModuleID = '<stdin>'\nsource_filename = \"x.c\"\n\ndefine void @g() {\n  ret void\n}\n";
    assert_eq!(String::from_utf8_lossy(&o.stdout), want);
    if let Some(opt) = opt19(&["-S"], named) {
        assert_eq!(String::from_utf8_lossy(&opt), want);
        assert_eq!(
            opt19(&["-passes=mem2reg", "-S"], b"").unwrap(),
            empty.stdout
        );
    }
    std::fs::remove_dir_all(&d).unwrap();
}
