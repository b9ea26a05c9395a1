//! Float arithmetic with an explicit IEEE rounding mode, computed on the host: the simulator
//! semantics of the rounding-mode entries (`__fadd_rz`...) and of the approximate units that
//! need one. The round-to-nearest result is nudged one ulp by the sign of the exact residual
//! (from `fma` or a two-sum), which is exact except when that residual itself underflows.
//!
//! A leaf module: both the intrinsic table (`intrinsics::math`) and the math library's units
//! (`math::approx`) use it.

/// The float operations the rounding-mode semantics need, for f32 and f64 alike.
trait Fp: Copy + PartialOrd + std::ops::Neg<Output = Self> {
    fn bits(self) -> u64;
    fn zero() -> Self;
    fn max_finite() -> Self;
    fn is_nan(self) -> bool;
    fn next_up(self) -> Self;
    fn next_down(self) -> Self;
}

macro_rules! impl_fp {
    ($t:ty) => {
        impl Fp for $t {
            fn bits(self) -> u64 {
                self.to_bits() as u64
            }
            fn zero() -> Self {
                0.0
            }
            fn max_finite() -> Self {
                <$t>::MAX
            }
            fn is_nan(self) -> bool {
                <$t>::is_nan(self)
            }
            fn next_up(self) -> Self {
                if self.is_nan() || self == <$t>::INFINITY {
                    return self;
                }
                if self == 0.0 {
                    return <$t>::from_bits(1);
                }
                let b = self.to_bits();
                <$t>::from_bits(if self > 0.0 { b + 1 } else { b - 1 })
            }
            fn next_down(self) -> Self {
                -(-self).next_up()
            }
        }
    };
}
impl_fp!(f32);
impl_fp!(f64);

/// Rounding direction of an entry: 0 nearest, 1 toward zero, 2 up, 3 down.
pub(crate) type Mode = u8;

/// Turns the round-to-nearest result `r` into the `mode` result, given the sign of `exact - r`
/// (`dir`) and whether the exact result overflowed (`r` infinite from finite operands).
fn directed<T: Fp>(r: T, dir: i8, overflow: bool, mode: Mode) -> T {
    if mode == 0 || r.is_nan() {
        return r;
    }
    if overflow {
        let pos = r > T::zero();
        return match (mode, pos) {
            (1, true) | (3, true) => T::max_finite(),
            (1, false) | (2, false) => -T::max_finite(),
            _ => r,
        };
    }
    match (mode, dir) {
        (1, -1) if r > T::zero() => r.next_down(),
        (1, 1) if r < T::zero() => r.next_up(),
        (2, 1) => r.next_up(),
        (3, -1) => r.next_down(),
        _ => r,
    }
}

fn sign_of(x: f64) -> i8 {
    if x > 0.0 {
        1
    } else if x < 0.0 {
        -1
    } else {
        0
    }
}

/// Exact-zero sums are -0 under round-down unless both addends are +0 (IEEE 754 6.3).
fn zero_sum_sign<T: Fp>(r: T, a: T, b: T, mode: Mode) -> T {
    if mode == 3 && r == T::zero() && !(a.bits() == 0 && b.bits() == 0) {
        -T::zero()
    } else {
        r
    }
}

pub(crate) fn add32(a: f32, b: f32, m: Mode) -> f32 {
    let r = a + b;
    if r.is_infinite() {
        return directed(r, 0, a.is_finite() && b.is_finite(), m);
    }
    let bb = r - a;
    let e = (a - (r - bb)) + (b - bb);
    zero_sum_sign(directed(r, sign_of(e as f64), false, m), a, b, m)
}
pub(crate) fn add64(a: f64, b: f64, m: Mode) -> f64 {
    let r = a + b;
    if r.is_infinite() {
        return directed(r, 0, a.is_finite() && b.is_finite(), m);
    }
    let bb = r - a;
    let e = (a - (r - bb)) + (b - bb);
    zero_sum_sign(directed(r, sign_of(e), false, m), a, b, m)
}
pub(crate) fn mul32(a: f32, b: f32, m: Mode) -> f32 {
    let r = a * b;
    if r.is_infinite() {
        return directed(r, 0, a.is_finite() && b.is_finite(), m);
    }
    directed(r, sign_of(a as f64 * b as f64 - r as f64), false, m)
}
pub(crate) fn mul64(a: f64, b: f64, m: Mode) -> f64 {
    let r = a * b;
    if r.is_infinite() {
        return directed(r, 0, a.is_finite() && b.is_finite(), m);
    }
    directed(r, sign_of(a.mul_add(b, -r)), false, m)
}
pub(crate) fn div32(a: f32, b: f32, m: Mode) -> f32 {
    let r = a / b;
    if r.is_infinite() {
        return directed(r, 0, a.is_finite() && b != 0.0, m);
    }
    if !r.is_finite() || r == 0.0 && a == 0.0 {
        return r;
    }
    let res = a as f64 - r as f64 * b as f64;
    directed(r, sign_of(res) * sign_of(b as f64), false, m)
}
pub(crate) fn div64(a: f64, b: f64, m: Mode) -> f64 {
    let r = a / b;
    if r.is_infinite() {
        return directed(r, 0, a.is_finite() && b != 0.0, m);
    }
    if !r.is_finite() || r == 0.0 && a == 0.0 {
        return r;
    }
    directed(r, sign_of((-r).mul_add(b, a)) * sign_of(b), false, m)
}
pub(crate) fn sqrt32(a: f32, m: Mode) -> f32 {
    let r = a.sqrt();
    if !r.is_finite() || r == 0.0 {
        return r;
    }
    directed(r, sign_of(a as f64 - r as f64 * r as f64), false, m)
}
pub(crate) fn sqrt64(a: f64, m: Mode) -> f64 {
    let r = a.sqrt();
    if !r.is_finite() || r == 0.0 {
        return r;
    }
    directed(r, sign_of((-r).mul_add(r, a)), false, m)
}
pub(crate) fn fma32(a: f32, b: f32, c: f32, m: Mode) -> f32 {
    let r = a.mul_add(b, c);
    if r.is_infinite() {
        return directed(r, 0, a.is_finite() && b.is_finite() && c.is_finite(), m);
    }
    if !r.is_finite() {
        return r;
    }
    // a*b is exact in f64; (p + c) as a two-sum, then compared with r.
    let p = a as f64 * b as f64;
    let (s, e) = two_sum(p, c as f64);
    let d = s - r as f64;
    let dir = if d != 0.0 { sign_of(d) } else { sign_of(e) };
    zero_sum_sign(directed(r, dir, false, m), (p as f32).max(-f32::MAX), c, m)
}
pub(crate) fn fma64(a: f64, b: f64, c: f64, m: Mode) -> f64 {
    let r = a.mul_add(b, c);
    if r.is_infinite() {
        return directed(r, 0, a.is_finite() && b.is_finite() && c.is_finite(), m);
    }
    if !r.is_finite() {
        return r;
    }
    let p = a * b;
    let pe = a.mul_add(b, -p);
    let (s, e) = two_sum(p, c);
    let d = s - r;
    let t = d + (e + pe);
    zero_sum_sign(directed(r, sign_of(t), false, m), p, c, m)
}
pub(crate) fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    (s, (a - (s - bb)) + (b - bb))
}
