//! The workloads: each a Ferrocuda kernel and, where one exists, its CUDA C twin.

use std::ffi::c_void;
use std::time::Instant;

use ferrocuda::host_runtime::{
    Device, DeviceBuffer, Function, LaunchConfig, Module, SliceArg, Stream,
};
use ferrocuda::kernel_compiler::{self, CompileOptions};
use ferrocuda::kernel_ir::{ast::FnDef, GenericValue};
use ferrocuda_examples::{launch as empty, saxpy, sgemm, transpose, util::Rng};

use super::checks;
use super::report::{Row, Unit};
use super::timing::{time_events, time_pair, Timing};
use super::twins::Twins;

pub struct Workload {
    pub name: &'static str,
    pub run: fn(&Device, &Twins) -> Result<Vec<Row>, String>,
}

pub static ALL: &[Workload] = &[
    Workload {
        name: "copy",
        run: copy,
    },
    Workload {
        name: "saxpy",
        run: saxpy_bench,
    },
    Workload {
        name: "transpose",
        run: transpose_bench,
    },
    Workload {
        name: "sgemm",
        run: sgemm_bench,
    },
    Workload {
        name: "async-matmul",
        run: super::async_matmul::bench,
    },
    Workload {
        name: "tma",
        run: super::tma::bench,
    },
    Workload {
        name: "cublas",
        run: super::cublas::sgemm,
    },
    Workload {
        name: "launch",
        run: launch_overhead,
    },
    Workload {
        name: "graph",
        run: super::graphs::graph_replay,
    },
    Workload {
        name: "compile",
        run: compile_time,
    },
    Workload {
        name: "bounds",
        run: bounds_checks,
    },
    Workload {
        name: "reduction",
        run: super::workloads_intrinsics::reduction_bench,
    },
    Workload {
        name: "histogram",
        run: super::workloads_intrinsics::histogram_bench,
    },
    Workload {
        name: "pdl",
        run: super::workloads_cluster::pdl_chain,
    },
    Workload {
        name: "dsmem-histogram",
        run: super::workloads_cluster::dsmem_histogram,
    },
    Workload {
        name: "l2-persist",
        run: super::workloads_l2::l2_persist,
    },
    Workload {
        name: "math-functions",
        run: super::math::functions_bench,
    },
    Workload {
        name: "math-kernels",
        run: super::math::kernels_bench,
    },
    Workload {
        name: "corpus",
        run: super::corpus::workload,
    },
];

fn e(x: impl std::fmt::Display) -> String {
    x.to_string()
}

fn slice_arg<T: ferrocuda::kernel_std::api::DeviceType>(b: &DeviceBuffer<T>) -> SliceArg {
    SliceArg {
        ptr: b.device_ptr(),
        len: b.len() as u64,
    }
}

/// Device-to-device copy: the memory-bandwidth ceiling (bytes read + written).
fn copy(dev: &Device, _: &Twins) -> Result<Vec<Row>, String> {
    let n = 1usize << 28;
    let src = DeviceBuffer::upload(dev, &Rng::new(1).vec_f32(n)).map_err(e)?;
    let mut dst = DeviceBuffer::<f32>::alloc(dev, n).map_err(e)?;
    let s = Stream::new(dev).map_err(e)?;
    let t = time_events(dev, &s, |s| dst.copy_from_async(&src, s)).map_err(e)?;
    let bytes = 2.0 * 4.0 * n as f64;
    Ok(vec![Row::new(
        "copy (cuMemcpyDtoD, 1 GiB)",
        Unit::GBps,
        bytes,
        Some(t),
        None,
    )])
}

/// Runs `f` once on `s` and waits, for a check to read the result.
fn once(
    s: &Stream,
    f: impl FnOnce(&Stream) -> ferrocuda::host_runtime::Result<()>,
) -> Result<(), String> {
    f(s).and_then(|()| s.synchronize()).map_err(e)
}

