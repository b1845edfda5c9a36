//! The lexer for LLVM IR text: bytes in, tokens (kind + byte span) out, one at a time.
//!
//! It follows LLVM's `LLLexer` token by token, so that what LLVM's reader splits into tokens we
//! split the same way: names (`%x`, `@"a b"`, `%7`), labels (`bb:`, `"x y":`, `12:`), keywords
//! (the longest `[A-Za-z0-9_]` prefix of a label-character run, as LLVM takes it), integer
//! types (`i32`), integers, decimal and hex floats (`0x`, `0xK`, `0xL`, `0xM`, `0xH`, `0xR`),
//! `[us]0x` hex integers, strings, `!name`, `#N`, `^N`, `$comdat`, punctuation, `;` and nested
//! `/* */` comments.
//!
//! Invariants: a token never allocates — it is a kind and a `[start, end)` span of the input,
//! and the parser reads numbers and names from the span when it needs them; the lexer never
//! reads past the end of the buffer; on a malformed token it returns [`Tok::Error`] with a
//! message in [`Lexer::error`], which the parser reports at the token's position.

pub use llvm_ir::lexical::{parse_u32, unescape};

/// Token kinds.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Tok {
    /// End of input.
    Eof,
    /// A malformed token; see [`Lexer::error`].
    Error,
    /// `=`
    Equal,
    /// `,`
    Comma,
    /// `*`
    Star,
    /// `[`
    LSquare,
    /// `]`
    RSquare,
    /// `{`
    LBrace,
    /// `}`
    RBrace,
    /// `<`
    Less,
    /// `>`
    Greater,
    /// `(`
    LParen,
    /// `)`
    RParen,
    /// `!` not followed by a name.
    Exclaim,
    /// `|`
    Bar,
    /// `:`
    Colon,
    /// `...`
    DotDotDot,
    /// `#` not followed by digits (debug records: `#dbg_value`).
    Hash,
    /// `%name` or `%"name"`.
    LocalVar,
    /// `%N`
    LocalVarId,
    /// `@name` or `@"name"`.
    GlobalVar,
    /// `@N`
    GlobalId,
    /// `$name` or `$"name"`.
    ComdatVar,
    /// `!name` (also `!DILocation` and other specialized node names).
    MetadataVar,
    /// `#N`
    AttrGrpId,
    /// `^N`
    SummaryId,
    /// `name:` or `"name":` (span includes the colon).
    LabelStr,
    /// `N:` (span includes the colon).
    LabelId,
    /// `"..."`
    Str,
    /// An integer: `-?[0-9]+` or `[us]0x[0-9A-Fa-f]+`.
    Int,
    /// A floating-point literal (decimal or hex form).
    Float,
    /// A keyword or other identifier (`add`, `DW_TAG_member`, `DIFlagPrototyped`, `dbg_value`, ...).
    Ident,
    /// An integer type `iN`.
    IntType,
}

/// A token: its kind and byte span.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Token {
    /// Kind.
    pub kind: Tok,
    /// First byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
    /// The number of a numbered token (`%N`, `@N`, `#N`, `^N`, `N:`), read while lexing it;
    /// 0 for other kinds.
    pub num: u32,
}

/// The message of a malformed token LLVM's lexer gives none for (an unknown byte, a lone `/`
/// or `.`, `#`/`^`/`+` without digits, ...): the parser's own message is reported instead.
const NO_MESSAGE: &str = "";

/// The lexer state over one buffer (small and `Copy`: the parser's lookahead copies it).
#[derive(Clone, Copy, Debug)]
pub struct Lexer<'a> {
    src: &'a [u8],
    pos: usize,
    /// The message of the last [`Tok::Error`].
    pub error: &'static str,
    /// How many comments were skipped so far, and where the last one started (readers that
    /// keep source text use this to know when a span they copy contains a comment).
    pub comments: u32,
    /// Start of the last comment skipped.
    pub last_comment_at: u32,
}

/// Byte classes, bits of [`CLASS`]: one table load answers "is this a label character?".
const KW: u8 = 1; // [A-Za-z0-9_]: keyword characters
const LABEL: u8 = 2; // [-A-Za-z0-9$._]: label and name characters
const DIGIT: u8 = 4; // [0-9]
const NAME_START: u8 = 8; // [-A-Za-z$._]
const MD_NAME: u8 = 16; // [-A-Za-z0-9$._\\]: `!name` characters
const BLANK: u8 = 32; // space, tab, newline, carriage return, NUL

