//! Thread block clusters (sm_90; guide "Thread Block Clusters", seed 004) and programmatic
//! dependent launch: what CUDA spells `cooperative_groups::this_cluster()` (`block_rank()`,
//! `num_blocks()`, `dim_blocks()`, `block_index()`, `sync()`, `barrier_arrive()`,
//! `barrier_wait()`) and `cudaTriggerProgrammaticLaunchCompletion()` /
//! `cudaGridDependencySynchronize()`.
//!
//! Every entry needs sm_90: compiled for an older target, a kernel calling one is a compile error
//! naming the function (on the simulator too, whose default target is sm_80:
//! `Device::simulator_with_arch(90)`). A launch without clusters is one of 1x1x1 clusters, so
//! the functions also mean something there (rank 0 of 1, and `cluster_sync` is a block barrier).
//! The simulator runs a cluster's blocks together: each until it exits or waits at a cluster
//! barrier, which releases once every thread of the cluster waits at one.

use kernel_ir::ir::Ty;

use kernel_ir::intrinsic::CLUSTER_RANK_SHIFT;

use super::{Class, Custom, DeviceType, IntrinsicDef, SimEnv};
use crate::types::Dim3;

/// The block's position within its cluster along `axis` (`%cluster_ctaid`).
fn ctaid_in(e: &dyn SimEnv, axis: usize) -> u32 {
    e.block_idx()[axis] % e.cluster_dim()[axis].max(1)
}
fn sim_cluster_ctaid_x(e: &mut dyn SimEnv, _: &[u64], o: &mut [u64]) {
    o[0] = ctaid_in(e, 0) as u64;
}
fn sim_cluster_ctaid_y(e: &mut dyn SimEnv, _: &[u64], o: &mut [u64]) {
    o[0] = ctaid_in(e, 1) as u64;
}
fn sim_cluster_ctaid_z(e: &mut dyn SimEnv, _: &[u64], o: &mut [u64]) {
    o[0] = ctaid_in(e, 2) as u64;
}
fn sim_cluster_nctaid_x(e: &mut dyn SimEnv, _: &[u64], o: &mut [u64]) {
    o[0] = e.cluster_dim()[0] as u64;
}
fn sim_cluster_nctaid_y(e: &mut dyn SimEnv, _: &[u64], o: &mut [u64]) {
    o[0] = e.cluster_dim()[1] as u64;
}
fn sim_cluster_nctaid_z(e: &mut dyn SimEnv, _: &[u64], o: &mut [u64]) {
    o[0] = e.cluster_dim()[2] as u64;
}
/// The cluster's position in the grid along `axis` (`%clusterid`).
fn cluster_pos(e: &dyn SimEnv, axis: usize) -> u32 {
    e.block_idx()[axis] / e.cluster_dim()[axis].max(1)
}
fn sim_clusterid_x(e: &mut dyn SimEnv, _: &[u64], o: &mut [u64]) {
    o[0] = cluster_pos(e, 0) as u64;
}
fn sim_clusterid_y(e: &mut dyn SimEnv, _: &[u64], o: &mut [u64]) {
    o[0] = cluster_pos(e, 1) as u64;
}
fn sim_clusterid_z(e: &mut dyn SimEnv, _: &[u64], o: &mut [u64]) {
    o[0] = cluster_pos(e, 2) as u64;
}
/// Clusters in the grid along `axis` (`%nclusterid`).
fn nclusters(e: &dyn SimEnv, axis: usize) -> u32 {
    e.grid_dim()[axis] / e.cluster_dim()[axis].max(1)
}
fn sim_nclusterid_x(e: &mut dyn SimEnv, _: &[u64], o: &mut [u64]) {
    o[0] = nclusters(e, 0) as u64;
}
fn sim_nclusterid_y(e: &mut dyn SimEnv, _: &[u64], o: &mut [u64]) {
    o[0] = nclusters(e, 1) as u64;
}
fn sim_nclusterid_z(e: &mut dyn SimEnv, _: &[u64], o: &mut [u64]) {
    o[0] = nclusters(e, 2) as u64;
}
/// `%cluster_ctarank`: the block's linear rank in its cluster, x fastest.
fn sim_ctarank(e: &mut dyn SimEnv, _: &[u64], o: &mut [u64]) {
    let [dx, dy, _] = e.cluster_dim();
    let (x, y, z) = (ctaid_in(e, 0), ctaid_in(e, 1), ctaid_in(e, 2));
    o[0] = (x + dx * (y + dy * z)) as u64;
}
/// `%cluster_nctarank`: blocks per cluster.
fn sim_nctarank(e: &mut dyn SimEnv, _: &[u64], o: &mut [u64]) {
    o[0] = e.cluster_dim().iter().map(|&v| v as u64).product();
}
/// The simulator runs a stream's launches one after another, each to completion: the primary
/// grid of a programmatic dependent launch has finished, and its writes are visible, before the
/// secondary's first instruction. Triggering early and waiting have nothing left to do.
fn sim_in_stream_order(_: &mut dyn SimEnv, _: &[u64], _: &mut [u64]) {}

