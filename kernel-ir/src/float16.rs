//! Rounding an f64 to the IR's 16-bit float types: once, to nearest even, as PTX's
//! `cvt.rn.f16.f64` and the emitter's f64 -> bf16 sequence do. The compiler's constant folding,
//! the simulator and the intrinsics' simulator semantics all round through here, so a conversion
//! gives the same bits whether it is folded or run.
//!
//! `half`'s own `from_f64` is not used: it can round twice (through f32 for f16 on x86 with F16C;
//! for bf16 from the f64's upper 32 bits only, so `285 + 2^-30` becomes 284 instead of 286).

/// f64 -> f32 rounded to odd: exact enough for one later rounding to any format of at most 22
/// significand bits (f16, bf16).
pub fn f64_to_f32_odd(x: f64) -> f32 {
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

/// The f16 bits of `x`, rounded once. A NaN keeps its sign and top payload bits, quieted (what
/// `cvt.rn.f16.f64` does: an H200 turns the f64 NaN 0x7ff4000000000123 into 0x7f00).
pub fn f16_from_f64(x: f64) -> u16 {
    if x.is_nan() {
        let b = x.to_bits();
        return (((b >> 48) & 0x8000) | 0x7e00 | ((b >> 42) & 0x3ff)) as u16;
    }
    half::f16::from_f32(f64_to_f32_odd(x)).to_bits()
}

/// The bf16 bits of `x`, rounded once. A NaN becomes the canonical `0x7fff`.
pub fn bf16_from_f64(x: f64) -> u16 {
    if x.is_nan() {
        return 0x7fff;
    }
    half::bf16::from_f32(f64_to_f32_odd(x)).to_bits()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Exactly halfway between two bf16 values in the f64's upper 32 bits, above it in the lower.
    #[test]
    fn bf16_sees_every_bit_of_the_f64() {
        let x = 285.0 + 2f64.powi(-30);
        assert_eq!(half::bf16::from_bits(bf16_from_f64(x)).to_f32(), 286.0);
        assert_eq!(half::bf16::from_bits(bf16_from_f64(-x)).to_f32(), -286.0);
        assert_eq!(half::bf16::from_bits(bf16_from_f64(285.0)).to_f32(), 284.0);
        assert_eq!(bf16_from_f64(f64::NAN), 0x7fff);
    }

    /// Just below a tie in f64, but on the tie once rounded to f32: rounds down, not to even.
    #[test]
    fn f16_does_not_round_through_f32() {
        let y = 1.0 + 3.0 * 2f64.powi(-11) - 2f64.powi(-40);
        assert_eq!(
            half::f16::from_bits(f16_from_f64(y)).to_f32(),
            1.0 + 2f32.powi(-10)
        );
        assert_eq!(f16_from_f64(f64::INFINITY), 0x7c00);
        assert_eq!(f16_from_f64(1e6), 0x7c00);
        assert_eq!(f16_from_f64(-0.0), 0x8000);
    }
}
