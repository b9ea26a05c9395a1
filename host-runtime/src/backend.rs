//! The one dispatch point between the safe types and the backends.
//!
//! A [`crate::Device`] owns a `Box<dyn DeviceOps>`: the CUDA backend (`cuda/`, the driver through
//! cudarc's raw bindings) or the simulator (`sim/`). Streams, events and loaded kernels hold the
//! backend's own objects behind [`StreamOps`], [`EventOps`] and [`LoadedKernel`]. The safe types
//! (`Device`, `Stream`, `Event`, the buffers) are written once against these traits and never ask
//! which backend they run on; what both backends share (launch validation, the use tracking that
//! orders copies, launches and frees) stays above them. Facilities only the driver has (modules
//! of PTX or cubin, memory pools, mapped memory, occupancy) reach the CUDA backend through
//! `Device::cuda`, which is `Err(Unsupported)` on the simulator.
//!
//! A new backend implements these traits and is opened by a constructor of `Device`.
//!
//! Addresses are `u64`: a `CUdeviceptr` on CUDA, an address of the simulator's memory there.
//! Synchronous operations take `after`, the streams whose queued uses of the memory they must
//! follow (see `uses`); stream-ordered ones run on a stream.

use std::any::Any;
use std::ffi::c_void;
use std::sync::Arc;

use cudarc::driver::sys::{CUevent, CUstream};
use kernel_compiler::Compiled;

use crate::access_policy::AccessPolicyWindow;
use crate::callback::{HostCall, HostNode};
use crate::graph::UpdateFailure;
use crate::launch_config::LaunchConfig;
use crate::options::{Advice, CaptureMode, EventFlags, Location, PinnedFlags, StreamOptions};
use crate::properties::DeviceProperties;
use crate::Result;

/// Which implementation runs a device's work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BackendKind {
    /// A real GPU through the CUDA driver.
    Cuda,
    /// The CPU simulator.
    Sim,
}

/// The context limits a program may set (`cuCtxSetLimit`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ContextLimit {
    /// The device heap `device_malloc` draws from.
    MallocHeap,
    /// Device `printf`'s buffer.
    PrintfFifo,
    /// L2 set aside for persisting accesses (`CU_LIMIT_PERSISTING_L2_CACHE_SIZE`).
    PersistingL2,
}

/// A stream-ordered copy.
#[derive(Clone, Copy, Debug)]
pub(crate) enum AsyncCopy {
    HostToDevice {
        dst: u64,
        src: *const c_void,
        bytes: usize,
    },
    DeviceToHost {
        dst: *mut c_void,
        src: u64,
        bytes: usize,
    },
    DeviceToDevice {
        dst: u64,
        src: u64,
        bytes: usize,
    },
}

/// One side of a 2-D copy: host memory or a device address, with its row pitch in bytes.
#[derive(Clone, Copy, Debug)]
pub(crate) enum End2d {
    Host(*const c_void),
    HostMut(*mut c_void),
    Device(u64),
}

/// A 2-D copy of `height` rows of `row_bytes` bytes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Copy2d {
    pub src: End2d,
    pub src_pitch: usize,
    pub dst: End2d,
    pub dst_pitch: usize,
    pub row_bytes: usize,
    pub height: usize,
}

/// Page-locked host memory: the host pointer, its device address when mapped, and how to free it.
pub(crate) struct PinnedAlloc {
    pub host: *mut u8,
    pub device: Option<u64>,
}

