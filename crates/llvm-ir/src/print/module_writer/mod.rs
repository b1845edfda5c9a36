//! Writing a module in opt's layout: byte for byte what `opt -S` prints for the same module,
//! when the functions are printed as LLVM prints them ([`crate::print`]).
//!
//! What the writer does to the module's items: it puts them in LLVM's section order with
//! LLVM's blank lines ([`layout`]); writes the `; ModuleID = '...'` line and, when the module
//! has none, `source_filename` (both from the module identifier: the input path as given, or
//! `<stdin>`); a `; Function Attrs: ...` comment above every function with attributes; the
//! declarations passes need (after the last function, as LLVM appends them); attribute groups
//! only as used and renumbered ([`crate::print::attr_slots`]); named types in the order LLVM
//! meets them, leaving out unused ones ([`crate::print::type_order`]); every metadata node still
//! referred to, renumbered ([`crate::print::md_slots`]), at the end.
//!
//! Streaming: the writer never holds the module. It is made from the module level alone (the
//! items' texts, the metadata definitions through a [`NodeSource`]), numbers what the module
//! level refers to first, in LLVM's order (global variables' attachments, named metadata,
//! every function's attribute group), and writes everything that comes before the functions.
//! Then it takes the functions one by one in module order, each printed with its references
//! at the input's numbers and a list of where they are ([`Printed::sites`]):
//! numbering goes on at each reference as it is written, which is the order LLVM numbers them
//! in. Metadata definitions are written last, reading the input's node texts again in the new
//! order. Named types come before the functions but their order depends on every body: the
//! writer writes them in the input's order, and if the bodies turn out to change it (a type
//! first met in an instruction a pass removed), replaces that section once the rest is
//! written ([`Output::replace`]). Invariant: the output depends only on the items and the
//! functions' printed texts, never on how functions were scheduled.

pub mod layout;
pub mod nodes;

use std::io::Write;

use crate::ir::module_info::TypeRoots;
use crate::print::attr_slots::AttrSlots;
use crate::print::md_slots::{MdSlots, NodeSource};
use crate::print::refs::{for_each_ref, RefKind};
use crate::print::type_order::ModuleTypes;
use crate::print::{self, Printed, SiteRef};
use crate::util::fxhash::{FxHashMap, FxHashSet};

pub use layout::{classify, decl_name, Kind};
pub use nodes::split_def;
pub use nodes::{is_columnless_location, write_module, CtxNodes};

/// Where the writer's output goes: a stream that can have one earlier range replaced once
/// everything is written (the named types, when the bodies change their order).
pub trait Output: Write + Send {
    /// Replaces bytes `start..end` of what was written with `with` (everything is flushed).
    fn replace(&mut self, start: u64, end: u64, with: &[u8]) -> std::io::Result<()>;
}

/// One top-level item, as the writer sees it.
#[derive(Clone, Copy, Debug)]
pub enum Entry<'x> {
    /// One entity's text (an empty text is a blank line).
    Text(&'x [u8]),
    /// A blank line between entities.
    Blank,
    /// A metadata node definition (written at the end, renumbered).
    Metadata,
    /// Function definition number `n`.
    Function(usize),
}

/// The attributes LLVM gives `llvm.dbg.value` when it declares it (LLVM 14 for typed-pointer
/// modules, LLVM 19 otherwise), to find the group a new declaration uses.
fn intrinsic_attrs(typed: bool) -> &'static str {
    if typed {
        "nofree nosync nounwind readnone speculatable willreturn"
    } else {
        "nocallback nofree nosync nounwind speculatable willreturn memory(none)"
    }
}

