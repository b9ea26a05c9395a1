//! Kernel panics reach the host at the next synchronizing call. Its own test binary: a panic is
//! reported at any synchronize on the device, so it must not share a process with other tests.

mod common;

use std::ffi::c_void;

use common::{gpu, kernels, launch_inc, serial};
use host_runtime::{DeviceBuffer, Error, KernelPanic, KernelSliceMut, LaunchConfig, Stream};
use kernel_std::api::Dim3;

fn launch_panic(f: &host_runtime::Function, s: &Stream, victim: u32) {
    let mut v = victim;
    let mut args = [&mut v as *mut u32 as *mut c_void];
    let cfg = LaunchConfig {
        grid: Dim3::new(4, 1, 1),
        block: Dim3::new(64, 1, 1),
        shared_mem_bytes: 0,
    };
    unsafe { f.launch_raw(s, cfg, &mut args) }.unwrap();
}

fn expect_panic(r: host_runtime::Result<impl std::fmt::Debug>, victim: u32) -> KernelPanic {
    match r {
        Err(Error::KernelPanic(p)) => {
            assert_eq!(p.site, 3);
            assert_eq!((p.index, p.len), (victim as u64, 5));
            assert_eq!(p.block, [victim / 64, 0, 0]);
            assert_eq!(p.thread, [victim % 64, 0, 0]);
            assert_eq!(p.kernel, "ptx module");
            *p
        }
        other => panic!("expected a kernel panic, got {other:?}"),
    }
}

#[test]
#[ignore]
fn panicking_thread_is_reported_once_and_the_context_survives() {
    let _g = serial();
    let Some(dev) = gpu() else { return };
    let m = kernels(&dev);
    assert!(m.reports_panics());
    let f = m.function("panic_at").unwrap();
    let s = Stream::new(&dev).unwrap();

    launch_panic(&f, &s, 130);
    let p = expect_panic(s.synchronize(), 130);
    eprintln!("{p}");
    s.synchronize().expect("a panic is reported once");

    // Through the other synchronizing calls.
    launch_panic(&f, &s, 7);
    expect_panic(dev.synchronize(), 7);
    let buf = DeviceBuffer::<u32>::alloc(&dev, 4).unwrap();
    launch_panic(&f, &s, 255);
    expect_panic(buf.to_vec(), 255);

    // No panic: nothing reported. And the context still runs kernels.
    launch_panic(&f, &s, 10_000);
    s.synchronize().unwrap();
    let mut b = DeviceBuffer::upload(&dev, &[1u32, 2, 3]).unwrap();
    launch_inc(&m.function("inc_u32").unwrap(), &s, b.kernel_arg_mut());
    assert_eq!(b.to_vec().unwrap(), vec![2, 3, 4]);
}

#[test]
#[ignore]
fn modules_get_distinct_slots() {
    let _g = serial();
    let Some(dev) = gpu() else { return };
    // Many modules at once (more than one page of slots), then dropped and reloaded.
    let mods: Vec<_> = (0..100).map(|_| kernels(&dev)).collect();
    assert!(mods.iter().all(|m| m.reports_panics()));
    drop(mods);
    let m = kernels(&dev);
    let s = Stream::new(&dev).unwrap();
    launch_panic(&m.function("panic_at").unwrap(), &s, 1);
    expect_panic(s.synchronize(), 1);
}
