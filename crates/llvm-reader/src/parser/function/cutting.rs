//! Cutting an instruction's template out of the body's text: the literal runs between
//! operand holes, text edits (patches) the reader asks for, and comments dropped (LLVM's
//! printer never keeps them); then the instruction's data, with its template interned.
//!
//! Invariant: apart from patches and dropped comments, a template's text pieces are exactly
//! the input's bytes, so flags and attributes inside an instruction survive unparsed.

use super::*;

impl<'a, 'm> FuncReader<'a, 'm> {
    /// Starts cutting a template at the current token.
    pub fn begin_template(&mut self) {
        self.comments_at_start = self.c.comments().0;
        self.run = self.c.tok.start;
        self.pieces.clear();
        self.vals.clear();
        self.blks.clear();
        self.extras.clear();
    }

    /// Ends the template at the last consumed token and makes the instruction's data.
    pub(super) fn finish_template(
        &mut self,
        out: &crate::parser::instructions::InstOut,
        attachments: PoolRange,
    ) -> InstData {
        let end = out.template_end.unwrap_or(self.c.prev_end);
        if end > self.run {
            self.pieces
                .push(Piece::Text(Text::source(self.run as usize, end as usize)));
        }
        if !out.patches.is_empty() {
            self.apply_patches(&out.patches, end);
        }
        self.drop_comments(end);
        if !self.extras.is_empty() {
            let base = self.vals.len() as u32;
            for p in &mut self.pieces {
                if let Piece::Value(i) = p {
                    if *i & EXTRA_HOLE != 0 {
                        *i = base + (*i & !EXTRA_HOLE);
                    }
                }
            }
            self.vals.append(&mut self.extras);
        }
        let dfg = &mut self.f.dfg;
        InstData {
            opcode: out.op,
            flags: out.flags,
            result: Value::NONE,
            aux_ty: out.aux,
            values: dfg.push_values(&self.vals),
            blocks: dfg.push_blocks(&self.blks),
            pieces: self.templates.intern(self.c.src, &self.pieces, dfg),
            attachments,
            extra: out.extra,
        }
    }

    /// Applies text edits (source offset, length, replacement) to the template's text pieces;
    /// an insertion at the template's end goes after its last piece.
    pub(super) fn apply_patches(&mut self, patches: &[(u32, u32, Vec<u8>)], end: u32) {
        for (at, len, new) in patches {
            let (at, len) = (*at as usize, *len as usize);
            let t = self.f.dfg.strings.add(new);
            if at == end as usize && len == 0 {
                self.pieces.push(Piece::Text(t));
                continue;
            }
            let hit = self.pieces.iter().position(|p| match *p {
                Piece::Text(s) if s.in_source() && !s.is_none() => {
                    let (a, b) = (s.source_offset(), s.source_offset() + s.len());
                    a <= at && at + len <= b
                }
                _ => false,
            });
            let Some(k) = hit else { continue };
            let Piece::Text(s) = self.pieces[k] else {
                continue;
            };
            let (a, b) = (s.source_offset(), s.source_offset() + s.len());
            let mut repl = Vec::with_capacity(3);
            if at > a {
                repl.push(Piece::Text(Text::source(a, at)));
            }
            repl.push(Piece::Text(t));
            if b > at + len {
                repl.push(Piece::Text(Text::source(at + len, b)));
            }
            self.pieces.splice(k..k + 1, repl);
        }
    }

    /// Whether a comment started inside the template ending at `end` (a comment after it, on
    /// the same line, is the common case and costs nothing).
    pub(super) fn comment_inside(&self, end: u32) -> bool {
        let (n, last) = self.c.comments();
        n > self.comments_at_start && !(n == self.comments_at_start + 1 && last >= end)
    }

    /// Removes comments from the template's text pieces (LLVM's printer never keeps them).
    pub(super) fn drop_comments(&mut self, end: u32) {
        if !self.comment_inside(end) {
            return;
        }
        let src = self.f.source.clone();
        for p in &mut self.pieces {
            if let Piece::Text(t) = *p {
                if t.in_source() && !t.is_none() {
                    let bytes = t.resolve(&src, b"");
                    if bytes.contains(&b';') || bytes.windows(2).any(|w| w == b"/*") {
                        let clean = crate::lexer::strip_comments(bytes);
                        *p = Piece::Text(self.f.dfg.strings.add(&clean));
                    }
                }
            }
        }
    }
}