fn saxpy_bench(dev: &Device, twins: &Twins) -> Result<Vec<Row>, String> {
    let n = 1usize << 28;
    let mut rng = Rng::new(2);
    let (x_host, y_host) = (rng.vec_f32(n), rng.vec_f32(n));
    let x = DeviceBuffer::upload(dev, &x_host).map_err(e)?;
    let mut y = DeviceBuffer::upload(dev, &y_host).map_err(e)?;
    let s = Stream::new(dev).map_err(e)?;
    let cfg = LaunchConfig::for_elements(n, 256);
    let twin_fn = twins
        .function(dev, "saxpy", "saxpy")
        .transpose()
        .map_err(e)?;
    let a = 1.0001f32;
    let (mut aa, mut xp, mut yp, mut nn) = (a, x.device_ptr(), y.device_ptr(), n as u64);
    let mut args = [ptr(&mut aa), ptr(&mut xp), ptr(&mut yp), ptr(&mut nn)];
    // Both checked at the timed size, each from the same `y` (saxpy updates it in place).
    once(&s, |s| saxpy::saxpy::launch(s, cfg, a, &x, &mut y))?;
    checks::saxpy(a, &x_host, &y_host, &y.to_vec().map_err(e)?)
        .map_err(|m| format!("ours: {m}"))?;
    if let Some((_m, f)) = &twin_fn {
        y.copy_from_host(&y_host).map_err(e)?;
        once(&s, |s| unsafe { f.launch_raw(s, cfg, &mut args) })?;
        checks::saxpy(a, &x_host, &y_host, &y.to_vec().map_err(e)?)
            .map_err(|m| format!("nvcc twin: {m}"))?;
    }
    let (ours, twin) = time_pair(
        dev,
        &s,
        |s| saxpy::saxpy::launch(s, cfg, a, &x, &mut y),
        twin_fn
            .as_ref()
            .map(|(_m, f)| |s: &Stream| unsafe { f.launch_raw(s, cfg, &mut args) }),
    )
    .map_err(e)?;
    Ok(vec![Row::new(
        "saxpy (2^28 f32)",
        Unit::GBps,
        12.0 * n as f64,
        Some(ours),
        twin,
    )])
}

fn transpose_bench(dev: &Device, twins: &Twins) -> Result<Vec<Row>, String> {
    let (w, h) = (8192u32, 8192u32);
    let n = (w * h) as usize;
    let inp_host = Rng::new(3).vec_f32(n);
    let inp = DeviceBuffer::upload(dev, &inp_host).map_err(e)?;
    let mut out = DeviceBuffer::<f32>::alloc(dev, n).map_err(e)?;
    let s = Stream::new(dev).map_err(e)?;
    let cfg = transpose::config(w, h);
    let twin_fn = twins
        .function(dev, "transpose", "transpose")
        .transpose()
        .map_err(e)?;
    let (mut o, mut i, mut ww, mut hh) = (out.device_ptr(), inp.device_ptr(), w, h);
    let mut args = [ptr(&mut o), ptr(&mut i), ptr(&mut ww), ptr(&mut hh)];
    // Both checked at the timed size, each into an output poisoned with NaN first.
    let poison = vec![f32::NAN; n];
    let check = |out: &DeviceBuffer<f32>, who: &str| -> Result<(), String> {
        let got = out.to_vec().map_err(e)?;
        checks::transpose(&inp_host, w as usize, h as usize, &got)
            .map_err(|m| format!("{who}: {m}"))
    };
    out.copy_from_host(&poison).map_err(e)?;
    once(&s, |s| {
        transpose::transpose::launch::<32>(s, cfg, &mut out, &inp, w, h)
    })?;
    check(&out, "ours")?;
    if let Some((_m, f)) = &twin_fn {
        out.copy_from_host(&poison).map_err(e)?;
        once(&s, |s| unsafe { f.launch_raw(s, cfg, &mut args) })?;
        check(&out, "nvcc twin")?;
    }
    drop(poison);
    let (ours, twin) = time_pair(
        dev,
        &s,
        |s| transpose::transpose::launch::<32>(s, cfg, &mut out, &inp, w, h),
        twin_fn
            .as_ref()
            .map(|(_m, f)| |s: &Stream| unsafe { f.launch_raw(s, cfg, &mut args) }),
    )
    .map_err(e)?;
    Ok(vec![Row::new(
        "transpose (8192^2 f32)",
        Unit::GBps,
        8.0 * n as f64,
        Some(ours),
        twin,
    )])
}

