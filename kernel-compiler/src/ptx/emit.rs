//! The emitter's state and the per-instruction dispatch; the instruction families live in
//! `ops`, `convert`, `memory`, `control`, `panic` and `intrinsic_template`.

use super::regs::{push_decimal, Reg, Regs};
use super::types::{bits_suffix, push_immediate, RegClass};
use crate::error::CompileError;
use kernel_ir::ir::{ArrayId, Block, Const, Inst, Kernel, LoopId, Operand, SourceLoc, Ty, Var};
use std::collections::BTreeSet;
use std::fmt::{self, Write};

pub type Res<T = ()> = Result<T, CompileError>;

/// A label `$Lfc_<kind>_<n>`, written out where it is used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Label {
    kind: &'static str,
    n: u32,
}

impl Label {
    pub fn write_to(self, out: &mut String) {
        out.push_str("$Lfc_");
        out.push_str(self.kind);
        out.push('_');
        push_decimal(out, u64::from(self.n));
    }
}

impl fmt::Display for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "$Lfc_{}_{}", self.kind, self.n)
    }
}

/// Labels of an enclosing loop: where `continue` and `break` jump.
pub struct LoopLabels {
    pub id: LoopId,
    pub cont: Label,
    pub brk: Label,
}

/// A cold bounds-failure block, emitted after the kernel body.
pub struct ColdBounds {
    pub label: Label,
    pub site: u32,
    pub idx: Reg,
    pub len: Reg,
    pub ty: Ty,
}

/// A cold panic block of an overflow check (`if overflows { panic }`), emitted after the body.
pub struct ColdPanic {
    pub label: Label,
    pub site: u32,
    pub a: Operand,
    pub b: Operand,
}

/// One instruction being written straight into the body (see [`Emitter::ins`]): the pieces of
/// the hot instruction forms are appended without formatting temporaries.
pub struct Ln<'a>(&'a mut String);

impl Ln<'_> {
    /// Text.
    pub fn s(self, t: &str) -> Self {
        self.0.push_str(t);
        self
    }

    /// A register.
    pub fn r(self, r: Reg) -> Self {
        r.write_to(self.0);
        self
    }

    /// `, ` and a register.
    pub fn cr(self, r: Reg) -> Self {
        self.0.push(',');
        self.0.push(' ');
        r.write_to(self.0);
        self
    }

    /// A label.
    pub fn l(self, l: Label) -> Self {
        l.write_to(self.0);
        self
    }

    /// A decimal number.
    pub fn n(self, n: u64) -> Self {
        push_decimal(self.0, n);
        self
    }

    /// The immediate of a constant (see `types::push_immediate`).
    pub fn imm(self, c: Const) -> Self {
        push_immediate(self.0, c);
        self
    }

    /// Ends the instruction (`;` and the newline).
    pub fn end(self) {
        self.0.push(';');
        self.0.push('\n');
    }
}

pub struct Emitter<'k> {
    pub k: &'k Kernel,
    pub sm: u32,
    pub regs: Regs,
    pub body: String,
    next_label: u32,
    pub loops: Vec<LoopLabels>,
    pub cold: Vec<ColdBounds>,
    pub cold_panics: Vec<ColdPanic>,
    /// Registers carrying (site, a, b) into the shared panic block, once any panic is emitted.
    pub panic_regs: Option<(Reg, Reg, Reg)>,
    pub used_arrays: BTreeSet<ArrayId>,
    pub uses_dyn_shared: bool,
    /// Whether an emitted intrinsic is a device-heap call, or some code was left out unemitted
    /// (a branch on a constant): only then can the module need `intrinsics::extern_declarations`,
    /// whose walk of the whole kernel the common case skips.
    pub maybe_heap_calls: bool,
    /// While set, every emitted instruction is guarded by this predicate register (the body of
    /// an `if` emitted as predicated code; see `control`).
    pub pred: Option<Reg>,
    /// Distinct C format strings of the entry's prints, in order (see `print`).
    pub printf_formats: Vec<String>,
    /// Size of the largest print's argument buffer.
    pub printf_buffer_bytes: u32,
    /// The source position of the instruction being emitted (the last `Loc`), and the last one
    /// in the kernel's own file (`kernel_file`, where its body starts): errors such as an
    /// intrinsic the target architecture lacks name the user's line, also when the intrinsic
    /// sits in an inlined library function.
    loc: Option<SourceLoc>,
    user_loc: Option<SourceLoc>,
    kernel_file: Option<&'static str>,
    /// Per variable, whether the kernel writes it exactly once (see [`Emitter::widened`]).
    pub once: Vec<bool>,
    /// `a = x as u64` (or `i64`) for a 32-bit `x`, both written once, already emitted: a later
    /// `a << c` or `a * c` is `mul.wide` of `x` (see `ops`). Written once, `x` still holds the
    /// value `a` was made from wherever `a` is read after its definition.
    pub widened: crate::passes::fx::FxHashMap<Var, (Var, bool)>,
}

