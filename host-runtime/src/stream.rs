//! Streams: ordered queues of device work, with host callbacks and timing.
//!
//! A panic in a host callback is caught (see `callback`) and returned by the stream's next
//! [`Stream::synchronize`] as [`Error::CallbackPanic`].

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use cudarc::driver::sys::CUstream;

use crate::access_policy::AccessPolicyWindow;
use crate::backend::StreamOps;
use crate::callback::HostCall;
use crate::event::{Event, EventFlags};
use crate::uses::RecordedUse;
use crate::{Device, Error, Result};

pub use crate::options::StreamOptions;

/// An ordered queue of device work (`cudaStream_t`).
///
/// Launches and stream-ordered copies on one stream run in order; work on different streams may
/// overlap. Buffers remember which streams use them, so a launch or copy that touches memory
/// another stream is writing waits for it by itself; [`Stream::wait_event`] orders anything else.
/// A kernel panic is reported by the next synchronize of the stream that ran the kernel (or by the
/// device's, or a copy to the host), once. Clones share the stream.
///
/// ```
/// use std::sync::atomic::{AtomicBool, Ordering};
/// use std::sync::Arc;
/// use ferrocuda::host_runtime::StreamOptions;
/// use ferrocuda::prelude::*;
///
/// #[kernel]
/// pub fn scale(a: f32, y: &mut [f32]) {
///     let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
///     if i < y.len() {
///         y[i] *= a;
///     }
/// }
///
/// #[kernel]
/// pub fn checked_div(d: u32, y: &mut [u32]) {
///     y[0] /= d;
/// }
///
/// fn main() -> Result<()> {
///     let dev = Device::default()?;
///     let (least, greatest) = dev.stream_priority_range()?;
///     assert!(greatest <= least); // lower numbers are more urgent
///     let fast = Stream::with_options(&dev, StreamOptions { non_blocking: true, priority: greatest })?;
///     let s = dev.new_stream()?;
///
///     // `time` brackets the work with two events and returns the GPU time in milliseconds.
///     let mut y = dev.upload(&vec![1.0f32; 1 << 12])?;
///     let ((), ms) = s.time(|s| scale::launch(s, LaunchConfig::for_elements(1 << 12, 256), 3.0, &mut y))?;
///     assert!(ms >= 0.0);
///
///     // A host callback runs once the earlier work is done.
///     let done = Arc::new(AtomicBool::new(false));
///     let flag = done.clone();
///     s.launch_host_fn(move || flag.store(true, Ordering::SeqCst))?;
///     s.synchronize()?;
///     assert!(done.load(Ordering::SeqCst) && s.query()?);
///
///     // The second launch writes `y` too: it waits for the first, though on another stream.
///     scale::launch(&fast, LaunchConfig::for_elements(1 << 12, 256), 0.5, &mut y)?;
///     assert!(y.to_vec()?.iter().all(|&v| v == 1.5));
///
///     // A kernel panic belongs to its stream: `s` reports it, once; `fast` never sees it.
///     let mut z = dev.upload(&[7u32])?;
///     checked_div::launch(&s, LaunchConfig::for_elements(1, 1), 0, &mut z)?;
///     fast.synchronize()?;
///     match s.synchronize() {
///         Err(Error::KernelPanic(p)) => assert_eq!(p.message, "attempt to divide by zero"),
///         other => panic!("expected a kernel panic, got {other:?}"),
///     }
///     s.synchronize()?;
///     Ok(())
/// }
/// ```
#[derive(Clone)]
pub struct Stream {
    pub(crate) inner: Arc<StreamInner>,
}

pub(crate) struct StreamInner {
    device: Device,
    /// The backend's stream.
    ops: Box<dyn StreamOps>,
    /// Messages of callbacks that panicked, reported at the next synchronize.
    pub(crate) panics: Arc<Mutex<Vec<String>>>,
    /// Set while uses are recorded instead of tracked: always for a graph's own stream, and for
    /// a stream while it captures (see `graph::uses`).
    recording: AtomicBool,
    recorded: Mutex<Vec<RecordedUse>>,
    /// While set, recorded writes are recorded as reads (a graph handle lent for reading).
    reads_only: AtomicBool,
    /// Set while the stream captures.
    pub(crate) capturing: AtomicBool,
    /// The own streams of graphs launched here since the last synchronize: their kernels report
    /// panics (and their host nodes callback panics) there, so this stream's synchronize asks.
    graph_homes: Mutex<Vec<Stream>>,
    /// The L2 access policy window set on the stream, as the program last set it.
    access_policy: Mutex<Option<AccessPolicyWindow>>,
}

