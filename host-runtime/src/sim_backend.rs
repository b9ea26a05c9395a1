//! The simulator arm of [`crate::Device`]: device memory is a `kernel_sim::GlobalMemory`,
//! and a launch runs the kernel's optimized IR on the CPU right away.
//!
//! To keep programs portable between backends, the simulator reports like a GPU: a launch only
//! fails for a bad configuration, and what goes wrong *inside* the kernel (a panic, or a bug one of
//! the simulator's detectors caught) is returned by the next synchronizing call, the first error
//! winning. Streams and events exist so the same code runs, but since every launch completes
//! before it returns, ordering between them is trivially satisfied and event times are host times.
//! Managed memory is a simulator allocation the host reads and writes in place; page-locked memory
//! is ordinary host memory (mapped page-locked memory cannot alias simulated device memory, so it is
//! unsupported); pitched memory pads rows to 512 bytes. Other driver-only facilities (memory pools,
//! raw PTX modules) return [`Error::Unsupported`] on the simulator.

use std::ffi::c_void;
use std::sync::{Mutex, MutexGuard};

use kernel_ir::ir;
use kernel_sim::{
    self as sim, BlockOrder, GlobalMemory, SimError, SimErrorKind, SimLaunch, Target,
};

use crate::launch::{validate, FuncLimits, Limits};
use crate::panic::KernelPanic;
use crate::properties::DeviceProperties;
use crate::{param_bytes, Error, LaunchConfig, Result};

pub(crate) struct SimDevice {
    mem: Mutex<GlobalMemory>,
    /// The first in-kernel error since the last synchronizing call.
    pending: Mutex<Option<Error>>,
    pub(crate) props: DeviceProperties,
    pub(crate) limits: Limits,
    /// The architecture it simulates: its limits and instruction set.
    target: Target,
}

impl SimDevice {
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
        };
        let limits = Limits::from_properties(&props);
        SimDevice {
            mem: Mutex::new(GlobalMemory::new()),
            pending: Mutex::new(None),
            props,
            limits,
            target,
        }
    }

    fn mem(&self) -> MutexGuard<'_, GlobalMemory> {
        self.mem.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Reports (once) the first error of the kernels run since the last call.
    pub(crate) fn synchronize(&self) -> Result<()> {
        match self
            .pending
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
        {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// Forgets a pending error (the simulator's `recover`).
    pub(crate) fn clear(&self) {
        self.pending
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take();
    }

    pub(crate) fn alloc(&self, bytes: usize) -> u64 {
        if bytes == 0 {
            0
        } else {
            self.mem().alloc(bytes)
        }
    }

    /// See `GlobalMemory::set_heap_limit`.
    pub(crate) fn set_heap_limit(&self, bytes: u64) {
        self.mem().set_heap_limit(bytes);
    }

    /// See `GlobalMemory::host_ptr`.
    pub(crate) fn host_ptr(&self, addr: u64) -> Option<*mut u8> {
        self.mem().host_ptr(addr)
    }

    pub(crate) fn free(&self, addr: u64) {
        if addr != 0 {
            let _ = self.mem().free(addr);
        }
    }

    pub(crate) fn write(&self, addr: u64, data: &[u8]) -> Result<()> {
        if data.is_empty() {
            return Ok(());
        }
        self.mem().write(addr, data).map_err(sim_error)
    }

    pub(crate) fn read(&self, addr: u64, out: &mut [u8]) -> Result<()> {
        if out.is_empty() {
            return Ok(());
        }
        self.mem().read(addr, out).map_err(sim_error)
    }

    pub(crate) fn copy(&self, dst: u64, src: u64, bytes: usize) -> Result<()> {
        if bytes == 0 {
            return Ok(());
        }
        let mut mem = self.mem();
        let mut tmp = vec![0u8; bytes];
        mem.read(src, &mut tmp).map_err(sim_error)?;
        mem.write(dst, &tmp).map_err(sim_error)
    }

    /// Fills `count` elements of `elem` bytes with the low bytes of `pattern`.
    pub(crate) fn fill(&self, addr: u64, elem: usize, pattern: u32, count: usize) -> Result<()> {
        if count == 0 {
            return Ok(());
        }
        if elem == 1 {
            return self
                .mem()
                .fill(addr, count, pattern as u8)
                .map_err(sim_error);
        }
        let one = &pattern.to_le_bytes()[..elem.min(4)];
        let bytes: Vec<u8> = one.iter().copied().cycle().take(elem * count).collect();
        self.write(addr, &bytes)
    }

    /// Validates and runs one launch; in-kernel errors are kept for the next synchronize.
    ///
    /// # Safety
    /// `args[i]` must point at `kernel.params[i].size` readable bytes.
    pub(crate) unsafe fn launch(
        &self,
        kernel: &ir::Kernel,
        cfg: &LaunchConfig,
        args: &[*mut c_void],
    ) -> Result<()> {
        let func = FuncLimits {
            max_threads_per_block: kernel.attrs.max_threads.unwrap_or(0),
            static_shared: kernel.shared.iter().map(|s| s.bytes).sum(),
            required_block: kernel.attrs.block_dim,
        };
        validate(cfg, &self.limits, &func)?;
        let params = unsafe { param_bytes(kernel, args)? };
        let launch = SimLaunch {
            grid: [cfg.grid.x, cfg.grid.y, cfg.grid.z],
            block: [cfg.block.x, cfg.block.y, cfg.block.z],
            dyn_shared_bytes: cfg.shared_mem_bytes,
            block_order: BlockOrder::Sequential,
            target: self.target,
            // The CUDA arm raises the attribute for launches that need it (`raise_dynamic_shared`).
            max_dynamic_shared_bytes: (func.static_shared + cfg.shared_mem_bytes
                > self.props.shared_mem_per_block)
                .then_some(cfg.shared_mem_bytes),
        };
        let r = sim::launch(kernel, &launch, &params, &mut self.mem());
        if let Err(e) = r {
            // What ptxas would refuse fails the launch, as the module load does on a GPU.
            if e.kind == SimErrorKind::TargetLimit {
                return Err(sim_error(e));
            }
            let mut pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
            if pending.is_none() {
                *pending = Some(sim_error(e));
            }
        }
        Ok(())
    }
}

/// A kernel panic becomes the same [`Error::KernelPanic`] a GPU reports; anything else the
/// simulator caught is [`Error::Simulator`].
pub(crate) fn sim_error(e: SimError) -> Error {
    match &e.kind {
        SimErrorKind::Panic(kind) => {
            let message = KernelPanic::message_for(kind, e.a, e.b);
            KernelPanic {
                kernel: e.kernel.clone(),
                file: e.file.clone(),
                line: e.line,
                col: e.col,
                kind: Some(kind.clone()),
                message,
                index: e.a,
                len: e.b,
                block: e.block,
                thread: e.thread,
                site: e.site.map_or(u32::MAX, |s| s.0),
            }
            .into()
        }
        _ => Error::Simulator(Box::new(e)),
    }
}
