//! histogram256: counts of every byte value of the input (four bytes per u32 word). Each block
//! builds a sub-histogram in shared memory with shared-memory atomics, then adds it to the global
//! histogram with global atomics.

use ferrocuda::prelude::*;

use crate::util::{check_equal, Rng};

pub const BLOCK: u32 = 256;
pub const BINS: usize = 256;

#[kernel(launch_bounds(max_threads = 256))]
pub fn histogram256(words: &[u32], hist: &mut [u32]) {
    let sub = shared_array::<[u32; BINS]>();
    let t = thread_idx().x as usize;
    sub[t] = 0;
    sync_threads();
    let stride = grid_dim().x as usize * block_dim().x as usize;
    let mut i = block_idx().x as usize * BLOCK as usize + t;
    while i < words.len() {
        let w = words[i];
        atomic_add_block(&mut sub[(w & 0xff) as usize], 1);
        atomic_add_block(&mut sub[((w >> 8) & 0xff) as usize], 1);
        atomic_add_block(&mut sub[((w >> 16) & 0xff) as usize], 1);
        atomic_add_block(&mut sub[(w >> 24) as usize], 1);
        i += stride;
    }
    sync_threads();
    let c = sub[t];
    if c != 0 {
        atomic_add(&mut hist[t], c);
    }
}

pub fn reference(words: &[u32]) -> Vec<u32> {
    let mut h = vec![0u32; BINS];
    for w in words {
        for b in w.to_le_bytes() {
            h[b as usize] += 1;
        }
    }
    h
}

/// Histograms `words` into `hist` (zeroed by the caller) with `blocks` blocks.
pub fn launch(
    stream: &Stream,
    blocks: u32,
    words: &DeviceBuffer<u32>,
    hist: &mut DeviceBuffer<u32>,
) -> ferrocuda::host_runtime::Result<()> {
    let cfg = LaunchConfig::for_elements(blocks as usize * BLOCK as usize, BLOCK);
    histogram256::launch(stream, cfg, words, hist)
}

/// `n` random words (a quarter of them a skewed byte, so bins collide often).
pub fn check(dev: &Device, n: usize, blocks: u32) -> Result<(), String> {
    let mut rng = Rng::new(23);
    let words: Vec<u32> = (0..n)
        .map(|i| {
            let r = rng.next_u32();
            if i % 4 == 0 {
                r & 0x0707_0707
            } else {
                r
            }
        })
        .collect();
    let run = || -> ferrocuda::host_runtime::Result<Vec<u32>> {
        let stream = dev.new_stream()?;
        let dw = dev.upload(&words)?;
        let mut dh = dev.upload(&vec![0u32; BINS])?;
        launch(&stream, blocks, &dw, &mut dh)?;
        dh.to_vec()
    };
    let got = run().map_err(|e| e.to_string())?;
    check_equal("histogram256", &got, &reference(&words))
}
