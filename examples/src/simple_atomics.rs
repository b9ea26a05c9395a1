//! simpleAtomicIntrinsics: every atomic operation on global memory from many threads at once,
//! for every value type, checked against a sequential CPU reference. Only order-independent
//! results are compared exactly; `exch` is checked as a permutation (the old values seen plus the
//! final value are the initial value and every thread's id, each once).

use ferrocuda::prelude::*;

use crate::util::check_equal;

pub const BLOCK: u32 = 256;

#[kernel]
pub fn atomics_u32(g: &mut [u32], exch_old: &mut [u32]) {
    let tid = block_idx().x * block_dim().x + thread_idx().x;
    atomic_add(&mut g[0], 10);
    exch_old[tid as usize] = atomic_exch(&mut g[1], tid);
    atomic_max(&mut g[2], tid);
    atomic_min(&mut g[3], tid);
    atomic_inc(&mut g[4], 17);
    atomic_dec(&mut g[5], 137);
    // An increment built from compare-and-swap: retries while other threads get in between.
    let mut old = atomic_or(&mut g[6], 0);
    loop {
        let seen = atomic_cas(&mut g[6], old, old + 1);
        if seen == old {
            break;
        }
        old = seen;
    }
    atomic_and(&mut g[7], 2 * tid + 7);
    atomic_or(&mut g[8], 1u32 << (tid % 32));
    atomic_xor(&mut g[9], tid);
    atomic_sub(&mut g[10], 3);
    atomic_add_block(&mut g[11], 1);
    atomic_add_system(&mut g[12], 2);
    atomic_max_block(&mut g[13], tid % 1000);
}

#[kernel]
pub fn atomics_i32(g: &mut [i32]) {
    let tid = (block_idx().x * block_dim().x + thread_idx().x) as i32;
    let n = (grid_dim().x * block_dim().x) as i32;
    let v = tid - n / 2;
    atomic_add(&mut g[0], v);
    atomic_sub(&mut g[1], v);
    atomic_max(&mut g[2], v);
    atomic_min(&mut g[3], v);
    atomic_and(&mut g[4], !(1i32 << (tid % 31)));
    atomic_or(&mut g[5], v);
    atomic_xor(&mut g[6], v);
    let mut old = atomic_add(&mut g[7], 0);
    loop {
        let seen = atomic_cas(&mut g[7], old, old - 1);
        if seen == old {
            break;
        }
        old = seen;
    }
}

#[kernel]
pub fn atomics_64(u: &mut [u64], s: &mut [i64]) {
    let tid = block_idx().x * block_dim().x + thread_idx().x;
    let big = (tid as u64) << 33 | tid as u64;
    atomic_add(&mut u[0], big);
    atomic_sub(&mut u[1], big);
    atomic_max(&mut u[2], big);
    atomic_min(&mut u[3], big);
    atomic_and(&mut u[4], !big);
    atomic_or(&mut u[5], big);
    atomic_xor(&mut u[6], big);
    let mut old = atomic_add(&mut u[7], 0);
    loop {
        let seen = atomic_cas(&mut u[7], old, old + (1u64 << 40));
        if seen == old {
            break;
        }
        old = seen;
    }
    let v = tid as i64 * -3_000_000_000;
    atomic_add(&mut s[0], v);
    atomic_max(&mut s[1], v);
    atomic_min(&mut s[2], v);
    atomic_xor(&mut s[3], v);
    atomic_exch(&mut s[4], 5);
}

#[kernel]
pub fn atomics_float(f: &mut [f32], d: &mut [f64]) {
    let tid = block_idx().x * block_dim().x + thread_idx().x;
    let n = grid_dim().x * block_dim().x;
    let v = tid as f32 - (n / 2) as f32;
    atomic_add(&mut f[0], 1.0);
    atomic_max(&mut f[1], v);
    atomic_min(&mut f[2], v);
    atomic_exch(&mut f[3], 2.5);
    atomic_add(&mut d[0], tid as f64);
    atomic_max(&mut d[1], -(tid as f64));
    atomic_min(&mut d[2], tid as f64 * 0.5);
    atomic_exch(&mut d[3], -1.25);
}

/// The u32 results of `n` threads, in `atomics_u32`'s order (`g[1]`, the exchange, left out).
pub fn reference_u32(n: u32) -> Vec<u32> {
    let mut g = initial_u32();
    for tid in 0..n {
        g[0] = g[0].wrapping_add(10);
        g[2] = g[2].max(tid);
        g[3] = g[3].min(tid);
        g[4] = if g[4] >= 17 { 0 } else { g[4] + 1 };
        g[5] = if g[5] == 0 || g[5] > 137 {
            137
        } else {
            g[5] - 1
        };
        g[6] += 1;
        g[7] &= 2 * tid + 7;
        g[8] |= 1 << (tid % 32);
        g[9] ^= tid;
        g[10] = g[10].wrapping_sub(3);
        g[11] += 1;
        g[12] += 2;
        g[13] = g[13].max(tid % 1000);
    }
    g
}

