//! Differential random kernels (issue 22's reliability suite): a seeded generator of well-typed,
//! race-free kernels (`gen.rs`), each run three ways and compared:
//!
//! - as plain Rust on the host: `reference.rs` evaluates the kernel's AST with Rust's operators;
//! - on the simulator: `kernel_compiler::compile` + `kernel_sim::launch`;
//! - on a GPU (`random_kernels_on_the_gpu`, `#[ignore]`d): the same compiler, the CUDA driver.
//!
//! Integers compare bit for bit; floats too (only correctly rounded operations are generated, the
//! 0-ulp rows of docs/simulator.md), NaNs being equal to each other; panics by kind and source
//! location. The reference itself is checked against rustc by `tests/differential_rustc/`: 30
//! generated kernels compiled as host Rust functions.
//!
//! A failure prints the seed and the kernel as `#[kernel]` source; rerun one seed with
//! `FERROCUDA_DIFF_SEED=0x... cargo test --test differential_random one_seed -- --nocapture`
//! (`FERROCUDA_DIFF_PTX=FILE` also writes the GPU build's PTX; `FERROCUDA_DIFF_SHRINK=N` shrinks a
//! GPU mismatch in at most N tries to the statements that still mismatch, `shrink.rs`, and prints
//! that kernel, its PTX going to `FILE.shrunk`).
//! `FERROCUDA_DIFF_KERNELS=N` changes how many kernels a run makes (500 on the simulator, 10,000 on
//! the GPU by default), `FERROCUDA_DIFF_BASE=N` the first seed's base, `FERROCUDA_DIFF_THREADS=N`
//! the GPU run's threads (default: one per core, one under compute-sanitizer); the simulator run
//! has every `FERROCUDA_DIFF_PTXAS_EVERY`-th kernel's GPU build assembled by ptxas (default 25).

mod backends;
mod compare;
mod coverage;
mod gen;
mod print;
mod reference;
mod rng;
mod shrink;
mod syntax;
mod value;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use compare::{check, Outcome};
use gen::{Case, Features};
use reference::RefOutcome;
use rng::{case_seed, Rng};

/// The default first seed base of the runs (any value works; fixed so runs repeat).
const BASE: u64 = 0x5eed_0022;

/// Stack of the GPU run's worker threads (the run-time compiler recurses over the kernel).
const WORKER_STACK: usize = 64 << 20;

fn env_u64(name: &str) -> Option<u64> {
    let v = std::env::var(name).ok()?;
    let v = v.trim().replace('_', "");
    match v.strip_prefix("0x") {
        Some(h) => u64::from_str_radix(h, 16).ok(),
        None => v.parse().ok(),
    }
}

/// The kernel of a seed (the seed also picks its family).
pub fn case_for(seed: u64) -> Case {
    let mut r = Rng::new(seed ^ 0xfea7_0e5f);
    gen::generate(seed, Features::for_seed(&mut r))
}

fn report(case: &Case, what: &str) -> String {
    format!(
        "seed {:#018x} ({} blocks of {} threads): {what}\nreproduce: FERROCUDA_DIFF_SEED={:#x} cargo test --test differential_random one_seed -- --nocapture\n{}",
        case.seed,
        case.grid,
        case.block,
        case.seed,
        print::numbered(&case.source)
    )
}

#[derive(Default)]
struct Tally {
    kernels: usize,
    panicking: usize,
    shared: usize,
    warp: usize,
    failures: Vec<String>,
}

impl Tally {
    fn count(&mut self, case: &Case, r: &RefOutcome) {
        self.kernels += 1;
        self.panicking += matches!(r, RefOutcome::Panicked(_)) as usize;
        self.shared += case.features.shared as usize;
        self.warp += case.features.warp as usize;
    }

    /// Records a failure: its first line at once on stderr (long runs show mismatches as they
    /// come), all of it in `FERROCUDA_DIFF_LOG` when set.
    fn fail(&mut self, msg: String) {
        eprintln!("MISMATCH {}", msg.lines().next().unwrap_or_default());
        if let Ok(path) = std::env::var("FERROCUDA_DIFF_LOG") {
            use std::io::Write;
            if let Ok(mut f) = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
            {
                let _ = writeln!(f, "{msg}\n");
            }
        }
        self.failures.push(msg);
    }

    fn summary(&self, what: &str) -> String {
        format!(
            "{what}: {} kernels ({} panicking, {} with shared memory, {} with warp collectives), {} mismatches",
            self.kernels,
            self.panicking,
            self.shared,
            self.warp,
            self.failures.len()
        )
    }

    fn assert_clean(&self, what: &str) {
        println!("{}", self.summary(what));
        if !self.failures.is_empty() {
            for f in self.failures.iter().take(5) {
                eprintln!("{f}");
            }
            panic!("{}", self.summary(what));
        }
    }
}

