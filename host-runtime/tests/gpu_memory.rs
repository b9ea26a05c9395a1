//! Round trips through every memory kind. Run on a GPU with `--ignored`.

mod common;

use common::{gpu, kernels, launch_inc};
use host_runtime::{
    Advice, DeviceBuffer, Error, KernelSlice, KernelSliceMut, Location, ManagedBuffer, MemPool,
    PinnedBuffer, PinnedFlags, PitchedBuffer, RegisteredHost, Stream,
};

#[test]
#[ignore]
fn device_buffer_round_trips() {
    let Some(dev) = gpu() else { return };
    let data: Vec<f32> = (0..10_000).map(|i| i as f32 * 0.5).collect();
    let mut a = DeviceBuffer::upload(&dev, &data).unwrap();
    assert_eq!(a.to_vec().unwrap(), data);

    let z = DeviceBuffer::<u64>::zeroed(&dev, 777).unwrap();
    assert!(z.to_vec().unwrap().iter().all(|&v| v == 0));
    let z2 = DeviceBuffer::<bool>::alloc(&dev, 33).unwrap();
    assert_eq!(z2.to_vec().unwrap(), vec![false; 33]);

    let mut b = DeviceBuffer::<f32>::alloc(&dev, data.len()).unwrap();
    b.copy_from(&a).unwrap();
    let mut back = vec![0f32; data.len()];
    b.copy_to_host(&mut back).unwrap();
    assert_eq!(back, data);

    let rev: Vec<f32> = data.iter().rev().copied().collect();
    a.copy_from_host(&rev).unwrap();
    assert_eq!(a.to_vec().unwrap(), rev);
    assert!(matches!(
        a.copy_from_host(&rev[1..]),
        Err(Error::LengthMismatch { .. })
    ));

    a.fill(2.5).unwrap();
    assert!(a.to_vec().unwrap().iter().all(|&v| v == 2.5));
    let mut h = DeviceBuffer::<u16>::alloc(&dev, 9).unwrap();
    h.fill(0xbeef).unwrap();
    assert_eq!(h.to_vec().unwrap(), vec![0xbeef; 9]);
    let mut w = DeviceBuffer::<[u32; 3]>::alloc(&dev, 5).unwrap();
    w.fill([1, 2, 3]).unwrap();
    assert_eq!(w.to_vec().unwrap(), vec![[1, 2, 3]; 5]);
    let mut m = DeviceBuffer::<u32>::alloc(&dev, 4).unwrap();
    m.memset(0xab).unwrap();
    assert_eq!(m.to_vec().unwrap(), vec![0xabababab; 4]);

    let empty = DeviceBuffer::<f32>::upload(&dev, &[]).unwrap();
    assert!(empty.to_vec().unwrap().is_empty());
}

#[test]
#[ignore]
fn views_address_subranges() {
    let Some(dev) = gpu() else { return };
    let mut buf = DeviceBuffer::upload(&dev, &(0u32..100).collect::<Vec<_>>()).unwrap();
    assert_eq!(
        buf.view(10..13).unwrap().to_vec().unwrap(),
        vec![10, 11, 12]
    );
    assert_eq!(
        buf.view(..).unwrap().view(98..).unwrap().to_vec().unwrap(),
        vec![98, 99]
    );
    assert!(matches!(buf.view(90..101), Err(Error::OutOfRange { .. })));
    {
        let mut v = buf.view_mut(50..60).unwrap();
        v.fill(7).unwrap();
        v.view_mut(0..2).unwrap().copy_from_host(&[1, 2]).unwrap();
        assert_eq!(v.kernel_arg().len, 10);
        assert_eq!(v.kernel_arg_mut().ptr, buf_ptr_plus(&v, 0));
    }
    let all = buf.to_vec().unwrap();
    assert_eq!(
        &all[48..62],
        &[48, 49, 1, 2, 7, 7, 7, 7, 7, 7, 7, 7, 60, 61]
    );

    // A kernel sees exactly the view.
    let module = kernels(&dev);
    let inc = module.function("inc_u32").unwrap();
    let s = Stream::new(&dev).unwrap();
    let arg = buf.view_mut(0..10).unwrap().kernel_arg_mut();
    launch_inc(&inc, &s, arg);
    s.synchronize().unwrap();
    let all = buf.to_vec().unwrap();
    assert_eq!(&all[..11], &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10]);
}

