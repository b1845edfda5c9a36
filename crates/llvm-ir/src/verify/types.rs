//! Operand counts and types per opcode (phase 2 of the verifier).
//!
//! First the shape: the number of value and block operands each opcode's convention needs (see
//! [`crate::ir::InstData::values`]) and whether it has a result. Only when the shape is right
//! are types checked (and dominance, by the caller), so no check indexes past an operand list.
//!
//! Types, with LLVM's wording where LLVM has a message: binary operators (both operands and the
//! result one type; integer or floating-point as the opcode needs), comparisons, casts (LLVM's
//! `castIsValid`, shared with the reader), `load` / `store` (a pointer; with typed pointers the
//! pointee is the loaded / stored type), `br` (an `i1` condition), `switch` (an integer
//! condition; case values of its type), `ret` (the function's return type), phis (incoming
//! values of the phi's type), `select`, vector and aggregate operations, `getelementptr`,
//! atomics, `call` / `invoke` / `callbr` against the callee's function type in `aux_ty` (a
//! parameter of type `metadata` takes anything: a `metadata T %v` argument is `%v` itself),
//! and the library-only `copy` (result type = source type).

use super::{Cx, ErrorKind, Reporter};
use crate::ir::types::{TypeData, TypeTable};
use std::cell::Cell;

use crate::ir::sema;
use crate::ir::{Block, Inst, InstData, Opcode, Type, Value};

/// Checks instruction `i` of block `b`; returns whether its operand shape is sound (so its
/// operands can be indexed by the opcode's convention).
pub(crate) fn check_inst(cx: &Cx<'_>, rep: &mut Reporter<'_>, b: Block, i: Inst) -> bool {
    let d = &cx.func.dfg.insts[i];
    if !shape_ok(d) {
        let msg = format!(
            "{} has the wrong number of operands ({} values, {} blocks, {} arguments)",
            d.opcode.keyword(),
            d.values.len,
            d.blocks.len,
            d.extra
        );
        rep.at_inst(ErrorKind::OperandCount, b, i, msg);
        return false;
    }
    let dfg = &cx.func.dfg;
    let mut c = Check {
        cx,
        rep,
        b,
        i,
        vals: dfg.inst_values(i),
        res: dfg.inst_result(i).map(|r| dfg.value_type(r)),
    };
    if !c.result_presence(d) {
        return true;
    }
    c.rules(d);
    true
}

/// Whether the operand counts fit the opcode's convention.
fn shape_ok(d: &InstData) -> bool {
    use Opcode::*;
    let (nv, nb, x) = (d.values.len, d.blocks.len, d.extra);
    let blocks_ok = d.opcode.is_terminator() || d.opcode == Phi || nb == 0;
    let values_ok = match d.opcode {
        Ret => nv <= 1,
        Br => (nv == 0 && nb == 1) || (nv == 1 && nb == 2),
        Switch => nv >= 1 && nb == nv,
        IndirectBr | Resume | CatchRet => nv == 1,
        CleanupRet => nv == 1 && nb <= 1,
        CatchSwitch => nv <= 1 && nb >= 1,
        Invoke => nv > x && nb == 2,
        CallBr => nv > x && nb >= 1,
        Call => nv > x,
        Unreachable | Fence => nv == 0,
        Phi => nv == nb,
        ExtractElement | InsertValue | Store | AtomicRmw | ICmp | FCmp => nv == 2,
        InsertElement | ShuffleVector | CmpXchg | Select => nv == 3,
        Alloca => nv <= 1,
        GetElementPtr => nv >= 1,
        LandingPad | CatchPad | CleanupPad | DbgRecord => true,
        op if is_binary(op) => nv == 2,
        _ => nv == 1, // unary, casts, freeze, va_arg, extractvalue, load, copy
    };
    let terminator_blocks = !matches!(d.opcode, Ret | Resume | Unreachable) || nb == 0;
    blocks_ok && values_ok && terminator_blocks
}