/// A device: its facts, its context, and the memory and queue operations the safe types need.
pub(crate) trait DeviceOps: Send + Sync + 'static {
    fn kind(&self) -> BackendKind;
    /// For `Device::cuda` (the driver-only facilities).
    fn as_any(&self) -> &dyn Any;
    /// One line naming the backend and the device.
    fn describe(&self) -> String;
    fn ordinal(&self) -> usize;
    fn properties(&self) -> &DeviceProperties;
    fn driver_version(&self) -> i32;

    /// The context generation objects created now belong to (bumped by `recover`).
    fn generation(&self) -> u64;
    /// `Err(ContextLost)` for an object of an older generation; makes the context current.
    fn enter(&self, generation: u64) -> Result<()>;
    /// Waits for all work, then reports a kernel panic (or simulator error) of any stream, once.
    fn synchronize(&self) -> Result<()>;
    /// Makes the context current on this thread even if the thread's cache says it is.
    fn bind_to_thread(&self) -> Result<()>;
    /// Resets the context after a sticky error.
    fn recover(&self) -> Result<()>;
    fn memory_info(&self) -> Result<(usize, usize)>;
    fn set_limit(&self, limit: ContextLimit, bytes: usize) -> Result<()>;
    fn limit(&self, limit: ContextLimit) -> Result<usize>;
    fn stream_priority_range(&self) -> Result<(i32, i32)>;
    /// `cuCtxResetPersistingL2Cache`: every persisting L2 line back to normal.
    fn reset_persisting_l2(&self) -> Result<()>;
    /// The 128 bytes a kernel's tensor map parameter receives for the validated description `m`
    /// (`cuTensorMapEncodeTiled` / `cuTensorMapEncodeIm2col` on CUDA; the simulator's own
    /// encoding of `m` on the simulator).
    fn encode_tensor_map(&self, m: &kernel_ir::tensor_map::SimTensorMap) -> Result<[u8; 128]>;

    /// A new stream; `id` is its process-unique id.
    fn new_stream(&self, opts: StreamOptions, id: u64) -> Result<Box<dyn StreamOps>>;
    fn new_event(&self, flags: EventFlags) -> Result<Box<dyn EventOps>>;

    /// Allocates `bytes` (0: address 0) for a buffer the caller initializes next with
    /// [`DeviceOps::write`] or [`DeviceOps::fill`] (or [`DeviceOps::finish_init`] when it stays
    /// uninitialized). Returns the address and whether it came from a memory pool (then its free
    /// is stream-ordered).
    fn alloc(&self, bytes: usize) -> Result<(u64, bool)>;
    /// Waits until allocations made by [`DeviceOps::alloc`] are usable on every stream.
    fn finish_init(&self) -> Result<()>;
    /// Frees `addr` (of context generation `generation`) after the work queued on `after`,
    /// without waiting for it where the memory is pooled. Errors are not actionable at a drop.
    fn free(&self, addr: u64, generation: u64, pooled: bool, after: &[&dyn StreamOps]);
    /// Host to device, after `after`'s queued work; returns when the copy is done.
    ///
    /// # Safety
    /// `src` must point at `bytes` readable bytes; `dst` at `bytes` bytes of device memory.
    unsafe fn write(
        &self,
        generation: u64,
        dst: u64,
        src: *const c_void,
        bytes: usize,
        after: &[&dyn StreamOps],
    ) -> Result<()>;
    /// Waits for the whole device (reporting kernel panics of any stream), then copies device
    /// to host.
    ///
    /// # Safety
    /// `dst` must point at `bytes` writable bytes; `src` at `bytes` bytes of device memory.
    unsafe fn read(&self, generation: u64, src: u64, dst: *mut c_void, bytes: usize) -> Result<()>;
    /// Device to device, after `after`'s queued work; returns when the copy is done.
    fn copy(
        &self,
        generation: u64,
        dst: u64,
        src: u64,
        bytes: usize,
        after: &[&dyn StreamOps],
    ) -> Result<()>;
    /// Fills `count` elements of `elem` bytes (1, 2 or 4) with the low bytes of `pattern`, after
    /// `after`'s queued work; returns when done.
    fn fill(
        &self,
        generation: u64,
        dst: u64,
        elem: usize,
        pattern: u32,
        count: usize,
        after: &[&dyn StreamOps],
    ) -> Result<()>;
    /// A 2-D copy, after `after`'s queued work; returns when done.
    ///
    /// # Safety
    /// Every host end must be valid for the rows described.
    unsafe fn copy_2d(
        &self,
        generation: u64,
        copy: &Copy2d,
        after: &[&dyn StreamOps],
    ) -> Result<()>;
    /// A zeroed allocation of `bytes` ordered on `stream` (the device's default pool).
    fn alloc_on_stream(&self, stream: &dyn StreamOps, bytes: usize) -> Result<u64>;
    /// Zeroes `bytes` at `addr` in stream order.
    fn zero_on_stream(&self, stream: &dyn StreamOps, addr: u64, bytes: usize) -> Result<()>;
    /// A copy ordered on `stream` (run at once where work completes when queued).
    ///
    /// # Safety
    /// The host memory must stay valid (and unread or unwritten) until the copy completes.
    unsafe fn copy_on_stream(&self, stream: &dyn StreamOps, copy: AsyncCopy) -> Result<()>;

    /// Managed memory of `bytes`, zeroed: its address and where the host reads it.
    fn alloc_managed(&self, bytes: usize) -> Result<(u64, *mut u8)>;
    fn prefetch(&self, addr: u64, bytes: usize, to: Location, stream: &dyn StreamOps)
        -> Result<()>;
    fn advise(&self, addr: u64, bytes: usize, advice: Advice) -> Result<()>;
    /// Pitched memory of `height` rows of `row_bytes` for elements of `elem_size` bytes, zeroed:
    /// its address and pitch.
    fn alloc_pitched(
        &self,
        row_bytes: usize,
        height: usize,
        elem_size: usize,
    ) -> Result<(u64, usize)>;
    /// Page-locked host memory of `bytes` (aligned to at least `align`), zeroed.
    fn alloc_pinned(&self, bytes: usize, align: usize, flags: PinnedFlags) -> Result<PinnedAlloc>;
    /// # Safety
    /// `p` must come from [`DeviceOps::alloc_pinned`] with the same size and alignment, in
    /// `generation`.
    unsafe fn free_pinned(&self, p: *mut u8, bytes: usize, align: usize, generation: u64);
    /// Page-locks existing host memory; its device address when mapped.
    ///
    /// # Safety
    /// `p` must point at `bytes` bytes that stay allocated until [`DeviceOps::unregister_host`].
    unsafe fn register_host(
        &self,
        p: *mut u8,
        bytes: usize,
        flags: PinnedFlags,
    ) -> Result<Option<u64>>;
    /// # Safety
    /// `p` must have been registered in `generation`.
    unsafe fn unregister_host(&self, p: *mut u8, generation: u64);

    /// The architecture kernels are compiled for, and whether the compiled IR keeps source
    /// markers (a backend that runs the IR reports positions from them).
    fn compile_target(&self) -> (u32, bool);
    /// Makes a compiled kernel launchable on this device.
    fn load(&self, compiled: &Arc<Compiled>) -> Result<Arc<dyn LoadedKernel>>;

    /// An empty graph.
    fn new_graph(&self) -> Result<Box<dyn GraphOps>>;
}

