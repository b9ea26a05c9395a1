//! Every math-library function and math intrinsic, f32 and f64, compiled in
//! one kernel per type and assembled by `ptxas` for sm_80 and sm_90 (skipped without ptxas).

use ferrocuda::kernel_compiler::{compile, CompileOptions};
use ferrocuda::prelude::*;

macro_rules! every_fn {
    ($name:ident, $t:ty) => {
        #[kernel]
        pub fn $name(x: &[$t], y: &mut [$t]) {
            let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
            if i < y.len() {
                let v = x[i];
                let w = x[(i + 1) % x.len()];
                let mut a = v.sqrt() + rsqrt(v) + v.cbrt() + v.exp() + v.exp2() + exp10(v);
                a += v.exp_m1() + expm1(v) + v.ln() + v.log2() + v.log10() + v.ln_1p() + log1p(v);
                a += v.sin() + v.cos() + v.tan() + sinpi(v) + cospi(v);
                let (s, c) = v.sin_cos();
                let (s2, c2) = sincos(v);
                let (s3, c3) = sincospi(v);
                a += s + c + s2 + c2 + s3 + c3;
                a += v.asin() + v.acos() + v.atan() + v.atan2(w);
                a += v.sinh() + v.cosh() + v.tanh() + v.asinh() + v.acosh() + v.atanh();
                a += v.powf(w) + v.powi(3) + v.hypot(w) + erf(v) + erfc(v) + lgamma(v) + tgamma(v);
                a += v.floor() + v.ceil() + v.round() + v.trunc() + v.fract();
                a += v % w + fmod(v, w) + v.copysign(w) + fma(v, w, a) + v.mul_add(w, a);
                a += v.min(w) + v.max(w);
                if v.is_nan() || !v.is_finite() {
                    a += 1.0;
                }
                a += add_rn(v, w) + add_rz(v, w) + add_ru(v, w) + add_rd(v, w);
                a += sub_rn(v, w) + sub_rz(v, w) + sub_ru(v, w) + sub_rd(v, w);
                a += mul_rn(v, w) + mul_rz(v, w) + mul_ru(v, w) + mul_rd(v, w);
                a += div_rn(v, w) + div_rz(v, w) + div_ru(v, w) + div_rd(v, w);
                a += fma_rn(v, w, a) + fma_rz(v, w, a) + fma_ru(v, w, a) + fma_rd(v, w, a);
                a += sqrt_rn(v) + sqrt_rz(v) + sqrt_ru(v) + sqrt_rd(v);
                a += rcp_rn(v) + rcp_rz(v) + rcp_ru(v) + rcp_rd(v);
                a += rhypot(v, w) + norm3d(v, w, a) + rnorm3d(v, w, a) + rcbrt(v);
                a += norm4d(v, w, a, v) + rnorm4d(v, w, a, v);
                let (m, e) = frexp(v);
                let (r, q) = remquo(v, w);
                a += m + e as $t + ldexp(v, 3) + scalbn(w, -2) + logb(v) + ilogb(w) as $t;
                a += fdim(v, w) + nextafter(v, w) + remainder(v, w) + r + q as $t;
                let (fr, ip) = modf(v);
                a += fr + ip;
                a += erfcx(v) + normcdf(w) + erfinv(v) + erfcinv(w) + normcdfinv(v);
                a += scalbln(v, 5i64) + rint(w) + nearbyint(v);
                a += cyl_bessel_i0(v) + cyl_bessel_i1(w);
                a += (lrint(v) + llrint(w) + lround(v) + llround(w)) as $t;
                y[i] = a;
            }
        }
    };
}
every_fn!(every_f32, f32);
every_fn!(every_f64, f64);

#[kernel]
pub fn every_fast(x: &[f32], y: &mut [f32]) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    if i < y.len() {
        let v = x[i];
        y[i] = fast_sin(v)
            + fast_cos(v)
            + fast_exp(v)
            + fast_log(v)
            + fast_div(v, 3.0)
            + fast_pow(v, 0.5)
            + fast_tan(v)
            + fast_log2(v)
            + fast_log10(v)
            + fast_exp10(v)
            + fast_sincos(v).0
            + fast_sincos(v).1;
    }
}