/// Runs `f`, turning a panic of the test's own code (generator, reference) into a failure that
/// names the seed.
fn guarded(seed: u64, tally: &Mutex<Tally>, f: impl FnOnce()) {
    if let Err(p) = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        let msg = p
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        let case = case_for(seed);
        let mut t = tally.lock().unwrap_or_else(|e| e.into_inner());
        t.fail(report(&case, &format!("the test itself panicked: {msg}")));
    }
}

/// Reference and simulator on one seed; also assembles the GPU build's PTX when `ptxas` is given.
fn sim_case(seed: u64, ptxas: bool, tally: &Mutex<Tally>) {
    let case = case_for(seed);
    let r = reference::run(&case);
    let s = backends::run_sim(&case, case.def);
    let mut res = check(&case, &r, "simulator", &s, true);
    if ptxas && res.is_ok() {
        res = backends::compile_for(case.def, 90, false, false).and_then(|c| {
            kernel_testkit::ptxas::assemble(&c.ptx, 90)
                .map(|_| ())
                .map_err(|e| format!("ptxas: {e}"))
        });
    }
    let mut t = tally.lock().unwrap();
    t.count(&case, &r);
    if let Err(m) = res {
        t.fail(report(&case, &m));
    }
}

/// Runs `n` seeds from `base` on `threads` threads.
fn sim_run(base: u64, n: usize, threads: usize, ptxas_every: usize) -> Tally {
    let tally = Mutex::new(Tally::default());
    let next = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= n {
                    break;
                }
                let ptxas = ptxas_every > 0 && i.is_multiple_of(ptxas_every);
                let seed = case_seed(base, i as u64);
                guarded(seed, &tally, || sim_case(seed, ptxas, &tally));
            });
        }
    });
    tally.into_inner().unwrap()
}

#[test]
fn random_kernels_on_the_simulator() {
    let n = env_u64("FERROCUDA_DIFF_KERNELS").unwrap_or(500) as usize;
    let base = env_u64("FERROCUDA_DIFF_BASE").unwrap_or(BASE);
    let ptxas_every = if kernel_testkit::ptxas::require_ptxas().is_some() {
        env_u64("FERROCUDA_DIFF_PTXAS_EVERY").unwrap_or(25) as usize
    } else {
        0
    };
    let t0 = Instant::now();
    let tally = sim_run(base, n, 2, ptxas_every);
    println!("{:.1} s", t0.elapsed().as_secs_f64());
    tally.assert_clean("reference vs simulator");
}

/// Reruns one seed (`FERROCUDA_DIFF_SEED`) and prints its kernel; a no-op without the variable.
#[test]
fn one_seed() {
    let Some(seed) = env_u64("FERROCUDA_DIFF_SEED") else {
        return;
    };
    let case = case_for(seed);
    println!("{}", print::numbered(&case.source));
    // `FERROCUDA_DIFF_PTX=FILE`: the GPU build's PTX (sm_90), to read where the GPU differs.
    if let Some(path) = std::env::var_os("FERROCUDA_DIFF_PTX") {
        let c = backends::compile_for(case.def, 90, false, false).expect("compiles");
        std::fs::write(&path, &c.ptx).expect("writes the PTX");
    }
    let r = reference::run(&case);
    let s = backends::run_sim(&case, case.def);
    match check(&case, &r, "simulator", &s, true) {
        Ok(()) => println!("reference and simulator agree"),
        Err(m) => panic!("{}", report(&case, &m)),
    }
    if let Some(dev) = gpu() {
        let mut slot = backends::GpuSlot::new(&dev, max_bytes()).expect("gpu buffers");
        let g = gpu_outcome(&dev, &mut slot, &case, false, &|p| {
            panic!("another kernel panicked: {p}")
        });
        if let Err(m) = three_way(&case, &r, &s, &g) {
            if let Some(tries) = env_u64("FERROCUDA_DIFF_SHRINK") {
                let small = shrink::shrink(&case, tries as usize, &mut |c| {
                    let r = reference::run(c);
                    let s = backends::run_sim(c, c.def);
                    let g = gpu_outcome(&dev, &mut slot, c, false, &|_| {});
                    check(c, &r, "simulator", &s, true).is_ok() && three_way(c, &r, &s, &g).is_err()
                });
                let r = reference::run(&small);
                let s = backends::run_sim(&small, small.def);
                let g = gpu_outcome(&dev, &mut slot, &small, false, &|_| {});
                let why = three_way(&small, &r, &s, &g).err().unwrap_or_default();
                println!("shrunk to:\n{}\n{why}", shrink::source(&small));
                if let Some(path) = std::env::var_os("FERROCUDA_DIFF_PTX") {
                    let c = backends::compile_for(small.def, 90, false, false).expect("compiles");
                    let mut path = std::path::PathBuf::from(path).into_os_string();
                    path.push(".shrunk");
                    std::fs::write(&path, &c.ptx).expect("writes the PTX");
                }
            }
            panic!("{}", report(&case, &m));
        }
        println!("reference and GPU agree");
    }
}

