//! Emitting scalar IR: constants, and arithmetic helpers that fold the integer constants the
//! front end itself produces (addresses, indices), so constant indices stay visible to later
//! checks.

use kernel_ir::ir::{self, BinOp, Const, Inst, Operand};

use super::Lower;

pub fn c_u32(v: u32) -> Operand {
    Operand::Const(Const::u32(v))
}
pub fn c_u64(v: u64) -> Operand {
    Operand::Const(Const::u64(v))
}

fn mask(t: ir::Ty) -> u64 {
    if t.bits() >= 64 {
        u64::MAX
    } else {
        (1u64 << t.bits()) - 1
    }
}

/// A constant of integer type `t` with value `v` (wrapped).
pub fn c_int(t: ir::Ty, v: i128) -> Operand {
    Operand::Const(Const {
        ty: t,
        bits: (v as u64) & mask(t),
    })
}

impl Lower {
    pub fn op_ty(&self, o: Operand) -> ir::Ty {
        self.k.operand_ty(o)
    }

    /// `dst = a op b`, folding integer constants for the address and index arithmetic the front
    /// end itself generates (so constant indices stay visible to `BoundsCheck` elision).
    pub fn bin(&mut self, op: BinOp, a: Operand, b: Operand) -> Operand {
        let t = self.op_ty(a);
        if let (Operand::Const(x), Operand::Const(y)) = (a, b) {
            if t.is_int() {
                let (x, y) = (x.as_i128(), y.as_i128());
                let r = match op {
                    BinOp::Add => Some(x.wrapping_add(y)),
                    BinOp::Sub => Some(x.wrapping_sub(y)),
                    BinOp::Mul => Some(x.wrapping_mul(y)),
                    _ => None,
                };
                if let Some(r) = r {
                    return c_int(t, r);
                }
            }
        }
        let is_zero = |o: Operand| matches!(o, Operand::Const(c) if c.bits == 0);
        let is_one = |o: Operand| matches!(o, Operand::Const(c) if c.bits == 1);
        if t.is_int() {
            match op {
                BinOp::Add if is_zero(b) => return a,
                BinOp::Add if is_zero(a) => return b,
                BinOp::Mul if is_one(b) => return a,
                BinOp::Mul if is_one(a) => return b,
                BinOp::Mul if is_zero(a) || is_zero(b) => return c_int(t, 0),
                _ => {}
            }
        }
        let dt = if op.yields_bool() { ir::Ty::Bool } else { t };
        let dst = self.var(dt);
        self.emit(Inst::Binary { dst, op, a, b });
        Operand::Var(dst)
    }

    pub fn un(&mut self, op: ir::UnOp, a: Operand, dt: ir::Ty) -> Operand {
        let dst = self.var(dt);
        self.emit(Inst::Unary { dst, op, a });
        Operand::Var(dst)
    }

    /// Rust `as` between scalars, folding integer constants.
    pub fn cast(&mut self, a: Operand, to: ir::Ty) -> Operand {
        let from = self.op_ty(a);
        if from == to {
            return a;
        }
        if let Operand::Const(c) = a {
            if from.is_int() && to.is_int() {
                return c_int(to, c.as_i128());
            }
        }
        let dst = self.var(to);
        self.emit(Inst::Cast { dst, a });
        Operand::Var(dst)
    }

    pub fn bitcast(&mut self, a: Operand, to: ir::Ty) -> Operand {
        if self.op_ty(a) == to {
            return a;
        }
        let dst = self.var(to);
        self.emit(Inst::Bitcast { dst, a });
        Operand::Var(dst)
    }

    pub fn select(&mut self, cond: Operand, a: Operand, b: Operand) -> Operand {
        let dst = self.var(self.op_ty(a));
        self.emit(Inst::Select { dst, cond, a, b });
        Operand::Var(dst)
    }

    /// A copy of `o` in a fresh register (constants stay constants).
    pub fn snapshot(&mut self, o: Operand) -> Operand {
        match o {
            Operand::Var(v) => {
                let dst = self.var(self.k.ty(v));
                self.emit(Inst::Mov { dst, src: o });
                Operand::Var(dst)
            }
            c => c,
        }
    }
}