#[test]
fn every_math_function_assembles_for_sm80_and_sm90() {
    let defs = [every_f32::ast(), every_f64::ast(), every_fast::ast()];
    for def in defs {
        for sm in [80, 90] {
            let opts = CompileOptions {
                sm,
                ..CompileOptions::default()
            };
            let c = compile(def, &[], &opts).unwrap_or_else(|e| panic!("{}: {e}", def.name));
            assert!(c.ptx.contains(".entry"), "{}", def.name);
            if kernel_testkit::ptxas::require_ptxas().is_some() {
                let r = kernel_testkit::ptxas::assemble(&c.ptx, sm);
                assert!(r.is_ok(), "{} sm_{sm}: {:?}", def.name, r.err());
            }
        }
    }
    let fast = compile(every_fast::ast(), &[], &CompileOptions::default()).unwrap();
    for op in [
        "sin.approx.f32",
        "cos.approx.f32",
        "ex2.approx.f32",
        "lg2.approx.f32",
        "div.approx.f32",
    ] {
        assert!(fast.ptx.contains(op), "missing {op}");
    }
    let rounding = compile(every_f64::ast(), &[], &CompileOptions::default()).unwrap();
    for op in [
        "add.rz.f64",
        "mul.rp.f64",
        "div.rm.f64",
        "sqrt.rz.f64",
        "rcp.rp.f64",
        "fma.rm.f64",
    ] {
        assert!(rounding.ptx.contains(op), "missing {op}");
    }
}

#[kernel]
pub fn sin_of_f32(x: &[f32], y: &mut [f32]) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    if i < y.len() {
        y[i] = x[i].sin();
    }
}

/// The math functions are ordinary arithmetic after inlining: no calls and no register spills.
#[test]
fn sin_f32_assembles_without_spills() {
    let opts = CompileOptions {
        sm: 90,
        ..CompileOptions::default()
    };
    let c = compile(sin_of_f32::ast(), &[], &opts).unwrap();
    assert!(!c.ptx.contains("call"), "math functions are inlined");
    if kernel_testkit::ptxas::require_ptxas().is_some() {
        let r = kernel_testkit::ptxas::assemble(&c.ptx, 90).expect("ptxas");
        let e = &r.entries[0];
        println!(
            "sin f32 on sm_90: {} registers, {} B stack",
            e.registers, e.stack_frame
        );
        assert_eq!((e.spill_stores, e.spill_loads), (0, 0));
    }
}

/// sin, cos and tan eight times per iteration (the math benchmark's shape): the large-argument
/// reduction of each copy keeps its table in registers (no local array, no stack frame), so
/// the copies don't fill the register file and spill on the common path.
#[kernel]
pub fn trig_unrolled_f32(x: &[f32], y: &mut [f32]) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    if i < y.len() {
        let mut v = x[i];
        let mut acc = 0.0f32;
        #[unroll(8)]
        for _ in 0..16 {
            acc += v.sin() + v.cos() * v.tan();
            v += 1e-4;
        }
        y[i] = acc;
    }
}

#[test]
fn unrolled_f32_trig_uses_no_local_memory() {
    let opts = CompileOptions {
        sm: 90,
        ..CompileOptions::default()
    };
    let c = compile(trig_unrolled_f32::ast(), &[], &opts).unwrap();
    assert!(!c.ptx.contains(".local"), "a local array in f32 trig");
    if kernel_testkit::ptxas::require_ptxas().is_some() {
        let r = kernel_testkit::ptxas::assemble(&c.ptx, 90).expect("ptxas");
        let e = &r.entries[0];
        assert_eq!(
            (e.spill_stores, e.spill_loads, e.stack_frame),
            (0, 0, 0),
            "{e:?}"
        );
        assert!(e.registers <= 64, "{e:?}");
    }
}

/// The example of `docs/math-ulp.md`.
#[kernel]
pub fn demo(x: &[f32], y: &mut [f32]) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    if i < y.len() {
        let v = x[i];
        let (s, c) = v.sin_cos();
        y[i] = s * c
            + v.atan2(2.0)
            + v % 0.5
            + rsqrt(v)
            + sinpi(v)
            + erfc(v)
            + fast_exp(v)
            + add_rz(v, 1.0);
    }
}

