//! CUDA graphs: work recorded once as a DAG of nodes, instantiated into a [`GraphExec`] and
//! launched many times at a fraction of the per-launch cost.
//!
//! A [`Graph`] is built explicitly (kernel nodes through the typed `kernel::node(&mut graph, cfg,
//! deps, args..)` every `#[kernel]` generates, memcpy, memset, host, event and child-graph nodes,
//! each after the nodes it names) or captured from a stream ([`crate::Stream::capture`]).
//! [`Graph::instantiate`] makes a [`GraphExec`], launched on any stream of the device, updated as a
//! whole from a graph of the same shape or per kernel node (`kernel::set_node_params`).
//!
//! Safety comes from the same places as for launches:
//! - Lifetimes: a `Graph<'a>` (and every exec made from it) borrows each buffer a node uses for
//!   `'a`, shared where the node only reads it and exclusively where it writes (a kernel's
//!   `&mut [T]` parameters, a copy's or memset's destination), so a buffer a live exec uses can be
//!   neither dropped nor touched from the host. A capture borrows what its closure borrows.
//! - Ordering: a node's uses are recorded (by the launch path's own argument checks, see `uses`)
//!   and every exec launch records them on its stream, so copies, launches and frees outside the
//!   graph wait for the graph's work like for a launch's; and a buffer a graph captured that is
//!   dropped anyway (a shared owner let it go) is freed only when the last graph using it goes.
//! - Kernel panics: a graph owns a stream of its own that its kernels report panics to (its
//!   panic slot); launching an exec on a stream notes the graph there, so that stream's next
//!   synchronize reports a kernel panic of the graph as `Err(KernelPanic)`, once, as for a launch
//!   (and a host node's panic as `Err(CallbackPanic)`).
//! - What the driver would refuse with a bare error code is refused first with a
//!   [`GraphError`]: nodes of another graph, cycles, empty captures, nested captures, run-once
//!   callbacks in a capture, parameters for a node of another kernel; an exec launched on a stream
//!   of another device is [`crate::Error::WrongDevice`].
//!
//! The simulator runs a graph's nodes one by one in a topological order of the DAG, with the same
//! checks and reports, so every graph program runs without a GPU.

use std::any::Any;
use std::marker::PhantomData;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use kernel_std::api::DeviceType;

use crate::backend::{AsyncCopy, GraphOps, NodeOp};
use crate::callback::HostNode;
use crate::memory::byte_len;
use crate::uses::{RecordedUse, Span};
use crate::{Device, DeviceBuffer, Error, Event, PinnedBuffer, Result, Stream};

mod args;
mod capture;
mod error;
mod exec;
mod kernel;
pub(crate) mod uses;

pub use crate::options::CaptureMode;
pub use args::{GraphArg, GraphArgMut, GraphDst, GraphMut, GraphSrc};
pub use error::{GraphError, UpdateFailure};
pub use exec::GraphExec;
pub use kernel::{add_kernel_node, exec_node_stream, graph_node_stream, set_kernel_node_params};
use uses::NodeUses;

/// A node of a [`Graph`]: its number and the graph it belongs to. Only a node of the same graph
/// may be a dependency (another graph's is a [`GraphError::ForeignNode`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GraphNode {
    pub(crate) graph: u64,
    pub(crate) index: usize,
}

impl GraphNode {
    /// The node's number in its graph (nodes are numbered in the order they were added).
    pub fn index(&self) -> usize {
        self.index
    }
}

/// What a node does, as far as the checks above the backend need to know.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NodeKind {
    Empty,
    Kernel {
        function: usize,
        /// The node's launch attributes (cluster shape, access policy, priority), which
        /// `set_node_params` cannot change: the driver keeps a node's.
        attrs: crate::LaunchAttrs,
    },
    Copy,
    Fill,
    Host,
    EventRecord,
    EventWait,
    Child,
    /// A node a capture made.
    Captured,
}

/// What a graph and its execs share and keep alive: its own stream (panic slot, recorder), the
/// own streams of its child graphs, and the host nodes.
#[derive(Clone)]
pub(crate) struct Keep {
    pub(crate) homes: Vec<Stream>,
    pub(crate) objects: Vec<Arc<dyn Any + Send + Sync>>,
}

static NEXT_GRAPH_ID: AtomicU64 = AtomicU64::new(1);

