//! Conditional nodes (CUDA 12.3+; `cuGraphConditionalHandleCreate`,
//! `CU_GRAPH_NODE_TYPE_CONDITIONAL`): a node that runs one of its body graphs, or a body
//! repeatedly, as a condition value decides when the node is reached on the device, without the
//! host in the loop.
//!
//! [`Graph::conditional_handle`] makes the condition (every launch starts it at its default);
//! [`Graph::conditional`] adds an if, if/else, while or switch node on it and lets a closure
//! fill its body graphs; [`Graph::set_conditional`] adds a node setting the condition from a
//! `u32` in device memory, which kernels of the graph (or of a body: the usual while loop)
//! write. That node is the runtime's own kernel calling `cudaGraphSetConditional` (a builtin the
//! driver resolves at load, see `cuda::conditional`), so a condition is only ever set through a
//! handle its graph made; a device-side setter for user kernels would need a kernel parameter
//! type for the handle, which the compiler does not have yet.
//!
//! What the driver leaves undefined or refuses is refused first: a handle of another graph
//! ([`GraphError::HandleOfAnotherGraph`]); in a body, what bodies may not hold (host and event
//! nodes, host copies, memory nodes, child graphs, cooperative kernels, nested conditionals:
//! [`GraphError::NotInConditionalBody`]); a body instantiated on its own or used as a child, a
//! graph with conditional nodes as a child ([`GraphError::ConditionalInChild`]) or in an exec
//! update. Bodies' memory uses count as the conditional node's in the parent's ordering checks.
//!
//! The simulator keeps each condition as a word of its device memory and runs the bodies the
//! value picks (a while loop that runs its body 2^20 times in one launch is reported).

use super::args::GraphSrc;
use super::{Graph, GraphError, GraphNode, NodeKind};
use crate::backend::NodeOp;
use crate::uses::RecordedUse;
use crate::{Error, Result};

/// Which conditional node ([`Graph::conditional`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Conditional {
    /// One body, run when the condition is nonzero.
    If,
    /// Two bodies: the first when the condition is nonzero, the second when it is zero (CUDA
    /// 12.8+ drivers).
    IfElse,
    /// One body, run again and again while the condition is nonzero (tested before each run).
    While,
    /// `n` bodies: body `value` runs, none when `value >= n` (CUDA 12.8+ drivers).
    Switch(u32),
}

impl Conditional {
    fn bodies(self) -> usize {
        match self {
            Conditional::If | Conditional::While => 1,
            Conditional::IfElse => 2,
            Conditional::Switch(n) => n as usize,
        }
    }
}

/// A graph's condition value (`cudaGraphConditionalHandle`), starting every launch at its
/// default.
#[derive(Debug)]
pub struct ConditionalHandle {
    graph: u64,
    raw: u64,
    default: u32,
}

impl ConditionalHandle {
    /// The value each launch starts with.
    pub fn default_value(&self) -> u32 {
        self.default
    }
}

impl<'a> Graph<'a> {
    pub(crate) fn refuse_in_body(&self, what: &'static str) -> Result<()> {
        if self.body {
            Err(GraphError::NotInConditionalBody { what }.into())
        } else {
            Ok(())
        }
    }

    /// A condition for this graph's conditional nodes, `default` at the start of every launch
    /// (`CU_GRAPH_COND_ASSIGN_DEFAULT`).
    pub fn conditional_handle(&mut self, default: u32) -> Result<ConditionalHandle> {
        self.refuse_in_body("a conditional handle (make it on the outer graph)")?;
        let raw = self.ops.conditional_handle(default)?;
        Ok(ConditionalHandle {
            graph: self.root,
            raw,
            default,
        })
    }

