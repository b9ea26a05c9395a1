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
pub static TABLE: Table = Table {
    rest: std::sync::LazyLock::new(|| {
        let head = [registers::ENTRIES, sync::ENTRIES, &warp::ENTRIES[..]];
        let at = head.iter().map(|c| c.len()).sum();
        let rest = [
            math::ENTRIES,
            integer::ENTRIES,
            half::ENTRIES,
            memory::ENTRIES,
            misc::ENTRIES,
            heap::ENTRIES,
            cvta::ENTRIES,
            half_div::ENTRIES,
            pair_atomics::ENTRIES,
        ];
        (
            head.iter()
                .chain(&rest)
                .copied()
                .collect::<Vec<_>>()
                .concat(),
            at,
        )
    }),
    full: std::sync::LazyLock::new(|| {
        let (rest, at) = &*TABLE.rest;
        [&rest[..*at], &atomics::ENTRIES[..], &rest[*at..]].concat()
    }),
};

/// The intrinsic table, numbered as if its categories were one slice (which `Deref` gives).
///
/// The atomics (about 1300 entries, built once per process, about 1 M instructions) sit in the
/// middle of the numbering but are built only when an atomic is looked up or the whole slice is
/// asked for: [`lookup`], [`get`] and `TABLE.get(i)` / `TABLE[i]` on other entries leave them
/// unbuilt, so compiling a kernel without atomics never pays for them.
pub struct Table {
    /// Every category but the atomics, in table order, and where the atomics would start.
    rest: std::sync::LazyLock<(Vec<IntrinsicDef>, usize)>,
    full: std::sync::LazyLock<Vec<IntrinsicDef>>,
}

impl Table {
    /// Entry `i`, as `<[IntrinsicDef]>::get` on the whole table would give it.
    pub fn get(&self, i: usize) -> Option<&IntrinsicDef> {
        let (rest, at) = &*self.rest;
        match i.checked_sub(*at) {
            None => rest.get(i),
            Some(k) if k < atomics::COUNT => atomics::ENTRIES.get(k),
            Some(_) => rest.get(i - atomics::COUNT),
        }
    }

    pub fn len(&self) -> usize {
        self.rest.0.len() + atomics::COUNT
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl std::ops::Deref for Table {
    type Target = [IntrinsicDef];
    fn deref(&self) -> &[IntrinsicDef] {
        &self.full
    }
}

impl std::ops::Index<usize> for Table {
    type Output = IntrinsicDef;
    fn index(&self, i: usize) -> &IntrinsicDef {
        match self.get(i) {
            Some(d) => d,
            None => panic!("intrinsic index {i} out of range ({} entries)", self.len()),
        }
    }
}

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
    let (rest, at) = &*TABLE.rest;
    let i = match rest.iter().position(|d| d.name == name) {
        Some(j) if j < *at => j,
        Some(j) => j + atomics::COUNT,
        // Names are unique across the table (`names_are_unique`).
        None if name.starts_with(atomics::PREFIX) => {
            at + atomics::ENTRIES.iter().position(|d| d.name == name)?
        }
        None => return None,
    };
    Some(IntrinsicId(i as u16))
}

pub fn get(id: IntrinsicId) -> &'static IntrinsicDef {
    &TABLE[id.0 as usize]
}

#[cfg(test)]
mod tests {
    use super::{get, lookup, IntrinsicId, TABLE};

    /// Entry by entry, the lazily split table numbers and finds what the whole slice does.
    #[test]
    fn split_table_equals_the_whole() {
        let full: &[super::IntrinsicDef] = &TABLE;
        assert_eq!(full.len(), TABLE.len());
        for (i, d) in full.iter().enumerate() {
            let g = TABLE.get(i).unwrap();
            assert!(std::ptr::eq(g.name, d.name) || g.name == d.name);
            assert_eq!(
                (g.ptx, g.args, g.rets, g.min_sm),
                (d.ptx, d.args, d.rets, d.min_sm)
            );
            assert_eq!(get(IntrinsicId(i as u16)).name, d.name);
            assert_eq!(lookup(d.name), Some(IntrinsicId(i as u16)), "{}", d.name);
        }
        assert!(TABLE.get(full.len()).is_none());
        for unknown in ["", "atomic_", "atomic_add.u32", "tid.w", "sync_threadz"] {
            assert_eq!(lookup(unknown), None);
        }
    }
}
