//! f64 scaled complementary error function and normal distribution function:
//! `erfcx(x) = e^(x^2) erfc(x)` and `normcdf(x) = erfc(-x / sqrt 2) / 2`.
//!
//! `erfcx` on `[-1, 5/2)`: Taylor series at the centres -0.75, -0.25, ..., 2.25 (half-unit
//! pieces, truncation below 2^-62 relative; coefficients from the recurrence
//! `(k + 1) a_(k+1) = 2 c a_k + 2 a_(k-1)` that `y' = 2 x y - 2/sqrt(pi)` gives, computed in
//! mpmath); each piece adds its constant (a double-double) last, so it rounds about once. From
//! 5/2: `G(w) / x` with `G(w) = x erfcx(x)` a polynomial in `w = 1/x^2` (least squares on
//! Chebyshev nodes in mpmath: degree 18 on `[1/64, 0.16]`, degree 10 on `[0, 1/64]`, relative
//! error 2^-58.7 and 2^-63 with f64 coefficients), so nothing overflows or underflows however
//! large `x` is. Below -1:
//! `2 e^(x^2) - erfcx(-x)` (`e^(x^2)` of the exact double-double `x^2`), where the subtracted
//! term is at most a twelfth of the first.
//!
//! `normcdf` is `e^(-x^2/2) erfcx(|x| / sqrt 2) / 2` (`x^2` an exact double-double), `1 -` that
//! above 0: it never takes `erfc` of the rounded `x / sqrt 2`, whose rounding erfc's steepness
//! would magnify by about `x^2` in the lower tail; erfcx changes slowly, and the rounding of
//! `|x| / sqrt 2` (computed exactly as a double-double) is removed to first order through
//! erfcx's derivative.

#![allow(clippy::excessive_precision, clippy::approx_constant)]

use kernel_macros::device;

use super::f64_pow::exp_dd;

/// `erfcx(-0.75 + h)` for `|h| <= 1/4` (Taylor series, degree 21).
#[device]
fn erfcx_at_m0_75(h: f64) -> f64 {
    let p = -1.534743011755134e-05f64;
    let p = p.mul_add(h, 4.483315476666938e-05);
    let p = p.mul_add(h, -0.00012752315015928707);
    let p = p.mul_add(h, 0.0003526891850472285);
    let p = p.mul_add(h, -0.0009469530377278057);
    let p = p.mul_add(h, 0.002463987887129202);
    let p = p.mul_add(h, -0.006201109905339447);
    let p = p.mul_add(h, 0.01506107066802903);
    let p = p.mul_add(h, -0.03521252128902408);
    let p = p.mul_add(h, 0.07901810370943516);
    let p = p.mul_add(h, -0.16961781059658015);
    let p = p.mul_add(h, 0.34689526430917583);
    let p = p.mul_add(h, -0.672726510049309);
    let p = p.mul_add(h, 1.2299314390088973);
    let p = p.mul_add(h, -2.1048207159652175);
    let p = p.mul_add(h, 3.341110219061677);
    let p = p.mul_add(h, -4.861039841582003);
    let p = p.mul_add(h, 6.377550775998528);
    let p = p.mul_add(h, -7.369436521956112);
    let p = p.mul_add(h, 7.22802416052997);
    let p = p.mul_add(h, -5.633136662536691);
    3.003171663627452 + h.mul_add(p, 1.7166132816177178e-16)
}

/// `erfcx(-0.25 + h)` for `|h| <= 1/4` (Taylor series, degree 20).
#[device]
fn erfcx_at_m0_25(h: f64) -> f64 {
    let p = 1.409722119761488e-06f64;
    let p = p.mul_add(h, -4.339059754748426e-06);
    let p = p.mul_add(h, 1.3012456258927775e-05);
    let p = p.mul_add(h, -3.7967953605378104e-05);
    let p = p.mul_add(h, 0.00010762011792900544);
    let p = p.mul_add(h, -0.0002958225761634625);
    let p = p.mul_add(h, 0.000787005299391178);
    let p = p.mul_add(h, -0.0020219179963781742);
    let p = p.mul_add(h, 0.005003557596643702);
    let p = p.mul_add(h, -0.011891577577297207);
    let p = p.mul_add(h, 0.02704845118553791);
    let p = p.mul_add(h, -0.058641563878750164);
    let p = p.mul_add(h, 0.12058186495800201);
    let p = p.mul_add(h, -0.23374157121487524);
    let p = p.mul_add(h, 0.42389206702828924);
    let p = p.mul_add(h, -0.712122482494991);
    let p = p.mul_add(h, 1.09364558046112);
    let p = p.mul_add(h, -1.5068948111221976);
    let p = p.mul_add(h, 1.8105674581416906);
    let p = p.mul_add(h, -1.8077003521478736);
    1.358642370104722 + h.mul_add(p, 7.228199234484179e-18)
}

