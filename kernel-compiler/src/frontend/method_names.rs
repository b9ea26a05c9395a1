// Every method name device code may call: the one list that `#[kernel]` / `#[device]` check
// method calls against at build time (kernel-macros compiles this file in with `include!`, so a
// name missing here is a compile error at the user's line rather than a launch-time error) and
// that the front end implements (typing in `infer/calls.rs`, lowering in `methods.rs` and the
// math library). Plain data without `use` or paths, so that it compiles in both crates.

/// On slices, arrays, ranges and iterators: `x.len()`, `(0..n).rev().step_by(2)`,
/// `v.iter().enumerate()`, `unsafe { *x.get_unchecked(i) }`.
pub const CONTAINER_METHODS: &[&str] = &[
    "len",
    "is_empty",
    "get_unchecked",
    "get_unchecked_mut",
    "iter",
    "iter_mut",
    "enumerate",
    "rev",
    "step_by",
];

/// On integers and floats, as methods (`x.min(y)`) or through the type (`f32::min(x, y)`,
/// `T::abs(x)` for a generic `T: Float`).
pub const SCALAR_METHODS: &[&str] = &[
    "min",
    "max",
    "clamp",
    "abs",
    "signum",
    "wrapping_add",
    "wrapping_sub",
    "wrapping_mul",
    "wrapping_neg",
    "wrapping_abs",
    "leading_zeros",
    "trailing_zeros",
    "count_ones",
    "count_zeros",
    "reverse_bits",
    "pow",
    "rotate_left",
    "rotate_right",
    "is_positive",
    "is_negative",
    "sqrt",
    "floor",
    "ceil",
    "round",
    "trunc",
    "recip",
    "fract",
    "mul_add",
    "powi",
    "is_nan",
    "is_finite",
    "is_infinite",
    "is_sign_negative",
    "is_sign_positive",
    "to_f32",
    "to_f64",
    "div_ceil",
    "saturating_add",
    "saturating_sub",
    "abs_diff",
    "is_power_of_two",
    "to_bits",
];

/// The math library on floats (`x.sin()`, `f64::atan2(y, x)`); the same names are free
/// functions of the device API (`rsqrt(x)`).
pub const MATH_METHODS: &[&str] = &[
    "rsqrt", "cbrt", "exp", "exp2", "exp10", "exp_m1", "expm1", "ln", "log2", "log10", "ln_1p",
    "log1p", "sin", "cos", "tan", "sinpi", "cospi", "asin", "acos", "atan", "sinh", "cosh", "tanh",
    "asinh", "acosh", "atanh", "erf", "erfc", "lgamma", "tgamma", "fast_sin", "fast_cos",
    "fast_exp", "fast_log", "sqrt_rn", "sqrt_rz", "sqrt_ru", "sqrt_rd", "rcp_rn", "rcp_rz",
    "rcp_ru", "rcp_rd", "atan2", "powf", "hypot", "fmod", "copysign", "fast_div", "fast_pow",
    "add_rn", "add_rz", "add_ru", "add_rd", "sub_rn", "sub_rz", "sub_ru", "sub_rd", "mul_rn",
    "mul_rz", "mul_ru", "mul_rd", "div_rn", "div_rz", "div_ru", "div_rd", "fma", "fma_rn",
    "fma_rz", "fma_ru", "fma_rd", "sin_cos", "sincos", "sincospi",
];

/// Associated functions without a receiver: `f16::from_f32(x)`, `bf16::from_f64(x)`,
/// `f32::from_bits(u)`.
pub const CONVERSIONS: &[&str] = &["from_f32", "from_f64", "from_bits"];
