//! f32 math against nvcc (issue 27): one throughput kernel per math function, our kernel vs its
//! CUDA C twin (`benches/reference/math_f32.cu`) calling the same function on the same inputs
//! (each thread evaluates it 64 times, so the function's instructions dominate), and three
//! kernels written the plain way: all-pairs n-body with shared tiles (`rsqrt`), row softmax over
//! 4096 columns (`exp`) and layernorm (`rsqrt`). Rows report milliseconds; the ratio is nvcc's
//! time over ours. Both sides' outputs are compared before timing (functions: with each other;
//! the three kernels: with a CPU reference). The 64-iteration loop is unrolled by 8 on both
//! sides (`#[unroll(8)]`, `#pragma unroll 8`): nvcc unrolls it on its own and our compiler's
//! automatic policy stops at 16 iterations, so the same explicit factor keeps the loop the same
//! and the function's own code is what the ratio compares.

use std::ffi::c_void;

use ferrocuda::host_runtime::{Device, DeviceBuffer, Function, LaunchConfig, Module, Stream};
use ferrocuda::kernel_ir::ast::FnDef;
use ferrocuda::prelude::*;
use ferrocuda_examples::util::Rng;

use super::report::{Row, Unit};
use super::timing::time_pair;
use super::twins::Twins;

