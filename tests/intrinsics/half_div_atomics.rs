//! Half division (`hdiv`, `h2div` for f16 and bf16) against correctly rounded references, and
//! `atomicAdd` on `half2` / `bfloat162` in global and shared memory. Simulator and GPU
//! (`--ignored`) share the bodies; PTX assembled by ptxas for sm_80 and sm_90 (bf16x2 atomics:
//! sm_90 only, a compile error below it).

use crate::intr_common;

use ferrocuda::kernel_compiler::{compile, CompileOptions};
use ferrocuda::kernel_sim as sim;
use ferrocuda::prelude::*;
use intr_common::{assembles, gpu, inputs};

#[kernel]
pub fn divisions(a: &[f16], b: &[f16], c: &[bf16], d: &[bf16], q: &mut [f16], r: &mut [bf16]) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    if i + 1 < a.len() && i % 2 == 0 {
        q[i] = hdiv(a[i], b[i]);
        let p = h2div(make_half2(a[i], a[i + 1]), make_half2(b[i], b[i + 1]));
        q[a.len() + i] = p.x;
        q[a.len() + i + 1] = p.y;
        r[i] = hdiv_bf16(c[i], d[i]);
        let s = h2div_bf16(
            make_bfloat162(c[i], c[i + 1]),
            make_bfloat162(d[i], d[i + 1]),
        );
        r[a.len() + i] = s.x;
        r[a.len() + i + 1] = s.y;
    }
}

/// Same value or both NaN (the GPU's NaN is canonical, the inputs' payloads are not kept).
fn same<T: Copy + PartialEq>(x: T, y: T, nan: fn(T) -> bool) -> bool {
    (nan(x) && nan(y)) || x == y
}

fn divisions_on(dev: &Device, n: usize) {
    let bits = |seed| {
        inputs(n, seed)
            .into_iter()
            .map(|v| v as u16)
            .collect::<Vec<_>>()
    };
    let a: Vec<f16> = bits(1).into_iter().map(f16::from_bits).collect();
    let b: Vec<f16> = bits(2).into_iter().map(f16::from_bits).collect();
    let c: Vec<bf16> = bits(3).into_iter().map(bf16::from_bits).collect();
    let d: Vec<bf16> = bits(4).into_iter().map(bf16::from_bits).collect();
    let s = dev.new_stream().unwrap();
    let (da, db, dc, dd) = (
        dev.upload(&a).unwrap(),
        dev.upload(&b).unwrap(),
        dev.upload(&c).unwrap(),
        dev.upload(&d).unwrap(),
    );
    let mut q = dev.upload(&vec![f16::ZERO; 2 * n]).unwrap();
    let mut r = dev.upload(&vec![bf16::ZERO; 2 * n]).unwrap();
    let cfg = LaunchConfig::for_elements(n, 128);
    divisions::launch(&s, cfg, &da, &db, &dc, &dd, &mut q, &mut r).unwrap();
    let (q, r) = (q.to_vec().unwrap(), r.to_vec().unwrap());
    // References from the f64 quotient, rounded once: the correctly rounded 16-bit quotient.
    let hq = |x: f16, y: f16| f16::from_f64(x.to_f64() / y.to_f64());
    let bq = |x: bf16, y: bf16| bf16::from_f64(x.to_f64() / y.to_f64());
    for i in (0..n - 1).step_by(2) {
        for (k, got) in [(i, q[i]), (i, q[n + i]), (i + 1, q[n + i + 1])] {
            let want = hq(a[k], b[k]);
            assert!(
                same(got, want, f16::is_nan),
                "f16 {:?} / {:?}: {got:?}, want {want:?}",
                a[k],
                b[k]
            );
        }
        for (k, got) in [(i, r[i]), (i, r[n + i]), (i + 1, r[n + i + 1])] {
            let want = bq(c[k], d[k]);
            assert!(
                same(got, want, bf16::is_nan),
                "bf16 {:?} / {:?}: {got:?}, want {want:?}",
                c[k],
                d[k]
            );
        }
    }
}

/// Every thread adds (1, 0.25) to one global `half2` and to its block's shared one; the sums
/// are exact in any order. `old` collects the x lanes each thread saw.
#[kernel]
pub fn half2_sums(g: &mut [half2], old: &mut [f16]) {
    let s = shared_array::<[half2; 1]>();
    let t = thread_idx().x;
    if t == 0 {
        s[0] = make_half2(f16::ZERO, f16::ZERO);
    }
    sync_threads();
    let v = make_half2(f16::ONE, f16::from_f32(0.25));
    let i = (block_idx().x * block_dim().x + t) as usize;
    old[i] = atomic_add_half2(&mut g[0], v).x;
    atomic_add_half2(&mut s[0], v);
    sync_threads();
    if t == 0 {
        g[1 + block_idx().x as usize] = s[0];
    }
}

