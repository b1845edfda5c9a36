//! Hand-written programs with known outcomes: the classic traps of SSA construction and
//! destruction, in text form. Tests run them through the interpreter (and later through SSA
//! construction and out-of-SSA); each [`Sample`] states the trace and result it must produce.
//!
//! Invariant: every sample parses, verifies (the SSA ones with [`crate::verify_ssa`]) and
//! produces exactly its stated outcome with [`Sample::FUEL`] fuel.

/// A literal program and its expected behaviour.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    /// A short identifier.
    pub name: &'static str,
    /// The program in toy-ir's text form.
    pub text: &'static str,
    /// True if the program is in strict SSA form (no variables needing promotion).
    pub ssa: bool,
    /// Arguments for the run.
    pub args: &'static [i64],
    /// Expected printed values.
    pub trace: &'static [i64],
    /// Expected returned value.
    pub result: i64,
}

impl Sample {
    /// Fuel enough for every sample to finish.
    pub const FUEL: u64 = 1_000;
}

/// The swap problem (Briggs et al. 1998): the loop header's phis exchange two values on the
/// back edge, `a, b = b, a`, and the back edge `b1 → b1` is critical. Sequential copies
/// `a = b; b = a` lose a value; a correct out-of-SSA needs a temporary.
pub const SWAP: Sample = Sample {
    name: "swap",
    text: "\
b0:
  jump b1
b1:
  t1 = phi [b0: 1], [b1: t2]
  t2 = phi [b0: 2], [b1: t1]
  t3 = phi [b0: 0], [b1: t4]
  t4 = add t3, 1
  print t1
  t5 = lt t4, 3
  br t5, b1, b2
b2:
  print t1
  print t2
  ret t3
",
    ssa: true,
    args: &[],
    trace: &[1, 2, 1, 1, 2],
    result: 2,
};

/// The swap problem with block parameters instead of phis.
pub const SWAP_PARAMS: Sample = Sample {
    name: "swap_params",
    text: "\
b0:
  jump b1(1, 2, 0)
b1(t1, t2, t3):
  t4 = add t3, 1
  print t1
  t5 = lt t4, 3
  br t5, b1(t2, t1, t4), b2
b2:
  print t1
  print t2
  ret t3
",
    ssa: true,
    args: &[],
    trace: &[1, 2, 1, 1, 2],
    result: 2,
};

/// The lost-copy problem (Briggs et al. 1998; Boissinot et al. 2009): after copy folding, the
/// phi `t1` is live after the loop while its back-edge value `t2` is defined in the loop. A
/// copy `t1 = t2` placed at the end of `b1` (without splitting the critical back edge) would
/// make the exit print 4 instead of 3.
pub const LOST_COPY: Sample = Sample {
    name: "lost_copy",
    text: "\
b0:
  jump b1
b1:
  t1 = phi [b0: 1], [b1: t2]
  t2 = add t1, 1
  t3 = lt t2, 4
  br t3, b1, b2
b2:
  print t1
  ret t1
",
    ssa: true,
    args: &[],
    trace: &[3],
    result: 3,
};

/// An irreducible loop: `{b1, b2}` is entered at `b1` or at `b2`, depending on `v1`, which is
/// read before it is ever written (so 0: the loop is entered at `b2`).
pub const IRREDUCIBLE: Sample = Sample {
    name: "irreducible",
    text: "\
b0:
  t0 = read v1
  br t0, b1, b2
b1:
  t1 = read v0
  t2 = add t1, 10
  write v0, t2
  print t2
  jump b2
b2:
  t3 = read v0
  t4 = add t3, 1
  write v0, t4
  print t4
  t5 = lt t4, 30
  br t5, b1, b3
b3:
  t6 = read v0
  ret t6
",
    ssa: false,
    args: &[],
    trace: &[1, 11, 12, 22, 23, 33, 34],
    result: 34,
};

/// Variables read before any write on some path: `v0` at once, `v1` on the path through `b2`
/// (the one taken). Both read 0.
pub const READ_BEFORE_WRITE: Sample = Sample {
    name: "read_before_write",
    text: "\
b0:
  t0 = read v0
  print t0
  br t0, b1, b2
b1:
  write v1, 5
  jump b3
b2:
  jump b3
b3:
  t1 = read v1
  print t1
  write v0, 7
  t2 = read v0
  ret t2
",
    ssa: false,
    args: &[],
    trace: &[0, 0],
    result: 7,
};

/// Duplicate edges: a switch with two cases to one block (a phi with an argument per edge,
/// equal), and a branch whose two edges pass different block arguments to one block.
pub const DUPLICATE_EDGES: Sample = Sample {
    name: "duplicate_edges",
    text: "\
fn(t0)
b0:
  switch t0, [1: b1, 2: b1], default b2
b1:
  t1 = phi [b0: t0], [b0: t0]
  print t1
  br t1, b2, b2
b2:
  t2 = lt t0, 2
  br t2, b3(10), b3(20)
b3(t3):
  print t3
  ret t3
",
    ssa: true,
    args: &[2],
    trace: &[2, 20],
    result: 20,
};

/// A self loop counting with a variable, and a dead block jumping into live code.
pub const SELF_LOOP: Sample = Sample {
    name: "self_loop",
    text: "\
b0:
  jump b1
b1:
  t0 = read v0
  t1 = add t0, 2
  write v0, t1
  t2 = lt t1, 7
  br t2, b1, b3
b2:
  write v0, 100
  jump b1
b3:
  t3 = read v0
  print t3
  ret t3
",
    ssa: false,
    args: &[],
    trace: &[8],
    result: 8,
};

/// Every sample.
pub const ALL: &[Sample] = &[
    SWAP,
    SWAP_PARAMS,
    LOST_COPY,
    IRREDUCIBLE,
    READ_BEFORE_WRITE,
    DUPLICATE_EDGES,
    SELF_LOOP,
];
