//! `#[kernel]`s on simulator devices of a chosen architecture: what the architecture refuses
//! (ptxas's 48 KiB static shared limit, intrinsics newer than the target) fails the launch, and the
//! detectors name warp mask disagreements, read/write races and compare-and-swap loops as a GPU
//! programmer would expect.
//!
//! Every device here is made with `Device::simulator_with_arch`, except in the one test that sets
//! `FERROCUDA_SIM_ARCH`, so that test's environment cannot leak into the others.

use ferrocuda::prelude::*;
use kernel_sim::{SimError, SimErrorKind};

/// 80,000 bytes of static shared memory: ptxas says "uses too much shared data (0x13880 bytes,
/// 0xc000 max)".
#[kernel]
pub fn big_static_shared(out: &mut [u32]) {
    let s = shared_array::<[u32; 20000]>();
    let t = thread_idx().x as usize;
    s[t] = t as u32;
    sync_threads();
    out[t] = s[(t + 1) % 32];
}

/// Exactly 48 KiB of static shared memory: accepted everywhere.
#[kernel]
pub fn max_static_shared(out: &mut [u32]) {
    let s = shared_array::<[u32; 12288]>();
    let t = thread_idx().x as usize;
    s[t] = t as u32;
    sync_threads();
    out[t] = s[(t + 1) % 32];
}

/// `atomicAdd` on `__nv_bfloat162`: sm_90 and newer.
#[kernel]
pub fn bf16_pair_sum(g: &mut [bfloat162]) {
    atomic_add_bfloat162(&mut g[0], make_bfloat162(bf16::ONE, bf16::ONE));
}

/// Lane 5 passes a mask of itself and lane 0, while lane 0's full mask names lane 5.
#[kernel]
pub fn mask_disagreement(out: &mut [u32]) {
    let t = thread_idx().x;
    let mask = if t == 5 { 0x21 } else { u32::MAX };
    let v = shfl_sync(mask, t * 10, 0, 32);
    out[t as usize] = v;
}

/// The block reverse without its barrier.
#[kernel]
pub fn reverse_no_barrier(out: &mut [u32]) {
    let s = shared_array::<[u32; 64]>();
    let t = thread_idx().x as usize;
    s[t] = 2 * t as u32;
    out[t] = s[63 - t];
}

/// The programming guide's `atomicAdd` for `double` built from `atomicCAS`, on a shared word.
#[kernel]
pub fn shared_f64_sum(x: &[f64], out: &mut [f64]) {
    let s = shared_array::<[u64; 1]>();
    let t = thread_idx().x as usize;
    if t == 0 {
        s[0] = 0f64.to_bits();
    }
    sync_threads();
    let mut old = s[0];
    loop {
        let assumed = old;
        old = atomic_cas(
            &mut s[0],
            assumed,
            (f64::from_bits(assumed) + x[t]).to_bits(),
        );
        if assumed == old {
            break;
        }
    }
    sync_threads();
    if t == 0 {
        out[0] = f64::from_bits(s[0]);
    }
}

