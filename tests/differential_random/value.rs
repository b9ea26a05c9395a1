//! Values of the host reference: one variant per scalar type, computed with Rust's own operators
//! on the matching Rust type (so `V::I8` arithmetic is `i8` arithmetic).

use ferrocuda::kernel_ir::ast::{FloatTy, IntTy, Type};
use half::{bf16, f16};

use crate::syntax::Sc;

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum V {
    Unit,
    /// A shared-memory slot nobody wrote yet (reading one is a generator bug).
    Uninit,
    Bool(bool),
    I8(i8),
    I16(i16),
    I32(i32),
    I64(i64),
    Isize(isize),
    U8(u8),
    U16(u16),
    U32(u32),
    U64(u64),
    Usize(usize),
    F16(f16),
    BF16(bf16),
    F32(f32),
    F64(f64),
    Dim3([u32; 3]),
}

/// A number in a form every `as` cast can start from.
enum Num {
    Int(i128),
    F32(f32),
    F64(f64),
    Bool(bool),
}

impl V {
    fn num(self) -> Num {
        match self {
            V::Bool(b) => Num::Bool(b),
            V::I8(x) => Num::Int(x as i128),
            V::I16(x) => Num::Int(x as i128),
            V::I32(x) => Num::Int(x as i128),
            V::I64(x) => Num::Int(x as i128),
            V::Isize(x) => Num::Int(x as i128),
            V::U8(x) => Num::Int(x as i128),
            V::U16(x) => Num::Int(x as i128),
            V::U32(x) => Num::Int(x as i128),
            V::U64(x) => Num::Int(x as i128),
            V::Usize(x) => Num::Int(x as i128),
            V::F32(x) => Num::F32(x),
            V::F64(x) => Num::F64(x),
            other => panic!("`as` cast of {other:?}"),
        }
    }

    /// The integer value, for indices, trip counts and patterns.
    pub fn as_i128(self) -> i128 {
        match self.num() {
            Num::Int(v) => v,
            _ => panic!("{self:?} is not an integer"),
        }
    }

    pub fn as_bool(self) -> bool {
        match self {
            V::Bool(b) => b,
            other => panic!("{other:?} is not a bool"),
        }
    }

    /// `self as T` with Rust's semantics (wrapping between integers, saturating float to
    /// integer with NaN -> 0, round to nearest even into floats).
    pub fn cast(self, to: Sc) -> V {
        macro_rules! to_int {
            ($t:ty, $c:ident) => {
                V::$c(match self.num() {
                    Num::Int(v) => v as $t,
                    Num::F32(v) => v as $t,
                    Num::F64(v) => v as $t,
                    Num::Bool(b) => b as $t,
                })
            };
        }
        match to {
            Sc::Bool => panic!("no `as bool` in Rust"),
            Sc::I(IntTy::I8) => to_int!(i8, I8),
            Sc::I(IntTy::I16) => to_int!(i16, I16),
            Sc::I(IntTy::I32) => to_int!(i32, I32),
            Sc::I(IntTy::I64) => to_int!(i64, I64),
            Sc::I(IntTy::Isize) => to_int!(isize, Isize),
            Sc::I(IntTy::U8) => to_int!(u8, U8),
            Sc::I(IntTy::U16) => to_int!(u16, U16),
            Sc::I(IntTy::U32) => to_int!(u32, U32),
            Sc::I(IntTy::U64) => to_int!(u64, U64),
            Sc::I(IntTy::Usize) => to_int!(usize, Usize),
            Sc::F(FloatTy::F32) => V::F32(match self.num() {
                Num::Int(v) => v as f32,
                Num::F32(v) => v,
                Num::F64(v) => v as f32,
                Num::Bool(_) => panic!("no `bool as f32` in Rust"),
            }),
            Sc::F(FloatTy::F64) => V::F64(match self.num() {
                Num::Int(v) => v as f64,
                Num::F32(v) => v as f64,
                Num::F64(v) => v,
                Num::Bool(_) => panic!("no `bool as f64` in Rust"),
            }),
            Sc::F(_) => panic!("no `as` into f16/bf16 in Rust"),
        }
    }

    /// An integer of type `t` from its value (wrapping).
    pub fn int(v: i128, t: IntTy) -> V {
        V::I64(0).with_int(v, t)
    }

    fn with_int(self, v: i128, t: IntTy) -> V {
        match t {
            IntTy::I8 => V::I8(v as i8),
            IntTy::I16 => V::I16(v as i16),
            IntTy::I32 => V::I32(v as i32),
            IntTy::I64 => V::I64(v as i64),
            IntTy::Isize => V::Isize(v as isize),
            IntTy::U8 => V::U8(v as u8),
            IntTy::U16 => V::U16(v as u16),
            IntTy::U32 => V::U32(v as u32),
            IntTy::U64 => V::U64(v as u64),
            IntTy::Usize => V::Usize(v as usize),
        }
    }

    /// A float of type `t` from an f64 literal value (rounded once).
    pub fn float(v: f64, t: FloatTy) -> V {
        match t {
            FloatTy::F16 => V::F16(f16_from_f64(v)),
            FloatTy::BF16 => V::BF16(bf16_from_f64(v)),
            FloatTy::F32 => V::F32(v as f32),
            FloatTy::F64 => V::F64(v),
        }
    }

