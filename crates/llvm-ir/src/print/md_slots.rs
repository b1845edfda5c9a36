//! Numbering metadata nodes for output as LLVM's slot tracker (`SlotTracker` in LLVM's
//! `AsmWriter.cpp`) numbers them, and writing their definitions in that order.
//!
//! LLVM numbers a node when it first meets a reference to it, then, depth first, every node
//! it refers to, in operand order ([`crate::print::refs::node_children`]); `DIExpression`s get
//! no number (they are printed inline). It meets the references in this order: the
//! attachments of global variables, the operands of named metadata, then function by function
//! (declarations too, in module order) the function's attachments and, instruction by
//! instruction, its debug records' nodes, an intrinsic call's metadata arguments and the
//! instruction's attachments — which is the order they are printed in. Nodes nothing refers
//! to any more get no number and are not written.
//!
//! The input's numbers ("old" ids) and the texts of their nodes come from a [`NodeSource`];
//! nodes passes made ("added" nodes, whose texts refer to old ids only) are deduplicated by
//! text, and one equal to a node of the input (a uniqued `!DILocation` without a column,
//! the kind passes make) is that node, as LLVM's uniquing makes it.
//!
//! Invariants: numbers are handed out densely from 0 in visiting order; a node's number never
//! changes once given; every node a numbered node refers to is numbered (except
//! `DIExpression`s), so [`MdSlots::write_defs`] writes a closed set.

use crate::print::refs::{for_each_ref, node_children, RefKind};
use crate::util::fxhash::FxHashMap;

/// Where the input's numbered nodes come from.
pub trait NodeSource: Sync {
    /// `(distinct, text)` of node `!id` (the text after `distinct`), if it is defined.
    fn node(&self, id: u32) -> Option<(bool, &[u8])>;
    /// The largest id defined.
    fn max_id(&self) -> Option<u32>;
    /// Ids of uniqued `!DILocation`s printed without a column (candidates for an added node
    /// to be equal to).
    fn columnless_locations(&self) -> Vec<u32>;
    /// The scope of node `!id` when it is a `!DILocation` whose only reference is its scope,
    /// if the source knows it without reading the text (a shortcut, never required).
    fn location_scope(&self, _id: u32) -> Option<u32> {
        None
    }
}

/// A node being numbered: one of the input, or one a pass added.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Key {
    Old(u32),
    Added(u32),
}

impl Key {
    /// Added nodes' bit in a packed key (old ids have at most 9 digits, below it).
    const ADDED: u32 = 1 << 31;

    fn pack(self) -> u32 {
        match self {
            Key::Old(id) => id,
            Key::Added(i) => Key::ADDED | i,
        }
    }

    fn unpack(k: u32) -> Key {
        if k & Key::ADDED != 0 {
            Key::Added(k & !Key::ADDED)
        } else {
            Key::Old(k)
        }
    }
}

/// New numbers by old id: a vector while the ids are dense, a map otherwise.
enum OldMap {
    Dense(Vec<u32>),
    Sparse(FxHashMap<u32, u32>),
}

impl OldMap {
    fn new(max: Option<u32>) -> Self {
        match max {
            Some(m) if m < (1 << 24) => OldMap::Dense(vec![u32::MAX; m as usize + 1]),
            Some(_) => OldMap::Sparse(FxHashMap::default()),
            None => OldMap::Dense(Vec::new()),
        }
    }

    fn get(&self, id: u32) -> Option<u32> {
        match self {
            OldMap::Dense(v) => v.get(id as usize).copied().filter(|&n| n != u32::MAX),
            OldMap::Sparse(m) => m.get(&id).copied(),
        }
    }

    fn set(&mut self, id: u32, n: u32) {
        match self {
            OldMap::Dense(v) => {
                if v.len() <= id as usize {
                    v.resize(id as usize + 1, u32::MAX);
                }
                v[id as usize] = n;
            }
            OldMap::Sparse(m) => {
                m.insert(id, n);
            }
        }
    }
}

/// The numbering (see the module doc).
pub struct MdSlots<'a> {
    nodes: &'a dyn NodeSource,
    old: OldMap,
    /// Numbers of added nodes, by index in `added`.
    added_num: Vec<u32>,
    added: Vec<Vec<u8>>,
    added_by_text: FxHashMap<Vec<u8>, Key>,
    /// Input nodes an added node may equal, by text (built when first needed).
    existing: Option<FxHashMap<&'a [u8], u32>>,
    /// The numbered nodes, by number ([`Key::pack`]ed: four bytes each).
    order: Vec<u32>,
    stack: Vec<Key>,
    kids: Vec<u32>,
    /// LLVM 19's reading rules: a module flag `"PIC Level"` with behavior Error (1) or Max
    /// (7) is read as Min (8) (its `UpgradeModuleFlags`).
    upgrade_flags: bool,
}

