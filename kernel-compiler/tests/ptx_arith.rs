//! Every unary/binary/fma/select form on every type assembles for sm_70/80/90, with golden checks
//! on the lines whose exact form carries the semantics (rounding, NaN compares, 8-bit wrapping).

mod ptx_support;
use kernel_ir::ir::*;
use ptx_support::*;

/// Loads two values of `ty`, applies every operation defined on it and stores every result.
fn all_ops_kernel(ty: Ty) -> Kernel {
    let mut b = KB::new(&format!("ops_{ty:?}").to_lowercase());
    let (inp, _) = b.slice_param("inp", true, ty);
    let (out, _) = b.slice_param("out", false, ty);
    let tid = b.tid_x();
    let a0 = b.elem_addr(inp, v(tid), ty);
    let x = b.load_global(ty, a0, true);
    let t1 = b.bin(BinOp::Add, v(tid), c(Ty::U32, 1));
    let a1 = b.elem_addr(inp, v(t1), ty);
    let y = b.load_global(ty, a1, true);
    let mut results: Vec<Var> = vec![];
    let cmps = [
        BinOp::Eq,
        BinOp::Ne,
        BinOp::Lt,
        BinOp::Le,
        BinOp::Gt,
        BinOp::Ge,
    ];
    let ops: Vec<BinOp> = match ty {
        Ty::Bool => vec![BinOp::And, BinOp::Or, BinOp::Xor, BinOp::Min, BinOp::Max],
        t if t.is_float() => vec![
            BinOp::Add,
            BinOp::Sub,
            BinOp::Mul,
            BinOp::Div,
            BinOp::Min,
            BinOp::Max,
        ],
        _ => vec![
            BinOp::Add,
            BinOp::Sub,
            BinOp::Mul,
            BinOp::Div,
            BinOp::Rem,
            BinOp::And,
            BinOp::Or,
            BinOp::Xor,
            BinOp::Min,
            BinOp::Max,
            BinOp::MulHi,
        ],
    };
    for op in ops.into_iter().chain(cmps) {
        results.push(b.bin(op, v(x), v(y)));
        // And with a constant operand, which is materialized differently.
        results.push(b.bin(op, v(x), c(ty, 1)));
    }
    if ty.is_int() {
        let amt = b.cast(v(y), Ty::U32);
        let masked = b.bin(BinOp::And, v(amt), c(Ty::U32, (ty.bits() - 1) as u64));
        for op in [BinOp::Shl, BinOp::Shr] {
            results.push(b.bin(op, v(x), v(masked)));
            results.push(b.bin(op, v(x), c(Ty::U32, 3)));
        }
        for op in [UnOp::Neg, UnOp::Not, UnOp::Abs, UnOp::Popc, UnOp::Clz] {
            results.push(b.un(op, v(x)));
        }
    } else if ty.is_float() {
        for op in [
            UnOp::Neg,
            UnOp::Abs,
            UnOp::Sqrt,
            UnOp::Floor,
            UnOp::Ceil,
            UnOp::Trunc,
            UnOp::Round,
        ] {
            results.push(b.un(op, v(x)));
        }
        if ty != Ty::BF16 {
            let d = b.var(ty);
            b.push(Inst::Fma {
                dst: d,
                a: v(x),
                b: v(y),
                c: v(x),
            });
            results.push(d);
        }
    } else {
        results.push(b.un(UnOp::Not, v(x)));
    }
    let cond = b.bin(BinOp::Lt, v(x), v(y));
    let s = b.var(ty);
    b.push(Inst::Select {
        dst: s,
        cond: v(cond),
        a: v(x),
        b: v(y),
    });
    results.push(s);
    let m = b.var(ty);
    b.push(Inst::Mov {
        dst: m,
        src: c(ty, 0x7f),
    });
    results.push(m);
    for (i, r) in results.into_iter().enumerate() {
        let ty = b.k.ty(r);
        let idx = b.bin(BinOp::Add, v(tid), c(Ty::U32, i as u64 * 64));
        let addr = b.elem_addr(out, v(idx), ty);
        b.store_global(addr, v(r));
    }
    b.finish()
}

#[test]
fn every_op_on_every_type_assembles() {
    for ty in ALL_TYS {
        check(&all_ops_kernel(ty));
    }
}

