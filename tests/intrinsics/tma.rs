//! The tensor memory accelerator and bulk copies (sm_90): box layouts with each swizzle, 3-D
//! boxes, out-of-bounds fill, tensor reductions (every operation), non-tensor bulk copies and
//! reductions with their size and alignment rules, the races the simulator reports, and every tensor map validation error. The
//! same bodies on the simulator (as sm_90) and, `--ignored`, on an sm_90 GPU; PTX assembled for
//! sm_90.

use crate::intr_common;

use ferrocuda::host_runtime::{Error, TensorMapError};
use ferrocuda::kernel_compiler::{compile, CompileOptions};
use ferrocuda::kernel_ir::ast::FnDef;
use ferrocuda::prelude::*;

fn sim90() -> Device {
    Device::simulator_with_arch(90).unwrap()
}

fn gpu90() -> Option<Device> {
    let d = intr_common::gpu()?;
    if d.properties().sm() < 90 {
        eprintln!(
            "skipping: sm_{} has no tensor memory accelerator",
            d.properties().sm()
        );
        return None;
    }
    Some(d)
}

/// Compiles for sm_90 and assembles with ptxas (skipped, with a note, without ptxas).
fn assembles90(def: &'static FnDef) -> String {
    let opts = CompileOptions {
        sm: 90,
        ..CompileOptions::default()
    };
    let c = compile(def, &[], &opts).unwrap_or_else(|e| panic!("{}: {e}", def.name));
    if std::env::var_os("TMA_DUMP").is_some() {
        println!("{}", c.ptx);
    }
    if kernel_testkit::ptxas::require_ptxas().is_some() {
        kernel_testkit::ptxas::assemble(&c.ptx, 90)
            .unwrap_or_else(|e| panic!("ptxas {}: {e}\n{}", def.name, c.ptx));
    }
    c.ptx
}

/// 1 KiB of shared memory, as the copy engine needs it aligned.
#[repr(C, align(128))]
#[derive(Clone, Copy, DeviceCopy)]
pub struct Words {
    pub w: [f32; 256],
}

/// Loads the 1 KiB box at (x, y) of a 2-D map and writes the tile's words as they lie in shared
/// memory, then the tile's shared address (as f32 bits) at `out[256]`.
#[kernel]
pub fn raw_box_2d(src: &TensorMap, out: &mut [f32], x: i32, y: i32) {
    let bar = shared_array::<Barrier>();
    let tile = shared_array::<Words>();
    let t = thread_idx().x as usize;
    barrier_init_block(bar, 1);
    if t == 0 {
        // The barrier's init becomes visible to the copy engine (the async proxy).
        fence_proxy_async_shared_cta();
        let _ = barrier_arrive_expect_tx(bar, 1024);
        cp_async_bulk_tensor_2d_global_to_shared(tile, src, x, y, bar);
    }
    barrier_wait_parity(bar, 0);
    out[t] = tile.w[t];
    if t == 0 {
        out[256] = f32::from_bits(cvta_to_shared(tile));
    }
}

/// The same for a 3-D box at (x, y, z).
#[kernel]
pub fn raw_box_3d(src: &TensorMap, out: &mut [f32], x: i32, y: i32, z: i32) {
    let bar = shared_array::<Barrier>();
    let tile = shared_array::<Words>();
    let t = thread_idx().x as usize;
    barrier_init_block(bar, 1);
    if t == 0 {
        // The barrier's init becomes visible to the copy engine (the async proxy).
        fence_proxy_async_shared_cta();
        let _ = barrier_arrive_expect_tx(bar, 1024);
        cp_async_bulk_tensor_3d_global_to_shared(tile, src, x, y, z, bar);
    }
    barrier_wait_parity(bar, 0);
    out[t] = tile.w[t];
}

/// The swizzle of shared address `a` (PTX ISA: 16-byte chunk bits 4.. XOR address bits 7..).
fn swizzle(a: u32, span: u32) -> u32 {
    let mask = match span {
        32 => 1,
        64 => 3,
        128 => 7,
        _ => 0,
    };
    a ^ (((a >> 7) & mask) << 4)
}

/// Runs `raw_box_2d` on a `w` x `h` tensor of distinct values with box `bx` x `by`
/// (bx * by = 256) and checks each element's shared position.
fn box_layout_run(dev: &Device, sw: TensorMapSwizzle, bx: u32, by: u32, x: i32, y: i32) {
    let (w, h) = (64u32, 48u32);
    let inp: Vec<f32> = (0..w * h).map(|i| i as f32).collect();
    let s = dev.new_stream().unwrap();
    let src = dev.upload(&inp).unwrap();
    let mut out = dev.alloc_zeroed::<f32>(257).unwrap();
    let map = TensorMapDesc::tiled(&[w as u64, h as u64], &[bx, by])
        .swizzle(sw)
        .encode(&src)
        .unwrap();
    raw_box_2d::launch(
        &s,
        LaunchConfig::for_elements(256, 256),
        &map,
        &mut out,
        x,
        y,
    )
    .unwrap();
    s.synchronize().unwrap();
    let got = out.to_vec().unwrap();
    let base = got[256].to_bits();
    assert_eq!(base % 128, 0);
    for r in 0..by {
        for c in 0..bx {
            let logical = base + (r * bx + c) * 4;
            let at = (swizzle(logical, sw.bytes()) - base) / 4;
            let (gx, gy) = (x + c as i32, y + r as i32);
            let want = if gx < w as i32 && gy < h as i32 && gx >= 0 && gy >= 0 {
                inp[(gy as u32 * w + gx as u32) as usize]
            } else {
                0.0
            };
            assert_eq!(got[at as usize], want, "{sw:?} box element ({c}, {r})");
        }
    }
}