    /// Little-endian bytes, as the kernel's slices hold them.
    pub fn to_le(self, out: &mut Vec<u8>) {
        match self {
            V::Bool(b) => out.push(b as u8),
            V::I8(x) => out.extend_from_slice(&x.to_le_bytes()),
            V::I16(x) => out.extend_from_slice(&x.to_le_bytes()),
            V::I32(x) => out.extend_from_slice(&x.to_le_bytes()),
            V::I64(x) => out.extend_from_slice(&x.to_le_bytes()),
            V::Isize(x) => out.extend_from_slice(&(x as i64).to_le_bytes()),
            V::U8(x) => out.extend_from_slice(&x.to_le_bytes()),
            V::U16(x) => out.extend_from_slice(&x.to_le_bytes()),
            V::U32(x) => out.extend_from_slice(&x.to_le_bytes()),
            V::U64(x) => out.extend_from_slice(&x.to_le_bytes()),
            V::Usize(x) => out.extend_from_slice(&(x as u64).to_le_bytes()),
            V::F16(x) => out.extend_from_slice(&x.to_le_bytes()),
            V::BF16(x) => out.extend_from_slice(&x.to_le_bytes()),
            V::F32(x) => out.extend_from_slice(&x.to_le_bytes()),
            V::F64(x) => out.extend_from_slice(&x.to_le_bytes()),
            other => panic!("{other:?} has no bytes"),
        }
    }

    /// Reads one element of type `t` from little-endian bytes.
    pub fn from_le(t: Sc, b: &[u8]) -> V {
        let a = |n: usize| -> [u8; 8] {
            let mut x = [0u8; 8];
            x[..n].copy_from_slice(&b[..n]);
            x
        };
        match t {
            Sc::Bool => V::Bool(b[0] != 0),
            Sc::I(it) => {
                let n = (crate::syntax::bits(it) / 8) as usize;
                let raw = u64::from_le_bytes(a(n)) as i128;
                V::int(raw, it)
            }
            Sc::F(FloatTy::F16) => V::F16(f16::from_le_bytes([b[0], b[1]])),
            Sc::F(FloatTy::BF16) => V::BF16(bf16::from_le_bytes([b[0], b[1]])),
            Sc::F(FloatTy::F32) => V::F32(f32::from_le_bytes([b[0], b[1], b[2], b[3]])),
            Sc::F(FloatTy::F64) => V::F64(f64::from_le_bytes(a(8))),
        }
    }

    pub fn sc(self) -> Sc {
        match self {
            V::Bool(_) => Sc::Bool,
            V::I8(_) => Sc::I(IntTy::I8),
            V::I16(_) => Sc::I(IntTy::I16),
            V::I32(_) => Sc::I(IntTy::I32),
            V::I64(_) => Sc::I(IntTy::I64),
            V::Isize(_) => Sc::I(IntTy::Isize),
            V::U8(_) => Sc::I(IntTy::U8),
            V::U16(_) => Sc::I(IntTy::U16),
            V::U32(_) => Sc::I(IntTy::U32),
            V::U64(_) => Sc::I(IntTy::U64),
            V::Usize(_) => Sc::I(IntTy::Usize),
            V::F16(_) => Sc::F(FloatTy::F16),
            V::BF16(_) => Sc::F(FloatTy::BF16),
            V::F32(_) => Sc::F(FloatTy::F32),
            V::F64(_) => Sc::F(FloatTy::F64),
            other => panic!("{other:?} is not a scalar"),
        }
    }
}

/// The scalar type named by an AST type.
pub fn sc_of(t: &Type) -> Sc {
    match t {
        Type::Bool => Sc::Bool,
        Type::Int(i) => Sc::I(*i),
        Type::Float(f) => Sc::F(*f),
        other => panic!("{other:?} is not a scalar type"),
    }
}

/// IEEE 754-2019 `minimumNumber`-like `min`: a NaN operand yields the other, `-0 < +0`. Rust
/// leaves the zero case unspecified; this is the choice PTX's `min` makes.
pub fn fmin<T: num_like::Float>(a: T, b: T) -> T {
    if a.nan() {
        b
    } else if b.nan() || a.lt(b) || (a.eq(b) && a.neg()) {
        a
    } else {
        b
    }
}

/// `max` counterpart of [`fmin`] (`+0 > -0`).
pub fn fmax<T: num_like::Float>(a: T, b: T) -> T {
    if a.nan() {
        b
    } else if b.nan() || b.lt(a) || (a.eq(b) && !a.neg()) {
        a
    } else {
        b
    }
}

pub mod num_like {
    pub trait Float: Copy {
        fn nan(self) -> bool;
        fn neg(self) -> bool;
        fn lt(self, o: Self) -> bool;
        fn eq(self, o: Self) -> bool;
    }
    macro_rules! imp {
        ($($t:ty),*) => {$(
            impl Float for $t {
                fn nan(self) -> bool { self.is_nan() }
                fn neg(self) -> bool { self.is_sign_negative() }
                fn lt(self, o: Self) -> bool { self < o }
                fn eq(self, o: Self) -> bool { self == o }
            }
        )*};
    }
    imp!(f32, f64);
}

/// `f16::from_f64` as the device computes it: rounded once, to nearest even. The `half` crate's
/// host version can round twice (through f32 on x86 with F16C), one ulp off on rare ties
/// (docs/simulator.md), so the reference does not use it.
pub fn f16_from_f64(x: f64) -> f16 {
    f16::from_f32(sticky_f32(x))
}

/// `bf16::from_f64` rounded once (`half`'s looks at the f64's upper 32 bits only).
pub fn bf16_from_f64(x: f64) -> bf16 {
    bf16::from_f32(sticky_f32(x))
}

/// `x` in f32 with everything f32 drops kept as a sticky last bit (round to odd): rounding that
/// to 16 bits rounds `x` once.
fn sticky_f32(x: f64) -> f32 {
    let t = x as f32;
    if !x.is_finite() || f64::from(t) == x {
        return t;
    }
    let toward_zero = if f64::from(t).abs() > x.abs() {
        f32::from_bits(t.to_bits() - 1)
    } else {
        t
    };
    f32::from_bits(toward_zero.to_bits() | 1)
}
