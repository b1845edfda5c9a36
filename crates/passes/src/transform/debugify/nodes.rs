//! The metadata nodes `debugify` adds: their numbers and their text.
//!
//! Numbers are handed out from the module's largest node number + 1 in the order opt's
//! printer (`SlotTracker`) reaches the nodes: named metadata first (compile unit, then its
//! file; the two counts, one node when equal; the new module flag), then per function its
//! subprogram and the subprogram's operands in operand order (subroutine type and its empty
//! type array, the first time; retained-nodes list; each variable followed by its type the
//! first time that type is seen), then its locations in instruction order. So a module with
//! no metadata of its own gets exactly opt's numbers.
//!
//! Invariant: every node is written once, in number order, in LLVM's printed spelling.

use std::io::Write;

use llvm_ir::print::names::write_escaped;
use llvm_ir::util::fxhash::FxHashMap;

/// One function's share of the new nodes.
#[derive(Clone, Debug, Default)]
pub struct FnNodes {
    /// `distinct !DISubprogram(...)`
    pub sp: u32,
    /// The `retainedNodes:` tuple.
    pub retained: u32,
    /// Per planned debug value: its variable's node.
    pub vars: Vec<u32>,
    /// Per planned debug value: its variable type's node.
    pub var_types: Vec<u32>,
    /// The location of the function's first instruction (the others follow, one per line).
    pub first_loc: u32,
}

/// The numbers of all new nodes.
#[derive(Clone, Debug, Default)]
pub struct Numbers {
    /// `distinct !DICompileUnit(...)`
    pub cu: u32,
    /// `!DIFile(...)`
    pub file: u32,
    /// `!{i32 lines}`
    pub lines: u32,
    /// `!{i32 variables}` (the same node as `lines` when the counts are equal)
    pub vars: u32,
    /// The "Debug Info Version" flag, when the module lacks it.
    pub flag: Option<u32>,
    /// `!DISubroutineType(types: !{})`, shared by every subprogram.
    pub sp_type: u32,
    /// `!{}`
    pub empty: u32,
    /// Per debugified function, in order.
    pub fns: Vec<FnNodes>,
    /// Basic types `(bits, node)` in number order.
    pub types: Vec<(u64, u32)>,
}

/// What a function contributes, for numbering: how many instructions (one location each)
/// and the type size of each planned variable.
pub struct FnShape<'a> {
    /// Instructions (locations).
    pub insts: usize,
    /// Allocation bits of each variable's value.
    pub var_bits: &'a [u64],
}

impl Numbers {
    /// Numbers every node, starting at `base`.
    pub fn assign(base: u32, counts: (u32, u32), need_flag: bool, fns: &[FnShape<'_>]) -> Self {
        let mut next = base;
        let mut take = || {
            next += 1;
            next - 1
        };
        let mut n = Numbers {
            cu: take(),
            file: take(),
            ..Default::default()
        };
        n.lines = take();
        n.vars = if counts.0 == counts.1 {
            n.lines
        } else {
            take()
        };
        n.flag = need_flag.then(&mut take);
        let mut type_of: FxHashMap<u64, u32> = FxHashMap::default();
        for (k, shape) in fns.iter().enumerate() {
            let mut f = FnNodes {
                sp: take(),
                ..Default::default()
            };
            if k == 0 {
                n.sp_type = take();
                n.empty = take();
            }
            f.retained = take();
            for &bits in shape.var_bits {
                f.vars.push(take());
                let t = *type_of.entry(bits).or_insert_with(|| {
                    let t = take();
                    n.types.push((bits, t));
                    t
                });
                f.var_types.push(t);
            }
            f.first_loc = take();
            for _ in 1..shape.insts {
                take();
            }
            n.fns.push(f);
        }
        n
    }
}

/// The text of every new node, written as `!N = ...` lines in number order.
///
/// Nodes are spelled into one buffer as they come (spans remembered by number), and put in
/// order once at the end: no allocation per node.
pub struct Writer {
    buf: Vec<u8>,
    spans: Vec<(u32, usize, usize)>,
}

impl Writer {
    /// The module-level nodes.
    pub fn new(n: &Numbers, module_id: &str, counts: (u32, u32)) -> Self {
        let mut w = Writer {
            buf: Vec::new(),
            spans: Vec::new(),
        };
        w.add(n.cu, |b| {
            write!(
                b,
                "distinct !DICompileUnit(language: DW_LANG_C, file: !{}, producer: \
                 \"debugify\", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)",
                n.file
            )
        });
        w.add(n.file, |b| {
            b.extend_from_slice(b"!DIFile(filename: \"");
            write_escaped(b, module_id.as_bytes());
            b.extend_from_slice(b"\", directory: \"/\")");
            Ok(())
        });
        w.add(n.lines, |b| write!(b, "!{{i32 {}}}", counts.0));
        if n.vars != n.lines {
            w.add(n.vars, |b| write!(b, "!{{i32 {}}}", counts.1));
        }
        if let Some(flag) = n.flag {
            w.add(flag, |b| {
                write!(b, "!{{i32 2, !\"Debug Info Version\", i32 3}}")
            });
        }
        for &(bits, t) in &n.types {
            w.add(t, |b| {
                write!(b, "!DIBasicType(name: \"ty{bits}\"")?;
                if bits != 0 {
                    write!(b, ", size: {bits}")?;
                }
                write!(b, ", encoding: DW_ATE_unsigned)")
            });
        }
        if !n.fns.is_empty() {
            w.add(n.sp_type, |b| {
                write!(b, "!DISubroutineType(types: !{})", n.empty)
            });
            w.add(n.empty, |b| write!(b, "!{{}}"));
        }
        w
    }

