//! Devices and their backends.
//!
//! A [`Device`] is a cheap, clonable handle. Opening the same CUDA ordinal twice yields the same
//! shared state (one primary context, one panic-slot table), so [`Device::recover`] on any handle
//! affects all of them. The backend-specific part sits behind an internal `Backend` enum with a
//! CUDA arm and a simulator arm ([`crate::sim_backend`]); buffers hold a `u64` that is a
//! `CUdeviceptr` on CUDA and a simulator address on the simulator.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};

use cudarc::driver::sys::CUdevice;

use crate::context::Context;
use crate::driver::{self, cu};
use crate::launch::Limits;
use crate::panic::PanicSlots;
use crate::properties::DeviceProperties;
use crate::sim_backend::SimDevice;
use crate::{DeviceBuffer, Error, Result, Stream};
use kernel_std::api::DeviceType;

/// Which implementation runs a device's work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BackendKind {
    /// A real GPU through the CUDA driver.
    Cuda,
    /// The CPU simulator.
    Sim,
}

/// A compute device. Clone freely: clones share one context.
#[derive(Clone)]
pub struct Device {
    pub(crate) inner: Arc<DeviceInner>,
}

pub(crate) struct DeviceInner {
    /// Process-unique id: what kernel caches and launch checks compare.
    pub(crate) uid: u64,
    pub(crate) backend: Backend,
}

/// The backend-specific state of a device.
pub(crate) enum Backend {
    Cuda(CudaDevice),
    Sim(SimDevice),
}

pub(crate) struct CudaDevice {
    pub(crate) ordinal: usize,
    pub(crate) cu: CUdevice,
    pub(crate) ctx: Context,
    pub(crate) props: DeviceProperties,
    pub(crate) limits: Limits,
    pub(crate) panics: PanicSlots,
    pub(crate) driver_version: i32,
}

impl CudaDevice {
    /// Binds the context and fails with `ContextLost` for objects from before a reset.
    #[inline]
    pub(crate) fn enter(&self, generation: u64) -> Result<()> {
        self.ctx.check(generation)?;
        self.ctx.bind()
    }

    /// Waits for all work of the context, then reports kernel panics.
    pub(crate) fn synchronize(&self) -> Result<()> {
        self.ctx.bind()?;
        unsafe { cu!(cuCtxSynchronize())? };
        self.panics.check()
    }
}

impl Drop for CudaDevice {
    fn drop(&mut self) {
        if self.ctx.bind().is_ok() {
            self.panics.free_pages();
        }
    }
}

static NEXT_UID: AtomicU64 = AtomicU64::new(1);
static OPEN: Mutex<Vec<(usize, Weak<DeviceInner>)>> = Mutex::new(Vec::new());

impl Device {
    /// Opens CUDA device `ordinal` (or returns the already open handle for it).
    pub fn new(ordinal: usize) -> Result<Device> {
        driver::init()?;
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
        let mut cu_dev: CUdevice = 0;
        unsafe { cu!(cuDeviceGet(&mut cu_dev, ordinal as i32))? };
        let props = DeviceProperties::query(cu_dev)?;
        let ctx = Context::retain(cu_dev)?;
        let driver_version = driver::driver_version()?;
        let limits = Limits::from_properties(&props);
        let inner = Arc::new(DeviceInner {
            uid: NEXT_UID.fetch_add(1, Ordering::Relaxed),
            backend: Backend::Cuda(CudaDevice {
                ordinal,
                cu: cu_dev,
                ctx,
                props,
                limits,
                panics: PanicSlots::default(),
                driver_version,
            }),
        });
        open.push((ordinal, Arc::downgrade(&inner)));
        Ok(Device { inner })
    }

    /// Opens CUDA device `ordinal` (same as [`Device::new`]).
    pub fn cuda(ordinal: usize) -> Result<Device> {
        Device::new(ordinal)
    }

