//! Graph memory nodes: an allocation the graph makes and frees on every run, used by kernel and
//! copy nodes between the two; and every misuse refused before the driver.

use ferrocuda::prelude::*;
use host_runtime::graph::{graph_mem_trim, CaptureMode, GraphMut};
use host_runtime::{GraphError, UpdateFailure};

use super::{cfg, saxpy, scale, xs, N};

/// tmp = 0 (the alloc's memset); tmp = 2x + tmp; tmp *= 0.25; y = tmp; free tmp. Three runs,
/// each from a fresh zero: y = 0.5 x every time.
pub fn memory_nodes_run(dev: &Device) {
    let s = dev.new_stream().unwrap();
    let x = dev.upload(&xs()).unwrap();
    let mut y = dev.upload(&vec![7.0f32; N]).unwrap();
    {
        let mut g = Graph::new(dev).unwrap();
        let mut tmp = g.mem_alloc::<f32>(&[], N).unwrap();
        assert_eq!((tmp.len(), tmp.node().index(), g.node_count()), (N, 1, 2));
        let k1 = saxpy::node(&mut g, cfg(), &[tmp.node()], 2.0, &x, &mut tmp).unwrap();
        let k2 = scale::node(&mut g, cfg(), &[k1], 0.25, &mut tmp).unwrap();
        let c = g.memcpy(&[k2], &mut y, &tmp).unwrap();
        let f = g.mem_free(&[c], tmp).unwrap();
        assert!(g.has_memory_nodes());
        assert_eq!((f.index(), g.node_count()), (5, 6));
        let dot = g.to_dot().unwrap();
        assert!(dot.contains("->"), "{dot}");
        let exec = g.instantiate().unwrap();
        for _ in 0..3 {
            exec.launch(&s).unwrap();
        }
        s.synchronize().unwrap();
    }
    let want: Vec<f32> = xs().iter().map(|&v| 0.5 * v).collect();
    assert_eq!(y.to_vec().unwrap(), want);
    graph_mem_trim(dev).unwrap();
}

/// Uninitialized graph memory written whole by a fill node first, read by a kernel, in a graph
/// with two allocations live at once.
pub fn uninit_memory_nodes_run(dev: &Device) {
    let s = dev.new_stream().unwrap();
    let mut y = dev.alloc_zeroed::<f32>(N).unwrap();
    {
        let mut g = Graph::new(dev).unwrap();
        // SAFETY: the fill writes every element before the kernel reads it.
        let mut a = unsafe { g.mem_alloc_uninit::<f32>(&[], N).unwrap() };
        let mut b = g.mem_alloc::<f32>(&[], N).unwrap();
        assert_eq!(a.node().index(), 0);
        let fa = g.fill(&[a.node()], &mut a, 3.0f32).unwrap();
        // b = 2a + b (b zeroed): 6.
        let k = saxpy::node(&mut g, cfg(), &[fa, b.node()], 2.0, &a, &mut b).unwrap();
        let mut yh = GraphMut::new(&mut y);
        let c = g.memcpy(&[k], &mut yh, &b).unwrap();
        g.mem_free(&[k], a).unwrap();
        g.mem_free(&[c], b).unwrap();
        let exec = g.instantiate().unwrap();
        exec.launch(&s).unwrap();
        exec.launch(&s).unwrap();
        s.synchronize().unwrap();
    }
    assert!(y.to_vec().unwrap().iter().all(|&v| v == 6.0));
}

