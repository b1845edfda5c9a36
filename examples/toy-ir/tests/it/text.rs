//! The text form: printer/parser round trip (literal and generated programs) and parse errors
//! with their positions.

use toy_ir::gen::{self, ssa::Style, Config};
use toy_ir::{parse, samples, Block, BlockData, Function, Inst, Operand, Target, Temp, Term, Var};

fn round_trip(f: &Function) {
    let text = f.to_string();
    let back = parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(&back, f, "{text}");
}

#[test]
fn samples_print_back_as_written() {
    for s in samples::ALL {
        let f = parse(s.text).unwrap();
        assert_eq!(f.to_string(), s.text, "{}", s.name);
        round_trip(&f);
    }
}

#[test]
fn every_construct_round_trips() {
    let t = Temp;
    let f = Function {
        params: vec![t(0), t(1)],
        blocks: vec![
            BlockData {
                insts: vec![
                    Inst::Const {
                        dst: t(2),
                        value: i64::MIN,
                    },
                    Inst::Read {
                        dst: t(3),
                        var: Var(4),
                    },
                    Inst::Write {
                        var: Var(0),
                        src: Operand::Imm(-5),
                    },
                    Inst::Copy {
                        dst: t(4),
                        src: t(3).into(),
                    },
                    Inst::Print {
                        src: Operand::Imm(i64::MAX),
                    },
                ],
                term: Some(Term::Switch {
                    value: t(0).into(),
                    cases: vec![
                        (-1, Target::new(Block(1))),
                        (
                            7,
                            Target {
                                block: Block(2),
                                args: vec![t(2).into(), 3.into()],
                            },
                        ),
                    ],
                    default: Target::new(Block(1)),
                }),
                ..BlockData::default()
            },
            BlockData {
                insts: vec![Inst::Phi {
                    dst: t(5),
                    args: vec![(Block(0), 1.into()), (Block(0), 1.into())],
                }],
                term: Some(Term::Branch {
                    cond: t(5).into(),
                    then_to: Target::new(Block(2)),
                    else_to: Target {
                        block: Block(2),
                        args: vec![9.into(), t(5).into()],
                    },
                }),
                synthetic: true,
                ..BlockData::default()
            },
            BlockData {
                params: vec![t(6), t(7)],
                insts: vec![],
                term: None,
                synthetic: false,
            },
            BlockData {
                params: vec![],
                insts: vec![Inst::Phi {
                    dst: t(8),
                    args: vec![],
                }],
                term: Some(Term::Return(t(8).into())),
                synthetic: false,
            },
        ],
    };
    round_trip(&f);
    for op in toy_ir::BinOp::ALL {
        let inst = Inst::Binary {
            op,
            dst: t(1),
            a: t(0).into(),
            b: (-2).into(),
        };
        let block = BlockData {
            insts: vec![inst],
            term: Some(Term::Jump(Target::new(Block(0)))),
            ..BlockData::default()
        };
        round_trip(&Function {
            params: vec![t(0)],
            blocks: vec![block],
        });
    }
}

#[test]
fn comments_and_blank_lines_are_ignored() {
    let f = parse("; header\n\nb0:   ; entry\n\n  t0 = const 1 ; one\n  ret t0\n\n").unwrap();
    assert_eq!(f.to_string(), "b0:\n  t0 = const 1\n  ret t0\n");
}

#[test]
fn generated_programs_round_trip() {
    arbtest::arbtest(|u| {
        let cfg = Config {
            wild_back_edges: u.arbitrary()?,
            ..Config::default()
        };
        let f = match u.int_in_range(0..=3)? {
            0 => gen::vars::function(u, &cfg)?,
            1 => gen::ssa::function(u, &cfg, Style::Phis)?,
            2 => gen::ssa::function(u, &cfg, Style::BlockParams)?,
            _ => gen::ssa::function(u, &cfg, Style::Mixed)?,
        };
        round_trip(&f);
        Ok(())
    })
    .budget_ms(1_000);
}

fn error_at(text: &str) -> (u32, u32, String) {
    let e = parse(text).expect_err(text);
    assert_eq!(
        e.to_string(),
        format!("{}:{}: {}", e.line, e.col, e.message)
    );
    (e.line, e.col, e.message)
}

