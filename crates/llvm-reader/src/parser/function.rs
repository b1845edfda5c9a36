//! The function pass: reading one body into a [`Function`] against the finished
//! [`ModuleCtx`] (its header is read by [`super::header`]).
//!
//! Local names live in one namespace (values and blocks, as in LLVM). A name used before its
//! definition gets a placeholder — a value of the type it was used at, or a block — that the
//! definition then takes over, after checking the types agree; names still undefined when the
//! body ends are errors at their first use. Numbered values and blocks must increase (gaps are
//! allowed, as in LLVM 19); unnamed ones take the next number.
//!
//! Templates are cut while reading: `run` is the start of the current literal text; each
//! operand closes it with a hole (see [`llvm_ir::ir::instructions`]). Invariant: the text
//! between holes is exactly the input's, so every flag, attribute and comment inside an
//! instruction is kept.

use std::borrow::Cow;
use std::sync::Arc;

use super::constants::{parse_const, ConstKind};
use super::cursor::{Cursor, PResult};
pub use super::header::{parse_header, Header, HeaderParam};
use super::metadata::parse_md_node_ref;
use super::module::{global_key, ModuleCtx};
use super::module_end::{local_key, BlockAddressUse, BodyFacts, Late, LateKind};
use super::types::parse_type;
use super::Host;
use crate::lexer::{Tok, Token};
use llvm_ir::ir::dfg::ValueDef;
use llvm_ir::ir::instructions::{
    flags, Block, DbgKind, DbgVar, Inst, InstData, Opcode, Piece, PoolRange, Value,
};
use llvm_ir::ir::types::{Type, TypeData, TypeTable};
use llvm_ir::ir::{Function, MdRef, Text};
use llvm_ir::print::names::name_key;
use llvm_ir::util::fxhash::FxHashMap;

mod cutting;
mod records;

/// A local name's binding.
#[derive(Clone, Copy, Debug)]
pub(super) enum Local {
    /// A value (defined, or a forward reference first used at `at`).
    Val { v: Value, defined: bool, at: u32 },
    /// A block (defined, or referenced before its label at `at`).
    Blk { b: Block, defined: bool, at: u32 },
}

/// An instruction's result name as written.
enum ResultName<'a> {
    /// None: the result takes the next number.
    Unnamed,
    /// `%N`.
    Numbered(u32),
    /// `%name`, with its unquoted key and the key's hash (computed once, at the name, for
    /// the prefetch, the lookup and the binding).
    Named {
        tok: Token,
        key: Cow<'a, [u8]>,
        hash: u64,
    },
}

/// The key a result is bound under: a number, or a `%name`'s key and its hash.
enum Binding<'a> {
    Id(u32),
    Name(Cow<'a, [u8]>, u64),
}

/// Marks a hole index that refers to the instruction's trailing metadata-only operands.
pub(super) const EXTRA_HOLE: u32 = 1 << 31;

/// The function pass's state for one body.
pub(super) struct FuncReader<'a, 'm> {
    pub c: Cursor<'a>,
    pub m: &'m ModuleCtx,
    pub f: Function,
    names: super::name_map::NameMap<'a, Local>,
    ids: Vec<Option<Local>>,
    big_ids: FxHashMap<u32, Local>,
    next_id: u32,
    /// Start of the current literal text run of the template being cut.
    pub run: u32,
    pub pieces: Vec<Piece>,
    pub vals: Vec<Value>,
    pub blks: Vec<Block>,
    /// Values that appear only inside metadata arguments (moved after bundles at the end).
    pub extras: Vec<Value>,
    /// Whether operands become template holes (off in headers and attachments).
    pub holes: bool,
    /// Whether metadata-argument holes go to `extras` instead of `vals`.
    pub md_extras: bool,
    /// What matters beyond this body: the first debug record and `llvm.dbg.*` call (mixing
    /// them is an error), undefined globals and metadata, `blockaddress` uses.
    pub facts: BodyFacts,
    /// The lexer's comment count when the current template began.
    pub comments_at_start: u32,
    /// Templates made so far (instructions that print alike share one).
    templates: super::templates::Templates,
    /// Scratch for `getelementptr`'s literal indices (reused, so reading one allocates nothing).
    pub gep_consts: Vec<Option<i128>>,
    /// Named types already resolved in this body, by the token's text (`%struct.S`): only
    /// defined ones, whose use has no other effect.
    named_types: FxHashMap<&'a [u8], Type>,
    /// The [`Host::type_root`]s of the constant operand being read.
    roots: Vec<Type>,
    /// Whether a constant operand is being read (else a type root is a type attribute's).
    in_value: bool,
}

