//! Modules and functions as the driver holds them, and loading a compiled kernel (through the
//! on-disk cubin cache when it is on).

use std::ffi::CString;
use std::sync::atomic::{AtomicBool, AtomicU32};
use std::sync::Arc;

use cudarc::driver::sys::{CUfunction, CUfunction_attribute as FA, CUmodule};
use kernel_compiler::Compiled;
use kernel_ir::ir::PanicSite;

use super::core::Core;
use super::jit::{jit_load, link_ptx, load_cubin};
use super::panic_slots::ModuleInfo;
use super::result;
use crate::disk_cache;
use crate::launch::FuncLimits;
use crate::properties::FunctionAttributes;
use crate::{Error, Result};

/// A loaded module (one PTX or cubin image).
pub(crate) struct CudaModule {
    pub(crate) core: Arc<Core>,
    pub(crate) raw: CUmodule,
    pub(crate) generation: u64,
    /// The module's id in the device's panic table: set when the module defines
    /// `__fc_panic_module`, whose entries then take the stream's panic slot as a trailing argument.
    pub(crate) panic_id: Option<u32>,
    pub(crate) name: String,
    /// Whether the module defines `__fc_grid_sync_entry`: its entry calls `grid_sync()` and
    /// takes the grid-barrier words after the panic slot.
    pub(crate) grid_sync: bool,
}

// SAFETY: a CUmodule handle may be used from any thread once its context is current.
unsafe impl Send for CudaModule {}
unsafe impl Sync for CudaModule {}

impl Drop for CudaModule {
    fn drop(&mut self) {
        if self.core.enter(self.generation).is_err() {
            return; // the context was reset: the module is already gone
        }
        // SAFETY: our module; its functions are gone (they hold the module).
        unsafe {
            let _ = result::module_unload(self.raw);
        }
        if let Some(id) = self.panic_id {
            self.core.panics.unregister_module(id);
        }
    }
}

/// A kernel entry point of a loaded module.
pub(crate) struct CudaFunction {
    pub(crate) module: Arc<CudaModule>,
    pub(crate) raw: CUfunction,
    pub(crate) name: String,
    pub(crate) limits: FuncLimits,
    pub(crate) attributes: FunctionAttributes,
    /// The dynamic shared memory the function is currently opted in to.
    pub(crate) dyn_shared_limit: AtomicU32,
    /// Whether `CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED` was raised (clusters of 9
    /// to 16 blocks).
    pub(crate) non_portable_cluster: AtomicBool,
    pub(crate) generation: u64,
}

// SAFETY: as for modules; the mutable state is atomic.
unsafe impl Send for CudaFunction {}
unsafe impl Sync for CudaFunction {}

impl CudaModule {
    /// Wraps a freshly loaded handle: registers it for panic reports when it defines
    /// `__fc_panic_module`.
    pub(crate) fn adopt(
        core: &Arc<Core>,
        raw: CUmodule,
        name: String,
        sites: Option<Arc<[PanicSite]>>,
    ) -> Result<Arc<CudaModule>> {
        let info = ModuleInfo {
            kernel: name.clone(),
            sites,
        };
        let panic_id = match core.panics.register_module(raw, info, core.work()) {
            Ok(s) => s,
            Err(e) => {
                // SAFETY: just loaded, used by nothing.
                unsafe {
                    let _ = result::module_unload(raw);
                }
                return Err(e);
            }
        };
        let marker = CString::new(kernel_ir::intrinsic::GRID_SYNC_MARKER).expect("no NUL");
        // SAFETY: a live module of the current context.
        let grid_sync = matches!(
            unsafe { result::module_get_global(raw, &marker) },
            Ok(Some(_))
        );
        Ok(Arc::new(CudaModule {
            core: core.clone(),
            raw,
            grid_sync,
            generation: core.ctx.generation(),
            panic_id,
            name,
        }))
    }

    /// JIT-compiles PTX text and loads it.
    pub(crate) fn from_ptx(core: &Arc<Core>, ptx: &str) -> Result<Arc<CudaModule>> {
        core.ctx.bind()?;
        let raw = jit_load(ptx)?;
        CudaModule::adopt(core, raw, "ptx module".into(), None)
    }

    /// Loads a cubin (or fatbin) image.
    pub(crate) fn from_cubin(core: &Arc<Core>, image: &[u8]) -> Result<Arc<CudaModule>> {
        core.ctx.bind()?;
        let raw = load_cubin(image)?;
        CudaModule::adopt(core, raw, "cubin module".into(), None)
    }