fn sgemm_bench(dev: &Device, twins: &Twins) -> Result<Vec<Row>, String> {
    let (m, n, k) = (4096u32, 4096u32, 4096u32);
    let mut rng = Rng::new(4);
    let (a_host, b_host, c_host) = (
        rng.vec_f32((m * k) as usize),
        rng.vec_f32((k * n) as usize),
        rng.vec_f32((m * n) as usize),
    );
    let a = DeviceBuffer::upload(dev, &a_host).map_err(e)?;
    let b = DeviceBuffer::upload(dev, &b_host).map_err(e)?;
    let mut c = DeviceBuffer::upload(dev, &c_host).map_err(e)?;
    let s = Stream::new(dev).map_err(e)?;
    let cfg = sgemm::config(m, n);
    let (alpha, beta) = (1.0f32, 0.0f32);
    let twin_fn = twins
        .function(dev, "sgemm", "sgemm")
        .transpose()
        .map_err(e)?;
    let (mut pa, mut pb, mut pc) = (a.device_ptr(), b.device_ptr(), c.device_ptr());
    let (mut mm, mut nn, mut kk, mut al, mut be) = (m, n, k, alpha, beta);
    let mut args = [
        ptr(&mut pa),
        ptr(&mut pb),
        ptr(&mut pc),
        ptr(&mut mm),
        ptr(&mut nn),
        ptr(&mut kk),
        ptr(&mut al),
        ptr(&mut be),
    ];
    // Both checked at the timed size (sampled: see `checks`), each from the same C.
    let g = checks::Gemm {
        m: m as usize,
        n: n as usize,
        k: k as usize,
        alpha,
        beta,
    };
    let check = |c: &DeviceBuffer<f32>, who: &str| -> Result<(), String> {
        let got = c.to_vec().map_err(e)?;
        checks::sgemm_sampled(g, &a_host, &b_host, &c_host, &got).map_err(|m| format!("{who}: {m}"))
    };
    once(&s, |s| {
        sgemm::sgemm::launch(s, cfg, &a, &b, &mut c, m, n, k, alpha, beta)
    })?;
    check(&c, "ours")?;
    if let Some((_m, f)) = &twin_fn {
        c.copy_from_host(&c_host).map_err(e)?;
        once(&s, |s| unsafe { f.launch_raw(s, cfg, &mut args) })?;
        check(&c, "nvcc twin")?;
    }
    let (ours, twin) = time_pair(
        dev,
        &s,
        |s| sgemm::sgemm::launch(s, cfg, &a, &b, &mut c, m, n, k, alpha, beta),
        twin_fn
            .as_ref()
            .map(|(_m, f)| |s: &Stream| unsafe { f.launch_raw(s, cfg, &mut args) }),
    )
    .map_err(e)?;
    let flops = 2.0 * m as f64 * n as f64 * k as f64;
    Ok(vec![Row::new(
        "sgemm (4096^3)",
        Unit::Tflops,
        flops,
        Some(ours),
        twin,
    )])
}

fn ptr<T>(v: &mut T) -> *mut c_void {
    v as *mut T as *mut c_void
}