/// `(line, col)` of `needle` in the first line of this file whose trimmed text is `line`.
fn at(line: &str, needle: &str) -> (u32, u32) {
    let src = include_str!("sim_target_detect.rs");
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

fn sim(sm: u32) -> Device {
    Device::simulator_with_arch(sm).unwrap()
}

#[test]
fn static_shared_memory_over_48_kib_fails_the_launch() {
    for sm in [70, 80, 86, 90] {
        let dev = sim(sm);
        let s = dev.new_stream().unwrap();
        let mut out = dev.alloc_zeroed::<u32>(32).unwrap();
        let e = sim_error(big_static_shared::launch(
            &s,
            LaunchConfig::for_elements(32, 32),
            &mut out,
        ));
        assert_eq!(e.kind, SimErrorKind::TargetLimit, "{e}");
        assert!(
            e.message.contains("80000 bytes of static shared memory")
                && e.message.contains("at most 49152 per block"),
            "{e}"
        );
        s.synchronize().unwrap();
        max_static_shared::launch(&s, LaunchConfig::for_elements(32, 32), &mut out).unwrap();
        s.synchronize().unwrap();
        assert_eq!(out.to_vec().unwrap()[0], 1);
    }
}

#[test]
fn the_simulated_architecture_is_selectable() {
    let dev = sim(90);
    assert_eq!(dev.properties().compute_capability, (9, 0));
    assert_eq!(dev.properties().shared_mem_per_block_optin, 227 * 1024);
    assert_eq!(sim(86).properties().max_threads_per_multiprocessor, 1536);
    let Err(Error::InvalidValue(m)) = Device::simulator_with_arch(61) else {
        panic!("sm_61 is not simulated")
    };
    assert!(m.contains("not a simulated architecture"), "{m}");

    // An sm_90 intrinsic: refused for sm_80 (as the PTX for it would be), run for sm_90.
    let dev = sim(80);
    let s = dev.new_stream().unwrap();
    let mut g = dev.upload(&[bfloat162::default()]).unwrap();
    let e = bf16_pair_sum::launch(&s, LaunchConfig::for_elements(64, 64), &mut g).unwrap_err();
    assert!(e.to_string().contains("needs sm_90 or newer"), "{e}");
    let dev = sim(90);
    let s = dev.new_stream().unwrap();
    let mut g = dev.upload(&[bfloat162::default()]).unwrap();
    bf16_pair_sum::launch(&s, LaunchConfig::for_elements(64, 64), &mut g).unwrap();
    let got = g.to_vec().unwrap()[0];
    assert_eq!((got.x, got.y), (bf16::from_f32(64.0), bf16::from_f32(64.0)));
}

#[test]
fn ferrocuda_sim_arch_picks_the_default_simulators_architecture() {
    // The only test of this file that creates `Device::simulator()`.
    unsafe { std::env::set_var("FERROCUDA_SIM_ARCH", "sm_90") };
    let dev90 = Device::simulator();
    unsafe { std::env::set_var("FERROCUDA_SIM_ARCH", "8.6") };
    let dev86 = Device::simulator();
    unsafe { std::env::remove_var("FERROCUDA_SIM_ARCH") };
    let dev80 = Device::simulator();
    assert_eq!(dev90.properties().compute_capability, (9, 0));
    assert_eq!(dev86.properties().compute_capability, (8, 6));
    assert_eq!(dev80.properties().compute_capability, (8, 0));
}

#[test]
fn lanes_passing_different_masks_are_located() {
    let dev = sim(80);
    let s = dev.new_stream().unwrap();
    let mut out = dev.alloc_zeroed::<u32>(32).unwrap();
    mask_disagreement::launch(&s, LaunchConfig::for_elements(32, 32), &mut out).unwrap();
    let e = sim_error(s.synchronize());
    assert_eq!(e.kind, SimErrorKind::WarpMaskMismatch, "{e}");
    assert!(e.file.ends_with("sim_target_detect.rs"), "{e}");
    assert_eq!(
        (e.line, e.col),
        at("let v = shfl_sync(mask, t * 10, 0, 32);", "shfl_sync"),
        "{e}"
    );
    assert_eq!(e.thread, [0, 0, 0]);
    assert!(
        e.message.contains(
            "lane 0 passes mask 0xffffffff but lane 5, which that mask names, passes 0x00000021"
        ),
        "{e}"
    );
}

#[test]
fn read_write_race_without_barrier_is_a_race() {
    let dev = sim(80);
    let s = dev.new_stream().unwrap();
    let mut out = dev.alloc_zeroed::<u32>(64).unwrap();
    reverse_no_barrier::launch(&s, LaunchConfig::for_elements(64, 64), &mut out).unwrap();
    let e = sim_error(s.synchronize());
    assert_eq!(e.kind, SimErrorKind::SharedRace, "{e}");
    // Thread 31 read s[32] before thread 32 wrote it.
    assert_eq!((e.line, e.col), at("s[t] = 2 * t as u32;", "s[t]"), "{e}");
    assert_eq!(e.thread, [32, 0, 0]);
    assert!(
        e.message.contains("races with a read by thread (31,0,0)"),
        "{e}"
    );
}

#[test]
fn compare_and_swap_loop_is_a_warning_not_an_error() {
    let dev = sim(80);
    let s = dev.new_stream().unwrap();
    let n = 64;
    let x: Vec<f64> = (0..n).map(|i| i as f64 * 0.5).collect();
    let dx = dev.upload(&x).unwrap();
    let mut out = dev.alloc_zeroed::<f64>(1).unwrap();
    let ((), warnings) = kernel_sim::capture_warnings(|| {
        shared_f64_sum::launch(&s, LaunchConfig::for_elements(n, n as u32), &dx, &mut out).unwrap();
        s.synchronize().unwrap();
    });
    assert_eq!(out.to_vec().unwrap(), vec![x.iter().sum::<f64>()]);
    assert_eq!(warnings.len(), 1, "{warnings:#?}");
    let w = &warnings[0];
    assert_eq!(w.kind, kernel_sim::SimWarningKind::ReadRacesWithAtomic);
    assert!(w.file.ends_with("sim_target_detect.rs"), "{w}");
    assert_eq!((w.line, w.col), at("let mut old = s[0];", "s[0]"), "{w}");
    assert_eq!(w.count, n as u64 - 1);
}