fn buf_ptr_plus(v: &host_runtime::DeviceViewMut<'_, u32>, i: u64) -> u64 {
    v.device_ptr() + 4 * i
}

#[test]
#[ignore]
fn async_copies_through_pinned_memory() {
    let Some(dev) = gpu() else { return };
    let s = Stream::new(&dev).unwrap();
    let n = 1 << 20;
    for flags in [
        PinnedFlags::default(),
        PinnedFlags {
            portable: true,
            ..Default::default()
        },
        PinnedFlags {
            write_combined: true,
            ..Default::default()
        },
    ] {
        let mut src = PinnedBuffer::<u32>::new(&dev, n, flags).unwrap();
        assert!(src.iter().all(|&v| v == 0));
        for (i, v) in src.iter_mut().enumerate() {
            *v = i as u32;
        }
        let mut d = DeviceBuffer::<u32>::alloc(&dev, n).unwrap();
        let mut dst = PinnedBuffer::<u32>::new(&dev, n, PinnedFlags::default()).unwrap();
        unsafe {
            src.copy_to_device_async(&mut d, &s).unwrap();
            dst.copy_from_device_async(&d, &s).unwrap();
        }
        s.synchronize().unwrap();
        assert_eq!(&dst[..], &src[..], "flags {flags:?}");
    }
}

#[test]
#[ignore]
fn mapped_pinned_memory_is_visible_to_kernels() {
    let Some(dev) = gpu() else { return };
    let flags = PinnedFlags {
        mapped: true,
        ..Default::default()
    };
    let mut host = PinnedBuffer::<u32>::from_slice(&dev, &[5, 6, 7], flags).unwrap();
    let ptr = host
        .device_ptr()
        .expect("mapped memory has a device address");
    let module = kernels(&dev);
    let s = Stream::new(&dev).unwrap();
    launch_inc(
        &module.function("inc_u32").unwrap(),
        &s,
        host_runtime::SliceArg { ptr, len: 3 },
    );
    s.synchronize().unwrap();
    assert_eq!(&host[..], &[6, 7, 8]);
    host[0] = 100;
    launch_inc(
        &module.function("inc_u32").unwrap(),
        &s,
        host_runtime::SliceArg { ptr, len: 1 },
    );
    s.synchronize().unwrap();
    assert_eq!(host[0], 101);
}

#[test]
#[ignore]
fn registered_host_memory_round_trips() {
    let Some(dev) = gpu() else { return };
    let mut v: Vec<u32> = (0..4096).collect();
    let s = Stream::new(&dev).unwrap();
    let mut d = DeviceBuffer::<u32>::alloc(&dev, v.len()).unwrap();
    {
        let reg = RegisteredHost::new(
            &dev,
            &mut v,
            PinnedFlags {
                mapped: true,
                ..Default::default()
            },
        )
        .unwrap();
        assert!(reg.device_ptr().is_some());
        unsafe { d.copy_from_host_async(&reg, &s).unwrap() };
        s.synchronize().unwrap();
    }
    let module = kernels(&dev);
    launch_inc(&module.function("inc_u32").unwrap(), &s, d.kernel_arg());
    s.synchronize().unwrap();
    assert_eq!(d.to_vec().unwrap(), (1..4097).collect::<Vec<u32>>());
    assert!(matches!(
        RegisteredHost::new(
            &dev,
            &mut v,
            PinnedFlags {
                write_combined: true,
                ..Default::default()
            }
        ),
        Err(Error::InvalidValue(_))
    ));
}

