//! What LLVM's reader checks across bodies and at the end of the module, and which error it
//! reports first.
//!
//! LLVM reads a module front to back and stops at the first error it detects. We read the
//! module level first and the bodies apart (in parallel), so this file replays the order:
//! - an error detected while reading (a body's, the module level's, a debug record after an
//!   `llvm.dbg.*` call or the other way round, a `blockaddress` naming a declaration or a
//!   block that is not there) is reported at the first point a sequential reader meets it;
//! - names used but never defined (`@g`, `!7`, `%T`, `$c`, a `blockaddress` function) are
//!   [`Late`] errors: LLVM reports them only in `validateEndOfModule`, after every body, in its
//!   order of kinds and, within a kind, by the order of its `std::map` (name or number).
//!
//! Invariants: [`ModuleEnd`] sees bodies in module order and reports an error only once the
//! earlier parts are known to be error-free; nothing depends on the thread count or on
//! hash-map order.

use super::cursor::{PResult, Perr};
use super::module::ModuleCtx;
use llvm_ir::util::fxhash::FxHashMap;

/// A local label of a body read earlier: its key, position, and whether it is numbered.
type BodyLocal = (Box<[u8]>, u32, bool);

/// The kinds of end-of-module errors, in the order LLVM 19's `validateEndOfModule` checks
/// them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum LateKind {
    /// `blockaddress(@f, ...)` where `@f` is never defined as a function.
    BlockAddressFn,
    /// `%N` used as a type, never defined.
    NumberedType,
    /// `%T` used as a type, never defined (LLVM's `StringMap` order; ours: first use).
    NamedType,
    /// `comdat($c)` with no `$c = comdat ...`.
    Comdat,
    /// `@name` used, never defined (and not an intrinsic LLVM declares itself).
    GlobalName,
    /// `@N` used, never defined.
    GlobalId,
    /// `!N` used, never defined.
    Metadata,
}

/// An error LLVM reports only when the module ends.
#[derive(Clone, Debug)]
pub struct Late {
    /// Its kind (the first rank).
    pub kind: LateKind,
    /// The second rank: the name's bytes, or a number as 4 big-endian bytes.
    pub key: Vec<u8>,
    /// Where the name is first used (where the error points).
    pub at: u32,
    /// LLVM's message.
    pub msg: String,
}

impl Late {
    /// A late error about a number (`@3`, `!7`, `%0`).
    pub fn numbered(kind: LateKind, n: u32, at: u32, msg: String) -> Self {
        Self {
            kind,
            key: n.to_be_bytes().to_vec(),
            at,
            msg,
        }
    }

    fn rank(&self) -> (LateKind, &[u8], u32) {
        (self.kind, &self.key, self.at)
    }
}

/// A `blockaddress(@f, %bb)` seen outside `@f`'s own body.
#[derive(Clone, Debug)]
pub struct BlockAddressUse {
    /// Where the `blockaddress` keyword is (when a sequential reader meets it).
    pub at: u32,
    /// The function's key (see [`super::module::global_key`]) and where it is written.
    pub func: Box<[u8]>,
    /// Offset of `@f`.
    pub func_at: u32,
    /// The block's key (see [`local_key`]) and where it is written.
    pub label: Box<[u8]>,
    /// Offset of `%bb`.
    pub label_at: u32,
}

/// What reading one body found that matters beyond it.
#[derive(Clone, Debug, Default)]
pub struct BodyFacts {
    /// The function's key (see [`super::module::global_key`]).
    pub key: Box<[u8]>,
    /// Offset of the first debug record (`#dbg_value(...)`).
    pub first_record: Option<u32>,
    /// Where LLVM locates the first call of `llvm.dbg.value/declare/assign` (the token after
    /// `call`, or `call` after `tail`).
    pub first_dbg_call: Option<u32>,
    /// Names used but never defined anywhere in the module.
    pub late: Vec<Late>,
    /// `blockaddress` uses naming other functions.
    pub blockaddrs: Vec<BlockAddressUse>,
    /// For a function a `blockaddress` may name ([`super::module::FunctionSpan`]'s
    /// `blockaddress_target`): every local name of the body, where it is defined, and whether
    /// it is a block, sorted.
    pub locals: Vec<(Box<[u8]>, u32, bool)>,
    /// Offset just past the body.
    pub end: u32,
}

/// The key of a local name token's text: `%x` → `x` (unescaped), `%7` / `7:` → `\0` + digits.
pub fn local_key(written: &[u8], numbered: bool) -> Box<[u8]> {
    if numbered {
        let digits = written
            .iter()
            .skip_while(|&&c| c == b'%')
            .take_while(|c| c.is_ascii_digit());
        return std::iter::once(0u8).chain(digits.copied()).collect();
    }
    llvm_ir::print::names::name_key(written)
        .into_owned()
        .into_boxed_slice()
}