static CLASS: [u8; 256] = classes();

/// The kind of each byte that is a token by itself (`Tok::Eof`: not one).
static PUNCT: [Tok; 256] = punct();

const fn punct() -> [Tok; 256] {
    let mut t = [Tok::Eof; 256];
    t[b'=' as usize] = Tok::Equal;
    t[b',' as usize] = Tok::Comma;
    t[b'*' as usize] = Tok::Star;
    t[b'[' as usize] = Tok::LSquare;
    t[b']' as usize] = Tok::RSquare;
    t[b'{' as usize] = Tok::LBrace;
    t[b'}' as usize] = Tok::RBrace;
    t[b'<' as usize] = Tok::Less;
    t[b'>' as usize] = Tok::Greater;
    t[b'(' as usize] = Tok::LParen;
    t[b')' as usize] = Tok::RParen;
    t[b'|' as usize] = Tok::Bar;
    t[b':' as usize] = Tok::Colon;
    t
}

const fn classes() -> [u8; 256] {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        let c = i as u8;
        let alpha = c.is_ascii_alphabetic();
        let digit = c.is_ascii_digit();
        let punct = matches!(c, b'-' | b'$' | b'.' | b'_');
        let mut k = 0;
        if alpha || digit || c == b'_' {
            k |= KW;
        }
        if alpha || digit || punct {
            k |= LABEL | MD_NAME;
        }
        if digit {
            k |= DIGIT;
        }
        if alpha || punct {
            k |= NAME_START;
        }
        if c == b'\\' {
            k |= MD_NAME;
        }
        if matches!(c, b' ' | b'\t' | b'\n' | b'\r' | 0) {
            k |= BLANK;
        }
        t[i] = k;
        i += 1;
    }
    t
}

#[inline(always)]
fn is(c: u8, class: u8) -> bool {
    CLASS[c as usize] & class != 0
}

impl<'a> Lexer<'a> {
    /// A lexer at byte `pos` of `src`.
    pub fn new(src: &'a [u8], pos: usize) -> Self {
        Self {
            src,
            pos,
            error: "",
            comments: 0,
            last_comment_at: 0,
        }
    }

    /// The current position (the end of the last token).
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// Moves to byte `pos`.
    pub fn seek(&mut self, pos: usize) {
        self.pos = pos.min(self.src.len());
    }

    #[inline]
    fn at(&self, i: usize) -> u8 {
        // Past the end reads as NUL, which no token rule accepts.
        if i < self.src.len() {
            self.src[i]
        } else {
            0
        }
    }

    /// The first position at or after `i` (at most the end) whose byte is not in `class`.
    #[inline(always)]
    fn scan(&self, mut i: usize, class: u8) -> usize {
        let s = self.src;
        while i < s.len() && is(s[i], class) {
            i += 1;
        }
        i
    }

    /// The first position at or after `i` that is not blank. Runs of spaces (indentation,
    /// the padding before `; preds` comments) are skipped eight bytes at a time.
    #[inline(always)]
    fn skip_blanks(&self, mut i: usize) -> usize {
        const SPACES: u64 = u64::from_le_bytes([b' '; 8]);
        let s = self.src;
        // Most tokens follow no blank (`,` `)` after a name) or one space: two byte tests.
        for _ in 0..2 {
            match s.get(i) {
                Some(&c) if is(c, BLANK) => i += 1,
                _ => return i,
            }
        }
        while let Some(w) = s.get(i..i + 8) {
            let x = u64::from_le_bytes(w.try_into().expect("eight bytes")) ^ SPACES;
            // The first byte that is not a space (little-endian: the lowest nonzero byte).
            i += (x.trailing_zeros() / 8) as usize;
            if x != 0 {
                if !is(s[i], BLANK) {
                    return i;
                }
                i += 1;
            }
        }
        self.scan(i, BLANK)
    }

    /// The end of the decimal digits starting at `i`, and their value, saturated at 2^32 (so
    /// a value above `u32::MAX` is exactly one that does not fit).
    #[inline(always)]
    fn scan_number(&self, mut i: usize) -> (usize, u64) {
        let s = self.src;
        let mut n: u64 = 0;
        while i < s.len() {
            let d = s[i].wrapping_sub(b'0');
            if d > 9 {
                break;
            }
            n = (n * 10 + d as u64).min(1 << 32);
            i += 1;
        }
        (i, n)
    }

