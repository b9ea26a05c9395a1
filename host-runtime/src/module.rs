//! Loaded modules and their functions, plus the PTX JIT and linker with their log buffers.
//!
//! [`Module::from_ptx`] and [`Module::from_cubin`] are the raw escape hatch (benchmarks, hand
//! written PTX); generated launchers reach the same code through the kernel cache. A JIT failure
//! becomes [`Error::Jit`] with the driver's log and the PTX line the log points at.

use std::ffi::{c_void, CString};
use std::sync::atomic::AtomicU32;
use std::sync::Arc;

use cudarc::driver::sys::{
    self, CUfunction, CUfunction_attribute as FA, CUjit_option as J, CUmodule,
};

use crate::driver::{cu, driver_error};
use crate::launch::{launch_cuda, FuncLimits};
use crate::panic::SlotOwner;
use crate::{Device, Error, LaunchConfig, Result, Stream};

const LOG_BYTES: usize = 16 * 1024;

/// A loaded module (one PTX or cubin image) on one device.
#[derive(Clone)]
pub struct Module {
    pub(crate) inner: Arc<ModuleInner>,
}

pub(crate) struct ModuleInner {
    pub(crate) device: Device,
    pub(crate) raw: CUmodule,
    pub(crate) generation: u64,
    slot: Option<u32>,
    name: String,
}

// SAFETY: a CUmodule handle may be used from any thread once its context is current.
unsafe impl Send for ModuleInner {}
unsafe impl Sync for ModuleInner {}

impl Drop for ModuleInner {
    fn drop(&mut self) {
        let Ok(cuda) = self.device.cuda_arm() else {
            return;
        };
        if cuda.enter(self.generation).is_err() {
            return; // the context was reset: the module is already gone
        }
        unsafe {
            let _ = sys::cuModuleUnload(self.raw);
        }
        if let Some(id) = self.slot {
            cuda.panics.release(id);
        }
    }
}

impl Module {
    /// Loads a kernel compiled by `kernel_compiler::compile` the way launches do: through the on-disk
    /// cubin cache (`FERROCUDA_CACHE_DIR`, `off` to disable), with its panic sites for reports.
    pub fn from_compiled(device: &Device, compiled: &kernel_compiler::Compiled) -> Result<Module> {
        let cuda = device.cuda_arm()?;
        crate::kernel_cache::load_compiled(device, cuda, compiled)
    }

    /// JIT-compiles PTX text for the device and loads it.
    pub fn from_ptx(device: &Device, ptx: &str) -> Result<Module> {
        let raw = jit_load(device, ptx)?;
        Module::adopt(device, raw, "ptx module".into(), None)
    }

    /// Loads a cubin (or fatbin) image built for the device's architecture.
    pub fn from_cubin(device: &Device, image: &[u8]) -> Result<Module> {
        let raw = load_cubin_raw(device, image)?;
        Module::adopt(device, raw, "cubin module".into(), None)
    }

    /// Wraps a freshly loaded handle: attaches a panic slot when the module has one.
    pub(crate) fn adopt(
        device: &Device,
        raw: CUmodule,
        name: String,
        sites: Option<Arc<[kernel_ir::ir::PanicSite]>>,
    ) -> Result<Module> {
        let cuda = device.cuda_arm()?;
        let owner = SlotOwner {
            kernel: name.clone(),
            sites,
        };
        let slot = match cuda.panics.attach(raw, owner) {
            Ok(s) => s,
            Err(e) => {
                unsafe {
                    let _ = sys::cuModuleUnload(raw);
                }
                return Err(e);
            }
        };
        Ok(Module {
            inner: Arc::new(ModuleInner {
                device: device.clone(),
                raw,
                generation: cuda.ctx.generation(),
                slot,
                name,
            }),
        })
    }

