//! How IR types map onto PTX register classes, instruction type suffixes and immediates.
//!
//! 8- and 16-bit integers live in 32-bit registers kept *normalized*: sign-extended for `i8` and
//! `i16`, zero-extended for `u8` and `u16`, as nvcc promotes C's narrow integers. With that
//! invariant 32-bit compares, divisions, right shifts and widening conversions give the narrow
//! answer directly; only operations that can carry out of the narrow width re-normalize (see
//! `ops::normalize`). PTX's own 16-bit integer instructions are not used: the JIT of CUDA 13.0
//! (driver 580) drops the sign extension of a `neg.s16` result feeding a widening use.

use kernel_ir::ir::{Const, Ty};

/// A PTX register class; one `.reg` declaration each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RegClass {
    Pred,
    /// f16 and bf16 bits.
    Half,
    B32,
    B64,
    F32,
    F64,
}

impl RegClass {
    pub const ALL: [RegClass; 6] = [
        RegClass::Pred,
        RegClass::Half,
        RegClass::B32,
        RegClass::B64,
        RegClass::F32,
        RegClass::F64,
    ];

    pub fn of(ty: Ty) -> RegClass {
        match ty {
            Ty::Bool => RegClass::Pred,
            Ty::F16 | Ty::BF16 => RegClass::Half,
            Ty::I8 | Ty::U8 | Ty::I16 | Ty::U16 | Ty::I32 | Ty::U32 => RegClass::B32,
            Ty::I64 | Ty::U64 => RegClass::B64,
            Ty::F32 => RegClass::F32,
            Ty::F64 => RegClass::F64,
        }
    }

    /// Position in `ALL`.
    pub fn index(self) -> usize {
        self as usize
    }

    pub fn prefix(self) -> &'static str {
        match self {
            RegClass::Pred => "%p",
            RegClass::Half => "%h",
            RegClass::B32 => "%r",
            RegClass::B64 => "%rd",
            RegClass::F32 => "%f",
            RegClass::F64 => "%fd",
        }
    }

    /// The type used in the `.reg` declaration.
    pub fn decl(self) -> &'static str {
        match self {
            RegClass::Pred => ".pred",
            RegClass::Half => ".b16",
            RegClass::B32 => ".b32",
            RegClass::B64 => ".b64",
            RegClass::F32 => ".f32",
            RegClass::F64 => ".f64",
        }
    }
}

/// Width in bits of the register that holds `ty` (8- and 16-bit integers use 32-bit registers).
pub fn reg_bits(ty: Ty) -> u32 {
    match ty {
        Ty::Bool => 1,
        Ty::I8 | Ty::U8 | Ty::I16 | Ty::U16 => 32,
        t => t.bits(),
    }
}

/// Integer arithmetic suffix (`s32`, `u16`...) for the register holding `ty`.
pub fn int_suffix(ty: Ty) -> &'static str {
    match (reg_bits(ty), ty.is_signed()) {
        (16, true) => "s16",
        (16, false) => "u16",
        (32, true) => "s32",
        (32, false) => "u32",
        (64, true) => "s64",
        _ => "u64",
    }
}

/// Unsigned suffix of the same register width.
pub fn uint_suffix(ty: Ty) -> &'static str {
    match reg_bits(ty) {
        16 => "u16",
        32 => "u32",
        _ => "u64",
    }
}

/// Untyped bits suffix for moves, selects and bitwise ops.
pub fn bits_suffix(ty: Ty) -> &'static str {
    match ty {
        Ty::Bool => "pred",
        Ty::F32 => "f32",
        Ty::F64 => "f64",
        t => match reg_bits(t) {
            16 => "b16",
            32 => "b32",
            _ => "b64",
        },
    }
}

/// Type of a memory access (`ld`/`st`/`ld.param`) of `ty`; bool is one byte.
pub fn mem_suffix(ty: Ty) -> &'static str {
    match ty {
        Ty::Bool | Ty::U8 => "u8",
        Ty::I8 => "s8",
        Ty::I16 => "s16",
        Ty::U16 => "u16",
        Ty::I32 => "s32",
        Ty::U32 => "u32",
        Ty::I64 => "s64",
        Ty::U64 => "u64",
        Ty::F16 | Ty::BF16 => "b16",
        Ty::F32 => "f32",
        Ty::F64 => "f64",
    }
}

