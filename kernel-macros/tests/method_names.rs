//! The list of method names the macros accept (`kernel-compiler/src/frontend/method_names.rs`,
//! compiled into the macro crate) and what the compiler implements stay one list: every name is
//! used below and every kernel here compiles through the whole pipeline (math functions that
//! Rust's `f32` lacks as methods are called as the device API's free functions, which the
//! compiler types by the same table); the math names are exactly those of the math library's
//! `shape` table.

use ferrocuda::kernel_compiler::frontend::method_names::{
    CONTAINER_METHODS, CONVERSIONS, MATH_METHODS, SCALAR_METHODS,
};
use ferrocuda::kernel_compiler::{compile, CompileOptions};
use ferrocuda::kernel_ir::ast::{self, ExprKind};
use ferrocuda::prelude::*;

#[kernel]
pub fn int_methods(x: &[u32], y: &mut [u32]) {
    let a = x[0];
    let b = x[1];
    let mut acc = 0u32;
    acc += a.min(b) + a.max(b) + a.clamp(1, 9) + a.wrapping_add(b) + a.wrapping_sub(b);
    acc += a.wrapping_mul(b) + a.leading_zeros() + a.trailing_zeros() + a.count_ones();
    acc += a.count_zeros() + a.reverse_bits() + a.pow(2) + a.rotate_left(3) + a.rotate_right(3);
    acc += a.div_ceil(3) + a.saturating_add(b) + a.saturating_sub(b) + a.abs_diff(b);
    acc += a.is_power_of_two() as u32;
    let s = a as i32 - 5;
    acc += s.abs() as u32 + s.signum() as u32 + s.wrapping_neg() as u32 + s.wrapping_abs() as u32;
    acc += s.is_positive() as u32 + s.is_negative() as u32;
    acc += x.len() as u32 + x.is_empty() as u32;
    for i in (0..4u32).rev().step_by(2) {
        acc += i;
    }
    for (i, v) in x.iter().enumerate() {
        acc += *v + i as u32;
    }
    for v in y.iter_mut() {
        *v = 0;
    }
    acc += unsafe { *x.get_unchecked(0) };
    unsafe { *y.get_unchecked_mut(0) = acc };
    y[1] = acc;
}

#[kernel]
pub fn float_methods(f: &[f32], y: &mut [f32]) {
    let a = f[0];
    let b = f[1];
    let c = f[2];
    let mut acc = 0.0f32;
    acc += a.min(b) + a.max(b) + a.clamp(0.0, 1.0) + a.abs() + a.signum() + a.sqrt() + a.floor();
    acc += a.ceil() + a.round() + a.trunc() + a.recip() + a.fract() + a.mul_add(b, c) + a.powi(2);
    acc += (a.is_nan() as u32 + a.is_finite() as u32 + a.is_infinite() as u32) as f32;
    acc += (a.is_sign_negative() as u32 + a.is_sign_positive() as u32) as f32;
    acc += a.to_bits() as f32 + f32::from_bits(b.to_bits());
    let h = f16::from_f32(a);
    acc += h.to_f32() + h.to_f64() as f32 + bf16::from_f64(1.0).to_f32();
    y[0] = acc;
}