/// Host enqueue cost of one launch (median over batches): our typed launcher, a raw
/// `cuLaunchKernel` of the very same loaded function, cudarc's `launch_builder` of the same PTX,
/// and `Function::launch_raw` (our validation and context check without the typed launcher's
/// cache lookup: where the typed launcher's extra time goes). They take turns batch by batch,
/// each going first equally often, so drift and whatever a batch leaves behind (a driver queue
/// still draining) fall on all of them.
fn launch_overhead(dev: &Device, twins: &Twins) -> Result<Vec<Row>, String> {
    const BATCH: usize = 2000;
    const ROUNDS: usize = 30;
    let s = Stream::new(dev).map_err(e)?;
    let x = DeviceBuffer::upload(dev, &[1.0f32; 256]).map_err(e)?;
    let mut y = DeviceBuffer::upload(dev, &[2.0f32; 256]).map_err(e)?;
    let cfg = LaunchConfig::for_elements(256, 256);
    empty::empty3::launch(&s, cfg, 1.0, &x, &mut y).map_err(e)?;
    s.synchronize().map_err(e)?;
    let f: Function = ferrocuda::host_runtime::kernel_function(
        dev,
        &empty::empty3::KERNEL,
        &ferrocuda::host_runtime::InstanceKey::EMPTY,
        &Vec::new,
        Some(cfg.block),
    )
    .map_err(e)?;
    let ptx = ferrocuda::host_runtime::compiled_kernel(
        dev,
        &empty::empty3::KERNEL,
        &ferrocuda::host_runtime::InstanceKey::EMPTY,
        &Vec::new,
        Some(cfg.block),
    )
    .map_err(e)?
    .ptx
    .clone();
    let cudarc = CudarcLaunch::new(dev.ordinal(), &ptx, f.name(), &x, &y)?;
    let (mut a, mut xa, mut ya) = (1.0f32, slice_arg(&x), slice_arg(&y));
    // Compiled entries take the stream's panic slot last: the raw call passes 0 (no reporting),
    // `launch_raw` appends the stream's own.
    let mut no_slot = 0u64;
    let mut args = [ptr(&mut a), ptr(&mut xa), ptr(&mut ya), ptr(&mut no_slot)];
    let mut user_args = [args[0], args[1], args[2]];
    let mut times: [Vec<f64>; 4] = Default::default();
    for round in 0..ROUNDS {
        for turn in 0..4 {
            let which = (round + turn) % 4;
            let t = Instant::now();
            for _ in 0..BATCH {
                match which {
                    0 => empty::empty3::launch(&s, cfg, 1.0, &x, &mut y).map_err(e)?,
                    1 => {
                        let r = unsafe {
                            cudarc::driver::sys::cuLaunchKernel(
                                f.raw(),
                                1,
                                1,
                                1,
                                256,
                                1,
                                1,
                                0,
                                s.raw() as _,
                                args.as_mut_ptr(),
                                std::ptr::null_mut(),
                            )
                        };
                        if r != cudarc::driver::sys::CUresult::CUDA_SUCCESS {
                            return Err(format!("cuLaunchKernel: {r:?}"));
                        }
                    }
                    2 => cudarc.launch()?,
                    _ => unsafe { f.launch_raw(&s, cfg, &mut user_args) }.map_err(e)?,
                }
            }
            times[which].push(t.elapsed().as_secs_f64() * 1e6 / BATCH as f64);
            s.synchronize().map_err(e)?;
            cudarc.synchronize()?;
        }
    }
    let us = |v: &[f64]| {
        let t = Timing::from_samples(v.to_vec());
        Timing {
            median_ms: t.median_ms / 1e3,
            min_ms: t.min_ms / 1e3,
            max_ms: t.max_ms / 1e3,
        }
    };
    let against_raw = |name: &str, i: usize| {
        let name = format!("launch enqueue ({name} vs raw cuLaunchKernel)");
        Row::new(
            &name,
            Unit::Micros,
            0.0,
            Some(us(&times[i])),
            Some(us(&times[1])),
        )
    };
    let mut rows = vec![
        against_raw("typed", 0),
        against_raw("cudarc launch_builder", 2),
        against_raw("Function::launch_raw", 3),
    ];
    // The runtime API from CUDA C (its own process, same method): what a CUDA programmer's
    // `cudaLaunchKernel` costs on this machine.
    if let Some(out) = twins.run_host_program("launch_overhead") {
        let out = out?;
        let value = |name: &str| {
            out.lines()
                .find_map(|l| l.strip_prefix(name)?.trim().parse::<f64>().ok())
                .ok_or_else(|| format!("launch_overhead printed no `{name}` line: {out}"))
        };
        let api = value("cudaLaunchKernel ")? / 1e3;
        let api = Timing {
            median_ms: api,
            min_ms: api,
            max_ms: api,
        };
        rows.push(Row::new(
            "launch enqueue (typed vs cudaLaunchKernel, CUDA C process)",
            Unit::Micros,
            0.0,
            Some(us(&times[0])),
            Some(api),
        ));
    }
    Ok(rows)
}

/// `{ ptr, len }` as our kernels take a slice, for cudarc's argument list.
#[repr(C)]
#[derive(Clone, Copy)]
struct SlicePair {
    ptr: u64,
    len: u64,
}

// SAFETY: two plain integers, laid out as the kernel's `.param .align 8 .b8 [16]`.
unsafe impl cudarc::driver::DeviceRepr for SlicePair {}

