//! How a panicking kernel thread reports to the host: the contract between the PTX emitter, the
//! host runtime and hand-written PTX that wants its panics reported.
//!
//! Every compiled entry takes one parameter after the user's, `.param .u64 __fc_panic` (the name
//! is [`PANIC_PARAM`]): the device address of the launching stream's [`PanicSlot`], or 0 for no
//! reporting. A slot lives in *device* memory; its `claim` word is what panicking threads race
//! for, with a device-scope compare-and-swap (0 -> 1) that CUDA guarantees on device memory. The
//! winner writes a [`PanicRecord`] with plain stores to the page-locked, device-mapped host memory
//! the slot's `record` field points at, fences (`membar.sys`) and sets the record's `state` to
//! [`STATE_DONE`] last; then it exits (it does not `trap`, so the context survives and the other
//! threads finish). No atomic ever touches host memory: atomics on mapped memory are not atomic
//! where the host lacks native PCIe atomics, and compute-sanitizer's memcheck refuses them.
//!
//! The host reads the record after the stream's work completed (a stream, event or device
//! synchronize), which makes the plain stores visible; nothing happens per launch. After reporting
//! it clears the record and the claim. Because the slot belongs to the stream, a panic is reported
//! by the synchronize of the stream that ran the kernel (or by a device-wide synchronize), once.
//!
//! Each module defines `.visible .global .align 4 .u32 __fc_panic_module` ([`MODULE_SYMBOL`]);
//! the host writes a per-device module id into it at load, and the panic block copies it into the
//! record, so the report names the kernel and its source location. Its presence is also what tells
//! the runtime that the module's entries take the trailing [`PANIC_PARAM`].

/// Name of the trailing `.param .u64` of every entry: the address of the stream's [`PanicSlot`].
pub const PANIC_PARAM: &str = "__fc_panic";

/// Name of the module-scope `.u32` holding the module's id (the host writes it at load).
pub const MODULE_SYMBOL: &str = "__fc_panic_module";

/// Values of [`PanicRecord::state`].
pub const STATE_EMPTY: u32 = 0;
pub const STATE_DONE: u32 = 2;

/// Values of [`PanicSlot::claim`].
pub const CLAIM_FREE: u32 = 0;
pub const CLAIM_TAKEN: u32 = 1;

/// One stream's slot in device memory (16 bytes, C layout).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PanicSlot {
    /// `CLAIM_*`: taken by the first panicking thread, cleared by the host after reporting.
    pub claim: u32,
    pub _pad: u32,
    /// Device address of the slot's [`PanicRecord`] (mapped page-locked host memory).
    pub record: u64,
}

pub const SLOT_OFF_CLAIM: u32 = 0;
pub const SLOT_OFF_RECORD: u32 = 8;

const _: () = assert!(std::mem::size_of::<PanicSlot>() == 16);

/// The report itself, in host memory the device writes through its mapping (C layout, 64 bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PanicRecord {
    /// `STATE_*`, written last.
    pub state: u32,
    /// `ir::SiteId` into the kernel's `panic_sites`.
    pub site: u32,
    /// Detail values (bounds: index, length).
    pub a: u64,
    pub b: u64,
    pub block: [u32; 3],
    pub thread: [u32; 3],
    /// The module id from [`MODULE_SYMBOL`].
    pub module: u32,
    pub _pad: [u32; 3],
}

pub const OFF_STATE: u32 = 0;
pub const OFF_SITE: u32 = 4;
pub const OFF_A: u32 = 8;
pub const OFF_B: u32 = 16;
pub const OFF_BLOCK: u32 = 24;
pub const OFF_THREAD: u32 = 36;
pub const OFF_MODULE: u32 = 48;

const _: () = assert!(std::mem::size_of::<PanicRecord>() == 64);
const _: () = assert!(std::mem::offset_of!(PanicRecord, module) == OFF_MODULE as usize);
const _: () = assert!(std::mem::offset_of!(PanicRecord, thread) == OFF_THREAD as usize);
const _: () = assert!(std::mem::offset_of!(PanicSlot, record) == SLOT_OFF_RECORD as usize);
