//! Launching a loaded CUDA function.
//!
//! The path from a validated configuration to `cuLaunchKernel` makes no allocation and no driver
//! call other than the launch, except the first time a function needs more than 48 KiB of dynamic
//! shared memory (the opt-in attribute is raised once and cached per function), and a
//! cooperative launch, which asks the occupancy calculator whether its grid fits. A function of a
//! module that reports panics gets the stream's panic slot appended to its arguments, and one
//! that calls `grid_sync()` the stream's grid-barrier words after it.

use std::any::Any;
use std::ffi::c_void;
use std::sync::atomic::Ordering;
use std::sync::Arc;

use cudarc::driver::sys::CUfunction_attribute;

use super::launch_ex::Attrs;
use super::module::CudaFunction;
use super::result::{self, to_c_int};
use crate::backend::{LoadedKernel, StreamOps};
use crate::launch::{validate, LaunchError};
use crate::launch_config::LaunchConfig;
use crate::launch_cooperative::check_co_resident;
use crate::{Error, Result};

/// Argument arrays up to this long are extended on the stack.
const INLINE_ARGS: usize = 32;

impl LoadedKernel for CudaFunction {
    #[inline]
    unsafe fn launch(
        &self,
        stream: &dyn StreamOps,
        cfg: &LaunchConfig,
        args: &mut [*mut c_void],
    ) -> Result<()> {
        let core = &self.module.core;
        validate(cfg, &core.limits, &self.limits)?;
        core.enter(self.generation)?;
        if stream.generation() != self.generation {
            return Err(Error::ContextLost);
        }
        if cfg.shared_mem_bytes > self.dyn_shared_limit.load(Ordering::Relaxed) {
            self.raise_dynamic_shared(cfg.shared_mem_bytes)?;
        }
        let (grid, block) = (
            [cfg.grid.x, cfg.grid.y, cfg.grid.z],
            [cfg.block.x, cfg.block.y, cfg.block.z],
        );
        let s = stream.raw();
        let smem = cfg.shared_mem_bytes;
        let mut attrs = Attrs::of(cfg);
        if cfg.attrs.non_portable_cluster {
            self.allow_cluster_size(cfg)?;
        }
        let grid_words = if cfg.attrs.cooperative {
            self.check_cooperative(stream, cfg)?
        } else {
            0
        };
        // One launch call for both paths: the plain one unless an attribute is set.
        let mut go = |args: &mut [*mut c_void]| {
            if attrs.is_empty() {
                // SAFETY: the caller's contract.
                unsafe { result::launch_kernel(self.raw, grid, block, smem, s, args) }
            } else {
                // SAFETY: the caller's contract.
                unsafe { self.launch_ex(cfg, &mut attrs, s, args) }
            }
        };
        if self.module.panic_id.is_none() {
            return go(args);
        }
        // The trailing `__fc_panic` argument: the stream's panic slot; then, for a kernel that
        // calls `grid_sync()` (validated to be a cooperative launch), its barrier words.
        let mut slot = stream.panic_slot();
        let mut words = grid_words;
        let hidden = [
            &mut slot as *mut u64 as *mut c_void,
            &mut words as *mut u64 as *mut c_void,
        ];
        let hidden = &hidden[..if self.limits.grid_sync.is_some() {
            2
        } else {
            1
        }];
        let n = args.len();
        let total = n + hidden.len();
        // SAFETY (both): the caller's arguments, then the hidden ones the entry declares.
        if total <= INLINE_ARGS {
            let mut all = [std::ptr::null_mut(); INLINE_ARGS];
            all[..n].copy_from_slice(args);
            all[n..total].copy_from_slice(hidden);
            go(&mut all[..total])
        } else {
            let mut all = args.to_vec();
            all.extend_from_slice(hidden);
            go(&mut all)
        }
    }

    fn into_any(self: Arc<Self>) -> Arc<dyn Any + Send + Sync> {
        self
    }

    fn validate(&self, cfg: &LaunchConfig) -> Result<()> {
        Ok(validate(cfg, &self.module.core.limits, &self.limits)?)
    }
}

impl CudaFunction {
    /// The checks of a cooperative launch that need the driver (after `validate`): not while
    /// the stream captures a graph, and a grid the device holds at once by the occupancy
    /// calculator (`cuOccupancyMaxActiveBlocksPerMultiprocessor` times the multiprocessors).
    /// Returns the stream's grid-barrier words.
    #[cold]
    fn check_cooperative(&self, stream: &dyn StreamOps, cfg: &LaunchConfig) -> Result<u64> {
        let Some(words) = stream.grid_words() else {
            return Err(LaunchError::CooperativeInGraph.into());
        };
        let threads = u32::try_from(cfg.block.volume()).unwrap_or(u32::MAX);
        let per_sm = self.max_active_blocks_per_sm(threads, cfg.shared_mem_bytes)?;
        let sms = self.module.core.props.multiprocessor_count;
        check_co_resident(cfg, per_sm, sms)?;
        Ok(words)
    }

    /// Opts the function in to everything the device allows beyond 48 KiB, once.
    #[cold]
    pub(super) fn raise_dynamic_shared(&self, needed: u32) -> Result<()> {
        let max = self
            .module
            .core
            .limits
            .max_shared_optin
            .saturating_sub(self.limits.static_shared)
            .max(needed);
        let value = to_c_int(max, "dynamic shared memory bytes")?;
        let a = CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES;
        // SAFETY: a live function of the current context.
        unsafe { result::func_set_attribute(self.raw, a, value)? };
        self.dyn_shared_limit.store(max, Ordering::Relaxed);
        Ok(())
    }
}
