//! A simulator graph's nodes: what each one does ([`SimOp`]), running them in a topological order
//! of the DAG ([`Order`]), and the captures in progress that collect them ([`Captures`]).
//!
//! This is the data the kernels, the streams, the copies and the graphs of the simulator all hand
//! each other, so it names none of them: a kernel node holds its kernel as the backend's
//! [`LoadedKernel`] (with the compiled kernel, its identity), and a capture is filed on the device
//! by stream id rather than on the stream object, so anything that may be captured (a launch, a
//! copy, an exec launched inside a capture) reaches it from the device alone.

use std::ffi::c_void;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use kernel_compiler::Compiled;

use super::Shared;
use crate::backend::{AsyncCopy, EventOps, LoadedKernel, StreamOps};
use crate::callback::HostNode;
use crate::graph::UpdateFailure;
use crate::launch_config::LaunchConfig;
use crate::Result;

/// A node's work as the simulator keeps it.
#[derive(Clone)]
pub(crate) enum SimOp {
    Empty,
    Kernel {
        /// The simulator kernel, launched when the node runs.
        kernel: Arc<dyn LoadedKernel>,
        /// What `kernel` runs: the function's identity for updates, and its name.
        compiled: Arc<Compiled>,
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
    /// The node's line in the Graphviz text.
    pub(crate) fn label(&self) -> String {
        match self {
            SimOp::Empty => "empty".into(),
            SimOp::Kernel { compiled, cfg, .. } => format!(
                "kernel {} grid ({}, {}, {}) block ({}, {}, {}) smem {}",
                compiled.kernel.display_name,
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
    pub(crate) fn compatible(&self, new: &SimOp) -> Option<UpdateFailure> {
        use SimOp::*;
        match (self, new) {
            (Empty, Empty) | (Host(_), Host(_)) | (EventWait, EventWait) => None,
            (EventRecord(_), EventRecord(_)) => None,
            (Kernel { compiled: a, .. }, Kernel { compiled: b, .. }) => {
                (!Arc::ptr_eq(a, b)).then_some(UpdateFailure::FunctionChanged)
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

/// A node: its work and the numbers of the nodes it runs after.
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
    pub(crate) nodes: Vec<SimNode>,
    order: Vec<usize>,
}

impl Order {
    pub(crate) fn new(nodes: Vec<SimNode>) -> Self {
        let order = topological(&nodes);
        Order { nodes, order }
    }

    /// Runs every node on `stream`, each after the ones it depends on.
    pub(crate) fn run(&self, device: &Shared, stream: &dyn StreamOps) -> Result<()> {
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

/// The captures in progress on a device's streams, by stream id (ids are process-unique and never
/// reused): each a chain of nodes, every one after the previous.
#[derive(Default)]
pub(crate) struct Captures {
    /// How many captures are in progress: while none is, filing work costs one atomic load.
    active: AtomicUsize,
    list: Mutex<Vec<(u64, Vec<SimNode>)>>,
}

impl Captures {
    fn list(&self) -> std::sync::MutexGuard<'_, Vec<(u64, Vec<SimNode>)>> {
        self.list.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Starts a capture on `stream`; false when one is in progress there already.
    pub(crate) fn begin(&self, stream: u64) -> bool {
        let mut l = self.list();
        if l.iter().any(|(s, _)| *s == stream) {
            return false;
        }
        l.push((stream, Vec::new()));
        self.active.fetch_add(1, Ordering::Release);
        true
    }

    /// Ends `stream`'s capture: its nodes (`None` when it was not capturing).
    pub(crate) fn end(&self, stream: u64) -> Option<Vec<SimNode>> {
        let mut l = self.list();
        let i = l.iter().position(|(s, _)| *s == stream)?;
        self.active.fetch_sub(1, Ordering::Release);
        Some(l.swap_remove(i).1)
    }

    /// Appends `op()` to `stream`'s capture when one is in progress there; whether it did (the
    /// work must then not run). `op` is made only for a capture.
    pub(crate) fn file(&self, stream: u64, op: impl FnOnce() -> Result<SimOp>) -> Result<bool> {
        if self.active.load(Ordering::Acquire) == 0 {
            return Ok(false);
        }
        let mut l = self.list();
        let Some((_, nodes)) = l.iter_mut().find(|(s, _)| *s == stream) else {
            return Ok(false);
        };
        let deps = match nodes.len() {
            0 => Vec::new(),
            n => vec![n - 1],
        };
        nodes.push(SimNode { op: op()?, deps });
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn filed(c: &Captures, stream: u64) -> bool {
        c.file(stream, || Ok(SimOp::Empty)).unwrap()
    }

    /// Work is filed only on the stream that captures, as a chain; a capture does not nest on
    /// one stream; once every capture ended nothing is filed.
    #[test]
    fn captures_file_a_chain_per_stream() {
        let c = Captures::default();
        assert!(!filed(&c, 1));
        assert!(c.begin(1));
        assert!(!c.begin(1));
        assert!(c.begin(2));
        assert!(filed(&c, 1) && filed(&c, 1) && filed(&c, 2));
        assert!(!filed(&c, 3));
        let one = c.end(1).unwrap();
        let deps: Vec<Vec<usize>> = one.iter().map(|n| n.deps.clone()).collect();
        assert_eq!(deps, [vec![], vec![0]]);
        assert!(c.end(1).is_none());
        assert!(!filed(&c, 1));
        assert_eq!(c.end(2).unwrap().len(), 1);
        assert_eq!(c.active.load(Ordering::Relaxed), 0);
    }

    /// A failing op (a kernel's argument count) is the launch's error, and files nothing.
    #[test]
    fn a_failed_op_files_nothing() {
        let c = Captures::default();
        c.begin(7);
        let e = c.file(7, || Err(crate::Error::InvalidValue("no".into())));
        assert!(e.is_err());
        assert!(c.end(7).unwrap().is_empty());
    }
}
