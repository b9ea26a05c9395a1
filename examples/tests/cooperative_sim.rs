//! Cooperative launches and `grid_sync()`: the example kernels against their CPU references on
//! the simulator (which runs a cooperative grid's blocks together) in `cargo test`, on a GPU
//! with `--ignored`; every misuse is its own error before the driver; the PTX assembles.

use ferrocuda::host_runtime::{BackendKind, CaptureMode, Error, LaunchError};
use ferrocuda::prelude::*;
use ferrocuda_examples::cooperative_groups::cg_tiles;
use ferrocuda_examples::grid_sync as gs;
use gs::{config, grid_reduce, grid_rounds, BLOCK};

fn sim() -> Device {
    Device::simulator()
}

#[test]
fn cooperative_groups_example_sim() {
    ferrocuda_examples::cooperative_groups::check_all(&sim()).unwrap();
}

#[test]
#[ignore = "needs a GPU"]
fn cooperative_groups_example_gpu() {
    let Some(dev) = gpu() else { return };
    ferrocuda_examples::cooperative_groups::check_all(&dev).unwrap();
    ferrocuda_examples::cooperative_groups::check(&dev, 1024, 3).unwrap();
}

/// The L2 persistence bench kernel computes the same with and without its window.
#[test]
fn l2_persist_example_sim() {
    let dev = Device::simulator_with_arch(90).unwrap();
    ferrocuda_examples::l2_persist::check(&dev, 1000, 3000, 5).unwrap();
}

#[test]
fn grid_sync_examples_sim() {
    gs::check_all(&sim()).unwrap();
    // Uneven: fewer elements than threads, and one block.
    gs::check_reduce(&sim(), 10, 3).unwrap();
    gs::check_reduce(&sim(), 5000, 1).unwrap();
    gs::check_rounds(&sim(), 2, 33).unwrap();
}

/// The co-residency limit of `dev` for `grid_reduce` at [`BLOCK`] threads, then one block more.
fn one_too_many(dev: &Device) -> u32 {
    let p = dev.properties();
    let per_sm = if dev.backend() == BackendKind::Sim {
        // The simulator's model: threads per multiprocessor over the block's.
        (p.max_threads_per_multiprocessor / BLOCK as u32).min(p.max_blocks_per_multiprocessor)
    } else {
        let f = ferrocuda::host_runtime::kernel_function(
            dev,
            &grid_reduce::KERNEL,
            &ferrocuda::host_runtime::InstanceKey::EMPTY,
            &Vec::new,
            Some(Dim3::new(BLOCK as u32, 1, 1)),
        )
        .unwrap();
        f.max_active_blocks_per_sm(BLOCK as u32, 0).unwrap()
    };
    per_sm * p.multiprocessor_count + 1
}

fn misuse(dev: &Device) {
    let s = dev.new_stream().unwrap();
    let x = dev.upload(&[1u32; 1000]).unwrap();
    let mut partial = dev.alloc_zeroed::<u32>(1 << 16).unwrap();
    let mut out = dev.alloc_zeroed::<u32>(1).unwrap();

    // A grid the device cannot hold at once.
    let blocks = one_too_many(dev);
    let r = grid_reduce::launch(&s, config(blocks), &x, &mut partial, &mut out);
    match r {
        Err(Error::InvalidLaunch(LaunchError::CooperativeGridTooLarge {
            blocks: b,
            per_sm,
            sms,
        })) => {
            assert_eq!(b, u64::from(blocks));
            assert_eq!(per_sm * sms + 1, b);
        }
        other => panic!("expected CooperativeGridTooLarge, got {other:?}"),
    }

    // `grid_sync()` without a cooperative launch.
    let plain = LaunchConfig {
        attrs: Default::default(),
        ..config(2)
    };
    let e = grid_reduce::launch(&s, plain, &x, &mut partial, &mut out).unwrap_err();
    assert!(
        matches!(
            &e,
            Error::InvalidLaunch(LaunchError::GridSyncNeedsCooperative { kernel }) if kernel.ends_with("grid_reduce")
        ),
        "{e:?}"
    );
    assert!(e.to_string().contains("LaunchConfig::cooperative()"), "{e}");

    // Cooperative and programmatic at once.
    let both = config(2).programmatic_stream_serialization();
    if dev.properties().sm() >= 90 {
        assert!(matches!(
            grid_reduce::launch(&s, both, &x, &mut partial, &mut out),
            Err(Error::InvalidLaunch(LaunchError::CooperativeProgrammatic))
        ));
    }

    // Nothing above reached the kernel: a good launch still gives the right sum.
    grid_reduce::launch(&s, config(2), &x, &mut partial, &mut out).unwrap();
    assert_eq!(out.to_vec().unwrap(), [1000]);
}

#[test]
fn cooperative_misuse_is_refused_before_the_launch_sim() {
    misuse(&sim());
    misuse(&Device::simulator_with_arch(90).unwrap());
}

