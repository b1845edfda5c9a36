//! Instructions: opcode, operands, and the template that prints them.
//!
//! An instruction is stored as [`InstData`]: its [`Opcode`], its operand lists (values and
//! blocks, in pools of the [`crate::ir::DataFlowGraph`]) and a *template*: a list of [`Piece`]s,
//! literal text interleaved with holes naming operands. The template is how an instruction
//! prints: `%5 = add nsw i32 %3, 1` is stored as opcode `Add`, value operands `[%3, 1]` and the
//! template `"add nsw i32 " v0 ", " v1`. So every instruction LLVM has, with every flag,
//! attribute and operand bundle, prints back exactly as it was read, while passes see and edit
//! structured operands. The parser fills templates from the input; the builder makes them for new
//! instructions.
//!
//! Invariants:
//! - every hole `Value(i)` / `Block(i)` indexes the instruction's own value / block operands;
//! - a terminator's block operands are exactly its successors, in order, with repeats;
//! - a phi's value operand `i` is the incoming value for block operand `i`;
//! - metadata attachments (`, !dbg !7`) are not in the template but in [`InstData::attachments`],
//!   printed after it, so passes can read and copy them.

use super::text::Text;
use super::types::Type;
use ssa::entity_impl;

/// An instruction id (dense per function).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Inst(pub u32);
entity_impl!(Inst, "inst");

/// A value id: an instruction result, a parameter or a constant (dense per function).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Value(pub u32);
entity_impl!(Value, "v");

/// A basic block id (dense per function): the `ssa` crate's block index, so the analyses
/// index their per-block arrays by it directly.
pub use ssa::Block;

/// One piece of an instruction's printed form.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Piece {
    /// Literal text.
    Text(Text),
    /// The instruction's value operand with this index, printed as a reference (`%x`, `5`, ...).
    Value(u32),
    /// The instruction's block operand with this index, printed as `%label`.
    Block(u32),
    /// A metadata node made by a pass: index into [`crate::ir::Function::new_md`]; printed as
    /// a fresh `!N` numbered when the module is written.
    NewMd(u32),
    /// A phi's incoming list made from all its operands: `[ v0, b0 ], [ v1, b1 ], ...`, one
    /// pair per block operand (value operand `k` with block operand `k`). Lets the phis a
    /// pass writes share one two-piece template (`phi T ` and this) whatever their length.
    Incoming,
}

/// A reference to a metadata node: text of the input (`!12`, or an inline
/// `!DILocation(...)`), or a node made by a pass ([`crate::ir::Function::new_md`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum MdRef {
    /// Input text.
    Text(Text),
    /// New node number `k` of the function.
    New(u32),
}

impl MdRef {
    /// No node.
    pub const NONE: MdRef = MdRef::Text(Text::NONE);

    /// Whether this is [`MdRef::NONE`].
    pub fn is_none(self) -> bool {
        self == MdRef::NONE
    }
}

/// A `[start, start+len)` range into one of the function's pools.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct PoolRange {
    /// First index.
    pub start: u32,
    /// Number of elements.
    pub len: u32,
}

impl PoolRange {
    /// The range as `usize` bounds.
    #[inline]
    pub fn span(self) -> std::ops::Range<usize> {
        self.start as usize..(self.start + self.len) as usize
    }
}

/// Every LLVM instruction, plus the debug record pseudo-instruction.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[allow(missing_docs)]
pub enum Opcode {
    // Terminators.
    Ret,
    Br,
    Switch,
    IndirectBr,
    Invoke,
    Resume,
    Unreachable,
    CleanupRet,
    CatchRet,
    CatchSwitch,
    CallBr,
    // Unary and binary.
    FNeg,
    Add,
    FAdd,
    Sub,
    FSub,
    Mul,
    FMul,
    UDiv,
    SDiv,
    FDiv,
    URem,
    SRem,
    FRem,
    Shl,
    LShr,
    AShr,
    And,
    Or,
    Xor,
    // Vector and aggregate.
    ExtractElement,
    InsertElement,
    ShuffleVector,
    ExtractValue,
    InsertValue,
    // Memory.
    Alloca,
    Load,
    Store,
    Fence,
    CmpXchg,
    AtomicRmw,
    GetElementPtr,
    // Casts.
    Trunc,
    ZExt,
    SExt,
    FPTrunc,
    FPExt,
    FPToUI,
    FPToSI,
    UIToFP,
    SIToFP,
    PtrToInt,
    IntToPtr,
    BitCast,
    AddrSpaceCast,
    // Other.
    ICmp,
    FCmp,
    Phi,
    Select,
    Freeze,
    Call,
    VAArg,
    LandingPad,
    CatchPad,
    CleanupPad,
    /// A debug record line (`#dbg_value(...)`, `#dbg_declare(...)`, `#dbg_assign(...)`,
    /// `#dbg_label(...)`): not an LLVM instruction, it attaches to the next one.
    DbgRecord,
    /// A parallel-copy destination, made by phi elimination in the library (not LLVM IR):
    /// `%d = copy T %s`. Never printed in `.ll` output meant for LLVM.
    Copy,
}

