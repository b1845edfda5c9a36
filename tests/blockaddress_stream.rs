//! Modules with `blockaddress` stream like any other (see `src/driver.rs`): the streamed output
//! must equal the whole-module path's (read everything, run the pipeline, print the module)
//! byte for byte, whatever the thread count, with references forward (module text and
//! functions before the function they name), backward (named blocks of earlier functions)
//! and inside a function to its own blocks; a failing function still gives the error a
//! sequential run gives.

use std::sync::Arc;

use mem2reg::driver::{run_job, JobError, JobOptions};
use mem2reg::pipeline::{self, RunOptions};

/// A module of `n` functions, each with numbered blocks its loads and stores push apart (so
/// mem2reg renumbers them), a table before every function naming some of them, calls to
/// earlier functions' named blocks, and a table at the end.
fn module(n: usize) -> String {
    let mut s = String::new();
    let mut table: Vec<String> = Vec::new();
    for k in (0..n).step_by(3) {
        table.push(format!("ptr blockaddress(@f{k}, %5)"));
    }
    s += &format!(
        "@table = internal constant [{} x ptr] [{}]\n\n",
        table.len(),
        table.join(", ")
    );
    for k in 0..n {
        // The previous function's named block (backward), the next one's numbered block
        // (forward, allowed before that function is defined), this one's own block.
        let back = if k > 0 {
            format!("blockaddress(@f{}, %named)", k - 1)
        } else {
            "null".into()
        };
        let fwd = if k + 1 < n {
            format!("blockaddress(@f{}, %5)", k + 1)
        } else {
            "null".into()
        };
        s += &format!(
            "define ptr @f{k}(i32 %x) {{
  %2 = alloca i32, align 4
  %3 = alloca ptr, align 8
  store i32 %x, ptr %2, align 4
  store ptr {back}, ptr %3, align 8
  %4 = load i32, ptr %2, align 4
  br label %5

5:
  %6 = load i32, ptr %2, align 4
  %7 = icmp eq i32 %6, {k}
  %8 = select i1 %7, ptr blockaddress(@f{k}, %named), ptr {fwd}
  indirectbr ptr %8, [label %named, label %5, label %9]

named:
  %v = load ptr, ptr %3, align 8
  ret ptr %v

9:
  %10 = load i32, ptr %2, align 4
  ret ptr blockaddress(@f{k}, %9)
}}

"
        );
    }
    s += "@back = internal constant [2 x ptr] [ptr blockaddress(@f0, %named), ptr @f0]\n";
    s
}

fn options(passes: &str, threads: usize) -> JobOptions {
    JobOptions {
        passes: pipeline::parse_pipeline(passes).unwrap(),
        run: RunOptions {
            threads: pipeline::Threads::new(threads),
            ..Default::default()
        },
        verify_input: true,
        print: true,
        module_id: Some("<stdin>".into()),
    }
}

fn streamed(src: &str, passes: &str, threads: usize) -> Result<Vec<u8>, JobError> {
    let mut out = Vec::new();
    run_job(
        Arc::from(src.as_bytes()),
        &options(passes, threads),
        &mut out,
    )?;
    Ok(out)
}

fn whole(src: &str, passes: &str) -> Vec<u8> {
    let mut m = mem2reg::text::parse(Arc::from(src.as_bytes())).expect("reads");
    let opts = options(passes, 1);
    pipeline::run(&mut m, &opts.passes, &opts.run).expect("runs");
    m.id = opts.module_id.clone();
    llvm_ir::print::module_writer::write_module(&m, llvm_ir::Threads::ONE)
}

#[test]
fn streamed_equals_whole_module() {
    for n in [1, 2, 7, 150] {
        let src = module(n);
        for passes in ["mem2reg", "mem2reg,phi-elim", ""] {
            let want = whole(&src, passes);
            for threads in [1, 2, 4] {
                let got = streamed(&src, passes, threads).expect("runs");
                assert!(
                    got == want,
                    "n={n} passes={passes:?} threads={threads}:\n{}",
                    String::from_utf8_lossy(&got)
                );
            }
        }
    }
    // The references really were renumbered: %5 and %9 become %1 and %4.
    let text = String::from_utf8(whole(&module(2), "mem2reg")).unwrap();
    assert!(
        text.contains("@table = internal constant [1 x ptr] [ptr blockaddress(@f0, %1)]"),
        "{text}"
    );
    assert!(text.contains("ret ptr blockaddress(@f1, %4)"), "{text}");
}

#[test]
fn a_failing_target_reports_what_a_sequential_run_reports() {
    let src = module(40);
    // A parse error in a late target, and an earlier one in a function the table does not
    // name: the earlier one is reported, as a sequential reader stops there.
    let late = src.replace("icmp eq i32 %6, 37", "icmp eq i32 %6, bogus");
    let early = late.replace("icmp eq i32 %6, 4\n", "icmp eq i32 %6, also_bogus\n");
    for threads in [1, 2, 4] {
        for (text, wanted) in [(&late, "bogus"), (&early, "also_bogus")] {
            match streamed(text, "mem2reg", threads) {
                Err(JobError::Parse(e)) => {
                    let shown = e.render("x.ll");
                    assert!(shown.contains(wanted), "threads={threads}: {shown}");
                    if wanted == "bogus" {
                        assert!(!shown.contains("also_bogus"), "{shown}");
                    }
                }
                other => panic!("threads={threads}: {:?}", other.map(|_| ())),
            }
        }
    }
}

/// LLVM reads `blockaddress (@f, %N)` with blanks before the parenthesis: the scans that find
/// the functions a `blockaddress` names must too, or a forward use of a block fails to read
/// and a numbered block is not renumbered. A comment in that place is refused with a clear
/// error (LLVM reads it; no printer writes it).
#[test]
fn blockaddress_with_blanks_before_its_parenthesis() {
    let src = "@t = global ptr blockaddress \t(@f, %l2)\n\
               define ptr @f(i32 %x) {\n\
               entry:\n  %a = alloca i32\n  store i32 %x, ptr %a\n  br label %1\n\
               1:\n  br label %l2\n\
               l2:\n  %v = load i32, ptr %a\n  ret ptr blockaddress\n  (@f, %1)\n}\n";
    let want = whole(src, "mem2reg");
    let text = String::from_utf8(want.clone()).unwrap();
    assert!(text.contains("ret ptr blockaddress\n  (@f, %0)"), "{text}");
    for threads in [1, 2] {
        assert_eq!(streamed(src, "mem2reg", threads).expect("runs"), want);
    }
    let commented = src.replace("blockaddress\n  (@f", "blockaddress ; c\n (@f");
    match streamed(&commented, "mem2reg", 1) {
        Err(JobError::Parse(e)) => {
            let shown = e.render("x.ll");
            assert!(
                shown.contains(
                    "x.ll:12:2: error: a comment between 'blockaddress' and '(' is not supported"
                ),
                "{shown}"
            );
        }
        other => panic!("{:?}", other.map(|_| ())),
    }
}
