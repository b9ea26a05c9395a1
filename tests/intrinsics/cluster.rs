//! Thread block clusters and programmatic dependent launch (sm_90): cluster registers, the
//! cluster barrier and `griddepcontrol`, against a CPU model of the launch on the simulator
//! (clusters of one block) and on a GPU (`--ignored`, clusters of 2, 4 and 16 blocks, and a
//! compile-time shape); PTX assembled by ptxas for sm_90; sm_80 refused naming the function.

use crate::intr_common;

use ferrocuda::host_runtime::LaunchError;
use ferrocuda::kernel_compiler::{compile, CompileOptions};
use ferrocuda::prelude::*;
use intr_common::gpu;

/// Values per block that `cluster_ids` writes.
const FIELDS: usize = 12;

/// Each block's thread 0 writes what it knows of its cluster; everyone meets at the cluster
/// barrier (joined and split) so that both assemble and run.
#[kernel]
pub fn cluster_ids(out: &mut [u32]) {
    let b = (block_idx().x + grid_dim().x * block_idx().y) as usize;
    cluster_sync();
    if thread_idx().x == 0 {
        let (d, i, c, n) = (cluster_dim(), cluster_idx(), cluster_id(), nclusterid());
        let v = [
            cluster_ctarank(),
            cluster_nctarank(),
            d.x,
            d.y,
            d.z,
            i.x,
            i.y,
            i.z,
            c.x,
            c.y,
            n.x,
            n.y,
        ];
        for (k, x) in v.iter().enumerate() {
            out[b * FIELDS + k] = *x;
        }
    }
    cluster_arrive();
    cluster_wait();
}

/// `cluster_ids` with its cluster shape fixed at compile time (`__cluster_dims__(2, 1, 1)`).
#[kernel(cluster_dims(2, 1, 1))]
pub fn cluster_ids_fixed(out: &mut [u32]) {
    let b = (block_idx().x + grid_dim().x * block_idx().y) as usize;
    if thread_idx().x == 0 {
        out[b * FIELDS] = cluster_ctarank();
        out[b * FIELDS + 1] = cluster_nctarank();
        out[b * FIELDS + 2] = cluster_id().x;
    }
    cluster_sync();
}

/// What `cluster_ids` must write for a `grid` launched in clusters of `c` (x fastest).
fn model(grid: [u32; 2], c: [u32; 2]) -> Vec<u32> {
    let mut out = vec![0u32; (grid[0] * grid[1]) as usize * FIELDS];
    for by in 0..grid[1] {
        for bx in 0..grid[0] {
            let b = (bx + grid[0] * by) as usize;
            let (ix, iy) = (bx % c[0], by % c[1]);
            let v = [
                ix + c[0] * iy,
                c[0] * c[1],
                c[0],
                c[1],
                1,
                ix,
                iy,
                0,
                bx / c[0],
                by / c[1],
                grid[0] / c[0],
                grid[1] / c[1],
            ];
            out[b * FIELDS..(b + 1) * FIELDS].copy_from_slice(&v);
        }
    }
    out
}

fn run_ids(dev: &Device, grid: [u32; 2], cluster: Option<[u32; 2]>) -> Result<Vec<u32>> {
    let s = dev.new_stream()?;
    let mut out = dev.alloc_zeroed::<u32>((grid[0] * grid[1]) as usize * FIELDS)?;
    let mut cfg = LaunchConfig {
        grid: Dim3::new(grid[0], grid[1], 1),
        block: Dim3::new(64, 1, 1),
        shared_mem_bytes: 0,
        attrs: Default::default(),
    };
    if let Some([x, y]) = cluster {
        cfg = cfg.cluster_dim((x, y, 1));
        if x * y > 8 {
            cfg = cfg.non_portable_cluster_size();
        }
    }
    cluster_ids::launch(&s, cfg, &mut out)?;
    s.synchronize()?;
    out.to_vec()
}

