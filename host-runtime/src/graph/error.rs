//! What the graph API refuses before the driver sees it, and why an exec update was refused.

/// A graph built or used in a way the runtime refuses before any driver call.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GraphError {
    /// A node handle of another graph was given as a dependency (or to an exec it does not
    /// belong to).
    #[error("node {node} belongs to another graph")]
    ForeignNode {
        /// The node's number in its own graph.
        node: usize,
    },
    /// An edge would close a cycle (a node would wait for itself).
    #[error("an edge from node {from} to node {to} would make a cycle")]
    Cycle {
        /// The edge's source.
        from: usize,
        /// The edge's destination.
        to: usize,
    },
    /// A node uses memory an earlier node uses, one of them writing, without depending on it:
    /// the two could run at the same time.
    #[error("node {node} uses memory node {earlier} uses (one writing) without depending on it")]
    UnorderedConflict {
        /// The earlier node.
        earlier: usize,
        /// The node being added.
        node: usize,
    },
    /// A capture recorded no work: there is nothing to launch.
    #[error("the capture recorded no work")]
    EmptyCapture,
    /// The stream is capturing already (captures do not nest on one stream).
    #[error("the stream is already capturing")]
    AlreadyCapturing,
    /// `launch_host_fn` takes a closure that runs once; a graph may run many times. Add a host
    /// node ([`crate::graph::Graph::host`]) instead.
    #[error("a run-once host callback cannot be captured into a graph (add a host node instead)")]
    HostFnInCapture,
    /// Kernel parameters were set on a node that is not a kernel node, or that runs another
    /// kernel.
    #[error("node {node} is not a node of this kernel")]
    NotThisKernel {
        /// The node's number.
        node: usize,
    },
    /// A child graph of another device.
    #[error("the child graph belongs to another device")]
    ChildOfOtherDevice,
    /// A node uses graph memory without depending on its alloc node (directly or not).
    #[error("node {node} uses the memory of alloc node {alloc} without depending on it")]
    UseBeforeAlloc {
        /// The node being added (or updated).
        node: usize,
        /// The alloc node.
        alloc: usize,
    },
    /// A free node does not depend on a node that uses the allocation it frees.
    #[error("free node {free} does not depend on node {node}, which uses the allocation")]
    FreeBeforeUse {
        /// The node using the allocation.
        node: usize,
        /// The free node being added.
        free: usize,
    },
    /// Graph memory of another graph.
    #[error("graph memory of another graph")]
    AllocOfAnotherGraph,
    /// A graph allocation has no free node: a run would leave it allocated, and the graph could
    /// not be launched again.
    #[error("the allocation of alloc node {alloc} is never freed in the graph")]
    AllocNotFreed {
        /// The alloc node.
        alloc: usize,
    },
    /// A graph with cooperative kernel nodes as a child graph: the copies would share the
    /// nodes' grid barriers.
    #[error("a graph with cooperative kernel nodes cannot be a child graph")]
    CooperativeInChild,
    /// A second exec of a graph with cooperative kernel nodes while one lives: two runs of a
    /// node at once would share its grid barrier.
    #[error("a graph with cooperative kernel nodes has one live exec at a time")]
    CooperativeExecAlive,
    /// A conditional handle of another graph (a body uses its outer graph's handles).
    #[error("the conditional handle belongs to another graph")]
    HandleOfAnotherGraph,
    /// Something a conditional node's body graph may not hold or do.
    #[error("a conditional body graph cannot hold {what}")]
    NotInConditionalBody {
        /// What was refused.
        what: &'static str,
    },
    /// A graph with conditional nodes, or a body graph, as a child graph.
    #[error("a graph with conditional nodes (or a conditional body) cannot be a child graph")]
    ConditionalInChild,
    /// Graphs with memory nodes cannot be child graphs (a driver rule).
    #[error("a graph with memory nodes cannot be a child graph")]
    MemoryNodesInChild,
    /// `MemPool::alloc` on a capturing stream: captured, the allocation would be graph memory
    /// the graph never frees. Allocate before the capture, or use `Graph::mem_alloc`.
    #[error("a memory pool allocation inside a stream capture")]
    PoolAllocInCapture,
    /// The executable graph refused the update; it is unchanged.
    #[error("the exec update was refused: {0}")]
    UpdateRefused(UpdateFailure),
}

/// Why an executable graph cannot take another graph's parameters (the driver's
/// `CUgraphExecUpdateResult`; the simulator decides the same cases itself).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UpdateFailure {
    /// The graphs have different nodes or edges.
    TopologyChanged,
    /// A node changed kind (a kernel became a copy...).
    NodeTypeChanged,
    /// A kernel node runs another function.
    FunctionChanged,
    /// Parameters changed in a way an update cannot apply (a copy's memory kind, a memset's
    /// element size...).
    ParametersChanged,
    /// The graph holds something updates do not support.
    NotSupported,
    /// A kernel node changed function in a way the driver cannot update.
    UnsupportedFunctionChange,
    /// A node's attributes changed.
    AttributesChanged,
    /// Any other refusal.
    Other,
}

impl std::fmt::Display for UpdateFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            UpdateFailure::TopologyChanged => "the topology changed",
            UpdateFailure::NodeTypeChanged => "a node changed type",
            UpdateFailure::FunctionChanged => "a kernel node changed function",
            UpdateFailure::ParametersChanged => "parameters changed in an unsupported way",
            UpdateFailure::NotSupported => "the graph holds nodes updates do not support",
            UpdateFailure::UnsupportedFunctionChange => "an unsupported function change",
            UpdateFailure::AttributesChanged => "node attributes changed",
            UpdateFailure::Other => "the driver refused it",
        })
    }
}