static NEXT_STREAM_ID: AtomicU64 = AtomicU64::new(1);

impl std::fmt::Debug for Stream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Stream")
            .field("device", &self.inner.device)
            .field("id", &self.id())
            .field("raw", &self.raw())
            .finish()
    }
}

impl Stream {
    /// Creates a stream with default options.
    pub fn new(device: &Device) -> Result<Stream> {
        Stream::with_options(device, StreamOptions::default())
    }

    /// Creates a stream with the given flags and priority.
    pub fn with_options(device: &Device, opts: StreamOptions) -> Result<Stream> {
        let id = NEXT_STREAM_ID.fetch_add(1, Ordering::Relaxed);
        let ops = device.ops().new_stream(opts, id)?;
        Ok(Stream {
            inner: Arc::new(StreamInner {
                device: device.clone(),
                ops,
                panics: Arc::default(),
                recording: AtomicBool::new(false),
                recorded: Mutex::new(Vec::new()),
                reads_only: AtomicBool::new(false),
                capturing: AtomicBool::new(false),
                graph_homes: Mutex::new(Vec::new()),
                access_policy: Mutex::new(None),
            }),
        })
    }

    /// Sets the stream's L2 access policy window (`cudaStreamSetAttribute(..,
    /// cudaStreamAttributeAccessPolicyWindow, ..)`): kernels launched here afterwards get it
    /// unless their launch sets its own. Checked before the driver (`hit_ratio` in `[0, 1]`, at
    /// most the device's largest window, sm_80+). A hint only: it changes no result. The
    /// simulator checks and records it.
    ///
    /// ```
    /// use ferrocuda::prelude::*;
    ///
    /// fn main() -> Result<()> {
    ///     let dev = Device::simulator_with_arch(90)?;
    ///     let s = dev.new_stream()?;
    ///     let lut = dev.alloc_zeroed::<u32>(1 << 20)?;
    ///     dev.set_persisting_l2_cache_size(4 << 20)?;
    ///     let w = AccessPolicyWindow::persisting(&lut, 0.6).unwrap();
    ///     s.set_access_policy_window(w)?;
    ///     assert_eq!(s.access_policy_window(), Some(w));
    ///     let bad = AccessPolicyWindow { hit_ratio: 1.5, ..w };
    ///     assert!(s.set_access_policy_window(bad).is_err());
    ///     s.clear_access_policy_window()?;
    ///     dev.reset_persisting_l2_cache()?;
    ///     Ok(())
    /// }
    /// ```
    pub fn set_access_policy_window(&self, window: AccessPolicyWindow) -> Result<()> {
        window.validate(self.device().properties())?;
        self.ops().set_access_policy(Some(&window))?;
        *lock(&self.inner.access_policy) = Some(window);
        Ok(())
    }

    /// Removes the stream's access policy window (an empty window to the driver).
    pub fn clear_access_policy_window(&self) -> Result<()> {
        self.ops().set_access_policy(None)?;
        *lock(&self.inner.access_policy) = None;
        Ok(())
    }

    /// The window [`Stream::set_access_policy_window`] last set, if any.
    pub fn access_policy_window(&self) -> Option<AccessPolicyWindow> {
        *lock(&self.inner.access_policy)
    }

    /// The device the stream belongs to.
    #[inline]
    pub fn device(&self) -> &Device {
        &self.inner.device
    }

    /// The backend's stream.
    #[inline]
    pub(crate) fn ops(&self) -> &dyn StreamOps {
        &*self.inner.ops
    }

    /// The raw driver handle, for interop with code calling the driver directly (null on the
    /// simulator).
    #[inline]
    pub fn raw(&self) -> CUstream {
        self.ops().raw()
    }

    /// Process-unique id of the stream.
    #[inline]
    pub(crate) fn id(&self) -> u64 {
        self.ops().id()
    }

    /// Makes the driver queue `waiter` wait for all work enqueued on this stream so far.
    pub(crate) fn order_before(&self, waiter: CUstream) -> Result<()> {
        self.ops().order_before(waiter)
    }

    /// Reports a kernel panic of this stream's kernels, or of a graph's it launched (once). Call
    /// after its work completed.
    pub(crate) fn check_panics(&self) -> Result<()> {
        self.ops().check_panics()?;
        let homes = lock(&self.inner.graph_homes).clone();
        for h in &homes {
            h.check_panics()?;
            h.take_callback_panic()?;
        }
        Ok(())
    }