    /// Looks up a kernel entry point by its PTX name.
    pub fn function(&self, name: &str) -> Result<Function> {
        let cuda = self.inner.device.cuda_arm()?;
        cuda.enter(self.inner.generation)?;
        let cname = CString::new(name)
            .map_err(|_| Error::InvalidValue(format!("function name {name:?} contains NUL")))?;
        let mut raw: CUfunction = std::ptr::null_mut();
        unsafe {
            cu!(cuModuleGetFunction(
                &mut raw,
                self.inner.raw,
                cname.as_ptr()
            ))?
        };
        let get = |a: FA| -> Result<i32> {
            let mut v = 0;
            unsafe { cu!(cuFuncGetAttribute(&mut v, a, raw))? };
            Ok(v)
        };
        let attributes = FunctionAttributes {
            max_threads_per_block: get(FA::CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK)? as u32,
            static_shared_bytes: get(FA::CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES)? as u32,
            local_bytes: get(FA::CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES)? as u32,
            num_regs: get(FA::CU_FUNC_ATTRIBUTE_NUM_REGS)? as u32,
            ptx_version: get(FA::CU_FUNC_ATTRIBUTE_PTX_VERSION)? as u32,
            binary_version: get(FA::CU_FUNC_ATTRIBUTE_BINARY_VERSION)? as u32,
        };
        let dyn_limit = get(FA::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES)? as u32;
        Ok(Function {
            inner: Arc::new(FunctionInner {
                module: self.inner.clone(),
                raw,
                name: name.to_string(),
                limits: FuncLimits {
                    max_threads_per_block: attributes.max_threads_per_block,
                    static_shared: attributes.static_shared_bytes,
                    required_block: None,
                },
                attributes,
                dyn_shared_limit: AtomicU32::new(dyn_limit),
                generation: self.inner.generation,
            }),
        })
    }

    /// The device the module is loaded on.
    pub fn device(&self) -> &Device {
        &self.inner.device
    }

    /// Whether the module reports kernel panics (it defines `__fc_panic_slot`).
    pub fn reports_panics(&self) -> bool {
        self.inner.slot.is_some()
    }

    /// The name panics are reported under.
    pub fn name(&self) -> &str {
        &self.inner.name
    }
}

/// Compile-time facts about a loaded function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FunctionAttributes {
    /// Most threads per block this function can launch with (registers, launch bounds).
    pub max_threads_per_block: u32,
    /// Statically declared shared memory.
    pub static_shared_bytes: u32,
    /// Local (spill and stack) memory per thread.
    pub local_bytes: u32,
    /// Registers per thread.
    pub num_regs: u32,
    /// PTX ISA version the function was compiled from (`major * 10 + minor`).
    pub ptx_version: u32,
    /// Architecture of the binary (`major * 10 + minor`).
    pub binary_version: u32,
}

/// A kernel entry point of a loaded module.
#[derive(Clone)]
pub struct Function {
    pub(crate) inner: Arc<FunctionInner>,
}

pub(crate) struct FunctionInner {
    pub(crate) module: Arc<ModuleInner>,
    pub(crate) raw: CUfunction,
    pub(crate) name: String,
    pub(crate) limits: FuncLimits,
    pub(crate) attributes: FunctionAttributes,
    /// The dynamic shared memory the function is currently opted in to.
    pub(crate) dyn_shared_limit: AtomicU32,
    pub(crate) generation: u64,
}

// SAFETY: as for modules; the mutable state is atomic.
unsafe impl Send for FunctionInner {}
unsafe impl Sync for FunctionInner {}

impl Function {
    /// The function as compiled for one block shape: launches with another are rejected before
    /// the driver (which would only say `CUDA_ERROR_INVALID_VALUE`).
    pub(crate) fn with_required_block(mut self, block: Option<[u32; 3]>) -> Function {
        if block.is_some() {
            let mut inner = match Arc::try_unwrap(self.inner) {
                Ok(inner) => inner,
                Err(shared) => {
                    self.inner = shared;
                    return self;
                }
            };
            inner.limits.required_block = block;
            self.inner = Arc::new(inner);
        }
        self
    }

    /// Launches with raw argument pointers, after the same validation generated launchers get.
    ///
    /// # Safety
    /// `args` must hold one pointer per kernel parameter, each to a value of the parameter's exact
    /// size and layout; device pointers passed must stay valid until the kernel finishes.
    pub unsafe fn launch_raw(
        &self,
        stream: &Stream,
        cfg: LaunchConfig,
        args: &mut [*mut c_void],
    ) -> Result<()> {
        if stream.device().uid() != self.inner.module.device.uid() {
            return Err(Error::WrongDevice);
        }
        let cuda = stream.device().cuda_arm()?;
        unsafe { launch_cuda(cuda, stream, &self.inner, &cfg, args) }
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
        &self.inner.module.device
    }
}