    /// Spells node `id` with `spell`.
    fn add(&mut self, id: u32, spell: impl FnOnce(&mut Vec<u8>) -> std::io::Result<()>) {
        let start = self.buf.len();
        // Writing into a `Vec` cannot fail.
        let _ = spell(&mut self.buf);
        self.spans.push((id, start, self.buf.len()));
    }

    /// One function's nodes: subprogram, retained list, variables and locations.
    pub fn function(&mut self, n: &Numbers, f: &FnNodes, sp: &SpInfo<'_>, vars: &[(u32, u32)]) {
        self.add(f.sp, |b| write_subprogram(b, n, f, sp));
        self.add(f.retained, |b| {
            b.extend_from_slice(b"!{");
            for (k, v) in f.vars.iter().enumerate() {
                let sep = if k == 0 { "" } else { ", " };
                write!(b, "{sep}!{v}")?;
            }
            b.push(b'}');
            Ok(())
        });
        for (k, &(name, line)) in vars.iter().enumerate() {
            self.add(f.vars[k], |b| {
                write!(
                    b,
                    "!DILocalVariable(name: \"{name}\", scope: !{}, file: !{}, line: {line}, \
                     type: !{})",
                    f.sp, n.file, f.var_types[k]
                )
            });
        }
        for k in 0..sp.insts as u32 {
            self.add(f.first_loc + k, |b| {
                write!(
                    b,
                    "!DILocation(line: {}, column: 1, scope: !{})",
                    sp.line + k,
                    f.sp
                )
            });
        }
    }

    /// All lines, `!N = ...\n`, in number order.
    pub fn finish(mut self) -> Vec<u8> {
        self.spans.sort_unstable_by_key(|s| s.0);
        let mut out = Vec::with_capacity(self.buf.len() + self.spans.len() * 12);
        for &(id, s, e) in &self.spans {
            let _ = write!(out, "!{id} = ");
            out.extend_from_slice(&self.buf[s..e]);
            out.push(b'\n');
        }
        out
    }
}

/// `distinct !DISubprogram(...)` of one function.
fn write_subprogram(
    b: &mut Vec<u8>,
    n: &Numbers,
    f: &FnNodes,
    sp: &SpInfo<'_>,
) -> std::io::Result<()> {
    b.extend_from_slice(b"distinct !DISubprogram(");
    if !sp.name.is_empty() {
        for field in ["name", "linkageName"] {
            write!(b, "{field}: \"")?;
            write_escaped(b, sp.name);
            b.extend_from_slice(b"\", ");
        }
    }
    let local = if sp.local {
        "DISPFlagLocalToUnit | "
    } else {
        ""
    };
    write!(
        b,
        "scope: null, file: !{file}, line: {line}, type: !{ty}, scopeLine: {line}, spFlags: \
         {local}DISPFlagDefinition | DISPFlagOptimized, unit: !{cu}, retainedNodes: !{ret})",
        file = n.file,
        line = sp.line,
        ty = n.sp_type,
        cu = n.cu,
        ret = f.retained,
    )
}

/// What a subprogram says about its function.
pub struct SpInfo<'a> {
    /// The function's name (unescaped; empty for an unnamed `@0`).
    pub name: &'a [u8],
    /// Private or internal linkage.
    pub local: bool,
    /// The line of its first instruction.
    pub line: u32,
    /// How many instructions (locations) it has.
    pub insts: usize,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_follow_opts_printer() {
        let bits = [64u64, 64, 32];
        let n = Numbers::assign(
            0,
            (12, 3),
            true,
            &[FnShape {
                insts: 4,
                var_bits: &bits,
            }],
        );
        assert_eq!(
            (n.cu, n.file, n.lines, n.vars, n.flag),
            (0, 1, 2, 3, Some(4))
        );
        let f = &n.fns[0];
        assert_eq!((f.sp, n.sp_type, n.empty, f.retained), (5, 6, 7, 8));
        assert_eq!(f.vars, vec![9, 11, 12]);
        assert_eq!(f.var_types, vec![10, 10, 13]);
        assert_eq!(f.first_loc, 14);
        let same = Numbers::assign(3, (1, 1), false, &[]);
        assert_eq!((same.lines, same.vars, same.flag), (5, 5, None));
    }
}
