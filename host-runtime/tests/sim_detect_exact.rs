//! Planted bugs in `#[kernel]`s: every simulator detector names the offending access's exact
//! `file:line:col` (from the IR's source markers), its block and its thread.

use ferrocuda::prelude::*;
use kernel_sim::{SimError, SimErrorKind};

#[kernel]
pub fn ww_race(out: &mut [u32]) {
    let s = shared_array::<[u32; 4]>();
    let t = thread_idx().x;
    s[0] = t;
    sync_threads();
    if t == 0 {
        out[0] = s[0];
    }
}

#[kernel]
pub fn rw_race(out: &mut [u32]) {
    let s = shared_array::<[u32; 64]>();
    let t = thread_idx().x as usize;
    s[t] = t as u32;
    sync_threads();
    let v = s[(t + 1) % 64];
    s[t] = v + 1;
    out[t] = v;
}

#[kernel]
pub fn divergent_barrier(out: &mut [u32]) {
    let t = thread_idx().x;
    if t < 16 {
        sync_threads(); // the high half never gets here
    }
    out[t as usize] = t;
}

#[kernel]
pub fn uninit_read(out: &mut [u32]) {
    let s = shared_array::<[u32; 64]>();
    let t = thread_idx().x as usize;
    if t > 0 {
        s[t] = 1;
    }
    sync_threads();
    out[t] = s[0];
}

#[kernel]
pub fn oob_raw(x: &[u32], y: &mut [u32]) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    let v = unsafe { *x.get_unchecked(i + 3) };
    y[i] = v;
}

#[device]
fn peek(x: &[u32], i: usize) -> u32 {
    unsafe { *x.get_unchecked(i) }
}

#[kernel]
pub fn oob_in_device_fn(x: &[u32], y: &mut [u32]) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    y[i] = peek(x, i * 2);
}

/// `(line, col)` of `needle` in the first line of this file whose trimmed text is `line`.
fn at(line: &str, needle: &str) -> (u32, u32) {
    let src = include_str!("sim_detect_exact.rs");
    let (n, text) = src
        .lines()
        .enumerate()
        .find(|(_, l)| l.trim() == line)
        .expect("line in this file");
    let col = text.find(needle).expect("needle in the line");
    (n as u32 + 1, col as u32 + 1)
}

fn sim_error(r: Result<()>) -> SimError {
    match r {
        Err(Error::Simulator(e)) => *e,
        other => panic!("expected a simulator error, got {other:?}"),
    }
}

fn check(e: &SimError, kind: SimErrorKind, pos: (u32, u32), block: u32, thread: u32) {
    assert_eq!(e.kind, kind, "{e}");
    assert!(e.file.ends_with("sim_detect_exact.rs"), "{e}");
    assert_eq!((e.line, e.col), pos, "{e}");
    assert_eq!(e.block, [block, 0, 0], "{e}");
    assert_eq!(e.thread, [thread, 0, 0], "{e}");
    let shown = e.to_string();
    assert!(
        shown.contains(&format!("sim_detect_exact.rs:{}:{}", pos.0, pos.1)),
        "{shown}"
    );
}

#[test]
fn write_write_shared_race_is_located() {
    let dev = Device::simulator();
    let s = dev.new_stream().unwrap();
    let mut out = dev.alloc_zeroed::<u32>(1).unwrap();
    ww_race::launch(&s, LaunchConfig::for_elements(64, 32), &mut out).unwrap();
    let e = sim_error(s.synchronize());
    check(&e, SimErrorKind::SharedRace, at("s[0] = t;", "s[0]"), 0, 1);
    assert!(
        e.message.contains("races with a write by thread (0,0,0)"),
        "{e}"
    );
}

#[test]
fn read_write_shared_race_is_located() {
    let dev = Device::simulator();
    let s = dev.new_stream().unwrap();
    let mut out = dev.alloc_zeroed::<u32>(64).unwrap();
    rw_race::launch(&s, LaunchConfig::for_elements(64, 64), &mut out).unwrap();
    let e = sim_error(s.synchronize());
    // Thread 0 read s[1] after the barrier; thread 1 then writes it.
    check(
        &e,
        SimErrorKind::SharedRace,
        at("s[t] = v + 1;", "s[t]"),
        0,
        1,
    );
    assert!(e.message.contains("read by thread (0,0,0)"), "{e}");
}

#[test]
fn divergent_barrier_is_located() {
    let dev = Device::simulator();
    let s = dev.new_stream().unwrap();
    let mut out = dev.alloc_zeroed::<u32>(64).unwrap();
    divergent_barrier::launch(&s, LaunchConfig::for_elements(96, 32), &mut out).unwrap();
    let e = sim_error(s.synchronize());
    check(
        &e,
        SimErrorKind::BarrierDivergence,
        at(
            "sync_threads(); // the high half never gets here",
            "sync_threads",
        ),
        0,
        0,
    );
    assert!(e.message.contains("thread (16,0,0)"), "{e}");
}

#[test]
fn uninitialised_shared_read_is_located() {
    let dev = Device::simulator();
    let s = dev.new_stream().unwrap();
    let mut out = dev.alloc_zeroed::<u32>(64).unwrap();
    uninit_read::launch(&s, LaunchConfig::for_elements(64, 64), &mut out).unwrap();
    let e = sim_error(s.synchronize());
    check(
        &e,
        SimErrorKind::UninitSharedRead,
        at("out[t] = s[0];", "s[0]"),
        0,
        0,
    );
}

#[test]
fn out_of_bounds_raw_access_is_located() {
    let dev = Device::simulator();
    let s = dev.new_stream().unwrap();
    let n = 96;
    let x = dev.upload(&vec![7u32; n]).unwrap();
    let mut y = dev.alloc_zeroed::<u32>(n).unwrap();
    oob_raw::launch(&s, LaunchConfig::for_elements(96, 32), &x, &mut y).unwrap();
    let e = sim_error(s.synchronize());
    let pos = at(
        "let v = unsafe { *x.get_unchecked(i + 3) };",
        "*x.get_unchecked",
    );
    check(&e, SimErrorKind::OutOfBounds, pos, 2, 29);
}

#[test]
fn out_of_bounds_in_an_inlined_device_fn_is_located_in_it() {
    let dev = Device::simulator();
    let s = dev.new_stream().unwrap();
    let n = 64;
    let x = dev.upload(&vec![1u32; n]).unwrap();
    let mut y = dev.alloc_zeroed::<u32>(n).unwrap();
    oob_in_device_fn::launch(&s, LaunchConfig::for_elements(n, 32), &x, &mut y).unwrap();
    let e = sim_error(s.synchronize());
    let pos = at("unsafe { *x.get_unchecked(i) }", "*x.get_unchecked");
    check(&e, SimErrorKind::OutOfBounds, pos, 1, 0);
}
