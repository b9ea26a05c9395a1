//! Every IR instruction kind on every type it accepts, against Rust's own semantics.

use half::{bf16, f16};
use kernel_ir::ir::{BinOp, Ty, UnOp};
use kernel_testkit::sim::*;

type I32Op = fn(i32, i32) -> i32;
type F32Op = fn(f32, f32) -> f32;

const I32S: [i32; 10] = [
    0,
    1,
    -1,
    7,
    -7,
    13,
    i32::MIN,
    i32::MAX,
    0x1234_5678,
    -100_000,
];

fn bits_i32(v: &[i32]) -> Vec<u64> {
    v.iter().map(|&x| x as u32 as u64).collect()
}

/// All ordered pairs of `vals`.
fn pairs<T: Copy>(vals: &[T]) -> (Vec<T>, Vec<T>) {
    let mut a = Vec::new();
    let mut b = Vec::new();
    for &x in vals {
        for &y in vals {
            a.push(x);
            b.push(y);
        }
    }
    (a, b)
}

#[test]
fn i32_arithmetic_wraps_like_rust() {
    let (a, b) = pairs(&I32S);
    let cases: [(BinOp, I32Op); 8] = [
        (BinOp::Add, i32::wrapping_add),
        (BinOp::Sub, i32::wrapping_sub),
        (BinOp::Mul, i32::wrapping_mul),
        (BinOp::And, |x, y| x & y),
        (BinOp::Or, |x, y| x | y),
        (BinOp::Xor, |x, y| x ^ y),
        (BinOp::Min, i32::min),
        (BinOp::Max, i32::max),
    ];
    for (op, f) in cases {
        let got = eval_bin(op, Ty::I32, &bits_i32(&a), &bits_i32(&b));
        let want: Vec<u64> = a
            .iter()
            .zip(&b)
            .map(|(&x, &y)| f(x, y) as u32 as u64)
            .collect();
        assert_eq!(got, want, "{op:?}");
    }
}

#[test]
fn integer_division_truncates_and_mulhi_is_the_upper_half() {
    let (a, b) = pairs(&I32S);
    let keep: Vec<usize> = (0..a.len())
        .filter(|&i| b[i] != 0 && !(a[i] == i32::MIN && b[i] == -1))
        .collect();
    let a: Vec<i32> = keep.iter().map(|&i| a[i]).collect();
    let b: Vec<i32> = keep.iter().map(|&i| b[i]).collect();
    let div = eval_bin(BinOp::Div, Ty::I32, &bits_i32(&a), &bits_i32(&b));
    let rem = eval_bin(BinOp::Rem, Ty::I32, &bits_i32(&a), &bits_i32(&b));
    let hi = eval_bin(BinOp::MulHi, Ty::I32, &bits_i32(&a), &bits_i32(&b));
    for i in 0..a.len() {
        assert_eq!(div[i], (a[i] / b[i]) as u32 as u64);
        assert_eq!(rem[i], (a[i] % b[i]) as u32 as u64);
        assert_eq!(hi[i], ((a[i] as i64 * b[i] as i64) >> 32) as u32 as u64);
    }
    let ua = [u64::MAX, 3, 1 << 63, 12345678901234];
    let ub = [u64::MAX, 7, 2, 98765];
    let hi = eval_bin(BinOp::MulHi, Ty::U64, &ua, &ub);
    let q = eval_bin(BinOp::Div, Ty::U64, &ua, &ub);
    for i in 0..4 {
        assert_eq!(hi[i], ((ua[i] as u128 * ub[i] as u128) >> 64) as u64);
        assert_eq!(q[i], ua[i] / ub[i]);
    }
}

