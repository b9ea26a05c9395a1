//! The simulator arm of `Device`, GPU-less: generated launchers, the kernel cache, buffers,
//! streams, events and kernel panics reported at the next synchronizing call, as on a GPU.

use std::sync::{Arc, Mutex};

use ferrocuda::prelude::*;
use host_runtime::StreamOptions;
use host_runtime::{
    compiled_kernel, BackendKind, InstanceKey, LaunchError, ManagedBuffer, MemPool, Module,
    PinnedBuffer, PinnedFlags, PitchedBuffer,
};
use kernel_ir::ir::PanicKind;

#[kernel]
pub fn saxpy(a: f32, x: &[f32], y: &mut [f32]) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    if i < y.len() {
        y[i] = a * x[i] + y[i];
    }
}

#[kernel]
pub fn shift_left(x: &[u32], y: &mut [u32]) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    if i < y.len() {
        y[i] = x[i + 1];
    }
}

#[kernel]
pub fn fill<T: DeviceType>(v: T, y: &mut [T]) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    if i < y.len() {
        y[i] = v;
    }
}

fn line_of(needle: &str) -> u32 {
    let src = include_str!("sim_backend.rs");
    src.lines()
        .position(|l| l.trim() == needle)
        .expect("line in this file") as u32
        + 1
}

#[test]
fn saxpy_runs_on_the_simulator() {
    let dev = Device::simulator();
    assert_eq!(dev.backend(), BackendKind::Sim);
    assert!(dev.describe().contains("simulator"));
    let n = 1000;
    let x: Vec<f32> = (0..n).map(|i| i as f32 * 0.25).collect();
    let y0: Vec<f32> = (0..n).map(|i| 3.0 - i as f32).collect();
    let s = dev.new_stream().unwrap();
    let dx = dev.upload(&x).unwrap();
    let mut dy = dev.upload(&y0).unwrap();
    saxpy::launch(&s, LaunchConfig::for_elements(n, 128), 2.0, &dx, &mut dy).unwrap();
    let want: Vec<f32> = x
        .iter()
        .zip(&y0)
        .map(|(x, y)| 2.0f32.mul_add(*x, *y))
        .collect();
    assert_eq!(dy.to_vec().unwrap(), want);

    // Views restrict the kernel; the cached instantiation is reused.
    saxpy::launch(
        &s,
        LaunchConfig::for_elements(10, 32),
        1.0,
        &dx.view(0..10).unwrap(),
        &mut dy.view_mut(5..15).unwrap(),
    )
    .unwrap();
    let got = dy.to_vec().unwrap();
    assert_eq!(got[4], want[4]);
    assert_eq!(got[5], 1.0f32.mul_add(x[0], want[5]));
    assert_eq!(got[14], 1.0f32.mul_add(x[9], want[14]));
    assert_eq!(got[15], want[15]);
}

#[test]
fn generic_instantiations_on_the_simulator() {
    let dev = Device::simulator();
    let s = dev.new_stream().unwrap();
    let mut a = dev.alloc_zeroed::<f32>(100).unwrap();
    let mut b = dev.alloc_zeroed::<i64>(100).unwrap();
    for _ in 0..2 {
        fill::launch(&s, LaunchConfig::for_elements(100, 64), -0.5f32, &mut a).unwrap();
        fill::launch(&s, LaunchConfig::for_elements(100, 64), i64::MIN, &mut b).unwrap();
    }
    assert_eq!(a.to_vec().unwrap(), vec![-0.5; 100]);
    assert_eq!(b.to_vec().unwrap(), vec![i64::MIN; 100]);
}

