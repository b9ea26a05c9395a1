//! The intrinsics examples (atomics, votes, shuffles, reductions, histogram, fence reduction)
//! against their CPU references: on the simulator in `cargo test`, on the GPU with
//! `--include-ignored` (skipped without one unless FERROCUDA_REQUIRE_GPU is set).

use ferrocuda::prelude::*;
use ferrocuda_examples::{
    fence_reduction, histogram, reduction, shfl_scan, simple_atomics, simple_graphs, simple_vote,
};

fn sim() -> Device {
    Device::simulator()
}

#[test]
fn simple_atomics_sim() {
    simple_atomics::check(&sim(), 3).unwrap();
}

#[test]
fn simple_graphs_sim() {
    simple_graphs::check(&sim(), 3000, 3).unwrap();
}

#[test]
fn simple_vote_sim() {
    simple_vote::check(&sim(), 3).unwrap();
}

#[test]
fn shfl_scan_sim() {
    shfl_scan::check(&sim(), 256 * 5 + 77).unwrap();
}

#[test]
fn reduction_sim() {
    reduction::check(&sim(), 10_000, 7).unwrap();
}

#[test]
fn histogram_sim() {
    histogram::check(&sim(), 5_000, 6).unwrap();
}

#[test]
fn fence_reduction_sim() {
    fence_reduction::check(&sim(), 9_000, 5).unwrap();
}

fn gpu() -> Option<Device> {
    match Device::cuda(0) {
        Ok(d) => Some(d),
        Err(e) if std::env::var_os("FERROCUDA_REQUIRE_GPU").is_none() => {
            eprintln!("skipping GPU test: {e}");
            None
        }
        Err(e) => panic!("GPU required: {e}"),
    }
}

#[test]
#[ignore = "needs a GPU"]
fn intrinsics_examples_gpu() {
    let Some(dev) = gpu() else { return };
    // Every thread of the CAS loops contends for one word: keep the grid modest.
    simple_atomics::check(&dev, 64).unwrap();
    simple_vote::check(&dev, 1000).unwrap();
    simple_graphs::check(&dev, 1 << 20, 10).unwrap();
    shfl_scan::check(&dev, 256 * 256).unwrap();
    shfl_scan::check(&dev, 12_345).unwrap();
    reduction::check(&dev, (1 << 24) + 5, 1024).unwrap();
    histogram::check(&dev, (1 << 22) + 3, 512).unwrap();
    fence_reduction::check(&dev, (1 << 20) + 9, 256).unwrap();
}

// ---- Every remaining intrinsic variant: shuffles of every width, warp reductions, matches,
// reducing barriers, fences and shared-memory atomics; simulator against CPU models, and ptxas.

const FULL: u32 = 0xffff_ffff;

#[kernel]
fn shuffles(
    a: &[u64],
    b: &[f64],
    c: &[i32],
    h: &[f16],
    g: &[bf16],
    o64: &mut [u64],
    of: &mut [f64],
    o32: &mut [i32],
    oh: &mut [f16],
    og: &mut [bf16],
) {
    let i = thread_idx().x as usize;
    let lane = lane_id();
    let x = a[i];
    o64[4 * i] = shfl_sync(FULL, x, (lane * 7) % 32, 32);
    o64[4 * i + 1] = shfl_up_sync(FULL, x, 3, 16);
    o64[4 * i + 2] = shfl_down_sync(FULL, x, 5, 8);
    o64[4 * i + 3] = shfl_xor_sync(FULL, x, 9, 32);
    let y = b[i];
    of[2 * i] = shfl_xor_sync(FULL, y, 1, 32);
    of[2 * i + 1] = shfl_down_sync(FULL, y, 2, 32);
    let z = c[i];
    o32[2 * i] = shfl_sync(FULL, z, 31 - lane, 32);
    o32[2 * i + 1] = shfl_up_sync(FULL, z, 1, 32);
    oh[i] = shfl_down_sync(FULL, h[i], 1, 32);
    og[i] = shfl_sync(FULL, g[i], 0, 4);
}

