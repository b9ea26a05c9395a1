//! The intrinsic table: one entry per device intrinsic with its signature, its PTX lowering and its
//! simulator semantics, so the three can never drift apart.
//!
//! User-facing functions (`thread_idx()`, `sync_threads()`, ...) live in `api`; each has a companion
//! that resolves to `Callable::Intrinsic(name)`. The front end expands a few of them (those that
//! return `Dim3` or references to shared memory) into several table entries; every other name is
//! looked up here directly and its scalar signature used as is.

use crate::ir::{IntrinsicId, Space, Ty};

/// How the simulator's scheduler must treat an intrinsic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// A function of its arguments and the thread's identity only; `sim` computes it.
    Pure,
    /// A block-wide barrier (`bar.sync` family): the scheduler parks the thread until the block meets.
    /// One with results (`__syncthreads_count`...) gives `sim_warp` to the simulator, which calls it
    /// once with every thread of the block (indexed by linear thread id) when they meet.
    Barrier,
    /// A warp collective: the scheduler gathers the participating lanes, then calls `sim_warp`.
    Warp,
    /// Touches memory or ordering (atomics, fences): `sim` gets memory access through `SimEnv`.
    Memory,
}

/// What an intrinsic's simulator semantics may ask of the thread that runs it.
pub trait SimEnv {
    fn thread_idx(&self) -> [u32; 3];
    fn block_idx(&self) -> [u32; 3];
    fn block_dim(&self) -> [u32; 3];
    fn grid_dim(&self) -> [u32; 3];
    /// A monotonic per-thread cycle counter.
    fn clock(&mut self) -> u64;
    /// Reads `bytes` (1, 2, 4 or 8) at `addr` as raw little-endian bits, for `Memory` intrinsics
    /// (atomics). The access is atomic: the race detector ignores it against other atomics. In the
    /// simulator a bad address is recorded and stops the launch once the intrinsic returns (the
    /// read then yields 0). The default is for environments without memory (register-only test
    /// interpreters): reads give 0.
    fn atomic_read(&mut self, space: Space, addr: u64, bytes: u32) -> u64 {
        let _ = (space, addr, bytes);
        0
    }
    /// Writes the low `bytes` of `bits` at `addr`; as `atomic_read` (the default drops the write).
    fn atomic_write(&mut self, space: Space, addr: u64, bytes: u32, bits: u64) {
        let _ = (space, addr, bytes, bits);
    }
}

/// Simulator semantics of a `Pure`/`Memory` intrinsic: arguments as raw bits (see `ir::Const`),
/// results written to `out` (one per `rets` entry).
pub type SimFn = fn(env: &mut dyn SimEnv, args: &[u64], out: &mut [u64]);

/// Simulator semantics of a `Warp` intrinsic: `args[lane]` for every lane of the warp (`None` for lanes
/// not participating); fills `out[lane]` for participating lanes. Returns `Err(message)` when CUDA's
/// rules are broken (e.g. the mask names a lane that is not participating).
pub type SimWarpFn =
    fn(args: &[Option<Vec<u64>>], out: &mut [Vec<u64>]) -> Result<(), String>;

#[derive(Clone, Copy)]
pub struct IntrinsicDef {
    /// The name used by `Callable::Intrinsic` and in IR dumps, e.g. `"tid.x"`, `"sync_threads"`.
    pub name: &'static str,
    pub args: &'static [Ty],
    pub rets: &'static [Ty],
    /// Smallest `sm_XX` that has it (70 for the baseline).
    pub min_sm: u32,
    /// PTX template: `{d0}`, `{d1}`... are result registers, `{a0}`, `{a1}`... arguments (registers or
    /// immediates). Several instructions may be separated by `;`.
    pub ptx: &'static str,
    pub class: Class,
    pub sim: Option<SimFn>,
    pub sim_warp: Option<SimWarpFn>,
}

