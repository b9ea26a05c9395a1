//! Scalar semantics of IR operations on raw register bits (zero-extended to 64, see `ir::Const`),
//! chosen once per instruction at compile time as plain function pointers.
//!
//! Results match the PTX the emitter produces: integer ops wrap, float ops round to nearest even in
//! their own width, f16/bf16 arithmetic goes through f32 (exact for `+ - * / sqrt`, since f32 has
//! more than twice their precision plus two bits) and conversions that could round twice use
//! round-to-odd intermediates. Float results that are NaN are canonicalised (positive quiet NaN
//! with all payload bits set), as the GPU does.

use half::{bf16, f16};
use kernel_ir::ir::{BinOp, Ty, UnOp};

pub(crate) type BinFn = fn(u64, u64) -> u64;
pub(crate) type UnFn = fn(u64) -> u64;
pub(crate) type FmaFn = fn(u64, u64, u64) -> u64;

const NAN32: u32 = 0x7fff_ffff;
const NAN64: u64 = 0x7fff_ffff_ffff_ffff;
const NAN16: u64 = 0x7fff;

#[inline(always)]
fn g32(x: u64) -> f32 {
    f32::from_bits(x as u32)
}
#[inline(always)]
fn p32(x: f32) -> u64 {
    if x.is_nan() {
        NAN32 as u64
    } else {
        x.to_bits() as u64
    }
}
#[inline(always)]
fn g64(x: u64) -> f64 {
    f64::from_bits(x)
}
#[inline(always)]
fn p64(x: f64) -> u64 {
    if x.is_nan() {
        NAN64
    } else {
        x.to_bits()
    }
}
/// An f64 arithmetic result as the GPU gives it: a NaN operand's payload comes through (quieted,
/// the first NaN operand winning); a NaN made from non-NaN operands is the canonical NaN.
/// (Measured on an H200: `mul.rn.f64` of 0x7ff4000000000123 gives 0x7ffc000000000123.)
#[inline(always)]
fn q64(r: f64, a: u64, b: u64) -> u64 {
    const QUIET: u64 = 1 << 51;
    if !r.is_nan() {
        r.to_bits()
    } else if g64(a).is_nan() {
        a | QUIET
    } else if g64(b).is_nan() {
        b | QUIET
    } else {
        NAN64
    }
}
#[inline(always)]
fn gh(x: u64) -> f32 {
    f16::from_bits(x as u16).to_f32()
}
#[inline(always)]
fn ph(x: f32) -> u64 {
    if x.is_nan() {
        NAN16
    } else {
        f16::from_f32(x).to_bits() as u64
    }
}
#[inline(always)]
fn gb(x: u64) -> f32 {
    bf16::from_bits(x as u16).to_f32()
}
#[inline(always)]
fn pb(x: f32) -> u64 {
    if x.is_nan() {
        NAN16
    } else {
        bf16::from_f32(x).to_bits() as u64
    }
}

/// Rust's (and PTX's) `min`: a NaN operand yields the other one; -0 is below +0.
#[inline(always)]
fn fmin<F: Copy + PartialOrd + FloatBits>(a: F, b: F) -> F {
    if a.nan() {
        b
    } else if b.nan() || a < b || (a == b && a.neg()) {
        a
    } else {
        b
    }
}
#[inline(always)]
fn fmax<F: Copy + PartialOrd + FloatBits>(a: F, b: F) -> F {
    if a.nan() {
        b
    } else if b.nan() || a > b || (a == b && !a.neg()) {
        a
    } else {
        b
    }
}

trait FloatBits {
    fn nan(self) -> bool;
    fn neg(self) -> bool;
}
impl FloatBits for f32 {
    fn nan(self) -> bool {
        self.is_nan()
    }
    fn neg(self) -> bool {
        self.is_sign_negative()
    }
}
impl FloatBits for f64 {
    fn nan(self) -> bool {
        self.is_nan()
    }
    fn neg(self) -> bool {
        self.is_sign_negative()
    }
}

