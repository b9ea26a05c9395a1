//! The whole grid as one group: what CUDA spells `cooperative_groups::this_grid()` (`sync()`,
//! `thread_rank()`, `size()`), here `grid_sync()`, `grid_thread_rank()` and `grid_num_threads()`.
//!
//! `grid_sync()` is only meaningful when every block of the grid is resident at once, which only
//! a cooperative launch guarantees (`LaunchConfig::cooperative()`): a kernel that calls it is
//! marked as needing one (`ir::Kernel::uses_grid_sync`), and the host refuses to launch it
//! otherwise, or when the grid is larger than the device can hold at once, before the driver sees
//! the launch.
//!
//! nvcc's cooperative groups keep their barrier in a workspace the driver hands cooperative
//! launches. Ours is two 32-bit words the runtime owns per stream and passes as the hidden
//! parameter [`GRID_SYNC_PARAM`](kernel_ir::intrinsic::GRID_SYNC_PARAM): an arrival count and a
//! generation. Thread 0 of each block reads the generation, then adds 1 to the count; the block
//! that brings it to the grid's block count puts it back to 0 and publishes the next generation,
//! while the others spin until the generation moves. The words are left as they were found, so
//! the barrier can be met any number of times in a launch and by every later launch on the stream
//! without the host touching them again.
//!
//! A thread that panics exits, so its block may never arrive: a waiting block also watches the
//! stream's panic slot (the launch's `__fc_panic` argument) and leaves the barrier once a panic
//! is claimed, so the launch ends instead of hanging and the panic is reported at the next
//! synchronize, which then puts the barrier words back to zero. Until then every barrier on the
//! stream is left at once (the stream's results are void after a panic anyway).

use super::SimEnv;

/// `this_grid().thread_rank()`: the block's linear index times the block's threads, plus the
/// thread's linear index in its block (x fastest).
fn sim_grid_thread_rank(e: &mut dyn SimEnv, _: &[u64], o: &mut [u64]) {
    let ([bx, by, bz], [gx, gy, _]) = (e.block_idx(), e.grid_dim());
    let ([tx, ty, tz], [nx, ny, nz]) = (e.thread_idx(), e.block_dim());
    let block = bx as u64 + gx as u64 * (by as u64 + gy as u64 * bz as u64);
    let threads = nx as u64 * ny as u64 * nz as u64;
    let t = tx as u64 + nx as u64 * (ty as u64 + ny as u64 * tz as u64);
    o[0] = block * threads + t;
}

/// `this_grid().size()`: threads in the grid.
fn sim_grid_num_threads(e: &mut dyn SimEnv, _: &[u64], o: &mut [u64]) {
    let v = |d: [u32; 3]| d.iter().map(|&x| x as u64).product::<u64>();
    o[0] = v(e.grid_dim()) * v(e.block_dim());
}

