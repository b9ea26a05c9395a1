//! L2 persistence (guide "L2 cache access management"): a kernel that streams once through a
//! large array while reading a small hot table at scattered positions; with the table in a
//! persisting access-policy window (and the streaming array competing for the rest of L2) the
//! table's lines stay in L2. The result is the same either way; the bench row times both.

use ferrocuda::prelude::*;

use crate::util::check_equal;

/// Threads per block.
pub const BLOCK: u32 = 256;

/// `out[i] = stream_in[i] + hot[h(i)]` for a scattered `h`, `rounds` hot reads per element.
#[kernel(launch_bounds(max_threads = 256))]
pub fn hot_table_mix(hot: &[u32], stream_in: &[u32], out: &mut [u32], rounds: u32) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    if i < out.len() {
        let mut acc = stream_in[i];
        let mut h = (i as u32).wrapping_mul(2654435761);
        let mut r = 0u32;
        while r < rounds {
            acc = acc.wrapping_add(hot[h as usize % hot.len()]);
            h = h.wrapping_mul(1664525).wrapping_add(1013904223);
            r += 1;
        }
        out[i] = acc;
    }
}

/// What `hot_table_mix` writes.
pub fn reference(hot: &[u32], stream_in: &[u32], rounds: u32) -> Vec<u32> {
    stream_in
        .iter()
        .enumerate()
        .map(|(i, &s)| {
            let mut acc = s;
            let mut h = (i as u32).wrapping_mul(2654435761);
            for _ in 0..rounds {
                acc = acc.wrapping_add(hot[h as usize % hot.len()]);
                h = h.wrapping_mul(1664525).wrapping_add(1013904223);
            }
            acc
        })
        .collect()
}

/// The launch over `n` elements, with `window` (or none).
pub fn config(n: usize, window: Option<AccessPolicyWindow>) -> LaunchConfig {
    let cfg = LaunchConfig::for_elements(n, BLOCK);
    match window {
        Some(w) => cfg.access_policy(w),
        None => cfg,
    }
}

/// The kernel with and without a persisting window on `hot`, checked against the CPU.
pub fn check(dev: &Device, hot_len: usize, n: usize, rounds: u32) -> Result<(), String> {
    let hot: Vec<u32> = (0..hot_len as u32).map(|v| v.wrapping_mul(40503)).collect();
    let stream_in: Vec<u32> = (0..n as u32).map(|v| v ^ 0x5a5a).collect();
    let want = reference(&hot, &stream_in, rounds);
    let run = |persist: bool| -> ferrocuda::host_runtime::Result<Vec<u32>> {
        let s = dev.new_stream()?;
        let dh = dev.upload(&hot)?;
        let ds = dev.upload(&stream_in)?;
        let mut out = dev.upload(&vec![u32::MAX; n])?;
        let w = persist
            .then(|| AccessPolicyWindow::persisting(&dh, 1.0))
            .transpose()
            .map_err(|e| Error::InvalidValue(e.to_string()))?;
        hot_table_mix::launch(&s, config(n, w), &dh, &ds, &mut out, rounds)?;
        out.to_vec()
    };
    for persist in [false, true] {
        let got = run(persist).map_err(|e| e.to_string())?;
        check_equal("hot_table_mix", &got, &want)?;
    }
    Ok(())
}