/// `erfcx(0.25 + h)` for `|h| <= 1/4` (Taylor series, degree 19).
#[device]
fn erfcx_at_0_25(h: f64) -> f64 {
    let p = -1.9086546565496293e-07f64;
    let p = p.mul_add(h, 6.207148852050145e-07);
    let p = p.mul_add(h, -1.9684006450234016e-06);
    let p = p.mul_add(h, 6.078534128100981e-06);
    let p = p.mul_add(h, -1.825103901472416e-05);
    let p = p.mul_add(h, 5.3191032778488893e-05);
    let p = p.mul_add(h, -0.0001501805508050534);
    let p = p.mul_add(h, 0.0004098823671506856);
    let p = p.mul_add(h, -0.0010786441720205186);
    let p = p.mul_add(h, 0.002728955245909243);
    let p = p.mul_add(h, -0.006614781757590163);
    let p = p.mul_add(h, 0.015298471668943757);
    let p = p.mul_add(h, -0.03359113582639167);
    let p = p.mul_add(h, 0.06959167063237294);
    let p = p.mul_add(h, -0.13496689305046408);
    let p = p.mul_add(h, 0.24251673515973485);
    let p = p.mul_add(h, -0.39804641641609395);
    let p = p.mul_add(h, 0.5845450744234932);
    let p = p.mul_add(h, -0.7432058932300142);
    0.7703465477309968 + h.mul_add(p, -1.1815041295276343e-17)
}

/// `erfcx(0.75 + h)` for `|h| <= 1/4` (Taylor series, degree 18).
#[device]
fn erfcx_at_0_75(h: f64) -> f64 {
    let p = 3.750604434348139e-08f64;
    let p = p.mul_add(h, -1.2920526683148003e-07);
    let p = p.mul_add(h, 4.3445834921494253e-07);
    let p = p.mul_add(h, -1.424088529978787e-06);
    let p = p.mul_add(h, 4.543733191203631e-06);
    let p = p.mul_add(h, -1.4088463868243626e-05);
    let p = p.mul_add(h, 4.237248023960813e-05);
    let p = p.mul_add(h, -0.00012335437532328967);
    let p = p.mul_add(h, 0.0003467506629301161);
    let p = p.mul_add(h, -0.0009385120614756802);
    let p = p.mul_add(h, 0.0024376373607573405);
    let p = p.mul_add(h, -0.006051532297208567);
    let p = p.mul_add(h, 0.014289198665935787);
    let p = p.mul_add(h, -0.03189726203968182);
    let p = p.mul_add(h, 0.06679054252756873);
    let p = p.mul_add(h, -0.1298360619948811);
    let p = p.mul_add(h, 0.2309581315512983);
    let p = p.mul_add(h, -0.3679726916557954);
    0.5069376502931449 + h.mul_add(p, -5.335681035462232e-17)
}

/// `erfcx(1.25 + h)` for `|h| <= 1/4` (Taylor series, degree 17).
#[device]
fn erfcx_at_1_25(h: f64) -> f64 {
    let p = -1.051812852332897e-08f64;
    let p = p.mul_add(h, 3.8468843764623906e-08);
    let p = p.mul_add(h, -1.374901471540761e-07);
    let p = p.mul_add(h, 4.796134340595864e-07);
    let p = p.mul_add(h, -1.630692896230054e-06);
    let p = p.mul_add(h, 5.3956601587046725e-06);
    let p = p.mul_add(h, -1.734407902387619e-05);
    let p = p.mul_add(h, 5.405405973207327e-05);
    let p = p.mul_add(h, -0.00016296000929641064);
    let p = p.mul_add(h, 0.00047397031028087965);
    let p = p.mul_add(h, -0.0013257829296849475);
    let p = p.mul_add(h, 0.003553109903229703);
    let p = p.mul_add(h, -0.009081627632934445);
    let p = p.mul_add(h, 0.022011364250857163);
    let p = p.mul_add(h, -0.05021827439590757);
    let p = p.mul_add(h, 0.1067955714965988);
    let p = p.mul_add(h, -0.20882187596460985);
    0.3678229164523611 + h.mul_add(p, 1.387401093925035e-19)
}

