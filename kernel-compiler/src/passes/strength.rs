//! Unsigned division and remainder by constants without a divide.
//!
//! Why: ptxas does not do this itself. `div.u32 %r, %r, 8` (immediate or not) becomes the generic
//! sequence (`I2F`, `MUFU.RCP`, `F2I`, two `IMAD.HI`, compares and fix-ups: about 15
//! instructions) where nvcc's front end emits one shift. SGEMM's tile loads do `e / 8`, `e % 8`,
//! `e / 128`, `e % 128` four times per k tile.
//!
//! - `x / 2^k` -> `x >> k`, `x % 2^k` -> `x & (2^k - 1)` (any unsigned width).
//! - u32 `x / d`, other `d`: `mulhi(x, M) >> s` with `M = ceil(2^(32+s) / d)` when some `s` keeps
//!   `M` below 2^32 with `M*d - 2^(32+s) <= 2^s` (then the error term stays below `1/d`);
//!   otherwise the 64-bit form `mulhi(zext x, ceil(2^64 / d))`, exact for every 32-bit `x`
//!   (Lemire, Kaser, Kurz 2019). `x % d` is `x - (x / d) * d`.
//! - u64 `x / d`: the same with a 64-bit magic number after shifting out `d`'s factors of two,
//!   or the 65-bit one for odd divisors that need it ([`quotient_u64`]).
//!
//! Exact for every value, so it runs regardless of options.

use kernel_ir::ir::{BinOp, Const, Inst, Kernel, Operand, Ty, Var};

/// Returns whether anything was rewritten.
pub fn strength(k: &mut Kernel) -> bool {
    let mut body = std::mem::take(&mut k.body);
    let mut changed = false;
    rewrite_block(k, &mut body.0, &mut changed);
    k.body = body;
    changed
}

fn rewrite_block(k: &mut Kernel, insts: &mut Vec<Inst>, changed: &mut bool) {
    let mut out = Vec::with_capacity(insts.len());
    for mut inst in std::mem::take(insts) {
        match &mut inst {
            Inst::If { then, els, .. } => {
                rewrite_block(k, &mut then.0, changed);
                rewrite_block(k, &mut els.0, changed);
            }
            Inst::For { body, .. } | Inst::Loop { body, .. } => {
                rewrite_block(k, &mut body.0, changed)
            }
            _ => {}
        }
        match lower(k, &inst) {
            Some(seq) => {
                *changed = true;
                out.extend(seq);
            }
            None => out.push(inst),
        }
    }
    *insts = out;
}

fn c(ty: Ty, bits: u64) -> Operand {
    Const { ty, bits }.into()
}

/// The replacement of `inst` when it is an unsigned division or remainder by a constant.
fn lower(k: &mut Kernel, inst: &Inst) -> Option<Vec<Inst>> {
    let Inst::Binary {
        dst,
        op: op @ (BinOp::Div | BinOp::Rem),
        a,
        b: Operand::Const(d),
    } = inst
    else {
        return None;
    };
    let ty = k.ty(*dst);
    if !ty.is_int() || ty.is_signed() || d.ty != ty {
        return None;
    }
    let mask = if ty.bits() == 64 {
        u64::MAX
    } else {
        (1u64 << ty.bits()) - 1
    };
    let dv = d.bits & mask;
    if dv < 2 {
        return None;
    }
    let (dst, a) = (*dst, *a);
    if dv.is_power_of_two() {
        let k2 = dv.trailing_zeros() as u64;
        return Some(vec![match op {
            BinOp::Div => Inst::Binary {
                dst,
                op: BinOp::Shr,
                a,
                b: c(Ty::U32, k2),
            },
            _ => Inst::Binary {
                dst,
                op: BinOp::And,
                a,
                b: c(ty, dv - 1),
            },
        }]);
    }
    // An odd part of 2^63 or more (a quotient of 0 or 1) would need a shift past 127 bits.
    if !matches!(ty, Ty::U32 | Ty::U64) || (dv >> dv.trailing_zeros()) >= 1 << 63 {
        return None;
    }
    let mut seq = Vec::new();
    let q = if *op == BinOp::Div {
        dst
    } else {
        k.new_var(ty)
    };
    if ty == Ty::U32 {
        quotient_u32(k, q, a, dv as u32, &mut seq);
    } else {
        quotient_u64(k, q, a, dv, &mut seq);
    }
    if *op == BinOp::Rem {
        let p = k.new_var(ty);
        seq.push(Inst::Binary {
            dst: p,
            op: BinOp::Mul,
            a: q.into(),
            b: c(ty, dv),
        });
        seq.push(Inst::Binary {
            dst,
            op: BinOp::Sub,
            a,
            b: p.into(),
        });
    }
    Some(seq)
}

