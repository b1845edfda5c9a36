//! The parser: tokens to [`Program`].
//!
//! Statements are parsed by recursive descent, one level of recursion per nested block, and
//! expressions by operator precedence with explicit stacks (no recursion at all), so the
//! parser's stack use is bounded by [`MAX_DEPTH`] whatever the input: deeper nesting, of blocks
//! or of expressions (see [`crate::ast`] for how depth is counted), is a parse error at the
//! token that goes too deep. `break` and `continue` outside a loop are parse errors too.
//! `else if (c) { ... }` is sugar for `else { if (c) { ... } }`. A missing `;` is reported
//! just after the token it should follow.
//!
//! Grammar (`{ }` repetition, `[ ]` option):
//! ```text
//! program := { stmt }
//! stmt    := ident "=" expr ";" | "print" expr ";" | "return" expr ";" | "break" ";"
//!          | "continue" ";" | "while" "(" expr ")" block
//!          | "if" "(" expr ")" block [ "else" ( block | if-stmt ) ]
//! block   := "{" { stmt } "}"
//! expr    := unary { binop unary }          (precedence climbing, all left-associative)
//! unary   := ("-" | "!") unary | int | ident | "(" expr ")"
//! ```

use crate::ast::{BinaryOp, Expr, Program, Stmt, UnaryOp, MAX_DEPTH};
use crate::lexer::{lex, ParseError, Tok, Token};

/// Parses a whole program.
pub fn parse(src: &str) -> Result<Program, ParseError> {
    let toks = lex(src)?;
    let mut p = Parser {
        toks,
        pos: 0,
        loops: 0,
    };
    let mut body = Vec::new();
    while p.peek().tok != Tok::Eof {
        body.push(p.stmt(1)?);
    }
    Ok(Program { body })
}

struct Parser {
    toks: Vec<Token>,
    pos: usize,
    /// Enclosing loops of the statement being parsed.
    loops: u32,
}

/// An operator waiting on the expression stack, with its token index for errors.
enum Pending {
    Unary(UnaryOp, usize),
    Binary(BinaryOp, usize),
    Paren(usize),
}

impl Parser {
    fn peek(&self) -> &Token {
        &self.toks[self.pos.min(self.toks.len() - 1)]
    }

    fn advance(&mut self) {
        if self.peek().tok != Tok::Eof {
            self.pos += 1;
        }
    }

    fn error_at<T>(&self, index: usize, message: impl Into<String>) -> Result<T, ParseError> {
        let t = &self.toks[index.min(self.toks.len() - 1)];
        Err(ParseError {
            line: t.line,
            col: t.col,
            message: message.into(),
        })
    }

    fn fail<T>(&self, message: impl Into<String>) -> Result<T, ParseError> {
        self.error_at(self.pos, message)
    }

    fn is_punct(&self, p: &str) -> bool {
        matches!(&self.peek().tok, Tok::Punct(q) if *q == p)
    }

    fn expect(&mut self, p: &str) -> Result<(), ParseError> {
        if self.is_punct(p) {
            self.advance();
            return Ok(());
        }
        self.fail(format!("expected '{p}'"))
    }

    /// Expects `;`, reporting its absence just after the previous token.
    fn semicolon(&mut self) -> Result<(), ParseError> {
        if self.is_punct(";") {
            self.advance();
            return Ok(());
        }
        let prev = &self.toks[self.pos.saturating_sub(1)];
        let (line, col) = (prev.line, prev.col + prev.len);
        Err(ParseError {
            line,
            col,
            message: "expected ';'".into(),
        })
    }

    fn stmt(&mut self, depth: u32) -> Result<Stmt, ParseError> {
        if depth > MAX_DEPTH {
            return self.fail(format!("statements nested too deeply (limit {MAX_DEPTH})"));
        }
        let start = self.pos;
        let kw = match self.peek().tok.clone() {
            Tok::Kw(k) => k,
            Tok::Ident(name) => {
                self.advance();
                self.expect("=")?;
                let e = self.expr(depth + 1)?;
                self.semicolon()?;
                return Ok(Stmt::Assign(name, e));
            }
            _ => return self.fail("expected a statement"),
        };
        self.advance();
        let stmt = match kw {
            "if" => return self.if_rest(depth),
            "while" => return self.while_rest(depth),
            "print" => Stmt::Print(self.expr(depth + 1)?),
            "return" => Stmt::Return(self.expr(depth + 1)?),
            "break" | "continue" if self.loops == 0 => {
                return self.error_at(start, format!("'{kw}' outside of a loop"))
            }
            "break" => Stmt::Break,
            "continue" => Stmt::Continue,
            _ => return self.error_at(start, format!("unexpected '{kw}'")),
        };
        self.semicolon()?;
        Ok(stmt)
    }

    /// `(cond) block [else ...]`, after `if`.
    fn if_rest(&mut self, depth: u32) -> Result<Stmt, ParseError> {
        let cond = self.condition(depth)?;
        let then = self.block(depth)?;
        if self.peek().tok != Tok::Kw("else") {
            return Ok(Stmt::If(cond, then, Vec::new()));
        }
        self.advance();
        let otherwise = if self.peek().tok == Tok::Kw("if") {
            vec![self.stmt(depth + 1)?]
        } else {
            self.block(depth)?
        };
        Ok(Stmt::If(cond, then, otherwise))
    }

    /// `(cond) block`, after `while`.
    fn while_rest(&mut self, depth: u32) -> Result<Stmt, ParseError> {
        let cond = self.condition(depth)?;
        self.loops += 1;
        let body = self.block(depth);
        self.loops -= 1;
        Ok(Stmt::While(cond, body?))
    }

