//! What every corpus case provides, so one driver can check and time them all: the simulator tests
//! run our kernel at a small size against the CPU reference; `cargo xtask bench corpus` runs ours
//! and the nvcc-built twin at the timed size, checks both, then times them alternately.

use std::ffi::c_void;

use ferrocuda::host_runtime::{Device, DeviceBuffer, Function, LaunchConfig, Stream};
use ferrocuda::kernel_std::api::DeviceType;

use crate::util::Rng;

/// A launch result on the host runtime's error type.
pub type RtResult<T> = ferrocuda::host_runtime::Result<T>;

/// Which build of a kernel: ours (the Rust port) or the CUDA C twin.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Ours,
    Twin,
}

impl Side {
    /// Index into a case's per-side output buffers.
    pub fn ix(self) -> usize {
        match self {
            Side::Ours => 0,
            Side::Twin => 1,
        }
    }
}

/// The problem size a case is set up at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Size {
    /// Small enough for the simulator in a debug build; every output element is checked.
    Sim,
    /// The timed size on a GPU (buffers well above L2); outputs are sample-checked.
    Bench,
}

impl Size {
    /// `sim` at [`Size::Sim`], `bench` at [`Size::Bench`].
    pub fn pick<T>(self, sim: T, bench: T) -> T {
        match self {
            Size::Sim => sim,
            Size::Bench => bench,
        }
    }
}

/// The figure of merit of one run: bytes that must move through device memory (each input read
/// once, each output written once), or floating-point operations, or neither (time only).
#[derive(Clone, Copy, Debug)]
pub enum Work {
    Bytes(f64),
    Flops(f64),
    Time,
}

/// Sets a case up on a device at a size.
pub type Setup = fn(&Device, Size) -> Result<Box<dyn Instance>, String>;

/// One kernel (or pipeline of kernels) of the corpus.
pub struct Case {
    /// Short name, used to select cases (`cargo xtask bench corpus transpose`).
    pub name: &'static str,
    /// The twin's source: `benches/reference/corpus/<file>.cu`.
    pub twin_file: &'static str,
    /// The twin's entry points, in the order `Instance::run_twin` expects them.
    pub twin_entries: &'static [&'static str],
    /// Allocates inputs (random, never zeros) and poisoned outputs for both sides.
    pub setup: Setup,
}

/// A case set up on a device at one size.
pub trait Instance {
    /// The row's name, with the size: `transpose, tiled (8192^2 f32)`.
    fn label(&self) -> String;
    fn work(&self) -> Work;
    /// Enqueues one run of our kernel(s).
    fn run_ours(&mut self, s: &Stream) -> RtResult<()>;
    /// Enqueues one run of the twin, `f` being the entries named by `Case::twin_entries`.
    fn run_twin(&mut self, s: &Stream, f: &[Function]) -> RtResult<()>;
    /// Compares the side's outputs (after one run) with the CPU reference.
    fn check(&self, side: Side) -> Result<(), String>;
}

/// Runs our side once on `dev` and checks it: what the simulator tests do for every case.
pub fn run_and_check(case: &Case, dev: &Device, size: Size) -> Result<(), String> {
    let mut inst = (case.setup)(dev, size)?;
    let s = dev.new_stream().map_err(|e| e.to_string())?;
    inst.run_ours(&s)
        .and_then(|_| s.synchronize())
        .map_err(|e| format!("{}: {e}", case.name))?;
    inst.check(Side::Ours)
        .map_err(|e| format!("{}: {e}", case.name))
}

/// Raw kernel arguments for a twin: one 8-byte slot per parameter (pointers, 32-bit scalars in
/// the low half, as the little-endian ABI reads them).
#[derive(Default)]
pub struct Args(Vec<u64>);