    #[inline(always)]
    fn tok(&self, kind: Tok, start: usize) -> Token {
        Token {
            kind,
            start: start as u32,
            end: self.pos as u32,
            num: 0,
        }
    }

    #[inline(always)]
    fn numbered(&self, kind: Tok, start: usize, num: u32) -> Token {
        Token {
            kind,
            start: start as u32,
            end: self.pos as u32,
            num,
        }
    }

    /// A malformed token for which LLVM's lexer sets no message (`lltok::Error` alone): the
    /// parser's message for what it expected there is reported instead.
    fn err(&mut self, start: usize, msg: &'static str) -> Token {
        self.error = msg;
        if self.pos <= start {
            self.pos = (start + 1).min(self.src.len());
        }
        Token {
            kind: Tok::Error,
            start: start as u32,
            end: self.pos as u32,
            num: 0,
        }
    }

    /// The next token.
    ///
    /// The common tokens (punctuation, `%` names and keywords) are dispatched here, from a
    /// function small enough to need no stack frame; everything else is `Lexer::lex_full`.
    pub fn next_token(&mut self) -> Token {
        let start = self.skip_blanks(self.pos);
        if let Some(&c) = self.src.get(start) {
            let kind = PUNCT[c as usize];
            if kind != Tok::Eof {
                self.pos = start + 1;
                return self.tok(kind, start);
            }
            if c == b'%' {
                self.pos = start + 1;
                return self.lex_var(start, Tok::LocalVar, Tok::LocalVarId);
            }
            if c.is_ascii_alphabetic() {
                self.pos = start + 1;
                return self.lex_identifier(start);
            }
        }
        self.pos = start;
        self.lex_full()
    }

    /// The next token, of any kind (also comments are skipped here).
    #[inline(never)]
    fn lex_full(&mut self) -> Token {
        loop {
            let start = self.skip_blanks(self.pos);
            if start >= self.src.len() {
                self.pos = start;
                return self.tok(Tok::Eof, start);
            }
            let c = self.src[start];
            self.pos = start + 1;
            let kind = match c {
                b';' => {
                    self.comments += 1;
                    self.last_comment_at = start as u32;
                    self.skip_line();
                    continue;
                }
                b'/' => {
                    if self.at(self.pos) == b'*' {
                        self.comments += 1;
                        self.last_comment_at = start as u32;
                        if let Some(t) = self.skip_c_comment(start) {
                            return t;
                        }
                        continue;
                    }
                    return self.err(start, NO_MESSAGE);
                }
                b'=' => Tok::Equal,
                b',' => Tok::Comma,
                b'*' => Tok::Star,
                b'[' => Tok::LSquare,
                b']' => Tok::RSquare,
                b'{' => Tok::LBrace,
                b'}' => Tok::RBrace,
                b'<' => Tok::Less,
                b'>' => Tok::Greater,
                b'(' => Tok::LParen,
                b')' => Tok::RParen,
                b'|' => Tok::Bar,
                b':' => Tok::Colon,
                b'%' => return self.lex_var(start, Tok::LocalVar, Tok::LocalVarId),
                b'@' => return self.lex_var(start, Tok::GlobalVar, Tok::GlobalId),
                b'$' => return self.lex_dollar(start),
                b'"' => return self.lex_quote(start),
                b'!' => return self.lex_exclaim(start),
                b'#' => {
                    if self.at(self.pos).is_ascii_digit() {
                        return self.lex_uint_id(start, Tok::AttrGrpId);
                    }
                    Tok::Hash
                }
                b'^' => return self.lex_uint_id(start, Tok::SummaryId),
                b'.' => {
                    if let Some(end) = self.label_tail(self.pos) {
                        self.pos = end;
                        return self.tok(Tok::LabelStr, start);
                    }
                    if self.at(self.pos) == b'.' && self.at(self.pos + 1) == b'.' {
                        self.pos += 2;
                        return self.tok(Tok::DotDotDot, start);
                    }
                    return self.err(start, NO_MESSAGE);
                }
                b'+' => return self.lex_positive(start),
                b'0'..=b'9' | b'-' => return self.lex_digit_or_negative(start),
                c if c.is_ascii_alphabetic() || c == b'_' => return self.lex_identifier(start),
                _ => return self.err(start, NO_MESSAGE),
            };
            return self.tok(kind, start);
        }
    }