fn box_layouts(dev: &Device) {
    box_layout_run(dev, TensorMapSwizzle::None, 32, 8, 0, 0);
    box_layout_run(dev, TensorMapSwizzle::B128, 32, 8, 32, 8);
    box_layout_run(dev, TensorMapSwizzle::B64, 16, 16, 16, 32);
    box_layout_run(dev, TensorMapSwizzle::B32, 8, 32, 8, 0);
    // Partly outside the tensor: zeros there.
    box_layout_run(dev, TensorMapSwizzle::B128, 32, 8, 48, 44);
    box_layout_run(dev, TensorMapSwizzle::None, 32, 8, -8, -3);
}

#[test]
fn box_layouts_and_swizzles_on_the_simulator() {
    box_layouts(&sim90());
}

fn box_3d_run(dev: &Device) {
    let (d0, d1, d2) = (32u32, 8u32, 6u32);
    let inp: Vec<f32> = (0..d0 * d1 * d2).map(|i| i as f32).collect();
    let s = dev.new_stream().unwrap();
    let src = dev.upload(&inp).unwrap();
    let mut out = dev.alloc_zeroed::<f32>(257).unwrap();
    // Boxes of 16 x 4 x 4, the last z layer outside the tensor.
    let map = TensorMapDesc::tiled(&[d0 as u64, d1 as u64, d2 as u64], &[16, 4, 4])
        .encode(&src)
        .unwrap();
    raw_box_3d::launch(
        &s,
        LaunchConfig::for_elements(256, 256),
        &map,
        &mut out,
        8,
        2,
        3,
    )
    .unwrap();
    s.synchronize().unwrap();
    let got = out.to_vec().unwrap();
    for z in 0..4u32 {
        for y in 0..4u32 {
            for x in 0..16u32 {
                let (gx, gy, gz) = (8 + x, 2 + y, 3 + z);
                let want = if gz < d2 {
                    inp[(gx + d0 * (gy + d1 * gz)) as usize]
                } else {
                    0.0
                };
                assert_eq!(
                    got[(x + 16 * (y + 4 * z)) as usize],
                    want,
                    "({x}, {y}, {z})"
                );
            }
        }
    }
}

#[test]
fn three_d_boxes_on_the_simulator() {
    box_3d_run(&sim90());
}

/// A NaN-filled map reads NaN outside the tensor.
fn nan_fill_run(dev: &Device) {
    let inp = vec![1.0f32; 64 * 8];
    let s = dev.new_stream().unwrap();
    let src = dev.upload(&inp).unwrap();
    let mut out = dev.alloc_zeroed::<f32>(257).unwrap();
    let map = TensorMapDesc::tiled(&[64, 8], &[32, 8])
        .oob_fill(TensorMapOobFill::Nan)
        .encode(&src)
        .unwrap();
    raw_box_2d::launch(
        &s,
        LaunchConfig::for_elements(256, 256),
        &map,
        &mut out,
        48,
        0,
    )
    .unwrap();
    s.synchronize().unwrap();
    let got = out.to_vec().unwrap();
    for r in 0..8 {
        for c in 0..32 {
            let v = got[r * 32 + c];
            assert_eq!(v.is_nan(), c >= 16, "({c}, {r}): {v}");
        }
    }
}

#[test]
fn nan_fill_on_the_simulator() {
    nan_fill_run(&sim90());
}

/// `dst[box at (x, y)] += 1..` through `cp.reduce.async.bulk.tensor.add`, and `max` with 0.
#[kernel]
pub fn reduce_box(dst: &mut TensorMap, x: i32, y: i32) {
    let tile = shared_array::<Words>();
    let t = thread_idx().x as usize;
    tile.w[t] = (t + 1) as f32;
    fence_proxy_async_shared_cta();
    sync_threads();
    if t == 0 {
        cp_reduce_async_bulk_tensor_2d_add(dst, x, y, tile);
        cp_async_bulk_commit_group();
        cp_async_bulk_wait_group(0);
        cp_reduce_async_bulk_tensor_2d_max(dst, x, y, tile);
        cp_async_bulk_commit_group();
        cp_async_bulk_wait_group_read(0);
    }
}

fn reduce_run(dev: &Device) {
    let (w, h) = (40u32, 16u32);
    let init: Vec<f32> = (0..w * h).map(|i| (i % 7) as f32 * 100.0 - 300.0).collect();
    let s = dev.new_stream().unwrap();
    let mut buf = dev.upload(&init).unwrap();
    {
        let mut map = TensorMapDesc::tiled(&[w as u64, h as u64], &[32, 8])
            .encode_mut(&mut buf)
            .unwrap();
        reduce_box::launch(&s, LaunchConfig::for_elements(256, 256), &mut map, 16, 4).unwrap();
    }
    s.synchronize().unwrap();
    let got = buf.to_vec().unwrap();
    for y in 0..h {
        for x in 0..w {
            let i = (y * w + x) as usize;
            let (bx, by) = (x as i32 - 16, y as i32 - 4);
            let want = if (0..32).contains(&bx) && (0..8).contains(&by) {
                let v = (by * 32 + bx + 1) as f32;
                (init[i] + v).max(v)
            } else {
                init[i]
            };
            assert_eq!(got[i], want, "({x}, {y})");
        }
    }
}

#[test]
fn tensor_reductions_on_the_simulator() {
    reduce_run(&sim90());
}

/// `out[base..base + n] = 2 * x[base..base + n]` through shared memory with the non-tensor bulk
/// copies; `n` f32 must be a multiple of 4 (16 bytes).
#[kernel]
pub fn bulk_round_trip(x: &[f32], out: &mut [f32], n: u32) {
    let bar = shared_array::<Barrier>();
    let tile = shared_array::<Words>();
    let t = thread_idx().x as usize;
    let n = n as usize;
    barrier_init_block(bar, 1);
    if t == 0 {
        // The barrier's init becomes visible to the copy engine (the async proxy).
        fence_proxy_async_shared_cta();
        let _ = barrier_arrive_expect_tx(bar, (n * 4) as u32);
        cp_async_bulk_global_to_shared(&mut tile.w[..n], &x[..n], bar);
    }
    barrier_wait_parity(bar, 0);
    if t < n {
        tile.w[t] *= 2.0;
    }
    fence_proxy_async_shared_cta();
    sync_threads();
    if t == 0 {
        cp_async_bulk_shared_to_global(&mut out[..n], &tile.w[..n]);
        cp_async_bulk_commit_group();
        cp_async_bulk_wait_group_read(0);
    }
}

