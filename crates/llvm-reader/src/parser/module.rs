//! The module pass of the reader: every top-level entity but function bodies.
//!
//! It reads and checks source_filename, target lines, module asm, named types, comdats,
//! globals, aliases, ifuncs, function declarations and headers, attribute groups, metadata
//! definitions, named metadata, use-list orders and summary entries; it skips each function
//! body by brace matching and remembers its span. Forward references (globals, named types,
//! metadata, comdats) are recorded at their first use and checked when the module ends, as
//! LLVM does. Output: a [`ModuleCtx`] and the module's items as spans.
//!
//! Invariant: after a successful pass, every global, named type and metadata node any body
//! can name is in the context, so bodies read against it need no further module-level state.

use std::sync::Arc;

use super::attrs::{parse_fn_attrs, parse_global_prefix};
use super::constants::{parse_const, parse_typed_const};
use super::cursor::{Cursor, PResult, Perr};
use super::function::parse_header;
use super::metadata::{has_plain_fields, parse_md_node_ref, scan_plain_fields};
use super::module_end::{local_key, BlockAddressUse, Late, LateKind};
use super::scan::{self, skip_body};
pub use llvm_ir::ir::md_table::{MdNode, MdTable};
pub use llvm_ir::ir::module_info::{
    global_key, next_module_id, GlobalKind, GlobalSym, ModuleInfo, TypeRoots,
};

mod md_defs;
mod md_tail;
use super::types::{parse_opt_addrspace, parse_type};
use super::{Host, SymbolMap};
use crate::lexer::{parse_u32, Tok, Token};
use llvm_ir::ir::types::{Type, TypeData, TypeTable};
use llvm_ir::print::names::name_key;
use llvm_ir::util::fxhash::{FxHashMap, FxHashSet};

/// A function definition's span.
#[derive(Clone, Copy, Debug)]
pub struct FunctionSpan {
    /// Offset of the `define` keyword.
    pub start: u32,
    /// Offset just after the closing `}` (the end of input for an unterminated body).
    pub end: u32,
    /// The attribute group `#N` of the header's function attributes, if any.
    pub attrs: Option<u32>,
    /// Whether a `blockaddress` may name this function: the input names it right after
    /// `blockaddress (` somewhere (one scan of the input, strings and comments included, so a
    /// superset). Only these bodies list their locals for the module-end checks, and a
    /// streaming printer waits only for these bodies' block numbering.
    pub blockaddress_target: bool,
}

/// The read-only module context function bodies are read and changed against: what passes
/// may know ([`ModuleInfo`], which the module keeps) and what only the reader needs.
#[derive(Debug)]
pub struct ModuleCtx {
    /// What the module keeps of the reading (symbols, metadata index, data layout).
    pub info: Arc<ModuleInfo>,
    /// Function definitions in order.
    pub functions: Vec<FunctionSpan>,
    /// Names used at module level and never defined: errors once the bodies are read (see
    /// [`super::module_end`]).
    pub late: Vec<Late>,
    /// `blockaddress` uses at module level, in file order.
    pub blockaddrs: Vec<BlockAddressUse>,
}

impl std::ops::Deref for ModuleCtx {
    type Target = ModuleInfo;
    fn deref(&self) -> &ModuleInfo {
        &self.info
    }
}

/// A top-level item as a span of the source.
#[derive(Clone, Debug)]
pub enum ItemSpan {
    /// Verbatim text `[start, end)` (one entity, without comments).
    Text(usize, usize),
    /// An entity's text with its comments removed.
    Owned(Vec<u8>),
    /// An empty line.
    Blank,
    /// The definition of metadata node `!N`: `(start, end, N)`.
    Metadata(usize, usize, u32),
    /// Function definition number `n` (index into [`ModuleCtx::functions`]).
    Function(usize),
}

/// The module pass's state.
pub(super) struct ModuleReader<'a> {
    c: Cursor<'a>,
    types: TypeTable,
    globals: SymbolMap<GlobalSym>,
    fwd_globals: SymbolMap<(Type, u32)>,
    pending_types: SymbolMap<u32>,
    md_defs: MdTable,
    md_uses: Vec<(u32, u32)>,
    /// Scratch for [`ModuleReader::read_plain_node`]: the node references of one node.
    md_refs: Vec<(u32, u32)>,
    attr_groups: FxHashMap<u32, u8>,
    comdats: FxHashSet<Box<[u8]>>,
    comdat_uses: Vec<(Box<[u8]>, u32)>,
    functions: Vec<FunctionSpan>,
    items: Vec<ItemSpan>,
    next_global_id: u32,
    dl: llvm_ir::ir::datalayout::DataLayout,
    /// Inside a header's `personality`/`prefix` constants the reader must not treat `@f` as
    /// defined yet: nothing special, kept for clarity of forward-reference handling.
    in_function_header: bool,
    /// The first attribute group the current function header names.
    header_attrs: Option<u32>,
    blockaddrs: Vec<BlockAddressUse>,
    blockaddress: BlockAddressScan,
    columnless_locations: Vec<u32>,
    /// Whether [`Host::type_root`] records into `roots` (global initializers and headers).
    roots_on: bool,
    roots: Vec<Type>,
    type_roots: TypeRoots,
    /// Types already among the roots of globals, aliases and functions: a type met again
    /// adds nothing to the order (a large initializer would otherwise list a root per element).
    roots_seen: [FxHashSet<Type>; 3],
    /// The scope of the `!DILocation` [`ModuleReader::read_plain_node`] just read, when that
    /// is its only reference ([`MdNode::location_scope`]).
    plain_location_scope: u32,
}

