//! Differential testing: the same `#[kernel]`s with the same inputs on the simulator and on CUDA
//! device 0, compared bit for bit for integers and by ulp distance for floats (see
//! docs/simulator.md for the bounds: 0 for every kernel here, since both backends run the same
//! optimized IR and PTX's add/sub/mul/div/sqrt/fma/conversions are correctly rounded). Any two
//! NaNs compare equal (payloads are not compared); a zero of the wrong sign counts as 1 ulp.
//!
//! `gpu_and_simulator_agree` needs a GPU (`--ignored`; it skips without one unless
//! `FERROCUDA_REQUIRE_GPU=1`). `differential_harness_runs_on_the_simulator` runs every case on
//! two simulator devices, so the harness and the kernels are exercised on every machine.

mod common;

use ferrocuda::host_runtime::Result as RtResult;
use ferrocuda::prelude::*;
use ferrocuda_examples::util::Rng;
use ferrocuda_examples::{reverse, saxpy, sgemm, transpose};
use host_runtime::{compiled_kernel, InstanceKey};

#[kernel]
pub fn int_ops(a: &[u32], b: &[u32], out: &mut [u32]) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    if i < a.len() {
        let x = a[i];
        let y = b[i];
        let sx = x as i32;
        let sy = y as i32;
        let o = i * 16;
        out[o] = x.wrapping_add(y);
        out[o + 1] = x.wrapping_mul(y) ^ x.wrapping_sub(y);
        out[o + 2] = x / (y | 1);
        out[o + 3] = x % (y | 1);
        let d = if sy == 0 || (sx == i32::MIN && sy == -1) {
            7
        } else {
            sy
        };
        out[o + 4] = (sx / d) as u32;
        out[o + 5] = (sx % d) as u32;
        out[o + 6] = x << (y & 31);
        out[o + 7] = (sx >> (y & 31)) as u32;
        out[o + 8] = x >> (y % 32);
        out[o + 9] = ((x as u64 * y as u64) >> 32) as u32;
        out[o + 10] = x as i8 as i32 as u32;
        out[o + 11] = (x as u16 as u32).wrapping_add((sx as i16 as i64 as u64 >> 40) as u32);
        out[o + 12] = x.leading_zeros() + x.count_ones() * 64 + x.trailing_zeros() * 4096;
        out[o + 13] = sx.wrapping_abs() as u32 ^ (sx.min(sy) as u32);
        out[o + 14] = x.max(y).saturating_sub(x.min(y) / 2);
        let w = (x as i64).wrapping_mul(sy as i64);
        out[o + 15] = (w as u64 as u32) ^ ((w >> 33) as u32);
    }
}

#[kernel]
pub fn float_ops(a: &[f32], b: &[f32], out: &mut [f32]) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    if i < a.len() {
        let x = a[i];
        let y = b[i];
        let o = i * 14;
        out[o] = x + y;
        out[o + 1] = x - y;
        out[o + 2] = x * y;
        out[o + 3] = x / y;
        out[o + 4] = x.abs().sqrt();
        out[o + 5] = x.mul_add(y, 1.5);
        out[o + 6] = x * y + x;
        out[o + 7] = x.min(y);
        out[o + 8] = x.max(y);
        out[o + 9] = (x as f64 * y as f64) as f32;
        out[o + 10] = x.floor() + y.ceil();
        out[o + 11] = x.round() - y.trunc();
        out[o + 12] = -x;
        out[o + 13] = ((x as f64).sqrt() + y as f64 / 3.0) as f32;
    }
}

#[kernel]
pub fn float_casts(a: &[f32], out: &mut [u32]) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    if i < a.len() {
        let x = a[i];
        let bits = x.to_bits();
        let o = i * 12;
        out[o] = x as i32 as u32;
        out[o + 1] = x as u32;
        out[o + 2] = x as i8 as i32 as u32;
        out[o + 3] = x as u8 as u32;
        let l = x as i64;
        out[o + 4] = (l as u64 as u32) ^ ((l >> 32) as u32);
        let u = x as u64;
        out[o + 5] = (u as u32) ^ ((u >> 32) as u32);
        out[o + 6] = (bits as i32 as f32).to_bits();
        out[o + 7] = (bits as f32).to_bits();
        out[o + 8] = (((bits as u64) << 29 | bits as u64) as f32).to_bits();
        out[o + 9] = ((bits as i32 as i64 * 1000003) as f64 as f32).to_bits();
        let d = x as f64 * 1.0000001;
        out[o + 10] = (d as f32).to_bits();
        out[o + 11] = (d as i32) as u32;
    }
}

