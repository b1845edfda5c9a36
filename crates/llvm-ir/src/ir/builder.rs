//! Making new instructions, blocks and functions: templates are assembled here so that passes
//! and library users never write pieces by hand.
//!
//! A [`FuncBuilder`] borrows one function (types come from the function's own table, so
//! functions can be built in parallel). Each `make_*` method returns a new, *unplaced* instruction; place it
//! with the layout (`func.layout.append_inst`, `insert_inst_before`, ...). Invariant kept: every
//! template made here prints as valid LLVM IR for its operands (types spelled by the table).
//!
//! Building `int max(int a, int b)` in SSA form and printing it:
//! ```
//! use llvm_ir::ir::{builder::define_function, FuncBuilder, Module, Opcode, Text};
//! let mut m = Module::new(Vec::new().into());
//! let i32t = m.types_mut().int(32);
//! let i1 = m.types_mut().int(1);
//! let f = define_function(&mut m, "max", i32t, &[(i32t, "a"), (i32t, "b")]);
//! let func = &mut m.functions[f];
//! let (a, b) = (func.params[0], func.params[1]);
//! let mut fb = FuncBuilder::new(func);
//! let (entry, then, done) = (fb.append_block(Text::NONE), fb.append_block(Text::NONE), fb.append_block(Text::NONE));
//! let name = fb.name(b"cmp");
//! let cmp = fb.make_icmp("sgt", a, b, i1, name);
//! let c = fb.func.dfg.inst_result(cmp).unwrap();
//! let br = fb.make_branch(c, then, done);
//! let j = fb.make_jump(done);
//! let phi = fb.make_phi(i32t, &[(a, then), (b, entry)], Text::NONE);
//! let r = fb.func.dfg.inst_result(phi).unwrap();
//! let ret = fb.make_ret(Some(r));
//! for (i, blk) in [(cmp, entry), (br, entry), (j, then), (phi, done), (ret, done)] {
//!     fb.func.layout.append_inst(i, blk);
//! }
//! let text = String::from_utf8(llvm_ir::print::print_module(&m, llvm_ir::Threads::ONE)).unwrap();
//! assert_eq!(text, "define i32 @max(i32 %a, i32 %b) {\n  %cmp = icmp sgt i32 %a, %b\n  \
//!     br i1 %cmp, label %1, label %2\n\n\
//!     1:                                                ; preds = %0\n  br label %2\n\n\
//!     2:                                                ; preds = %1, %0\n  \
//!     %3 = phi i32 [ %a, %1 ], [ %b, %0 ]\n  ret i32 %3\n}\n");
//! ```

use super::dfg::ValueDef;
use super::function::Function;
use super::instructions::{flags, Block, Inst, InstData, Opcode, Piece, PoolRange, Value};
use super::module::{FuncId, Module};
use super::text::Text;
use super::types::Type;

/// Builds instructions into one function.
pub struct FuncBuilder<'a> {
    /// The function being changed.
    pub func: &'a mut Function,
    pieces: Vec<Piece>,
    values: Vec<Value>,
    blocks: Vec<Block>,
}

impl<'a> FuncBuilder<'a> {
    /// A builder for `func`.
    pub fn new(func: &'a mut Function) -> Self {
        Self {
            func,
            pieces: Vec::new(),
            values: Vec::new(),
            blocks: Vec::new(),
        }
    }

    /// Appends literal text to the template being built.
    pub fn text(&mut self, s: &str) -> &mut Self {
        self.bytes(s.as_bytes())
    }

    /// Appends literal bytes to the template being built.
    pub fn bytes(&mut self, s: &[u8]) -> &mut Self {
        if s.is_empty() {
            return self;
        }
        let arena = &mut self.func.dfg.strings;
        if let Some(Piece::Text(t)) = self.pieces.last_mut() {
            if arena.is_last(*t) {
                *t = arena.extend_last(*t, s);
                return self;
            }
        }
        let t = arena.add(s);
        self.pieces.push(Piece::Text(t));
        self
    }

    /// Appends a copy of `t` (a text of this function) to the template being built.
    pub fn copy_text(&mut self, t: Text) -> &mut Self {
        if t.in_source() && !t.is_none() {
            self.pieces.push(Piece::Text(t));
            self
        } else {
            let b = self.func.text(t).to_vec();
            self.bytes(&b)
        }
    }