impl<'k> Emitter<'k> {
    pub fn new(k: &'k Kernel, sm: u32) -> Self {
        Emitter {
            k,
            sm,
            regs: Regs::new(&k.vars),
            // About 50 bytes of PTX per IR variable (SGEMM: 80 KB for 1650); growing the buffer
            // from empty reallocated and copied it over and over.
            body: String::with_capacity(64 * k.vars.len() + 4096),
            next_label: 0,
            loops: Vec::new(),
            cold: Vec::new(),
            cold_panics: Vec::new(),
            panic_regs: None,
            used_arrays: BTreeSet::new(),
            uses_dyn_shared: false,
            maybe_heap_calls: false,
            pred: None,
            printf_formats: Vec::new(),
            printf_buffer_bytes: 0,
            loc: None,
            user_loc: None,
            kernel_file: k.body.0.iter().find_map(|i| match i {
                Inst::Loc(l) => Some(l.file),
                _ => None,
            }),
            once: crate::passes::util::def_counts(k)
                .into_iter()
                .map(|n| n == 1)
                .collect(),
            widened: Default::default(),
        }
    }

    pub fn err<T>(&self, message: impl Into<String>) -> Res<T> {
        let mut message = message.into();
        let (file, line, col) = match (self.user_loc.or(self.loc), self.loc) {
            (Some(u), Some(l)) => {
                if u != l {
                    message = format!("{message} (in {}:{}:{})", l.file, l.line, l.col);
                }
                (u.file.to_string(), u.line, u.col)
            }
            _ => (String::new(), 0, 0),
        };
        Err(CompileError {
            kernel: self.k.display_name.clone(),
            file,
            line,
            col,
            message,
        })
    }

