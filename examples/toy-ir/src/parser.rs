//! Parser for the text form printed by [`crate::printer`].
//!
//! Line oriented: a block header (`b3(t1, t2) synthetic:`), an instruction or a terminator per
//! line; `;` starts a comment; blank lines are ignored. Blocks must appear in index order
//! (`b0`, `b1`, ...), since a block's number *is* its layout position. A block whose lines end
//! without a terminator gets `term: None`, so malformed IR can be written down for verifier
//! tests. Every error carries the 1-based line and column of the offending token; the parser
//! never panics, whatever the input.

use std::fmt;

use crate::ir::{BinOp, Block, BlockData, Function, Inst, Operand, Target, Temp, Term, Var};

/// A syntax error with its 1-based position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based line.
    pub line: u32,
    /// 1-based column (in characters).
    pub col: u32,
    /// What was expected or found.
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.col, self.message)
    }
}

impl std::error::Error for ParseError {}

/// Parses a function from its text form.
pub fn parse(src: &str) -> Result<Function, ParseError> {
    let toks = lex(src)?;
    Parser { toks, pos: 0 }.function()
}

#[derive(Clone, Debug, PartialEq)]
enum Kind {
    Word(String),
    Int(i64),
    Punct(char),
    Newline,
    Eof,
}

#[derive(Clone, Debug)]
struct Tok {
    kind: Kind,
    line: u32,
    col: u32,
}

fn err<T>(line: u32, col: u32, message: impl Into<String>) -> Result<T, ParseError> {
    Err(ParseError {
        line,
        col,
        message: message.into(),
    })
}

/// Splits the input into tokens, newlines included, ending with `Eof`.
fn lex(src: &str) -> Result<Vec<Tok>, ParseError> {
    let mut toks = Vec::new();
    for (i, text) in src.split('\n').enumerate() {
        let line = u32::try_from(i + 1).unwrap_or(u32::MAX);
        lex_line(text, line, &mut toks)?;
        toks.push(Tok {
            kind: Kind::Newline,
            line,
            col: text.chars().count() as u32 + 1,
        });
    }
    let line = toks.last().map_or(1, |t| t.line);
    toks.push(Tok {
        kind: Kind::Eof,
        line,
        col: 1,
    });
    Ok(toks)
}

fn lex_line(text: &str, line: u32, toks: &mut Vec<Tok>) -> Result<(), ParseError> {
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let col = i as u32 + 1;
        let start = i;
        i += 1;
        let kind = match c {
            ';' => break,
            c if c.is_whitespace() => continue,
            '=' | ',' | ':' | '(' | ')' | '[' | ']' => Kind::Punct(c),
            c if c.is_ascii_alphabetic() || c == '_' => {
                while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                    i += 1;
                }
                Kind::Word(chars[start..i].iter().collect())
            }
            c if c.is_ascii_digit() || c == '-' => {
                while i < chars.len() && chars[i].is_ascii_digit() {
                    i += 1;
                }
                let s: String = chars[start..i].iter().collect();
                match s.parse::<i64>() {
                    Ok(v) => Kind::Int(v),
                    Err(_) if s == "-" => return err(line, col, "expected a digit after '-'"),
                    Err(_) => return err(line, col, format!("integer {s} out of range")),
                }
            }
            c => return err(line, col, format!("unexpected character {c:?}")),
        };
        toks.push(Tok { kind, line, col });
    }
    Ok(())
}