/// `erfcx(1.75 + h)` for `|h| <= 1/4` (Taylor series, degree 17).
#[device]
fn erfcx_at_1_75(h: f64) -> f64 {
    let p = -1.0409739103245152e-09f64;
    let p = p.mul_add(h, 4.1343784318510716e-09);
    let p = p.mul_add(h, -1.6083440493497754e-08);
    let p = p.mul_add(h, 6.122104831842964e-08);
    let p = p.mul_add(h, -2.2776263825848503e-07);
    let p = p.mul_add(h, 8.271319551813563e-07);
    let p = p.mul_add(h, -2.927938070247526e-06);
    let p = p.mul_add(h, 1.0086683354021308e-05);
    let p = p.mul_add(h, -3.3755355255898685e-05);
    let p = p.mul_add(h, 0.00010950528846792923);
    let p = p.mul_add(h, -0.00034353335347042023);
    let p = p.mul_add(h, 0.0010392045224449525);
    let p = p.mul_add(h, -0.0030209746514251374);
    let p = p.mul_add(h, 0.008404319207328847);
    let p = p.mul_add(h, -0.022259995241388327);
    let p = p.mul_add(h, 0.05576363008708727);
    let p = p.mul_add(h, -0.1309763455144852);
    0.2849722347374364 + h.mul_add(p, 8.539813023973122e-18)
}

/// `erfcx(2.25 + h)` for `|h| <= 1/4` (Taylor series, degree 16).
#[device]
fn erfcx_at_2_25(h: f64) -> f64 {
    let p = 5.290411486474393e-10f64;
    let p = p.mul_add(h, -2.235123061166767e-09);
    let p = p.mul_add(h, 9.26135607680474e-09);
    let p = p.mul_add(h, -3.7601474131561415e-08);
    let p = p.mul_add(h, 1.4943280933364636e-07);
    let p = p.mul_add(h, -5.806334028558536e-07);
    let p = p.mul_add(h, 2.2030220124275485e-06);
    let p = p.mul_add(h, -8.150283243669179e-06);
    let p = p.mul_add(h, 2.9353247360393394e-05);
    let p = p.mul_add(h, -0.00010272108115739644);
    let p = p.mul_add(h, 0.00034853542204571556);
    let p = p.mul_add(h, -0.0011437284836537476);
    let p = p.mul_add(h, 0.0036189953543580788);
    let p = p.mul_add(h, -0.011002060756440047);
    let p = p.mul_add(h, 0.03199262741070626);
    let p = p.mul_add(h, -0.08848650280874916);
    0.23108725873039188 + h.mul_add(p, -5.74762364596782e-18)
}

/// `x erfcx(x)` for `w = 1/x^2` in `[1/64, 0.16]` (`x` in `[2.5, 8]`): degree 18 in `w - 0.0875`.
#[device]
fn erfcx_mid_w(w: f64) -> f64 {
    let h = w - 0.0875;
    let p = -2161857876.0908895f64;
    let p = p.mul_add(h, 416292787.1732649);
    let p = p.mul_add(h, -25775096.801204912);
    let p = p.mul_add(h, 5162340.459041805);
    let p = p.mul_add(h, -1679551.9031455286);
    let p = p.mul_add(h, 356379.0511281426);
    let p = p.mul_add(h, -74200.885736767);
    let p = p.mul_add(h, 16789.09296531988);
    let p = p.mul_add(h, -3961.129668515711);
    let p = p.mul_add(h, 972.556959694924);
    let p = p.mul_add(h, -250.86158868117977);
    let p = p.mul_add(h, 68.52839579540363);
    let p = p.mul_add(h, -20.024087428394285);
    let p = p.mul_add(h, 6.343426998165951);
    let p = p.mul_add(h, -2.2197062102018394);
    let p = p.mul_add(h, 0.8817022482890849);
    let p = p.mul_add(h, -0.4149986191837415);
    let p = p.mul_add(h, 0.24961078099592518);
    let p = p.mul_add(h, -0.22557535098579365);
    0.5421955878598719 + h.mul_add(p, 1.4911956602106896e-18)
}