/// A capture would share the stream's barrier words between replays: refused.
#[test]
fn cooperative_launch_in_a_capture_is_refused_sim() {
    let dev = sim();
    let s = dev.new_stream().unwrap();
    let mut buf = dev.alloc_zeroed::<u32>(2 * 2 * BLOCK).unwrap();
    let r = s.capture(CaptureMode::Global, |s| {
        grid_rounds::launch(s, config(2), &mut buf, 3)
    });
    assert!(
        matches!(
            r,
            Err(Error::InvalidLaunch(LaunchError::CooperativeInGraph))
        ),
        "{:?}",
        r.err()
    );
}

/// The grid barrier's PTX (scoped registers, private labels, acquire/release at gpu scope, the
/// hidden parameter) assembles, and only kernels that call it take the parameter.
#[test]
fn cooperative_kernels_assemble_for_sm75_sm80_sm90() {
    use ferrocuda::kernel_compiler::{compile, CompileOptions};
    if kernel_testkit::ptxas::require_ptxas().is_none() {
        return;
    }
    for sm in [75, 80, 90] {
        let opts = CompileOptions {
            sm,
            ..CompileOptions::default()
        };
        for def in [grid_reduce::ast(), grid_rounds::ast()] {
            let c = compile(def, &[], &opts).unwrap();
            assert!(c.ptx.contains(".param .u64 __fc_grid_sync"), "{}", c.ptx);
            assert!(
                c.ptx.contains("atom.acq_rel.gpu.global.add.u32"),
                "{}",
                c.ptx
            );
            kernel_testkit::ptxas::assemble(&c.ptx, sm)
                .unwrap_or_else(|e| panic!("{} sm_{sm}: {e}\n{}", def.name, c.ptx));
        }
    }
    // The tile collectives are warp intrinsics with the tile's mask and width.
    for sm in [75, 80, 90] {
        let opts = CompileOptions {
            sm,
            ..CompileOptions::default()
        };
        let c = compile(cg_tiles::ast(), &[], &opts).unwrap();
        assert!(!c.ptx.contains("__fc_grid_sync"));
        assert!(c.ptx.contains("shfl.sync.bfly.b32"), "{}", c.ptx);
        kernel_testkit::ptxas::assemble(&c.ptx, sm)
            .unwrap_or_else(|e| panic!("cg_tiles sm_{sm}: {e}\n{}", c.ptx));
    }
    let other = compile(
        ferrocuda_examples::cluster_sum::cluster_sum::ast(),
        &[],
        &CompileOptions {
            sm: 90,
            ..CompileOptions::default()
        },
    )
    .unwrap();
    assert!(!other.ptx.contains("__fc_grid_sync"));
}