/// The empty kernel loaded and launched through cudarc's safe API, on its own stream of the
/// same (primary) context.
struct CudarcLaunch {
    stream: std::sync::Arc<cudarc::driver::CudaStream>,
    func: cudarc::driver::CudaFunction,
    _module: std::sync::Arc<cudarc::driver::CudaModule>,
    /// The kernel's three parameters and its trailing panic slot (0: no reporting).
    args: (f32, SlicePair, SlicePair, u64),
}

impl CudarcLaunch {
    fn new(
        ordinal: usize,
        ptx: &str,
        name: &str,
        x: &DeviceBuffer<f32>,
        y: &DeviceBuffer<f32>,
    ) -> Result<Self, String> {
        let d = |e: cudarc::driver::DriverError| format!("cudarc: {e}");
        let ctx = cudarc::driver::CudaContext::new(ordinal).map_err(d)?;
        let module = ctx
            .load_module(cudarc::nvrtc::Ptx::from_src(ptx))
            .map_err(d)?;
        let func = module.load_function(name).map_err(d)?;
        let pair = |b: &DeviceBuffer<f32>| SlicePair {
            ptr: b.device_ptr(),
            len: b.len() as u64,
        };
        Ok(CudarcLaunch {
            stream: ctx.new_stream().map_err(d)?,
            func,
            _module: module,
            args: (1.0, pair(x), pair(y), 0),
        })
    }

    fn launch(&self) -> Result<(), String> {
        use cudarc::driver::PushKernelArg;
        let cfg = cudarc::driver::LaunchConfig {
            grid_dim: (1, 1, 1),
            block_dim: (256, 1, 1),
            shared_mem_bytes: 0,
        };
        let mut b = self.stream.launch_builder(&self.func);
        b.arg(&self.args.0)
            .arg(&self.args.1)
            .arg(&self.args.2)
            .arg(&self.args.3);
        // SAFETY: the arguments match the kernel's parameters; the buffers outlive the stream's work
        // (the bench synchronizes after every batch).
        unsafe { b.launch(cfg) }
            .map(|_| ())
            .map_err(|e| format!("cudarc launch: {e}"))
    }

    fn synchronize(&self) -> Result<(), String> {
        self.stream
            .synchronize()
            .map_err(|e| format!("cudarc: {e}"))
    }
}

/// Compiles per kernel for the median of our compiler's time.
const COMPILE_RUNS: usize = 21;

/// First-launch cost per example kernel: our compiler alone (median of warm runs), then the driver's JIT of our PTX
/// (cold disk cache), then loading the cached cubin (what a second process pays).
fn compile_time(dev: &Device, _: &Twins) -> Result<Vec<Row>, String> {
    // What a launch on this device compiles (no source markers: PTX carries no positions).
    let opts = CompileOptions {
        sm: dev.sm(),
        source_markers: false,
        ..CompileOptions::default()
    };
    let dir = std::env::temp_dir().join(format!("ferrocuda-bench-cache-{}", std::process::id()));
    // SAFETY: the benchmark is single-threaded here; nothing else reads the variable concurrently.
    unsafe { std::env::set_var("FERROCUDA_CACHE_DIR", &dir) };
    let (mut ours, mut jit, mut cold, mut warm) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for k in ferrocuda_examples::registry::KERNELS {
        let def = (k.def)();
        let generics = (k.generics)();
        // Our compiler: one warm-up compile, then the median of a few (the process-wide tables
        // and allocator warm-up are not per-kernel costs).
        let c = kernel_compiler::compile(def, &generics, &opts).map_err(e)?;
        ours.push(median_compile_ms(def, &generics, &opts)?);
        // The default load path: the driver's JIT (its own disk cache is off for the bench).
        let t = Instant::now();
        drop(Module::from_ptx(dev, &c.ptx).map_err(e)?);
        jit.push(t.elapsed().as_secs_f64() * 1e3);
        let t = Instant::now();
        drop(Module::from_compiled(dev, &c).map_err(e)?);
        cold.push(t.elapsed().as_secs_f64() * 1e3);
        let t = Instant::now();
        drop(Module::from_compiled(dev, &c).map_err(e)?);
        warm.push(t.elapsed().as_secs_f64() * 1e3);
    }
    let _ = std::fs::remove_dir_all(&dir);
    unsafe { std::env::remove_var("FERROCUDA_CACHE_DIR") };
    Ok(vec![
        Row::new(
            "compile: ours, ms per kernel (median of 21, max of examples)",
            Unit::Millis,
            0.0,
            Some(max_timing(&ours)),
            None,
        ),
        Row::new(
            "compile: driver JIT (default load), ms (max)",
            Unit::Millis,
            0.0,
            Some(max_timing(&jit)),
            None,
        ),
        Row::new(
            "compile: opt-in cubin cache, cold (linker), ms (max)",
            Unit::Millis,
            0.0,
            Some(max_timing(&cold)),
            None,
        ),
        Row::new(
            "compile: opt-in cubin cache, warm load, ms (max)",
            Unit::Millis,
            0.0,
            Some(max_timing(&warm)),
            None,
        ),
    ])
}

