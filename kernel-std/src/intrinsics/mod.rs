//! The intrinsic table: one entry per device intrinsic with its signature, its PTX lowering and its
//! simulator semantics, so the three can never drift apart.
//!
//! User-facing functions (`thread_idx()`, `sync_threads()`, ...) live in `api`; each has a companion
//! that resolves to `Callable::Intrinsic(name)`. The front end expands a few of them (those that
//! return `Dim3` or references to shared memory) into several table entries; every other name is
//! looked up here directly and its scalar signature used as is.

use crate::ir::{IntrinsicId, Space, Ty};

pub use cvta::SHARED_WINDOW;
pub use heap::{extern_declarations, ALLOCA, FREE as HEAP_FREE, MALLOC as HEAP_MALLOC};

mod atomics;
mod cvta;
mod half;
mod half_div;
mod heap;
mod integer;
mod math;
mod memory;
mod misc;
mod pair_atomics;
mod registers;
mod sync;
mod warp;

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
}

/// Simulator semantics of a `Pure`/`Memory` intrinsic: arguments as raw bits (see `ir::Const`),
/// results written to `out` (one per `rets` entry).
pub type SimFn = fn(env: &mut dyn SimEnv, args: &[u64], out: &mut [u64]);

/// Simulator semantics of a `Warp` intrinsic: `args[lane]` for every lane of the warp (`None` for lanes
/// not participating); fills `out[lane]` for participating lanes. Returns `Err(message)` when CUDA's
/// rules are broken (e.g. the mask names a lane that is not participating).
pub type SimWarpFn = fn(args: &[Option<Vec<u64>>], out: &mut [Vec<u64>]) -> Result<(), String>;

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

/// The table: every category's entries, concatenated. Indices are `IntrinsicId`s, stable within a
/// build (the compiler and simulator of one build always agree); look entries up by name.
pub static TABLE: std::sync::LazyLock<Vec<IntrinsicDef>> = std::sync::LazyLock::new(|| {
    [
        registers::ENTRIES,
        sync::ENTRIES,
        &warp::ENTRIES[..],
        &atomics::ENTRIES[..],
        math::ENTRIES,
        integer::ENTRIES,
        half::ENTRIES,
        memory::ENTRIES,
        misc::ENTRIES,
        heap::ENTRIES,
        cvta::ENTRIES,
        half_div::ENTRIES,
        pair_atomics::ENTRIES,
    ]
    .concat()
});

/// For a value-generic intrinsic (shuffles, matches, warp reductions, atomics), the argument whose
/// type picks the entry: the value (1) for warp collectives, the pointee of the reference (0) for
/// atomics. `None` for every other name.
pub fn typed_family(name: &str) -> Option<usize> {
    if warp::FAMILIES.contains(&name) {
        Some(1)
    } else if atomics::is_family(name) {
        Some(0)
    } else {
        None
    }
}

/// The entry of family `name` for values of type `ty`; atomics also by the address space the
/// reference points into (`shfl_sync.f32`, `atomic_add.u32.shared`).
pub fn typed_name(name: &str, ty: Ty, space: Space) -> String {
    let t = ty.rust_name();
    if atomics::is_family(name) {
        let sp = match space {
            Space::Global => "global",
            Space::Shared => "shared",
            Space::Local => "local",
        };
        format!("{name}.{t}.{sp}")
    } else {
        format!("{name}.{t}")
    }
}

pub fn lookup(name: &str) -> Option<IntrinsicId> {
    TABLE
        .iter()
        .position(|d| d.name == name)
        .map(|i| IntrinsicId(i as u16))
}

pub fn get(id: IntrinsicId) -> &'static IntrinsicDef {
    &TABLE[id.0 as usize]
}