fn src_idx(lane: u32, s: u32, w: u32) -> u32 {
    (lane & !(w - 1)) + (s % w)
}
fn src_up(lane: u32, d: u32, w: u32) -> u32 {
    if lane % w >= d {
        lane - d
    } else {
        lane
    }
}
fn src_down(lane: u32, d: u32, w: u32) -> u32 {
    if lane % w + d < w {
        lane + d
    } else {
        lane
    }
}

#[allow(clippy::type_complexity)]
fn shuffles_reference(
    a: &[u64],
    b: &[f64],
    c: &[i32],
    h: &[u16],
    g: &[u16],
) -> (Vec<u64>, Vec<u64>, Vec<i32>, Vec<u16>, Vec<u16>) {
    let n = a.len();
    let (mut o64, mut of, mut o32, mut oh, mut og) = (vec![], vec![], vec![], vec![], vec![]);
    for i in 0..n {
        let lane = (i % 32) as u32;
        let at = |l: u32| (i - lane as usize) + l as usize;
        o64.push(a[at(src_idx(lane, (lane * 7) % 32, 32))]);
        o64.push(a[at(src_up(lane, 3, 16))]);
        o64.push(a[at(src_down(lane, 5, 8))]);
        o64.push(a[at(lane ^ 9)]);
        of.push(b[at(lane ^ 1)].to_bits());
        of.push(b[at(src_down(lane, 2, 32))].to_bits());
        o32.push(c[at(31 - lane)]);
        o32.push(c[at(src_up(lane, 1, 32))]);
        oh.push(h[at(src_down(lane, 1, 32))]);
        og.push(g[at(src_idx(lane, 0, 4))]);
    }
    (o64, of, o32, oh, og)
}

#[test]
fn shuffles_every_type_sim() {
    let dev = sim();
    let n = 64;
    let mut rng = ferrocuda_examples::util::Rng::new(41);
    let a: Vec<u64> = (0..n).map(|_| rng.next_u64()).collect();
    let b: Vec<f64> = (0..n).map(|_| rng.next_u32() as f64 * 0.25 - 3.0).collect();
    let c: Vec<i32> = (0..n).map(|_| rng.next_u32() as i32).collect();
    let hb: Vec<u16> = (0..n).map(|_| rng.next_u32() as u16 & 0x7bff).collect();
    let gb: Vec<u16> = (0..n).map(|_| rng.next_u32() as u16 & 0x7f7f).collect();
    let h: Vec<f16> = hb.iter().map(|&x| f16::from_bits(x)).collect();
    let g: Vec<bf16> = gb.iter().map(|&x| bf16::from_bits(x)).collect();
    let stream = dev.new_stream().unwrap();
    let (da, db, dc, dh, dg) = (
        dev.upload(&a).unwrap(),
        dev.upload(&b).unwrap(),
        dev.upload(&c).unwrap(),
        dev.upload(&h).unwrap(),
        dev.upload(&g).unwrap(),
    );
    let mut o64 = dev.upload(&vec![0u64; 4 * n]).unwrap();
    let mut of = dev.upload(&vec![0f64; 2 * n]).unwrap();
    let mut o32 = dev.upload(&vec![0i32; 2 * n]).unwrap();
    let mut oh = dev.upload(&vec![f16::ZERO; n]).unwrap();
    let mut og = dev.upload(&vec![bf16::ZERO; n]).unwrap();
    let cfg = LaunchConfig::for_elements(n, n as u32);
    shuffles::launch(
        &stream, cfg, &da, &db, &dc, &dh, &dg, &mut o64, &mut of, &mut o32, &mut oh, &mut og,
    )
    .unwrap();
    let (w64, wf, w32, wh, wg) = shuffles_reference(&a, &b, &c, &hb, &gb);
    assert_eq!(o64.to_vec().unwrap(), w64);
    let got_f: Vec<u64> = of.to_vec().unwrap().iter().map(|x| x.to_bits()).collect();
    assert_eq!(got_f, wf);
    assert_eq!(o32.to_vec().unwrap(), w32);
    let got_h: Vec<u16> = oh.to_vec().unwrap().iter().map(|x| x.to_bits()).collect();
    assert_eq!(got_h, wh);
    let got_g: Vec<u16> = og.to_vec().unwrap().iter().map(|x| x.to_bits()).collect();
    assert_eq!(got_g, wg);
}