/// The order-replaying checker: feed it the bodies in module order, then [`ModuleEnd::finish`].
pub struct ModuleEnd<'c> {
    ctx: &'c ModuleCtx,
    seen_record: bool,
    seen_call: bool,
    late: Vec<Late>,
    /// Module-level `blockaddress` uses not yet met (sorted by position).
    next_module_use: usize,
    /// Locals of bodies already read, by function key (only with `blockaddress`).
    locals: FxHashMap<Box<[u8]>, Vec<BodyLocal>>,
    /// Uses naming a function defined further on, by its key.
    forward: FxHashMap<Box<[u8]>, Vec<BlockAddressUse>>,
}

fn perr(at: u32, msg: impl Into<String>) -> Perr {
    Perr(Box::new((at as usize, msg.into())))
}

/// The earlier of two errors.
fn first(a: Option<Perr>, b: Option<Perr>) -> Option<Perr> {
    match (a, b) {
        (Some(a), Some(b)) => Some(if b.0 .0 < a.0 .0 { b } else { a }),
        (a, b) => a.or(b),
    }
}

impl<'c> ModuleEnd<'c> {
    /// A checker for the bodies of `ctx`.
    pub fn new(ctx: &'c ModuleCtx) -> Self {
        Self {
            ctx,
            seen_record: false,
            seen_call: false,
            late: ctx.late.clone(),
            next_module_use: 0,
            locals: FxHashMap::default(),
            forward: FxHashMap::default(),
        }
    }

    /// Body `i` was read with `facts`: the error a sequential reader reports by the end of
    /// this body, if any.
    pub fn body(&mut self, i: usize, facts: BodyFacts) -> PResult<()> {
        if let Some(e) = self.met_before(i, &facts, None) {
            return Err(e);
        }
        if let Some(e) = self.forward_into(&facts) {
            return Err(e);
        }
        self.seen_record |= facts.first_record.is_some();
        self.seen_call |= facts.first_dbg_call.is_some();
        self.late.extend(facts.late);
        if self
            .ctx
            .functions
            .get(i)
            .is_some_and(|f| f.blockaddress_target)
        {
            self.locals.insert(facts.key, facts.locals);
        }
        Ok(())
    }

    /// Body `i` failed with `e` (`facts`: what it saw before): the error to report, `e` or
    /// one a sequential reader meets first.
    pub fn failed(&mut self, i: usize, e: Perr, facts: BodyFacts) -> Perr {
        self.met_before(i, &facts, Some(e))
            .unwrap_or_else(|| perr(0, "internal error: a body failed without an error"))
    }

    /// The first error met before body `i` ends: module-level uses before it, `err`, the
    /// debug-format mix, uses of earlier functions' blocks.
    fn met_before(&mut self, i: usize, facts: &BodyFacts, err: Option<Perr>) -> Option<Perr> {
        let start = self.ctx.functions.get(i).map_or(0, |s| s.start);
        if let Err(e) = self.until(start) {
            return Some(e);
        }
        let mut found = first(err, self.mixing(facts));
        for u in &facts.blockaddrs {
            found = first(found, self.use_elsewhere(u).err());
        }
        found
    }

    /// Every body was read: the error of the module-level uses after the last body, else the
    /// first end-of-module error in LLVM's order.
    pub fn finish(mut self) -> PResult<()> {
        self.until(u32::MAX)?;
        let mut forward: Vec<BlockAddressUse> = self.forward.drain().flat_map(|(_, v)| v).collect();
        forward.sort_by_key(|u| u.at);
        for u in forward {
            // Their function never got a body: it is not a function, or not defined at all.
            self.late.push(Late {
                kind: LateKind::BlockAddressFn,
                key: u.func.to_vec(),
                at: u.func_at,
                msg: "expected function name in blockaddress".into(),
            });
        }
        match self.late.iter().min_by(|a, b| a.rank().cmp(&b.rank())) {
            Some(l) => Err(perr(l.at, l.msg.clone())),
            None => Ok(()),
        }
    }

    /// The first debug record after an `llvm.dbg.*` call, or the first such call after a
    /// record (LLVM 19 refuses a module that mixes them).
    fn mixing(&self, f: &BodyFacts) -> Option<Perr> {
        const RECORD: &str =
            "debug record should not appear in a module containing debug info intrinsics";
        const CALL: &str =
            "llvm.dbg intrinsic should not appear in a module using non-intrinsic debug info";
        match (f.first_record, f.first_dbg_call) {
            (Some(r), _) if self.seen_call => Some(perr(r, RECORD)),
            (_, Some(c)) if self.seen_record => Some(perr(c, CALL)),
            (Some(r), Some(c)) if r < c => Some(perr(c, CALL)),
            (Some(r), Some(_)) => Some(perr(r, RECORD)),
            _ => None,
        }
    }

    /// Checks the module-level uses a sequential reader meets before offset `end`.
    pub fn until(&mut self, end: u32) -> PResult<()> {
        while let Some(u) = self.ctx.blockaddrs.get(self.next_module_use) {
            if u.at >= end {
                break;
            }
            self.next_module_use += 1;
            self.use_elsewhere(u)?;
        }
        Ok(())
    }