/// The 32-bit magic number and shift for `d`, when one exists.
pub fn magic_u32(d: u32) -> Option<(u32, u32)> {
    (0..32u32).find_map(|s| {
        let p = 1u128 << (32 + s);
        let m = p.div_ceil(d as u128);
        (m < 1 << 32 && m * d as u128 - p <= 1u128 << s).then_some((m as u32, s))
    })
}

/// `q = a / d` for u32 `a` and a constant `d` that is not a power of two.
fn quotient_u32(k: &mut Kernel, q: Var, a: Operand, d: u32, seq: &mut Vec<Inst>) {
    match magic_u32(d) {
        Some((m, s)) => {
            let hi = if s == 0 { q } else { k.new_var(Ty::U32) };
            seq.push(Inst::Binary {
                dst: hi,
                op: BinOp::MulHi,
                a,
                b: c(Ty::U32, m as u64),
            });
            if s > 0 {
                seq.push(Inst::Binary {
                    dst: q,
                    op: BinOp::Shr,
                    a: hi.into(),
                    b: c(Ty::U32, s as u64),
                });
            }
        }
        None => {
            let m = (1u128 << 64).div_ceil(d as u128) as u64;
            let (w, h) = (k.new_var(Ty::U64), k.new_var(Ty::U64));
            seq.push(Inst::Cast { dst: w, a });
            seq.push(Inst::Binary {
                dst: h,
                op: BinOp::MulHi,
                a: w.into(),
                b: c(Ty::U64, m),
            });
            seq.push(Inst::Cast {
                dst: q,
                a: h.into(),
            });
        }
    }
}

/// The 64-bit magic number and shift for dividing values below `2^bits` by `d`: `M =
/// ceil(2^(64+s) / d)` below 2^64 whose error `M*d - 2^(64+s)` times the largest dividend stays
/// below `2^(64+s)`, so the error term of `x * M / 2^(64+s)` is below `1/d`.
pub fn magic_u64(d: u64, bits: u32) -> Option<(u64, u32)> {
    let top = (1u128 << bits) - 1;
    (0..64u32).find_map(|s| {
        let p = 1u128 << (64 + s);
        let m = p.div_ceil(d as u128);
        let err = m * d as u128 - p;
        (m < 1 << 64 && err.checked_mul(top).is_some_and(|e| e < p)).then_some((m as u64, s))
    })
}

