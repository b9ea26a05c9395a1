//! Running a case on the simulator (`kernel_compiler::compile` + `kernel_sim::launch`) and on a
//! CUDA device (the same compiler, `Module::from_compiled`, `Function::launch_raw`).
//!
//! Against the host reference both compile without fma contraction: the reference evaluates
//! `a * b + c` with two roundings, as Rust does, and contraction (on by default, like nvcc's
//! `--fmad=true`) fuses some of them. With contraction on (`fma: true`) the simulator and the GPU
//! still run the same IR and are compared with each other, bit for bit.

use std::ffi::c_void;

use ferrocuda::host_runtime::{
    disk_cache, DeviceBuffer, Error as RtError, Function, KernelPanic, LaunchConfig, Module,
    SliceArg, Stream,
};
use ferrocuda::kernel_compiler::{compile, CompileOptions, Compiled};
use ferrocuda::kernel_ir::ast::FnDef;
use ferrocuda::kernel_ir::ir::ParamKind;
use ferrocuda::kernel_sim::{self as sim, GlobalMemory, SimErrorKind, SimLaunch};
use ferrocuda::kernel_std::api::Dim3;
use ferrocuda::prelude::Device;

use crate::compare::{Outcome, Panic};
use crate::gen::{Case, CATALOGUE};

pub fn options(sm: u32, markers: bool, fma: bool) -> CompileOptions {
    CompileOptions {
        sm,
        fma_contraction: fma,
        source_markers: markers,
        ..CompileOptions::default()
    }
}

pub fn compile_for(
    def: &'static FnDef,
    sm: u32,
    markers: bool,
    fma: bool,
) -> Result<Compiled, String> {
    compile(def, &[], &options(sm, markers, fma)).map_err(|e| format!("compile error: {e}"))
}

/// Runs on the simulator (sm_80, with source markers for exact locations).
pub fn run_sim(case: &Case, def: &'static FnDef) -> Outcome {
    run_sim_with(case, def, false)
}

pub fn run_sim_with(case: &Case, def: &'static FnDef, fma: bool) -> Outcome {
    let c = match compile_for(def, 80, true, fma) {
        Ok(c) => c,
        Err(e) => return Outcome::Failed(e),
    };
    let mut mem = GlobalMemory::new();
    let mut addrs = Vec::new();
    let mut params = Vec::new();
    for ((spec, init), p) in case.params.iter().zip(&case.init).zip(&c.kernel.params) {
        assert!(
            matches!(p.kind, ParamKind::Slice { .. }),
            "{} is a slice",
            spec.name
        );
        let a = mem.alloc(init.len().max(1));
        mem.write(a, init).expect("write a parameter");
        addrs.push(a);
        let mut b = a.to_le_bytes().to_vec();
        b.extend_from_slice(&(spec.len as u64).to_le_bytes());
        params.push(b);
    }
    let refs: Vec<&[u8]> = params.iter().map(|p| p.as_slice()).collect();
    let cfg = SimLaunch::linear(case.grid, case.block);
    match sim::launch(&c.kernel, &cfg, &refs, &mut mem) {
        Ok(_) => {}
        Err(e) => {
            return match e.kind {
                SimErrorKind::Panic(kind) => Outcome::Panicked(Panic {
                    kind: Some(kind),
                    line: e.line,
                    col: e.col,
                    block: e.block[0],
                    thread: e.thread[0],
                    a: e.a,
                    b: e.b,
                }),
                _ => Outcome::Failed(format!("simulator: {e}")),
            }
        }
    }
    let out = case
        .init
        .iter()
        .zip(&addrs)
        .map(|(init, &a)| {
            let mut v = vec![0u8; init.len()];
            mem.read(a, &mut v).expect("read a parameter");
            v
        })
        .collect();
    Outcome::Done(out)
}

/// A loaded case on a CUDA device, ready to launch.
pub struct Loaded {
    pub function: Function,
    // Keeps the module (and its panic slot) alive while launches use the function.
    _module: Module,
}