    fn skip_line(&mut self) {
        match memchr_newline(&self.src[self.pos..]) {
            Some(i) => self.pos += i,
            None => self.pos = self.src.len(),
        }
    }

    /// Skips a nested `/* */` comment starting at `start`; `Some(error)` if unterminated.
    fn skip_c_comment(&mut self, start: usize) -> Option<Token> {
        self.pos += 1;
        let mut depth = 1u32;
        while self.pos < self.src.len() {
            let c = self.src[self.pos];
            self.pos += 1;
            if c == b'*' && self.at(self.pos) == b'/' {
                self.pos += 1;
                depth -= 1;
                if depth == 0 {
                    return None;
                }
            } else if c == b'/' && self.at(self.pos) == b'*' {
                self.pos += 1;
                depth += 1;
            }
        }
        Some(self.err(start, "Unterminated comment!"))
    }

    /// If `[label chars]*:` starts at `i`, the position after the colon.
    fn label_tail(&self, i: usize) -> Option<usize> {
        let end = self.scan(i.min(self.src.len()), LABEL);
        (self.at(end) == b':').then_some(end + 1)
    }

    /// Reads a `"..."` body whose opening quote is just before `self.pos`; false at EOF.
    fn read_string(&mut self) -> bool {
        match self.src[self.pos..].iter().position(|&c| c == b'"') {
            Some(i) => {
                self.pos += i + 1;
                true
            }
            None => {
                self.pos = self.src.len();
                false
            }
        }
    }

    fn read_var_name(&mut self) -> bool {
        if !is(self.at(self.pos), NAME_START) {
            return false;
        }
        self.pos = self.scan(self.pos + 1, LABEL);
        true
    }

    fn lex_uint_id(&mut self, start: usize, kind: Tok) -> Token {
        if !self.at(self.pos).is_ascii_digit() {
            return self.err(start, NO_MESSAGE);
        }
        let (end, n) = self.scan_number(self.pos);
        self.pos = end;
        if n > u32::MAX as u64 {
            return self.err(start, "invalid value number (too large)!");
        }
        self.numbered(kind, start, n as u32)
    }

    #[inline(never)]
    fn lex_var(&mut self, start: usize, var: Tok, id: Tok) -> Token {
        let c = self.at(self.pos);
        if is(c, NAME_START) {
            self.pos = self.scan(self.pos + 1, LABEL);
            return self.tok(var, start);
        }
        if c == b'"' {
            self.pos += 1;
            if !self.read_string() {
                return self.err(start, "end of file in global variable name");
            }
            if self.src[start + 2..self.pos - 1].contains(&0) || has_escaped_nul(self.span(start)) {
                return self.err(start, "Null bytes are not allowed in names");
            }
            return self.tok(var, start);
        }
        self.lex_uint_id(start, id)
    }

    fn span(&self, start: usize) -> &[u8] {
        &self.src[start..self.pos]
    }

    fn lex_dollar(&mut self, start: usize) -> Token {
        if let Some(end) = self.label_tail(start) {
            self.pos = end;
            return self.tok(Tok::LabelStr, start);
        }
        if self.at(self.pos) == b'"' {
            self.pos += 1;
            if !self.read_string() {
                return self.err(start, "end of file in COMDAT variable name");
            }
            return self.tok(Tok::ComdatVar, start);
        }
        if self.read_var_name() {
            return self.tok(Tok::ComdatVar, start);
        }
        self.err(start, NO_MESSAGE)
    }

    fn lex_quote(&mut self, start: usize) -> Token {
        if !self.read_string() {
            return self.err(start, "end of file in string constant");
        }
        if self.at(self.pos) == b':' {
            self.pos += 1;
            if has_escaped_nul(&self.src[start..self.pos - 1]) {
                return self.err(start, "Null bytes are not allowed in names");
            }
            return self.tok(Tok::LabelStr, start);
        }
        self.tok(Tok::Str, start)
    }

    fn lex_exclaim(&mut self, start: usize) -> Token {
        let c = self.at(self.pos);
        if is(c, MD_NAME) && !c.is_ascii_digit() {
            self.pos = self.scan(self.pos + 1, MD_NAME);
            return self.tok(Tok::MetadataVar, start);
        }
        self.tok(Tok::Exclaim, start)
    }