/// The module-level facts the writer needs beside the items.
pub struct ModuleInfo<'a> {
    /// The module identifier (`None`: no `; ModuleID` or made-up `source_filename` line).
    pub id: Option<&'a str>,
    /// Globals the module declares (so a needed declaration is not written twice).
    pub declared: Option<&'a FxHashSet<Box<[u8]>>>,
    /// Whether the module spells typed pointers (LLVM 14's conventions).
    pub typed: bool,
    /// The module's type table and where `TypeFinder` starts at module level (`None`: named
    /// types are written in the input's order).
    pub types: Option<(&'a crate::ir::types::TypeTable, &'a TypeRoots)>,
    /// How many threads may format the metadata definitions (the job's `--threads`).
    pub threads: crate::Threads,
}

/// The named types section: where it was written, and what is needed to check its order.
struct TypeSection<'a> {
    start: u64,
    end: u64,
    /// The definitions by name, and the names in the order written.
    defs: FxHashMap<Box<[u8]>, &'a [u8]>,
    written: Vec<Box<[u8]>>,
    /// `TypeFinder`'s order so far (`None`: not followed), merged function by function as
    /// they come, and how many functions of [`TypeRoots::functions`] it has taken.
    order: Option<ModuleTypes<'a>>,
    functions_taken: usize,
}

/// The writer (see the module doc).
pub struct ModuleWriter<'a, 'w> {
    /// The text and function entries with their item indices and sections, in order
    /// (metadata definitions and blank lines left out: a `-g` module has hundreds of
    /// thousands of those).
    entries: Vec<(usize, Kind, Entry<'a>)>,
    md: MdSlots<'a>,
    attrs: AttrSlots<'a>,
    info: ModuleInfo<'a>,
    sink: &'w mut dyn Output,
    buf: Vec<u8>,
    /// Bytes sent to the sink so far.
    sent: u64,
    decls: Vec<&'static str>,
    last_fn: Option<usize>,
    types: TypeSection<'a>,
    new_local: Vec<Option<u32>>,
}

impl<'a, 'w> ModuleWriter<'a, 'w> {
    /// A writer for a module of `items`, whose metadata definitions `nodes` gives and whose
    /// function definition `n` has the header attribute group `def_attr(n)`; numbers what the
    /// module level refers to and writes everything before the first function.
    pub fn new(
        items: impl Iterator<Item = Entry<'a>>,
        nodes: &'a dyn NodeSource,
        def_attr: &dyn Fn(usize) -> Option<u32>,
        info: ModuleInfo<'a>,
        sink: &'w mut dyn Output,
    ) -> std::io::Result<Self> {
        let mut w = Self {
            md: MdSlots::new(nodes, !info.typed),
            attrs: AttrSlots::default(),
            info,
            sink,
            buf: Vec::with_capacity(1 << 16),
            sent: 0,
            decls: Vec::new(),
            last_fn: None,
            types: TypeSection {
                start: 0,
                end: 0,
                defs: FxHashMap::default(),
                written: Vec::new(),
                order: None,
                functions_taken: 0,
            },
            new_local: Vec::new(),
            entries: items
                .enumerate()
                .filter_map(|(k, e)| match e {
                    Entry::Function(_) => Some((k, Kind::Declare, e)),
                    Entry::Text(t) if !t.is_empty() => Some((k, classify(t), e)),
                    _ => None,
                })
                .collect(),
        };
        for &(k, kind, e) in &w.entries {
            match (kind, e) {
                (Kind::Declare, _) => w.last_fn = Some(k),
                (Kind::Attributes, Entry::Text(t)) => w.attrs.add_group(t),
                _ => {}
            }
        }
        w.number_module_level(def_attr);
        if let Some((table, roots)) = w.info.types {
            let mut order = ModuleTypes::new(table);
            order.roots(&roots.globals);
            order.roots(&roots.aliases);
            order.roots(&roots.ifuncs);
            w.types.order = Some(order);
        }
        w.header();
        w.early_sections()?;
        Ok(w)
    }

    /// The texts of entities of section `kind`, in order.
    fn texts(&self, kind: Kind) -> impl Iterator<Item = &'a [u8]> + '_ {
        self.entries.iter().filter_map(move |&(_, k, e)| match e {
            Entry::Text(t) if k == kind => Some(t),
            _ => None,
        })
    }

