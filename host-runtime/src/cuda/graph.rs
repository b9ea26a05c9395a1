//! Graphs on the CUDA backend: a driver graph built node by node (or by a stream capture),
//! instantiated, launched, updated.
//!
//! A kernel node gets its arguments as a launch does, with the graph's panic slot appended for
//! modules that report panics; the driver copies the argument values when the node is added.
//! The driver graph lives as long as the `Graph` or any exec made from it (node handles of the
//! graph name the exec's nodes in per-node updates).

use std::any::Any;
use std::ffi::{c_void, CString};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use cudarc::driver::sys::{self, CUgraph, CUgraphExec, CUgraphNode, CUmemorytype};

use super::core::Core;
use super::event::CudaEvent;
use super::module::CudaFunction;
use super::result;
use crate::backend::{AsyncCopy, EventOps, ExecOps, GraphOps, LoadedKernel, NodeOp, StreamOps};
use crate::callback::host_node_trampoline;
use crate::graph::UpdateFailure;
use crate::launch_config::LaunchConfig;
use crate::{Error, Result};

/// Argument arrays up to this long are extended on the stack.
const INLINE_ARGS: usize = 32;

/// A driver graph handle, destroyed with its last holder.
pub(crate) struct RawGraph {
    core: Arc<Core>,
    raw: CUgraph,
    generation: u64,
}

// SAFETY: graph handles are usable from any thread (the safe layer serializes mutation).
unsafe impl Send for RawGraph {}
unsafe impl Sync for RawGraph {}

impl Drop for RawGraph {
    fn drop(&mut self) {
        if self.core.enter(self.generation).is_ok() {
            // SAFETY: our own handle; execs made from it are independent of it.
            unsafe {
                let _ = result::graph_destroy(self.raw);
            }
        }
    }
}

pub(crate) struct CudaGraph {
    graph: Arc<RawGraph>,
    nodes: Vec<CUgraphNode>,
    /// Each node's function, for kernel nodes (kept loaded while the graph lives).
    funcs: Vec<Option<Arc<CudaFunction>>>,
    /// Host nodes and what child graphs keep.
    keep: Vec<Arc<dyn Any + Send + Sync>>,
}

// SAFETY: as for `RawGraph`; node handles are plain identifiers.
unsafe impl Send for CudaGraph {}
unsafe impl Sync for CudaGraph {}

impl CudaGraph {
    pub(crate) fn create(core: &Arc<Core>) -> Result<Self> {
        core.ctx.bind()?;
        let raw = result::graph_create()?;
        Ok(CudaGraph::adopt(core, raw))
    }

    /// Wraps a graph the driver made (a capture's): its nodes as the driver lists them.
    pub(crate) fn adopt_captured(core: &Arc<Core>, raw: CUgraph) -> Result<Self> {
        let mut g = CudaGraph::adopt(core, raw);
        // SAFETY: a live graph just returned by the driver.
        g.nodes = unsafe { result::graph_get_nodes(raw)? };
        g.funcs = vec![None; g.nodes.len()];
        Ok(g)
    }

    fn adopt(core: &Arc<Core>, raw: CUgraph) -> Self {
        CudaGraph {
            graph: Arc::new(RawGraph {
                core: core.clone(),
                raw,
                generation: core.ctx.generation(),
            }),
            nodes: Vec::new(),
            funcs: Vec::new(),
            keep: Vec::new(),
        }
    }

    fn enter(&self) -> Result<()> {
        self.graph.core.enter(self.graph.generation)
    }

    fn deps(&self, deps: &[usize]) -> Vec<CUgraphNode> {
        deps.iter().map(|&d| self.nodes[d]).collect()
    }
}

