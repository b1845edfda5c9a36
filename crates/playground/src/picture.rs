//! Pictures of a function: its printed text cut into blocks ([`split_blocks`]), each line given
//! a kind for highlighting ([`kind_of`]), and the blocks laid out as boxes with edges
//! ([`picture`], by [`crate::layout`]). The browser draws the SVG from this model.
//!
//! Invariants: node sizes follow from the text alone (a monospace font of [`CHAR_W`] per
//! character, [`LINE_H`] per line), so the layout is deterministic; a line longer than
//! [`MAX_CHARS`] is shortened with `…` (its full text kept in `full`); a function with more
//! than the caller's block limit gets a message instead of a picture.

use serde::Serialize;

use crate::layout::layout;

/// Width of one character of the pictures' monospace font (px).
pub const CHAR_W: f64 = 6.8;
/// Height of one line (px).
pub const LINE_H: f64 = 15.0;
/// Longest line drawn in full (characters).
pub const MAX_CHARS: usize = 54;
/// Padding inside a box (px).
const PAD: f64 = 6.0;

/// One line of a block.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Line {
    /// The text (shortened if long).
    pub text: String,
    /// `inst`, `phi`, `copy`, `term`, `def`, `use`.
    pub kind: &'static str,
    /// The full text, when `text` is shortened.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub full: Option<String>,
}

/// A block's box.
#[derive(Clone, Debug, Serialize)]
pub struct Node {
    /// The block's name.
    pub block: String,
    /// The input block it is (see [`crate::front::Stage::keys`]).
    pub key: String,
    /// Top-left corner and size.
    pub x: f64,
    /// Top.
    pub y: f64,
    /// Width.
    pub w: f64,
    /// Height.
    pub h: f64,
    /// Its lines (without the label).
    pub lines: Vec<Line>,
}

/// An edge's drawing.
#[derive(Clone, Debug, Serialize)]
pub struct Edge {
    /// Source block.
    pub from: String,
    /// Target block.
    pub to: String,
    /// Polyline points.
    pub points: Vec<[f64; 2]>,
    /// A back edge or self-loop (drawn upward).
    pub back: bool,
}

/// A laid-out picture, or a message saying why there is none.
#[derive(Clone, Debug, Serialize)]
pub struct Picture {
    /// Which stage of the function (`input`, `ssa`, `out`, `domtree`).
    pub stage: String,
    /// Total size.
    pub width: f64,
    /// Total height.
    pub height: f64,
    /// Boxes.
    pub nodes: Vec<Node>,
    /// Edges.
    pub edges: Vec<Edge>,
    /// Why there is no picture.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// Cuts a printed function into its blocks' instruction lines, in layout order: a line that
/// starts without indentation and ends with `:` (before a `;` comment) starts a block;
/// instruction lines before the first label belong to the entry block (LLVM leaves an unnamed
/// entry unlabelled). Blank lines, comments, `define`/`fn` headers and `}` are skipped.
pub fn split_blocks(text: &str) -> Vec<Vec<String>> {
    let mut blocks: Vec<Vec<String>> = Vec::new();
    let mut open = false;
    for line in text.lines() {
        let t = line.trim_end();
        let code = t.split(" ;").next().unwrap_or("").trim_end();
        if t.is_empty()
            || t.trim_start().starts_with(';')
            || t.starts_with("define ")
            || t.starts_with("fn(")
            || t == "}"
        {
            continue;
        }
        if !t.starts_with(' ') && !t.starts_with('\t') && code.ends_with(':') {
            blocks.push(Vec::new());
            open = true;
            continue;
        }
        if !open {
            blocks.push(Vec::new());
            open = true;
        }
        if let Some(b) = blocks.last_mut() {
            b.push(t.trim_start().to_string());
        }
    }
    blocks
}

/// The kind of an instruction line, from its text: `phi`, `copy`, `term` or `inst`.
pub fn kind_of(line: &str) -> &'static str {
    let op = line.split_once(" = ").map_or(line, |(_, r)| r);
    let word = op.split_whitespace().next().unwrap_or("");
    match word {
        "phi" => "phi",
        "copy" => "copy",
        "br" | "ret" | "switch" | "jump" | "unreachable" | "indirectbr" | "invoke" | "resume"
        | "callbr" => "term",
        _ => "inst",
    }
}

