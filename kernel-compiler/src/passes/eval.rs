//! Exact evaluation of IR operations on constants, with Rust release-build semantics: integers
//! wrap, shifts use the amount masked by the width, division by zero and `MIN / -1` are never
//! folded (the front end's checks run first and the result is left to the device), floats are
//! computed in their own precision (an `f32` add is done in `f32`), float -> int casts saturate
//! with NaN -> 0.
//!
//! `f16`/`bf16` arithmetic goes through `f32` and rounds back once: `f32` carries more than twice
//! their precision plus two bits, so add/sub/mul/div/sqrt rounded that way equal the correctly
//! rounded result. Folds that cannot be done exactly return `None` and the instruction stays.

use half::{bf16, f16};

use kernel_ir::ir::{BinOp, Const, Ty, UnOp};

fn mask(ty: Ty) -> u64 {
    match ty.bits() {
        64 => u64::MAX,
        n => (1u64 << n) - 1,
    }
}

/// The low bits of `v` as a constant of integer (or bool) type `ty`.
pub fn int_const(ty: Ty, v: i128) -> Const {
    Const {
        ty,
        bits: (v as u128 as u64) & mask(ty),
    }
}

/// Reads a float constant (any width) as `f64`, exactly.
pub fn float_value(c: Const) -> Option<f64> {
    Some(match c.ty {
        Ty::F16 => f16::from_bits(c.bits as u16).to_f64(),
        Ty::BF16 => bf16::from_bits(c.bits as u16).to_f64(),
        Ty::F32 => f32::from_bits(c.bits as u32) as f64,
        Ty::F64 => f64::from_bits(c.bits),
        _ => return None,
    })
}

/// Rounds `v` once (to nearest even) into float type `ty`.
fn float_const(ty: Ty, v: f64) -> Option<Const> {
    let bits = match ty {
        Ty::F16 => f16::from_f64(v).to_bits() as u64,
        Ty::BF16 => bf16::from_f64(v).to_bits() as u64,
        Ty::F32 => (v as f32).to_bits() as u64,
        Ty::F64 => v.to_bits(),
        _ => return None,
    };
    Some(Const { ty, bits })
}

fn f32_const(ty: Ty, v: f32) -> Option<Const> {
    match ty {
        Ty::F16 => Some(Const {
            ty,
            bits: f16::from_f32(v).to_bits() as u64,
        }),
        Ty::BF16 => Some(Const {
            ty,
            bits: bf16::from_f32(v).to_bits() as u64,
        }),
        Ty::F32 => Some(Const::f32(v)),
        _ => None,
    }
}

/// Whether `c` is the integer zero / one / all-ones of its type (bool: false / true / true).
pub fn is_int_zero(c: Const) -> bool {
    (c.ty.is_int() || c.ty == Ty::Bool) && c.bits == 0
}
pub fn is_int_one(c: Const) -> bool {
    (c.ty.is_int() || c.ty == Ty::Bool) && c.bits == 1
}
pub fn is_all_ones(c: Const) -> bool {
    (c.ty.is_int() || c.ty == Ty::Bool) && c.bits == mask(c.ty)
}