/// Median of [`COMPILE_RUNS`] compiles of one kernel, in ms.
fn median_compile_ms(
    def: &'static FnDef,
    generics: &[GenericValue],
    opts: &CompileOptions,
) -> Result<f64, String> {
    let mut runs: Vec<f64> = (0..COMPILE_RUNS)
        .map(|_| {
            let t = Instant::now();
            let r = kernel_compiler::compile(def, generics, opts).map(|_| ());
            r.map(|()| t.elapsed().as_secs_f64() * 1e3)
        })
        .collect::<Result<_, _>>()
        .map_err(e)?;
    runs.sort_by(f64::total_cmp);
    Ok(runs[runs.len() / 2])
}

fn max_timing(v: &[f64]) -> Timing {
    let mx = v.iter().cloned().fold(0.0, f64::max);
    let mn = v.iter().cloned().fold(f64::INFINITY, f64::min);
    Timing {
        median_ms: mx,
        min_ms: mn,
        max_ms: mx,
    }
}

/// saxpy, transpose and SGEMM compiled with and without bounds checks, same raw launch path;
/// each variant's output checked at the timed size before its row is timed (a failed check fails
/// that row only).
fn bounds_checks(dev: &Device, _: &Twins) -> Result<Vec<Row>, String> {
    let s = Stream::new(dev).map_err(e)?;
    let mut rng = Rng::new(9);
    let mut rows = Vec::new();
    let mut push = |name: &str, row: Result<Row, String>| {
        rows.push(row.unwrap_or_else(|m| Row::failed(&checks_label(name), &m)))
    };
    {
        let n = 1usize << 28;
        let a = 1.0001f32;
        let (x_host, y_host) = (rng.vec_f32(n), rng.vec_f32(n));
        let x = DeviceBuffer::upload(dev, &x_host).map_err(e)?;
        let mut y = DeviceBuffer::upload(dev, &y_host).map_err(e)?;
        let (mut aa, mut xa, mut ya) = (a, slice_arg(&x), slice_arg(&y));
        let mut args = [ptr(&mut aa), ptr(&mut xa), ptr(&mut ya)];
        let cfg = LaunchConfig::for_elements(n, 256);
        let mut check = |launch: &mut dyn FnMut() -> Result<(), String>| {
            y.copy_from_host(&y_host).map_err(e)?;
            launch()?;
            checks::saxpy(a, &x_host, &y_host, &y.to_vec().map_err(e)?)
        };
        let row = checks_row(
            dev,
            &s,
            ("saxpy", Unit::GBps, 12.0 * n as f64),
            cfg,
            &mut args,
            &mut check,
        );
        push("saxpy", row);
    }
    {
        let (w, h) = (8192u32, 8192u32);
        let n = (w * h) as usize;
        let i_host = rng.vec_f32(n);
        let i = DeviceBuffer::upload(dev, &i_host).map_err(e)?;
        let mut o = DeviceBuffer::<f32>::alloc(dev, n).map_err(e)?;
        let (mut oa, mut ia, mut ww, mut hh) = (slice_arg(&o), slice_arg(&i), w, h);
        let mut args = [ptr(&mut oa), ptr(&mut ia), ptr(&mut ww), ptr(&mut hh)];
        let cfg = transpose::config(w, h);
        let poison = vec![f32::NAN; n];
        let mut check = |launch: &mut dyn FnMut() -> Result<(), String>| {
            o.copy_from_host(&poison).map_err(e)?;
            launch()?;
            checks::transpose(&i_host, w as usize, h as usize, &o.to_vec().map_err(e)?)
        };
        let row = checks_row(
            dev,
            &s,
            ("transpose", Unit::GBps, 8.0 * n as f64),
            cfg,
            &mut args,
            &mut check,
        );
        push("transpose", row);
    }
    {
        let (m, n, k) = (4096u32, 4096u32, 4096u32);
        let (a_host, b_host, c_host) = (
            rng.vec_f32((m * k) as usize),
            rng.vec_f32((k * n) as usize),
            rng.vec_f32((m * n) as usize),
        );
        let a = DeviceBuffer::upload(dev, &a_host).map_err(e)?;
        let b = DeviceBuffer::upload(dev, &b_host).map_err(e)?;
        let mut c = DeviceBuffer::upload(dev, &c_host).map_err(e)?;
        let (mut pa, mut pb, mut pc) = (slice_arg(&a), slice_arg(&b), slice_arg(&c));
        let (mut mm, mut nn, mut kk, mut al, mut be) = (m, n, k, 1.0f32, 0.0f32);
        let mut args = [
            ptr(&mut pa),
            ptr(&mut pb),
            ptr(&mut pc),
            ptr(&mut mm),
            ptr(&mut nn),
            ptr(&mut kk),
            ptr(&mut al),
            ptr(&mut be),
        ];
        let g = checks::Gemm {
            m: m as usize,
            n: n as usize,
            k: k as usize,
            alpha: 1.0,
            beta: 0.0,
        };
        let mut check = |launch: &mut dyn FnMut() -> Result<(), String>| {
            c.copy_from_host(&c_host).map_err(e)?;
            launch()?;
            checks::sgemm_sampled(g, &a_host, &b_host, &c_host, &c.to_vec().map_err(e)?)
        };
        let flops = 2.0 * (m as f64) * (n as f64) * (k as f64);
        let cfg = sgemm::config(m, n);
        let row = checks_row(
            dev,
            &s,
            ("sgemm", Unit::Tflops, flops),
            cfg,
            &mut args,
            &mut check,
        );
        push("sgemm", row);
    }
    Ok(rows)
}

