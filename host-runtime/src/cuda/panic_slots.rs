//! How a panicking device thread's report reaches the host (CUDA backend).
//!
//! Each stream owns a slot: a 16-byte [`PanicSlot`] in device memory plus the 64-byte
//! [`PanicRecord`] it points at, in page-locked host memory mapped into the device. Every launch
//! passes the stream's slot address as the kernel's trailing `__fc_panic` parameter. A panicking
//! thread claims the slot with a device-scope CAS (device memory, so CUDA guarantees it and
//! compute-sanitizer accepts it), writes the record with plain stores and *exits*: the context stays
//! usable and the other threads run to completion. No atomic ever touches host memory.
//!
//! Nothing happens per launch. A stream (or event) synchronize reads that stream's record, a device
//! synchronize (and the copies to the host, which synchronize the device) reads every record; the
//! work that wrote a record has completed by then, so its plain stores are visible. A completed
//! record becomes [`Error::KernelPanic`](crate::Error::KernelPanic) with the kernel's name and
//! source location (looked up by the module id the panic block copies into the record), then the
//! record and the claim are cleared, so each panic is reported once, by the stream that ran it.
//!
//! A dropped stream's slot is retired, not freed: kernels it queued may still run and panic. A
//! device synchronize that began after the retirement reports what the slot holds and recycles it.

use std::collections::HashMap;
use std::ffi::{c_void, CString};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use cudarc::driver::sys::{self, CUmodule, CUstream};
use kernel_ir::ir::PanicSite;
use kernel_ir::panic_record::{
    PanicRecord, PanicSlot, CLAIM_FREE, MODULE_SYMBOL, SLOT_OFF_CLAIM, STATE_DONE,
};

use super::result;
use crate::panic::KernelPanic;
use crate::{Error, Result};

/// What a report needs to name the kernel and the site.
#[derive(Clone)]
pub(crate) struct ModuleInfo {
    pub kernel: String,
    pub sites: Option<Arc<[PanicSite]>>,
}

const SLOTS_PER_PAGE: usize = 64;

/// 64 slots: their device words and their mapped host records.
struct Page {
    dev: u64,
    host: *mut PanicRecord,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Free,
    Live,
    /// Its stream was dropped; the number orders retirements against device synchronizes.
    Retired(u64),
}

#[derive(Default)]
struct Table {
    pages: Vec<Page>,
    states: Vec<State>,
    free: Vec<u32>,
    modules: HashMap<u32, ModuleInfo>,
    next_module: u32,
    retirements: u64,
}

// SAFETY: the page pointers are page-locked allocations owned by the table.
unsafe impl Send for Table {}

/// A stream's slot: its id, the device address kernels get, and the host view of its record.
pub(crate) struct SlotHandle {
    pub(crate) id: u32,
    pub(crate) dev: u64,
    host: *mut PanicRecord,
    /// The stream's grid-barrier words (`grid_sync`'s hidden parameter): two zeroed `u32`s
    /// after the page's slots, retired and recycled with the slot, so a kernel still queued on
    /// a dropped stream keeps them. Launches on one stream never overlap while both use them
    /// (a cooperative launch may not be a programmatic dependent one), and a completed barrier
    /// leaves the arrival count at 0, so any later kernel may use them as they are.
    pub(crate) grid_words: u64,
}

// SAFETY: the record is plain page-locked memory, read with atomic/volatile accesses only.
unsafe impl Send for SlotHandle {}
unsafe impl Sync for SlotHandle {}

/// The per-device table of stream slots and loaded modules.
#[derive(Default)]
pub(crate) struct PanicSlots {
    table: Mutex<Table>,
}

impl PanicSlots {
    fn lock(&self) -> MutexGuard<'_, Table> {
        self.table.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A clean slot for a new stream. The context must be current; `q` is the device's internal
    /// stream (initializes a new page's device words).
    pub(crate) fn take(&self, q: CUstream) -> Result<SlotHandle> {
        let mut t = self.lock();
        let id = match t.free.pop() {
            Some(id) => id,
            None => {
                let page = alloc_page(q)?;
                let base = t.pages.len() * SLOTS_PER_PAGE;
                t.pages.push(page);
                t.states.resize(base + SLOTS_PER_PAGE, State::Free);
                t.free
                    .extend((base as u32 + 1..(base + SLOTS_PER_PAGE) as u32).rev());
                base as u32
            }
        };
        t.states[id as usize] = State::Live;
        let (dev, host) = slot_ptrs(&t, id);
        let grid_words = grid_words(&t, id);
        Ok(SlotHandle {
            id,
            dev,
            host,
            grid_words,
        })
    }