    /// Appends the spelling of `ty`.
    pub fn ty(&mut self, ty: Type) -> &mut Self {
        let s = self.func.types.display(ty).to_string();
        self.text(&s)
    }

    /// Appends a hole for a new value operand `v`.
    pub fn value(&mut self, v: Value) -> &mut Self {
        self.pieces.push(Piece::Value(self.values.len() as u32));
        self.values.push(v);
        self
    }

    /// Adds `v` as a value operand without a hole (an operand the template does not print).
    pub fn hidden_value(&mut self, v: Value) -> &mut Self {
        self.values.push(v);
        self
    }

    /// Appends a hole for a new block operand `b` (printed as `%label`).
    pub fn block(&mut self, b: Block) -> &mut Self {
        self.pieces.push(Piece::Block(self.blocks.len() as u32));
        self.blocks.push(b);
        self
    }

    /// Ends the template: makes the instruction (unplaced) with the operands given so far.
    pub fn finish(
        &mut self,
        opcode: Opcode,
        flags: u8,
        aux_ty: Type,
        result: Option<(Type, Text)>,
    ) -> Inst {
        let dfg = &mut self.func.dfg;
        let data = InstData {
            opcode,
            flags,
            result: Value::NONE,
            aux_ty,
            values: dfg.push_values(&self.values),
            blocks: dfg.push_blocks(&self.blocks),
            pieces: dfg.push_pieces(&self.pieces),
            attachments: PoolRange::default(),
            extra: 0,
        };
        self.pieces.clear();
        self.values.clear();
        self.blocks.clear();
        let (ty, name) = match result {
            Some((t, n)) => (Some(t), n),
            None => (None, Text::NONE),
        };
        dfg.make_inst(data, ty, name)
    }

    /// A new name text (`x.0`) in the function's arena.
    pub fn name(&mut self, s: &[u8]) -> Text {
        self.func.dfg.strings.add(s)
    }

    /// `phi T [ v0, b0 ], ...` (unplaced), named `name`.
    pub fn make_phi(&mut self, ty: Type, incoming: &[(Value, Block)], name: Text) -> Inst {
        self.phi_template("", ty, incoming);
        self.finish(Opcode::Phi, 0, Type::NONE, Some((ty, name)))
    }

    /// An unplaced phi of type `ty` named `name` with no operands and no template yet: it must
    /// get its incoming list ([`FuncBuilder::set_phi_incoming`], [`PhiWriter`]) before it is
    /// printed. Costs no text: passes that place many phis and fill them later use it.
    pub fn make_phi_shell(&mut self, ty: Type, name: Text) -> Inst {
        self.finish(Opcode::Phi, 0, Type::NONE, Some((ty, name)))
    }

    /// Replaces the incoming list of phi `inst`, writing `flags` (e.g. `"nsz "`) after `phi `.
    pub fn set_phi_incoming_flags(&mut self, inst: Inst, flags: &str, incoming: &[(Value, Block)]) {
        let ty = self.func.dfg.value_type(self.func.dfg.insts[inst].result);
        self.phi_template(flags, ty, incoming);
        let dfg = &mut self.func.dfg;
        dfg.insts[inst] = InstData {
            values: dfg.push_values(&self.values),
            blocks: dfg.push_blocks(&self.blocks),
            pieces: dfg.push_pieces(&self.pieces),
            ..dfg.insts[inst]
        };
        self.pieces.clear();
        self.values.clear();
        self.blocks.clear();
    }

    /// Replaces the incoming list of phi `inst` (rebuilding its template; keeps its attachments).
    pub fn set_phi_incoming(&mut self, inst: Inst, incoming: &[(Value, Block)]) {
        self.set_phi_incoming_flags(inst, "", incoming);
    }

    /// `phi <flags>T ` and the incoming list as one [`Piece::Incoming`] (printed as LLVM does:
    /// `[ v0, b0 ], [ v1, b1 ]`).
    fn phi_template(&mut self, flags: &str, ty: Type, incoming: &[(Value, Block)]) {
        self.text("phi ").text(flags).ty(ty).text(" ");
        self.values.extend(incoming.iter().map(|&(v, _)| v));
        self.blocks.extend(incoming.iter().map(|&(_, b)| b));
        self.pieces.push(Piece::Incoming);
    }

