//! A `-g` module's metadata tail, read on two threads.
//!
//! After its functions, a module printed by LLVM lists hundreds of thousands of metadata
//! definitions, one per line, most of them plain specialized nodes (`!DILocation(line: 3,
//! column: 7, scope: !12)`: 95% of sqlite3 -O0 -g's 240,620). The module pass reads them
//! alone, before any function can be processed. So when the reader meets the first metadata
//! definition with at least [`SPLIT_FROM_BYTES`] left, it splits the rest at a line that
//! starts a definition, three eighths of the way in: a helper thread reads the plain
//! definitions from there ([`scan_plain_run`], the byte scan the sequential path uses for them
//! too), marking every other line that may hold an entity as a [`Step::Hole`], while this
//! thread reads up to the split as before. If this thread ends exactly at the split, it replays the helper's
//! steps (`ModuleReader::take_run`): a definition is taken as read, a hole is read here,
//! entity by entity.
//!
//! Why three eighths: this thread reads its part token by token and then replays the helper's
//! steps (about a third of the cost of reading them), the helper only scans; splitting in the
//! middle left this thread the longer share. Instructions of the module pass on this thread
//! (callgrind, `--separate-threads=yes`): sqlite3 -O0 -g 595M alone, 412M split in the middle,
//! 364M at three eighths (the helper: 195M); zstd_lazy.c -O0 -g 312M, 205M, 177M (helper 117M).
//! In time (`--time-passes`, default threads, three alternated runs of the builds with and
//! without the split in the middle, 2026-11-29): "Read module level" on sqlite3 -O0 -g
//! 45.7-46.7 ms -> 38.4-38.8 ms, whole run 0.244-0.246 s -> 0.234-0.241 s.
//!
//! Invariant: the result is what reading everything on one thread gives — the same metadata
//! table, items, uses, and the same first error. The helper only reads; it never decides an
//! error. A definition is taken only where the sequential reader's cursor is at its first
//! byte; where it is not (a hole's entity ran over several lines), and at a definition that
//! would redefine a number, the replay stops and the sequential reader goes on from its
//! cursor. If the split turns out not to start an entity (this thread reads past it), the
//! helper's work is dropped.

use super::{has_plain_fields, parse_u32, scan_plain_fields, ModuleReader, PResult, Tok};

/// The least length of metadata tail worth a second thread (about 15,000 definitions).
pub const SPLIT_FROM_BYTES: usize = 1 << 20;

/// One plain definition `!id = [distinct ]!DIxxx(...)` on a line of its own.
#[derive(Clone, Copy, Debug)]
pub(super) struct PlainDef {
    /// Where the line starts (the `!` of `!id`).
    pub entity: u32,
    /// Where the node starts (the `!` of `!DIxxx`).
    pub node: u32,
    /// Just after the node's `)`.
    pub end: u32,
    pub id: u32,
    pub distinct: bool,
    /// The end of this definition's references in [`PlainRun::refs`] (they start where the
    /// previous definition's end).
    pub refs_end: u32,
    /// A `!DILocation` naming one node only (its scope): that node; else `u32::MAX`.
    pub location_scope: u32,
    /// A location without a column, not distinct (see `is_columnless_location`).
    pub columnless: bool,
}

/// One step of the helper's reading, in line order.
#[derive(Clone, Copy, Debug)]
pub(super) enum Step {
    /// A plain definition.
    Def(PlainDef),
    /// A line that may start an entity the helper does not read.
    Hole,
}

/// What the helper read: steps to the end of the input, and the definitions' references.
#[derive(Debug, Default)]
pub(super) struct PlainRun {
    pub steps: Vec<Step>,
    /// Each definition's `!N` references: the number and the offset of its digits.
    pub refs: Vec<(u32, u32)>,
}

/// Reads up to `split` here while a helper reads plain definitions from there, then takes
/// the helper's definitions if this thread ended exactly at `split`.
pub(super) fn read_split(
    r: &mut ModuleReader<'_>,
    split: usize,
    prev_end: &mut Option<usize>,
) -> PResult<()> {
    let src = r.c.src;
    std::thread::scope(|s| {
        let helper = s.spawn(move || scan_plain_run(src, split));
        let mut res = Ok(true);
        while matches!(res, Ok(true)) && r.c.kind() != Tok::Eof && r.c.at() < split {
            res = super::read_item(r, prev_end);
        }
        let run = helper
            .join()
            .unwrap_or_else(|p| std::panic::resume_unwind(p));
        res?;
        if r.c.kind() != Tok::Eof && r.c.at() == split {
            r.take_run(&run, prev_end)?;
        }
        Ok(())
    })
}

