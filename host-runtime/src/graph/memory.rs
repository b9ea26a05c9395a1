//! Graph memory nodes (guide 3.2.8.7; `cuGraphAddMemAllocNode` / `cuGraphAddMemFreeNode`): an
//! allocation the graph itself makes and frees on every run, for temporaries of the graph's
//! own nodes, at an address fixed when the graph is built.
//!
//! [`Graph::mem_alloc`] adds the alloc node (and a memset zeroing it) and gives a
//! [`GraphAlloc`]: the only handle to the memory, which later nodes of the same graph take like a
//! buffer (`&mut alloc` where a kernel or a copy writes it, `&alloc` where it reads), and which
//! [`Graph::mem_free`] consumes, adding the free node. The host never reads or writes graph
//! memory (it exists only while a run of the graph is between the two nodes). The rules the
//! driver leaves undefined are refused first, each with its [`GraphError`]:
//! - a node using the allocation must depend (directly or not) on its alloc node
//!   ([`GraphError::UseBeforeAlloc`]), and the free node on every node that used it
//!   ([`GraphError::FreeBeforeUse`]); the handle is gone once freed, so nothing uses it after;
//! - the memory of another graph ([`GraphError::AllocOfAnotherGraph`]);
//! - an allocation never freed at instantiation ([`GraphError::AllocNotFreed`]; a graph that
//!   leaves memory allocated cannot be launched again before a free outside it);
//! - a graph with memory nodes as a child graph ([`GraphError::MemoryNodesInChild`]) or in an
//!   exec update ([`GraphError::UpdateRefused`] with [`super::UpdateFailure::NotSupported`]).
//!
//! Freed graph memory stays reserved for the device's graphs; [`graph_mem_trim`] hands what no
//! exec holds back to the system.

use kernel_std::api::DeviceType;

use super::args::{GraphArg, GraphArgMut, GraphDst, GraphSrc};
use super::{write_all, Graph, GraphError, GraphNode, NodeKind};
use crate::backend::NodeOp;
use crate::launch_api::{KernelSlice, KernelSliceMut, SliceArg};
use crate::memory::byte_len;
use crate::uses::Uses;
use crate::{Device, DeviceBuffer, Error, Result, Stream};

/// What a graph knows of one of its allocations.
#[derive(Clone)]
pub(crate) struct AllocInfo {
    pub(crate) uses: Uses,
    /// The alloc node.
    pub(crate) node: usize,
    /// The free node, once added.
    pub(crate) freed: Option<usize>,
}

/// Graph memory of `len` elements of `T`, made by [`Graph::mem_alloc`]: usable by the nodes of
/// that graph added after it (depending on [`GraphAlloc::node`]) until [`Graph::mem_free`]
/// takes it.
///
/// ```
/// use ferrocuda::prelude::*;
/// use ferrocuda::host_runtime::graph::Graph;
///
/// #[kernel]
/// pub fn squares(t: &mut [u32]) {
///     let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
///     if i < t.len() {
///         t[i] = (i * i) as u32;
///     }
/// }
///
/// fn main() -> Result<()> {
///     let dev = Device::default()?;
///     let s = dev.new_stream()?;
///     let mut out = dev.alloc_zeroed::<u32>(64)?;
///     {
///         let mut g = Graph::new(&dev)?;
///         let mut tmp = g.mem_alloc::<u32>(&[], 64)?; // the graph's own temporary
///         let k = squares::node(&mut g, LaunchConfig::for_elements(64, 64), &[tmp.node()], &mut tmp)?;
///         let c = g.memcpy(&[k], &mut out, &tmp)?;
///         g.mem_free(&[c], tmp)?;
///         let exec = g.instantiate()?;
///         exec.launch(&s)?;
///         exec.launch(&s)?;
///         s.synchronize()?;
///     }
///     assert_eq!(out.to_vec()?[7], 49);
///     Ok(())
/// }
/// ```
#[must_use = "graph memory must be freed by a free node before the graph is instantiated"]
pub struct GraphAlloc<T: DeviceType> {
    buf: DeviceBuffer<T>,
    node: GraphNode,
    /// The alloc node's number (the node the memory is ready after may be the memset).
    alloc: usize,
}

