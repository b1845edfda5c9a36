//! Parsing: the accepted syntax, errors with positions and caret rendering, and deep nesting
//! (no stack overflow: either accepted within the limit or a positioned error).

use while_lang::{parse, BinaryOp, Expr, Program, Stmt, UnaryOp, MAX_DEPTH};

fn num(v: i64) -> Expr {
    Expr::Num(v)
}

fn var(x: &str) -> Expr {
    Expr::Var(x.into())
}

fn bin(op: BinaryOp, a: Expr, b: Expr) -> Expr {
    Expr::Binary(op, Box::new(a), Box::new(b))
}

#[test]
fn precedence_and_associativity() {
    let p = parse("x = 1 - 2 - 3 * -4 < 5 == !y || z && w % (1 + 2);").unwrap();
    use BinaryOp::*;
    let lhs = bin(Sub, bin(Sub, num(1), num(2)), bin(Mul, num(3), num(-4)));
    let cmp = bin(
        Eq,
        bin(Lt, lhs, num(5)),
        Expr::Unary(UnaryOp::Not, Box::new(var("y"))),
    );
    let rhs = bin(And, var("z"), bin(Rem, var("w"), bin(Add, num(1), num(2))));
    assert_eq!(p.body, [Stmt::Assign("x".into(), bin(Or, cmp, rhs))]);
}

#[test]
fn negative_literals_and_negations() {
    let p = parse("x = -9223372036854775808; y = -(5); z = - -5; w = --v;").unwrap();
    let neg = |e| Expr::Unary(UnaryOp::Neg, Box::new(e));
    let want = [
        Stmt::Assign("x".into(), num(i64::MIN)),
        Stmt::Assign("y".into(), neg(num(5))),
        Stmt::Assign("z".into(), neg(num(-5))),
        Stmt::Assign("w".into(), neg(neg(var("v")))),
    ];
    assert_eq!(p.body, want);
}

#[test]
fn else_if_is_sugar_for_a_nested_if() {
    let a = parse("if (a) { print 1; } else if (b) { print 2; } else { print 3; }").unwrap();
    let b = parse("if (a) { print 1; } else { if (b) { print 2; } else { print 3; } }").unwrap();
    assert_eq!(a, b);
}

#[test]
fn comments_and_whitespace() {
    let p = parse("// leading\nx\t=  1; // trailing\n\n").unwrap();
    assert_eq!(p.body, [Stmt::Assign("x".into(), num(1))]);
    assert_eq!(parse("").unwrap(), Program::default());
}

fn error(src: &str) -> (u32, u32, String) {
    let e = parse(src).expect_err(src);
    (e.line, e.col, e.message)
}

#[test]
fn errors_carry_line_and_column() {
    let cases: &[(&str, u32, u32, &str)] = &[
        ("x = 1\ny = 2;", 1, 6, "expected ';'"),
        ("x = ;", 1, 5, "expected an expression"),
        ("x 1;", 1, 3, "expected '='"),
        ("if x) {}", 1, 4, "expected '('"),
        ("if (x {}", 1, 7, "expected ')'"),
        ("while (x) { print x;", 1, 21, "expected '}'"),
        ("while (x) print x;", 1, 11, "expected '{'"),
        ("}", 1, 1, "expected a statement"),
        ("else { }", 1, 1, "unexpected 'else'"),
        ("if (a) {\n  break;\n}", 2, 3, "'break' outside of a loop"),
        ("continue;", 1, 1, "'continue' outside of a loop"),
        (
            "x = 9223372036854775808;",
            1,
            5,
            "integer literal 9223372036854775808 is too large",
        ),
        (
            "x = 99999999999999999999;",
            1,
            5,
            "integer literal 99999999999999999999 is too large",
        ),
        ("x = a & b;", 1, 7, "expected '&&'"),
        ("x = a | b;", 1, 7, "expected '||'"),
        ("x = $;", 1, 5, "unexpected character '$'"),
        ("x = ((1 + 2);", 1, 13, "expected ')'"),
        ("x = (1 + 2));", 1, 12, "expected ';'"),
        ("print 1 2;", 1, 8, "expected ';'"),
        ("return", 1, 7, "expected an expression"),
    ];
    for &(src, line, col, msg) in cases {
        let (l, c, m) = error(src);
        assert_eq!((l, c, m.as_str()), (line, col, msg), "{src:?}");
    }
}

#[test]
fn errors_render_with_file_position_and_caret() {
    let src = "x = 1;\nif (x) {\n  y = x +;\n}\n";
    let e = parse(src).unwrap_err();
    assert_eq!(e.to_string(), "3:10: error: expected an expression");
    let want = "input.w:3:10: error: expected an expression\n  y = x +;\n         ^\n";
    assert_eq!(e.render("input.w", src), want);
    let tabbed = "\tx = ;";
    let rendered = parse(tabbed).unwrap_err().render("t.w", tabbed);
    assert_eq!(
        rendered,
        "t.w:1:6: error: expected an expression\n\tx = ;\n\t    ^\n"
    );
}

fn nested_ifs(levels: usize) -> String {
    format!(
        "{}x = 1;{}",
        "if (1) { ".repeat(levels),
        " }".repeat(levels)
    )
}

#[test]
fn statement_nesting_up_to_the_limit_is_accepted() {
    // The assignment is at depth MAX_DEPTH and its expression one level deeper... so the
    // deepest accepted statement nesting leaves room for a leaf expression.
    let deepest = MAX_DEPTH as usize - 2;
    parse(&nested_ifs(deepest)).unwrap();
    let e = parse(&nested_ifs(MAX_DEPTH as usize)).unwrap_err();
    assert_eq!(
        e.message,
        format!("statements nested too deeply (limit {MAX_DEPTH})")
    );
    assert_eq!(e.line, 1);
}

#[test]
fn expression_nesting_up_to_the_limit_is_accepted() {
    // `x = e;` at depth 1 puts e's root at depth 2: MAX_DEPTH - 1 levels of expression fit.
    let levels = MAX_DEPTH as usize - 1;
    let ok = format!(
        "x = {}1{};",
        "(1 + ".repeat(levels - 1),
        ")".repeat(levels - 1)
    );
    parse(&ok).unwrap();
    let too_deep = format!("x = {}1{};", "(1 + ".repeat(levels), ")".repeat(levels));
    let e = parse(&too_deep).unwrap_err();
    assert_eq!(
        e.message,
        format!("expression nested too deeply (limit {MAX_DEPTH})")
    );
    let chain = format!("x = 1{};", " + 1".repeat(5_000));
    assert!(parse(&chain)
        .unwrap_err()
        .message
        .contains("nested too deeply"));
    let negations = format!("x = {}1;", "!".repeat(5_000));
    assert!(parse(&negations)
        .unwrap_err()
        .message
        .contains("nested too deeply"));
}

#[test]
fn absurd_nesting_is_an_error_not_a_crash() {
    let parens = format!("x = {}1{};", "(".repeat(100_000), ")".repeat(100_000));
    assert!(
        parse(&parens).is_ok(),
        "parentheses alone add no tree levels"
    );
    let blocks = format!("{}{}", "while (1) {".repeat(20_000), "}".repeat(20_000));
    assert!(parse(&blocks).is_err());
    let unclosed = "if (1) {".repeat(20_000);
    assert!(parse(&unclosed).is_err());
}