pub fn eval_unary(op: UnOp, a: Const, dst: Ty) -> Option<Const> {
    let t = a.ty;
    if t == Ty::Bool {
        return match op {
            UnOp::Not => Some(Const::bool(a.bits == 0)),
            _ => None,
        };
    }
    if t.is_int() {
        let x = a.as_i128();
        return match op {
            UnOp::Neg => Some(int_const(t, x.wrapping_neg())),
            UnOp::Not => Some(int_const(t, !x)),
            UnOp::Abs => Some(int_const(t, if t.is_signed() { x.abs() } else { x })),
            UnOp::Popc if dst.is_int() => Some(int_const(dst, a.bits.count_ones() as i128)),
            UnOp::Clz if dst.is_int() => {
                let lz = a.bits.leading_zeros() - (64 - t.bits());
                Some(int_const(dst, lz as i128))
            }
            _ => None,
        };
    }
    let sign = 1u64 << (t.bits() - 1);
    match op {
        UnOp::Neg => {
            return Some(Const {
                ty: t,
                bits: a.bits ^ sign,
            })
        }
        UnOp::Abs => {
            return Some(Const {
                ty: t,
                bits: a.bits & !sign,
            })
        }
        _ => {}
    }
    if t == Ty::F64 {
        let x = f64::from_bits(a.bits);
        let r = match op {
            UnOp::Sqrt => x.sqrt(),
            UnOp::Floor => x.floor(),
            UnOp::Ceil => x.ceil(),
            UnOp::Trunc => x.trunc(),
            UnOp::Round => x.round(),
            _ => return None,
        };
        return Some(Const::f64(r));
    }
    let x = float_value(a)? as f32;
    let r = match op {
        UnOp::Sqrt => x.sqrt(),
        UnOp::Floor => x.floor(),
        UnOp::Ceil => x.ceil(),
        UnOp::Trunc => x.trunc(),
        UnOp::Round => x.round(),
        _ => return None,
    };
    f32_const(t, r)
}

fn compare<T: PartialOrd>(op: BinOp, x: T, y: T) -> Option<bool> {
    Some(match op {
        BinOp::Eq => x == y,
        BinOp::Ne => x != y,
        BinOp::Lt => x < y,
        BinOp::Le => x <= y,
        BinOp::Gt => x > y,
        BinOp::Ge => x >= y,
        _ => return None,
    })
}

fn eval_int_binary(op: BinOp, a: Const, b: Const) -> Option<Const> {
    let t = a.ty;
    let (x, y) = (a.as_i128(), b.as_i128());
    if op.is_compare() {
        return compare(op, x, y).map(Const::bool);
    }
    if op.is_overflow_test() {
        let exact = match op {
            BinOp::AddOverflows => x.checked_add(y),
            BinOp::SubOverflows => x.checked_sub(y),
            _ => x.checked_mul(y),
        };
        let (lo, hi) = if t.is_signed() {
            (-(1i128 << (t.bits() - 1)), (1i128 << (t.bits() - 1)) - 1)
        } else {
            (0, (1i128 << t.bits()) - 1)
        };
        return Some(Const::bool(!exact.is_some_and(|r| (lo..=hi).contains(&r))));
    }
    let r = match op {
        BinOp::Add => x.wrapping_add(y),
        BinOp::Sub => x.wrapping_sub(y),
        BinOp::Mul => x.wrapping_mul(y),
        BinOp::Div | BinOp::Rem => {
            let min = if t.is_signed() {
                -(1i128 << (t.bits() - 1))
            } else {
                -1
            };
            if y == 0 || (t.is_signed() && x == min && y == -1) {
                return None;
            }
            if op == BinOp::Div {
                x / y
            } else {
                x % y
            }
        }
        BinOp::And => (a.bits & b.bits) as i128,
        BinOp::Or => (a.bits | b.bits) as i128,
        BinOp::Xor => (a.bits ^ b.bits) as i128,
        BinOp::Shl => {
            let amt = b.bits as u32 & (t.bits() - 1);
            ((a.bits as u128) << amt) as i128
        }
        BinOp::Shr => {
            let amt = b.bits as u32 & (t.bits() - 1);
            if t.is_signed() {
                x >> amt
            } else {
                (a.bits >> amt) as i128
            }
        }
        BinOp::Min => x.min(y),
        BinOp::Max => x.max(y),
        BinOp::MulHi => {
            if t.is_signed() {
                (x * y) >> t.bits()
            } else {
                ((a.bits as u128 * b.bits as u128) >> t.bits()) as i128
            }
        }
        _ => return None,
    };
    Some(int_const(t, r))
}