    /// A new simulated device: kernels run on the CPU (see [`crate::sim_backend`]). It simulates
    /// the architecture `FERROCUDA_SIM_ARCH` names (`90`, `sm_90`...), sm_80 by default.
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
            inner: Arc::new(DeviceInner {
                uid: NEXT_UID.fetch_add(1, Ordering::Relaxed),
                backend: Backend::Sim(SimDevice::new(target)),
            }),
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
        match &self.inner.backend {
            Backend::Cuda(c) => format!(
                "cuda, {} (device {}, sm_{}, {} SMs, {:.1} GiB, driver {}.{})",
                c.props.name,
                c.ordinal,
                c.props.sm(),
                c.props.multiprocessor_count,
                c.props.total_memory as f64 / (1u64 << 30) as f64,
                c.driver_version / 1000,
                c.driver_version % 1000 / 10
            ),
            Backend::Sim(_) => "simulator".to_string(),
        }
    }

    /// Number of CUDA devices (`Err(NoDriver)` without a driver).
    pub fn count() -> Result<usize> {
        driver::init()?;
        let mut n = 0;
        unsafe { cu!(cuDeviceGetCount(&mut n))? };
        Ok(n.max(0) as usize)
    }

    /// Which backend runs this device's work.
    pub fn backend(&self) -> BackendKind {
        match &self.inner.backend {
            Backend::Cuda(_) => BackendKind::Cuda,
            Backend::Sim(_) => BackendKind::Sim,
        }
    }

    /// Ordinal of the device.
    pub fn ordinal(&self) -> usize {
        match &self.inner.backend {
            Backend::Cuda(c) => c.ordinal,
            Backend::Sim(_) => 0,
        }
    }

    /// The properties queried when the device was opened.
    pub fn properties(&self) -> &DeviceProperties {
        match &self.inner.backend {
            Backend::Cuda(c) => &c.props,
            Backend::Sim(s) => &s.props,
        }
    }

    /// Compute capability as `major * 10 + minor` (the compiler's `sm`).
    pub fn sm(&self) -> u32 {
        self.properties().sm()
    }

    /// The driver's version (`major * 1000 + minor * 10`).
    pub fn driver_version(&self) -> i32 {
        match &self.inner.backend {
            Backend::Cuda(c) => c.driver_version,
            Backend::Sim(_) => 0,
        }
    }

    /// Waits for all work on the device, then reports the first kernel panic, if any.
    pub fn synchronize(&self) -> Result<()> {
        match &self.inner.backend {
            Backend::Cuda(c) => c.synchronize(),
            Backend::Sim(s) => s.synchronize(),
        }
    }

    /// Makes the device's context current on this thread (needed only after foreign code
    /// switched contexts; the runtime binds lazily on its own).
    pub fn bind_to_thread(&self) -> Result<()> {
        match &self.inner.backend {
            Backend::Cuda(c) => {
                Context::unbind_cache();
                c.ctx.bind()
            }
            Backend::Sim(_) => Ok(()),
        }
    }

    /// Free and total device memory in bytes.
    pub fn memory_info(&self) -> Result<(usize, usize)> {
        match &self.inner.backend {
            Backend::Cuda(c) => {
                c.ctx.bind()?;
                let (mut free, mut total) = (0usize, 0usize);
                unsafe { cu!(cuMemGetInfo_v2(&mut free, &mut total))? };
                Ok((free, total))
            }
            Backend::Sim(_) => Err(Error::Unsupported("memory_info on the simulator")),
        }
    }

    /// Sets the size of the device heap that `device_malloc` draws from (CUDA's default is
    /// 8 MiB): `cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE)`. On a GPU it must be called before the
    /// first launch of a kernel that uses the heap; the driver rounds the size.
    pub fn set_malloc_heap_size(&self, bytes: usize) -> Result<()> {
        match &self.inner.backend {
            Backend::Cuda(c) => {
                c.ctx.bind()?;
                let limit = cudarc::driver::sys::CUlimit::CU_LIMIT_MALLOC_HEAP_SIZE;
                unsafe { cu!(cuCtxSetLimit(limit, bytes))? };
                Ok(())
            }
            Backend::Sim(s) => {
                s.set_heap_limit(bytes as u64);
                Ok(())
            }
        }
    }

    /// Stream priorities as `(least, greatest)`; numerically lower is higher priority.
    pub fn stream_priority_range(&self) -> Result<(i32, i32)> {
        match &self.inner.backend {
            Backend::Cuda(c) => {
                c.ctx.bind()?;
                let (mut least, mut greatest) = (0, 0);
                unsafe { cu!(cuCtxGetStreamPriorityRange(&mut least, &mut greatest))? };
                Ok((least, greatest))
            }
            Backend::Sim(_) => Ok((0, 0)),
        }
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
        match &self.inner.backend {
            Backend::Cuda(c) => {
                c.panics.forget();
                c.ctx.reset()
            }
            Backend::Sim(s) => {
                s.clear();
                Ok(())
            }
        }
    }

    /// Process-unique identity of the shared device state.
    pub(crate) fn uid(&self) -> u64 {
        self.inner.uid
    }

    /// The CUDA arm (the only one until the simulator is wired in).
    #[inline]
    pub(crate) fn cuda_arm(&self) -> Result<&CudaDevice> {
        match &self.inner.backend {
            Backend::Cuda(c) => Ok(c),
            Backend::Sim(_) => Err(Error::Unsupported("this driver facility on the simulator")),
        }
    }

    /// `Err(ContextLost)` for an object created in generation `g` before a context reset.
    #[inline]
    pub(crate) fn check_generation(&self, g: u64) -> Result<()> {
        match &self.inner.backend {
            Backend::Cuda(c) => c.ctx.check(g),
            Backend::Sim(_) => Ok(()),
        }
    }

    /// The context generation objects created now belong to.
    pub(crate) fn generation(&self) -> u64 {
        match &self.inner.backend {
            Backend::Cuda(c) => c.ctx.generation(),
            Backend::Sim(_) => 0,
        }
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
        match &self.inner.backend {
            Backend::Cuda(c) => f
                .debug_struct("Device")
                .field("backend", &"cuda")
                .field("ordinal", &c.ordinal)
                .field("name", &c.props.name)
                .field("sm", &c.props.sm())
                .finish(),
            Backend::Sim(_) => f.debug_struct("Device").field("backend", &"sim").finish(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuda_device_without_driver_is_an_error_not_a_panic() {
        if driver::driver_present() {
            eprintln!("a CUDA driver is present; skipping the no-driver check");
            return;
        }
        assert!(matches!(Device::new(0), Err(Error::NoDriver)));
        assert!(matches!(Device::new(3), Err(Error::NoDriver)));
        assert!(matches!(Device::cuda(0), Err(Error::NoDriver)));
        assert!(matches!(Device::count(), Err(Error::NoDriver)));
    }
}