/// Marks the functions a `blockaddress` may name: every defined function the input names right
/// after `blockaddress (` (one scan of the input, strings and comments included, so a
/// superset of those named by `blockaddress` constants), and those of `module_uses`.
fn mark_blockaddress_targets(
    src: &[u8],
    globals: &SymbolMap<GlobalSym>,
    module_uses: &[BlockAddressUse],
    functions: &mut [FunctionSpan],
) {
    let scanned = llvm_ir::print::BlockAddresses::targets(src);
    let keys = scanned.iter().map(|k| &k[..]);
    for key in keys.chain(module_uses.iter().map(|u| &u.func[..])) {
        let Some(s) = globals.get(key) else { continue };
        if !s.is_definition || s.kind != GlobalKind::Function {
            continue;
        }
        let i = functions.partition_point(|f| f.start <= s.at);
        if let Some(f) = i.checked_sub(1).and_then(|i| functions.get_mut(i)) {
            f.blockaddress_target |= s.at < f.end;
        }
    }
}

/// Whether the input uses `blockaddress(` anywhere, found in one pass over the input that
/// rides on the scans the reader makes anyway: function bodies are scanned while their ends
/// are found ([`scan::skip_body`]), the text between them here.
///
/// Invariant: `seen`, or no `blockaddress(` before `scanned_to` outside bodies' strings and
/// comments.
#[derive(Default)]
struct BlockAddressScan {
    seen: bool,
    scanned_to: usize,
}

impl BlockAddressScan {
    /// Scans the text from the last body's end to the end of `upto` (the input so far).
    fn note_text(&mut self, upto: &[u8]) {
        if !self.seen && self.scanned_to < upto.len() {
            self.seen = llvm_ir::util::bytes::find_blockaddress(&upto[self.scanned_to..]).is_some();
        }
        self.scanned_to = self.scanned_to.max(upto.len());
    }

    /// Records a body that ends at `end` and whether it uses `blockaddress(`.
    fn note_body(&mut self, used: bool, end: usize) {
        self.seen |= used;
        self.scanned_to = end;
    }
}

impl<'a> Host<'a> for ModuleReader<'a> {
    fn c(&mut self) -> &mut Cursor<'a> {
        &mut self.c
    }
    fn types(&mut self) -> &mut TypeTable {
        &mut self.types
    }
    fn named_type_use(&mut self, name: &[u8], off: usize) -> PResult<()> {
        if self.types.named_body(name).is_none() && self.types.alias(name).is_none() {
            self.pending_types.entry(name.into()).or_insert(off as u32);
        }
        Ok(())
    }
    fn global_use(&mut self, tok: Token, ty: Type) -> PResult<()> {
        let written = self.c.tok_text(tok);
        let key = global_key(written);
        let found = self
            .globals
            .get(&*key)
            .map(|g| g.ptr_ty)
            .or_else(|| self.fwd_globals.get(&*key).map(|f| f.0));
        match found {
            Some(t) if t == ty => Ok(()),
            Some(t) => {
                let msg = format!(
                    "'{}' defined with type '{}' but expected '{}'",
                    String::from_utf8_lossy(written),
                    self.types.display(t),
                    self.types.display(ty)
                );
                self.c.err_at(tok.start as usize, msg)
            }
            None => {
                self.fwd_globals
                    .insert(key.into_owned().into_boxed_slice(), (ty, tok.start));
                Ok(())
            }
        }
    }
    fn blockaddress_use(&mut self, func: Token, block: Token) -> PResult<()> {
        // Checked against the function bodies once they are read (see `module_end`).
        self.blockaddrs.push(BlockAddressUse {
            at: func.start,
            func: global_key(self.c.tok_text(func))
                .into_owned()
                .into_boxed_slice(),
            func_at: func.start,
            label: local_key(self.c.tok_text(block), block.kind == Tok::LocalVarId),
            label_at: block.start,
        });
        Ok(())
    }
    fn metadata_use(&mut self, id: u32, off: usize) -> PResult<()> {
        if !self.md_defs.contains(id) {
            self.md_uses.push((id, off as u32));
        }
        Ok(())
    }
    fn type_root(&mut self, ty: Type) {
        if self.roots_on {
            self.roots.push(ty);
        }
    }
    fn attr_group_use(&mut self, id: u32, _off: usize) -> PResult<u8> {
        if self.in_function_header {
            self.header_attrs.get_or_insert(id);
        }
        Ok(self.attr_groups.get(&id).copied().unwrap_or(0))
    }
    fn md_value(&mut self, ty: Type) -> PResult<()> {
        if matches!(self.c.kind(), Tok::LocalVar | Tok::LocalVarId) {
            return self.c.err("invalid use of function-local name");
        }
        parse_const(self, ty).map(|_| ())
    }
    fn comdat_use(&mut self, tok: Token) -> PResult<()> {
        let key = name_key(self.c.tok_text(tok))
            .into_owned()
            .into_boxed_slice();
        self.comdat_uses.push((key, tok.start));
        Ok(())
    }
}

