//! The parser's view of the token stream: the current token, one token of lookahead, the end of
//! the previous token (for cutting instruction templates), errors at a position, and the
//! nesting-depth guard.
//!
//! Invariants: `tok` is always the next unconsumed token; `prev_end` is the end of the last
//! consumed token; a lexer error is reported with the lexer's message, which (as in LLVM) wins
//! over the parser's generic "expected ..." message at the same token; a token looked at with
//! [`Cursor::peek`] is lexed once (the lexer state after it is kept for the next bump).

pub use llvm_ir::lexical::parse_u64;
use std::cell::Cell;

use super::super::lexer::{parse_u32, Lexer, Tok, Token};

/// Deepest nesting of types, constants or metadata the reader accepts. LLVM's own reader
/// overflows its stack near 20,000 levels; we parse on a thread with a large stack and refuse
/// beyond this with a clear error instead of crashing.
pub const MAX_DEPTH: u32 = 100_000;

/// A parse error before it is rendered: byte offset and message. Boxed so results stay small.
#[derive(Debug)]
pub struct Perr(pub Box<(usize, String)>);

/// Parser result.
pub type PResult<T> = Result<T, Perr>;

/// The token cursor.
#[derive(Clone)]
pub struct Cursor<'a> {
    /// The whole input.
    pub src: &'a [u8],
    lex: Lexer<'a>,
    /// The current (next unconsumed) token.
    pub tok: Token,
    /// End of the last consumed token.
    pub prev_end: u32,
    depth: u32,
    /// Whether [`Cursor::peek`] has read the token after `tok` into `peek_tok`, with the lexer
    /// just past it in `peek_lex` (so the next [`Cursor::bump`] does not lex it again).
    peeked: Cell<bool>,
    peek_tok: Cell<Token>,
    peek_lex: Cell<Lexer<'a>>,
}

impl<'a> Cursor<'a> {
    /// A cursor at byte `pos` of `src`.
    pub fn new(src: &'a [u8], pos: usize) -> Self {
        let mut lex = Lexer::new(src, pos);
        let tok = lex.next_token();
        Self {
            src,
            lex,
            tok,
            prev_end: pos as u32,
            depth: 0,
            peeked: Cell::new(false),
            peek_tok: Cell::new(tok),
            peek_lex: Cell::new(lex),
        }
    }

    /// Restarts at byte `pos`.
    pub fn seek(&mut self, pos: usize) {
        self.peeked.set(false);
        self.lex.seek(pos);
        self.prev_end = pos as u32;
        self.tok = self.lex.next_token();
    }

    /// How many comments the lexer has skipped, and where the last one started.
    pub fn comments(&self) -> (u32, u32) {
        (self.lex.comments, self.lex.last_comment_at)
    }

    /// The current token's kind.
    #[inline]
    pub fn kind(&self) -> Tok {
        self.tok.kind
    }

    /// The current token's start offset.
    #[inline]
    pub fn at(&self) -> usize {
        self.tok.start as usize
    }

