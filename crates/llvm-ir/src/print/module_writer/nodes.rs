//! Where the writer reads metadata definitions from ([`NodeSource`]s), and writing a whole
//! [`Module`] held in memory through the writer.

use crate::ir::{Function, Item, Module};
use crate::print::md_slots::NodeSource;
use crate::print::{self, BlockAddresses};
use crate::util::fxhash::FxHashMap;

use super::layout::{classify, Kind};
use super::{Entry, ModuleInfo, ModuleWriter, Output};

/// Metadata definitions read from a module's items (`!N = [distinct] node`).
struct ItemNodes<'a> {
    nodes: FxHashMap<u32, (bool, &'a [u8])>,
    max: Option<u32>,
}

/// `(id, distinct, node text)` of a definition `!N = [distinct] node`.
pub fn split_def(t: &[u8]) -> Option<(u32, bool, &[u8])> {
    use crate::ir::metadata::trim;
    let t = trim(t).strip_prefix(b"!")?;
    let digits = t.iter().take_while(|c| c.is_ascii_digit()).count();
    let id = crate::lexical::parse_u32(&t[..digits])?;
    let rest = trim(trim(&t[digits..]).strip_prefix(b"=")?);
    Some(match rest.strip_prefix(b"distinct") {
        Some(r) if r.first().is_some_and(u8::is_ascii_whitespace) => (id, true, trim(r)),
        _ => (id, false, rest),
    })
}

impl NodeSource for ItemNodes<'_> {
    fn node(&self, id: u32) -> Option<(bool, &[u8])> {
        self.nodes.get(&id).copied()
    }
    fn max_id(&self) -> Option<u32> {
        self.max
    }
    fn columnless_locations(&self) -> Vec<u32> {
        let mut v: Vec<u32> = self
            .nodes
            .iter()
            .filter(|(_, (distinct, t))| !distinct && is_columnless_location(t))
            .map(|(&id, _)| id)
            .collect();
        v.sort_unstable();
        v
    }
}

/// Whether `t` is a `!DILocation(line: N, scope: ...)` as LLVM prints one without a column.
pub fn is_columnless_location(t: &[u8]) -> bool {
    let Some(rest) = t.strip_prefix(b"!DILocation(line: ") else {
        return false;
    };
    let digits = rest.iter().take_while(|c| c.is_ascii_digit()).count();
    rest[digits..].starts_with(b", scope: ")
}

/// The metadata definitions of a module read through a [`crate::ir::module_info::ModuleInfo`].
pub struct CtxNodes<'a> {
    /// The input.
    pub source: &'a [u8],
    /// Its module context.
    pub ctx: &'a crate::ir::module_info::ModuleInfo,
}

impl NodeSource for CtxNodes<'_> {
    fn node(&self, id: u32) -> Option<(bool, &[u8])> {
        let n = self.ctx.metadata.get(id)?;
        Some((
            n.distinct(),
            &self.source[n.start as usize..n.end() as usize],
        ))
    }
    fn location_scope(&self, id: u32) -> Option<u32> {
        let n = self.ctx.metadata.get(id)?.location_scope;
        (n != u32::MAX).then_some(n)
    }
    fn max_id(&self) -> Option<u32> {
        self.ctx.max_metadata_id
    }
    fn columnless_locations(&self) -> Vec<u32> {
        self.ctx.columnless_locations.clone()
    }
}

/// Writes module `m` in opt's layout, printing functions on up to `threads` threads.
pub fn write_module(m: &Module, threads: crate::Threads) -> Vec<u8> {
    let funcs: Vec<&Function> = m.functions.values().collect();
    let ba = BlockAddresses::compute(m);
    let printed = print::print_parallel(&funcs, threads.get(), ba.as_ref());
    let texts: Vec<std::borrow::Cow<'_, [u8]>> = m
        .items
        .iter()
        .map(|it| match (*it, &ba) {
            (Item::Text(t), Some(ba)) => ba.rewrite(m.text(t)),
            (Item::Text(t), None) | (Item::Metadata(t, _), _) => m.text(t).into(),
            (Item::Function(_), _) => (&[][..]).into(),
        })
        .collect();
    let mut nodes = ItemNodes {
        nodes: FxHashMap::default(),
        max: None,
    };
    let mut entries = Vec::with_capacity(m.items.len());
    for (it, t) in m.items.iter().zip(&texts) {
        entries.push(match *it {
            Item::Function(f) => Entry::Function(f.index()),
            Item::Metadata(..) => Entry::Metadata,
            Item::Text(_) => Entry::Text(t),
        });
        if matches!(it, Item::Metadata(..)) || classify(t) == Kind::MdDef {
            if let Some((id, distinct, body)) = split_def(t) {
                nodes.nodes.entry(id).or_insert((distinct, body));
                nodes.max = nodes.max.max(Some(id));
            }
        }
    }
    let ctx = m.info.as_deref();
    let info = ModuleInfo {
        id: m.id.as_deref(),
        declared: ctx.map(|c| &c.declared),
        typed: ctx.is_some_and(|c| !c.types.opaque_mode),
        types: ctx.map(|c| (&*c.types, &c.type_roots)),
        threads,
    };
    let mut out: Vec<u8> =
        Vec::with_capacity(m.source.len() + printed.iter().map(|p| p.text.len()).sum::<usize>());
    let def_attr = |n: usize| printed[n].header_attr;
    let r = (|| {
        let mut w = ModuleWriter::new(entries.iter().copied(), &nodes, &def_attr, info, &mut out)?;
        for (k, it) in m.items.iter().enumerate() {
            match *it {
                Item::Function(f) => {
                    let func = &m.functions[f];
                    let n = f.index();
                    w.function(k, n, &printed[n], &func.new_md, &func.needs_decls)?
                }
                _ => w.item(k, entries[k])?,
            }
        }
        w.finish()
    })();
    r.expect("writing to memory cannot fail");
    out
}

impl Output for Vec<u8> {
    fn replace(&mut self, start: u64, end: u64, with: &[u8]) -> std::io::Result<()> {
        self.splice(start as usize..end as usize, with.iter().copied());
        Ok(())
    }
}

impl Output for std::io::Sink {
    fn replace(&mut self, _start: u64, _end: u64, _with: &[u8]) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn definitions_split() {
        assert_eq!(
            split_def(b"!7 = distinct !{!7, !1}"),
            Some((7, true, &b"!{!7, !1}"[..]))
        );
        assert_eq!(split_def(b"!0 = !{}"), Some((0, false, &b"!{}"[..])));
        assert!(is_columnless_location(b"!DILocation(line: 0, scope: !5)"));
        assert!(!is_columnless_location(
            b"!DILocation(line: 0, column: 3, scope: !5)"
        ));
    }
}