#[test]
fn documented_example_runs_on_the_simulator() {
    let dev = Device::simulator();
    let s = dev.new_stream().unwrap();
    let xs = [0.25f32, 1.5, 3.0];
    let x = dev.upload(&xs).unwrap();
    let mut y = dev.alloc_zeroed::<f32>(3).unwrap();
    demo::launch(&s, LaunchConfig::for_elements(3, 32), &x, &mut y).unwrap();
    let got = y.to_vec().unwrap();
    for (v, g) in xs.iter().map(|&v| v as f64).zip(got) {
        let pi = std::f64::consts::PI;
        let want = v.sin() * v.cos()
            + v.atan2(2.0)
            + v % 0.5
            + 1.0 / v.sqrt()
            + (pi * v).sin()
            + erfc_host(v)
            + v.exp()
            + (v + 1.0);
        assert!(
            (g as f64 - want).abs() < 1e-5 * want.abs().max(1.0),
            "{v}: {g} vs {want}"
        );
    }
}

/// erfc on the host, for the check above (glibc).
fn erfc_host(x: f64) -> f64 {
    extern "C" {
        fn erfc(x: f64) -> f64;
    }
    unsafe { erfc(x) }
}

mod math_common;

/// Every f32 math function, compiled alone in a kernel for sm_80 and sm_90: its PTX has no f64
/// instruction (`.f64` operand types, `cvt` to or from f64), so f32 math runs at f32 speed on
/// every GPU (issue 27: f64 runs at 1/2 to 1/64 of the f32 rate), and no local-memory array.
#[test]
fn f32_math_functions_use_no_f64_instruction() {
    use math_common::kernels as k;
    let kernels = [
        k::sqrt_f32::ast(),
        k::rsqrt_f32::ast(),
        k::cbrt_f32::ast(),
        k::exp_f32::ast(),
        k::exp2_f32::ast(),
        k::exp10_f32::ast(),
        k::expm1_f32::ast(),
        k::ln_f32::ast(),
        k::log2_f32::ast(),
        k::log10_f32::ast(),
        k::ln_1p_f32::ast(),
        k::sin_f32::ast(),
        k::cos_f32::ast(),
        k::sincos_s_f32::ast(),
        k::sincos_c_f32::ast(),
        k::tan_f32::ast(),
        k::sinpi_f32::ast(),
        k::cospi_f32::ast(),
        k::sincospi_s_f32::ast(),
        k::sincospi_c_f32::ast(),
        k::asin_f32::ast(),
        k::acos_f32::ast(),
        k::atan_f32::ast(),
        k::sinh_f32::ast(),
        k::cosh_f32::ast(),
        k::tanh_f32::ast(),
        k::asinh_f32::ast(),
        k::acosh_f32::ast(),
        k::atanh_f32::ast(),
        k::erf_f32::ast(),
        k::erfc_f32::ast(),
        k::lgamma_f32::ast(),
        k::tgamma_f32::ast(),
        k::atan2_f32::ast(),
        k::powf_f32::ast(),
        k::hypot_f32::ast(),
        k::fmod_f32::ast(),
        k::copysign_f32::ast(),
        k::rcbrt_f32::ast(),
        k::rhypot_f32::ast(),
        k::frexp_m_f32::ast(),
        k::frexp_e_f32::ast(),
        k::ilogb_f32::ast(),
        k::logb_f32::ast(),
        k::ldexp_f32::ast(),
        k::scalbn_f32::ast(),
        k::fdim_f32::ast(),
        k::nextafter_f32::ast(),
        k::remainder_f32::ast(),
        k::remquo_r_f32::ast(),
        k::remquo_q_f32::ast(),
        k::modf_f_f32::ast(),
        k::modf_i_f32::ast(),
    ];
    let kernels = kernels
        .into_iter()
        .chain(math_common::more::f32_kernels())
        .chain(math_common::inverse::f32_kernels())
        .chain(math_common::normal::f32_kernels())
        .chain(math_common::ints::f32_kernels())
        .chain(math_common::bessel_i::f32_kernels())
        .chain(math_common::bessel_jy::f32_kernels());
    let mut bad = Vec::new();
    for def in kernels {
        for sm in [80, 90] {
            let opts = CompileOptions {
                sm,
                ..CompileOptions::default()
            };
            let c = compile(def, &[], &opts).unwrap_or_else(|e| panic!("{}: {e}", def.name));
            let f64_lines: Vec<&str> = c
                .ptx
                .lines()
                .filter(|l| l.contains(".f64") || l.contains("cvt.f64"))
                .collect();
            if !f64_lines.is_empty() {
                bad.push(format!("{} sm_{sm}: {}", def.name, f64_lines.join(" | ")));
            }
            if c.ptx.contains(".local") {
                bad.push(format!("{} sm_{sm}: a local-memory array", def.name));
            }
            if kernel_testkit::ptxas::require_ptxas().is_some() {
                let r = kernel_testkit::ptxas::assemble(&c.ptx, sm);
                assert!(r.is_ok(), "{} sm_{sm}: {:?}", def.name, r.err());
            }
        }
    }
    assert!(
        bad.is_empty(),
        "f64 instructions or local arrays in f32 math:\n{}",
        bad.join("\n")
    );
}

