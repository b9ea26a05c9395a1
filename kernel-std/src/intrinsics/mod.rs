//! The intrinsic table: one entry per device intrinsic with its signature, its PTX lowering and its
//! simulator semantics, so the three can never drift apart.
//!
//! User-facing functions (`thread_idx()`, `sync_threads()`, ...) live in `api`; each has a companion
//! that resolves to `Callable::Intrinsic(name)`. The front end expands a few of them (those that
//! return `Dim3` or references to shared memory) into several table entries; every other name is
//! looked up here directly and its scalar signature used as is.

pub use kernel_ir::intrinsic::{Class, IntrinsicDef, IntrinsicId, SimEnv, SimFn, SimWarpFn};
use kernel_ir::ir::{Space, Ty};

pub use cvta::SHARED_WINDOW;
pub use heap::{extern_declarations, ALLOCA, FREE as HEAP_FREE, MALLOC as HEAP_MALLOC};

mod atomics;
pub mod collectives;
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

/// Every entry but the atomics, in category order.
static REST: std::sync::LazyLock<Vec<IntrinsicDef>> = std::sync::LazyLock::new(|| {
    [
        registers::ENTRIES,
        sync::ENTRIES,
        &warp::ENTRIES[..],
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

/// Every entry of the table. The atomics (about 1300 entries, generated) are built on the first
/// lookup of an atomic, so a kernel without atomics never pays for them.
pub fn all() -> impl Iterator<Item = &'static IntrinsicDef> {
    REST.iter().chain(atomics::ENTRIES.iter())
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

/// The entry named `name` (names are unique across the table: `names_are_unique`).
pub fn lookup(name: &str) -> Option<IntrinsicId> {
    let found = REST.iter().find(|d| d.name == name);
    let found = match found {
        None if name.starts_with(atomics::PREFIX) => {
            atomics::ENTRIES.iter().find(|d| d.name == name)
        }
        found => found,
    };
    found.map(IntrinsicId)
}

#[cfg(test)]
mod tests {
    use super::{all, lookup};

    #[test]
    fn every_entry_is_found_by_its_name() {
        for d in all() {
            let id = lookup(d.name).unwrap_or_else(|| panic!("{} not found", d.name));
            assert!(std::ptr::eq(id.def(), d), "{}", d.name);
        }
        for unknown in ["", "atomic_", "atomic_add.u32", "tid.w", "sync_threadz"] {
            assert_eq!(lookup(unknown), None);
        }
    }
}