    /// The stream of `h` is gone; the slot is recycled by a later device synchronize.
    pub(crate) fn retire(&self, h: &SlotHandle) {
        let mut t = self.lock();
        t.retirements += 1;
        let n = t.retirements;
        if let Some(s) = t.states.get_mut(h.id as usize) {
            if *s == State::Live {
                *s = State::Retired(n);
            }
        }
    }

    /// Gives a loaded module an id and writes it into its `__fc_panic_module`. `Ok(None)` for
    /// modules without the symbol (hand-written PTX that does not report panics).
    pub(crate) fn register_module(
        &self,
        module: CUmodule,
        info: ModuleInfo,
        q: CUstream,
    ) -> Result<Option<u32>> {
        let name = CString::new(MODULE_SYMBOL).expect("symbol has no NUL");
        // SAFETY: the caller passes a module it just loaded.
        let Some((global, size)) = (unsafe { result::module_get_global(module, &name)? }) else {
            return Ok(None);
        };
        if size != 4 {
            return Err(Error::InvalidValue(format!(
                "`{MODULE_SYMBOL}` is {size} bytes, expected 4"
            )));
        }
        let id = {
            let mut t = self.lock();
            t.next_module = t.next_module.wrapping_add(1).max(1);
            let id = t.next_module;
            t.modules.insert(id, info);
            id
        };
        let r = write_sync(q, global, &id.to_ne_bytes());
        if let Err(e) = r {
            self.unregister_module(id);
            return Err(e);
        }
        Ok(Some(id))
    }

    /// Forgets a module at unload.
    pub(crate) fn unregister_module(&self, id: u32) {
        self.lock().modules.remove(&id);
    }

    /// Reports (once) the panic recorded in one stream's slot. Call after the stream's work
    /// completed.
    pub(crate) fn check_slot(&self, h: &SlotHandle, q: CUstream) -> Result<()> {
        // SAFETY: the record is live mapped memory; `state` is 4-byte aligned and written last.
        let state = unsafe { &*(h.host as *const AtomicU32) };
        if state.load(Ordering::Acquire) != STATE_DONE {
            return Ok(());
        }
        let t = self.lock();
        Err(take_report(&t, h.dev, h.host, h.grid_words, q))
    }

    /// A number to pass to [`PanicSlots::check_all`], taken before the device synchronize.
    pub(crate) fn mark(&self) -> u64 {
        self.lock().retirements
    }

    /// Reports (once) the first panic of any slot, then recycles the slots retired before `mark`.
    /// Call after a device-wide synchronize that began after `mark` was taken.
    pub(crate) fn check_all(&self, mark: u64, q: CUstream) -> Result<()> {
        let mut t = self.lock();
        for id in 0..t.states.len() as u32 {
            if t.states[id as usize] == State::Free {
                continue;
            }
            let (dev, host) = slot_ptrs(&t, id);
            // SAFETY: as in `check_slot`.
            let state = unsafe { &*(host as *const AtomicU32) };
            if state.load(Ordering::Acquire) == STATE_DONE {
                return Err(take_report(&t, dev, host, grid_words(&t, id), q));
            }
        }
        for id in 0..t.states.len() as u32 {
            if matches!(t.states[id as usize], State::Retired(n) if n <= mark) {
                t.states[id as usize] = State::Free;
                t.free.push(id);
            }
        }
        Ok(())
    }

    /// Forgets every slot and module after a context reset freed the pages (no driver calls).
    pub(crate) fn forget(&self) {
        let mut t = self.lock();
        let next_module = t.next_module;
        *t = Table::default();
        // Ids stay unique across resets, so a stale id never names a new module.
        t.next_module = next_module;
    }

    /// Frees the pages at device teardown (the context is still alive).
    pub(crate) fn free_pages(&self) {
        let mut t = self.lock();
        for p in t.pages.drain(..) {
            // SAFETY: the table's own pages; no stream is left to use them.
            unsafe {
                let _ = result::mem_free(p.dev);
                let _ = result::mem_free_host(p.host as *mut c_void);
            }
        }
        *t = Table::default();
    }
}

