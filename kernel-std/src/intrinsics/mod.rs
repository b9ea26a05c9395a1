//! The device API and its intrinsic table, declared together: one file per category, in which
//! each function users call is declared once (the `intrinsics!` macro of `spec.rs`) with its
//! stub, the spec the front end lowers it by ([`IntrinsicSpec`]) and the table entries it
//! lowers to (signature, PTX template, simulator semantics, oldest target). The IR names entries
//! directly ([`IntrinsicId`]); [`lookup`] by name serves tests and tools.
//!
//! Users see these functions through `api` (and `prelude`); their companion modules (`popc::`)
//! are what `#[kernel]` code resolves.

pub use kernel_ir::ast::{
    Access, Custom, Entries, IntrinsicSpec, Known, Lowering, MathFn, MathImpl,
};
pub use kernel_ir::intrinsic::{
    Class, IntrinsicDef, IntrinsicId, SimEnv, SimFn, SimWarpFn, SpecialReg,
};
pub use spec::{IrRets, IrType};

pub(crate) use crate::types::DeviceType;
use kernel_ir::ir::{Block, Inst, Kernel};

/// Where the simulator puts the shared window in the generic address space: above any global
/// allocation of `sim::GlobalMemory`, like the GPU's window above its global heap.
pub const SHARED_WINDOW: u64 = 0xff00_0000_0000;

/// The table names of the device heap's two calls (`malloc`, `free`), and of `alloca` (B.17),
/// the per-thread stack's allocator.
pub const HEAP_MALLOC: &str = "heap.malloc";
pub const HEAP_FREE: &str = "heap.free";
pub const ALLOCA: &str = "stack.alloca";

#[macro_use]
mod spec;

#[doc(hidden)]
pub mod async_copy;
#[doc(hidden)]
pub mod atomics;
#[doc(hidden)]
pub mod barrier_async;
pub mod cluster;
pub mod collectives;
#[doc(hidden)]
pub mod cvta;
pub mod grid;
#[doc(hidden)]
pub mod half;
#[doc(hidden)]
pub mod half_div;
#[doc(hidden)]
pub mod heap;
#[doc(hidden)]
pub mod integer;
#[doc(hidden)]
pub mod math;
#[doc(hidden)]
pub mod memory;
#[doc(hidden)]
pub mod misc;
#[doc(hidden)]
pub mod pair_atomics;
#[doc(hidden)]
pub mod pipeline;
#[doc(hidden)]
pub mod registers;
/// Float arithmetic with an explicit rounding mode (simulator semantics).
pub(crate) mod rounding;
#[doc(hidden)]
pub mod shared;
#[doc(hidden)]
pub mod sync;
#[doc(hidden)]
pub mod tma;
#[doc(hidden)]
pub mod warp;
pub mod wmma;
mod wmma_entries;
mod wmma_kinds;
mod wmma_sim;

/// The body of every stub: the device API only runs compiled for the device.
#[cold]
#[track_caller]
pub(crate) fn device_only(name: &str) -> ! {
    panic!("`{name}` is a device function: call it inside a #[kernel] or #[device] function, which run on the GPU or the simulator")
}

/// One `intrinsics!` block: its functions, and entries that none of them owns.
pub(crate) struct Table {
    specs: &'static [&'static IntrinsicSpec],
    unowned: &'static [Entries],
}

/// Every category but the atomics.
static TABLES: &[&Table] = &[
    &registers::TABLE,
    &cluster::TABLE,
    &grid::TABLE,
    &sync::TABLE,
    &warp::TABLE,
    &math::TABLE,
    &integer::TABLE,
    &half::TABLE,
    &half_div::TABLE,
    &memory::TABLE,
    &shared::TABLE,
    &misc::TABLE,
    &heap::TABLE,
    &cvta::TABLE,
    &pair_atomics::TABLE,
    &wmma::TABLE,
    &barrier_async::TABLE,
    &async_copy::TABLE,
    &tma::TABLE,
    &APPROX,
];

/// The approximate f32 units the math library is built on (`crate::math::approx`).
static APPROX: Table = Table {
    specs: crate::math::approx::SPECS,
    unowned: &[],
};

/// The atomics' families (about 1900 entries, on global, shared and distributed shared memory,
/// generated on first use: a kernel without atomics never pays for them).
static ATOMICS: &[&Table] = &[
    &atomics::ARITHMETIC,
    &atomics::BITWISE,
    &atomics::LOADS,
    &atomics::STORES,
];

/// Every function of the device API.
pub fn specs() -> impl Iterator<Item = &'static IntrinsicSpec> {
    TABLES
        .iter()
        .chain(ATOMICS)
        .flat_map(|t| t.specs.iter().copied())
}

fn entries_of(tables: &'static [&'static Table]) -> impl Iterator<Item = &'static IntrinsicDef> {
    let owned = |t: &'static Table| t.specs.iter().map(|s| s.entries);
    tables
        .iter()
        .flat_map(move |t| owned(t).chain(t.unowned.iter().copied()))
        .flat_map(|f| f().iter())
}

/// Every entry of the table.
pub fn all() -> impl Iterator<Item = &'static IntrinsicDef> {
    entries_of(TABLES).chain(entries_of(ATOMICS))
}

/// The entry named `name` (names are unique across the table: `names_are_unique`).
pub fn lookup(name: &str) -> Option<IntrinsicId> {
    let found = entries_of(TABLES).find(|d| d.name == name);
    let found = match found {
        None if name.starts_with("atomic_") => entries_of(ATOMICS).find(|d| d.name == name),
        found => found,
    };
    found.map(IntrinsicId)
}

/// The module-scope `.extern .func` declarations of the runtime functions `k` calls (empty
/// when it calls none), to print before the entry.
pub fn extern_declarations(k: &Kernel) -> String {
    let (mut malloc, mut free) = (false, false);
    visit(&k.body, &mut |id| {
        malloc |= std::ptr::eq(id.def(), &heap::MALLOC_ENTRY);
        free |= std::ptr::eq(id.def(), &heap::FREE_ENTRY);
    });
    let mut out = String::new();
    if malloc {
        out.push_str(".extern .func (.param .b64 func_retval0) malloc (.param .b64 size);\n");
    }
    if free {
        out.push_str(".extern .func free (.param .b64 ptr);\n");
    }
    out
}

fn visit(b: &Block, f: &mut dyn FnMut(IntrinsicId)) {
    for i in &b.0 {
        match i {
            Inst::Intrinsic { id, .. } => f(*id),
            Inst::If { then, els, .. } => {
                visit(then, f);
                visit(els, f);
            }
            Inst::For { body, .. } | Inst::Loop { body, .. } => visit(body, f),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests;
