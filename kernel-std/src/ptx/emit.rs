//! The emitter's state and the per-instruction dispatch; the instruction families live in
//! `ops`, `convert`, `memory`, `control`, `panic` and `intrinsic_template`.

use super::regs::Regs;
use super::types::{bits_suffix, immediate, RegClass};
use crate::error::CompileError;
use crate::ir::{ArrayId, Block, Inst, Kernel, LoopId, Operand, SourceLoc, Ty, Var};
use std::collections::BTreeSet;
use std::fmt::Write;

pub type Res<T = ()> = Result<T, CompileError>;

/// Labels of an enclosing loop: where `continue` and `break` jump.
pub struct LoopLabels {
    pub id: LoopId,
    pub cont: String,
    pub brk: String,
}

/// A cold bounds-failure block, emitted after the kernel body.
pub struct ColdBounds {
    pub label: String,
    pub site: u32,
    pub idx: String,
    pub len: String,
    pub ty: Ty,
}

pub struct Emitter<'k> {
    pub k: &'k Kernel,
    pub sm: u32,
    pub regs: Regs,
    pub body: String,
    next_label: u32,
    pub loops: Vec<LoopLabels>,
    pub cold: Vec<ColdBounds>,
    /// Registers carrying (site, a, b) into the shared panic block, once any panic is emitted.
    pub panic_regs: Option<(String, String, String)>,
    pub used_arrays: BTreeSet<ArrayId>,
    pub uses_dyn_shared: bool,
    /// While set, every emitted instruction is guarded by this predicate register (the body of
    /// an `if` emitted as predicated code; see `control`).
    pub pred: Option<String>,
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
}

impl<'k> Emitter<'k> {
    pub fn new(k: &'k Kernel, sm: u32) -> Self {
        Emitter {
            k,
            sm,
            regs: Regs::new(&k.vars),
            body: String::new(),
            next_label: 0,
            loops: Vec::new(),
            cold: Vec::new(),
            panic_regs: None,
            used_arrays: BTreeSet::new(),
            uses_dyn_shared: false,
            pred: None,
            printf_formats: Vec::new(),
            printf_buffer_bytes: 0,
            loc: None,
            user_loc: None,
            kernel_file: k.body.0.iter().find_map(|i| match i {
                Inst::Loc(l) => Some(l.file),
                _ => None,
            }),
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

    /// Appends one instruction (the `;` is added here).
    pub fn line(&mut self, s: impl AsRef<str>) {
        self.body.push('\t');
        if let Some(p) = &self.pred {
            self.body.push('@');
            self.body.push_str(p);
            self.body.push(' ');
        }
        self.body.push_str(s.as_ref());
        self.body.push_str(";\n");
    }

    /// [`Emitter::line`] of `ins` (its pieces concatenated) and its operands separated by `, `,
    /// written straight into the body: the common instructions skip formatting a temporary.
    pub fn op(&mut self, ins: &[&str], args: &[&str]) {
        self.body.push('\t');
        if let Some(p) = &self.pred {
            self.body.push('@');
            self.body.push_str(p);
            self.body.push(' ');
        }
        for piece in ins {
            self.body.push_str(piece);
        }
        for (n, a) in args.iter().enumerate() {
            self.body.push_str(if n == 0 { " " } else { ", " });
            self.body.push_str(a);
        }
        self.body.push_str(";\n");
    }

    /// Appends one instruction that runs whatever the current guard (predicate bookkeeping).
    pub fn line_always(&mut self, s: impl AsRef<str>) {
        self.body.push('\t');
        self.body.push_str(s.as_ref());
        self.body.push_str(";\n");
    }

    pub fn label(&mut self, l: &str) {
        let _ = writeln!(self.body, "{l}:");
    }

    /// A fresh label `$Lfc_<kind>_<n>`.
    pub fn new_label(&mut self, kind: &str) -> String {
        self.next_label += 1;
        format!("$Lfc_{kind}_{}", self.next_label)
    }

    /// A unique number for intrinsic templates that need private labels.
    pub fn unique(&mut self) -> u32 {
        self.next_label += 1;
        self.next_label
    }

    pub fn tmp(&mut self, ty: Ty) -> String {
        self.regs.fresh(RegClass::of(ty))
    }

    pub fn reg(&self, v: Var) -> Res<String> {
        match self.regs.var(v.0) {
            Some(n) => Ok(n.to_string()),
            None => self.err(format!("IR refers to undeclared variable {v}")),
        }
    }

    pub fn ty(&self, v: Var) -> Res<Ty> {
        match self.k.vars.get(v.0 as usize) {
            Some(&t) => Ok(t),
            None => self.err(format!("IR refers to undeclared variable {v}")),
        }
    }

    pub fn oty(&self, o: Operand) -> Res<Ty> {
        match o {
            Operand::Var(v) => self.ty(v),
            Operand::Const(c) => Ok(c.ty),
        }
    }

    /// The operand in a register; constants are materialized into a fresh temporary (ptxas folds
    /// them back into immediates), which keeps every instruction form register-only and uniform.
    pub fn src(&mut self, o: Operand) -> Res<String> {
        match o {
            Operand::Var(v) => self.reg(v),
            Operand::Const(c) => {
                let t = self.tmp(c.ty);
                self.op(&["mov.", bits_suffix(c.ty)], &[&t, &immediate(c)]);
                Ok(t)
            }
        }
    }

    /// A copy of the operand in a fresh register (for values that must not change under a loop).
    pub fn snapshot(&mut self, o: Operand) -> Res<String> {
        let ty = self.oty(o)?;
        let s = self.src(o)?;
        if matches!(o, Operand::Const(_)) {
            return Ok(s);
        }
        let t = self.tmp(ty);
        self.line(format!("mov.{} {t}, {s}", bits_suffix(ty)));
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
            Inst::SharedAddr { dst, alloc } => self.shared_addr(*dst, *alloc),
            Inst::DynSharedAddr { dst } => {
                self.uses_dyn_shared = true;
                let d = self.reg(*dst)?;
                self.line(format!("mov.u32 {d}, {}", super::DYN_SHARED_SYMBOL));
                Ok(())
            }
            Inst::DynSharedBytes { dst } => {
                let d = self.reg(*dst)?;
                self.line(format!("mov.u32 {d}, %dynamic_smem_size"));
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
            Operand::Const(c) => {
                self.op(&["mov.", bits_suffix(ty)], &[&d, &immediate(c)]);
            }
            Operand::Var(v) => {
                let s = self.reg(v)?;
                self.op(&["mov.", bits_suffix(ty)], &[&d, &s]);
            }
        }
        Ok(())
    }
}