#[kernel]
fn warp_reduce_mix(a: &[u32], o: &mut [u32]) {
    let i = thread_idx().x as usize;
    let x = a[i];
    o[10 * i] = reduce_min_sync(FULL, x as i32) as u32;
    o[10 * i + 1] = reduce_max_sync(FULL, x);
    o[10 * i + 2] = reduce_and_sync(FULL, x | 0x10);
    o[10 * i + 3] = reduce_or_sync(FULL, x & 0xff);
    o[10 * i + 4] = reduce_xor_sync(FULL, x);
    o[10 * i + 5] = match_any_sync(FULL, x as u64 % 3);
    let (m, all) = match_all_sync(FULL, (x % 2) as f64);
    o[10 * i + 6] = m | all as u32;
    thread_fence_block();
    o[10 * i + 7] = sync_threads_count(x % 3 == 0);
    o[10 * i + 8] = sync_threads_and(x != 7) as u32;
    thread_fence_system();
    o[10 * i + 9] = sync_threads_or(x == a[0]) as u32 + 2 * sync_threads_or(x == 7) as u32;
}

fn warp_reduce_mix_reference(a: &[u32]) -> Vec<u32> {
    let mut o = Vec::new();
    let count = a.iter().filter(|x| *x % 3 == 0).count() as u32;
    let and = a.iter().all(|&x| x != 7) as u32;
    let or = 1 + 2 * a.contains(&7) as u32;
    for (i, &x) in a.iter().enumerate() {
        let w = &a[i / 32 * 32..][..32];
        o.push(w.iter().map(|&v| v as i32).min().unwrap() as u32);
        o.push(*w.iter().max().unwrap());
        o.push(w.iter().fold(!0, |s, v| s & (v | 0x10)));
        o.push(w.iter().fold(0, |s, v| s | (v & 0xff)));
        o.push(w.iter().fold(0, |s, v| s ^ v));
        o.push(
            (0..32)
                .filter(|&l| w[l] % 3 == x % 3)
                .fold(0, |m, l| m | 1 << l),
        );
        let same = w.iter().all(|v| v % 2 == w[0] % 2);
        o.push(if same { FULL } else { 0 });
        o.push(count);
        o.push(and);
        o.push(or);
    }
    o
}

#[test]
fn warp_reductions_matches_and_reducing_barriers_sim() {
    let dev = sim();
    let mut rng = ferrocuda_examples::util::Rng::new(43);
    // Warp 1 is all even, so match_all agrees there.
    let a: Vec<u32> = (0..96)
        .map(|i| {
            let r = rng.next_u32() % 50;
            if i / 32 == 1 {
                r & !1
            } else {
                r
            }
        })
        .collect();
    let stream = dev.new_stream().unwrap();
    let da = dev.upload(&a).unwrap();
    let mut o = dev.upload(&vec![0u32; 10 * a.len()]).unwrap();
    warp_reduce_mix::launch(&stream, LaunchConfig::for_elements(96, 96), &da, &mut o).unwrap();
    assert_eq!(o.to_vec().unwrap(), warp_reduce_mix_reference(&a));
}

