//! The guide's asynchronous-barrier patterns (B.25, `cuda::barrier`): the split arrive/wait
//! (work that needs no other thread's data runs between the two), a producer/consumer split of
//! the block over a double buffer, and an early exit with `arrive_and_drop`.

use ferrocuda::prelude::*;

use crate::util::{check_equal, Rng};

/// Each thread publishes `x[i]`, then (between arrive and wait) squares its own value, then
/// reads its right neighbour's published value.
#[kernel]
pub fn split_arrive_wait(x: &[u32], out: &mut [u32]) {
    let bar = shared_array::<Barrier>();
    let buf = shared_array::<[u32; 256]>();
    let t = thread_idx().x as usize;
    let n = block_dim().x as usize;
    let i = block_idx().x as usize * n + t;
    barrier_init_block(bar, block_dim().x);
    buf[t] = x[i];
    let token = barrier_arrive(bar);
    let own = x[i].wrapping_mul(x[i]);
    barrier_wait(bar, token);
    out[i] = own.wrapping_add(buf[(t + 1) % n]);
}

/// Warp 0 produces, the other warps consume: `filled[s]` completes when slot `s` holds round
/// `r`, `drained[s]` when every consumer has read it.
#[kernel]
pub fn producer_consumer(x: &[u32], out: &mut [u32], rounds: u32) {
    let filled = shared_array::<[Barrier; 2]>();
    let drained = shared_array::<[Barrier; 2]>();
    let slots = shared_array::<[[u32; 32]; 2]>();
    let t = thread_idx().x;
    if t == 0 {
        for s in 0..2 {
            barrier_init(&filled[s], 32);
            barrier_init(&drained[s], block_dim().x - 32);
        }
    }
    sync_threads();
    if t < 32 {
        for r in 0..rounds {
            let s = (r % 2) as usize;
            if r >= 2 {
                barrier_wait_parity(&drained[s], (r / 2 + 1) % 2);
            }
            slots[s][t as usize] = x[(r * 32 + t) as usize];
            barrier_arrive(&filled[s]);
        }
    } else {
        let mut acc = 0u32;
        for r in 0..rounds {
            let s = (r % 2) as usize;
            barrier_wait_parity(&filled[s], (r / 2) % 2);
            acc = acc.wrapping_add(slots[s][(t % 32) as usize]);
            barrier_arrive(&drained[s]);
        }
        out[(t - 32) as usize] = acc;
    }
}

/// Thread `t` works `work[t]` rounds, each adding its value to the round's shared sum, then
/// leaves with `arrive_and_drop`; the threads still working wait for each other only.
#[kernel]
pub fn early_exit(work: &[u32], sums: &mut [u32]) {
    let bar = shared_array::<Barrier>();
    let sum = shared_array::<[u32; 8]>();
    let t = thread_idx().x as usize;
    if t == 0 {
        barrier_init(bar, block_dim().x);
    }
    if t < 8 {
        sum[t] = 0;
    }
    sync_threads();
    let mine = work[t].min(8);
    let mut r = 0u32;
    loop {
        if r == mine {
            barrier_arrive_and_drop(bar);
            break;
        }
        atomic_add(&mut sum[r as usize], t as u32);
        barrier_arrive_and_wait(bar);
        r += 1;
    }
    sync_threads();
    if t < 8 {
        sums[t] = sum[t];
    }
}

/// All three against CPU references.
pub fn check(dev: &Device) -> Result<(), String> {
    let e = |e: ferrocuda::host_runtime::Error| e.to_string();
    let s = dev.new_stream().map_err(e)?;
    let mut rng = Rng::new(5);

    let x: Vec<u32> = (0..1024).map(|_| rng.next_u32()).collect();
    let dx = dev.upload(&x).map_err(e)?;
    let mut out = dev.alloc_zeroed::<u32>(1024).map_err(e)?;
    split_arrive_wait::launch(&s, LaunchConfig::for_elements(1024, 256), &dx, &mut out)
        .map_err(e)?;
    let want: Vec<u32> = (0..1024)
        .map(|i| {
            x[i].wrapping_mul(x[i])
                .wrapping_add(x[i / 256 * 256 + (i % 256 + 1) % 256])
        })
        .collect();
    check_equal("split_arrive_wait", &out.to_vec().map_err(e)?, &want)?;

    let rounds = 9u32;
    let xs: Vec<u32> = (0..rounds * 32).map(|_| rng.next_u32()).collect();
    let dxs = dev.upload(&xs).map_err(e)?;
    let mut acc = dev.alloc_zeroed::<u32>(96).map_err(e)?;
    producer_consumer::launch(
        &s,
        LaunchConfig::for_elements(128, 128),
        &dxs,
        &mut acc,
        rounds,
    )
    .map_err(e)?;
    let want: Vec<u32> = (0..96)
        .map(|c| (0..rounds).fold(0u32, |a, r| a.wrapping_add(xs[(r * 32 + c % 32) as usize])))
        .collect();
    check_equal("producer_consumer", &acc.to_vec().map_err(e)?, &want)?;

    let work: Vec<u32> = (0..128).map(|_| rng.next_u32() % 9).collect();
    let dw = dev.upload(&work).map_err(e)?;
    let mut sums = dev.alloc_zeroed::<u32>(8).map_err(e)?;
    early_exit::launch(&s, LaunchConfig::for_elements(128, 128), &dw, &mut sums).map_err(e)?;
    let want: Vec<u32> = (0..8u32)
        .map(|r| (0..128u32).filter(|&t| work[t as usize].min(8) > r).sum())
        .collect();
    check_equal("early_exit", &sums.to_vec().map_err(e)?, &want)
}
