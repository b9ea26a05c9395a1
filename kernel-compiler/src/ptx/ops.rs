//! Arithmetic: unary, binary, compare, fma and select.
//!
//! f16 and bf16 arithmetic is done in f32 and rounded once back: f32 has more than twice the
//! precision plus two bits of either half type, so for +, -, *, / and sqrt the double rounding is
//! innocuous and the result equals the correctly rounded half-precision operation (and what the
//! simulator computes through the `half` crate). Float add/sub/mul always carry an explicit `.rn` so
//! ptxas never contracts them into an fma behind the IR's back.

use super::emit::{Emitter, Res};
use super::regs::Reg;
use super::types::{bits_suffix, float_suffix, int_suffix, reg_bits};
use kernel_ir::ir::{BinOp, Operand, Ty, UnOp, Var};

fn is_half(ty: Ty) -> bool {
    matches!(ty, Ty::F16 | Ty::BF16)
}

fn cmp_name(op: BinOp, float: bool) -> &'static str {
    match op {
        BinOp::Eq => "eq",
        BinOp::Ne if float => "neu",
        BinOp::Ne => "ne",
        BinOp::Lt => "lt",
        BinOp::Le => "le",
        BinOp::Gt => "gt",
        _ => "ge",
    }
}

impl Emitter<'_> {
    /// Restores the narrow-integer invariant (sign- or zero-extended in a 32-bit register) after
    /// an operation that may have carried out of the type's width.
    pub fn normalize(&mut self, ty: Ty, d: Reg) {
        match ty {
            Ty::I8 => self.line(format_args!("cvt.s32.s8 {d}, {d}")),
            Ty::U8 => self.line(format_args!("and.b32 {d}, {d}, 0xFF")),
            Ty::I16 => self.line(format_args!("cvt.s32.s16 {d}, {d}")),
            Ty::U16 => self.line(format_args!("and.b32 {d}, {d}, 0xFFFF")),
            _ => {}
        }
    }

    pub fn unary(&mut self, dst: Var, op: UnOp, a: Operand) -> Res {
        let ty = self.oty(a)?;
        let dty = self.ty(dst)?;
        let d = self.reg(dst)?;
        if matches!(op, UnOp::Popc | UnOp::Clz) {
            if !ty.is_int() || dty != Ty::U32 {
                return self.err(format!(
                    "{op:?} of {ty:?} into {dty:?} (expects an integer into u32)"
                ));
            }
            return self.bit_count(op, ty, d, a);
        }
        if dty != ty {
            return self.err(format!("{op:?} of {ty:?} into {dty:?}"));
        }
        let s = self.src(a)?;
        match (op, ty) {
            (UnOp::Not, Ty::Bool) => self.line(format_args!("not.pred {d}, {s}")),
            (UnOp::Not, t) if t.is_int() => {
                self.line(format_args!("not.{} {d}, {s}", bits_suffix(t)));
                self.normalize(t, d);
            }
            (UnOp::Neg, t) if t.is_int() => {
                let sfx = format!("s{}", reg_bits(t));
                self.line(format_args!("neg.{sfx} {d}, {s}"));
                self.normalize(t, d);
            }
            (UnOp::Abs, t) if t.is_int() => {
                if t.is_signed() {
                    // (x ^ m) - m with m = x >> (w - 1), not `abs`: the driver 580 JIT takes an
                    // `abs.s64` result to be non-negative, but Rust's wrapping abs of MIN is MIN.
                    let w = reg_bits(t);
                    let m = self.tmp(t);
                    self.line(format_args!("shr.s{w} {m}, {s}, {}", w - 1));
                    self.line(format_args!("xor.b{w} {d}, {s}, {m}"));
                    self.line(format_args!("sub.s{w} {d}, {d}, {m}"));
                    self.normalize(t, d);
                } else {
                    self.line(format_args!("mov.{} {d}, {s}", bits_suffix(t)));
                }
            }
            // Sign-bit operations are exact bit flips, as Rust's `neg`/`abs` on floats.
            (UnOp::Neg, t) if is_half(t) => self.line(format_args!("xor.b16 {d}, {s}, 0x8000")),
            (UnOp::Abs, t) if is_half(t) => self.line(format_args!("and.b16 {d}, {s}, 0x7FFF")),
            (_, t) if t.is_float() && !matches!(op, UnOp::Not) => {
                if is_half(t) {
                    let f = self.half_to_f32(t, s);
                    let r = self.tmp(Ty::F32);
                    self.unary_float(op, Ty::F32, r, f);
                    self.f32_to_half(t, r, d)?;
                } else {
                    self.unary_float(op, t, d, s);
                }
            }
            _ => return self.err(format!("unary {op:?} is not defined on {ty:?}")),
        }
        Ok(())
    }

    fn bit_count(&mut self, op: UnOp, ty: Ty, d: Reg, a: Operand) -> Res {
        let s = self.src(a)?;
        let bits = ty.bits();
        let (arg, w) = match bits {
            // Only the type's own bits count: a signed value is sign-extended in its register.
            8 | 16 => {
                let t = self.tmp(Ty::U32);
                let mask = if bits == 8 { 0xFF } else { 0xFFFF };
                self.line(format_args!("and.b32 {t}, {s}, {mask}"));
                (t, 32)
            }
            32 => (s, 32),
            _ => (s, 64),
        };
        match op {
            UnOp::Popc => self.line(format_args!("popc.b{w} {d}, {arg}")),
            _ if w == bits => self.line(format_args!("clz.b{w} {d}, {arg}")),
            _ => {
                let t = self.tmp(Ty::U32);
                self.line(format_args!("clz.b32 {t}, {arg}"));
                self.line(format_args!("sub.u32 {d}, {t}, {}", 32 - bits));
            }
        }
        Ok(())
    }

    /// f32/f64 unary op between registers; `d` may equal `s`.
    fn unary_float(&mut self, op: UnOp, ty: Ty, d: Reg, s: Reg) {
        let f = float_suffix(ty);
        match op {
            UnOp::Neg => self.line(format_args!("neg.{f} {d}, {s}")),
            UnOp::Abs => self.line(format_args!("abs.{f} {d}, {s}")),
            UnOp::Sqrt => self.line(format_args!("sqrt.rn.{f} {d}, {s}")),
            UnOp::Floor => self.line(format_args!("cvt.rmi.{f}.{f} {d}, {s}")),
            UnOp::Ceil => self.line(format_args!("cvt.rpi.{f}.{f} {d}, {s}")),
            UnOp::Trunc => self.line(format_args!("cvt.rzi.{f}.{f} {d}, {s}")),
            // Half away from zero: t = trunc(x); the fraction x - t is exact; if |x - t| >= 0.5 step
            // t one unit away from zero. NaN and infinities fall through unchanged (the compare is
            // false on NaN; inf - inf is NaN).
            _ => {
                let t = self.tmp(ty);
                let fr = self.tmp(ty);
                let one = self.tmp(ty);
                let half = self.tmp(ty);
                let p = self.tmp(Ty::Bool);
                let (one_imm, half_imm) = if ty == Ty::F64 {
                    ("0d3FF0000000000000", "0d3FE0000000000000")
                } else {
                    ("0f3F800000", "0f3F000000")
                };
                self.line(format_args!("cvt.rzi.{f}.{f} {t}, {s}"));
                self.line(format_args!("sub.rn.{f} {fr}, {s}, {t}"));
                self.line(format_args!("abs.{f} {fr}, {fr}"));
                self.line(format_args!("mov.{f} {half}, {half_imm}"));
                self.line(format_args!("setp.ge.{f} {p}, {fr}, {half}"));
                self.line(format_args!("mov.{f} {one}, {one_imm}"));
                self.line(format_args!("copysign.{f} {one}, {s}, {one}"));
                self.line(format_args!("@{p} add.rn.{f} {t}, {t}, {one}"));
                self.line(format_args!("mov.{f} {d}, {t}"));
            }
        }
    }

    pub fn binary(&mut self, dst: Var, op: BinOp, a: Operand, b: Operand) -> Res {
        let ty = self.oty(a)?;
        let bty = self.oty(b)?;
        let dty = self.ty(dst)?;
        let shift = matches!(op, BinOp::Shl | BinOp::Shr);
        if (shift && bty != Ty::U32) || (!shift && bty != ty) {
            return self.err(format!("{op:?} with operands {ty:?} and {bty:?}"));
        }
        let want = if op.yields_bool() { Ty::Bool } else { ty };
        if dty != want {
            return self.err(format!("{op:?} of {ty:?} into {dty:?}"));
        }
        // `x ^ all-ones` is printed as `not`: the driver 580 JIT (ptxas 13.0) takes
        // `xor r, x, -1` to be `x` where a branch fixes `x` to a constant (ptxas 13.5 does not).
        if op == BinOp::Xor && (ty.is_int() || ty == Ty::Bool) {
            let ones =
                |o: Operand| matches!(o, Operand::Const(c) if crate::passes::eval::is_all_ones(c));
            if ones(b) {
                return self.unary(dst, UnOp::Not, a);
            }
            if ones(a) {
                return self.unary(dst, UnOp::Not, b);
            }
        }
        let d = self.reg(dst)?;
        if let Some((x, k, signed)) = self.wide_product(op, ty, a, b) {
            let x = self.reg(x)?;
            let sfx = if signed { "s32" } else { "u32" };
            self.line(format_args!("mul.wide.{sfx} {d}, {x}, {k}"));
            return Ok(());
        }
        if op.is_overflow_test() {
            if !ty.is_int() {
                return self.err(format!("{op:?} is not defined on {ty:?}"));
            }
            return self.overflow_test(op, ty, d, a, b);
        }
        let sa = self.src(a)?;
        let sb = self.src(b)?;
        if op.is_compare() {
            return self.compare(op, ty, d, sa, sb);
        }
        if ty == Ty::Bool {
            let ins = match op {
                BinOp::And | BinOp::Min => "and",
                BinOp::Or | BinOp::Max => "or",
                BinOp::Xor => "xor",
                _ => return self.err(format!("{op:?} is not defined on bool")),
            };
            self.op([ins, ".pred"], [d, sa, sb]);
            return Ok(());
        }
        if ty.is_float() {
            if is_half(ty) {
                let fa = self.half_to_f32(ty, sa);
                let fb = self.half_to_f32(ty, sb);
                let r = self.tmp(Ty::F32);
                self.binary_float(op, Ty::F32, r, fa, fb)?;
                return self.f32_to_half(ty, r, d);
            }
            return self.binary_float(op, ty, d, sa, sb);
        }
        let is = int_suffix(ty);
        let w = reg_bits(ty);
        let wb = if w == 32 { "b32" } else { "b64" };
        let simple = match op {
            BinOp::Add => Some(["add.", is]),
            BinOp::Sub => Some(["sub.", is]),
            BinOp::Mul => Some(["mul.lo.", is]),
            BinOp::Div => Some(["div.", is]),
            BinOp::Rem => Some(["rem.", is]),
            BinOp::And => Some(["and.", wb]),
            BinOp::Or => Some(["or.", wb]),
            BinOp::Xor => Some(["xor.", wb]),
            BinOp::Shl => Some(["shl.", wb]),
            BinOp::Shr => Some(["shr.", is]),
            BinOp::Min => Some(["min.", is]),
            BinOp::Max => Some(["max.", is]),
            _ => None,
        };
        match (op, simple) {
            (_, Some(ins)) => self.op(ins, [d, sa, sb]),
            // Narrow products fit in 32 bits, so the high half is the full product shifted down.
            (BinOp::MulHi, _) if ty.bits() < 32 => {
                let t = self.tmp(ty);
                self.line(format_args!("mul.lo.{is} {t}, {sa}, {sb}"));
                self.line(format_args!("shr.{is} {d}, {t}, {}", ty.bits()));
            }
            (BinOp::MulHi, _) => self.line(format_args!("mul.hi.{is} {d}, {sa}, {sb}")),
            _ => return self.err(format!("{op:?} is not defined on {ty:?}")),
        }
        // `Div` too: MIN / -1 of a narrow type wraps.
        if matches!(
            op,
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Shl | BinOp::Div
        ) {
            self.normalize(ty, d);
        }
        Ok(())
    }

    /// `widen(x) << c` or `widen(x) * c` (either side) for a 32-bit `x` widened to 64 bits (see
    /// [`Emitter::widened`]) and a factor that fits the 32-bit operand: `mul.wide` of `x`, the
    /// same 64-bit value, which ptxas makes one `IMAD.WIDE` (from a sign-extended index it made
    /// a shift for the high half and two `LEA`s). Returns `x`, the factor and signedness.
    fn wide_product(&self, op: BinOp, ty: Ty, a: Operand, b: Operand) -> Option<(Var, u64, bool)> {
        if !matches!(ty, Ty::U64 | Ty::I64) {
            return None;
        }
        let wide = |o: Operand| match o {
            Operand::Var(v) => self.widened.get(&v).copied(),
            Operand::Const(_) => None,
        };
        let constant = |o: Operand| match o {
            Operand::Const(c) => Some(c.bits),
            Operand::Var(_) => None,
        };
        let ((x, signed), k) = match op {
            BinOp::Shl => {
                let c = constant(b)?;
                (wide(a)?, 1u64.checked_shl(u32::try_from(c).ok()?)?)
            }
            BinOp::Mul => match (wide(a), wide(b)) {
                (Some(w), _) if constant(b).is_some() => (w, constant(b)?),
                (_, Some(w)) if constant(a).is_some() => (w, constant(a)?),
                _ => return None,
            },
            _ => return None,
        };
        // The factor as the instruction's 32-bit operand reads it, and positive (a negative or
        // zero factor is left to the general path).
        let max = if signed {
            i32::MAX as u64
        } else {
            u32::MAX as u64
        };
        (1..=max).contains(&k).then_some((x, k, signed))
    }

    fn binary_float(&mut self, op: BinOp, ty: Ty, d: Reg, a: Reg, b: Reg) -> Res {
        let f = float_suffix(ty);
        let ins = match op {
            BinOp::Add => "add.rn",
            BinOp::Sub => "sub.rn",
            BinOp::Mul => "mul.rn",
            BinOp::Div => "div.rn",
            // PTX min/max without `.NaN` return the non-NaN operand, as Rust's `min`/`max`.
            BinOp::Min => "min",
            BinOp::Max => "max",
            _ => {
                return self.err(format!(
                    "{op:?} is not supported on {ty:?} by the PTX backend"
                ))
            }
        };
        self.op([ins, ".", f], [d, a, b]);
        Ok(())
    }

    fn compare(&mut self, op: BinOp, ty: Ty, d: Reg, a: Reg, b: Reg) -> Res {
        match ty {
            Ty::Bool => {
                let ta = self.tmp(Ty::U32);
                let tb = self.tmp(Ty::U32);
                self.line(format_args!("selp.u32 {ta}, 1, 0, {a}"));
                self.line(format_args!("selp.u32 {tb}, 1, 0, {b}"));
                self.line(format_args!(
                    "setp.{}.u32 {d}, {ta}, {tb}",
                    cmp_name(op, false)
                ));
            }
            t if is_half(t) => {
                let fa = self.half_to_f32(t, a);
                let fb = self.half_to_f32(t, b);
                self.line(format_args!(
                    "setp.{}.f32 {d}, {fa}, {fb}",
                    cmp_name(op, true)
                ));
            }
            t if t.is_float() => {
                let f = float_suffix(t);
                self.op(["setp.", cmp_name(op, true), ".", f], [d, a, b]);
            }
            t => self.op(
                ["setp.", cmp_name(op, false), ".", int_suffix(t)],
                [d, a, b],
            ),
        }
        Ok(())
    }

    pub fn fma(&mut self, dst: Var, a: Operand, b: Operand, c: Operand) -> Res {
        let ty = self.ty(dst)?;
        for o in [a, b, c] {
            if self.oty(o)? != ty {
                return self.err(format!("fma into {ty:?} with a {:?} operand", self.oty(o)?));
            }
        }
        let d = self.reg(dst)?;
        let (sa, sb, sc) = (self.src(a)?, self.src(b)?, self.src(c)?);
        let f = match ty {
            Ty::F32 => "f32",
            Ty::F64 => "f64",
            Ty::F16 => "f16",
            Ty::BF16 if self.sm >= 80 => "bf16",
            Ty::BF16 => return self.err("bf16 fused multiply-add needs sm_80 or newer"),
            _ => return self.err(format!("fma is not defined on {ty:?}")),
        };
        self.op(["fma.rn.", f], [d, sa, sb, sc]);
        Ok(())
    }

    pub fn select(&mut self, dst: Var, cond: Operand, a: Operand, b: Operand) -> Res {
        let ty = self.ty(dst)?;
        if self.oty(cond)? != Ty::Bool || self.oty(a)? != ty || self.oty(b)? != ty {
            return self.err("select with mismatched operand types");
        }
        let d = self.reg(dst)?;
        let c = self.src(cond)?;
        let sa = self.src(a)?;
        let sb = self.src(b)?;
        if ty == Ty::Bool {
            let t1 = self.tmp(Ty::Bool);
            let t2 = self.tmp(Ty::Bool);
            self.line(format_args!("and.pred {t1}, {c}, {sa}"));
            self.line(format_args!("not.pred {t2}, {c}"));
            self.line(format_args!("and.pred {t2}, {t2}, {sb}"));
            self.line(format_args!("or.pred {d}, {t1}, {t2}"));
        } else {
            self.line(format_args!(
                "selp.{} {d}, {sa}, {sb}, {c}",
                bits_suffix(ty)
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    /// The emitted `round` sequence: truncate, exact fraction, step away from zero at >= 0.5.
    fn emitted_round(x: f32) -> f32 {
        let t = x.trunc();
        if (x - t).abs() >= 0.5 {
            t + 1f32.copysign(x)
        } else {
            t
        }
    }

    #[test]
    fn round_is_half_away_from_zero() {
        let mut v = vec![
            0.5f32,
            -0.5,
            1.5,
            2.5,
            -2.5,
            0.49999997,
            -0.3,
            8388607.5,
            1e30,
            f32::INFINITY,
        ];
        let mut x = 0x2545_F491u32;
        for _ in 0..20000 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            v.push(f32::from_bits(x));
        }
        for f in v {
            let (a, b) = (emitted_round(f), f.round());
            assert!(
                a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()),
                "{f:e}: {a} vs {b}"
            );
        }
    }
}
