//! f64 inverse trigonometric functions.
//!
//! atan: `|x| > 1` folds to `pi/2 - atan(1/|x|)`; then `t` in `[0, 1]` is split at the nearest
//! `c = k/8`, `atan t = atan c + atan((t - c) / (1 + t c))` with `atan c` tabulated as a
//! double-double and the remaining argument below 1/16 in magnitude (odd Taylor series to degree
//! 17). asin/acos: the Taylor series of asin on `|x| <= 1/2` (to degree 57, truncation below
//! 2^-58), and `asin x = pi/2 - 2 asin(sqrt((1 - x)/2))` beyond, with the square root corrected to a
//! double-double.

#![allow(clippy::excessive_precision, clippy::approx_constant)]

use kernel_macros::device;

/// `asin(x) - x` over `x^3` as a polynomial in `z = x^2`, `z <= 1/4`.
#[device]
fn asin_p(z: f64) -> f64 {
    let p = 0.0018622264064031275;
    let p = p * z + 0.0019650336162772837;
    let p = p * z + 0.0020776610325181676;
    let p = p * z + 0.0022014739737101384;
    let p = p * z + 0.002338091892111975;
    let p = p * z + 0.0024894486782468836;
    let p = p * z + 0.00265787063820729;
    let p = p * z + 0.002846178401108942;
    let p = p * z + 0.0030578216492580306;
    let p = p * z + 0.003297059503473485;
    let p = p * z + 0.0035692053938259347;
    let p = p * z + 0.003880964558837669;
    let p = p * z + 0.004240907093679363;
    let p = p * z + 0.004660143486915096;
    let p = p * z + 0.005153309682319905;
    let p = p * z + 0.005740037670841924;
    let p = p * z + 0.006447210311889649;
    let p = p * z + 0.0073125258735988454;
    let p = p * z + 0.008390335809616815;
    let p = p * z + 0.009761609529194078;
    let p = p * z + 0.011551800896139705;
    let p = p * z + 0.01396484375;
    let p = p * z + 0.017352764423076924;
    let p = p * z + 0.022372159090909092;
    let p = p * z + 0.030381944444444444;
    let p = p * z + 0.044642857142857144;
    let p = p * z + 0.075;
    p * z + 0.16666666666666666
}

/// `atan(t)` for `t` in `[0, 1]` as `(hi, lo)`.
#[device]
fn atan01(t: f64) -> (f64, f64) {
    let his: [f64; 9] = [
        0.0,
        0.12435499454676144,
        0.24497866312686414,
        0.35877067027057225,
        0.4636476090008061,
        0.5585993153435624,
        0.6435011087932844,
        0.7188299996216245,
        0.7853981633974483,
    ];
    let los: [f64; 9] = [
        0.0,
        -3.1253241424539383e-18,
        1.0698755618734451e-17,
        -2.4623815582638635e-17,
        2.2698777452961687e-17,
        -5.4556305485916264e-18,
        1.5834785051444286e-17,
        -2.1478388444456983e-17,
        3.061616997868383e-17,
    ];
    let k = (t * 8.0).round();
    let c = k * 0.125;
    let u = (t - c) / (1.0 + t * c);
    let z = u * u;
    let p = 1.0 / 17.0;
    let p = -p * z + 1.0 / 15.0;
    let p = -p * z + 1.0 / 13.0;
    let p = -p * z + 1.0 / 11.0;
    let p = -p * z + 1.0 / 9.0;
    let p = -p * z + 1.0 / 7.0;
    let p = -p * z + 1.0 / 5.0;
    let p = -p * z + 1.0 / 3.0;
    let tail = -(u * z * p);
    let ki = k as usize;
    let hi = his[ki];
    let s = hi + u;
    let lo = ((hi - s) + u) + (tail + los[ki]);
    (s, lo)
}