#[kernel]
fn shared_atomics(out_u: &mut [u32], out_i: &mut [i64], out_f: &mut [f32], out_d: &mut [f64]) {
    let su = shared_array::<[u32; 8]>();
    let si = shared_array::<[i64; 4]>();
    let sf = shared_array::<[f32; 3]>();
    let sd = shared_array::<[f64; 2]>();
    let t = thread_idx().x;
    if t == 0 {
        for k in 0..8 {
            su[k] = 0;
        }
        su[2] = FULL;
        for k in 0..4 {
            si[k] = 0;
        }
        sf[0] = 0.0;
        sf[1] = 1e30;
        sf[2] = -1e30;
        sd[0] = 0.0;
        sd[1] = 1e300;
    }
    sync_threads();
    atomic_add_block(&mut su[0], t);
    atomic_max(&mut su[1], t * 3);
    atomic_min_system(&mut su[2], t + 5);
    atomic_inc_block(&mut su[3], 9);
    atomic_dec(&mut su[4], 20);
    atomic_or(&mut su[5], 1u32 << (t % 32));
    atomic_sub(&mut su[6], 2);
    let mut old = atomic_xor(&mut su[7], 0);
    loop {
        let seen = atomic_cas_block(&mut su[7], old, old + 3);
        if seen == old {
            break;
        }
        old = seen;
    }
    atomic_add(&mut si[0], -(t as i64) * 1_000_000_000);
    atomic_min_block(&mut si[1], -(t as i64));
    atomic_xor(&mut si[2], (t as i64) << 40);
    atomic_exch(&mut si[3], 9);
    atomic_add(&mut sf[0], 0.5);
    atomic_min_block(&mut sf[1], t as f32 - 10.0);
    atomic_max(&mut sf[2], t as f32 * 2.0);
    atomic_add_system(&mut sd[0], t as f64);
    atomic_min(&mut sd[1], -(t as f64));
    sync_threads();
    if t == 0 {
        for k in 0..8 {
            out_u[k] = su[k];
        }
        for k in 0..4 {
            out_i[k] = si[k];
        }
        for k in 0..3 {
            out_f[k] = sf[k];
        }
        for k in 0..2 {
            out_d[k] = sd[k];
        }
    }
}

#[test]
fn shared_memory_atomics_sim() {
    let dev = sim();
    let n = 100u32;
    let stream = dev.new_stream().unwrap();
    let mut u = dev.upload(&[7u32; 8]).unwrap();
    let mut i = dev.upload(&[7i64; 4]).unwrap();
    let mut f = dev.upload(&[7f32; 3]).unwrap();
    let mut d = dev.upload(&[7f64; 2]).unwrap();
    let cfg = LaunchConfig::for_elements(n as usize, n);
    shared_atomics::launch(&stream, cfg, &mut u, &mut i, &mut f, &mut d).unwrap();
    let mut wu = [0u32, 0, FULL, 0, 0, 0, 0, 0];
    let mut wi = [0i64; 4];
    let (mut wf, mut wd) = ([0f32, 1e30, -1e30], [0f64, 1e300]);
    for t in 0..n {
        wu[0] += t;
        wu[1] = wu[1].max(t * 3);
        wu[2] = wu[2].min(t + 5);
        wu[3] = if wu[3] >= 9 { 0 } else { wu[3] + 1 };
        wu[4] = if wu[4] == 0 || wu[4] > 20 {
            20
        } else {
            wu[4] - 1
        };
        wu[5] |= 1 << (t % 32);
        wu[6] = wu[6].wrapping_sub(2);
        wu[7] += 3;
        wi[0] += -(t as i64) * 1_000_000_000;
        wi[1] = wi[1].min(-(t as i64));
        wi[2] ^= (t as i64) << 40;
        wi[3] = 9;
        wf[0] += 0.5;
        wf[1] = wf[1].min(t as f32 - 10.0);
        wf[2] = wf[2].max(t as f32 * 2.0);
        wd[0] += t as f64;
        wd[1] = wd[1].min(-(t as f64));
    }
    assert_eq!(u.to_vec().unwrap(), wu);
    assert_eq!(i.to_vec().unwrap(), wi);
    assert_eq!(f.to_vec().unwrap(), wf);
    assert_eq!(d.to_vec().unwrap(), wd);
}