#[test]
fn parse_errors_carry_line_and_column() {
    let cases: &[(&str, u32, u32, &str)] = &[
        ("b1:\n  ret 0\n", 1, 1, "expected block label b0"),
        ("b0:\n  ret 0\nb2:\n", 3, 1, "expected block label b1"),
        ("b0:\n  t0 = frob 1, 2\n", 2, 8, "unknown opcode 'frob'"),
        ("b0:\n  t0 = add 1 2\n", 2, 14, "expected ','"),
        ("b0:\n  t0 = const x\n", 2, 14, "expected an integer"),
        ("b0:\n  jump 3\n", 2, 8, "expected a block (bN)"),
        (
            "b0:\n  ret 0\n  print 1\n",
            3,
            3,
            "instruction after the block's terminator",
        ),
        (
            "b0:\n  print 99999999999999999999\n",
            2,
            9,
            "integer 99999999999999999999 out of range",
        ),
        ("b0:\n  print 1 2\n", 2, 11, "expected the end of the line"),
        ("b0:\n  t0 = read t1\n", 2, 13, "expected a variable (vN)"),
        ("b0:\n  print #\n", 2, 9, "unexpected character '#'"),
        ("b0:\n  print -\n", 2, 9, "expected a digit after '-'"),
        ("b0:\n  t0 = phi [b0 1]\n", 2, 16, "expected ':'"),
        (
            "b0:\n  switch 1, [1: b0], b0\n",
            2,
            22,
            "expected 'default'",
        ),
        ("b0(t0:\n", 1, 6, "expected ','"),
        ("fn(t0\nb0:\n", 1, 6, "expected ','"),
        (
            "b0:\n  = 1\n",
            2,
            3,
            "expected an instruction, a terminator or a block label",
        ),
        (
            "b0:\n  t99999999999 = const 1\n",
            2,
            3,
            "expected an instruction",
        ),
    ];
    for &(text, line, col, msg) in cases {
        let (l, c, m) = error_at(text);
        assert!(m.starts_with(msg), "{text:?}: got {m:?}, want {msg:?}");
        assert_eq!((l, c), (line, col), "{text:?}: {m}");
    }
}

/// Random lines, mostly well-formed one by one but not together: unknown temps, phis in the
/// wrong place, bad targets, missing terminators, synthetic cycles...
fn random_lines(u: &mut arbitrary::Unstructured) -> arbitrary::Result<String> {
    let mut text = String::from("b0:\n");
    let mut next_block = 1;
    for _ in 0..u.int_in_range(0..=25)? {
        let (i, j, k) = (
            u.int_in_range(0..=4)?,
            u.int_in_range(0..=4)?,
            u.int_in_range(0..=4)?,
        );
        let line = match u.int_in_range(0..=13)? {
            0..=2 => {
                next_block += 1;
                let header = ["", "(t5)", " synthetic", "(t6, t7) synthetic"];
                format!("b{}{}:", next_block - 1, u.choose(&header)?)
            }
            3 => format!("  t{i} = phi [b{j}: t{k}], [b{k}: {j}]"),
            4 => format!("  jump b{j}"),
            5 => format!("  br t{i}, b{j}, b{k}(t{i})"),
            6 => format!("  t{i} = div t{j}, {k}"),
            7 => format!("  print t{i}"),
            8 => format!("  ret t{i}"),
            9 => format!("  write v{j}, t{i}"),
            10 => format!("  t{i} = read v{j}"),
            11 => format!("  switch t{i}, [1: b{j}, 1: b{k}], default b{k}(7)"),
            12 => format!("  t{i} = copy {j}"),
            _ => (*u.choose(&["fn(t0)", "  t1 = const -9", "b9:", "  ret", "; note", ""])?).into(),
        };
        text.push_str(&line);
        text.push('\n');
    }
    Ok(text)
}

#[test]
fn arbitrary_text_never_panics_anywhere() {
    arbtest::arbtest(|u| {
        let text = random_lines(u)?;
        if let Ok(f) = parse(&text) {
            round_trip(&f);
            // Malformed IR is reported, never a panic.
            let _ = (toy_ir::verify(&f), toy_ir::verify_ssa(&f));
            let _ = toy_ir::run(&f, &vec![0; f.params.len()], 50);
        }
        Ok(())
    })
    .budget_ms(500);
}