/// Makes a [`Line`], shortening long text.
pub fn line(text: &str, kind: &'static str) -> Line {
    match text.chars().count() > MAX_CHARS {
        true => Line {
            text: text.chars().take(MAX_CHARS - 1).chain(['…']).collect(),
            kind,
            full: Some(text.to_string()),
        },
        false => Line {
            text: text.to_string(),
            kind,
            full: None,
        },
    }
}

/// Lays out blocks `names` with their `lines` and `edges` (block indices); more than
/// `max_blocks` blocks give a picture with only a message.
pub fn picture(
    stage: &str,
    names: &[String],
    keys: &[String],
    lines: Vec<Vec<Line>>,
    edges: &[(u32, u32)],
    max_blocks: usize,
) -> Picture {
    if names.len() > max_blocks {
        let message = format!(
            "This function has {} blocks: pictures are drawn for up to {max_blocks}, beyond that they become a hairball. The text, frontier and step views still work.",
            names.len()
        );
        return Picture {
            stage: stage.into(),
            width: 0.0,
            height: 0.0,
            nodes: Vec::new(),
            edges: Vec::new(),
            message: Some(message),
        };
    }
    let sizes: Vec<(f64, f64)> = (names.iter().zip(&lines))
        .map(|(n, ls)| {
            let chars = ls
                .iter()
                .map(|l| l.text.chars().count())
                .chain([n.chars().count() + 1])
                .max()
                .unwrap_or(4);
            (
                chars as f64 * CHAR_W + 2.0 * PAD,
                (ls.len() + 1) as f64 * LINE_H + 2.0 * PAD,
            )
        })
        .collect();
    let l = layout(&sizes, edges);
    let nodes = (names.iter().zip(lines).enumerate())
        .map(|(i, (n, ls))| Node {
            block: n.clone(),
            key: keys.get(i).unwrap_or(n).clone(),
            x: l.pos[i].0,
            y: l.pos[i].1,
            w: sizes[i].0,
            h: sizes[i].1,
            lines: ls,
        })
        .collect();
    let edges = (edges.iter().zip(&l.routes))
        .map(|(&(a, b), r)| Edge {
            from: names[a as usize].clone(),
            to: names[b as usize].clone(),
            points: r
                .points
                .iter()
                .map(|&(x, y)| [round(x), round(y)])
                .collect(),
            back: r.back,
        })
        .collect();
    Picture {
        stage: stage.into(),
        width: round(l.width),
        height: round(l.height),
        nodes,
        edges,
        message: None,
    }
}

/// Rounds to a tenth of a pixel (smaller JSON, same picture).
fn round(v: f64) -> f64 {
    (v * 10.0).round() / 10.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_llvm_and_toy_text() {
        let ll = "define i32 @f() {\n  %1 = alloca i32\n  br label %2\n\n2:                                                ; preds = %0\n  ret i32 0\n}\n";
        assert_eq!(
            split_blocks(ll),
            vec![vec!["%1 = alloca i32", "br label %2"], vec!["ret i32 0"]]
        );
        let toy = "b0:\n  t0 = const 1\n  jump b1\nb1(t1) synthetic:\n  ret t1\n";
        assert_eq!(
            split_blocks(toy),
            vec![vec!["t0 = const 1", "jump b1"], vec!["ret t1"]]
        );
    }

    #[test]
    fn kinds_and_long_lines() {
        assert_eq!(kind_of("%x.0 = phi i32 [ 1, %a ], [ 2, %b ]"), "phi");
        assert_eq!(kind_of("t4 = phi [b0: 1]"), "phi");
        assert_eq!(kind_of("%a = copy i32 %b"), "copy");
        assert_eq!(kind_of("br label %x"), "term");
        assert_eq!(kind_of("store i32 0, ptr %x"), "inst");
        let l = line(&"x".repeat(80), "inst");
        assert_eq!(l.text.chars().count(), MAX_CHARS);
        assert!(l.full.is_some());
    }

    #[test]
    fn too_many_blocks_gives_a_message() {
        let names: Vec<String> = (0..60).map(|i| format!("b{i}")).collect();
        let p = picture("input", &names, &names, vec![Vec::new(); 60], &[], 50);
        assert!(p.message.unwrap().contains("60 blocks"));
        let p = picture(
            "input",
            &names[..2],
            &names[..2],
            vec![vec![line("ret", "term")], vec![]],
            &[(0, 1)],
            50,
        );
        assert_eq!((p.nodes.len(), p.edges.len()), (2, 1));
    }
}
