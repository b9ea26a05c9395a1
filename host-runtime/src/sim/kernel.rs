//! Launching on the simulator: a compiled kernel's optimized IR, run on the CPU at once, with
//! what goes wrong inside it kept for the stream's next synchronize.

use std::any::Any;
use std::ffi::c_void;
use std::sync::Arc;

use kernel_compiler::Compiled;
use kernel_ir::ir;
use kernel_sim::{BlockOrder, SimError, SimErrorKind, SimLaunch};

use super::nodes::SimOp;
use super::Shared;
use crate::backend::{LoadedKernel, StreamOps};
use crate::launch::{validate, FuncLimits, LaunchError};
use crate::launch_config::LaunchConfig;
use crate::launch_cooperative::{check_co_resident, modelled_blocks_per_sm};
use crate::panic::KernelPanic;
use crate::{Error, Result};

/// A compiled kernel on a simulated device.
#[derive(Clone)]
pub(crate) struct SimKernel {
    pub(super) compiled: Arc<Compiled>,
    device: Arc<Shared>,
    limits: FuncLimits,
}

impl SimKernel {
    pub(super) fn new(compiled: Arc<Compiled>, device: Arc<Shared>) -> Self {
        let k = &compiled.kernel;
        let limits = FuncLimits {
            max_threads_per_block: k.attrs.max_threads.unwrap_or(0),
            static_shared: k.shared.iter().map(|s| s.bytes).sum(),
            required_block: k.attrs.block_dim,
            required_cluster: k.attrs.cluster_dims,
            grid_sync: k.uses_grid_sync().then(|| k.display_name.clone()),
        };
        SimKernel {
            compiled,
            device,
            limits,
        }
    }

    /// A cooperative grid must fit the simulated device at once, as on a GPU: blocks per
    /// multiprocessor by the occupancy model (threads and shared memory; the simulator knows no
    /// register counts) times its multiprocessors.
    fn check_co_resident(&self, cfg: &LaunchConfig) -> Result<()> {
        let p = &self.device.props;
        let shared = u64::from(self.limits.static_shared) + u64::from(cfg.shared_mem_bytes);
        let per_sm = modelled_blocks_per_sm(
            cfg.block.volume(),
            shared,
            p.max_blocks_per_multiprocessor,
            p.max_threads_per_multiprocessor,
            p.shared_mem_per_multiprocessor,
        );
        Ok(check_co_resident(cfg, per_sm, p.multiprocessor_count)?)
    }

    /// The simulator kernel behind a backend kernel (a graph node's, or one being added).
    pub(super) fn of(kernel: &Arc<dyn LoadedKernel>) -> Result<Arc<SimKernel>> {
        kernel
            .clone()
            .into_any()
            .downcast::<SimKernel>()
            .map_err(|_| Error::Unsupported("a kernel of another backend in a simulator graph"))
    }

    /// A graph node that launches this kernel with `args` (their bytes copied now).
    ///
    /// # Safety
    /// As for [`param_bytes`].
    pub(super) unsafe fn node_op(&self, cfg: &LaunchConfig, args: &[*mut c_void]) -> Result<SimOp> {
        if cfg.attrs.cooperative {
            return Err(LaunchError::CooperativeInGraph.into());
        }
        // SAFETY: the caller's contract.
        let params = unsafe { param_bytes(&self.compiled.kernel, args)? };
        Ok(SimOp::Kernel {
            kernel: Arc::new(self.clone()),
            compiled: self.compiled.clone(),
            cfg: *cfg,
            params: params.into_iter().map(<[u8]>::to_vec).collect(),
        })
    }
}

impl LoadedKernel for SimKernel {
    unsafe fn launch(
        &self,
        stream: &dyn StreamOps,
        cfg: &LaunchConfig,
        args: &mut [*mut c_void],
    ) -> Result<()> {
        validate(cfg, &self.device.limits, &self.limits)?;
        if cfg.attrs.cooperative {
            self.check_co_resident(cfg)?;
        }
        // SAFETY: the caller's contract.
        let node = || unsafe { self.node_op(cfg, args) };
        if self.device.captures.file(stream.id(), node)? {
            return Ok(());
        }
        let kernel = &self.compiled.kernel;
        // SAFETY: the caller's contract.
        let params = unsafe { param_bytes(kernel, args)? };
        let launch = SimLaunch {
            grid: [cfg.grid.x, cfg.grid.y, cfg.grid.z],
            block: [cfg.block.x, cfg.block.y, cfg.block.z],
            dyn_shared_bytes: cfg.shared_mem_bytes,
            block_order: BlockOrder::Sequential,
            target: self.device.target,
            // The CUDA backend raises the attribute for launches that need it.
            max_dynamic_shared_bytes: (self.limits.static_shared + cfg.shared_mem_bytes
                > self.device.props.shared_mem_per_block)
                .then_some(cfg.shared_mem_bytes),
            // The kernel's compile-time shape applies when the launch gives none.
            cluster: cfg.attrs.cluster.map_or([1, 1, 1], |c| [c.x, c.y, c.z]),
        };
        let r = kernel_sim::launch(kernel, &launch, &params, &mut self.device.mem());
        if let Err(e) = r {
            // What ptxas would refuse fails the launch, as the module load does on a GPU.
            if e.kind == SimErrorKind::TargetLimit {
                return Err(sim_error(e));
            }
            self.device.file_error(stream.id(), sim_error(e));
        }
        Ok(())
    }

    fn into_any(self: Arc<Self>) -> Arc<dyn Any + Send + Sync> {
        self
    }

    fn validate(&self, cfg: &LaunchConfig) -> Result<()> {
        Ok(validate(cfg, &self.device.limits, &self.limits)?)
    }
}

/// The bytes behind each argument pointer, sized by the kernel's parameters: what the simulator
/// takes as `params`.
///
/// # Safety
/// Each `args[i]` must point at `kernel.params[i].size` readable bytes that outlive `'a`.
pub unsafe fn param_bytes<'a>(
    kernel: &ir::Kernel,
    args: &'a [*mut c_void],
) -> Result<Vec<&'a [u8]>> {
    if args.len() != kernel.params.len() {
        return Err(Error::InvalidLaunch(LaunchError::ArgCount {
            expected: kernel.params.len(),
            got: args.len(),
        }));
    }
    Ok(kernel
        .params
        .iter()
        .zip(args)
        .map(|(p, &a)| unsafe { std::slice::from_raw_parts(a as *const u8, p.size as usize) })
        .collect())
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
