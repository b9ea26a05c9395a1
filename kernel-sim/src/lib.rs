//! The simulator: runs optimized IR on the CPU, block by block, detecting races and misuse.
//!
//! A launch lowers the kernel once into flat bytecode (`compile`), then runs every block
//! (`sched`) with its threads interleaved deterministically: each thread runs until it exits or
//! parks at a barrier or warp collective. Integer results and IEEE round-to-nearest float results
//! are bit-identical to the PTX the emitter produces for the same IR.
//!
//! Beyond running kernels it reports what a GPU would hide: out-of-bounds and misaligned accesses,
//! shared-memory races between barriers, reads of never-written shared memory, divergent barriers
//! and warp collectives whose mask names lanes that are not there or that disagree on the mask
//! ([`SimErrorKind`]). What is suspect but legal (the first plain read of a compare-and-swap loop)
//! is a [`SimWarning`] instead. Each launch is checked against the GPU architecture it stands for
//! ([`Target`]): its limits and the intrinsics it has.

// `SimError` is a plain struct with public fields that callers match on; it only travels on the
// cold path, so boxing it would cost clarity for nothing.
#![allow(clippy::result_large_err)]

mod async_state;
mod compile;
mod detect;
mod error;
mod exec;
mod memory;
mod ops;
mod print;
mod sched;
mod target;
mod tma;
mod warn;

pub use error::{SimError, SimErrorKind};
pub use memory::{GlobalMemory, DEFAULT_HEAP_LIMIT, MAX_ALLOCA_BYTES};
pub use print::capture_output;
pub use target::Target;
pub use warn::{capture_warnings, SimWarning, SimWarningKind};

use kernel_ir::ir::Kernel;

/// The order in which blocks run. Correct kernels give the same result for every order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BlockOrder {
    /// Linear block id order (x fastest).
    #[default]
    Sequential,
    /// A pseudo-random permutation fixed by the seed.
    Shuffled(u64),
}

/// One launch's configuration, as `cuLaunchKernel` takes it, with the GPU it stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SimLaunch {
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub dyn_shared_bytes: u32,
    pub block_order: BlockOrder,
    /// The architecture whose limits and instruction set the launch must respect.
    pub target: Target,
    /// The kernel's `cudaFuncAttributeMaxDynamicSharedMemorySize`: `None` when never set, so that
    /// static plus dynamic shared memory must fit the target's default 48 KiB; `Some(n)` once raised
    /// to `n`, which the target's opt-in limit must hold together with the static shared memory.
    pub max_dynamic_shared_bytes: Option<u32>,
    /// Blocks per thread block cluster (`cudaLaunchAttributeClusterDimension`); `[1, 1, 1]` is
    /// a launch without clusters, or one whose kernel fixes the shape (`cluster_dims`). A
    /// cluster's blocks run together, so `cluster_sync` and distributed shared memory work.
    pub cluster: [u32; 3],
}

impl SimLaunch {
    /// A 1-D launch in sequential order without dynamic shared memory, on the default target.
    pub fn linear(grid: u32, block: u32) -> Self {
        SimLaunch {
            grid: [grid, 1, 1],
            block: [block, 1, 1],
            dyn_shared_bytes: 0,
            block_order: BlockOrder::Sequential,
            target: Target::default(),
            max_dynamic_shared_bytes: None,
            cluster: [1, 1, 1],
        }
    }

    /// This launch with `bytes` of dynamic shared memory and the kernel opted in to exactly that
    /// much (what a host runtime does for a launch that needs more than the default).
    pub fn with_dynamic_shared(self, bytes: u32) -> Self {
        SimLaunch {
            dyn_shared_bytes: bytes,
            max_dynamic_shared_bytes: Some(bytes),
            ..self
        }
    }

    /// This launch on another target.
    pub fn on(self, target: Target) -> Self {
        SimLaunch { target, ..self }
    }
}

/// Counters and warnings of a completed launch.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SimStats {
    /// Bytecode operations executed, summed over threads (about one per IR instruction; loop
    /// headers and jumps count too).
    pub instructions: u64,
    pub blocks: u64,
    pub threads: u64,
    /// Block-wide barrier releases.
    pub barriers: u64,
    /// Warp collectives completed (one per warp and program point).
    pub warp_collectives: u64,
    /// What the detectors found suspect but legal, one entry per kind and program point (the
    /// first occurrence, with a count). Each is also printed once per process on stderr (see
    /// [`capture_warnings`]), whether or not the launch succeeds.
    pub warnings: Vec<SimWarning>,
}

/// The default of [`max_instructions`]: minutes of simulation, far beyond any test kernel.
pub const DEFAULT_MAX_INSTRUCTIONS: u64 = 10_000_000_000;

/// Operations one launch may execute (summed over its threads) before it stops with
/// [`SimErrorKind::InstructionLimit`], so that a spinning kernel fails instead of hanging:
/// `FERROCUDA_SIM_MAX_INSTRUCTIONS` when set to a positive integer, else
/// [`DEFAULT_MAX_INSTRUCTIONS`].
pub fn max_instructions() -> u64 {
    std::env::var("FERROCUDA_SIM_MAX_INSTRUCTIONS")
        .ok()
        .and_then(|v| v.trim().replace('_', "").parse::<u64>().ok())
        .filter(|&n| n > 0)
        .unwrap_or(DEFAULT_MAX_INSTRUCTIONS)
}

/// Runs `kernel` over the whole grid. `params` holds one byte slice per `ir::Param` in its C
/// layout (slices as `{ptr: u64, len: u64}`); pointers are `GlobalMemory` addresses. Stops at the
/// first panic or detected bug, in deterministic order (block order, then thread linear id).
pub fn launch(
    kernel: &Kernel,
    cfg: &SimLaunch,
    params: &[&[u8]],
    mem: &mut GlobalMemory,
) -> Result<SimStats, SimError> {
    sched::launch(kernel, cfg, params, mem, max_instructions())
}

/// [`launch`] with an explicit instruction limit instead of [`max_instructions`].
pub fn launch_with_limit(
    kernel: &Kernel,
    cfg: &SimLaunch,
    params: &[&[u8]],
    mem: &mut GlobalMemory,
    max_instructions: u64,
) -> Result<SimStats, SimError> {
    sched::launch(kernel, cfg, params, mem, max_instructions)
}