/// Loads a binary image into the device's context.
pub(crate) fn load_cubin_raw(device: &Device, image: &[u8]) -> Result<CUmodule> {
    let cuda = device.cuda_arm()?;
    cuda.ctx.bind()?;
    if image.is_empty() {
        return Err(Error::InvalidValue("empty module image".into()));
    }
    // The driver finds the image's extent from its header; an owned copy guarantees alignment.
    let owned: Vec<u64> = image
        .chunks(8)
        .map(|c| {
            let mut b = [0u8; 8];
            b[..c.len()].copy_from_slice(c);
            u64::from_ne_bytes(b)
        })
        .collect();
    let mut raw: CUmodule = std::ptr::null_mut();
    unsafe { cu!(cuModuleLoadData(&mut raw, owned.as_ptr() as *const c_void))? };
    Ok(raw)
}

/// JIT-loads PTX with info and error logs attached.
pub(crate) fn jit_load(device: &Device, ptx: &str) -> Result<CUmodule> {
    let cuda = device.cuda_arm()?;
    cuda.ctx.bind()?;
    let image =
        CString::new(ptx).map_err(|_| Error::InvalidValue("PTX contains a NUL byte".into()))?;
    let mut logs = JitLogs::new();
    let (mut opts, mut vals) = logs.options();
    let mut raw: CUmodule = std::ptr::null_mut();
    let r = unsafe {
        sys::cuModuleLoadDataEx(
            &mut raw,
            image.as_ptr() as *const c_void,
            opts.len() as u32,
            opts.as_mut_ptr(),
            vals.as_mut_ptr(),
        )
    };
    match r {
        sys::CUresult::CUDA_SUCCESS => Ok(raw),
        sys::CUresult::CUDA_ERROR_INVALID_PTX
        | sys::CUresult::CUDA_ERROR_INVALID_IMAGE
        | sys::CUresult::CUDA_ERROR_INVALID_SOURCE
        | sys::CUresult::CUDA_ERROR_UNSUPPORTED_PTX_VERSION
        | sys::CUresult::CUDA_ERROR_NO_BINARY_FOR_GPU => Err(logs.error(ptx, r)),
        e => Err(driver_error("cuModuleLoadDataEx", e)),
    }
}

/// Compiles PTX to a cubin for the current context's device with the driver's linker.
pub(crate) fn link_ptx(device: &Device, ptx: &str) -> Result<Vec<u8>> {
    let cuda = device.cuda_arm()?;
    cuda.ctx.bind()?;
    let image =
        CString::new(ptx).map_err(|_| Error::InvalidValue("PTX contains a NUL byte".into()))?;
    let mut logs = JitLogs::new();
    let (mut opts, mut vals) = logs.options();
    let mut state: sys::CUlinkState = std::ptr::null_mut();
    unsafe {
        cu!(cuLinkCreate_v2(
            opts.len() as u32,
            opts.as_mut_ptr(),
            vals.as_mut_ptr(),
            &mut state
        ))?
    };
    let name = c"kernel.ptx";
    let result = (|| {
        let r = unsafe {
            sys::cuLinkAddData_v2(
                state,
                sys::CUjitInputType::CU_JIT_INPUT_PTX,
                image.as_ptr() as *mut c_void,
                image.as_bytes_with_nul().len(),
                name.as_ptr(),
                0,
                std::ptr::null_mut(),
                std::ptr::null_mut(),
            )
        };
        if r != sys::CUresult::CUDA_SUCCESS {
            return Err(jit_or_driver("cuLinkAddData_v2", r, &logs, ptx));
        }
        let mut cubin: *mut c_void = std::ptr::null_mut();
        let mut size = 0usize;
        let r = unsafe { sys::cuLinkComplete(state, &mut cubin, &mut size) };
        if r != sys::CUresult::CUDA_SUCCESS {
            return Err(jit_or_driver("cuLinkComplete", r, &logs, ptx));
        }
        // SAFETY: the linker owns `size` bytes at `cubin` until `cuLinkDestroy`.
        Ok(unsafe { std::slice::from_raw_parts(cubin as *const u8, size) }.to_vec())
    })();
    unsafe {
        let _ = sys::cuLinkDestroy(state);
    }
    result
}