/// `mapa`: the distributed shared address of shared address `a[0]` in the block of rank `a[1]`
/// (the simulator's encoding: `exec`'s `CLUSTER_RANK_SHIFT`; the address is checked when used).
fn sim_mapa(_: &mut dyn SimEnv, a: &[u64], o: &mut [u64]) {
    let offset = a[0] & ((1 << CLUSTER_RANK_SHIFT) - 1);
    o[0] = (a[1] << CLUSTER_RANK_SHIFT | offset) & 0xffff_ffff;
}

/// `mapa.shared::cluster`, behind `map_shared_rank` (which owns the entry) and
/// `map_shared_rank_mut`.
static MAPA: IntrinsicDef = IntrinsicDef {
    name: "mapa.shared_cluster",
    args: &[Ty::U32, Ty::U32],
    rets: &[Ty::U32],
    min_sm: 90,
    ptx: "mapa.shared::cluster.u32 {d0}, {a0}, {a1}",
    class: Class::Pure,
    sim: Some(sim_mapa),
    sim_warp: None,
    reg: None,
};

/// One sm_90 cluster register of a `Dim3`.
macro_rules! creg {
    ($name:literal, $ptx:literal, $sim:ident) => {
        IntrinsicDef {
            name: $name,
            args: &[],
            rets: &[Ty::U32],
            min_sm: 90,
            ptx: $ptx,
            class: Class::Pure,
            sim: Some($sim),
            sim_warp: None,
            reg: None,
        }
    };
}