/// Where to split `src[from..]`: the start of the first line past three eighths of it that
/// begins with `!` and a digit, if any.
pub(super) fn split_point(src: &[u8], from: usize) -> Option<usize> {
    let mid = from + (src.len() - from) * 3 / 8;
    let mut i = mid;
    loop {
        let nl = i + llvm_ir::util::bytes::find_byte(&src[i..], b'\n')?;
        let line = nl + 1;
        if src.get(line) == Some(&b'!') && src.get(line + 1).is_some_and(u8::is_ascii_digit) {
            return Some(line);
        }
        i = line;
    }
}

/// `!N = ` and `distinct ` as LLVM prints them, at byte `at` (an `!`): the number, whether
/// the node is distinct, and where the node starts.
pub(super) fn plain_head(src: &[u8], at: usize) -> Option<(u32, bool, usize)> {
    let digits = at + 1;
    let mut i = digits;
    while src.get(i).is_some_and(|c| c.is_ascii_digit()) {
        i += 1;
    }
    let id = parse_u32(&src[digits..i])?;
    i += src[i..].starts_with(b" = ").then_some(3)?;
    let distinct = src[i..].starts_with(b"distinct ");
    if distinct {
        i += b"distinct ".len();
    }
    Some((id, distinct, i))
}

/// The offset of `(` in a node `!DIxxx(` at `start` whose fields [`scan_plain_fields`] may
/// read, and the node's kind.
pub(super) fn plain_open(src: &[u8], start: usize) -> Option<(usize, &[u8])> {
    let mut open = start + 1;
    while src.get(open).is_some_and(|c| c.is_ascii_alphabetic()) {
        open += 1;
    }
    let kind = src.get(start + 1..open)?;
    (src.get(start) == Some(&b'!') && src.get(open) == Some(&b'(') && has_plain_fields(kind))
        .then_some((open, kind))
}

/// The scope of a node of kind `kind` with references `refs`, if it is a `!DILocation` that
/// names no other node ([`MdNode::location_scope`](super::MdNode)).
pub(super) fn location_scope(kind: &[u8], refs: &[(u32, u32)]) -> Option<u32> {
    match (refs, kind) {
        ([(scope, _)], b"DILocation") => Some(*scope),
        _ => None,
    }
}

/// Reads the lines from `at` (a line start) to the end: a plain definition that ends its
/// line is a [`Step::Def`]; an empty line, or one of blanks and a comment, is skipped (the
/// lexer skips them too); any other line is a [`Step::Hole`].
pub(super) fn scan_plain_run(src: &[u8], mut at: usize) -> PlainRun {
    let mut run = PlainRun::default();
    while at < src.len() {
        let refs_start = run.refs.len();
        if let Some(d) = plain_line(src, at, &mut run.refs, refs_start) {
            run.steps.push(Step::Def(d));
            at = d.end as usize + 1;
            continue;
        }
        run.refs.truncate(refs_start);
        let mut i = at;
        while matches!(src.get(i), Some(b' ' | b'\t')) {
            i += 1;
        }
        if !matches!(src.get(i), None | Some(b'\n' | b';')) {
            run.steps.push(Step::Hole);
        }
        at = match llvm_ir::util::bytes::find_byte(&src[at..], b'\n') {
            Some(k) => at + k + 1,
            None => src.len(),
        };
    }
    run
}

/// The plain definition on the line at `at`, ending the line; its references pushed to
/// `refs` (which held `refs_start` before).
fn plain_line(
    src: &[u8],
    at: usize,
    refs: &mut Vec<(u32, u32)>,
    refs_start: usize,
) -> Option<PlainDef> {
    if src.get(at) != Some(&b'!') {
        return None;
    }
    let (id, distinct, node) = plain_head(src, at)?;
    let (open, kind) = plain_open(src, node)?;
    let end = scan_plain_fields(src, open + 1, refs)?;
    if end < src.len() && src[end] != b'\n' {
        return None;
    }
    let location_scope = location_scope(kind, &refs[refs_start..]).unwrap_or(u32::MAX);
    let text = &src[node..end];
    Some(PlainDef {
        entity: at as u32,
        node: node as u32,
        end: end as u32,
        id,
        distinct,
        refs_end: refs.len() as u32,
        location_scope,
        columnless: !distinct && llvm_ir::print::module_writer::is_columnless_location(text),
    })
}

#[cfg(test)]
mod tests {
    use super::super::read_module_split;
    use super::*;

    /// Everything the module pass records, as text, or the error.
    fn reading(src: &[u8], split_from: Option<usize>) -> String {
        match read_module_split(src, split_from) {
            Err(e) => format!("error {:?}", e.0),
            Ok((ctx, items)) => {
                let max = ctx.max_metadata_id.unwrap_or(0);
                let nodes: Vec<_> = (0..=max).map(|id| ctx.metadata.get(id).copied()).collect();
                format!(
                    "{items:?}\n{nodes:?}\n{:?}\n{:?}\n{max}",
                    ctx.columnless_locations, ctx.late
                )
            }
        }
    }