#[test]
fn narrow_integers_wrap_in_their_width() {
    let a: Vec<u64> = vec![200, 255, 100, 0];
    let b: Vec<u64> = vec![100, 1, 3, 1];
    assert_eq!(eval_bin(BinOp::Add, Ty::U8, &a, &b), vec![44, 0, 103, 1]);
    assert_eq!(
        eval_bin(BinOp::Sub, Ty::U8, &a, &b),
        vec![100, 254, 97, 255]
    );
    // i8: 200 is -56, 255 is -1.
    assert_eq!(
        eval_bin(BinOp::Mul, Ty::I8, &a, &b),
        vec![(-56i8).wrapping_mul(100) as u8 as u64, 255, 44, 0]
    );
    assert_eq!(eval_bin(BinOp::Lt, Ty::I8, &a, &b), vec![1, 1, 0, 1]);
    assert_eq!(eval_bin(BinOp::Lt, Ty::U8, &a, &b), vec![0, 0, 0, 1]);
    let x: Vec<u64> = vec![0x8000, 0x7fff, 0xffff];
    let y: Vec<u64> = vec![0xffff, 1, 0xffff];
    assert_eq!(
        eval_bin(BinOp::Min, Ty::I16, &x, &y),
        vec![0x8000, 1, 0xffff]
    );
    assert_eq!(
        eval_bin(BinOp::Max, Ty::U16, &x, &y),
        vec![0xffff, 0x7fff, 0xffff]
    );
}

#[test]
fn shifts_are_logical_or_arithmetic_by_signedness() {
    let a = bits_i32(&[-16, -16, 1, 0x4000_0000, -1]);
    let s: Vec<u64> = vec![2, 31, 31, 1, 0];
    assert_eq!(
        eval_bin(BinOp::Shr, Ty::I32, &a, &s),
        bits_i32(&[-4, -1, 0, 0x2000_0000, -1])
    );
    assert_eq!(
        eval_bin(BinOp::Shr, Ty::U32, &a, &s),
        vec![(-16i32 as u32 >> 2) as u64, 1, 0, 0x2000_0000, 0xffff_ffff]
    );
    assert_eq!(
        eval_bin(BinOp::Shl, Ty::I32, &a, &s),
        bits_i32(&[-64, 0, i32::MIN, i32::MIN, -1])
    );
    let w: Vec<u64> = vec![1, 1];
    assert_eq!(
        eval_bin(BinOp::Shl, Ty::U64, &w, &[63, 40]),
        vec![1 << 63, 1 << 40]
    );
    assert_eq!(
        eval_bin(BinOp::Shr, Ty::I8, &[0x80, 0x40], &[7, 6]),
        vec![0xff, 1]
    );
}

#[test]
fn comparisons_signed_unsigned_and_float() {
    let a = bits_i32(&[-1, 5, 5]);
    let b = bits_i32(&[1, 5, 6]);
    assert_eq!(eval_bin(BinOp::Lt, Ty::I32, &a, &b), vec![1, 0, 1]);
    assert_eq!(eval_bin(BinOp::Lt, Ty::U32, &a, &b), vec![0, 0, 1]);
    assert_eq!(eval_bin(BinOp::Ge, Ty::I32, &a, &b), vec![0, 1, 0]);
    assert_eq!(eval_bin(BinOp::Eq, Ty::I32, &a, &b), vec![0, 1, 0]);
    let nan = f32::NAN.to_bits() as u64;
    let one = 1f32.to_bits() as u64;
    let f = |x: f32| x.to_bits() as u64;
    let fa = vec![nan, nan, one, f(-0.0)];
    let fb = vec![nan, one, nan, f(0.0)];
    assert_eq!(eval_bin(BinOp::Eq, Ty::F32, &fa, &fb), vec![0, 0, 0, 1]);
    assert_eq!(eval_bin(BinOp::Ne, Ty::F32, &fa, &fb), vec![1, 1, 1, 0]);
    assert_eq!(eval_bin(BinOp::Lt, Ty::F32, &fa, &fb), vec![0, 0, 0, 0]);
    assert_eq!(eval_bin(BinOp::Le, Ty::F32, &fa, &fb), vec![0, 0, 0, 1]);
    assert_eq!(
        eval_bin(
            BinOp::Gt,
            Ty::F64,
            &[f64::NAN.to_bits(), 2f64.to_bits()],
            &[0, 1f64.to_bits()]
        ),
        vec![0, 1]
    );
    assert_eq!(
        eval_bin(BinOp::Xor, Ty::Bool, &[1, 1, 0], &[1, 0, 0]),
        vec![0, 1, 0]
    );
}

