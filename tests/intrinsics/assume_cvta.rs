//! `assume` and `assume_aligned` (checked by the simulator, free on the GPU) and the integer
//! address-space conversions (`cvta_shared_to_generic` and friends): simulator and GPU
//! (`--ignored`) with the same bodies, PTX assembled for sm_80 and sm_90.

use crate::intr_common;

use ferrocuda::host_runtime::Error;
use ferrocuda::prelude::*;
use intr_common::{assembles, gpu, sim};

/// Sums `x[off..off + 4]` through a slice promised to be 16-byte aligned; `limit` bounds the
/// values by `assume`.
#[kernel]
pub fn assumed(x: &[f32], out: &mut [f32], off: usize, limit: f32) {
    let v = assume_aligned(&x[off..off + 4], 16);
    let mut s = 0.0;
    for k in 0..4 {
        assume(v[k] < limit);
        s += v[k];
    }
    let o = assume_aligned(out, 8);
    o[0] = s;
}

fn assumed_run(dev: &Device, off: usize, limit: f32) -> Result<f32, Error> {
    let x: Vec<f32> = (0..16).map(|i| i as f32).collect();
    let s = dev.new_stream().unwrap();
    let dx = dev.upload(&x).unwrap();
    let mut out = dev.upload(&[0f32]).unwrap();
    assumed::launch(
        &s,
        LaunchConfig::for_elements(1, 1),
        &dx,
        &mut out,
        off,
        limit,
    )
    .and_then(|_| s.synchronize())?;
    Ok(out.to_vec().unwrap()[0])
}

#[test]
fn true_assumptions_pass_on_the_simulator() {
    assert_eq!(
        assumed_run(&sim(), 4, 100.0).unwrap(),
        4.0 + 5.0 + 6.0 + 7.0
    );
}

#[test]
fn false_assumptions_panic_on_the_simulator() {
    for (off, limit, want) in [
        (4, 6.5, "assumption violated: `assume` got false"),
        (
            2,
            100.0,
            "assumption violated: the slice passed to `assume_aligned` is not 16-byte aligned",
        ),
    ] {
        match assumed_run(&sim(), off, limit) {
            Err(Error::KernelPanic(p)) => {
                assert_eq!(p.message, want);
                assert!(p.file.ends_with("intrinsics/assume_cvta.rs"), "{}", p.file);
            }
            other => panic!("off {off}: expected a panic, got {other:?}"),
        }
    }
}

/// The checks sit behind a constant-false predicate in the PTX (ptxas drops them: the sm_90
/// SASS of `assumed` has no branch for them).
#[test]
fn assumption_checks_are_off_in_the_ptx() {
    let ptx = ferrocuda::kernel_compiler::compile(assumed::ast(), &[], &Default::default())
        .unwrap()
        .ptx;
    let guard = ptx
        .lines()
        .find_map(|l| l.trim().strip_prefix("mov.pred "))
        .and_then(|l| l.strip_suffix(", 0;"))
        .unwrap_or_else(|| panic!("no constant-false guard:\n{ptx}"));
    let guarded = ptx.matches(&format!(", {guard}, ")).count();
    assert_eq!(
        guarded, 6,
        "one guard per check (2 alignments, 4 assumes):\n{ptx}"
    );
    assembles(assumed::ast());
}

#[kernel]
pub fn bad_alignment(x: &mut [f32], a: usize) {
    let v = assume_aligned(x, a);
    v[0] = 1.0;
}

#[test]
fn assume_aligned_needs_a_constant_power_of_two() {
    let e = ferrocuda::kernel_compiler::compile(bad_alignment::ast(), &[], &Default::default())
        .unwrap_err()
        .to_string();
    assert!(e.contains("constant power-of-two alignment"), "{e}");
}

/// Round trips through generic addresses, and distances between generic addresses.
#[kernel]
pub fn conversions(x: &[u32], out: &mut [u64]) {
    let s = shared_array::<[u32; 32]>();
    let t = thread_idx().x as usize;
    s[t] = x[t];
    sync_threads();
    let a = cvta_to_shared(&s[t]);
    let g = cvta_shared_to_generic(a);
    let g0 = cvta_shared_to_generic(cvta_to_shared(&s[0]));
    let o = t * 4;
    out[o] = (cvta_generic_to_shared(g) == a) as u64;
    out[o + 1] = g - g0;
    let ga = cvta_to_global(&x[t]);
    let gg = cvta_global_to_generic(ga);
    out[o + 2] = (cvta_generic_to_global(gg) == ga) as u64;
    out[o + 3] = gg - cvta_global_to_generic(cvta_to_global(&x[0]));
}

fn conversions_on(dev: &Device) {
    let x: Vec<u32> = (0..32).collect();
    let s = dev.new_stream().unwrap();
    let dx = dev.upload(&x).unwrap();
    let mut out = dev.upload(&[0u64; 128]).unwrap();
    conversions::launch(&s, LaunchConfig::for_elements(32, 32), &dx, &mut out).unwrap();
    let got = out.to_vec().unwrap();
    for t in 0..32u64 {
        let row = &got[t as usize * 4..t as usize * 4 + 4];
        assert_eq!(row, [1, 4 * t, 1, 4 * t], "thread {t}");
    }
}

#[test]
fn address_conversions_round_trip_on_the_simulator() {
    conversions_on(&sim());
    assembles(conversions::ast());
}

#[test]
#[ignore = "needs a GPU"]
fn assumptions_and_conversions_on_the_gpu() {
    let Some(dev) = gpu() else { return };
    assert_eq!(assumed_run(&dev, 4, 100.0).unwrap(), 22.0);
    // A false assumption is undefined behaviour on the GPU: not run there.
    conversions_on(&dev);
}
