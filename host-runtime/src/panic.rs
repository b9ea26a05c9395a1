//! Kernel panics: how a panicking device thread's report reaches the host.
//!
//! Each device owns page-locked, device-mapped pages of 64-byte
//! [`PanicRecord`] slots. Loading a module takes one slot
//! and writes the slot's device address into the module's `__fc_panic_slot` global. A panicking
//! thread fills the record and *exits* (it does not `trap`), so the context stays usable and the
//! other threads run to completion. Nothing happens per launch: every synchronizing host call
//! (stream or device synchronize, `to_vec`, copies to the host, event synchronize) scans the
//! slots, and a completed record becomes [`Error::KernelPanic`](crate::Error::KernelPanic) with the
//! source location taken from the compiled kernel's `panic_sites`. The slot is then cleared, so one
//! panic is reported once. Panics are per device: a synchronize reports a panic of any kernel that
//! ran on the device, not only of the stream being synchronized.

use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

use cudarc::driver::sys::{self, CUmodule, CUresult};
use kernel_ir::ir::{PanicKind, PanicSite};
use kernel_ir::panic_record::{PanicRecord, SLOT_SYMBOL, STATE_DONE, STATE_EMPTY};

use crate::driver::cu;
use crate::Result;

/// A panic inside a kernel, as reported at the next synchronization.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelPanic {
    /// `module::function` of the kernel (or the module's name for raw PTX modules).
    pub kernel: String,
    /// Source file of the panic site (`<unknown>` when the module has no site table).
    pub file: String,
    /// 1-based source line (0 when unknown).
    pub line: u32,
    /// 1-based source column (0 when unknown).
    pub col: u32,
    /// What went wrong, when the site is known.
    pub kind: Option<PanicKind>,
    /// Human-readable message (Rust's wording for bounds and division panics).
    pub message: String,
    /// For bounds panics the offending index; otherwise the record's first detail value.
    pub index: u64,
    /// For bounds panics the slice length; otherwise the record's second detail value.
    pub len: u64,
    /// `blockIdx` of the panicking thread.
    pub block: [u32; 3],
    /// `threadIdx` of the panicking thread.
    pub thread: [u32; 3],
    /// Index into the kernel's panic sites.
    pub site: u32,
}

impl fmt::Display for KernelPanic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "kernel `{}` panicked at {}:{}:{}: {} (block ({}, {}, {}), thread ({}, {}, {}))",
            self.kernel,
            self.file,
            self.line,
            self.col,
            self.message,
            self.block[0],
            self.block[1],
            self.block[2],
            self.thread[0],
            self.thread[1],
            self.thread[2]
        )
    }
}

impl std::error::Error for KernelPanic {}

impl KernelPanic {
    /// Rust's wording for a panic of `kind` with detail values `a` (index) and `b` (length).
    pub fn message_for(kind: &PanicKind, a: u64, b: u64) -> String {
        kind.message(a, b)
    }

    /// Builds the report for `rec` from the owning module's name and site table.
    pub fn from_record(kernel: &str, sites: Option<&[PanicSite]>, rec: &PanicRecord) -> Self {
        let site = sites.and_then(|s| s.get(rec.site as usize));
        let (file, line, col, kind) = match site {
            Some(s) => (s.file.clone(), s.line, s.col, Some(s.kind.clone())),
            None => ("<unknown>".to_string(), 0, 0, None),
        };
        let message = match &kind {
            Some(k) => KernelPanic::message_for(k, rec.a, rec.b),
            None => format!("panic at site {} (no site table for this module)", rec.site),
        };
        KernelPanic {
            kernel: kernel.to_string(),
            file,
            line,
            col,
            kind,
            message,
            index: rec.a,
            len: rec.b,
            block: rec.block,
            thread: rec.thread,
            site: rec.site,
        }
    }
}

/// Who owns a slot: what the report needs to name the kernel and the site.
#[derive(Clone)]
pub(crate) struct SlotOwner {
    pub kernel: String,
    pub sites: Option<Arc<[PanicSite]>>,
}

const SLOTS_PER_PAGE: usize = 64;
const PAGE_BYTES: usize = SLOTS_PER_PAGE * std::mem::size_of::<PanicRecord>();