const F32S: [f32; 12] = [
    0.0,
    -0.0,
    1.0,
    -1.5,
    std::f32::consts::PI,
    1e-40,
    -1e30,
    f32::INFINITY,
    f32::NEG_INFINITY,
    f32::MAX,
    0.1,
    7.0,
];

#[test]
fn f32_arithmetic_rounds_to_nearest_in_f32() {
    let (a, b) = pairs(&F32S);
    let ab: Vec<u64> = a.iter().map(|x| x.to_bits() as u64).collect();
    let bb: Vec<u64> = b.iter().map(|x| x.to_bits() as u64).collect();
    let canon = |x: f32| {
        if x.is_nan() {
            0x7fff_ffff
        } else {
            x.to_bits() as u64
        }
    };
    let cases: [(BinOp, F32Op); 5] = [
        (BinOp::Add, |x, y| x + y),
        (BinOp::Sub, |x, y| x - y),
        (BinOp::Mul, |x, y| x * y),
        (BinOp::Div, |x, y| x / y),
        (BinOp::Rem, |x, y| x % y),
    ];
    for (op, f) in cases {
        let got = eval_bin(op, Ty::F32, &ab, &bb);
        let want: Vec<u64> = a.iter().zip(&b).map(|(&x, &y)| canon(f(x, y))).collect();
        assert_eq!(got, want, "{op:?}");
    }
}

#[test]
fn f64_arithmetic_and_fma_round_once() {
    let a = [0.1f64, 1e308, -3.0, 1.0 + f64::EPSILON];
    let b = [0.2f64, 10.0, 7.0, 1.0 - f64::EPSILON];
    let c = [0.3f64, -1e308, 0.5, -1.0];
    let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    let add = eval_bin(BinOp::Add, Ty::F64, &bits(&a), &bits(&b));
    assert_eq!(add, bits(&[0.1 + 0.2, 1e308 + 10.0, 4.0, 2.0]));
    // fma: build a*b + c in one instruction through a third parameter-free constant-free path.
    let mut ac = Vec::new();
    for i in 0..4 {
        let got = kernel_testkit::sim::eval2(
            Ty::F64,
            Ty::F64,
            &bits(&a[i..=i]),
            &bits(&b[i..=i]),
            Ty::F64,
            |kb, x, y| {
                let d = kb.var(Ty::F64);
                kb.push(kernel_ir::ir::Inst::Fma {
                    dst: d,
                    a: x.into(),
                    b: y.into(),
                    c: c64(c[i]),
                });
                d
            },
        );
        ac.push(got[0]);
    }
    let want: Vec<u64> = (0..4).map(|i| a[i].mul_add(b[i], c[i]).to_bits()).collect();
    assert_eq!(ac, want);
    // The fused result differs from the separately rounded one for this case.
    assert_ne!(want[3], ((a[3] * b[3]) + c[3]).to_bits());
}

fn c64(x: f64) -> kernel_ir::ir::Operand {
    kernel_ir::ir::Const::f64(x).into()
}

#[test]
fn float_min_max_follow_rust_nan_rules() {
    let nan = f32::NAN.to_bits() as u64;
    let f = |x: f32| x.to_bits() as u64;
    let a = vec![nan, f(1.0), nan, f(-2.0), f(-0.0), f(0.0)];
    let b = vec![f(3.0), nan, nan, f(5.0), f(0.0), f(-0.0)];
    assert_eq!(
        eval_bin(BinOp::Min, Ty::F32, &a, &b),
        // Two NaNs: the first one's bits, unchanged (measured on an H200).
        vec![f(3.0), f(1.0), nan, f(-2.0), f(-0.0), f(-0.0)]
    );
    assert_eq!(
        eval_bin(BinOp::Max, Ty::F32, &a, &b),
        vec![f(3.0), f(1.0), nan, f(5.0), f(0.0), f(0.0)]
    );
    let d = |x: f64| x.to_bits();
    assert_eq!(
        eval_bin(
            BinOp::Min,
            Ty::F64,
            &[f64::NAN.to_bits(), d(2.0)],
            &[d(1.0), d(-1.0)]
        ),
        vec![d(1.0), d(-1.0)]
    );
}