impl std::fmt::Debug for IntrinsicDef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "intrinsic {}", self.name)
    }
}

const U32: Ty = Ty::U32;

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
fn sim_warp_size(_: &mut dyn SimEnv, _: &[u64], o: &mut [u64]) {
    o[0] = 32;
}
fn sim_lane_id(e: &mut dyn SimEnv, _: &[u64], o: &mut [u64]) {
    let [x, y, z] = e.thread_idx();
    let [dx, dy, _] = e.block_dim();
    o[0] = ((x + dx * (y + dy * z)) % 32) as u64;
}
fn sim_clock(e: &mut dyn SimEnv, _: &[u64], o: &mut [u64]) {
    o[0] = e.clock() & 0xffff_ffff;
}
fn sim_clock64(e: &mut dyn SimEnv, _: &[u64], o: &mut [u64]) {
    o[0] = e.clock();
}

macro_rules! reg {
    ($name:literal, $ptx:literal, $sim:ident) => {
        IntrinsicDef {
            name: $name,
            args: &[],
            rets: &[U32],
            min_sm: 70,
            ptx: $ptx,
            class: Class::Pure,
            sim: Some($sim),
            sim_warp: None,
        }
    };
}

/// The table. Indices are `IntrinsicId`s; append, never reorder within a release.
pub static TABLE: &[IntrinsicDef] = &[
    reg!("tid.x", "mov.u32 {d0}, %tid.x", sim_tid_x),
    reg!("tid.y", "mov.u32 {d0}, %tid.y", sim_tid_y),
    reg!("tid.z", "mov.u32 {d0}, %tid.z", sim_tid_z),
    reg!("ctaid.x", "mov.u32 {d0}, %ctaid.x", sim_ctaid_x),
    reg!("ctaid.y", "mov.u32 {d0}, %ctaid.y", sim_ctaid_y),
    reg!("ctaid.z", "mov.u32 {d0}, %ctaid.z", sim_ctaid_z),
    reg!("ntid.x", "mov.u32 {d0}, %ntid.x", sim_ntid_x),
    reg!("ntid.y", "mov.u32 {d0}, %ntid.y", sim_ntid_y),
    reg!("ntid.z", "mov.u32 {d0}, %ntid.z", sim_ntid_z),
    reg!("nctaid.x", "mov.u32 {d0}, %nctaid.x", sim_nctaid_x),
    reg!("nctaid.y", "mov.u32 {d0}, %nctaid.y", sim_nctaid_y),
    reg!("nctaid.z", "mov.u32 {d0}, %nctaid.z", sim_nctaid_z),
    reg!("warp_size", "mov.u32 {d0}, WARP_SZ", sim_warp_size),
    reg!("lane_id", "mov.u32 {d0}, %laneid", sim_lane_id),
    IntrinsicDef {
        name: "clock",
        args: &[],
        rets: &[U32],
        min_sm: 70,
        ptx: "mov.u32 {d0}, %clock",
        class: Class::Memory,
        sim: Some(sim_clock),
        sim_warp: None,
    },
    IntrinsicDef {
        name: "clock64",
        args: &[],
        rets: &[Ty::U64],
        min_sm: 70,
        ptx: "mov.u64 {d0}, %clock64",
        class: Class::Memory,
        sim: Some(sim_clock64),
        sim_warp: None,
    },
    IntrinsicDef {
        name: "sync_threads",
        args: &[],
        rets: &[],
        min_sm: 70,
        ptx: "bar.sync 0",
        class: Class::Barrier,
        sim: None,
        sim_warp: None,
    },
];

pub fn lookup(name: &str) -> Option<IntrinsicId> {
    TABLE
        .iter()
        .position(|d| d.name == name)
        .map(|i| IntrinsicId(i as u16))
}

pub fn get(id: IntrinsicId) -> &'static IntrinsicDef {
    &TABLE[id.0 as usize]
}
