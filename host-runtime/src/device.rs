//! Devices.
//!
//! A [`Device`] is a cheap, clonable handle. Opening the same CUDA ordinal twice yields the same
//! shared state (one primary context, one panic-slot table), so [`Device::recover`] on any handle
//! affects all of them. What runs the device's work is a backend behind `crate::backend`'s
//! traits: the CUDA driver or the CPU simulator; buffers hold a `u64` that is a `CUdeviceptr` on
//! CUDA and a simulator address on the simulator.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};

use kernel_std::api::DeviceType;

use crate::backend::{ContextLimit, DeviceOps};
use crate::cuda::{result, CudaDevice};
use crate::properties::DeviceProperties;
use crate::sim::SimDevice;
use crate::{DeviceBuffer, Error, Result, Stream};

pub use crate::backend::BackendKind;

/// A compute device. Clone freely: clones share one context.
///
/// [`Device::default`] picks CUDA device 0 and falls back to the CPU simulator on a machine
/// without a driver or GPU; [`Device::simulator`] always gives the simulator, [`Device::cuda`] a
/// GPU or an error. Work on either backend looks the same:
///
/// ```
/// use ferrocuda::host_runtime::BackendKind;
/// use ferrocuda::prelude::*;
///
/// #[kernel]
/// pub fn add(x: &[f32], y: &mut [f32]) {
///     let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
///     if i < y.len() {
///         y[i] += x[i];
///     }
/// }
///
/// fn main() -> Result<()> {
///     let dev = Device::default()?; // FERROCUDA_BACKEND=sim|cuda forces one
///     println!("{}", dev.describe());
///     let props = dev.properties();
///     assert!(props.max_threads_per_block >= 1024 && dev.sm() >= 70);
///
///     let stream = dev.new_stream()?;
///     let x = dev.upload(&[1.0f32, 2.0, 3.0])?;
///     let mut y = dev.alloc_zeroed::<f32>(3)?;
///     add::launch(&stream, LaunchConfig::for_elements(3, 128), &x, &mut y)?;
///     add::launch(&stream, LaunchConfig::for_elements(3, 128), &x, &mut y)?;
///     dev.synchronize()?; // waits for every stream of the device
///     assert_eq!(y.to_vec()?, [2.0, 4.0, 6.0]);
///
///     // A GPU is optional: without a driver `Device::cuda` is an error, not a panic.
///     match Device::cuda(0) {
///         Ok(gpu) => println!("GPU: {} (sm_{})", gpu.properties().name, gpu.sm()),
///         Err(e) => println!("no GPU: {e}"),
///     }
///     // Clones are handles to one device.
///     let sim = Device::simulator();
///     assert_eq!(sim.backend(), BackendKind::Sim);
///     assert_eq!(sim.clone(), sim);
///     Ok(())
/// }
/// ```
#[derive(Clone)]
pub struct Device {
    pub(crate) inner: Arc<DeviceInner>,
}

pub(crate) struct DeviceInner {
    /// Process-unique id: what kernel caches and launch checks compare.
    uid: u64,
    ops: Box<dyn DeviceOps>,
}

static NEXT_UID: AtomicU64 = AtomicU64::new(1);
static OPEN: Mutex<Vec<(usize, Weak<DeviceInner>)>> = Mutex::new(Vec::new());

impl Device {
    fn wrap(ops: Box<dyn DeviceOps>) -> Arc<DeviceInner> {
        Arc::new(DeviceInner {
            uid: NEXT_UID.fetch_add(1, Ordering::Relaxed),
            ops,
        })
    }

    /// Opens CUDA device `ordinal` (or returns the already open handle for it).
    pub fn new(ordinal: usize) -> Result<Device> {
        result::init()?;
        let mut open = OPEN.lock().unwrap_or_else(|e| e.into_inner());
        open.retain(|(_, w)| w.strong_count() > 0);
        if let Some(inner) = open
            .iter()
            .find(|(o, _)| *o == ordinal)
            .and_then(|(_, w)| w.upgrade())
        {
            return Ok(Device { inner });
        }
        if ordinal >= Device::count()? {
            return Err(Error::NoDevice {
                ordinal: Some(ordinal),
            });
        }
        let inner = Device::wrap(Box::new(CudaDevice::open(ordinal)?));
        open.push((ordinal, Arc::downgrade(&inner)));
        Ok(Device { inner })
    }

    /// Opens CUDA device `ordinal` (same as [`Device::new`]).
    pub fn cuda(ordinal: usize) -> Result<Device> {
        Device::new(ordinal)
    }