/// The f32 functions that CUDA evaluates without a branch, compiled alone: as many branches in
/// their PTX as in the same kernel around `trunc` (the kernel's own bounds checks), so the
/// hot path is straight-line code and special cases are selects.
#[test]
fn branch_free_f32_functions_have_no_branch() {
    use math_common::kernels as k;
    let branches = |def| {
        let c = compile(def, &[], &CompileOptions::default()).unwrap();
        c.ptx.lines().filter(|l| l.contains("bra ")).count()
    };
    let base = branches(k::trunc_f32::ast());
    let mut bad = Vec::new();
    for def in [
        k::asinh_f32::ast(),
        k::acosh_f32::ast(),
        k::atanh_f32::ast(),
        k::ln_1p_f32::ast(),
        k::sinpi_f32::ast(),
        k::cospi_f32::ast(),
        k::cbrt_f32::ast(),
        k::asin_f32::ast(),
        k::acos_f32::ast(),
        k::atan_f32::ast(),
        k::erfc_f32::ast(),
        k::rcbrt_f32::ast(),
        k::frexp_m_f32::ast(),
        // `ilogb`/`logb` branch once to their slow path (zeros, subnormals, infinities, NaN),
        // as nvcc's `ilogbf`/`logbf` do: `ilogb_and_logb_branch_once` below.
        math_common::normal::erfcx_f32::ast(),
        math_common::normal::normcdf_f32::ast(),
        math_common::bessel_i::cyl_bessel_i0_f32::ast(),
        math_common::bessel_i::cyl_bessel_i1_f32::ast(),
    ] {
        let n = branches(def);
        if n != base {
            bad.push(format!("{}: {} branches, {base} around trunc", def.name, n));
        }
    }
    // Two-argument functions: the same kernel shape around `copysign`, whose one-instruction
    // body lets the kernel's own `if i < y.len()` become predication (one branch fewer).
    let base2 = branches(k::copysign_f32::ast()) + 1;
    for def in [
        k::hypot_f32::ast(),
        k::powf_f32::ast(),
        k::rhypot_f32::ast(),
        k::ldexp_f32::ast(),
        k::fdim_f32::ast(),
        k::nextafter_f32::ast(),
    ] {
        let n = branches(def);
        if n > base2 {
            bad.push(format!(
                "{}: {n} branches, {base2} around copysign",
                def.name
            ));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// `ilogb`/`logb`: the exponent field on the common path, one branch (one more than the kernel
/// shape around `trunc`) to the slow path.
#[test]
fn ilogb_and_logb_branch_once() {
    use math_common::kernels as k;
    let branches = |def| {
        let c = compile(def, &[], &CompileOptions::default()).unwrap();
        c.ptx.lines().filter(|l| l.contains("bra ")).count()
    };
    let base = branches(k::trunc_f32::ast());
    for def in [k::ilogb_f32::ast(), k::logb_f32::ast()] {
        assert_eq!(branches(def), base + 1, "{}", def.name);
    }
}

#[kernel]
pub fn exp_cr_f32(x: &[f32], y: &mut [f32]) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    if i < y.len() {
        y[i] = exp_cr(x[i]);
    }
}

/// The scan above can fail: the correctly rounded variant keeps the f64 route (what every f32
/// function compiled to before issue 27) and its PTX has f64 instructions.
#[test]
fn the_f64_scan_sees_the_correctly_rounded_route() {
    let c = compile(exp_cr_f32::ast(), &[], &CompileOptions::default()).unwrap();
    assert!(c.ptx.contains("cvt.f64.f32"), "exp_cr goes through f64");
    assert!(c.ptx.lines().any(|l| l.contains(".f64")));
}