/// Reads the module-level entities of `src`, on up to all the machine's threads (see
/// [`read_module_with`]).
pub fn read_module(src: &[u8]) -> PResult<(ModuleCtx, Vec<ItemSpan>)> {
    read_module_with(src, llvm_ir::Threads::default())
}

/// Reads the module-level entities of `src`; with two `threads` or more, a long metadata
/// tail is read on two (see `md_tail`).
pub fn read_module_with(
    src: &[u8],
    threads: llvm_ir::Threads,
) -> PResult<(ModuleCtx, Vec<ItemSpan>)> {
    let split_from = (threads.get() > 1).then_some(md_tail::SPLIT_FROM_BYTES);
    read_module_split(src, split_from)
}

/// [`read_module`], splitting a metadata tail of at least `split_from` bytes (`None`: never).
fn read_module_split(src: &[u8], split_from: Option<usize>) -> PResult<(ModuleCtx, Vec<ItemSpan>)> {
    if scan::is_bitcode(src) {
        return Err(Perr(Box::new((
            0,
            "input is LLVM bitcode, not IR text; convert it with llvm-dis first".to_string(),
        ))));
    }
    let mut types = TypeTable::new();
    // Typed pointers (LLVM 14's rules) only for a module that spells them and never `ptr`; a
    // module without pointer types is read as LLVM 19 reads it.
    types.opaque_mode = scan::uses_opaque_pointers(src) || !scan::spells_typed_pointers(src);
    let mut r = ModuleReader {
        c: Cursor::new(src, 0),
        types,
        globals: SymbolMap::default(),
        fwd_globals: SymbolMap::default(),
        pending_types: SymbolMap::default(),
        md_defs: MdTable::default(),
        md_uses: Vec::new(),
        md_refs: Vec::new(),
        attr_groups: FxHashMap::default(),
        comdats: FxHashSet::default(),
        comdat_uses: Vec::new(),
        functions: Vec::new(),
        items: Vec::new(),
        next_global_id: 0,
        dl: Default::default(),
        in_function_header: false,
        header_attrs: None,
        blockaddrs: Vec::new(),
        blockaddress: BlockAddressScan::default(),
        columnless_locations: Vec::new(),
        roots_on: false,
        roots: Vec::new(),
        type_roots: TypeRoots::default(),
        roots_seen: Default::default(),
        plain_location_scope: u32::MAX,
    };
    match read_items(&mut r, split_from) {
        Ok(()) => Ok(r.finish()),
        Err(e) => Err(super::first_error_before(src, r.finish(), e)),
    }
}

/// The module's entities in order, into `r`; stops at the first error. At the first metadata
/// definition with at least `split_from` bytes left, the rest is read on two threads (see
/// `md_tail`).
fn read_items(r: &mut ModuleReader<'_>, split_from: Option<usize>) -> PResult<()> {
    let src = r.c.src;
    let mut prev_end: Option<usize> = None;
    let mut split_from = split_from;
    while r.c.kind() != Tok::Eof {
        let at = r.c.at();
        if split_from.is_some_and(|n| src.len() - at >= n) && starts_metadata_def(r) {
            split_from = None;
            if let Some(split) = md_tail::split_point(src, at) {
                md_tail::read_split(r, split, &mut prev_end)?;
                continue;
            }
        }
        if !read_item(r, &mut prev_end)? {
            break;
        }
    }
    Ok(())
}

/// Whether the cursor is at `!N` (a numbered metadata definition).
fn starts_metadata_def(r: &ModuleReader<'_>) -> bool {
    r.c.kind() == Tok::Exclaim && r.c.peek().kind == Tok::Int
}