/// Resets a row's output, runs the launch it is given once, and checks the result.
type CheckRun<'a> = dyn FnMut(&mut dyn FnMut() -> Result<(), String>) -> Result<(), String> + 'a;

fn checks_label(name: &str) -> String {
    format!("bounds checks on vs off: {name}")
}

/// Times registered kernel `name` compiled with checks (ours) and without (reference column),
/// alternately as [`time_pair`] times a twin, after `check` (which resets the output, runs the
/// launch it is given once and checks the result) has passed for both.
fn checks_row(
    dev: &Device,
    s: &Stream,
    (name, unit, amount): (&str, Unit, f64),
    cfg: LaunchConfig,
    args: &mut [*mut c_void],
    check: &mut CheckRun<'_>,
) -> Result<Row, String> {
    let load = |checks: bool| -> Result<(Module, Function), String> {
        let k = ferrocuda_examples::registry::find(name).ok_or("missing kernel")?;
        let opts = CompileOptions {
            sm: dev.sm(),
            bounds_checks: checks,
            ..CompileOptions::default()
        };
        let c = kernel_compiler::compile((k.def)(), &(k.generics)(), &opts).map_err(e)?;
        let m = Module::from_ptx(dev, &c.ptx).map_err(e)?;
        let f = m
            .function(&kernel_compiler::ptx::entry_name(&c.kernel.name))
            .map_err(e)?;
        Ok((m, f))
    };
    let (_m_on, on) = load(true)?;
    let (_m_off, off) = load(false)?;
    for (which, f) in [("checks on", &on), ("checks off", &off)] {
        check(&mut || once(s, |s| unsafe { f.launch_raw(s, cfg, args) }))
            .map_err(|m| format!("{which}: {m}"))?;
    }
    // The same argument pointers for the second closure.
    let mut args_off = args.to_vec();
    let (t_on, t_off) = time_pair(
        dev,
        s,
        |s| unsafe { on.launch_raw(s, cfg, args) },
        Some(|s: &Stream| unsafe { off.launch_raw(s, cfg, &mut args_off) }),
    )
    .map_err(e)?;
    let t_off = t_off.ok_or("no timing for checks off")?;
    Ok(Row::new(
        &checks_label(name),
        unit,
        amount,
        Some(t_on),
        Some(t_off),
    ))
}
