//! Numbering attribute groups for output as LLVM's slot tracker numbers them, and the
//! `; Function Attrs:` comment LLVM prints above each function.
//!
//! LLVM numbers an attribute group when it first meets it: the groups of global variables,
//! then the function attributes of every function (declarations too) in module order, then,
//! function by function as it prints them, the groups of call sites. Groups nothing uses any
//! more (a pass removed the last call that had it) are not written. Invariant: numbers are
//! dense from 0 in first-use order, and a group's text is written as read.

use crate::util::fxhash::FxHashMap;

/// The module's attribute groups and their output numbers.
#[derive(Default)]
pub struct AttrSlots<'a> {
    /// Old id → the group's body, `{ ... }`.
    groups: FxHashMap<u32, &'a [u8]>,
    /// Old id → its `; Function Attrs:` line (empty when it has none), made once per group:
    /// every function of a module writes one, and splitting the body costs thousands of
    /// instructions.
    comments: FxHashMap<u32, Box<[u8]>>,
    new_of: FxHashMap<u32, u32>,
    /// Old ids by output number.
    order: Vec<u32>,
}

/// The id and body of an `attributes #N = { ... }` entity.
pub fn parse_group(text: &[u8]) -> Option<(u32, &[u8])> {
    let rest = text.strip_prefix(b"attributes")?;
    let rest = crate::ir::metadata::trim(rest).strip_prefix(b"#")?;
    let digits = rest.iter().take_while(|c| c.is_ascii_digit()).count();
    let id = crate::lexical::parse_u32(&rest[..digits])?;
    let eq = rest.iter().position(|&c| c == b'=')?;
    Some((id, crate::ir::metadata::trim(&rest[eq + 1..])))
}

/// The attributes of a group body `{ a b(c d) "k"="v" }`, as written, one per item.
fn attributes(body: &[u8]) -> Vec<&[u8]> {
    let inner = body
        .strip_prefix(b"{")
        .and_then(|b| b.strip_suffix(b"}"))
        .unwrap_or(body);
    let mut out = Vec::new();
    let (mut depth, mut start, mut in_str) = (0i32, None::<usize>, false);
    for (i, &c) in inner.iter().enumerate() {
        match c {
            b'"' => in_str = !in_str,
            b'(' if !in_str => depth += 1,
            b')' if !in_str => depth -= 1,
            _ if c.is_ascii_whitespace() && !in_str && depth == 0 => {
                if let Some(s) = start.take() {
                    out.push(&inner[s..i]);
                }
                continue;
            }
            _ => {}
        }
        start.get_or_insert(i);
    }
    if let Some(s) = start {
        out.push(&inner[s..]);
    }
    out
}

/// The `; Function Attrs: ...` line (newline included) of group body `body`: its attributes
/// other than string ones (`"key"="value"`); empty when it has none.
fn comment(body: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    for a in attributes(body) {
        if a.starts_with(b"\"") {
            continue;
        }
        out.extend_from_slice(if out.is_empty() {
            b"; Function Attrs: "
        } else {
            b" "
        });
        out.extend_from_slice(a);
    }
    if !out.is_empty() {
        out.push(b'\n');
    }
    out
}

impl<'a> AttrSlots<'a> {
    /// Records the group an `attributes #N = { ... }` entity defines (other text is ignored).
    pub fn add_group(&mut self, text: &'a [u8]) {
        if let Some((id, body)) = parse_group(text) {
            if let std::collections::hash_map::Entry::Vacant(e) = self.groups.entry(id) {
                e.insert(body);
                self.comments.insert(id, comment(body).into());
            }
        }
    }

    /// The output number of group `#old`, numbering it on its first use.
    pub fn number(&mut self, old: u32) -> u32 {
        let next = self.order.len() as u32;
        let n = *self.new_of.entry(old).or_insert(next);
        if n == next {
            self.order.push(old);
        }
        n
    }

    /// Whether any group is numbered.
    pub fn any_used(&self) -> bool {
        !self.order.is_empty()
    }

    /// Writes `attributes #N = { ... }` for every numbered group, in number order.
    pub fn write_groups(&self, out: &mut Vec<u8>) {
        for (n, old) in self.order.iter().enumerate() {
            out.extend_from_slice(b"attributes #");
            crate::print::write_u32(out, n as u32);
            out.extend_from_slice(b" = ");
            out.extend_from_slice(self.groups.get(old).copied().unwrap_or(b"{ }"));
            out.push(b'\n');
        }
    }

    /// Appends `; Function Attrs: ...` and a newline for a function with group `#old`: its
    /// attributes other than string ones (`"key"="value"`), as LLVM prints above a function;
    /// nothing when it has none.
    pub fn write_comment(&self, old: u32, out: &mut Vec<u8>) {
        if let Some(c) = self.comments.get(&old) {
            out.extend_from_slice(c);
        }
    }

    /// The old id of a group whose attributes are exactly `attrs` (space-separated), if the
    /// module has one (the smallest such id).
    pub fn find(&self, attrs: &str) -> Option<u32> {
        let want = attributes(attrs.as_bytes());
        self.groups
            .iter()
            .filter(|(_, body)| attributes(body) == want)
            .map(|(&id, _)| id)
            .min()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_number_by_first_use_and_comment_without_strings() {
        let a = b"attributes #4 = { nounwind memory(argmem: readwrite) \"a b\"=\"c d\" uwtable }";
        let b = b"attributes #0 = { \"x\" }";
        let mut s = AttrSlots::default();
        s.add_group(a);
        s.add_group(b);
        assert_eq!((s.number(4), s.number(0), s.number(4)), (0, 1, 0));
        let mut out = Vec::new();
        s.write_comment(4, &mut out);
        assert_eq!(
            out,
            b"; Function Attrs: nounwind memory(argmem: readwrite) uwtable\n"
        );
        out.clear();
        s.write_comment(0, &mut out);
        assert!(out.is_empty());
        s.write_groups(&mut out);
        assert!(out.starts_with(b"attributes #0 = { nounwind memory"));
        assert!(out.ends_with(b"attributes #1 = { \"x\" }\n"));
        assert_eq!(
            s.find("nounwind memory(argmem: readwrite) \"a b\"=\"c d\" uwtable"),
            Some(4)
        );
    }
}
