//! The GPU architecture a simulated launch stands for. A kernel the simulator runs must also be one
//! a GPU of that architecture accepts, so every launch is checked against its target's limits
//! (threads, block and grid extents, static and dynamic shared memory) and instruction set (an
//! intrinsic newer than the target is refused, as ptxas refuses it), instead of the largest
//! numbers any GPU has.
//!
//! The numbers are the CUDA C++ Programming Guide's table of technical specifications per compute
//! capability. Registers are listed for completeness: the simulator does no register allocation,
//! so it cannot know a kernel's count (ptxas only warns about a `max_registers` above the limit).

use std::fmt;

/// One compute capability's limits. The named constants are the supported targets; the default
/// is [`Target::SM_80`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Target {
    /// Compute capability as `major * 10 + minor` (80 for 8.0).
    pub sm: u32,
    /// Threads per block.
    pub max_threads_per_block: u32,
    /// Block extent per axis.
    pub max_block_dim: [u32; 3],
    /// Grid extent per axis.
    pub max_grid_dim: [u32; 3],
    /// Statically declared shared memory per block (ptxas refuses more).
    pub max_static_shared: u32,
    /// Static plus dynamic shared memory per block without the opt-in attribute.
    pub default_shared_per_block: u32,
    /// Static plus dynamic shared memory per block once the kernel opted in
    /// (`cudaFuncAttributeMaxDynamicSharedMemorySize`).
    pub max_shared_per_block_optin: u32,
    /// Shared memory per multiprocessor.
    pub shared_per_multiprocessor: u32,
    /// Resident threads per multiprocessor.
    pub max_threads_per_multiprocessor: u32,
    /// Resident blocks per multiprocessor.
    pub max_blocks_per_multiprocessor: u32,
    /// 32-bit registers per block.
    pub registers_per_block: u32,
    /// 32-bit registers per thread.
    pub max_registers_per_thread: u32,
}

const KIB: u32 = 1024;

/// What every target from sm_70 on shares; each constant sets the rest.
const BASE: Target = Target {
    sm: 0,
    max_threads_per_block: 1024,
    max_block_dim: [1024, 1024, 64],
    max_grid_dim: [i32::MAX as u32, 65535, 65535],
    max_static_shared: 48 * KIB,
    default_shared_per_block: 48 * KIB,
    max_shared_per_block_optin: 48 * KIB,
    shared_per_multiprocessor: 48 * KIB,
    max_threads_per_multiprocessor: 2048,
    max_blocks_per_multiprocessor: 32,
    registers_per_block: 64 * KIB,
    max_registers_per_thread: 255,
};

const fn arch(
    sm: u32,
    optin_kib: u32,
    per_sm_kib: u32,
    threads_per_sm: u32,
    blocks: u32,
) -> Target {
    Target {
        sm,
        max_shared_per_block_optin: optin_kib * KIB,
        shared_per_multiprocessor: per_sm_kib * KIB,
        max_threads_per_multiprocessor: threads_per_sm,
        max_blocks_per_multiprocessor: blocks,
        ..BASE
    }
}

impl Target {
    /// Volta (V100).
    pub const SM_70: Target = arch(70, 96, 96, 2048, 32);
    /// Xavier.
    pub const SM_72: Target = arch(72, 96, 96, 2048, 32);
    /// Turing.
    pub const SM_75: Target = arch(75, 64, 64, 1024, 16);
    /// Ampere A100.
    pub const SM_80: Target = arch(80, 163, 164, 2048, 32);
    /// Ampere GA10x.
    pub const SM_86: Target = arch(86, 99, 100, 1536, 16);
    /// Orin.
    pub const SM_87: Target = arch(87, 163, 164, 2048, 16);
    /// Ada.
    pub const SM_89: Target = arch(89, 99, 100, 1536, 24);
    /// Hopper (H100, H200).
    pub const SM_90: Target = arch(90, 227, 228, 2048, 32);
    /// Blackwell B100/B200.
    pub const SM_100: Target = arch(100, 227, 228, 2048, 32);
    /// Blackwell GeForce / RTX PRO.
    pub const SM_120: Target = arch(120, 99, 100, 1536, 32);

    /// Every supported target, oldest first.
    pub const ALL: [Target; 10] = [
        Target::SM_70,
        Target::SM_72,
        Target::SM_75,
        Target::SM_80,
        Target::SM_86,
        Target::SM_87,
        Target::SM_89,
        Target::SM_90,
        Target::SM_100,
        Target::SM_120,
    ];

    /// The target of compute capability `sm` (`major * 10 + minor`), if supported.
    pub fn from_sm(sm: u32) -> Option<Target> {
        Target::ALL.into_iter().find(|t| t.sm == sm)
    }

    /// Parses an architecture as users write it: `90`, `sm_90`, `compute_90` or `9.0`.
    pub fn parse(s: &str) -> Result<Target, String> {
        let t = s.trim().to_ascii_lowercase();
        let digits = t
            .strip_prefix("sm_")
            .or_else(|| t.strip_prefix("compute_"))
            .unwrap_or(&t);
        let sm = match digits.split_once('.') {
            Some((major, minor)) => major
                .parse::<u32>()
                .ok()
                .zip(minor.parse::<u32>().ok().filter(|m| *m < 10))
                .map(|(a, b)| a * 10 + b),
            None => digits.parse::<u32>().ok(),
        };
        sm.and_then(Target::from_sm).ok_or_else(|| {
            let known: Vec<String> = Target::ALL.iter().map(|t| t.sm.to_string()).collect();
            format!(
                "`{s}` is not a simulated architecture; use one of {} (as `90`, `sm_90` or `9.0`)",
                known.join(", ")
            )
        })
    }

    /// The target named by `FERROCUDA_SIM_ARCH` (see [`Target::parse`]): `Ok(None)` when unset or
    /// empty, `Err` with a message for a value that names no supported architecture.
    pub fn from_env() -> Result<Option<Target>, String> {
        match std::env::var("FERROCUDA_SIM_ARCH") {
            Ok(v) if !v.trim().is_empty() => Target::parse(&v)
                .map(Some)
                .map_err(|e| format!("FERROCUDA_SIM_ARCH: {e}")),
            _ => Ok(None),
        }
    }

    /// [`Target::from_env`], or the default target; a bad value is reported once on stderr and
    /// ignored, for callers that cannot return an error.
    pub fn from_env_or_default() -> Target {
        match Target::from_env() {
            Ok(t) => t.unwrap_or_default(),
            Err(e) => {
                static WARNED: std::sync::Once = std::sync::Once::new();
                WARNED.call_once(|| {
                    eprintln!(
                        "ferrocuda simulator: {e}; simulating sm_{}",
                        Target::default().sm
                    )
                });
                Target::default()
            }
        }
    }

    /// Compute capability as (major, minor).
    pub fn compute_capability(&self) -> (u32, u32) {
        (self.sm / 10, self.sm % 10)
    }
}

impl Default for Target {
    fn default() -> Self {
        Target::SM_80
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "sm_{}", self.sm)
    }
}