    fn condition(&mut self, depth: u32) -> Result<Expr, ParseError> {
        self.expect("(")?;
        let e = self.expr(depth + 1)?;
        self.expect(")")?;
        Ok(e)
    }

    /// `{ stmt* }`, the statements one level below `depth`.
    fn block(&mut self, depth: u32) -> Result<Vec<Stmt>, ParseError> {
        self.expect("{")?;
        let mut body = Vec::new();
        while !self.is_punct("}") {
            if self.peek().tok == Tok::Eof {
                return self.fail("expected '}'");
            }
            body.push(self.stmt(depth + 1)?);
        }
        self.advance();
        Ok(body)
    }

    /// An expression whose root sits at `depth`, by operator precedence with explicit stacks.
    fn expr(&mut self, depth: u32) -> Result<Expr, ParseError> {
        let mut operands: Vec<(Expr, u32)> = Vec::new(); // (tree, height)
        let mut pending: Vec<Pending> = Vec::new();
        let mut open_parens = 0usize;
        loop {
            self.operand(&mut operands, &mut pending, &mut open_parens)?;
            // After an operand: closing parentheses, then a binary operator or the end.
            while open_parens > 0 && self.is_punct(")") {
                self.reduce_until_paren(&mut operands, &mut pending, depth)?;
                open_parens -= 1;
                self.advance();
            }
            let Some(op) = self.binary_op() else { break };
            while let Some(Pending::Unary(..) | Pending::Binary(..)) = pending.last() {
                let tighter = match pending.last() {
                    Some(Pending::Binary(top, _)) => top.precedence() >= op.precedence(),
                    _ => true,
                };
                if !tighter {
                    break;
                }
                self.reduce(&mut operands, &mut pending, depth)?;
            }
            pending.push(Pending::Binary(op, self.pos));
            self.advance();
        }
        if open_parens > 0 {
            return self.fail("expected ')'");
        }
        while !pending.is_empty() {
            self.reduce(&mut operands, &mut pending, depth)?;
        }
        Ok(operands.pop().map_or(Expr::Num(0), |(e, _)| e))
    }

    /// Prefix operators and parentheses, then one literal or variable.
    fn operand(
        &mut self,
        operands: &mut Vec<(Expr, u32)>,
        pending: &mut Vec<Pending>,
        open_parens: &mut usize,
    ) -> Result<(), ParseError> {
        loop {
            let at = self.pos;
            let leaf = match self.peek().tok.clone() {
                Tok::Punct("-") => match self.toks.get(at + 1).map(|t| &t.tok) {
                    Some(&Tok::Int(v)) => {
                        self.advance();
                        Expr::Num((v as i64).wrapping_neg())
                    }
                    _ => {
                        pending.push(Pending::Unary(UnaryOp::Neg, at));
                        self.advance();
                        continue;
                    }
                },
                Tok::Punct("!") => {
                    pending.push(Pending::Unary(UnaryOp::Not, at));
                    self.advance();
                    continue;
                }
                Tok::Punct("(") => {
                    pending.push(Pending::Paren(at));
                    *open_parens += 1;
                    self.advance();
                    continue;
                }
                Tok::Int(v) => match i64::try_from(v) {
                    Ok(v) => Expr::Num(v),
                    Err(_) => return self.fail(format!("integer literal {v} is too large")),
                },
                Tok::Ident(name) => Expr::Var(name),
                _ => return self.fail("expected an expression"),
            };
            self.advance();
            operands.push((leaf, 1));
            return Ok(());
        }
    }

    fn binary_op(&self) -> Option<BinaryOp> {
        let Tok::Punct(p) = self.peek().tok else {
            return None;
        };
        BinaryOp::ALL.into_iter().find(|op| op.symbol() == p)
    }

    fn reduce_until_paren(
        &self,
        operands: &mut Vec<(Expr, u32)>,
        pending: &mut Vec<Pending>,
        depth: u32,
    ) -> Result<(), ParseError> {
        while !matches!(pending.last(), Some(Pending::Paren(_)) | None) {
            self.reduce(operands, pending, depth)?;
        }
        pending.pop();
        Ok(())
    }

    /// Applies the operator on top of `pending` (a parenthesis is simply dropped).
    fn reduce(
        &self,
        operands: &mut Vec<(Expr, u32)>,
        pending: &mut Vec<Pending>,
        depth: u32,
    ) -> Result<(), ParseError> {
        let (node, at) = match pending.pop() {
            Some(Pending::Unary(op, at)) => {
                let (e, h) = operands.pop().unwrap_or((Expr::Num(0), 1));
                ((Expr::Unary(op, Box::new(e)), h + 1), at)
            }
            Some(Pending::Binary(op, at)) => {
                let (b, hb) = operands.pop().unwrap_or((Expr::Num(0), 1));
                let (a, ha) = operands.pop().unwrap_or((Expr::Num(0), 1));
                (
                    (Expr::Binary(op, Box::new(a), Box::new(b)), ha.max(hb) + 1),
                    at,
                )
            }
            Some(Pending::Paren(at)) => return self.error_at(at, "unmatched '('"),
            None => return Ok(()),
        };
        if depth.saturating_add(node.1 - 1) > MAX_DEPTH {
            let msg = format!("expression nested too deeply (limit {MAX_DEPTH})");
            return self.error_at(at, msg);
        }
        operands.push(node);
        Ok(())
    }
}