    /// Whether uses are recorded rather than tracked (see `graph::uses`).
    #[inline]
    pub(crate) fn recording(&self) -> bool {
        self.inner.recording.load(Ordering::Relaxed)
    }

    /// Starts (or restarts, forgetting what was recorded) recording uses.
    pub(crate) fn start_recording(&self) {
        lock(&self.inner.recorded).clear();
        self.inner.recording.store(true, Ordering::Relaxed);
    }

    /// Stops recording; what was recorded.
    pub(crate) fn stop_recording(&self) -> Vec<RecordedUse> {
        self.inner.recording.store(false, Ordering::Relaxed);
        std::mem::take(&mut *lock(&self.inner.recorded))
    }

    /// What was recorded so far (recording goes on).
    pub(crate) fn take_recorded(&self) -> Vec<RecordedUse> {
        std::mem::take(&mut *lock(&self.inner.recorded))
    }

    /// Files a use while recording.
    pub(crate) fn record_use(&self, mut e: RecordedUse) {
        e.write &= !self.inner.reads_only.load(Ordering::Relaxed);
        e.merge_into(&mut lock(&self.inner.recorded));
    }

    /// Makes recorded writes reads (or stops doing so).
    pub(crate) fn record_as_reads(&self, on: bool) {
        self.inner.reads_only.store(on, Ordering::Relaxed);
    }

    /// Notes graphs' own streams whose kernels run in this stream's order now.
    pub(crate) fn note_graph_homes(&self, homes: &[Stream]) {
        let mut list = lock(&self.inner.graph_homes);
        for h in homes {
            if !list.iter().any(|o| o.id() == h.id()) {
                list.push(h.clone());
            }
        }
    }

    /// Waits for the stream's work, then reports a driver error, a panic of a kernel this stream
    /// ran (graph launches included), or a panicked host callback of this stream (or of a host
    /// node of a graph it launched), in that order. Panics of kernels on other streams are left
    /// for their own stream's (or the device's) synchronize.
    pub fn synchronize(&self) -> Result<()> {
        self.ops().synchronize()?;
        let r = self
            .check_panics()
            .and_then(|()| self.take_callback_panic());
        if r.is_ok() {
            // Every graph launched here so far has completed and reported.
            lock(&self.inner.graph_homes).clear();
        }
        r
    }

    /// `Ok(true)` when all work has completed, `Ok(false)` while some is pending.
    pub fn query(&self) -> Result<bool> {
        self.ops().query()
    }

    /// Makes later work on this stream wait until `event` (as last recorded) has completed.
    pub fn wait_event(&self, event: &Event) -> Result<()> {
        event.check_device(self.device())?;
        self.ops().wait_event(event.ops())
    }

    /// Runs `f` on a driver thread once all earlier work on the stream completes; later work waits
    /// for it. A panic in `f` is caught and reported by the next [`Stream::synchronize`].
    /// Callbacks must not call into CUDA (a driver rule).
    pub fn launch_host_fn<F: FnOnce() + Send + 'static>(&self, f: F) -> Result<()> {
        if self.inner.capturing.load(Ordering::Relaxed) {
            return Err(crate::graph::GraphError::HostFnInCapture.into());
        }
        self.ops().launch_host_fn(Box::new(HostCall {
            f: Box::new(f),
            panics: self.inner.panics.clone(),
        }))
    }

    /// Times the work `f` enqueues: records an event before and after, waits for the second and
    /// returns `f`'s result with the elapsed GPU time in milliseconds.
    pub fn time<R>(&self, f: impl FnOnce(&Stream) -> Result<R>) -> Result<(R, f32)> {
        let start = Event::new(self.device(), EventFlags::default())?;
        let end = Event::new(self.device(), EventFlags::default())?;
        start.record(self)?;
        let r = f(self)?;
        end.record(self)?;
        end.synchronize()?;
        let ms = start.elapsed_ms(&end)?;
        self.take_callback_panic()?;
        Ok((r, ms))
    }

    pub(crate) fn take_callback_panic(&self) -> Result<()> {
        let mut p = self.inner.panics.lock().unwrap_or_else(|e| e.into_inner());
        if p.is_empty() {
            Ok(())
        } else {
            Err(Error::CallbackPanic {
                message: p.remove(0),
            })
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}