    /// A new simulated device: kernels run on the CPU (docs/simulator.md). It simulates the
    /// architecture `FERROCUDA_SIM_ARCH` names (`90`, `sm_90`...), sm_80 by default.
    pub fn simulator() -> Device {
        Device::simulated(kernel_sim::Target::from_env_or_default())
    }

    /// A new simulated device of compute capability `sm` (`major * 10 + minor`): its limits and
    /// instruction set are that architecture's (`kernel_sim::Target`).
    pub fn simulator_with_arch(sm: u32) -> Result<Device> {
        let target = kernel_sim::Target::parse(&sm.to_string()).map_err(Error::InvalidValue)?;
        Ok(Device::simulated(target))
    }

    fn simulated(target: kernel_sim::Target) -> Device {
        Device {
            inner: Device::wrap(Box::new(SimDevice::new(target))),
        }
    }

    /// The device to use when the program does not pick one.
    ///
    /// `FERROCUDA_BACKEND=cuda` forces CUDA device 0 (an error without a driver or GPU),
    /// `FERROCUDA_BACKEND=sim` the simulator; otherwise CUDA device 0 when a driver and a GPU exist
    /// and the simulator when they don't. Never panics.
    #[allow(clippy::should_implement_trait)]
    pub fn default() -> Result<Device> {
        match std::env::var("FERROCUDA_BACKEND").ok().as_deref() {
            Some("sim") => Ok(Device::simulator()),
            Some("cuda") => Device::new(0),
            // No choice made: the GPU when there is one, else the simulator, so programs and
            // examples run anywhere. Driver errors other than "none there" are still errors.
            Some("") | None => match Device::new(0) {
                Err(Error::NoDriver | Error::NoDevice { .. }) => Ok(Device::simulator()),
                other => other,
            },
            Some(_) => Err(Error::InvalidValue(
                "FERROCUDA_BACKEND must be `cuda` or `sim`".into(),
            )),
        }
    }

    /// The backend running this device's work: the one dispatch point.
    #[inline]
    pub(crate) fn ops(&self) -> &dyn DeviceOps {
        &*self.inner.ops
    }

    /// The CUDA backend, for the facilities only the driver has (`Err(Unsupported)` on the
    /// simulator).
    #[inline]
    pub(crate) fn cuda_backend(&self) -> Result<&CudaDevice> {
        self.ops()
            .as_any()
            .downcast_ref::<CudaDevice>()
            .ok_or(Error::Unsupported("this driver facility on the simulator"))
    }

    /// A new stream on this device with default options.
    pub fn new_stream(&self) -> Result<Stream> {
        Stream::new(self)
    }

    /// Copies `data` into a new device buffer.
    pub fn upload<T: DeviceType>(&self, data: &[T]) -> Result<DeviceBuffer<T>> {
        DeviceBuffer::upload(self, data)
    }

    /// A new device buffer of `len` zeroed elements.
    pub fn alloc_zeroed<T: DeviceType>(&self, len: usize) -> Result<DeviceBuffer<T>> {
        DeviceBuffer::zeroed(self, len)
    }

    /// One line naming the backend and the device, for logs and reports.
    pub fn describe(&self) -> String {
        self.ops().describe()
    }

    /// Number of CUDA devices (`Err(NoDriver)` without a driver).
    pub fn count() -> Result<usize> {
        result::device_count()
    }

    /// Which backend runs this device's work.
    pub fn backend(&self) -> BackendKind {
        self.ops().kind()
    }

    /// Ordinal of the device.
    pub fn ordinal(&self) -> usize {
        self.ops().ordinal()
    }

    /// The properties queried when the device was opened.
    pub fn properties(&self) -> &DeviceProperties {
        self.ops().properties()
    }

    /// Compute capability as `major * 10 + minor` (the compiler's `sm`).
    pub fn sm(&self) -> u32 {
        self.properties().sm()
    }

    /// The driver's version (`major * 1000 + minor * 10`; 0 on the simulator).
    pub fn driver_version(&self) -> i32 {
        self.ops().driver_version()
    }

    /// Waits for all work on the device, then reports the first kernel panic of any stream, if
    /// any.
    pub fn synchronize(&self) -> Result<()> {
        self.ops().synchronize()
    }

    /// Makes the device's context current on this thread (needed only after foreign code
    /// switched contexts; the runtime binds lazily on its own).
    pub fn bind_to_thread(&self) -> Result<()> {
        self.ops().bind_to_thread()
    }

    /// Free and total device memory in bytes.
    pub fn memory_info(&self) -> Result<(usize, usize)> {
        self.ops().memory_info()
    }

