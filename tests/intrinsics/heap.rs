//! The device heap (`device_malloc` / `device_free`, B.33): blocks per thread, exhaustion as an
//! empty slice, bounds checks on a failed block, and the simulator's double-free and
//! use-after-free reports. Same bodies on the simulator and a GPU (`--ignored`); PTX assembled by
//! ptxas for sm_80 and sm_90.

use crate::intr_common;

use ferrocuda::host_runtime::Error;
use ferrocuda::prelude::*;
use intr_common::{assembles, gpu, sim};

/// Every thread allocates `n` values, fills them, writes their sum and frees the block; a thread
/// whose allocation failed writes `u32::MAX`.
#[kernel]
pub fn heap_sums(out: &mut [u32], n: u32) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    if i < out.len() {
        let buf = device_malloc::<u32>(n as usize);
        if buf.is_empty() {
            out[i] = u32::MAX;
        } else {
            for k in 0..buf.len() {
                buf[k] = (i + k * 3) as u32;
            }
            let mut s = 0u32;
            for k in 0..buf.len() {
                s = s.wrapping_add(buf[k]);
            }
            out[i] = s;
            device_free(buf);
        }
    }
}

/// Every thread holds a block of `n` values across a barrier, so they are live together, and
/// writes 1 if it got one.
#[kernel]
pub fn heap_hold(out: &mut [u32], n: u32) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    let buf = device_malloc::<u32>(n as usize);
    sync_threads();
    out[i] = !buf.is_empty() as u32;
    device_free(buf);
}

/// Indexes a block without checking that the allocation succeeded.
#[kernel]
pub fn heap_unchecked(out: &mut [f64], n: u64) {
    let buf = device_malloc::<f64>(n as usize);
    buf[0] = 2.5;
    out[0] = buf[0];
    device_free(buf);
}

/// `mode` 1: frees the block twice; 2: reads it after freeing; 3: frees a parameter slice.
#[kernel]
pub fn heap_misuse(out: &mut [u32], mode: u32) {
    let buf = device_malloc::<u32>(4);
    buf[1] = 7;
    out[0] = buf[1];
    device_free(buf);
    if mode == 1 {
        device_free(buf);
    }
    if mode == 2 {
        out[1] = buf[1];
    }
    if mode == 3 {
        device_free(out);
    }
}

/// Asks for no elements, then frees the (empty) block twice.
#[kernel]
pub fn heap_zero(out: &mut [u32]) {
    let buf = device_malloc::<u32>(0);
    out[0] = buf.is_empty() as u32;
    device_free(buf);
    device_free(buf);
}

fn sums_on(dev: &Device, threads: usize, n: u32) {
    let s = dev.new_stream().unwrap();
    let mut out = dev.upload(&vec![0u32; threads]).unwrap();
    heap_sums::launch(&s, LaunchConfig::for_elements(threads, 64), &mut out, n).unwrap();
    // An empty request gives an empty block, which the kernel cannot tell from a failed one.
    let want: Vec<u32> = (0..threads)
        .map(|i| match n {
            0 => u32::MAX,
            _ => (0..n as usize).map(|k| (i + k * 3) as u32).sum(),
        })
        .collect();
    assert_eq!(out.to_vec().unwrap(), want);
}

/// A request larger than the default 8 MiB heap fails in every thread, and the failed blocks are
/// empty rather than null pointers.
fn exhaustion_on(dev: &Device) {
    let s = dev.new_stream().unwrap();
    let mut out = dev.upload(&[0u32; 8]).unwrap();
    let n = (16u32 << 20) / 4;
    heap_sums::launch(&s, LaunchConfig::for_elements(8, 8), &mut out, n).unwrap();
    assert_eq!(out.to_vec().unwrap(), vec![u32::MAX; 8]);
}

/// After `set_malloc_heap_size(4 MiB)` (before any heap kernel runs, as CUDA requires) a 6 MiB
/// block, which the default 8 MiB heap could hold, fails; small blocks still work.
fn heap_size_on(dev: &Device) {
    dev.set_malloc_heap_size(4 << 20).unwrap();
    let s = dev.new_stream().unwrap();
    let mut out = dev.upload(&[0u32; 1]).unwrap();
    heap_sums::launch(
        &s,
        LaunchConfig::for_elements(1, 1),
        &mut out,
        (6 << 20) / 4,
    )
    .unwrap();
    assert_eq!(out.to_vec().unwrap(), [u32::MAX]);
    sums_on(dev, 1024, 37);
}

fn unchecked_on(dev: &Device) {
    let s = dev.new_stream().unwrap();
    let mut out = dev.upload(&[0f64]).unwrap();
    heap_unchecked::launch(&s, LaunchConfig::for_elements(1, 1), &mut out, 3).unwrap();
    assert_eq!(out.to_vec().unwrap(), [2.5]);
    let r = heap_unchecked::launch(&s, LaunchConfig::for_elements(1, 1), &mut out, 1 << 40)
        .and_then(|_| s.synchronize());
    match r {
        Err(Error::KernelPanic(p)) => {
            assert!(p.message.contains("the len is 0"), "{}", p.message);
            assert!(p.file.ends_with("intrinsics/heap.rs"), "{}", p.file);
        }
        other => panic!("expected a bounds panic, got {other:?}"),
    }
}

#[test]
fn heap_blocks_per_thread_on_the_simulator() {
    sums_on(&sim(), 200, 37);
    sums_on(&sim(), 3, 0);
}

