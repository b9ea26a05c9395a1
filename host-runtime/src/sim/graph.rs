//! Graphs on the simulator: a node list with dependencies, run in a topological order of the DAG
//! on the launching stream (each node completes before the next starts, as all simulator work
//! does). A capture turns the work queued on a capturing stream into a chain of nodes instead of
//! running it.

use std::any::Any;
use std::ffi::c_void;
use std::fmt::Write as _;
use std::sync::Arc;

use super::kernel::{param_bytes, SimKernel};
use super::objects::SimStream;
use super::Shared;
use crate::backend::{AsyncCopy, EventOps, ExecOps, GraphOps, LoadedKernel, NodeOp, StreamOps};
use crate::graph::{HostNode, UpdateFailure};
use crate::launch_config::LaunchConfig;
use crate::{Error, Result};

/// A node's work as the simulator keeps it.
#[derive(Clone)]
pub(crate) enum SimOp {
    Empty,
    Kernel {
        kernel: Arc<SimKernel>,
        name: String,
        cfg: LaunchConfig,
        /// Each parameter's bytes.
        params: Vec<Vec<u8>>,
    },
    Copy(AsyncCopy),
    Fill {
        dst: u64,
        elem: usize,
        pattern: u32,
        count: usize,
    },
    Host(Arc<HostNode>),
    EventRecord(*const dyn EventOps),
    EventWait,
    Child(Arc<Order>),
}

impl SimOp {
    fn label(&self) -> String {
        match self {
            SimOp::Empty => "empty".into(),
            SimOp::Kernel { name, cfg, .. } => format!(
                "kernel {name} grid ({}, {}, {}) block ({}, {}, {}) smem {}",
                cfg.grid.x,
                cfg.grid.y,
                cfg.grid.z,
                cfg.block.x,
                cfg.block.y,
                cfg.block.z,
                cfg.shared_mem_bytes
            ),
            SimOp::Copy(AsyncCopy::HostToDevice { bytes, .. }) => format!("memcpy HtoD {bytes} B"),
            SimOp::Copy(AsyncCopy::DeviceToHost { bytes, .. }) => format!("memcpy DtoH {bytes} B"),
            SimOp::Copy(AsyncCopy::DeviceToDevice { bytes, .. }) => {
                format!("memcpy DtoD {bytes} B")
            }
            SimOp::Fill { elem, count, .. } => format!("memset {count} x {elem} B"),
            SimOp::Host(_) => "host".into(),
            SimOp::EventRecord(_) => "event record".into(),
            SimOp::EventWait => "event wait".into(),
            SimOp::Child(o) => format!("child graph ({} nodes)", o.nodes.len()),
        }
    }

    /// What an update may not change: the kind (and for kernels the function, for copies the
    /// direction, for memsets the element size).
    fn compatible(&self, new: &SimOp) -> Option<UpdateFailure> {
        use SimOp::*;
        match (self, new) {
            (Empty, Empty) | (Host(_), Host(_)) | (EventWait, EventWait) => None,
            (EventRecord(_), EventRecord(_)) => None,
            (Kernel { kernel: a, .. }, Kernel { kernel: b, .. }) => {
                (!Arc::ptr_eq(&a.compiled, &b.compiled)).then_some(UpdateFailure::FunctionChanged)
            }
            (Copy(a), Copy(b)) => (std::mem::discriminant(a) != std::mem::discriminant(b))
                .then_some(UpdateFailure::ParametersChanged),
            (Fill { elem: a, .. }, Fill { elem: b, .. }) => {
                (a != b).then_some(UpdateFailure::ParametersChanged)
            }
            (Child(a), Child(b)) => {
                (a.nodes.len() != b.nodes.len()).then_some(UpdateFailure::TopologyChanged)
            }
            _ => Some(UpdateFailure::NodeTypeChanged),
        }
    }
}

#[derive(Clone)]
pub(crate) struct SimNode {
    pub(crate) op: SimOp,
    pub(crate) deps: Vec<usize>,
}

// SAFETY: the raw pointers (host memory of copies, events) point at what the safe layer keeps
// borrowed for the graph's lifetime; the simulator runs them on one thread at a time.
unsafe impl Send for SimNode {}
unsafe impl Sync for SimNode {}

/// Nodes with a topological order of them.
pub(crate) struct Order {
    nodes: Vec<SimNode>,
    order: Vec<usize>,
}

impl Order {
    fn new(nodes: Vec<SimNode>) -> Self {
        let order = topological(&nodes);
        Order { nodes, order }
    }

