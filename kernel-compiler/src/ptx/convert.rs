//! Rust `as` casts and bit casts.
//!
//! Float -> int saturates and maps NaN to 0 explicitly (a `setp.nan` + `selp`), because PTX only
//! guarantees NaN -> 0 for some source/destination pairs. 8- and 16-bit destinations go through a
//! 32-bit saturating conversion and a clamp, which leaves them normalized in their 32-bit register.
//!
//! bf16 needs sm_80 for `cvt.rn.bf16.f32` and sm_90 for conversions from f64 and integers; on
//! older targets the same rounding is done in software. Conversions from wider sources first round
//! to f32 *to odd* (truncate, then set the lowest bit if anything was lost), which makes the final
//! rounding to bf16 exact (f32 has more than 8 + 2 bits).

use super::emit::{Emitter, Res};
use super::regs::Reg;
use super::types::{bits_suffix, float_suffix, int_suffix, reg_bits};
use kernel_ir::ir::{Operand, Ty, Var};

/// A register width (32 or 64) as text.
fn width(bits: u32) -> &'static str {
    if bits == 32 {
        "32"
    } else {
        "64"
    }
}

impl Emitter<'_> {
    /// Widens an f16/bf16 register to a fresh f32 register (exact).
    pub fn half_to_f32(&mut self, ty: Ty, h: Reg) -> Reg {
        let f = self.tmp(Ty::F32);
        if ty == Ty::F16 {
            self.line(format_args!("cvt.f32.f16 {f}, {h}"));
        } else {
            let r = self.tmp(Ty::U32);
            self.line(format_args!("cvt.u32.u16 {r}, {h}"));
            self.line(format_args!("shl.b32 {r}, {r}, 16"));
            self.line(format_args!("mov.b32 {f}, {r}"));
        }
        f
    }

    /// Rounds an f32 register to f16/bf16 (to nearest even) into `d`.
    pub fn f32_to_half(&mut self, ty: Ty, f: Reg, d: Reg) -> Res {
        if ty == Ty::F16 {
            self.line(format_args!("cvt.rn.f16.f32 {d}, {f}"));
        } else if self.sm >= 80 {
            self.line(format_args!("cvt.rn.bf16.f32 {d}, {f}"));
        } else {
            self.f32_to_bf16_soft(f, d);
        }
        Ok(())
    }

    /// Round-to-nearest-even from f32 to bf16 with integer ops (NaN stays a quiet NaN).
    fn f32_to_bf16_soft(&mut self, f: Reg, d: Reg) {
        let r = self.tmp(Ty::U32);
        let t = self.tmp(Ty::U32);
        let n = self.tmp(Ty::U32);
        let p = self.tmp(Ty::Bool);
        self.line(format_args!("mov.b32 {r}, {f}"));
        self.line(format_args!("shr.u32 {t}, {r}, 16"));
        self.line(format_args!("and.b32 {t}, {t}, 1"));
        self.line(format_args!("add.u32 {t}, {t}, 0x7FFF"));
        self.line(format_args!("add.u32 {t}, {t}, {r}"));
        self.line(format_args!("shr.u32 {t}, {t}, 16"));
        self.line(format_args!("shr.u32 {n}, {r}, 16"));
        self.line(format_args!("or.b32 {n}, {n}, 0x0040"));
        self.line(format_args!("setp.nan.f32 {p}, {f}, {f}"));
        self.line(format_args!("selp.b32 {t}, {n}, {t}, {p}"));
        self.line(format_args!("cvt.u16.u32 {d}, {t}"));
    }

    /// Sets the lowest bit of the f32 in `f` when `inexact` holds (round to odd).
    fn sticky(&mut self, f: Reg, inexact: Reg) -> Reg {
        let r = self.tmp(Ty::U32);
        let r1 = self.tmp(Ty::U32);
        let out = self.tmp(Ty::F32);
        self.line(format_args!("mov.b32 {r}, {f}"));
        self.line(format_args!("or.b32 {r1}, {r}, 1"));
        self.line(format_args!("selp.b32 {r}, {r1}, {r}, {inexact}"));
        self.line(format_args!("mov.b32 {out}, {r}"));
        out
    }

    fn f64_to_bf16(&mut self, s: Reg, d: Reg) -> Res {
        if self.sm >= 90 {
            self.line(format_args!("cvt.rn.bf16.f64 {d}, {s}"));
            return Ok(());
        }
        let f = self.tmp(Ty::F32);
        let back = self.tmp(Ty::F64);
        let p = self.tmp(Ty::Bool);
        self.line(format_args!("cvt.rz.f32.f64 {f}, {s}"));
        self.line(format_args!("cvt.f64.f32 {back}, {f}"));
        self.line(format_args!("setp.neu.f64 {p}, {back}, {s}"));
        let odd = self.sticky(f, p);
        self.f32_to_half(Ty::BF16, odd, d)
    }

    pub fn cast(&mut self, dst: Var, a: Operand) -> Res {
        let from = self.oty(a)?;
        let to = self.ty(dst)?;
        let d = self.reg(dst)?;
        let s = self.src(a)?;
        if from == to {
            self.op(["mov.", bits_suffix(to)], [d, s]);
            return Ok(());
        }
        match (from, to) {
            (Ty::Bool, t) if t.is_int() => {
                let sfx = if reg_bits(t) == 32 { "u32" } else { "u64" };
                self.line(format_args!("selp.{sfx} {d}, 1, 0, {s}"));
                Ok(())
            }
            (f, t) if f.is_int() && t.is_int() => {
                self.int_to_int(f, t, s, d);
                if let Operand::Var(x) = a {
                    let wide = matches!(f, Ty::I32 | Ty::U32) && matches!(t, Ty::U64 | Ty::I64);
                    if wide && self.once[x.0 as usize] && self.once[dst.0 as usize] {
                        self.widened.insert(dst, (x, f == Ty::I32));
                    }
                }
                Ok(())
            }
            (f, t) if f.is_int() && t.is_float() => self.int_to_float(f, t, s, d),
            (f, t) if f.is_float() && t.is_int() => {
                self.float_to_int(f, t, s, d);
                Ok(())
            }
            (f, t) if f.is_float() && t.is_float() => self.float_to_float(f, t, s, d),
            _ => self.err(format!("no `as` cast from {from:?} to {to:?}")),
        }
    }

    fn int_to_int(&mut self, from: Ty, to: Ty, s: Reg, d: Reg) {
        let fb = reg_bits(from);
        let tb = reg_bits(to);
        if to.bits() < 32 {
            // Truncate to the low 32 bits, then to the narrow type, normalized.
            let low = if fb == 32 {
                s
            } else {
                let t = self.tmp(Ty::U32);
                self.line(format_args!("cvt.u32.u{fb} {t}, {s}"));
                t
            };
            let bits = to.bits();
            if to.is_signed() {
                self.line(format_args!("cvt.s32.s{bits} {d}, {low}"));
            } else {
                let mask = if bits == 8 { 0xFF } else { 0xFFFF };
                self.line(format_args!("and.b32 {d}, {low}, {mask}"));
            }
        } else if tb == fb {
            // Same register width: narrow sources are already extended the way Rust extends them.
            self.op(["mov.b", width(tb)], [d, s]);
        } else if tb < fb {
            self.op(["cvt.u", width(tb), ".u", width(fb)], [d, s]);
        } else {
            let sign = if from.is_signed() { "s" } else { "u" };
            self.op(["cvt.", sign, width(tb), ".", sign, width(fb)], [d, s]);
        }
    }

    fn int_to_float(&mut self, from: Ty, to: Ty, s: Reg, d: Reg) -> Res {
        let is = int_suffix(from);
        match to {
            Ty::F32 | Ty::F64 | Ty::F16 => {
                let f = match to {
                    Ty::F16 => "f16",
                    t => float_suffix(t),
                };
                self.line(format_args!("cvt.rn.{f}.{is} {d}, {s}"));
            }
            _ if self.sm >= 90 => self.line(format_args!("cvt.rn.bf16.{is} {d}, {s}")),
            _ if reg_bits(from) <= 32 => {
                let w = self.tmp(Ty::F64);
                self.line(format_args!("cvt.rn.f64.{is} {w}, {s}"));
                self.f64_to_bf16(w, d)?;
            }
            _ => {
                let f = self.tmp(Ty::F32);
                let back = self.tmp(from);
                let p = self.tmp(Ty::Bool);
                self.line(format_args!("cvt.rz.f32.{is} {f}, {s}"));
                self.line(format_args!("cvt.rzi.{is}.f32 {back}, {f}"));
                self.line(format_args!("setp.ne.{is} {p}, {back}, {s}"));
                let odd = self.sticky(f, p);
                self.f32_to_half(Ty::BF16, odd, d)?;
            }
        }
        Ok(())
    }

    fn float_to_int(&mut self, from: Ty, to: Ty, s: Reg, d: Reg) {
        let (f, fty) = if matches!(from, Ty::F16 | Ty::BF16) {
            (self.half_to_f32(from, s), Ty::F32)
        } else {
            (s, from)
        };
        let fs = float_suffix(fty);
        let nan = self.tmp(Ty::Bool);
        self.line(format_args!("setp.nan.{fs} {nan}, {f}, {f}"));
        if to.bits() >= 32 {
            let is = int_suffix(to);
            let t = self.tmp(to);
            self.line(format_args!("cvt.rzi.sat.{is}.{fs} {t}, {f}"));
            self.line(format_args!("selp.{is} {d}, 0, {t}, {nan}"));
            return;
        }
        let wide = if to.is_signed() { Ty::I32 } else { Ty::U32 };
        let is = int_suffix(wide);
        let t = self.tmp(wide);
        self.line(format_args!("cvt.rzi.sat.{is}.{fs} {t}, {f}"));
        let (lo, hi): (i64, i64) = match to {
            Ty::I8 => (-128, 127),
            Ty::I16 => (-32768, 32767),
            Ty::U8 => (0, 255),
            _ => (0, 65535),
        };
        if to.is_signed() {
            self.line(format_args!("max.s32 {t}, {t}, {lo}"));
        }
        self.line(format_args!("min.{is} {t}, {t}, {hi}"));
        self.line(format_args!("selp.{is} {d}, 0, {t}, {nan}"));
    }

    fn float_to_float(&mut self, from: Ty, to: Ty, s: Reg, d: Reg) -> Res {
        match (from, to) {
            (Ty::F32, Ty::F64) => self.line(format_args!("cvt.f64.f32 {d}, {s}")),
            (Ty::F64, Ty::F32) => self.line(format_args!("cvt.rn.f32.f64 {d}, {s}")),
            (Ty::F16, Ty::F32) => self.line(format_args!("cvt.f32.f16 {d}, {s}")),
            (Ty::F16, Ty::F64) => self.line(format_args!("cvt.f64.f16 {d}, {s}")),
            (Ty::F64, Ty::F16) => self.line(format_args!("cvt.rn.f16.f64 {d}, {s}")),
            (Ty::F32, half) => self.f32_to_half(half, s, d)?,
            (Ty::F64, _) => self.f64_to_bf16(s, d)?,
            (half, Ty::F32) => {
                let f = self.half_to_f32(half, s);
                self.line(format_args!("mov.f32 {d}, {f}"));
            }
            (half, Ty::F64) => {
                let f = self.half_to_f32(half, s);
                self.line(format_args!("cvt.f64.f32 {d}, {f}"));
            }
            // f16 <-> bf16: widening to f32 is exact, so one rounding.
            (half, other) => {
                let f = self.half_to_f32(half, s);
                self.f32_to_half(other, f, d)?;
            }
        }
        Ok(())
    }

    pub fn bitcast(&mut self, dst: Var, a: Operand) -> Res {
        let from = self.oty(a)?;
        let to = self.ty(dst)?;
        if from.bits() != to.bits() || from == Ty::Bool || to == Ty::Bool {
            return self.err(format!("bitcast from {from:?} to {to:?}"));
        }
        let d = self.reg(dst)?;
        let s = self.src(a)?;
        match (from.is_float(), to.is_float(), from.bits()) {
            // 16-bit integers sit in 32-bit registers, halves in 16-bit ones.
            (false, true, 16) => self.line(format_args!("cvt.u16.u32 {d}, {s}")),
            (true, false, 16) if to.is_signed() => self.line(format_args!("cvt.s32.s16 {d}, {s}")),
            (true, false, 16) => self.line(format_args!("cvt.u32.u16 {d}, {s}")),
            _ => {
                let w = reg_bits(from);
                self.line(format_args!("mov.b{w} {d}, {s}"));
                self.normalize(to, d);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use half::bf16;

    /// The integer sequence `f32_to_bf16_soft` emits.
    fn soft_bf16(f: f32) -> u16 {
        let r = f.to_bits();
        if f.is_nan() {
            return ((r >> 16) | 0x40) as u16;
        }
        (((r >> 16) & 1) + 0x7FFF).wrapping_add(r).wrapping_shr(16) as u16
    }

    /// The round-to-odd path `f64_to_bf16` emits below sm_90.
    fn odd_bf16(d: f64) -> u16 {
        let t = trunc_f32(d);
        let inexact = (t as f64) != d;
        let bits = if inexact {
            t.to_bits() | 1
        } else {
            t.to_bits()
        };
        soft_bf16(f32::from_bits(bits))
    }

    /// f64 -> f32 rounding toward zero (`cvt.rz.f32.f64`).
    fn trunc_f32(d: f64) -> f32 {
        let n = d as f32;
        if d.is_nan() || n.is_infinite() && d.is_infinite() {
            return n;
        }
        if (n as f64).abs() > d.abs() {
            f32::from_bits(n.to_bits() - 1)
        } else {
            n
        }
    }

    /// Correctly rounded f64 -> bf16 for finite values in bf16's normal range: the two bf16
    /// neighbours of `d` are within a factor of two of it, so both distances are exact in f64.
    /// (`half::bf16::from_f64` is not a reference: it can round twice.)
    fn exact_bf16(d: f64) -> Option<u16> {
        if !d.is_finite()
            || d.abs() < f64::from(f32::MIN_POSITIVE)
            || d.abs() >= f64::from(f32::MAX)
        {
            return None;
        }
        let lo = (trunc_f32(d).to_bits() >> 16) as u16;
        let hi = lo + 1;
        // Past the largest finite bf16 the next "neighbour" is 2^128 (rounds to infinity).
        let val = |b: u16| match b & 0x7FFF {
            0x7F80 => 2f64.powi(128).copysign(d),
            _ => f64::from(f32::from_bits((b as u32) << 16)),
        };
        let (dl, dh) = ((d - val(lo)).abs(), (val(hi) - d).abs());
        Some(if dl < dh || (dl == dh && lo & 1 == 0) {
            lo
        } else {
            hi
        })
    }

    fn samples() -> Vec<f32> {
        let mut v: Vec<f32> = vec![
            0.0,
            -0.0,
            1.0,
            f32::MAX,
            f32::MIN_POSITIVE,
            1e-40,
            f32::INFINITY,
        ];
        let mut x = 0x1234_5678u32;
        for _ in 0..20000 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            v.push(f32::from_bits(x));
        }
        v
    }

    #[test]
    fn soft_bf16_rounds_like_half() {
        for f in samples() {
            let want = bf16::from_f32(f);
            let got = soft_bf16(f);
            if f.is_nan() {
                assert!(bf16::from_bits(got).is_nan());
            } else {
                assert_eq!(got, want.to_bits(), "{f:e}");
            }
        }
    }

    #[test]
    fn round_to_odd_then_bf16_is_a_single_rounding() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for i in 0..20000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let d = if i % 2 == 0 {
                f64::from_bits(x)
            } else {
                // Values near bf16 midpoints, where double rounding would go wrong.
                let b = (x as u16 & 0x7F7F) as u32;
                f64::from(f32::from_bits((b << 16) | 0x8000)) * (1.0 + (x >> 40) as f64 * 1e-15)
            };
            let Some(want) = exact_bf16(d) else { continue };
            assert_eq!(odd_bf16(d), want, "{d:e}");
        }
    }
}
