//! Safe copies, launches and drops are ordered after the work that uses the same memory, on any
//! stream, blocking or not; and nothing waits for work it does not conflict with. Every test puts a
//! slow kernel (a clock64 spin of tens of milliseconds, then a write) in front, so that an
//! unordered operation would run first and be caught. Run on a GPU with `--ignored`. Under
//! compute-sanitizer (which runs one kernel at a time) the overlap assertions are skipped and
//! the ordering ones kept (`kernel_testkit::sanitizer`).

mod common;

use std::time::Instant;

use common::{gpu, serial};
use ferrocuda::prelude::*;
use host_runtime::StreamOptions;
use kernel_testkit::sanitizer::skip_timing;

/// Spins for `cycles` clock cycles, then writes `v` to every element of `y`.
#[kernel]
pub fn slow_fill(cycles: u64, v: u32, y: &mut [u32]) {
    let t0 = clock64();
    while clock64() - t0 < cycles {}
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    if i < y.len() {
        y[i] = v;
    }
}

/// Spins for `cycles` clock cycles, then copies `x` to `y`.
#[kernel]
pub fn slow_copy(cycles: u64, x: &[u32], y: &mut [u32]) {
    let t0 = clock64();
    while clock64() - t0 < cycles {}
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    if i < y.len() {
        y[i] = x[i];
    }
}

#[kernel]
pub fn copy(x: &[u32], y: &mut [u32]) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    if i < y.len() {
        y[i] = x[i];
    }
}

const N: usize = 1 << 16;

fn cfg() -> LaunchConfig {
    LaunchConfig::for_elements(N, 256)
}

fn non_blocking(dev: &Device) -> Stream {
    Stream::with_options(
        dev,
        StreamOptions {
            non_blocking: true,
            priority: 0,
        },
    )
    .unwrap()
}

/// Clock cycles the spin needs for about `ms` milliseconds.
fn cycles_for_ms(dev: &Device, ms: f64) -> u64 {
    let s = dev.new_stream().unwrap();
    let mut y = dev.alloc_zeroed::<u32>(N).unwrap();
    let probe = 20_000_000u64;
    slow_fill::launch(&s, cfg(), probe, 0, &mut y).unwrap();
    let (_, t) = s
        .time(|s| slow_fill::launch(s, cfg(), probe, 0, &mut y))
        .unwrap();
    (probe as f64 * ms / f64::from(t.max(1e-3))) as u64
}

fn all(v: &[u32], x: u32) -> bool {
    v.iter().all(|&e| e == x)
}

/// Before: synchronous copies ran on the legacy stream, which a non-blocking stream is not ordered
/// against, so each one below ran before the kernel and the kernel's value won.
#[test]
#[ignore]
fn synchronous_writes_wait_for_kernels_on_non_blocking_streams() {
    let _g = serial();
    let Some(dev) = gpu() else { return };
    let spin = cycles_for_ms(&dev, 50.0);
    let s = non_blocking(&dev);
    let mut y = dev.upload(&vec![0u32; N]).unwrap();

    slow_fill::launch(&s, cfg(), spin, 7, &mut y).unwrap();
    y.copy_from_host(&vec![1u32; N]).unwrap();
    assert!(
        all(&y.to_vec().unwrap(), 1),
        "copy_from_host ran before the kernel"
    );

    slow_fill::launch(&s, cfg(), spin, 7, &mut y).unwrap();
    y.fill(2).unwrap();
    assert!(all(&y.to_vec().unwrap(), 2), "fill ran before the kernel");

    slow_fill::launch(&s, cfg(), spin, 7, &mut y).unwrap();
    y.memset(0).unwrap();
    assert!(all(&y.to_vec().unwrap(), 0), "memset ran before the kernel");

    let x = dev.upload(&vec![3u32; N]).unwrap();
    slow_fill::launch(&s, cfg(), spin, 7, &mut y).unwrap();
    y.copy_from(&x).unwrap();
    assert!(
        all(&y.to_vec().unwrap(), 3),
        "copy_from ran before the kernel"
    );

    // As a source: the copy reads what the kernel wrote.
    let mut src = dev.upload(&vec![0u32; N]).unwrap();
    slow_fill::launch(&s, cfg(), spin, 9, &mut src).unwrap();
    y.copy_from(&src).unwrap();
    assert!(
        all(&y.to_vec().unwrap(), 9),
        "copy_from read before the kernel wrote"
    );

    // Through a view.
    slow_fill::launch(&s, cfg(), spin, 7, &mut y).unwrap();
    y.view_mut(0..4).unwrap().copy_from_host(&[5; 4]).unwrap();
    let v = y.to_vec().unwrap();
    assert_eq!(&v[..5], &[5, 5, 5, 5, 7]);

    // A stream-ordered allocation is zeroed on its stream: a copy must follow that too.
    slow_fill::launch(&s, cfg(), spin, 7, &mut y).unwrap();
    let mut a = DeviceBuffer::<u32>::alloc_async(&s, N).unwrap();
    a.copy_from_host(&vec![4u32; N]).unwrap();
    assert!(
        all(&a.to_vec().unwrap(), 4),
        "the allocation's memset ran after the copy"
    );
    s.synchronize().unwrap();
}