struct Page {
    host: *mut PanicRecord,
    dev: u64,
}

#[derive(Default)]
struct Slots {
    pages: Vec<Page>,
    owners: Vec<Option<SlotOwner>>,
    free: Vec<u32>,
}

// SAFETY: the page pointers are page-locked host allocations only touched under the mutex.
unsafe impl Send for Slots {}

/// The per-device slot table.
#[derive(Default)]
pub(crate) struct PanicSlots {
    slots: Mutex<Slots>,
    /// Whether any slot is taken: lets synchronization skip the lock when no module reports.
    any: AtomicBool,
}

impl PanicSlots {
    /// Takes a slot for `module` and points its `__fc_panic_slot` at it. Modules without the
    /// symbol (hand-written PTX that never panics) get no slot. The context must be current.
    pub(crate) fn attach(&self, module: CUmodule, owner: SlotOwner) -> Result<Option<u32>> {
        let mut global = 0u64;
        let mut size = 0usize;
        let name = std::ffi::CString::new(SLOT_SYMBOL).expect("symbol has no NUL");
        let r = unsafe { sys::cuModuleGetGlobal_v2(&mut global, &mut size, module, name.as_ptr()) };
        if r == CUresult::CUDA_ERROR_NOT_FOUND {
            return Ok(None);
        }
        crate::driver::check("cuModuleGetGlobal_v2", r)?;
        if size != 8 {
            return Err(crate::Error::InvalidValue(format!(
                "`{SLOT_SYMBOL}` is {size} bytes, expected 8"
            )));
        }
        let mut s = self.slots.lock().unwrap_or_else(|e| e.into_inner());
        let id = match s.free.pop() {
            Some(id) => id,
            None => {
                let page = alloc_page()?;
                let base = s.pages.len() * SLOTS_PER_PAGE;
                s.pages.push(page);
                s.owners.resize(base + SLOTS_PER_PAGE, None);
                s.free
                    .extend((base as u32 + 1..(base + SLOTS_PER_PAGE) as u32).rev());
                base as u32
            }
        };
        let (host, dev) = slot_ptrs(&s, id);
        // SAFETY: `host` points at a 64-byte record inside a live page.
        unsafe { host.write(PanicRecord::default()) };
        let r = unsafe {
            cu!(cuMemcpyHtoD_v2(
                global,
                &dev as *const u64 as *const std::ffi::c_void,
                8
            ))
        };
        if let Err(e) = r {
            s.free.push(id);
            return Err(e);
        }
        s.owners[id as usize] = Some(owner);
        self.any.store(true, Ordering::Release);
        Ok(Some(id))
    }

    /// Gives a slot back when its module is unloaded.
    pub(crate) fn release(&self, id: u32) {
        let mut s = self.slots.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(o) = s.owners.get_mut(id as usize) {
            if o.take().is_some() {
                s.free.push(id);
            }
        }
    }

    /// Reports (and clears) the first completed record. Call after the work synchronized.
    pub(crate) fn check(&self) -> Result<()> {
        if !self.any.load(Ordering::Acquire) {
            return Ok(());
        }
        let s = self.slots.lock().unwrap_or_else(|e| e.into_inner());
        for (id, owner) in s.owners.iter().enumerate() {
            let Some(owner) = owner else { continue };
            let (host, _) = slot_ptrs(&s, id as u32);
            // SAFETY: the record is live mapped memory; `state` is 4-byte aligned and the device
            // publishes it last, after a system-scope fence.
            let state = unsafe { &*(host as *const AtomicU32) };
            if state.load(Ordering::Acquire) != STATE_DONE {
                continue;
            }
            let rec = unsafe { std::ptr::read_volatile(host) };
            unsafe { host.write(PanicRecord::default()) };
            state.store(STATE_EMPTY, Ordering::Release);
            let p = KernelPanic::from_record(&owner.kernel, owner.sites.as_deref(), &rec);
            return Err(p.into());
        }
        Ok(())
    }

    /// Forgets every slot after a context reset freed the pages (no driver calls).
    pub(crate) fn forget(&self) {
        let mut s = self.slots.lock().unwrap_or_else(|e| e.into_inner());
        *s = Slots::default();
        self.any.store(false, Ordering::Release);
    }

