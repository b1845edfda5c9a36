//! The lexer: source text to tokens with 1-based line and column, and the error type shared
//! with the parser.
//!
//! Tokens: identifiers (`[A-Za-z_][A-Za-z0-9_]*`, keywords excluded), unsigned decimal
//! literals (up to 2^63, so that `-9223372036854775808` can be written; the parser checks the
//! range), keywords, and the punctuation `( ) { } ; = + - * / % < <= > >= == != && || !`.
//! `//` starts a comment to the end of the line. Columns count characters, a tab being one.

use std::fmt;

/// A syntax error: position, message, and a rendering with the offending line and a caret.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based line.
    pub line: u32,
    /// 1-based column, in characters.
    pub col: u32,
    /// What was expected or found, e.g. `expected ';'`.
    pub message: String,
}

impl ParseError {
    /// The error as a compiler prints it: `file:line:col: error: message`, then the source
    /// line and a caret under the column.
    pub fn render(&self, file: &str, src: &str) -> String {
        let text = src
            .split('\n')
            .nth((self.line as usize).saturating_sub(1))
            .unwrap_or("");
        let text = text.strip_suffix('\r').unwrap_or(text);
        let pad: String = text
            .chars()
            .take((self.col as usize).saturating_sub(1))
            .map(|c| if c == '\t' { '\t' } else { ' ' })
            .collect();
        format!(
            "{file}:{}:{}: error: {}\n{text}\n{pad}^\n",
            self.line, self.col, self.message
        )
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: error: {}", self.line, self.col, self.message)
    }
}

impl std::error::Error for ParseError {}

/// A token kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    /// An identifier.
    Ident(String),
    /// An unsigned literal, at most 2^63.
    Int(u64),
    /// A keyword: `if else while break continue print return`.
    Kw(&'static str),
    /// Punctuation or an operator, as spelled.
    Punct(&'static str),
    /// End of input.
    Eof,
}

/// A token and where it starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    /// The kind.
    pub tok: Tok,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub col: u32,
    /// Length in characters (0 for `Eof`).
    pub len: u32,
}

const KEYWORDS: [&str; 7] = [
    "if", "else", "while", "break", "continue", "print", "return",
];
const PUNCT: [&str; 20] = [
    "<=", ">=", "==", "!=", "&&", "||", "(", ")", "{", "}", ";", "=", "+", "-", "*", "/", "%", "<",
    ">", "!",
];

/// Splits `src` into tokens, ending with [`Tok::Eof`].
pub fn lex(src: &str) -> Result<Vec<Token>, ParseError> {
    let chars: Vec<char> = src.chars().collect();
    let (mut i, mut line, mut line_start) = (0usize, 1u32, 0usize);
    let mut toks = Vec::new();
    while i < chars.len() {
        let c = chars[i];
        let col = (i - line_start) as u32 + 1;
        let start = i;
        if c == '\n' {
            line += 1;
            line_start = i + 1;
            i += 1;
            continue;
        }
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        if c == '/' && chars.get(i + 1) == Some(&'/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
            continue;
        }
        let tok = if c.is_ascii_alphabetic() || c == '_' {
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            word(chars[start..i].iter().collect())
        } else if c.is_ascii_digit() {
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            number(&chars[start..i], line, col)?
        } else {
            let p = punct(&chars[i..]).ok_or_else(|| unexpected(c, line, col))?;
            i += p.len();
            Tok::Punct(p)
        };
        toks.push(Token {
            tok,
            line,
            col,
            len: (i - start) as u32,
        });
    }
    let col = (chars.len() - line_start) as u32 + 1;
    toks.push(Token {
        tok: Tok::Eof,
        line,
        col,
        len: 0,
    });
    Ok(toks)
}

fn word(w: String) -> Tok {
    match KEYWORDS.iter().find(|k| **k == w) {
        Some(k) => Tok::Kw(k),
        None => Tok::Ident(w),
    }
}

fn number(digits: &[char], line: u32, col: u32) -> Result<Tok, ParseError> {
    let s: String = digits.iter().collect();
    match s.parse::<u64>() {
        Ok(v) if v <= 1 << 63 => Ok(Tok::Int(v)),
        _ => Err(ParseError {
            line,
            col,
            message: format!("integer literal {s} is too large"),
        }),
    }
}

/// The longest punctuation at the start of `rest`.
fn punct(rest: &[char]) -> Option<&'static str> {
    PUNCT
        .into_iter()
        .find(|p| p.chars().zip(rest).filter(|(a, b)| a == *b).count() == p.len())
}

fn unexpected(c: char, line: u32, col: u32) -> ParseError {
    let message = match c {
        '&' => "expected '&&'".to_owned(),
        '|' => "expected '||'".to_owned(),
        _ => format!("unexpected character {c:?}"),
    };
    ParseError { line, col, message }
}