#[test]
fn half_precision_arithmetic_rounds_in_its_own_width() {
    let vals = [0.1f32, 1.0, 3.0, 65504.0, -2.5, 1e-5, 0.33333];
    let (a, b) = pairs(&vals);
    let h = |v: &[f32]| {
        v.iter()
            .map(|&x| f16::from_f32(x).to_bits() as u64)
            .collect::<Vec<_>>()
    };
    let bh = |v: &[f32]| {
        v.iter()
            .map(|&x| bf16::from_f32(x).to_bits() as u64)
            .collect::<Vec<_>>()
    };
    for (op, f) in [
        (BinOp::Add, (|x, y| x + y) as fn(f32, f32) -> f32),
        (BinOp::Mul, |x, y| x * y),
        (BinOp::Div, |x, y| x / y),
    ] {
        let got = eval_bin(op, Ty::F16, &h(&a), &h(&b));
        let want: Vec<u64> = a
            .iter()
            .zip(&b)
            .map(|(&x, &y)| {
                let r = f(f16::from_f32(x).to_f32(), f16::from_f32(y).to_f32());
                f16::from_f64(r as f64).to_bits() as u64
            })
            .collect();
        assert_eq!(got, want, "f16 {op:?}");
        let got = eval_bin(op, Ty::BF16, &bh(&a), &bh(&b));
        let want: Vec<u64> = a
            .iter()
            .zip(&b)
            .map(|(&x, &y)| {
                bf16::from_f32(f(bf16::from_f32(x).to_f32(), bf16::from_f32(y).to_f32())).to_bits()
                    as u64
            })
            .collect();
        assert_eq!(got, want, "bf16 {op:?}");
    }
    // f16 overflow goes to infinity.
    assert_eq!(
        eval_bin(BinOp::Add, Ty::F16, &h(&[65504.0]), &h(&[65504.0])),
        vec![f16::INFINITY.to_bits() as u64]
    );
}

#[test]
fn unary_ops_on_ints_and_floats() {
    let a = bits_i32(&[5, -5, i32::MIN, 0, 0x00f0_0000]);
    assert_eq!(
        eval_un(UnOp::Neg, Ty::I32, &a),
        bits_i32(&[-5, 5, i32::MIN, 0, -0x00f0_0000])
    );
    assert_eq!(
        eval_un(UnOp::Abs, Ty::I32, &a),
        bits_i32(&[5, 5, i32::MIN, 0, 0x00f0_0000])
    );
    assert_eq!(
        eval_un(UnOp::Not, Ty::I32, &a),
        bits_i32(&[!5, !-5, !i32::MIN, -1, !0x00f0_0000])
    );
    assert_eq!(eval_un(UnOp::Popc, Ty::I32, &a), vec![2, 31, 1, 0, 4]);
    assert_eq!(eval_un(UnOp::Clz, Ty::I32, &a), vec![29, 0, 0, 32, 8]);
    assert_eq!(eval_un(UnOp::Clz, Ty::U64, &[1, 0]), vec![63, 64]);
    assert_eq!(eval_un(UnOp::Popc, Ty::U8, &[0xff]), vec![8]);
    assert_eq!(eval_un(UnOp::Not, Ty::Bool, &[0, 1]), vec![1, 0]);
    let f = |v: &[f32]| v.iter().map(|x| x.to_bits() as u64).collect::<Vec<_>>();
    let x = [2.5f32, -2.5, 0.5, -0.5, 1.49999, -7.7, 2.0, f32::INFINITY];
    assert_eq!(eval_un(UnOp::Round, Ty::F32, &f(&x)), f(&x.map(f32::round)));
    assert_eq!(
        eval_un(UnOp::Round, Ty::F32, &f(&[2.5, -2.5, 0.5])),
        f(&[3.0, -3.0, 1.0])
    );
    assert_eq!(eval_un(UnOp::Floor, Ty::F32, &f(&x)), f(&x.map(f32::floor)));
    assert_eq!(eval_un(UnOp::Ceil, Ty::F32, &f(&x)), f(&x.map(f32::ceil)));
    assert_eq!(eval_un(UnOp::Trunc, Ty::F32, &f(&x)), f(&x.map(f32::trunc)));
    assert_eq!(
        eval_un(UnOp::Sqrt, Ty::F32, &f(&x[..2])),
        vec![f32::sqrt(2.5).to_bits() as u64, 0x7fff_ffff]
    );
    assert_eq!(eval_un(UnOp::Neg, Ty::F32, &f(&[0.0])), f(&[-0.0]));
    assert_eq!(
        eval_un(UnOp::Abs, Ty::F64, &[(-3.5f64).to_bits()]),
        vec![3.5f64.to_bits()]
    );
    let hx = [
        f16::from_f32(2.5).to_bits() as u64,
        f16::from_f32(-0.5).to_bits() as u64,
    ];
    assert_eq!(
        eval_un(UnOp::Round, Ty::F16, &hx),
        vec![
            f16::from_f32(3.0).to_bits() as u64,
            f16::from_f32(-1.0).to_bits() as u64
        ]
    );
}

