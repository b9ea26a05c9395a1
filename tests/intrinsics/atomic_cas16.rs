//! 16-bit `atomicCAS` (`unsigned short`, sm_70+: `atom.cas.b16`) on global and shared memory:
//! compare-and-swap loops that count on both halves of one 32-bit word, so a swap that touched
//! its neighbour loses counts; on the simulator, on a GPU (`--ignored`), and assembled by ptxas
//! for sm_80 and sm_90 in every scope and ordering.

use crate::intr_common;

use ferrocuda::prelude::*;
use intr_common::{assembles, gpu, sim};

/// Adds 1 to `*p` with a compare-and-swap loop, reading the start value atomically (a CAS that
/// only swaps 0 for 0).
#[device]
fn bump(p: &mut u16) {
    let mut old = atomic_cas(p, 0, 0);
    loop {
        let seen = atomic_cas(p, old, old.wrapping_add(1));
        if seen == old {
            break;
        }
        old = seen;
    }
}

#[kernel]
pub fn cas16_counts(counters: &mut [u16], out: &mut [u16]) {
    let s = shared_array::<[u16; 2]>();
    let t = thread_idx().x as usize;
    if t < 2 {
        s[t] = 0;
    }
    sync_threads();
    // Even threads count in one half of the word, odd ones in the other.
    bump(&mut counters[t % 2]);
    let k = t % 2;
    let mut old = atomic_cas_block(&mut s[k], 0, 0);
    loop {
        let seen = atomic_cas_block(&mut s[k], old, old.wrapping_add(1));
        if seen == old {
            break;
        }
        old = seen;
    }
    sync_threads();
    if t < 2 {
        out[block_idx().x as usize * 2 + t] = s[t];
    }
}

/// Every scope and ordering of the 16-bit swap, on both memories (for ptxas).
#[kernel]
pub fn cas16_variants(g: &mut [u16]) {
    let s = shared_array::<[u16; 2]>();
    let t = thread_idx().x as usize;
    if t < 2 {
        s[t] = g[t];
    }
    sync_threads();
    let mut v = atomic_cas(&mut g[0], 1, 2);
    v ^= atomic_cas_acquire(&mut g[0], v, 3);
    v ^= atomic_cas_release(&mut g[1], v, 4);
    v ^= atomic_cas_acq_rel(&mut g[1], v, 5);
    v ^= atomic_cas_block(&mut s[0], v, 6);
    v ^= atomic_cas_block_acquire(&mut s[0], v, 7);
    v ^= atomic_cas_block_release(&mut s[1], v, 8);
    v ^= atomic_cas_block_acq_rel(&mut g[0], v, 9);
    v ^= atomic_cas_system(&mut g[1], v, 10);
    v ^= atomic_cas_system_acquire(&mut s[1], v, 11);
    v ^= atomic_cas_system_release(&mut g[0], v, 12);
    v ^= atomic_cas_system_acq_rel(&mut s[0], v, 13);
    sync_threads();
    if t == 0 {
        g[2] = v ^ s[0] ^ s[1];
    }
}

fn counts_on(dev: &Device) {
    let (blocks, threads) = (3u32, 64u32);
    let s = dev.new_stream().unwrap();
    // The even counter starts near the top, so it wraps as `unsigned short` does.
    let mut counters = dev.upload(&[65_500u16, 7]).unwrap();
    let mut out = dev.upload(&vec![0u16; blocks as usize * 2]).unwrap();
    let cfg = LaunchConfig {
        grid: blocks.into(),
        block: threads.into(),
        shared_mem_bytes: 0,
        attrs: Default::default(),
    };
    cas16_counts::launch(&s, cfg, &mut counters, &mut out).unwrap();
    let per_word = (blocks * threads / 2) as u16;
    assert_eq!(
        counters.to_vec().unwrap(),
        [65_500u16.wrapping_add(per_word), 7 + per_word]
    );
    assert_eq!(
        out.to_vec().unwrap(),
        vec![threads as u16 / 2; blocks as usize * 2]
    );
}

#[test]
fn cas16_counts_on_both_halves_of_a_word_on_the_simulator() {
    counts_on(&sim());
}

#[test]
fn cas16_assembles_for_sm80_and_sm90() {
    assembles(cas16_counts::ast());
    assembles(cas16_variants::ast());
}

#[test]
#[ignore = "needs a GPU"]
fn cas16_counts_on_both_halves_of_a_word_on_the_gpu() {
    let Some(dev) = gpu() else { return };
    counts_on(&dev);
}