    /// What LLVM numbers before the first function: global variables' metadata, named
    /// metadata, global variables' attribute groups, then every function's.
    fn number_module_level(&mut self, def_attr: &dyn Fn(usize) -> Option<u32>) {
        let mut md_roots = Vec::new();
        let mut attr_roots = Vec::new();
        for kind in [Kind::Global, Kind::Named] {
            for t in self.texts(kind) {
                for_each_ref(t, |r| match r.kind {
                    RefKind::Md => md_roots.push(r.id),
                    RefKind::Attr if kind == Kind::Global => attr_roots.push(r.id),
                    RefKind::Attr => {}
                });
            }
        }
        for &(_, kind, e) in &self.entries {
            match e {
                Entry::Text(t) if kind == Kind::Declare => for_each_ref(t, |r| {
                    if r.kind == RefKind::Attr {
                        attr_roots.push(r.id);
                    }
                }),
                Entry::Function(n) => attr_roots.extend(def_attr(n)),
                _ => {}
            }
        }
        for id in md_roots {
            self.md.number_old(id);
        }
        for id in attr_roots {
            self.attrs.number(id);
        }
    }

    /// `; ModuleID = '...'` and, if the module has none, `source_filename = "..."`.
    fn header(&mut self) {
        let Some(id) = self.info.id else { return };
        if !id.contains('\n') {
            self.buf.extend_from_slice(b"; ModuleID = '");
            self.buf.extend_from_slice(id.as_bytes());
            self.buf.extend_from_slice(b"'\n");
        }
        if self.texts(Kind::SourceFilename).next().is_none() && !id.is_empty() {
            self.buf.extend_from_slice(b"source_filename = \"");
            layout::escape_into(id.as_bytes(), &mut self.buf);
            self.buf.extend_from_slice(b"\"\n");
        }
    }

    /// A blank line before a section or function (none at the very start of the output).
    fn blank(&mut self) {
        if self.sent > 0 || !self.buf.is_empty() {
            self.buf.push(b'\n');
        }
    }

    /// The header lines, module asm, named types, comdats, globals, aliases and ifuncs.
    fn early_sections(&mut self) -> std::io::Result<()> {
        for kind in [Kind::SourceFilename, Kind::DataLayout, Kind::Triple] {
            let texts: Vec<&'a [u8]> = self.texts(kind).collect();
            for t in texts {
                self.line(t);
            }
        }
        for kind in [
            Kind::Asm,
            Kind::Type,
            Kind::Comdat,
            Kind::Global,
            Kind::Alias,
            Kind::IFunc,
        ] {
            let texts: Vec<&'a [u8]> = self.texts(kind).collect();
            if kind == Kind::Type {
                self.types.start = self.position();
            }
            for (i, t) in texts.iter().enumerate() {
                if i == 0 || kind == Kind::Comdat {
                    self.blank();
                }
                if kind == Kind::Type {
                    let name = layout::type_name(t);
                    self.types.defs.insert(name.clone(), t);
                    self.types.written.push(name);
                    self.line(t);
                } else {
                    self.renumbered_line(t);
                }
                self.flush_if_full()?;
            }
            if kind == Kind::Type {
                self.types.end = self.position();
            }
        }
        Ok(())
    }

    /// Where the next byte goes in the output.
    fn position(&self) -> u64 {
        self.sent + self.buf.len() as u64
    }

    /// Appends `t` and a newline.
    fn line(&mut self, t: &[u8]) {
        self.buf.extend_from_slice(t);
        if !t.ends_with(b"\n") {
            self.buf.push(b'\n');
        }
    }

    /// Appends module-level `t`, its references renumbered, and a newline.
    fn renumbered_line(&mut self, t: &[u8]) {
        let (md, attrs, buf) = (&mut self.md, &mut self.attrs, &mut self.buf);
        let mut copied = 0;
        for_each_ref(t, |r| {
            buf.extend_from_slice(&t[copied..r.start]);
            match r.kind {
                RefKind::Md => md.write_old_ref(r.id, buf),
                RefKind::Attr => {
                    buf.push(b'#');
                    print::write_u32(buf, attrs.number(r.id));
                }
            }
            copied = r.end;
        });
        buf.extend_from_slice(&t[copied..]);
        if !t.ends_with(b"\n") {
            buf.push(b'\n');
        }
    }