#[test]
fn float_to_int_casts_saturate_and_map_nan_to_zero() {
    let f = |v: &[f32]| v.iter().map(|x| x.to_bits() as u64).collect::<Vec<_>>();
    let x = [
        f32::NAN,
        1e20,
        -1e20,
        -1.9,
        300.7,
        255.5,
        f32::NEG_INFINITY,
        42.99,
    ];
    assert_eq!(
        eval_cast(Ty::F32, Ty::I32, &f(&x)),
        bits_i32(&x.map(|v| v as i32))
    );
    assert_eq!(
        eval_cast(Ty::F32, Ty::U8, &f(&x)),
        x.map(|v| v as u8 as u64).to_vec()
    );
    assert_eq!(
        eval_cast(Ty::F32, Ty::U64, &f(&x)),
        x.map(|v| v as u64).to_vec()
    );
    assert_eq!(
        eval_cast(Ty::F32, Ty::I16, &f(&x)),
        x.map(|v| v as i16 as u16 as u64).to_vec()
    );
    let d = [f64::NAN, 1e300, -3.7, 4e9];
    let db: Vec<u64> = d.iter().map(|v| v.to_bits()).collect();
    assert_eq!(
        eval_cast(Ty::F64, Ty::I64, &db),
        d.map(|v| v as i64 as u64).to_vec()
    );
    assert_eq!(
        eval_cast(Ty::F64, Ty::U32, &db),
        d.map(|v| v as u32 as u64).to_vec()
    );
}

#[test]
fn int_casts_truncate_and_extend_by_source_signedness() {
    let a = bits_i32(&[-1, 300, -200, i32::MIN]);
    assert_eq!(eval_cast(Ty::I32, Ty::U8, &a), vec![255, 44, 56, 0]);
    assert_eq!(
        eval_cast(Ty::I32, Ty::I64, &a),
        [-1i64, 300, -200, i32::MIN as i64]
            .map(|v| v as u64)
            .to_vec()
    );
    assert_eq!(
        eval_cast(Ty::U32, Ty::I64, &a),
        vec![0xffff_ffff, 300, (-200i32) as u32 as u64, 0x8000_0000]
    );
    assert_eq!(
        eval_cast(Ty::I8, Ty::U16, &[0x80, 0x7f]),
        vec![0xff80, 0x7f]
    );
    assert_eq!(eval_cast(Ty::Bool, Ty::I32, &[1, 0]), vec![1, 0]);
}