fn is_binary(op: Opcode) -> bool {
    use Opcode::*;
    matches!(
        op,
        Add | FAdd
            | Sub
            | FSub
            | Mul
            | FMul
            | UDiv
            | SDiv
            | FDiv
            | URem
            | SRem
            | FRem
            | Shl
            | LShr
            | AShr
            | And
            | Or
            | Xor
    )
}

fn is_fp_binary(op: Opcode) -> bool {
    use Opcode::*;
    matches!(op, FAdd | FSub | FMul | FDiv | FRem)
}

/// What the rules ask of a type, cached by type id (a type's structure is looked up once per
/// function, not once per operand). Reused across the functions a thread verifies: entries
/// carry the generation of the function that filled them (type ids above the module's mean
/// different types in different functions).
#[derive(Default)]
pub(crate) struct TypeInfo {
    generation: u32,
    /// `generation << 8 | flags`.
    cells: Vec<Cell<u32>>,
}

const KNOWN: u8 = 1;
const INT: u8 = 2;
const FP: u8 = 4;
const PTR: u8 = 8;
/// A vector (`INT` / `FP` / `PTR` then describe its elements).
const VEC: u8 = 16;
const FIRST_CLASS: u8 = 32;

impl TypeInfo {
    /// Readies the cache for `func` (forgetting the previous function's entries).
    pub(crate) fn prepare(&mut self, func: &crate::ir::Function) {
        self.generation += 1;
        if self.cells.len() < func.types.len() {
            self.cells.resize(func.types.len(), Cell::new(0));
        }
    }

    #[inline]
    fn get(&self, types: &TypeTable, t: Type) -> u8 {
        let cell = &self.cells[t.index()];
        let c = cell.get();
        if c >> 8 == self.generation {
            return c as u8;
        }
        let f = Self::compute(types, t);
        cell.set(self.generation << 8 | f as u32);
        f
    }

    fn compute(types: &TypeTable, t: Type) -> u8 {
        let kind = |t: Type| match types.data(t) {
            TypeData::Int(_) => INT,
            TypeData::Float(_) => FP,
            TypeData::Ptr { .. } | TypeData::TypedPtr { .. } => PTR,
            _ => 0,
        };
        let shape = match types.data(t) {
            TypeData::Vector { elem, .. } => VEC | kind(*elem),
            _ => kind(t),
        };
        KNOWN
            | shape
            | if types.is_first_class(t) {
                FIRST_CLASS
            } else {
                0
            }
    }
}

/// One instruction being checked.
struct Check<'c, 'a, 'r> {
    cx: &'c Cx<'a>,
    rep: &'c mut Reporter<'r>,
    b: Block,
    i: Inst,
    /// Its value operands.
    vals: &'a [Value],
    /// Its result's type.
    res: Option<Type>,
}

