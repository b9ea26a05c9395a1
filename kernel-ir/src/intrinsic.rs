//! What an intrinsic is, as every stage sees it. A table entry ([`IntrinsicDef`]): its signature,
//! its PTX template, its simulator semantics and the oldest target that has it; the IR refers to
//! entries directly ([`IntrinsicId`]), so the printer, the PTX emitter and the simulator need no
//! table. A device function users call ([`IntrinsicSpec`]): how the front end types and lowers a
//! call to it ([`Lowering`]) and the entries it lowers to. Both are declared together, with the
//! stub users call, in `kernel_std::intrinsics`.

use crate::ast::Type;
use crate::ir::{Space, Ty};

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
}

impl IntrinsicDef {
    /// The registers of the value an entry of a [`Lowering::Access`] family moves: its results,
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

/// A device function of the standard library as the front end sees it: what
/// [`Callable::Intrinsic`](crate::ast::Callable) names. Each is declared next to the table entries
/// it lowers to (kernel-std's `intrinsics`), by one declaration that also gives the stub users call.
pub struct IntrinsicSpec {
    /// The name users call it by, for messages.
    pub name: &'static str,
    pub lowering: Lowering,
    /// The table entries it owns: its own, or its family's (each entry has one owner, so a table
    /// of every function lists each entry once).
    pub entries: Entries,
}

impl std::fmt::Debug for IntrinsicSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "intrinsic fn {}", self.name)
    }
}

impl std::fmt::Display for IntrinsicSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

/// The entries of a function or family. A function, so that a large generated family (the
/// atomics) is built on its first use only.
pub type Entries = fn() -> &'static [IntrinsicDef];

/// How the front end types and lowers a call: one generic path per kind, plus [`Custom`] for the
/// few that need code of their own.
#[derive(Clone, Copy, Debug)]
pub enum Lowering {
    /// One entry with a fixed signature: the arguments converted to the entry's types; one result
    /// is a value, several a tuple (`match_all_sync`'s `(u32, bool)`).
    Scalar(&'static IntrinsicDef),
    /// One entry whose struct arguments and result travel as their fields (`half2`: two f16
    /// lanes): the entry takes the arguments' fields in order and returns the result's.
    Lanes {
        entry: &'static IntrinsicDef,
        params: &'static [fn() -> Type],
        ret: fn() -> Type,
    },
    /// A family of entries of one shape (the spec's `entries`), picked by the type of argument
    /// `arg` (`shfl_sync` on an f32 is the entry whose `args[arg]` is F32).
    Typed { arg: usize },
    /// Memory through a reference (atomics, cache-hinted loads and stores), the entry one of the
    /// spec's: see [`Access`].
    Access(Access),
    /// The address a reference into `space` holds, as an integer (U32 for shared, U64 for global
    /// memory: `cvta_to_shared`).
    AddressOf(Space),
    /// Whether a reference points into `space` (`None`: constant memory, where no reference of a
    /// kernel points), a constant known from the reference.
    IsIn(Option<Space>),
    /// A `Dim3` whose fields are three entries without arguments (`thread_idx()`: `tid.x/y/z`).
    Dim3 {
        axes: &'static [IntrinsicDef; 3],
        known: Known,
    },
    /// Lowered by code of its own in the front end.
    Custom(Custom),
}

/// An operation on the memory a reference points at. Argument 0 is the reference, passed as its
/// address: each entry's `args[0]` says which space it serves (U64: global, U32: shared memory).
/// The other arguments and the result (when the entry has one) are values of the pointee's type,
/// passed as its lanes: a scalar, or the fields of a struct whose alignment is its size (`half2`,
/// `float4`), which then moves in one access. The entry is the one for the reference's space
/// whose lanes are the pointee's.
#[derive(Clone, Copy, Debug)]
pub struct Access {
    /// Writes through the reference: it must be `&mut`.
    pub writes: bool,
    /// A struct pointee without an entry of its own may be accessed field by field (hinted loads
    /// and stores of `float3`); an atomic must stay one access.
    pub by_field: bool,
}

/// What a kernel's required block shape (`#[kernel(block_dim = ...)]`) tells about the fields
/// of a [`Lowering::Dim3`] register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Known {
    Nothing,
    /// The extent itself (`block_dim()`).
    Extent,
    /// An index, 0 along an axis of extent 1 (`thread_idx()`).
    Index,
}

/// Intrinsics that need code of their own in the front end.
#[derive(Clone, Copy, Debug)]
pub enum Custom {
    /// `shared_array::<T>()`: one static allocation per call site.
    SharedArray,
    /// `dynamic_shared::<T>()`: the launch's dynamic shared memory as a slice.
    DynamicShared,
    /// `device_malloc::<T>(n)`: a slice of the device heap (the entry allocates).
    DeviceMalloc(&'static IntrinsicDef),
    /// `alloca::<T>(n)`: a slice of the thread's stack (the entry allocates).
    Alloca(&'static IntrinsicDef),
    /// `device_free(slice)` (the entry frees).
    DeviceFree(&'static IntrinsicDef),
    /// `assume(cond)`: checked in the simulator behind the entry (`sim_checks`).
    Assume(&'static IntrinsicDef),
    /// `assume_aligned(slice, align)`: as `Assume`.
    AssumeAligned(&'static IntrinsicDef),
    /// The entry, then a panic with this message that the simulator reports (`trap`,
    /// `unreachable`).
    Trap(&'static IntrinsicDef, &'static str),
    /// `pm_counter(n)`: the constant `n` picks the entry.
    PmCounter(&'static [IntrinsicDef]),
    /// A math-library function generic over the float type (`rsqrt`): kernel-std's `math`
    /// picks its implementation per type.
    Math,
}