/// Every misuse of graph memory gets its own error before the driver.
pub fn memory_node_misuse_is_refused(dev: &Device) {
    let mut g = Graph::new(dev).unwrap();
    let mut tmp = g.mem_alloc::<f32>(&[], N).unwrap();
    // A use not after the alloc node (here, after nothing).
    assert!(matches!(
        scale::node(&mut g, cfg(), &[], 1.0, &mut tmp),
        Err(Error::Graph(GraphError::UseBeforeAlloc {
            node: 2,
            alloc: 0
        }))
    ));
    let unrelated = g.empty(&[]).unwrap();
    assert!(matches!(
        g.memset(&[unrelated], &mut tmp, 0),
        Err(Error::Graph(GraphError::UseBeforeAlloc {
            node: 3,
            alloc: 0
        }))
    ));
    let k1 = scale::node(&mut g, cfg(), &[tmp.node()], 2.0, &mut tmp).unwrap();
    // A reader after the alloc but unordered with the writer k1: the general conflict.
    let mut out = dev.alloc_zeroed::<f32>(N).unwrap();
    assert!(matches!(
        g.memcpy(&[tmp.node()], &mut out, &tmp),
        Err(Error::Graph(GraphError::UnorderedConflict {
            earlier: 3,
            ..
        }))
    ));
    // Memory of another graph, in a kernel node and in a copy.
    let mut other = Graph::new(dev).unwrap();
    assert!(matches!(
        scale::node(&mut other, cfg(), &[], 1.0, &mut tmp),
        Err(Error::Graph(GraphError::AllocOfAnotherGraph))
    ));
    let mut out2 = dev.alloc_zeroed::<f32>(N).unwrap();
    assert!(matches!(
        other.memcpy(&[], &mut out2, &tmp),
        Err(Error::Graph(GraphError::AllocOfAnotherGraph))
    ));
    assert!(matches!(
        other.mem_free(&[], tmp),
        Err(Error::Graph(GraphError::AllocOfAnotherGraph))
    ));
    // (The handle went with the refused free: the allocation is never freed.)
    assert!(matches!(
        g.instantiate(),
        Err(Error::Graph(GraphError::AllocNotFreed { alloc: 0 }))
    ));
    let _ = k1;

    // A free not after every use, and a free not after the alloc.
    let mut g = Graph::new(dev).unwrap();
    let mut tmp = g.mem_alloc::<f32>(&[], N).unwrap();
    let k = scale::node(&mut g, cfg(), &[tmp.node()], 2.0, &mut tmp).unwrap();
    let side = g.empty(&[tmp.node()]).unwrap();
    assert!(matches!(
        g.mem_free(&[side], tmp),
        Err(Error::Graph(GraphError::FreeBeforeUse { node: 2, free: 4 }))
    ));
    let _ = k;
    let mut g = Graph::new(dev).unwrap();
    let tmp = g.mem_alloc::<f32>(&[], N).unwrap();
    assert!(matches!(
        g.mem_free(&[], tmp),
        Err(Error::Graph(GraphError::UseBeforeAlloc {
            node: 2,
            alloc: 0
        }))
    ));

    // Empty allocations, child graphs with memory nodes, exec updates.
    let mut g = Graph::new(dev).unwrap();
    assert!(matches!(
        g.mem_alloc::<f32>(&[], 0),
        Err(Error::InvalidValue(_))
    ));
    let tmp = g.mem_alloc::<u32>(&[], 16).unwrap();
    let n = tmp.node();
    g.mem_free(&[n], tmp).unwrap();
    let mut parent = Graph::new(dev).unwrap();
    assert!(matches!(
        parent.child(&[], &g),
        Err(Error::Graph(GraphError::MemoryNodesInChild))
    ));
    let mut exec = g.instantiate().unwrap();
    let mut plain = Graph::new(dev).unwrap();
    plain.empty(&[]).unwrap();
    assert!(matches!(
        exec.update(&plain),
        Err(Error::Graph(GraphError::UpdateRefused(
            UpdateFailure::NotSupported
        )))
    ));
}

/// A stream-ordered allocation inside a capture: the buffer's memory outlives the closure with
/// the graph, its captured zeroing runs each time, and the graph launches many times.
pub fn stream_ordered_alloc_in_capture(dev: &Device) {
    let s = dev.new_stream().unwrap();
    let x = dev.upload(&xs()).unwrap();
    let mut y = dev.upload(&vec![7.0f32; N]).unwrap();
    // Warm up the kernels so the capture does not load modules.
    let mut warm = dev.alloc_zeroed::<f32>(N).unwrap();
    saxpy::launch(&s, cfg(), 0.0, &x, &mut warm).unwrap();
    scale::launch(&s, cfg(), 1.0, &mut warm).unwrap();
    s.synchronize().unwrap();
    {
        let g = s
            .capture(CaptureMode::Global, |s| {
                let mut tmp = DeviceBuffer::<f32>::alloc_async(s, N)?;
                saxpy::launch(s, cfg(), 2.0, &x, &mut tmp)?;
                scale::launch(s, cfg(), 0.25, &mut tmp)?;
                y.copy_from_async(&tmp, s)
            })
            .unwrap();
        let exec = g.instantiate().unwrap();
        drop(g);
        for _ in 0..3 {
            exec.launch(&s).unwrap();
        }
        s.synchronize().unwrap();
    }
    let want: Vec<f32> = xs().iter().map(|&v| 0.5 * v).collect();
    assert_eq!(y.to_vec().unwrap(), want);
}