impl<'a> Host<'a> for FuncReader<'a, '_> {
    fn c(&mut self) -> &mut Cursor<'a> {
        &mut self.c
    }
    fn types(&mut self) -> &mut TypeTable {
        &mut self.f.types
    }
    fn named_type_use(&mut self, name: &[u8], off: usize) -> PResult<()> {
        // Undefined: an opaque type until the module ends, then an error (as in LLVM).
        if self.f.types.named_body(name).is_none() && self.f.types.alias(name).is_none() {
            let late = super::module_end::undefined_type(self.c.src, name, off as u32);
            self.facts.late.push(late);
        }
        Ok(())
    }
    fn global_use(&mut self, tok: Token, ty: Type) -> PResult<()> {
        let written = self.c.tok_text(tok);
        match self.m.globals.get(&*global_key(written)) {
            Some(g) if g.ptr_ty == ty => Ok(()),
            Some(g) => {
                let msg = format!(
                    "'{}' defined with type '{}' but expected '{}'",
                    String::from_utf8_lossy(written),
                    self.f.types.display(g.ptr_ty),
                    self.f.types.display(ty)
                );
                self.c.err_at(tok.start as usize, msg)
            }
            None => {
                let key = global_key(written);
                // LLVM 19 declares the intrinsics it knows when they are used undeclared;
                // LLVM 14 (typed pointers) does not.
                let intrinsic = self.f.types.opaque_mode && super::intrinsics::is_known(&key);
                if !intrinsic {
                    let late = super::module_end::undefined_global(&key, tok.start);
                    self.facts.late.push(late);
                }
                Ok(())
            }
        }
    }
    fn blockaddress_use(&mut self, func: Token, block: Token) -> PResult<()> {
        let key = global_key(self.c.tok_text(func))
            .into_owned()
            .into_boxed_slice();
        if *key == *self.facts.key {
            return self.own_block_address(block);
        }
        self.facts.blockaddrs.push(BlockAddressUse {
            at: func.start,
            func: key,
            func_at: func.start,
            label: local_key(self.c.tok_text(block), block.kind == Tok::LocalVarId),
            label_at: block.start,
        });
        Ok(())
    }
    fn metadata_use(&mut self, id: u32, off: usize) -> PResult<()> {
        if !self.m.metadata.contains(id) {
            let msg = format!("use of undefined metadata '!{id}'");
            let late = Late::numbered(LateKind::Metadata, id, off as u32, msg);
            self.facts.late.push(late);
        }
        Ok(())
    }
    fn cached_type_name(&self, written: &[u8]) -> Option<Type> {
        self.named_types.get(written).copied()
    }
    fn cache_type_name(&mut self, written: &'a [u8], t: Type) {
        self.named_types.insert(written, t);
    }
    fn attr_group_use(&mut self, id: u32, _off: usize) -> PResult<u8> {
        Ok(self.m.attr_groups.get(&id).copied().unwrap_or(0))
    }
    fn type_root(&mut self, ty: Type) {
        if self.in_value {
            self.roots.push(ty);
        } else {
            self.f.type_attrs = true;
        }
    }
    fn md_value(&mut self, ty: Type) -> PResult<()> {
        if !self.holes {
            if matches!(self.c.kind(), Tok::LocalVar | Tok::LocalVarId) {
                return self.c.err("invalid use of function-local name");
            }
            return parse_const(self, ty).map(|_| ());
        }
        let before = self.vals.len();
        self.parse_value(ty)?;
        if self.md_extras {
            // Re-point the hole just made at the extras list.
            let v = self.vals.pop().expect("a hole was made");
            debug_assert_eq!(self.vals.len(), before);
            if let Some(Piece::Value(i)) = self.pieces.last_mut() {
                *i = EXTRA_HOLE | self.extras.len() as u32;
            }
            self.extras.push(v);
        }
        Ok(())
    }
}

/// `v` in decimal (as `i128::to_string` writes it), in `buf`.
fn decimal(v: i128, buf: &mut [u8; 40]) -> &[u8] {
    let mut i = buf.len();
    let mut u = v.unsigned_abs();
    while u > u64::MAX as u128 {
        i -= 1;
        buf[i] = b'0' + (u % 10) as u8;
        u /= 10;
    }
    let mut w = u as u64;
    loop {
        i -= 1;
        buf[i] = b'0' + (w % 10) as u8;
        w /= 10;
        if w == 0 {
            break;
        }
    }
    if v < 0 {
        i -= 1;
        buf[i] = b'-';
    }
    &buf[i..]
}