    /// Adds a conditional node on `handle` after `deps`; `build` fills its body graphs (one for
    /// if and while, two for if/else, `n` for a switch), each a graph like any other within
    /// what bodies may hold. The bodies' uses of memory count as the node's.
    ///
    /// ```
    /// use ferrocuda::prelude::*;
    /// use ferrocuda::host_runtime::graph::{Conditional, Graph};
    ///
    /// /// Doubles `x[0]` and clears the flag once it reaches `limit`.
    /// #[kernel]
    /// pub fn double_until(x: &mut [u32], flag: &mut [u32], limit: u32) {
    ///     if thread_idx().x == 0 {
    ///         x[0] *= 2;
    ///         flag[0] = (x[0] < limit) as u32;
    ///     }
    /// }
    ///
    /// fn main() -> Result<()> {
    ///     let dev = Device::default()?;
    ///     let s = dev.new_stream()?;
    ///     let mut x = dev.upload(&[1u32])?;
    ///     let mut flag = dev.upload(&[1u32])?;
    ///     {
    ///         let mut g = Graph::new(&dev)?;
    ///         let go = g.conditional_handle(1)?;
    ///         let mut fh = ferrocuda::host_runtime::graph::GraphMut::new(&mut flag);
    ///         g.conditional(&[], &go, Conditional::While, |b| {
    ///             let body = &mut b[0];
    ///             let k = double_until::node(body, LaunchConfig::for_elements(1, 32), &[], &mut x, &mut fh, 100)?;
    ///             body.set_conditional(&[k], &go, &fh)?;
    ///             Ok(())
    ///         })?;
    ///         let exec = g.instantiate()?;
    ///         exec.launch(&s)?;
    ///         s.synchronize()?;
    ///     }
    ///     assert_eq!(x.to_vec()?, [128]);
    ///     Ok(())
    /// }
    /// ```
    pub fn conditional<F>(
        &mut self,
        deps: &[GraphNode],
        handle: &ConditionalHandle,
        kind: Conditional,
        build: F,
    ) -> Result<GraphNode>
    where
        F: FnOnce(&mut [Graph<'a>]) -> Result<()>,
    {
        self.refuse_in_body("a conditional node (nested conditionals)")?;
        if handle.graph != self.root {
            return Err(GraphError::HandleOfAnotherGraph.into());
        }
        if kind.bodies() == 0 {
            return Err(Error::InvalidValue("a switch node of 0 bodies".into()));
        }
        let d = self.check_deps(deps)?;
        let mut raw = Vec::new();
        let op = NodeOp::Conditional {
            handle: handle.raw,
            kind,
            bodies: &mut raw,
        };
        // SAFETY: the node itself uses no memory; its bodies' nodes are added through the safe
        // API, which borrows what they use for 'a.
        let index = unsafe { self.ops.add(op, &d)? };
        debug_assert_eq!(index, self.kinds.len());
        let built = self.build_bodies(raw, build, &d);
        let (uses, bodies) = match built {
            Ok(b) => b,
            Err(e) => {
                let _ = self.ops.remove_last();
                return Err(e);
            }
        };
        let mut ops = Vec::new();
        for b in bodies {
            let Graph { ops: o, keep, .. } = b;
            ops.push(o);
            for h in &keep.homes {
                if !self.keep.homes.iter().any(|x| x.id() == h.id()) {
                    self.keep.homes.push(h.clone());
                }
            }
            self.keep.objects.extend(keep.objects);
        }
        self.ops.set_bodies(index, ops)?;
        self.kinds.push(NodeKind::Conditional);
        self.deps.push(d);
        self.uses.set(Some(index), uses);
        Ok(GraphNode {
            graph: self.id,
            index,
        })
    }

    /// Wraps the backend's bodies, runs `build`, and checks their uses against this graph's.
    fn build_bodies<F>(
        &self,
        raw: Vec<Box<dyn crate::backend::GraphOps>>,
        build: F,
        deps: &[usize],
    ) -> Result<(Vec<RecordedUse>, Vec<Graph<'a>>)>
    where
        F: FnOnce(&mut [Graph<'a>]) -> Result<()>,
    {
        let mut bodies = Vec::new();
        for ops in raw {
            let mut g = Graph::wrap(&self.device, ops, Vec::new(), Vec::new())?;
            g.body = true;
            g.root = self.root;
            bodies.push(g);
        }
        build(&mut bodies)?;
        let mut uses = Vec::new();
        for b in &bodies {
            for (_, l) in &b.uses.per_node {
                for e in l {
                    e.clone().merge_into(&mut uses);
                }
            }
        }
        self.check_ordered(deps, &uses)?;
        Ok((uses, bodies))
    }

    /// Adds a node setting `handle`'s value to `flag[0]` after `deps` (in this graph or one of
    /// its conditional bodies), as `cudaGraphSetConditional` in a kernel would: later nodes and
    /// the next test of a while node see it.
    pub fn set_conditional<S: GraphSrc<'a, u32>>(
        &mut self,
        deps: &[GraphNode],
        handle: &ConditionalHandle,
        flag: S,
    ) -> Result<GraphNode> {
        if handle.graph != self.root {
            return Err(GraphError::HandleOfAnotherGraph.into());
        }
        let f = flag.src();
        self.check_buffer(f)?;
        if f.is_empty() {
            return Err(Error::InvalidValue(
                "an empty flag buffer for set_conditional".into(),
            ));
        }
        let uses = vec![RecordedUse {
            uses: f.uses().clone(),
            span: 0..std::mem::size_of::<u32>() as u64,
            write: false,
        }];
        let op = NodeOp::SetConditional {
            handle: handle.raw,
            flag: f.device_ptr(),
        };
        // SAFETY: the flag's buffer is borrowed for 'a; the handle is this graph's.
        unsafe { self.push(op, NodeKind::SetConditional, deps, uses) }
    }

    /// Whether the graph has conditional nodes.
    pub(crate) fn has_conditional_nodes(&self) -> bool {
        self.kinds.contains(&NodeKind::Conditional)
    }
}