/// A DAG of device work, built node by node or captured from a stream (see the module docs).
/// `'a` is the borrow of every buffer, event and host memory its nodes use.
///
/// ```
/// use ferrocuda::prelude::*;
/// use ferrocuda::host_runtime::graph::Graph;
///
/// #[kernel]
/// pub fn add_one(y: &mut [u32]) {
///     let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
///     if i < y.len() {
///         y[i] += 1;
///     }
/// }
///
/// fn main() -> Result<()> {
///     let dev = Device::default()?;
///     let s = dev.new_stream()?;
///     let mut y = dev.alloc_zeroed::<u32>(256)?;
///     {
///         let mut g = Graph::new(&dev)?;
///         let a = add_one::node(&mut g, LaunchConfig::for_elements(256, 128), &[], &mut y)?;
///         let b = g.empty(&[a])?;
///         assert_eq!((g.node_count(), b.index()), (2, 1));
///         let exec = g.instantiate()?;
///         for _ in 0..3 {
///             exec.launch(&s)?;
///         }
///         s.synchronize()?;
///     } // the exec borrows `y` until here
///     assert!(y.to_vec()?.iter().all(|&v| v == 3));
///     Ok(())
/// }
/// ```
///
/// A buffer a live graph or exec uses can be neither dropped nor written from the host:
///
/// ```compile_fail,E0505
/// use ferrocuda::prelude::*;
///
/// #[kernel]
/// pub fn bump(y: &mut [u32]) {
///     y[0] += 1;
/// }
///
/// fn main() -> Result<()> {
///     let dev = Device::default()?;
///     let s = dev.new_stream()?;
///     let mut y = dev.alloc_zeroed::<u32>(1)?;
///     let mut g = Graph::new(&dev)?;
///     bump::node(&mut g, LaunchConfig::for_elements(1, 1), &[], &mut y)?;
///     let exec = g.instantiate()?;
///     drop(y); // error: `y` is borrowed by the graph and its exec
///     exec.launch(&s)
/// }
/// ```
///
/// ```compile_fail,E0499
/// use ferrocuda::prelude::*;
///
/// #[kernel]
/// pub fn bump(y: &mut [u32]) {
///     y[0] += 1;
/// }
///
/// fn main() -> Result<()> {
///     let dev = Device::default()?;
///     let s = dev.new_stream()?;
///     let mut y = dev.alloc_zeroed::<u32>(1)?;
///     let mut g = Graph::new(&dev)?;
///     bump::node(&mut g, LaunchConfig::for_elements(1, 1), &[], &mut y)?;
///     let exec = g.instantiate()?;
///     y.copy_from_host(&[5])?; // error: a second `&mut` while the exec may write `y`
///     exec.launch(&s)
/// }
/// ```
pub struct Graph<'a> {
    pub(crate) device: Device,
    pub(crate) id: u64,
    pub(crate) ops: Box<dyn GraphOps>,
    /// The graph's own stream: never runs work; records node uses, and its slot is where the
    /// graph's kernels report panics.
    pub(crate) home: Stream,
    pub(crate) kinds: Vec<NodeKind>,
    /// Each node's dependencies (for the cycle check).
    pub(crate) deps: Vec<Vec<usize>>,
    pub(crate) uses: NodeUses,
    pub(crate) keep: Keep,
    pub(crate) _borrow: PhantomData<&'a ()>,
}

impl std::fmt::Debug for Graph<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Graph")
            .field("id", &self.id)
            .field("nodes", &self.kinds.len())
            .finish()
    }
}

