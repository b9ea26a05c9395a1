//! The simulator backend of [`crate::Device`]: device memory is a `kernel_sim::GlobalMemory`,
//! and a launch runs the kernel's optimized IR on the CPU right away.
//!
//! To keep programs portable between backends, the simulator reports like a GPU: a launch only
//! fails for a bad configuration, and what goes wrong *inside* the kernel (a panic, or a bug one of
//! the simulator's detectors caught) is returned by the next synchronize of the stream that ran it
//! (or by a device-wide synchronize or copy to the host), the first error of each stream winning.
//! Streams and events exist so the same code runs, but since every launch completes before it
//! returns, ordering between them is trivially satisfied and event times are host times.
//! Managed memory is a simulator allocation the host reads and writes in place; page-locked memory
//! is ordinary host memory (mapped page-locked memory cannot alias simulated device memory, so it is
//! unsupported); pitched memory pads rows to 512 bytes. Other driver-only facilities (memory pools,
//! raw PTX modules) return [`Error::Unsupported`] on the simulator.

use std::any::Any;
use std::ffi::c_void;
use std::sync::{Arc, Mutex, MutexGuard};

use kernel_compiler::Compiled;
use kernel_sim::{GlobalMemory, Target};

use crate::backend::{
    AsyncCopy, BackendKind, ContextLimit, Copy2d, DeviceOps, EventOps, GraphOps, LoadedKernel,
    PinnedAlloc, StreamOps,
};
use crate::launch::Limits;
use crate::options::{Advice, EventFlags, Location, PinnedFlags, StreamOptions};
use crate::properties::DeviceProperties;
use crate::{Error, Result};

mod graph;
mod kernel;
mod memory;
mod nodes;
mod objects;

pub use kernel::param_bytes;
use kernel::SimKernel;
use objects::{SimEvent, SimStream};

/// Rows of pitched memory are padded to this many bytes (and whole elements).
const PITCH_ALIGN: usize = 512;

/// What the device's streams and kernels share.
pub(crate) struct Shared {
    mem: Mutex<GlobalMemory>,
    /// The first in-kernel error of each stream (by stream id) since its last synchronize.
    pending: Mutex<Vec<(u64, Error)>>,
    props: DeviceProperties,
    limits: Limits,
    /// The architecture it simulates: its limits and instruction set.
    target: Target,
    /// The captures in progress on its streams.
    captures: nodes::Captures,
    /// The persisting-L2 set-aside a program asked for (recorded; no cache model).
    persisting_l2: Mutex<usize>,
}

impl Shared {
    fn pending(&self) -> MutexGuard<'_, Vec<(u64, Error)>> {
        self.pending.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Reports (once) the first error of the kernels stream `stream` ran.
    fn synchronize_stream(&self, stream: u64) -> Result<()> {
        let mut p = self.pending();
        match p.iter().position(|(s, _)| *s == stream) {
            Some(i) => Err(p.remove(i).1),
            None => Ok(()),
        }
    }

    /// Keeps the first in-kernel error of a stream for its next synchronize.
    fn file_error(&self, stream: u64, e: Error) {
        let mut p = self.pending();
        if !p.iter().any(|(s, _)| *s == stream) {
            p.push((stream, e));
        }
    }
}

/// The simulator backend of one device.
pub(crate) struct SimDevice(Arc<Shared>);