impl Opcode {
    /// LLVM's keyword for the opcode (`"getelementptr"`, ...).
    pub fn keyword(self) -> &'static str {
        use Opcode::*;
        match self {
            Ret => "ret",
            Br => "br",
            Switch => "switch",
            IndirectBr => "indirectbr",
            Invoke => "invoke",
            Resume => "resume",
            Unreachable => "unreachable",
            CleanupRet => "cleanupret",
            CatchRet => "catchret",
            CatchSwitch => "catchswitch",
            CallBr => "callbr",
            FNeg => "fneg",
            Add => "add",
            FAdd => "fadd",
            Sub => "sub",
            FSub => "fsub",
            Mul => "mul",
            FMul => "fmul",
            UDiv => "udiv",
            SDiv => "sdiv",
            FDiv => "fdiv",
            URem => "urem",
            SRem => "srem",
            FRem => "frem",
            Shl => "shl",
            LShr => "lshr",
            AShr => "ashr",
            And => "and",
            Or => "or",
            Xor => "xor",
            ExtractElement => "extractelement",
            InsertElement => "insertelement",
            ShuffleVector => "shufflevector",
            ExtractValue => "extractvalue",
            InsertValue => "insertvalue",
            Alloca => "alloca",
            Load => "load",
            Store => "store",
            Fence => "fence",
            CmpXchg => "cmpxchg",
            AtomicRmw => "atomicrmw",
            GetElementPtr => "getelementptr",
            Trunc => "trunc",
            ZExt => "zext",
            SExt => "sext",
            FPTrunc => "fptrunc",
            FPExt => "fpext",
            FPToUI => "fptoui",
            FPToSI => "fptosi",
            UIToFP => "uitofp",
            SIToFP => "sitofp",
            PtrToInt => "ptrtoint",
            IntToPtr => "inttoptr",
            BitCast => "bitcast",
            AddrSpaceCast => "addrspacecast",
            ICmp => "icmp",
            FCmp => "fcmp",
            Phi => "phi",
            Select => "select",
            Freeze => "freeze",
            Call => "call",
            VAArg => "va_arg",
            LandingPad => "landingpad",
            CatchPad => "catchpad",
            CleanupPad => "cleanuppad",
            DbgRecord => "#dbg",
            Copy => "copy",
        }
    }

    /// Whether the opcode ends a block.
    pub fn is_terminator(self) -> bool {
        use Opcode::*;
        matches!(
            self,
            Ret | Br
                | Switch
                | IndirectBr
                | Invoke
                | Resume
                | Unreachable
                | CleanupRet
                | CatchRet
                | CatchSwitch
                | CallBr
        )
    }

    /// Whether the opcode is a cast (`trunc` ... `addrspacecast`).
    pub fn is_cast(self) -> bool {
        use Opcode::*;
        matches!(
            self,
            Trunc
                | ZExt
                | SExt
                | FPTrunc
                | FPExt
                | FPToUI
                | FPToSI
                | UIToFP
                | SIToFP
                | PtrToInt
                | IntToPtr
                | BitCast
                | AddrSpaceCast
        )
    }

    /// Whether the opcode is an EH pad (must be first non-phi of its block).
    pub fn is_eh_pad(self) -> bool {
        matches!(
            self,
            Opcode::LandingPad | Opcode::CatchPad | Opcode::CleanupPad | Opcode::CatchSwitch
        )
    }
}

/// Bits of [`InstData::flags`].
pub mod flags {
    /// `load volatile`, `store volatile`, volatile `cmpxchg`/`atomicrmw`.
    pub const VOLATILE: u8 = 1;
    /// Atomic load/store (has an ordering).
    pub const ATOMIC: u8 = 2;
    /// `alloca inalloca`.
    pub const INALLOCA: u8 = 4;
    /// `alloca swifterror`.
    pub const SWIFTERROR: u8 = 8;
    /// On calls (shares its bit with `INALLOCA`): the return value has `noundef`.
    pub const RET_NOUNDEF: u8 = 4;
    /// On instructions other than `alloca` (shares its bit with `SWIFTERROR`): a
    /// poison-generating flag (`nsw`, `nuw`, `exact`, `disjoint`, `nneg`, `inbounds`, `nusw`,
    /// `samesign`, `nnan`, `ninf`, `fast`) or poison-generating metadata (`!range`,
    /// `!nonnull`, `!align`) is present.
    pub const MAY_POISON: u8 = 8;
    /// `catchswitch ... unwind label %b` / `cleanupret ... unwind label %b`: the last block
    /// operand is an unwind destination (not `unwind to caller`).
    pub const UNWIND_DEST: u8 = 128;
    /// An instruction that LLVM treats as a use of everything in a bundle/metadata argument
    /// without reading memory through it, such as `llvm.assume` operand bundles.
    pub const HAS_BUNDLES: u8 = 64;
    /// A call or record that is an `llvm.dbg.*` intrinsic / `#dbg_*` record: see
    /// [`crate::ir::DbgVar`] in [`crate::ir::DataFlowGraph::dbg`].
    pub const DEBUG: u8 = 16;
    /// A call/invoke whose callee is an intrinsic (`@llvm.*`).
    pub const INTRINSIC: u8 = 32;
}

