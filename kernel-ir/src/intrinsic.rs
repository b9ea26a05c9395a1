//! What an intrinsic is, as every stage sees it: a table entry ([`IntrinsicDef`]) with its
//! signature, its PTX template, its simulator semantics and the oldest target that has it. The IR
//! refers to entries directly ([`IntrinsicId`]), so the printer, the PTX emitter and the simulator
//! need no table. The entries are declared in `kernel_std::intrinsics`, each with the device
//! function that lowers to it (`ast::IntrinsicSpec`).

use crate::ty::{Space, Ty};

/// In the simulator a distributed shared memory address (`Space::Cluster`, what `mapa` returns)
/// is the target block's rank shifted left by this, plus the offset in its shared memory (below
/// 16 MiB, far above any block's).
pub const CLUSTER_RANK_SHIFT: u32 = 24;

/// The hidden `.param .u64` a kernel that calls a [`Class::GridBarrier`] entry takes after
/// `__fc_panic`: the address of its launch's two barrier words (arrivals, then generation), which
/// the host zeroes once and every completed barrier leaves as it found them (arrivals back to 0).
pub const GRID_SYNC_PARAM: &str = "__fc_grid_sync";

/// A `.visible .global .u32` such a kernel's module also defines, so that a loader that only
/// has the module (PTX or cubin loaded by hand) knows its entry takes [`GRID_SYNC_PARAM`].
pub const GRID_SYNC_MARKER: &str = "__fc_grid_sync_entry";

/// How the simulator's scheduler must treat an intrinsic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// A function of its arguments and the thread's identity only; `sim` computes it.
    Pure,
    /// A block-wide barrier (`bar.sync` family): the scheduler parks the thread until the block meets.
    /// One with results (`__syncthreads_count`...) gives `sim_warp` to the simulator, which calls it
    /// once with every thread of the block (indexed by linear thread id) when they meet.
    Barrier,
    /// A thread block cluster barrier (`barrier.cluster.wait`, sm_90): as `Barrier`, for every
    /// thread of every block of the cluster. The simulator runs the cluster's blocks together
    /// and parks each at it until the whole cluster meets.
    ClusterBarrier,
    /// A grid-wide barrier (`this_grid().sync()`): as `Barrier`, for every thread of every block
    /// of the grid, which must all be resident at once (a cooperative launch). A kernel that
    /// calls one takes a hidden parameter, the launch's barrier word ([`GRID_SYNC_PARAM`]); the
    /// simulator runs the whole grid together and parks each block at it until every block meets.
    GridBarrier,
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
    /// Blocks per thread block cluster along each axis (`%cluster_nctaid`). A launch without
    /// clusters is one of 1x1x1 clusters, as on the GPU (the default).
    fn cluster_dim(&self) -> [u32; 3] {
        [1, 1, 1]
    }
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
    /// Reads `bytes` (1, 2, 4 or 8) at `addr` as an ordinary load (`wmma.load`): the simulator's
    /// race and initialisation detectors see a plain read, and a bad address stops the launch as
    /// in `atomic_read`. The default (no memory) gives 0.
    fn load(&mut self, space: Space, addr: u64, bytes: u32) -> u64 {
        let _ = (space, addr, bytes);
        0
    }
    /// Writes the low `bytes` of `bits` at `addr` as an ordinary store (`wmma.store`); as `load`.
    fn store(&mut self, space: Space, addr: u64, bytes: u32, bits: u64) {
        let _ = (space, addr, bytes, bits);
    }
    /// An address the GPU would fault on for alignment beyond the access's size (`wmma` needs
    /// 32-byte aligned tiles): the simulator stops the launch with a misaligned-address error
    /// once the intrinsic returns. The default ignores it.
    fn misaligned(&mut self, message: String) {
        let _ = message;
    }
    /// Device `malloc`: the global address of a fresh heap block, or 0 when the heap is
    /// exhausted (the default: no heap).
    fn heap_alloc(&mut self, bytes: u64) -> u64 {
        let _ = bytes;
        0
    }
    /// `alloca`: the address of a fresh block of `bytes` in the thread's stack, freed when the
    /// thread's block finishes; in the simulator an oversized request stops the launch (as
    /// `atomic_read`). The default (no memory) gives 0.
    fn stack_alloc(&mut self, bytes: u64) -> u64 {
        let _ = bytes;
        0
    }
    /// Device `free`; in the simulator a bad pointer (double free...) stops the launch as
    /// `atomic_read` does. The default ignores it.
    fn heap_free(&mut self, addr: u64) {
        let _ = addr;
    }
    /// An asynchronous barrier or copy operation (`crate::async_ops`), with the entry's
    /// arguments and results. The default (no memory) does nothing: results stay 0.
    fn async_op(&mut self, op: crate::async_ops::AsyncOp, args: &[u64], out: &mut [u64]) {
        let _ = (op, args, out);
    }
}

