//! f64 modified Bessel functions of the first kind, `cyl_bessel_i0` and `cyl_bessel_i1`.
//!
//! `|x| < 12`: the power series `I0 = S0(z)`, `I1 = (x/2) S1(z)` with `z = (x/2)^2`,
//! `S0 = sum z^k / k!^2`, `S1 = sum z^k / (k! (k+1)!)` (positive terms: no cancellation, degree
//! 32). `z` is formed as an exact double-double `zh + zl` and the low part applied through the
//! derivative (`S0' = S1`, `S1' = (S0 - S1) / z`), because near the switch the functions magnify
//! `z`'s relative rounding about sixfold. (The switch was at 16, where the series' error made
//! `I1` reach CUDA's 6 ulp.) Beyond: `e^x / sqrt(x) P(1/x)` with `P` a polynomial in `1/x`
//! (least squares on Chebyshev nodes in mpmath, degree 17 on `[0, 1/12]`, relative error
//! 2^-57.8), `e^x` split in two halves above 700 so that results up to `I0`'s overflow near 713.98
//! stay finite. `I0` is even, `I1` odd; both are infinite at `±inf`.

#![allow(
    clippy::excessive_precision,
    clippy::approx_constant,
    clippy::neg_cmp_op_on_partial_ord
)]

use kernel_macros::device;

use super::f64_exp_log::exp;

/// `sum z^k / (k! (k + 0)!)`, `z = x^2/4` (the series of `I0`), degree 32.
#[device]
fn series0(z: f64) -> f64 {
    let p = 1.4442969889585408e-71f64;
    let p = p.mul_add(z, 1.4789601166935458e-68);
    let p = p.mul_add(z, 1.4212806721424974e-65);
    let p = p.mul_add(z, 1.2791526049282477e-62);
    let p = p.mul_add(z, 1.0757673407446564e-59);
    let p = p.mul_add(z, 8.434015951438106e-57);
    let p = p.mul_add(z, 6.14839762859838e-54);
    let p = p.mul_add(z, 4.156316796932504e-51);
    let p = p.mul_add(z, 2.5976979980828152e-48);
    let p = p.mul_add(z, 1.4962740468957016e-45);
    let p = p.mul_add(z, 7.915289708078262e-43);
    let p = p.mul_add(z, 3.8310002187098785e-40);
    let p = p.mul_add(z, 1.6894710964510564e-37);
    let p = p.mul_add(z, 6.757884385804225e-35);
    let p = p.mul_add(z, 2.4395962632753253e-32);
    let p = p.mul_add(z, 7.904291893012054e-30);
    let p = p.mul_add(z, 2.2843403570804838e-27);
    let p = p.mul_add(z, 5.8479113141260385e-25);
    let p = p.mul_add(z, 1.3157800456783586e-22);
    let p = p.mul_add(z, 2.5789288895295828e-20);
    let p = p.mul_add(z, 4.358389823304995e-18);
    let p = p.mul_add(z, 6.276081345559193e-16);
    let p = p.mul_add(z, 7.594058428126623e-14);
    let p = p.mul_add(z, 7.594058428126624e-12);
    let p = p.mul_add(z, 6.151187326782565e-10);
    let p = p.mul_add(z, 3.936759889140842e-08);
    let p = p.mul_add(z, 1.9290123456790124e-06);
    let p = p.mul_add(z, 6.944444444444444e-05);
    let p = p.mul_add(z, 0.001736111111111111);
    let p = p.mul_add(z, 0.027777777777777776);
    let p = p.mul_add(z, 0.25);
    let p = p.mul_add(z, 1.0);
    p.mul_add(z, 1.0)
}

/// `sqrt(x) e^-x I0(x)` for `t = 1/x` in `[0, 1/12]`: degree 17 (relative error 2^-57.9).
#[device]
fn large0(t: f64) -> f64 {
    let p = 164348444211.71198f64;
    let p = p.mul_add(t, -108520870910.19533);
    let p = p.mul_add(t, 32208091168.752403);
    let p = p.mul_add(t, -5706284968.012594);
    let p = p.mul_add(t, 675560999.1925102);
    let p = p.mul_add(t, -56601042.56048745);
    let p = p.mul_add(t, 3464143.223140837);
    let p = p.mul_add(t, -157331.24294312845);
    let p = p.mul_add(t, 5347.6795837398995);
    let p = p.mul_add(t, -132.3133703717709);
    let p = p.mul_add(t, 3.190373011022163);
    let p = p.mul_add(t, 0.19497979118420464);
    let p = p.mul_add(t, 0.09091347904468278);
    let p = p.mul_add(t, 0.0447403108699593);
    let p = p.mul_add(t, 0.029219412385815536);
    let p = p.mul_add(t, 0.0280506290768514);
    let p = p.mul_add(t, 0.04986778505018984);
    0.3989422804014327 + t.mul_add(p, -2.49232720227773e-17)
}

