//! Parse errors: a message and a byte offset, rendered as `FILE:LINE:COL: error: MSG`, the source
//! line and a caret, as LLVM's tools print them.

use std::fmt;

/// An error found while reading `.ll` text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// What is wrong.
    pub message: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column (in bytes).
    pub col: usize,
    /// The offending source line (lossy UTF-8), without its newline.
    pub source_line: String,
}

impl ParseError {
    /// An error at byte `offset` of `source`.
    pub fn at(source: &[u8], offset: usize, message: impl Into<String>) -> Self {
        let offset = offset.min(source.len());
        let line_start = source[..offset]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |p| p + 1);
        let line_end = source[offset..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(source.len(), |p| offset + p);
        let line = source[..line_start].iter().filter(|&&b| b == b'\n').count() + 1;
        Self {
            message: message.into(),
            line,
            col: offset - line_start + 1,
            source_line: printable(&source[line_start..line_end]),
        }
    }

    /// The error in opt's shape for input `file`: `FILE:LINE:COL: error: MSG`, line, caret.
    pub fn render(&self, file: &str) -> String {
        let caret_pad: String = self
            .source_line
            .chars()
            .take(self.col.saturating_sub(1))
            .map(|c| if c == '\t' { '\t' } else { ' ' })
            .collect();
        format!(
            "{file}:{}:{}: error: {}\n{}\n{caret_pad}^\n",
            self.line, self.col, self.message, self.source_line
        )
    }
}

/// A source line as a terminal can show it: lossy UTF-8, control characters other than tab as
/// `.`; a line of binary data (it holds a NUL byte) only up to its first 32 bytes.
fn printable(line: &[u8]) -> String {
    let line = if line.contains(&0) {
        &line[..line.len().min(32)]
    } else {
        line
    };
    String::from_utf8_lossy(line)
        .chars()
        .map(|c| if c.is_control() && c != '\t' { '.' } else { c })
        .collect()
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: error: {}", self.line, self.col, self.message)
    }
}

impl std::error::Error for ParseError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caret_points_at_column() {
        let src = b"define void @f() {\n  %x = bogus i32 1\n}\n";
        let e = ParseError::at(src, 26, "expected instruction opcode");
        assert_eq!((e.line, e.col), (2, 8));
        assert_eq!(
            e.render("t.ll"),
            "t.ll:2:8: error: expected instruction opcode\n  %x = bogus i32 1\n       ^\n"
        );
    }

    #[test]
    fn binary_line_is_shown_printable_and_short() {
        let mut src = b"BC\xC0\xDE\x35\x14\x00\x00".to_vec();
        src.extend(std::iter::repeat(b'A').take(100));
        let e = ParseError::at(&src, 0, "bad");
        assert_eq!(
            e.source_line,
            format!("BC\u{FFFD}\u{FFFD}5...{}", "A".repeat(24))
        );
    }
}
