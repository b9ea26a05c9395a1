//! Executable graphs: launch, upload, update.

use std::marker::PhantomData;

use super::uses::NodeUses;
use super::{Graph, GraphError, Keep, NodeKind};
use crate::backend::ExecOps;
use crate::{Device, Error, Result, Stream};

/// An instantiated [`Graph`] (`cudaGraphExec_t`): launched as one unit of work on a stream. It
/// borrows what its graph's nodes use for `'a`, like the graph (which may be dropped first).
pub struct GraphExec<'a> {
    pub(crate) device: Device,
    pub(crate) ops: Box<dyn ExecOps>,
    /// The graph it was made from: its node handles are this exec's.
    pub(crate) graph: u64,
    pub(crate) kinds: Vec<NodeKind>,
    pub(crate) uses: NodeUses,
    pub(crate) keep: Keep,
    pub(crate) _borrow: PhantomData<&'a ()>,
}

impl std::fmt::Debug for GraphExec<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GraphExec")
            .field("graph", &self.graph)
            .field("nodes", &self.kinds.len())
            .finish()
    }
}

impl<'a> GraphExec<'a> {
    pub(crate) fn new(g: &Graph<'a>, ops: Box<dyn ExecOps>) -> Self {
        GraphExec {
            device: g.device.clone(),
            ops,
            graph: g.id,
            kinds: g.kinds.clone(),
            uses: g.uses.clone(),
            keep: g.keep.clone(),
            _borrow: PhantomData,
        }
    }

    /// Queues the whole graph on `stream` (after its earlier work, and after the uses of other
    /// streams that conflict with the graph's; later work that conflicts waits for it).
    /// A kernel panic inside is reported by `stream`'s next synchronize, like a launch's.
    pub fn launch(&self, stream: &Stream) -> Result<()> {
        self.check_stream(stream)?;
        self.uses.track_on(stream)?;
        stream.note_graph_homes(&self.keep.homes);
        self.ops.launch(stream.ops())
    }

    /// Uploads the exec's work to the device ahead of its first launch (in `stream`'s order), so
    /// that launch does not pay for it.
    pub fn upload(&self, stream: &Stream) -> Result<()> {
        self.check_stream(stream)?;
        self.ops.upload(stream.ops())
    }

    /// Takes every node's parameters from `graph`, which must have the same nodes and edges (an
    /// edited copy of the original, or one captured by the same code with other arguments). A
    /// refusal is [`GraphError::UpdateRefused`] with the driver's reason; the exec is unchanged.
    /// The exec then uses `graph`'s memory (borrowed for the same `'a`).
    pub fn update(&mut self, graph: &Graph<'a>) -> Result<()> {
        if graph.device != self.device {
            return Err(Error::WrongDevice);
        }
        if let Some(why) = self.ops.update(&*graph.ops)? {
            return Err(GraphError::UpdateRefused(why).into());
        }
        self.uses = graph.uses.clone();
        for h in &graph.keep.homes {
            if !self.keep.homes.iter().any(|o| o.id() == h.id()) {
                self.keep.homes.push(h.clone());
            }
        }
        self.keep.objects.extend(graph.keep.objects.iter().cloned());
        Ok(())
    }

    fn check_stream(&self, stream: &Stream) -> Result<()> {
        if *stream.device() != self.device {
            return Err(Error::WrongDevice);
        }
        Ok(())
    }
}