/// The driver's description of a kernel node: `f` with `cfg`, the caller's arguments and, for
/// modules that report panics, `slot` last; `with` gets it while the argument array lives.
///
/// # Safety
/// `args` as for a launch of `f`.
unsafe fn with_kernel_params<R>(
    f: &CudaFunction,
    cfg: &LaunchConfig,
    args: &mut [*mut c_void],
    slot: u64,
    with: impl FnOnce(&sys::CUDA_KERNEL_NODE_PARAMS) -> Result<R>,
) -> Result<R> {
    if cfg.shared_mem_bytes > f.dyn_shared_limit.load(Ordering::Relaxed) {
        f.raise_dynamic_shared(cfg.shared_mem_bytes)?;
    }
    let mut slot = slot;
    let slot_ptr = &mut slot as *mut u64 as *mut c_void;
    let n = args.len();
    let mut inline = [std::ptr::null_mut(); INLINE_ARGS];
    let mut heap = Vec::new();
    let all: &mut [*mut c_void] = if f.module.panic_id.is_none() {
        args
    } else if n < INLINE_ARGS {
        inline[..n].copy_from_slice(args);
        inline[n] = slot_ptr;
        &mut inline[..=n]
    } else {
        heap.extend_from_slice(args);
        heap.push(slot_ptr);
        &mut heap
    };
    // SAFETY: zero is a valid bit pattern for this C struct (null handles and pointers).
    let mut p: sys::CUDA_KERNEL_NODE_PARAMS = unsafe { std::mem::zeroed() };
    p.func = f.raw;
    (p.gridDimX, p.gridDimY, p.gridDimZ) = (cfg.grid.x, cfg.grid.y, cfg.grid.z);
    (p.blockDimX, p.blockDimY, p.blockDimZ) = (cfg.block.x, cfg.block.y, cfg.block.z);
    p.sharedMemBytes = cfg.shared_mem_bytes;
    p.kernelParams = all.as_mut_ptr();
    with(&p)
}

fn cuda_function(k: &Arc<dyn LoadedKernel>) -> Result<Arc<CudaFunction>> {
    k.clone()
        .into_any()
        .downcast::<CudaFunction>()
        .map_err(|_| Error::Unsupported("a kernel of another backend in a CUDA graph"))
}

/// A 1-D copy as the driver's 3-D copy description. Built field by field: `CUmemorytype` has no
/// zero variant, so a zeroed struct is not a valid value (Rust aborts on `mem::zeroed` of it).
fn memcpy_params(c: AsyncCopy) -> sys::CUDA_MEMCPY3D {
    use std::ptr::{null, null_mut};
    let host = CUmemorytype::CU_MEMORYTYPE_HOST;
    let device = CUmemorytype::CU_MEMORYTYPE_DEVICE;
    let (src_type, src_host, src_dev, dst_type, dst_host, dst_dev, bytes) = match c {
        AsyncCopy::HostToDevice { dst, src, bytes } => {
            (host, src, 0, device, null_mut(), dst, bytes)
        }
        AsyncCopy::DeviceToHost { dst, src, bytes } => (device, null(), src, host, dst, 0, bytes),
        AsyncCopy::DeviceToDevice { dst, src, bytes } => {
            (device, null(), src, device, null_mut(), dst, bytes)
        }
    };
    sys::CUDA_MEMCPY3D {
        srcXInBytes: 0,
        srcY: 0,
        srcZ: 0,
        srcLOD: 0,
        srcMemoryType: src_type,
        srcHost: src_host,
        srcDevice: src_dev,
        srcArray: null_mut(),
        reserved0: null_mut(),
        srcPitch: 0,
        srcHeight: 0,
        dstXInBytes: 0,
        dstY: 0,
        dstZ: 0,
        dstLOD: 0,
        dstMemoryType: dst_type,
        dstHost: dst_host,
        dstDevice: dst_dev,
        dstArray: null_mut(),
        reserved1: null_mut(),
        dstPitch: 0,
        dstHeight: 0,
        WidthInBytes: bytes,
        Height: 1,
        Depth: 1,
    }
}

impl GraphOps for CudaGraph {
    fn as_any(&self) -> &dyn Any {
        self
    }