    fn run(&self, device: &Shared, stream: &dyn StreamOps) -> Result<()> {
        for &i in &self.order {
            run_node(device, stream, &self.nodes[i].op)?;
        }
        Ok(())
    }
}

/// Kahn's algorithm, lowest number first among the ready nodes (the graph has no cycle: the
/// safe layer refuses edges that would close one).
fn topological(nodes: &[SimNode]) -> Vec<usize> {
    let n = nodes.len();
    let mut waiting: Vec<usize> = nodes.iter().map(|x| x.deps.len()).collect();
    let mut users: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, x) in nodes.iter().enumerate() {
        for &d in &x.deps {
            users[d].push(i);
        }
    }
    let mut ready: std::collections::BinaryHeap<std::cmp::Reverse<usize>> = (0..n)
        .filter(|&i| waiting[i] == 0)
        .map(std::cmp::Reverse)
        .collect();
    let mut order = Vec::with_capacity(n);
    while let Some(std::cmp::Reverse(i)) = ready.pop() {
        order.push(i);
        for &u in &users[i] {
            waiting[u] -= 1;
            if waiting[u] == 0 {
                ready.push(std::cmp::Reverse(u));
            }
        }
    }
    order
}

fn run_node(device: &Shared, stream: &dyn StreamOps, op: &SimOp) -> Result<()> {
    match op {
        SimOp::Empty | SimOp::EventWait => Ok(()),
        SimOp::Kernel {
            kernel,
            cfg,
            params,
            ..
        } => {
            let mut bytes = params.clone();
            let mut args: Vec<*mut c_void> = bytes
                .iter_mut()
                .map(|p| p.as_mut_ptr() as *mut c_void)
                .collect();
            // SAFETY: one pointer per parameter, each at its bytes; the memory is borrowed by
            // the graph.
            unsafe { kernel.launch(stream, cfg, &mut args) }
        }
        // SAFETY: the host memory is borrowed by the graph.
        SimOp::Copy(c) => unsafe { device.run_copy(*c) },
        SimOp::Fill {
            dst,
            elem,
            pattern,
            count,
        } => device.fill(*dst, *elem, *pattern, *count),
        SimOp::Host(h) => {
            h.run();
            Ok(())
        }
        // SAFETY: the event is borrowed by the graph.
        SimOp::EventRecord(e) => unsafe { (**e).record(stream) },
        SimOp::Child(o) => o.run(device, stream),
    }
}

/// A graph under construction (explicitly or by a capture).
pub(crate) struct SimGraph {
    pub(crate) device: Arc<Shared>,
    pub(crate) nodes: Vec<SimNode>,
}

impl SimGraph {
    pub(crate) fn new(device: Arc<Shared>) -> Self {
        SimGraph {
            device,
            nodes: Vec::new(),
        }
    }
}

/// The bytes of each kernel argument (sized by the kernel's parameters).
///
/// # Safety
/// As for [`param_bytes`].
pub(crate) unsafe fn kernel_op(
    kernel: Arc<SimKernel>,
    cfg: &LaunchConfig,
    args: &[*mut c_void],
) -> Result<SimOp> {
    let k = &kernel.compiled.kernel;
    // SAFETY: the caller's contract.
    let params = unsafe { param_bytes(k, args)? };
    Ok(SimOp::Kernel {
        name: k.display_name.clone(),
        kernel: kernel.clone(),
        cfg: *cfg,
        params: params.into_iter().map(<[u8]>::to_vec).collect(),
    })
}

impl GraphOps for SimGraph {
    fn as_any(&self) -> &dyn Any {
        self
    }