impl SimDevice {
    /// A simulated device of architecture `target`.
    pub(crate) fn new(target: Target) -> Self {
        let props = DeviceProperties {
            name: "Ferrocuda simulator".into(),
            compute_capability: target.compute_capability(),
            multiprocessor_count: 1,
            max_threads_per_block: target.max_threads_per_block,
            max_block_dim: target.max_block_dim,
            max_grid_dim: target.max_grid_dim,
            shared_mem_per_block: target.default_shared_per_block,
            shared_mem_per_block_optin: target.max_shared_per_block_optin,
            shared_mem_per_multiprocessor: target.shared_per_multiprocessor,
            registers_per_block: target.registers_per_block,
            warp_size: 32,
            max_threads_per_multiprocessor: target.max_threads_per_multiprocessor,
            total_memory: 0,
            l2_cache_bytes: 0,
            concurrent_kernels: false,
            async_engine_count: 0,
            can_map_host_memory: false,
            managed_memory: true,
            concurrent_managed_access: false,
            memory_pools_supported: false,
            pci_bus_id: 0,
            // One multiprocessor: a cooperative grid holds what one SM of the target holds.
            cooperative_launch: true,
            max_blocks_per_multiprocessor: target.max_blocks_per_multiprocessor,
            // Accepted and recorded (no cache model), with an H100's limits where the target has
            // L2 persistence (sm_80 on).
            max_access_policy_window_size: if target.sm >= 80 { 128 << 20 } else { 0 },
            max_persisting_l2_cache_size: if target.sm >= 80 { 30 << 20 } else { 0 },
        };
        let limits = Limits::from_properties(&props);
        SimDevice(Arc::new(Shared {
            mem: Mutex::new(GlobalMemory::new()),
            pending: Mutex::new(Vec::new()),
            props,
            limits,
            target,
            captures: nodes::Captures::default(),
            persisting_l2: Mutex::new(0),
        }))
    }
}