/// The lookup key of a label token (`bb:`, `"a b":`).
fn label_key(text: &[u8]) -> Cow<'_, [u8]> {
    let body = &text[..text.len() - 1];
    if body.first() == Some(&b'"') && body.len() >= 2 {
        let inner = &body[1..body.len() - 1];
        if inner.contains(&b'\\') {
            return Cow::Owned(crate::lexer::unescape(inner));
        }
        return Cow::Borrowed(inner);
    }
    Cow::Borrowed(body)
}

/// Reads function body number `index` of `ctx` from `source`. Also returns what the body
/// tells about the module (see [`super::module_end`]), when it fails too: what it saw up to
/// its error.
pub fn read_function(
    source: &Arc<[u8]>,
    ctx: &ModuleCtx,
    index: usize,
) -> (PResult<Function>, BodyFacts) {
    let span = ctx.functions[index];
    let src: &[u8] = source;
    let mut r = FuncReader {
        c: Cursor::new(&src[..span.end as usize], span.start as usize),
        m: ctx,
        f: Function::new(source.clone(), &ctx.types, ctx.types.common().void),
        names: Default::default(),
        ids: Vec::new(),
        big_ids: FxHashMap::default(),
        next_id: 0,
        run: 0,
        pieces: Vec::new(),
        vals: Vec::new(),
        blks: Vec::new(),
        extras: Vec::new(),
        holes: false,
        md_extras: false,
        facts: BodyFacts {
            end: span.end,
            ..BodyFacts::default()
        },
        comments_at_start: 0,
        templates: super::templates::Templates::for_body((span.end - span.start) as usize),
        gep_consts: Vec::new(),
        named_types: FxHashMap::default(),
        roots: Vec::new(),
        in_value: false,
    };
    // About one instruction per 48 bytes of body text (clang's output); see `DataFlowGraph::reserve`.
    let insts = (span.end - span.start) as usize / 48 + 8;
    let pieces = if r.templates.shares() {
        insts / 8
    } else {
        insts * 4
    };
    r.f.dfg.reserve(insts, pieces);
    r.f.layout.reserve(insts, insts / 8 + 1);
    r.ids.reserve(insts + insts / 2);
    // Room for about one name per instruction (clang names most values and every block;
    // generated code may name all): growing a large map re-files every name at random.
    r.names.reserve(insts);
    let res = r.read_define();
    if res.is_ok() && span.blockaddress_target {
        r.facts.locals = r.locals();
    }
    (res.map(|()| r.f), r.facts)
}

impl<'a, 'm> FuncReader<'a, 'm> {
    fn read_define(&mut self) -> PResult<()> {
        let start = self.c.at();
        self.c.expect_kw(b"define", "expected 'define'")?;
        let h = parse_header(self, true)?;
        self.facts.key = global_key(self.c.tok_text(h.name))
            .into_owned()
            .into_boxed_slice();
        self.f.ret_ty = h.ret;
        self.f.optnone = h.fn_flags & super::attrs::fn_flags::OPTNONE != 0;
        self.f.no_signed_zeros = h.fn_flags & super::attrs::fn_flags::NO_SIGNED_ZEROS != 0;
        self.f.param_flags = h.params.iter().map(|p| p.flags).collect();
        self.f.name = Text::source(h.name.start as usize + 1, h.name.end as usize);
        let header_end = self.c.prev_end;
        self.build_header(start as u32, header_end, &h)?;
        self.c
            .expect(Tok::LBrace, "expected '{' in function body")?;
        self.holes = true;
        self.read_body()?;
        let len = self.f.dfg.values.len();
        let _ = len;
        Ok(())
    }