/// Float suffix for f32/f64.
pub fn float_suffix(ty: Ty) -> &'static str {
    if ty == Ty::F64 {
        "f64"
    } else {
        "f32"
    }
}

/// Appends the immediate for `mov.<bits_suffix>` of a constant, normalized as its register
/// holds it.
pub fn push_immediate(out: &mut String, c: Const) {
    // `0x`/`0f`/`0d` and the bits in upper-case hex, zero-padded to the type's width: built by
    // hand, as every constant operand of every instruction goes through here.
    let (prefix, bits, width) = match c.ty {
        Ty::Bool => {
            out.push(if c.bits != 0 { '1' } else { '0' });
            return;
        }
        Ty::I8 => (b'x', c.bits as u8 as i8 as i32 as u32 as u64, 8),
        Ty::U8 => (b'x', c.bits as u8 as u64, 8),
        Ty::I16 => (b'x', c.bits as u16 as i16 as i32 as u32 as u64, 8),
        Ty::U16 => (b'x', c.bits as u16 as u64, 8),
        Ty::F16 | Ty::BF16 => (b'x', c.bits as u16 as u64, 4),
        Ty::I32 | Ty::U32 => (b'x', c.bits as u32 as u64, 8),
        Ty::I64 | Ty::U64 => (b'x', c.bits, 16),
        Ty::F32 => (b'f', c.bits as u32 as u64, 8),
        Ty::F64 => (b'd', c.bits, 16),
    };
    out.reserve(2 + width);
    out.push('0');
    out.push(char::from(prefix));
    for i in (0..width).rev() {
        let nibble = (bits >> (4 * i)) & 0xF;
        // The mask tells the compiler the digit is one byte of UTF-8.
        out.push(char::from(b"0123456789ABCDEF"[nibble as usize] & 0x7F));
    }
}

/// Turns a user or compiler name into a PTX identifier (letters, digits, `_`).
pub fn sanitize(name: &str) -> String {
    let s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.is_empty() {
        "_".into()
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn immediate(c: Const) -> String {
        let mut s = String::from("");
        push_immediate(&mut s, c);
        s
    }

    #[test]
    fn immediates_are_normalized() {
        assert_eq!(
            immediate(Const {
                ty: Ty::I8,
                bits: 0xFF
            }),
            "0xFFFFFFFF"
        );
        assert_eq!(
            immediate(Const {
                ty: Ty::U8,
                bits: 0xFF
            }),
            "0x000000FF"
        );
        assert_eq!(immediate(Const::f32(1.0)), "0f3F800000");
        assert_eq!(immediate(Const::i32(-1)), "0xFFFFFFFF");
        assert_eq!(sanitize("a::b<3>"), "a__b_3_");
    }

    #[test]
    fn immediates_are_zero_padded_hex_of_each_width() {
        let cases = [
            (Ty::Bool, 1, "1"),
            (Ty::Bool, 0, "0"),
            (Ty::I8, 0x80, "0xFFFFFF80"),
            (Ty::I16, 0x8000, "0xFFFF8000"),
            (Ty::U16, 0xBEEF, "0x0000BEEF"),
            (Ty::F16, 0x3C00, "0x3C00"),
            (Ty::BF16, 0x7, "0x0007"),
            (Ty::U32, 0xA, "0x0000000A"),
            (Ty::I64, u64::MAX, "0xFFFFFFFFFFFFFFFF"),
            (Ty::U64, 0x1234_5678_9ABC, "0x0000123456789ABC"),
            (Ty::F32, 0x7FC0_0000, "0f7FC00000"),
            (Ty::F64, 1.5f64.to_bits(), "0d3FF8000000000000"),
        ];
        for (ty, bits, want) in cases {
            assert_eq!(immediate(Const { ty, bits }), want, "{ty:?} {bits:#x}");
        }
    }
}