impl<'a> MdSlots<'a> {
    /// An empty numbering of the nodes of `nodes`; `llvm19`: LLVM 19 reads the module (it
    /// upgrades old module flags as it reads them).
    pub fn new(nodes: &'a dyn NodeSource, llvm19: bool) -> Self {
        Self {
            upgrade_flags: llvm19,
            nodes,
            old: OldMap::new(nodes.max_id()),
            added_num: Vec::new(),
            added: Vec::new(),
            added_by_text: FxHashMap::default(),
            existing: None,
            order: Vec::new(),
            stack: Vec::new(),
            kids: Vec::new(),
        }
    }

    /// How many nodes are numbered.
    pub fn len(&self) -> usize {
        self.order.len()
    }

    /// Whether no node is numbered.
    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }

    fn number_of(&self, k: Key) -> Option<u32> {
        match k {
            Key::Old(id) => self.old.get(id),
            Key::Added(i) => Some(self.added_num[i as usize]).filter(|&n| n != u32::MAX),
        }
    }

    fn text_of(&self, k: Key) -> Option<&[u8]> {
        match k {
            Key::Old(id) => self.nodes.node(id).map(|(_, t)| t),
            Key::Added(i) => Some(&self.added[i as usize]),
        }
    }

    /// Numbers `root` and, depth first, what it refers to; returns its number (`None` for a
    /// `DIExpression`, which is written inline).
    fn visit(&mut self, root: Key) -> Option<u32> {
        if let Some(n) = self.number_of(root) {
            return Some(n);
        }
        self.stack.push(root);
        while let Some(k) = self.stack.pop() {
            if self.number_of(k).is_some() {
                continue;
            }
            let mut kids = std::mem::take(&mut self.kids);
            if let Some(scope) = match k {
                Key::Old(id) => self.nodes.location_scope(id),
                Key::Added(_) => None,
            } {
                // A location whose only reference is its scope (most nodes): no text read.
                let n = self.order.len() as u32;
                if let Key::Old(id) = k {
                    self.old.set(id, n);
                }
                self.order.push(k.pack());
                if self.old.get(scope).is_none() {
                    self.stack.push(Key::Old(scope));
                }
                self.kids = kids;
                continue;
            }
            let text = self.text_of(k);
            if text.is_some_and(|t| t.starts_with(b"!DIExpression(")) {
                self.kids = kids;
                continue;
            }
            match text {
                Some(t) => node_children(t, &mut kids),
                None => kids.clear(),
            }
            let n = self.order.len() as u32;
            match k {
                Key::Old(id) => self.old.set(id, n),
                Key::Added(i) => self.added_num[i as usize] = n,
            }
            self.order.push(k.pack());
            let inner = match k {
                Key::Added(i) => added_inner(&self.added[i as usize]),
                Key::Old(_) => None,
            };
            // An added location's inline `inlinedAt:` is its last child.
            if let Some(j) = inner.filter(|&j| self.added_num[j as usize] == u32::MAX) {
                self.stack.push(Key::Added(j));
            }
            for &c in kids.iter().rev() {
                if self.old.get(c).is_none() {
                    self.stack.push(Key::Old(c));
                }
            }
            self.kids = kids;
        }
        self.number_of(root)
    }

    /// The output number of input node `!id`, numbering it (and what it refers to) if this
    /// is the first reference; `None` for a `DIExpression`.
    pub fn number_old(&mut self, id: u32) -> Option<u32> {
        self.visit(Key::Old(id))
    }

    /// The output number of a node a pass made, with text `text` (which refers to input
    /// nodes only, or holds a new location inline as its `inlinedAt:`), numbering it if this
    /// is the first reference to a node with that text.
    pub fn number_added(&mut self, text: &[u8]) -> Option<u32> {
        let key = self.intern_added(text);
        self.visit(key)
    }

    /// The node for added text `text`: an equal input node, an equal added one, or a new one.
    /// A location written inline as another's `inlinedAt:` is a node of its own (LLVM numbers
    /// it): it is interned first and referred to as `!^k` (added node `k`) or `!N`.
    fn intern_added(&mut self, text: &[u8]) -> Key {
        if let Some(&k) = self.added_by_text.get(text) {
            return k;
        }
        let stored = match split_inline_location(text) {
            Some((before, inner, after)) => {
                let mut t = before.to_vec();
                match self.intern_added(inner) {
                    Key::Old(id) => write_ref(id, &mut t),
                    Key::Added(i) => {
                        t.extend_from_slice(b"!^");
                        crate::print::write_u32(&mut t, i);
                    }
                }
                t.extend_from_slice(after);
                t
            }
            None => text.to_vec(),
        };
        let k = match self.existing_equal(&stored) {
            Some(id) => Key::Old(id),
            None => match self.added_by_text.get(&stored[..]) {
                Some(&k) => k,
                None => {
                    self.added.push(stored.clone());
                    self.added_num.push(u32::MAX);
                    let k = Key::Added(self.added.len() as u32 - 1);
                    self.added_by_text.insert(stored, k);
                    k
                }
            },
        };
        self.added_by_text.insert(text.to_vec(), k);
        k
    }

    /// The input node uniquing would make a new node with `text` (a columnless location).
    fn existing_equal(&mut self, text: &[u8]) -> Option<u32> {
        if !text.starts_with(b"!DILocation(") {
            return None;
        }
        let nodes = self.nodes;
        let map = self.existing.get_or_insert_with(|| {
            nodes
                .columnless_locations()
                .into_iter()
                .filter_map(|id| Some((nodes.node(id)?.1, id)))
                .collect()
        });
        map.get(text).copied()
    }

    /// Appends `!N` for input node `id` (or the node inline if it gets no number).
    pub fn write_old_ref(&mut self, id: u32, out: &mut Vec<u8>) {
        match self.number_old(id) {
            Some(n) => write_ref(n, out),
            None => out.extend_from_slice(self.nodes.node(id).map_or(&b"!{}"[..], |(_, t)| t)),
        }
    }

    /// Appends `text` with every metadata reference renumbered (numbering as it goes).
    pub fn write_renumbered(&mut self, text: &[u8], out: &mut Vec<u8>) {
        let mut copied = 0;
        for_each_ref(text, |r| {
            if r.kind == RefKind::Md {
                out.extend_from_slice(&text[copied..r.start]);
                self.write_old_ref(r.id, out);
                copied = r.end;
            }
        });
        out.extend_from_slice(&text[copied..]);
    }

    /// `text` with its references renumbered, once every node is numbered: numbers are
    /// looked up, not visited; a `DIExpression` (which has no number) is written inline.
    fn write_numbered(&self, text: &[u8], out: &mut Vec<u8>) {
        if let Some(loc) = crate::print::refs::printed_location(text) {
            let mut copied = 0;
            for (at, id, end) in std::iter::once(loc.scope).chain(loc.inlined_at) {
                let Some(n) = self.old.get(id) else {
                    return self.write_numbered_general(text, out);
                };
                out.extend_from_slice(&text[copied..at]);
                write_ref(n, out);
                copied = end;
            }
            out.extend_from_slice(&text[copied..]);
            return;
        }
        self.write_numbered_general(text, out)
    }

    /// [`MdSlots::write_numbered`] for any node text.
    fn write_numbered_general(&self, text: &[u8], out: &mut Vec<u8>) {
        let mut copied = 0;
        for_each_ref(text, |r| {
            if r.kind != RefKind::Md {
                return;
            }
            out.extend_from_slice(&text[copied..r.start]);
            match self.old.get(r.id) {
                Some(n) => write_ref(n, out),
                None => match self.nodes.node(r.id) {
                    Some((_, t)) => out.extend_from_slice(t),
                    None => write_ref(r.id, out),
                },
            }
            copied = r.end;
        });
        out.extend_from_slice(&text[copied..]);
    }

    /// Writes every numbered node's definition, `!N = [distinct ]...`, in number order,
    /// handing `out` to `flush` whenever it holds more than 64 KiB. Nothing is numbered any
    /// more (the set is closed): definitions are formatted on up to `threads` threads (the
    /// calling one and `threads - 1` helpers per round), chunk by chunk, and written in order.
    pub fn write_defs(
        &self,
        threads: usize,
        out: &mut Vec<u8>,
        flush: &mut dyn FnMut(&mut Vec<u8>) -> std::io::Result<()>,
    ) -> std::io::Result<()> {
        const CHUNK: usize = 4096;
        let total = self.order.len();
        if threads <= 1 || total < 2 * CHUNK {
            for n in 0..total {
                self.format_def(n, out);
                if out.len() >= 1 << 16 {
                    flush(out)?;
                }
            }
            return Ok(());
        }
        // One buffer per thread, reused from round to round (fresh pages cost faults).
        let mut bufs: Vec<Vec<u8>> = vec![Vec::new(); threads];
        let mut start = 0;
        while start < total {
            let format = |t: usize, b: &mut Vec<u8>| {
                let from = (start + t * CHUNK).min(total);
                b.clear();
                for n in from..(from + CHUNK).min(total) {
                    self.format_def(n, b);
                }
            };
            std::thread::scope(|s| {
                let (mine, others) = bufs.split_first_mut().expect("threads > 1");
                for (t, b) in others.iter_mut().enumerate() {
                    s.spawn(move || format(t + 1, b));
                }
                format(0, mine);
            });
            for b in &bufs {
                flush(out)?;
                out.extend_from_slice(b);
            }
            start = (start + threads * CHUNK).min(total);
        }
        Ok(())
    }

    /// Appends the definition of node number `n` and a newline.
    fn format_def(&self, n: usize, out: &mut Vec<u8>) {
        out.push(b'!');
        crate::print::write_u32(out, n as u32);
        out.extend_from_slice(b" = ");
        match Key::unpack(self.order[n]) {
            Key::Old(id) => {
                let (distinct, text) = self.nodes.node(id).unwrap_or((false, b"!{}"));
                // `!DIL...` (locations, most nodes; variables, blocks, labels) are neither
                // identified composite types nor module flags.
                if text.get(1) != Some(&b'D') || text.get(3) != Some(&b'L') {
                    self.format_special(distinct, text, out);
                } else {
                    if distinct {
                        out.extend_from_slice(b"distinct ");
                    }
                    self.write_numbered(text, out);
                }
            }
            Key::Added(i) => {
                let text = &self.added[i as usize];
                match find_marker(text) {
                    Some((at, end, k)) => {
                        self.write_numbered(&text[..at], out);
                        write_ref(self.added_num[k as usize], out);
                        self.write_numbered(&text[end..], out);
                    }
                    None => self.write_numbered(text, out),
                }
            }
        }
        out.push(b'\n');
    }

    /// An input node other than a location: `distinct` as opt writes it, upgraded flags.
    fn format_special(&self, distinct: bool, text: &[u8], out: &mut Vec<u8>) {
        if distinct || is_odr_type(text) {
            out.extend_from_slice(b"distinct ");
        }
        match upgraded_flag(text).filter(|_| self.upgrade_flags) {
            Some(rest) => {
                out.extend_from_slice(b"!{i32 8, ");
                self.write_numbered(rest, out);
            }
            None => self.write_numbered(text, out),
        }
    }
}