    /// Starts one instruction under the current guard: `self.ins().s("bra ").l(l).end()`.
    pub fn ins(&mut self) -> Ln<'_> {
        self.body.push('\t');
        if let Some(p) = self.pred {
            self.body.push('@');
            p.write_to(&mut self.body);
            self.body.push(' ');
        }
        Ln(&mut self.body)
    }

    /// Starts one instruction that runs whatever the current guard (predicate bookkeeping).
    pub fn ins_always(&mut self) -> Ln<'_> {
        self.body.push('\t');
        Ln(&mut self.body)
    }

    /// Appends one instruction (the `;` is added here); for the rarer forms, `format_args!`.
    pub fn line(&mut self, s: impl fmt::Display) {
        let ln = self.ins();
        let _ = write!(ln.0, "{s}");
        ln.end();
    }

    /// [`Emitter::line`] of `ins` (its pieces concatenated) and its register operands separated
    /// by `, `.
    pub fn op<const P: usize, const A: usize>(&mut self, ins: [&str; P], args: [Reg; A]) {
        let ln = self.ins();
        for piece in ins {
            ln.0.push_str(piece);
        }
        for (n, a) in args.iter().enumerate() {
            if n > 0 {
                ln.0.push(',');
            }
            ln.0.push(' ');
            a.write_to(ln.0);
        }
        ln.end();
    }

    /// A label line (`l:`).
    pub fn label(&mut self, l: impl fmt::Display) {
        let _ = writeln!(self.body, "{l}:");
    }

    /// The line of a label made by [`Emitter::new_label`].
    pub fn put_label(&mut self, l: Label) {
        l.write_to(&mut self.body);
        self.body.push_str(":\n");
    }

    /// A fresh label `$Lfc_<kind>_<n>`.
    pub fn new_label(&mut self, kind: &'static str) -> Label {
        self.next_label += 1;
        Label {
            kind,
            n: self.next_label,
        }
    }

    /// A unique number for intrinsic templates that need private labels.
    pub fn unique(&mut self) -> u32 {
        self.next_label += 1;
        self.next_label
    }

    pub fn tmp(&mut self, ty: Ty) -> Reg {
        self.regs.fresh(RegClass::of(ty))
    }

    #[inline]
    pub fn reg(&self, v: Var) -> Res<Reg> {
        match self.regs.var(v.0) {
            Some(r) => Ok(r),
            None => self.undeclared(v),
        }
    }

    #[inline]
    pub fn ty(&self, v: Var) -> Res<Ty> {
        match self.k.vars.get(v.0 as usize) {
            Some(&t) => Ok(t),
            None => self.undeclared(v),
        }
    }

    /// Out of line, so `reg` and `ty` (a few per instruction) stay small enough to inline.
    #[cold]
    #[inline(never)]
    fn undeclared<T>(&self, v: Var) -> Res<T> {
        self.err(format!("IR refers to undeclared variable {v}"))
    }

    #[inline]
    pub fn oty(&self, o: Operand) -> Res<Ty> {
        match o {
            Operand::Var(v) => self.ty(v),
            Operand::Const(c) => Ok(c.ty),
        }
    }

    /// The operand in a register; constants are materialized into a fresh temporary (ptxas folds
    /// them back into immediates), which keeps every instruction form register-only and uniform.
    pub fn src(&mut self, o: Operand) -> Res<Reg> {
        match o {
            Operand::Var(v) => self.reg(v),
            Operand::Const(c) => {
                let t = self.tmp(c.ty);
                self.mov_imm(t, c);
                Ok(t)
            }
        }
    }

    /// `mov.<bits> d, <immediate>`.
    fn mov_imm(&mut self, d: Reg, c: Const) {
        self.ins()
            .s("mov.")
            .s(bits_suffix(c.ty))
            .s(" ")
            .r(d)
            .s(", ")
            .imm(c)
            .end();
    }

    /// A copy of the operand in a fresh register (for values that must not change under a loop).
    pub fn snapshot(&mut self, o: Operand) -> Res<Reg> {
        let ty = self.oty(o)?;
        let s = self.src(o)?;
        if matches!(o, Operand::Const(_)) {
            return Ok(s);
        }
        let t = self.tmp(ty);
        self.op(["mov.", bits_suffix(ty)], [t, s]);
        Ok(t)
    }

    pub fn block(&mut self, b: &Block) -> Res {
        // A block's positions end with it (nested blocks inherit the enclosing one).
        let outer = (self.loc, self.user_loc);
        for inst in &b.0 {
            self.inst(inst)?;
        }
        (self.loc, self.user_loc) = outer;
        Ok(())
    }

    fn inst(&mut self, inst: &Inst) -> Res {
        match inst {
            Inst::Mov { dst, src } => self.mov(*dst, *src),
            Inst::Unary { dst, op, a } => self.unary(*dst, *op, *a),
            Inst::Binary { dst, op, a, b } => self.binary(*dst, *op, *a, *b),
            Inst::Fma { dst, a, b, c } => self.fma(*dst, *a, *b, *c),
            Inst::Cast { dst, a } => self.cast(*dst, *a),
            Inst::Bitcast { dst, a } => self.bitcast(*dst, *a),
            Inst::Select { dst, cond, a, b } => self.select(*dst, *cond, *a, *b),
            Inst::Load {
                dst,
                space,
                addr,
                readonly,
            } => self.load(*dst, *space, *addr, *readonly),
            Inst::LoadVec {
                dsts,
                space,
                addr,
                readonly,
            } => self.load_vec(dsts, *space, *addr, *readonly),
            Inst::Store { space, addr, val } => self.store(*space, *addr, *val),
            Inst::StoreVec { space, addr, vals } => self.store_vec(*space, *addr, vals),
            Inst::SharedAddr { dst, alloc } => self.shared_addr(*dst, *alloc),
            Inst::DynSharedAddr { dst } => {
                self.uses_dyn_shared = true;
                let d = self.reg(*dst)?;
                self.line(format_args!("mov.u32 {d}, {}", super::DYN_SHARED_SYMBOL));
                Ok(())
            }
            Inst::DynSharedBytes { dst } => {
                let d = self.reg(*dst)?;
                self.line(format_args!("mov.u32 {d}, %dynamic_smem_size"));
                Ok(())
            }
            Inst::ArrayLoad { dst, array, idx } => self.array_load(*dst, *array, *idx),
            Inst::ArrayStore { array, idx, val } => self.array_store(*array, *idx, *val),
            Inst::Intrinsic { id, dsts, args } => self.intrinsic(*id, dsts, args),
            Inst::BoundsCheck { idx, len, site } => self.bounds_check(*idx, *len, *site),
            Inst::Panic { site, a, b } => self.panic(*site, *a, *b),
            Inst::Print { format, args } => self.print(format, args),
            Inst::If { cond, then, els } => self.if_(*cond, then, els),
            Inst::For {
                id,
                iv,
                start,
                end,
                inclusive,
                step,
                reverse,
                body,
                unroll: _,
            } => self.for_(*id, *iv, *start, *end, *inclusive, *step, *reverse, body),
            Inst::Loop { id, body } => self.loop_(*id, body),
            Inst::Break(id) => self.break_(*id),
            Inst::Continue(id) => self.continue_(*id),
            Inst::Return => {
                self.line("ret");
                Ok(())
            }
            // PTX carries no positions; the emitter keeps the last one for its errors.
            Inst::Loc(l) => {
                self.loc = Some(*l);
                if Some(l.file) == self.kernel_file {
                    self.user_loc = Some(*l);
                }
                Ok(())
            }
        }
    }

    fn mov(&mut self, dst: Var, src: Operand) -> Res {
        let ty = self.ty(dst)?;
        if self.oty(src)? != ty {
            return self.err(format!(
                "mov to {dst} of type {ty:?} from a {:?} operand",
                self.oty(src)?
            ));
        }
        let d = self.reg(dst)?;
        match src {
            Operand::Const(c) => self.mov_imm(d, c),
            Operand::Var(v) => {
                let s = self.reg(v)?;
                self.op(["mov.", bits_suffix(ty)], [d, s]);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::Label;

    #[test]
    fn label_spellings_agree() {
        for kind in ["endif", "for_body", "bounds"] {
            for n in [0, 1, 9, 10, 99, 100, 12_345, u32::MAX] {
                let l = Label { kind, n };
                let mut s = String::new();
                l.write_to(&mut s);
                assert_eq!(s, format!("$Lfc_{kind}_{n}"));
                assert_eq!(l.to_string(), s);
            }
        }
    }
}
