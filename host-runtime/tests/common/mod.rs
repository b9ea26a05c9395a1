//! Shared helpers of the GPU tests: device acquisition that skips cleanly without a GPU, and the
//! hand-written PTX kernels (embedded at compile time, so the test binaries need no source files).

#![allow(dead_code)]

use std::ffi::c_void;

use host_runtime::{Device, Function, LaunchConfig, Module, SliceArg, Stream};

/// The PTX of every raw test kernel (`empty`, `inc_u32`, `spin`, `panic_at`, `touch_dyn_smem`,
/// `bad_store`).
pub const KERNELS_PTX: &str = include_str!("ptx_kernels.ptx");

/// CUDA device 0, or `None` (after printing why) when there is no driver or GPU. With
/// `FERROCUDA_REQUIRE_GPU=1` a missing GPU fails the test instead.
pub fn gpu() -> Option<Device> {
    match Device::new(0) {
        Ok(d) => Some(d),
        Err(e) => {
            if std::env::var("FERROCUDA_REQUIRE_GPU").as_deref() == Ok("1") {
                panic!("FERROCUDA_REQUIRE_GPU=1 but no GPU is usable: {e}");
            }
            eprintln!("skipping GPU test: {e}");
            None
        }
    }
}

/// The test kernels loaded on `dev`.
pub fn kernels(dev: &Device) -> Module {
    Module::from_ptx(dev, KERNELS_PTX).expect("test PTX loads")
}

/// `x[i] += 1` for every element of the slice `arg`.
pub fn launch_inc(f: &Function, s: &Stream, arg: SliceArg) {
    let mut a = arg;
    let mut args = [&mut a as *mut SliceArg as *mut c_void];
    let cfg = LaunchConfig::for_elements(arg.len as usize, 256);
    unsafe { f.launch_raw(s, cfg, &mut args) }.expect("inc_u32 launches");
}

/// Spins one thread for `cycles` clock cycles.
pub fn launch_spin(f: &Function, s: &Stream, cycles: u64) {
    let mut c = cycles;
    let mut args = [&mut c as *mut u64 as *mut c_void];
    unsafe { f.launch_raw(s, LaunchConfig::for_elements(1, 1), &mut args) }.expect("spin launches");
}

/// Serializes the tests of one binary that measure time (the harness runs tests on threads).
pub fn serial() -> std::sync::MutexGuard<'static, ()> {
    static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

/// Clock cycles `spin` needs to run for about `ms` milliseconds on `dev`.
pub fn cycles_for_ms(dev: &Device, spin: &Function, ms: f32) -> u64 {
    let s = Stream::new(dev).unwrap();
    let probe = 10_000_000u64;
    launch_spin(spin, &s, probe); // warm-up
    let (_, t) = s
        .time(|s| {
            launch_spin(spin, s, probe);
            Ok(())
        })
        .unwrap();
    ((probe as f64) * (ms as f64) / (t.max(1e-3) as f64)) as u64
}
