//! Hopper's tensor memory accelerator (TMA) and bulk asynchronous copies (sm_90; guide "Using
//! the Tensor Memory Accelerator (TMA)", PTX `cp.async.bulk`, `cp.async.bulk.tensor`): one thread
//! hands the copy engine a whole box of a tensor (described by a [`TensorMap`] the host encoded)
//! or a contiguous run of bytes, and the engine moves it between global and shared memory on its
//! own.
//!
//! Loads land in shared memory and complete on a [`Barrier`]: the thread that issues them tells
//! the barrier how many bytes to expect (`barrier_arrive_expect_tx(bar, bytes)`), and a thread
//! that waits for the phase sees the box. Until then the destination must not be accessed (the
//! simulator reports such an access as a race with the copy). Stores and reductions read shared
//! memory and join the issuing thread's bulk group: `cp_async_bulk_commit_group()` closes it,
//! `cp_async_bulk_wait_group_read(n)` waits until the sources of all but the `n` newest groups
//! have been read (their shared memory may be reused), `cp_async_bulk_wait_group(n)` until the
//! writes are done. Shared memory written by the threads' ordinary stores must be made visible to
//! the copy engine with `fence_proxy_async_shared_cta()` (and a block barrier) before a store
//! reads it.
//!
//! A tensor map is a kernel parameter `tmap: &TensorMap` (what may be read: loads) or `tmap: &mut
//! TensorMap` (stores and reductions too), CUDA's `const __grid_constant__ CUtensorMap`: its 128
//! bytes stay in parameter space and the instructions get its address. The shared side of a
//! tensor copy must be 128-byte aligned (a `#[repr(C, align(128))]` tile type; otherwise checked
//! at run time, a `KernelPanic` at the call). Coordinates are element indices of the box's first
//! element, innermost dimension first; a box that reaches outside the tensor is filled with zeros
//! (or NaN, as the map says) on a load and clipped on a store.
//!
//! Every function needs sm_90: compiled for an older target (the simulator's default is sm_80:
//! `Device::simulator_with_arch(90)`) a call is a compile error naming it.

// CUDA's TMA functions take one argument per coordinate (and offset): up to 11.
#![allow(clippy::too_many_arguments)]

use half::{bf16, f16};
use kernel_ir::ast::BulkArg;
use kernel_ir::async_ops::{AsyncOp, BulkReduce};
use kernel_ir::ir::Ty;
use kernel_macros::DeviceCopy;

use super::barrier_async::Barrier;
use super::{Class, Custom, DeviceType, IntrinsicDef, SimEnv};

/// CUDA's `CUtensorMap`: the 128-byte descriptor of a tensor in global memory and of the box one
/// copy moves, encoded on the host (`HostTensorMap`). A kernel takes it as a parameter,
/// `tmap: &TensorMap` or `tmap: &mut TensorMap`, and only passes it to the functions of this
/// module: its bytes are opaque and stay in parameter space (reading them is a compile error).
#[repr(C, align(64))]
#[derive(Clone, Copy, DeviceCopy)]
pub struct TensorMap {
    opaque: [u64; 16],
}

impl TensorMap {
    /// The descriptor with these bytes, as the host encoded them (`cuTensorMapEncodeTiled`, or
    /// the simulator's encoding).
    #[doc(hidden)]
    pub fn from_bytes(bytes: [u8; 128]) -> TensorMap {
        let mut opaque = [0u64; 16];
        for (w, b) in opaque.iter_mut().zip(bytes.chunks_exact(8)) {
            *w = u64::from_le_bytes(b.try_into().expect("8 bytes"));
        }
        TensorMap { opaque }
    }
}

impl core::fmt::Debug for TensorMap {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("TensorMap { .. }")
    }
}

macro_rules! entry {
    ($name:expr, [$($a:ident),*], $ptx:expr, $op:expr) => {
        IntrinsicDef {
            name: $name,
            args: &[$(Ty::$a),*],
            rets: &[],
            min_sm: 90,
            ptx: $ptx,
            class: Class::Memory,
            sim: Some(|e: &mut dyn SimEnv, a: &[u64], o: &mut [u64]| e.async_op($op, a, o)),
            sim_warp: None,
            reg: None,
        }
    };
}

