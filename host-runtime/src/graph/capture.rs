//! Stream capture: the work a closure queues on a stream becomes a [`Graph`] instead of running.

use std::sync::atomic::Ordering;

use super::{Graph, GraphError, NodeKind};
use crate::options::CaptureMode;
use crate::uses::RecordedUse;
use crate::{Result, Stream};

impl Stream {
    /// Captures the work `f` queues on this stream (and on streams that join it through events
    /// recorded on it) into a graph, instead of running it. The capture ends when `f` returns,
    /// fails or panics (a panic goes on unwinding after the capture ended; an error of `f` is
    /// returned). The graph borrows what `f` borrows: a buffer the closure writes stays
    /// exclusively borrowed while the graph (or an exec of it) lives.
    ///
    /// `mode` says which other calls the capture forbids meanwhile ([`CaptureMode`]). A run-once
    /// host callback ([`Stream::launch_host_fn`]) is refused inside a capture; a capture that
    /// queued nothing is [`GraphError::EmptyCapture`].
    ///
    /// ```
    /// use ferrocuda::prelude::*;
    /// use ferrocuda::host_runtime::graph::CaptureMode;
    ///
    /// #[kernel]
    /// pub fn double(y: &mut [f32]) {
    ///     let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    ///     if i < y.len() {
    ///         y[i] *= 2.0;
    ///     }
    /// }
    ///
    /// fn main() -> Result<()> {
    ///     let dev = Device::default()?;
    ///     let s = dev.new_stream()?;
    ///     let mut y = dev.upload(&[1.0f32; 64])?;
    ///     let cfg = LaunchConfig::for_elements(64, 64);
    ///     let g = s.capture(CaptureMode::Global, |s| {
    ///         double::launch(s, cfg, &mut y)?;
    ///         double::launch(s, cfg, &mut y)
    ///     })?;
    ///     let exec = g.instantiate()?;
    ///     exec.launch(&s)?;
    ///     s.synchronize()?;
    ///     drop((exec, g));
    ///     assert!(y.to_vec()?.iter().all(|&v| v == 4.0)); // captured work ran once, at launch
    ///     Ok(())
    /// }
    /// ```
    pub fn capture<'a, F>(&self, mode: CaptureMode, f: F) -> Result<Graph<'a>>
    where
        F: FnOnce(&Stream) -> Result<()> + 'a,
    {
        if self.inner.capturing.swap(true, Ordering::AcqRel) {
            return Err(GraphError::AlreadyCapturing.into());
        }
        // The graph exists first: its own stream's panic slot is what captured kernels get.
        let home = match Graph::wrap(
            self.device(),
            self.device().ops().new_graph()?,
            vec![],
            vec![],
        ) {
            Ok(g) => g,
            Err(e) => {
                self.inner.capturing.store(false, Ordering::Release);
                return Err(e);
            }
        };
        let guard = Guard { stream: self };
        self.start_recording();
        self.ops().set_slot_override(home.home.ops().panic_slot());
        if let Err(e) = self.ops().begin_capture(mode) {
            drop(guard);
            return Err(e);
        }
        let r = f(self);
        let (captured, uses) = guard.finish();
        r?;
        let captured = captured?;
        let nodes = captured.node_count();
        if nodes == 0 {
            return Err(GraphError::EmptyCapture.into());
        }
        let mut g = home;
        g.ops = captured;
        // Captured nodes are not addressable (no handle to them is given out): only counted.
        g.kinds = vec![NodeKind::Captured; nodes];
        g.deps = vec![Vec::new(); nodes];
        g.uses.set(None, uses);
        Ok(g)
    }
}

/// Ends the capture and the recording whatever way the closure leaves.
struct Guard<'s> {
    stream: &'s Stream,
}

impl Guard<'_> {
    fn finish(self) -> (Result<Box<dyn crate::backend::GraphOps>>, Vec<RecordedUse>) {
        let s = self.stream;
        std::mem::forget(self);
        let g = s.ops().end_capture();
        let uses = end(s);
        (g, uses)
    }
}

fn end(s: &Stream) -> Vec<RecordedUse> {
    s.ops().set_slot_override(0);
    let uses = s.stop_recording();
    s.inner.capturing.store(false, Ordering::Release);
    uses
}

impl Drop for Guard<'_> {
    fn drop(&mut self) {
        // Unwinding out of the closure (or a failed begin): end whatever was started.
        let _ = self.stream.ops().end_capture();
        end(self.stream);
    }
}
