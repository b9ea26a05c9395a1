//! Every `as` cast and bit cast between IR types assembles for sm_70/80/90, and the lines that
//! carry Rust's semantics (saturation, NaN -> 0, single rounding) are there.

mod ptx_support;
use kernel_ir::ir::*;
use ptx_support::*;

fn castable(from: Ty, to: Ty) -> bool {
    from != to && to != Ty::Bool && (from != Ty::Bool || to.is_int())
}

/// Loads one `from`, casts it to every type it can be cast to and stores each result.
fn casts_from(from: Ty) -> Kernel {
    let mut b = KB::new(&format!("cast_from_{from:?}").to_lowercase());
    let (inp, _) = b.slice_param("inp", true, from);
    let (out, _) = b.slice_param("out", false, Ty::U64);
    let tid = b.tid_x();
    let a = b.elem_addr(inp, v(tid), from);
    let x = b.load_global(from, a, true);
    let mut n = 0u64;
    for to in ALL_TYS {
        if !castable(from, to) {
            continue;
        }
        let r = b.cast(v(x), to);
        // Constant sources exercise materialized operands.
        let rc = b.cast(c(from, 0x41), to);
        for val in [r, rc] {
            let addr = b.elem_addr(out, c(Ty::U32, n), Ty::U64);
            b.store_global(addr, v(val));
            n += 1;
        }
    }
    for to in ALL_TYS {
        if to != from && to.bits() == from.bits() && to != Ty::Bool && from != Ty::Bool {
            let r = b.bitcast(v(x), to);
            let addr = b.elem_addr(out, c(Ty::U32, n), Ty::U64);
            b.store_global(addr, v(r));
            n += 1;
        }
    }
    b.finish()
}

#[test]
fn every_cast_assembles() {
    for from in ALL_TYS {
        check(&casts_from(from));
    }
}

#[test]
fn float_to_int_saturates_and_zeroes_nan() {
    let p = check(&casts_from(Ty::F32));
    assert_line(&p, "cvt.rzi.sat.s32.f32");
    assert_line(&p, "cvt.rzi.sat.u64.f32");
    assert_line(&p, "setp.nan.f32");
    // 8-bit results are clamped to their own range.
    assert_line(&p, "min.s32");
    assert_line(&p, ", 127");
    assert_line(&p, ", -128");
    assert_line(&p, ", 255");
    let p = check(&casts_from(Ty::F64));
    assert_line(&p, "cvt.rzi.sat.s64.f64");
    assert_line(&p, "cvt.rn.f32.f64");
    assert_line(&p, "cvt.rn.f16.f64");
}

#[test]
fn int_casts() {
    // 8- and 16-bit values sit sign- or zero-extended in 32-bit registers.
    let p = check(&casts_from(Ty::I8));
    assert_line(&p, "cvt.s64.s32");
    assert_line(&p, "cvt.rn.f32.s32");
    let p = check(&casts_from(Ty::I16));
    assert_line(&p, "cvt.s32.s8");
    let p = check(&casts_from(Ty::U64));
    assert_line(&p, "cvt.u32.u64");
    assert_line(&p, "cvt.s32.s16");
    assert_line(&p, "and.b32");
    assert_line(&p, "cvt.rn.f64.u64");
    let p = check(&casts_from(Ty::Bool));
    assert_line(&p, "selp.u32");
}

#[test]
fn bf16_conversions_per_target() {
    let all = check_on(&casts_from(Ty::F64), &[70, 80, 90]);
    let (p70, p80, p90) = (&all[0].1, &all[1].1, &all[2].1);
    assert!(!p70.contains(".bf16"), "{p70}");
    // f64 -> bf16 rounds to odd into f32 first on targets without the direct conversion.
    assert_line(p70, "cvt.rz.f32.f64");
    assert_line(p80, "cvt.rz.f32.f64");
    assert_line(p80, "cvt.rn.bf16.f32");
    assert_line(p90, "cvt.rn.bf16.f64");
    let all = check_on(&casts_from(Ty::I64), &[70, 80, 90]);
    assert_line(&all[0].1, "cvt.rz.f32.s64");
    assert_line(&all[2].1, "cvt.rn.bf16.s64");
    let p = check(&casts_from(Ty::BF16));
    // bf16 -> f32 is a shift, exact on every target.
    assert_line(&p, "shl.b32");
}