/// Tile loads, 1-5 D: `[dst, tmap, c0.., bar]`.
static LOAD: [IntrinsicDef; 5] = [
    entry!("cp_async_bulk_tensor.1d.load", [U32, U64, I32, U32],
        "cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [{a0}], [{a1}, {{{a2}}}], [{a3}]",
        AsyncOp::TensorLoad { dims: 1, im2col: false, multicast: false }),
    entry!("cp_async_bulk_tensor.2d.load", [U32, U64, I32, I32, U32],
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [{a0}], [{a1}, {{{a2}, {a3}}}], [{a4}]",
        AsyncOp::TensorLoad { dims: 2, im2col: false, multicast: false }),
    entry!("cp_async_bulk_tensor.3d.load", [U32, U64, I32, I32, I32, U32],
        "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [{a0}], [{a1}, {{{a2}, {a3}, {a4}}}], [{a5}]",
        AsyncOp::TensorLoad { dims: 3, im2col: false, multicast: false }),
    entry!("cp_async_bulk_tensor.4d.load", [U32, U64, I32, I32, I32, I32, U32],
        "cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [{a0}], [{a1}, {{{a2}, {a3}, {a4}, {a5}}}], [{a6}]",
        AsyncOp::TensorLoad { dims: 4, im2col: false, multicast: false }),
    entry!("cp_async_bulk_tensor.5d.load", [U32, U64, I32, I32, I32, I32, I32, U32],
        "cp.async.bulk.tensor.5d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [{a0}], [{a1}, {{{a2}, {a3}, {a4}, {a5}, {a6}}}], [{a7}]",
        AsyncOp::TensorLoad { dims: 5, im2col: false, multicast: false }),
];
/// Multicast tile loads, 1-5 D: `[dst, tmap, c0.., bar, cta_mask]`.
static LOAD_MC: [IntrinsicDef; 5] = [
    entry!("cp_async_bulk_tensor.1d.load.multicast", [U32, U64, I32, U32, U16],
        ".reg .b16 %fcm{uid}; cvt.u16.u32 %fcm{uid}, {a4}; cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [{a0}], [{a1}, {{{a2}}}], [{a3}], %fcm{uid}",
        AsyncOp::TensorLoad { dims: 1, im2col: false, multicast: true }),
    entry!("cp_async_bulk_tensor.2d.load.multicast", [U32, U64, I32, I32, U32, U16],
        ".reg .b16 %fcm{uid}; cvt.u16.u32 %fcm{uid}, {a5}; cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [{a0}], [{a1}, {{{a2}, {a3}}}], [{a4}], %fcm{uid}",
        AsyncOp::TensorLoad { dims: 2, im2col: false, multicast: true }),
    entry!("cp_async_bulk_tensor.3d.load.multicast", [U32, U64, I32, I32, I32, U32, U16],
        ".reg .b16 %fcm{uid}; cvt.u16.u32 %fcm{uid}, {a6}; cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [{a0}], [{a1}, {{{a2}, {a3}, {a4}}}], [{a5}], %fcm{uid}",
        AsyncOp::TensorLoad { dims: 3, im2col: false, multicast: true }),
    entry!("cp_async_bulk_tensor.4d.load.multicast", [U32, U64, I32, I32, I32, I32, U32, U16],
        ".reg .b16 %fcm{uid}; cvt.u16.u32 %fcm{uid}, {a7}; cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [{a0}], [{a1}, {{{a2}, {a3}, {a4}, {a5}}}], [{a6}], %fcm{uid}",
        AsyncOp::TensorLoad { dims: 4, im2col: false, multicast: true }),
    entry!("cp_async_bulk_tensor.5d.load.multicast", [U32, U64, I32, I32, I32, I32, I32, U32, U16],
        ".reg .b16 %fcm{uid}; cvt.u16.u32 %fcm{uid}, {a8}; cp.async.bulk.tensor.5d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [{a0}], [{a1}, {{{a2}, {a3}, {a4}, {a5}, {a6}}}], [{a7}], %fcm{uid}",
        AsyncOp::TensorLoad { dims: 5, im2col: false, multicast: true }),
];
/// im2col loads, 3-5 D: `[dst, tmap, c0.., off0.., bar]`.
static LOAD_IM2COL: [IntrinsicDef; 3] = [
    entry!("cp_async_bulk_tensor.3d.load.im2col", [U32, U64, I32, I32, I32, U16, U32],
        ".reg .b16 %fco{uid}_0; cvt.u16.u32 %fco{uid}_0, {a5}; cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [{a0}], [{a1}, {{{a2}, {a3}, {a4}}}], [{a6}], {{%fco{uid}_0}}",
        AsyncOp::TensorLoad { dims: 3, im2col: true, multicast: false }),
    entry!("cp_async_bulk_tensor.4d.load.im2col", [U32, U64, I32, I32, I32, I32, U16, U16, U32],
        ".reg .b16 %fco{uid}_0; cvt.u16.u32 %fco{uid}_0, {a6}; .reg .b16 %fco{uid}_1; cvt.u16.u32 %fco{uid}_1, {a7}; cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [{a0}], [{a1}, {{{a2}, {a3}, {a4}, {a5}}}], [{a8}], {{%fco{uid}_0, %fco{uid}_1}}",
        AsyncOp::TensorLoad { dims: 4, im2col: true, multicast: false }),
    entry!("cp_async_bulk_tensor.5d.load.im2col", [U32, U64, I32, I32, I32, I32, I32, U16, U16, U16, U32],
        ".reg .b16 %fco{uid}_0; cvt.u16.u32 %fco{uid}_0, {a7}; .reg .b16 %fco{uid}_1; cvt.u16.u32 %fco{uid}_1, {a8}; .reg .b16 %fco{uid}_2; cvt.u16.u32 %fco{uid}_2, {a9}; cp.async.bulk.tensor.5d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [{a0}], [{a1}, {{{a2}, {a3}, {a4}, {a5}, {a6}}}], [{a10}], {{%fco{uid}_0, %fco{uid}_1, %fco{uid}_2}}",
        AsyncOp::TensorLoad { dims: 5, im2col: true, multicast: false }),
];
/// Tile stores, 1-5 D: `[tmap, c0.., src]`.
static STORE: [IntrinsicDef; 5] = [
    entry!("cp_async_bulk_tensor.1d.store", [U64, I32, U32],
        "cp.async.bulk.tensor.1d.global.shared::cta.tile.bulk_group [{a0}, {{{a1}}}], [{a2}]",
        AsyncOp::TensorStore { dims: 1, reduce: None }),
    entry!("cp_async_bulk_tensor.2d.store", [U64, I32, I32, U32],
        "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [{a0}, {{{a1}, {a2}}}], [{a3}]",
        AsyncOp::TensorStore { dims: 2, reduce: None }),
    entry!("cp_async_bulk_tensor.3d.store", [U64, I32, I32, I32, U32],
        "cp.async.bulk.tensor.3d.global.shared::cta.tile.bulk_group [{a0}, {{{a1}, {a2}, {a3}}}], [{a4}]",
        AsyncOp::TensorStore { dims: 3, reduce: None }),
    entry!("cp_async_bulk_tensor.4d.store", [U64, I32, I32, I32, I32, U32],
        "cp.async.bulk.tensor.4d.global.shared::cta.tile.bulk_group [{a0}, {{{a1}, {a2}, {a3}, {a4}}}], [{a5}]",
        AsyncOp::TensorStore { dims: 4, reduce: None }),
    entry!("cp_async_bulk_tensor.5d.store", [U64, I32, I32, I32, I32, I32, U32],
        "cp.async.bulk.tensor.5d.global.shared::cta.tile.bulk_group [{a0}, {{{a1}, {a2}, {a3}, {a4}, {a5}}}], [{a6}]",
        AsyncOp::TensorStore { dims: 5, reduce: None }),
];
/// Reductions `add`, 1-5 D: `[tmap, c0.., src]`.
static REDUCE_ADD: [IntrinsicDef; 5] = [
    entry!("cp_reduce_async_bulk_tensor.1d.add", [U64, I32, U32],
        "cp.reduce.async.bulk.tensor.1d.global.shared::cta.add.tile.bulk_group [{a0}, {{{a1}}}], [{a2}]",
        AsyncOp::TensorStore { dims: 1, reduce: Some(BulkReduce::Add) }),
    entry!("cp_reduce_async_bulk_tensor.2d.add", [U64, I32, I32, U32],
        "cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [{a0}, {{{a1}, {a2}}}], [{a3}]",
        AsyncOp::TensorStore { dims: 2, reduce: Some(BulkReduce::Add) }),
    entry!("cp_reduce_async_bulk_tensor.3d.add", [U64, I32, I32, I32, U32],
        "cp.reduce.async.bulk.tensor.3d.global.shared::cta.add.tile.bulk_group [{a0}, {{{a1}, {a2}, {a3}}}], [{a4}]",
        AsyncOp::TensorStore { dims: 3, reduce: Some(BulkReduce::Add) }),
    entry!("cp_reduce_async_bulk_tensor.4d.add", [U64, I32, I32, I32, I32, U32],
        "cp.reduce.async.bulk.tensor.4d.global.shared::cta.add.tile.bulk_group [{a0}, {{{a1}, {a2}, {a3}, {a4}}}], [{a5}]",
        AsyncOp::TensorStore { dims: 4, reduce: Some(BulkReduce::Add) }),
    entry!("cp_reduce_async_bulk_tensor.5d.add", [U64, I32, I32, I32, I32, I32, U32],
        "cp.reduce.async.bulk.tensor.5d.global.shared::cta.add.tile.bulk_group [{a0}, {{{a1}, {a2}, {a3}, {a4}, {a5}}}], [{a6}]",
        AsyncOp::TensorStore { dims: 5, reduce: Some(BulkReduce::Add) }),
];
/// Reductions `min`, 1-5 D: `[tmap, c0.., src]`.
static REDUCE_MIN: [IntrinsicDef; 5] = [
    entry!("cp_reduce_async_bulk_tensor.1d.min", [U64, I32, U32],
        "cp.reduce.async.bulk.tensor.1d.global.shared::cta.min.tile.bulk_group [{a0}, {{{a1}}}], [{a2}]",
        AsyncOp::TensorStore { dims: 1, reduce: Some(BulkReduce::Min) }),
    entry!("cp_reduce_async_bulk_tensor.2d.min", [U64, I32, I32, U32],
        "cp.reduce.async.bulk.tensor.2d.global.shared::cta.min.tile.bulk_group [{a0}, {{{a1}, {a2}}}], [{a3}]",
        AsyncOp::TensorStore { dims: 2, reduce: Some(BulkReduce::Min) }),
    entry!("cp_reduce_async_bulk_tensor.3d.min", [U64, I32, I32, I32, U32],
        "cp.reduce.async.bulk.tensor.3d.global.shared::cta.min.tile.bulk_group [{a0}, {{{a1}, {a2}, {a3}}}], [{a4}]",
        AsyncOp::TensorStore { dims: 3, reduce: Some(BulkReduce::Min) }),
    entry!("cp_reduce_async_bulk_tensor.4d.min", [U64, I32, I32, I32, I32, U32],
        "cp.reduce.async.bulk.tensor.4d.global.shared::cta.min.tile.bulk_group [{a0}, {{{a1}, {a2}, {a3}, {a4}}}], [{a5}]",
        AsyncOp::TensorStore { dims: 4, reduce: Some(BulkReduce::Min) }),
    entry!("cp_reduce_async_bulk_tensor.5d.min", [U64, I32, I32, I32, I32, I32, U32],
        "cp.reduce.async.bulk.tensor.5d.global.shared::cta.min.tile.bulk_group [{a0}, {{{a1}, {a2}, {a3}, {a4}, {a5}}}], [{a6}]",
        AsyncOp::TensorStore { dims: 5, reduce: Some(BulkReduce::Min) }),
];
/// Reductions `max`, 1-5 D: `[tmap, c0.., src]`.
static REDUCE_MAX: [IntrinsicDef; 5] = [
    entry!("cp_reduce_async_bulk_tensor.1d.max", [U64, I32, U32],
        "cp.reduce.async.bulk.tensor.1d.global.shared::cta.max.tile.bulk_group [{a0}, {{{a1}}}], [{a2}]",
        AsyncOp::TensorStore { dims: 1, reduce: Some(BulkReduce::Max) }),
    entry!("cp_reduce_async_bulk_tensor.2d.max", [U64, I32, I32, U32],
        "cp.reduce.async.bulk.tensor.2d.global.shared::cta.max.tile.bulk_group [{a0}, {{{a1}, {a2}}}], [{a3}]",
        AsyncOp::TensorStore { dims: 2, reduce: Some(BulkReduce::Max) }),
    entry!("cp_reduce_async_bulk_tensor.3d.max", [U64, I32, I32, I32, U32],
        "cp.reduce.async.bulk.tensor.3d.global.shared::cta.max.tile.bulk_group [{a0}, {{{a1}, {a2}, {a3}}}], [{a4}]",
        AsyncOp::TensorStore { dims: 3, reduce: Some(BulkReduce::Max) }),
    entry!("cp_reduce_async_bulk_tensor.4d.max", [U64, I32, I32, I32, I32, U32],
        "cp.reduce.async.bulk.tensor.4d.global.shared::cta.max.tile.bulk_group [{a0}, {{{a1}, {a2}, {a3}, {a4}}}], [{a5}]",
        AsyncOp::TensorStore { dims: 4, reduce: Some(BulkReduce::Max) }),
    entry!("cp_reduce_async_bulk_tensor.5d.max", [U64, I32, I32, I32, I32, I32, U32],
        "cp.reduce.async.bulk.tensor.5d.global.shared::cta.max.tile.bulk_group [{a0}, {{{a1}, {a2}, {a3}, {a4}, {a5}}}], [{a6}]",
        AsyncOp::TensorStore { dims: 5, reduce: Some(BulkReduce::Max) }),
];
/// Reductions `inc`, 1-5 D: `[tmap, c0.., src]`.
static REDUCE_INC: [IntrinsicDef; 5] = [
    entry!("cp_reduce_async_bulk_tensor.1d.inc", [U64, I32, U32],
        "cp.reduce.async.bulk.tensor.1d.global.shared::cta.inc.tile.bulk_group [{a0}, {{{a1}}}], [{a2}]",
        AsyncOp::TensorStore { dims: 1, reduce: Some(BulkReduce::Inc) }),
    entry!("cp_reduce_async_bulk_tensor.2d.inc", [U64, I32, I32, U32],
        "cp.reduce.async.bulk.tensor.2d.global.shared::cta.inc.tile.bulk_group [{a0}, {{{a1}, {a2}}}], [{a3}]",
        AsyncOp::TensorStore { dims: 2, reduce: Some(BulkReduce::Inc) }),
    entry!("cp_reduce_async_bulk_tensor.3d.inc", [U64, I32, I32, I32, U32],
        "cp.reduce.async.bulk.tensor.3d.global.shared::cta.inc.tile.bulk_group [{a0}, {{{a1}, {a2}, {a3}}}], [{a4}]",
        AsyncOp::TensorStore { dims: 3, reduce: Some(BulkReduce::Inc) }),
    entry!("cp_reduce_async_bulk_tensor.4d.inc", [U64, I32, I32, I32, I32, U32],
        "cp.reduce.async.bulk.tensor.4d.global.shared::cta.inc.tile.bulk_group [{a0}, {{{a1}, {a2}, {a3}, {a4}}}], [{a5}]",
        AsyncOp::TensorStore { dims: 4, reduce: Some(BulkReduce::Inc) }),
    entry!("cp_reduce_async_bulk_tensor.5d.inc", [U64, I32, I32, I32, I32, I32, U32],
        "cp.reduce.async.bulk.tensor.5d.global.shared::cta.inc.tile.bulk_group [{a0}, {{{a1}, {a2}, {a3}, {a4}, {a5}}}], [{a6}]",
        AsyncOp::TensorStore { dims: 5, reduce: Some(BulkReduce::Inc) }),
];
/// Reductions `dec`, 1-5 D: `[tmap, c0.., src]`.
static REDUCE_DEC: [IntrinsicDef; 5] = [
    entry!("cp_reduce_async_bulk_tensor.1d.dec", [U64, I32, U32],
        "cp.reduce.async.bulk.tensor.1d.global.shared::cta.dec.tile.bulk_group [{a0}, {{{a1}}}], [{a2}]",
        AsyncOp::TensorStore { dims: 1, reduce: Some(BulkReduce::Dec) }),
    entry!("cp_reduce_async_bulk_tensor.2d.dec", [U64, I32, I32, U32],
        "cp.reduce.async.bulk.tensor.2d.global.shared::cta.dec.tile.bulk_group [{a0}, {{{a1}, {a2}}}], [{a3}]",
        AsyncOp::TensorStore { dims: 2, reduce: Some(BulkReduce::Dec) }),
    entry!("cp_reduce_async_bulk_tensor.3d.dec", [U64, I32, I32, I32, U32],
        "cp.reduce.async.bulk.tensor.3d.global.shared::cta.dec.tile.bulk_group [{a0}, {{{a1}, {a2}, {a3}}}], [{a4}]",
        AsyncOp::TensorStore { dims: 3, reduce: Some(BulkReduce::Dec) }),
    entry!("cp_reduce_async_bulk_tensor.4d.dec", [U64, I32, I32, I32, I32, U32],
        "cp.reduce.async.bulk.tensor.4d.global.shared::cta.dec.tile.bulk_group [{a0}, {{{a1}, {a2}, {a3}, {a4}}}], [{a5}]",
        AsyncOp::TensorStore { dims: 4, reduce: Some(BulkReduce::Dec) }),
    entry!("cp_reduce_async_bulk_tensor.5d.dec", [U64, I32, I32, I32, I32, I32, U32],
        "cp.reduce.async.bulk.tensor.5d.global.shared::cta.dec.tile.bulk_group [{a0}, {{{a1}, {a2}, {a3}, {a4}, {a5}}}], [{a6}]",
        AsyncOp::TensorStore { dims: 5, reduce: Some(BulkReduce::Dec) }),
];
/// Reductions `and`, 1-5 D: `[tmap, c0.., src]`.
static REDUCE_AND: [IntrinsicDef; 5] = [
    entry!("cp_reduce_async_bulk_tensor.1d.and", [U64, I32, U32],
        "cp.reduce.async.bulk.tensor.1d.global.shared::cta.and.tile.bulk_group [{a0}, {{{a1}}}], [{a2}]",
        AsyncOp::TensorStore { dims: 1, reduce: Some(BulkReduce::And) }),
    entry!("cp_reduce_async_bulk_tensor.2d.and", [U64, I32, I32, U32],
        "cp.reduce.async.bulk.tensor.2d.global.shared::cta.and.tile.bulk_group [{a0}, {{{a1}, {a2}}}], [{a3}]",
        AsyncOp::TensorStore { dims: 2, reduce: Some(BulkReduce::And) }),
    entry!("cp_reduce_async_bulk_tensor.3d.and", [U64, I32, I32, I32, U32],
        "cp.reduce.async.bulk.tensor.3d.global.shared::cta.and.tile.bulk_group [{a0}, {{{a1}, {a2}, {a3}}}], [{a4}]",
        AsyncOp::TensorStore { dims: 3, reduce: Some(BulkReduce::And) }),
    entry!("cp_reduce_async_bulk_tensor.4d.and", [U64, I32, I32, I32, I32, U32],
        "cp.reduce.async.bulk.tensor.4d.global.shared::cta.and.tile.bulk_group [{a0}, {{{a1}, {a2}, {a3}, {a4}}}], [{a5}]",
        AsyncOp::TensorStore { dims: 4, reduce: Some(BulkReduce::And) }),
    entry!("cp_reduce_async_bulk_tensor.5d.and", [U64, I32, I32, I32, I32, I32, U32],
        "cp.reduce.async.bulk.tensor.5d.global.shared::cta.and.tile.bulk_group [{a0}, {{{a1}, {a2}, {a3}, {a4}, {a5}}}], [{a6}]",
        AsyncOp::TensorStore { dims: 5, reduce: Some(BulkReduce::And) }),
];
/// Reductions `or`, 1-5 D: `[tmap, c0.., src]`.
static REDUCE_OR: [IntrinsicDef; 5] = [
    entry!("cp_reduce_async_bulk_tensor.1d.or", [U64, I32, U32],
        "cp.reduce.async.bulk.tensor.1d.global.shared::cta.or.tile.bulk_group [{a0}, {{{a1}}}], [{a2}]",
        AsyncOp::TensorStore { dims: 1, reduce: Some(BulkReduce::Or) }),
    entry!("cp_reduce_async_bulk_tensor.2d.or", [U64, I32, I32, U32],
        "cp.reduce.async.bulk.tensor.2d.global.shared::cta.or.tile.bulk_group [{a0}, {{{a1}, {a2}}}], [{a3}]",
        AsyncOp::TensorStore { dims: 2, reduce: Some(BulkReduce::Or) }),
    entry!("cp_reduce_async_bulk_tensor.3d.or", [U64, I32, I32, I32, U32],
        "cp.reduce.async.bulk.tensor.3d.global.shared::cta.or.tile.bulk_group [{a0}, {{{a1}, {a2}, {a3}}}], [{a4}]",
        AsyncOp::TensorStore { dims: 3, reduce: Some(BulkReduce::Or) }),
    entry!("cp_reduce_async_bulk_tensor.4d.or", [U64, I32, I32, I32, I32, U32],
        "cp.reduce.async.bulk.tensor.4d.global.shared::cta.or.tile.bulk_group [{a0}, {{{a1}, {a2}, {a3}, {a4}}}], [{a5}]",
        AsyncOp::TensorStore { dims: 4, reduce: Some(BulkReduce::Or) }),
    entry!("cp_reduce_async_bulk_tensor.5d.or", [U64, I32, I32, I32, I32, I32, U32],
        "cp.reduce.async.bulk.tensor.5d.global.shared::cta.or.tile.bulk_group [{a0}, {{{a1}, {a2}, {a3}, {a4}, {a5}}}], [{a6}]",
        AsyncOp::TensorStore { dims: 5, reduce: Some(BulkReduce::Or) }),
];
/// Reductions `xor`, 1-5 D: `[tmap, c0.., src]`.
static REDUCE_XOR: [IntrinsicDef; 5] = [
    entry!("cp_reduce_async_bulk_tensor.1d.xor", [U64, I32, U32],
        "cp.reduce.async.bulk.tensor.1d.global.shared::cta.xor.tile.bulk_group [{a0}, {{{a1}}}], [{a2}]",
        AsyncOp::TensorStore { dims: 1, reduce: Some(BulkReduce::Xor) }),
    entry!("cp_reduce_async_bulk_tensor.2d.xor", [U64, I32, I32, U32],
        "cp.reduce.async.bulk.tensor.2d.global.shared::cta.xor.tile.bulk_group [{a0}, {{{a1}, {a2}}}], [{a3}]",
        AsyncOp::TensorStore { dims: 2, reduce: Some(BulkReduce::Xor) }),
    entry!("cp_reduce_async_bulk_tensor.3d.xor", [U64, I32, I32, I32, U32],
        "cp.reduce.async.bulk.tensor.3d.global.shared::cta.xor.tile.bulk_group [{a0}, {{{a1}, {a2}, {a3}}}], [{a4}]",
        AsyncOp::TensorStore { dims: 3, reduce: Some(BulkReduce::Xor) }),
    entry!("cp_reduce_async_bulk_tensor.4d.xor", [U64, I32, I32, I32, I32, U32],
        "cp.reduce.async.bulk.tensor.4d.global.shared::cta.xor.tile.bulk_group [{a0}, {{{a1}, {a2}, {a3}, {a4}}}], [{a5}]",
        AsyncOp::TensorStore { dims: 4, reduce: Some(BulkReduce::Xor) }),
    entry!("cp_reduce_async_bulk_tensor.5d.xor", [U64, I32, I32, I32, I32, I32, U32],
        "cp.reduce.async.bulk.tensor.5d.global.shared::cta.xor.tile.bulk_group [{a0}, {{{a1}, {a2}, {a3}, {a4}, {a5}}}], [{a6}]",
        AsyncOp::TensorStore { dims: 5, reduce: Some(BulkReduce::Xor) }),
];
/// Non-tensor bulk reductions, one per operation and element type PTX defines: `[dst, src, bytes]`.
static BULK_REDUCE: [IntrinsicDef; 27] =
    [
        entry!(
            "cp_reduce_async_bulk.add.u32",
            [U64, U32, U32],
            "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [{a0}], [{a1}], {a2}",
            AsyncOp::BulkReduce {
                op: BulkReduce::Add,
                ty: Ty::U32
            }
        ),
        entry!(
            "cp_reduce_async_bulk.add.i32",
            [U64, U32, U32],
            "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.s32 [{a0}], [{a1}], {a2}",
            AsyncOp::BulkReduce {
                op: BulkReduce::Add,
                ty: Ty::I32
            }
        ),
        entry!(
            "cp_reduce_async_bulk.add.u64",
            [U64, U32, U32],
            "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u64 [{a0}], [{a1}], {a2}",
            AsyncOp::BulkReduce {
                op: BulkReduce::Add,
                ty: Ty::U64
            }
        ),
        entry!(
            "cp_reduce_async_bulk.add.f32",
            [U64, U32, U32],
            "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [{a0}], [{a1}], {a2}",
            AsyncOp::BulkReduce {
                op: BulkReduce::Add,
                ty: Ty::F32
            }
        ),
        entry!(
            "cp_reduce_async_bulk.add.f64",
            [U64, U32, U32],
            "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f64 [{a0}], [{a1}], {a2}",
            AsyncOp::BulkReduce {
                op: BulkReduce::Add,
                ty: Ty::F64
            }
        ),
        entry!(
            "cp_reduce_async_bulk.min.u32",
            [U64, U32, U32],
            "cp.reduce.async.bulk.global.shared::cta.bulk_group.min.u32 [{a0}], [{a1}], {a2}",
            AsyncOp::BulkReduce {
                op: BulkReduce::Min,
                ty: Ty::U32
            }
        ),
        entry!(
            "cp_reduce_async_bulk.min.i32",
            [U64, U32, U32],
            "cp.reduce.async.bulk.global.shared::cta.bulk_group.min.s32 [{a0}], [{a1}], {a2}",
            AsyncOp::BulkReduce {
                op: BulkReduce::Min,
                ty: Ty::I32
            }
        ),
        entry!(
            "cp_reduce_async_bulk.min.u64",
            [U64, U32, U32],
            "cp.reduce.async.bulk.global.shared::cta.bulk_group.min.u64 [{a0}], [{a1}], {a2}",
            AsyncOp::BulkReduce {
                op: BulkReduce::Min,
                ty: Ty::U64
            }
        ),
        entry!(
            "cp_reduce_async_bulk.min.i64",
            [U64, U32, U32],
            "cp.reduce.async.bulk.global.shared::cta.bulk_group.min.s64 [{a0}], [{a1}], {a2}",
            AsyncOp::BulkReduce {
                op: BulkReduce::Min,
                ty: Ty::I64
            }
        ),
        entry!(
            "cp_reduce_async_bulk.max.u32",
            [U64, U32, U32],
            "cp.reduce.async.bulk.global.shared::cta.bulk_group.max.u32 [{a0}], [{a1}], {a2}",
            AsyncOp::BulkReduce {
                op: BulkReduce::Max,
                ty: Ty::U32
            }
        ),
        entry!(
            "cp_reduce_async_bulk.max.i32",
            [U64, U32, U32],
            "cp.reduce.async.bulk.global.shared::cta.bulk_group.max.s32 [{a0}], [{a1}], {a2}",
            AsyncOp::BulkReduce {
                op: BulkReduce::Max,
                ty: Ty::I32
            }
        ),
        entry!(
            "cp_reduce_async_bulk.max.u64",
            [U64, U32, U32],
            "cp.reduce.async.bulk.global.shared::cta.bulk_group.max.u64 [{a0}], [{a1}], {a2}",
            AsyncOp::BulkReduce {
                op: BulkReduce::Max,
                ty: Ty::U64
            }
        ),
        entry!(
            "cp_reduce_async_bulk.max.i64",
            [U64, U32, U32],
            "cp.reduce.async.bulk.global.shared::cta.bulk_group.max.s64 [{a0}], [{a1}], {a2}",
            AsyncOp::BulkReduce {
                op: BulkReduce::Max,
                ty: Ty::I64
            }
        ),
        entry!(
            "cp_reduce_async_bulk.inc.u32",
            [U64, U32, U32],
            "cp.reduce.async.bulk.global.shared::cta.bulk_group.inc.u32 [{a0}], [{a1}], {a2}",
            AsyncOp::BulkReduce {
                op: BulkReduce::Inc,
                ty: Ty::U32
            }
        ),
        entry!(
            "cp_reduce_async_bulk.dec.u32",
            [U64, U32, U32],
            "cp.reduce.async.bulk.global.shared::cta.bulk_group.dec.u32 [{a0}], [{a1}], {a2}",
            AsyncOp::BulkReduce {
                op: BulkReduce::Dec,
                ty: Ty::U32
            }
        ),
        entry!(
            "cp_reduce_async_bulk.and.u32",
            [U64, U32, U32],
            "cp.reduce.async.bulk.global.shared::cta.bulk_group.and.b32 [{a0}], [{a1}], {a2}",
            AsyncOp::BulkReduce {
                op: BulkReduce::And,
                ty: Ty::U32
            }
        ),
        entry!(
            "cp_reduce_async_bulk.and.u64",
            [U64, U32, U32],
            "cp.reduce.async.bulk.global.shared::cta.bulk_group.and.b64 [{a0}], [{a1}], {a2}",
            AsyncOp::BulkReduce {
                op: BulkReduce::And,
                ty: Ty::U64
            }
        ),
        entry!(
            "cp_reduce_async_bulk.or.u32",
            [U64, U32, U32],
            "cp.reduce.async.bulk.global.shared::cta.bulk_group.or.b32 [{a0}], [{a1}], {a2}",
            AsyncOp::BulkReduce {
                op: BulkReduce::Or,
                ty: Ty::U32
            }
        ),
        entry!(
            "cp_reduce_async_bulk.or.u64",
            [U64, U32, U32],
            "cp.reduce.async.bulk.global.shared::cta.bulk_group.or.b64 [{a0}], [{a1}], {a2}",
            AsyncOp::BulkReduce {
                op: BulkReduce::Or,
                ty: Ty::U64
            }
        ),
        entry!(
            "cp_reduce_async_bulk.xor.u32",
            [U64, U32, U32],
            "cp.reduce.async.bulk.global.shared::cta.bulk_group.xor.b32 [{a0}], [{a1}], {a2}",
            AsyncOp::BulkReduce {
                op: BulkReduce::Xor,
                ty: Ty::U32
            }
        ),
        entry!(
            "cp_reduce_async_bulk.xor.u64",
            [U64, U32, U32],
            "cp.reduce.async.bulk.global.shared::cta.bulk_group.xor.b64 [{a0}], [{a1}], {a2}",
            AsyncOp::BulkReduce {
                op: BulkReduce::Xor,
                ty: Ty::U64
            }
        ),
        entry!(
            "cp_reduce_async_bulk.add.f16",
            [U64, U32, U32],
            "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.noftz.f16 [{a0}], [{a1}], {a2}",
            AsyncOp::BulkReduce {
                op: BulkReduce::Add,
                ty: Ty::F16
            }
        ),
        entry!("cp_reduce_async_bulk.add.bf16", [U64, U32, U32],
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.noftz.bf16 [{a0}], [{a1}], {a2}",
        AsyncOp::BulkReduce { op: BulkReduce::Add, ty: Ty::BF16 }),
        entry!(
            "cp_reduce_async_bulk.min.f16",
            [U64, U32, U32],
            "cp.reduce.async.bulk.global.shared::cta.bulk_group.min.f16 [{a0}], [{a1}], {a2}",
            AsyncOp::BulkReduce {
                op: BulkReduce::Min,
                ty: Ty::F16
            }
        ),
        entry!(
            "cp_reduce_async_bulk.min.bf16",
            [U64, U32, U32],
            "cp.reduce.async.bulk.global.shared::cta.bulk_group.min.bf16 [{a0}], [{a1}], {a2}",
            AsyncOp::BulkReduce {
                op: BulkReduce::Min,
                ty: Ty::BF16
            }
        ),
        entry!(
            "cp_reduce_async_bulk.max.f16",
            [U64, U32, U32],
            "cp.reduce.async.bulk.global.shared::cta.bulk_group.max.f16 [{a0}], [{a1}], {a2}",
            AsyncOp::BulkReduce {
                op: BulkReduce::Max,
                ty: Ty::F16
            }
        ),
        entry!(
            "cp_reduce_async_bulk.max.bf16",
            [U64, U32, U32],
            "cp.reduce.async.bulk.global.shared::cta.bulk_group.max.bf16 [{a0}], [{a1}], {a2}",
            AsyncOp::BulkReduce {
                op: BulkReduce::Max,
                ty: Ty::BF16
            }
        ),
    ];