    /// Reads `src` on one thread and with every metadata tail split; the two must agree.
    fn same_both_ways(src: &str) -> String {
        let one = reading(src.as_bytes(), None);
        let two = reading(src.as_bytes(), Some(0));
        assert_eq!(one, two, "in:\n{src}");
        one
    }

    const HEAD: &str =
        "define void @f() !dbg !3 {\n  ret void, !dbg !4\n}\n\n!llvm.dbg.cu = !{!0}\n";

    #[test]
    fn plain_lines_and_holes() {
        let run = scan_plain_run(
            concat!(
                "!1 = !DILocation(line: 2, column: 3, scope: !0)\n\n; c\n  \n!2 = !{!1}\n",
                "!3 = distinct !DILexicalBlock(scope: !1, line: 4)"
            )
            .as_bytes(),
            0,
        );
        let kinds: Vec<bool> = run
            .steps
            .iter()
            .map(|s| matches!(s, Step::Def(_)))
            .collect();
        assert_eq!(kinds, [true, false, true]);
        let Step::Def(first) = run.steps[0] else {
            unreachable!()
        };
        assert_eq!(
            (first.id, first.location_scope, first.distinct),
            (1, 0, false)
        );
        let Step::Def(last) = run.steps[2] else {
            unreachable!()
        };
        assert_eq!(
            (last.id, last.location_scope, last.distinct),
            (3, u32::MAX, true)
        );
        assert_eq!(run.refs, [(0, 45), (1, 105)]);
    }

    #[test]
    fn splits_at_a_definition_past_three_eighths() {
        let src = b"!1 = !{}\n!2 = !{}\n  !3\n!4 = !{}\n";
        assert_eq!(split_point(src, 0), Some(23));
        assert_eq!(split_point(b"!1 = !{}\n", 0), None);
    }

    #[test]
    fn a_split_tail_reads_as_one_thread_reads_it() {
        let lines = [
            "!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1)",
            "!1 = !DIFile(filename: \"a.c\", directory: \"/d\")",
            "!2 = !{!1, null}",
            "!3 = distinct !DISubprogram(name: \"f\", scope: !1, file: !1, line: 1, unit: !0)",
            "!4 = !DILocation(line: 5, column: 7, scope: !3)",
            "!5 = !DILocation(line: 0, scope: !3)",
            "!6 = !DILocation(line: 6, column: 1, scope: !3, inlinedAt: !4)",
            "!7 = !DILexicalBlock(scope: !3, file: !1, line: 2, column: 3)",
            "!8 = !DILocation(line: 7, column: 2, scope: !7) ; a comment",
            "!9 = !{\n!4,\n!5 }",
            "",
            "; a comment line",
            "!10 = !DILocalVariable(name: \"x\", scope: !3, file: !1, line: 3, type: !11)",
            "!11 = !DIBasicType(name: \"int\", size: 32, encoding: DW_ATE_signed)",
            "!12 = !DILocation(line: 8, column: 9, scope: !99)",
            "!13 = !DILocation(line:  8, column: 9, scope: !3)",
            "!14 = distinct !DILocation(line: 0, scope: !3)",
        ];
        // Every order of some of the lines, from a small generator: holes, blank lines,
        // comments and multi-line entities at every place around the split.
        let mut seed = 7u64;
        for _ in 0..300 {
            let mut text = String::from(HEAD);
            let n = 4 + (seed % 20) as usize;
            for _ in 0..n {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                text.push_str(lines[(seed >> 33) as usize % lines.len()]);
                text.push('\n');
            }
            same_both_ways(&text);
        }
    }

    #[test]
    fn errors_are_the_same_split_or_not() {
        // A number defined twice past the split, an undefined node, a broken line.
        let mut text = String::from(HEAD);
        for k in 0..40 {
            text.push_str(&format!(
                "!{k} = !DILocation(line: {k}, column: 1, scope: !0)\n"
            ));
        }
        let twice = format!("{text}!30 = !DILocation(line: 1, column: 1, scope: !0)\n");
        assert!(same_both_ways(&twice).contains("Metadata id is already used"));
        let undefined = format!("{text}!41 = !DILocation(line: 1, column: 1, scope: !77)\n");
        assert!(same_both_ways(&undefined).contains("77"));
        let unclosed = format!("{text}!42 = !DILocation(line: 1, column: 1, scope: !0\n");
        assert!(same_both_ways(&unclosed).starts_with("error"));
        let trailing = format!("{text}!43 = !DILocation(line: 1, column: 1, scope: !0)x\n");
        assert!(same_both_ways(&trailing).starts_with("error"));
    }
}