    #[inline(never)]
    fn lex_identifier(&mut self, start: usize) -> Token {
        // `start` holds the first letter; the keyword is the longest `[A-Za-z0-9_]*` prefix
        // of the label-character run, which is a label if a colon ends it.
        let kw_end = self.scan(start + 1, KW);
        let next = self.at(kw_end);
        if next == b':' || is(next, LABEL) {
            let run_end = self.scan(kw_end, LABEL);
            if self.at(run_end) == b':' {
                self.pos = run_end + 1;
                return self.tok(Tok::LabelStr, start);
            }
        }
        let first = self.src[start];
        if first == b'i' && self.at(start + 1).is_ascii_digit() {
            let (int_end, n) = self.scan_number(start + 1);
            self.pos = int_end;
            return if (1..=(1 << 23)).contains(&n) {
                self.numbered(Tok::IntType, start, n as u32)
            } else {
                self.err(start, "bitwidth for integer type out of range!")
            };
        }
        self.pos = kw_end;
        if first != b'u' && first != b's' {
            return self.tok(Tok::Ident, start);
        }
        let word = &self.src[start..kw_end];
        if word.len() > 3
            && (word[0] == b'u' || word[0] == b's')
            && word[1] == b'0'
            && word[2] == b'x'
            && word[3].is_ascii_hexdigit()
        {
            if !word[3..].iter().all(|c| c.is_ascii_hexdigit()) {
                self.pos = start + 3;
                return self.err(start, NO_MESSAGE);
            }
            return self.tok(Tok::Int, start);
        }
        self.tok(Tok::Ident, start)
    }

    fn lex_digit_or_negative(&mut self, start: usize) -> Token {
        let first = self.src[start];
        if !first.is_ascii_digit() && !self.at(self.pos).is_ascii_digit() {
            if let Some(end) = self.label_tail(self.pos) {
                self.pos = end;
                return self.tok(Tok::LabelStr, start);
            }
            return self.err(start, NO_MESSAGE);
        }
        let digits_at = if first.is_ascii_digit() {
            start
        } else {
            self.pos
        };
        let (end, n) = self.scan_number(digits_at);
        self.pos = end;
        if first.is_ascii_digit() && self.at(self.pos) == b':' {
            self.pos += 1;
            if n > u32::MAX as u64 {
                return self.err(start, "invalid value number (too large)!");
            }
            return self.numbered(Tok::LabelId, start, n as u32);
        }
        if is(self.at(self.pos), LABEL) || self.at(self.pos) == b':' {
            if let Some(end) = self.label_tail(self.pos) {
                self.pos = end;
                return self.tok(Tok::LabelStr, start);
            }
        }
        if self.at(self.pos) != b'.' {
            if first == b'0' && self.at(start + 1) == b'x' {
                return self.lex_0x(start);
            }
            return self.tok(Tok::Int, start);
        }
        self.pos += 1;
        self.lex_fraction(start)
    }

    /// After `digits.`: `[0-9]*([eE][-+]?[0-9]+)?`.
    fn lex_fraction(&mut self, start: usize) -> Token {
        while self.at(self.pos).is_ascii_digit() {
            self.pos += 1;
        }
        if matches!(self.at(self.pos), b'e' | b'E') {
            let (a, b) = (self.at(self.pos + 1), self.at(self.pos + 2));
            if a.is_ascii_digit() || (matches!(a, b'-' | b'+') && b.is_ascii_digit()) {
                self.pos += 2;
                while self.at(self.pos).is_ascii_digit() {
                    self.pos += 1;
                }
            }
        }
        self.tok(Tok::Float, start)
    }

    fn lex_positive(&mut self, start: usize) -> Token {
        if !self.at(self.pos).is_ascii_digit() {
            return self.err(start, NO_MESSAGE);
        }
        while self.at(self.pos).is_ascii_digit() {
            self.pos += 1;
        }
        if self.at(self.pos) != b'.' {
            self.pos = start + 1;
            return self.err(start, NO_MESSAGE);
        }
        self.pos += 1;
        self.lex_fraction(start)
    }