/// Builds the report of a completed record and clears the record, then the claim (in that
/// order: a panic racing the reset then finds a clean record and keeps its report).
///
/// The slot's grid-barrier words (`grid`) are zeroed first: a `grid_sync()` kernel whose thread
/// panicked left its barriers early, so their counts are not to be trusted.
fn take_report(t: &Table, dev: u64, host: *mut PanicRecord, grid: u64, q: CUstream) -> Error {
    // SAFETY: the record is live mapped memory the device finished writing.
    let rec = unsafe { std::ptr::read_volatile(host) };
    if let Err(e) = write_sync(q, grid, &[0u8; GRID_WORDS]) {
        return e;
    }
    unsafe { std::ptr::write_volatile(host, PanicRecord::default()) };
    let claim = CLAIM_FREE.to_ne_bytes();
    if let Err(e) = write_sync(q, dev + SLOT_OFF_CLAIM as u64, &claim) {
        return e;
    }
    let report = match t.modules.get(&rec.module) {
        Some(m) => KernelPanic::from_record(&m.kernel, m.sites.as_deref(), &rec),
        None => KernelPanic::from_record(&format!("<unloaded module #{}>", rec.module), None, &rec),
    };
    report.into()
}

/// Copies `bytes` to device address `dst` on the internal stream `q` and waits for it, so the
/// words are in place for every stream (a legacy-stream copy is not ordered before work on
/// non-blocking streams, and a pageable copy may return before its DMA finished).
fn write_sync(q: CUstream, dst: u64, bytes: &[u8]) -> Result<()> {
    // SAFETY: `bytes` outlives the copy (the host waits for it); `dst` is the caller's word.
    unsafe {
        result::memcpy_htod_async(dst, bytes.as_ptr() as *const c_void, bytes.len(), q)?;
        result::stream_synchronize(q)
    }
}

fn slot_ptrs(t: &Table, id: u32) -> (u64, *mut PanicRecord) {
    let page = &t.pages[id as usize / SLOTS_PER_PAGE];
    let i = id as usize % SLOTS_PER_PAGE;
    // SAFETY: `i` < SLOTS_PER_PAGE, inside the page allocation.
    let host = unsafe { page.host.add(i) };
    (
        page.dev + (i * std::mem::size_of::<PanicSlot>()) as u64,
        host,
    )
}

/// Bytes of one stream's grid-barrier words (arrivals, generation).
const GRID_WORDS: usize = 8;

/// Slot `id`'s grid-barrier words: after the page's `PanicSlot`s.
fn grid_words(t: &Table, id: u32) -> u64 {
    let page = &t.pages[id as usize / SLOTS_PER_PAGE];
    let i = id as usize % SLOTS_PER_PAGE;
    page.dev + (SLOTS_PER_PAGE * std::mem::size_of::<PanicSlot>() + i * GRID_WORDS) as u64
}

/// Allocates a page: zeroed mapped records, device words pointing at them with free claims, and
/// zeroed grid-barrier words.
fn alloc_page(q: CUstream) -> Result<Page> {
    let host_bytes = SLOTS_PER_PAGE * std::mem::size_of::<PanicRecord>();
    let slot_bytes = SLOTS_PER_PAGE * std::mem::size_of::<PanicSlot>();
    let dev_bytes = slot_bytes + SLOTS_PER_PAGE * GRID_WORDS;
    let flags = sys::CU_MEMHOSTALLOC_DEVICEMAP | sys::CU_MEMHOSTALLOC_PORTABLE;
    let host = result::mem_host_alloc(host_bytes, flags)?;
    // SAFETY: just allocated, `host_bytes` long.
    unsafe { std::ptr::write_bytes(host as *mut u8, 0, host_bytes) };
    // SAFETY (both closures' callers): the page is ours and used by nothing yet.
    let free_host = |host| unsafe {
        let _ = result::mem_free_host(host);
    };
    // SAFETY: mapped page-locked memory.
    let host_dev = match unsafe { result::mem_host_get_device_pointer(host) } {
        Ok(d) => d,
        Err(e) => {
            free_host(host);
            return Err(e);
        }
    };
    let dev = match result::mem_alloc(dev_bytes) {
        Ok(d) => d,
        Err(e) => {
            free_host(host);
            return Err(e);
        }
    };
    let words: Vec<PanicSlot> = (0..SLOTS_PER_PAGE)
        .map(|i| PanicSlot {
            claim: CLAIM_FREE,
            _pad: 0,
            record: host_dev + (i * std::mem::size_of::<PanicRecord>()) as u64,
        })
        .collect();
    // SAFETY: `PanicSlot` is plain C data.
    let slots = unsafe { std::slice::from_raw_parts(words.as_ptr() as *const u8, slot_bytes) };
    let mut bytes = slots.to_vec();
    bytes.resize(dev_bytes, 0);
    if let Err(e) = write_sync(q, dev, &bytes) {
        unsafe {
            let _ = result::mem_free(dev);
        }
        free_host(host);
        return Err(e);
    }
    Ok(Page {
        dev,
        host: host as *mut PanicRecord,
    })
}