impl Args {
    pub fn new() -> Args {
        Args(Vec::new())
    }
    pub fn buf<T: DeviceType>(mut self, b: &DeviceBuffer<T>) -> Args {
        self.0.push(b.device_ptr());
        self
    }
    pub fn i32(mut self, v: i32) -> Args {
        self.0.push(v as u32 as u64);
        self
    }
    pub fn u32(mut self, v: u32) -> Args {
        self.0.push(v as u64);
        self
    }
    pub fn f32(mut self, v: f32) -> Args {
        self.0.push(v.to_bits() as u64);
        self
    }
    /// Launches `f` with these arguments.
    pub fn launch(mut self, f: &Function, s: &Stream, cfg: LaunchConfig) -> RtResult<()> {
        let mut ptrs: Vec<*mut c_void> = self
            .0
            .iter_mut()
            .map(|v| v as *mut u64 as *mut c_void)
            .collect();
        // SAFETY: each twin's parameter list is mirrored by its case's `Args` (same order, each a
        // pointer or a 4-byte scalar read from the slot's low half); the buffers outlive the work.
        unsafe { f.launch_raw(s, cfg, &mut ptrs) }
    }
}

/// A 1-D launch of `n` threads in blocks of `block`.
pub fn grid_1d(n: usize, block: u32) -> LaunchConfig {
    LaunchConfig::for_elements(n, block)
}

/// A 2-D launch covering `w` x `h` with blocks of `bx` x `by`.
pub fn grid_2d(w: usize, h: usize, bx: u32, by: u32) -> LaunchConfig {
    LaunchConfig {
        grid: ferrocuda::kernel_std::api::Dim3::new(
            w.div_ceil(bx as usize) as u32,
            h.div_ceil(by as usize) as u32,
            1,
        ),
        block: ferrocuda::kernel_std::api::Dim3::new(bx, by, 1),
        shared_mem_bytes: 0,
        attrs: Default::default(),
    }
}

/// Uploads `v`, mapping the error to a string.
pub fn up<T: DeviceType>(dev: &Device, v: &[T]) -> Result<DeviceBuffer<T>, String> {
    dev.upload(v).map_err(|e| e.to_string())
}

/// Two poisoned (NaN) output buffers of `n` floats, one per side.
pub fn poisoned(dev: &Device, n: usize) -> Result<[DeviceBuffer<f32>; 2], String> {
    let nan = vec![f32::NAN; n];
    Ok([up(dev, &nan)?, up(dev, &nan)?])
}

/// Downloads a buffer, mapping the error to a string.
pub fn down<T: DeviceType>(b: &DeviceBuffer<T>) -> Result<Vec<T>, String> {
    b.to_vec().map_err(|e| e.to_string())
}

/// The output elements to compare: all of them at [`Size::Sim`], else the first and last 1024
/// and 60 000 random ones (so references that cost O(n) per element stay cheap).
pub fn sample(n: usize, size: Size) -> Vec<usize> {
    if size == Size::Sim || n <= 65_536 {
        return (0..n).collect();
    }
    let mut rng = Rng::new(n as u64 ^ 0x5eed);
    let mut v: Vec<usize> = (0..1024).chain(n - 1024..n).collect();
    v.extend((0..60_000).map(|_| (rng.next_u64() % n as u64) as usize));
    v
}

/// `|got - want| <= abs + rel * |want|` at every index of `idx`; NaN never passes. Err names the
/// first failing element.
pub fn close(
    what: &str,
    got: &[f32],
    idx: &[usize],
    want: impl Fn(usize) -> f64,
    rel: f64,
    abs: f64,
) -> Result<(), String> {
    for &i in idx {
        let (g, w) = (got[i] as f64, want(i));
        if !(g - w).abs().le(&(abs + rel * w.abs())) {
            return Err(format!("{what}: element {i} is {g}, expected {w}"));
        }
    }
    Ok(())
}

/// Exact comparison at every index of `idx`.
pub fn equal<T: PartialEq + std::fmt::Debug>(
    what: &str,
    got: &[T],
    idx: &[usize],
    want: impl Fn(usize) -> T,
) -> Result<(), String> {
    for &i in idx {
        let w = want(i);
        if got[i] != w {
            return Err(format!(
                "{what}: element {i} is {:?}, expected {w:?}",
                got[i]
            ));
        }
    }
    Ok(())
}

/// Uniform floats in `[lo, hi)`.
pub fn uniform(rng: &mut Rng, n: usize, lo: f32, hi: f32) -> Vec<f32> {
    (0..n)
        .map(|_| lo + (hi - lo) * (rng.f32() * 0.5 + 0.5))
        .collect()
}