#[kernel]
pub fn math_methods(f: &[f32], y: &mut [f32]) {
    let a = f[0];
    let b = f[1];
    let c = f[2];
    let mut acc = 0.0f32;
    acc += rsqrt_cr(a);
    acc += cbrt_cr(a);
    acc += exp_cr(a);
    acc += exp2_cr(a);
    acc += exp10_cr(a);
    acc += expm1_cr(a);
    acc += log_cr(a);
    acc += log2_cr(a);
    acc += log10_cr(a);
    acc += log1p_cr(a);
    acc += sin_cr(a);
    acc += cos_cr(a);
    acc += tan_cr(a);
    acc += sinpi_cr(a);
    acc += cospi_cr(a);
    acc += asin_cr(a);
    acc += acos_cr(a);
    acc += atan_cr(a);
    acc += sinh_cr(a);
    acc += cosh_cr(a);
    acc += tanh_cr(a);
    acc += asinh_cr(a);
    acc += acosh_cr(a);
    acc += atanh_cr(a);
    acc += erf_cr(a);
    acc += erfc_cr(a);
    acc += lgamma_cr(a);
    acc += tgamma_cr(a);
    acc += atan2_cr(a, b);
    acc += powf_cr(a, b);
    acc += hypot_cr(a, b);
    let (s, c2) = sincos_cr(a);
    acc += s + c2;
    let (s, c2) = sincospi_cr(a);
    acc += s + c2;
    acc += rsqrt(a);
    acc += a.cbrt();
    acc += a.exp();
    acc += a.exp2();
    acc += exp10(a);
    acc += a.exp_m1();
    acc += expm1(a);
    acc += a.ln();
    acc += a.log2();
    acc += a.log10();
    acc += a.ln_1p();
    acc += log1p(a);
    acc += a.sin();
    acc += a.cos();
    acc += a.tan();
    acc += sinpi(a);
    acc += cospi(a);
    acc += a.asin();
    acc += a.acos();
    acc += a.atan();
    acc += a.sinh();
    acc += a.cosh();
    acc += a.tanh();
    acc += a.asinh();
    acc += a.acosh();
    acc += a.atanh();
    acc += erf(a);
    acc += erfc(a);
    acc += lgamma(a);
    acc += tgamma(a);
    acc += fast_sin(a);
    acc += fast_cos(a);
    acc += fast_exp(a);
    acc += fast_log(a);
    acc += sqrt_rn(a);
    acc += sqrt_rz(a);
    acc += sqrt_ru(a);
    acc += sqrt_rd(a);
    acc += rcp_rn(a);
    acc += rcp_rz(a);
    acc += rcp_ru(a);
    acc += rcp_rd(a);
    acc += a.atan2(b);
    acc += a.powf(b);
    acc += a.hypot(b);
    acc += fmod(a, b);
    acc += a.copysign(b);
    acc += fast_div(a, b);
    acc += fast_pow(a, b);
    acc += add_rn(a, b);
    acc += add_rz(a, b);
    acc += add_ru(a, b);
    acc += add_rd(a, b);
    acc += sub_rn(a, b);
    acc += sub_rz(a, b);
    acc += sub_ru(a, b);
    acc += sub_rd(a, b);
    acc += mul_rn(a, b);
    acc += mul_rz(a, b);
    acc += mul_ru(a, b);
    acc += mul_rd(a, b);
    acc += div_rn(a, b);
    acc += div_rz(a, b);
    acc += div_ru(a, b);
    acc += div_rd(a, b);
    acc += fma(a, b, c);
    acc += fma_rn(a, b, c);
    acc += fma_rz(a, b, c);
    acc += fma_ru(a, b, c);
    acc += fma_rd(a, b, c);
    acc += a.sin_cos().0;
    acc += sincos(a).0;
    acc += sincospi(a).0;
    acc += rhypot(a, b) + norm3d(a, b, c) + rnorm3d(a, b, c) + rcbrt(a);
    acc += norm4d(a, b, c, a) + rnorm4d(a, b, c, a);
    acc += frexp(a).0 + ldexp(a, 2) + scalbn(a, -1) + logb(a) + ilogb(b) as f32;
    acc += fdim(a, b) + nextafter(a, b) + remainder(a, b) + remquo(a, b).0;
    acc += fast_tan(a) + fast_log2(a) + fast_log10(a) + fast_exp10(a);
    acc += modf(a).0 + fast_sincos(a).1;
    acc += erfinv(a) + erfcinv(b) + normcdfinv(c);
    acc += erfcx(a) + normcdf(b) + cyl_bessel_i0(c) + cyl_bessel_i1(a);
    acc += j0(a) + j1(b) + jn(3, c) + y0(b) + y1(b) + yn(2, b);
    acc += scalbln(a, 3i64) + rint(b) + nearbyint(c);
    acc += (lrint(a) + llrint(b) + lround(c) + llround(a)) as f32;
    y[0] = acc;
}

/// Every method name the kernels above call, by walking their ASTs.
fn called(def: &ast::FnDef, out: &mut Vec<String>) {
    fn expr(e: &ast::Expr, out: &mut Vec<String>) {
        match &e.kind {
            ExprKind::MethodCall {
                receiver,
                method,
                args,
                ..
            } => {
                out.push(method.clone());
                expr(receiver, out);
                args.iter().for_each(|a| expr(a, out));
            }
            ExprKind::AssocCall { method, args, .. } => {
                out.push(method.clone());
                args.iter().for_each(|a| expr(a, out));
            }
            ExprKind::Call { callee, args, .. } => {
                out.push(callee.path.to_string());
                args.iter().for_each(|a| expr(a, out));
            }
            ExprKind::Binary(_, a, b)
            | ExprKind::AssignOp(_, a, b)
            | ExprKind::Assign(a, b)
            | ExprKind::Index(a, b) => {
                expr(a, out);
                expr(b, out);
            }
            ExprKind::Cast(a, _)
            | ExprKind::Unary(_, a)
            | ExprKind::Deref(a)
            | ExprKind::Ref(_, a)
            | ExprKind::Field(a, _) => expr(a, out),
            ExprKind::Block(b) => block(b, out),
            ExprKind::For { iter, body, .. } => {
                expr(iter, out);
                block(body, out);
            }
            _ => {}
        }
    }
    fn block(b: &ast::Block, out: &mut Vec<String>) {
        for s in &b.stmts {
            match s {
                ast::Stmt::Let { init: Some(e), .. } | ast::Stmt::Expr(e) => expr(e, out),
                _ => {}
            }
        }
        if let Some(t) = &b.tail {
            expr(t, out);
        }
    }
    block(&def.body, out);
}

#[test]
fn every_listed_method_compiles() {
    let o = CompileOptions::default();
    for (name, def) in [
        ("int_methods", int_methods::ast()),
        ("float_methods", float_methods::ast()),
        ("math_methods", math_methods::ast()),
    ] {
        if let Err(e) = compile(def, &[], &o) {
            panic!("{name}: {e}");
        }
    }
    let mut used = Vec::new();
    called(int_methods::ast(), &mut used);
    called(float_methods::ast(), &mut used);
    called(math_methods::ast(), &mut used);
    let missing: Vec<&&str> = CONTAINER_METHODS
        .iter()
        .chain(SCALAR_METHODS)
        .chain(MATH_METHODS)
        .chain(CONVERSIONS)
        .filter(|m| !used.iter().any(|u| u == *m))
        .collect();
    assert!(missing.is_empty(), "listed but not exercised: {missing:?}");
}

#[test]
fn math_names_are_the_math_librarys() {
    use ferrocuda::kernel_std::intrinsics::math;
    for name in MATH_METHODS {
        assert!(
            math::method(name).is_some(),
            "`{name}` is listed but not in the math library"
        );
    }
    // Every method the math library's specs answer to is listed.
    for name in math::method_names() {
        assert!(
            MATH_METHODS.contains(&name),
            "`{name}` is missing from MATH_METHODS"
        );
    }
}