impl<'a> Graph<'a> {
    /// An empty graph of `device`.
    pub fn new(device: &Device) -> Result<Graph<'a>> {
        let ops = device.ops().new_graph()?;
        Graph::wrap(device, ops, Vec::new(), Vec::new())
    }

    /// A graph around a backend graph (`kinds`/`deps`: what is known of its nodes).
    pub(crate) fn wrap(
        device: &Device,
        ops: Box<dyn GraphOps>,
        kinds: Vec<NodeKind>,
        deps: Vec<Vec<usize>>,
    ) -> Result<Graph<'a>> {
        let home = Stream::new(device)?;
        home.start_recording();
        Ok(Graph {
            device: device.clone(),
            id: NEXT_GRAPH_ID.fetch_add(1, Ordering::Relaxed),
            ops,
            keep: Keep {
                homes: vec![home.clone()],
                objects: Vec::new(),
            },
            home,
            kinds,
            deps,
            uses: NodeUses::default(),
            _borrow: PhantomData,
        })
    }

    /// The device the graph's work runs on.
    pub fn device(&self) -> &Device {
        &self.device
    }

    /// Number of nodes (for a captured graph, the nodes the driver made).
    pub fn node_count(&self) -> usize {
        self.ops.node_count()
    }

    /// The dependencies as node numbers, each checked to be a node of this graph.
    pub(crate) fn check_deps(&self, deps: &[GraphNode]) -> Result<Vec<usize>> {
        deps.iter()
            .map(|d| {
                let ours = d.graph == self.id && d.index < self.kinds.len();
                if ours && self.kinds[d.index] != NodeKind::Captured {
                    Ok(d.index)
                } else {
                    Err(GraphError::ForeignNode { node: d.index }.into())
                }
            })
            .collect()
    }

    /// Adds a node whose uses are `uses`.
    ///
    /// # Safety
    /// As for [`GraphOps::add`]; the caller borrowed what `op` points at for `'a`.
    pub(crate) unsafe fn push(
        &mut self,
        op: NodeOp<'_>,
        kind: NodeKind,
        deps: &[GraphNode],
        uses: Vec<RecordedUse>,
    ) -> Result<GraphNode> {
        let deps = self.check_deps(deps)?;
        self.check_ordered(&deps, &uses)?;
        // SAFETY: the caller's contract.
        let index = unsafe { self.ops.add(op, &deps)? };
        debug_assert_eq!(index, self.kinds.len());
        self.kinds.push(kind);
        self.deps.push(deps);
        self.uses.set(Some(index), uses);
        Ok(GraphNode {
            graph: self.id,
            index,
        })
    }

    /// Refuses a node that would use memory an earlier node uses, one of them writing, without
    /// depending on it (directly or not): the two could run at once.
    fn check_ordered(&self, deps: &[usize], uses: &[RecordedUse]) -> Result<()> {
        if uses.is_empty() {
            return Ok(());
        }
        let mut ancestors: Option<Vec<bool>> = None;
        for (node, list) in &self.uses.per_node {
            let Some(node) = *node else { continue };
            let conflict = list.iter().any(|a| {
                uses.iter().any(|b| {
                    a.uses.same(&b.uses)
                        && (a.write || b.write)
                        && a.span.start < b.span.end
                        && b.span.start < a.span.end
                })
            });
            if !conflict {
                continue;
            }
            let anc = ancestors.get_or_insert_with(|| self.ancestors(deps));
            if !anc[node] {
                return Err(GraphError::UnorderedConflict {
                    earlier: node,
                    node: self.kinds.len(),
                }
                .into());
            }
        }
        Ok(())
    }

    /// Which nodes a node depending on `deps` would wait for.
    fn ancestors(&self, deps: &[usize]) -> Vec<bool> {
        let mut seen = vec![false; self.deps.len()];
        let mut stack = deps.to_vec();
        while let Some(n) = stack.pop() {
            if !std::mem::replace(&mut seen[n], true) {
                stack.extend(self.deps[n].iter().copied());
            }
        }
        seen
    }

    /// A node that does nothing: a join point for dependencies.
    pub fn empty(&mut self, deps: &[GraphNode]) -> Result<GraphNode> {
        // SAFETY: the node uses no memory.
        unsafe { self.push(NodeOp::Empty, NodeKind::Empty, deps, Vec::new()) }
    }

    /// Makes `to` wait for `from` as well. An edge that would close a cycle is
    /// [`GraphError::Cycle`].
    pub fn add_dependency(&mut self, from: GraphNode, to: GraphNode) -> Result<()> {
        let f = self.check_deps(&[from])?[0];
        let t = self.check_deps(&[to])?[0];
        if f == t || self.reaches(t, f) {
            return Err(GraphError::Cycle { from: f, to: t }.into());
        }
        self.ops.add_edges(&[f], &[t])?;
        self.deps[t].push(f);
        Ok(())
    }

    /// Whether `to` depends on `from` (directly or not): `from` is reachable from `to` walking
    /// dependencies.
    fn reaches(&self, from: usize, to: usize) -> bool {
        let mut seen = vec![false; self.deps.len()];
        let mut stack = vec![to];
        while let Some(n) = stack.pop() {
            if n == from {
                return true;
            }
            if !std::mem::replace(&mut seen[n], true) {
                stack.extend(self.deps[n].iter().copied());
            }
        }
        false
    }

    /// A device-to-device copy of `src` into `dst` (same length).
    pub fn memcpy<T: DeviceType>(
        &mut self,
        deps: &[GraphNode],
        mut dst: impl GraphDst<'a, T>,
        src: impl GraphSrc<'a, T>,
    ) -> Result<GraphNode> {
        let (dst, src) = (dst.dst(), src.src());
        self.check_buffer(dst)?;
        self.check_buffer(src)?;
        same_len(dst.len(), src.len())?;
        let bytes = byte_len::<T>(dst.len())?;
        let copy = AsyncCopy::DeviceToDevice {
            dst: dst.device_ptr(),
            src: src.device_ptr(),
            bytes,
        };
        let uses = vec![write_all(dst.uses()), read_all(src.uses())];
        // SAFETY: both buffers are borrowed for 'a.
        unsafe { self.push(NodeOp::Copy(copy), NodeKind::Copy, deps, uses) }
    }

    /// A copy of page-locked host memory into `dst` (same length).
    pub fn memcpy_from_host<T: DeviceType>(
        &mut self,
        deps: &[GraphNode],
        mut dst: impl GraphDst<'a, T>,
        src: &'a PinnedBuffer<T>,
    ) -> Result<GraphNode> {
        let dst = dst.dst();
        self.check_buffer(dst)?;
        same_len(dst.len(), src.len())?;
        let bytes = byte_len::<T>(dst.len())?;
        let copy = AsyncCopy::HostToDevice {
            dst: dst.device_ptr(),
            src: src.as_ptr() as *const _,
            bytes,
        };
        let uses = vec![write_all(dst.uses())];
        // SAFETY: both are borrowed for 'a (the host memory shared: the node only reads it).
        unsafe { self.push(NodeOp::Copy(copy), NodeKind::Copy, deps, uses) }
    }

    /// A copy of `src` into page-locked host memory (same length). The host sees the result
    /// after the launching stream is synchronized (the exec borrows `dst` until it is dropped).
    pub fn memcpy_to_host<T: DeviceType>(
        &mut self,
        deps: &[GraphNode],
        dst: &'a mut PinnedBuffer<T>,
        src: impl GraphSrc<'a, T>,
    ) -> Result<GraphNode> {
        let src = src.src();
        self.check_buffer(src)?;
        same_len(dst.len(), src.len())?;
        let bytes = byte_len::<T>(src.len())?;
        let copy = AsyncCopy::DeviceToHost {
            dst: dst.as_mut_ptr() as *mut _,
            src: src.device_ptr(),
            bytes,
        };
        let uses = vec![read_all(src.uses())];
        // SAFETY: both are borrowed for 'a, the host memory exclusively.
        unsafe { self.push(NodeOp::Copy(copy), NodeKind::Copy, deps, uses) }
    }

    /// Sets every byte of `dst` to `byte`.
    pub fn memset<T: DeviceType>(
        &mut self,
        deps: &[GraphNode],
        mut dst: impl GraphDst<'a, T>,
        byte: u8,
    ) -> Result<GraphNode> {
        let dst = dst.dst();
        self.check_buffer(dst)?;
        let bytes = byte_len::<T>(dst.len())?;
        let op = NodeOp::Fill {
            dst: dst.device_ptr(),
            elem: 1,
            pattern: u32::from(byte),
            count: bytes,
        };
        let uses = vec![write_all(dst.uses())];
        // SAFETY: `dst` is borrowed exclusively for 'a.
        unsafe { self.push(op, NodeKind::Fill, deps, uses) }
    }

    /// Sets every element of `dst` to `value`, a 1-, 2- or 4-byte type (the widths a memset node
    /// has; others are `Err(InvalidValue)`).
    pub fn fill<T: DeviceType>(
        &mut self,
        deps: &[GraphNode],
        mut dst: impl GraphDst<'a, T>,
        value: T,
    ) -> Result<GraphNode> {
        let dst = dst.dst();
        self.check_buffer(dst)?;
        let size = std::mem::size_of::<T>();
        if !matches!(size, 1 | 2 | 4) {
            return Err(Error::InvalidValue(format!(
                "a memset node of {size}-byte elements (1, 2 or 4)"
            )));
        }
        let mut pattern = 0u32;
        // SAFETY: copies the value's `size` bytes into the low bytes (little endian, as the
        // device is).
        unsafe {
            std::ptr::copy_nonoverlapping(
                &value as *const T as *const u8,
                &mut pattern as *mut u32 as *mut u8,
                size,
            )
        };
        let op = NodeOp::Fill {
            dst: dst.device_ptr(),
            elem: size,
            pattern,
            count: dst.len(),
        };
        let uses = vec![write_all(dst.uses())];
        // SAFETY: `dst` is borrowed exclusively for 'a.
        unsafe { self.push(op, NodeKind::Fill, deps, uses) }
    }

    /// A host node: `f` runs on a driver thread each time an exec runs the node, after its
    /// dependencies. A panic in `f` is caught and reported by the launching stream's next
    /// synchronize as [`Error::CallbackPanic`]. Like any host callback it must not call into
    /// CUDA (a driver rule).
    pub fn host<F: Fn() + Send + Sync + 'a>(
        &mut self,
        deps: &[GraphNode],
        f: F,
    ) -> Result<GraphNode> {
        let f: Box<dyn Fn() + Send + Sync + 'a> = Box::new(f);
        // SAFETY: only the lifetime changes; the graph and its execs (which run the closure)
        // cannot outlive 'a.
        let f: Box<dyn Fn() + Send + Sync> = unsafe { std::mem::transmute(f) };
        let node = Arc::new(HostNode {
            f,
            panics: self.home.inner.panics.clone(),
        });
        self.keep.objects.push(node.clone());
        // SAFETY: `keep` holds the closure as long as the graph and its execs.
        unsafe { self.push(NodeOp::Host(node), NodeKind::Host, deps, Vec::new()) }
    }

    /// A node recording `event` (like [`Event::record`] at that point of the graph).
    pub fn event_record(&mut self, deps: &[GraphNode], event: &'a Event) -> Result<GraphNode> {
        event.check_device(&self.device)?;
        // SAFETY: the event is borrowed for 'a.
        unsafe {
            self.push(
                NodeOp::EventRecord(event.ops()),
                NodeKind::EventRecord,
                deps,
                Vec::new(),
            )
        }
    }

    /// A node waiting for `event`'s last record before its dependents run.
    pub fn event_wait(&mut self, deps: &[GraphNode], event: &'a Event) -> Result<GraphNode> {
        event.check_device(&self.device)?;
        // SAFETY: the event is borrowed for 'a.
        unsafe {
            self.push(
                NodeOp::EventWait(event.ops()),
                NodeKind::EventWait,
                deps,
                Vec::new(),
            )
        }
    }

    /// A node running a copy of `child` (its uses checked against this graph's like a node's) (later changes to `child` do not reach this graph).
    /// The child's uses, panics and host nodes become this graph's.
    pub fn child(&mut self, deps: &[GraphNode], child: &Graph<'a>) -> Result<GraphNode> {
        if child.device != self.device {
            return Err(GraphError::ChildOfOtherDevice.into());
        }
        let uses: Vec<RecordedUse> = child
            .uses
            .per_node
            .iter()
            .flat_map(|(_, l)| l.iter().cloned())
            .collect();
        let deps_idx = self.check_deps(deps)?;
        self.check_ordered(&deps_idx, &uses)?;
        // SAFETY: the child's memory is borrowed for 'a too.
        let node = unsafe {
            self.push(
                NodeOp::Child(&*child.ops),
                NodeKind::Child,
                deps,
                Vec::new(),
            )?
        };
        let mut merged = Vec::new();
        for e in uses {
            e.merge_into(&mut merged);
        }
        self.uses.set(Some(node.index), merged);
        for h in &child.keep.homes {
            if !self.keep.homes.iter().any(|o| o.id() == h.id()) {
                self.keep.homes.push(h.clone());
            }
        }
        self.keep.objects.extend(child.keep.objects.iter().cloned());
        Ok(node)
    }

    /// The graph in Graphviz's dot language (the driver's verbose dump on a GPU; the node list
    /// with kinds and edges on the simulator).
    pub fn to_dot(&self) -> Result<String> {
        self.ops.to_dot()
    }

    /// An executable graph, launchable on any stream of the device.
    pub fn instantiate(&self) -> Result<GraphExec<'a>> {
        let ops = self.ops.instantiate()?;
        Ok(GraphExec::new(self, ops))
    }

    fn check_buffer<T: DeviceType>(&self, b: &DeviceBuffer<T>) -> Result<()> {
        crate::memory::check_use(b.device(), b.generation(), &self.home)
    }
}

fn same_len(dst: usize, src: usize) -> Result<()> {
    if dst == src {
        Ok(())
    } else {
        Err(Error::LengthMismatch {
            expected: dst,
            got: src,
        })
    }
}

fn write_all(u: &crate::uses::Uses) -> RecordedUse {
    RecordedUse {
        uses: u.clone(),
        span: u.all(),
        write: true,
    }
}

fn read_all(u: &crate::uses::Uses) -> RecordedUse {
    RecordedUse {
        uses: u.clone(),
        span: u.all() as Span,
        write: false,
    }
}