fn jit_or_driver(call: &'static str, r: sys::CUresult, logs: &JitLogs, ptx: &str) -> Error {
    match r {
        sys::CUresult::CUDA_ERROR_INVALID_PTX
        | sys::CUresult::CUDA_ERROR_INVALID_IMAGE
        | sys::CUresult::CUDA_ERROR_UNSUPPORTED_PTX_VERSION
        | sys::CUresult::CUDA_ERROR_NO_BINARY_FOR_GPU => logs.error(ptx, r),
        e => driver_error(call, e),
    }
}

/// The info and error log buffers handed to the JIT.
struct JitLogs {
    info: Vec<u8>,
    error: Vec<u8>,
}

impl JitLogs {
    fn new() -> Self {
        JitLogs {
            info: vec![0; LOG_BYTES],
            error: vec![0; LOG_BYTES],
        }
    }

    /// Option arrays pointing at the buffers (valid while `self` lives and is not moved).
    fn options(&mut self) -> (Vec<J>, Vec<*mut c_void>) {
        let opts = vec![
            J::CU_JIT_INFO_LOG_BUFFER,
            J::CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
            J::CU_JIT_ERROR_LOG_BUFFER,
            J::CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
            J::CU_JIT_LOG_VERBOSE,
        ];
        let vals = vec![
            self.info.as_mut_ptr() as *mut c_void,
            std::ptr::without_provenance_mut(LOG_BYTES),
            self.error.as_mut_ptr() as *mut c_void,
            std::ptr::without_provenance_mut(LOG_BYTES),
            std::ptr::without_provenance_mut(1),
        ];
        (opts, vals)
    }

    fn error(&self, ptx: &str, code: sys::CUresult) -> Error {
        let text = |b: &[u8]| {
            let end = b.iter().position(|&c| c == 0).unwrap_or(b.len());
            String::from_utf8_lossy(&b[..end]).trim().to_string()
        };
        let (err, info) = (text(&self.error), text(&self.info));
        let mut log = err.clone();
        if !info.is_empty() {
            if !log.is_empty() {
                log.push('\n');
            }
            log.push_str(&info);
        }
        if log.is_empty() {
            log = format!(
                "{} ({}); the JIT wrote no log",
                crate::driver::error_name(code),
                crate::driver::error_meaning(code)
            );
        }
        let ptx_line = offending_line(&log, ptx);
        Error::Jit { log, ptx_line }
    }
}

/// Finds the first `line N` an error message of the log names and returns it with its PTX text.
pub(crate) fn offending_line(log: &str, ptx: &str) -> Option<(u32, String)> {
    let pick = |l: &str| -> Option<u32> {
        let at = l.find("line ")?;
        let digits: String = l[at + 5..]
            .chars()
            .take_while(|c| c.is_ascii_digit())
            .collect();
        digits.parse().ok()
    };
    let n = log
        .lines()
        .filter(|l| l.contains("error"))
        .find_map(pick)
        .or_else(|| log.lines().find_map(pick))?;
    let text = ptx.lines().nth(n.checked_sub(1)? as usize)?;
    Some((n, text.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    const PTX: &str = ".version 7.0\n.target sm_70\n.address_size 64\n.visible .entry k()\n{\n  bogus.op %r1;\n  ret;\n}\n";

    #[test]
    fn finds_the_line_the_jit_complains_about() {
        let log = "ptxas application ptx input, line 6; error   : Not a name of any known instruction: 'bogus'\nptxas fatal   : Ptx assembly aborted due to errors";
        assert_eq!(
            offending_line(log, PTX),
            Some((6, "  bogus.op %r1;".to_string()))
        );
    }

    #[test]
    fn prefers_error_lines_over_warnings() {
        let log = "ptxas application ptx input, line 2; warning : something\nptxas application ptx input, line 7; error   : bad";
        assert_eq!(offending_line(log, PTX).map(|l| l.0), Some(7));
    }

    #[test]
    fn no_line_or_out_of_range_gives_none() {
        assert_eq!(
            offending_line("ptxas fatal : Unresolved extern function 'f'", PTX),
            None
        );
        assert_eq!(offending_line("ptx input, line 99; error : x", PTX), None);
        assert_eq!(offending_line("ptx input, line 0; error : x", PTX), None);
    }

    #[test]
    fn jit_error_message_names_the_line() {
        let e = Error::Jit {
            log: "ptxas application ptx input, line 6; error : bad".into(),
            ptx_line: Some((6, "  bogus.op %r1;".into())),
        };
        let s = e.to_string();
        assert!(s.contains("at PTX line 6: `bogus.op %r1;`"), "{s}");
    }
}