#[test]
fn f32_ops_are_explicitly_rounded() {
    let p = check(&all_ops_kernel(Ty::F32));
    for l in [
        "add.rn.f32",
        "sub.rn.f32",
        "mul.rn.f32",
        "div.rn.f32",
        "sqrt.rn.f32",
        "fma.rn.f32",
        "min.f32",
        "max.f32",
        "setp.neu.f32",
        "setp.lt.f32",
        "cvt.rmi.f32.f32",
        "cvt.rpi.f32.f32",
        "cvt.rzi.f32.f32",
        "copysign.f32",
        "ld.global.nc.f32",
        "st.global.f32",
        "selp.f32",
    ] {
        assert_line(&p, l);
    }
    // No float add/sub/mul without an explicit rounding mode.
    for bad in ["add.f32", "sub.f32", "mul.f32"] {
        assert!(!has_line(&p, bad), "found `{bad}`");
    }
    assert!(!has_line(&p, "setp.ne.f32"));
}

#[test]
fn f64_ops() {
    let p = check(&all_ops_kernel(Ty::F64));
    for l in [
        "add.rn.f64",
        "div.rn.f64",
        "fma.rn.f64",
        "sqrt.rn.f64",
        "setp.neu.f64",
        "ld.global.nc.f64",
    ] {
        assert_line(&p, l);
    }
}

#[test]
fn half_ops_compute_in_f32_and_round_once() {
    let p = check(&all_ops_kernel(Ty::F16));
    assert_line(&p, "cvt.f32.f16");
    assert_line(&p, "cvt.rn.f16.f32");
    assert_line(&p, "fma.rn.f16");
    assert_line(&p, "xor.b16");
    let p80 = check(&all_ops_kernel(Ty::BF16));
    assert_line(&p80, "cvt.rn.bf16.f32");
    let p70 = &check_on(&all_ops_kernel(Ty::BF16), &[70])[0].1;
    assert!(
        !p70.contains(".bf16"),
        "sm_70 PTX must not use bf16 instructions:\n{p70}"
    );
}

/// 8- and 16-bit integers compute in 32-bit registers, normalized after each operation that can
/// carry out of their width, as nvcc promotes C's narrow integers. No 16-bit integer ALU
/// instruction may appear: the JIT of CUDA 13.0 (driver 580) drops the sign extension of a
/// `neg.s16` result that feeds a widening use (found by the differential GPU run).
#[test]
fn narrow_ints_wrap() {
    let p = check(&all_ops_kernel(Ty::I8));
    assert_line(&p, "add.s32");
    assert_line(&p, "cvt.s32.s8");
    assert_line(&p, "ld.global.nc.s8");
    let p = check(&all_ops_kernel(Ty::U8));
    assert_line(&p, "0xFF");
    assert_line(&p, "st.global.u8");
    for ty in [Ty::I16, Ty::U16] {
        let p = check(&all_ops_kernel(ty));
        let alu16 = p.lines().find(|l| {
            let op = l.trim_start();
            !(op.starts_with("ld.") || op.starts_with("st.") || op.starts_with("cvt."))
                && [".s16", ".u16", ".b16"].iter().any(|s| op.contains(s))
        });
        assert!(
            alu16.is_none(),
            "16-bit integer instruction {alu16:?} in:\n{p}"
        );
    }
    assert_line(&check(&all_ops_kernel(Ty::I16)), "cvt.s32.s16");
    let p = check(&all_ops_kernel(Ty::U16));
    assert_line(&p, "and.b32");
    assert_line(&p, "setp.lt.u32");
}

#[test]
fn int_ops() {
    let p = check(&all_ops_kernel(Ty::I32));
    for l in [
        "mul.lo.s32",
        "mul.hi.s32",
        "div.s32",
        "rem.s32",
        "shr.s32",
        "shl.b32",
        "setp.lt.s32",
        "min.s32",
        ", 31;",
        "popc.b32",
        "clz.b32",
    ] {
        assert_line(&p, l);
    }
    // Integer abs is (x ^ m) - m: the driver 580 JIT takes an `abs.s64` result to be
    // non-negative, so `i64::MIN.wrapping_abs().saturating_sub(3)` saturated the wrong way (found
    // by the differential GPU run, reproduced on the H100 with the PTX alone).
    for ty in [Ty::I8, Ty::I16, Ty::I32, Ty::I64] {
        let p = check(&all_ops_kernel(ty));
        assert!(
            !p.lines().any(|l| l.trim_start().starts_with("abs.s")),
            "integer abs instruction in:\n{p}"
        );
    }
    let p = check(&all_ops_kernel(Ty::U64));
    for l in [
        "shr.u64",
        "div.u64",
        "setp.lt.u64",
        "popc.b64",
        "clz.b64",
        "mul.hi.u64",
    ] {
        assert_line(&p, l);
    }
}

#[test]
fn bool_ops() {
    let p = check(&all_ops_kernel(Ty::Bool));
    assert_line(&p, "xor.pred");
    assert_line(&p, "not.pred");
    // Bools are one byte in memory.
    assert_line(&p, "ld.global.nc.u8");
    assert_line(&p, "st.global.u8");
}