fn gpu() -> Option<ferrocuda::prelude::Device> {
    match ferrocuda::prelude::Device::cuda(0) {
        Ok(d) => Some(d),
        Err(e) => {
            if std::env::var("FERROCUDA_REQUIRE_GPU").as_deref() == Ok("1") {
                panic!("FERROCUDA_REQUIRE_GPU=1 but no GPU is usable: {e}");
            }
            eprintln!("skipping GPU run: {e}");
            None
        }
    }
}

/// Bytes of the largest parameter of any case (4 warps x 3 blocks, 8-byte elements).
fn max_bytes() -> usize {
    let threads = 128 * 3;
    8 * (threads * gen::SLOTS).max(gen::ATOMIC_SHARED + threads)
}

/// Reference vs simulator (first panicking thread exactly), reference vs GPU (any panicking
/// thread), and simulator vs GPU bit for bit (they run the same IR) except in the slots a math
/// function wrote: there the GPU's approximate units (`ex2.approx`, `rcp.approx`...) and the
/// simulator's model of them may each round differently within the function's documented bound.
fn three_way(case: &Case, r: &RefOutcome, sm: &Outcome, g: &Outcome) -> Result<(), String> {
    check(case, r, "simulator", sm, true)?;
    check(case, r, "GPU", g, false)?;
    same_outcome(case, sm, g)
}

/// Simulator and GPU results of the same compile: equal buffers, or panics at the same site.
fn same_outcome(case: &Case, sm: &Outcome, g: &Outcome) -> Result<(), String> {
    match (sm, g) {
        (Outcome::Done(a), Outcome::Done(b)) => {
            compare::compare_buffers(case, a, b, "simulator", "GPU", true)
        }
        (Outcome::Panicked(p), Outcome::Panicked(q))
            if (&p.kind, p.line, p.col) == (&q.kind, q.line, q.col) =>
        {
            Ok(())
        }
        (Outcome::Failed(m), _) => Err(format!("simulator failed: {m}")),
        (_, Outcome::Failed(m)) => Err(format!("GPU failed: {m}")),
        _ => Err("the simulator and the GPU disagree on whether the kernel panics".into()),
    }
}

/// Loads, runs and reads back one case on the GPU. A kernel panic is returned as the outcome only
/// when it is this kernel's (callers that run several kernels at once collect the others).
fn gpu_outcome(
    dev: &ferrocuda::prelude::Device,
    slot: &mut backends::GpuSlot,
    case: &Case,
    fma: bool,
    foreign: &dyn Fn(ferrocuda::host_runtime::KernelPanic),
) -> Outcome {
    use ferrocuda::host_runtime::Error;
    let loaded = match backends::load(dev, case.def, fma) {
        Ok(l) => l,
        Err(e) => return Outcome::Failed(e),
    };
    match slot.run(case, &loaded.function, foreign) {
        Ok(b) => Outcome::Done(b),
        Err(Error::KernelPanic(p)) => Outcome::Panicked(backends::gpu_panic(&p)),
        Err(e) => Outcome::Failed(format!("{e}")),
    }
}

