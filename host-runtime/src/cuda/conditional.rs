//! The runtime's own kernel behind `Graph::set_conditional`: it reads a `u32` flag from device
//! memory and hands it to `cudaGraphSetConditional`.
//!
//! `cudaGraphSetConditional` is a device-runtime builtin the driver itself provides, like
//! `vprintf`: declared `.extern .func` in PTX, ptxas leaves a relocation the driver resolves when
//! it loads the module (nvcc emits the same declaration and call; `libcudadevrt` does not define
//! the symbol, so no device-runtime library is linked). The kernel is written here as PTX, so
//! the handle it gets is always one the graph made.

use std::ffi::c_void;
use std::sync::Arc;

use cudarc::driver::sys::{CUfunction, CUmodule};

use super::core::Core;
use super::jit::jit_load;
use super::result;
use crate::Result;

/// Takes a conditional handle and the address of a `u32` flag in global memory.
const SETTER_PTX: &str = ".version 8.0
.target sm_70
.address_size 64

.extern .func cudaGraphSetConditional
(
\t.param .b64 handle,
\t.param .b32 value
);

.visible .entry fc_graph_set_conditional(
\t.param .u64 fc_handle,
\t.param .u64 fc_flag
)
{
\t.reg .b64 %rd<3>;
\t.reg .b32 %r<2>;
\tld.param.u64 %rd1, [fc_handle];
\tld.param.u64 %rd2, [fc_flag];
\tcvta.to.global.u64 %rd2, %rd2;
\tld.global.u32 %r1, [%rd2];
\t{
\t.param .b64 p0;
\tst.param.b64 [p0+0], %rd1;
\t.param .b32 p1;
\tst.param.b32 [p1+0], %r1;
\tcall.uni cudaGraphSetConditional, (p0, p1);
\t}
\tret;
}
";

/// The loaded setter module, unloaded with its last holder (the graphs and execs using it).
pub(crate) struct Setter {
    core: Arc<Core>,
    module: CUmodule,
    generation: u64,
    pub(crate) func: CUfunction,
}

// SAFETY: module and function handles are usable from any thread.
unsafe impl Send for Setter {}
unsafe impl Sync for Setter {}

impl Drop for Setter {
    fn drop(&mut self) {
        if self.core.enter(self.generation).is_ok() {
            // SAFETY: our module; every graph using it is gone.
            unsafe {
                let _ = result::module_unload(self.module);
            }
        }
    }
}

impl Setter {
    /// JIT-loads the setter into `core`'s (current) context.
    pub(crate) fn load(core: &Arc<Core>) -> Result<Arc<Setter>> {
        let module = jit_load(SETTER_PTX)?;
        let mut s = Setter {
            core: core.clone(),
            module,
            generation: core.ctx.generation(),
            func: std::ptr::null_mut(),
        };
        // SAFETY: a live module; the name is the entry's.
        s.func = unsafe { result::module_get_function(module, c"fc_graph_set_conditional")? };
        Ok(Arc::new(s))
    }

    /// The kernel node's description for `handle` and the flag at `flag`; `with` gets it while
    /// the argument values live.
    pub(crate) fn with_params<R>(
        &self,
        handle: u64,
        flag: u64,
        with: impl FnOnce(&cudarc::driver::sys::CUDA_KERNEL_NODE_PARAMS) -> Result<R>,
    ) -> Result<R> {
        let (mut h, mut f) = (handle, flag);
        let mut args = [
            &mut h as *mut u64 as *mut c_void,
            &mut f as *mut u64 as *mut c_void,
        ];
        // SAFETY: zero is a valid bit pattern for this C struct (null handles and pointers).
        let mut p: cudarc::driver::sys::CUDA_KERNEL_NODE_PARAMS = unsafe { std::mem::zeroed() };
        p.func = self.func;
        (p.gridDimX, p.gridDimY, p.gridDimZ) = (1, 1, 1);
        (p.blockDimX, p.blockDimY, p.blockDimZ) = (1, 1, 1);
        p.kernelParams = args.as_mut_ptr();
        with(&p)
    }
}

#[cfg(test)]
mod tests {
    /// The setter's PTX assembles (where ptxas is at hand: `PTXAS`) for sm_80 and sm_90, leaving
    /// `cudaGraphSetConditional` for the driver to resolve.
    #[test]
    fn setter_ptx_assembles() {
        let Some(ptxas) = std::env::var_os("PTXAS") else {
            return;
        };
        let dir = std::env::temp_dir().join(format!("fc-setter-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let ptx = dir.join("setter.ptx");
        std::fs::write(&ptx, super::SETTER_PTX).unwrap();
        for sm in ["sm_80", "sm_90"] {
            let out = std::process::Command::new(&ptxas)
                .arg(format!("-arch={sm}"))
                .arg(&ptx)
                .arg("-o")
                .arg(dir.join(format!("{sm}.cubin")))
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{sm}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