fn bulk_run(dev: &Device) {
    let x: Vec<f32> = (0..256).map(|i| i as f32 + 0.5).collect();
    let s = dev.new_stream().unwrap();
    let dx = dev.upload(&x).unwrap();
    let mut out = dev.alloc_zeroed::<f32>(256).unwrap();
    bulk_round_trip::launch(&s, LaunchConfig::for_elements(256, 256), &dx, &mut out, 200).unwrap();
    s.synchronize().unwrap();
    let got = out.to_vec().unwrap();
    for i in 0..256 {
        assert_eq!(got[i], if i < 200 { x[i] * 2.0 } else { 0.0 }, "{i}");
    }
    // 10 f32 = 40 bytes: not whole 16-byte units, a panic at the call.
    let r = bulk_round_trip::launch(&s, LaunchConfig::for_elements(256, 256), &dx, &mut out, 10)
        .and_then(|_| s.synchronize());
    match r {
        Err(Error::KernelPanic(p)) => {
            assert!(p.message.contains("multiple of 16 bytes"), "{}", p.message);
            assert!(p.file.ends_with("tma.rs"), "{}", p.file);
        }
        other => panic!("expected a kernel panic, got {other:?}"),
    }
}

#[test]
fn bulk_copies_on_the_simulator() {
    bulk_run(&sim90());
}

/// A copy of 10 f32 (40 bytes) the compiler can see.
#[kernel]
pub fn bulk_forty_bytes(x: &[f32]) {
    let bar = shared_array::<Barrier>();
    let tile = shared_array::<[f32; 10]>();
    barrier_init_block(bar, 1);
    cp_async_bulk_global_to_shared(tile, &x[..10], bar);
}

/// Bulk copies start at 16-byte aligned addresses: `x[1..5]` does not.
#[kernel]
pub fn bulk_misaligned(x: &[f32], out: &mut [f32], start: u32) {
    let bar = shared_array::<Barrier>();
    let tile = shared_array::<Words>();
    let s = start as usize;
    barrier_init_block(bar, 1);
    if thread_idx().x == 0 {
        // The barrier's init becomes visible to the copy engine (the async proxy).
        fence_proxy_async_shared_cta();
        let _ = barrier_arrive_expect_tx(bar, 16);
        cp_async_bulk_global_to_shared(&mut tile.w[..4], &x[s..s + 4], bar);
    }
    barrier_wait_parity(bar, 0);
    out[0] = tile.w[0];
}

/// A tensor map's bytes cannot be read (they stay in parameter space).
#[kernel]
pub fn copies_the_map(src: &TensorMap, out: &mut [f32]) {
    let m = *src;
    prefetch_tensormap(&m);
    out[0] = 1.0;
}

#[test]
fn bulk_rules_the_compiler_sees_are_compile_errors() {
    let opts = CompileOptions {
        sm: 90,
        ..CompileOptions::default()
    };
    let e = compile(bulk_forty_bytes::ast(), &[], &opts)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("multiple of 16 bytes") && e.contains("40 bytes"),
        "{e}"
    );
    assert!(e.contains("tma.rs"), "{e}");
    let e = compile(raw_box_2d::ast(), &[], &CompileOptions::default())
        .unwrap_err()
        .to_string();
    assert!(e.contains("sm_90"), "{e}");
}

fn misaligned_run(dev: &Device) {
    let s = dev.new_stream().unwrap();
    let dx = dev.upload(&vec![1.0f32; 64]).unwrap();
    let mut out = dev.alloc_zeroed::<f32>(4).unwrap();
    bulk_misaligned::launch(&s, LaunchConfig::for_elements(32, 32), &dx, &mut out, 4).unwrap();
    s.synchronize().unwrap();
    let r = bulk_misaligned::launch(&s, LaunchConfig::for_elements(32, 32), &dx, &mut out, 1)
        .and_then(|_| s.synchronize());
    match r {
        Err(Error::KernelPanic(p)) => {
            assert!(p.message.contains("16-byte aligned"), "{}", p.message)
        }
        other => panic!("expected a kernel panic, got {other:?}"),
    }
}

#[test]
fn bulk_alignment_is_checked_at_run_time() {
    misaligned_run(&sim90());
}

/// Reads the tile without waiting for the barrier: a race with the copy.
#[kernel]
pub fn read_too_early(src: &TensorMap, out: &mut [f32]) {
    let bar = shared_array::<Barrier>();
    let tile = shared_array::<Words>();
    let t = thread_idx().x as usize;
    barrier_init_block(bar, 2);
    if t == 0 {
        // The barrier's init becomes visible to the copy engine (the async proxy).
        fence_proxy_async_shared_cta();
        let _ = barrier_arrive_expect_tx(bar, 1024);
        cp_async_bulk_tensor_2d_global_to_shared(tile, src, 0, 0, bar);
        out[0] = tile.w[5];
    }
}

/// Writes a store's source before `cp_async_bulk_wait_group_read`: a race with the engine.
#[kernel]
pub fn overwrite_too_early(dst: &mut TensorMap) {
    let tile = shared_array::<Words>();
    let t = thread_idx().x as usize;
    tile.w[t] = 1.0;
    fence_proxy_async_shared_cta();
    sync_threads();
    if t == 0 {
        cp_async_bulk_tensor_2d_shared_to_global(dst, 0, 0, tile);
        cp_async_bulk_commit_group();
        tile.w[0] = 2.0;
    }
}

