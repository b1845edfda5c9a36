//! Debug records (`#dbg_value`, `#dbg_declare`, `#dbg_assign`, `#dbg_label`: LLVM 19's form
//! of debug intrinsics) read into `DbgRecord` instructions, and the body's note of its first
//! debug intrinsic call (a body may not mix the two forms).
//!
//! Invariant: a record's [`DbgVar`] holds the spans of its variable, expression and location
//! as written; its value operand, if any, is the template's hole `loc_operand`.

use super::*;

impl<'a, 'm> FuncReader<'a, 'm> {
    /// `#dbg_value(...)`, `#dbg_declare(...)`, `#dbg_assign(...)`, `#dbg_label(...)`.
    pub(super) fn read_record(&mut self) -> PResult<Inst> {
        let at = self.c.tok.start;
        self.facts.first_record.get_or_insert(at);
        self.begin_template();
        self.c.bump();
        let kind = match (self.c.kind(), self.c.text()) {
            (Tok::Ident, b"dbg_value") => DbgKind::Value,
            (Tok::Ident, b"dbg_declare") => DbgKind::Declare,
            (Tok::Ident, b"dbg_assign") => DbgKind::Assign,
            (Tok::Ident, b"dbg_label") => DbgKind::Label,
            _ => return self.c.err("expected debug record type here"),
        };
        self.c.bump();
        self.c.expect(Tok::LParen, "Expected '(' here")?;
        let mut d = DbgVar {
            kind,
            record: true,
            var: Text::NONE,
            expr: Text::NONE,
            loc: MdRef::NONE,
            loc_operand: u32::MAX,
        };
        if kind == DbgKind::Label {
            d.var = self.md_span()?;
            self.c.expect(Tok::Comma, "Expected ',' here")?;
            d.loc = MdRef::Text(self.md_span()?);
        } else {
            d.loc_operand = self.record_location()?;
            self.c.expect(Tok::Comma, "Expected ',' here")?;
            d.var = self.md_span()?;
            self.c.expect(Tok::Comma, "Expected ',' here")?;
            d.expr = self.md_span()?;
            self.c.expect(Tok::Comma, "Expected ',' here")?;
            if kind == DbgKind::Assign {
                self.md_span()?;
                self.c.expect(Tok::Comma, "Expected ',' here")?;
                self.record_location()?;
                self.c.expect(Tok::Comma, "Expected ',' here")?;
                self.md_span()?;
                self.c.expect(Tok::Comma, "Expected ',' here")?;
            }
            d.loc = MdRef::Text(self.md_span()?);
        }
        self.c.expect(Tok::RParen, "Expected ')' here")?;
        let out = crate::parser::instructions::InstOut {
            op: Opcode::DbgRecord,
            flags: flags::DEBUG,
            aux: Type::NONE,
            ty: None,
            extra: 0,
            dbg: None,
            bundles: Vec::new(),
            template_end: None,
            patches: Vec::new(),
        };
        let data = self.finish_template(&out, PoolRange::default());
        let i = self.f.dfg.make_inst(data, None, Text::NONE);
        self.f.dfg.dbg[i] = Some(d);
        Ok(i)
    }

    /// A record's location: `T v` (returns its operand index), or a metadata node.
    pub(super) fn record_location(&mut self) -> PResult<u32> {
        match self.c.kind() {
            Tok::Exclaim | Tok::MetadataVar => {
                parse_md_node_ref(self)?;
                Ok(u32::MAX)
            }
            _ => {
                let ty = parse_type(self)?;
                let i = self.vals.len() as u32;
                self.parse_value(ty)?;
                Ok(i)
            }
        }
    }

    /// A metadata node operand, returning its span.
    pub fn md_span(&mut self) -> PResult<Text> {
        let at = self.c.at();
        parse_md_node_ref(self)?;
        Ok(Text::source(at, self.c.prev_end as usize))
    }

    /// Records that this body calls `llvm.dbg.value/declare/assign` (LLVM points at `at`).
    pub fn saw_dbg_call(&mut self, at: u32) {
        self.facts.first_dbg_call.get_or_insert(at);
    }
}