/// Simulator semantics of a `Pure`/`Memory` intrinsic: arguments as raw bits (see `ir::Const`),
/// results written to `out` (one per `rets` entry).
pub type SimFn = fn(env: &mut dyn SimEnv, args: &[u64], out: &mut [u64]);

/// Simulator semantics of a `Warp` intrinsic: `args[lane]` for every lane of the warp (`None` for lanes
/// not participating); fills `out[lane]` for participating lanes. Returns `Err(message)` when CUDA's
/// rules are broken (e.g. the mask names a lane that is not participating).
pub type SimWarpFn = fn(args: &[Option<Vec<u64>>], out: &mut [Vec<u64>]) -> Result<(), String>;

/// A special register that an entry reads and nothing else (`mov.u32 {d0}, %tid.x`): the
/// simulator reads it without calling `sim`, and the value-range analysis knows its bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpecialReg {
    /// `%tid` along axis 0, 1 or 2 (`threadIdx.x/y/z`).
    Tid(u8),
    /// `%ctaid` (`blockIdx`).
    Ctaid(u8),
    /// `%ntid` (`blockDim`).
    Ntid(u8),
    /// `%nctaid` (`gridDim`).
    Nctaid(u8),
    /// `WARP_SZ`: 32.
    WarpSize,
    /// `%laneid`.
    LaneId,
}

#[derive(Clone, Copy)]
pub struct IntrinsicDef {
    /// The entry's name in IR dumps, e.g. `"tid.x"`, `"shfl_sync.f32"`.
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
    /// The special register it reads, when that is all it does.
    pub reg: Option<SpecialReg>,
}

impl IntrinsicDef {
    /// The memory space an entry of a `ast::Lowering::Access` family serves: global for a
    /// 64-bit address (`args[0]`), else distributed shared memory when its PTX names
    /// `.shared::cluster`, else the block's shared memory.
    pub fn access_space(&self) -> Space {
        if self.args.first() != Some(&Ty::U32) {
            Space::Global
        } else if self.ptx.contains("shared::cluster") {
            Space::Cluster
        } else {
            Space::Shared
        }
    }

    /// The registers of the value an entry of a `ast::Lowering::Access` family moves: its results,
    /// or a store's stored value (the arguments after the address).
    pub fn value_lanes(&self) -> &[Ty] {
        if self.rets.is_empty() {
            self.args.get(1..).unwrap_or(&[])
        } else {
            self.rets
        }
    }
}

impl std::fmt::Debug for IntrinsicDef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "intrinsic {}", self.name)
    }
}

/// An intrinsic as the IR names it: the entry itself. Two ids are equal when they are the same
/// entry (entries have unique names, so names decide).
#[derive(Clone, Copy)]
pub struct IntrinsicId(pub &'static IntrinsicDef);

impl IntrinsicId {
    pub fn def(self) -> &'static IntrinsicDef {
        self.0
    }

    pub fn name(self) -> &'static str {
        self.0.name
    }
}

impl PartialEq for IntrinsicId {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.0, other.0) || self.0.name == other.0.name
    }
}

impl Eq for IntrinsicId {}

impl std::hash::Hash for IntrinsicId {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.name.hash(state)
    }
}

impl std::fmt::Debug for IntrinsicId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "IntrinsicId({})", self.0.name)
    }
}
