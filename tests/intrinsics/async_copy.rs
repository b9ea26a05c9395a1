//! `memcpy_async` (`cp.async`), commit groups, completion on a barrier, and the pipeline: the
//! same bodies on the simulator and a GPU (`--ignored`); PTX assembled for sm_80 and sm_90.

use crate::intr_common;

use ferrocuda::host_runtime::Error;
use ferrocuda::prelude::*;
use intr_common::{assembles, gpu, sim};

/// Each block stages `stages` batches of `block_dim` floats through a two-deep ring of shared
/// buffers with `cp.async` groups: batch `b + 1` is in flight while batch `b` is used.
#[kernel]
pub fn staged_scale(x: &[f32], out: &mut [f32], batches: u32) {
    let ring = shared_array::<[[f32; 128]; 2]>();
    let t = thread_idx().x as usize;
    let n = block_dim().x as usize;
    let base = block_idx().x as usize * n * batches as usize;
    memcpy_async(&mut ring[0][t], &x[base + t]);
    cp_async_commit_group();
    for b in 0..batches as usize {
        if b + 1 < batches as usize {
            memcpy_async(&mut ring[(b + 1) % 2][t], &x[base + (b + 1) * n + t]);
        }
        cp_async_commit_group();
        cp_async_wait_group(1);
        sync_threads();
        out[base + b * n + t] = ring[b % 2][n - 1 - t] * 2.0;
        sync_threads();
    }
}

fn staged_run(dev: &Device) -> Result<(), Error> {
    let (blocks, n, batches) = (3usize, 128usize, 5usize);
    let x: Vec<f32> = (0..blocks * n * batches).map(|i| i as f32 * 0.5).collect();
    let s = dev.new_stream()?;
    let dx = dev.upload(&x)?;
    let mut out = dev.alloc_zeroed::<f32>(x.len())?;
    let cfg = LaunchConfig::for_elements(blocks * n, n as u32);
    staged_scale::launch(&s, cfg, &dx, &mut out, batches as u32)?;
    s.synchronize()?;
    let want: Vec<f32> = (0..x.len())
        .map(|i| {
            let (row, t) = (i / n, i % n);
            x[row * n + n - 1 - t] * 2.0
        })
        .collect();
    assert_eq!(out.to_vec()?, want);
    Ok(())
}

#[test]
fn cp_async_groups_on_the_simulator() {
    staged_run(&sim()).unwrap();
}

/// `float4` copies (16 bytes, `.cg`) completing on a barrier, with a zero-filled tail.
#[kernel]
pub fn tail_copy(x: &[float4], out: &mut [float4]) {
    let bar = shared_array::<Barrier>();
    let tile = shared_array::<[float4; 64]>();
    let t = thread_idx().x as usize;
    if t == 0 {
        barrier_init(bar, block_dim().x);
    }
    sync_threads();
    memcpy_async_or_zero(&mut tile[t], x, block_idx().x as usize * 64 + t);
    cp_async_barrier_arrive(bar);
    barrier_arrive_and_wait(bar);
    let v = tile[63 - t];
    out[block_idx().x as usize * 64 + t] = make_float4(v.w, v.z, v.y, v.x);
}

fn tail_run(dev: &Device) {
    let n = 100usize; // the second block's last 28 elements are past the end
    let x: Vec<float4> = (0..n)
        .map(|i| float4::new(i as f32, 1.0, 2.0, 3.0 + i as f32))
        .collect();
    let s = dev.new_stream().unwrap();
    let dx = dev.upload(&x).unwrap();
    let mut out = dev.alloc_zeroed::<float4>(128).unwrap();
    tail_copy::launch(&s, LaunchConfig::for_elements(128, 64), &dx, &mut out).unwrap();
    s.synchronize().unwrap();
    let want: Vec<float4> = (0..128)
        .map(|i| {
            let src = i / 64 * 64 + 63 - i % 64;
            let v = x.get(src).copied().unwrap_or_default();
            float4::new(v.w, v.z, v.y, v.x)
        })
        .collect();
    assert_eq!(out.to_vec().unwrap(), want);
}

#[test]
fn zero_filled_tail_completes_on_a_barrier() {
    tail_run(&sim());
}