#[test]
fn early_accesses_are_races_on_the_simulator() {
    let dev = sim90();
    let s = dev.new_stream().unwrap();
    let mut buf = dev.alloc_zeroed::<f32>(32 * 8).unwrap();
    let mut out = dev.alloc_zeroed::<f32>(1).unwrap();
    {
        let map = TensorMapDesc::tiled(&[32, 8], &[32, 8])
            .encode(&buf)
            .unwrap();
        let r = read_too_early::launch(&s, LaunchConfig::for_elements(32, 32), &map, &mut out)
            .and_then(|_| s.synchronize());
        let e = r.unwrap_err().to_string();
        assert!(e.contains("races with an asynchronous copy"), "{e}");
    }
    let mut map = TensorMapDesc::tiled(&[32, 8], &[32, 8])
        .encode_mut(&mut buf)
        .unwrap();
    let r = overwrite_too_early::launch(&s, LaunchConfig::for_elements(256, 256), &mut map)
        .and_then(|_| s.synchronize());
    let e = r.unwrap_err().to_string();
    assert!(e.contains("bulk store"), "{e}");
}

/// The im2col and multicast loads: PTX only (the simulator refuses them at the call).
#[kernel]
pub fn im2col_and_multicast(a: &TensorMap, b: &TensorMap, out: &mut [f32]) {
    let bar = shared_array::<Barrier>();
    let tile = shared_array::<Words>();
    barrier_init_block(bar, 1);
    if thread_idx().x == 0 {
        // The barrier's init becomes visible to the copy engine (the async proxy).
        fence_proxy_async_shared_cta();
        let _ = barrier_arrive_expect_tx(bar, 2048);
        cp_async_bulk_tensor_4d_global_to_shared_im2col(tile, a, 0, 1, 1, 0, 1, 1, bar);
        cp_async_bulk_tensor_2d_global_to_shared_multicast(tile, b, 0, 0, bar, 1);
    }
    barrier_wait_parity(bar, 0);
    out[0] = tile.w[0];
}

#[test]
fn tma_kernels_assemble_for_sm90() {
    for def in [
        raw_box_2d::ast(),
        raw_box_3d::ast(),
        reduce_box::ast(),
        bulk_round_trip::ast(),
        bulk_misaligned::ast(),
        im2col_and_multicast::ast(),
    ] {
        assembles90(def);
    }
    let ptx = assembles90(im2col_and_multicast::ast());
    assert!(
        ptx.contains(".im2col.mbarrier::complete_tx::bytes"),
        "{ptx}"
    );
    assert!(ptx.contains(".multicast::cluster"), "{ptx}");
    let ptx = assembles90(reduce_box::ast());
    assert!(
        ptx.contains("cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile"),
        "{ptx}"
    );
}

#[test]
fn unmodelled_loads_are_clear_simulator_errors() {
    let dev = sim90();
    let s = dev.new_stream().unwrap();
    let buf = dev.alloc_zeroed::<f32>(4 * 8 * 8 * 2).unwrap();
    let a = TensorMapDesc::im2col(&[4, 8, 8, 2], &[-1, -1], &[1, 1], 4, 16)
        .encode(&buf)
        .unwrap();
    let b = TensorMapDesc::tiled(&[32, 8], &[32, 8])
        .encode(&buf)
        .unwrap();
    let mut out = dev.alloc_zeroed::<f32>(1).unwrap();
    let e = im2col_and_multicast::launch(&s, LaunchConfig::for_elements(32, 32), &a, &b, &mut out)
        .and_then(|_| s.synchronize())
        .unwrap_err()
        .to_string();
    assert!(e.contains("does not model im2col"), "{e}");
}

