//! Streams, events and host callbacks. Run on a GPU with `--ignored`.

mod common;

use std::sync::{Arc, Mutex};

use common::{cycles_for_ms, gpu, kernels, launch_spin, serial};
use host_runtime::{
    DeviceBuffer, Error, Event, EventFlags, PinnedBuffer, PinnedFlags, Stream, StreamOptions,
};
use kernel_testkit::sanitizer::skip_timing;

#[test]
#[ignore]
fn copy_overlaps_kernel_on_another_stream() {
    let _g = serial();
    let Some(dev) = gpu() else { return };
    if dev.properties().async_engine_count == 0 {
        eprintln!("no copy engine; skipping");
        return;
    }
    let module = kernels(&dev);
    let spin = module.function("spin").unwrap();
    let opts = StreamOptions {
        non_blocking: true,
        priority: 0,
    };
    let (s1, s2) = (
        Stream::with_options(&dev, opts).unwrap(),
        Stream::with_options(&dev, opts).unwrap(),
    );
    let n = 64 << 20; // 256 MiB of u32
    let src = PinnedBuffer::<u32>::new(&dev, n, PinnedFlags::default()).unwrap();
    let mut dst = DeviceBuffer::<u32>::alloc(&dev, n).unwrap();

    let (_, t_copy) = s2
        .time(|s| unsafe { src.copy_to_device_async(&mut dst, s) })
        .unwrap();
    let cycles = cycles_for_ms(&dev, &spin, (t_copy * 2.0).max(10.0));
    let (_, t_kernel) = s1
        .time(|s| {
            common::launch_spin(&spin, s, cycles);
            Ok(())
        })
        .unwrap();

    let start = Event::new(&dev, EventFlags::TIMING).unwrap();
    let k_end = Event::new(&dev, EventFlags::TIMING).unwrap();
    let c_end = Event::new(&dev, EventFlags::TIMING).unwrap();
    start.record(&s1).unwrap();
    s2.wait_event(&start).unwrap();
    launch_spin(&spin, &s1, cycles);
    unsafe { src.copy_to_device_async(&mut dst, &s2).unwrap() };
    k_end.record(&s1).unwrap();
    c_end.record(&s2).unwrap();
    s1.synchronize().unwrap();
    s2.synchronize().unwrap();
    let (tk, tc) = (
        start.elapsed_ms(&k_end).unwrap(),
        start.elapsed_ms(&c_end).unwrap(),
    );
    let total = tk.max(tc);
    eprintln!(
        "copy alone {t_copy:.2} ms, kernel alone {t_kernel:.2} ms, together {total:.2} ms \
         (copy done at {tc:.2} ms)"
    );
    // compute-sanitizer serializes copies and kernels: nothing overlaps there.
    if skip_timing(
        "copy_overlaps_kernel_on_another_stream",
        "overlap of a copy and a kernel",
    ) {
        return;
    }
    assert!(
        tc < tk,
        "the copy should finish while the kernel still runs"
    );
    assert!(
        total < t_kernel + 0.5 * t_copy,
        "no overlap: {total} vs {t_kernel} + {t_copy}"
    );
}

#[test]
#[ignore]
fn events_time_and_query() {
    let _g = serial();
    let Some(dev) = gpu() else { return };
    let module = kernels(&dev);
    let spin = module.function("spin").unwrap();
    let s = Stream::new(&dev).unwrap();
    let cycles = cycles_for_ms(&dev, &spin, 20.0);
    let (r, ms) = s
        .time(|s| {
            launch_spin(&spin, s, cycles);
            Ok(42)
        })
        .unwrap();
    assert_eq!(r, 42);
    assert!((10.0..60.0).contains(&ms), "a 20 ms spin measured {ms} ms");

    let e = Event::new(
        &dev,
        EventFlags {
            blocking_sync: true,
            ..Default::default()
        },
    )
    .unwrap();
    launch_spin(&spin, &s, cycles);
    e.record(&s).unwrap();
    assert!(!e.query().unwrap(), "the spin is still running");
    assert!(!s.query().unwrap());
    e.synchronize().unwrap();
    assert!(e.query().unwrap());
    assert!(s.query().unwrap());

    let a = Event::new(&dev, EventFlags::NO_TIMING).unwrap();
    let b = Event::new(&dev, EventFlags::NO_TIMING).unwrap();
    a.record(&s).unwrap();
    b.record(&s).unwrap();
    s.synchronize().unwrap();
    assert!(matches!(a.elapsed_ms(&b), Err(Error::InvalidValue(_))));
}

#[test]
#[ignore]
fn callbacks_run_in_stream_order() {
    let _g = serial();
    let Some(dev) = gpu() else { return };
    let module = kernels(&dev);
    let spin = module.function("spin").unwrap();
    let s = Stream::new(&dev).unwrap();
    let log = Arc::new(Mutex::new(Vec::new()));
    for i in 0..10 {
        launch_spin(&spin, &s, 100_000);
        let l = log.clone();
        s.launch_host_fn(move || l.lock().unwrap().push(i)).unwrap();
    }
    s.synchronize().unwrap();
    assert_eq!(*log.lock().unwrap(), (0..10).collect::<Vec<_>>());

    // Across streams through an event: s2's callback waits for s1's.
    let s2 = Stream::new(&dev).unwrap();
    let order = Arc::new(Mutex::new(Vec::new()));
    let e = Event::new(&dev, EventFlags::NO_TIMING).unwrap();
    launch_spin(&spin, &s, cycles_for_ms(&dev, &spin, 5.0));
    let o = order.clone();
    s.launch_host_fn(move || o.lock().unwrap().push("s1"))
        .unwrap();
    e.record(&s).unwrap();
    s2.wait_event(&e).unwrap();
    let o = order.clone();
    s2.launch_host_fn(move || o.lock().unwrap().push("s2"))
        .unwrap();
    s2.synchronize().unwrap();
    s.synchronize().unwrap();
    assert_eq!(*order.lock().unwrap(), vec!["s1", "s2"]);
}

#[test]
#[ignore]
fn panicking_callback_is_reported_at_the_next_sync() {
    let _g = serial();
    let Some(dev) = gpu() else { return };
    let s = Stream::new(&dev).unwrap();
    let ran = Arc::new(Mutex::new(false));
    s.launch_host_fn(|| panic!("callback boom")).unwrap();
    let r = ran.clone();
    s.launch_host_fn(move || *r.lock().unwrap() = true).unwrap();
    match s.synchronize() {
        Err(Error::CallbackPanic { message }) => assert_eq!(message, "callback boom"),
        other => panic!("expected CallbackPanic, got {other:?}"),
    }
    assert!(*ran.lock().unwrap(), "later callbacks still run");
    s.synchronize().unwrap();
}

#[test]
#[ignore]
fn stream_priorities_and_flags() {
    let _g = serial();
    let Some(dev) = gpu() else { return };
    let (least, greatest) = dev.stream_priority_range().unwrap();
    assert!(greatest <= least);
    for priority in [least, greatest] {
        let s = Stream::with_options(
            &dev,
            StreamOptions {
                non_blocking: true,
                priority,
            },
        )
        .unwrap();
        s.synchronize().unwrap();
        assert!(s.query().unwrap());
    }
}