/// `sum z^k / (k! (k + 1)!)`, `z = x^2/4` (the series of `I1` / (x/2)), degree 32.
#[device]
fn series1(z: f64) -> f64 {
    let p = 4.376657542298608e-73f64;
    let p = p.mul_add(z, 4.6217503646673306e-70);
    let p = p.mul_add(z, 4.5847763617499917e-67);
    let p = p.mul_add(z, 4.263842016427493e-64);
    let p = p.mul_add(z, 3.7095425542919185e-61);
    let p = p.mul_add(z, 3.0121485540850376e-58);
    let p = p.mul_add(z, 2.2771843068882885e-55);
    let p = p.mul_add(z, 1.5985833834355786e-52);
    let p = p.mul_add(z, 1.0390791992331261e-49);
    let p = p.mul_add(z, 6.234475195398757e-47);
    let p = p.mul_add(z, 3.4414303078601135e-44);
    let p = p.mul_add(z, 1.7413637357772174e-41);
    let p = p.mul_add(z, 8.045100459290744e-39);
    let p = p.mul_add(z, 3.3789421929021126e-36);
    let p = p.mul_add(z, 1.2839980333028028e-33);
    let p = p.mul_add(z, 4.391273273895586e-31);
    let p = p.mul_add(z, 1.3437296218120491e-28);
    let p = p.mul_add(z, 3.654944571328774e-26);
    let p = p.mul_add(z, 8.771866971189057e-24);
    let p = p.mul_add(z, 1.842092063949702e-21);
    let p = p.mul_add(z, 3.352607556388458e-19);
    let p = p.mul_add(z, 5.230067787965994e-17);
    let p = p.mul_add(z, 6.903689480115112e-15);
    let p = p.mul_add(z, 7.594058428126623e-13);
    let p = p.mul_add(z, 6.834652585313961e-11);
    let p = p.mul_add(z, 4.920949861426052e-09);
    let p = p.mul_add(z, 2.755731922398589e-07);
    let p = p.mul_add(z, 1.1574074074074073e-05);
    let p = p.mul_add(z, 0.00034722222222222224);
    let p = p.mul_add(z, 0.006944444444444444);
    let p = p.mul_add(z, 0.08333333333333333);
    let p = p.mul_add(z, 0.5);
    p.mul_add(z, 1.0)
}

/// `sqrt(x) e^-x I1(x)` for `t = 1/x` in `[0, 1/12]`: degree 17 (relative error 2^-57.8).
#[device]
fn large1(t: f64) -> f64 {
    let p = -171609175650.0724f64;
    let p = p.mul_add(t, 113521964574.05305);
    let p = p.mul_add(t, -33751396940.574497);
    let p = p.mul_add(t, 5989743809.744142);
    let p = p.mul_add(t, -710260500.2921178);
    let p = p.mul_add(t, 59599815.296872795);
    let p = p.mul_add(t, -3653031.387312556);
    let p = p.mul_add(t, 166136.98262513676);
    let p = p.mul_add(t, -5654.9486570535255);
    let p = p.mul_add(t, 139.8870622914849);
    let p = p.mul_add(t, -3.445859399180421);
    let p = p.mul_add(t, -0.2344756985026327);
    let p = p.mul_add(t, -0.11106661295142206);
    let p = p.mul_add(t, -0.05752368200027645);
    let p = p.mul_add(t, -0.040907174952540884);
    let p = p.mul_add(t, -0.046751048469790335);
    let p = p.mul_add(t, -0.1496033551505487);
    0.3989422804014327 + t.mul_add(p, -2.49232720227773e-17)
}

/// `e^a p / sqrt(a)` for `a >= 12`, finite up to the overflow of the result.
#[device]
fn scaled(a: f64, p: f64) -> f64 {
    let r = p / a.sqrt();
    if a > 700.0 {
        let e = exp(0.5 * a);
        (e * r) * e
    } else {
        exp(a) * r
    }
}

/// `(S0(z), S1(z))` for the exact `z = (a/2)^2`, to first order in its low part.
#[device]
fn series(a: f64) -> (f64, f64) {
    let h = 0.5 * a;
    let zh = h * h;
    let zl = h.mul_add(h, -zh);
    let s0 = series0(zh);
    let s1 = series1(zh);
    let d1 = if zh > 0.0 { (s0 - s1) / zh } else { 0.5 };
    (zl.mul_add(s1, s0), zl.mul_add(d1, s1))
}

/// `cyl_bessel_i0(x)`: the modified Bessel function of the first kind of order 0.
#[device]
pub fn cyl_bessel_i0(x: f64) -> f64 {
    let a = x.abs();
    if a < 12.0 {
        return series(a).0;
    }
    if !(a < f64::INFINITY) {
        return a; // +inf, NaN
    }
    scaled(a, large0(1.0 / a))
}

/// `cyl_bessel_i1(x)`: the modified Bessel function of the first kind of order 1.
#[device]
pub fn cyl_bessel_i1(x: f64) -> f64 {
    let a = x.abs();
    if a < 12.0 {
        return (0.5 * x) * series(a).1;
    }
    if !(a < f64::INFINITY) {
        return x; // ±inf, NaN
    }
    scaled(a, large1(1.0 / a)).copysign(x)
}