/// Every rule of the encoders, each its own error, before the driver is asked.
#[test]
fn tensor_map_misuse_is_a_specific_error() {
    use TensorMapError as E;
    let dev = sim90();
    let f = dev.alloc_zeroed::<f32>(64 * 64).unwrap();
    let err = |r: Result<HostTensorMap<'_, f32>, Error>| match r {
        Err(Error::TensorMap(e)) => e,
        Err(e) => panic!("not a tensor map error: {e}"),
        Ok(_) => panic!("accepted"),
    };
    let tiled = |dims: &[u64], boxes: &[u32]| TensorMapDesc::tiled(dims, boxes);
    assert!(matches!(
        err(tiled(&[], &[]).encode(&f)),
        E::Rank { rank: 0, .. }
    ));
    assert!(matches!(
        err(tiled(&[2; 6], &[1; 6]).encode(&f)),
        E::Rank { rank: 6, .. }
    ));
    assert!(matches!(
        err(tiled(&[64, 64], &[32]).encode(&f)),
        E::Arity {
            what: "box_dim",
            ..
        }
    ));
    assert!(matches!(
        err(tiled(&[0, 64], &[4, 4]).encode(&f)),
        E::Extent { dim: 0, .. }
    ));
    // Box larger than 256, or empty.
    assert!(matches!(
        err(tiled(&[64, 64], &[4, 300]).encode(&f)),
        E::BoxDim { dim: 1, size: 300 }
    ));
    assert!(matches!(
        err(tiled(&[64, 64], &[0, 4]).encode(&f)),
        E::BoxDim { dim: 0, size: 0 }
    ));
    // A buffer too small for the shape (and strides).
    let e = err(tiled(&[64, 65], &[32, 8]).encode(&f));
    assert!(
        matches!(
            e,
            E::BufferTooSmall {
                needed: 16640,
                available: 16384,
                ..
            }
        ),
        "{e}"
    );
    let e = err(tiled(&[64, 32], &[32, 8]).strides(&[1024]).encode(&f));
    assert!(matches!(e, E::BufferTooSmall { .. }), "{e}");
    // Strides: multiples of 16 bytes, not overlapping.
    let e = err(tiled(&[3, 64], &[4, 8]).encode(&f));
    assert!(
        matches!(
            e,
            E::StrideAlignment {
                dim: 1,
                stride: 12,
                multiple: 16
            }
        ),
        "{e}"
    );
    let e = err(tiled(&[64, 8], &[32, 8]).strides(&[128]).encode(&f));
    assert!(
        matches!(
            e,
            E::StrideOverlap {
                dim: 1,
                stride: 128,
                below: 256
            }
        ),
        "{e}"
    );
    assert!(matches!(
        err(tiled(&[64, 8], &[32, 8]).strides(&[256, 1]).encode(&f)),
        E::Arity { .. }
    ));
    // Global address alignment: 16 bytes (a view starting 4 bytes in).
    let view = f.view(1..).unwrap();
    let e = match tiled(&[32, 8], &[32, 8]).encode(&view) {
        Err(Error::TensorMap(e)) => e,
        other => panic!("{:?}", other.err()),
    };
    assert!(matches!(e, E::AddressAlignment { align: 16, .. }), "{e}");
    // 32 bytes with the 32-byte interleave (which also needs rank >= 3).
    let view = f.view(4..).unwrap();
    let e = match tiled(&[8, 8, 8], &[8, 8, 8])
        .interleave(TensorMapInterleave::B32)
        .encode(&view)
    {
        Err(Error::TensorMap(e)) => e,
        other => panic!("{:?}", other.err()),
    };
    assert!(matches!(e, E::AddressAlignment { align: 32, .. }), "{e}");
    let e = err(tiled(&[64, 64], &[32, 8])
        .interleave(TensorMapInterleave::B16)
        .encode(&f));
    assert!(matches!(e, E::Rank { min: 3, .. }), "{e}");
    // The box's inner bytes: whole 16 bytes, and within the swizzle span.
    let e = err(tiled(&[64, 64], &[2, 8]).encode(&f));
    assert!(matches!(e, E::BoxInnerBytes { bytes: 8 }), "{e}");
    let e = err(tiled(&[64, 64], &[64, 8])
        .swizzle(TensorMapSwizzle::B128)
        .encode(&f));
    assert!(
        matches!(
            e,
            E::SwizzleSpan {
                bytes: 256,
                span: 128
            }
        ),
        "{e}"
    );
    let e = err(tiled(&[64, 64], &[32, 8])
        .swizzle(TensorMapSwizzle::B64)
        .encode(&f));
    assert!(
        matches!(
            e,
            E::SwizzleSpan {
                bytes: 128,
                span: 64
            }
        ),
        "{e}"
    );
    // Element strides 1..=8.
    let e = err(tiled(&[64, 64], &[32, 8])
        .element_strides(&[1, 9])
        .encode(&f));
    assert!(matches!(e, E::ElementStride { dim: 1, stride: 9 }), "{e}");
    // The element type against the buffer's.
    let e = err(tiled(&[64, 64], &[32, 8])
        .data_type(TensorDataType::F16)
        .encode(&f));
    assert!(
        matches!(
            e,
            E::ElementType {
                bytes: 2,
                buffer_bytes: 4,
                ..
            }
        ),
        "{e}"
    );
    let e = err(tiled(&[64, 64], &[32, 8])
        .data_type(TensorDataType::U32)
        .encode(&f));
    assert!(
        matches!(
            e,
            E::ElementType {
                float_mismatch: true,
                ..
            }
        ),
        "{e}"
    );
    assert!(tiled(&[64, 64], &[32, 8])
        .data_type(TensorDataType::Tf32)
        .encode(&f)
        .is_ok());
    let u = dev.alloc_zeroed::<u32>(64 * 64).unwrap();
    let e = match tiled(&[64, 64], &[32, 8])
        .oob_fill(TensorMapOobFill::Nan)
        .encode(&u)
    {
        Err(Error::TensorMap(e)) => e,
        other => panic!("{:?}", other.err()),
    };
    assert!(matches!(e, E::NanFillNotFloat { .. }), "{e}");
    let v = dev.alloc_zeroed::<float4>(64).unwrap();
    let e = match tiled(&[64], &[16]).encode(&v) {
        Err(Error::TensorMap(e)) => e,
        other => panic!("{:?}", other.err()),
    };
    assert!(matches!(e, E::NoDataType { .. }), "{e}");
    // im2col: rank 3..=5, corners in range, box sizes.
    let im = |dims: &[u64], lo: &[i32], hi: &[i32], c: u32, p: u32| {
        TensorMapDesc::im2col(dims, lo, hi, c, p)
    };
    assert!(matches!(
        err(im(&[4, 64], &[], &[], 4, 16).encode(&f)),
        E::Rank { min: 3, .. }
    ));
    let e = err(im(&[4, 8, 8, 2], &[-200, 0], &[0, 0], 4, 16).encode(&f));
    assert!(
        matches!(
            e,
            E::Im2colCorner {
                value: -200,
                min: -128,
                max: 127,
                ..
            }
        ),
        "{e}"
    );
    let e = err(im(&[4, 8, 8, 2], &[0, 0], &[0, 0], 4, 2000).encode(&f));
    assert!(matches!(e, E::Im2colBox { max: 1024, .. }), "{e}");
    let e = err(im(&[4, 8, 8, 2], &[0], &[0, 0], 4, 16).encode(&f));
    assert!(matches!(e, E::Arity { .. }), "{e}");
    // The messages name the rule.
    let e = Error::from(E::BoxDim { dim: 1, size: 300 }).to_string();
    assert!(
        e.contains("box dimension 1 is 300") && e.contains("1..=256"),
        "{e}"
    );
}

/// 1 KiB of `u32` in shared memory, aligned for the copy engine.
#[repr(C, align(128))]
#[derive(Clone, Copy, DeviceCopy)]
pub struct UWords {
    pub w: [u32; 256],
}