#[kernel]
pub fn half_conv(a: &[f32], b: &[f32], out: &mut [u32]) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    if i < a.len() {
        let x = a[i];
        let y = b[i];
        let o = i * 8;
        out[o] = f16::from_f32(x).to_bits() as u32;
        out[o + 1] = bf16::from_f32(x).to_bits() as u32;
        out[o + 2] = f16::from_f32(x).to_f32().to_bits();
        out[o + 3] = bf16::from_f32(x).to_f32().to_bits();
        out[o + 4] = (f16::from_f32(x) * f16::from_f32(y)).to_bits() as u32;
        out[o + 5] = (bf16::from_f32(x) + bf16::from_f32(y)).to_bits() as u32;
        out[o + 6] = f16::from_f64(x as f64 * 3.0).to_bits() as u32;
        out[o + 7] = f16::from_f32(x).to_f64().to_bits() as u32;
    }
}

#[kernel]
pub fn control(a: &[u32], out: &mut [u32]) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    if i < a.len() {
        let x = a[i];
        let mut k = x | 1;
        let mut steps = 0u32;
        while k != 1 && steps < 300 {
            k = if k % 2 == 0 {
                k / 2
            } else {
                k.wrapping_mul(3).wrapping_add(1)
            };
            steps += 1;
        }
        let mut m = match x % 5 {
            0 => steps,
            1 => x ^ steps,
            2 | 3 => steps.wrapping_mul(x),
            _ => 7,
        };
        for j in 0..(x % 8) {
            m = m.wrapping_add(j * j);
        }
        let mut r = 0u32;
        loop {
            r += 1;
            if r * r > (x & 0xff) {
                break;
            }
        }
        out[i * 3] = m;
        out[i * 3 + 1] = k;
        out[i * 3 + 2] = r;
    }
}

/// A grid-stride `while` loop, a grid-stride `step_by` loop and a per-thread `for` over a
/// runtime count: the shapes `passes::stride_unroll` runs four iterations per trip. Checked
/// against a CPU reference too (both backends run the same optimized IR).
#[kernel]
pub fn strided(a: &[u32], out: &mut [u32], sums: &mut [u32]) {
    let t = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    let stride = (grid_dim().x * block_dim().x) as usize;
    let mut i = t;
    let mut s = 0u32;
    while i < a.len() {
        s = s.wrapping_add(a[i] ^ i as u32);
        i += stride;
    }
    for j in (t..out.len()).step_by(stride) {
        out[j] = a[j % a.len()].wrapping_mul(3).wrapping_add(j as u32);
    }
    let mut m = 0u32;
    for k in 0..a[t] % 13 {
        m = m.wrapping_add(k * k) ^ k;
    }
    sums[t] = s ^ m.rotate_left(7);
}

fn strided_reference(a: &[u32], out_len: usize, threads: usize) -> Vec<u32> {
    let mut out = vec![0u32; out_len];
    for (j, o) in out.iter_mut().enumerate() {
        *o = a[j % a.len()].wrapping_mul(3).wrapping_add(j as u32);
    }
    for t in 0..threads {
        let s = (t..a.len())
            .step_by(threads)
            .fold(0u32, |s, i| s.wrapping_add(a[i] ^ i as u32));
        let m = (0..a[t] % 13).fold(0u32, |m, k| m.wrapping_add(k * k) ^ k);
        out.push(s ^ m.rotate_left(7));
    }
    out
}

/// Every value class floats have: zeros, subnormals, normals near the integer limits, the
/// largest finite values, infinities and NaN.
fn special_f32() -> Vec<f32> {
    vec![
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.5,
        -0.5,
        1.5,
        2.5,
        -2.5,
        255.5,
        256.0,
        -129.0,
        f32::MIN_POSITIVE,
        -f32::MIN_POSITIVE,
        1e-40,
        -1e-45,
        f32::from_bits(1),
        f32::MAX,
        f32::MIN,
        2147483520.0,
        2147483648.0,
        -2147483648.0,
        -2147483904.0,
        4294967040.0,
        4294967296.0,
        9.3e18,
        1.9e19,
        65504.0,
        65520.0,
        1e-8,
        3.0e-5,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        std::f32::consts::PI,
        -std::f32::consts::E,
    ]
}