    /// `load T, ptr %p[, align A]` (unplaced).
    pub fn make_load(&mut self, ty: Type, ptr: Value, name: Text, align: Option<u64>) -> Inst {
        let pty = self.func.dfg.value_type(ptr);
        self.text("load ")
            .ty(ty)
            .text(", ")
            .ty(pty)
            .text(" ")
            .value(ptr)
            .align(align);
        self.finish(Opcode::Load, 0, Type::NONE, Some((ty, name)))
    }

    /// `store T %v, ptr %p[, align A]` (unplaced).
    pub fn make_store(&mut self, v: Value, ptr: Value, align: Option<u64>) -> Inst {
        let (vty, pty) = (self.func.dfg.value_type(v), self.func.dfg.value_type(ptr));
        self.text("store ")
            .ty(vty)
            .text(" ")
            .value(v)
            .text(", ")
            .ty(pty)
            .text(" ")
            .value(ptr)
            .align(align);
        self.finish(Opcode::Store, 0, Type::NONE, None)
    }

    /// `alloca T[, align A]` (unplaced), whose result has pointer type `ptr_ty`.
    pub fn make_alloca(&mut self, ty: Type, ptr_ty: Type, name: Text, align: Option<u64>) -> Inst {
        self.text("alloca ").ty(ty).align(align);
        self.finish(Opcode::Alloca, 0, ty, Some((ptr_ty, name)))
    }

    /// Appends `, align A` when `align` is given.
    fn align(&mut self, align: Option<u64>) -> &mut Self {
        if let Some(a) = align {
            self.text(", align ").text(&a.to_string());
        }
        self
    }

    /// `br label %dest` (unplaced).
    pub fn make_jump(&mut self, dest: Block) -> Inst {
        self.text("br label ").block(dest);
        self.finish(Opcode::Br, 0, Type::NONE, None)
    }

    /// `ret void` or `ret T %v` (unplaced).
    pub fn make_ret(&mut self, v: Option<Value>) -> Inst {
        match v {
            None => self.text("ret void"),
            Some(v) => {
                let t = self.func.dfg.value_type(v);
                self.text("ret ").ty(t).text(" ").value(v)
            }
        };
        self.finish(Opcode::Ret, 0, Type::NONE, None)
    }

    /// `br i1 %c, label %t, label %f` (unplaced).
    pub fn make_branch(&mut self, cond: Value, t: Block, f: Block) -> Inst {
        self.text("br i1 ")
            .value(cond)
            .text(", label ")
            .block(t)
            .text(", label ")
            .block(f);
        self.finish(Opcode::Br, 0, Type::NONE, None)
    }

    /// A binary operator `OP T %a, %b` (unplaced), e.g. `make_binary(Opcode::Add, a, b, name)`.
    pub fn make_binary(&mut self, op: Opcode, a: Value, b: Value, name: Text) -> Inst {
        let t = self.func.dfg.value_type(a);
        self.text(op.keyword())
            .text(" ")
            .ty(t)
            .text(" ")
            .value(a)
            .text(", ")
            .value(b);
        self.finish(op, 0, Type::NONE, Some((t, name)))
    }

    /// `icmp PRED T %a, %b` (unplaced); `pred` is LLVM's spelling (`slt`, `eq`, ...).
    pub fn make_icmp(&mut self, pred: &str, a: Value, b: Value, i1: Type, name: Text) -> Inst {
        let t = self.func.dfg.value_type(a);
        self.text("icmp ")
            .text(pred)
            .text(" ")
            .ty(t)
            .text(" ")
            .value(a)
            .text(", ")
            .value(b);
        self.finish(Opcode::ICmp, 0, Type::NONE, Some((i1, name)))
    }

    /// The library-only parallel-copy destination `%d = copy T %s` (unplaced; see [`Opcode::Copy`]).
    pub fn make_copy(&mut self, src: Value, name: Text) -> Inst {
        let t = self.func.dfg.value_type(src);
        self.text("copy ").ty(t).text(" ").value(src);
        self.finish(Opcode::Copy, 0, Type::NONE, Some((t, name)))
    }