/// A blank line in the input between the item that ended at `prev_end` and the one at `start`
/// stays, as an [`ItemSpan::Blank`] (comments never do: LLVM's printer does not keep them,
/// and a test's RUN lines must not reach its checks).
fn note_blank_line(r: &mut ModuleReader<'_>, prev_end: Option<usize>, start: usize) {
    if let Some(pe) = prev_end {
        if r.c.src[pe..start].iter().filter(|&&c| c == b'\n').count() >= 2 {
            r.items.push(ItemSpan::Blank);
        }
    }
}

/// Reads one item at the cursor into `r`; false when a function body ran to the end of
/// the input.
fn read_item(r: &mut ModuleReader<'_>, prev_end: &mut Option<usize>) -> PResult<bool> {
    let src = r.c.src;
    let start = r.c.at();
    note_blank_line(r, *prev_end, start);
    let comments = r.c.comments().0;
    if r.c.is_kw(b"define") {
        let end = r.read_define()?;
        r.items.push(ItemSpan::Function(r.functions.len() - 1));
        *prev_end = Some(end);
        return Ok(end < src.len());
    }
    let md_id = if starts_metadata_def(r) {
        crate::lexer::parse_u32(r.c.tok_text(r.c.peek()))
    } else {
        None
    };
    r.read_entity()?;
    let end = r.c.prev_end as usize;
    // Comments the lexer skipped since the entity began: inside it, or after it (the cursor
    // has read the next token); the entity's own bytes decide.
    let (n, last) = r.c.comments();
    let skipped = n > comments && !(n == comments + 1 && last as usize >= end);
    let stripped = skipped
        .then(|| crate::lexer::strip_comments(&src[start..end]))
        .filter(|t| t[..] != src[start..end]);
    if let (Some(id), None) = (md_id, &stripped) {
        r.items.push(ItemSpan::Metadata(start, end, id));
    } else if let Some(text) = stripped {
        r.items.push(ItemSpan::Owned(text));
    } else {
        r.items.push(ItemSpan::Text(start, end));
    }
    *prev_end = Some(end);
    Ok(true)
}

impl<'a> ModuleReader<'a> {
    fn read_entity(&mut self) -> PResult<()> {
        match self.c.kind() {
            Tok::Ident => {
                let w = self.c.text();
                match w {
                    b"declare" => self.read_declare(),
                    b"target" => self.read_target(),
                    b"source_filename" => {
                        self.c.bump();
                        self.c
                            .expect(Tok::Equal, "expected '=' after source_filename")?;
                        self.c.expect(Tok::Str, "expected string")?;
                        Ok(())
                    }
                    b"module" => {
                        self.c.bump();
                        self.c.expect_kw(b"asm", "expected 'module asm'")?;
                        self.c.expect(Tok::Str, "expected string")?;
                        Ok(())
                    }
                    b"attributes" => self.read_attr_group(),
                    b"uselistorder" | b"uselistorder_bb" => self.read_uselistorder(),
                    b"deplibs" => {
                        self.c.bump();
                        self.c.expect(Tok::Equal, "expected '=' after deplibs")?;
                        self.c.skip_balanced()
                    }
                    _ => self.c.err("expected top-level entity"),
                }
            }
            Tok::LocalVar | Tok::LocalVarId => self.read_type_def(),
            Tok::GlobalVar | Tok::GlobalId => self.read_global(),
            Tok::ComdatVar => self.read_comdat(),
            Tok::MetadataVar => self.read_named_metadata(),
            Tok::Exclaim => self.read_metadata_def(),
            Tok::SummaryId => self.read_summary(),
            _ => self.c.err("expected top-level entity"),
        }
    }

    fn read_target(&mut self) -> PResult<()> {
        self.c.bump();
        let which = self.c.text();
        if !(self.c.kind() == Tok::Ident && (which == b"triple" || which == b"datalayout")) {
            return self.c.err("unknown target property");
        }
        self.c.bump();
        self.c
            .expect(Tok::Equal, "expected '=' after target triple")?;
        let s = self.c.expect(Tok::Str, "expected string")?;
        if which == b"datalayout" {
            let text = self.c.tok_text(s);
            self.dl = llvm_ir::ir::datalayout::DataLayout::parse(&String::from_utf8_lossy(
                &text[1..text.len() - 1],
            ));
        }
        Ok(())
    }

    fn read_attr_group(&mut self) -> PResult<()> {
        self.c.bump();
        let t = self
            .c
            .expect(Tok::AttrGrpId, "expected attribute group id")?;
        let id = self.c.id_of(t);
        self.c.expect(Tok::Equal, "expected '=' here")?;
        self.c.expect(Tok::LBrace, "expected '{' here")?;
        let optnone = parse_fn_attrs(self, true)?;
        self.c
            .expect(Tok::RBrace, "expected end of attribute group")?;
        self.attr_groups.insert(id, optnone);
        Ok(())
    }