    /// Makes the parameter values and the header template with their holes.
    fn build_header(&mut self, start: u32, end: u32, h: &Header) -> PResult<()> {
        let mut pieces = Vec::new();
        let mut run = start;
        for (i, p) in h.params.iter().enumerate() {
            let (name, cut, resume) = match p.name {
                Some(t) => (
                    Text::source(t.start as usize + 1, t.end as usize),
                    t.start,
                    t.end,
                ),
                None => (Text::NONE, p.end, p.end),
            };
            let v = self
                .f
                .dfg
                .make_value(p.ty, ValueDef::Param(i as u32), Text::NONE);
            self.f.params.push(v);
            match p.name {
                Some(t) if t.kind == Tok::LocalVar => {
                    self.f.dfg.values[v].name = name;
                    let key = name_key(self.c.tok_text(t));
                    if self
                        .names
                        .insert(
                            key,
                            Local::Val {
                                v,
                                defined: true,
                                at: t.start,
                            },
                        )
                        .is_some()
                    {
                        let msg = format!(
                            "redefinition of argument '{}'",
                            String::from_utf8_lossy(self.c.tok_text(t))
                        );
                        return self.c.err_at(t.start as usize, msg);
                    }
                }
                Some(t) => {
                    // The number was checked with the header (`parse_header`).
                    let n = self.c.id_of(t);
                    self.bind_id(
                        n,
                        Local::Val {
                            v,
                            defined: true,
                            at: t.start,
                        },
                    );
                    self.next_id = n.saturating_add(1);
                }
                None => {
                    let n = self.next_id;
                    self.bind_id(
                        n,
                        Local::Val {
                            v,
                            defined: true,
                            at: p.end,
                        },
                    );
                    self.next_id = n.saturating_add(1);
                }
            }
            if cut > run {
                pieces.push(Piece::Text(Text::source(run as usize, cut as usize)));
            }
            if p.name.is_none() {
                let sp = self.f.dfg.strings.add(b" ");
                pieces.push(Piece::Text(sp));
            }
            pieces.push(Piece::Value(i as u32));
            run = resume;
        }
        if end > run {
            pieces.push(Piece::Text(Text::source(run as usize, end as usize)));
        }
        let src = self.f.source.clone();
        for p in &mut pieces {
            if let Piece::Text(t) = *p {
                let bytes = t.resolve(&src, self.f.dfg.strings.bytes()).to_vec();
                if t.in_source() && (bytes.contains(&b';') || bytes.windows(2).any(|w| w == b"/*"))
                {
                    let clean = crate::lexer::strip_comments(&bytes);
                    *p = Piece::Text(self.f.dfg.strings.add(&clean));
                }
            }
        }
        self.f.header = self.f.dfg.push_pieces(&pieces);
        Ok(())
    }

    fn bind_id(&mut self, n: u32, l: Local) {
        let n = n as usize;
        if n < (1 << 22) {
            if self.ids.len() <= n {
                self.ids.resize(n + 1, None);
            }
            self.ids[n] = Some(l);
        } else {
            self.big_ids.insert(n as u32, l);
        }
    }

    fn get_id(&self, n: u32) -> Option<Local> {
        if (n as usize) < (1 << 22) {
            self.ids.get(n as usize).copied().flatten()
        } else {
            self.big_ids.get(&n).copied()
        }
    }

    fn lookup(&self, tok: Token) -> Option<Local> {
        if tok.kind == Tok::LocalVarId || tok.kind == Tok::LabelId {
            self.get_id(self.c.id_of(tok))
        } else {
            let written = self.c.tok_text(tok);
            let key = if tok.kind == Tok::LabelStr {
                label_key(written)
            } else {
                name_key(written)
            };
            self.names.get(&key).copied()
        }
    }

    fn bind(&mut self, tok: Token, l: Local) {
        if tok.kind == Tok::LocalVarId || tok.kind == Tok::LabelId {
            let n = self.c.id_of(tok);
            self.bind_id(n, l);
        } else {
            let written = self.c.tok_text(tok);
            let key = if tok.kind == Tok::LabelStr {
                label_key(written)
            } else {
                name_key(written)
            };
            self.names.insert(key, l);
        }
    }

    /// Binds an instruction's result to its number or its `%name`.
    fn bind_result(&mut self, b: Binding<'a>, l: Local) {
        match b {
            Binding::Id(n) => self.bind_id(n, l),
            Binding::Name(key, h) => {
                self.names.insert_hashed(key, h, l);
            }
        }
    }

    /// What a result's number or `%name` is bound to now.
    fn bound(&self, b: &Binding<'a>) -> Option<Local> {
        match b {
            Binding::Id(n) => self.get_id(*n),
            Binding::Name(key, h) => self.names.get_hashed(key, *h).copied(),
        }
    }

    /// Closes the current text run at `at` and adds a value hole for `v`.
    pub fn hole_value(&mut self, at: u32, v: Value) {
        if !self.holes {
            return;
        }
        if at > self.run {
            self.pieces
                .push(Piece::Text(Text::source(self.run as usize, at as usize)));
        }
        self.pieces.push(Piece::Value(self.vals.len() as u32));
        self.vals.push(v);
        self.run = self.c.prev_end;
    }

    /// Closes the current text run at `at` and adds a block hole for `b`.
    pub fn hole_block(&mut self, at: u32, b: Block) {
        if at > self.run {
            self.pieces
                .push(Piece::Text(Text::source(self.run as usize, at as usize)));
        }
        self.pieces.push(Piece::Block(self.blks.len() as u32));
        self.blks.push(b);
        self.run = self.c.prev_end;
    }