    /// Looks up a kernel entry point by its PTX name.
    pub(crate) fn function(self: &Arc<Self>, name: &str) -> Result<Arc<CudaFunction>> {
        self.core.enter(self.generation)?;
        let cname = CString::new(name)
            .map_err(|_| Error::InvalidValue(format!("function name {name:?} contains NUL")))?;
        // SAFETY: a live module of the current context.
        let raw = unsafe { result::module_get_function(self.raw, &cname)? };
        // SAFETY: the function just looked up.
        let get = |a: FA| unsafe { result::func_get_attribute(raw, a) };
        let attributes = FunctionAttributes {
            max_threads_per_block: get(FA::CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK)?,
            static_shared_bytes: get(FA::CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES)?,
            local_bytes: get(FA::CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES)?,
            num_regs: get(FA::CU_FUNC_ATTRIBUTE_NUM_REGS)?,
            ptx_version: get(FA::CU_FUNC_ATTRIBUTE_PTX_VERSION)?,
            binary_version: get(FA::CU_FUNC_ATTRIBUTE_BINARY_VERSION)?,
        };
        let dyn_limit = get(FA::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES)?;
        Ok(Arc::new(CudaFunction {
            module: self.clone(),
            raw,
            name: name.to_string(),
            limits: FuncLimits {
                max_threads_per_block: attributes.max_threads_per_block,
                static_shared: attributes.static_shared_bytes,
                required_block: None,
                required_cluster: None,
                // The kernel cache names the kernel by its source path instead.
                grid_sync: self.grid_sync.then(|| name.to_string()),
            },
            attributes,
            dyn_shared_limit: AtomicU32::new(dyn_limit),
            non_portable_cluster: AtomicBool::new(false),
            generation: self.generation,
        }))
    }
}

impl CudaFunction {
    /// The function as compiled for one block shape and cluster shape: launches with others are
    /// rejected before the driver (which would only say `CUDA_ERROR_INVALID_VALUE`).
    ///
    /// `grid_sync`: the kernel's name when it calls `grid_sync()` (its entry then takes the
    /// hidden barrier argument, and launches must be cooperative).
    pub(crate) fn with_required_shapes(
        self: Arc<Self>,
        block: Option<[u32; 3]>,
        cluster: Option<[u32; 3]>,
        grid_sync: Option<String>,
    ) -> Result<Arc<Self>> {
        if block.is_none() && cluster.is_none() && grid_sync.is_none() {
            return Ok(self);
        }
        match Arc::try_unwrap(self) {
            Ok(mut f) => {
                f.limits.required_block = block;
                f.limits.required_cluster = cluster;
                f.limits.grid_sync = grid_sync;
                Ok(Arc::new(f))
            }
            // A function just looked up has no other owner; a shared one would launch without
            // the hidden argument its entry declares.
            Err(_) => Err(Error::Unsupported(
                "a kernel function shared before its launch limits were set",
            )),
        }
    }

    /// `(min_grid, block)`: the block size that maximizes occupancy with `dyn_shared` bytes of
    /// dynamic shared memory, and the smallest grid that reaches it.
    pub(crate) fn max_potential_block_size(&self, dyn_shared: u32) -> Result<(u32, u32)> {
        self.module.core.enter(self.generation)?;
        // SAFETY: a live function of the current context.
        unsafe { result::occupancy_max_potential_block_size(self.raw, dyn_shared as usize) }
    }

    /// Blocks of `block` threads that fit on one multiprocessor at once.
    pub(crate) fn max_active_blocks_per_sm(&self, block: u32, dyn_shared: u32) -> Result<u32> {
        self.module.core.enter(self.generation)?;
        // SAFETY: as above.
        unsafe { result::occupancy_max_active_blocks(self.raw, block, dyn_shared as usize) }
    }
}

/// Loads a compiled kernel's PTX through the disk cache (or straight through the JIT when it is
/// off), with its panic sites for reports.
pub(crate) fn load_compiled(core: &Arc<Core>, c: &Compiled) -> Result<Arc<CudaModule>> {
    core.ctx.bind()?;
    let sites: Option<Arc<[PanicSite]>> = Some(c.kernel.panic_sites.clone().into());
    let name = c.kernel.display_name.clone();
    let Some(dir) = disk_cache::cache_dir() else {
        let raw = jit_load(&c.ptx)?;
        return CudaModule::adopt(core, raw, name, sites);
    };
    let key = disk_cache::disk_cache_key(&c.ptx, core.props.sm(), core.driver_version);
    if let Some(cubin) = disk_cache::load(&dir, &key) {
        match load_cubin(&cubin) {
            Ok(raw) => return CudaModule::adopt(core, raw, name, sites),
            Err(_) => disk_cache::evict(&dir, &key),
        }
    }
    let cubin = match link_ptx(&c.ptx) {
        Ok(cubin) => cubin,
        Err(e @ Error::Jit { .. }) => return Err(e),
        // The linker path is an optimization; fall back to the plain JIT on other failures.
        Err(_) => {
            let raw = jit_load(&c.ptx)?;
            return CudaModule::adopt(core, raw, name, sites);
        }
    };
    disk_cache::store(&dir, &key, &cubin);
    let raw = load_cubin(&cubin)?;
    CudaModule::adopt(core, raw, name, sites)
}