    fn send(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.sent += bytes.len() as u64;
        self.sink.write_all(bytes)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        let buf = std::mem::take(&mut self.buf);
        let r = self.send(&buf);
        self.buf = buf;
        self.buf.clear();
        r
    }

    fn flush_if_full(&mut self) -> std::io::Result<()> {
        if self.buf.len() >= 1 << 16 {
            self.flush()?;
        }
        Ok(())
    }

    /// Appends `s`, sending large pieces and a full buffer on to the sink.
    fn put(&mut self, s: &[u8]) -> std::io::Result<()> {
        if s.len() >= 1 << 16 {
            self.flush()?;
            return self.send(s);
        }
        self.buf.extend_from_slice(s);
        self.flush_if_full()
    }

    /// Takes item `k`, `item`, which is not a function definition: writes it if it is a
    /// declaration (everything else is written before the functions or at the end).
    pub fn item(&mut self, k: usize, item: Entry<'a>) -> std::io::Result<()> {
        if let Entry::Text(t) = item {
            if !t.is_empty() && classify(t) == Kind::Declare {
                self.blank();
                let mut group = None;
                for_each_ref(t, |r| {
                    if r.kind == RefKind::Attr {
                        group.get_or_insert(r.id);
                    }
                });
                if let Some(g) = group {
                    self.attrs.write_comment(g, &mut self.buf);
                }
                self.renumbered_line(t);
                self.next_function_types(None);
                self.flush_if_full()?;
            }
        }
        self.after(k)
    }