    /// A local value `%x` of type `ty` (the token is consumed): defined, or a forward reference.
    pub fn local_value(&mut self, tok: Token, ty: Type) -> PResult<Value> {
        match self.lookup(tok) {
            Some(Local::Val { v, .. }) => {
                let vt = self.f.dfg.value_type(v);
                if vt != ty {
                    let msg = format!(
                        "'{}' defined with type '{}' but expected '{}'",
                        String::from_utf8_lossy(self.c.tok_text(tok)),
                        self.f.types.display(vt),
                        self.f.types.display(ty)
                    );
                    return self.c.err_at(tok.start as usize, msg);
                }
                Ok(v)
            }
            Some(Local::Blk { .. }) => {
                let msg = format!(
                    "'{}' defined with type 'label' but expected '{}'",
                    String::from_utf8_lossy(self.c.tok_text(tok)),
                    self.f.types.display(ty)
                );
                self.c.err_at(tok.start as usize, msg)
            }
            None => {
                if ty == self.f.types.common().void || ty == self.f.types.common().label {
                    return self
                        .c
                        .err_at(tok.start as usize, "invalid use of a non-first-class type");
                }
                let v = self.f.dfg.make_value(ty, ValueDef::Undef, Text::NONE);
                self.bind(
                    tok,
                    Local::Val {
                        v,
                        defined: false,
                        at: tok.start,
                    },
                );
                Ok(v)
            }
        }
    }

    /// A value of type `ty`: a local or a constant; adds its hole.
    pub fn parse_value(&mut self, ty: Type) -> PResult<Value> {
        let at = self.c.tok.start;
        let v = match self.c.kind() {
            Tok::LocalVar | Tok::LocalVarId => {
                let tok = self.c.bump();
                self.local_value(tok, ty)?
            }
            _ => {
                self.roots.clear();
                self.in_value = true;
                let k = parse_const(self, ty);
                self.in_value = false;
                let k = k?;
                let end = self.c.prev_end;
                let def = match k {
                    ConstKind::Undef => ValueDef::Undef,
                    ConstKind::Poison => ValueDef::Poison,
                    ConstKind::Int => ValueDef::Const(self.canonical_int(ty, at, end)),
                    _ => ValueDef::Const(Text::source(at as usize, end as usize)),
                };
                let v = self.f.dfg.make_value(ty, def, Text::NONE);
                if self.roots.len() > 1 {
                    self.f.const_roots.insert(v, self.roots.as_slice().into());
                }
                v
            }
        };
        self.hole_value(at, v);
        Ok(v)
    }

    /// An integer literal's text as LLVM prints it: the value truncated to the type's width,
    /// as a signed decimal (`true`/`false` for `i1`). The source text when already so.
    fn canonical_int(&mut self, ty: Type, at: u32, end: u32) -> Text {
        let src = Text::source(at as usize, end as usize);
        let bits = match self.f.types.data(ty) {
            TypeData::Int(n) if *n <= 127 => *n,
            _ => return src,
        };
        let text = self.f.text(src);
        let Some(v) = super::constants::int_literal_value(text) else {
            return src;
        };
        let m = v & ((1i128 << bits) - 1);
        let signed = if m >> (bits - 1) & 1 == 1 {
            m - (1i128 << bits)
        } else {
            m
        };
        let mut buf = [0u8; 40];
        let canon: &[u8] = match (bits, signed) {
            (1, 0) => b"false",
            (1, _) => b"true",
            _ => decimal(signed, &mut buf),
        };
        if canon == text {
            src
        } else {
            self.f.dfg.strings.add(canon)
        }
    }

    /// `Type Value`.
    pub fn parse_typed_value(&mut self) -> PResult<(Type, Value)> {
        let ty = parse_type(self)?;
        let v = self.parse_value(ty)?;
        Ok((ty, v))
    }

    /// `label %bb`: a block operand with its hole.
    pub fn parse_block_ref(&mut self) -> PResult<Block> {
        if !self.c.is_kw(b"label") {
            // LLVM reads any `Type Value` here and only then finds it is not a block.
            let at = self.c.at();
            let ty = parse_type(self)?;
            self.parse_value(ty)?;
            return self.c.err_at(at, "expected a basic block");
        }
        self.c.bump();
        self.parse_block_name()
    }