#[test]
#[ignore]
fn managed_memory_prefetch_and_advise() {
    let Some(dev) = gpu() else { return };
    let mut m = ManagedBuffer::<u32>::new(&dev, 1000).unwrap();
    assert!(m.as_slice().unwrap().iter().all(|&v| v == 0));
    for (i, v) in m.as_mut_slice().unwrap().iter_mut().enumerate() {
        *v = i as u32;
    }
    let s = Stream::new(&dev).unwrap();
    m.advise(Advice::SetPreferredLocation(Location::Device))
        .unwrap();
    m.advise(Advice::SetAccessedBy(Location::Device)).unwrap();
    if dev.properties().concurrent_managed_access {
        m.prefetch(Location::Device, &s).unwrap();
    }
    let module = kernels(&dev);
    launch_inc(&module.function("inc_u32").unwrap(), &s, m.kernel_arg_mut());
    if dev.properties().concurrent_managed_access {
        m.prefetch(Location::Host, &s).unwrap();
    }
    s.synchronize().unwrap();
    assert_eq!(m.as_slice().unwrap(), &(1..1001).collect::<Vec<u32>>()[..]);
    m.advise(Advice::UnsetPreferredLocation).unwrap();
    m.advise(Advice::SetReadMostly).unwrap();
}

#[test]
#[ignore]
fn pitched_memory_copies_in_two_dimensions() {
    let Some(dev) = gpu() else { return };
    let (w, h) = (37usize, 19usize);
    let data: Vec<u32> = (0..(w * h) as u32).collect();
    let mut p = PitchedBuffer::<u32>::new(&dev, w, h).unwrap();
    assert!(p.pitch_bytes() >= w * 4);
    assert_eq!(p.pitch_bytes() % 4, 0);
    assert_eq!(p.to_vec().unwrap(), vec![0; w * h]);
    p.copy_from_host(&data).unwrap();
    assert_eq!(p.to_vec().unwrap(), data);

    let mut q = PitchedBuffer::<u32>::new(&dev, w, h).unwrap();
    q.copy_from(&p).unwrap();
    let mut dense = DeviceBuffer::<u32>::alloc(&dev, w * h).unwrap();
    q.copy_to_dense(&mut dense).unwrap();
    assert_eq!(dense.to_vec().unwrap(), data);

    // A kernel over the padded array increments every element, padding included.
    let module = kernels(&dev);
    let s = Stream::new(&dev).unwrap();
    launch_inc(&module.function("inc_u32").unwrap(), &s, q.kernel_arg_mut());
    s.synchronize().unwrap();
    let plus: Vec<u32> = data.iter().map(|v| v + 1).collect();
    assert_eq!(q.to_vec().unwrap(), plus);
    p.copy_from_dense(&dense).unwrap();
    assert_eq!(p.to_vec().unwrap(), data);
    assert!(matches!(
        p.copy_from_host(&data[1..]),
        Err(Error::LengthMismatch { .. })
    ));
}

#[test]
#[ignore]
fn stream_ordered_pools() {
    let Some(dev) = gpu() else { return };
    if !dev.properties().memory_pools_supported {
        eprintln!("memory pools unsupported; skipping");
        return;
    }
    let s = Stream::new(&dev).unwrap();
    let a = DeviceBuffer::<u32>::alloc_async(&s, 1 << 16).unwrap();
    let pool = MemPool::new(&dev).unwrap();
    pool.set_release_threshold(u64::MAX).unwrap();
    let mut b = pool.alloc::<u32>(&s, 1 << 16).unwrap();
    s.synchronize().unwrap();
    assert!(pool.used_bytes().unwrap() >= (1 << 18));
    b.copy_from_async(&a, &s).unwrap();
    let module = kernels(&dev);
    launch_inc(&module.function("inc_u32").unwrap(), &s, b.kernel_arg_mut());
    s.synchronize().unwrap();
    assert!(b.to_vec().unwrap().iter().all(|&v| v == 1));
    drop(b);
    s.synchronize().unwrap();
    assert_eq!(pool.used_bytes().unwrap(), 0);
    assert!(
        pool.reserved_bytes().unwrap() > 0,
        "threshold keeps the memory"
    );
    pool.trim_to(0).unwrap();
    let default = MemPool::device_default(&dev).unwrap();
    let c = default.alloc::<f64>(&s, 10).unwrap();
    assert_eq!(c.to_vec().unwrap(), vec![0.0; 10]);
}