    /// The current token's bytes.
    #[inline]
    pub fn text(&self) -> &'a [u8] {
        &self.src[self.tok.start as usize..self.tok.end as usize]
    }

    /// The bytes of `t`.
    #[inline]
    pub fn tok_text(&self, t: Token) -> &'a [u8] {
        &self.src[t.start as usize..t.end as usize]
    }

    /// Consumes the current token and returns it.
    #[inline]
    pub fn bump(&mut self) -> Token {
        let t = self.tok;
        self.prev_end = t.end;
        self.tok = if self.peeked.get() {
            self.peeked.set(false);
            self.lex = self.peek_lex.get();
            self.peek_tok.get()
        } else {
            self.lex.next_token()
        };
        t
    }

    /// The token after the current one (without consuming anything).
    pub fn peek(&self) -> Token {
        if self.peeked.get() {
            return self.peek_tok.get();
        }
        let mut lex = self.lex;
        let t = lex.next_token();
        self.peek_tok.set(t);
        self.peek_lex.set(lex);
        self.peeked.set(true);
        t
    }

    /// Whether the current token is the keyword `kw`.
    #[inline]
    pub fn is_kw(&self, kw: &[u8]) -> bool {
        self.tok.kind == Tok::Ident && self.text() == kw
    }

    /// Consumes the keyword `kw` if it is current.
    #[inline]
    pub fn eat_kw(&mut self, kw: &[u8]) -> bool {
        if self.is_kw(kw) {
            self.bump();
            true
        } else {
            false
        }
    }

    /// Consumes a token of kind `k` if it is current.
    #[inline]
    pub fn eat(&mut self, k: Tok) -> bool {
        if self.tok.kind == k {
            self.bump();
            true
        } else {
            false
        }
    }

    /// Consumes a token of kind `k`, or fails with `msg`.
    #[inline]
    pub fn expect(&mut self, k: Tok, msg: &str) -> PResult<Token> {
        if self.tok.kind == k {
            Ok(self.bump())
        } else {
            self.err(msg)
        }
    }

    /// Consumes the keyword `kw`, or fails with `msg`.
    pub fn expect_kw(&mut self, kw: &[u8], msg: &str) -> PResult<()> {
        if self.eat_kw(kw) {
            Ok(())
        } else {
            self.err(msg)
        }
    }

    /// An error at the current token (the lexer's message if the token is malformed).
    pub fn err<T>(&self, msg: &str) -> PResult<T> {
        if self.tok.kind == Tok::Error && !self.lex.error.is_empty() {
            return Err(Perr(Box::new((self.at(), self.lex.error.to_string()))));
        }
        self.err_at(self.at(), msg)
    }

    /// An error at byte `off`.
    pub fn err_at<T>(&self, off: usize, msg: impl Into<String>) -> PResult<T> {
        Err(Perr(Box::new((off, msg.into()))))
    }

    /// Enters one nesting level (types, constants, metadata); fails past [`MAX_DEPTH`].
    #[inline]
    pub fn enter(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return self.err("nesting too deep (more than 100000 levels)");
        }
        Ok(())
    }

    /// Leaves a nesting level.
    #[inline]
    pub fn leave(&mut self) {
        self.depth -= 1;
    }

    /// Consumes an unsigned 32-bit integer token.
    pub fn parse_u32(&mut self, msg: &str) -> PResult<u32> {
        if self.tok.kind == Tok::Int {
            if let Some(n) = parse_u32(self.text()) {
                self.bump();
                return Ok(n);
            }
        }
        self.err(msg)
    }

    /// Consumes an unsigned 64-bit integer token.
    pub fn parse_u64(&mut self, msg: &str) -> PResult<u64> {
        if self.tok.kind == Tok::Int {
            if let Some(n) = parse_u64(self.text()) {
                self.bump();
                return Ok(n);
            }
        }
        self.err(msg)
    }

    /// The number of a `%N` / `@N` / `#N` / `^N` / `!N`-style token (digits after one sigil).
    pub fn id_of(&self, t: Token) -> u32 {
        if matches!(
            t.kind,
            Tok::LocalVarId | Tok::GlobalId | Tok::AttrGrpId | Tok::SummaryId | Tok::LabelId
        ) {
            // Read by the lexer, which rejects numbers that do not fit.
            return t.num;
        }
        let s = self.tok_text(t);
        let digits = if matches!(t.kind, Tok::LabelId) {
            &s[..s.len() - 1]
        } else {
            &s[1..]
        };
        parse_u32(digits).unwrap_or(u32::MAX)
    }

    /// Skips a balanced group that starts at the current `(`, `[`, `{` or `<`, returning
    /// after its closing token. Used for parts kept verbatim (summary entries).
    pub fn skip_balanced(&mut self) -> PResult<()> {
        let mut depth = 0usize;
        loop {
            match self.kind() {
                Tok::LParen | Tok::LSquare | Tok::LBrace | Tok::Less => depth += 1,
                Tok::RParen | Tok::RSquare | Tok::RBrace | Tok::Greater => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        self.bump();
                        return Ok(());
                    }
                }
                Tok::Eof | Tok::Error => return self.err("expected ')'"),
                _ => {}
            }
            self.bump();
        }
    }
}