    /// `%bb` (after `label`, or in a phi's incoming list).
    pub fn parse_block_name(&mut self) -> PResult<Block> {
        let tok = self.c.tok;
        if !matches!(tok.kind, Tok::LocalVar | Tok::LocalVarId) {
            return self.c.err("expected a basic block");
        }
        self.c.bump();
        let b = match self.lookup(tok) {
            Some(Local::Blk { b, .. }) => b,
            Some(Local::Val { .. }) => {
                let msg = format!(
                    "'{}' is not a basic block",
                    String::from_utf8_lossy(self.c.tok_text(tok))
                );
                return self.c.err_at(tok.start as usize, msg);
            }
            None => {
                let b = self.f.dfg.make_block(Text::NONE);
                self.bind(
                    tok,
                    Local::Blk {
                        b,
                        defined: false,
                        at: tok.start,
                    },
                );
                b
            }
        };
        self.hole_block(tok.start, b);
        Ok(b)
    }

    /// Starts a block: its label (if any) was just read as `label`.
    fn begin_block(&mut self, label: Option<Token>) -> PResult<Block> {
        let (at, key_tok) = match label {
            Some(t) => (t.start, Some(t)),
            None => (self.c.tok.start, None),
        };
        let numbered = match key_tok {
            Some(t) if t.kind == Tok::LabelId => Some(self.c.id_of(t)),
            None => Some(self.next_id),
            _ => None,
        };
        if let Some(n) = numbered {
            let typed = !self.f.types.opaque_mode;
            let e = super::module::numbering_error(typed, "label", "", self.next_id, n);
            if let Some(msg) = e {
                return self.c.err_at(at as usize, msg);
            }
            self.next_id = n.saturating_add(1);
        }
        let record_number = numbered;
        let existing = match (key_tok, numbered) {
            (Some(t), None) => self.lookup(t),
            (_, Some(n)) => self.get_id(n),
            _ => None,
        };
        let b = match existing {
            Some(Local::Blk {
                defined: false, b, ..
            }) => b,
            Some(Local::Blk { defined: true, .. }) | Some(Local::Val { defined: true, .. }) => {
                let name = match key_tok {
                    Some(t) => String::from_utf8_lossy(self.c.tok_text(t))
                        .trim_end_matches(':')
                        .to_string(),
                    None => format!("{}", numbered.unwrap_or(0)),
                };
                return self
                    .c
                    .err_at(at as usize, format!("redefinition of label '{name}'"));
            }
            Some(Local::Val {
                defined: false, v, ..
            }) => {
                let msg = format!(
                    "'%{}' defined with type 'label' but expected '{}'",
                    numbered.map(|n| n.to_string()).unwrap_or_default(),
                    self.f.types.display(self.f.dfg.value_type(v))
                );
                return self.c.err_at(at as usize, msg);
            }
            None => self.f.dfg.make_block(Text::NONE),
        };
        if let Some(t) = key_tok {
            if t.kind == Tok::LabelStr {
                self.f.dfg.blocks[b].name = Text::source(t.start as usize, t.end as usize - 1);
            }
        }
        let l = Local::Blk {
            b,
            defined: true,
            at,
        };
        match (key_tok, numbered) {
            (Some(t), None) => self.bind(t, l),
            (_, Some(n)) => self.bind_id(n, l),
            _ => {}
        }
        self.f.layout.append_block(b);
        if let Some(n) = record_number {
            if self.m.has_blockaddress {
                self.f.input_block_numbers.push((n, b));
            }
        }
        Ok(b)
    }

    /// The body after `{`, through `}`.
    fn read_body(&mut self) -> PResult<()> {
        loop {
            let label = match self.c.kind() {
                Tok::LabelStr | Tok::LabelId => Some(self.c.bump()),
                Tok::RBrace if self.f.layout.entry_block().is_some() => break,
                Tok::RBrace => {
                    return self
                        .c
                        .err("function body requires at least one basic block")
                }
                _ => None,
            };
            let b = self.begin_block(label)?;
            self.read_block(b)?;
        }
        self.c.bump();
        self.check_forward_refs()
    }

    /// Instructions of block `b` up to and including its terminator.
    fn read_block(&mut self, b: Block) -> PResult<()> {
        loop {
            if self.c.kind() == Tok::Hash {
                let i = self.read_record()?;
                self.f.layout.append_inst(i, b);
                continue;
            }
            let (inst, term) = self.read_named_instruction()?;
            self.f.layout.append_inst(inst, b);
            if term {
                return Ok(());
            }
        }
    }