intrinsics! {
    table TABLE;

    /// `this_grid().sync()` (`grid.sync()` in CUDA's cooperative groups): waits until every
    /// thread of every block of the grid has arrived; global memory any of them wrote before it
    /// is visible to all of them after it. Every thread of every block must call it, the same
    /// number of times (as `sync_threads()` within a block). Only for kernels launched with
    /// `LaunchConfig::cooperative()`, whose grid the device can hold at once: the launch is
    /// refused before the driver otherwise (`LaunchError::GridSyncNeedsCooperative`,
    /// `LaunchError::CooperativeGridTooLarge`). The simulator runs such a kernel's blocks
    /// together and releases them when all have arrived. sm_70 (`ld.acquire.gpu`).
    pub fn grid_sync() = grid_barrier(
        70,
        concat!(
            ".reg .pred %fcgp{uid}; .reg .pred %fcgq{uid}; .reg .b32 %fcgt{uid}; ",
            ".reg .b32 %fcgn{uid}; .reg .b32 %fcgg{uid}; .reg .b64 %fcga{uid}; .reg .b64 %fcgs{uid}; ",
            // The block's threads are done with what they write before thread 0 arrives.
            "bar.sync 0; ",
            "mov.u32 %fcgt{uid}, %tid.x; mov.u32 %fcgn{uid}, %tid.y; ",
            "or.b32 %fcgt{uid}, %fcgt{uid}, %fcgn{uid}; mov.u32 %fcgn{uid}, %tid.z; ",
            "or.b32 %fcgt{uid}, %fcgt{uid}, %fcgn{uid}; setp.ne.u32 %fcgp{uid}, %fcgt{uid}, 0; ",
            "@%fcgp{uid} bra $Lfc_i{uid}_gs_done; ",
            "ld.param.u64 %fcga{uid}, [__fc_grid_sync]; ",
            // The generation this barrier ends: it cannot move before this block arrives.
            "ld.acquire.gpu.global.u32 %fcgg{uid}, [%fcga{uid}+4]; ",
            "mov.u32 %fcgn{uid}, %nctaid.x; mov.u32 %fcgt{uid}, %nctaid.y; ",
            "mul.lo.u32 %fcgn{uid}, %fcgn{uid}, %fcgt{uid}; mov.u32 %fcgt{uid}, %nctaid.z; ",
            "mul.lo.u32 %fcgn{uid}, %fcgn{uid}, %fcgt{uid}; sub.u32 %fcgn{uid}, %fcgn{uid}, 1; ",
            "fence.acq_rel.gpu; ",
            "atom.acq_rel.gpu.global.add.u32 %fcgt{uid}, [%fcga{uid}], 1; ",
            "setp.ne.u32 %fcgp{uid}, %fcgt{uid}, %fcgn{uid}; ",
            "@%fcgp{uid} bra $Lfc_i{uid}_gs_wait; ",
            // The last to arrive: count back to 0 for the next barrier, then the generation.
            "st.relaxed.gpu.global.u32 [%fcga{uid}], 0; add.u32 %fcgg{uid}, %fcgg{uid}, 1; ",
            "st.release.gpu.global.u32 [%fcga{uid}+4], %fcgg{uid}; ",
            "bra $Lfc_i{uid}_gs_fence; ",
            // Waiting: until the generation moves, or a thread of the launch panicked (its
            // block may never arrive; the host resets the words when it reports the panic).
            "$Lfc_i{uid}_gs_wait: ld.param.u64 %fcgs{uid}, [__fc_panic]; ",
            "setp.eq.u64 %fcgq{uid}, %fcgs{uid}, 0; ",
            "$Lfc_i{uid}_gs_spin: ld.acquire.gpu.global.u32 %fcgt{uid}, [%fcga{uid}+4]; ",
            "setp.ne.u32 %fcgp{uid}, %fcgt{uid}, %fcgg{uid}; ",
            "@%fcgp{uid} bra $Lfc_i{uid}_gs_fence; ",
            "@%fcgq{uid} bra $Lfc_i{uid}_gs_spin; ",
            "ld.relaxed.gpu.global.u32 %fcgt{uid}, [%fcgs{uid}]; ",
            "setp.eq.u32 %fcgp{uid}, %fcgt{uid}, 0; ",
            "@%fcgp{uid} bra $Lfc_i{uid}_gs_spin; ",
            "$Lfc_i{uid}_gs_fence: fence.acq_rel.gpu; ",
            // Thread 0 has seen every block's writes; the rest of its block waits for it.
            "$Lfc_i{uid}_gs_done: bar.sync 0"
        )
    );
    /// `this_grid().thread_rank()`: this thread's index in the grid, blocks in linear order (x
    /// fastest), threads in linear order within a block.
    pub fn grid_thread_rank() -> u64 = pure(
        70,
        concat!(
            ".reg .b32 %fcq{uid}_<4>; .reg .b64 %fcw{uid}_<2>; ",
            "mov.u32 %fcq{uid}_0, %ctaid.z; mov.u32 %fcq{uid}_1, %nctaid.y; ",
            "mul.wide.u32 %fcw{uid}_0, %fcq{uid}_0, %fcq{uid}_1; ",
            "mov.u32 %fcq{uid}_0, %ctaid.y; cvt.u64.u32 %fcw{uid}_1, %fcq{uid}_0; ",
            "add.u64 %fcw{uid}_0, %fcw{uid}_0, %fcw{uid}_1; ",
            "mov.u32 %fcq{uid}_1, %nctaid.x; cvt.u64.u32 %fcw{uid}_1, %fcq{uid}_1; ",
            "mul.lo.u64 %fcw{uid}_0, %fcw{uid}_0, %fcw{uid}_1; ",
            "mov.u32 %fcq{uid}_0, %ctaid.x; cvt.u64.u32 %fcw{uid}_1, %fcq{uid}_0; ",
            "add.u64 %fcw{uid}_0, %fcw{uid}_0, %fcw{uid}_1; ",
            "mov.u32 %fcq{uid}_0, %ntid.x; mov.u32 %fcq{uid}_1, %ntid.y; mov.u32 %fcq{uid}_2, %ntid.z; ",
            "mul.lo.u32 %fcq{uid}_3, %fcq{uid}_0, %fcq{uid}_1; ",
            "mul.lo.u32 %fcq{uid}_3, %fcq{uid}_3, %fcq{uid}_2; ",
            "cvt.u64.u32 %fcw{uid}_1, %fcq{uid}_3; mul.lo.u64 %fcw{uid}_0, %fcw{uid}_0, %fcw{uid}_1; ",
            "mov.u32 %fcq{uid}_2, %tid.z; mov.u32 %fcq{uid}_3, %tid.y; ",
            "mad.lo.u32 %fcq{uid}_2, %fcq{uid}_2, %fcq{uid}_1, %fcq{uid}_3; ",
            "mov.u32 %fcq{uid}_3, %tid.x; mad.lo.u32 %fcq{uid}_2, %fcq{uid}_2, %fcq{uid}_0, %fcq{uid}_3; ",
            "cvt.u64.u32 %fcw{uid}_1, %fcq{uid}_2; add.u64 {d0}, %fcw{uid}_0, %fcw{uid}_1"
        ),
        sim_grid_thread_rank
    );
    /// `this_grid().size()` (`num_threads()`): threads in the grid, as a `u64` (a grid may hold
    /// more than `u32::MAX`).
    pub fn grid_num_threads() -> u64 = pure(
        70,
        concat!(
            ".reg .b32 %fcq{uid}_<2>; .reg .b64 %fcw{uid}_<2>; ",
            "mov.u32 %fcq{uid}_0, %nctaid.x; mov.u32 %fcq{uid}_1, %nctaid.y; ",
            "mul.wide.u32 %fcw{uid}_0, %fcq{uid}_0, %fcq{uid}_1; ",
            "mov.u32 %fcq{uid}_0, %nctaid.z; cvt.u64.u32 %fcw{uid}_1, %fcq{uid}_0; ",
            "mul.lo.u64 %fcw{uid}_0, %fcw{uid}_0, %fcw{uid}_1; ",
            "mov.u32 %fcq{uid}_0, %ntid.x; mov.u32 %fcq{uid}_1, %ntid.y; ",
            "mul.lo.u32 %fcq{uid}_0, %fcq{uid}_0, %fcq{uid}_1; mov.u32 %fcq{uid}_1, %ntid.z; ",
            "mul.lo.u32 %fcq{uid}_0, %fcq{uid}_0, %fcq{uid}_1; ",
            "cvt.u64.u32 %fcw{uid}_1, %fcq{uid}_0; mul.lo.u64 {d0}, %fcw{uid}_0, %fcw{uid}_1"
        ),
        sim_grid_num_threads
    );
}