impl Check<'_, '_, '_> {
    fn types(&self) -> &TypeTable {
        &self.cx.func.types
    }

    fn data(&self, t: Type) -> &TypeData {
        self.cx.func.types.data(t)
    }

    fn flags(&self, t: Type) -> u8 {
        self.cx.tinfo.get(&self.cx.func.types, t)
    }

    /// `iN` (not a vector).
    fn is_int(&self, t: Type) -> bool {
        self.flags(t) & (INT | VEC) == INT
    }

    /// A pointer (not a vector).
    fn is_ptr(&self, t: Type) -> bool {
        self.flags(t) & (PTR | VEC) == PTR
    }

    /// An integer or a vector of integers.
    fn int_like(&self, t: Type) -> bool {
        self.flags(t) & INT != 0
    }

    /// A float or a vector of floats.
    fn fp_like(&self, t: Type) -> bool {
        self.flags(t) & FP != 0
    }

    /// A pointer or a vector of pointers.
    fn ptr_like(&self, t: Type) -> bool {
        self.flags(t) & PTR != 0
    }

    fn first_class(&self, t: Type) -> bool {
        self.flags(t) & FIRST_CLASS != 0
    }

    /// The type of value operand `k` (after pending replacements).
    fn op(&self, k: usize) -> Type {
        let dfg = &self.cx.func.dfg;
        dfg.value_type(dfg.resolve(self.vals[k]))
    }

    fn result(&self) -> Option<Type> {
        self.res
    }

    fn err(&mut self, msg: String) {
        self.rep
            .at_inst(ErrorKind::TypeMismatch, self.b, self.i, msg);
    }

    fn show(&self, t: Type) -> String {
        self.rep.ty(t)
    }

    /// Whether the result is present exactly when the opcode has one; reports otherwise.
    fn result_presence(&mut self, d: &InstData) -> bool {
        use Opcode::*;
        let want = match d.opcode {
            Store | Fence | Br | Switch | IndirectBr | Resume | Unreachable | CleanupRet
            | CatchRet | Ret | DbgRecord => Some(false),
            Call | Invoke | CallBr => match self.data(d.aux_ty) {
                TypeData::Function { ret, .. } => Some(!self.types().is_void(*ret)),
                _ => None,
            },
            _ => Some(true),
        };
        let have = self.result().is_some();
        match want {
            Some(w) if w != have => {
                let msg = if w {
                    format!("{} must have a result", d.opcode.keyword())
                } else {
                    format!("{} cannot have a result", d.opcode.keyword())
                };
                self.rep
                    .at_inst(ErrorKind::OperandCount, self.b, self.i, msg);
                false
            }
            _ => {
                if let Some(t) = self.result() {
                    if self.flags(t) & FIRST_CLASS == 0 {
                        let msg = format!("result of type {} is not first-class", self.show(t));
                        self.err(msg);
                    }
                }
                true
            }
        }
    }

    /// The per-opcode type rules.
    fn rules(&mut self, d: &InstData) {
        use Opcode::*;
        match d.opcode {
            op if is_binary(op) => self.binary(op),
            FNeg => self.fneg(),
            ICmp | FCmp => self.compare(d.opcode == ICmp),
            op if op.is_cast() => self.cast(op),
            Freeze | Copy => self.same_as_result(0, "result type must match the operand type"),
            Load => self.load(),
            Store => self.store(),
            Br => self.br(d),
            Switch => self.switch(d),
            Ret => self.ret(d),
            Phi => self.phi(d),
            Select => self.select(),
            Call | Invoke | CallBr => self.call(d),
            GetElementPtr => self.gep(d),
            ExtractElement | InsertElement | ShuffleVector => self.vector_op(d.opcode),
            ExtractValue | InsertValue => self.aggregate_op(d.opcode),
            Alloca => self.alloca(d),
            CmpXchg | AtomicRmw => self.atomic(d.opcode),
            IndirectBr | VAArg => self.pointer_operand(0, d.opcode),
            _ => {}
        }
    }
}