    /// Frees the pages at device teardown (the context is still alive).
    pub(crate) fn free_pages(&self) {
        let mut s = self.slots.lock().unwrap_or_else(|e| e.into_inner());
        for p in s.pages.drain(..) {
            unsafe {
                let _ = sys::cuMemFreeHost(p.host as *mut std::ffi::c_void);
            }
        }
        *s = Slots::default();
    }
}

fn slot_ptrs(s: &Slots, id: u32) -> (*mut PanicRecord, u64) {
    let page = &s.pages[id as usize / SLOTS_PER_PAGE];
    let i = id as usize % SLOTS_PER_PAGE;
    // SAFETY: `i` < SLOTS_PER_PAGE, inside the page allocation.
    let host = unsafe { page.host.add(i) };
    (
        host,
        page.dev + (i * std::mem::size_of::<PanicRecord>()) as u64,
    )
}

fn alloc_page() -> Result<Page> {
    let mut host: *mut std::ffi::c_void = std::ptr::null_mut();
    let flags = sys::CU_MEMHOSTALLOC_DEVICEMAP | sys::CU_MEMHOSTALLOC_PORTABLE;
    unsafe { cu!(cuMemHostAlloc(&mut host, PAGE_BYTES, flags))? };
    unsafe { std::ptr::write_bytes(host as *mut u8, 0, PAGE_BYTES) };
    let mut dev = 0u64;
    if let Err(e) = unsafe { cu!(cuMemHostGetDevicePointer_v2(&mut dev, host, 0)) } {
        unsafe {
            let _ = sys::cuMemFreeHost(host);
        }
        return Err(e);
    }
    Ok(Page {
        host: host as *mut PanicRecord,
        dev,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(site: u32, a: u64, b: u64) -> PanicRecord {
        PanicRecord {
            state: STATE_DONE,
            site,
            a,
            b,
            block: [1, 2, 3],
            thread: [4, 5, 6],
            _pad: [0; 4],
        }
    }

    #[test]
    fn bounds_panic_reads_like_rust() {
        let sites: Arc<[PanicSite]> = vec![
            PanicSite {
                kind: PanicKind::DivByZero,
                file: "src/a.rs".into(),
                line: 3,
                col: 9,
            },
            PanicSite {
                kind: PanicKind::Bounds,
                file: "src/k.rs".into(),
                line: 12,
                col: 5,
            },
        ]
        .into();
        let p = KernelPanic::from_record("k::saxpy", Some(&sites), &rec(1, 1024, 1000));
        assert_eq!((p.file.as_str(), p.line, p.col), ("src/k.rs", 12, 5));
        assert_eq!((p.index, p.len), (1024, 1000));
        assert_eq!(p.kind, Some(PanicKind::Bounds));
        assert_eq!(
            p.to_string(),
            "kernel `k::saxpy` panicked at src/k.rs:12:5: index out of bounds: the len is 1000 \
             but the index is 1024 (block (1, 2, 3), thread (4, 5, 6))"
        );
        let d = KernelPanic::from_record("k::div", Some(&sites), &rec(0, 0, 0));
        assert_eq!(d.message, "attempt to divide by zero");
        assert_eq!(d.line, 3);
    }

    #[test]
    fn unknown_site_still_reports_thread() {
        let p = KernelPanic::from_record("raw_module", None, &rec(7, 1, 2));
        assert_eq!(p.file, "<unknown>");
        assert_eq!(p.site, 7);
        assert_eq!(p.thread, [4, 5, 6]);
        assert!(p.message.contains("site 7"));
        let explicit: Arc<[PanicSite]> = vec![PanicSite {
            kind: PanicKind::Explicit("x must be positive".into()),
            file: "f.rs".into(),
            line: 1,
            col: 1,
        }]
        .into();
        let e = KernelPanic::from_record("k", Some(&explicit), &rec(0, 0, 0));
        assert_eq!(e.message, "x must be positive");
    }

    #[test]
    fn empty_table_checks_clean() {
        assert!(PanicSlots::default().check().is_ok());
    }
}