#[device]
pub fn atan(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    let ax = x.abs();
    if ax < 1.4901161193847656e-08 {
        return x;
    }
    let r = if ax > 1.0 {
        if ax > 9007199254740992.0 {
            1.5707963267948966
        } else {
            let (h, l) = atan01(1.0 / ax);
            1.5707963267948966 - (h - (6.123233995736766e-17 - l))
        }
    } else {
        let (h, l) = atan01(ax);
        h + l
    };
    if x < 0.0 {
        -r
    } else {
        r
    }
}

#[device]
pub fn atan2(y: f64, x: f64) -> f64 {
    if x.is_nan() || y.is_nan() {
        return x + y;
    }
    let ax = x.abs();
    let ay = y.abs();
    let neg_x = x < 0.0 || (x == 0.0 && 1.0 / x < 0.0);
    let inf = f64::INFINITY;
    // Angle in [0, pi] for y >= 0; the sign of y is applied at the end.
    let a = if ay == 0.0 {
        if neg_x {
            3.141592653589793
        } else {
            0.0
        }
    } else if ax == inf && ay == inf {
        if neg_x {
            2.356194490192345
        } else {
            0.7853981633974483
        }
    } else if ax == inf {
        if neg_x {
            3.141592653589793
        } else {
            0.0
        }
    } else if ay == inf || ax == 0.0 {
        1.5707963267948966
    } else {
        // (hi, lo) of atan(ay/ax) in [0, pi/2].
        let (h, l) = if ay > ax {
            let q = ax / ay;
            if q < 1.0e-300 {
                (1.5707963267948966, 6.123233995736766e-17 - q)
            } else {
                let (h0, l0) = atan01(q);
                let h = 1.5707963267948966 - h0;
                (
                    h,
                    ((1.5707963267948966 - h) - h0) + (6.123233995736766e-17 - l0),
                )
            }
        } else {
            let q = ay / ax;
            if q < 1.4901161193847656e-08 {
                (q, 0.0)
            } else {
                atan01(q)
            }
        };
        if neg_x {
            let d = 3.141592653589793 - h;
            d + ((((3.141592653589793 - d) - h) + 1.2246467991473532e-16) - l)
        } else {
            h + l
        }
    };
    if y < 0.0 || (y == 0.0 && 1.0 / y < 0.0) {
        -a
    } else {
        a
    }
}

/// `sqrt(w)` as `(hi, lo)`.
#[device]
fn sqrt_dd(w: f64) -> (f64, f64) {
    if w == 0.0 {
        return (0.0, 0.0);
    }
    let s = w.sqrt();
    let r = (-s).mul_add(s, w);
    (s, r / (2.0 * s))
}

#[device]
pub fn asin(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    let ax = x.abs();
    if ax > 1.0 {
        return f64::NAN;
    }
    if ax < 1.4901161193847656e-08 {
        return x;
    }
    let r = if ax <= 0.5 {
        let z = ax * ax;
        ax + ax * z * asin_p(z)
    } else {
        let w = (1.0 - ax) * 0.5;
        let (s, sl) = sqrt_dd(w);
        let t = sl + s * w * asin_p(w);
        // pi/2 - 2 (s + t)
        let d = 1.5707963267948966 - 2.0 * s;
        d + ((((1.5707963267948966 - d) - 2.0 * s) + 6.123233995736766e-17) - 2.0 * t)
    };
    if x < 0.0 {
        -r
    } else {
        r
    }
}

#[device]
pub fn acos(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    let ax = x.abs();
    if ax > 1.0 {
        return f64::NAN;
    }
    if ax <= 0.5 {
        let z = x * x;
        let t = x * z * asin_p(z);
        let d = 1.5707963267948966 - x;
        return d + ((((1.5707963267948966 - d) - x) + 6.123233995736766e-17) - t);
    }
    let w = (1.0 - ax) * 0.5;
    let (s, sl) = sqrt_dd(w);
    let t = sl + s * w * asin_p(w);
    if x > 0.0 {
        2.0 * s + 2.0 * t
    } else {
        // pi - 2 (s + t)
        let d = 3.141592653589793 - 2.0 * s;
        d + ((((3.141592653589793 - d) - 2.0 * s) + 1.2246467991473532e-16) - 2.0 * t)
    }
}