/// All pairs of special values, then random bit patterns (which include NaNs, subnormals and
/// infinities in their natural proportions) and random values of moderate size.
fn float_pairs(random: usize) -> (Vec<f32>, Vec<f32>) {
    let s = special_f32();
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for x in &s {
        for y in &s {
            a.push(*x);
            b.push(*y);
        }
    }
    let mut rng = Rng::new(17);
    for k in 0..random {
        if k % 2 == 0 {
            a.push(f32::from_bits(rng.next_u32()));
            b.push(f32::from_bits(rng.next_u32()));
        } else {
            a.push(rng.f32() * 1000.0);
            b.push(rng.f32() * 10.0);
        }
    }
    (a, b)
}

fn int_pairs(random: usize) -> (Vec<u32>, Vec<u32>) {
    let s = [
        0u32,
        1,
        2,
        3,
        7,
        31,
        32,
        33,
        0xff,
        0x8000,
        0xffff,
        0x7fff_ffff,
        0x8000_0000,
        0x8000_0001,
        0xffff_fffe,
        0xffff_ffff,
    ];
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for x in s {
        for y in s {
            a.push(x);
            b.push(y);
        }
    }
    let mut rng = Rng::new(23);
    for _ in 0..random {
        a.push(rng.next_u32());
        b.push(rng.next_u32() >> (rng.next_u32() % 32));
    }
    (a, b)
}

/// One case's results on one device, as raw 32-bit words, and whether they are `f32`s.
struct Out {
    words: Vec<u32>,
    float: bool,
}

fn ints(v: Vec<u32>) -> Out {
    Out {
        words: v,
        float: false,
    }
}

fn floats(v: Vec<f32>) -> Out {
    Out {
        words: v.into_iter().map(f32::to_bits).collect(),
        float: true,
    }
}