/// Arithmetic, comparisons, casts.
impl Check<'_, '_, '_> {
    fn binary(&mut self, op: Opcode) {
        let (a, b) = (self.op(0), self.op(1));
        if a != b {
            let msg = format!(
                "Both operands to a binary operator are not of the same type! ({} and {})",
                self.show(a),
                self.show(b)
            );
            return self.err(msg);
        }
        self.same_as_result(0, "binary operator result type must match its operands");
        let kind_ok = if is_fp_binary(op) {
            self.fp_like(a)
        } else {
            self.int_like(a)
        };
        if !kind_ok {
            let msg = if is_fp_binary(op) {
                "Floating-point arithmetic operators only work with floating-point types!"
            } else {
                "Integer arithmetic operators only work with integral types!"
            };
            self.err(format!("{msg} ({})", self.show(a)));
        }
    }

    fn fneg(&mut self) {
        self.same_as_result(0, "Unary operator result type must match operand type!");
        if !self.fp_like(self.op(0)) {
            self.err("FNeg operator only works with float types!".into());
        }
    }

    fn compare(&mut self, int: bool) {
        let (a, b) = (self.op(0), self.op(1));
        let name = if int { "ICmp" } else { "FCmp" };
        if a != b {
            let msg = format!(
                "Both operands to {name} instruction are not of the same type! ({} and {})",
                self.show(a),
                self.show(b)
            );
            return self.err(msg);
        }
        let ok = if int {
            self.int_like(a) || self.ptr_like(a)
        } else {
            self.fp_like(a)
        };
        if !ok {
            return self.err(format!("Invalid operand types for {name} instruction"));
        }
        if let Some(r) = self.result() {
            if !self.is_bool_like(r, a) {
                let msg =
                    format!("{name} result must be i1 or a vector of i1 as long as its operands");
                self.err(msg);
            }
        }
    }

    /// Whether `r` is `i1` for a scalar `like`, or `<N x i1>` for a vector `like` of length N.
    fn is_bool_like(&self, r: Type, like: Type) -> bool {
        let i1 = self.types().common().i1;
        if r == i1 && self.flags(like) & VEC == 0 {
            return true;
        }
        let rl = sema::vector_len(self.types(), r);
        let scalar_ok = match self.data(r) {
            TypeData::Vector { elem, .. } => *elem == i1,
            _ => r == i1,
        };
        scalar_ok && rl == sema::vector_len(self.types(), like)
    }

    fn cast(&mut self, op: Opcode) {
        let (Some(dst), src) = (self.result(), self.op(0)) else {
            return;
        };
        let ok = sema::cast_valid(
            self.types(),
            op.keyword().as_bytes(),
            src,
            dst,
            self.cx.ptr_bits,
        );
        if !ok {
            let msg = format!(
                "Invalid cast: {} from {} to {}",
                op.keyword(),
                self.show(src),
                self.show(dst)
            );
            self.err(msg);
        }
    }

    /// Reports `msg` unless value operand `k` has the result's type.
    fn same_as_result(&mut self, k: usize, msg: &str) {
        let a = self.op(k);
        if let Some(r) = self.result() {
            if r != a {
                let full = format!("{msg} ({} vs {})", self.show(r), self.show(a));
                self.err(full);
            }
        }
    }
}