impl<T: DeviceType> std::fmt::Debug for GraphAlloc<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GraphAlloc")
            .field("len", &self.buf.len())
            .field("alloc_node", &self.alloc)
            .finish()
    }
}

impl<T: DeviceType> GraphAlloc<T> {
    /// The node after which the memory is ready: what the first nodes using it depend on (the
    /// zeroing memset for [`Graph::mem_alloc`], the alloc node itself for
    /// [`Graph::mem_alloc_uninit`]).
    pub fn node(&self) -> GraphNode {
        self.node
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.buf.len()
    }

    /// Whether it has no elements.
    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    /// Its device address, fixed for the graph's life (valid only inside a run of the graph,
    /// between the alloc and the free node).
    pub fn device_ptr(&self) -> u64 {
        self.buf.device_ptr()
    }

    fn check_graph(&self, stream: &Stream) -> Result<()> {
        if self.buf.graph_home() == stream.id() {
            Ok(())
        } else {
            Err(GraphError::AllocOfAnotherGraph.into())
        }
    }
}

// SAFETY: graph memory of the graph whose recording stream this is (checked), allocated for
// every node ordered between its alloc and free nodes (checked when the node is added).
unsafe impl<'g, T: DeviceType> GraphArg<'g, T> for &GraphAlloc<T> {
    fn graph_arg(&self, stream: &Stream) -> Result<SliceArg> {
        self.check_graph(stream)?;
        self.buf.launch_arg(stream)
    }
}

// SAFETY: as above; `&mut` makes the node the handle's only user while it is added.
unsafe impl<'g, T: DeviceType> GraphArgMut<'g, T> for &mut GraphAlloc<T> {
    fn graph_arg_mut(&mut self, stream: &Stream) -> Result<SliceArg> {
        self.check_graph(stream)?;
        self.buf.launch_arg_mut(stream)
    }
}

impl<'g, T: DeviceType> GraphDst<'g, T> for &mut GraphAlloc<T> {
    fn dst(&mut self) -> &DeviceBuffer<T> {
        &self.buf
    }
}

impl<'g, T: DeviceType> GraphSrc<'g, T> for &GraphAlloc<T> {
    fn src(&self) -> &DeviceBuffer<T> {
        &self.buf
    }
}

impl<'a> Graph<'a> {
    /// Adds an alloc node of `len` elements of `T` after `deps`, and a memset node zeroing them
    /// (every later read defined, as for [`DeviceBuffer::zeroed`]); see [`GraphAlloc`]. An empty
    /// allocation is `Err(InvalidValue)` (the driver allocates no zero bytes).
    pub fn mem_alloc<T: DeviceType>(
        &mut self,
        deps: &[GraphNode],
        len: usize,
    ) -> Result<GraphAlloc<T>> {
        // SAFETY: the memset written next makes every byte defined before any use.
        let mut a = unsafe { self.mem_alloc_uninit::<T>(deps, len)? };
        let zero = self.memset(&[a.node], &mut a, 0)?;
        a.node = zero;
        Ok(a)
    }