    /// A use outside its function's body: checked now if the function came before it,
    /// remembered for that function's body otherwise.
    fn use_elsewhere(&mut self, u: &BlockAddressUse) -> PResult<()> {
        use super::module::GlobalKind;
        let sym = self.ctx.globals.get(&u.func);
        let before = sym.is_some_and(|s| s.at < u.at);
        match sym {
            Some(s) if before && s.kind != GlobalKind::Function => {
                Err(perr(u.func_at, "expected function name in blockaddress"))
            }
            Some(s) if s.kind == GlobalKind::Function && !s.is_definition => {
                // Before the use: refused at once; after it: when the declaration is read.
                Err(perr(
                    u.func_at,
                    "cannot take blockaddress inside a declaration",
                ))
            }
            Some(_) if before => match self.locals.get(&u.func) {
                _ if u.label.first() == Some(&0) => Err(perr(
                    u.label_at,
                    "cannot take address of numeric label after the function is defined",
                )),
                Some(locals) if locals.iter().any(|(k, _, b)| *b && *k == u.label) => Ok(()),
                _ => Err(perr(u.label_at, "referenced value is not a basic block")),
            },
            _ => {
                self.forward
                    .entry(u.func.clone())
                    .or_default()
                    .push(u.clone());
                Ok(())
            }
        }
    }

    /// Uses made before this body named this function: LLVM looks their blocks up when the
    /// body starts, as forward references of the body.
    fn forward_into(&mut self, f: &BodyFacts) -> Option<Perr> {
        let uses = self.forward.remove(&f.key)?;
        let locals = Locals::new(&f.locals, uses.len());
        let mut undefined: Option<&BlockAddressUse> = None;
        let mut found = None;
        for u in &uses {
            match locals.find(&u.label) {
                Some((_, true)) => {}
                Some((at, false)) => {
                    found = first(
                        found,
                        Some(perr(at, "instruction forward referenced with type 'label'")),
                    );
                }
                None => {
                    if undefined.map_or(true, |v| u.label < v.label) {
                        undefined = Some(u);
                    }
                }
            }
        }
        found.or_else(|| {
            let u = undefined?;
            let shown = if u.label.first() == Some(&0) {
                String::from_utf8_lossy(&u.label[1..]).into_owned()
            } else {
                String::from_utf8_lossy(&u.label).into_owned()
            };
            Some(perr(
                u.label_at,
                format!("use of undefined value '%{shown}'"),
            ))
        })
    }
}

/// A body's locals, looked up by key: the first with that key, as a scan finds it. Many
/// lookups (a dispatch table's `blockaddress` uses, against a body of thousands of locals)
/// search by halves when the locals are sorted by key (as the reader lists them), which
/// finds that same first one.
enum Locals<'f> {
    Scan(&'f [(Box<[u8]>, u32, bool)]),
    Sorted(&'f [(Box<[u8]>, u32, bool)]),
}

impl<'f> Locals<'f> {
    /// Lookups into `locals`, `lookups` of them to come.
    fn new(locals: &'f [(Box<[u8]>, u32, bool)], lookups: usize) -> Self {
        if lookups >= 8 && locals.windows(2).all(|w| w[0].0 <= w[1].0) {
            return Locals::Sorted(locals);
        }
        Locals::Scan(locals)
    }

    /// Where the first local with key `key` is defined and whether it is a block.
    fn find(&self, key: &[u8]) -> Option<(u32, bool)> {
        let found = match *self {
            Locals::Scan(l) => l.iter().find(|(k, _, _)| **k == *key),
            Locals::Sorted(l) => l
                .get(l.partition_point(|(k, _, _)| **k < *key))
                .filter(|(k, _, _)| **k == *key),
        };
        found.map(|(_, at, b)| (*at, *b))
    }
}

/// The late error for type `%name` (key `name`), first used at `at` in `src`.
pub fn undefined_type(src: &[u8], name: &[u8], at: u32) -> Late {
    let numbered = src.get(at as usize + 1).is_some_and(|c| c.is_ascii_digit());
    let shown = String::from_utf8_lossy(name);
    match crate::lexer::parse_u32(name) {
        Some(n) if numbered => Late::numbered(
            LateKind::NumberedType,
            n,
            at,
            format!("use of undefined type '%{shown}'"),
        ),
        // LLVM walks a `StringMap` here (hash order); the first use is our stand-in.
        _ => Late {
            kind: LateKind::NamedType,
            key: Vec::new(),
            at,
            msg: format!("use of undefined type named '{shown}'"),
        },
    }
}

/// The late error for global `key` (see [`super::module::global_key`]), first used at `at`.
pub fn undefined_global(key: &[u8], at: u32) -> Late {
    match key.split_first() {
        Some((0, digits)) => {
            let n = crate::lexer::parse_u32(digits).unwrap_or(u32::MAX);
            let msg = format!("use of undefined value '@{n}'");
            Late::numbered(LateKind::GlobalId, n, at, msg)
        }
        _ => Late {
            kind: LateKind::GlobalName,
            key: key.to_vec(),
            at,
            msg: format!("use of undefined value '@{}'", String::from_utf8_lossy(key)),
        },
    }
}
