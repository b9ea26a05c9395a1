//! Launch attributes on graph kernel nodes: a cluster shape (the `cluster_sum` example as a
//! graph node, checked against the CPU), an access policy window and a priority are carried into
//! the node (`cuGraphKernelNodeSetAttribute` on a GPU); `set_node_params` may not change them,
//! and programmatic dependent launch on a node (a programmatic edge) is refused. On the
//! simulator in `cargo test`, on an sm_90 GPU with `--ignored`.

use ferrocuda::host_runtime::graph::GraphMut;
use ferrocuda::host_runtime::Error;
use ferrocuda::prelude::*;
use ferrocuda_examples::cluster_sum::{cluster_sum, reference, BLOCK};

fn body(dev: &Device) {
    let blocks = 16usize;
    let n = blocks * BLOCK;
    let x: Vec<u32> = (0..n).map(|i| (i * 7 + 3) as u32 % 1000).collect();
    let s = dev.new_stream().unwrap();
    let mut dx = dev.upload(&x).unwrap();
    let mut partial = dev.alloc_zeroed::<u32>(blocks).unwrap();
    let mut out = dev.upload(&vec![u32::MAX; blocks / 2]).unwrap();
    let window = AccessPolicyWindow::persisting(&dx, 0.5).unwrap();
    let (_, greatest) = dev.stream_priority_range().unwrap();
    let cfg = LaunchConfig::for_elements(n, BLOCK as u32)
        .cluster_dim((2, 1, 1))
        .access_policy(window)
        .priority(greatest);
    {
        let xh = GraphMut::new(&mut dx);
        let mut ph = GraphMut::new(&mut partial);
        let mut oh = GraphMut::new(&mut out);
        let mut g = Graph::new(dev).unwrap();
        let k = cluster_sum::node(&mut g, cfg, &[], &xh, &mut ph, &mut oh).unwrap();
        // Programmatic dependent launch would be an edge property: refused, not dropped.
        let pdl = cfg.programmatic_stream_serialization();
        assert!(matches!(
            cluster_sum::node(&mut g, pdl, &[k], &xh, &mut ph, &mut oh),
            Err(Error::Unsupported(m)) if m.contains("programmatic")
        ));
        let mut exec = g.instantiate().unwrap();
        exec.launch(&s).unwrap();
        s.synchronize().unwrap();
        // Other attributes through set_node_params: the node keeps its own, so refused.
        let other = LaunchConfig::for_elements(n, BLOCK as u32).cluster_dim((4, 1, 1));
        assert!(matches!(
            cluster_sum::set_node_params(&mut exec, k, other, &xh, &mut ph, &mut oh),
            Err(Error::Unsupported(m)) if m.contains("launch attributes")
        ));
        // The same attributes are fine.
        cluster_sum::set_node_params(&mut exec, k, cfg, &xh, &mut ph, &mut oh).unwrap();
    }
    assert_eq!(out.to_vec().unwrap(), reference(&x, 2));
}

#[test]
fn graph_kernel_node_attributes_sim() {
    body(&Device::simulator_with_arch(90).unwrap());
}

#[test]
#[ignore = "needs an sm_90 GPU"]
fn graph_kernel_node_attributes_gpu() {
    match Device::cuda(0) {
        Ok(d) if d.properties().sm() >= 90 => body(&d),
        Ok(d) => eprintln!("skipping: sm_{} has no clusters", d.properties().sm()),
        Err(e) if std::env::var_os("FERROCUDA_REQUIRE_GPU").is_none() => {
            eprintln!("skipping GPU test: {e}")
        }
        Err(e) => panic!("GPU required: {e}"),
    }
}
