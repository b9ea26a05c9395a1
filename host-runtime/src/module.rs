//! Loaded modules and their functions: a driver facility (`Err(Unsupported)` on the simulator,
//! which runs `#[kernel]`s from their IR).
//!
//! [`Module::from_ptx`] and [`Module::from_cubin`] are the raw escape hatch (benchmarks, hand
//! written PTX); generated launchers reach the same code through the kernel cache. A JIT failure
//! becomes [`Error::Jit`] with the driver's log and the PTX line the log points
//! at.

use std::ffi::c_void;
use std::sync::Arc;

use cudarc::driver::sys::CUfunction;

use crate::backend::LoadedKernel;
use crate::cuda::{CudaFunction, CudaModule};
use crate::{Device, Error, LaunchConfig, Result, Stream};

pub use crate::properties::FunctionAttributes;

/// A loaded module (one PTX or cubin image) on one device.
#[derive(Clone)]
pub struct Module {
    device: Device,
    inner: Arc<CudaModule>,
}

impl Module {
    /// Loads a kernel compiled by `kernel_compiler::compile` the way launches do: through the
    /// on-disk cubin cache (`FERROCUDA_CACHE_DIR`, `off` to disable), with its panic sites for
    /// reports.
    pub fn from_compiled(device: &Device, compiled: &kernel_compiler::Compiled) -> Result<Module> {
        let core = device.cuda_backend()?.core();
        Ok(Module {
            device: device.clone(),
            inner: crate::cuda::load_compiled(core, compiled)?,
        })
    }

    /// JIT-compiles PTX text for the device and loads it.
    pub fn from_ptx(device: &Device, ptx: &str) -> Result<Module> {
        let core = device.cuda_backend()?.core();
        Ok(Module {
            device: device.clone(),
            inner: CudaModule::from_ptx(core, ptx)?,
        })
    }

    /// Loads a cubin (or fatbin) image built for the device's architecture.
    pub fn from_cubin(device: &Device, image: &[u8]) -> Result<Module> {
        let core = device.cuda_backend()?.core();
        Ok(Module {
            device: device.clone(),
            inner: CudaModule::from_cubin(core, image)?,
        })
    }

    /// Looks up a kernel entry point by its PTX name.
    pub fn function(&self, name: &str) -> Result<Function> {
        Ok(Function {
            device: self.device.clone(),
            inner: self.inner.function(name)?,
        })
    }

    /// The device the module is loaded on.
    pub fn device(&self) -> &Device {
        &self.device
    }

    /// Whether the module reports kernel panics (it defines `__fc_panic_module`, and its entries
    /// take the stream's panic slot after their own parameters; see
    /// `kernel_ir::panic_record`).
    pub fn reports_panics(&self) -> bool {
        self.inner.panic_id.is_some()
    }

    /// The name panics are reported under.
    pub fn name(&self) -> &str {
        &self.inner.name
    }
}

/// A kernel entry point of a loaded module.
#[derive(Clone)]
pub struct Function {
    device: Device,
    pub(crate) inner: Arc<CudaFunction>,
}

impl Function {
    /// The public face of a loaded CUDA function of `device`.
    pub(crate) fn new(device: &Device, inner: Arc<CudaFunction>) -> Function {
        Function {
            device: device.clone(),
            inner,
        }
    }

    /// Launches with raw argument pointers, after the same validation generated launchers get.
    /// For a module that reports panics, the runtime appends the stream's panic slot: pass only
    /// the kernel's own parameters.
    ///
    /// # Safety
    /// `args` must hold one pointer per kernel parameter, each to a value of the parameter's exact
    /// size and layout; device pointers passed must stay valid until the kernel finishes. The
    /// runtime does not see which buffers a raw launch uses, so it cannot order their copies and
    /// frees after it: synchronize `stream` (or wait for an event recorded on it) before copying
    /// into, or dropping, memory the kernel uses, and before using that memory on another stream.
    pub unsafe fn launch_raw(
        &self,
        stream: &Stream,
        cfg: LaunchConfig,
        args: &mut [*mut c_void],
    ) -> Result<()> {
        if *stream.device() != self.device {
            return Err(Error::WrongDevice);
        }
        // SAFETY: the caller's contract.
        unsafe { self.inner.launch(stream.ops(), &cfg, args) }
    }

    /// The function's compile-time facts.
    pub fn attributes(&self) -> FunctionAttributes {
        self.inner.attributes
    }

    /// The entry point's PTX name.
    pub fn name(&self) -> &str {
        &self.inner.name
    }

    /// The raw driver handle, for interop with code calling the driver directly.
    pub fn raw(&self) -> CUfunction {
        self.inner.raw
    }

    /// The device the function is loaded on.
    pub fn device(&self) -> &Device {
        &self.device
    }
}