/// Memory, control flow, phis, select.
impl Check<'_, '_, '_> {
    /// The pointee of a typed pointer `t` (`None` for opaque pointers and non-pointers).
    fn pointee(&self, t: Type) -> Option<Type> {
        match self.data(t) {
            TypeData::TypedPtr { pointee, .. } => Some(*pointee),
            _ => None,
        }
    }

    fn load(&mut self) {
        let p = self.op(0);
        if !self.is_ptr(p) {
            return self.err(format!(
                "Load operand must be a pointer. ({})",
                self.show(p)
            ));
        }
        if let (Some(pt), Some(r)) = (self.pointee(p), self.result()) {
            if pt != r {
                let msg = format!(
                    "Load result type does not match pointer operand type! ({} from {})",
                    self.show(r),
                    self.show(p)
                );
                self.err(msg);
            }
        }
    }

    fn store(&mut self) {
        let (v, p) = (self.op(0), self.op(1));
        if !self.is_ptr(p) {
            return self.err(format!(
                "Store operand must be a pointer. ({})",
                self.show(p)
            ));
        }
        if !self.first_class(v) {
            return self.err(format!(
                "stored value of type {} is not first-class",
                self.show(v)
            ));
        }
        if let Some(pt) = self.pointee(p) {
            if pt != v {
                let msg = format!(
                    "Stored value type does not match pointer operand type! ({} into {})",
                    self.show(v),
                    self.show(p)
                );
                self.err(msg);
            }
        }
    }

    fn br(&mut self, d: &InstData) {
        if d.values.len == 1 && self.op(0) != self.types().common().i1 {
            let msg = format!(
                "Branch condition is not 'i1' type! ({})",
                self.show(self.op(0))
            );
            self.err(msg);
        }
    }

    fn switch(&mut self, d: &InstData) {
        let c = self.op(0);
        if !self.is_int(c) {
            return self.err(format!(
                "Switch condition must be an integer ({})",
                self.show(c)
            ));
        }
        for k in 1..d.values.len as usize {
            if self.op(k) != c {
                let msg = format!(
                    "Switch constants must all be same type as switch value! (case {k}: {})",
                    self.show(self.op(k))
                );
                self.err(msg);
            }
        }
    }

    fn ret(&mut self, d: &InstData) {
        let want = self.cx.func.ret_ty;
        let void = self.types().is_void(want);
        let msg = match (d.values.len, void) {
            (0, false) => "Found return instr that returns void in Function of non-void return type!".to_string(),
            (1, true) => "Found return instr that returns non-void in Function of void return type!".to_string(),
            (1, false) if self.op(0) != want => format!(
                "Function return type does not match operand type of return inst! ({} returned, {} expected)",
                self.show(self.op(0)),
                self.show(want)
            ),
            _ => return,
        };
        self.err(msg);
    }

    fn phi(&mut self, d: &InstData) {
        let Some(r) = self.result() else { return };
        for k in 0..d.values.len as usize {
            if self.op(k) != r {
                let msg = format!(
                    "PHI node operands are not the same type as the result! (entry {k}: {} in a {} phi)",
                    self.show(self.op(k)),
                    self.show(r)
                );
                self.err(msg);
            }
        }
    }

    fn select(&mut self) {
        let (c, a, b) = (self.op(0), self.op(1), self.op(2));
        if a != b {
            let msg = format!(
                "Select values must have same type as select instruction! ({} and {})",
                self.show(a),
                self.show(b)
            );
            return self.err(msg);
        }
        self.same_as_result(
            1,
            "Select values must have same type as select instruction!",
        );
        let cond_ok = c == self.types().common().i1 || self.is_bool_like(c, a);
        if !cond_ok {
            let msg = format!(
                "Invalid operands for select instruction! (condition {})",
                self.show(c)
            );
            self.err(msg);
        }
    }

    fn alloca(&mut self, d: &InstData) {
        if d.values.len == 1 && !self.is_int(self.op(0)) {
            self.err("alloca array size must be an integer".into());
        }
        if let Some(r) = self.result() {
            if !self.is_ptr(r) {
                self.err(format!(
                    "alloca result must be a pointer ({})",
                    self.show(r)
                ));
            }
        }
    }

    fn atomic(&mut self, op: Opcode) {
        if !self.is_ptr(self.op(0)) {
            let msg = format!("{} operand must be a pointer", op.keyword());
            return self.err(msg);
        }
        if op == Opcode::AtomicRmw {
            return self.same_as_result(1, "atomicrmw result type must match its value operand");
        }
        let (c, n) = (self.op(1), self.op(2));
        if c != n {
            let msg = format!(
                "cmpxchg compare value and new value types differ ({} and {})",
                self.show(c),
                self.show(n)
            );
            return self.err(msg);
        }
        let i1 = self.types().common().i1;
        let shape_ok = match self.result().map(|r| self.data(r)) {
            Some(TypeData::Struct { fields, .. }) => fields[..] == [c, i1],
            _ => false,
        };
        if !shape_ok {
            self.err(format!("cmpxchg result must be {{ {}, i1 }}", self.show(c)));
        }
    }

    fn pointer_operand(&mut self, k: usize, op: Opcode) {
        if !self.is_ptr(self.op(k)) {
            let msg = format!(
                "{} operand must have pointer type ({})",
                op.keyword(),
                self.show(self.op(k))
            );
            self.err(msg);
        }
    }
}