/// The text after the behavior of a `"PIC Level"` module flag LLVM 19 reads as Min: `!{i32 1,
/// !"PIC Level", ...}` (Error) or `!{i32 7, ...}` (Max).
fn upgraded_flag(text: &[u8]) -> Option<&[u8]> {
    let rest = text
        .strip_prefix(b"!{i32 7, ")
        .or_else(|| text.strip_prefix(b"!{i32 1, "))?;
    rest.starts_with(b"!\"PIC Level\"").then_some(rest)
}

/// `(before, inline location, after)` when `text`'s `inlinedAt:` is a location written inline.
fn split_inline_location(text: &[u8]) -> Option<(&[u8], &[u8], &[u8])> {
    const KEY: &[u8] = b"inlinedAt: !DILocation(";
    let at = crate::util::bytes::find_sub(text, KEY)? + KEY.len() - b"!DILocation(".len();
    let mut depth = 0usize;
    for (i, &c) in text[at..].iter().enumerate() {
        match c {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    let end = at + i + 1;
                    return Some((&text[..at], &text[at..end], &text[end..]));
                }
            }
            _ => {}
        }
    }
    None
}

/// `(start, end, k)` of the `!^k` marker in an added node's text.
fn find_marker(text: &[u8]) -> Option<(usize, usize, u32)> {
    let at = crate::util::bytes::find_sub(text, b"!^")?;
    let digits = text[at + 2..]
        .iter()
        .take_while(|c| c.is_ascii_digit())
        .count();
    let k = crate::lexical::parse_u32(&text[at + 2..at + 2 + digits])?;
    Some((at, at + 2 + digits, k))
}

/// The added node an added node's text names by a marker.
fn added_inner(text: &[u8]) -> Option<u32> {
    find_marker(text).map(|(_, _, k)| k)
}

/// Whether `text` is a `!DICompositeType` with an `identifier:`: opt reads it with debug-type
/// ODR uniquing on, which makes the node distinct (LLVM's `DICompositeType::buildODRType`).
fn is_odr_type(text: &[u8]) -> bool {
    text.starts_with(b"!DICompositeType(")
        && crate::ir::metadata::field(text, b"identifier").is_some()
}

/// Appends `!n`.
fn write_ref(n: u32, out: &mut Vec<u8>) {
    out.push(b'!');
    crate::print::write_u32(out, n);
}
