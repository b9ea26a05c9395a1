//! Graphs on the simulator: a node list with dependencies (see `nodes`), run in a topological
//! order of the DAG on the launching stream (each node completes before the next starts, as all
//! simulator work does). A capture turns the work queued on a capturing stream into a chain of
//! nodes instead of running it, and ends as a [`SimGraph`].

use std::any::Any;
use std::ffi::c_void;
use std::fmt::Write as _;
use std::sync::Arc;

use super::kernel::SimKernel;
use super::nodes::{Order, SimNode, SimOp};
use super::Shared;
use crate::backend::{EventOps, ExecOps, GraphOps, NodeOp, StreamOps};
use crate::graph::UpdateFailure;
use crate::launch_config::LaunchConfig;
use crate::{Error, Result};

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
                let sim = SimKernel::of(kernel)?;
                unsafe { sim.node_op(cfg, args)? }
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
        // A launch inside a capture becomes a child node of the captured graph.
        let child = || Ok(SimOp::Child(self.graph.clone()));
        if self.device.captures.file(stream.id(), child)? {
            return Ok(());
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
        let kernel = SimKernel::of(kernel)?;
        // SAFETY: the caller's contract.
        nodes[node].op = unsafe { kernel.node_op(cfg, args)? };
        self.graph = Arc::new(Order::new(nodes));
        Ok(())
    }
}