macro_rules! un_kernels {
    ($($name:ident, |$v:ident| $e:expr;)*) => {
        /// The unary kernels by name, for `cargo xtask ptx` (SASS comparisons with the twins).
        const UN_DEFS: &[(&str, fn() -> &'static FnDef)] = &[$((stringify!($name), $name::ast)),*];
        $(
        #[kernel]
        pub fn $name(x: &[f32], y: &mut [f32]) {
            let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
            if i < y.len() {
                let mut $v = x[i];
                let mut acc = 0.0f32;
                #[unroll(8)]
                for _ in 0..64 {
                    acc += $e;
                    $v += 1e-4;
                }
                y[i] = acc;
            }
        }
    )*};
}
macro_rules! bin_kernels {
    ($($name:ident, |$v:ident, $w:ident| $e:expr;)*) => {
        /// The binary kernels by name.
        const BIN_DEFS: &[(&str, fn() -> &'static FnDef)] = &[$((stringify!($name), $name::ast)),*];
        $(
        #[kernel]
        pub fn $name(x: &[f32], z: &[f32], y: &mut [f32]) {
            let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
            if i < y.len() {
                let mut $v = x[i];
                let $w = z[i];
                let mut acc = 0.0f32;
                #[unroll(8)]
                for _ in 0..64 {
                    acc += $e;
                    $v += 1e-4;
                }
                y[i] = acc;
            }
        }
    )*};
}

un_kernels! {
    k_sqrt, |v| v.sqrt();
    k_rsqrt, |v| rsqrt(v);
    k_cbrt, |v| v.cbrt();
    k_exp, |v| v.exp();
    k_exp2, |v| v.exp2();
    k_exp10, |v| exp10(v);
    k_expm1, |v| v.exp_m1();
    k_log, |v| v.ln();
    k_log2, |v| v.log2();
    k_log10, |v| v.log10();
    k_log1p, |v| v.ln_1p();
    k_sin, |v| v.sin();
    k_cos, |v| v.cos();
    k_sincos, |v| { let (s, c) = v.sin_cos(); s + c };
    k_tan, |v| v.tan();
    k_sinpi, |v| sinpi(v);
    k_cospi, |v| cospi(v);
    k_sincospi, |v| { let (s, c) = sincospi(v); s + c };
    k_asin, |v| v.asin();
    k_acos, |v| v.acos();
    k_atan, |v| v.atan();
    k_sinh, |v| v.sinh();
    k_cosh, |v| v.cosh();
    k_tanh, |v| v.tanh();
    k_asinh, |v| v.asinh();
    k_acosh, |v| v.acosh();
    k_atanh, |v| v.atanh();
    k_erf, |v| erf(v);
    k_erfc, |v| erfc(v);
    k_lgamma, |v| lgamma(v);
    k_tgamma, |v| tgamma(v);
    k_rcbrt, |v| rcbrt(v);
    k_frexp, |v| { let (m, e) = frexp(v); m + e as f32 };
    k_logb, |v| logb(v);
    k_ilogb, |v| ilogb(v) as f32;
    k_modf, |v| { let (f, i) = modf(v); f + i };
    k_erfinv, |v| erfinv(v);
    k_erfcinv, |v| erfcinv(v);
    k_normcdfinv, |v| normcdfinv(v);
    k_j0, |v| j0(v);
    k_j1, |v| j1(v);
    k_y0, |v| y0(v);
    k_y1, |v| y1(v);
    k_jn, |v| jn(5, v);
    k_yn, |v| yn(5, v);
}
bin_kernels! {
    k_atan2, |v, w| v.atan2(w);
    k_pow, |v, w| v.powf(w);
    k_hypot, |v, w| v.hypot(w);
    k_fmod, |v, w| v % w;
    k_copysign, |v, w| v.copysign(w);
    k_rhypot, |v, w| rhypot(v, w);
    k_norm3d, |v, w| norm3d(v, w, 0.5 * v);
    k_rnorm3d, |v, w| rnorm3d(v, w, 0.5 * v);
    k_norm4d, |v, w| norm4d(v, w, 0.5 * v, 0.25 * w);
    k_rnorm4d, |v, w| rnorm4d(v, w, 0.5 * v, 0.25 * w);
    k_ldexp, |v, w| ldexp(v, w as i32);
    k_fdim, |v, w| fdim(v, w);
    k_nextafter, |v, w| nextafter(v, w);
    k_remainder, |v, w| remainder(v, w);
    k_remquo, |v, w| { let (r, q) = remquo(v, w); r + (q % 8) as f32 };
}

/// The per-function kernel `name` (`k_sin`...), for `cargo xtask ptx`.
pub fn kernel_def(name: &str) -> Option<&'static FnDef> {
    type Def = fn() -> &'static FnDef;
    const KERNEL_DEFS: &[(&str, Def)] = &[
        ("nbody", nbody::ast),
        ("softmax_rows", softmax_rows::ast),
        ("layernorm_rows", layernorm_rows::ast),
    ];
    UN_DEFS
        .iter()
        .chain(BIN_DEFS)
        .chain(KERNEL_DEFS)
        .find(|(n, _)| *n == name)
        .map(|(_, def)| def())
}

type Un = fn(&Stream, LaunchConfig, &DeviceBuffer<f32>, &mut DeviceBuffer<f32>) -> Result<()>;
type Bin = fn(
    &Stream,
    LaunchConfig,
    &DeviceBuffer<f32>,
    &DeviceBuffer<f32>,
    &mut DeviceBuffer<f32>,
) -> Result<()>;

enum Launch {
    Un(Un),
    Bin(Bin),
}

/// (function, twin entry, launcher, first-argument range, second-argument range)
struct Fun(&'static str, &'static str, Launch, (f32, f32), (f32, f32));

macro_rules! un {
    ($n:literal, $twin:literal, $k:ident, $lo:expr, $hi:expr) => {
        Fun(
            $n,
            $twin,
            Launch::Un(|s, c, x, y| $k::launch(s, c, x, y)),
            ($lo, $hi),
            (0.0, 0.0),
        )
    };
}
macro_rules! bin {
    ($n:literal, $twin:literal, $k:ident, $lo:expr, $hi:expr, $lo2:expr, $hi2:expr) => {
        Fun(
            $n,
            $twin,
            Launch::Bin(|s, c, x, z, y| $k::launch(s, c, x, z, y)),
            ($lo, $hi),
            ($lo2, $hi2),
        )
    };
}

fn functions() -> Vec<Fun> {
    vec![
        un!("sqrt", "m_sqrt", k_sqrt, 0.0, 100.0),
        un!("rsqrt", "m_rsqrt", k_rsqrt, 0.01, 100.0),
        un!("cbrt", "m_cbrt", k_cbrt, -100.0, 100.0),
        un!("exp", "m_exp", k_exp, -20.0, 20.0),
        un!("exp2", "m_exp2", k_exp2, -30.0, 30.0),
        un!("exp10", "m_exp10", k_exp10, -10.0, 10.0),
        un!("expm1", "m_expm1", k_expm1, -5.0, 5.0),
        un!("log", "m_log", k_log, 0.01, 1000.0),
        un!("log2", "m_log2", k_log2, 0.01, 1000.0),
        un!("log10", "m_log10", k_log10, 0.01, 1000.0),
        un!("log1p", "m_log1p", k_log1p, -0.5, 100.0),
        un!("sin", "m_sin", k_sin, -100.0, 100.0),
        un!("cos", "m_cos", k_cos, -100.0, 100.0),
        un!("sincos", "m_sincos", k_sincos, -100.0, 100.0),
        un!("tan", "m_tan", k_tan, -100.0, 100.0),
        un!("sinpi", "m_sinpi", k_sinpi, -100.0, 100.0),
        un!("cospi", "m_cospi", k_cospi, -100.0, 100.0),
        un!("sincospi", "m_sincospi", k_sincospi, -100.0, 100.0),
        un!("asin", "m_asin", k_asin, -0.99, 0.99),
        un!("acos", "m_acos", k_acos, -0.99, 0.99),
        un!("atan", "m_atan", k_atan, -100.0, 100.0),
        un!("sinh", "m_sinh", k_sinh, -10.0, 10.0),
        un!("cosh", "m_cosh", k_cosh, -10.0, 10.0),
        un!("tanh", "m_tanh", k_tanh, -5.0, 5.0),
        un!("asinh", "m_asinh", k_asinh, -100.0, 100.0),
        un!("acosh", "m_acosh", k_acosh, 1.0, 100.0),
        un!("atanh", "m_atanh", k_atanh, -0.99, 0.99),
        un!("erf", "m_erf", k_erf, -3.0, 3.0),
        un!("erfc", "m_erfc", k_erfc, -2.0, 8.0),
        un!("lgamma", "m_lgamma", k_lgamma, 0.1, 20.0),
        un!("tgamma", "m_tgamma", k_tgamma, 0.1, 20.0),
        bin!("atan2", "m_atan2", k_atan2, -10.0, 10.0, -10.0, 10.0),
        bin!("pow", "m_pow", k_pow, 0.1, 10.0, -10.0, 10.0),
        bin!("hypot", "m_hypot", k_hypot, -100.0, 100.0, -100.0, 100.0),
        bin!("fmod", "m_fmod", k_fmod, -1000.0, 1000.0, 0.1, 10.0),
        bin!(
            "copysign",
            "m_copysign",
            k_copysign,
            -10.0,
            10.0,
            -10.0,
            10.0
        ),
        un!("rcbrt", "m_rcbrt", k_rcbrt, -100.0, 100.0),
        bin!("rhypot", "m_rhypot", k_rhypot, -100.0, 100.0, -100.0, 100.0),
        bin!("norm3d", "m_norm3d", k_norm3d, -100.0, 100.0, -100.0, 100.0),
        bin!(
            "rnorm3d",
            "m_rnorm3d",
            k_rnorm3d,
            -100.0,
            100.0,
            -100.0,
            100.0
        ),
        bin!("norm4d", "m_norm4d", k_norm4d, -100.0, 100.0, -100.0, 100.0),
        bin!(
            "rnorm4d",
            "m_rnorm4d",
            k_rnorm4d,
            -100.0,
            100.0,
            -100.0,
            100.0
        ),
        un!("frexp", "m_frexp", k_frexp, -100.0, 100.0),
        un!("logb", "m_logb", k_logb, -100.0, 100.0),
        un!("ilogb", "m_ilogb", k_ilogb, -100.0, 100.0),
        bin!("ldexp", "m_ldexp", k_ldexp, -100.0, 100.0, -100.0, 100.0),
        bin!("fdim", "m_fdim", k_fdim, -100.0, 100.0, -100.0, 100.0),
        bin!(
            "nextafter",
            "m_nextafter",
            k_nextafter,
            -100.0,
            100.0,
            -100.0,
            100.0
        ),
        bin!(
            "remainder",
            "m_remainder",
            k_remainder,
            -1000.0,
            1000.0,
            0.1,
            10.0
        ),
        bin!("remquo", "m_remquo", k_remquo, -1000.0, 1000.0, 0.1, 10.0),
        un!("modf", "m_modf", k_modf, -100.0, 100.0),
        un!("erfinv", "m_erfinv", k_erfinv, -0.99, 0.99),
        un!("erfcinv", "m_erfcinv", k_erfcinv, 0.01, 1.99),
        un!("normcdfinv", "m_normcdfinv", k_normcdfinv, 0.01, 0.99),
        un!("j0", "m_j0", k_j0, -20.0, 20.0),
        un!("j1", "m_j1", k_j1, -20.0, 20.0),
        un!("y0", "m_y0", k_y0, 0.1, 20.0),
        un!("y1", "m_y1", k_y1, 0.1, 20.0),
        un!("jn(5, x)", "m_jn", k_jn, -20.0, 20.0),
        un!("yn(5, x)", "m_yn", k_yn, 0.5, 20.0),
    ]
}

fn e(x: impl std::fmt::Display) -> String {
    x.to_string()
}

fn ptr<T>(v: &mut T) -> *mut c_void {
    v as *mut T as *mut c_void
}

fn uniform(rng: &mut Rng, n: usize, lo: f32, hi: f32) -> Vec<f32> {
    (0..n)
        .map(|_| lo + (hi - lo) * (rng.next_u32() >> 8) as f32 / 16777216.0)
        .collect()
}

/// How far `got` is from `want`: the largest difference relative to `max(|want|, 1)`, NaN-ness
/// mismatches counting as infinite.
fn max_rel_diff(got: &[f32], want: &[f32]) -> f64 {
    got.iter()
        .zip(want)
        .map(|(&g, &w)| {
            if g.is_nan() != w.is_nan() {
                f64::INFINITY
            } else if g.is_nan() || g == w {
                0.0
            } else {
                (g as f64 - w as f64).abs() / (w.abs() as f64).max(1.0)
            }
        })
        .fold(0.0, f64::max)
}

/// 2^22 threads, each evaluating the function 64 times.
const N: usize = 1 << 22;

pub fn functions_bench(dev: &Device, twins: &Twins) -> Result<Vec<Row>, String> {
    let s = Stream::new(dev).map_err(e)?;
    let cfg = LaunchConfig::for_elements(N, 256);
    let mut rows = Vec::new();
    for (k, Fun(name, twin, launch, (lo, hi), (lo2, hi2))) in functions().into_iter().enumerate() {
        let mut rng = Rng::new(100 + k as u64);
        let x = DeviceBuffer::upload(dev, &uniform(&mut rng, N, lo, hi)).map_err(e)?;
        let z = DeviceBuffer::upload(dev, &uniform(&mut rng, N, lo2, hi2)).map_err(e)?;
        let mut y = DeviceBuffer::<f32>::zeroed(dev, N).map_err(e)?;
        let yt = DeviceBuffer::<f32>::zeroed(dev, N).map_err(e)?;
        let twin_fn: Option<(Module, Function)> = twins
            .function(dev, "math_f32", twin)
            .transpose()
            .map_err(e)?;
        let (mut xp, mut zp, mut n, mut yp) =
            (x.device_ptr(), z.device_ptr(), N as u64, yt.device_ptr());
        let mut args_un = [ptr(&mut xp), ptr(&mut n), ptr(&mut yp)];
        let mut args_bin = [ptr(&mut xp), ptr(&mut zp), ptr(&mut n), ptr(&mut yp)];
        let run_twin =
            |f: &Function, s: &Stream, a: &mut [*mut c_void]| unsafe { f.launch_raw(s, cfg, a) };
        let once = |s: &Stream, y: &mut DeviceBuffer<f32>| match &launch {
            Launch::Un(l) => l(s, cfg, &x, y),
            Launch::Bin(l) => l(s, cfg, &x, &z, y),
        };
        once(&s, &mut y).map_err(e)?;
        let bin = matches!(launch, Launch::Bin(_));
        if let Some((_m, f)) = &twin_fn {
            let a: &mut [*mut c_void] = if bin { &mut args_bin } else { &mut args_un };
            run_twin(f, &s, a).map_err(e)?;
        }
        s.synchronize().map_err(e)?;
        let label = if twin_fn.is_some() {
            let d = max_rel_diff(&y.to_vec().map_err(e)?, &yt.to_vec().map_err(e)?);
            format!("{name} (f32, 2^22 x 64; ours vs nvcc outputs: max rel. diff {d:.1e})")
        } else {
            format!("{name} (f32, 2^22 x 64)")
        };
        let (t_ours, t_twin) = time_pair(
            dev,
            &s,
            |s| once(s, &mut y),
            twin_fn.as_ref().map(|(_m, f)| {
                |s: &Stream| {
                    let a: &mut [*mut c_void] = if bin { &mut args_bin } else { &mut args_un };
                    unsafe { f.launch_raw(s, cfg, a) }
                }
            }),
        )
        .map_err(e)?;
        rows.push(Row::new(&label, Unit::Millis, 0.0, Some(t_ours), t_twin));
    }
    Ok(rows)
}

const NB_TILE: usize = 256;

/// All-pairs n-body, one body per thread, positions `(x, y, z, mass)` tiled through shared memory.
#[kernel(block_dim(256), launch_bounds(max_threads = 256))]
pub fn nbody(pos: &[f32], n: u32, soft2: f32, acc: &mut [f32]) {
    let tile = shared_array::<[f32; 1024]>();
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    let px = pos[4 * i];
    let py = pos[4 * i + 1];
    let pz = pos[4 * i + 2];
    let mut ax = 0.0f32;
    let mut ay = 0.0f32;
    let mut az = 0.0f32;
    let t = thread_idx().x as usize;
    let mut base = 0usize;
    while base < n as usize {
        tile[4 * t] = pos[4 * (base + t)];
        tile[4 * t + 1] = pos[4 * (base + t) + 1];
        tile[4 * t + 2] = pos[4 * (base + t) + 2];
        tile[4 * t + 3] = pos[4 * (base + t) + 3];
        sync_threads();
        #[unroll(4)]
        for j in 0..NB_TILE {
            let dx = tile[4 * j] - px;
            let dy = tile[4 * j + 1] - py;
            let dz = tile[4 * j + 2] - pz;
            let d2 = dx * dx + dy * dy + dz * dz + soft2;
            let inv = rsqrt(d2);
            let s = tile[4 * j + 3] * inv * inv * inv;
            ax += dx * s;
            ay += dy * s;
            az += dz * s;
        }
        sync_threads();
        base += NB_TILE;
    }
    acc[3 * i] = ax;
    acc[3 * i + 1] = ay;
    acc[3 * i + 2] = az;
}

/// Row softmax: one block of 256 threads per row; shared-memory tree reductions.
#[kernel(block_dim(256), launch_bounds(max_threads = 256))]
pub fn softmax_rows(x: &[f32], cols: u32, y: &mut [f32]) {
    let red = shared_array::<[f32; 256]>();
    let row = block_idx().x as usize * cols as usize;
    let t = thread_idx().x as usize;
    let cols = cols as usize;
    let mut m = f32::NEG_INFINITY;
    let mut c = t;
    while c < cols {
        m = m.max(x[row + c]);
        c += 256;
    }
    red[t] = m;
    sync_threads();
    let mut h = 128usize;
    while h > 0 {
        if t < h {
            red[t] = red[t].max(red[t + h]);
        }
        sync_threads();
        h /= 2;
    }
    let m = red[0];
    sync_threads();
    let mut s = 0.0f32;
    let mut c = t;
    while c < cols {
        s += (x[row + c] - m).exp();
        c += 256;
    }
    red[t] = s;
    sync_threads();
    let mut h = 128usize;
    while h > 0 {
        if t < h {
            red[t] += red[t + h];
        }
        sync_threads();
        h /= 2;
    }
    let inv = 1.0 / red[0];
    let mut c = t;
    while c < cols {
        y[row + c] = (x[row + c] - m).exp() * inv;
        c += 256;
    }
}

/// Layernorm: one block of 256 threads per row; mean and variance by shared-memory reductions.
#[kernel(block_dim(256), launch_bounds(max_threads = 256))]
pub fn layernorm_rows(x: &[f32], gamma: &[f32], beta: &[f32], cols: u32, eps: f32, y: &mut [f32]) {
    let red = shared_array::<[f32; 256]>();
    let row = block_idx().x as usize * cols as usize;
    let t = thread_idx().x as usize;
    let n = cols as f32;
    let cols = cols as usize;
    let mut s = 0.0f32;
    let mut c = t;
    while c < cols {
        s += x[row + c];
        c += 256;
    }
    red[t] = s;
    sync_threads();
    let mut h = 128usize;
    while h > 0 {
        if t < h {
            red[t] += red[t + h];
        }
        sync_threads();
        h /= 2;
    }
    let mean = red[0] / n;
    sync_threads();
    let mut q = 0.0f32;
    let mut c = t;
    while c < cols {
        let d = x[row + c] - mean;
        q += d * d;
        c += 256;
    }
    red[t] = q;
    sync_threads();
    let mut h = 128usize;
    while h > 0 {
        if t < h {
            red[t] += red[t + h];
        }
        sync_threads();
        h /= 2;
    }
    let r = rsqrt(red[0] / n + eps);
    let mut c = t;
    while c < cols {
        y[row + c] = (x[row + c] - mean) * r * gamma[c] + beta[c];
        c += 256;
    }
}

fn check(what: &str, got: &[f32], want: &[f64], tol: f64) -> Result<(), String> {
    for (i, (&g, &w)) in got.iter().zip(want).enumerate() {
        let ok = (g as f64 - w).abs() <= tol * w.abs().max(1.0);
        if !ok {
            return Err(format!("{what}: element {i} is {g}, expected {w}"));
        }
    }
    Ok(())
}

pub fn kernels_bench(dev: &Device, twins: &Twins) -> Result<Vec<Row>, String> {
    let s = Stream::new(dev).map_err(e)?;
    let mut rows = Vec::new();

    // n-body: 16384 bodies in a unit cube, masses in [0.5, 1].
    let nb = 16384usize;
    let mut rng = Rng::new(7);
    let mut host = Vec::with_capacity(4 * nb);
    for _ in 0..nb {
        host.extend(uniform(&mut rng, 3, -1.0, 1.0));
        host.extend(uniform(&mut rng, 1, 0.5, 1.0));
    }
    let soft2 = 1e-4f32;
    let pos = DeviceBuffer::upload(dev, &host).map_err(e)?;
    let mut acc = DeviceBuffer::<f32>::zeroed(dev, 3 * nb).map_err(e)?;
    let acc_t = DeviceBuffer::<f32>::zeroed(dev, 3 * nb).map_err(e)?;
    let cfg = LaunchConfig::for_elements(nb, 256);
    nbody::launch(&s, cfg, &pos, nb as u32, soft2, &mut acc).map_err(e)?;
    s.synchronize().map_err(e)?;
    let got = acc.to_vec().map_err(e)?;
    let sample: Vec<usize> = (0..nb).step_by(nb / 64).collect();
    let want: Vec<f64> = sample
        .iter()
        .flat_map(|&i| {
            let mut a = [0.0f64; 3];
            for j in 0..nb {
                let d: Vec<f64> = (0..3)
                    .map(|k| (host[4 * j + k] - host[4 * i + k]) as f64)
                    .collect();
                let d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + soft2 as f64;
                let s = host[4 * j + 3] as f64 / (d2 * d2.sqrt());
                for k in 0..3 {
                    a[k] += d[k] * s;
                }
            }
            a
        })
        .collect();
    let got_s: Vec<f32> = sample
        .iter()
        .flat_map(|&i| got[3 * i..3 * i + 3].to_vec())
        .collect();
    check("nbody", &got_s, &want, 1e-3)?;
    let twin_fn = twins
        .function(dev, "math_f32", "nbody")
        .transpose()
        .map_err(e)?;
    let (mut pp, mut nn, mut ss, mut ap) = (pos.device_ptr(), nb as u32, soft2, acc_t.device_ptr());
    let mut args = [ptr(&mut pp), ptr(&mut nn), ptr(&mut ss), ptr(&mut ap)];
    let (ours, twin) = time_pair(
        dev,
        &s,
        |s| nbody::launch(s, cfg, &pos, nb as u32, soft2, &mut acc),
        twin_fn
            .as_ref()
            .map(|(_m, f)| |s: &Stream| unsafe { f.launch_raw(s, cfg, &mut args) }),
    )
    .map_err(e)?;
    if twin_fn.is_some() {
        let t = acc_t.to_vec().map_err(e)?;
        let t_s: Vec<f32> = sample
            .iter()
            .flat_map(|&i| t[3 * i..3 * i + 3].to_vec())
            .collect();
        check("nbody twin", &t_s, &want, 1e-3)?;
    }
    let flops = 20.0 * (nb * nb) as f64;
    rows.push(Row::new(
        "n-body all pairs, shared tiles, rsqrt (16384 bodies)",
        Unit::Tflops,
        flops,
        Some(ours),
        twin,
    ));

    // softmax and layernorm: 8192 rows of 4096 columns.
    let (rows_n, cols) = (8192usize, 4096usize);
    let xs = uniform(&mut rng, rows_n * cols, -8.0, 8.0);
    let x = DeviceBuffer::upload(dev, &xs).map_err(e)?;
    let mut y = DeviceBuffer::<f32>::zeroed(dev, rows_n * cols).map_err(e)?;
    let yt = DeviceBuffer::<f32>::zeroed(dev, rows_n * cols).map_err(e)?;
    let rcfg = LaunchConfig {
        grid: Dim3::new(rows_n as u32, 1, 1),
        block: Dim3::new(256, 1, 1),
        shared_mem_bytes: 0,
        attrs: Default::default(),
    };
    let check_rows = |what: &str, got: &[f32], f: &dyn Fn(&[f32]) -> Vec<f64>| {
        for r in (0..rows_n).step_by(rows_n / 16) {
            let row = &xs[r * cols..(r + 1) * cols];
            check(what, &got[r * cols..(r + 1) * cols], &f(row), 1e-4)?;
        }
        Ok::<(), String>(())
    };
    let softmax_ref = |row: &[f32]| {
        let m = row.iter().fold(f32::NEG_INFINITY, |a, &b| a.max(b)) as f64;
        let e: Vec<f64> = row.iter().map(|&v| (v as f64 - m).exp()).collect();
        let s: f64 = e.iter().sum();
        e.iter().map(|v| v / s * 1e3).collect::<Vec<f64>>()
    };
    softmax_rows::launch(&s, rcfg, &x, cols as u32, &mut y).map_err(e)?;
    s.synchronize().map_err(e)?;
    // Probabilities are ~1/4096: compared scaled by 1000 so the tolerance is relative.
    let scaled = |v: Vec<f32>| v.into_iter().map(|p| p * 1e3).collect::<Vec<f32>>();
    check_rows("softmax", &scaled(y.to_vec().map_err(e)?), &softmax_ref)?;
    let twin_fn = twins
        .function(dev, "math_f32", "softmax_rows")
        .transpose()
        .map_err(e)?;
    let (mut xp, mut cc, mut yp) = (x.device_ptr(), cols as u32, yt.device_ptr());
    let mut args = [ptr(&mut xp), ptr(&mut cc), ptr(&mut yp)];
    let (ours, twin) = time_pair(
        dev,
        &s,
        |s| softmax_rows::launch(s, rcfg, &x, cols as u32, &mut y),
        twin_fn
            .as_ref()
            .map(|(_m, f)| |s: &Stream| unsafe { f.launch_raw(s, rcfg, &mut args) }),
    )
    .map_err(e)?;
    if twin_fn.is_some() {
        check_rows(
            "softmax twin",
            &scaled(yt.to_vec().map_err(e)?),
            &softmax_ref,
        )?;
    }
    rows.push(Row::new(
        "row softmax, exp (8192 x 4096 f32)",
        Unit::GBps,
        12.0 * (rows_n * cols) as f64,
        Some(ours),
        twin,
    ));

    let gamma_h = uniform(&mut rng, cols, 0.5, 1.5);
    let beta_h = uniform(&mut rng, cols, -0.5, 0.5);
    let gamma = DeviceBuffer::upload(dev, &gamma_h).map_err(e)?;
    let beta = DeviceBuffer::upload(dev, &beta_h).map_err(e)?;
    let eps = 1e-5f32;
    let ln_ref = |row: &[f32]| {
        let n = row.len() as f64;
        let mean = row.iter().map(|&v| v as f64).sum::<f64>() / n;
        let var = row.iter().map(|&v| (v as f64 - mean).powi(2)).sum::<f64>() / n;
        let r = 1.0 / (var + eps as f64).sqrt();
        row.iter()
            .enumerate()
            .map(|(c, &v)| (v as f64 - mean) * r * gamma_h[c] as f64 + beta_h[c] as f64)
            .collect::<Vec<f64>>()
    };
    layernorm_rows::launch(&s, rcfg, &x, &gamma, &beta, cols as u32, eps, &mut y).map_err(e)?;
    s.synchronize().map_err(e)?;
    check_rows("layernorm", &y.to_vec().map_err(e)?, &ln_ref)?;
    let twin_fn = twins
        .function(dev, "math_f32", "layernorm_rows")
        .transpose()
        .map_err(e)?;
    let (mut xp, mut gp, mut bp, mut cc, mut ee, mut yp) = (
        x.device_ptr(),
        gamma.device_ptr(),
        beta.device_ptr(),
        cols as u32,
        eps,
        yt.device_ptr(),
    );
    let mut args = [
        ptr(&mut xp),
        ptr(&mut gp),
        ptr(&mut bp),
        ptr(&mut cc),
        ptr(&mut ee),
        ptr(&mut yp),
    ];
    let (ours, twin) = time_pair(
        dev,
        &s,
        |s| layernorm_rows::launch(s, rcfg, &x, &gamma, &beta, cols as u32, eps, &mut y),
        twin_fn
            .as_ref()
            .map(|(_m, f)| |s: &Stream| unsafe { f.launch_raw(s, rcfg, &mut args) }),
    )
    .map_err(e)?;
    if twin_fn.is_some() {
        check_rows("layernorm twin", &yt.to_vec().map_err(e)?, &ln_ref)?;
    }
    rows.push(Row::new(
        "layernorm, rsqrt (8192 x 4096 f32)",
        Unit::GBps,
        12.0 * (rows_n * cols) as f64,
        Some(ours),
        twin,
    ));
    Ok(rows)
}

/// The kernels compile for the simulator and give the reference results there (no GPU needed).
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn math_bench_kernels_match_the_cpu_on_the_simulator() {
        let dev = Device::simulator();
        let s = dev.new_stream().unwrap();
        let xs: Vec<f32> = (0..300).map(|i| 0.5 + i as f32 * 0.01).collect();
        let x = dev.upload(&xs).unwrap();
        let mut y = dev.alloc_zeroed::<f32>(xs.len()).unwrap();
        k_exp::launch(&s, LaunchConfig::for_elements(xs.len(), 256), &x, &mut y).unwrap();
        let got = y.to_vec().unwrap();
        for (g, &v) in got.iter().zip(&xs) {
            let want: f64 = (0..64).map(|k| (v as f64 + 1e-4 * k as f64).exp()).sum();
            assert!((*g as f64 - want).abs() < 1e-4 * want, "{g} vs {want}");
        }
    }

    /// The three kernels on the simulator, small sizes, against the CPU.
    #[test]
    fn nbody_softmax_layernorm_match_the_cpu_on_the_simulator() {
        let dev = Device::simulator();
        let s = dev.new_stream().unwrap();
        let nb = 256usize;
        let mut rng = Rng::new(3);
        let host = uniform(&mut rng, 4 * nb, 0.5, 1.0);
        let pos = dev.upload(&host).unwrap();
        let mut acc = dev.alloc_zeroed::<f32>(3 * nb).unwrap();
        nbody::launch(
            &s,
            LaunchConfig::for_elements(nb, 256),
            &pos,
            nb as u32,
            1e-4,
            &mut acc,
        )
        .unwrap();
        let got = acc.to_vec().unwrap();
        let i = 17;
        let mut a = [0.0f64; 3];
        for j in 0..nb {
            let d: Vec<f64> = (0..3)
                .map(|k| (host[4 * j + k] - host[4 * i + k]) as f64)
                .collect();
            let d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + 1e-4;
            for k in 0..3 {
                a[k] += d[k] * host[4 * j + 3] as f64 / (d2 * d2.sqrt());
            }
        }
        check("nbody", &got[3 * i..3 * i + 3], &a, 1e-3).unwrap();

        let (rows, cols) = (2usize, 4096usize);
        let xs = uniform(&mut rng, rows * cols, -8.0, 8.0);
        let x = dev.upload(&xs).unwrap();
        let mut y = dev.alloc_zeroed::<f32>(rows * cols).unwrap();
        let cfg = LaunchConfig {
            grid: Dim3::new(rows as u32, 1, 1),
            block: Dim3::new(256, 1, 1),
            shared_mem_bytes: 0,
            attrs: Default::default(),
        };
        softmax_rows::launch(&s, cfg, &x, cols as u32, &mut y).unwrap();
        let got = y.to_vec().unwrap();
        let row = &xs[cols..];
        let m = row.iter().fold(f32::NEG_INFINITY, |a, &b| a.max(b)) as f64;
        let sum: f64 = row.iter().map(|&v| (v as f64 - m).exp()).sum();
        let want: Vec<f64> = row
            .iter()
            .map(|&v| (v as f64 - m).exp() / sum * 1e3)
            .collect();
        let got1: Vec<f32> = got[cols..].iter().map(|p| p * 1e3).collect();
        check("softmax", &got1, &want, 1e-4).unwrap();

        let g = dev.upload(&vec![1.5f32; cols]).unwrap();
        let b = dev.upload(&vec![0.25f32; cols]).unwrap();
        layernorm_rows::launch(&s, cfg, &x, &g, &b, cols as u32, 1e-5, &mut y).unwrap();
        let got = y.to_vec().unwrap();
        let mean = row.iter().map(|&v| v as f64).sum::<f64>() / cols as f64;
        let var = row.iter().map(|&v| (v as f64 - mean).powi(2)).sum::<f64>() / cols as f64;
        let want: Vec<f64> = row
            .iter()
            .map(|&v| (v as f64 - mean) / (var + 1e-5).sqrt() * 1.5 + 0.25)
            .collect();
        check("layernorm", &got[cols..], &want, 1e-4).unwrap();
    }

    /// Every benchmark kernel compiles for sm_90, with no f64 instruction.
    #[test]
    fn math_bench_kernels_compile_without_f64() {
        use ferrocuda::kernel_compiler::{compile, CompileOptions};
        let defs = [
            k_sqrt::ast(),
            k_rsqrt::ast(),
            k_cbrt::ast(),
            k_exp::ast(),
            k_exp2::ast(),
            k_exp10::ast(),
            k_expm1::ast(),
            k_log::ast(),
            k_log2::ast(),
            k_log10::ast(),
            k_log1p::ast(),
            k_sin::ast(),
            k_cos::ast(),
            k_sincos::ast(),
            k_tan::ast(),
            k_sinpi::ast(),
            k_cospi::ast(),
            k_sincospi::ast(),
            k_asin::ast(),
            k_acos::ast(),
            k_atan::ast(),
            k_sinh::ast(),
            k_cosh::ast(),
            k_tanh::ast(),
            k_asinh::ast(),
            k_acosh::ast(),
            k_atanh::ast(),
            k_erf::ast(),
            k_erfc::ast(),
            k_lgamma::ast(),
            k_tgamma::ast(),
            k_atan2::ast(),
            k_pow::ast(),
            k_hypot::ast(),
            k_fmod::ast(),
            k_copysign::ast(),
            k_rcbrt::ast(),
            k_rhypot::ast(),
            k_norm3d::ast(),
            k_rnorm3d::ast(),
            k_norm4d::ast(),
            k_rnorm4d::ast(),
            k_frexp::ast(),
            k_logb::ast(),
            k_ilogb::ast(),
            k_ldexp::ast(),
            k_fdim::ast(),
            k_nextafter::ast(),
            k_remainder::ast(),
            k_remquo::ast(),
            k_modf::ast(),
            k_erfinv::ast(),
            k_erfcinv::ast(),
            k_normcdfinv::ast(),
            k_j0::ast(),
            k_j1::ast(),
            k_y0::ast(),
            k_y1::ast(),
            k_jn::ast(),
            k_yn::ast(),
            nbody::ast(),
            softmax_rows::ast(),
            layernorm_rows::ast(),
        ];
        let opts = CompileOptions {
            sm: 90,
            ..CompileOptions::default()
        };
        let dump = std::env::var("MATH_PTX_DUMP").ok();
        for def in defs {
            let c = compile(def, &[], &opts).unwrap_or_else(|e| panic!("{}: {e}", def.name));
            assert!(!c.ptx.contains(".f64"), "{}", def.name);
            if let Some(d) = &dump {
                std::fs::write(format!("{d}/{}.ptx", def.name), &c.ptx).unwrap();
            }
        }
    }
}
