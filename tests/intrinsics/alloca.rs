//! `alloca` (B.17): a per-thread stack buffer of runtime length, bounds-checked like a slice.
//! Same bodies on the simulator and a GPU (`--ignored`); PTX assembled for sm_80 and sm_90.

use crate::intr_common;

use ferrocuda::host_runtime::Error;
use ferrocuda::prelude::*;
use intr_common::{assembles, gpu, sim};

/// Each thread keeps a running window of its last `w` inputs on its stack (runtime length), and
/// writes the window's sum after each step; `probe` indexes the buffer (out of bounds when
/// `probe >= w`).
#[kernel]
pub fn windowed(x: &[f32], out: &mut [f32], w: u32, steps: u32, probe: u32) {
    let t = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    let win = alloca::<f32>(w as usize);
    let idx = alloca::<u16>(2);
    idx[1] = 7;
    for k in 0..win.len() {
        win[k] = 0.0;
    }
    for s in 0..steps as usize {
        win[s % win.len()] = x[t * steps as usize + s];
        let mut sum = 0.0;
        for k in 0..win.len() {
            sum += win[k];
        }
        out[t * steps as usize + s] = sum;
    }
    if probe != u32::MAX {
        win[probe as usize] = idx[1] as f32;
    }
}

fn reference(x: &[f32], threads: usize, w: usize, steps: usize) -> Vec<f32> {
    let mut out = vec![0.0; threads * steps];
    for t in 0..threads {
        let mut win = vec![0.0f32; w];
        for s in 0..steps {
            win[s % w] = x[t * steps + s];
            out[t * steps + s] = win.iter().fold(0.0, |a, b| a + b);
        }
    }
    out
}

fn windowed_run(dev: &Device, threads: usize, w: u32, probe: u32) -> Result<Vec<f32>, Error> {
    let steps = 20u32;
    let x: Vec<f32> = (0..threads * steps as usize)
        .map(|i| ((i * 37) % 101) as f32 * 0.25)
        .collect();
    let s = dev.new_stream().unwrap();
    let dx = dev.upload(&x).unwrap();
    let mut out = dev.upload(&vec![f32::NAN; x.len()]).unwrap();
    let cfg = LaunchConfig::for_elements(threads, 64);
    windowed::launch(&s, cfg, &dx, &mut out, w, steps, probe).and_then(|_| s.synchronize())?;
    let got = out.to_vec().unwrap();
    assert_eq!(got, reference(&x, threads, w as usize, steps as usize));
    Ok(got)
}

#[test]
fn alloca_windows_on_the_simulator() {
    let dev = sim();
    for w in [1, 3, 8] {
        windowed_run(&dev, 128, w, u32::MAX).unwrap();
    }
}

#[test]
fn alloca_is_bounds_checked_on_the_simulator() {
    match windowed_run(&sim(), 64, 5, 5) {
        Err(Error::KernelPanic(p)) => {
            assert_eq!(
                p.message,
                "index out of bounds: the len is 5 but the index is 5"
            );
            assert!(p.file.ends_with("intrinsics/alloca.rs"), "{}", p.file);
        }
        other => panic!("expected a bounds panic, got {other:?}"),
    }
}

#[kernel]
pub fn huge_alloca(out: &mut [u8], n: usize) {
    let b = alloca::<u8>(n);
    b[0] = 1;
    out[0] = b[0];
}

#[test]
fn an_oversized_alloca_is_reported_by_the_simulator() {
    let dev = sim();
    let s = dev.new_stream().unwrap();
    let mut out = dev.upload(&[0u8]).unwrap();
    huge_alloca::launch(&s, LaunchConfig::for_elements(1, 1), &mut out, 100).unwrap();
    assert_eq!(out.to_vec().unwrap(), [1]);
    let r = huge_alloca::launch(&s, LaunchConfig::for_elements(1, 1), &mut out, 1 << 30)
        .and_then(|_| s.synchronize());
    match r {
        Err(Error::Simulator(e)) => assert!(
            e.message.contains("overflows the thread's stack"),
            "{}",
            e.message
        ),
        other => panic!("expected a simulator error, got {other:?}"),
    }
}

#[test]
fn alloca_lowers_to_ptx_alloca_and_local_accesses() {
    let ptx = ferrocuda::kernel_compiler::compile(windowed::ast(), &[], &Default::default())
        .unwrap()
        .ptx;
    for s in ["alloca.u64", "st.local.f32", "ld.local.f32", "st.local.u16"] {
        assert!(ptx.contains(s), "{s} missing:\n{ptx}");
    }
    assembles(windowed::ast());
    assembles(huge_alloca::ast());
}

#[test]
#[ignore = "needs a GPU"]
fn alloca_on_the_gpu() {
    let Some(dev) = gpu() else { return };
    for w in [1, 3, 8] {
        windowed_run(&dev, 4096, w, u32::MAX).unwrap();
    }
    match windowed_run(&dev, 64, 5, 5) {
        Err(Error::KernelPanic(p)) => {
            assert_eq!(
                p.message,
                "index out of bounds: the len is 5 but the index is 5"
            )
        }
        other => panic!("expected a bounds panic, got {other:?}"),
    }
}