impl DeviceOps for SimDevice {
    fn kind(&self) -> BackendKind {
        BackendKind::Sim
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn describe(&self) -> String {
        "simulator".to_string()
    }

    fn ordinal(&self) -> usize {
        0
    }

    fn properties(&self) -> &DeviceProperties {
        &self.0.props
    }

    fn driver_version(&self) -> i32 {
        0
    }

    fn generation(&self) -> u64 {
        0
    }

    fn enter(&self, _: u64) -> Result<()> {
        Ok(())
    }

    /// Work completes when it is queued: this only reports the first pending error of any stream.
    fn synchronize(&self) -> Result<()> {
        let mut p = self.0.pending();
        if p.is_empty() {
            Ok(())
        } else {
            Err(p.remove(0).1)
        }
    }

    fn bind_to_thread(&self) -> Result<()> {
        Ok(())
    }

    /// Forgets pending errors.
    fn recover(&self) -> Result<()> {
        self.0.pending().clear();
        Ok(())
    }

    fn memory_info(&self) -> Result<(usize, usize)> {
        Err(Error::Unsupported("memory_info on the simulator"))
    }

    fn set_limit(&self, limit: ContextLimit, bytes: usize) -> Result<()> {
        match limit {
            ContextLimit::MallocHeap => self.0.mem().set_heap_limit(bytes as u64),
            // Each `printf` is printed as it runs: there is no buffer to size.
            ContextLimit::PrintfFifo => {}
            // No cache model: recorded, and read back by `limit`.
            ContextLimit::PersistingL2 => {
                *self
                    .0
                    .persisting_l2
                    .lock()
                    .unwrap_or_else(|e| e.into_inner()) = bytes
            }
        }
        Ok(())
    }

    fn limit(&self, limit: ContextLimit) -> Result<usize> {
        if limit == ContextLimit::PersistingL2 {
            return Ok(*self
                .0
                .persisting_l2
                .lock()
                .unwrap_or_else(|e| e.into_inner()));
        }
        Err(Error::Unsupported(match limit {
            ContextLimit::MallocHeap => "the heap size on the simulator",
            ContextLimit::PrintfFifo => {
                "printf FIFO size on the simulator (it prints each call directly)"
            }
            ContextLimit::PersistingL2 => unreachable!("answered above"),
        }))
    }

    fn stream_priority_range(&self) -> Result<(i32, i32)> {
        Ok((0, 0))
    }

    fn reset_persisting_l2(&self) -> Result<()> {
        // No cache model: nothing persists.
        Ok(())
    }

    fn encode_tensor_map(&self, m: &kernel_ir::tensor_map::SimTensorMap) -> Result<[u8; 128]> {
        Ok(m.encode())
    }

    fn new_stream(&self, _: StreamOptions, id: u64) -> Result<Box<dyn StreamOps>> {
        Ok(Box::new(SimStream::new(self.0.clone(), id)))
    }

    fn new_event(&self, _: EventFlags) -> Result<Box<dyn EventOps>> {
        Ok(Box::new(SimEvent::default()))
    }

    fn alloc(&self, bytes: usize) -> Result<(u64, bool)> {
        Ok((self.0.alloc(bytes), false))
    }

    fn finish_init(&self) -> Result<()> {
        Ok(())
    }

    fn free(&self, addr: u64, _: u64, _: bool, _: &[&dyn StreamOps]) {
        self.0.free(addr)
    }

    unsafe fn write(
        &self,
        _: u64,
        dst: u64,
        src: *const c_void,
        bytes: usize,
        _: &[&dyn StreamOps],
    ) -> Result<()> {
        // SAFETY: the caller's contract.
        self.0.write(dst, unsafe { host_bytes(src, bytes) })
    }

    unsafe fn read(&self, _: u64, src: u64, dst: *mut c_void, bytes: usize) -> Result<()> {
        self.synchronize()?;
        if bytes == 0 {
            return Ok(());
        }
        // SAFETY: the caller guarantees `bytes` writable bytes at `dst`.
        let out = unsafe { std::slice::from_raw_parts_mut(dst as *mut u8, bytes) };
        self.0.read(src, out)
    }

    fn copy(&self, _: u64, dst: u64, src: u64, bytes: usize, _: &[&dyn StreamOps]) -> Result<()> {
        self.0.copy(dst, src, bytes)
    }

    fn fill(
        &self,
        _: u64,
        dst: u64,
        elem: usize,
        pattern: u32,
        count: usize,
        _: &[&dyn StreamOps],
    ) -> Result<()> {
        self.0.fill(dst, elem, pattern, count)
    }

    unsafe fn copy_2d(&self, _: u64, copy: &Copy2d, _: &[&dyn StreamOps]) -> Result<()> {
        // SAFETY: the caller's contract.
        unsafe { self.0.copy_2d(copy) }
    }

    fn alloc_on_stream(&self, _: &dyn StreamOps, bytes: usize) -> Result<u64> {
        Ok(self.0.alloc(bytes))
    }

    fn zero_on_stream(&self, stream: &dyn StreamOps, addr: u64, bytes: usize) -> Result<()> {
        let fill = || nodes::SimOp::Fill {
            dst: addr,
            elem: 1,
            pattern: 0,
            count: bytes,
        };
        if self.0.captures.file(stream.id(), || Ok(fill()))? {
            return Ok(());
        }
        self.0.fill(addr, 1, 0, bytes)
    }

    /// Runs the copy now (earlier work on the stream is complete already), or captures it.
    unsafe fn copy_on_stream(&self, stream: &dyn StreamOps, copy: AsyncCopy) -> Result<()> {
        let op = || Ok(nodes::SimOp::Copy(copy));
        if self.0.captures.file(stream.id(), op)? {
            return Ok(());
        }
        // SAFETY: the caller's contract.
        unsafe { self.0.run_copy(copy) }
    }

    /// One simulated allocation the host reads and writes in place (launches run to completion
    /// before they return, so the host never races a kernel).
    fn alloc_managed(&self, bytes: usize) -> Result<(u64, *mut u8)> {
        let addr = self.0.alloc(bytes);
        if bytes == 0 {
            return Ok((0, std::ptr::null_mut()));
        }
        let host = self
            .0
            .mem()
            .host_ptr(addr)
            .ok_or(Error::InvalidValue("simulator allocation vanished".into()))?;
        Ok((addr, host))
    }

    /// One memory serves host and kernels: nothing to migrate.
    fn prefetch(&self, _: u64, _: usize, _: Location, _: &dyn StreamOps) -> Result<()> {
        Ok(())
    }

    /// Placement hints mean nothing where there is one memory.
    fn advise(&self, _: u64, _: usize, _: Advice) -> Result<()> {
        Ok(())
    }

    /// Rows padded to 512 bytes (and whole elements), like typical GPU pitches, so code that
    /// wrongly assumes dense rows fails here too.
    fn alloc_pitched(
        &self,
        row_bytes: usize,
        height: usize,
        elem_size: usize,
    ) -> Result<(u64, usize)> {
        let size = elem_size.max(1);
        let gcd = |mut a: usize, mut b: usize| {
            while b != 0 {
                (a, b) = (b, a % b);
            }
            a
        };
        let unit = PITCH_ALIGN / gcd(PITCH_ALIGN, size) * size;
        let pitch = row_bytes.checked_next_multiple_of(unit).ok_or_else(|| {
            Error::InvalidValue(format!("rows of {row_bytes} bytes are too long"))
        })?;
        let total = pitch
            .checked_mul(height)
            .ok_or_else(|| Error::InvalidValue(format!("{height} rows of {pitch} bytes")))?;
        let addr = if row_bytes == 0 {
            0
        } else {
            self.0.alloc(total)
        };
        Ok((addr, pitch))
    }

    /// Ordinary zeroed host memory: copies from it behave the same, there is no bus to lock pages
    /// for. Mapped memory would need kernels to address host memory, which simulated device
    /// memory cannot alias.
    fn alloc_pinned(&self, bytes: usize, align: usize, flags: PinnedFlags) -> Result<PinnedAlloc> {
        if flags.mapped {
            return Err(Error::Unsupported(
                "mapped page-locked memory on the simulator",
            ));
        }
        if bytes == 0 {
            return Ok(PinnedAlloc {
                host: std::ptr::null_mut(),
                device: None,
            });
        }
        let layout = std::alloc::Layout::from_size_align(bytes, align.max(1))
            .map_err(|_| Error::InvalidValue(format!("{bytes} bytes do not fit in memory")))?;
        // SAFETY: the layout has a nonzero size.
        let p = unsafe { std::alloc::alloc_zeroed(layout) };
        if p.is_null() {
            return Err(Error::InvalidValue(format!(
                "cannot allocate {bytes} bytes of host memory"
            )));
        }
        Ok(PinnedAlloc {
            host: p,
            device: None,
        })
    }

    unsafe fn free_pinned(&self, p: *mut u8, bytes: usize, align: usize, _: u64) {
        if bytes != 0 {
            if let Ok(layout) = std::alloc::Layout::from_size_align(bytes, align.max(1)) {
                // SAFETY: allocated in `alloc_pinned` with this layout.
                unsafe { std::alloc::dealloc(p, layout) };
            }
        }
    }

    /// Any host memory serves the simulator's copies; only mapping is impossible.
    unsafe fn register_host(
        &self,
        _: *mut u8,
        _: usize,
        flags: PinnedFlags,
    ) -> Result<Option<u64>> {
        if flags.mapped {
            return Err(Error::Unsupported(
                "mapped page-locked memory on the simulator",
            ));
        }
        Ok(None)
    }

    unsafe fn unregister_host(&self, _: *mut u8, _: u64) {}

    fn compile_target(&self) -> (u32, bool) {
        // The simulator names statements in its reports.
        (self.0.props.sm(), true)
    }

    fn load(&self, compiled: &Arc<Compiled>) -> Result<Arc<dyn LoadedKernel>> {
        Ok(Arc::new(SimKernel::new(compiled.clone(), self.0.clone())))
    }

    fn new_graph(&self) -> Result<Box<dyn GraphOps>> {
        Ok(Box::new(graph::SimGraph::new(self.0.clone())))
    }
}

impl Shared {
    /// A stream-ordered copy, run now.
    ///
    /// # Safety
    /// The host end must be valid for `bytes`.
    pub(crate) unsafe fn run_copy(&self, copy: AsyncCopy) -> Result<()> {
        match copy {
            AsyncCopy::HostToDevice { dst, src, bytes } => {
                // SAFETY: the caller's contract.
                self.write(dst, unsafe { host_bytes(src, bytes) })
            }
            AsyncCopy::DeviceToHost { dst, src, bytes } => {
                if bytes == 0 {
                    return Ok(());
                }
                // SAFETY: the caller's contract.
                let out = unsafe { std::slice::from_raw_parts_mut(dst as *mut u8, bytes) };
                self.read(src, out)
            }
            AsyncCopy::DeviceToDevice { dst, src, bytes } => self.copy(dst, src, bytes),
        }
    }
}

/// Views `bytes` host bytes at `p` (a dangling-safe empty slice for zero bytes).
///
/// # Safety
/// `p` must point at `bytes` readable bytes that outlive the returned slice.
unsafe fn host_bytes<'a>(p: *const c_void, bytes: usize) -> &'a [u8] {
    if bytes == 0 {
        &[]
    } else {
        unsafe { std::slice::from_raw_parts(p as *const u8, bytes) }
    }
}