    /// Adds an alloc node of `len` elements of `T` after `deps`, without initializing them.
    ///
    /// # Safety
    /// Reading elements before a node writes them yields whatever bytes the memory held (an
    /// earlier run's, another graph's), which must be valid for `T`.
    pub unsafe fn mem_alloc_uninit<T: DeviceType>(
        &mut self,
        deps: &[GraphNode],
        len: usize,
    ) -> Result<GraphAlloc<T>> {
        self.refuse_in_body("a memory node")?;
        let bytes = byte_len::<T>(len)?;
        if bytes == 0 {
            return Err(Error::InvalidValue("a graph allocation of 0 bytes".into()));
        }
        let mut addr = 0u64;
        let op = NodeOp::MemAlloc {
            bytes,
            addr: &mut addr,
        };
        // SAFETY: the node uses no memory of the caller.
        let node = unsafe { self.push(op, NodeKind::MemAlloc, deps, Vec::new())? };
        let buf = DeviceBuffer::graph_memory(&self.device, self.home.id(), addr, len)?;
        // The alloc node writes all of it: a node using it unordered is a conflict too.
        self.uses.set(Some(node.index), vec![write_all(buf.uses())]);
        self.allocs.push(AllocInfo {
            uses: buf.uses().clone(),
            node: node.index,
            freed: None,
        });
        Ok(GraphAlloc {
            buf,
            node,
            alloc: node.index,
        })
    }

    /// Adds the free node of `alloc` after `deps`, which must include (directly or not) every
    /// node that used it ([`GraphError::FreeBeforeUse`]).
    pub fn mem_free<T: DeviceType>(
        &mut self,
        deps: &[GraphNode],
        alloc: GraphAlloc<T>,
    ) -> Result<GraphNode> {
        alloc.check_graph(&self.home)?;
        let d = self.check_deps(deps)?;
        let anc = self.ancestors(&d);
        let free = self.kinds.len();
        if !anc[alloc.alloc] {
            return Err(GraphError::UseBeforeAlloc {
                node: free,
                alloc: alloc.alloc,
            }
            .into());
        }
        for (node, list) in &self.uses.per_node {
            let Some(node) = *node else { continue };
            if !anc[node] && list.iter().any(|u| u.uses.same(alloc.buf.uses())) {
                return Err(GraphError::FreeBeforeUse { node, free }.into());
            }
        }
        let op = NodeOp::MemFree {
            addr: alloc.buf.device_ptr(),
        };
        let uses = vec![write_all(alloc.buf.uses())];
        // SAFETY: graph memory of this graph, freed after every node using it.
        let node = unsafe { self.push(op, NodeKind::MemFree, deps, uses)? };
        if let Some(a) = self.allocs.iter_mut().find(|a| a.node == alloc.alloc) {
            a.freed = Some(node.index);
        }
        Ok(node)
    }

    /// Refuses a node using graph memory of this graph without depending on its alloc node.
    pub(crate) fn check_alloc_uses(
        &self,
        deps: &[usize],
        uses: &[crate::uses::RecordedUse],
    ) -> Result<()> {
        if self.allocs.is_empty() {
            return Ok(());
        }
        let mut ancestors: Option<Vec<bool>> = None;
        for a in &self.allocs {
            if uses.iter().any(|u| u.uses.same(&a.uses)) {
                let anc = ancestors.get_or_insert_with(|| self.ancestors(deps));
                if !anc[a.node] {
                    return Err(GraphError::UseBeforeAlloc {
                        node: self.kinds.len(),
                        alloc: a.node,
                    }
                    .into());
                }
            }
        }
        Ok(())
    }

    /// Refuses to instantiate a graph that leaves an allocation unfreed.
    pub(crate) fn check_allocs_freed(&self) -> Result<()> {
        match self.allocs.iter().find(|a| a.freed.is_none()) {
            Some(a) => Err(GraphError::AllocNotFreed { alloc: a.node }.into()),
            None => Ok(()),
        }
    }

    /// Whether the graph has memory nodes.
    pub fn has_memory_nodes(&self) -> bool {
        !self.allocs.is_empty()
    }
}

/// Hands the graph memory of `device` that graphs freed and no exec holds back to the system
/// (`cudaDeviceGraphMemTrim`); the simulator frees graph memory with its last holder already.
pub fn graph_mem_trim(device: &Device) -> Result<()> {
    device.ops().graph_mem_trim()
}