macro_rules! int_bin {
    ($op:expr, $t:ty, $u:ty, $w:ty, $bits:expr) => {{
        #[inline(always)]
        fn v(x: u64) -> $t {
            x as $u as $t
        }
        #[inline(always)]
        fn r(x: $t) -> u64 {
            x as $u as u64
        }
        let f: BinFn = match $op {
            BinOp::Add => |a, b| r(v(a).wrapping_add(v(b))),
            BinOp::Sub => |a, b| r(v(a).wrapping_sub(v(b))),
            BinOp::Mul => |a, b| r(v(a).wrapping_mul(v(b))),
            // Division by zero is unspecified in PTX; the front end checks first. All ones and the
            // dividend keep the host from trapping.
            BinOp::Div => |a, b| {
                if v(b) == 0 {
                    r(!0)
                } else {
                    r(v(a).wrapping_div(v(b)))
                }
            },
            BinOp::Rem => |a, b| {
                if v(b) == 0 {
                    a
                } else {
                    r(v(a).wrapping_rem(v(b)))
                }
            },
            BinOp::And => |a, b| r(v(a) & v(b)),
            BinOp::Or => |a, b| r(v(a) | v(b)),
            BinOp::Xor => |a, b| r(v(a) ^ v(b)),
            BinOp::Shl => |a, b| r(v(a).wrapping_shl(b as u32)),
            BinOp::Shr => |a, b| r(v(a).wrapping_shr(b as u32)),
            BinOp::Min => |a, b| r(v(a).min(v(b))),
            BinOp::Max => |a, b| r(v(a).max(v(b))),
            BinOp::MulHi => |a, b| r(((v(a) as $w * v(b) as $w) >> $bits) as $t),
            BinOp::Eq => |a, b| (v(a) == v(b)) as u64,
            BinOp::Ne => |a, b| (v(a) != v(b)) as u64,
            BinOp::Lt => |a, b| (v(a) < v(b)) as u64,
            BinOp::Le => |a, b| (v(a) <= v(b)) as u64,
            BinOp::Gt => |a, b| (v(a) > v(b)) as u64,
            BinOp::Ge => |a, b| (v(a) >= v(b)) as u64,
            BinOp::AddOverflows => |a, b| v(a).checked_add(v(b)).is_none() as u64,
            BinOp::SubOverflows => |a, b| v(a).checked_sub(v(b)).is_none() as u64,
            BinOp::MulOverflows => |a, b| v(a).checked_mul(v(b)).is_none() as u64,
        };
        Some(f)
    }};
}

macro_rules! float_bin {
    ($op:expr, $g:ident, $p:ident) => {{
        let f: BinFn = match $op {
            BinOp::Add => |a, b| $p($g(a) + $g(b)),
            BinOp::Sub => |a, b| $p($g(a) - $g(b)),
            BinOp::Mul => |a, b| $p($g(a) * $g(b)),
            BinOp::Div => |a, b| $p($g(a) / $g(b)),
            BinOp::Rem => |a, b| $p($g(a) % $g(b)),
            // The chosen operand's bits, unchanged (an H200's `min.f32` of two NaNs returns the
            // first one's payload as is).
            BinOp::Min => |a, b| match ($g(a).is_nan(), $g(b).is_nan()) {
                (true, false) => b,
                (_, true) => a,
                _ => $p(fmin($g(a), $g(b))),
            },
            BinOp::Max => |a, b| match ($g(a).is_nan(), $g(b).is_nan()) {
                (true, false) => b,
                (_, true) => a,
                _ => $p(fmax($g(a), $g(b))),
            },
            BinOp::Eq => |a, b| ($g(a) == $g(b)) as u64,
            BinOp::Ne => |a, b| ($g(a) != $g(b)) as u64,
            BinOp::Lt => |a, b| ($g(a) < $g(b)) as u64,
            BinOp::Le => |a, b| ($g(a) <= $g(b)) as u64,
            BinOp::Gt => |a, b| ($g(a) > $g(b)) as u64,
            BinOp::Ge => |a, b| ($g(a) >= $g(b)) as u64,
            BinOp::And
            | BinOp::Or
            | BinOp::Xor
            | BinOp::Shl
            | BinOp::Shr
            | BinOp::MulHi
            | BinOp::AddOverflows
            | BinOp::SubOverflows
            | BinOp::MulOverflows => return None,
        };
        Some(f)
    }};
}