#[test]
fn intrinsic_test_kernels_assemble_for_sm80_and_sm90() {
    use ferrocuda::kernel_compiler::{compile, CompileOptions};
    if kernel_testkit::ptxas::require_ptxas().is_none() {
        return;
    }
    let defs = [
        shuffles::ast(),
        warp_reduce_mix::ast(),
        shared_atomics::ast(),
    ];
    for def in defs {
        for sm in [80, 90] {
            let opts = CompileOptions {
                sm,
                ..CompileOptions::default()
            };
            let c = compile(def, &[], &opts).unwrap_or_else(|e| panic!("{}: {e}", def.name));
            kernel_testkit::ptxas::assemble(&c.ptx, sm)
                .unwrap_or_else(|e| panic!("{} for sm_{sm}: ptxas failed:\n{e}", def.name));
        }
    }
}

#[test]
fn warp_reductions_need_sm80() {
    use ferrocuda::kernel_compiler::{compile, CompileOptions};
    let opts = CompileOptions {
        sm: 70,
        ..CompileOptions::default()
    };
    let err = compile(warp_reduce_mix::ast(), &[], &opts).unwrap_err();
    assert!(err.to_string().contains("sm_80"), "{err}");
    // A GPU launch compiles without source markers; its error still names the line.
    let gpu = CompileOptions {
        source_markers: false,
        ..opts
    };
    let again = compile(warp_reduce_mix::ast(), &[], &gpu).unwrap_err();
    assert_eq!(again.to_string(), err.to_string());
    assert!(err.to_string().contains("intrinsics_sim.rs:"), "{err}");
}

#[kernel]
fn ordered_atomics(flags: &[u32], g: &mut [u64], f: &mut [f32]) {
    let s = shared_array::<[u32; 2]>();
    let t = thread_idx().x;
    if t == 0 {
        atomic_store_block(&mut s[0], 0);
        atomic_store_release(&mut s[1], 0);
    }
    sync_threads();
    let seen = atomic_load_acquire(&flags[t as usize]);
    atomic_add_acq_rel(&mut g[0], seen as u64);
    atomic_max_system_release(&mut g[1], t as u64);
    atomic_or_block_acquire(&mut s[0], 1u32 << (t % 32));
    atomic_add_block_acq_rel(&mut s[1], atomic_load(&flags[t as usize]));
    atomic_min_acquire(&mut f[0], t as f32);
    sync_threads();
    if t == 0 {
        atomic_store_system_release(&mut g[2], atomic_load_block_acquire(&s[0]) as u64);
        atomic_store(&mut g[3], atomic_load_system(&s[1]) as u64);
        let old = atomic_exch_system_acq_rel(&mut f[1], 4.5);
        atomic_store_release(&mut f[2], old);
    }
}

#[test]
fn ordered_atomics_loads_and_stores_sim() {
    let dev = sim();
    let flags: Vec<u32> = (0..64).map(|i| i * 3 + 1).collect();
    let stream = dev.new_stream().unwrap();
    let df = dev.upload(&flags).unwrap();
    let mut g = dev.upload(&[10u64, 0, 0, 0]).unwrap();
    let mut f = dev.upload(&[100f32, -2.0, 0.0]).unwrap();
    let cfg = LaunchConfig::for_elements(64, 64);
    ordered_atomics::launch(&stream, cfg, &df, &mut g, &mut f).unwrap();
    let sum: u64 = flags.iter().map(|&x| x as u64).sum();
    assert_eq!(g.to_vec().unwrap(), [10 + sum, 63, 0xffff_ffff, sum]);
    assert_eq!(f.to_vec().unwrap(), [0.0, 4.5, -2.0]);
}

#[test]
fn ordered_atomics_assemble_for_sm80_and_sm90() {
    use ferrocuda::kernel_compiler::{compile, CompileOptions};
    if kernel_testkit::ptxas::require_ptxas().is_none() {
        return;
    }
    for sm in [80, 90] {
        let opts = CompileOptions {
            sm,
            ..CompileOptions::default()
        };
        let c = compile(ordered_atomics::ast(), &[], &opts).unwrap();
        for needle in [
            "ld.acquire.gpu.global.u32",
            "atom.acq_rel.gpu.global.add.u64",
            "atom.release.sys.global.max.u64",
            "atom.acquire.cta.shared.or.b32",
            "st.release.sys.global.u64",
            "ld.relaxed.sys.shared.u32",
        ] {
            assert!(c.ptx.contains(needle), "no `{needle}` in\n{}", c.ptx);
        }
        kernel_testkit::ptxas::assemble(&c.ptx, sm)
            .unwrap_or_else(|e| panic!("ordered_atomics for sm_{sm}: ptxas failed:\n{e}"));
    }
}

