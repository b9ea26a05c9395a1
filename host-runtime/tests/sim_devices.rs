//! Objects of different devices never mix: two simulator devices stand in for two GPUs (each has
//! its own address space, so a foreign address would silently name a different allocation). Every
//! combination is an `Err(WrongDevice)` before anything runs or is copied.

use ferrocuda::prelude::*;
use host_runtime::{ManagedBuffer, PinnedBuffer, PinnedFlags, PitchedBuffer};

#[kernel]
pub fn fill(v: u32, y: &mut [u32]) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    if i < y.len() {
        y[i] = v;
    }
}

#[kernel]
pub fn copy(x: &[u32], y: &mut [u32]) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    if i < y.len() {
        y[i] = x[i];
    }
}

fn wrong_device<T: std::fmt::Debug>(r: Result<T>) {
    match r {
        Err(Error::WrongDevice) => {}
        other => panic!("expected WrongDevice, got {other:?}"),
    }
}

#[test]
fn a_launch_with_another_devices_buffer_is_an_error_and_runs_nothing() {
    let (a, b) = (Device::simulator(), Device::simulator());
    let n = 64;
    let cfg = LaunchConfig::for_elements(n, 32);
    // Same sizes in the same order: both simulators hand out the same addresses, so a launch that
    // trusted the pointer would write `b_buf` when given `a_buf`.
    let mut a_buf = a.upload(&vec![1u32; n]).unwrap();
    let mut b_buf = b.upload(&vec![5u32; n]).unwrap();
    assert_eq!(a_buf.device_ptr(), b_buf.device_ptr());
    let sb = b.new_stream().unwrap();

    wrong_device(fill::launch(&sb, cfg, 9, &mut a_buf));
    wrong_device(fill::launch(
        &sb,
        cfg,
        9,
        &mut a_buf.view_mut(0..8).unwrap(),
    ));
    wrong_device(copy::launch(&sb, cfg, &a_buf, &mut b_buf));
    wrong_device(copy::launch(&sb, cfg, &a_buf.view(..).unwrap(), &mut b_buf));
    b.synchronize().unwrap();
    assert_eq!(b_buf.to_vec().unwrap(), vec![5; n], "nothing ran on b");
    assert_eq!(a_buf.to_vec().unwrap(), vec![1; n], "nothing touched a");

    // The same launches on a's stream work.
    let sa = a.new_stream().unwrap();
    fill::launch(&sa, cfg, 9, &mut a_buf).unwrap();
    assert_eq!(a_buf.to_vec().unwrap(), vec![9; n]);

    // Managed and pitched memory are checked the same way.
    let mut m = ManagedBuffer::<u32>::new(&a, n).unwrap();
    wrong_device(fill::launch(&sb, cfg, 9, &mut m));
    wrong_device(copy::launch(&sb, cfg, &m, &mut b_buf));
    let mut p = PitchedBuffer::<u32>::new(&a, 8, 8).unwrap();
    wrong_device(fill::launch(&sb, cfg, 9, &mut p));
    assert_eq!(b_buf.to_vec().unwrap(), vec![5; n]);

    let text = Error::WrongDevice.to_string();
    assert!(text.contains("peer access"), "{text}");
}

#[test]
fn copies_events_and_streams_of_different_devices_do_not_mix() {
    let (a, b) = (Device::simulator(), Device::simulator());
    let n = 16;
    let mut a_buf = a.upload(&vec![1u32; n]).unwrap();
    let b_buf = b.upload(&vec![5u32; n]).unwrap();
    let (sa, sb) = (a.new_stream().unwrap(), b.new_stream().unwrap());

    wrong_device(a_buf.copy_from(&b_buf));
    wrong_device(a_buf.copy_from_async(&b_buf, &sa));
    wrong_device(a_buf.copy_from_async(&a.upload(&vec![0u32; n]).unwrap(), &sb));
    wrong_device(
        a_buf
            .view_mut(0..4)
            .unwrap()
            .copy_from(&b_buf.view(0..4).unwrap()),
    );
    wrong_device(DeviceBuffer::<u32>::alloc_async(&sb, 4).and_then(|mut x| x.copy_from(&a_buf)));
    let mut host = vec![0u32; n];
    wrong_device(unsafe { a_buf.copy_to_host_async(&mut host, &sb) });
    wrong_device(unsafe { a_buf.copy_from_host_async(&host, &sb) });
    assert_eq!(a_buf.to_vec().unwrap(), vec![1; n]);

    let ea = Event::new(&a, EventFlags::NO_TIMING).unwrap();
    wrong_device(ea.record(&sb));
    wrong_device(sb.wait_event(&ea));
    let eb = Event::new(&b, EventFlags::default()).unwrap();
    wrong_device(ea.elapsed_ms(&eb));

    let m = ManagedBuffer::<u32>::new(&a, n).unwrap();
    wrong_device(m.prefetch(host_runtime::Location::Device, &sb));

    // Page-locked memory belongs to its device unless allocated portable.
    let mut pinned = PinnedBuffer::<u32>::new(&a, n, PinnedFlags::default()).unwrap();
    let mut b_dst = b.upload(&vec![0u32; n]).unwrap();
    wrong_device(unsafe { pinned.copy_to_device_async(&mut b_dst, &sb) });
    wrong_device(unsafe { pinned.copy_from_device_async(&b_buf, &sb) });
    let portable = PinnedBuffer::<u32>::from_slice(
        &a,
        &[3; 16],
        PinnedFlags {
            portable: true,
            ..PinnedFlags::default()
        },
    )
    .unwrap();
    unsafe { portable.copy_to_device_async(&mut b_dst, &sb) }.unwrap();
    sb.synchronize().unwrap();
    assert_eq!(b_dst.to_vec().unwrap(), vec![3; n]);

    // Pitched copies.
    let mut pa = PitchedBuffer::<u32>::new(&a, 4, 4).unwrap();
    let pb = PitchedBuffer::<u32>::new(&b, 4, 4).unwrap();
    wrong_device(pa.copy_from(&pb));
    wrong_device(pa.copy_from_dense(&b_buf));
}