    fn read_uselistorder(&mut self) -> PResult<()> {
        let bb = self.c.is_kw(b"uselistorder_bb");
        self.c.bump();
        if bb {
            let g = self.c.bump();
            if !matches!(g.kind, Tok::GlobalVar | Tok::GlobalId) {
                return self.c.err_at(
                    g.start as usize,
                    "expected function name in uselistorder_bb",
                );
            }
            self.c
                .expect(Tok::Comma, "expected comma in uselistorder_bb directive")?;
            let b = self.c.bump();
            if !matches!(b.kind, Tok::LocalVar | Tok::LocalVarId) {
                return self.c.err_at(
                    b.start as usize,
                    "expected basic block name in uselistorder_bb",
                );
            }
        } else {
            parse_typed_const(self)?;
        }
        self.c
            .expect(Tok::Comma, "expected comma in uselistorder directive")?;
        self.read_index_list()
    }

    fn read_index_list(&mut self) -> PResult<()> {
        self.c.expect(Tok::LBrace, "expected '{' here")?;
        loop {
            self.c.parse_u32("expected index value")?;
            if !self.c.eat(Tok::Comma) {
                break;
            }
        }
        self.c.expect(Tok::RBrace, "expected '}' here")?;
        Ok(())
    }

    /// `%T = type ...`
    fn read_type_def(&mut self) -> PResult<()> {
        let t = self.c.bump();
        let name = name_key(self.c.tok_text(t)).into_owned();
        self.c.expect(Tok::Equal, "expected '=' after name")?;
        self.c.expect_kw(b"type", "expected 'type' after '='")?;
        let redefined = || "redefinition of type".to_string();
        if self.c.is_kw(b"opaque") {
            self.c.bump();
            if self.types.named_body(&name).is_some() {
                return self.c.err_at(t.start as usize, redefined());
            }
            self.types.define_named(&name, None);
        } else if self.c.kind() == Tok::LBrace
            || (self.c.kind() == Tok::Less && self.c.peek().kind == Tok::LBrace)
        {
            let packed = self.c.eat(Tok::Less);
            // Define the name first: bodies may refer to themselves (`%T*` inside `%T`).
            if matches!(self.types.named_body(&name), Some(Some(_))) {
                return self.c.err_at(t.start as usize, redefined());
            }
            let fields = super::types::parse_struct_fields(self)?;
            if packed {
                self.c
                    .expect(Tok::Greater, "expected '>' in packed struct")?;
            }
            let body = self.types.intern(TypeData::Struct {
                fields: fields.into_boxed_slice(),
                packed,
            });
            self.types.define_named(&name, Some(body));
        } else {
            let ty = parse_type(self)?;
            if self.types.named_body(&name).is_some() || self.types.alias(&name).is_some() {
                return self.c.err_at(t.start as usize, redefined());
            }
            self.types.define_alias(&name, ty);
        }
        self.pending_types.remove(&name[..]);
        Ok(())
    }

    /// `$c = comdat kind`
    fn read_comdat(&mut self) -> PResult<()> {
        let t = self.c.bump();
        let key = name_key(self.c.tok_text(t)).into_owned().into_boxed_slice();
        self.c.expect(Tok::Equal, "expected '=' here")?;
        self.c.expect_kw(b"comdat", "expected comdat keyword")?;
        if !matches!(
            self.c.text(),
            b"any" | b"exactmatch" | b"largest" | b"nodeduplicate" | b"noduplicates" | b"samesize"
        ) {
            return self.c.err("unknown selection kind");
        }
        self.c.bump();
        if !self.comdats.insert(key) {
            return self.c.err_at(t.start as usize, "redefinition of comdat");
        }
        Ok(())
    }

    /// `comdat` or `comdat($name)` after a global or function; the current token is `comdat`.
    pub(super) fn read_comdat_ref(&mut self) -> PResult<()> {
        self.c.bump();
        if self.c.eat(Tok::LParen) {
            let t = self.c.expect(Tok::ComdatVar, "expected comdat variable")?;
            let key = name_key(self.c.tok_text(t)).into_owned().into_boxed_slice();
            self.comdat_uses.push((key, t.start));
            self.c
                .expect(Tok::RParen, "expected ')' after comdat var")?;
        }
        Ok(())
    }

    /// `^N = kind: (...)` summary entries, checked for balance only.
    fn read_summary(&mut self) -> PResult<()> {
        self.c.bump();
        self.c.expect(Tok::Equal, "expected '=' here")?;
        match self.c.kind() {
            Tok::LabelStr => {
                self.c.bump();
            }
            Tok::Ident => {
                self.c.bump();
                self.c.expect(Tok::Colon, "expected ':' here")?;
            }
            _ => return self.c.err("unexpected summary kind"),
        }
        match self.c.kind() {
            Tok::LParen => self.c.skip_balanced(),
            Tok::Int => {
                self.c.bump();
                Ok(())
            }
            _ => self.c.err("expected '(' here"),
        }
    }