/// The GPU run: every seed on the GPU, the simulator and the host reference, on all CPU cores.
/// Kernels that can panic run afterwards, one at a time, since a panic is reported by whichever
/// synchronization comes next on the device.
#[test]
#[ignore = "needs a GPU"]
fn random_kernels_on_the_gpu() {
    let Some(dev) = gpu() else { return };
    let n = env_u64("FERROCUDA_DIFF_KERNELS").unwrap_or(10_000) as usize;
    // Under compute-sanitizer (the GPU bundle's sweep) one thread loads, launches and unloads
    // each kernel in turn through the driver's JIT: the tools serialize launches anyway, and
    // sixteen threads loading modules at once, forking ptxas (which `--target-processes all`
    // follows) and setting the environment made the sanitizer itself crash (SIGSEGV within
    // seconds, every tool) where every single-threaded binary ran clean.
    let sanitized = kernel_testkit::sanitizer::under_sanitizer().is_some();
    // The driver JITs one module at a time (measured: 130 ms a kernel with 16 threads loading):
    // with ptxas at hand each thread assembles its own kernels into the runtime's cubin cache,
    // from which `Module::from_compiled` loads them (site tables and all).
    let cache = (!sanitized
        && kernel_testkit::ptxas::require_ptxas().is_some()
        && std::env::var_os("FERROCUDA_CACHE_DIR").is_none())
    .then(|| std::env::temp_dir().join(format!("ferrocuda-diff-{}", std::process::id())));
    if let Some(dir) = &cache {
        std::env::set_var("FERROCUDA_CACHE_DIR", dir);
    }
    let base = env_u64("FERROCUDA_DIFF_BASE").unwrap_or(BASE ^ 0x6e0);
    let threads = match env_u64("FERROCUDA_DIFF_THREADS") {
        Some(t) => (t as usize).max(1),
        None if sanitized => 1,
        None => std::thread::available_parallelism().map_or(4, |n| n.get()),
    };
    let t0 = Instant::now();
    let tally = Mutex::new(Tally::default());
    let deferred = Mutex::new(Vec::new());
    let stray = Mutex::new(Vec::new());
    let fused = AtomicUsize::new(0);
    let next = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..threads {
            // The compiler and the simulator run on these threads: the main thread's stack size,
            // not the 2 MiB default of spawned ones.
            let worker = std::thread::Builder::new().stack_size(WORKER_STACK);
            worker
                .spawn_scoped(s, || {
                    let mut slot = backends::GpuSlot::new(&dev, max_bytes()).expect("gpu buffers");
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= n {
                            break;
                        }
                        let seed = case_seed(base, i as u64);
                        let case = case_for(seed);
                        if case.features.panic_site {
                            deferred.lock().unwrap().push(seed);
                            continue;
                        }
                        let foreign = |p: ferrocuda::host_runtime::KernelPanic| {
                            stray.lock().unwrap().push(p.to_string())
                        };
                        let r = reference::run(&case);
                        let sm = backends::run_sim(&case, case.def);
                        let g = gpu_outcome(&dev, &mut slot, &case, false, &foreign);
                        let mut res = three_way(&case, &r, &sm, &g);
                        // Every fourth kernel also as users build it by default (fma contraction on):
                        // simulator and GPU run the same fused IR, bit for bit.
                        if res.is_ok() && i.is_multiple_of(4) {
                            let sf = backends::run_sim_with(&case, case.def, true);
                            let gf = gpu_outcome(&dev, &mut slot, &case, true, &foreign);
                            res = same_outcome(&case, &sf, &gf)
                                .map_err(|m| format!("with fma contraction: {m}"));
                            fused.fetch_add(1, Ordering::Relaxed);
                        }
                        let mut t = tally.lock().unwrap();
                        t.count(&case, &r);
                        if let Err(m) = res {
                            t.fail(report(&case, &m));
                        }
                        if t.kernels % 1000 == 0 {
                            eprintln!(
                                "{} kernels, {} mismatches, {:.0} s",
                                t.kernels,
                                t.failures.len(),
                                t0.elapsed().as_secs_f64()
                            );
                        }
                    }
                })
                .expect("spawn a worker thread");
        }
    });
    // A kernel that was not expected to panic did, and another thread's synchronization
    // reported it: a failure of that kernel (named `k_SEED`).
    for m in stray.into_inner().unwrap() {
        tally
            .lock()
            .unwrap()
            .fail(format!("unexpected kernel panic: {m}"));
    }
    let deferred = deferred.into_inner().unwrap();
    let mut slot = backends::GpuSlot::new(&dev, max_bytes()).expect("gpu buffers");
    for seed in deferred {
        let case = case_for(seed);
        let r = reference::run(&case);
        let sm = backends::run_sim(&case, case.def);
        let g = gpu_outcome(&dev, &mut slot, &case, false, &|p| {
            tally
                .lock()
                .unwrap()
                .fail(format!("unexpected kernel panic: {p}"))
        });
        let res = three_way(&case, &r, &sm, &g);
        let mut t = tally.lock().unwrap();
        t.count(&case, &r);
        if let Err(m) = res {
            t.fail(report(&case, &m));
        }
    }
    if let Some(dir) = &cache {
        let _ = std::fs::remove_dir_all(dir);
        std::env::remove_var("FERROCUDA_CACHE_DIR");
    }
    let tally = tally.into_inner().unwrap();
    println!(
        "{} on {} in {:.1} s ({threads} threads, {}); {} of them also with fma contraction (simulator vs GPU)",
        tally.summary("reference vs simulator vs GPU"),
        dev.describe(),
        t0.elapsed().as_secs_f64(),
        if cache.is_some() {
            "kernels assembled by ptxas"
        } else {
            "kernels JIT-compiled by the driver"
        },
        fused.into_inner()
    );
    tally.assert_clean("reference vs simulator vs GPU");
}