#[test]
fn kernel_panic_is_reported_at_the_next_sync_once() {
    let dev = Device::simulator();
    let s = dev.new_stream().unwrap();
    let n = 300usize;
    let x = dev.upload(&(0..n as u32).collect::<Vec<_>>()).unwrap();
    let mut y = dev.alloc_zeroed::<u32>(n).unwrap();
    shift_left::launch(&s, LaunchConfig::for_elements(n, 128), &x, &mut y).unwrap();
    let p = match s.synchronize() {
        Err(Error::KernelPanic(p)) => p,
        other => panic!("expected a kernel panic, got {other:?}"),
    };
    assert!(p.kernel.contains("shift_left"), "{}", p.kernel);
    assert!(p.file.ends_with("sim_backend.rs"), "{}", p.file);
    assert_eq!(p.line, line_of("y[i] = x[i + 1];"));
    assert_eq!(p.kind, Some(PanicKind::Bounds));
    assert_eq!((p.index, p.len), (n as u64, n as u64));
    assert_eq!(p.block, [2, 0, 0]);
    assert_eq!(p.thread, [(n as u32 - 1) % 128, 0, 0]);
    assert_eq!(
        p.message,
        "index out of bounds: the len is 300 but the index is 300"
    );
    s.synchronize().expect("reported once");
    dev.synchronize().unwrap();

    // Reads report it too.
    shift_left::launch(&s, LaunchConfig::for_elements(n, 128), &x, &mut y).unwrap();
    assert!(matches!(y.to_vec(), Err(Error::KernelPanic(_))));
    assert!(y.to_vec().is_ok());
}

/// A panic belongs to the stream that ran the kernel: another stream's synchronize does not see
/// (or consume) it; the right stream's, an event recorded on it, or the device's reports it, once.
#[test]
fn kernel_panic_is_reported_on_its_own_stream() {
    let dev = Device::simulator();
    let opts = StreamOptions {
        non_blocking: true,
        priority: 0,
    };
    let (a, b) = (
        Stream::with_options(&dev, opts).unwrap(),
        Stream::with_options(&dev, opts).unwrap(),
    );
    let n = 64usize;
    let x = dev.upload(&vec![1u32; n]).unwrap();
    let mut y = dev.alloc_zeroed::<u32>(n).unwrap();
    let mut z = dev.alloc_zeroed::<u32>(n).unwrap();
    shift_left::launch(&a, LaunchConfig::for_elements(n, 32), &x, &mut y).unwrap();
    fill::launch(&b, LaunchConfig::for_elements(n, 32), 7u32, &mut z).unwrap();
    b.synchronize().expect("b's kernel did not panic");
    assert!(matches!(a.synchronize(), Err(Error::KernelPanic(_))));
    a.synchronize().expect("reported once");
    dev.synchronize().expect("and not again by the device");

    // Through an event recorded on the panicking stream.
    let e = Event::new(&dev, EventFlags::NO_TIMING).unwrap();
    shift_left::launch(&a, LaunchConfig::for_elements(n, 32), &x, &mut y).unwrap();
    e.record(&b).unwrap();
    e.synchronize().expect("recorded on b");
    e.record(&a).unwrap();
    assert!(matches!(e.synchronize(), Err(Error::KernelPanic(_))));
    a.synchronize().unwrap();

    // Panics on two streams: each stream reports its own; a device synchronize any one.
    shift_left::launch(&a, LaunchConfig::for_elements(n, 32), &x, &mut y).unwrap();
    shift_left::launch(&b, LaunchConfig::for_elements(n, 32), &x, &mut z).unwrap();
    assert!(matches!(dev.synchronize(), Err(Error::KernelPanic(_))));
    assert!(matches!(dev.synchronize(), Err(Error::KernelPanic(_))));
    dev.synchronize().unwrap();
    a.synchronize().unwrap();
    b.synchronize().unwrap();
}

#[test]
fn launches_are_validated() {
    let dev = Device::simulator();
    let s = dev.new_stream().unwrap();
    let mut y = dev.alloc_zeroed::<f32>(4).unwrap();
    let cfg = LaunchConfig {
        grid: Dim3::new(1, 1, 1),
        block: Dim3::new(64, 32, 1),
        shared_mem_bytes: 0,
        attrs: Default::default(),
    };
    let e = fill::launch(&s, cfg, 1.0f32, &mut y).unwrap_err();
    assert!(
        matches!(
            e,
            Error::InvalidLaunch(LaunchError::TooManyThreads { threads: 2048, .. })
        ),
        "{e}"
    );
    let zero = LaunchConfig {
        grid: Dim3::new(0, 1, 1),
        ..LaunchConfig::for_elements(4, 4)
    };
    assert!(matches!(
        fill::launch(&s, zero, 1.0f32, &mut y),
        Err(Error::InvalidLaunch(LaunchError::ZeroGrid { .. }))
    ));
    // 2^40 + 1280 elements need 2^32 + 5 blocks of 256: the grid used to wrap to 5 and the launch
    // ran, covering 1280 elements. Now it never wraps, so the launch is refused.
    let huge = LaunchConfig::for_elements((1 << 40) + 1280, 256);
    assert!(matches!(
        fill::launch(&s, huge, 1.0f32, &mut y),
        Err(Error::InvalidLaunch(LaunchError::GridDimTooLarge {
            axis: 'x',
            ..
        }))
    ));
}