    unsafe fn add(&mut self, op: NodeOp<'_>, deps: &[usize]) -> Result<usize> {
        self.enter()?;
        let g = self.graph.raw;
        let d = self.deps(deps);
        let ctx = self.graph.core.ctx.raw();
        // SAFETY (every arm): live handles of the current context; the caller keeps the memory,
        // events and host nodes alive while the graph may run.
        let mut func = None;
        let node = unsafe {
            match op {
                NodeOp::Empty => result::graph_add_empty_node(g, &d)?,
                NodeOp::Kernel {
                    kernel,
                    cfg,
                    args,
                    slot,
                } => {
                    let f = cuda_function(kernel)?;
                    if f.generation != self.graph.generation {
                        return Err(Error::ContextLost);
                    }
                    if cfg.attrs.non_portable_cluster {
                        f.allow_cluster_size(cfg)?;
                    }
                    let n = with_kernel_params(&f, cfg, args, slot, |p| {
                        result::graph_add_kernel_node(g, &d, p)
                    })?;
                    // The node's cluster shape, access policy window and priority.
                    for a in super::launch_ex::Attrs::of(cfg).entries() {
                        result::graph_kernel_node_set_attribute(n, a)?;
                    }
                    func = Some(f);
                    n
                }
                NodeOp::Copy(c) => result::graph_add_memcpy_node(g, &d, &memcpy_params(c), ctx)?,
                NodeOp::Fill {
                    dst,
                    elem,
                    pattern,
                    count,
                } => {
                    let p = sys::CUDA_MEMSET_NODE_PARAMS {
                        dst,
                        pitch: 0,
                        value: pattern,
                        elementSize: elem as u32,
                        width: count,
                        height: 1,
                    };
                    result::graph_add_memset_node(g, &d, &p, ctx)?
                }
                NodeOp::Host(h) => {
                    let p = sys::CUDA_HOST_NODE_PARAMS {
                        fn_: Some(host_node_trampoline),
                        userData: Arc::as_ptr(&h) as *mut c_void,
                    };
                    self.keep.push(h);
                    result::graph_add_host_node(g, &d, &p)?
                }
                NodeOp::EventRecord(e) => result::graph_add_event_node(g, &d, event(e)?, true)?,
                NodeOp::EventWait(e) => result::graph_add_event_node(g, &d, event(e)?, false)?,
                NodeOp::Child(c) => {
                    let c = c
                        .as_any()
                        .downcast_ref::<CudaGraph>()
                        .ok_or(Error::Unsupported("a child graph of another backend"))?;
                    self.keep.extend(c.keep.iter().cloned());
                    for f in c.funcs.iter().flatten() {
                        self.keep.push(f.clone());
                    }
                    result::graph_add_child_node(g, &d, c.graph.raw)?
                }
            }
        };
        self.nodes.push(node);
        self.funcs.push(func);
        Ok(self.nodes.len() - 1)
    }

    fn add_edges(&mut self, from: &[usize], to: &[usize]) -> Result<()> {
        self.enter()?;
        let (f, t) = (self.deps(from), self.deps(to));
        // SAFETY: nodes of this live graph.
        unsafe { result::graph_add_dependencies(self.graph.raw, &f, &t) }
    }

    fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// The driver's verbose dump, through a file (the only way the driver writes it).
    fn to_dot(&self) -> Result<String> {
        self.enter()?;
        static N: AtomicU64 = AtomicU64::new(0);
        let path = std::env::temp_dir().join(format!(
            "ferrocuda-graph-{}-{}.dot",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        let c = CString::new(path.to_string_lossy().as_bytes())
            .map_err(|_| Error::InvalidValue("a temporary path with a NUL byte".into()))?;
        // SAFETY: a live graph; the path is NUL-terminated.
        unsafe { result::graph_debug_dot_print(self.graph.raw, &c)? };
        let text = std::fs::read_to_string(&path)
            .map_err(|e| Error::InvalidValue(format!("reading the graph dump: {e}")));
        let _ = std::fs::remove_file(&path);
        text
    }

    fn instantiate(&self) -> Result<Box<dyn ExecOps>> {
        self.enter()?;
        // SAFETY: a live graph.
        let raw = unsafe { result::graph_instantiate(self.graph.raw)? };
        Ok(Box::new(CudaExec {
            graph: self.graph.clone(),
            raw,
            nodes: self.nodes.clone(),
            funcs: self.funcs.clone(),
            keep: self.keep.clone(),
        }))
    }
}

fn event(e: &dyn EventOps) -> Result<sys::CUevent> {
    e.as_any()
        .downcast_ref::<CudaEvent>()
        .map(|e| e.raw())
        .ok_or(Error::Unsupported("an event of another backend"))
}

pub(crate) struct CudaExec {
    /// The graph it was made from: its node handles name the exec's nodes.
    graph: Arc<RawGraph>,
    raw: CUgraphExec,
    nodes: Vec<CUgraphNode>,
    funcs: Vec<Option<Arc<CudaFunction>>>,
    keep: Vec<Arc<dyn Any + Send + Sync>>,
}

// SAFETY: exec handles are usable from any thread (the safe layer serializes updates).
unsafe impl Send for CudaExec {}
unsafe impl Sync for CudaExec {}

impl Drop for CudaExec {
    fn drop(&mut self) {
        if self.enter().is_ok() {
            // SAFETY: our own handle; launches already queued still complete.
            unsafe {
                let _ = result::graph_exec_destroy(self.raw);
            }
        }
    }
}

impl CudaExec {
    fn enter(&self) -> Result<()> {
        self.graph.core.enter(self.graph.generation)
    }

    fn check(&self, stream: &dyn StreamOps) -> Result<()> {
        self.enter()?;
        if stream.generation() != self.graph.generation {
            return Err(Error::ContextLost);
        }
        Ok(())
    }
}

fn update_failure(r: sys::CUgraphExecUpdateResult) -> UpdateFailure {
    use sys::CUgraphExecUpdateResult as R;
    match r {
        R::CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED => UpdateFailure::TopologyChanged,
        R::CU_GRAPH_EXEC_UPDATE_ERROR_NODE_TYPE_CHANGED => UpdateFailure::NodeTypeChanged,
        R::CU_GRAPH_EXEC_UPDATE_ERROR_FUNCTION_CHANGED => UpdateFailure::FunctionChanged,
        R::CU_GRAPH_EXEC_UPDATE_ERROR_PARAMETERS_CHANGED => UpdateFailure::ParametersChanged,
        R::CU_GRAPH_EXEC_UPDATE_ERROR_NOT_SUPPORTED => UpdateFailure::NotSupported,
        R::CU_GRAPH_EXEC_UPDATE_ERROR_UNSUPPORTED_FUNCTION_CHANGE => {
            UpdateFailure::UnsupportedFunctionChange
        }
        R::CU_GRAPH_EXEC_UPDATE_ERROR_ATTRIBUTES_CHANGED => UpdateFailure::AttributesChanged,
        _ => UpdateFailure::Other,
    }
}

impl ExecOps for CudaExec {
    #[inline]
    fn launch(&self, stream: &dyn StreamOps) -> Result<()> {
        self.check(stream)?;
        // SAFETY: live handles of the current context.
        unsafe { result::graph_launch(self.raw, stream.raw()) }
    }

    fn upload(&self, stream: &dyn StreamOps) -> Result<()> {
        self.check(stream)?;
        // SAFETY: as above.
        unsafe { result::graph_upload(self.raw, stream.raw()) }
    }

    fn update(&mut self, graph: &dyn GraphOps) -> Result<Option<UpdateFailure>> {
        self.enter()?;
        let g = graph
            .as_any()
            .downcast_ref::<CudaGraph>()
            .ok_or(Error::Unsupported("a graph of another backend"))?;
        // SAFETY: live handles of the current context.
        match unsafe { result::graph_exec_update(self.raw, g.graph.raw)? } {
            Some(r) => Ok(Some(update_failure(r))),
            None => {
                // The exec runs the new graph's functions and host nodes now.
                self.keep.extend(g.keep.iter().cloned());
                for (mine, new) in self.funcs.iter_mut().zip(&g.funcs) {
                    if new.is_some() {
                        *mine = new.clone();
                    }
                }
                Ok(None)
            }
        }
    }

    unsafe fn set_kernel_params(
        &mut self,
        node: usize,
        cfg: &LaunchConfig,
        args: &mut [*mut c_void],
        slot: u64,
    ) -> Result<()> {
        self.enter()?;
        let Some(Some(f)) = self.funcs.get(node) else {
            return Err(crate::graph::GraphError::NotThisKernel { node }.into());
        };
        let n = self.nodes[node];
        // SAFETY: the caller's contract; `n` is a kernel node of the graph the exec came from.
        unsafe {
            with_kernel_params(f, cfg, args, slot, |p| {
                result::graph_exec_kernel_node_set_params(self.raw, n, p)
            })
        }
    }
}