    /// Registers a global definition, checking redefinitions and earlier forward uses.
    fn define_global(&mut self, tok: Token, sym: GlobalSym) -> PResult<()> {
        let written = self.c.tok_text(tok);
        if tok.kind == Tok::GlobalId {
            let n = self.c.id_of(tok);
            let typed = !self.types.opaque_mode;
            let what = match (sym.kind, typed) {
                (GlobalKind::Function, _) => "function",
                (_, true) => "variable",
                (_, false) => "global",
            };
            let prefix = if typed { "%" } else { "@" };
            if let Some(msg) = numbering_error(typed, what, prefix, self.next_global_id, n) {
                return self.c.err_at(tok.start as usize, msg);
            }
            self.next_global_id = n.saturating_add(1);
        }
        let key = global_key(written).into_owned().into_boxed_slice();
        if let Some((fty, _)) = self.fwd_globals.remove(&key) {
            if fty != sym.ptr_ty {
                let msg = format!(
                    "forward reference and definition of global have different types: used as '{}' but defined as '{}'",
                    self.types.display(fty),
                    self.types.display(sym.ptr_ty)
                );
                return self.c.err_at(tok.start as usize, msg);
            }
        }
        // LLVM 14 and 19 both refuse any second definition or declaration of a name.
        if let Some(old) = self.globals.get(&key) {
            let name = String::from_utf8_lossy(&written[1..]).into_owned();
            let msg = match (sym.kind, old.kind) {
                (GlobalKind::Function, GlobalKind::Function) => {
                    format!("invalid redefinition of function '{name}'")
                }
                (GlobalKind::Function, _) => format!("redefinition of function '@{name}'"),
                _ => format!("redefinition of global '@{name}'"),
            };
            return self.c.err_at(tok.start as usize, msg);
        }
        self.globals.insert(key, sym);
        Ok(())
    }

    /// `@g = [prefix] (global|constant|alias|ifunc) ...`
    fn read_global(&mut self) -> PResult<()> {
        let name = self.c.bump();
        self.c.expect(Tok::Equal, "expected '=' after name")?;
        let linkage = parse_global_prefix(&mut self.c)?;
        let space = parse_opt_addrspace(self)?;
        // `externally_initialized` may follow the address space.
        parse_global_prefix(&mut self.c)?;
        if self.c.is_kw(b"alias") || self.c.is_kw(b"ifunc") {
            return self.read_alias(name);
        }
        if !(self.c.is_kw(b"global") || self.c.is_kw(b"constant")) {
            return self.c.err("expected 'global' or 'constant'");
        }
        self.c.bump();
        let ty_at = self.c.at();
        let ty = parse_type(self)?;
        if matches!(
            self.types.data(ty),
            TypeData::Function { .. } | TypeData::Label | TypeData::Metadata | TypeData::Token
        ) {
            return self.c.err_at(ty_at, "invalid type for global variable");
        }
        let ptr_ty = self.pointer_type(ty, space);
        self.define_global(
            name,
            GlobalSym {
                kind: GlobalKind::Variable,
                ptr_ty,
                value_ty: ty,
                is_definition: true,
                at: name.start,
                extern_weak: linkage == b"extern_weak",
            },
        )?;
        let declaration = matches!(linkage, b"external" | b"extern_weak");
        self.start_roots();
        self.type_root(ty);
        let r = match declaration {
            true => Ok(()),
            false => parse_const(self, ty).map(|_| ()),
        };
        let roots = self.stop_roots();
        let new = Self::first_seen(&mut self.roots_seen[0], &roots);
        self.type_roots.globals.extend(new);
        self.roots = roots;
        r?;
        self.read_global_tail()
    }

    /// `, section "x"`, `, comdat(...)`, `, align N`, `, !kind !N`, ... and trailing `#N`.
    fn read_global_tail(&mut self) -> PResult<()> {
        while self.c.eat(Tok::Comma) {
            match self.c.kind() {
                Tok::MetadataVar => {
                    self.c.bump();
                    parse_md_node_ref(self)?;
                }
                Tok::Ident => {
                    let w = self.c.text();
                    match w {
                        b"section" | b"partition" | b"code_model" => {
                            self.c.bump();
                            self.c.expect(Tok::Str, "expected string")?;
                        }
                        b"comdat" => self.read_comdat_ref()?,
                        b"align" => {
                            self.c.bump();
                            if self.c.eat(Tok::LParen) {
                                self.c.parse_u64("expected alignment")?;
                                self.c.expect(Tok::RParen, "expected ')'")?;
                            } else {
                                self.c.parse_u64("expected alignment")?;
                            }
                        }
                        b"no_sanitize_address"
                        | b"no_sanitize_hwaddress"
                        | b"sanitize_address_dyninit"
                        | b"sanitize_memtag" => {
                            self.c.bump();
                        }
                        _ => return self.c.err("unknown global variable property!"),
                    }
                }
                _ => {
                    return self
                        .c
                        .err("expected metadata attachment or global property")
                }
            }
        }
        parse_fn_attrs(self, false)?;
        Ok(())
    }