/// The data of one instruction.
#[derive(Clone, Copy, Debug)]
pub struct InstData {
    /// What it does.
    pub opcode: Opcode,
    /// [`flags`] bits.
    pub flags: u8,
    /// The result value, or `Value::NONE` for instructions without one (store, br, void call).
    pub result: Value,
    /// Opcode-specific type: the allocated type of `alloca`, the source element type of
    /// `getelementptr`, the function type of `call`/`invoke`/`callbr`; `Type::NONE` otherwise.
    pub aux_ty: Type,
    /// Value operands, in the pool `DataFlowGraph::value_pool`. Fixed positions, by opcode
    /// (constants, globals, `undef`/`poison` are values too, one per occurrence):
    /// - `alloca`: `[count]` or `[]`; `load`: `[ptr]`; `store`: `[value, ptr]`;
    /// - unary and binary operators, `icmp`, `fcmp`: `[a]` / `[a, b]`; casts, `freeze`, `va_arg`: `[x]`;
    /// - `getelementptr`: `[base, indices...]`; `select`: `[cond, a, b]`;
    /// - `extractelement`: `[vec, idx]`; `insertelement`: `[vec, elt, idx]`;
    ///   `shufflevector`: `[a, b, mask]`; `extractvalue`: `[agg]`; `insertvalue`: `[agg, elt]`;
    /// - `cmpxchg`: `[ptr, cmp, new]`; `atomicrmw`: `[ptr, val]`; `fence`: `[]`;
    /// - `phi`: incoming values, one per block operand;
    /// - `call`, `invoke`, `callbr`: `[callee, args...]` (`extra` args), then operand-bundle
    ///   operands (see [`crate::ir::DataFlowGraph::bundles`]), then any values that only appear
    ///   inside metadata arguments (`!DIArgList(...)`). A `metadata T %v` argument is the value
    ///   `%v` itself; a pure metadata argument (`metadata !12`) is a constant of type `metadata`;
    /// - `br`: `[]` or `[cond]`; `switch`: `[cond, case values...]`; `indirectbr`: `[addr]`;
    ///   `ret`: `[]` or `[v]`; `resume`: `[v]`; `unreachable`: `[]`;
    /// - `landingpad`: clause constants; `catchswitch`: `[parent]`; `catchpad`/`cleanuppad`:
    ///   `[parent, args...]`; `catchret`/`cleanupret`: `[pad]`;
    /// - debug records: the location operands (see [`crate::ir::DbgVar`]); `copy`: `[src]`.
    pub values: PoolRange,
    /// Block operands, in `DataFlowGraph::block_pool`: successors of terminators in the order
    /// written (`br`: `[dest]` / `[then, else]`; `switch`: `[default, case dests...]`;
    /// `invoke`: `[normal, unwind]`; `callbr`: `[default, indirect...]`; `catchswitch`:
    /// `[handlers..., unwind?]`; `catchret`: `[dest]`; `cleanupret`: `[unwind?]`), incoming
    /// blocks of phis.
    pub blocks: PoolRange,
    /// Opcode-specific count: the number of call arguments of `call`/`invoke`/`callbr`
    /// (excluding the callee); 0 otherwise.
    pub extra: u32,
    /// The printing template, in `DataFlowGraph::pieces`.
    pub pieces: PoolRange,
    /// Metadata attachments `(kind, node)`, in `DataFlowGraph::attachments`, printed as `, !kind node`.
    pub attachments: PoolRange,
}

/// Where an `llvm.dbg.*` call or `#dbg_*` record points: the parts mem2reg reads and copies.
#[derive(Clone, Copy, Debug)]
pub struct DbgVar {
    /// Which intrinsic or record.
    pub kind: DbgKind,
    /// Whether it is the record form (`#dbg_value(...)`) rather than a call.
    pub record: bool,
    /// The variable metadata (`!12`, or inline `!DILocalVariable(...)`).
    pub var: Text,
    /// The expression metadata (`!DIExpression(...)`).
    pub expr: Text,
    /// The location (`!20`): the record's last argument or the call's `!dbg` attachment.
    pub loc: MdRef,
    /// Index, among the instruction's value operands, of the variable's location (the `%x` of
    /// `metadata ptr %x` / `#dbg_declare(ptr %x, ...)`); `u32::MAX` when the location is not a
    /// single value (`!{}`, `!DIArgList(...)`) or for `Label`.
    pub loc_operand: u32,
}

/// Kinds of debug-variable intrinsics and records.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum DbgKind {
    /// `llvm.dbg.declare` / `#dbg_declare`
    Declare,
    /// `llvm.dbg.value` / `#dbg_value`
    Value,
    /// `llvm.dbg.assign` / `#dbg_assign`
    Assign,
    /// `llvm.dbg.addr` (LLVM <= 15)
    Addr,
    /// `llvm.dbg.label` / `#dbg_label`
    Label,
}