/// The function computing `op` on operands of type `ty`, or `None` if the IR is ill-typed.
pub(crate) fn bin_fn(op: BinOp, ty: Ty) -> Option<BinFn> {
    match ty {
        Ty::I8 => int_bin!(op, i8, u8, i16, 8),
        Ty::I16 => int_bin!(op, i16, u16, i32, 16),
        Ty::I32 => int_bin!(op, i32, u32, i64, 32),
        Ty::I64 => int_bin!(op, i64, u64, i128, 64),
        Ty::U8 => int_bin!(op, u8, u8, u16, 8),
        Ty::U16 => int_bin!(op, u16, u16, u32, 16),
        Ty::U32 => int_bin!(op, u32, u32, u64, 32),
        Ty::U64 => int_bin!(op, u64, u64, u128, 64),
        Ty::Bool => match op {
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem | BinOp::Shl => None,
            BinOp::Shr | BinOp::MulHi => None,
            op if op.is_overflow_test() => None,
            _ => int_bin!(op, u8, u8, u16, 8),
        },
        Ty::F32 => float_bin!(op, g32, p32),
        Ty::F64 => match op {
            BinOp::Add => Some(|a, b| q64(g64(a) + g64(b), a, b)),
            BinOp::Sub => Some(|a, b| q64(g64(a) - g64(b), a, b)),
            BinOp::Mul => Some(|a, b| q64(g64(a) * g64(b), a, b)),
            BinOp::Div => Some(|a, b| q64(g64(a) / g64(b), a, b)),
            BinOp::Rem => Some(|a, b| q64(g64(a) % g64(b), a, b)),
            _ => float_bin!(op, g64, p64),
        },
        Ty::F16 => float_bin!(op, gh, ph),
        Ty::BF16 => float_bin!(op, gb, pb),
    }
}

macro_rules! int_un {
    ($op:expr, $t:ty, $u:ty, $abs:ident) => {{
        #[inline(always)]
        fn v(x: u64) -> $t {
            x as $u as $t
        }
        #[inline(always)]
        fn r(x: $t) -> u64 {
            x as $u as u64
        }
        let f: UnFn = match $op {
            UnOp::Neg => |a| r(v(a).wrapping_neg()),
            UnOp::Not => |a| r(!v(a)),
            UnOp::Abs => |a| r($abs(v(a))),
            UnOp::Popc => |a| (a as $u).count_ones() as u64,
            UnOp::Clz => |a| (a as $u).leading_zeros() as u64,
            UnOp::Sqrt | UnOp::Floor | UnOp::Ceil | UnOp::Trunc | UnOp::Round => return None,
        };
        Some(f)
    }};
}

macro_rules! float_un {
    ($op:expr, $g:ident, $p:ident, $sign:expr) => {{
        let f: UnFn = match $op {
            // Sign-bit operations, exact even on NaN (`neg.f32` / `abs.f32`).
            UnOp::Neg => |a| a ^ $sign,
            UnOp::Abs => |a| a & !$sign,
            UnOp::Sqrt => |a| $p($g(a).sqrt()),
            UnOp::Floor => |a| $p($g(a).floor()),
            UnOp::Ceil => |a| $p($g(a).ceil()),
            UnOp::Trunc => |a| $p($g(a).trunc()),
            UnOp::Round => |a| $p($g(a).round()),
            UnOp::Not | UnOp::Popc | UnOp::Clz => return None,
        };
        Some(f)
    }};
}