    /// `alias T, T2 @aliasee` / `ifunc T, T2 @resolver` after the prefix.
    fn read_alias(&mut self, name: Token) -> PResult<()> {
        let ifunc = self.c.is_kw(b"ifunc");
        self.c.bump();
        let ty = parse_type(self)?;
        self.c
            .expect(Tok::Comma, "expected comma after alias or ifunc's type")?;
        self.start_roots();
        self.type_root(ty);
        let aliasee = parse_typed_const(self);
        let mut roots = self.stop_roots();
        if ifunc {
            roots.truncate(1);
            self.type_roots.ifuncs.extend_from_slice(&roots);
        } else {
            let new = Self::first_seen(&mut self.roots_seen[1], &roots);
            self.type_roots.aliases.extend(new);
        }
        self.roots = roots;
        let (aliasee_ty, _) = aliasee?;
        let ptr_ty = if self.types.opaque_mode {
            aliasee_ty
        } else {
            let space = match self.types.data(aliasee_ty) {
                TypeData::TypedPtr { addrspace, .. } => *addrspace,
                _ => 0,
            };
            self.pointer_type(ty, space)
        };
        if !self.types.is_pointer(aliasee_ty) {
            return self.c.err("An alias or ifunc must have pointer type");
        }
        self.define_global(
            name,
            GlobalSym {
                kind: if ifunc {
                    GlobalKind::IFunc
                } else {
                    GlobalKind::Alias
                },
                ptr_ty,
                value_ty: ty,
                is_definition: true,
                at: name.start,
                extern_weak: false,
            },
        )?;
        while self.c.eat(Tok::Comma) {
            if self.c.eat_kw(b"partition") {
                self.c.expect(Tok::Str, "expected string")?;
            } else if self.c.kind() == Tok::MetadataVar {
                self.c.bump();
                parse_md_node_ref(self)?;
            } else {
                return self.c.err("unknown alias or ifunc property!");
            }
        }
        Ok(())
    }

    /// The type of `@g` for a global of value type `ty` in `space`.
    fn pointer_type(&mut self, ty: Type, space: u32) -> Type {
        self.types.pointer_to_spelled(ty, space)
    }

    /// `declare ...`
    fn read_declare(&mut self) -> PResult<()> {
        self.c.bump();
        while self.c.kind() == Tok::MetadataVar {
            self.c.bump();
            parse_md_node_ref(self)?;
        }
        self.start_roots();
        let h = parse_header(self, false);
        let roots = self.stop_roots();
        let h = h?;
        self.function_roots(None, h.fn_ty, roots);
        let ptr_ty = self.pointer_type(h.fn_ty, h.addrspace);
        self.define_global(
            h.name,
            GlobalSym {
                kind: GlobalKind::Function,
                ptr_ty,
                value_ty: h.fn_ty,
                is_definition: false,
                at: h.name.start,
                extern_weak: false,
            },
        )
    }

    /// `define ... { body }`: reads the header, skips the body. Returns the end offset.
    fn read_define(&mut self) -> PResult<usize> {
        let start = self.c.at();
        self.c.bump();
        self.in_function_header = true;
        self.header_attrs = None;
        self.start_roots();
        let h = parse_header(self, true);
        let roots = self.stop_roots();
        let h = h?;
        self.function_roots(Some(self.functions.len()), h.fn_ty, roots);
        self.in_function_header = false;
        let ptr_ty = self.pointer_type(h.fn_ty, h.addrspace);
        self.define_global(
            h.name,
            GlobalSym {
                kind: GlobalKind::Function,
                ptr_ty,
                value_ty: h.fn_ty,
                is_definition: true,
                at: h.name.start,
                extern_weak: false,
            },
        )?;
        if self.c.kind() != Tok::LBrace {
            return self.c.err("expected '{' in function body");
        }
        let open = self.c.at();
        self.blockaddress.note_text(&self.c.src[..open]);
        let (end, used) = skip_body(self.c.src, open);
        self.blockaddress.note_body(used, end);
        self.functions.push(FunctionSpan {
            start: start as u32,
            end: end as u32,
            attrs: self.header_attrs,
            blockaddress_target: false,
        });
        self.c.seek(end);
        Ok(end)
    }

    /// Starts recording [`Host::type_root`]s.
    fn start_roots(&mut self) {
        self.roots.clear();
        self.roots_on = true;
    }

