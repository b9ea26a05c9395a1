//! Kernel panics reach the host at the next synchronize of the stream that ran the kernel (or of
//! the device, or a copy to the host). Its own test binary: device-wide calls report a panic of any
//! stream, so these tests must not share a process with others.

mod common;

use std::ffi::c_void;

use common::{gpu, kernels, launch_inc, serial};
use host_runtime::{
    DeviceBuffer, Error, Event, EventFlags, KernelPanic, KernelSliceMut, LaunchConfig, Stream,
    StreamOptions,
};
use kernel_std::api::Dim3;

fn launch_panic(f: &host_runtime::Function, s: &Stream, victim: u32) {
    let mut v = victim;
    let mut args = [&mut v as *mut u32 as *mut c_void];
    let cfg = LaunchConfig {
        grid: Dim3::new(4, 1, 1),
        block: Dim3::new(64, 1, 1),
        shared_mem_bytes: 0,
        attrs: Default::default(),
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
fn streams_get_distinct_slots_and_modules_distinct_ids() {
    let _g = serial();
    let Some(dev) = gpu() else { return };
    // More streams than one page of slots, and many modules loaded, dropped and reloaded.
    let streams: Vec<_> = (0..100).map(|_| Stream::new(&dev).unwrap()).collect();
    let mods: Vec<_> = (0..100).map(|_| kernels(&dev)).collect();
    assert!(mods.iter().all(|m| m.reports_panics()));
    drop(mods);
    let m = kernels(&dev);
    let f = m.function("panic_at").unwrap();
    for (i, s) in streams.iter().enumerate() {
        launch_panic(&f, s, i as u32);
    }
    for (i, s) in streams.iter().enumerate() {
        expect_panic(s.synchronize(), i as u32);
    }
    dev.synchronize().unwrap();
}

fn non_blocking(dev: &host_runtime::Device) -> Stream {
    Stream::with_options(
        dev,
        StreamOptions {
            non_blocking: true,
            priority: 0,
        },
    )
    .unwrap()
}

/// A panic on one non-blocking stream is reported by that stream's synchronize (or an event
/// recorded on it), once, and never by another stream's.
#[test]
#[ignore]
fn a_panic_is_reported_on_its_own_stream_once() {
    let _g = serial();
    let Some(dev) = gpu() else { return };
    let m = kernels(&dev);
    let f = m.function("panic_at").unwrap();
    let (a, b) = (non_blocking(&dev), non_blocking(&dev));
    launch_panic(&f, &a, 17);
    launch_panic(&f, &b, 100_000); // no thread panics
                                   // Wait for a's kernel with the raw driver call (which reports nothing), so that a's record is
                                   // written before b synchronizes: a per-device record would be reported by b.
    let r = unsafe { cudarc::driver::sys::cuStreamSynchronize(a.raw()) };
    assert_eq!(r, cudarc::driver::sys::CUresult::CUDA_SUCCESS);
    b.synchronize()
        .expect("b's kernel did not panic; a's panic is not b's");
    expect_panic(a.synchronize(), 17);
    a.synchronize().expect("reported once");
    dev.synchronize().expect("and not again by the device");

    // Both streams panic: each reports its own thread.
    launch_panic(&f, &a, 5);
    launch_panic(&f, &b, 6);
    expect_panic(b.synchronize(), 6);
    expect_panic(a.synchronize(), 5);

    // An event synchronize reports the panic of the stream it was recorded on.
    launch_panic(&f, &b, 9);
    let e = Event::new(&dev, EventFlags::NO_TIMING).unwrap();
    e.record(&b).unwrap();
    expect_panic(e.synchronize(), 9);
    b.synchronize().unwrap();
}

/// A stream dropped with a panicking kernel still queued: the device's synchronize reports it, and
/// the slot is recycled for new streams only after that.
#[test]
#[ignore]
fn a_dropped_streams_panic_is_reported_by_the_device() {
    let _g = serial();
    let Some(dev) = gpu() else { return };
    let m = kernels(&dev);
    let f = m.function("panic_at").unwrap();
    let spin = m.function("spin").unwrap();
    let s = non_blocking(&dev);
    common::launch_spin(&spin, &s, common::cycles_for_ms(&dev, &spin, 20.0));
    launch_panic(&f, &s, 42);
    drop(s);
    // A new stream while the old one's work still runs gets another slot.
    let t = non_blocking(&dev);
    launch_panic(&f, &t, 100_000);
    t.synchronize().unwrap();
    expect_panic(dev.synchronize(), 42);
    dev.synchronize().unwrap();
    launch_panic(&f, &t, 3);
    expect_panic(t.synchronize(), 3);
}

/// The examples' transpose with an input shorter than `w * h`: a bounds panic inside a tiled,
/// shared-memory kernel (what compute-sanitizer's memcheck used to refuse, because the report was
/// published with a system-scope atomic on mapped memory). Run under the sanitizer by the GPU
/// bundle's sanitizer pass.
#[test]
#[ignore]
fn examples_transpose_short_input_panics_cleanly() {
    let _g = serial();
    let Some(dev) = gpu() else { return };
    ferrocuda_examples::transpose::check_short_input(&dev).unwrap();
    // The context survives: the next launch and copy work.
    dev.synchronize().unwrap();
    let b = DeviceBuffer::upload(&dev, &[1u32, 2, 3]).unwrap();
    assert_eq!(b.to_vec().unwrap(), vec![1, 2, 3]);
}
