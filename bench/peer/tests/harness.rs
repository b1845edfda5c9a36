//! The harness itself: replay delivers scripts exactly (checked with the recording stub, which is
//! not ours), the validator rejects malformed scripts, and timing/report/CLI helpers behave.

use std::time::Duration;

use peer_bench::cli;
use peer_bench::frontend::replay;
use peer_bench::measure::{measure, measure_pair, median, Policy};
use peer_bench::recording_stub::RecordingStub;
use peer_bench::report::per_4x;
use peer_bench::script::{Script, ScriptWriter};
use peer_bench::shapes::Shape;
use peer_bench::validate::validate;

#[test]
fn replay_delivers_every_op_in_order() {
    for shape in Shape::ALL {
        let script = shape.script(shape.small_size());
        assert_eq!(
            replay(&script, RecordingStub::new()),
            script,
            "{}",
            shape.name()
        );
    }
}

/// entry -> b, with a variable defined in entry and returned from b; `tweak` may break it.
fn tiny(tweak: impl FnOnce(&mut ScriptWriter, &mut Vec<&'static str>)) -> Script {
    let mut w = ScriptWriter::new();
    let mut skip = Vec::new();
    tweak(&mut w, &mut skip);
    w.begin_entry();
    let x = w.declare_var();
    let k = w.iconst(1);
    w.def_var(x, k);
    let b = w.create_block();
    w.jump(b);
    w.switch_to_block(b);
    if !skip.contains(&"seal") {
        w.seal_block(b);
    }
    let v = w.use_var(x);
    if skip.contains(&"late seal") {
        w.seal_block(b);
    }
    if !skip.contains(&"return") {
        w.ret(v);
    }
    w.finish()
}

#[test]
fn validator_accepts_the_tiny_script() {
    validate(&tiny(|_, _| {})).unwrap();
}

#[test]
fn validator_rejects_broken_scripts() {
    for flaw in ["seal", "return"] {
        assert!(
            validate(&tiny(|_, s| s.push(flaw))).is_err(),
            "missing {flaw} accepted"
        );
    }
    let late = tiny(|_, s| s.extend(["seal", "late seal"]));
    assert!(validate(&late).unwrap_err().reason.contains("sealed late"));
}

#[test]
fn validator_rejects_double_seal_branch_to_sealed_and_bad_kinds() {
    let mut s = tiny(|_, _| {});
    s.ops.insert(
        3,
        peer_bench::script::Op::SealBlock(peer_bench::script::BlockId(0)),
    );
    assert!(validate(&s).unwrap_err().reason.contains("sealed twice"));

    let mut w = ScriptWriter::new();
    w.begin_entry();
    let a = w.iconst(1);
    let c = w.icmp_slt(a, a);
    w.iadd(c, a);
    assert!(validate(&w.finish())
        .unwrap_err()
        .reason
        .contains("expected Int"));

    let mut w = ScriptWriter::new();
    let b = w.create_block();
    w.switch_to_block(b);
    w.seal_block(b);
    let x = w.iconst(0);
    let next = w.create_block();
    w.seal_block(next);
    w.jump(next);
    assert!(validate(&w.finish())
        .unwrap_err()
        .reason
        .contains("sealed block"));
    let _ = x;
}

#[test]
fn median_and_growth_arithmetic() {
    let ms = Duration::from_millis;
    assert_eq!(median(&mut [ms(5), ms(1), ms(3)]), ms(3));
    assert_eq!(
        median(&mut [ms(4), ms(1), ms(2), ms(3)]),
        Duration::from_micros(2500)
    );
    assert!((per_4x(1.0, 4.0, 1000, 4000) - 4.0).abs() < 1e-9);
    assert!((per_4x(1.0, 16.0, 1000, 16000) - 4.0).abs() < 1e-9);
    assert!((per_4x(2.0, 2.0, 10, 20) - 1.0).abs() < 1e-9);
}

#[test]
fn measure_times_at_least_min_runs() {
    let policy = Policy {
        min_runs: 5,
        min_total: Duration::ZERO,
        max_runs: 10,
        max_total: Duration::from_secs(3600),
    };
    let mut calls = 0;
    let s = measure(&policy, || {
        calls += 1;
        Duration::from_nanos(calls)
    });
    assert_eq!((s.runs, calls), (5, 6), "5 timed runs after one warm-up");
}

#[test]
fn measure_stops_at_max_total() {
    let policy = Policy {
        min_runs: 5,
        min_total: Duration::ZERO,
        max_runs: 10,
        max_total: Duration::from_secs(10),
    };
    let mut calls = 0;
    let s = measure(&policy, || {
        calls += 1;
        Duration::from_secs(6)
    });
    assert_eq!((s.runs, calls), (2, 3), "6 s runs: two reach 10 s");
    let (a, b) = measure_pair(
        &policy,
        || Duration::from_secs(20),
        || Duration::from_millis(1),
    );
    assert_eq!(
        (a.runs, b.runs),
        (1, 5),
        "a 20 s warm-up is the one timed run"
    );
}

#[test]
fn cli_parses_flags() {
    let args = [
        "--shapes",
        "nest,switch",
        "--sizes=10,40",
        "--runs",
        "7",
        "--json",
    ];
    let o = cli::parse(args.map(String::from)).unwrap();
    assert_eq!(o.shapes, vec![Shape::Nest, Shape::Switch]);
    assert_eq!(o.cases().len(), 4);
    assert_eq!(o.policy.min_runs, 7);
    assert!(o.json);
    assert!(cli::parse(["--shapes=bogus".to_string()]).is_err());
    assert_eq!(cli::Options::default().cases().len(), 15);
}