/// The guide's pipelined batches (`cuda::pipeline`, block scope), `stages` deep.
#[kernel]
pub fn pipelined<const STAGES: usize>(x: &[f32], out: &mut [f32], batches: u32) {
    let ring = shared_array::<[[f32; 64]; STAGES]>();
    let t = thread_idx().x as usize;
    let n = block_dim().x as usize;
    let base = block_idx().x as usize * n * batches as usize;
    let mut pipe = make_block_pipeline();
    let mut fetch = 0usize;
    for b in 0..batches as usize {
        while fetch < batches as usize && fetch < b + STAGES {
            producer_acquire(&mut pipe);
            memcpy_async(&mut ring[fetch % STAGES][t], &x[base + fetch * n + t]);
            producer_commit(&mut pipe);
            fetch += 1;
        }
        consumer_wait(&mut pipe);
        out[base + b * n + t] = ring[b % STAGES][(t + 1) % n] + 1.0;
        consumer_release(&mut pipe);
    }
}

fn pipelined_run(dev: &Device, stages: usize) {
    let (blocks, n, batches) = (2usize, 64usize, 6usize);
    let x: Vec<f32> = (0..blocks * n * batches).map(|i| (i % 97) as f32).collect();
    let s = dev.new_stream().unwrap();
    let dx = dev.upload(&x).unwrap();
    let mut out = dev.alloc_zeroed::<f32>(x.len()).unwrap();
    let cfg = LaunchConfig::for_elements(blocks * n, n as u32);
    match stages {
        1 => pipelined::launch::<1>(&s, cfg, &dx, &mut out, batches as u32),
        2 => pipelined::launch::<2>(&s, cfg, &dx, &mut out, batches as u32),
        _ => pipelined::launch::<3>(&s, cfg, &dx, &mut out, batches as u32),
    }
    .unwrap();
    s.synchronize().unwrap();
    let want: Vec<f32> = (0..x.len())
        .map(|i| x[i / n * n + (i % n + 1) % n] + 1.0)
        .collect();
    assert_eq!(out.to_vec().unwrap(), want, "{stages} stages");
}

#[test]
fn pipelines_of_one_two_and_three_stages() {
    for stages in 1..=3 {
        pipelined_run(&sim(), stages);
    }
}

/// Misuse: the destination is read before the wait that lands the copy.
#[kernel]
pub fn read_before_wait(x: &[f32], out: &mut [f32]) {
    let tile = shared_array::<[f32; 64]>();
    let t = thread_idx().x as usize;
    tile[t] = 0.0;
    sync_threads();
    memcpy_async(&mut tile[t], &x[t]);
    cp_async_commit_group();
    out[t] = tile[t];
    cp_async_wait_all();
}

/// A 16-byte element of 4-byte alignment (`[f32; 4]`): `cp.async` of 16 bytes needs 16-byte
/// addresses, which its type does not promise, so the call checks them. With `pad`, the tile
/// sits 4 bytes past a 16-byte boundary (allocations are placed in order at their alignment).
#[kernel]
pub fn unaligned_copy(x: &[[f32; 4]], out: &mut [f32], skew: usize, pad: bool) {
    let t = thread_idx().x as usize;
    if !pad {
        let tile = shared_array::<[[f32; 4]; 8]>();
        memcpy_async(&mut tile[t], &x[t + skew]);
        cp_async_wait_all();
        out[t] = tile[t][0];
    } else {
        let p = shared_array::<[f32; 1]>();
        p[0] = 0.0;
        let tile = shared_array::<[[f32; 4]; 8]>();
        memcpy_async(&mut tile[t], &x[t + skew]);
        cp_async_wait_all();
        out[t] = tile[t][0];
    }
}