    /// `[%name =] instruction [, !kind !md]*`; returns it and whether it is a terminator.
    fn read_named_instruction(&mut self) -> PResult<(Inst, bool)> {
        let (name, name_at) = match self.c.kind() {
            Tok::LocalVar | Tok::LocalVarId => {
                let t = self.c.bump();
                let msg = if t.kind == Tok::LocalVar {
                    "expected '=' after instruction name"
                } else {
                    "expected '=' after instruction id"
                };
                self.c.expect(Tok::Equal, msg)?;
                let name = if t.kind == Tok::LocalVar {
                    // The key and its hash, computed once for the prefetch, the lookup and
                    // the binding.
                    let key = name_key(self.c.tok_text(t));
                    let hash = super::name_map::hash(&key);
                    self.names.prefetch(hash);
                    ResultName::Named { tok: t, key, hash }
                } else {
                    ResultName::Numbered(self.c.id_of(t))
                };
                (name, t.start)
            }
            _ => (ResultName::Unnamed, self.c.tok.start),
        };
        self.begin_template();
        let mut out = self.parse_instruction()?;
        out.template_end.get_or_insert(self.c.prev_end);
        let attachments = self.read_attachments()?;
        let mut data = self.finish_template(&out, attachments);
        if out.op != Opcode::Alloca {
            let poisoning = self.f.dfg.attachments[attachments.span()]
                .iter()
                .any(|&(k, _)| matches!(self.f.text(k), b"range" | b"nonnull" | b"align"));
            if poisoning {
                data.flags |= flags::MAY_POISON;
            }
        }
        let inst = self.define_result(name, name_at, data, out.ty)?;
        if let Some(mut d) = out.dbg {
            if !d.record {
                if let Some(&(_, node)) = self
                    .f
                    .dfg
                    .inst_attachments(inst)
                    .iter()
                    .find(|(k, _)| self.f.text(*k) == b"dbg")
                {
                    d.loc = node;
                }
            }
            self.f.dfg.dbg[inst] = Some(d);
        }
        if !out.bundles.is_empty() {
            let start = self.f.dfg.bundle_pool.len() as u32;
            self.f.dfg.bundle_pool.extend_from_slice(&out.bundles);
            self.f.dfg.bundles[inst] = PoolRange {
                start,
                len: out.bundles.len() as u32,
            };
        }
        Ok((inst, out.op.is_terminator()))
    }

    /// `, !kind node` attachments after an instruction.
    fn read_attachments(&mut self) -> PResult<PoolRange> {
        let start = self.f.dfg.attachments.len() as u32;
        let holes = self.holes;
        self.holes = false;
        while self.c.kind() == Tok::Comma && self.c.peek().kind == Tok::MetadataVar {
            self.c.bump();
            let k = self.c.bump();
            let node_at = self.c.at();
            parse_md_node_ref(self)?;
            let node = Text::source(node_at, self.c.prev_end as usize);
            self.f.dfg.attachments.push((
                Text::source(k.start as usize + 1, k.end as usize),
                MdRef::Text(node),
            ));
        }
        self.holes = holes;
        if self.c.kind() == Tok::Comma {
            self.c.bump();
            return self.c.err("expected metadata attachment");
        }
        Ok(PoolRange {
            start,
            len: self.f.dfg.attachments.len() as u32 - start,
        })
    }

