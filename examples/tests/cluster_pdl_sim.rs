//! The cluster and programmatic-dependent-launch examples against their CPU references: on the
//! simulator as sm_90 in `cargo test` (a cluster's blocks run together; PDL in stream order),
//! on an sm_90 GPU with `--ignored` (also clusters of 8, and a real PDL overlap).

use ferrocuda::host_runtime::{Error, LaunchError};
use ferrocuda::prelude::*;
use ferrocuda_examples::{cluster_histogram, cluster_sum, pdl_pair};

fn sim90() -> Device {
    Device::simulator_with_arch(90).unwrap()
}

#[test]
fn cluster_sum_sim() {
    cluster_sum::check_all(&sim90()).unwrap();
}

#[test]
fn cluster_sum_refuses_a_grid_of_partial_clusters() {
    // A grid of 6 blocks is no whole number of the compile-time clusters of 4.
    let dev = sim90();
    let s = dev.new_stream().unwrap();
    let x = dev.alloc_zeroed::<u32>(6 * 128).unwrap();
    let mut p = dev.alloc_zeroed::<u32>(6).unwrap();
    let mut o = dev.alloc_zeroed::<u32>(2).unwrap();
    let cfg = LaunchConfig::for_elements(6 * 128, 128);
    assert!(matches!(
        cluster_sum::cluster_sum_fixed::launch(&s, cfg, &x, &mut p, &mut o),
        Err(Error::InvalidLaunch(LaunchError::GridNotClusterMultiple {
            axis: 'x',
            grid: 6,
            cluster: 4
        }))
    ));
}

#[test]
fn cluster_histogram_sim() {
    cluster_histogram::check_all(&sim90(), false).unwrap();
}

#[test]
fn pdl_pair_sim() {
    pdl_pair::check(&sim90(), 5000).unwrap();
    pdl_pair::check_chain(&sim90(), 1000, 10).unwrap();
}

fn gpu90() -> Option<Device> {
    match Device::cuda(0) {
        Ok(d) if d.properties().sm() >= 90 => Some(d),
        Ok(d) => {
            eprintln!("skipping: sm_{} has no clusters", d.properties().sm());
            None
        }
        Err(e) if std::env::var_os("FERROCUDA_REQUIRE_GPU").is_none() => {
            eprintln!("skipping GPU test: {e}");
            None
        }
        Err(e) => panic!("GPU required: {e}"),
    }
}

#[test]
#[ignore = "needs an sm_90 GPU"]
fn cluster_and_pdl_examples_gpu() {
    let Some(dev) = gpu90() else { return };
    cluster_sum::check_all(&dev).unwrap();
    cluster_sum::check(&dev, 4096, Some(8)).unwrap();
    cluster_histogram::check_all(&dev, true).unwrap();
    pdl_pair::check(&dev, 1 << 22).unwrap();
    pdl_pair::check_chain(&dev, 1 << 16, 100).unwrap();
}

/// The cluster kernels' IR (cluster attributes, `Space::Cluster` accesses, cluster atomics and
/// barriers) reads back as printed after every pass. They are not in the example registry, whose
/// kernels every tool compiles for sm_80 too.
#[test]
fn cluster_kernels_round_trip_through_ir_text() {
    use ferrocuda::kernel_compiler::{lower, parse_ir, passes, CompileOptions};
    let round_trips = |k: &ferrocuda::kernel_ir::ir::Kernel, what: &str| {
        let text = k.to_string();
        let back = parse_ir(&text).unwrap_or_else(|e| panic!("{what}: {e}\n{text}"));
        assert_eq!(back.to_string(), text, "{what}");
    };
    for def in [
        cluster_histogram::cluster_hist::ast(),
        cluster_histogram::cluster_hist_fixed::ast(),
        cluster_sum::cluster_sum_fixed::ast(),
        pdl_pair::pdl_secondary::ast(),
    ] {
        let opts = CompileOptions {
            sm: 90,
            ..CompileOptions::default()
        };
        let mut k = lower(def, &[]).unwrap();
        round_trips(&k, def.name);
        passes::optimize_with(&mut k, &opts, &mut |pass, k| {
            round_trips(k, &format!("{} after {pass}", def.name))
        });
        let text = k.to_string();
        if def.name == "cluster_hist_fixed" {
            assert!(text.contains("cluster_dims=(4,1,1)"), "{text}");
            assert!(text.contains("atomic_add.u32.cluster"), "{text}");
        }
    }
}