/// `x erfcx(x)` for `w = 1/x^2` in `[0, 1/64]` (`x >= 8`): degree 10 in `w`.
#[device]
fn erfcx_far_w(w: f64) -> f64 {
    let h = w;
    let p = -1552253.9937736157f64;
    let p = p.mul_add(h, 292549.6426215248);
    let p = p.mul_add(h, -36675.35101861934);
    let p = p.mul_add(h, 4451.337932109651);
    let p = p.mul_add(h, -595.510026500254);
    let p = p.mul_add(h, 91.63605504331252);
    let p = p.mul_add(h, -16.661221415923357);
    let p = p.mul_add(h, 3.702494137737855);
    let p = p.mul_add(h, -1.0578554691477724);
    let p = p.mul_add(h, 0.42314218766081557);
    let p = p.mul_add(h, -0.28209479177387814);
    0.5641895835477563 + h.mul_add(p, 7.66772980658294e-18)
}

/// `erfcx(x)` for `x >= 5/2` (`+inf` gives 0): `G(w) / x` with `G = x erfcx(x)` a polynomial in
/// `w = (1/x)^2` (which tends to `1/sqrt(pi)`; `w` underflows harmlessly for huge `x`), so
/// the result rounds about once, subnormal ones included, and nothing overflows.
#[device]
fn erfcx_large(x: f64) -> f64 {
    let t = 1.0 / x;
    let w = t * t;
    let g = if w > 0.015625 {
        erfcx_mid_w(w)
    } else {
        erfcx_far_w(w)
    };
    g / x
}

/// `erfcx(x)` for `x >= -1` (NaN stays NaN).
#[device]
fn erfcx_right(x: f64) -> f64 {
    if x >= 2.5 {
        return erfcx_large(x);
    }
    if x < 0.5 {
        if x < -0.5 {
            erfcx_at_m0_75(x + 0.75)
        } else if x < 0.0 {
            erfcx_at_m0_25(x + 0.25)
        } else {
            erfcx_at_0_25(x - 0.25)
        }
    } else if x < 1.5 {
        if x < 1.0 {
            erfcx_at_0_75(x - 0.75)
        } else {
            erfcx_at_1_25(x - 1.25)
        }
    } else if x < 2.0 {
        erfcx_at_1_75(x - 1.75)
    } else {
        erfcx_at_2_25(x - 2.25)
    }
}

/// `erfcx(x) = e^(x^2) erfc(x)`: `+inf` at `-inf` (and below about -26.6, where it overflows),
/// 0 at `+inf`.
#[device]
pub fn erfcx(x: f64) -> f64 {
    if x >= -1.0 || x.is_nan() {
        return erfcx_right(x);
    }
    if x < -26.7 {
        return f64::INFINITY;
    }
    let h = x * x;
    let l = x.mul_add(x, -h);
    let e = exp_dd(h, l);
    (e + e) - erfcx_right(-x)
}

/// `normcdf(x)`: the standard normal distribution function, `erfc(-x / sqrt 2) / 2`.
#[device]
pub fn normcdf(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    if x < -38.7 {
        return 0.0;
    }
    if x > 9.0 {
        return 1.0;
    }
    // |x| / sqrt 2 = a + da (1/sqrt 2 = 0.7071067811865476 - 4.833646656726457e-17); erfcx of
    // it to first order in da (erfcx' = 2 a erfcx - 2/sqrt(pi)), which removes the rounding
    // of `a` from the result.
    let ax = x.abs();
    let a = ax * 0.7071067811865476;
    let da = ax.mul_add(0.7071067811865476, -a) + ax * -4.833646656726457e-17;
    let e = erfcx_right(a);
    let e = da.mul_add((a + a).mul_add(e, -1.1283791670955126), e);
    let h = x * x;
    let l = x.mul_add(x, -h);
    let lower = exp_dd(-0.5 * h, -0.5 * l) * (0.5 * e);
    if x > 0.0 {
        1.0 - lower
    } else {
        lower
    }
}