/// The IR of both kernels reads back as printed after every pass (the grid barrier is an entry
/// of the table like any other).
#[test]
fn cooperative_kernels_round_trip_through_ir_text() {
    use ferrocuda::kernel_compiler::{lower, parse_ir, passes, CompileOptions};
    let round_trips = |k: &ferrocuda::kernel_ir::ir::Kernel, what: &str| {
        let text = k.to_string();
        let back = parse_ir(&text).unwrap_or_else(|e| panic!("{what}: {e}\n{text}"));
        assert_eq!(back.to_string(), text, "{what}");
    };
    for def in [grid_reduce::ast(), grid_rounds::ast(), cg_tiles::ast()] {
        let mut k = lower(def, &[]).unwrap();
        assert_eq!(k.uses_grid_sync(), def.name != "cg_tiles");
        round_trips(&k, def.name);
        passes::optimize_with(&mut k, &CompileOptions::default(), &mut |pass, k| {
            round_trips(k, &format!("{} after {pass}", def.name))
        });
        assert_eq!(
            k.uses_grid_sync(),
            def.name != "cg_tiles",
            "the passes keep the barrier"
        );
    }
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
fn grid_sync_examples_gpu() {
    let Some(dev) = gpu() else { return };
    gs::check_all(&dev).unwrap();
    gs::check_reduce(&dev, 1 << 24, gs::blocks_for(&dev, 2)).unwrap();
    gs::check_rounds(&dev, gs::blocks_for(&dev, 1), 1000).unwrap();
}

#[test]
#[ignore = "needs a GPU"]
fn cooperative_misuse_is_refused_before_the_launch_gpu() {
    let Some(dev) = gpu() else { return };
    misuse(&dev);
}

/// `coalesced_threads()` inside a branch: the group is the lanes that took it (the simulator
/// gathers exactly those; a GPU may split them further, so this runs on the simulator only).
#[kernel(block_dim(32))]
pub fn coalesced_in_branch(x: &[u32], out: &mut [u32]) {
    let i = thread_idx().x as usize;
    if x[i] % 3 == 0 {
        let lowest = coalesced_shfl::<u32>(i as u32, 0);
        out[i] = coalesced_thread_rank() * 10_000 + coalesced_size() * 100 + lowest;
        coalesced_sync();
    }
}

#[test]
fn coalesced_group_is_the_lanes_in_the_branch_sim() {
    let dev = sim();
    let s = dev.new_stream().unwrap();
    let x: Vec<u32> = (0..32).map(|i| (i * 7 + 1) % 10).collect();
    let dx = dev.upload(&x).unwrap();
    let mut out = dev.upload(&[u32::MAX; 32]).unwrap();
    coalesced_in_branch::launch(&s, LaunchConfig::for_elements(32, 32), &dx, &mut out).unwrap();
    let lanes: Vec<usize> = (0..32).filter(|&i| x[i].is_multiple_of(3)).collect();
    let want: Vec<u32> = (0..32)
        .map(|i| match lanes.iter().position(|&l| l == i) {
            Some(r) => r as u32 * 10_000 + lanes.len() as u32 * 100 + lanes[0] as u32,
            None => u32::MAX,
        })
        .collect();
    assert!(lanes.len() > 1 && lanes.len() < 32);
    assert_eq!(out.to_vec().unwrap(), want);
}

/// Block `bad`'s thread 0 indexes past `out` (a panic: the thread exits, its block never
/// arrives at the grid barrier) before everyone meets there.
#[kernel]
pub fn panics_before_grid_sync(out: &mut [u32], bad: u32) {
    let (b, t) = (block_idx().x, thread_idx().x);
    let i = if b == bad && t == 0 {
        out.len()
    } else {
        b as usize
    };
    if t == 0 {
        out[i] = 1;
    }
    grid_sync();
    grid_sync();
}

/// A panic before a grid barrier ends the launch with the panic reported (the waiting blocks
/// leave the barrier instead of hanging), and the stream's barrier words are reset, so the next
/// cooperative launch on the stream is right.
fn panic_then_good_launch(dev: &Device) {
    let s = dev.new_stream().unwrap();
    let mut out = dev.alloc_zeroed::<u32>(4).unwrap();
    let cfg = LaunchConfig {
        block: Dim3::new(64, 1, 1),
        ..config(4)
    };
    panics_before_grid_sync::launch(&s, cfg, &mut out, 2).unwrap();
    let e = s.synchronize().unwrap_err();
    assert!(matches!(e, Error::KernelPanic(_)), "{e:?}");
    for _ in 0..3 {
        let x = dev.upload(&[3u32; 5000]).unwrap();
        let mut partial = dev.alloc_zeroed::<u32>(4).unwrap();
        let mut sum = dev.alloc_zeroed::<u32>(1).unwrap();
        grid_reduce::launch(&s, config(4), &x, &mut partial, &mut sum).unwrap();
        assert_eq!(sum.to_vec().unwrap(), [15000]);
    }
}

#[test]
fn panic_before_grid_sync_sim() {
    panic_then_good_launch(&sim());
}

#[test]
#[ignore = "needs a GPU"]
fn panic_before_grid_sync_gpu() {
    let Some(dev) = gpu() else { return };
    panic_then_good_launch(&dev);
}

/// `grid_thread_rank()` and `grid_num_threads()` on a 3-D grid of 3-D blocks: each thread
/// writes its rank at the position the CPU computes from its indices.
#[kernel]
pub fn grid_ranks(out: &mut [u64], total: &mut [u64]) {
    let (b, g, t, d) = (block_idx(), grid_dim(), thread_idx(), block_dim());
    let block = b.x as usize + g.x as usize * (b.y as usize + g.y as usize * b.z as usize);
    let threads = (d.x * d.y * d.z) as usize;
    let i = block * threads + (t.x + d.x * (t.y + d.y * t.z)) as usize;
    out[i] = grid_thread_rank();
    if i == 0 {
        total[0] = grid_num_threads();
    }
}

fn grid_ranks_body(dev: &Device) {
    let s = dev.new_stream().unwrap();
    let cfg = LaunchConfig {
        grid: Dim3::new(3, 2, 2),
        block: Dim3::new(8, 4, 2),
        shared_mem_bytes: 0,
        attrs: Default::default(),
    };
    let n = 12 * 64;
    let mut out = dev.upload(&vec![u64::MAX; n]).unwrap();
    let mut total = dev.alloc_zeroed::<u64>(1).unwrap();
    grid_ranks::launch(&s, cfg, &mut out, &mut total).unwrap();
    assert_eq!(out.to_vec().unwrap(), (0..n as u64).collect::<Vec<_>>());
    assert_eq!(total.to_vec().unwrap(), [n as u64]);
}

#[test]
fn grid_ranks_sim() {
    grid_ranks_body(&sim());
}

#[test]
#[ignore = "needs a GPU"]
fn grid_ranks_gpu() {
    let Some(dev) = gpu() else { return };
    grid_ranks_body(&dev);
}
