//! Cooperative kernel nodes: a kernel calling `grid_sync()` as a node of an explicit graph
//! (`CU_LAUNCH_ATTRIBUTE_COOPERATIVE` on the node, its own grid barrier), replayed; and what
//! would share a node's barrier between two runs at once, refused.

use ferrocuda::prelude::*;
use host_runtime::graph::CaptureMode;
use host_runtime::{GraphError, LaunchError, UpdateFailure};

/// Elements per block.
const PER: usize = 64;

/// Thread 0 of each block sums its `PER` elements into `partial[block]`; after the grid
/// barrier, thread 0 of block 0 adds the partials into `out[0]`.
#[kernel]
pub fn grid_sum(x: &[u32], partial: &mut [u32], out: &mut [u32]) {
    let b = block_idx().x as usize;
    if thread_idx().x == 0 {
        let mut acc = 0u32;
        for i in 0..PER {
            acc += x[b * PER + i];
        }
        partial[b] = acc;
    }
    grid_sync();
    if b == 0 && thread_idx().x == 0 {
        let mut sum = 0u32;
        for p in 0..grid_dim().x as usize {
            sum += partial[p];
        }
        out[0] = sum;
    }
}

fn coop(blocks: u32) -> LaunchConfig {
    LaunchConfig {
        grid: Dim3::new(blocks, 1, 1),
        block: Dim3::new(32, 1, 1),
        shared_mem_bytes: 0,
        attrs: Default::default(),
    }
    .cooperative()
}

/// A graph poisons the partials and the result, then runs the cooperative node: three replays,
/// each the CPU's sum (a block 0 that did not wait would read the poison).
pub fn cooperative_kernel_node_runs(dev: &Device) {
    let blocks = 4u32;
    let xs: Vec<u32> = (0..blocks as usize * PER)
        .map(|i| (i * 37 % 101) as u32)
        .collect();
    let want: u32 = xs.iter().sum();
    let s = dev.new_stream().unwrap();
    let x = dev.upload(&xs).unwrap();
    let mut partial = dev.alloc_zeroed::<u32>(blocks as usize).unwrap();
    let mut out = dev.alloc_zeroed::<u32>(1).unwrap();
    {
        let mut g = Graph::new(dev).unwrap();
        let mut ph = host_runtime::graph::GraphMut::new(&mut partial);
        let mut oh = host_runtime::graph::GraphMut::new(&mut out);
        let p = g.fill(&[], &mut ph, 0xdead_beef_u32).unwrap();
        let o = g.fill(&[], &mut oh, 0xdead_beef_u32).unwrap();
        let k = grid_sum::node(&mut g, coop(blocks), &[p, o], &x, &mut ph, &mut oh).unwrap();
        let mut exec = g.instantiate().unwrap();
        // New parameters get the occupancy check too.
        let r = grid_sum::set_node_params(&mut exec, k, coop(100_000), &x, &mut ph, &mut oh);
        assert!(
            matches!(
                r,
                Err(Error::InvalidLaunch(
                    LaunchError::CooperativeGridTooLarge { .. }
                ))
            ),
            "{r:?}"
        );
        grid_sum::set_node_params(&mut exec, k, coop(blocks), &x, &mut ph, &mut oh).unwrap();
        // One live exec at a time.
        assert!(matches!(
            g.instantiate(),
            Err(Error::Graph(GraphError::CooperativeExecAlive))
        ));
        // No copies into other graphs: as a child, through an update, into a capture.
        let mut parent = Graph::new(dev).unwrap();
        assert!(matches!(
            parent.child(&[], &g),
            Err(Error::Graph(GraphError::CooperativeInChild))
        ));
        let mut other = Graph::new(dev).unwrap();
        other.empty(&[]).unwrap();
        let mut other_exec = other.instantiate().unwrap();
        assert!(matches!(
            other_exec.update(&g),
            Err(Error::Graph(GraphError::UpdateRefused(
                UpdateFailure::NotSupported
            )))
        ));
        let cs = dev.new_stream().unwrap();
        let r = cs.capture(CaptureMode::Global, |cs| exec.launch(cs));
        assert!(
            matches!(
                r,
                Err(Error::InvalidLaunch(LaunchError::CooperativeInGraph))
            ),
            "{:?}",
            r.err()
        );
        for _ in 0..3 {
            exec.launch(&s).unwrap();
        }
        s.synchronize().unwrap();
        drop(exec);
        // The exec gone, another may be made.
        let again = g.instantiate().unwrap();
        again.launch(&s).unwrap();
        s.synchronize().unwrap();
    }
    assert_eq!(out.to_vec().unwrap(), [want]);
}

/// The occupancy check of a cooperative launch holds for a node (when it is added), and a
/// `grid_sync()` kernel needs the cooperative attribute, as for a launch.
pub fn cooperative_node_checks(dev: &Device) {
    let x = dev.alloc_zeroed::<u32>(PER * 100_000).unwrap();
    let mut partial = dev.alloc_zeroed::<u32>(100_000).unwrap();
    let mut out = dev.alloc_zeroed::<u32>(1).unwrap();
    let mut g = Graph::new(dev).unwrap();
    let mut ph = host_runtime::graph::GraphMut::new(&mut partial);
    let mut oh = host_runtime::graph::GraphMut::new(&mut out);
    let r = grid_sum::node(&mut g, coop(100_000), &[], &x, &mut ph, &mut oh);
    assert!(
        matches!(
            r,
            Err(Error::InvalidLaunch(
                LaunchError::CooperativeGridTooLarge { .. }
            ))
        ),
        "{r:?}"
    );
    let mut plain = coop(2);
    plain.attrs.cooperative = false;
    let r = grid_sum::node(&mut g, plain, &[], &x, &mut ph, &mut oh);
    assert!(
        matches!(
            r,
            Err(Error::InvalidLaunch(
                LaunchError::GridSyncNeedsCooperative { .. }
            ))
        ),
        "{r:?}"
    );
    assert_eq!(g.node_count(), 0);
}
