//! CUDA graphs on a GPU: the bodies `sim_graphs` runs on the simulator, on CUDA device 0, plus
//! the driver's own dump. Run with `cargo test -p host-runtime --test gpu_graphs -- --ignored`.

mod common;
mod graph_bodies;

use common::gpu;
use ferrocuda::prelude::*;
use graph_bodies as b;

#[test]
#[ignore]
fn explicit_graph_matches_cpu() {
    if let Some(d) = gpu() {
        b::explicit_graph_matches_cpu(&d);
    }
}

#[test]
#[ignore]
fn explicit_and_captured_graphs_agree() {
    if let Some(d) = gpu() {
        b::explicit_and_captured_graphs_agree(&d);
    }
}

#[test]
#[ignore]
fn exec_update_takes_new_parameters() {
    if let Some(d) = gpu() {
        b::exec_update_takes_new_parameters(&d);
    }
}

#[test]
#[ignore]
fn set_node_params_changes_a_kernel_argument() {
    if let Some(d) = gpu() {
        b::set_node_params_changes_a_kernel_argument(&d);
    }
}

#[test]
#[ignore]
fn kernel_panic_in_a_graph_is_reported_once() {
    if let Some(d) = gpu() {
        b::kernel_panic_in_a_graph_is_reported_once(&d);
    }
}

#[test]
#[ignore]
fn host_node_panic_is_reported() {
    if let Some(d) = gpu() {
        b::host_node_panic_is_reported(&d);
    }
}

#[test]
#[ignore]
fn events_children_and_host_copies() {
    if let Some(d) = gpu() {
        b::events_children_and_host_copies(&d);
    }
}

#[test]
#[ignore]
fn invalid_graphs_are_refused() {
    if let Some(d) = gpu() {
        // The other device: the simulator (one GPU is enough to combine two devices).
        b::invalid_graphs_are_refused(&d, &Device::simulator());
    }
}

#[test]
#[ignore]
fn capture_ends_on_error_and_panic() {
    if let Some(d) = gpu() {
        b::capture_ends_on_error_and_panic(&d);
    }
}

#[test]
#[ignore]
fn captured_buffer_outlives_its_owner() {
    if let Some(d) = gpu() {
        b::captured_buffer_outlives_its_owner(&d);
    }
}

#[test]
#[ignore]
fn graph_launches_are_ordered_with_other_work() {
    if let Some(d) = gpu() {
        b::graph_launches_are_ordered_with_other_work(&d);
    }
}

#[test]
#[ignore]
fn thousand_node_graph_replays() {
    if let Some(d) = gpu() {
        b::thousand_node_graph_replays(&d);
    }
}

/// The driver's dot dump names the kernel nodes and their edges.
#[test]
#[ignore]
fn driver_dot_dump_names_kernel_nodes() {
    let Some(d) = gpu() else { return };
    let mut y = d.alloc_zeroed::<f32>(64).unwrap();
    let mut g = Graph::new(&d).unwrap();
    let a = g.memset(&[], &mut y, 0).unwrap();
    b::empty::node(&mut g, LaunchConfig::for_elements(1, 1), &[a]).unwrap();
    let dot = g.to_dot().unwrap();
    assert!(dot.contains("digraph") && dot.contains("empty"), "{dot}");
}