fn eval_float_binary(op: BinOp, a: Const, b: Const) -> Option<Const> {
    let t = a.ty;
    if op.is_compare() {
        return compare(op, float_value(a)?, float_value(b)?).map(Const::bool);
    }
    if matches!(op, BinOp::Min | BinOp::Max) {
        let (x, y) = (float_value(a)?, float_value(b)?);
        // The sign of a zero result is not pinned down by Rust (nor equal across devices).
        if x == 0.0 && y == 0.0 && a.bits != b.bits {
            return None;
        }
        let pick_a = if y.is_nan() {
            true
        } else if x.is_nan() {
            false
        } else if op == BinOp::Min {
            x <= y
        } else {
            x >= y
        };
        return Some(if pick_a { a } else { b });
    }
    match t {
        Ty::F64 => {
            let (x, y) = (f64::from_bits(a.bits), f64::from_bits(b.bits));
            let r = match op {
                BinOp::Add => x + y,
                BinOp::Sub => x - y,
                BinOp::Mul => x * y,
                BinOp::Div => x / y,
                BinOp::Rem => x % y,
                _ => return None,
            };
            Some(Const::f64(r))
        }
        Ty::F32 => {
            let (x, y) = (f32::from_bits(a.bits as u32), f32::from_bits(b.bits as u32));
            let r = match op {
                BinOp::Add => x + y,
                BinOp::Sub => x - y,
                BinOp::Mul => x * y,
                BinOp::Div => x / y,
                BinOp::Rem => x % y,
                _ => return None,
            };
            Some(Const::f32(r))
        }
        _ => {
            let (x, y) = (float_value(a)? as f32, float_value(b)? as f32);
            let r = match op {
                BinOp::Add => x + y,
                BinOp::Sub => x - y,
                BinOp::Mul => x * y,
                BinOp::Div => x / y,
                _ => return None,
            };
            f32_const(t, r)
        }
    }
}

pub fn eval_binary(op: BinOp, a: Const, b: Const) -> Option<Const> {
    let t = a.ty;
    if t == Ty::Bool {
        let (x, y) = (a.bits != 0, b.bits != 0);
        return Some(Const::bool(match op {
            BinOp::And | BinOp::Min => x & y,
            BinOp::Or | BinOp::Max => x | y,
            BinOp::Xor | BinOp::Ne => x ^ y,
            BinOp::Eq => x == y,
            BinOp::Lt => !x & y,
            BinOp::Le => !x | y,
            BinOp::Gt => x & !y,
            BinOp::Ge => x | !y,
            _ => return None,
        }));
    }
    if !matches!(op, BinOp::Shl | BinOp::Shr) && b.ty != t {
        return None;
    }
    if t.is_int() {
        eval_int_binary(op, a, b)
    } else {
        eval_float_binary(op, a, b)
    }
}

pub fn eval_fma(a: Const, b: Const, c: Const) -> Option<Const> {
    match a.ty {
        Ty::F32 => {
            let f = |c: Const| f32::from_bits(c.bits as u32);
            Some(Const::f32(f(a).mul_add(f(b), f(c))))
        }
        Ty::F64 => {
            let f = |c: Const| f64::from_bits(c.bits);
            Some(Const::f64(f(a).mul_add(f(b), f(c))))
        }
        _ => None,
    }
}

/// Rust `as` from `a`'s type to `to`.
pub fn eval_cast(a: Const, to: Ty) -> Option<Const> {
    let from = a.ty;
    if from == to {
        return Some(a);
    }
    if to == Ty::Bool {
        return None;
    }
    if from == Ty::Bool || from.is_int() {
        let x = if from == Ty::Bool {
            a.bits as i128
        } else {
            a.as_i128()
        };
        if to.is_int() {
            return Some(int_const(to, x));
        }
        if from == Ty::Bool {
            return None;
        }
        return match to {
            Ty::F32 => Some(Const::f32(if from.is_signed() {
                x as i64 as f32
            } else {
                x as u64 as f32
            })),
            Ty::F64 => Some(Const::f64(if from.is_signed() {
                x as i64 as f64
            } else {
                x as u64 as f64
            })),
            // Only when the integer is exact in f64, so that the value is rounded once.
            _ if x.unsigned_abs() <= 1u128 << 53 => float_const(to, x as f64),
            _ => None,
        };
    }
    let v = float_value(a)?;
    if to.is_int() {
        let r: i128 = match to {
            Ty::I8 => (v as i8) as i128,
            Ty::I16 => (v as i16) as i128,
            Ty::I32 => (v as i32) as i128,
            Ty::I64 => (v as i64) as i128,
            Ty::U8 => (v as u8) as i128,
            Ty::U16 => (v as u16) as i128,
            Ty::U32 => (v as u32) as i128,
            Ty::U64 => (v as u64) as i128,
            _ => return None,
        };
        return Some(int_const(to, r));
    }
    match (from, to) {
        (Ty::F64, Ty::F32) => Some(Const::f32(v as f32)),
        (Ty::F32, _) => f32_const(to, v as f32).or_else(|| float_const(to, v)),
        _ => float_const(to, v),
    }
}