#[test]
fn buffers_round_trip_on_the_simulator() {
    let dev = Device::simulator();
    let s = dev.new_stream().unwrap();
    let data: Vec<u32> = (0..77).collect();
    let mut a = dev.upload(&data).unwrap();
    assert_eq!(a.to_vec().unwrap(), data);
    let mut b = dev.alloc_zeroed::<u32>(77).unwrap();
    b.copy_from(&a).unwrap();
    assert_eq!(b.to_vec().unwrap(), data);
    a.fill(0xdead_beef).unwrap();
    assert_eq!(a.to_vec().unwrap(), vec![0xdead_beef; 77]);
    let mut h = dev.alloc_zeroed::<u16>(3).unwrap();
    h.fill(0x1234).unwrap();
    assert_eq!(h.to_vec().unwrap(), vec![0x1234; 3]);
    let mut w = dev.alloc_zeroed::<[u8; 3]>(2).unwrap();
    w.fill([1, 2, 3]).unwrap();
    assert_eq!(w.to_vec().unwrap(), vec![[1, 2, 3]; 2]);
    b.memset(0xff).unwrap();
    assert_eq!(b.to_vec().unwrap(), vec![u32::MAX; 77]);
    b.view_mut(70..).unwrap().copy_from_host(&[1; 7]).unwrap();
    assert_eq!(
        b.view(69..).unwrap().to_vec().unwrap(),
        [vec![u32::MAX], vec![1; 7]].concat()
    );
    assert!(matches!(b.view(70..78), Err(Error::OutOfRange { .. })));
    assert!(matches!(
        b.copy_from_host(&[1]),
        Err(Error::LengthMismatch { .. })
    ));

    let mut c = DeviceBuffer::<u32>::alloc_async(&s, 77).unwrap();
    c.copy_from_async(&a, &s).unwrap();
    let mut host = vec![0u32; 77];
    unsafe { c.copy_to_host_async(&mut host, &s).unwrap() };
    s.synchronize().unwrap();
    assert_eq!(host, vec![0xdead_beef; 77]);
    unsafe { c.copy_from_host_async(&data, &s).unwrap() };
    assert_eq!(c.to_vec().unwrap(), data);

    let other = Device::simulator();
    assert!(matches!(
        b.copy_from(&other.upload(&data).unwrap()),
        Err(Error::WrongDevice)
    ));
}

#[test]
fn streams_events_and_callbacks_on_the_simulator() {
    let dev = Device::simulator();
    let s = dev.new_stream().unwrap();
    let log = Arc::new(Mutex::new(Vec::new()));
    for i in 0..5 {
        let l = log.clone();
        s.launch_host_fn(move || l.lock().unwrap().push(i)).unwrap();
    }
    s.synchronize().unwrap();
    assert_eq!(*log.lock().unwrap(), vec![0, 1, 2, 3, 4]);
    s.launch_host_fn(|| panic!("sim callback")).unwrap();
    assert!(
        matches!(s.synchronize(), Err(Error::CallbackPanic { message }) if message == "sim callback")
    );
    s.synchronize().unwrap();

    let mut y = dev.alloc_zeroed::<f32>(1 << 12).unwrap();
    let (v, ms) = s
        .time(|s| {
            fill::launch(s, LaunchConfig::for_elements(1 << 12, 256), 2.0f32, &mut y)?;
            Ok(7)
        })
        .unwrap();
    assert_eq!(v, 7);
    assert!(ms >= 0.0);
    let e = Event::new(&dev, EventFlags::NO_TIMING).unwrap();
    e.record(&s).unwrap();
    assert!(e.query().unwrap() && s.query().unwrap());
    s.wait_event(&e).unwrap();
    let never = Event::new(&dev, EventFlags::TIMING).unwrap();
    assert!(matches!(
        never.elapsed_ms(&never),
        Err(Error::InvalidValue(_))
    ));
    assert!(matches!(
        Stream::new(&Device::simulator()).unwrap().wait_event(&e),
        Err(Error::WrongDevice)
    ));
}