    /// Makes the instruction, binding its name (or number) to its result.
    fn define_result(
        &mut self,
        name: ResultName<'a>,
        at: u32,
        data: InstData,
        ty: Option<Type>,
    ) -> PResult<Inst> {
        let ty = match ty {
            Some(t) if t != self.f.types.common().void => t,
            _ => {
                if !matches!(name, ResultName::Unnamed) {
                    return self.c.err_at(
                        at as usize,
                        "instructions returning void cannot have a name",
                    );
                }
                return Ok(self.f.dfg.make_inst(data, None, Text::NONE));
            }
        };
        let (binding, text) = match name {
            ResultName::Named { tok, key, hash } => (
                Binding::Name(key, hash),
                Text::source(tok.start as usize + 1, tok.end as usize),
            ),
            ResultName::Numbered(n) => {
                let typed = !self.f.types.opaque_mode;
                let e = super::module::numbering_error(typed, "instruction", "%", self.next_id, n);
                if let Some(msg) = e {
                    return self.c.err_at(at as usize, msg);
                }
                (Binding::Id(n), Text::NONE)
            }
            ResultName::Unnamed => (Binding::Id(self.next_id), Text::NONE),
        };
        if let Binding::Id(n) = binding {
            self.next_id = n.saturating_add(1);
        }
        let inst = match self.bound(&binding) {
            None => {
                let i = self.f.dfg.make_inst(data, Some(ty), text);
                let v = self.f.dfg.insts[i].result;
                let l = Local::Val {
                    v,
                    defined: true,
                    at,
                };
                self.bind_result(binding, l);
                i
            }
            Some(Local::Val {
                v, defined: false, ..
            }) => {
                let vt = self.f.dfg.value_type(v);
                if vt != ty {
                    let msg = format!(
                        "instruction forward referenced with type '{}'",
                        self.f.types.display(vt)
                    );
                    return self.c.err_at(at as usize, msg);
                }
                if !text.is_none() {
                    self.f.dfg.values[v].name = text;
                }
                let l = Local::Val {
                    v,
                    defined: true,
                    at,
                };
                self.bind_result(binding, l);
                self.f.dfg.make_inst_with_result(data, v)
            }
            Some(Local::Blk { defined: false, .. }) => {
                return self.c.err_at(
                    at as usize,
                    "instruction forward referenced with type 'label'",
                );
            }
            Some(_) => {
                let msg = match binding {
                    Binding::Name(key, _) => format!(
                        "multiple definition of local value named '{}'",
                        String::from_utf8_lossy(&key)
                    ),
                    Binding::Id(n) => format!("multiple definition of local value numbered '{n}'"),
                };
                return self.c.err_at(at as usize, msg);
            }
        };
        Ok(inst)
    }

    /// Names used but never defined are errors at their first use. LLVM reports the first
    /// of them by name (its `std::map`), then numbered ones by number.
    fn check_forward_refs(&self) -> PResult<()> {
        let undefined = |l: &Local| match *l {
            Local::Val {
                defined: false, at, ..
            }
            | Local::Blk {
                defined: false, at, ..
            } => Some(at),
            _ => None,
        };
        let named = self
            .names
            .iter()
            .filter_map(|(k, l)| Some((k, undefined(l)?)))
            .min_by(|a, b| a.0.cmp(b.0));
        let numbered = || {
            let small = self.ids.iter().flatten().filter_map(undefined).next();
            let mut big: Vec<(u32, u32)> = self
                .big_ids
                .iter()
                .filter_map(|(&n, l)| Some((n, undefined(l)?)))
                .collect();
            big.sort();
            small.or(big.first().map(|b| b.1))
        };
        let at = match named {
            Some((_, at)) => at,
            None => match numbered() {
                Some(at) => at,
                None => return Ok(()),
            },
        };
        let mut c = self.c.clone();
        c.seek(at as usize);
        let msg = format!(
            "use of undefined value '{}'",
            String::from_utf8_lossy(c.text())
        );
        self.c.err_at(at as usize, msg)
    }

    /// `blockaddress(@this_function, %bb)` inside this body: `%bb` is a block of this body,
    /// defined before or after (LLVM's `getBB`: a forward reference of type `label`).
    fn own_block_address(&mut self, block: Token) -> PResult<()> {
        match self.lookup(block) {
            Some(Local::Blk { .. }) => Ok(()),
            Some(Local::Val { .. }) => self.c.err_at(
                block.start as usize,
                "referenced value is not a basic block",
            ),
            None => {
                let b = self.f.dfg.make_block(Text::NONE);
                let l = Local::Blk {
                    b,
                    defined: false,
                    at: block.start,
                };
                self.bind(block, l);
                Ok(())
            }
        }
    }

    /// Every local name of the body: key, where it is defined, whether it is a block.
    fn locals(&self) -> Vec<(Box<[u8]>, u32, bool)> {
        let one = |l: &Local| match *l {
            Local::Val { at, .. } => (at, false),
            Local::Blk { at, .. } => (at, true),
        };
        let mut out: Vec<(Box<[u8]>, u32, bool)> = Vec::new();
        for (k, l) in self.names.iter() {
            let (at, blk) = one(l);
            out.push((k.to_vec().into_boxed_slice(), at, blk));
        }
        let ids = self
            .ids
            .iter()
            .enumerate()
            .filter_map(|(n, l)| Some((n as u32, (*l)?)));
        let big = self.big_ids.iter().map(|(&n, &l)| (n, l));
        // A numbered local's key (`local_key`'s): NUL and the digits, one allocation.
        let mut key = Vec::with_capacity(11);
        for (n, l) in ids.chain(big) {
            let (at, blk) = one(&l);
            key.clear();
            key.push(0);
            llvm_ir::lexical::write_u32(&mut key, n);
            out.push((Box::from(&key[..]), at, blk));
        }
        out.sort();
        out
    }
}