/// Compiles for the device and loads. With the cubin cache on (`FERROCUDA_CACHE_DIR`) and ptxas
/// available, the PTX is assembled here first, so threads assemble in parallel instead of queuing
/// for the driver's JIT; `Module::from_compiled` then finds the cubin in the cache.
pub fn load(dev: &Device, def: &'static FnDef, fma: bool) -> Result<Loaded, String> {
    let c = compile_for(def, dev.sm(), false, fma)?;
    if let Some(dir) = disk_cache::cache_dir() {
        let key = disk_cache::disk_cache_key(&c.ptx, dev.sm(), dev.driver_version());
        if kernel_testkit::ptxas::require_ptxas().is_some()
            && disk_cache::load(&dir, &key).is_none()
        {
            let r = kernel_testkit::ptxas::assemble(&c.ptx, dev.sm())
                .map_err(|e| format!("ptxas: {e}"))?;
            disk_cache::store(&dir, &key, &r.cubin);
        }
    }
    let module = Module::from_compiled(dev, &c).map_err(|e| format!("load: {e}"))?;
    let name = ferrocuda::kernel_compiler::ptx::entry_name(&c.kernel.name);
    let function = module
        .function(&name)
        .map_err(|e| format!("function: {e}"))?;
    Ok(Loaded {
        function,
        _module: module,
    })
}

/// One thread's device buffers (one per catalogue parameter, sized for the largest case) and its
/// stream.
pub struct GpuSlot {
    pub stream: Stream,
    bufs: Vec<DeviceBuffer<u8>>,
}

impl GpuSlot {
    pub fn new(dev: &Device, max_bytes: usize) -> Result<GpuSlot, RtError> {
        let bufs = CATALOGUE
            .iter()
            .map(|_| DeviceBuffer::<u8>::zeroed(dev, max_bytes))
            .collect::<Result<_, _>>()?;
        Ok(GpuSlot {
            stream: dev.new_stream()?,
            bufs,
        })
    }

    /// Uploads the case's data, launches, waits, reads back. Every synchronizing call reports a
    /// kernel panic of any kernel of the device: this kernel's is returned, another's is handed
    /// to `foreign` (kernels run on several threads at once) and the call repeated.
    pub fn run(
        &mut self,
        case: &Case,
        f: &Function,
        foreign: &dyn Fn(KernelPanic),
    ) -> Result<Vec<Vec<u8>>, RtError> {
        let own = case.def.name;
        let retry = |op: &mut dyn FnMut() -> Result<(), RtError>| loop {
            match op() {
                Err(RtError::KernelPanic(p)) if !p.kernel.ends_with(own) => foreign(*p),
                r => return r,
            }
        };
        let mut args = Vec::new();
        for (spec, init) in case.params.iter().zip(&case.init) {
            let ci = CATALOGUE.iter().position(|p| p.0 == spec.name).unwrap();
            let buf = &mut self.bufs[ci];
            retry(&mut || buf.view_mut(0..init.len())?.copy_from_host(init))?;
            args.push(SliceArg {
                ptr: buf.device_ptr(),
                len: spec.len as u64,
            });
        }
        let mut ptrs: Vec<*mut c_void> = args
            .iter_mut()
            .map(|a| a as *mut SliceArg as *mut c_void)
            .collect();
        let cfg = LaunchConfig {
            grid: Dim3::new(case.grid, 1, 1),
            block: Dim3::new(case.block, 1, 1),
            shared_mem_bytes: 0,
            attrs: Default::default(),
        };
        // SAFETY: one `{ptr, len}` slice argument per kernel parameter, in order, each naming
        // `len` elements of a live buffer of this device.
        unsafe { f.launch_raw(&self.stream, cfg, &mut ptrs)? };
        let stream = &self.stream;
        retry(&mut || stream.synchronize())?;
        let mut out = Vec::new();
        for (spec, init) in case.params.iter().zip(&case.init) {
            let ci = CATALOGUE.iter().position(|p| p.0 == spec.name).unwrap();
            let mut v = vec![0u8; init.len()];
            let buf = &self.bufs[ci];
            retry(&mut || buf.view(0..init.len())?.copy_to_host(&mut v))?;
            out.push(v);
        }
        Ok(out)
    }
}

/// A GPU panic report in the comparison's terms.
pub fn gpu_panic(p: &KernelPanic) -> Panic {
    Panic {
        kind: p.kind.clone(),
        line: p.line,
        col: p.col,
        block: p.block[0],
        thread: p.thread[0],
        a: p.index,
        b: p.len,
    }
}