#[test]
fn registers_of_one_block_clusters_on_the_simulator() {
    let dev = Device::simulator_with_arch(90).unwrap();
    assert_eq!(run_ids(&dev, [4, 3], None).unwrap(), model([4, 3], [1, 1]));
    assert_eq!(
        run_ids(&dev, [4, 3], Some([1, 1])).unwrap(),
        model([4, 3], [1, 1])
    );
}

#[test]
fn registers_of_clusters_on_the_simulator() {
    let dev = Device::simulator_with_arch(90).unwrap();
    for (grid, c) in [
        ([8, 2], [2, 1]),
        ([8, 4], [4, 1]),
        ([4, 4], [2, 2]),
        ([32, 1], [16, 1]),
    ] {
        assert_eq!(
            run_ids(&dev, grid, Some(c)).unwrap(),
            model(grid, c),
            "grid {grid:?} cluster {c:?}"
        );
    }
}

#[test]
fn sm80_refuses_clusters() {
    // On sm_80 (its default target) `cluster_ids` does not compile; a kernel that does is
    // refused a cluster launch before anything runs.
    let old = Device::simulator_with_arch(80).unwrap();
    let e = run_ids(&old, [4, 1], None).unwrap_err().to_string();
    assert!(e.contains("needs sm_90"), "{e}");
    let s = old.new_stream().unwrap();
    let mut y = old.alloc_zeroed::<f32>(8).unwrap();
    let cfg = LaunchConfig::for_elements(8, 4);
    assert!(matches!(
        fill::launch(&s, cfg.cluster_dim((2, 1, 1)), &mut y),
        Err(Error::InvalidLaunch(LaunchError::NeedsSm90 { sm: 80, .. }))
    ));
    assert!(matches!(
        fill::launch(&s, cfg.programmatic_stream_serialization(), &mut y),
        Err(Error::InvalidLaunch(LaunchError::NeedsSm90 { sm: 80, .. }))
    ));
    fill::launch(&s, cfg, &mut y).unwrap();
}

/// A kernel any target compiles.
#[kernel]
pub fn fill(y: &mut [f32]) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    if i < y.len() {
        y[i] = 1.0;
    }
}

#[test]
fn cluster_functions_need_sm90() {
    let sm80 = CompileOptions {
        sm: 80,
        ..CompileOptions::default()
    };
    let e = compile(cluster_ids::ast(), &[], &sm80)
        .unwrap_err()
        .to_string();
    assert!(e.contains("needs sm_90"), "{e}");
    assert!(e.contains("cluster"), "names the function: {e}");
    let e = compile(cluster_ids_fixed::ast(), &[], &sm80)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("cluster_dims(2, 1, 1)") && e.contains("sm_90"),
        "{e}"
    );
    let e = compile(pdl_secondary::ast(), &[], &sm80)
        .unwrap_err()
        .to_string();
    assert!(e.contains("grid_dependency_sync"), "{e}");
}

#[test]
fn cluster_ptx_assembles_for_sm90() {
    let sm90 = CompileOptions {
        sm: 90,
        ..CompileOptions::default()
    };
    for def in [
        cluster_ids::ast(),
        cluster_ids_fixed::ast(),
        pdl_primary::ast(),
        pdl_secondary::ast(),
    ] {
        let c = compile(def, &[], &sm90).unwrap();
        if def.name == "cluster_ids_fixed" {
            assert!(
                c.ptx
                    .contains(".explicitcluster\n.reqnctapercluster 2, 1, 1\n"),
                "{}",
                c.ptx
            );
        }
        if def.name == "cluster_ids" {
            for needle in [
                "%cluster_ctarank",
                "%cluster_nctaid.y",
                "%clusterid.x",
                "%nclusterid.y",
                "barrier.cluster.arrive.release.aligned",
                "barrier.cluster.wait.acquire",
            ] {
                assert!(c.ptx.contains(needle), "{needle}\n{}", c.ptx);
            }
        }
        if kernel_testkit::ptxas::require_ptxas().is_none() {
            return;
        }
        kernel_testkit::ptxas::assemble(&c.ptx, 90)
            .unwrap_or_else(|e| panic!("ptxas sm_90 {}: {e}\n{}", def.name, c.ptx));
    }
}