#[test]
fn int_and_float_conversions_round_to_nearest() {
    let big = [u64::MAX, (1 << 53) + 1, 16_777_217, 3];
    assert_eq!(
        eval_cast(Ty::U64, Ty::F32, &big),
        big.map(|v| (v as f32).to_bits() as u64).to_vec()
    );
    assert_eq!(
        eval_cast(Ty::U64, Ty::F64, &big),
        big.map(|v| (v as f64).to_bits()).to_vec()
    );
    let neg = bits_i32(&[-16_777_217, -3]);
    assert_eq!(
        eval_cast(Ty::I32, Ty::F32, &neg),
        [-16_777_217i32, -3]
            .map(|v| (v as f32).to_bits() as u64)
            .to_vec()
    );
    // 2049 is a tie between 2048 and 2050 in f16: ties to even.
    assert_eq!(
        eval_cast(Ty::I32, Ty::F16, &bits_i32(&[2049, 2051, 70000, -3])),
        vec![
            f16::from_f32(2048.0).to_bits() as u64,
            f16::from_f32(2052.0).to_bits() as u64,
            f16::INFINITY.to_bits() as u64,
            f16::from_f32(-3.0).to_bits() as u64,
        ]
    );
    // One above a tie must round up even where rounding through f32 first would create a tie.
    let x = (1u64 << 40) + (1u64 << 32) + 1; // bf16 keeps 8 bits: the tail is just over half an ulp
    let want = bf16::from_f32(((1u64 << 40) + (1u64 << 33)) as f32).to_bits() as u64;
    assert_eq!(eval_cast(Ty::U64, Ty::BF16, &[x]), vec![want]);
    // (`half`'s own f64 conversion goes through f32 and lands on the tie, rounding down.)
    assert_ne!(want, bf16::from_f64(x as f64).to_bits() as u64);
    let d = [0.1f64, 1e-50, 3.4e39, f64::NAN];
    assert_eq!(
        eval_cast(Ty::F64, Ty::F32, &d.map(f64::to_bits)),
        vec![
            (0.1f64 as f32).to_bits() as u64,
            0,
            f32::INFINITY.to_bits() as u64,
            // cvt.rn.f32.f64 keeps the NaN's payload (measured on an H200), as x86 does.
            0x7fc0_0000
        ]
    );
    // f64 -> f16 rounds once: 1 + 2^-11 + 2^-40 is just above the tie between 1 and 1 + 2^-10.
    let v = 1.0 + 2f64.powi(-11) + 2f64.powi(-40);
    assert_eq!(
        eval_cast(Ty::F64, Ty::F16, &[v.to_bits()]),
        vec![f16::from_f32(1.0 + 2f32.powi(-10)).to_bits() as u64]
    );
    assert_eq!(
        eval_cast(Ty::F16, Ty::F32, &[f16::from_f32(0.5).to_bits() as u64]),
        vec![0.5f32.to_bits() as u64]
    );
    assert_eq!(
        eval_cast(Ty::BF16, Ty::I32, &[bf16::from_f32(-7.9).to_bits() as u64]),
        bits_i32(&[-7])
    );
}

#[test]
fn bitcast_select_and_mov() {
    let r = eval2(
        Ty::F32,
        Ty::U32,
        &[1f32.to_bits() as u64],
        &[0],
        Ty::F32,
        |kb, x, _| {
            let d = kb.var(Ty::U32);
            kb.push(kernel_ir::ir::Inst::Bitcast {
                dst: d,
                a: x.into(),
            });
            d
        },
    );
    assert_eq!(r, vec![0x3f80_0000]);
    let r = eval2(
        Ty::I32,
        Ty::I32,
        &bits_i32(&[3, -4]),
        &bits_i32(&[9, 2]),
        Ty::I32,
        |kb, x, y| {
            let c = kb.bin(BinOp::Lt, x, y);
            let d = kb.var(Ty::I32);
            kb.push(kernel_ir::ir::Inst::Select {
                dst: d,
                cond: c.into(),
                a: x.into(),
                b: y.into(),
            });
            let e = kb.var(Ty::I32);
            kb.mov(e, d);
            e
        },
    );
    assert_eq!(r, bits_i32(&[3, -4]));
}