pub fn eval_bitcast(a: Const, to: Ty) -> Option<Const> {
    (a.ty.bits() == to.bits() && a.ty != Ty::Bool && to != Ty::Bool).then_some(Const {
        ty: to,
        bits: a.bits,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn u8c(v: u8) -> Const {
        int_const(Ty::U8, v as i128)
    }
    fn i8c(v: i8) -> Const {
        int_const(Ty::I8, v as i128)
    }

    /// Every u8/i8 pair against Rust's own wrapping operators.
    #[test]
    fn int_ops_match_rust_exhaustive_8bit() {
        for x in 0..=255u8 {
            for y in 0..=255u8 {
                let (a, b) = (u8c(x), u8c(y));
                let f = |op| eval_binary(op, a, b).map(|c| c.bits as u8);
                assert_eq!(f(BinOp::Add), Some(x.wrapping_add(y)));
                assert_eq!(f(BinOp::Sub), Some(x.wrapping_sub(y)));
                assert_eq!(f(BinOp::Mul), Some(x.wrapping_mul(y)));
                assert_eq!(f(BinOp::Div), x.checked_div(y));
                assert_eq!(f(BinOp::Rem), x.checked_rem(y));
                assert_eq!(f(BinOp::Shl), Some(x.wrapping_shl(y as u32)));
                assert_eq!(f(BinOp::Shr), Some(x.wrapping_shr(y as u32)));
                assert_eq!(f(BinOp::MulHi), Some(((x as u16 * y as u16) >> 8) as u8));
                assert_eq!(eval_binary(BinOp::Lt, a, b), Some(Const::bool(x < y)));
                let (sx, sy) = (x as i8, y as i8);
                let (a, b) = (i8c(sx), i8c(sy));
                let g = |op| eval_binary(op, a, b).map(|c| c.bits as u8 as i8);
                assert_eq!(g(BinOp::Mul), Some(sx.wrapping_mul(sy)));
                assert_eq!(g(BinOp::Div), sx.checked_div(sy));
                assert_eq!(g(BinOp::Rem), sx.checked_rem(sy));
                assert_eq!(g(BinOp::Shr), Some(sx.wrapping_shr(sy as u8 as u32)));
                assert_eq!(g(BinOp::Min), Some(sx.min(sy)));
                assert_eq!(g(BinOp::MulHi), Some(((sx as i16 * sy as i16) >> 8) as i8));
                assert_eq!(eval_binary(BinOp::Lt, a, b), Some(Const::bool(sx < sy)));
            }
            let c = eval_cast(u8c(x), Ty::I32).unwrap();
            assert_eq!(c.bits, x as u64);
            let c = eval_cast(i8c(x as i8), Ty::U32).unwrap();
            assert_eq!(c.bits as u32, x as i8 as u32);
            let c = eval_unary(UnOp::Clz, u8c(x), Ty::U32).unwrap();
            assert_eq!(c.bits as u32, x.leading_zeros());
            let c = eval_unary(UnOp::Abs, i8c(x as i8), Ty::I8).unwrap();
            assert_eq!(c.bits as u8 as i8, (x as i8).wrapping_abs());
        }
    }

    #[test]
    fn wide_int_ops() {
        let a = Const::u64(u64::MAX);
        let b = Const::u64(3);
        assert_eq!(
            eval_binary(BinOp::Mul, a, b).unwrap().bits,
            u64::MAX.wrapping_mul(3)
        );
        assert_eq!(
            eval_binary(BinOp::MulHi, a, a).unwrap().bits,
            ((u64::MAX as u128 * u64::MAX as u128) >> 64) as u64
        );
        let m = Const {
            ty: Ty::I64,
            bits: i64::MIN as u64,
        };
        let n1 = Const {
            ty: Ty::I64,
            bits: u64::MAX,
        };
        assert_eq!(eval_binary(BinOp::Div, m, n1), None);
        assert_eq!(eval_binary(BinOp::Rem, m, n1), None);
        assert_eq!(
            eval_binary(BinOp::Shl, Const::u32(1), Const::u32(33))
                .unwrap()
                .bits,
            2
        );
    }

    #[test]
    fn f32_ops_are_f32_precision() {
        let vals = [
            0.1f32,
            -0.0,
            0.0,
            1.0,
            3.0e38,
            1.0e-45,
            f32::NAN,
            f32::INFINITY,
            -2.5,
            16777217.0,
        ];
        for &x in &vals {
            for &y in &vals {
                let f = |op| eval_binary(op, Const::f32(x), Const::f32(y)).unwrap().bits as u32;
                assert_eq!(f(BinOp::Add), (x + y).to_bits());
                assert_eq!(f(BinOp::Mul), (x * y).to_bits());
                assert_eq!(f(BinOp::Div), (x / y).to_bits());
                assert_eq!(f(BinOp::Rem), (x % y).to_bits());
                assert_eq!(
                    eval_binary(BinOp::Ne, Const::f32(x), Const::f32(y)),
                    Some(Const::bool(x != y))
                );
                let r = eval_fma(Const::f32(x), Const::f32(y), Const::f32(0.3))
                    .unwrap()
                    .bits as u32;
                assert_eq!(r, x.mul_add(y, 0.3).to_bits());
            }
            for to in [Ty::I8, Ty::U8, Ty::I32, Ty::U32, Ty::U64, Ty::I64] {
                let c = eval_cast(Const::f32(x), to).unwrap();
                let want = match to {
                    Ty::I8 => x as i8 as i128,
                    Ty::U8 => x as u8 as i128,
                    Ty::I32 => x as i32 as i128,
                    Ty::U32 => x as u32 as i128,
                    Ty::U64 => x as u64 as i128,
                    _ => x as i64 as i128,
                };
                assert_eq!(c, int_const(to, want), "{x} as {to:?}");
            }
        }
        // 0.1 + 0.2 in f32 differs from the f64 sum rounded to f32 for some inputs; this pair
        // must follow f32.
        let r = eval_binary(BinOp::Add, Const::f32(16777216.0), Const::f32(1.0)).unwrap();
        assert_eq!(f32::from_bits(r.bits as u32), 16777216.0);
    }

    #[test]
    fn float_min_max_and_zero_signs() {
        let nan = Const::f32(f32::NAN);
        let one = Const::f32(1.0);
        assert_eq!(eval_binary(BinOp::Min, nan, one), Some(one));
        assert_eq!(eval_binary(BinOp::Max, one, nan), Some(one));
        assert_eq!(
            eval_binary(BinOp::Min, Const::f32(0.0), Const::f32(-0.0)),
            None
        );
        assert_eq!(
            eval_unary(UnOp::Neg, Const::f32(0.0), Ty::F32),
            Some(Const::f32(-0.0))
        );
    }

    #[test]
    fn int_to_float_rounds_once() {
        let big = Const::u64(u64::MAX);
        assert_eq!(eval_cast(big, Ty::F32), Some(Const::f32(u64::MAX as f32)));
        assert_eq!(eval_cast(big, Ty::F16), None);
        let c = eval_cast(Const::i32(-3), Ty::F16).unwrap();
        assert_eq!(c.bits as u16, f16::from_f32(-3.0).to_bits());
        let d = eval_cast(Const::f64(1.0 + f64::EPSILON), Ty::F32).unwrap();
        assert_eq!(d, Const::f32(1.0));
    }
}