/// 1 KiB of `i64` in shared memory, aligned for the copy engine.
#[repr(C, align(128))]
#[derive(Clone, Copy, DeviceCopy)]
pub struct LWords {
    pub w: [i64; 128],
}

/// The integer tensor reductions with the tile `3t + 1`, each on its own box: `inc` at (x, y),
/// then `dec`, `and`, `or` and `xor` each 8 rows further down.
#[kernel]
pub fn reduce_bits_box(dst: &mut TensorMap, x: i32, y: i32) {
    let tile = shared_array::<UWords>();
    let t = thread_idx().x as usize;
    tile.w[t] = 3 * t as u32 + 1;
    fence_proxy_async_shared_cta();
    sync_threads();
    if t == 0 {
        cp_reduce_async_bulk_tensor_2d_inc(dst, x, y, tile);
        cp_reduce_async_bulk_tensor_2d_dec(dst, x, y + 8, tile);
        cp_reduce_async_bulk_tensor_2d_and(dst, x, y + 16, tile);
        cp_reduce_async_bulk_tensor_2d_or(dst, x, y + 24, tile);
        cp_reduce_async_bulk_tensor_2d_xor(dst, x, y + 32, tile);
        cp_async_bulk_commit_group();
        cp_async_bulk_wait_group_read(0);
    }
}

/// PTX's integer reductions (`.inc` and `.dec` wrap at the operand): `old` becomes `op(old, v)`.
fn int_reduce(op: &str, old: u32, v: u32) -> u32 {
    match op {
        "add" => old.wrapping_add(v),
        "min" => old.min(v),
        "max" => old.max(v),
        "inc" if old >= v => 0,
        "inc" => old + 1,
        "dec" if old == 0 || old > v => v,
        "dec" => old - 1,
        "and" => old & v,
        "or" => old | v,
        "xor" => old ^ v,
        _ => unreachable!("{op}"),
    }
}

fn reduce_bits_run(dev: &Device) {
    let (w, h) = (40u32, 48u32);
    let init: Vec<u32> = (0..w * h).map(|i| (i * 37) % 1000).collect();
    let s = dev.new_stream().unwrap();
    let mut buf = dev.upload(&init).unwrap();
    {
        let mut map = TensorMapDesc::tiled(&[w as u64, h as u64], &[32, 8])
            .encode_mut(&mut buf)
            .unwrap();
        reduce_bits_box::launch(&s, LaunchConfig::for_elements(256, 256), &mut map, 16, 4).unwrap();
    }
    s.synchronize().unwrap();
    let got = buf.to_vec().unwrap();
    for y in 0..h {
        for x in 0..w {
            let i = (y * w + x) as usize;
            let (bx, by) = (x as i32 - 16, y as i32 - 4);
            let op = ["inc", "dec", "and", "or", "xor"].get((by / 8) as usize);
            let want = match op {
                Some(op) if (0..32).contains(&bx) && (0..40).contains(&by) => {
                    int_reduce(op, init[i], 3 * ((by % 8) * 32 + bx) as u32 + 1)
                }
                _ => init[i],
            };
            assert_eq!(got[i], want, "({x}, {y}): from {}", init[i]);
        }
    }
}

#[test]
fn integer_tensor_reductions_on_the_simulator() {
    reduce_bits_run(&sim90());
}

/// `.inc` on an `f32` map: PTX defines it on `u32` only.
#[kernel]
pub fn inc_on_floats(dst: &mut TensorMap) {
    let tile = shared_array::<Words>();
    tile.w[thread_idx().x as usize] = 1.0;
    fence_proxy_async_shared_cta();
    sync_threads();
    if thread_idx().x == 0 {
        cp_reduce_async_bulk_tensor_2d_inc(dst, 0, 0, tile);
        cp_async_bulk_commit_group();
        cp_async_bulk_wait_group(0);
    }
}

#[test]
fn a_tensor_reduction_of_a_type_ptx_lacks_is_a_simulator_error() {
    let dev = sim90();
    let s = dev.new_stream().unwrap();
    let mut buf = dev.alloc_zeroed::<f32>(32 * 8).unwrap();
    let mut map = TensorMapDesc::tiled(&[32, 8], &[32, 8])
        .encode_mut(&mut buf)
        .unwrap();
    let e = inc_on_floats::launch(&s, LaunchConfig::for_elements(256, 256), &mut map)
        .and_then(|_| s.synchronize())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("`cp_reduce_async_bulk_tensor_2d_inc`") && e.contains("`f32`"),
        "{e}"
    );
    assert!(e.contains("`.inc` on u32 only"), "{e}");
}