#[test]
fn driver_only_facilities_say_so() {
    let dev = Device::simulator();
    assert!(matches!(
        Module::from_ptx(&dev, ".version 8.0"),
        Err(Error::Unsupported(_))
    ));
    let mapped = PinnedFlags {
        mapped: true,
        ..PinnedFlags::default()
    };
    assert!(matches!(
        PinnedBuffer::<f32>::new(&dev, 4, mapped),
        Err(Error::Unsupported(_))
    ));
    assert!(matches!(MemPool::new(&dev), Err(Error::Unsupported(_))));
    assert!(matches!(dev.memory_info(), Err(Error::Unsupported(_))));
    dev.recover().unwrap();
    assert_eq!(dev.stream_priority_range().unwrap(), (0, 0));
}

#[test]
fn compiled_kernels_are_shared_with_tools() {
    let dev = Device::simulator();
    let c = compiled_kernel(&dev, &saxpy::KERNEL, &InstanceKey::EMPTY, &Vec::new, None).unwrap();
    assert_eq!(c.kernel.params.len(), 3);
    assert!(c.ptx.contains(".entry"));
    assert!(matches!(
        host_runtime::kernel_function(&dev, &saxpy::KERNEL, &InstanceKey::EMPTY, &Vec::new, None),
        Err(Error::Unsupported(_))
    ));
}

#[test]
fn backend_env_var_selects_the_simulator() {
    // SAFETY: no other test of this binary reads the variable.
    unsafe { std::env::set_var("FERROCUDA_BACKEND", "sim") };
    assert_eq!(Device::default().unwrap().backend(), BackendKind::Sim);
    unsafe { std::env::set_var("FERROCUDA_BACKEND", "cuda") };
    if std::env::var_os("FERROCUDA_REQUIRE_GPU").is_none() && Device::count().is_err() {
        // Forcing CUDA without a driver is an error, not a silent simulator.
        assert!(matches!(Device::default(), Err(Error::NoDriver)));
    }
    unsafe { std::env::remove_var("FERROCUDA_BACKEND") };
    if Device::count().is_err() {
        assert_eq!(Device::default().unwrap().backend(), BackendKind::Sim);
    }
    unsafe { std::env::set_var("FERROCUDA_BACKEND", "gpu") };
    assert!(matches!(Device::default(), Err(Error::InvalidValue(_))));
    unsafe { std::env::remove_var("FERROCUDA_BACKEND") };
}

#[test]
fn managed_memory_is_shared_by_host_and_kernels_on_the_simulator() {
    let dev = Device::simulator();
    assert!(dev.properties().managed_memory);
    let s = dev.new_stream().unwrap();
    let n = 300;
    let mut x = ManagedBuffer::<f32>::new(&dev, n).unwrap();
    let mut y = ManagedBuffer::<f32>::new(&dev, n).unwrap();
    assert!(x.as_slice().unwrap().iter().all(|v| *v == 0.0));
    for (i, v) in x.as_mut_slice().unwrap().iter_mut().enumerate() {
        *v = i as f32;
    }
    y.as_mut_slice().unwrap().fill(1.0);
    y.prefetch(host_runtime::Location::Device, &s).unwrap();
    y.advise(host_runtime::Advice::SetReadMostly).unwrap();
    saxpy::launch(&s, LaunchConfig::for_elements(n, 128), 3.0, &x, &mut y).unwrap();
    s.synchronize().unwrap();
    let got = y.as_slice().unwrap();
    assert!(got
        .iter()
        .enumerate()
        .all(|(i, v)| *v == 3.0f32.mul_add(i as f32, 1.0)));
    // Element types of every alignment, and empty buffers.
    let mut w = ManagedBuffer::<f64>::new(&dev, 3).unwrap();
    w.as_mut_slice().unwrap()[2] = 2.5;
    assert_eq!(w.as_slice().unwrap(), &[0.0, 0.0, 2.5]);
    assert!(ManagedBuffer::<u8>::new(&dev, 0)
        .unwrap()
        .as_slice()
        .unwrap()
        .is_empty());
}