#[kernel]
pub fn bfloat162_sums(g: &mut [bfloat162]) {
    let s = shared_array::<[bfloat162; 1]>();
    let t = thread_idx().x;
    if t == 0 {
        s[0] = make_bfloat162(bf16::ZERO, bf16::ZERO);
    }
    sync_threads();
    let v = make_bfloat162(bf16::ONE, bf16::from_f32(0.25));
    atomic_add_bfloat162(&mut g[0], v);
    atomic_add_bfloat162(&mut s[0], v);
    sync_threads();
    if t == 0 {
        g[1] = s[0];
    }
}

fn half2_sums_on(dev: &Device) {
    let (blocks, threads) = (2usize, 128usize);
    let s = dev.new_stream().unwrap();
    let mut g = dev.upload(&vec![half2::default(); 1 + blocks]).unwrap();
    let mut old = dev.upload(&vec![f16::ZERO; blocks * threads]).unwrap();
    let cfg = LaunchConfig::for_elements(blocks * threads, threads as u32);
    half2_sums::launch(&s, cfg, &mut g, &mut old).unwrap();
    let g = g.to_vec().unwrap();
    let n = (blocks * threads) as f32;
    assert_eq!(g[0], half2::new(f16::from_f32(n), f16::from_f32(n / 4.0)));
    for b in &g[1..] {
        let t = threads as f32;
        assert_eq!(*b, half2::new(f16::from_f32(t), f16::from_f32(t / 4.0)));
    }
    let mut seen: Vec<f32> = old.to_vec().unwrap().iter().map(|v| v.to_f32()).collect();
    seen.sort_by(f32::total_cmp);
    let want: Vec<f32> = (0..blocks * threads).map(|k| k as f32).collect();
    assert_eq!(seen, want, "each thread sees a distinct old value");
}

#[test]
fn half_division_is_correctly_rounded_on_the_simulator() {
    divisions_on(&Device::simulator(), 4000);
}

#[test]
fn half2_atomic_add_on_the_simulator() {
    half2_sums_on(&Device::simulator());
}

fn opts(sm: u32) -> CompileOptions {
    CompileOptions {
        sm,
        ..CompileOptions::default()
    }
}

/// The sm_90 kernel on the simulator, told to stand for sm_90 (its default, sm_80, refuses it).
#[test]
fn bfloat162_atomic_add_on_the_simulator() {
    let c = compile(bfloat162_sums::ast(), &[], &opts(90)).unwrap();
    let mut mem = sim::GlobalMemory::new();
    let addr = mem.alloc(8);
    let mut param = addr.to_le_bytes().to_vec();
    param.extend(2u64.to_le_bytes());
    sim::launch(
        &c.kernel,
        &sim::SimLaunch::linear(1, 64).on(sim::Target::SM_90),
        &[&param],
        &mut mem,
    )
    .unwrap();
    let mut out = [0u8; 8];
    mem.read(addr, &mut out).unwrap();
    let lane = |k: usize| bf16::from_bits(u16::from_le_bytes([out[2 * k], out[2 * k + 1]]));
    for k in [0, 2] {
        assert_eq!(
            (lane(k), lane(k + 1)),
            (bf16::from_f32(64.0), bf16::from_f32(16.0))
        );
    }
}

#[test]
fn pair_atomics_and_divisions_assemble() {
    assembles(divisions::ast());
    assembles(half2_sums::ast());
    let h = compile(half2_sums::ast(), &[], &opts(80)).unwrap().ptx;
    assert!(h.contains("atom.global.add.noftz.f16x2"), "{h}");
    assert!(h.contains("atom.shared.add.noftz.f16x2"), "{h}");
    let err = compile(bfloat162_sums::ast(), &[], &opts(80))
        .unwrap_err()
        .to_string();
    assert!(err.contains("needs sm_90 or newer"), "{err}");
    // The error names the user's line, not the intrinsic's table entry.
    let line = include_str!("half_div_atomics.rs")
        .lines()
        .position(|l| l.trim() == "atomic_add_bfloat162(&mut g[0], v);")
        .expect("the call is in this file")
        + 1;
    assert!(
        err.starts_with(&format!("tests/intrinsics/half_div_atomics.rs:{line}:")),
        "{err}"
    );
    let b = compile(bfloat162_sums::ast(), &[], &opts(90)).unwrap().ptx;
    assert!(b.contains("atom.shared.add.noftz.bf16x2"), "{b}");
    if kernel_testkit::ptxas::require_ptxas().is_some() {
        kernel_testkit::ptxas::assemble(&b, 90).unwrap_or_else(|e| panic!("{e}\n{b}"));
    }
}

#[test]
#[ignore = "needs a GPU"]
fn half_division_and_pair_atomics_on_the_gpu() {
    let Some(dev) = gpu() else { return };
    divisions_on(&dev, 100_000);
    half2_sums_on(&dev);
    if dev.sm() >= 90 {
        let s = dev.new_stream().unwrap();
        let mut g = dev.upload(&[bfloat162::default(); 2]).unwrap();
        bfloat162_sums::launch(&s, LaunchConfig::for_elements(64, 64), &mut g).unwrap();
        let want = bfloat162::new(bf16::from_f32(64.0), bf16::from_f32(16.0));
        assert_eq!(g.to_vec().unwrap(), [want, want]);
    }
}