#[test]
#[ignore = "needs an sm_90 GPU"]
fn cluster_registers_on_gpu() {
    let Some(dev) = gpu() else { return };
    if dev.properties().sm() < 90 {
        eprintln!("skipping: sm_{} has no clusters", dev.properties().sm());
        return;
    }
    for (grid, c) in [
        ([8, 2], [2, 1]),
        ([8, 4], [4, 1]),
        ([4, 4], [2, 2]),
        ([32, 1], [16, 1]),
    ] {
        assert_eq!(
            run_ids(&dev, grid, Some(c)).unwrap(),
            model(grid, c),
            "grid {grid:?} cluster {c:?}"
        );
    }
    // The compile-time shape, without repeating it at launch; repeating another is an error.
    let s = dev.new_stream().unwrap();
    let mut out = dev.alloc_zeroed::<u32>(8 * FIELDS).unwrap();
    let cfg = LaunchConfig::for_elements(8 * 32, 32);
    cluster_ids_fixed::launch(&s, cfg, &mut out).unwrap();
    let got = out.to_vec().unwrap();
    for b in 0..8 {
        assert_eq!(
            &got[b * FIELDS..b * FIELDS + 3],
            &[b as u32 % 2, 2, b as u32 / 2]
        );
    }
    assert!(matches!(
        cluster_ids_fixed::launch(&s, cfg.cluster_dim((4, 1, 1)), &mut out),
        Err(Error::InvalidLaunch(LaunchError::ClusterShape { .. }))
    ));
    // Occupancy: an H100 fits clusters of 2 of these blocks, and at least the portable 8.
    let f = ferrocuda::host_runtime::kernel_function(
        &dev,
        &cluster_ids::KERNEL,
        &ferrocuda::host_runtime::InstanceKey::EMPTY,
        &Vec::new,
        None,
    )
    .unwrap();
    let two = LaunchConfig::for_elements(8 * 64, 64).cluster_dim((2, 1, 1));
    assert!(f.max_active_clusters(&two).unwrap() > 0);
    assert!(f.max_potential_cluster_size(&two).unwrap() >= 8);
    let big = two.non_portable_cluster_size();
    assert!(f.max_potential_cluster_size(&big).unwrap() >= 8);
}

/// The primary of a programmatic dependent launch: writes its part, then lets the secondary
/// start (which still waits for this grid's memory in `grid_dependency_sync`).
#[kernel]
pub fn pdl_primary(x: &mut [f32]) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    if i < x.len() {
        x[i] = i as f32 * 0.5;
    }
    trigger_programmatic_launch_completion();
}

/// The secondary: independent set-up, then the wait, then reading what the primary wrote.
#[kernel]
pub fn pdl_secondary(x: &[f32], y: &mut [f32]) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    let scale = 2.0f32 + (i % 3) as f32;
    grid_dependency_sync();
    if i < y.len() {
        y[i] = x[i] * scale;
    }
}

fn pdl_pair(dev: &Device, n: usize) {
    let s = dev.new_stream().unwrap();
    let mut x = dev.alloc_zeroed::<f32>(n).unwrap();
    let mut y = dev.alloc_zeroed::<f32>(n).unwrap();
    let cfg = LaunchConfig::for_elements(n, 128);
    pdl_primary::launch(&s, cfg, &mut x).unwrap();
    pdl_secondary::launch(&s, cfg.programmatic_stream_serialization(), &x, &mut y).unwrap();
    let want: Vec<f32> = (0..n)
        .map(|i| i as f32 * 0.5 * (2.0 + (i % 3) as f32))
        .collect();
    assert_eq!(y.to_vec().unwrap(), want);
}

#[test]
fn pdl_pair_on_the_simulator() {
    pdl_pair(&Device::simulator_with_arch(90).unwrap(), 1000);
}

#[test]
#[ignore = "needs an sm_90 GPU"]
fn pdl_pair_on_gpu() {
    let Some(dev) = gpu() else { return };
    if dev.properties().sm() >= 90 {
        pdl_pair(&dev, 1 << 20);
    }
}