type Case = (&'static str, fn(&Device) -> RtResult<Out>);

fn cases() -> Vec<Case> {
    vec![
        ("int_ops", run_int_ops),
        ("float_ops", run_float_ops),
        ("float_casts", run_float_casts),
        ("half_conv", run_half_conv),
        ("control", run_control),
        ("strided", run_strided),
        ("reverse_block", run_reverse),
        ("saxpy", run_saxpy),
        ("transpose", run_transpose),
        ("sgemm", run_sgemm),
    ]
}

fn run_int_ops(dev: &Device) -> RtResult<Out> {
    let (a, b) = int_pairs(4000);
    let s = dev.new_stream()?;
    let (da, db) = (dev.upload(&a)?, dev.upload(&b)?);
    let mut out = dev.alloc_zeroed::<u32>(a.len() * 16)?;
    int_ops::launch(
        &s,
        LaunchConfig::for_elements(a.len(), 128),
        &da,
        &db,
        &mut out,
    )?;
    Ok(ints(out.to_vec()?))
}

fn run_float_ops(dev: &Device) -> RtResult<Out> {
    let (a, b) = float_pairs(4000);
    let s = dev.new_stream()?;
    let (da, db) = (dev.upload(&a)?, dev.upload(&b)?);
    let mut out = dev.alloc_zeroed::<f32>(a.len() * 14)?;
    float_ops::launch(
        &s,
        LaunchConfig::for_elements(a.len(), 128),
        &da,
        &db,
        &mut out,
    )?;
    Ok(floats(out.to_vec()?))
}

fn run_float_casts(dev: &Device) -> RtResult<Out> {
    let (a, _) = float_pairs(4000);
    let s = dev.new_stream()?;
    let da = dev.upload(&a)?;
    let mut out = dev.alloc_zeroed::<u32>(a.len() * 12)?;
    float_casts::launch(&s, LaunchConfig::for_elements(a.len(), 128), &da, &mut out)?;
    Ok(ints(out.to_vec()?))
}

fn run_half_conv(dev: &Device) -> RtResult<Out> {
    let (a, b) = float_pairs(4000);
    let s = dev.new_stream()?;
    let (da, db) = (dev.upload(&a)?, dev.upload(&b)?);
    let mut out = dev.alloc_zeroed::<u32>(a.len() * 8)?;
    half_conv::launch(
        &s,
        LaunchConfig::for_elements(a.len(), 128),
        &da,
        &db,
        &mut out,
    )?;
    Ok(ints(out.to_vec()?))
}

fn run_control(dev: &Device) -> RtResult<Out> {
    let (a, _) = int_pairs(3000);
    let s = dev.new_stream()?;
    let da = dev.upload(&a)?;
    let mut out = dev.alloc_zeroed::<u32>(a.len() * 3)?;
    control::launch(&s, LaunchConfig::for_elements(a.len(), 96), &da, &mut out)?;
    Ok(ints(out.to_vec()?))
}

fn run_strided(dev: &Device) -> RtResult<Out> {
    let (a, _) = int_pairs(4000);
    let (blocks, block, out_len) = (7u32, 64u32, 5003usize);
    let threads = (blocks * block) as usize;
    let s = dev.new_stream()?;
    let da = dev.upload(&a)?;
    let mut out = dev.alloc_zeroed::<u32>(out_len)?;
    let mut sums = dev.alloc_zeroed::<u32>(threads)?;
    let cfg = LaunchConfig::for_elements(threads, block);
    strided::launch(&s, cfg, &da, &mut out, &mut sums)?;
    let mut got = out.to_vec()?;
    got.extend(sums.to_vec()?);
    assert_eq!(
        got,
        strided_reference(&a, out_len, threads),
        "strided on {dev:?}"
    );
    Ok(ints(got))
}

fn run_reverse(dev: &Device) -> RtResult<Out> {
    let n = 8 * reverse::BLOCK;
    let input = Rng::new(3).vec_i32(n);
    let s = dev.new_stream()?;
    let din = dev.upload(&input)?;
    let mut dout = dev.alloc_zeroed::<i32>(n)?;
    reverse::reverse_block::launch(
        &s,
        LaunchConfig::for_elements(n, reverse::BLOCK as u32),
        &din,
        &mut dout,
    )?;
    Ok(ints(dout.to_vec()?.into_iter().map(|v| v as u32).collect()))
}

fn run_saxpy(dev: &Device) -> RtResult<Out> {
    let n = 10_000;
    let mut rng = Rng::new(7);
    let (x, y) = (rng.vec_f32(n), rng.vec_f32(n));
    let s = dev.new_stream()?;
    let dx = dev.upload(&x)?;
    let mut dy = dev.upload(&y)?;
    saxpy::saxpy::launch(&s, LaunchConfig::for_elements(n, 256), 2.5, &dx, &mut dy)?;
    Ok(floats(dy.to_vec()?))
}

fn run_transpose(dev: &Device) -> RtResult<Out> {
    let (w, h) = (100u32, 70u32);
    let inp = Rng::new(11).vec_f32((w * h) as usize);
    let s = dev.new_stream()?;
    let din = dev.upload(&inp)?;
    let mut dout = dev.alloc_zeroed::<f32>((w * h) as usize)?;
    transpose::transpose::launch::<32>(&s, transpose::config(w, h), &mut dout, &din, w, h)?;
    Ok(floats(dout.to_vec()?))
}

fn run_sgemm(dev: &Device) -> RtResult<Out> {
    let (m, n, k) = (256usize, 256usize, 64usize);
    let mut rng = Rng::new(5);
    let (a, b, c) = (rng.vec_f32(m * k), rng.vec_f32(k * n), rng.vec_f32(m * n));
    let s = dev.new_stream()?;
    let (da, db) = (dev.upload(&a)?, dev.upload(&b)?);
    let mut dc = dev.upload(&c)?;
    let (m32, n32, k32) = (m as u32, n as u32, k as u32);
    sgemm::sgemm::launch(
        &s,
        sgemm::config(m32, n32),
        &da,
        &db,
        &mut dc,
        m32,
        n32,
        k32,
        1.25,
        -0.5,
    )?;
    Ok(floats(dc.to_vec()?))
}

/// Position of `x` on a line where adjacent floats are 1 apart; the two zeros are 1 apart too.
fn ordinal(bits: u32) -> i64 {
    let mag = (bits & 0x7fff_ffff) as i64;
    if bits >> 31 == 1 {
        -mag - 1
    } else {
        mag
    }
}

fn ulps(a: u32, b: u32) -> u64 {
    let nan = |x: u32| f32::from_bits(x).is_nan();
    match (nan(a), nan(b)) {
        (true, true) => 0,
        (false, false) => ordinal(a).abs_diff(ordinal(b)),
        _ => u64::MAX,
    }
}

/// Compares one case; returns the max ulp distance (floats) or the mismatch count (integers),
/// with the first mismatch described.
fn compare(name: &str, x: &Out, y: &Out) -> (u64, Option<String>) {
    if x.words.len() != y.words.len() {
        return (
            u64::MAX,
            Some(format!(
                "{name}: lengths {} vs {}",
                x.words.len(),
                y.words.len()
            )),
        );
    }
    let mut worst = 0u64;
    let mut first = None;
    for (i, (a, b)) in x.words.iter().zip(&y.words).enumerate() {
        let d = if x.float {
            ulps(*a, *b)
        } else {
            (a != b) as u64
        };
        if d > 0 && first.is_none() {
            first = Some(format!("{name}[{i}]: {a:#010x} vs {b:#010x}"));
        }
        worst = if x.float { worst.max(d) } else { worst + d };
    }
    (worst, first)
}

/// Runs every case on both devices and asserts agreement (ulp bound 0 for every float case).
fn differential(first: &Device, second: &Device) {
    let mut failures = Vec::new();
    for (name, run) in cases() {
        let x = run(first).unwrap_or_else(|e| panic!("{name} on {}: {e}", first.describe()));
        let y = run(second).unwrap_or_else(|e| panic!("{name} on {}: {e}", second.describe()));
        let (worst, mismatch) = compare(name, &x, &y);
        if x.float {
            println!("{name:>14}: {} values, max ulp {worst}", x.words.len());
        } else {
            println!(
                "{name:>14}: {} words, {worst} differ (bit-exact expected)",
                x.words.len()
            );
        }
        if let Some(m) = mismatch {
            failures.push(m);
        }
    }
    assert!(
        failures.is_empty(),
        "backends disagree:\n{}",
        failures.join("\n")
    );
}

#[test]
#[ignore]
fn gpu_and_simulator_agree() {
    let Some(gpu) = common::gpu() else { return };
    println!("{} vs the simulator", gpu.describe());
    differential(&Device::simulator(), &gpu);
}

#[test]
fn differential_harness_runs_on_the_simulator() {
    differential(&Device::simulator(), &Device::simulator());
    // The comparison itself can fail.
    let a = floats(vec![1.0, 0.0, f32::NAN]);
    let b = floats(vec![f32::from_bits(1.0f32.to_bits() + 2), -0.0, f32::NAN]);
    assert_eq!(compare("t", &a, &b).0, 2);
    assert_eq!(ulps(0.0f32.to_bits(), (-0.0f32).to_bits()), 1);
    assert_eq!(
        compare("t", &ints(vec![1, 2, 3]), &ints(vec![1, 5, 6])).0,
        2
    );
}

/// The GPU run JIT-compiles these kernels' PTX: ptxas must accept it for sm_80 and sm_90
/// (skipped where ptxas is not installed, a failure under `CI=true`; CUDA 13's ptxas no longer
/// knows sm_70).
#[test]
fn differential_kernels_assemble() {
    if kernel_testkit::ptxas::require_ptxas().is_none() {
        return;
    }
    let dev = Device::simulator();
    for handle in [
        &int_ops::KERNEL,
        &float_ops::KERNEL,
        &float_casts::KERNEL,
        &half_conv::KERNEL,
        &control::KERNEL,
    ] {
        let c = compiled_kernel(&dev, handle, &InstanceKey::EMPTY, &Vec::new, None).unwrap();
        for sm in [80, 90] {
            kernel_testkit::ptxas::assemble(&c.ptx, sm)
                .unwrap_or_else(|e| panic!("{} sm_{sm}: {e}", c.kernel.display_name));
        }
    }
}