    /// Writes item `k`, function definition `n`, printed as `p`, whose new nodes are `new_md`
    /// and which needs the declarations `needs`.
    pub fn function(
        &mut self,
        k: usize,
        n: usize,
        p: &Printed,
        new_md: &[Vec<u8>],
        needs: &[&'static str],
    ) -> std::io::Result<()> {
        self.blank();
        if let Some(g) = p.header_attr {
            self.attrs.write_comment(g, &mut self.buf);
        }
        self.new_local.clear();
        self.new_local.resize(new_md.len(), None);
        if p.sites.is_empty() {
            self.put(&p.text)?;
        } else {
            // Pieces between references are short: straight into the buffer, which is sent
            // on whenever it fills (a large body is never held twice).
            let mut copied = 0;
            for &at in &p.sites {
                let at = at as usize;
                let Some((what, len)) = SiteRef::read(&p.text[at..]) else {
                    continue;
                };
                if self.buf.len() >= 1 << 16 {
                    self.flush()?;
                }
                self.buf.extend_from_slice(&p.text[copied..at]);
                match what {
                    SiteRef::Md(id) => self.md.write_old_ref(id, &mut self.buf),
                    SiteRef::Attr(id) => {
                        self.buf.push(b'#');
                        print::write_u32(&mut self.buf, self.attrs.number(id));
                    }
                    SiteRef::NewMd(i) => {
                        let mut num = Vec::new();
                        self.new_node_ref(i as usize, new_md, &mut num);
                        self.buf.extend_from_slice(&num);
                    }
                }
                copied = at + len;
            }
            self.buf.extend_from_slice(&p.text[copied..]);
            self.flush_if_full()?;
        }
        for d in needs {
            if !self.decls.contains(d) {
                self.decls.push(d);
            }
        }
        self.next_function_types(Some((n, &p.type_names)));
        self.after(k)
    }

    /// Merges the next function's types into `TypeFinder`'s order: its header's, then, for
    /// definition `n`, its body's `names`.
    fn next_function_types(&mut self, def: Option<(usize, &[Box<[u8]>])>) {
        let (Some(order), Some((_, roots))) = (self.types.order.as_mut(), self.info.types) else {
            return;
        };
        let Some((d, header)) = roots.functions.get(self.types.functions_taken) else {
            return;
        };
        self.types.functions_taken += 1;
        order.roots(header);
        if let (Some(n), Some((m, names))) = (d, def) {
            if *n == m {
                order.names(names);
            }
        }
    }

    /// `!N` for the function's new node `i` (numbered on first use).
    fn new_node_ref(&mut self, i: usize, new_md: &[Vec<u8>], out: &mut Vec<u8>) {
        let n = match self.new_local[i] {
            Some(n) => Some(n),
            None => self.md.number_added(&new_md[i]),
        };
        self.new_local[i] = n;
        match n {
            Some(n) => {
                out.push(b'!');
                print::write_u32(out, n);
            }
            None => out.extend_from_slice(&new_md[i]),
        }
    }

    /// After the last function: the declarations passes need.
    fn after(&mut self, k: usize) -> std::io::Result<()> {
        if self.last_fn != Some(k) {
            return Ok(());
        }
        for d in std::mem::take(&mut self.decls) {
            let have = self.info.declared.is_some_and(|s| s.contains(decl_name(d)));
            if have {
                continue;
            }
            self.blank();
            let group = self.attrs.find(intrinsic_attrs(self.info.typed));
            if let Some(g) = group {
                self.attrs.write_comment(g, &mut self.buf);
            }
            self.buf.extend_from_slice(d.as_bytes());
            if let Some(g) = group {
                self.buf.extend_from_slice(b" #");
                let n = self.attrs.number(g);
                print::write_u32(&mut self.buf, n);
            }
            self.buf.push(b'\n');
        }
        self.flush_if_full()
    }

    /// Writes attribute groups, named metadata and metadata definitions, sends everything
    /// to the sink, and puts the named types in their final order if the bodies changed it.
    pub fn finish(mut self) -> std::io::Result<()> {
        if self.last_fn.is_none() {
            self.decls.clear();
        }
        if self.attrs.any_used() {
            self.blank();
            self.attrs.write_groups(&mut self.buf);
        }
        let named: Vec<&'a [u8]> = self.texts(Kind::Named).collect();
        for (i, t) in named.iter().enumerate() {
            if i == 0 {
                self.blank();
            }
            self.renumbered_line(t);
        }
        if !self.md.is_empty() {
            self.blank();
            let (md, sink, sent) = (&self.md, &mut *self.sink, &mut self.sent);
            let threads = self.info.threads.get();
            md.write_defs(threads, &mut self.buf, &mut |b: &mut Vec<u8>| {
                *sent += b.len() as u64;
                sink.write_all(b)?;
                b.clear();
                Ok(())
            })?;
        }
        let other: Vec<&'a [u8]> = self.texts(Kind::Other).collect();
        for t in other {
            self.line(t);
        }
        self.flush()?;
        self.sink.flush()?;
        if let Some(text) = self.reordered_types() {
            self.sink.replace(self.types.start, self.types.end, &text)?;
        }
        Ok(())
    }

    /// The named types section as opt writes it, if that is not what was written.
    fn reordered_types(&self) -> Option<Vec<u8>> {
        let ts = &self.types;
        let order = ts.order.as_ref()?;
        // Numbered types (`%0 = type ...`) would be renumbered module-wide: not handled.
        if ts.written.iter().any(|n| n.iter().all(u8::is_ascii_digit)) {
            return None;
        }
        let names: Vec<&Box<[u8]>> = order
            .order()
            .iter()
            .filter(|n| ts.defs.contains_key(*n))
            .collect();
        if names.len() == ts.written.len() && names.iter().zip(&ts.written).all(|(a, b)| *a == b) {
            return None;
        }
        let mut text = Vec::new();
        if !names.is_empty() && ts.start > 0 {
            text.push(b'\n');
        }
        for n in names {
            text.extend_from_slice(ts.defs[n]);
            text.push(b'\n');
        }
        Some(text)
    }
}