#[test]
fn float_remainder_is_a_clear_error() {
    let mut b = KB::new("frem");
    let x = b.scalar_param("x", Ty::F32);
    b.bin(BinOp::Rem, v(x), v(x));
    let k = b.finish();
    let e = kernel_compiler::ptx::emit(&k, &opts(80)).unwrap_err();
    assert!(e.message.contains("Rem"), "{e}");
}

#[test]
fn bf16_fma_needs_sm80() {
    let mut b = KB::new("bfma");
    let x = b.scalar_param("x", Ty::BF16);
    let d = b.var(Ty::BF16);
    b.push(Inst::Fma {
        dst: d,
        a: v(x),
        b: v(x),
        c: v(x),
    });
    let k = b.finish();
    let e = kernel_compiler::ptx::emit(&k, &opts(70)).unwrap_err();
    assert!(e.message.contains("sm_80"), "{e}");
    check_on(&k, &[80, 90]);
}

/// `x ^ all-ones` is `not`: the driver 580 JIT (ptxas 13.0) computed `xor r, x, -1` as `x` where
/// a branch had fixed `x` to a constant (differential seed 0x77fd999b95b5ebe8).
#[test]
fn xor_with_all_ones_is_not() {
    for (ty, ones, not) in [
        (Ty::U32, u32::MAX as u64, "not.b32"),
        (Ty::I64, u64::MAX, "not.b64"),
        (Ty::U8, 0xff, "not.b"),
    ] {
        let mut b = KB::new("xor_ones");
        let (inp, _) = b.slice_param("inp", true, ty);
        let (out, _) = b.slice_param("out", false, ty);
        let tid = b.tid_x();
        let a = b.elem_addr(inp, v(tid), ty);
        let x = b.load_global(ty, a, true);
        let r = b.bin(BinOp::Xor, c(ty, ones), v(x));
        let s = b.bin(BinOp::Xor, v(r), c(ty, ones));
        let o = b.elem_addr(out, v(tid), ty);
        b.store_global(o, v(r));
        let o2 = b.elem_addr(out, v(s), ty);
        b.store_global(o2, v(x));
        let p = check(&b.finish());
        assert!(p.contains(not), "{ty:?}: no `{not}` in\n{p}");
        assert!(
            !p.lines().any(|l| l.trim_start().starts_with("xor.")),
            "{ty:?}: an xor is left in\n{p}"
        );
    }
}

/// `x as u64 * 4` (and `<< 2`) of a 32-bit `x` written once is one `mul.wide` of `x`, signed
/// for an `i32`, unsigned for a `u32` (ptxas makes it one `IMAD.WIDE`; from a `cvt` and a
/// 64-bit shift it made a shift for the high half and two `LEA`s). A `u64` written twice keeps
/// the 64-bit arithmetic.
#[test]
fn widened_index_times_a_constant_is_mul_wide() {
    for (ty, sfx) in [(Ty::I32, "s32"), (Ty::U32, "u32")] {
        let mut b = KB::new("wide");
        let (inp, _) = b.slice_param("inp", true, Ty::F32);
        let (out, _) = b.slice_param("out", false, Ty::F32);
        let i = b.scalar_param("i", ty);
        let a = b.elem_addr(inp, v(i), Ty::F32);
        let x = b.load_global(Ty::F32, a, true);
        let w = b.cast(v(i), Ty::U64);
        let off = b.bin(BinOp::Shl, v(w), c(Ty::U32, 3));
        let o = b.bin(BinOp::Add, v(out), v(off));
        b.store_global(o, v(x));
        let twice = b.var(Ty::U64);
        b.push(Inst::Cast {
            dst: twice,
            a: v(i),
        });
        b.push(Inst::Cast {
            dst: twice,
            a: v(i),
        });
        let off2 = b.bin(BinOp::Mul, v(twice), c(Ty::U64, 4));
        let o2 = b.bin(BinOp::Add, v(out), v(off2));
        b.store_global(o2, v(x));
        let p = check(&b.finish());
        let wide: Vec<_> = p
            .lines()
            .filter(|l| l.contains(&format!("mul.wide.{sfx}")))
            .collect();
        assert_eq!(
            wide.len(),
            2,
            "{ty:?}: the two products of `i` once widened\n{p}"
        );
        assert!(wide.iter().any(|l| l.trim_end().ends_with(", 4;")), "{p}");
        assert!(wide.iter().any(|l| l.trim_end().ends_with(", 8;")), "{p}");
        assert!(p.contains("mul.lo.s64") || p.contains("mul.lo.u64"), "{p}");
    }
}