    unsafe fn add(&mut self, op: NodeOp<'_>, deps: &[usize]) -> Result<usize> {
        let op = match op {
            NodeOp::Empty => SimOp::Empty,
            // SAFETY: the caller's contract.
            NodeOp::Kernel {
                kernel, cfg, args, ..
            } => {
                let sim = kernel
                    .clone()
                    .into_any()
                    .downcast::<SimKernel>()
                    .map_err(|_| {
                        Error::Unsupported("a kernel of another backend in a simulator graph")
                    })?;
                unsafe { kernel_op(sim, cfg, args)? }
            }
            NodeOp::Copy(c) => SimOp::Copy(c),
            NodeOp::Fill {
                dst,
                elem,
                pattern,
                count,
            } => SimOp::Fill {
                dst,
                elem,
                pattern,
                count,
            },
            NodeOp::Host(h) => SimOp::Host(h),
            // SAFETY (lifetime erased): the safe layer borrows the event for the graph's life.
            NodeOp::EventRecord(e) => SimOp::EventRecord(unsafe {
                std::mem::transmute::<*const dyn EventOps, *const (dyn EventOps + 'static)>(e)
            }),
            NodeOp::EventWait(_) => SimOp::EventWait,
            NodeOp::Child(g) => {
                let g = g
                    .as_any()
                    .downcast_ref::<SimGraph>()
                    .ok_or(Error::Unsupported("a child graph of another backend"))?;
                SimOp::Child(Arc::new(Order::new(g.nodes.clone())))
            }
        };
        self.nodes.push(SimNode {
            op,
            deps: deps.to_vec(),
        });
        Ok(self.nodes.len() - 1)
    }

    fn add_edges(&mut self, from: &[usize], to: &[usize]) -> Result<()> {
        for (&f, &t) in from.iter().zip(to) {
            self.nodes[t].deps.push(f);
        }
        Ok(())
    }

    fn node_count(&self) -> usize {
        self.nodes.len()
    }

    fn to_dot(&self) -> Result<String> {
        let mut s = String::from("digraph ferrocuda_graph {\n");
        for (i, n) in self.nodes.iter().enumerate() {
            let _ = writeln!(s, "  n{i} [label=\"{i}: {}\"];", n.op.label());
        }
        for (i, n) in self.nodes.iter().enumerate() {
            for d in &n.deps {
                let _ = writeln!(s, "  n{d} -> n{i};");
            }
        }
        s.push_str("}\n");
        Ok(s)
    }

    fn instantiate(&self) -> Result<Box<dyn ExecOps>> {
        Ok(Box::new(SimExec {
            device: self.device.clone(),
            graph: Arc::new(Order::new(self.nodes.clone())),
        }))
    }
}

/// An executable graph: a snapshot of the nodes and their order.
pub(crate) struct SimExec {
    device: Arc<Shared>,
    graph: Arc<Order>,
}

impl ExecOps for SimExec {
    fn launch(&self, stream: &dyn StreamOps) -> Result<()> {
        if let Some(s) = stream.as_any().downcast_ref::<SimStream>() {
            // A launch inside a capture becomes a child node of the captured graph.
            if s.capture_op(|| SimOp::Child(self.graph.clone())) {
                return Ok(());
            }
        }
        self.graph.run(&self.device, stream)
    }

    /// Nothing to upload: the simulator runs the nodes where they are.
    fn upload(&self, _: &dyn StreamOps) -> Result<()> {
        Ok(())
    }

    fn update(&mut self, graph: &dyn GraphOps) -> Result<Option<UpdateFailure>> {
        let g = graph
            .as_any()
            .downcast_ref::<SimGraph>()
            .ok_or(Error::Unsupported("a graph of another backend"))?;
        let old = &self.graph.nodes;
        if old.len() != g.nodes.len() {
            return Ok(Some(UpdateFailure::TopologyChanged));
        }
        for (a, b) in old.iter().zip(&g.nodes) {
            let (mut da, mut db) = (a.deps.clone(), b.deps.clone());
            da.sort_unstable();
            db.sort_unstable();
            if da != db {
                return Ok(Some(UpdateFailure::TopologyChanged));
            }
            if let Some(why) = a.op.compatible(&b.op) {
                return Ok(Some(why));
            }
        }
        self.graph = Arc::new(Order::new(g.nodes.clone()));
        Ok(None)
    }

    unsafe fn set_kernel_params(
        &mut self,
        node: usize,
        cfg: &LaunchConfig,
        args: &mut [*mut c_void],
        _: u64,
    ) -> Result<()> {
        let mut nodes = self.graph.nodes.clone();
        let SimOp::Kernel { kernel, .. } = &nodes[node].op else {
            return Err(crate::graph::GraphError::NotThisKernel { node }.into());
        };
        // SAFETY: the caller's contract.
        nodes[node].op = unsafe { kernel_op(kernel.clone(), cfg, args)? };
        self.graph = Arc::new(Order::new(nodes));
        Ok(())
    }
}

/// A capture in progress on a simulator stream: the nodes so far, each after the previous one.
#[derive(Default)]
pub(crate) struct Capture {
    pub(crate) nodes: Vec<SimNode>,
}

impl Capture {
    pub(crate) fn push(&mut self, op: SimOp) {
        let deps = match self.nodes.len() {
            0 => Vec::new(),
            n => vec![n - 1],
        };
        self.nodes.push(SimNode { op, deps });
    }
}