/// The non-tensor bulk reductions (`cp.reduce.async.bulk`) from `u[start..]` on: the `j`th run of
/// `n` words of `u` through the `j`th `u32` operation (add, min, max, inc, dec, and, or, xor) with
/// the same words of the tile `3t + 1`; `n` of `f` `+=` the tile's halves, and `n / 2` of `l`
/// `max`ed with a tile of signed values.
#[kernel]
pub fn bulk_reductions(u: &mut [u32], f: &mut [f32], l: &mut [i64], n: u32, start: u32) {
    let ut = shared_array::<UWords>();
    let ft = shared_array::<Words>();
    let lt = shared_array::<LWords>();
    let t = thread_idx().x as usize;
    let (n, s) = (n as usize, start as usize);
    ut.w[t] = 3 * t as u32 + 1;
    ft.w[t] = t as f32 * 0.5;
    if t < 128 {
        lt.w[t] = t as i64 * 1000 - 64_000;
    }
    fence_proxy_async_shared_cta();
    sync_threads();
    if t == 0 {
        cp_reduce_async_bulk_add_u32(&mut u[s..s + n], &ut.w[..n]);
        cp_reduce_async_bulk_min_u32(&mut u[s + n..s + 2 * n], &ut.w[n..2 * n]);
        cp_reduce_async_bulk_max_u32(&mut u[s + 2 * n..s + 3 * n], &ut.w[2 * n..3 * n]);
        cp_reduce_async_bulk_inc_u32(&mut u[s + 3 * n..s + 4 * n], &ut.w[3 * n..4 * n]);
        cp_reduce_async_bulk_dec_u32(&mut u[s + 4 * n..s + 5 * n], &ut.w[4 * n..5 * n]);
        cp_reduce_async_bulk_and_u32(&mut u[s + 5 * n..s + 6 * n], &ut.w[5 * n..6 * n]);
        cp_reduce_async_bulk_or_u32(&mut u[s + 6 * n..s + 7 * n], &ut.w[6 * n..7 * n]);
        cp_reduce_async_bulk_xor_u32(&mut u[s + 7 * n..s + 8 * n], &ut.w[7 * n..8 * n]);
        cp_reduce_async_bulk_add_f32(&mut f[s..s + n], &ft.w[..n]);
        cp_reduce_async_bulk_max_i64(&mut l[..n / 2], &lt.w[..n / 2]);
        cp_async_bulk_commit_group();
        cp_async_bulk_wait_group_read(0);
    }
}

fn bulk_reduce_run(dev: &Device) {
    let s = dev.new_stream().unwrap();
    let n = 16usize;
    let ops = ["add", "min", "max", "inc", "dec", "and", "or", "xor"];
    let u0: Vec<u32> = (0..256).map(|i| (i * 37) % 1000).collect();
    let f0: Vec<f32> = (0..256).map(|i| i as f32 - 100.0).collect();
    let l0: Vec<i64> = (0..128).map(|i| (i % 5) * 7000 - 10_000).collect();
    let (mut du, mut df, mut dl) = (
        dev.upload(&u0).unwrap(),
        dev.upload(&f0).unwrap(),
        dev.upload(&l0).unwrap(),
    );
    let cfg = LaunchConfig::for_elements(256, 256);
    bulk_reductions::launch(&s, cfg, &mut du, &mut df, &mut dl, n as u32, 8).unwrap();
    s.synchronize().unwrap();
    let (u, f, l) = (
        du.to_vec().unwrap(),
        df.to_vec().unwrap(),
        dl.to_vec().unwrap(),
    );
    for i in 0..256usize {
        let k = i.wrapping_sub(8);
        let wu = match ops.get(k / n) {
            Some(op) if i >= 8 => int_reduce(op, u0[i], 3 * k as u32 + 1),
            _ => u0[i],
        };
        let wf = if (8..8 + n).contains(&i) {
            f0[i] + k as f32 * 0.5
        } else {
            f0[i]
        };
        assert_eq!(u[i], wu, "u[{i}] from {}", u0[i]);
        assert_eq!(f[i], wf, "f[{i}]");
    }
    for i in 0..128 {
        let want = if i < n / 2 {
            l0[i].max(i as i64 * 1000 - 64_000)
        } else {
            l0[i]
        };
        assert_eq!(l[i], want, "l[{i}]");
    }
    // 10 words (40 bytes) and a start off the 16-byte grid: panics at the call.
    for (n, start, msg) in [(10, 8, "multiple of 16 bytes"), (8, 1, "16-byte aligned")] {
        let r = bulk_reductions::launch(&s, cfg, &mut du, &mut df, &mut dl, n, start)
            .and_then(|_| s.synchronize());
        match r {
            Err(Error::KernelPanic(p)) => {
                assert!(p.message.contains(msg), "{}", p.message);
                assert!(
                    p.message.contains("cp_reduce_async_bulk_add_u32"),
                    "{}",
                    p.message
                );
                assert!(p.file.ends_with("tma.rs"), "{}", p.file);
            }
            other => panic!("expected a kernel panic, got {other:?}"),
        }
    }
}

#[test]
fn bulk_reductions_on_the_simulator() {
    bulk_reduce_run(&sim90());
}

/// 512 bytes of `f16` and of `bf16` in shared memory, aligned for the copy engine.
#[repr(C, align(128))]
#[derive(Clone, Copy, DeviceCopy)]
pub struct HalfWords {
    pub h: [f16; 256],
    pub b: [bf16; 256],
}

/// The half-precision bulk reductions: `add` (`.noftz`), `min` and `max` of `f16` and `bf16`,
/// each on its own run of 16 elements, with the tiles `t / 4 - 8`.
#[kernel]
pub fn bulk_half_reductions(h: &mut [f16], b: &mut [bf16]) {
    let tile = shared_array::<HalfWords>();
    let t = thread_idx().x as usize;
    let v = t as f32 * 0.25 - 8.0;
    tile.h[t] = f16::from_f32(v);
    tile.b[t] = bf16::from_f32(v);
    fence_proxy_async_shared_cta();
    sync_threads();
    if t == 0 {
        cp_reduce_async_bulk_add_f16(&mut h[..16], &tile.h[..16]);
        cp_reduce_async_bulk_min_f16(&mut h[16..32], &tile.h[16..32]);
        cp_reduce_async_bulk_max_f16(&mut h[32..48], &tile.h[32..48]);
        cp_reduce_async_bulk_add_bf16(&mut b[..16], &tile.b[..16]);
        cp_reduce_async_bulk_min_bf16(&mut b[16..32], &tile.b[16..32]);
        cp_reduce_async_bulk_max_bf16(&mut b[32..48], &tile.b[32..48]);
        cp_async_bulk_commit_group();
        cp_async_bulk_wait_group_read(0);
    }
}