intrinsics! {
    table TABLE;

    /// `this_cluster().block_rank()`: this block's rank in its cluster, `0..cluster_nctarank()`,
    /// x fastest (`%cluster_ctarank`). sm_90.
    pub fn cluster_ctarank() -> u32 =
        pure(90, "mov.u32 {d0}, %cluster_ctarank", sim_ctarank);
    /// `this_cluster().num_blocks()`: blocks per cluster (`%cluster_nctarank`). sm_90.
    pub fn cluster_nctarank() -> u32 =
        pure(90, "mov.u32 {d0}, %cluster_nctarank", sim_nctarank);
    /// `this_cluster().dim_blocks()`: the cluster's shape in blocks (`%cluster_nctaid`). sm_90.
    pub fn cluster_dim() -> Dim3 = dim3(Nothing, axes = [
        creg!("cluster_nctaid.x", "mov.u32 {d0}, %cluster_nctaid.x", sim_cluster_nctaid_x),
        creg!("cluster_nctaid.y", "mov.u32 {d0}, %cluster_nctaid.y", sim_cluster_nctaid_y),
        creg!("cluster_nctaid.z", "mov.u32 {d0}, %cluster_nctaid.z", sim_cluster_nctaid_z),
    ]);
    /// `this_cluster().block_index()`: this block's position in its cluster
    /// (`%cluster_ctaid`). sm_90.
    pub fn cluster_idx() -> Dim3 = dim3(Nothing, axes = [
        creg!("cluster_ctaid.x", "mov.u32 {d0}, %cluster_ctaid.x", sim_cluster_ctaid_x),
        creg!("cluster_ctaid.y", "mov.u32 {d0}, %cluster_ctaid.y", sim_cluster_ctaid_y),
        creg!("cluster_ctaid.z", "mov.u32 {d0}, %cluster_ctaid.z", sim_cluster_ctaid_z),
    ]);
    /// The cluster's position in the grid, in clusters (`%clusterid`). sm_90.
    pub fn cluster_id() -> Dim3 = dim3(Nothing, axes = [
        creg!("clusterid.x", "mov.u32 {d0}, %clusterid.x", sim_clusterid_x),
        creg!("clusterid.y", "mov.u32 {d0}, %clusterid.y", sim_clusterid_y),
        creg!("clusterid.z", "mov.u32 {d0}, %clusterid.z", sim_clusterid_z),
    ]);
    /// The grid's shape in clusters (`%nclusterid`). sm_90.
    pub fn nclusterid() -> Dim3 = dim3(Nothing, axes = [
        creg!("nclusterid.x", "mov.u32 {d0}, %nclusterid.x", sim_nclusterid_x),
        creg!("nclusterid.y", "mov.u32 {d0}, %nclusterid.y", sim_nclusterid_y),
        creg!("nclusterid.z", "mov.u32 {d0}, %nclusterid.z", sim_nclusterid_z),
    ]);
    /// `this_cluster().sync()`: waits until every thread of every block of the cluster arrives;
    /// shared and global memory written before it by any of them (distributed shared memory
    /// included) is visible after it (release on arrive, acquire on wait). Also what makes a
    /// block's shared memory safe to map from another block: every block of the cluster has
    /// started. sm_90.
    pub fn cluster_sync() = cluster_barrier(
        90,
        "barrier.cluster.arrive.release.aligned; barrier.cluster.wait.acquire.aligned"
    );
    /// `this_cluster().barrier_arrive()`: the first half of `cluster_sync`, which does not wait
    /// (release semantics); independent work may follow before `cluster_wait`. sm_90.
    pub fn cluster_arrive() =
        memory(90, "barrier.cluster.arrive.release", sim_in_stream_order);
    /// `this_cluster().barrier_wait()`: waits until every thread of the cluster has called
    /// `cluster_arrive` (acquire semantics). Each thread calls `cluster_arrive` first. sm_90.
    pub fn cluster_wait() = cluster_barrier(90, "barrier.cluster.wait.acquire");
    /// `this_cluster().map_shared_rank(smem, rank)`: the same shared memory `smem` points at
    /// (a `shared_array`, or an element of one), in the block of rank `rank` of this cluster
    /// (distributed shared memory, sm_90). Reads and atomics go to that block's memory
    /// (`ld.shared::cluster`, `atom.shared::cluster`); indexing the result is bounds-checked as
    /// `smem` is. `rank` must be below `cluster_nctarank()`: otherwise the call panics (`index out
    /// of bounds`, rank as the index, the cluster's block count as the length). The other block
    /// must have started and not exited while it is used: `cluster_sync()` before the first and
    /// after the last access, as in CUDA.
    pub fn map_shared_rank<T: DeviceType>(smem: &T, rank: u32) -> &T = custom(
        Custom::MapSharedRank { mapa: &MAPA, nctarank: &cluster_nctarank::ENTRY, writes: false },
        entries = ::core::slice::from_ref(&MAPA),
    );
    /// `map_shared_rank` for writing (`st.shared::cluster`, and the atomics that take `&mut`):
    /// `*map_shared_rank_mut(&mut hist[b], rank) = v`, `atomic_add(&mut remote[b], 1)`.
    pub fn map_shared_rank_mut<T: DeviceType>(smem: &mut T, rank: u32) -> &mut T = custom(
        Custom::MapSharedRank { mapa: &MAPA, nctarank: &cluster_nctarank::ENTRY, writes: true }
    );
    /// `cudaTriggerProgrammaticLaunchCompletion()` (`griddepcontrol.launch_dependents`): this
    /// block no longer holds back a programmatic dependent launch of the next kernel on the
    /// stream; once every block has triggered (or exited) the secondary may start. Writes after
    /// the trigger are still seen by the secondary only after its `grid_dependency_sync()`.
    /// sm_90.
    pub fn trigger_programmatic_launch_completion() =
        memory(90, "griddepcontrol.launch_dependents", sim_in_stream_order);
    /// `cudaGridDependencySynchronize()` (`griddepcontrol.wait`): in the secondary kernel of a
    /// programmatic dependent launch, waits until the primary grid has completed and its memory
    /// is visible. A kernel launched without the attribute returns at once. On the simulator
    /// launches run in stream order, so the primary is always complete. sm_90.
    pub fn grid_dependency_sync() =
        memory(90, "griddepcontrol.wait", sim_in_stream_order);
}