    /// Sets the size of the device heap that `device_malloc` draws from (CUDA's default is
    /// 8 MiB): `cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE)`. On a GPU it must be called before the
    /// first launch of a kernel that uses the heap; the driver rounds the size.
    pub fn set_malloc_heap_size(&self, bytes: usize) -> Result<()> {
        self.ops().set_limit(ContextLimit::MallocHeap, bytes)
    }

    /// Sets aside `bytes` of L2 for persisting accesses (`cudaDeviceSetLimit(
    /// cudaLimitPersistingL2CacheSize)`), what access policy windows with
    /// [`AccessProperty::Persisting`](crate::AccessProperty::Persisting) hits use. At most the
    /// device's `max_persisting_l2_cache_size`, checked before the driver (which may round it).
    /// The simulator records it.
    pub fn set_persisting_l2_cache_size(&self, bytes: usize) -> Result<()> {
        crate::access_policy::validate_set_aside(
            self.properties().max_persisting_l2_cache_size,
            bytes,
        )?;
        self.ops().set_limit(ContextLimit::PersistingL2, bytes)
    }

    /// The persisting-L2 set-aside in bytes (`cuCtxGetLimit(CU_LIMIT_PERSISTING_L2_CACHE_SIZE)`).
    pub fn persisting_l2_cache_size(&self) -> Result<usize> {
        self.ops().limit(ContextLimit::PersistingL2)
    }

    /// Returns every persisting L2 line to normal (`cudaCtxResetPersistingL2Cache`), as the
    /// guide does after the work that needed them.
    pub fn reset_persisting_l2_cache(&self) -> Result<()> {
        self.ops().reset_persisting_l2()
    }

    /// Stream priorities as `(least, greatest)`; numerically lower is higher priority.
    pub fn stream_priority_range(&self) -> Result<(i32, i32)> {
        self.ops().stream_priority_range()
    }

    /// Recovers from a sticky error (`CUDA_ERROR_ILLEGAL_ADDRESS`, `CUDA_ERROR_LAUNCH_FAILED`...)
    /// by resetting the primary context and creating a fresh one.
    ///
    /// Everything created in the old context is gone: buffers, streams, events, modules, pools
    /// and compiled kernels. Those objects stay safe to hold and drop, but using them returns
    /// [`Error::ContextLost`]; generated launchers recompile their kernels on the next launch.
    /// No other thread may use the device while this runs. A kernel *panic* does not need this:
    /// panicking threads exit cleanly and the context stays usable.
    ///
    /// Measured on an H200 with driver 580 (CUDA 13.0): after `CUDA_ERROR_ILLEGAL_ADDRESS` the
    /// driver refuses to create a new primary context in the same process
    /// (`cuDevicePrimaryCtxRetain` returns the sticky error again). Then this returns that `Err`
    /// and the only way back is a new process; that is why kernel panics exit instead of trapping.
    pub fn recover(&self) -> Result<()> {
        self.ops().recover()
    }

    /// Process-unique identity of the shared device state.
    pub(crate) fn uid(&self) -> u64 {
        self.inner.uid
    }

    /// `Err(ContextLost)` for an object created in generation `g` before a context reset.
    #[inline]
    pub(crate) fn check_generation(&self, g: u64) -> Result<()> {
        if g == self.generation() {
            Ok(())
        } else {
            Err(Error::ContextLost)
        }
    }

    /// The context generation objects created now belong to.
    pub(crate) fn generation(&self) -> u64 {
        self.ops().generation()
    }
}

impl PartialEq for Device {
    fn eq(&self, other: &Self) -> bool {
        self.inner.uid == other.inner.uid
    }
}

impl Eq for Device {}

impl std::fmt::Debug for Device {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut d = f.debug_struct("Device");
        match self.backend() {
            BackendKind::Cuda => d
                .field("backend", &"cuda")
                .field("ordinal", &self.ordinal())
                .field("name", &self.properties().name)
                .field("sm", &self.sm()),
            BackendKind::Sim => d.field("backend", &"sim"),
        };
        d.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuda_device_without_driver_is_an_error_not_a_panic() {
        if result::driver_present() {
            eprintln!("a CUDA driver is present; skipping the no-driver check");
            return;
        }
        assert!(matches!(Device::new(0), Err(Error::NoDriver)));
        assert!(matches!(Device::new(3), Err(Error::NoDriver)));
        assert!(matches!(Device::cuda(0), Err(Error::NoDriver)));
        assert!(matches!(Device::count(), Err(Error::NoDriver)));
    }
}