fn initial_u32() -> Vec<u32> {
    vec![0, 7, 0, u32::MAX, 0, 0, 0, u32::MAX, 0, 0, 1000, 0, 0, 0]
}

pub fn reference_i32(n: u32) -> Vec<i32> {
    let mut g = initial_i32();
    for tid in 0..n as i32 {
        let v = tid - n as i32 / 2;
        g[0] = g[0].wrapping_add(v);
        g[1] = g[1].wrapping_sub(v);
        g[2] = g[2].max(v);
        g[3] = g[3].min(v);
        g[4] &= !(1 << (tid % 31));
        g[5] |= v;
        g[6] ^= v;
        g[7] -= 1;
    }
    g
}

fn initial_i32() -> Vec<i32> {
    vec![5, -5, i32::MIN, i32::MAX, -1, 0, 0, 0]
}

pub fn reference_64(n: u32) -> (Vec<u64>, Vec<i64>) {
    let (mut u, mut s) = initial_64();
    for tid in 0..n {
        let big = (tid as u64) << 33 | tid as u64;
        u[0] = u[0].wrapping_add(big);
        u[1] = u[1].wrapping_sub(big);
        u[2] = u[2].max(big);
        u[3] = u[3].min(big);
        u[4] &= !big;
        u[5] |= big;
        u[6] ^= big;
        u[7] += 1 << 40;
        let v = tid as i64 * -3_000_000_000;
        s[0] = s[0].wrapping_add(v);
        s[1] = s[1].max(v);
        s[2] = s[2].min(v);
        s[3] ^= v;
        s[4] = 5;
    }
    (u, s)
}

fn initial_64() -> (Vec<u64>, Vec<i64>) {
    (
        vec![1, 0, 0, u64::MAX, u64::MAX, 0, 0, 0],
        vec![0, i64::MIN, i64::MAX, 0, 0],
    )
}

pub fn reference_float(n: u32) -> (Vec<f32>, Vec<f64>) {
    let (mut f, mut d) = initial_float();
    for tid in 0..n {
        let v = tid as f32 - (n / 2) as f32;
        f[0] += 1.0;
        f[1] = f[1].max(v);
        f[2] = f[2].min(v);
        f[3] = 2.5;
        d[0] += tid as f64;
        d[1] = d[1].max(-(tid as f64));
        d[2] = d[2].min(tid as f64 * 0.5);
        d[3] = -1.25;
    }
    (f, d)
}

fn initial_float() -> (Vec<f32>, Vec<f64>) {
    (vec![0.0, -1e30, 1e30, 0.0], vec![0.0, -1e300, 1e300, 0.0])
}

/// Runs all four kernels with `blocks` blocks of 256 threads.
pub fn check(dev: &Device, blocks: u32) -> Result<(), String> {
    let n = blocks * BLOCK;
    let cfg = LaunchConfig::for_elements(n as usize, BLOCK);
    let run = || -> ferrocuda::host_runtime::Result<_> {
        let stream = dev.new_stream()?;
        let mut g = dev.upload(&initial_u32())?;
        let mut old = dev.upload(&vec![u32::MAX; n as usize])?;
        atomics_u32::launch(&stream, cfg, &mut g, &mut old)?;
        let mut gi = dev.upload(&initial_i32())?;
        atomics_i32::launch(&stream, cfg, &mut gi)?;
        let (u0, s0) = initial_64();
        let (mut u, mut s) = (dev.upload(&u0)?, dev.upload(&s0)?);
        atomics_64::launch(&stream, cfg, &mut u, &mut s)?;
        let (f0, d0) = initial_float();
        let (mut f, mut d) = (dev.upload(&f0)?, dev.upload(&d0)?);
        atomics_float::launch(&stream, cfg, &mut f, &mut d)?;
        Ok((
            g.to_vec()?,
            old.to_vec()?,
            gi.to_vec()?,
            u.to_vec()?,
            s.to_vec()?,
            f.to_vec()?,
            d.to_vec()?,
        ))
    };
    let (mut g, old, gi, u, s, f, d) = run().map_err(|e| e.to_string())?;
    // Exchange: the chain of old values and the final value hold 7 and every id once.
    let mut seen: Vec<u32> = old.clone();
    seen.push(g[1]);
    seen.sort_unstable();
    let mut want: Vec<u32> = (0..n).collect();
    want.push(7);
    want.sort_unstable();
    check_equal("atomic_exch chain", &seen, &want)?;
    let mut want_g = reference_u32(n);
    g[1] = 0;
    want_g[1] = 0;
    check_equal("atomics_u32", &g, &want_g)?;
    check_equal("atomics_i32", &gi, &reference_i32(n))?;
    let (wu, ws) = reference_64(n);
    check_equal("atomics_64 (u64)", &u, &wu)?;
    check_equal("atomics_64 (i64)", &s, &ws)?;
    let (wf, wd) = reference_float(n);
    check_equal("atomics_float (f32)", &f, &wf)?;
    check_equal("atomics_float (f64)", &d, &wd)
}