    /// A call of the intrinsic (or any function) `callee` of type `fn_ty`, printed from
    /// `parts` (the whole text, `call void @llvm.assume(i1 ` .. `)`): the callee is the hidden
    /// operand 0 and every [`CallPart::Value`] is an argument, in order (unplaced).
    pub fn make_call(
        &mut self,
        callee: &str,
        fn_ty: Type,
        parts: &[CallPart<'_>],
        result: Option<(Type, Text)>,
    ) -> Inst {
        let ptr = self.func.types.ptr();
        let callee = self.func.dfg.constant(ptr, callee);
        self.hidden_value(callee);
        let mut nargs = 0;
        for p in parts {
            match *p {
                CallPart::Text(s) => {
                    self.text(s);
                }
                CallPart::Ty(t) => {
                    self.ty(t);
                }
                CallPart::Value(v) => {
                    self.value(v);
                    nargs += 1;
                }
                CallPart::Copy(t) => {
                    self.copy_text(t);
                }
            }
        }
        let call = self.finish(Opcode::Call, flags::INTRINSIC, fn_ty, result);
        self.func.dfg.insts[call].extra = nargs;
        call
    }

    /// Adds a new unnamed block at the end of the layout.
    pub fn append_block(&mut self, name: Text) -> Block {
        let b = self.func.dfg.make_block(name);
        self.func.layout.append_block(b);
        b
    }
}

/// A part of a call template for [`FuncBuilder::make_call`].
#[derive(Clone, Copy, Debug)]
pub enum CallPart<'s> {
    /// Literal text.
    Text(&'s str),
    /// A type's spelling.
    Ty(Type),
    /// A value operand.
    Value(Value),
    /// A copy of a text of the function (metadata, attachments).
    Copy(Text),
}

/// Adds an empty definition `define RET @name(T %p, ...)` to `m` and returns it; parameter names
/// may be empty for unnamed (numbered) parameters.
pub fn define_function(m: &mut Module, name: &str, ret: Type, params: &[(Type, &str)]) -> FuncId {
    let mut f = Function::new(m.source.clone(), &m.types, ret);
    f.name = f.dfg.strings.add(name.as_bytes());
    for (i, &(ty, pname)) in params.iter().enumerate() {
        let n = if pname.is_empty() {
            Text::NONE
        } else {
            f.dfg.strings.add(pname.as_bytes())
        };
        let v = f.dfg.make_value(ty, ValueDef::Param(i as u32), n);
        f.params.push(v);
    }
    let mut b = FuncBuilder::new(&mut f);
    b.text("define ").ty(ret).text(" @").text(name).text("(");
    for (i, &(ty, _)) in params.iter().enumerate() {
        if i > 0 {
            b.text(", ");
        }
        b.ty(ty).text(" ");
        b.pieces.push(Piece::Value(i as u32));
    }
    b.text(")");
    let pieces = std::mem::take(&mut b.pieces);
    f.header = f.dfg.push_pieces(&pieces);
    m.push_function(f)
}

/// Writes the incoming lists of many phis of one function cheaply: phis of one type share one
/// template, `phi [nsz ]T ` and [`Piece::Incoming`], so a phi costs only its operands.
/// Invariant: the templates are [`FuncBuilder::set_phi_incoming_flags`]'s, so they print alike.
#[derive(Default)]
pub struct PhiWriter {
    /// The template per (type, nsz).
    templates: Vec<(Type, bool, PoolRange)>,
}

impl PhiWriter {
    /// A writer for phis of one function.
    pub fn new() -> Self {
        Self::default()
    }

    fn template(&mut self, func: &mut Function, ty: Type, nsz: bool) -> PoolRange {
        if let Some(&(_, _, t)) = self
            .templates
            .iter()
            .find(|&&(t, n, _)| t == ty && n == nsz)
        {
            return t;
        }
        let mut b = FuncBuilder::new(func);
        b.phi_template(if nsz { "nsz " } else { "" }, ty, &[]);
        let t = b.func.dfg.push_pieces(&b.pieces);
        self.templates.push((ty, nsz, t));
        t
    }

    /// Replaces the incoming list of phi `inst` (`nsz`: write that flag), keeping its
    /// attachments.
    pub fn set_incoming(
        &mut self,
        func: &mut Function,
        inst: Inst,
        nsz: bool,
        incoming: &[(Value, Block)],
    ) {
        let ty = func.dfg.value_type(func.dfg.insts[inst].result);
        let pieces = self.template(func, ty, nsz);
        let dfg = &mut func.dfg;
        let values = dfg.push_values_with(incoming.iter().map(|&(v, _)| v));
        let blocks = dfg.push_blocks_with(incoming.iter().map(|&(_, b)| b));
        dfg.insts[inst] = InstData {
            values,
            blocks,
            pieces,
            ..dfg.insts[inst]
        };
    }
}