/// Before: a stream-ordered copy or a kernel on another stream raced the kernel writing its input.
#[test]
#[ignore]
fn work_on_another_stream_waits_for_conflicting_writes() {
    let _g = serial();
    let Some(dev) = gpu() else { return };
    let spin = cycles_for_ms(&dev, 50.0);
    let (s, t) = (non_blocking(&dev), non_blocking(&dev));
    let mut x = dev.upload(&vec![0u32; N]).unwrap();
    let mut y = dev.upload(&vec![0u32; N]).unwrap();
    slow_fill::launch(&s, cfg(), spin, 7, &mut x).unwrap();
    y.copy_from_async(&x, &t).unwrap();
    t.synchronize().unwrap();
    assert!(
        all(&y.to_vec().unwrap(), 7),
        "the copy on t did not wait for s"
    );

    slow_fill::launch(&s, cfg(), spin, 8, &mut x).unwrap();
    copy::launch(&t, cfg(), &x, &mut y).unwrap();
    t.synchronize().unwrap();
    assert!(
        all(&y.to_vec().unwrap(), 8),
        "the kernel on t did not wait for s"
    );

    // A write after a read on another stream waits for the read.
    slow_copy::launch(&s, cfg(), spin, &x, &mut y).unwrap();
    let mut host = vec![1u32; N];
    unsafe { x.copy_from_host_async(&host, &t) }.unwrap();
    t.synchronize().unwrap();
    s.synchronize().unwrap();
    assert!(
        all(&y.to_vec().unwrap(), 8),
        "the copy into x overtook s's read of x"
    );
    host.fill(0);
    unsafe { x.copy_to_host_async(&mut host, &t) }.unwrap();
    t.synchronize().unwrap();
    assert!(all(&host, 1));
}

