//! Overflow tests (`BinOp::AddOverflows`, `SubOverflows`, `MulOverflows`): the conditions of
//! Rust's overflow checks, into a predicate.
//!
//! With one constant operand, the values of the other operand for which the exact result stays in
//! the type form an interval ([`safe_interval`]), so the test is one or two compares against
//! constants (`x + 5` overflows `u32` exactly when `x > 0xFFFFFFFA`). Otherwise:
//! - unsigned: add, the wrapped sum is below an operand; sub, `a < b`; mul, the high half of the
//!   product is not zero;
//! - signed: add and sub, the wrapped result's sign differs from what the operands' signs force
//!   (`((r ^ a) & (r ^ b)) < 0` for add, `((a ^ b) & (a ^ r)) < 0` for sub); mul, the high half
//!   is not the low half's sign extended;
//! - 8-bit values live extended in 16-bit registers, where the exact result of any of the three
//!   fits: it is computed there and compared with the type's range.

use super::emit::{Emitter, Res};
use super::regs::Reg;
use super::types::int_suffix;
use kernel_ir::ir::{BinOp, Const, Operand, Ty};

/// The type's least and greatest value.
fn bounds(ty: Ty) -> (i128, i128) {
    if ty.is_signed() {
        (-(1i128 << (ty.bits() - 1)), (1i128 << (ty.bits() - 1)) - 1)
    } else {
        (0, (1i128 << ty.bits()) - 1)
    }
}

fn floor_div(a: i128, b: i128) -> i128 {
    let q = a / b;
    if a % b != 0 && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    }
}

fn ceil_div(a: i128, b: i128) -> i128 {
    -floor_div(-a, b)
}

/// The values `x` of type `ty` for which the overflow test `op` of `x` and the constant `c` (as
/// `c op x` when `c_left`) is false, as an inclusive interval; `None` when there are none.
pub fn safe_interval(op: BinOp, ty: Ty, c: i128, c_left: bool) -> Option<(i128, i128)> {
    let (min, max) = bounds(ty);
    let (lo, hi) = match (op, c_left) {
        (BinOp::AddOverflows, _) => (min - c, max - c),
        (BinOp::SubOverflows, false) => (min + c, max + c),
        (BinOp::SubOverflows, true) => (c - max, c - min),
        (BinOp::MulOverflows, _) if c == 0 => (min, max),
        (BinOp::MulOverflows, _) if c > 0 => (ceil_div(min, c), floor_div(max, c)),
        (BinOp::MulOverflows, _) => (ceil_div(max, c), floor_div(min, c)),
        _ => return None,
    };
    let (lo, hi) = (lo.max(min), hi.min(max));
    (lo <= hi).then_some((lo, hi))
}

fn int_const(ty: Ty, v: i128) -> Operand {
    let mask = if ty.bits() >= 64 {
        u64::MAX
    } else {
        (1u64 << ty.bits()) - 1
    };
    Operand::Const(Const {
        ty,
        bits: (v as u64) & mask,
    })
}