/// The number of an entity name such as `t12` (prefix `t`), if `word` is one.
fn entity(word: &str, prefix: char) -> Option<u32> {
    let digits = word.strip_prefix(prefix)?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

struct Parser {
    toks: Vec<Tok>,
    pos: usize,
}

impl Parser {
    fn peek(&self) -> &Tok {
        &self.toks[self.pos.min(self.toks.len() - 1)]
    }

    fn fail<T>(&self, message: impl Into<String>) -> Result<T, ParseError> {
        let t = self.peek();
        err(t.line, t.col, message)
    }

    fn is_punct(&self, c: char) -> bool {
        self.peek().kind == Kind::Punct(c)
    }

    fn eat_punct(&mut self, c: char) -> bool {
        let found = self.is_punct(c);
        if found {
            self.pos += 1;
        }
        found
    }

    fn expect_punct(&mut self, c: char) -> Result<(), ParseError> {
        if self.eat_punct(c) {
            return Ok(());
        }
        self.fail(format!("expected '{c}'"))
    }

    fn peek_word(&self) -> Option<&str> {
        match &self.peek().kind {
            Kind::Word(w) => Some(w),
            _ => None,
        }
    }

    fn expect_word(&mut self, word: &str) -> Result<(), ParseError> {
        if self.peek_word() == Some(word) {
            self.pos += 1;
            return Ok(());
        }
        self.fail(format!("expected '{word}'"))
    }

    fn entity(&mut self, prefix: char, what: &str) -> Result<u32, ParseError> {
        match self.peek_word().and_then(|w| entity(w, prefix)) {
            Some(n) => {
                self.pos += 1;
                Ok(n)
            }
            None => self.fail(format!("expected {what} ({prefix}N)")),
        }
    }

    fn temp(&mut self) -> Result<Temp, ParseError> {
        self.entity('t', "a temp").map(Temp)
    }

    fn block_ref(&mut self) -> Result<Block, ParseError> {
        self.entity('b', "a block").map(Block)
    }

    fn int(&mut self) -> Result<i64, ParseError> {
        if let Kind::Int(v) = self.peek().kind {
            self.pos += 1;
            return Ok(v);
        }
        self.fail("expected an integer")
    }

    fn operand(&mut self) -> Result<Operand, ParseError> {
        if let Kind::Int(v) = self.peek().kind {
            self.pos += 1;
            return Ok(Operand::Imm(v));
        }
        match self.peek_word().and_then(|w| entity(w, 't')) {
            Some(n) => {
                self.pos += 1;
                Ok(Operand::Temp(Temp(n)))
            }
            None => self.fail("expected an operand (a temp tN or an integer)"),
        }
    }

    /// `(item, item, ...)`, the parentheses already known to be there.
    fn paren_list<T>(
        &mut self,
        mut item: impl FnMut(&mut Self) -> Result<T, ParseError>,
    ) -> Result<Vec<T>, ParseError> {
        self.expect_punct('(')?;
        let mut items = Vec::new();
        if self.eat_punct(')') {
            return Ok(items);
        }
        loop {
            items.push(item(self)?);
            if self.eat_punct(')') {
                return Ok(items);
            }
            self.expect_punct(',')?;
        }
    }

    fn end_of_line(&mut self) -> Result<(), ParseError> {
        match self.peek().kind {
            Kind::Newline => {
                self.pos += 1;
                Ok(())
            }
            Kind::Eof => Ok(()),
            _ => self.fail("expected the end of the line"),
        }
    }

    fn skip_blank_lines(&mut self) {
        while self.peek().kind == Kind::Newline {
            self.pos += 1;
        }
    }

    fn function(mut self) -> Result<Function, ParseError> {
        let mut func = Function::default();
        self.skip_blank_lines();
        if self.peek_word() == Some("fn") {
            self.pos += 1;
            func.params = self.paren_list(Self::temp)?;
            self.end_of_line()?;
        }
        loop {
            self.skip_blank_lines();
            if self.peek().kind == Kind::Eof {
                return Ok(func);
            }
            let data = self.block(func.blocks.len())?;
            func.blocks.push(data);
        }
    }

    fn block(&mut self, index: usize) -> Result<BlockData, ParseError> {
        let expected = format!("b{index}");
        if self.peek_word() != Some(expected.as_str()) {
            let hint = "blocks are numbered in layout order";
            return self.fail(format!("expected block label {expected} ({hint})"));
        }
        self.pos += 1;
        let mut data = BlockData::default();
        if self.is_punct('(') {
            data.params = self.paren_list(Self::temp)?;
        }
        if self.peek_word() == Some("synthetic") {
            self.pos += 1;
            data.synthetic = true;
        }
        self.expect_punct(':')?;
        self.end_of_line()?;
        self.block_body(&mut data)?;
        Ok(data)
    }

    /// Lines up to the next block label or the end of input.
    fn block_body(&mut self, data: &mut BlockData) -> Result<(), ParseError> {
        loop {
            self.skip_blank_lines();
            let word = match &self.peek().kind {
                Kind::Eof => return Ok(()),
                Kind::Word(w) => w.clone(),
                _ => return self.fail("expected an instruction, a terminator or a block label"),
            };
            if entity(&word, 'b').is_some() {
                return Ok(());
            }
            if data.term.is_some() {
                return self.fail("instruction after the block's terminator");
            }
            match self.terminator(&word)? {
                Some(term) => data.term = Some(term),
                None => data.insts.push(self.inst(&word)?),
            }
            self.end_of_line()?;
        }
    }

    fn terminator(&mut self, word: &str) -> Result<Option<Term>, ParseError> {
        let term = match word {
            "jump" => {
                self.pos += 1;
                Term::Jump(self.target()?)
            }
            "br" => {
                self.pos += 1;
                let cond = self.operand()?;
                self.expect_punct(',')?;
                let then_to = self.target()?;
                self.expect_punct(',')?;
                Term::Branch {
                    cond,
                    then_to,
                    else_to: self.target()?,
                }
            }
            "switch" => {
                self.pos += 1;
                self.switch()?
            }
            "ret" => {
                self.pos += 1;
                Term::Return(self.operand()?)
            }
            _ => return Ok(None),
        };
        Ok(Some(term))
    }

    fn switch(&mut self) -> Result<Term, ParseError> {
        let value = self.operand()?;
        self.expect_punct(',')?;
        self.expect_punct('[')?;
        let mut cases = Vec::new();
        while !self.eat_punct(']') {
            if !cases.is_empty() {
                self.expect_punct(',')?;
            }
            let k = self.int()?;
            self.expect_punct(':')?;
            cases.push((k, self.target()?));
        }
        self.expect_punct(',')?;
        self.expect_word("default")?;
        Ok(Term::Switch {
            value,
            cases,
            default: self.target()?,
        })
    }

    fn target(&mut self) -> Result<Target, ParseError> {
        let block = self.block_ref()?;
        let args = if self.is_punct('(') {
            self.paren_list(Self::operand)?
        } else {
            Vec::new()
        };
        Ok(Target { block, args })
    }

    fn inst(&mut self, word: &str) -> Result<Inst, ParseError> {
        match word {
            "write" => {
                self.pos += 1;
                let var = Var(self.entity('v', "a variable")?);
                self.expect_punct(',')?;
                Ok(Inst::Write {
                    var,
                    src: self.operand()?,
                })
            }
            "print" => {
                self.pos += 1;
                Ok(Inst::Print {
                    src: self.operand()?,
                })
            }
            _ => {
                let dst = self
                    .temp()
                    .or_else(|_| self.fail("expected an instruction"))?;
                self.expect_punct('=')?;
                self.assignment(dst)
            }
        }
    }

    /// The right-hand side of `tN = ...`.
    fn assignment(&mut self, dst: Temp) -> Result<Inst, ParseError> {
        let Some(word) = self.peek_word().map(str::to_owned) else {
            return self.fail("expected an opcode");
        };
        self.pos += 1;
        match word.as_str() {
            "const" => Ok(Inst::Const {
                dst,
                value: self.int()?,
            }),
            "read" => Ok(Inst::Read {
                dst,
                var: Var(self.entity('v', "a variable")?),
            }),
            "copy" => Ok(Inst::Copy {
                dst,
                src: self.operand()?,
            }),
            "phi" => Ok(Inst::Phi {
                dst,
                args: self.phi_args()?,
            }),
            _ => match BinOp::from_name(&word) {
                Some(op) => {
                    let a = self.operand()?;
                    self.expect_punct(',')?;
                    Ok(Inst::Binary {
                        op,
                        dst,
                        a,
                        b: self.operand()?,
                    })
                }
                None => {
                    self.pos -= 1;
                    self.fail(format!("unknown opcode '{word}'"))
                }
            },
        }
    }

    /// `[bN: v], [bM: w], ...`, possibly none.
    fn phi_args(&mut self) -> Result<Vec<(Block, Operand)>, ParseError> {
        let mut args = Vec::new();
        while self.is_punct('[') || !args.is_empty() {
            if !args.is_empty() && !self.eat_punct(',') {
                break;
            }
            self.expect_punct('[')?;
            let b = self.block_ref()?;
            self.expect_punct(':')?;
            let v = self.operand()?;
            self.expect_punct(']')?;
            args.push((b, v));
        }
        Ok(args)
    }
}