#[test]
fn heap_exhaustion_gives_empty_blocks_on_the_simulator() {
    exhaustion_on(&sim());
    // The limit is on the live total: 256 threads holding 64 KiB each at a barrier need 16 MiB,
    // so half of them get a block (the simulator's heap has no bookkeeping overhead).
    let dev = sim();
    let s = dev.new_stream().unwrap();
    let mut out = dev.upload(&vec![0u32; 256]).unwrap();
    heap_hold::launch(&s, LaunchConfig::for_elements(256, 256), &mut out, 16384).unwrap();
    let got = out.to_vec().unwrap();
    let ok = got.iter().filter(|&&v| v == 1).count();
    assert_eq!(ok, 128, "blocks of 64 KiB that fit in 8 MiB");
    assert!(got.iter().all(|&v| v <= 1), "{got:?}");
    // A smaller heap, set on the device, fails sooner.
    let dev = sim();
    dev.set_malloc_heap_size(1000).unwrap();
    let s = dev.new_stream().unwrap();
    let mut out = dev.upload(&[0u32; 4]).unwrap();
    heap_sums::launch(&s, LaunchConfig::for_elements(4, 4), &mut out, 300).unwrap();
    assert_eq!(out.to_vec().unwrap(), vec![u32::MAX; 4]);
    heap_size_on(&sim());
}

#[test]
fn a_failed_block_fails_its_bounds_check_on_the_simulator() {
    unchecked_on(&sim());
}

#[test]
fn heap_misuse_is_reported_by_the_simulator() {
    let dev = sim();
    let s = dev.new_stream().unwrap();
    let mut out = dev.upload(&[0u32; 2]).unwrap();
    heap_misuse::launch(&s, LaunchConfig::for_elements(1, 1), &mut out, 0).unwrap();
    assert_eq!(out.to_vec().unwrap(), [7, 0]);
    for (mode, want) in [
        (1u32, "double free"),
        (2, "outside every allocation"),
        (3, "not a live block of the device heap"),
    ] {
        let r = heap_misuse::launch(&s, LaunchConfig::for_elements(1, 1), &mut out, mode)
            .and_then(|_| s.synchronize());
        match r {
            Err(Error::Simulator(e)) => {
                assert!(e.message.contains(want), "mode {mode}: {}", e.message);
                assert!(e.file.ends_with("intrinsics/heap.rs"), "{}", e.file);
            }
            other => panic!("mode {mode}: expected a simulator error, got {other:?}"),
        }
    }
}

/// Before: `device_malloc(0)` called `malloc(0)`, which hands out a block on a GPU (reported by
/// compute-sanitizer's memcheck, which then aborts the kernel) and in the simulator, so freeing
/// the empty block twice was a double free. Now an empty request is the null block, as a failed
/// one, and `free` of it is a no-op: neither call reaches the heap.
#[test]
fn empty_requests_never_reach_the_heap() {
    let dev = sim();
    let s = dev.new_stream().unwrap();
    let mut out = dev.upload(&[0u32]).unwrap();
    heap_zero::launch(&s, LaunchConfig::for_elements(1, 1), &mut out).unwrap();
    s.synchronize().unwrap();
    assert_eq!(out.to_vec().unwrap(), [1]);
    let ptx = ferrocuda::kernel_compiler::compile(heap_zero::ast(), &[], &Default::default())
        .unwrap()
        .ptx;
    // `malloc` is branched around when the request is 0 bytes, `free` predicated on the block
    // being non-null.
    let lines: Vec<&str> = ptx.lines().map(str::trim).collect();
    let at = |s: &str| {
        lines
            .iter()
            .position(|l| l.contains(s))
            .unwrap_or_else(|| panic!("no `{s}`:\n{ptx}"))
    };
    let (skip, call, join) = (at("bra $Lfc_m"), at("call (fc_malloc_ret"), at("$Lfc_m"));
    assert!(
        lines[skip].starts_with("@%fcm"),
        "unguarded: {}",
        lines[skip]
    );
    assert!(skip < call, "{ptx}");
    let join = lines
        .iter()
        .rposition(|l| l.starts_with("$Lfc_m"))
        .unwrap_or(join);
    assert!(call < join, "{ptx}");
    assert!(lines[at("call free,")].starts_with("@%fcfp"), "{ptx}");
    assembles(heap_zero::ast());
}

#[test]
fn heap_calls_declare_malloc_and_free_and_assemble() {
    let ptx = ferrocuda::kernel_compiler::compile(heap_sums::ast(), &[], &Default::default())
        .unwrap()
        .ptx;
    for s in [
        ".extern .func (.param .b64 func_retval0) malloc",
        ".extern .func free",
        "call (fc_malloc_ret",
        "call free,",
    ] {
        assert!(ptx.contains(s), "{s} missing:\n{ptx}");
    }
    assembles(heap_sums::ast());
    assembles(heap_unchecked::ast());
    assembles(heap_misuse::ast());
}

#[test]
#[ignore = "needs a GPU"]
fn heap_on_the_gpu() {
    let Some(dev) = gpu() else { return };
    // First: the heap size can only change before a heap kernel has run in the context.
    heap_size_on(&dev);
    sums_on(&dev, 4096, 37);
    sums_on(&dev, 3, 0);
    exhaustion_on(&dev);
    unchecked_on(&dev);
}