    /// Stops recording and returns what was recorded.
    fn stop_roots(&mut self) -> Vec<Type> {
        self.roots_on = false;
        std::mem::take(&mut self.roots)
    }

    /// Records a function's roots: its type first, as `TypeFinder` takes it.
    fn function_roots(&mut self, def: Option<usize>, fn_ty: Type, mut roots: Vec<Type>) {
        roots.insert(0, fn_ty);
        let new = Self::first_seen(&mut self.roots_seen[2], &roots);
        self.type_roots.functions.push((def, new));
    }

    /// The roots in `roots` not in `seen`, in order, now added to it.
    fn first_seen(seen: &mut FxHashSet<Type>, roots: &[Type]) -> Vec<Type> {
        roots.iter().copied().filter(|t| seen.insert(*t)).collect()
    }

    /// Builds the context; names used and never defined become its [`Late`] errors.
    fn finish(mut self) -> (ModuleCtx, Vec<ItemSpan>) {
        let late = self.late_errors();
        let mut blockaddress = std::mem::take(&mut self.blockaddress);
        blockaddress.note_text(self.c.src);
        if blockaddress.seen {
            mark_blockaddress_targets(
                self.c.src,
                &self.globals,
                &self.blockaddrs,
                &mut self.functions,
            );
        }
        let declared = self.globals.keys().cloned().collect();
        let newer_llvm = self.globals.iter().any(|(name, g)| {
            name.starts_with(b"llvm.lifetime.")
                && matches!(self.types.data(g.value_ty),
                    llvm_ir::ir::types::TypeData::Function { params, .. } if params.len() == 1)
        });
        let max_attr_group = self.attr_groups.keys().copied().max();
        (
            ModuleCtx {
                info: Arc::new(ModuleInfo {
                    id: next_module_id(),
                    types: Arc::new(self.types),
                    globals: self.globals,
                    max_metadata_id: self.md_defs.max_id(),
                    metadata: std::mem::take(&mut self.md_defs).finish(),
                    attr_groups: self.attr_groups,
                    ptr_bits: self.dl.ptr_bits(),
                    declared,
                    max_attr_group,
                    alloca_addrspace: self.dl.alloca_space,
                    dl: self.dl,
                    has_blockaddress: blockaddress.seen,
                    newer_llvm,
                    columnless_locations: self.columnless_locations,
                    type_roots: std::mem::take(&mut self.type_roots),
                }),
                functions: self.functions,
                late,
                blockaddrs: self.blockaddrs,
            },
            self.items,
        )
    }

    /// Names used at module level and never defined, as end-of-module errors.
    fn late_errors(&self) -> Vec<Late> {
        let mut late = Vec::new();
        for (name, &off) in &self.pending_types {
            if self.types.named_body(name).is_none() && self.types.alias(name).is_none() {
                late.push(super::module_end::undefined_type(self.c.src, name, off));
            }
        }
        for (name, &(_, off)) in &self.fwd_globals {
            late.push(super::module_end::undefined_global(name, off));
        }
        for &(id, off) in &self.md_uses {
            if !self.md_defs.contains(id) {
                let msg = format!("use of undefined metadata '!{id}'");
                late.push(Late::numbered(LateKind::Metadata, id, off, msg));
            }
        }
        for (name, off) in &self.comdat_uses {
            if !self.comdats.contains(name) {
                let shown = String::from_utf8_lossy(name);
                late.push(Late {
                    kind: LateKind::Comdat,
                    key: name.to_vec(),
                    at: *off,
                    msg: format!("use of undefined comdat '${shown}'"),
                });
            }
        }
        late
    }
}

/// The error for `N` where the next number is `next` (`what` is "instruction", "label", ...):
/// LLVM 19 allows gaps (`... to be numbered '%N' or greater`), LLVM 14 (typed pointers) wants
/// exactly the next number.
pub fn numbering_error(typed: bool, what: &str, prefix: &str, next: u32, n: u32) -> Option<String> {
    if typed && n != next {
        return Some(format!("{what} expected to be numbered '{prefix}{next}'"));
    }
    if n < next {
        return Some(format!(
            "{what} expected to be numbered '{prefix}{next}' or greater"
        ));
    }
    None
}

/// Whether the current token is one LLVM's lexer calls a type (`i32`, `void`, `ptr`, ...).
fn is_type_token(c: &Cursor<'_>) -> bool {
    c.kind() == Tok::IntType
        || (c.kind() == Tok::Ident
            && matches!(
                c.text(),
                b"void"
                    | b"half"
                    | b"bfloat"
                    | b"float"
                    | b"double"
                    | b"x86_fp80"
                    | b"fp128"
                    | b"ppc_fp128"
                    | b"label"
                    | b"metadata"
                    | b"x86_mmx"
                    | b"x86_amx"
                    | b"token"
                    | b"ptr"
            ))
}