impl Emitter<'_> {
    /// `d = op(a, b)` for an overflow test on integers of type `ty`.
    pub fn overflow_test(&mut self, op: BinOp, ty: Ty, d: Reg, a: Operand, b: Operand) -> Res {
        let is = int_suffix(ty);
        let constant = match (a, b) {
            (Operand::Var(_), Operand::Const(c)) => Some((a, c, false)),
            (Operand::Const(c), Operand::Var(_)) => Some((b, c, true)),
            _ => None,
        };
        if let Some((x, c, c_left)) = constant {
            let x = self.src(x)?;
            let (min, max) = bounds(ty);
            let Some((lo, hi)) = safe_interval(op, ty, c.as_i128(), c_left) else {
                let t = self.src(Operand::Const(Const::bool(true)))?;
                self.op(["mov.pred"], [d, t]);
                return Ok(());
            };
            let below = (lo > min).then_some(lo);
            let above = (hi < max).then_some(hi);
            match (below, above) {
                (None, None) => {
                    let f = self.src(Operand::Const(Const::bool(false)))?;
                    self.op(["mov.pred"], [d, f]);
                }
                (Some(lo), None) => {
                    let l = self.src(int_const(ty, lo))?;
                    self.op(["setp.lt.", is], [d, x, l]);
                }
                (None, Some(hi)) => {
                    let h = self.src(int_const(ty, hi))?;
                    self.op(["setp.gt.", is], [d, x, h]);
                }
                (Some(lo), Some(hi)) => {
                    let (l, h) = (self.src(int_const(ty, lo))?, self.src(int_const(ty, hi))?);
                    let p = self.tmp(Ty::Bool);
                    self.op(["setp.lt.", is], [p, x, l]);
                    self.op(["setp.gt.", is], [d, x, h]);
                    self.op(["or.pred"], [d, d, p]);
                }
            }
            return Ok(());
        }
        let (sa, sb) = (self.src(a)?, self.src(b)?);
        let arith = match op {
            BinOp::AddOverflows => "add.",
            BinOp::SubOverflows => "sub.",
            _ => "mul.lo.",
        };
        // Narrow types: the exact result fits the 32-bit register; test its range.
        if ty.bits() < 32 {
            let t = self.tmp(ty);
            self.op([arith, is], [t, sa, sb]);
            let bits = ty.bits();
            if ty.is_signed() {
                let n = self.tmp(ty);
                self.line(format_args!("cvt.s32.s{bits} {n}, {t}"));
                self.op(["setp.ne.s32"], [d, n, t]);
            } else {
                let max = (1u32 << bits) - 1;
                self.line(format_args!("setp.gt.u32 {d}, {t}, {max}"));
            }
            return Ok(());
        }
        let wb = if ty.bits() == 32 { "b32" } else { "b64" };
        match (op, ty.is_signed()) {
            (BinOp::SubOverflows, false) => self.op(["setp.lt.", is], [d, sa, sb]),
            (BinOp::AddOverflows, false) => {
                let r = self.tmp(ty);
                self.op(["add.", is], [r, sa, sb]);
                self.op(["setp.lt.", is], [d, r, sa]);
            }
            (BinOp::MulOverflows, false) => {
                let h = self.tmp(ty);
                self.op(["mul.hi.", is], [h, sa, sb]);
                self.line(format_args!("setp.ne.{is} {d}, {h}, 0"));
            }
            (BinOp::MulOverflows, true) => {
                let (h, l, s) = (self.tmp(ty), self.tmp(ty), self.tmp(ty));
                self.op(["mul.hi.", is], [h, sa, sb]);
                self.op(["mul.lo.", is], [l, sa, sb]);
                self.line(format_args!("shr.{is} {s}, {l}, {}", ty.bits() - 1));
                self.op(["setp.ne.", is], [d, h, s]);
            }
            (_, true) => {
                let (r, x1, x2) = (self.tmp(ty), self.tmp(ty), self.tmp(ty));
                self.op([arith, is], [r, sa, sb]);
                if op == BinOp::AddOverflows {
                    self.op(["xor.", wb], [x1, r, sa]);
                    self.op(["xor.", wb], [x2, r, sb]);
                } else {
                    self.op(["xor.", wb], [x1, sa, sb]);
                    self.op(["xor.", wb], [x2, sa, r]);
                }
                self.op(["and.", wb], [x1, x1, x2]);
                self.line(format_args!("setp.lt.{is} {d}, {x1}, 0"));
            }
            _ => return self.err(format!("{op:?} is not an overflow test")),
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The register sequences' formulas, written at 8 bits (they do not depend on the width),
    /// against Rust's checked operations for every pair of operands; and the 8-bit types'
    /// sequence (exact result in 32 bits, then a range test).
    #[test]
    fn sequences_match_checked_arithmetic() {
        for a in 0..=255u8 {
            for b in 0..=255u8 {
                let (sa, sb) = (a as i8, b as i8);
                // Unsigned: the sum wrapped below an operand; `a < b`; a non-zero high half.
                assert_eq!(a.wrapping_add(b) < a, a.checked_add(b).is_none());
                assert_eq!(a < b, a.checked_sub(b).is_none());
                let hi = ((a as u16 * b as u16) >> 8) as u8;
                assert_eq!(hi != 0, a.checked_mul(b).is_none());
                // Signed: the sign rule on the wrapped result; the high half against the low
                // half's sign.
                let r = sa.wrapping_add(sb);
                assert_eq!((r ^ sa) & (r ^ sb) < 0, sa.checked_add(sb).is_none());
                let r = sa.wrapping_sub(sb);
                assert_eq!((sa ^ sb) & (sa ^ r) < 0, sa.checked_sub(sb).is_none());
                let wide = sa as i16 * sb as i16;
                let (hi, lo) = ((wide >> 8) as i8, wide as i8);
                assert_eq!(hi != lo >> 7, sa.checked_mul(sb).is_none());
                // Narrow types in 32-bit registers (the exact result fits; the same holds for
                // 16-bit operands, whose products stay below 2^32).
                let (wa, wb) = (a as u32, b as u32);
                for (exact, none) in [
                    (wa.wrapping_add(wb), a.checked_add(b).is_none()),
                    (wa.wrapping_sub(wb), a.checked_sub(b).is_none()),
                    (wa.wrapping_mul(wb), a.checked_mul(b).is_none()),
                ] {
                    assert_eq!(exact > 255, none);
                }
                for (exact, none) in [
                    (sa as i32 + sb as i32, sa.checked_add(sb).is_none()),
                    (sa as i32 - sb as i32, sa.checked_sub(sb).is_none()),
                    (sa as i32 * sb as i32, sa.checked_mul(sb).is_none()),
                ] {
                    assert_eq!(exact as i8 as i32 != exact, none);
                }
            }
        }
    }

    /// Every interval against the exact result, over all 8-bit operands.
    #[test]
    fn intervals_are_exact() {
        for ty in [Ty::U8, Ty::I8] {
            let (min, max) = bounds(ty);
            for op in [
                BinOp::AddOverflows,
                BinOp::SubOverflows,
                BinOp::MulOverflows,
            ] {
                for c in min..=max {
                    for c_left in [false, true] {
                        let iv = safe_interval(op, ty, c, c_left);
                        for x in min..=max {
                            let (p, q) = if c_left { (c, x) } else { (x, c) };
                            let exact = match op {
                                BinOp::AddOverflows => p + q,
                                BinOp::SubOverflows => p - q,
                                _ => p * q,
                            };
                            let fits = (min..=max).contains(&exact);
                            let inside = iv.is_some_and(|(lo, hi)| (lo..=hi).contains(&x));
                            assert_eq!(fits, inside, "{ty:?} {op:?} c={c} left={c_left} x={x}");
                        }
                    }
                }
            }
        }
    }
}