    fn lex_0x(&mut self, start: usize) -> Token {
        self.pos = start + 2;
        let k = self.at(self.pos);
        if matches!(k, b'K' | b'L' | b'M' | b'H' | b'R') {
            self.pos += 1;
        }
        if !self.at(self.pos).is_ascii_hexdigit() {
            self.pos = start + 1;
            return self.err(start, NO_MESSAGE);
        }
        while self.at(self.pos).is_ascii_hexdigit() {
            self.pos += 1;
        }
        self.tok(Tok::Float, start)
    }
}

/// `s` without its `;` line comments and `/* */` comments (string literals kept intact).
pub fn strip_comments(s: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        match s[i] {
            b'"' => {
                let end = s[i + 1..]
                    .iter()
                    .position(|&c| c == b'"')
                    .map_or(s.len(), |p| i + p + 2);
                out.extend_from_slice(&s[i..end]);
                i = end;
            }
            b';' => {
                while i < s.len() && s[i] != b'\n' && s[i] != b'\r' {
                    i += 1;
                }
            }
            b'/' if s.get(i + 1) == Some(&b'*') => {
                let mut depth = 0;
                while i < s.len() {
                    if s[i] == b'/' && s.get(i + 1) == Some(&b'*') {
                        depth += 1;
                        i += 2;
                    } else if s[i] == b'*' && s.get(i + 1) == Some(&b'/') {
                        depth -= 1;
                        i += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        i += 1;
                    }
                }
                out.push(b' ');
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    out
}

/// Position of the first `\n` or `\r` in `s`.
#[inline]
fn memchr_newline(s: &[u8]) -> Option<usize> {
    s.iter().position(|&c| c == b'\n' || c == b'\r')
}

/// Whether a quoted name contains the escape `\00`.
fn has_escaped_nul(s: &[u8]) -> bool {
    s.windows(3).any(|w| w == b"\\00")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(s: &str) -> Vec<(Tok, &str)> {
        let mut l = Lexer::new(s.as_bytes(), 0);
        let mut out = Vec::new();
        loop {
            let t = l.next_token();
            if t.kind == Tok::Eof {
                return out;
            }
            out.push((t.kind, &s[t.start as usize..t.end as usize]));
            if t.kind == Tok::Error {
                return out;
            }
        }
    }

    #[test]
    fn names_labels_and_numbers() {
        use Tok::*;
        assert_eq!(
            kinds("%x = add nsw i32 %0, -1 ; c\n%\"a b\" @g @12 bb.1: 7: \"q r\": $c"),
            vec![
                (LocalVar, "%x"),
                (Equal, "="),
                (Ident, "add"),
                (Ident, "nsw"),
                (IntType, "i32"),
                (LocalVarId, "%0"),
                (Comma, ","),
                (Int, "-1"),
                (LocalVar, "%\"a b\""),
                (GlobalVar, "@g"),
                (GlobalId, "@12"),
                (LabelStr, "bb.1:"),
                (LabelId, "7:"),
                (LabelStr, "\"q r\":"),
                (ComdatVar, "$c"),
            ]
        );
    }

    #[test]
    fn floats_metadata_and_comments() {
        use Tok::*;
        assert_eq!(
            kinds("1.5e+3 0x3FF0000000000000 0xK4000 +2. !dbg !12 !{ /* a /* b */ */ #0 #dbg_value ^3 ..."),
            vec![
                (Float, "1.5e+3"),
                (Float, "0x3FF0000000000000"),
                (Float, "0xK4000"),
                (Float, "+2."),
                (MetadataVar, "!dbg"),
                (Exclaim, "!"),
                (Int, "12"),
                (Exclaim, "!"),
                (LBrace, "{"),
                (AttrGrpId, "#0"),
                (Hash, "#"),
                (Ident, "dbg_value"),
                (SummaryId, "^3"),
                (DotDotDot, "..."),
            ]
        );
    }

    #[test]
    fn keywords_stop_at_dots_and_hex_ints() {
        use Tok::*;
        assert_eq!(kinds("u0xFF s0x1"), vec![(Int, "u0xFF"), (Int, "s0x1")]);
        assert_eq!(kinds("foo.bar").first(), Some(&(Ident, "foo")));
        assert_eq!(kinds("i0")[0].0, Error);
        assert_eq!(kinds("\"abc")[0].0, Error);
        assert_eq!(kinds("/* x")[0].0, Error);
    }

    #[test]
    fn unescaping() {
        assert_eq!(unescape(br"a\20b\\c\q"), b"a b\\c\\q".to_vec());
    }
}
