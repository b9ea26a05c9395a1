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