trait Abs {
    fn wabs(self) -> Self;
}
macro_rules! abs_impl {
    ($($t:ty: $e:expr),*) => {$(impl Abs for $t { #[inline(always)] fn wabs(self) -> Self { let f: fn($t) -> $t = $e; f(self) } })*};
}
abs_impl!(i8: i8::wrapping_abs, i16: i16::wrapping_abs, i32: i32::wrapping_abs, i64: i64::wrapping_abs,
    u8: |x| x, u16: |x| x, u32: |x| x, u64: |x| x);
#[inline(always)]
fn wrapping_abs<T: Abs>(x: T) -> T {
    x.wabs()
}
#[inline(always)]
fn identity<T>(x: T) -> T {
    x
}

/// `src` is the operand type (Popc/Clz write a U32 whatever the operand).
pub(crate) fn un_fn(op: UnOp, src: Ty) -> Option<UnFn> {
    match src {
        Ty::Bool => match op {
            UnOp::Not => Some(|a| a ^ 1),
            _ => None,
        },
        Ty::I8 => int_un!(op, i8, u8, wrapping_abs),
        Ty::I16 => int_un!(op, i16, u16, wrapping_abs),
        Ty::I32 => int_un!(op, i32, u32, wrapping_abs),
        Ty::I64 => int_un!(op, i64, u64, wrapping_abs),
        Ty::U8 => int_un!(op, u8, u8, identity),
        Ty::U16 => int_un!(op, u16, u16, identity),
        Ty::U32 => int_un!(op, u32, u32, identity),
        Ty::U64 => int_un!(op, u64, u64, identity),
        Ty::F32 => float_un!(op, g32, p32, 1u64 << 31),
        Ty::F64 => float_un!(op, g64, p64, 1u64 << 63),
        Ty::F16 => float_un!(op, gh, ph, 1u64 << 15),
        Ty::BF16 => float_un!(op, gb, pb, 1u64 << 15),
    }
}

pub(crate) fn fma_fn(ty: Ty) -> Option<FmaFn> {
    match ty {
        Ty::F32 => Some(|a, b, c| p32(g32(a).mul_add(g32(b), g32(c)))),
        Ty::F64 => Some(|a, b, c| {
            let r = g64(a).mul_add(g64(b), g64(c));
            if r.is_nan() && !g64(a).is_nan() && !g64(b).is_nan() && g64(c).is_nan() {
                q64(r, c, c)
            } else {
                q64(r, a, b)
            }
        }),
        Ty::F16 => Some(|a, b, c| {
            let r = fma_narrow(gh(a), gh(b), gh(c));
            if r.is_nan() {
                NAN16
            } else {
                f64_to_f16(r)
            }
        }),
        Ty::BF16 => Some(|a, b, c| {
            let r = fma_narrow(gb(a), gb(b), gb(c));
            if r.is_nan() {
                NAN16
            } else {
                f64_to_bf16(r)
            }
        }),
        _ => None,
    }
}

/// `a * b + c` for 16-bit floats (given exactly as f32), rounded to odd in f64: the product is
/// exact in f64, and the sum's rounding error (two-sum) decides the sticky bit, so the final
/// rounding to 16 bits happens once.
fn fma_narrow(a: f32, b: f32, c: f32) -> f64 {
    let p = a as f64 * b as f64;
    let c = c as f64;
    let s = p + c;
    if !s.is_finite() {
        return s;
    }
    let bb = s - p;
    let err = (p - (s - bb)) + (c - bb);
    odd_adjust(s, err)
}

/// Turns the round-to-nearest `s` of a value `s + err` into its round-to-odd.
fn odd_adjust(s: f64, err: f64) -> f64 {
    if err == 0.0 || s.to_bits() & 1 == 1 {
        return s;
    }
    // Step one ulp towards the exact value: the result then has an odd significand.
    let bits = s.to_bits();
    let towards_zero = (err < 0.0) != s.is_sign_negative();
    if s == 0.0 {
        return f64::from_bits(1) * err.signum();
    }
    f64::from_bits(if towards_zero { bits - 1 } else { bits + 1 })
}

/// f64 -> f32 rounded to odd (an exact intermediate for a later rounding to 16 bits).
fn f64_to_f32_odd(x: f64) -> f32 {
    let r = x as f32;
    if !x.is_finite() || r as f64 == x {
        return r;
    }
    // Truncate towards zero, then set the sticky bit.
    let mut bits = r.to_bits();
    if (r as f64).abs() > x.abs() {
        bits -= 1;
    }
    f32::from_bits(bits | 1)
}

pub(crate) fn f64_to_f16(x: f64) -> u64 {
    if x.is_nan() {
        // cvt.rn.f16.f64 keeps the top payload bits, quieted (an H200 turns the f64 NaN
        // 0x7ff4000000000123 into 0x7f00), unlike the f32 -> f16 conversion.
        let b = x.to_bits();
        return ((b >> 48) & 0x8000) | 0x7e00 | ((b >> 42) & 0x3ff);
    }
    f16::from_f32(f64_to_f32_odd(x)).to_bits() as u64
}
pub(crate) fn f64_to_bf16(x: f64) -> u64 {
    if x.is_nan() {
        return NAN16;
    }
    bf16::from_f32(f64_to_f32_odd(x)).to_bits() as u64
}

/// An integer rounded to odd in f32 (exact when it has at most 24 significant bits).
fn int_to_f32_odd(v: i128) -> f32 {
    let mag = v.unsigned_abs();
    let sig = 128 - mag.leading_zeros();
    let f = if sig <= 24 {
        mag as f32
    } else {
        let shift = sig - 24;
        let kept = (mag >> shift) as u32 | ((mag & ((1u128 << shift) - 1)) != 0) as u32;
        kept as f32 * 2f32.powi(shift as i32)
    };
    if v < 0 {
        -f
    } else {
        f
    }
}

/// Reads an integer register as its mathematical value.
#[inline(always)]
pub(crate) fn int_value(ty: Ty, x: u64) -> i128 {
    match ty {
        Ty::I8 => x as u8 as i8 as i128,
        Ty::I16 => x as u16 as i16 as i128,
        Ty::I32 => x as u32 as i32 as i128,
        Ty::I64 => x as i64 as i128,
        _ => x as i128,
    }
}

/// Bits of an integer value truncated to `ty`.
#[inline(always)]
pub(crate) fn int_bits(ty: Ty, v: i128) -> u64 {
    let x = v as u64;
    if ty.bits() == 64 {
        x
    } else {
        x & ((1u64 << ty.bits()) - 1)
    }
}

/// Float register bits as an exact f64 (every narrower format embeds exactly).
fn float_value(ty: Ty, x: u64) -> f64 {
    match ty {
        Ty::F32 => g32(x) as f64,
        Ty::F64 => g64(x),
        Ty::F16 => gh(x) as f64,
        _ => gb(x) as f64,
    }
}

/// Rust `as` between any two scalar types. `None` when Rust has no such cast (to bool).
pub(crate) fn cast(from: Ty, to: Ty, x: u64) -> Option<u64> {
    if from == to {
        return Some(x);
    }
    // NaN payloads: cvt between f32 and f64 keeps them (quieted), measured on an H200, as the
    // host's `as` does; bf16 -> f32 is an exact shift in our PTX.
    match (from, to) {
        (Ty::F32, Ty::F64) => return Some((g32(x) as f64).to_bits()),
        (Ty::F64, Ty::F32) => return Some((g64(x) as f32).to_bits() as u64),
        (Ty::BF16, Ty::F32) => return Some((x & 0xffff) << 16),
        // f32 -> f16 makes NaNs canonical (only f64 -> f16 keeps a payload).
        (Ty::F32, Ty::F16) if g32(x).is_nan() => return Some(NAN16),
        // cvt.f64.f16 keeps the payload, quieted (measured on an H200).
        (Ty::F16, Ty::F64) if gh(x).is_nan() => {
            let h = x & 0xffff;
            return Some(((h & 0x8000) << 48) | 0x7ff8_0000_0000_0000 | ((h & 0x3ff) << 42));
        }
        _ => {}
    }
    Some(if from.is_float() {
        let f = float_value(from, x);
        match to {
            Ty::F32 => p32(f as f32),
            Ty::F64 => p64(f),
            Ty::F16 => f64_to_f16(f),
            Ty::BF16 => f64_to_bf16(f),
            Ty::Bool => return None,
            // Saturating, NaN -> 0: exactly Rust's float-to-int `as`.
            Ty::I8 => f as i8 as u8 as u64,
            Ty::I16 => f as i16 as u16 as u64,
            Ty::I32 => f as i32 as u32 as u64,
            Ty::I64 => f as i64 as u64,
            Ty::U8 => f as u8 as u64,
            Ty::U16 => f as u16 as u64,
            Ty::U32 => f as u32 as u64,
            Ty::U64 => f as u64,
        }
    } else {
        let v = int_value(from, x);
        match to {
            Ty::F32 => p32(v as f32),
            Ty::F64 => p64(v as f64),
            Ty::F16 => f16::from_f32(int_to_f32_odd(v)).to_bits() as u64,
            Ty::BF16 => bf16::from_f32(int_to_f32_odd(v)).to_bits() as u64,
            Ty::Bool => return None,
            t => int_bits(t, v),
        }
    })
}

/// Canonical bits of a value loaded from memory or a parameter (bool is any nonzero byte).
#[inline(always)]
pub(crate) fn from_bytes(ty: Ty, bytes: &[u8]) -> u64 {
    let mut b = [0u8; 8];
    b[..bytes.len()].copy_from_slice(bytes);
    let x = u64::from_le_bytes(b);
    if ty == Ty::Bool {
        (x != 0) as u64
    } else {
        x
    }
}