#[test]
fn page_locked_memory_is_host_memory_on_the_simulator() {
    let dev = Device::simulator();
    let s = dev.new_stream().unwrap();
    let data: Vec<u32> = (0..1000).collect();
    let src = PinnedBuffer::from_slice(&dev, &data, PinnedFlags::default()).unwrap();
    assert_eq!(src.device_ptr(), None);
    let mut d = dev.alloc_zeroed::<u32>(1000).unwrap();
    let mut back = PinnedBuffer::<u32>::new(&dev, 1000, PinnedFlags::default()).unwrap();
    assert!(back.iter().all(|v| *v == 0));
    unsafe {
        src.copy_to_device_async(&mut d, &s).unwrap();
        back.copy_from_device_async(&d, &s).unwrap();
    }
    s.synchronize().unwrap();
    assert_eq!(&back[..], &data[..]);
    assert!(PinnedBuffer::<u64>::new(&dev, 0, PinnedFlags::default())
        .unwrap()
        .is_empty());
    let mut host = vec![5u16; 10];
    let reg = host_runtime::RegisteredHost::new(&dev, &mut host, PinnedFlags::default()).unwrap();
    assert_eq!(reg.len(), 10);
}

#[kernel]
pub fn bump_rows(a: &mut [u16], width: u32, pitch: u32) {
    let r = block_idx().x as usize;
    let c = thread_idx().x as usize;
    if c < width as usize {
        a[r * pitch as usize + c] += (r * 100 + c) as u16;
    }
}

#[test]
fn pitched_memory_on_the_simulator() {
    let dev = Device::simulator();
    let s = dev.new_stream().unwrap();
    let (w, h) = (300usize, 5usize);
    let mut p = PitchedBuffer::<u16>::new(&dev, w, h).unwrap();
    assert_eq!(p.pitch_bytes(), 1024);
    assert_eq!(p.pitch_elems(), 512);
    assert_eq!(p.to_vec().unwrap(), vec![0u16; w * h]);
    let host: Vec<u16> = (0..(w * h) as u16).collect();
    p.copy_from_host(&host).unwrap();
    let pitch = p.pitch_elems() as u32;
    bump_rows::launch(
        &s,
        LaunchConfig {
            grid: Dim3::new(h as u32, 1, 1),
            block: Dim3::new(512, 1, 1),
            shared_mem_bytes: 0,
            attrs: Default::default(),
        },
        &mut p,
        w as u32,
        pitch,
    )
    .unwrap();
    let want: Vec<u16> = (0..w * h)
        .map(|i| host[i] + ((i / w) * 100 + i % w) as u16)
        .collect();
    assert_eq!(p.to_vec().unwrap(), want);
    // Dense device buffers and other pitched arrays round-trip too.
    let mut dense = dev.alloc_zeroed::<u16>(w * h).unwrap();
    p.copy_to_dense(&mut dense).unwrap();
    assert_eq!(dense.to_vec().unwrap(), want);
    let mut q = PitchedBuffer::<u16>::new(&dev, w, h).unwrap();
    q.copy_from(&p).unwrap();
    let mut out = vec![0u16; w * h];
    q.copy_to_host(&mut out).unwrap();
    assert_eq!(out, want);
    q.copy_from_dense(&dev.upload(&host).unwrap()).unwrap();
    assert_eq!(q.to_vec().unwrap(), host);
    // Element sizes that do not divide 512 still get whole-element pitches.
    let odd = PitchedBuffer::<[u8; 3]>::new(&dev, 7, 2).unwrap();
    assert_eq!(odd.pitch_bytes(), 1536);
    assert!(PitchedBuffer::<f32>::new(&dev, 0, 3)
        .unwrap()
        .to_vec()
        .unwrap()
        .is_empty());
}
