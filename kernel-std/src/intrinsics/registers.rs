//! Built-in registers (`threadIdx`...), clocks and `__syncthreads` (guide B.4, B.6, B.11).

use kernel_ir::ir::Ty;

use super::{Class, IntrinsicDef, SimEnv, SpecialReg::*};
use crate::types::Dim3;

fn sim_tid_x(e: &mut dyn SimEnv, _: &[u64], o: &mut [u64]) {
    o[0] = e.thread_idx()[0] as u64;
}
fn sim_tid_y(e: &mut dyn SimEnv, _: &[u64], o: &mut [u64]) {
    o[0] = e.thread_idx()[1] as u64;
}
fn sim_tid_z(e: &mut dyn SimEnv, _: &[u64], o: &mut [u64]) {
    o[0] = e.thread_idx()[2] as u64;
}
fn sim_ctaid_x(e: &mut dyn SimEnv, _: &[u64], o: &mut [u64]) {
    o[0] = e.block_idx()[0] as u64;
}
fn sim_ctaid_y(e: &mut dyn SimEnv, _: &[u64], o: &mut [u64]) {
    o[0] = e.block_idx()[1] as u64;
}
fn sim_ctaid_z(e: &mut dyn SimEnv, _: &[u64], o: &mut [u64]) {
    o[0] = e.block_idx()[2] as u64;
}
fn sim_ntid_x(e: &mut dyn SimEnv, _: &[u64], o: &mut [u64]) {
    o[0] = e.block_dim()[0] as u64;
}
fn sim_ntid_y(e: &mut dyn SimEnv, _: &[u64], o: &mut [u64]) {
    o[0] = e.block_dim()[1] as u64;
}
fn sim_ntid_z(e: &mut dyn SimEnv, _: &[u64], o: &mut [u64]) {
    o[0] = e.block_dim()[2] as u64;
}
fn sim_nctaid_x(e: &mut dyn SimEnv, _: &[u64], o: &mut [u64]) {
    o[0] = e.grid_dim()[0] as u64;
}
fn sim_nctaid_y(e: &mut dyn SimEnv, _: &[u64], o: &mut [u64]) {
    o[0] = e.grid_dim()[1] as u64;
}
fn sim_nctaid_z(e: &mut dyn SimEnv, _: &[u64], o: &mut [u64]) {
    o[0] = e.grid_dim()[2] as u64;
}
fn sim_lane_id(e: &mut dyn SimEnv, _: &[u64], o: &mut [u64]) {
    let [x, y, z] = e.thread_idx();
    let [dx, dy, _] = e.block_dim();
    o[0] = ((x + dx * (y + dy * z)) % 32) as u64;
}

/// One special register of a `Dim3`.
macro_rules! reg {
    ($name:literal, $ptx:literal, $sim:ident, $reg:expr) => {
        IntrinsicDef {
            name: $name,
            args: &[],
            rets: &[Ty::U32],
            min_sm: 70,
            ptx: $ptx,
            class: Class::Pure,
            sim: Some($sim),
            sim_warp: None,
            reg: Some($reg),
        }
    };
}

intrinsics! {
    table TABLE;

    /// `threadIdx`
    pub fn thread_idx() -> Dim3 = dim3(Index, axes = [
        reg!("tid.x", "mov.u32 {d0}, %tid.x", sim_tid_x, Tid(0)),
        reg!("tid.y", "mov.u32 {d0}, %tid.y", sim_tid_y, Tid(1)),
        reg!("tid.z", "mov.u32 {d0}, %tid.z", sim_tid_z, Tid(2)),
    ]);
    /// `blockIdx`
    pub fn block_idx() -> Dim3 = dim3(Nothing, axes = [
        reg!("ctaid.x", "mov.u32 {d0}, %ctaid.x", sim_ctaid_x, Ctaid(0)),
        reg!("ctaid.y", "mov.u32 {d0}, %ctaid.y", sim_ctaid_y, Ctaid(1)),
        reg!("ctaid.z", "mov.u32 {d0}, %ctaid.z", sim_ctaid_z, Ctaid(2)),
    ]);
    /// `blockDim`
    pub fn block_dim() -> Dim3 = dim3(Extent, axes = [
        reg!("ntid.x", "mov.u32 {d0}, %ntid.x", sim_ntid_x, Ntid(0)),
        reg!("ntid.y", "mov.u32 {d0}, %ntid.y", sim_ntid_y, Ntid(1)),
        reg!("ntid.z", "mov.u32 {d0}, %ntid.z", sim_ntid_z, Ntid(2)),
    ]);
    /// `gridDim`
    pub fn grid_dim() -> Dim3 = dim3(Nothing, axes = [
        reg!("nctaid.x", "mov.u32 {d0}, %nctaid.x", sim_nctaid_x, Nctaid(0)),
        reg!("nctaid.y", "mov.u32 {d0}, %nctaid.y", sim_nctaid_y, Nctaid(1)),
        reg!("nctaid.z", "mov.u32 {d0}, %nctaid.z", sim_nctaid_z, Nctaid(2)),
    ]);
    /// `warpSize` (always 32 on the GPUs we target).
    pub fn warp_size() -> u32 = pure(70, "mov.u32 {d0}, WARP_SZ", |_, _, o| o[0] = 32, reg = WarpSize);
    /// The thread's lane within its warp (`%laneid`).
    pub fn lane_id() -> u32 = pure(70, "mov.u32 {d0}, %laneid", sim_lane_id, reg = LaneId);
    /// `__syncthreads()`: waits until every thread of the block arrives; orders shared and global
    /// memory accesses of the block around it.
    pub fn sync_threads() = barrier(70, "bar.sync 0");
    /// `clock()`: the multiprocessor's 32-bit cycle counter.
    pub fn clock() -> u32 = memory(70, "mov.u32 {d0}, %clock", |e, _, o| o[0] = e.clock() & 0xffff_ffff);
    /// `clock64()`: the multiprocessor's 64-bit cycle counter.
    pub fn clock64() -> u64 = memory(70, "mov.u64 {d0}, %clock64", |e, _, o| o[0] = e.clock());
}