static BULK_LOAD: IntrinsicDef = entry!("cp_async_bulk.load", [U32, U64, U32, U32],
    "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [{a0}], [{a1}], {a2}, [{a3}]",
    AsyncOp::BulkLoad);
static BULK_STORE: IntrinsicDef = entry!(
    "cp_async_bulk.store",
    [U64, U32, U32],
    "cp.async.bulk.global.shared::cta.bulk_group [{a0}], [{a1}], {a2}",
    AsyncOp::BulkStore
);
static PREFETCH: IntrinsicDef = entry!(
    "prefetch.tensormap",
    [U64],
    "prefetch.tensormap [{a0}]",
    AsyncOp::TensorPrefetch
);

/// One `cp.async.bulk.wait_group[.read] N` entry per immediate.
macro_rules! bulk_wait {
    ($read:literal, $suffix:literal, $($n:literal),*) => {
        [$(entry!(concat!("cp_async_bulk.wait_group", $suffix, ".", $n), [],
            concat!("cp.async.bulk.wait_group", $suffix, " ", $n),
            AsyncOp::BulkWait { n: $n, read: $read })),*]
    };
}
static WAIT: [IntrinsicDef; 8] = bulk_wait!(false, "", 0, 1, 2, 3, 4, 5, 6, 7);
static WAIT_READ: [IntrinsicDef; 8] = bulk_wait!(true, ".read", 0, 1, 2, 3, 4, 5, 6, 7);

