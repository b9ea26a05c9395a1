//! Cache-hinted loads and stores, address-space predicates, hints, timers, `trap` and
//! `unreachable`: results against the CPU on the simulator and a GPU (`--ignored`), PTX assembled
//! by ptxas for sm_80 and sm_90.

use crate::intr_common;

use ferrocuda::prelude::*;
use intr_common::{assembles, gpu, sim};

/// Copies `x` to `y` element-wise through every load hint and every store hint, so each pair is
/// exercised: element `i` uses load `i % 6` and store `i % 4`.
#[kernel]
pub fn hinted_copy(x: &[f32], y: &mut [f32], a: &[i64], b: &mut [i64], h: &[u16], g: &mut [u16]) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    if i < x.len() {
        let v = match i % 6 {
            0 => ldg(&x[i]),
            1 => ldca(&x[i]),
            2 => ldcg(&x[i]),
            3 => ldcs(&x[i]),
            4 => ldlu(&x[i]),
            _ => ldcv(&x[i]),
        };
        let w = ldg(&a[i]) + ldcs(&a[i]);
        let k = ldcg(&h[i]);
        match i % 4 {
            0 => {
                stwb(&mut y[i], v * 2.0);
                stwb(&mut b[i], w);
                stwb(&mut g[i], k + 1);
            }
            1 => {
                stcg(&mut y[i], v * 2.0);
                stcg(&mut b[i], w);
                stcg(&mut g[i], k + 1);
            }
            2 => {
                stcs(&mut y[i], v * 2.0);
                stcs(&mut b[i], w);
                stcs(&mut g[i], k + 1);
            }
            _ => {
                stwt(&mut y[i], v * 2.0);
                stwt(&mut b[i], w);
                stwt(&mut g[i], k + 1);
            }
        }
    }
}

fn hinted_copy_on(dev: &Device, n: usize) {
    let x: Vec<f32> = (0..n).map(|i| i as f32 * 0.5 - 7.0).collect();
    let a: Vec<i64> = (0..n).map(|i| (i as i64 - 3) << 33).collect();
    let h: Vec<u16> = (0..n).map(|i| (i * 7919) as u16).collect();
    let s = dev.new_stream().unwrap();
    let (dx, da, dh) = (
        dev.upload(&x).unwrap(),
        dev.upload(&a).unwrap(),
        dev.upload(&h).unwrap(),
    );
    let mut dy = dev.upload(&vec![0f32; n]).unwrap();
    let mut db = dev.upload(&vec![0i64; n]).unwrap();
    let mut dg = dev.upload(&vec![0u16; n]).unwrap();
    hinted_copy::launch(
        &s,
        LaunchConfig::for_elements(n, 128),
        &dx,
        &mut dy,
        &da,
        &mut db,
        &dh,
        &mut dg,
    )
    .unwrap();
    let want_y: Vec<f32> = x.iter().map(|v| v * 2.0).collect();
    let want_b: Vec<i64> = a.iter().map(|v| v + v).collect();
    let want_g: Vec<u16> = h.iter().map(|v| v.wrapping_add(1)).collect();
    assert_eq!(dy.to_vec().unwrap(), want_y);
    assert_eq!(db.to_vec().unwrap(), want_b);
    assert_eq!(dg.to_vec().unwrap(), want_g);
}

/// Predicates, hints, timers, sleep and profiler counters; one thread per output row.
#[kernel]
pub fn misc_ops(x: &[u32], out: &mut [u64]) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    let s = shared_array::<[u32; 64]>();
    let t = thread_idx().x as usize;
    s[t] = t as u32;
    sync_threads();
    if i < x.len() {
        let o = i * 10;
        let local = [x[i]; 2];
        out[o] = is_global(&x[i]) as u64
            | (is_shared(&x[i]) as u64) << 1
            | (is_local(&x[i]) as u64) << 2
            | (is_constant(&x[i]) as u64) << 3;
        out[o + 1] = is_shared(&s[t]) as u64 | (is_global(&s[t]) as u64) << 1;
        out[o + 2] = is_local(&local[1]) as u64;
        assume(x[i] < 1000);
        out[o + 3] = if likely(x[i] % 2 == 0) { 10 } else { 20 };
        out[o + 4] = if unlikely(x[i] > 500) { 30 } else { 40 };
        let t0 = globaltimer();
        nanosleep(100);
        pm_counter(3);
        let t1 = globaltimer();
        out[o + 5] = (t1 >= t0) as u64;
        let c0 = clock64();
        let c1 = clock64();
        out[o + 6] = (c1 >= c0) as u64;
        out[o + 7] = s[t] as u64;
        out[o + 8] = (cvta_to_shared(&s[t]) - cvta_to_shared(&s[0])) as u64;
        out[o + 9] = cvta_to_global(&x[i]) - cvta_to_global(&x[0]);
    }
}