fn bulk_half_run(dev: &Device) {
    let s = dev.new_stream().unwrap();
    let init: Vec<f32> = (0..64).map(|i| 5.0 - (i % 9) as f32 * 1.5).collect();
    let h0: Vec<f16> = init.iter().map(|&x| f16::from_f32(x)).collect();
    let b0: Vec<bf16> = init.iter().map(|&x| bf16::from_f32(x)).collect();
    let (mut dh, mut db) = (dev.upload(&h0).unwrap(), dev.upload(&b0).unwrap());
    bulk_half_reductions::launch(&s, LaunchConfig::for_elements(256, 256), &mut dh, &mut db)
        .unwrap();
    s.synchronize().unwrap();
    let (h, b) = (dh.to_vec().unwrap(), db.to_vec().unwrap());
    for i in 0..64 {
        let (old, v) = (init[i], i as f32 * 0.25 - 8.0);
        let want = match i / 16 {
            0 => old + v,
            1 => old.min(v),
            2 => old.max(v),
            _ => old,
        };
        assert_eq!(h[i], f16::from_f32(want), "h[{i}]");
        assert_eq!(b[i], bf16::from_f32(want), "b[{i}]");
    }
}

#[test]
fn half_precision_bulk_reductions_on_the_simulator() {
    bulk_half_run(&sim90());
}

/// A reduction of 10 `u32` (40 bytes) the compiler can see.
#[kernel]
pub fn bulk_reduce_forty_bytes(u: &mut [u32]) {
    let tile = shared_array::<[u32; 10]>();
    cp_reduce_async_bulk_or_u32(&mut u[..10], tile);
}

#[test]
fn bulk_reduction_sizes_the_compiler_sees_are_compile_errors() {
    let opts = CompileOptions {
        sm: 90,
        ..CompileOptions::default()
    };
    let e = compile(bulk_reduce_forty_bytes::ast(), &[], &opts)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("multiple of 16 bytes") && e.contains("40 bytes"),
        "{e}"
    );
    let e = compile(bulk_reductions::ast(), &[], &CompileOptions::default())
        .unwrap_err()
        .to_string();
    assert!(e.contains("sm_90"), "{e}");
}

#[test]
fn bulk_and_integer_tensor_reductions_assemble_for_sm90() {
    let ptx = assembles90(reduce_bits_box::ast());
    for op in ["inc", "dec", "and", "or", "xor"] {
        let want =
            format!("cp.reduce.async.bulk.tensor.2d.global.shared::cta.{op}.tile.bulk_group");
        assert!(ptx.contains(&want), "{want}\n{ptx}");
    }
    let ptx = assembles90(bulk_reductions::ast());
    for form in [
        "add.u32", "min.u32", "max.u32", "inc.u32", "dec.u32", "and.b32", "or.b32", "xor.b32",
        "add.f32", "max.s64",
    ] {
        let want = format!("cp.reduce.async.bulk.global.shared::cta.bulk_group.{form} [");
        assert!(ptx.contains(&want), "{want}\n{ptx}");
    }
    assembles90(inc_on_floats::ast());
    let ptx = assembles90(bulk_half_reductions::ast());
    for form in [
        "add.noftz.f16",
        "min.f16",
        "max.f16",
        "add.noftz.bf16",
        "min.bf16",
        "max.bf16",
    ] {
        let want = format!("cp.reduce.async.bulk.global.shared::cta.bulk_group.{form} [");
        assert!(ptx.contains(&want), "{want}\n{ptx}");
    }
}

#[test]
#[ignore = "needs an sm_90 GPU"]
fn tma_on_the_gpu() {
    let Some(dev) = gpu90() else { return };
    box_layouts(&dev);
    box_3d_run(&dev);
    nan_fill_run(&dev);
    reduce_run(&dev);
    bulk_run(&dev);
    misaligned_run(&dev);
    reduce_bits_run(&dev);
    bulk_reduce_run(&dev);
    bulk_half_run(&dev);
}

/// Dynamic shared memory above 48 KiB (where TMA tiles usually live): the launcher opts the
/// kernel in up to the device's limit, and asking for more is a launch error before the driver.
#[kernel]
pub fn big_dynamic(out: &mut [f32]) {
    let s = dynamic_shared::<f32>();
    let t = thread_idx().x as usize;
    let n = s.len();
    s[n - 1 - t] = t as f32;
    sync_threads();
    out[t] = s[n - 1 - (31 - t)];
}

fn big_dynamic_run(dev: &Device) {
    use ferrocuda::host_runtime::LaunchError;
    let s = dev.new_stream().unwrap();
    let mut out = dev.alloc_zeroed::<f32>(32).unwrap();
    let optin = dev.properties().shared_mem_per_block_optin;
    assert!(optin > 48 * 1024, "{optin}");
    for bytes in [100 * 1024, optin] {
        let cfg = LaunchConfig {
            shared_mem_bytes: bytes,
            ..LaunchConfig::for_elements(32, 32)
        };
        big_dynamic::launch(&s, cfg, &mut out).unwrap_or_else(|e| panic!("{bytes} B: {e}"));
        s.synchronize().unwrap();
        let want: Vec<f32> = (0..32).map(|t| (31 - t) as f32).collect();
        assert_eq!(out.to_vec().unwrap(), want, "{bytes} B");
    }
    let cfg = LaunchConfig {
        shared_mem_bytes: optin + 16,
        ..LaunchConfig::for_elements(32, 32)
    };
    let e = big_dynamic::launch(&s, cfg, &mut out).unwrap_err();
    assert!(
        matches!(e, Error::InvalidLaunch(LaunchError::SharedMemTooLarge { max, .. }) if max == optin),
        "{e}"
    );
}

#[test]
fn dynamic_shared_memory_above_48_kib_on_the_simulator() {
    big_dynamic_run(&sim90());
}

#[test]
#[ignore = "needs an sm_90 GPU"]
fn dynamic_shared_memory_above_48_kib_on_the_gpu() {
    let Some(dev) = gpu90() else { return };
    big_dynamic_run(&dev);
}