fn sim_commit(e: &mut dyn SimEnv, a: &[u64], o: &mut [u64]) {
    e.async_op(AsyncOp::BulkCommit, a, o)
}
/// The simulator has one memory that every proxy sees: ordering the generic proxy's writes
/// before the async proxy's reads needs nothing more than the block barrier that follows.
fn sim_fence(_: &mut dyn SimEnv, _: &[u64], _: &mut [u64]) {}

use BulkArg::{Barrier as Bar, Scalar as S, TensorMap as Map, Tile};
const LOAD_TO: BulkArg = Tile { writes: true };
const STORE_FROM: BulkArg = Tile { writes: false };
const READ_MAP: BulkArg = Map { writes: false };
const WRITE_MAP: BulkArg = Map { writes: true };

intrinsics! {
    table TABLE;

    /// `cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes`
    /// (`cuda::device::experimental::cp_async_bulk_tensor_1d_global_to_shared`): loads the box
    /// at coordinates (c0) of `tmap` into `dst`, completing its bytes on `bar`'s current phase.
    pub fn cp_async_bulk_tensor_1d_global_to_shared<T: DeviceType>(dst: &mut T, tmap: &TensorMap, c0: i32, bar: &Barrier) = custom(
        Custom::Bulk(&LOAD[0], &[LOAD_TO, READ_MAP, S, Bar]),
        entries = ::core::slice::from_ref(&LOAD[0]),
    );
    /// `cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes`
    /// (`cuda::device::experimental::cp_async_bulk_tensor_2d_global_to_shared`): loads the box
    /// at coordinates (c0, c1) of `tmap` into `dst`, completing its bytes on `bar`'s current phase.
    pub fn cp_async_bulk_tensor_2d_global_to_shared<T: DeviceType>(dst: &mut T, tmap: &TensorMap, c0: i32, c1: i32, bar: &Barrier) = custom(
        Custom::Bulk(&LOAD[1], &[LOAD_TO, READ_MAP, S, S, Bar]),
        entries = ::core::slice::from_ref(&LOAD[1]),
    );
    /// `cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes`
    /// (`cuda::device::experimental::cp_async_bulk_tensor_3d_global_to_shared`): loads the box
    /// at coordinates (c0, c1, c2) of `tmap` into `dst`, completing its bytes on `bar`'s current phase.
    pub fn cp_async_bulk_tensor_3d_global_to_shared<T: DeviceType>(dst: &mut T, tmap: &TensorMap, c0: i32, c1: i32, c2: i32, bar: &Barrier) = custom(
        Custom::Bulk(&LOAD[2], &[LOAD_TO, READ_MAP, S, S, S, Bar]),
        entries = ::core::slice::from_ref(&LOAD[2]),
    );
    /// `cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes`
    /// (`cuda::device::experimental::cp_async_bulk_tensor_4d_global_to_shared`): loads the box
    /// at coordinates (c0, c1, c2, c3) of `tmap` into `dst`, completing its bytes on `bar`'s current phase.
    pub fn cp_async_bulk_tensor_4d_global_to_shared<T: DeviceType>(dst: &mut T, tmap: &TensorMap, c0: i32, c1: i32, c2: i32, c3: i32, bar: &Barrier) = custom(
        Custom::Bulk(&LOAD[3], &[LOAD_TO, READ_MAP, S, S, S, S, Bar]),
        entries = ::core::slice::from_ref(&LOAD[3]),
    );
    /// `cp.async.bulk.tensor.5d.shared::cluster.global.tile.mbarrier::complete_tx::bytes`
    /// (`cuda::device::experimental::cp_async_bulk_tensor_5d_global_to_shared`): loads the box
    /// at coordinates (c0, c1, c2, c3, c4) of `tmap` into `dst`, completing its bytes on `bar`'s current phase.
    pub fn cp_async_bulk_tensor_5d_global_to_shared<T: DeviceType>(dst: &mut T, tmap: &TensorMap, c0: i32, c1: i32, c2: i32, c3: i32, c4: i32, bar: &Barrier) = custom(
        Custom::Bulk(&LOAD[4], &[LOAD_TO, READ_MAP, S, S, S, S, S, Bar]),
        entries = ::core::slice::from_ref(&LOAD[4]),
    );
    /// The multicast form of `cp_async_bulk_tensor_1d_global_to_shared` (`.multicast::cluster`):
    /// the box lands at `dst`'s offset in the shared memory of every block of the cluster whose
    /// rank is set in `cta_mask`, and completes on the barrier at `bar`'s offset in each.
    pub fn cp_async_bulk_tensor_1d_global_to_shared_multicast<T: DeviceType>(dst: &mut T, tmap: &TensorMap, c0: i32, bar: &Barrier, cta_mask: u16) = custom(
        Custom::Bulk(&LOAD_MC[0], &[LOAD_TO, READ_MAP, S, Bar, S]),
        entries = ::core::slice::from_ref(&LOAD_MC[0]),
    );
    /// The multicast form of `cp_async_bulk_tensor_2d_global_to_shared` (`.multicast::cluster`):
    /// the box lands at `dst`'s offset in the shared memory of every block of the cluster whose
    /// rank is set in `cta_mask`, and completes on the barrier at `bar`'s offset in each.
    pub fn cp_async_bulk_tensor_2d_global_to_shared_multicast<T: DeviceType>(dst: &mut T, tmap: &TensorMap, c0: i32, c1: i32, bar: &Barrier, cta_mask: u16) = custom(
        Custom::Bulk(&LOAD_MC[1], &[LOAD_TO, READ_MAP, S, S, Bar, S]),
        entries = ::core::slice::from_ref(&LOAD_MC[1]),
    );
    /// The multicast form of `cp_async_bulk_tensor_3d_global_to_shared` (`.multicast::cluster`):
    /// the box lands at `dst`'s offset in the shared memory of every block of the cluster whose
    /// rank is set in `cta_mask`, and completes on the barrier at `bar`'s offset in each.
    pub fn cp_async_bulk_tensor_3d_global_to_shared_multicast<T: DeviceType>(dst: &mut T, tmap: &TensorMap, c0: i32, c1: i32, c2: i32, bar: &Barrier, cta_mask: u16) = custom(
        Custom::Bulk(&LOAD_MC[2], &[LOAD_TO, READ_MAP, S, S, S, Bar, S]),
        entries = ::core::slice::from_ref(&LOAD_MC[2]),
    );
    /// The multicast form of `cp_async_bulk_tensor_4d_global_to_shared` (`.multicast::cluster`):
    /// the box lands at `dst`'s offset in the shared memory of every block of the cluster whose
    /// rank is set in `cta_mask`, and completes on the barrier at `bar`'s offset in each.
    pub fn cp_async_bulk_tensor_4d_global_to_shared_multicast<T: DeviceType>(dst: &mut T, tmap: &TensorMap, c0: i32, c1: i32, c2: i32, c3: i32, bar: &Barrier, cta_mask: u16) = custom(
        Custom::Bulk(&LOAD_MC[3], &[LOAD_TO, READ_MAP, S, S, S, S, Bar, S]),
        entries = ::core::slice::from_ref(&LOAD_MC[3]),
    );
    /// The multicast form of `cp_async_bulk_tensor_5d_global_to_shared` (`.multicast::cluster`):
    /// the box lands at `dst`'s offset in the shared memory of every block of the cluster whose
    /// rank is set in `cta_mask`, and completes on the barrier at `bar`'s offset in each.
    pub fn cp_async_bulk_tensor_5d_global_to_shared_multicast<T: DeviceType>(dst: &mut T, tmap: &TensorMap, c0: i32, c1: i32, c2: i32, c3: i32, c4: i32, bar: &Barrier, cta_mask: u16) = custom(
        Custom::Bulk(&LOAD_MC[4], &[LOAD_TO, READ_MAP, S, S, S, S, S, Bar, S]),
        entries = ::core::slice::from_ref(&LOAD_MC[4]),
    );
    /// `cp.async.bulk.tensor.3d...im2col`: loads the im2col box of an im2col `tmap` (pixel at
    /// coordinates (c0 channel, then spatial, then image), filter offsets (o0)) into `dst`, completing on `bar`.
    pub fn cp_async_bulk_tensor_3d_global_to_shared_im2col<T: DeviceType>(dst: &mut T, tmap: &TensorMap, c0: i32, c1: i32, c2: i32, o0: u16, bar: &Barrier) = custom(
        Custom::Bulk(&LOAD_IM2COL[0], &[LOAD_TO, READ_MAP, S, S, S, S, Bar]),
        entries = ::core::slice::from_ref(&LOAD_IM2COL[0]),
    );
    /// `cp.async.bulk.tensor.4d...im2col`: loads the im2col box of an im2col `tmap` (pixel at
    /// coordinates (c0 channel, then spatial, then image), filter offsets (o0, o1)) into `dst`, completing on `bar`.
    pub fn cp_async_bulk_tensor_4d_global_to_shared_im2col<T: DeviceType>(dst: &mut T, tmap: &TensorMap, c0: i32, c1: i32, c2: i32, c3: i32, o0: u16, o1: u16, bar: &Barrier) = custom(
        Custom::Bulk(&LOAD_IM2COL[1], &[LOAD_TO, READ_MAP, S, S, S, S, S, S, Bar]),
        entries = ::core::slice::from_ref(&LOAD_IM2COL[1]),
    );
    /// `cp.async.bulk.tensor.5d...im2col`: loads the im2col box of an im2col `tmap` (pixel at
    /// coordinates (c0 channel, then spatial, then image), filter offsets (o0, o1, o2)) into `dst`, completing on `bar`.
    pub fn cp_async_bulk_tensor_5d_global_to_shared_im2col<T: DeviceType>(dst: &mut T, tmap: &TensorMap, c0: i32, c1: i32, c2: i32, c3: i32, c4: i32, o0: u16, o1: u16, o2: u16, bar: &Barrier) = custom(
        Custom::Bulk(&LOAD_IM2COL[2], &[LOAD_TO, READ_MAP, S, S, S, S, S, S, S, S, Bar]),
        entries = ::core::slice::from_ref(&LOAD_IM2COL[2]),
    );
    /// `cp.async.bulk.tensor.1d.global.shared::cta.tile.bulk_group`
    /// (`cp_async_bulk_tensor_1d_shared_to_global`): stores `src` as the box at (c0) of `tmap`
    /// (elements outside the tensor are not written); joins the thread's bulk group.
    pub fn cp_async_bulk_tensor_1d_shared_to_global<T: DeviceType>(tmap: &mut TensorMap, c0: i32, src: &T) = custom(
        Custom::Bulk(&STORE[0], &[WRITE_MAP, S, STORE_FROM]),
        entries = ::core::slice::from_ref(&STORE[0]),
    );
    /// `cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group`
    /// (`cp_async_bulk_tensor_2d_shared_to_global`): stores `src` as the box at (c0, c1) of `tmap`
    /// (elements outside the tensor are not written); joins the thread's bulk group.
    pub fn cp_async_bulk_tensor_2d_shared_to_global<T: DeviceType>(tmap: &mut TensorMap, c0: i32, c1: i32, src: &T) = custom(
        Custom::Bulk(&STORE[1], &[WRITE_MAP, S, S, STORE_FROM]),
        entries = ::core::slice::from_ref(&STORE[1]),
    );
    /// `cp.async.bulk.tensor.3d.global.shared::cta.tile.bulk_group`
    /// (`cp_async_bulk_tensor_3d_shared_to_global`): stores `src` as the box at (c0, c1, c2) of `tmap`
    /// (elements outside the tensor are not written); joins the thread's bulk group.
    pub fn cp_async_bulk_tensor_3d_shared_to_global<T: DeviceType>(tmap: &mut TensorMap, c0: i32, c1: i32, c2: i32, src: &T) = custom(
        Custom::Bulk(&STORE[2], &[WRITE_MAP, S, S, S, STORE_FROM]),
        entries = ::core::slice::from_ref(&STORE[2]),
    );
    /// `cp.async.bulk.tensor.4d.global.shared::cta.tile.bulk_group`
    /// (`cp_async_bulk_tensor_4d_shared_to_global`): stores `src` as the box at (c0, c1, c2, c3) of `tmap`
    /// (elements outside the tensor are not written); joins the thread's bulk group.
    pub fn cp_async_bulk_tensor_4d_shared_to_global<T: DeviceType>(tmap: &mut TensorMap, c0: i32, c1: i32, c2: i32, c3: i32, src: &T) = custom(
        Custom::Bulk(&STORE[3], &[WRITE_MAP, S, S, S, S, STORE_FROM]),
        entries = ::core::slice::from_ref(&STORE[3]),
    );
    /// `cp.async.bulk.tensor.5d.global.shared::cta.tile.bulk_group`
    /// (`cp_async_bulk_tensor_5d_shared_to_global`): stores `src` as the box at (c0, c1, c2, c3, c4) of `tmap`
    /// (elements outside the tensor are not written); joins the thread's bulk group.
    pub fn cp_async_bulk_tensor_5d_shared_to_global<T: DeviceType>(tmap: &mut TensorMap, c0: i32, c1: i32, c2: i32, c3: i32, c4: i32, src: &T) = custom(
        Custom::Bulk(&STORE[4], &[WRITE_MAP, S, S, S, S, S, STORE_FROM]),
        entries = ::core::slice::from_ref(&STORE[4]),
    );
    /// `cp.reduce.async.bulk.tensor.1d.global.shared::cta.add.tile.bulk_group`: each element of
    /// the box at (c0) of `tmap` becomes the add of itself and `src`'s; joins the bulk group.
    pub fn cp_reduce_async_bulk_tensor_1d_add<T: DeviceType>(tmap: &mut TensorMap, c0: i32, src: &T) = custom(
        Custom::Bulk(&REDUCE_ADD[0], &[WRITE_MAP, S, STORE_FROM]),
        entries = ::core::slice::from_ref(&REDUCE_ADD[0]),
    );
    /// `cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group`: each element of
    /// the box at (c0, c1) of `tmap` becomes the add of itself and `src`'s; joins the bulk group.
    pub fn cp_reduce_async_bulk_tensor_2d_add<T: DeviceType>(tmap: &mut TensorMap, c0: i32, c1: i32, src: &T) = custom(
        Custom::Bulk(&REDUCE_ADD[1], &[WRITE_MAP, S, S, STORE_FROM]),
        entries = ::core::slice::from_ref(&REDUCE_ADD[1]),
    );
    /// `cp.reduce.async.bulk.tensor.3d.global.shared::cta.add.tile.bulk_group`: each element of
    /// the box at (c0, c1, c2) of `tmap` becomes the add of itself and `src`'s; joins the bulk group.
    pub fn cp_reduce_async_bulk_tensor_3d_add<T: DeviceType>(tmap: &mut TensorMap, c0: i32, c1: i32, c2: i32, src: &T) = custom(
        Custom::Bulk(&REDUCE_ADD[2], &[WRITE_MAP, S, S, S, STORE_FROM]),
        entries = ::core::slice::from_ref(&REDUCE_ADD[2]),
    );
    /// `cp.reduce.async.bulk.tensor.4d.global.shared::cta.add.tile.bulk_group`: each element of
    /// the box at (c0, c1, c2, c3) of `tmap` becomes the add of itself and `src`'s; joins the bulk group.
    pub fn cp_reduce_async_bulk_tensor_4d_add<T: DeviceType>(tmap: &mut TensorMap, c0: i32, c1: i32, c2: i32, c3: i32, src: &T) = custom(
        Custom::Bulk(&REDUCE_ADD[3], &[WRITE_MAP, S, S, S, S, STORE_FROM]),
        entries = ::core::slice::from_ref(&REDUCE_ADD[3]),
    );
    /// `cp.reduce.async.bulk.tensor.5d.global.shared::cta.add.tile.bulk_group`: each element of
    /// the box at (c0, c1, c2, c3, c4) of `tmap` becomes the add of itself and `src`'s; joins the bulk group.
    pub fn cp_reduce_async_bulk_tensor_5d_add<T: DeviceType>(tmap: &mut TensorMap, c0: i32, c1: i32, c2: i32, c3: i32, c4: i32, src: &T) = custom(
        Custom::Bulk(&REDUCE_ADD[4], &[WRITE_MAP, S, S, S, S, S, STORE_FROM]),
        entries = ::core::slice::from_ref(&REDUCE_ADD[4]),
    );
    /// `cp.reduce.async.bulk.tensor.1d.global.shared::cta.min.tile.bulk_group`: each element of
    /// the box at (c0) of `tmap` becomes the min of itself and `src`'s; joins the bulk group.
    pub fn cp_reduce_async_bulk_tensor_1d_min<T: DeviceType>(tmap: &mut TensorMap, c0: i32, src: &T) = custom(
        Custom::Bulk(&REDUCE_MIN[0], &[WRITE_MAP, S, STORE_FROM]),
        entries = ::core::slice::from_ref(&REDUCE_MIN[0]),
    );
    /// `cp.reduce.async.bulk.tensor.2d.global.shared::cta.min.tile.bulk_group`: each element of
    /// the box at (c0, c1) of `tmap` becomes the min of itself and `src`'s; joins the bulk group.
    pub fn cp_reduce_async_bulk_tensor_2d_min<T: DeviceType>(tmap: &mut TensorMap, c0: i32, c1: i32, src: &T) = custom(
        Custom::Bulk(&REDUCE_MIN[1], &[WRITE_MAP, S, S, STORE_FROM]),
        entries = ::core::slice::from_ref(&REDUCE_MIN[1]),
    );
    /// `cp.reduce.async.bulk.tensor.3d.global.shared::cta.min.tile.bulk_group`: each element of
    /// the box at (c0, c1, c2) of `tmap` becomes the min of itself and `src`'s; joins the bulk group.
    pub fn cp_reduce_async_bulk_tensor_3d_min<T: DeviceType>(tmap: &mut TensorMap, c0: i32, c1: i32, c2: i32, src: &T) = custom(
        Custom::Bulk(&REDUCE_MIN[2], &[WRITE_MAP, S, S, S, STORE_FROM]),
        entries = ::core::slice::from_ref(&REDUCE_MIN[2]),
    );
    /// `cp.reduce.async.bulk.tensor.4d.global.shared::cta.min.tile.bulk_group`: each element of
    /// the box at (c0, c1, c2, c3) of `tmap` becomes the min of itself and `src`'s; joins the bulk group.
    pub fn cp_reduce_async_bulk_tensor_4d_min<T: DeviceType>(tmap: &mut TensorMap, c0: i32, c1: i32, c2: i32, c3: i32, src: &T) = custom(
        Custom::Bulk(&REDUCE_MIN[3], &[WRITE_MAP, S, S, S, S, STORE_FROM]),
        entries = ::core::slice::from_ref(&REDUCE_MIN[3]),
    );
    /// `cp.reduce.async.bulk.tensor.5d.global.shared::cta.min.tile.bulk_group`: each element of
    /// the box at (c0, c1, c2, c3, c4) of `tmap` becomes the min of itself and `src`'s; joins the bulk group.
    pub fn cp_reduce_async_bulk_tensor_5d_min<T: DeviceType>(tmap: &mut TensorMap, c0: i32, c1: i32, c2: i32, c3: i32, c4: i32, src: &T) = custom(
        Custom::Bulk(&REDUCE_MIN[4], &[WRITE_MAP, S, S, S, S, S, STORE_FROM]),
        entries = ::core::slice::from_ref(&REDUCE_MIN[4]),
    );
    /// `cp.reduce.async.bulk.tensor.1d.global.shared::cta.max.tile.bulk_group`: each element of
    /// the box at (c0) of `tmap` becomes the max of itself and `src`'s; joins the bulk group.
    pub fn cp_reduce_async_bulk_tensor_1d_max<T: DeviceType>(tmap: &mut TensorMap, c0: i32, src: &T) = custom(
        Custom::Bulk(&REDUCE_MAX[0], &[WRITE_MAP, S, STORE_FROM]),
        entries = ::core::slice::from_ref(&REDUCE_MAX[0]),
    );
    /// `cp.reduce.async.bulk.tensor.2d.global.shared::cta.max.tile.bulk_group`: each element of
    /// the box at (c0, c1) of `tmap` becomes the max of itself and `src`'s; joins the bulk group.
    pub fn cp_reduce_async_bulk_tensor_2d_max<T: DeviceType>(tmap: &mut TensorMap, c0: i32, c1: i32, src: &T) = custom(
        Custom::Bulk(&REDUCE_MAX[1], &[WRITE_MAP, S, S, STORE_FROM]),
        entries = ::core::slice::from_ref(&REDUCE_MAX[1]),
    );
    /// `cp.reduce.async.bulk.tensor.3d.global.shared::cta.max.tile.bulk_group`: each element of
    /// the box at (c0, c1, c2) of `tmap` becomes the max of itself and `src`'s; joins the bulk group.
    pub fn cp_reduce_async_bulk_tensor_3d_max<T: DeviceType>(tmap: &mut TensorMap, c0: i32, c1: i32, c2: i32, src: &T) = custom(
        Custom::Bulk(&REDUCE_MAX[2], &[WRITE_MAP, S, S, S, STORE_FROM]),
        entries = ::core::slice::from_ref(&REDUCE_MAX[2]),
    );
    /// `cp.reduce.async.bulk.tensor.4d.global.shared::cta.max.tile.bulk_group`: each element of
    /// the box at (c0, c1, c2, c3) of `tmap` becomes the max of itself and `src`'s; joins the bulk group.
    pub fn cp_reduce_async_bulk_tensor_4d_max<T: DeviceType>(tmap: &mut TensorMap, c0: i32, c1: i32, c2: i32, c3: i32, src: &T) = custom(
        Custom::Bulk(&REDUCE_MAX[3], &[WRITE_MAP, S, S, S, S, STORE_FROM]),
        entries = ::core::slice::from_ref(&REDUCE_MAX[3]),
    );
    /// `cp.reduce.async.bulk.tensor.5d.global.shared::cta.max.tile.bulk_group`: each element of
    /// the box at (c0, c1, c2, c3, c4) of `tmap` becomes the max of itself and `src`'s; joins the bulk group.
    pub fn cp_reduce_async_bulk_tensor_5d_max<T: DeviceType>(tmap: &mut TensorMap, c0: i32, c1: i32, c2: i32, c3: i32, c4: i32, src: &T) = custom(
        Custom::Bulk(&REDUCE_MAX[4], &[WRITE_MAP, S, S, S, S, S, STORE_FROM]),
        entries = ::core::slice::from_ref(&REDUCE_MAX[4]),
    );
    /// `cp.reduce.async.bulk.tensor.1d.global.shared::cta.inc.tile.bulk_group`: each element
    /// `old` of the box at (c0) of `tmap` becomes `old >= src ? 0 : old + 1` (`u32` maps only); joins the bulk group.
    pub fn cp_reduce_async_bulk_tensor_1d_inc<T: DeviceType>(tmap: &mut TensorMap, c0: i32, src: &T) = custom(
        Custom::Bulk(&REDUCE_INC[0], &[WRITE_MAP, S, STORE_FROM]),
        entries = ::core::slice::from_ref(&REDUCE_INC[0]),
    );
    /// `cp.reduce.async.bulk.tensor.2d.global.shared::cta.inc.tile.bulk_group`: each element
    /// `old` of the box at (c0, c1) of `tmap` becomes `old >= src ? 0 : old + 1` (`u32` maps only); joins the bulk group.
    pub fn cp_reduce_async_bulk_tensor_2d_inc<T: DeviceType>(tmap: &mut TensorMap, c0: i32, c1: i32, src: &T) = custom(
        Custom::Bulk(&REDUCE_INC[1], &[WRITE_MAP, S, S, STORE_FROM]),
        entries = ::core::slice::from_ref(&REDUCE_INC[1]),
    );
    /// `cp.reduce.async.bulk.tensor.3d.global.shared::cta.inc.tile.bulk_group`: each element
    /// `old` of the box at (c0, c1, c2) of `tmap` becomes `old >= src ? 0 : old + 1` (`u32` maps only); joins the bulk group.
    pub fn cp_reduce_async_bulk_tensor_3d_inc<T: DeviceType>(tmap: &mut TensorMap, c0: i32, c1: i32, c2: i32, src: &T) = custom(
        Custom::Bulk(&REDUCE_INC[2], &[WRITE_MAP, S, S, S, STORE_FROM]),
        entries = ::core::slice::from_ref(&REDUCE_INC[2]),
    );
    /// `cp.reduce.async.bulk.tensor.4d.global.shared::cta.inc.tile.bulk_group`: each element
    /// `old` of the box at (c0, c1, c2, c3) of `tmap` becomes `old >= src ? 0 : old + 1` (`u32` maps only); joins the bulk group.
    pub fn cp_reduce_async_bulk_tensor_4d_inc<T: DeviceType>(tmap: &mut TensorMap, c0: i32, c1: i32, c2: i32, c3: i32, src: &T) = custom(
        Custom::Bulk(&REDUCE_INC[3], &[WRITE_MAP, S, S, S, S, STORE_FROM]),
        entries = ::core::slice::from_ref(&REDUCE_INC[3]),
    );
    /// `cp.reduce.async.bulk.tensor.5d.global.shared::cta.inc.tile.bulk_group`: each element
    /// `old` of the box at (c0, c1, c2, c3, c4) of `tmap` becomes `old >= src ? 0 : old + 1` (`u32` maps only); joins the bulk group.
    pub fn cp_reduce_async_bulk_tensor_5d_inc<T: DeviceType>(tmap: &mut TensorMap, c0: i32, c1: i32, c2: i32, c3: i32, c4: i32, src: &T) = custom(
        Custom::Bulk(&REDUCE_INC[4], &[WRITE_MAP, S, S, S, S, S, STORE_FROM]),
        entries = ::core::slice::from_ref(&REDUCE_INC[4]),
    );
    /// `cp.reduce.async.bulk.tensor.1d.global.shared::cta.dec.tile.bulk_group`: each element
    /// `old` of the box at (c0) of `tmap` becomes `old == 0 || old > src ? src : old - 1` (`u32` maps only); joins the bulk group.
    pub fn cp_reduce_async_bulk_tensor_1d_dec<T: DeviceType>(tmap: &mut TensorMap, c0: i32, src: &T) = custom(
        Custom::Bulk(&REDUCE_DEC[0], &[WRITE_MAP, S, STORE_FROM]),
        entries = ::core::slice::from_ref(&REDUCE_DEC[0]),
    );
    /// `cp.reduce.async.bulk.tensor.2d.global.shared::cta.dec.tile.bulk_group`: each element
    /// `old` of the box at (c0, c1) of `tmap` becomes `old == 0 || old > src ? src : old - 1` (`u32` maps only); joins the bulk group.
    pub fn cp_reduce_async_bulk_tensor_2d_dec<T: DeviceType>(tmap: &mut TensorMap, c0: i32, c1: i32, src: &T) = custom(
        Custom::Bulk(&REDUCE_DEC[1], &[WRITE_MAP, S, S, STORE_FROM]),
        entries = ::core::slice::from_ref(&REDUCE_DEC[1]),
    );
    /// `cp.reduce.async.bulk.tensor.3d.global.shared::cta.dec.tile.bulk_group`: each element
    /// `old` of the box at (c0, c1, c2) of `tmap` becomes `old == 0 || old > src ? src : old - 1` (`u32` maps only); joins the bulk group.
    pub fn cp_reduce_async_bulk_tensor_3d_dec<T: DeviceType>(tmap: &mut TensorMap, c0: i32, c1: i32, c2: i32, src: &T) = custom(
        Custom::Bulk(&REDUCE_DEC[2], &[WRITE_MAP, S, S, S, STORE_FROM]),
        entries = ::core::slice::from_ref(&REDUCE_DEC[2]),
    );
    /// `cp.reduce.async.bulk.tensor.4d.global.shared::cta.dec.tile.bulk_group`: each element
    /// `old` of the box at (c0, c1, c2, c3) of `tmap` becomes `old == 0 || old > src ? src : old - 1` (`u32` maps only); joins the bulk group.
    pub fn cp_reduce_async_bulk_tensor_4d_dec<T: DeviceType>(tmap: &mut TensorMap, c0: i32, c1: i32, c2: i32, c3: i32, src: &T) = custom(
        Custom::Bulk(&REDUCE_DEC[3], &[WRITE_MAP, S, S, S, S, STORE_FROM]),
        entries = ::core::slice::from_ref(&REDUCE_DEC[3]),
    );
    /// `cp.reduce.async.bulk.tensor.5d.global.shared::cta.dec.tile.bulk_group`: each element
    /// `old` of the box at (c0, c1, c2, c3, c4) of `tmap` becomes `old == 0 || old > src ? src : old - 1` (`u32` maps only); joins the bulk group.
    pub fn cp_reduce_async_bulk_tensor_5d_dec<T: DeviceType>(tmap: &mut TensorMap, c0: i32, c1: i32, c2: i32, c3: i32, c4: i32, src: &T) = custom(
        Custom::Bulk(&REDUCE_DEC[4], &[WRITE_MAP, S, S, S, S, S, STORE_FROM]),
        entries = ::core::slice::from_ref(&REDUCE_DEC[4]),
    );
    /// `cp.reduce.async.bulk.tensor.1d.global.shared::cta.and.tile.bulk_group`: each element
    /// `old` of the box at (c0) of `tmap` becomes `old & src` (32- and 64-bit integer maps only); joins the bulk group.
    pub fn cp_reduce_async_bulk_tensor_1d_and<T: DeviceType>(tmap: &mut TensorMap, c0: i32, src: &T) = custom(
        Custom::Bulk(&REDUCE_AND[0], &[WRITE_MAP, S, STORE_FROM]),
        entries = ::core::slice::from_ref(&REDUCE_AND[0]),
    );
    /// `cp.reduce.async.bulk.tensor.2d.global.shared::cta.and.tile.bulk_group`: each element
    /// `old` of the box at (c0, c1) of `tmap` becomes `old & src` (32- and 64-bit integer maps only); joins the bulk group.
    pub fn cp_reduce_async_bulk_tensor_2d_and<T: DeviceType>(tmap: &mut TensorMap, c0: i32, c1: i32, src: &T) = custom(
        Custom::Bulk(&REDUCE_AND[1], &[WRITE_MAP, S, S, STORE_FROM]),
        entries = ::core::slice::from_ref(&REDUCE_AND[1]),
    );
    /// `cp.reduce.async.bulk.tensor.3d.global.shared::cta.and.tile.bulk_group`: each element
    /// `old` of the box at (c0, c1, c2) of `tmap` becomes `old & src` (32- and 64-bit integer maps only); joins the bulk group.
    pub fn cp_reduce_async_bulk_tensor_3d_and<T: DeviceType>(tmap: &mut TensorMap, c0: i32, c1: i32, c2: i32, src: &T) = custom(
        Custom::Bulk(&REDUCE_AND[2], &[WRITE_MAP, S, S, S, STORE_FROM]),
        entries = ::core::slice::from_ref(&REDUCE_AND[2]),
    );
    /// `cp.reduce.async.bulk.tensor.4d.global.shared::cta.and.tile.bulk_group`: each element
    /// `old` of the box at (c0, c1, c2, c3) of `tmap` becomes `old & src` (32- and 64-bit integer maps only); joins the bulk group.
    pub fn cp_reduce_async_bulk_tensor_4d_and<T: DeviceType>(tmap: &mut TensorMap, c0: i32, c1: i32, c2: i32, c3: i32, src: &T) = custom(
        Custom::Bulk(&REDUCE_AND[3], &[WRITE_MAP, S, S, S, S, STORE_FROM]),
        entries = ::core::slice::from_ref(&REDUCE_AND[3]),
    );
    /// `cp.reduce.async.bulk.tensor.5d.global.shared::cta.and.tile.bulk_group`: each element
    /// `old` of the box at (c0, c1, c2, c3, c4) of `tmap` becomes `old & src` (32- and 64-bit integer maps only); joins the bulk group.
    pub fn cp_reduce_async_bulk_tensor_5d_and<T: DeviceType>(tmap: &mut TensorMap, c0: i32, c1: i32, c2: i32, c3: i32, c4: i32, src: &T) = custom(
        Custom::Bulk(&REDUCE_AND[4], &[WRITE_MAP, S, S, S, S, S, STORE_FROM]),
        entries = ::core::slice::from_ref(&REDUCE_AND[4]),
    );
    /// `cp.reduce.async.bulk.tensor.1d.global.shared::cta.or.tile.bulk_group`: each element
    /// `old` of the box at (c0) of `tmap` becomes `old | src` (32- and 64-bit integer maps only); joins the bulk group.
    pub fn cp_reduce_async_bulk_tensor_1d_or<T: DeviceType>(tmap: &mut TensorMap, c0: i32, src: &T) = custom(
        Custom::Bulk(&REDUCE_OR[0], &[WRITE_MAP, S, STORE_FROM]),
        entries = ::core::slice::from_ref(&REDUCE_OR[0]),
    );
    /// `cp.reduce.async.bulk.tensor.2d.global.shared::cta.or.tile.bulk_group`: each element
    /// `old` of the box at (c0, c1) of `tmap` becomes `old | src` (32- and 64-bit integer maps only); joins the bulk group.
    pub fn cp_reduce_async_bulk_tensor_2d_or<T: DeviceType>(tmap: &mut TensorMap, c0: i32, c1: i32, src: &T) = custom(
        Custom::Bulk(&REDUCE_OR[1], &[WRITE_MAP, S, S, STORE_FROM]),
        entries = ::core::slice::from_ref(&REDUCE_OR[1]),
    );
    /// `cp.reduce.async.bulk.tensor.3d.global.shared::cta.or.tile.bulk_group`: each element
    /// `old` of the box at (c0, c1, c2) of `tmap` becomes `old | src` (32- and 64-bit integer maps only); joins the bulk group.
    pub fn cp_reduce_async_bulk_tensor_3d_or<T: DeviceType>(tmap: &mut TensorMap, c0: i32, c1: i32, c2: i32, src: &T) = custom(
        Custom::Bulk(&REDUCE_OR[2], &[WRITE_MAP, S, S, S, STORE_FROM]),
        entries = ::core::slice::from_ref(&REDUCE_OR[2]),
    );
    /// `cp.reduce.async.bulk.tensor.4d.global.shared::cta.or.tile.bulk_group`: each element
    /// `old` of the box at (c0, c1, c2, c3) of `tmap` becomes `old | src` (32- and 64-bit integer maps only); joins the bulk group.
    pub fn cp_reduce_async_bulk_tensor_4d_or<T: DeviceType>(tmap: &mut TensorMap, c0: i32, c1: i32, c2: i32, c3: i32, src: &T) = custom(
        Custom::Bulk(&REDUCE_OR[3], &[WRITE_MAP, S, S, S, S, STORE_FROM]),
        entries = ::core::slice::from_ref(&REDUCE_OR[3]),
    );
    /// `cp.reduce.async.bulk.tensor.5d.global.shared::cta.or.tile.bulk_group`: each element
    /// `old` of the box at (c0, c1, c2, c3, c4) of `tmap` becomes `old | src` (32- and 64-bit integer maps only); joins the bulk group.
    pub fn cp_reduce_async_bulk_tensor_5d_or<T: DeviceType>(tmap: &mut TensorMap, c0: i32, c1: i32, c2: i32, c3: i32, c4: i32, src: &T) = custom(
        Custom::Bulk(&REDUCE_OR[4], &[WRITE_MAP, S, S, S, S, S, STORE_FROM]),
        entries = ::core::slice::from_ref(&REDUCE_OR[4]),
    );
    /// `cp.reduce.async.bulk.tensor.1d.global.shared::cta.xor.tile.bulk_group`: each element
    /// `old` of the box at (c0) of `tmap` becomes `old ^ src` (32- and 64-bit integer maps only); joins the bulk group.
    pub fn cp_reduce_async_bulk_tensor_1d_xor<T: DeviceType>(tmap: &mut TensorMap, c0: i32, src: &T) = custom(
        Custom::Bulk(&REDUCE_XOR[0], &[WRITE_MAP, S, STORE_FROM]),
        entries = ::core::slice::from_ref(&REDUCE_XOR[0]),
    );
    /// `cp.reduce.async.bulk.tensor.2d.global.shared::cta.xor.tile.bulk_group`: each element
    /// `old` of the box at (c0, c1) of `tmap` becomes `old ^ src` (32- and 64-bit integer maps only); joins the bulk group.
    pub fn cp_reduce_async_bulk_tensor_2d_xor<T: DeviceType>(tmap: &mut TensorMap, c0: i32, c1: i32, src: &T) = custom(
        Custom::Bulk(&REDUCE_XOR[1], &[WRITE_MAP, S, S, STORE_FROM]),
        entries = ::core::slice::from_ref(&REDUCE_XOR[1]),
    );
    /// `cp.reduce.async.bulk.tensor.3d.global.shared::cta.xor.tile.bulk_group`: each element
    /// `old` of the box at (c0, c1, c2) of `tmap` becomes `old ^ src` (32- and 64-bit integer maps only); joins the bulk group.
    pub fn cp_reduce_async_bulk_tensor_3d_xor<T: DeviceType>(tmap: &mut TensorMap, c0: i32, c1: i32, c2: i32, src: &T) = custom(
        Custom::Bulk(&REDUCE_XOR[2], &[WRITE_MAP, S, S, S, STORE_FROM]),
        entries = ::core::slice::from_ref(&REDUCE_XOR[2]),
    );
    /// `cp.reduce.async.bulk.tensor.4d.global.shared::cta.xor.tile.bulk_group`: each element
    /// `old` of the box at (c0, c1, c2, c3) of `tmap` becomes `old ^ src` (32- and 64-bit integer maps only); joins the bulk group.
    pub fn cp_reduce_async_bulk_tensor_4d_xor<T: DeviceType>(tmap: &mut TensorMap, c0: i32, c1: i32, c2: i32, c3: i32, src: &T) = custom(
        Custom::Bulk(&REDUCE_XOR[3], &[WRITE_MAP, S, S, S, S, STORE_FROM]),
        entries = ::core::slice::from_ref(&REDUCE_XOR[3]),
    );
    /// `cp.reduce.async.bulk.tensor.5d.global.shared::cta.xor.tile.bulk_group`: each element
    /// `old` of the box at (c0, c1, c2, c3, c4) of `tmap` becomes `old ^ src` (32- and 64-bit integer maps only); joins the bulk group.
    pub fn cp_reduce_async_bulk_tensor_5d_xor<T: DeviceType>(tmap: &mut TensorMap, c0: i32, c1: i32, c2: i32, c3: i32, c4: i32, src: &T) = custom(
        Custom::Bulk(&REDUCE_XOR[4], &[WRITE_MAP, S, S, S, S, S, STORE_FROM]),
        entries = ::core::slice::from_ref(&REDUCE_XOR[4]),
    );
    /// `cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32`: each element `old` of
    /// `dst` becomes `old + src` of the same element of `src` (slices of the same length, a
    /// multiple of 16 bytes, both 16-byte aligned); joins the thread's bulk group.
    pub fn cp_reduce_async_bulk_add_u32(dst: &mut [u32], src: &[u32]) = custom(
        Custom::BulkCopy { def: &BULK_REDUCE[0], to_shared: false },
        entries = ::core::slice::from_ref(&BULK_REDUCE[0]),
    );
    /// `cp.reduce.async.bulk.global.shared::cta.bulk_group.add.s32`: each element `old` of
    /// `dst` becomes `old + src` of the same element of `src` (slices of the same length, a
    /// multiple of 16 bytes, both 16-byte aligned); joins the thread's bulk group.
    pub fn cp_reduce_async_bulk_add_i32(dst: &mut [i32], src: &[i32]) = custom(
        Custom::BulkCopy { def: &BULK_REDUCE[1], to_shared: false },
        entries = ::core::slice::from_ref(&BULK_REDUCE[1]),
    );
    /// `cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u64`: each element `old` of
    /// `dst` becomes `old + src` of the same element of `src` (slices of the same length, a
    /// multiple of 16 bytes, both 16-byte aligned); joins the thread's bulk group.
    pub fn cp_reduce_async_bulk_add_u64(dst: &mut [u64], src: &[u64]) = custom(
        Custom::BulkCopy { def: &BULK_REDUCE[2], to_shared: false },
        entries = ::core::slice::from_ref(&BULK_REDUCE[2]),
    );
    /// `cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32`: each element `old` of
    /// `dst` becomes `old + src` of the same element of `src` (slices of the same length, a
    /// multiple of 16 bytes, both 16-byte aligned); joins the thread's bulk group.
    pub fn cp_reduce_async_bulk_add_f32(dst: &mut [f32], src: &[f32]) = custom(
        Custom::BulkCopy { def: &BULK_REDUCE[3], to_shared: false },
        entries = ::core::slice::from_ref(&BULK_REDUCE[3]),
    );
    /// `cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f64`: each element `old` of
    /// `dst` becomes `old + src` of the same element of `src` (slices of the same length, a
    /// multiple of 16 bytes, both 16-byte aligned); joins the thread's bulk group.
    pub fn cp_reduce_async_bulk_add_f64(dst: &mut [f64], src: &[f64]) = custom(
        Custom::BulkCopy { def: &BULK_REDUCE[4], to_shared: false },
        entries = ::core::slice::from_ref(&BULK_REDUCE[4]),
    );
    /// `cp.reduce.async.bulk.global.shared::cta.bulk_group.min.u32`: each element `old` of
    /// `dst` becomes `min(old, src)` of the same element of `src` (slices of the same length, a
    /// multiple of 16 bytes, both 16-byte aligned); joins the thread's bulk group.
    pub fn cp_reduce_async_bulk_min_u32(dst: &mut [u32], src: &[u32]) = custom(
        Custom::BulkCopy { def: &BULK_REDUCE[5], to_shared: false },
        entries = ::core::slice::from_ref(&BULK_REDUCE[5]),
    );
    /// `cp.reduce.async.bulk.global.shared::cta.bulk_group.min.s32`: each element `old` of
    /// `dst` becomes `min(old, src)` of the same element of `src` (slices of the same length, a
    /// multiple of 16 bytes, both 16-byte aligned); joins the thread's bulk group.
    pub fn cp_reduce_async_bulk_min_i32(dst: &mut [i32], src: &[i32]) = custom(
        Custom::BulkCopy { def: &BULK_REDUCE[6], to_shared: false },
        entries = ::core::slice::from_ref(&BULK_REDUCE[6]),
    );
    /// `cp.reduce.async.bulk.global.shared::cta.bulk_group.min.u64`: each element `old` of
    /// `dst` becomes `min(old, src)` of the same element of `src` (slices of the same length, a
    /// multiple of 16 bytes, both 16-byte aligned); joins the thread's bulk group.
    pub fn cp_reduce_async_bulk_min_u64(dst: &mut [u64], src: &[u64]) = custom(
        Custom::BulkCopy { def: &BULK_REDUCE[7], to_shared: false },
        entries = ::core::slice::from_ref(&BULK_REDUCE[7]),
    );
    /// `cp.reduce.async.bulk.global.shared::cta.bulk_group.min.s64`: each element `old` of
    /// `dst` becomes `min(old, src)` of the same element of `src` (slices of the same length, a
    /// multiple of 16 bytes, both 16-byte aligned); joins the thread's bulk group.
    pub fn cp_reduce_async_bulk_min_i64(dst: &mut [i64], src: &[i64]) = custom(
        Custom::BulkCopy { def: &BULK_REDUCE[8], to_shared: false },
        entries = ::core::slice::from_ref(&BULK_REDUCE[8]),
    );
    /// `cp.reduce.async.bulk.global.shared::cta.bulk_group.max.u32`: each element `old` of
    /// `dst` becomes `max(old, src)` of the same element of `src` (slices of the same length, a
    /// multiple of 16 bytes, both 16-byte aligned); joins the thread's bulk group.
    pub fn cp_reduce_async_bulk_max_u32(dst: &mut [u32], src: &[u32]) = custom(
        Custom::BulkCopy { def: &BULK_REDUCE[9], to_shared: false },
        entries = ::core::slice::from_ref(&BULK_REDUCE[9]),
    );
    /// `cp.reduce.async.bulk.global.shared::cta.bulk_group.max.s32`: each element `old` of
    /// `dst` becomes `max(old, src)` of the same element of `src` (slices of the same length, a
    /// multiple of 16 bytes, both 16-byte aligned); joins the thread's bulk group.
    pub fn cp_reduce_async_bulk_max_i32(dst: &mut [i32], src: &[i32]) = custom(
        Custom::BulkCopy { def: &BULK_REDUCE[10], to_shared: false },
        entries = ::core::slice::from_ref(&BULK_REDUCE[10]),
    );
    /// `cp.reduce.async.bulk.global.shared::cta.bulk_group.max.u64`: each element `old` of
    /// `dst` becomes `max(old, src)` of the same element of `src` (slices of the same length, a
    /// multiple of 16 bytes, both 16-byte aligned); joins the thread's bulk group.
    pub fn cp_reduce_async_bulk_max_u64(dst: &mut [u64], src: &[u64]) = custom(
        Custom::BulkCopy { def: &BULK_REDUCE[11], to_shared: false },
        entries = ::core::slice::from_ref(&BULK_REDUCE[11]),
    );
    /// `cp.reduce.async.bulk.global.shared::cta.bulk_group.max.s64`: each element `old` of
    /// `dst` becomes `max(old, src)` of the same element of `src` (slices of the same length, a
    /// multiple of 16 bytes, both 16-byte aligned); joins the thread's bulk group.
    pub fn cp_reduce_async_bulk_max_i64(dst: &mut [i64], src: &[i64]) = custom(
        Custom::BulkCopy { def: &BULK_REDUCE[12], to_shared: false },
        entries = ::core::slice::from_ref(&BULK_REDUCE[12]),
    );
    /// `cp.reduce.async.bulk.global.shared::cta.bulk_group.inc.u32`: each element `old` of
    /// `dst` becomes `old >= src ? 0 : old + 1` of the same element of `src` (slices of the same length, a
    /// multiple of 16 bytes, both 16-byte aligned); joins the thread's bulk group.
    pub fn cp_reduce_async_bulk_inc_u32(dst: &mut [u32], src: &[u32]) = custom(
        Custom::BulkCopy { def: &BULK_REDUCE[13], to_shared: false },
        entries = ::core::slice::from_ref(&BULK_REDUCE[13]),
    );
    /// `cp.reduce.async.bulk.global.shared::cta.bulk_group.dec.u32`: each element `old` of
    /// `dst` becomes `old == 0 || old > src ? src : old - 1` of the same element of `src` (slices of the same length, a
    /// multiple of 16 bytes, both 16-byte aligned); joins the thread's bulk group.
    pub fn cp_reduce_async_bulk_dec_u32(dst: &mut [u32], src: &[u32]) = custom(
        Custom::BulkCopy { def: &BULK_REDUCE[14], to_shared: false },
        entries = ::core::slice::from_ref(&BULK_REDUCE[14]),
    );
    /// `cp.reduce.async.bulk.global.shared::cta.bulk_group.and.b32`: each element `old` of
    /// `dst` becomes `old & src` of the same element of `src` (slices of the same length, a
    /// multiple of 16 bytes, both 16-byte aligned); joins the thread's bulk group.
    pub fn cp_reduce_async_bulk_and_u32(dst: &mut [u32], src: &[u32]) = custom(
        Custom::BulkCopy { def: &BULK_REDUCE[15], to_shared: false },
        entries = ::core::slice::from_ref(&BULK_REDUCE[15]),
    );
    /// `cp.reduce.async.bulk.global.shared::cta.bulk_group.and.b64`: each element `old` of
    /// `dst` becomes `old & src` of the same element of `src` (slices of the same length, a
    /// multiple of 16 bytes, both 16-byte aligned); joins the thread's bulk group.
    pub fn cp_reduce_async_bulk_and_u64(dst: &mut [u64], src: &[u64]) = custom(
        Custom::BulkCopy { def: &BULK_REDUCE[16], to_shared: false },
        entries = ::core::slice::from_ref(&BULK_REDUCE[16]),
    );
    /// `cp.reduce.async.bulk.global.shared::cta.bulk_group.or.b32`: each element `old` of
    /// `dst` becomes `old | src` of the same element of `src` (slices of the same length, a
    /// multiple of 16 bytes, both 16-byte aligned); joins the thread's bulk group.
    pub fn cp_reduce_async_bulk_or_u32(dst: &mut [u32], src: &[u32]) = custom(
        Custom::BulkCopy { def: &BULK_REDUCE[17], to_shared: false },
        entries = ::core::slice::from_ref(&BULK_REDUCE[17]),
    );
    /// `cp.reduce.async.bulk.global.shared::cta.bulk_group.or.b64`: each element `old` of
    /// `dst` becomes `old | src` of the same element of `src` (slices of the same length, a
    /// multiple of 16 bytes, both 16-byte aligned); joins the thread's bulk group.
    pub fn cp_reduce_async_bulk_or_u64(dst: &mut [u64], src: &[u64]) = custom(
        Custom::BulkCopy { def: &BULK_REDUCE[18], to_shared: false },
        entries = ::core::slice::from_ref(&BULK_REDUCE[18]),
    );
    /// `cp.reduce.async.bulk.global.shared::cta.bulk_group.xor.b32`: each element `old` of
    /// `dst` becomes `old ^ src` of the same element of `src` (slices of the same length, a
    /// multiple of 16 bytes, both 16-byte aligned); joins the thread's bulk group.
    pub fn cp_reduce_async_bulk_xor_u32(dst: &mut [u32], src: &[u32]) = custom(
        Custom::BulkCopy { def: &BULK_REDUCE[19], to_shared: false },
        entries = ::core::slice::from_ref(&BULK_REDUCE[19]),
    );
    /// `cp.reduce.async.bulk.global.shared::cta.bulk_group.xor.b64`: each element `old` of
    /// `dst` becomes `old ^ src` of the same element of `src` (slices of the same length, a
    /// multiple of 16 bytes, both 16-byte aligned); joins the thread's bulk group.
    pub fn cp_reduce_async_bulk_xor_u64(dst: &mut [u64], src: &[u64]) = custom(
        Custom::BulkCopy { def: &BULK_REDUCE[20], to_shared: false },
        entries = ::core::slice::from_ref(&BULK_REDUCE[20]),
    );
    /// `cp.reduce.async.bulk.global.shared::cta.bulk_group.add.noftz.f16`: each element `old` of
    /// `dst` becomes `old + src` (without flushing subnormals, `.noftz`) of the same element of `src` (the bulk copies' rules); joins
    /// the thread's bulk group.
    pub fn cp_reduce_async_bulk_add_f16(dst: &mut [f16], src: &[f16]) = custom(
        Custom::BulkCopy { def: &BULK_REDUCE[21], to_shared: false },
        entries = ::core::slice::from_ref(&BULK_REDUCE[21]),
    );
    /// `cp.reduce.async.bulk.global.shared::cta.bulk_group.add.noftz.bf16`: each element `old` of
    /// `dst` becomes `old + src` (without flushing subnormals, `.noftz`) of the same element of `src` (the bulk copies' rules); joins
    /// the thread's bulk group.
    pub fn cp_reduce_async_bulk_add_bf16(dst: &mut [bf16], src: &[bf16]) = custom(
        Custom::BulkCopy { def: &BULK_REDUCE[22], to_shared: false },
        entries = ::core::slice::from_ref(&BULK_REDUCE[22]),
    );
    /// `cp.reduce.async.bulk.global.shared::cta.bulk_group.min.f16`: each element `old` of
    /// `dst` becomes `min(old, src)` of the same element of `src` (the bulk copies' rules); joins
    /// the thread's bulk group.
    pub fn cp_reduce_async_bulk_min_f16(dst: &mut [f16], src: &[f16]) = custom(
        Custom::BulkCopy { def: &BULK_REDUCE[23], to_shared: false },
        entries = ::core::slice::from_ref(&BULK_REDUCE[23]),
    );
    /// `cp.reduce.async.bulk.global.shared::cta.bulk_group.min.bf16`: each element `old` of
    /// `dst` becomes `min(old, src)` of the same element of `src` (the bulk copies' rules); joins
    /// the thread's bulk group.
    pub fn cp_reduce_async_bulk_min_bf16(dst: &mut [bf16], src: &[bf16]) = custom(
        Custom::BulkCopy { def: &BULK_REDUCE[24], to_shared: false },
        entries = ::core::slice::from_ref(&BULK_REDUCE[24]),
    );
    /// `cp.reduce.async.bulk.global.shared::cta.bulk_group.max.f16`: each element `old` of
    /// `dst` becomes `max(old, src)` of the same element of `src` (the bulk copies' rules); joins
    /// the thread's bulk group.
    pub fn cp_reduce_async_bulk_max_f16(dst: &mut [f16], src: &[f16]) = custom(
        Custom::BulkCopy { def: &BULK_REDUCE[25], to_shared: false },
        entries = ::core::slice::from_ref(&BULK_REDUCE[25]),
    );
    /// `cp.reduce.async.bulk.global.shared::cta.bulk_group.max.bf16`: each element `old` of
    /// `dst` becomes `max(old, src)` of the same element of `src` (the bulk copies' rules); joins
    /// the thread's bulk group.
    pub fn cp_reduce_async_bulk_max_bf16(dst: &mut [bf16], src: &[bf16]) = custom(
        Custom::BulkCopy { def: &BULK_REDUCE[26], to_shared: false },
        entries = ::core::slice::from_ref(&BULK_REDUCE[26]),
    );
    /// `cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes`
    /// (`cp_async_bulk_global_to_shared`): copies `src` into `dst` (slices of the same length, a
    /// multiple of 16 bytes, both 16-byte aligned), completing the bytes on `bar`.
    pub fn cp_async_bulk_global_to_shared<T: DeviceType>(dst: &mut [T], src: &[T], bar: &Barrier) = custom(
        Custom::BulkCopy { def: &BULK_LOAD, to_shared: true },
        entries = ::core::slice::from_ref(&BULK_LOAD),
    );
    /// `cp.async.bulk.global.shared::cta.bulk_group` (`cp_async_bulk_shared_to_global`): copies
    /// `src` into `dst` (same rules); joins the thread's bulk group.
    pub fn cp_async_bulk_shared_to_global<T: DeviceType>(dst: &mut [T], src: &[T]) = custom(
        Custom::BulkCopy { def: &BULK_STORE, to_shared: false },
        entries = ::core::slice::from_ref(&BULK_STORE),
    );
    /// `cp.async.bulk.commit_group`: the thread's bulk stores and reductions since the last
    /// commit become one group.
    pub fn cp_async_bulk_commit_group() = memory(90, "cp.async.bulk.commit_group", sim_commit);
    /// `cp.async.bulk.wait_group n` (`cp_async_bulk_wait_group<n>`): waits until at most the `n`
    /// newest bulk groups of the thread are pending (their writes to global memory done); `n` a
    /// constant 0..=7.
    pub fn cp_async_bulk_wait_group(n: u32) = custom(Custom::ConstIndex(&WAIT), entries = &WAIT);
    /// `cp.async.bulk.wait_group.read n` (`cp_async_bulk_wait_group_read<n>`): as
    /// `cp_async_bulk_wait_group`, but only until the groups' sources have been read: their
    /// shared memory may be written again.
    pub fn cp_async_bulk_wait_group_read(n: u32) =
        custom(Custom::ConstIndex(&WAIT_READ), entries = &WAIT_READ);
    /// `fence.proxy.async.shared::cta` (`fence_proxy_async_shared_cta`): the thread's earlier
    /// shared-memory writes become visible to the copy engine (the async proxy) before its later
    /// bulk stores read them.
    pub fn fence_proxy_async_shared_cta() = memory(90, "fence.proxy.async.shared::cta", sim_fence);
    /// `prefetch.tensormap`: brings `tmap`'s descriptor into the cache ahead of its first use.
    pub fn prefetch_tensormap(tmap: &TensorMap) = custom(
        Custom::Bulk(&PREFETCH, &[READ_MAP]),
        entries = ::core::slice::from_ref(&PREFETCH),
    );
}
