//! The record a panicking kernel thread leaves for the host, shared by the PTX emitter, the host
//! runtime and the simulator.
//!
//! Each loaded module has a `.global .u64 __fc_panic_slot` that the host points at one 64-byte
//! [`PanicRecord`] in mapped page-locked memory when it loads the module (zero = no reporting).
//! The first panicking thread wins a compare-and-swap on `state` (0 -> 1), writes the fields,
//! fences at system scope and sets `state` to 2; then it exits (it does not `trap`, so the context
//! survives and the other threads finish). The host reads the slot only when it synchronizes, so
//! the check costs nothing per launch.

/// Name of the module-scope global holding the record's address.
pub const SLOT_SYMBOL: &str = "__fc_panic_slot";

pub const STATE_EMPTY: u32 = 0;
pub const STATE_WRITING: u32 = 1;
pub const STATE_DONE: u32 = 2;

/// Layout in memory (C layout, 64 bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PanicRecord {
    /// `STATE_*`.
    pub state: u32,
    /// `ir::SiteId` into the kernel's `panic_sites`.
    pub site: u32,
    /// Detail values (bounds: index, length).
    pub a: u64,
    pub b: u64,
    pub block: [u32; 3],
    pub thread: [u32; 3],
    pub _pad: [u32; 4],
}

pub const OFF_STATE: u32 = 0;
pub const OFF_SITE: u32 = 4;
pub const OFF_A: u32 = 8;
pub const OFF_B: u32 = 16;
pub const OFF_BLOCK: u32 = 24;
pub const OFF_THREAD: u32 = 36;

const _: () = assert!(std::mem::size_of::<PanicRecord>() == 64);
