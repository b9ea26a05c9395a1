//! The memory a graph's nodes use, recorded when a node is added (or captured) and replayed into
//! the use tracking (`crate::uses`) at every launch of an exec, so copies, launches and frees
//! outside the graph are ordered after the graph's work exactly as after a launch's.
//!
//! Recording goes through the launch path itself: a kernel node's arguments are checked and
//! packed by the same `launch_arg` calls a launch makes, on a stream in *recording* mode (the
//! graph's own stream, or a capturing stream), where `track` files it on the stream as a
//! [`RecordedUse`] instead of ordering it; the graph then keeps each node's recorded uses here.

use crate::uses::RecordedUse;
use crate::{Result, Stream};

/// The uses of each node (`node` = `None` for everything a capture recorded).
#[derive(Clone, Default)]
pub(crate) struct NodeUses {
    pub(crate) per_node: Vec<(Option<usize>, Vec<RecordedUse>)>,
}

impl NodeUses {
    /// Replaces node `node`'s uses.
    pub(crate) fn set(&mut self, node: Option<usize>, entries: Vec<RecordedUse>) {
        self.per_node.retain(|(n, _)| *n != node || node.is_none());
        if !entries.is_empty() {
            self.per_node.push((node, entries));
        }
    }

    /// Records every use on `stream` (ordering it after the conflicting uses of other streams).
    pub(crate) fn track_on(&self, stream: &Stream) -> Result<()> {
        for (_, list) in &self.per_node {
            for e in list {
                crate::memory_ops::track(&e.uses, stream, e.span.clone(), e.write)?;
            }
        }
        Ok(())
    }
}