/// Calls, `getelementptr`, vectors, aggregates.
impl Check<'_, '_, '_> {
    fn call(&mut self, d: &InstData) {
        let func = self.cx.func;
        let TypeData::Function {
            ret,
            ref params,
            vararg,
        } = *func.types.data(d.aux_ty)
        else {
            let msg = format!(
                "call's function type {} is not a function type",
                self.show(d.aux_ty)
            );
            return self.err(msg);
        };
        let callee = self.op(0);
        if !self.is_ptr(callee) {
            return self.err(format!(
                "Called function must be a pointer! ({})",
                self.show(callee)
            ));
        }
        if self.pointee(callee).is_some_and(|p| p != d.aux_ty) {
            let msg = format!(
                "Called function is not the same type as the call! ({} called as {})",
                self.show(callee),
                self.show(d.aux_ty)
            );
            self.err(msg);
        }
        let n = d.extra as usize;
        if n < params.len() || (n > params.len() && !vararg) {
            let msg = format!(
                "Incorrect number of arguments passed to called function! ({n} given, {} expected)",
                params.len()
            );
            self.err(msg);
        }
        self.call_args(params, n);
        if let Some(r) = self.result() {
            if r != ret {
                let msg = format!(
                    "call result type {} does not match the function's return type {}",
                    self.show(r),
                    self.show(ret)
                );
                self.err(msg);
            }
        }
    }

    fn call_args(&mut self, params: &[Type], n: usize) {
        let md = self.types().metadata();
        for (k, &p) in params.iter().enumerate().take(n) {
            let a = self.op(1 + k);
            if p != md && a != p {
                let msg = format!(
                    "Call parameter type does not match function signature! (argument {k}: {} given, {} expected)",
                    self.show(a),
                    self.show(p)
                );
                self.err(msg);
            }
        }
    }

    fn gep(&mut self, d: &InstData) {
        let base = self.op(0);
        if !self.ptr_like(base) {
            let msg = format!(
                "GEP base pointer is not a vector or a vector of pointers ({})",
                self.show(base)
            );
            return self.err(msg);
        }
        if self.pointee(base).is_some_and(|p| p != d.aux_ty) {
            self.err("explicit pointee type doesn't match operand's pointee type".into());
        }
        for k in 1..d.values.len as usize {
            if !self.int_like(self.op(k)) {
                let msg = format!(
                    "GEP indexes must be integers (index {k}: {})",
                    self.show(self.op(k))
                );
                self.err(msg);
            }
        }
        if let Some(r) = self.result() {
            if !self.ptr_like(r) {
                self.err(format!("GEP result must be a pointer ({})", self.show(r)));
            }
        }
    }

    fn vector_op(&mut self, op: Opcode) {
        let v = self.op(0);
        let TypeData::Vector { elem, .. } = *self.data(v) else {
            let msg = format!(
                "Invalid {} operands! ({} is not a vector)",
                op.keyword(),
                self.show(v)
            );
            return self.err(msg);
        };
        let r = self.result();
        let ok = match op {
            Opcode::ExtractElement => self.is_int(self.op(1)) && r == Some(elem),
            Opcode::InsertElement => self.op(1) == elem && self.is_int(self.op(2)) && r == Some(v),
            _ => {
                self.op(1) == v
                    && r.is_some_and(
                        |r| matches!(self.data(r), TypeData::Vector { elem: e, .. } if *e == elem),
                    )
            }
        };
        if !ok {
            self.err(format!("Invalid {} operands!", op.keyword()));
        }
    }

    fn aggregate_op(&mut self, op: Opcode) {
        let a = self.op(0);
        let body = self.types().resolve_named(a);
        let aggregate = matches!(
            self.data(body),
            TypeData::Struct { .. } | TypeData::Array { .. }
        );
        if !aggregate {
            let msg = format!(
                "{} operand must be an aggregate ({})",
                op.keyword(),
                self.show(a)
            );
            return self.err(msg);
        }
        if op == Opcode::InsertValue {
            self.same_as_result(0, "insertvalue result type must match the aggregate");
        }
    }
}