/// `q = a / d` for u64 `a` and a constant `d` that is not a power of two. ptxas calls a
/// division routine for `div.u64` even by an immediate; nvcc's front end multiplies instead.
/// An even `d` first shifts its factors of two out of `a`, which leaves a narrower dividend
/// (and so a magic number that fits). An odd `d` with no 64-bit magic number (7, say) uses the
/// 65-bit one, `2^64 + m`: `q = (h + (a - h) / 2) >> (s - 1)` with `h = mulhi(a, m)`, which is
/// `(a + h) >> s` without the carry out of the sum.
fn quotient_u64(k: &mut Kernel, q: Var, a: Operand, d: u64, seq: &mut Vec<Inst>) {
    let mut bin = |k: &mut Kernel, dst: Option<Var>, op, x: Operand, y: Operand| -> Operand {
        let dst = dst.unwrap_or_else(|| k.new_var(Ty::U64));
        seq.push(Inst::Binary {
            dst,
            op,
            a: x,
            b: y,
        });
        dst.into()
    };
    let t = d.trailing_zeros();
    let odd = d >> t;
    if let Some((m, s)) = magic_u64(odd, 64 - t) {
        let x = if t > 0 {
            bin(k, None, BinOp::Shr, a, c(Ty::U32, t as u64))
        } else {
            a
        };
        let hi_dst = (s == 0).then_some(q);
        let h = bin(k, hi_dst, BinOp::MulHi, x, c(Ty::U64, m));
        if s > 0 {
            bin(k, Some(q), BinOp::Shr, h, c(Ty::U32, s as u64));
        }
        return;
    }
    // Only an odd `d` gets here: an even one leaves at most 63 bits, for which a 64-bit magic
    // number always exists.
    let s = 64 - (d - 1).leading_zeros();
    let m = ((1u128 << (64 + s)).div_ceil(d as u128) - (1u128 << 64)) as u64;
    let h = bin(k, None, BinOp::MulHi, a, c(Ty::U64, m));
    let diff = bin(k, None, BinOp::Sub, a, h);
    let half = bin(k, None, BinOp::Shr, diff, c(Ty::U32, 1));
    let sum = bin(k, None, BinOp::Add, half, h);
    bin(k, Some(q), BinOp::Shr, sum, c(Ty::U32, s as u64 - 1));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::passes::testkit::*;

    /// Every divisor shape against the interpreter's own division, on edge and random values.
    #[test]
    fn constant_division_is_exact() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut values: Vec<u32> = vec![
            0,
            1,
            2,
            3,
            6,
            7,
            8,
            9,
            127,
            128,
            129,
            u32::MAX,
            u32::MAX - 1,
        ];
        values.push(1 << 31);
        values.push((1 << 31) - 1);
        for _ in 0..200 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            values.push(seed as u32);
        }
        let divisors = [
            2u32,
            3,
            5,
            6,
            7,
            8,
            10,
            11,
            25,
            100,
            125,
            128,
            641,
            1000,
            4096,
            6700417,
            0x7fff_ffff,
            0x8000_0001,
            0xffff_fffb,
            u32::MAX,
        ];
        for d in divisors {
            for op in [BinOp::Div, BinOp::Rem] {
                let mut kn = kernel();
                let p = param(&mut kn, "p", Ty::U64);
                let x = param(&mut kn, "x", Ty::U32);
                let r = kn.new_var(Ty::U32);
                kn.body.0 = vec![bin(r, op, x, u32c(d)), store(p, r)];
                let orig = kn.clone();
                assert!(strength(&mut kn), "d={d}");
                let text = text(&kn);
                assert!(!text.contains("div") && !text.contains("rem"), "{text}");
                for &xv in &values {
                    let args = [(p, Const::u64(8)), (x, Const::u32(xv))];
                    assert_eq!(
                        run(&orig, &args),
                        run(&kn, &args),
                        "{xv} {op:?} {d}\n{text}"
                    );
                }
            }
        }
    }

    /// 64-bit dividends: even and odd divisors, with and without a 64-bit magic number.
    #[test]
    fn constant_division_of_u64_is_exact() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut values: Vec<u64> = vec![
            0,
            1,
            2,
            3,
            19,
            20,
            21,
            399,
            400,
            655,
            u64::MAX,
            u64::MAX - 1,
        ];
        values.extend([1 << 63, (1 << 63) - 1, u32::MAX as u64, 1 << 32]);
        for _ in 0..300 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            values.push(seed);
            values.push(seed >> (seed % 64));
        }
        let divisors = [
            3u64,
            5,
            6,
            7,
            10,
            20,
            25,
            100,
            641,
            1000,
            6700417,
            0x8000_0001,
            u32::MAX as u64,
            (1 << 32) + 1,
            u64::MAX / 3,
            u64::MAX - 1,
        ];
        for d in divisors {
            for op in [BinOp::Div, BinOp::Rem] {
                let mut kn = kernel();
                let p = param(&mut kn, "p", Ty::U64);
                let x = param(&mut kn, "x", Ty::U64);
                let r = kn.new_var(Ty::U64);
                kn.body.0 = vec![bin(r, op, x, u64c(d)), store(p, r)];
                let orig = kn.clone();
                assert!(strength(&mut kn), "d={d}");
                let text = text(&kn);
                assert!(!text.contains("div") && !text.contains("rem"), "{text}");
                for &xv in &values {
                    let args = [(p, Const::u64(8)), (x, Const::u64(xv))];
                    assert_eq!(
                        run(&orig, &args),
                        run(&kn, &args),
                        "{xv} {op:?} {d}\n{text}"
                    );
                }
            }
        }
        // The two shapes: 7 needs the 65-bit magic number, 20 = 4 * 5 has a 64-bit one.
        assert!(magic_u64(7, 64).is_none() && magic_u64(5, 62).is_some());
    }

    #[test]
    fn powers_of_two_become_shifts_and_masks() {
        let mut kn = kernel();
        let p = param(&mut kn, "p", Ty::U64);
        let x = param(&mut kn, "x", Ty::U64);
        let (q, r) = (kn.new_var(Ty::U64), kn.new_var(Ty::U64));
        kn.body.0 = vec![
            bin(q, BinOp::Div, x, u64c(128)),
            bin(r, BinOp::Rem, x, u64c(8)),
            store(p, q),
            store(p, r),
        ];
        assert!(strength(&mut kn));
        assert_body(
            &kn,
            "
            v2 = shr.u64 v1, 7u32
            v3 = and.u64 v1, 7u64
            store.global.u64 [v0], v2
            store.global.u64 [v0], v3
            ",
        );
    }

    #[test]
    fn signed_and_variable_divisions_stay() {
        let mut kn = kernel();
        let p = param(&mut kn, "p", Ty::U64);
        let x = param(&mut kn, "x", Ty::I32);
        let y = param(&mut kn, "y", Ty::U32);
        let (q, r) = (kn.new_var(Ty::I32), kn.new_var(Ty::U32));
        kn.body.0 = vec![
            bin(q, BinOp::Div, x, i32c(8)),
            bin(r, BinOp::Div, y, y),
            store(p, q),
            store(p, r),
        ];
        assert!(!strength(&mut kn));
    }

    #[test]
    fn small_divisors_have_32_bit_magic() {
        // 7 is the classic case without one (it needs 33 bits): the 64-bit form covers it.
        assert!(magic_u32(3).is_some() && magic_u32(10).is_some() && magic_u32(641).is_some());
        assert!(magic_u32(7).is_none());
    }
}