fn misc_ops_on(dev: &Device, n: usize) {
    let x: Vec<u32> = (0..n as u32).map(|i| (i * 37) % 1000).collect();
    let s = dev.new_stream().unwrap();
    let dx = dev.upload(&x).unwrap();
    let mut out = dev.upload(&vec![u64::MAX; n * 10]).unwrap();
    misc_ops::launch(&s, LaunchConfig::for_elements(n, 64), &dx, &mut out).unwrap();
    let got = out.to_vec().unwrap();
    for i in 0..n {
        let want = [
            1,
            1,
            1,
            if x[i].is_multiple_of(2) { 10 } else { 20 },
            if x[i] > 500 { 30 } else { 40 },
            1,
            1,
            (i % 64) as u64,
            4 * (i % 64) as u64,
            4 * i as u64,
        ];
        assert_eq!(&got[i * 10..i * 10 + 10], &want, "row {i}");
    }
}

#[kernel]
pub fn traps(x: &mut [u32], mode: u32) {
    x[0] = 1;
    if mode == 1 {
        trap();
    }
    if mode == 2 {
        unreachable();
    }
    if mode == 3 {
        breakpoint();
    }
    x[0] = 2;
}

#[test]
fn hinted_loads_and_stores_copy_on_the_simulator() {
    hinted_copy_on(&sim(), 300);
}

#[test]
fn predicates_hints_and_timers_on_the_simulator() {
    misc_ops_on(&sim(), 130);
}

#[test]
fn trap_and_unreachable_stop_the_simulated_launch_at_the_call() {
    let dev = sim();
    let s = dev.new_stream().unwrap();
    for (mode, msg) in [(1u32, "trap() called"), (2, "entered unreachable code")] {
        let mut x = dev.upload(&[0u32]).unwrap();
        let r = traps::launch(&s, LaunchConfig::for_elements(1, 1), &mut x, mode)
            .and_then(|_| s.synchronize());
        match r {
            Err(ferrocuda::host_runtime::Error::KernelPanic(p)) => {
                assert_eq!(p.message, msg);
                assert!(p.file.ends_with("intrinsics/memory_misc.rs"), "{}", p.file);
            }
            other => panic!("mode {mode}: expected a panic, got {other:?}"),
        }
        assert_eq!(x.to_vec().unwrap(), [1]);
    }
    let mut x = dev.upload(&[0u32]).unwrap();
    traps::launch(&s, LaunchConfig::for_elements(1, 1), &mut x, 3).unwrap();
    assert_eq!(x.to_vec().unwrap(), [2]);
}

#[test]
fn hints_reach_the_ptx_as_their_instructions() {
    let ptx = |def| {
        ferrocuda::kernel_compiler::compile(def, &[], &Default::default())
            .unwrap()
            .ptx
    };
    let copy = ptx(hinted_copy::ast());
    for ins in [
        "ld.global.nc.f32",
        "ld.global.ca.f32",
        "ld.global.cg.f32",
        "ld.global.cs.f32",
        "ld.global.lu.f32",
        "ld.global.cv.f32",
        "ld.global.nc.s64",
        "ld.global.cs.s64",
        "ld.global.cg.u16",
        "st.global.wb.f32",
        "st.global.cg.s64",
        "st.global.cs.u16",
        "st.global.wt.f32",
    ] {
        assert!(copy.contains(ins), "{ins} missing:\n{copy}");
    }
    let misc = ptx(misc_ops::ast());
    for ins in ["%globaltimer", "nanosleep.u32", "pmevent 3"] {
        assert!(misc.contains(ins), "{ins} missing:\n{misc}");
    }
    let traps = ptx(traps::ast());
    assert!(
        traps.contains("trap;") && traps.contains("brkpt;"),
        "{traps}"
    );
}

#[kernel]
pub fn ldg_of_shared(out: &mut [f32]) {
    let s = shared_array::<[f32; 32]>();
    s[0] = 1.0;
    out[0] = ldg(&s[0]);
}

#[kernel]
pub fn counter_not_constant(n: u32) {
    pm_counter(n);
}

#[test]
fn misuse_is_a_compile_error_at_the_argument() {
    let err = |def| {
        ferrocuda::kernel_compiler::compile(def, &[], &Default::default())
            .unwrap_err()
            .to_string()
    };
    let e = err(ldg_of_shared::ast());
    assert!(
        e.contains("`ldg` needs a reference into global memory"),
        "{e}"
    );
    assert!(e.contains("intrinsics/memory_misc.rs"), "{e}");
    let e = err(counter_not_constant::ast());
    assert!(e.contains("constant counter number"), "{e}");
}

#[test]
fn memory_and_misc_intrinsics_assemble_for_sm80_and_sm90() {
    assembles(hinted_copy::ast());
    assembles(misc_ops::ast());
    assembles(traps::ast());
}

/// `trap`, `unreachable` and `breakpoint` are not run on the GPU: each poisons the context (the
/// last without a debugger), which would break the tests sharing the process.
#[test]
#[ignore = "needs a GPU"]
fn memory_and_misc_intrinsics_on_the_gpu() {
    let Some(dev) = gpu() else { return };
    hinted_copy_on(&dev, 100_003);
    misc_ops_on(&dev, 4096);
    let s = dev.new_stream().unwrap();
    let mut x = dev.upload(&[0u32]).unwrap();
    traps::launch(&s, LaunchConfig::for_elements(1, 1), &mut x, 0).unwrap();
    assert_eq!(x.to_vec().unwrap(), [2]);
}