/// One node's work, as the safe layer hands it to a backend's graph (already validated).
pub(crate) enum NodeOp<'n> {
    Empty,
    /// `args`: one pointer per kernel parameter (read during the call); `slot`: the panic slot
    /// address the kernel gets (0: none).
    Kernel {
        kernel: &'n Arc<dyn LoadedKernel>,
        cfg: &'n LaunchConfig,
        args: &'n mut [*mut c_void],
        slot: u64,
    },
    Copy(AsyncCopy),
    Fill {
        dst: u64,
        elem: usize,
        pattern: u32,
        count: usize,
    },
    /// The node outlives every exec of its graph (the safe layer keeps it).
    Host(Arc<HostNode>),
    EventRecord(&'n dyn EventOps),
    EventWait(&'n dyn EventOps),
    /// Copied into the graph (later changes to the child do not reach it).
    Child(&'n dyn GraphOps),
}

/// A backend's graph. Nodes are numbered in the order they were added; dependencies name earlier
/// numbers (the safe layer checks them).
pub(crate) trait GraphOps: Send + Sync {
    fn as_any(&self) -> &dyn Any;
    /// Adds a node after `deps`; returns its number.
    ///
    /// # Safety
    /// Every address and host pointer in `op` must stay valid while the graph or an exec of it
    /// may run the node.
    unsafe fn add(&mut self, op: NodeOp<'_>, deps: &[usize]) -> Result<usize>;
    /// Adds the edges `from[i] -> to[i]` (no cycle: checked above).
    fn add_edges(&mut self, from: &[usize], to: &[usize]) -> Result<()>;
    fn node_count(&self) -> usize;
    /// Graphviz text of the graph.
    fn to_dot(&self) -> Result<String>;
    fn instantiate(&self) -> Result<Box<dyn ExecOps>>;
}

/// A backend's executable graph.
pub(crate) trait ExecOps: Send + Sync {
    fn launch(&self, stream: &dyn StreamOps) -> Result<()>;
    fn upload(&self, stream: &dyn StreamOps) -> Result<()>;
    /// Takes every node's parameters from `graph` (of the same shape), or says why not; on
    /// refusal the exec is unchanged.
    fn update(&mut self, graph: &dyn GraphOps) -> Result<Option<UpdateFailure>>;
    /// New arguments and configuration for kernel node `node` (of the same kernel).
    ///
    /// # Safety
    /// As for [`NodeOp::Kernel`] and [`GraphOps::add`].
    unsafe fn set_kernel_params(
        &mut self,
        node: usize,
        cfg: &LaunchConfig,
        args: &mut [*mut c_void],
        slot: u64,
    ) -> Result<()>;
}

/// A backend's stream.
pub(crate) trait StreamOps: Send + Sync {
    /// The driver handle (null where there is none).
    fn raw(&self) -> CUstream;
    /// The process-unique id the safe `Stream` gave it.
    fn id(&self) -> u64;
    fn generation(&self) -> u64;
    /// Waits for the stream's work (reports driver errors, not kernel panics).
    fn synchronize(&self) -> Result<()>;
    fn query(&self) -> Result<bool>;
    /// Reports a panic (or simulator error) of a kernel this stream ran, once. Call after its work
    /// completed.
    fn check_panics(&self) -> Result<()>;
    fn wait_event(&self, event: &dyn EventOps) -> Result<()>;
    fn launch_host_fn(&self, call: Box<HostCall>) -> Result<()>;
    /// Makes the driver queue `waiter` wait for all work queued on this stream so far.
    fn order_before(&self, waiter: CUstream) -> Result<()>;
    /// The address kernels get as their trailing panic-slot argument (0: none): the stream's own,
    /// or while it captures, the one [`StreamOps::set_slot_override`] set.
    fn panic_slot(&self) -> u64;
    /// While nonzero, kernels launched on the stream get `slot` instead of its own (a capture
    /// gives its kernels the graph's slot).
    fn set_slot_override(&self, slot: u64);
    /// The address of the stream's grid-barrier words, which a kernel calling `grid_sync()`
    /// gets after the panic slot; `None` while the stream captures a graph (every replay would
    /// share them). 0 where the backend needs none (the simulator schedules grid barriers).
    fn grid_words(&self) -> Option<u64>;
    /// Sets (or with `None` clears, a window of 0 bytes) the stream's L2 access policy window
    /// (`cuStreamSetAttribute`); already validated.
    fn set_access_policy(&self, window: Option<&AccessPolicyWindow>) -> Result<()>;
    /// Starts capturing the stream's work into a graph.
    fn begin_capture(&self, mode: CaptureMode) -> Result<()>;
    /// Ends the capture (always, whatever happened inside) and returns the graph.
    fn end_capture(&self) -> Result<Box<dyn GraphOps>>;
}

/// A backend's event.
pub(crate) trait EventOps: Send + Sync {
    fn raw(&self) -> CUevent;
    fn record(&self, stream: &dyn StreamOps) -> Result<()>;
    fn query(&self) -> Result<bool>;
    /// Waits for the recorded work (reports driver errors, not kernel panics).
    fn synchronize(&self) -> Result<()>;
    /// Milliseconds from this (start) event to `end`, both recorded and completed.
    fn elapsed_ms(&self, end: &dyn EventOps) -> Result<f32>;
    fn as_any(&self) -> &dyn Any;
}

/// A compiled kernel made launchable by a backend.
pub(crate) trait LoadedKernel: Send + Sync + 'static {
    /// Validates `cfg` against the device's and the kernel's limits, then launches.
    ///
    /// # Safety
    /// `args` must hold one pointer per kernel parameter, each to a value of its exact layout;
    /// every device address among them must stay valid until the kernel completes.
    unsafe fn launch(
        &self,
        stream: &dyn StreamOps,
        cfg: &LaunchConfig,
        args: &mut [*mut c_void],
    ) -> Result<()>;
    /// For the driver-only view of a loaded kernel (`kernel_function`).
    fn into_any(self: Arc<Self>) -> Arc<dyn Any + Send + Sync>;
    /// Checks `cfg` against the device's and the kernel's limits (what `launch` checks first).
    fn validate(&self, cfg: &LaunchConfig) -> Result<()>;
}