#[kernel]
fn atomic_then_plain_read(out: &mut [u32]) {
    let s = shared_array::<[u32; 1]>();
    if thread_idx().x == 0 {
        s[0] = 0;
    }
    sync_threads();
    atomic_add_block(&mut s[0], 1);
    // No barrier: this plain read races with the other threads' atomics.
    out[thread_idx().x as usize] = s[0];
}

#[test]
fn race_detector_sees_plain_reads_against_atomics() {
    let dev = sim();
    let stream = dev.new_stream().unwrap();
    let mut out = dev.upload(&[0u32; 64]).unwrap();
    let err = atomic_then_plain_read::launch(&stream, LaunchConfig::for_elements(64, 64), &mut out)
        .and_then(|_| out.to_vec())
        .unwrap_err();
    assert!(format!("{err:?}").contains("SharedRace"), "{err:?}");
}

#[kernel]
fn half_atomics(h: &mut [f16]) {
    atomic_add(&mut h[0], f16::ONE);
    atomic_add_block(&mut h[1], f16::from_f32(0.5));
}

/// bf16 atomics need sm_90, above the simulator's default target: compiled, not run.
#[kernel]
fn bf16_atomics(b: &mut [bf16]) {
    atomic_add_system_acq_rel(&mut b[0], bf16::from_f32(2.0));
}

#[test]
fn half_precision_atomic_add_sim() {
    let dev = sim();
    let stream = dev.new_stream().unwrap();
    let mut h = dev.upload(&[f16::ZERO, f16::from_f32(1.0)]).unwrap();
    half_atomics::launch(&stream, LaunchConfig::for_elements(64, 64), &mut h).unwrap();
    assert_eq!(
        h.to_vec().unwrap(),
        [f16::from_f32(64.0), f16::from_f32(33.0)]
    );
}

#[test]
fn half_precision_atomic_add_targets() {
    use ferrocuda::kernel_compiler::{compile, CompileOptions};
    let opts = |sm| CompileOptions {
        sm,
        ..CompileOptions::default()
    };
    // bf16 atomics arrive with sm_90.
    let err = compile(bf16_atomics::ast(), &[], &opts(80)).unwrap_err();
    assert!(err.to_string().contains("sm_90"), "{err}");
    let b = compile(bf16_atomics::ast(), &[], &opts(90)).unwrap();
    assert!(
        b.ptx.contains("atom.acq_rel.sys.global.add.noftz.bf16"),
        "{}",
        b.ptx
    );
    for sm in [80, 90] {
        let h = compile(half_atomics::ast(), &[], &opts(sm)).unwrap();
        assert!(h.ptx.contains("atom.global.add.noftz.f16"), "{}", h.ptx);
        if kernel_testkit::ptxas::require_ptxas().is_some() {
            kernel_testkit::ptxas::assemble(&h.ptx, sm).unwrap();
            if sm == 90 {
                kernel_testkit::ptxas::assemble(&b.ptx, 90).unwrap();
            }
        }
    }
}

#[kernel]
fn half_atomic_on_shared(out: &mut [f16]) {
    let s = shared_array::<[f16; 1]>();
    s[0] = f16::ZERO;
    sync_threads();
    atomic_add(&mut s[0], f16::ONE);
    sync_threads();
    out[0] = s[0];
}

#[test]
fn half_precision_atomics_on_shared_memory_are_refused() {
    use ferrocuda::kernel_compiler::{compile, CompileOptions};
    let err = compile(
        half_atomic_on_shared::ast(),
        &[],
        &CompileOptions::default(),
    )
    .unwrap_err();
    assert!(err.to_string().contains("Shared memory"), "{err}");
}