fn fma_bits(ty: Ty, a: u64, b: u64, c: u64) -> u64 {
    kernel_testkit::sim::eval2(ty, ty, &[a], &[b], ty, |kb, x, y| {
        let d = kb.var(ty);
        kb.push(kernel_ir::ir::Inst::Fma {
            dst: d,
            a: x.into(),
            b: y.into(),
            c: kernel_ir::ir::Const { ty, bits: c }.into(),
        });
        d
    })[0]
}

#[test]
fn f32_and_half_fma_round_once() {
    let f = |x: f32| x.to_bits() as u64;
    for (a, b, c) in [
        (0.1f32, 0.2, 0.3),
        (1.0 + f32::EPSILON, 1.0 - f32::EPSILON, -1.0),
        (3e38, 10.0, -3e38),
    ] {
        assert_eq!(fma_bits(Ty::F32, f(a), f(b), f(c)), f(a.mul_add(b, c)));
    }
    // a*b + c = 1 + 2^-11 + 2^-31 exactly: just above the f16 tie between 1 and 1 + 2^-10. Rounding
    // through f32 first would land on the tie and round to even (1.0).
    let h = |x: f32| f16::from_f32(x).to_bits() as u64;
    let a = h(-(2f32.powi(-11)) * (1.0 + 2f32.powi(-10)));
    let b = h(1.0 - 2f32.powi(-10));
    let c = h(1.0 + 2f32.powi(-10));
    assert_eq!(fma_bits(Ty::F16, a, b, c), h(1.0 + 2f32.powi(-10)));
    let naive = f16::from_f32(f16::from_bits(a as u16).to_f32().mul_add(
        f16::from_bits(b as u16).to_f32(),
        f16::from_bits(c as u16).to_f32(),
    ));
    assert_eq!(naive.to_bits() as u64, h(1.0));
    let bh = |x: f32| bf16::from_f32(x).to_bits() as u64;
    assert_eq!(fma_bits(Ty::BF16, bh(1.5), bh(2.0), bh(0.25)), bh(3.25));
}

#[test]
fn sixty_four_bit_and_unsigned_integer_ops() {
    let a: Vec<u64> = vec![u64::MAX, 1 << 63, 12345, 0];
    let b: Vec<u64> = vec![2, 3, 7, 5];
    assert_eq!(
        eval_bin(BinOp::Add, Ty::U64, &a, &b),
        vec![1, (1 << 63) + 3, 12352, 5]
    );
    assert_eq!(
        eval_bin(BinOp::Rem, Ty::U64, &a, &b),
        vec![1, (1u64 << 63) % 3, 12345 % 7, 0]
    );
    assert_eq!(
        eval_bin(BinOp::Div, Ty::I64, &a, &b),
        vec![0, (i64::MIN / 3) as u64, 12345 / 7, 0]
    );
    assert_eq!(
        eval_bin(BinOp::Rem, Ty::I64, &a, &b),
        vec![-1i64 as u64, (i64::MIN % 3) as u64, 12345 % 7, 0]
    );
    assert_eq!(
        eval_bin(BinOp::MulHi, Ty::I64, &a, &b),
        vec![u64::MAX, ((i64::MIN as i128 * 3) >> 64) as u64, 0, 0]
    );
    assert_eq!(eval_bin(BinOp::Max, Ty::I64, &a, &b), vec![2, 3, 12345, 5]);
    assert_eq!(
        eval_bin(BinOp::Max, Ty::U64, &a, &b),
        vec![u64::MAX, 1 << 63, 12345, 5]
    );
    assert_eq!(
        eval_bin(BinOp::Shr, Ty::I64, &a, &[4, 62, 1, 0]),
        vec![u64::MAX, (i64::MIN >> 62) as u64, 6172, 0]
    );
    assert_eq!(
        eval_bin(BinOp::MulHi, Ty::U16, &[0xffff, 0x100], &[0xffff, 0x100]),
        vec![0xfffe, 1]
    );
    assert_eq!(
        eval_bin(BinOp::Rem, Ty::U8, &[250, 7], &[7, 250]),
        vec![5, 7]
    );
}