/// Ordering never costs concurrency where there is no conflict: reads of one buffer and writes to
/// disjoint views run at the same time on two streams. (The slow kernels take one wave of blocks,
/// so the GPU has room for the other stream's; every kernel is loaded before the timed part,
/// since loading a module waits for the device.)
#[test]
#[ignore]
fn reads_and_disjoint_writes_on_two_streams_overlap() {
    let _g = serial();
    let Some(dev) = gpu() else { return };
    let spin = cycles_for_ms(&dev, 100.0);
    let (s, t) = (non_blocking(&dev), non_blocking(&dev));
    let x = dev.upload(&vec![5u32; N]).unwrap();
    let mut y = dev.upload(&vec![0u32; N]).unwrap();
    let mut z = dev.upload(&vec![0u32; N]).unwrap();
    copy::launch(&t, cfg(), &x, &mut z).unwrap();
    slow_copy::launch(&t, cfg(), 0, &x, &mut z).unwrap();
    t.synchronize().unwrap();
    slow_copy::launch(&s, cfg(), spin, &x, &mut y).unwrap();
    let t0 = Instant::now();
    copy::launch(&t, cfg(), &x, &mut z).unwrap();
    t.synchronize().unwrap();
    let ms = t0.elapsed().as_secs_f64() * 1e3;
    // compute-sanitizer runs one kernel at a time: nothing overlaps there.
    let timed = !skip_timing(
        "reads_and_disjoint_writes_on_two_streams_overlap",
        "overlap of two streams",
    );
    assert!(
        !timed || ms < 50.0,
        "a read of x on t waited {ms:.1} ms for a read of x on s"
    );
    assert!(all(&z.to_vec().unwrap(), 5));

    let mut w = dev.upload(&vec![0u32; 2 * N]).unwrap();
    slow_fill::launch(&s, cfg(), spin, 1, &mut w.view_mut(0..N).unwrap()).unwrap();
    let t0 = Instant::now();
    slow_fill::launch(&t, cfg(), 0, 2, &mut w.view_mut(N..2 * N).unwrap()).unwrap();
    t.synchronize().unwrap();
    let ms = t0.elapsed().as_secs_f64() * 1e3;
    assert!(
        !timed || ms < 50.0,
        "a write of w[N..] waited {ms:.1} ms for a write of w[..N]"
    );
    let v = w.to_vec().unwrap();
    assert!(all(&v[..N], 1) && all(&v[N..], 2));
}

/// Before: dropping a buffer synchronized the whole context, so it waited for every stream.
/// Now the free is queued after the buffer's last use and the drop returns at once; memory
/// allocated next is never the buffer's while a kernel still writes it. (One wave of slow blocks,
/// so the GPU has room for the other stream's kernel, loaded beforehand.)
#[test]
#[ignore]
fn dropping_a_buffer_neither_waits_nor_frees_early() {
    let _g = serial();
    let Some(dev) = gpu() else { return };
    let spin = cycles_for_ms(&dev, 100.0);
    let (s, t) = (non_blocking(&dev), non_blocking(&dev));
    let big = N;
    let big_cfg = LaunchConfig::for_elements(big, 256);
    let mut small = dev.upload(&vec![0u32; N]).unwrap();
    let mut a = dev.upload(&vec![7u32; big]).unwrap();
    slow_fill::launch(&s, big_cfg, spin, 9, &mut a).unwrap();
    let t0 = Instant::now();
    drop(a);
    let drop_ms = t0.elapsed().as_secs_f64() * 1e3;
    // Other streams keep running meanwhile.
    slow_fill::launch(&t, cfg(), 0, 3, &mut small).unwrap();
    t.synchronize().unwrap();
    let other_ms = t0.elapsed().as_secs_f64() * 1e3;
    eprintln!("drop took {drop_ms:.2} ms; another stream's work finished after {other_ms:.2} ms");
    // compute-sanitizer runs one kernel at a time; what is freed when is still checked below.
    if !skip_timing(
        "dropping_a_buffer_neither_waits_nor_frees_early",
        "the drop's and the other stream's wait",
    ) {
        assert!(
            drop_ms < 50.0,
            "the drop waited {drop_ms:.1} ms for the kernel"
        );
        assert!(other_ms < 50.0, "another stream waited {other_ms:.1} ms");
    }
    let b = dev.upload(&vec![1u32; big]).unwrap();
    s.synchronize().unwrap();
    assert!(
        all(&b.to_vec().unwrap(), 1),
        "the kernel wrote freed memory that was reused"
    );

    // A buffer read by two streams is freed after both.
    let x = dev.upload(&vec![4u32; big]).unwrap();
    let mut y1 = dev.upload(&vec![0u32; big]).unwrap();
    let mut y2 = dev.upload(&vec![0u32; big]).unwrap();
    slow_copy::launch(&s, big_cfg, spin, &x, &mut y1).unwrap();
    slow_copy::launch(&t, big_cfg, spin, &x, &mut y2).unwrap();
    drop(x);
    let c = dev.upload(&vec![2u32; big]).unwrap();
    dev.synchronize().unwrap();
    assert!(all(&y1.to_vec().unwrap(), 4) && all(&y2.to_vec().unwrap(), 4));
    assert!(all(&c.to_vec().unwrap(), 2));
}
