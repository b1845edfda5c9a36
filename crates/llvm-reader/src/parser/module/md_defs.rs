//! The module pass's metadata definitions: `!N = [distinct] node` (most lines, as LLVM
//! prints them, read by bytes; the rest by tokens) and named metadata `!name = !{...}`.
//!
//! Invariant: a node is recorded once, with its span; every `!M` it names is noted as a use,
//! checked against the definitions when the module ends.

use super::md_tail;
use super::*;

impl<'a> ModuleReader<'a> {
    /// `!name = !{ !N, ... }`
    pub(super) fn read_named_metadata(&mut self) -> PResult<()> {
        self.c.bump();
        self.c.expect(Tok::Equal, "expected '=' here")?;
        self.c.expect(Tok::Exclaim, "Expected '!' here")?;
        self.c.expect(Tok::LBrace, "Expected '{' here")?;
        if !self.c.eat(Tok::RBrace) {
            loop {
                if self.c.kind() == Tok::MetadataVar {
                    parse_md_node_ref(self)?;
                } else {
                    self.c.expect(Tok::Exclaim, "Expected '!' here")?;
                    let t = self.c.bump();
                    match (t.kind, parse_u32(self.c.tok_text(t))) {
                        (Tok::Int, Some(id)) => self.metadata_use(id, t.start as usize)?,
                        _ => return self.c.err_at(t.start as usize, "expected metadata node"),
                    }
                }
                if !self.c.eat(Tok::Comma) {
                    break;
                }
            }
            self.c
                .expect(Tok::RBrace, "expected end of metadata node")?;
        }
        Ok(())
    }

    /// `!N = [distinct] node`
    pub(super) fn read_metadata_def(&mut self) -> PResult<()> {
        // Most lines, as LLVM prints them, are read by bytes (see `scan_plain_fields`).
        let head = self.plain_def_head();
        if let Some((id, distinct, start)) = head {
            if self.read_plain_node(start)? {
                return self.define_metadata(id, start, distinct);
            }
        }
        self.c.bump();
        let id = match (self.c.kind(), parse_u32(self.c.text())) {
            (Tok::Int, Some(id)) => id,
            _ => return self.c.err("expected metadata number"),
        };
        self.c.bump();
        self.c.expect(Tok::Equal, "expected '=' here")?;
        if is_type_token(&self.c) {
            return self.c.err("unexpected type in metadata definition");
        }
        let distinct = self.c.eat_kw(b"distinct");
        let start = self.c.at();
        match self.c.kind() {
            Tok::MetadataVar => {
                // The fast path was tried above if the head was plain.
                if head.is_some() || !self.read_plain_node(start)? {
                    parse_md_node_ref(self)?;
                }
            }
            Tok::Exclaim if self.c.peek().kind == Tok::LBrace => parse_md_node_ref(self)?,
            _ => return self.c.err("Expected '!' here"),
        }
        self.define_metadata(id, start, distinct)
    }

    /// Records `!id`, the node from `start` to the end of the last token read.
    fn define_metadata(&mut self, id: u32, start: usize, distinct: bool) -> PResult<()> {
        let mut node = MdNode::new(start as u32, self.c.prev_end, distinct);
        node.location_scope = std::mem::replace(&mut self.plain_location_scope, u32::MAX);
        let text = &self.c.src[start..self.c.prev_end as usize];
        let columnless = !distinct && llvm_ir::print::module_writer::is_columnless_location(text);
        if !self.record_metadata(id, node, columnless) {
            // LLVM notices once the node is read: at the token after it.
            return self.c.err("Metadata id is already used");
        }
        Ok(())
    }

    /// Defines `!id` as `node` (a location without a column is listed too); false, changing
    /// nothing, if `!id` is defined already.
    fn record_metadata(&mut self, id: u32, node: MdNode, columnless: bool) -> bool {
        if !self.md_defs.define(id, node) {
            return false;
        }
        if columnless {
            self.columnless_locations.push(id);
        }
        true
    }

    /// `!N = ` and `distinct ` as LLVM prints them, read by bytes at the cursor (an `!`): the
    /// number, whether the node is distinct, and where it starts. Nothing is consumed.
    fn plain_def_head(&self) -> Option<(u32, bool, usize)> {
        md_tail::plain_head(self.c.src, self.c.at())
    }

    /// Reads the specialized node `!DIxxx(...)` at byte `start` by [`scan_plain_fields`] if
    /// it applies (most of a `-g` module's metadata: its `!DILocation`s), leaving the cursor
    /// after it; false, having consumed nothing, if not.
    fn read_plain_node(&mut self, start: usize) -> PResult<bool> {
        let src = self.c.src;
        let Some((open, kind)) = md_tail::plain_open(src, start) else {
            return Ok(false);
        };
        let mut refs = std::mem::take(&mut self.md_refs);
        refs.clear();
        let end = scan_plain_fields(src, open + 1, &mut refs);
        if let Some(end) = end {
            for &(id, off) in &refs {
                self.metadata_use(id, off as usize)?;
            }
            if let Some(scope) = md_tail::location_scope(kind, &refs) {
                self.plain_location_scope = scope;
            }
            self.c.seek(end);
        }
        self.md_refs = refs;
        Ok(end.is_some())
    }

    /// Replays the helper's steps ([`md_tail`]) from the split, where the cursor is: a
    /// definition is taken as reading it here would take it (its uses, its definition, its
    /// items), a hole is read here. Stops, leaving the cursor where the sequential reader
    /// goes on, at a definition the cursor is not at or that redefines a number.
    pub(super) fn take_run(
        &mut self,
        run: &md_tail::PlainRun,
        prev_end: &mut Option<usize>,
    ) -> PResult<()> {
        let mut refs_start = 0;
        for step in &run.steps {
            let d = match *step {
                md_tail::Step::Hole => {
                    if self.c.kind() == Tok::Eof || !super::read_item(self, prev_end)? {
                        return Ok(());
                    }
                    continue;
                }
                md_tail::Step::Def(d) => d,
            };
            let at_def = self.c.kind() != Tok::Eof && self.c.at() == d.entity as usize;
            if !at_def || self.md_defs.contains(d.id) {
                return Ok(());
            }
            let refs = &run.refs[refs_start..d.refs_end as usize];
            refs_start = d.refs_end as usize;
            self.take_def(&d, refs, prev_end)?;
            self.c.seek(d.end as usize);
        }
        Ok(())
    }

    /// Definition `d` with its references `refs`, as [`ModuleReader::read_metadata_def`] and
    /// the item loop would record it.
    fn take_def(
        &mut self,
        d: &md_tail::PlainDef,
        refs: &[(u32, u32)],
        prev_end: &mut Option<usize>,
    ) -> PResult<()> {
        for &(id, off) in refs {
            self.metadata_use(id, off as usize)?;
        }
        let mut node = MdNode::new(d.node, d.end, d.distinct);
        node.location_scope = d.location_scope;
        // (The caller checked that `!id` is new.)
        self.record_metadata(d.id, node, d.columnless);
        let (entity, end) = (d.entity as usize, d.end as usize);
        super::note_blank_line(self, *prev_end, entity);
        self.items.push(ItemSpan::Metadata(entity, end, d.id));
        *prev_end = Some(end);
        Ok(())
    }
}