#[test]
fn copy_misuse_is_reported() {
    let dev = sim();
    let s = dev.new_stream().unwrap();
    let x = dev.upload(&vec![1.0f32; 64]).unwrap();
    let mut out = dev.alloc_zeroed::<f32>(64).unwrap();
    let r = read_before_wait::launch(&s, LaunchConfig::for_elements(64, 64), &x, &mut out)
        .and_then(|_| s.synchronize());
    match r {
        Err(Error::Simulator(e)) => {
            assert!(e.message.contains("races with an asynchronous copy"), "{e}");
            assert!(e.file.ends_with("async_copy.rs"), "{e}");
        }
        other => panic!("expected a race report, got {other:?}"),
    }
    // `[f32; 4]` is 16 bytes but 4-byte aligned: the alignment is checked at run time.
    let xs = dev.upload(&vec![[1.0f32; 4]; 16]).unwrap();
    unaligned_copy::launch(
        &s,
        LaunchConfig::for_elements(8, 8),
        &xs,
        &mut out,
        1,
        false,
    )
    .unwrap();
    s.synchronize().unwrap();
    let r = unaligned_copy::launch(&s, LaunchConfig::for_elements(8, 8), &xs, &mut out, 1, true)
        .and_then(|_| s.synchronize());
    match r {
        Err(Error::KernelPanic(p)) => {
            assert!(p.message.contains("16-byte aligned"), "{}", p.message);
            assert!(p.file.ends_with("async_copy.rs"), "{}", p.file);
        }
        other => panic!("expected a kernel panic, got {other:?}"),
    }
    // Out-of-bounds source: the index's own bounds check.
    let r = unaligned_copy::launch(
        &s,
        LaunchConfig::for_elements(8, 8),
        &xs,
        &mut out,
        12,
        false,
    )
    .and_then(|_| s.synchronize());
    assert!(
        matches!(r, Err(Error::KernelPanic(ref p)) if p.message.starts_with("index out of bounds")),
        "{r:?}"
    );
}

/// A 12-byte element cannot be one `cp.async`.
#[kernel]
pub fn twelve_bytes(x: &[float3]) {
    let tile = shared_array::<[float3; 8]>();
    memcpy_async(&mut tile[0], &x[0]);
}

/// The destination must be shared memory.
#[kernel]
pub fn copy_to_global(x: &[f32], out: &mut [f32]) {
    memcpy_async(&mut out[0], &x[0]);
}

/// `cp_async_wait_group` takes an immediate.
#[kernel]
pub fn wait_group_not_constant(n: u32) {
    cp_async_wait_group(n);
}

#[test]
fn copy_rules_the_compiler_sees_are_compile_errors() {
    let opts = ferrocuda::kernel_compiler::CompileOptions::default();
    let e = ferrocuda::kernel_compiler::compile(twelve_bytes::ast(), &[], &opts).unwrap_err();
    assert!(e.to_string().contains("4, 8 or 16 bytes"), "{e}");
    assert!(e.to_string().contains("async_copy.rs"), "{e}");
    let e = ferrocuda::kernel_compiler::compile(wait_group_not_constant::ast(), &[], &opts)
        .unwrap_err();
    assert!(e.to_string().contains("takes a constant 0..=7"), "{e}");
    let e = ferrocuda::kernel_compiler::compile(copy_to_global::ast(), &[], &opts).unwrap_err();
    assert!(e.to_string().contains("copies into shared memory"), "{e}");
}

#[test]
fn copy_kernels_assemble() {
    assembles(staged_scale::ast());
    assembles(tail_copy::ast());
    assembles(unaligned_copy::ast());
    let c =
        ferrocuda::kernel_compiler::compile(tail_copy::ast(), &[], &Default::default()).unwrap();
    for s in [
        "cp.async.cg.shared.global",
        "cp.async.mbarrier.arrive.shared::cta.b64",
    ] {
        assert!(c.ptx.contains(s), "{s} missing:\n{}", c.ptx);
    }
}

#[test]
#[ignore = "needs a GPU"]
fn async_copies_on_the_gpu() {
    let Some(dev) = gpu() else { return };
    staged_run(&dev).unwrap();
    tail_run(&dev);
    for stages in 1..=3 {
        pipelined_run(&dev, stages);
    }
    let s = dev.new_stream().unwrap();
    let xs = dev.upload(&vec![[1.0f32; 4]; 16]).unwrap();
    let mut out = dev.alloc_zeroed::<f32>(64).unwrap();
    let r = unaligned_copy::launch(&s, LaunchConfig::for_elements(8, 8), &xs, &mut out, 1, true)
        .and_then(|_| s.synchronize());
    assert!(matches!(r, Err(Error::KernelPanic(_))), "{r:?}");
}
