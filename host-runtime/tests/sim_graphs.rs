//! CUDA graphs on the simulator: explicit and captured graphs, execs, updates, panics, use
//! tracking and every refusal before the driver (the bodies are shared with `gpu_graphs`).

mod graph_bodies;

use ferrocuda::prelude::*;
use graph_bodies as b;

fn dev() -> Device {
    Device::simulator()
}

#[test]
fn explicit_graph_matches_cpu() {
    b::explicit_graph_matches_cpu(&dev());
}

#[test]
fn explicit_and_captured_graphs_agree() {
    b::explicit_and_captured_graphs_agree(&dev());
}

#[test]
fn exec_update_takes_new_parameters() {
    b::exec_update_takes_new_parameters(&dev());
}

#[test]
fn set_node_params_changes_a_kernel_argument() {
    b::set_node_params_changes_a_kernel_argument(&dev());
}

#[test]
fn kernel_panic_in_a_graph_is_reported_once() {
    b::kernel_panic_in_a_graph_is_reported_once(&dev());
}

#[test]
fn host_node_panic_is_reported() {
    b::host_node_panic_is_reported(&dev());
}

#[test]
fn events_children_and_host_copies() {
    b::events_children_and_host_copies(&dev());
}

#[test]
fn invalid_graphs_are_refused() {
    b::invalid_graphs_are_refused(&dev(), &Device::simulator());
}

#[test]
fn capture_ends_on_error_and_panic() {
    b::capture_ends_on_error_and_panic(&dev());
}

#[test]
fn captured_buffer_outlives_its_owner() {
    b::captured_buffer_outlives_its_owner(&dev());
}

#[test]
fn graph_launches_are_ordered_with_other_work() {
    b::graph_launches_are_ordered_with_other_work(&dev());
}

#[test]
fn thousand_node_graph_replays() {
    b::thousand_node_graph_replays(&dev());
}

/// The simulator runs nodes in a topological order of the DAG, not in the order they were
/// added: an edge added later from a newer node to an older one reorders them.
#[test]
fn nodes_run_in_dependency_order() {
    use std::sync::{Arc, Mutex};
    let d = dev();
    let s = d.new_stream().unwrap();
    let log = Arc::new(Mutex::new(Vec::new()));
    let mut g = Graph::new(&d).unwrap();
    let (l0, l1, l2) = (log.clone(), log.clone(), log.clone());
    let first = g.host(&[], move || l0.lock().unwrap().push(0)).unwrap();
    let second = g.host(&[], move || l1.lock().unwrap().push(1)).unwrap();
    let third = g.host(&[], move || l2.lock().unwrap().push(2)).unwrap();
    g.add_dependency(third, first).unwrap();
    g.add_dependency(second, third).unwrap();
    let dot = g.to_dot().unwrap();
    assert!(
        dot.contains("n2 -> n0;") && dot.contains("n1 -> n2;"),
        "{dot}"
    );
    g.instantiate().unwrap().launch(&s).unwrap();
    s.synchronize().unwrap();
    assert_eq!(*log.lock().unwrap(), vec![1, 2, 0]);
}
