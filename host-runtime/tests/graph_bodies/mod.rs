//! The graph tests' bodies, shared by `sim_graphs` (the simulator, in `cargo test`) and
//! `gpu_graphs` (the CUDA backend, `--ignored`): each takes the device to run on.

#![allow(dead_code)]

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

use ferrocuda::prelude::*;
use host_runtime::graph::GraphMut;
use host_runtime::{GraphError, LaunchError, PinnedBuffer, PinnedFlags, UpdateFailure};

#[kernel]
pub fn saxpy(a: f32, x: &[f32], y: &mut [f32]) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    if i < y.len() {
        y[i] = a * x[i] + y[i];
    }
}

#[kernel]
pub fn scale(a: f32, y: &mut [f32]) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    if i < y.len() {
        y[i] *= a;
    }
}

/// Divides by `d` in thread 0: `d == 0` panics.
#[kernel]
pub fn div_first(d: u32, y: &mut [u32]) {
    if thread_idx().x == 0 && block_idx().x == 0 {
        y[0] /= d;
    }
}

#[kernel]
pub fn empty() {}

const N: usize = 1000;

fn cfg() -> LaunchConfig {
    LaunchConfig::for_elements(N, 128)
}

fn xs() -> Vec<f32> {
    (0..N).map(|i| i as f32 * 0.5).collect()
}

/// What `work` computes, on the CPU: y = 2x + 1 filled, then y = 3x + y, then scaled by 0.5.
fn reference() -> Vec<f32> {
    xs().iter()
        .map(|&x| ((2.0 * x + 1.0) + 3.0 * x) * 0.5)
        .collect()
}

/// An explicit graph: fill y with 1 (a memset node of a 4-byte value), y = 2x + y, y = 3x + y,
/// y *= 0.5, with a host node counting runs beside the kernels and an empty join at the end;
/// launched three times (the fill starts each run over).
pub fn explicit_graph_matches_cpu(dev: &Device) {
    let s = dev.new_stream().unwrap();
    let x = dev.upload(&xs()).unwrap();
    let mut y = dev.alloc_zeroed::<f32>(N).unwrap();
    let runs = Arc::new(AtomicU32::new(0));
    {
        let mut yh = GraphMut::new(&mut y);
        let mut g = Graph::new(dev).unwrap();
        let f = g.fill(&[], &mut yh, 1.0f32).unwrap();
        let k1 = saxpy::node(&mut g, cfg(), &[f], 2.0, &x, &mut yh).unwrap();
        let k2 = saxpy::node(&mut g, cfg(), &[k1], 3.0, &x, &mut yh).unwrap();
        let k3 = scale::node(&mut g, cfg(), &[k2], 0.5, &mut yh).unwrap();
        let r = runs.clone();
        let h = g
            .host(&[], move || {
                r.fetch_add(1, Ordering::SeqCst);
            })
            .unwrap();
        let j = g.empty(&[k3, h]).unwrap();
        assert_eq!((h.index(), j.index(), g.node_count()), (4, 5, 6));
        // Writers of one buffer must be ordered: a second unordered writer is refused.
        assert!(matches!(
            scale::node(&mut g, cfg(), &[k1], 1.0, &mut yh),
            Err(Error::Graph(GraphError::UnorderedConflict {
                earlier: 2,
                node: 6
            }))
        ));
        // And so is an unordered reader of what a node writes.
        let mut other = dev.alloc_zeroed::<f32>(N).unwrap();
        assert!(matches!(
            saxpy::node(&mut g, cfg(), &[], 1.0, &yh, &mut other),
            Err(Error::Graph(GraphError::UnorderedConflict {
                earlier: 0,
                ..
            }))
        ));
        let exec = g.instantiate().unwrap();
        drop(g); // the exec outlives its graph
        for _ in 0..3 {
            exec.launch(&s).unwrap();
        }
        s.synchronize().unwrap();
    }
    assert_eq!(runs.load(Ordering::SeqCst), 3);
    assert_eq!(y.to_vec().unwrap(), reference());
}

/// The same computation explicitly (memset, copy and kernels in a DAG over two buffers) and
/// captured: both match the CPU.
pub fn explicit_and_captured_graphs_agree(dev: &Device) {
    let s = dev.new_stream().unwrap();
    let x = dev.upload(&xs()).unwrap();
    let ones = dev.upload(&vec![1.0f32; N]).unwrap();

    // Captured: y = 1; y = 2x + y; y = 3x + y; y *= 0.5.
    let mut yc = dev.alloc_zeroed::<f32>(N).unwrap();
    // Warm up the kernels so the capture does not load modules.
    saxpy::launch(&s, cfg(), 0.0, &x, &mut yc).unwrap();
    scale::launch(&s, cfg(), 1.0, &mut yc).unwrap();
    s.synchronize().unwrap();
    let captured = s
        .capture(CaptureMode::Global, |s| {
            yc.copy_from_async(&ones, s)?;
            saxpy::launch(s, cfg(), 2.0, &x, &mut yc)?;
            saxpy::launch(s, cfg(), 3.0, &x, &mut yc)?;
            scale::launch(s, cfg(), 0.5, &mut yc)
        })
        .unwrap();
    assert!(captured.node_count() >= 4, "{}", captured.node_count());
    // Nothing ran yet.
    {
        let exec = captured.instantiate().unwrap();
        exec.upload(&s).unwrap();
        exec.launch(&s).unwrap();
        s.synchronize().unwrap();
    }
    drop(captured);
    assert_eq!(yc.to_vec().unwrap(), reference());

    // Explicit: y = 1 (a copy), then 2x + y and 3x + y as a chain, and the scale.
    let mut ye = dev.alloc_zeroed::<f32>(N).unwrap();
    {
        let mut yh = GraphMut::new(&mut ye);
        let mut g = Graph::new(dev).unwrap();
        let c = g.memcpy(&[], &mut yh, &ones).unwrap();
        let k1 = saxpy::node(&mut g, cfg(), &[c], 2.0, &x, &mut yh).unwrap();
        let k2 = saxpy::node(&mut g, cfg(), &[k1], 3.0, &x, &mut yh).unwrap();
        scale::node(&mut g, cfg(), &[k2], 0.5, &mut yh).unwrap();
        let dot = g.to_dot().unwrap();
        assert!(dot.contains("digraph"), "{dot}");
        let exec = g.instantiate().unwrap();
        exec.launch(&s).unwrap();
        s.synchronize().unwrap();
    }
    assert_eq!(ye.to_vec().unwrap(), reference());
    assert_eq!(ye.to_vec().unwrap(), yc.to_vec().unwrap());
}

/// Whole-graph update: same shape, another scale factor; refusals name the reason and leave
/// the exec as it was.
pub fn exec_update_takes_new_parameters(dev: &Device) {
    let s = dev.new_stream().unwrap();
    let mut a = dev.upload(&vec![1.0f32; N]).unwrap();
    let mut b = dev.upload(&vec![1.0f32; N]).unwrap();
    let mut g1 = Graph::new(dev).unwrap();
    scale::node(&mut g1, cfg(), &[], 2.0, &mut a).unwrap();
    let mut exec = g1.instantiate().unwrap();
    exec.launch(&s).unwrap();

    let mut g2 = Graph::new(dev).unwrap();
    scale::node(&mut g2, cfg(), &[], 3.0, &mut b).unwrap();
    exec.update(&g2).unwrap();
    exec.launch(&s).unwrap();

    // Two nodes where the exec has one: the topology changed.
    let mut g3 = Graph::new(dev).unwrap();
    let e = g3.empty(&[]).unwrap();
    g3.empty(&[e]).unwrap();
    match exec.update(&g3) {
        Err(Error::Graph(GraphError::UpdateRefused(UpdateFailure::TopologyChanged))) => {}
        other => panic!("expected a topology refusal, got {other:?}"),
    }
    // One node of another kind.
    let mut g4 = Graph::new(dev).unwrap();
    g4.empty(&[]).unwrap();
    match exec.update(&g4) {
        Err(Error::Graph(GraphError::UpdateRefused(
            UpdateFailure::NodeTypeChanged | UpdateFailure::TopologyChanged,
        ))) => {}
        other => panic!("expected a node type refusal, got {other:?}"),
    }
    // Still the updated exec: b scaled again.
    exec.launch(&s).unwrap();
    s.synchronize().unwrap();
    drop((exec, g1, g2, g3, g4));
    assert!(a.to_vec().unwrap().iter().all(|&v| v == 2.0));
    assert!(b.to_vec().unwrap().iter().all(|&v| v == 9.0));
}

/// Per-node parameters through the typed launcher: a new factor and a new buffer.
pub fn set_node_params_changes_a_kernel_argument(dev: &Device) {
    let s = dev.new_stream().unwrap();
    let mut a = dev.upload(&vec![1.0f32; N]).unwrap();
    let mut b = dev.upload(&vec![1.0f32; N]).unwrap();
    let x = dev.upload(&xs()).unwrap();
    let mut g = Graph::new(dev).unwrap();
    let k = scale::node(&mut g, cfg(), &[], 2.0, &mut a).unwrap();
    let e = g.empty(&[k]).unwrap();
    let mut exec = g.instantiate().unwrap();
    exec.launch(&s).unwrap();
    scale::set_node_params(&mut exec, k, cfg(), 10.0, &mut b).unwrap();
    exec.launch(&s).unwrap();
    // Another kernel's parameters on this node, or a non-kernel node: refused.
    let mut c = dev.alloc_zeroed::<f32>(N).unwrap();
    assert!(matches!(
        saxpy::set_node_params(&mut exec, k, cfg(), 1.0, &x, &mut c),
        Err(Error::Graph(GraphError::NotThisKernel { node: 0 }))
    ));
    let mut d = dev.alloc_zeroed::<f32>(N).unwrap();
    assert!(matches!(
        scale::set_node_params(&mut exec, e, cfg(), 1.0, &mut d),
        Err(Error::Graph(GraphError::NotThisKernel { node: 1 }))
    ));
    // A node of another graph.
    let mut other = Graph::new(dev).unwrap();
    let foreign = other.empty(&[]).unwrap();
    let mut f = dev.alloc_zeroed::<f32>(N).unwrap();
    assert!(matches!(
        scale::set_node_params(&mut exec, foreign, cfg(), 1.0, &mut f),
        Err(Error::Graph(GraphError::ForeignNode { .. }))
    ));
    // A bad configuration is the launch path's error, before the driver.
    let mut h = dev.alloc_zeroed::<f32>(N).unwrap();
    let bad = LaunchConfig {
        grid: Dim3::new(1, 1, 1),
        block: Dim3::new(2048, 1, 1),
        shared_mem_bytes: 0,
        attrs: Default::default(),
    };
    let r = scale::set_node_params(&mut exec, k, bad, 1.0, &mut h);
    assert!(
        matches!(
            r,
            Err(Error::InvalidLaunch(LaunchError::BlockDimTooLarge { .. }))
        ),
        "{r:?}"
    );
    s.synchronize().unwrap();
    drop((exec, g, other));
    assert!(a.to_vec().unwrap().iter().all(|&v| v == 2.0));
    assert!(b.to_vec().unwrap().iter().all(|&v| v == 10.0));
}

/// A kernel panic inside a graph launch is the launching stream's `Err(KernelPanic)`, once.
pub fn kernel_panic_in_a_graph_is_reported_once(dev: &Device) {
    let s = dev.new_stream().unwrap();
    let mut y = dev.upload(&[7u32]).unwrap();
    let mut g = Graph::new(dev).unwrap();
    let k = div_first::node(&mut g, LaunchConfig::for_elements(1, 1), &[], 0, &mut y).unwrap();
    let exec = g.instantiate().unwrap();
    exec.launch(&s).unwrap();
    match s.synchronize() {
        Err(Error::KernelPanic(p)) => {
            assert_eq!(p.message, "attempt to divide by zero");
            assert!(p.kernel.ends_with("div_first"), "{}", p.kernel);
        }
        other => panic!("expected a kernel panic, got {other:?}"),
    }
    s.synchronize().unwrap();
    // A captured launch reports the same way, on the stream that launches the exec.
    let other = dev.new_stream().unwrap();
    let mut z = dev.upload(&[9u32]).unwrap();
    div_first::launch(&other, LaunchConfig::for_elements(1, 1), 1, &mut z).unwrap();
    other.synchronize().unwrap();
    let cg = other
        .capture(CaptureMode::ThreadLocal, |s| {
            div_first::launch(s, LaunchConfig::for_elements(1, 1), 0, &mut z)
        })
        .unwrap();
    let cexec = cg.instantiate().unwrap();
    cexec.launch(&s).unwrap();
    assert!(matches!(s.synchronize(), Err(Error::KernelPanic(_))));
    s.synchronize().unwrap();
    let _ = k;
}

/// A host node's panic is the launching stream's `Err(CallbackPanic)`.
pub fn host_node_panic_is_reported(dev: &Device) {
    let s = dev.new_stream().unwrap();
    let mut g = Graph::new(dev).unwrap();
    g.host(&[], || panic!("host node exploded")).unwrap();
    let exec = g.instantiate().unwrap();
    exec.launch(&s).unwrap();
    match s.synchronize() {
        Err(Error::CallbackPanic { message }) => assert_eq!(message, "host node exploded"),
        other => panic!("expected a callback panic, got {other:?}"),
    }
    s.synchronize().unwrap();
}

/// Event record and wait nodes, a child graph and pinned host copies.
pub fn events_children_and_host_copies(dev: &Device) {
    let s = dev.new_stream().unwrap();
    let ev = Event::new(dev, EventFlags::default()).unwrap();
    let src = PinnedBuffer::from_slice(dev, &xs(), PinnedFlags::default()).unwrap();
    let mut back = PinnedBuffer::<f32>::new(dev, N, PinnedFlags::default()).unwrap();
    let mut d = dev.alloc_zeroed::<f32>(N).unwrap();
    let mut e = dev.alloc_zeroed::<f32>(N).unwrap();
    let mut dh = GraphMut::new(&mut d);

    let mut child = Graph::new(dev).unwrap();
    scale::node(&mut child, cfg(), &[], 4.0, &mut e).unwrap();

    let mut g = Graph::new(dev).unwrap();
    let up = g.memcpy_from_host(&[], &mut dh, &src).unwrap();
    let rec = g.event_record(&[up], &ev).unwrap();
    let wait = g.event_wait(&[rec], &ev).unwrap();
    let down = g.memcpy_to_host(&[wait], &mut back, &dh).unwrap();
    let c = g.child(&[], &child).unwrap();
    assert_eq!((down.index(), c.index()), (3, 4));
    drop(child);
    let exec = g.instantiate().unwrap();
    exec.launch(&s).unwrap();
    s.synchronize().unwrap();
    assert!(ev.query().unwrap());
    drop((exec, g, dh));
    assert_eq!(&back[..], &xs()[..]);
    assert!(e.to_vec().unwrap().iter().all(|&v| v == 0.0));
}

/// Everything refused before the driver, each with its error.
pub fn invalid_graphs_are_refused(dev: &Device, other_device: &Device) {
    let s = dev.new_stream().unwrap();
    // Dependencies on nodes of another graph, and cycles.
    let mut g1 = Graph::new(dev).unwrap();
    let mut g2 = Graph::new(dev).unwrap();
    let a = g1.empty(&[]).unwrap();
    let b = g1.empty(&[a]).unwrap();
    let c = g1.empty(&[b]).unwrap();
    let foreign = g2.empty(&[]).unwrap();
    assert!(matches!(
        g1.empty(&[foreign]),
        Err(Error::Graph(GraphError::ForeignNode { node: 0 }))
    ));
    assert!(matches!(
        g1.add_dependency(c, a),
        Err(Error::Graph(GraphError::Cycle { from: 2, to: 0 }))
    ));
    assert!(matches!(
        g1.add_dependency(a, a),
        Err(Error::Graph(GraphError::Cycle { .. }))
    ));
    g1.add_dependency(a, c).unwrap();
    assert_eq!(g1.node_count(), 3);

    // A kernel node with a bad configuration: the launch path's error.
    let mut y = dev.alloc_zeroed::<f32>(N).unwrap();
    let bad = LaunchConfig {
        grid: Dim3::new(0, 1, 1),
        block: Dim3::new(32, 1, 1),
        shared_mem_bytes: 0,
        attrs: Default::default(),
    };
    assert!(matches!(
        scale::node(&mut g2, bad, &[], 1.0, &mut y),
        Err(Error::InvalidLaunch(LaunchError::ZeroGrid { .. }))
    ));
    assert_eq!(g2.node_count(), 1, "a refused node is not added");
    // Memory of another device.
    let mut theirs = other_device.alloc_zeroed::<f32>(N).unwrap();
    assert!(matches!(
        scale::node(&mut g2, cfg(), &[], 1.0, &mut theirs),
        Err(Error::WrongDevice)
    ));
    let ones = dev.upload(&[1u8; 4]).unwrap();
    let mut three = dev.alloc_zeroed::<u8>(3).unwrap();
    assert!(matches!(
        g2.memcpy(&[], &mut three, &ones),
        Err(Error::LengthMismatch {
            expected: 3,
            got: 4
        })
    ));
    let mut wide = dev.alloc_zeroed::<u64>(2).unwrap();
    assert!(matches!(
        g2.fill(&[], &mut wide, 7u64),
        Err(Error::InvalidValue(_))
    ));

    // Launching on a stream of another device.
    let exec = g1.instantiate().unwrap();
    let theirs_s = other_device.new_stream().unwrap();
    assert!(matches!(exec.launch(&theirs_s), Err(Error::WrongDevice)));
    assert!(matches!(exec.upload(&theirs_s), Err(Error::WrongDevice)));
    exec.launch(&s).unwrap();
    s.synchronize().unwrap();

    // Empty captures, nested captures, run-once callbacks in a capture.
    assert!(matches!(
        s.capture(CaptureMode::Relaxed, |_| Ok(())),
        Err(Error::Graph(GraphError::EmptyCapture))
    ));
    let r = s.capture(CaptureMode::Global, |s| {
        let inner = s.capture(CaptureMode::Global, |_| Ok(()));
        assert!(matches!(
            inner,
            Err(Error::Graph(GraphError::AlreadyCapturing))
        ));
        let once = s.launch_host_fn(|| {});
        assert!(matches!(
            once,
            Err(Error::Graph(GraphError::HostFnInCapture))
        ));
        Ok(())
    });
    assert!(matches!(r, Err(Error::Graph(GraphError::EmptyCapture))));
}

/// A capture ends whatever way its closure leaves: an error is returned, a panic unwinds, and
/// the stream runs work normally afterwards.
pub fn capture_ends_on_error_and_panic(dev: &Device) {
    let s = dev.new_stream().unwrap();
    let mut y = dev.upload(&vec![1.0f32; N]).unwrap();
    scale::launch(&s, cfg(), 1.0, &mut y).unwrap();
    s.synchronize().unwrap();
    let r = s.capture(CaptureMode::Global, |s| {
        scale::launch(s, cfg(), 2.0, &mut y)?;
        Err(Error::InvalidValue("stop".into()))
    });
    assert!(matches!(r, Err(Error::InvalidValue(m)) if m == "stop"));
    scale::launch(&s, cfg(), 3.0, &mut y).unwrap();
    assert!(
        y.to_vec().unwrap().iter().all(|&v| v == 3.0),
        "captured work never ran"
    );

    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let _ = s.capture(CaptureMode::Global, |s| {
            scale::launch(s, cfg(), 2.0, &mut y).unwrap();
            panic!("inside the capture");
        });
    }));
    assert!(caught.is_err());
    scale::launch(&s, cfg(), 2.0, &mut y).unwrap();
    assert!(y.to_vec().unwrap().iter().all(|&v| v == 6.0));
    // And it can capture again.
    let g = s
        .capture(CaptureMode::Global, |s| {
            scale::launch(s, cfg(), 0.5, &mut y)
        })
        .unwrap();
    g.instantiate().unwrap().launch(&s).unwrap();
    s.synchronize().unwrap();
    drop(g);
    assert!(y.to_vec().unwrap().iter().all(|&v| v == 3.0));
}

/// A buffer a captured graph uses whose last owner lets go while an exec lives is freed only
/// with the graph: the exec still reads it.
pub fn captured_buffer_outlives_its_owner(dev: &Device) {
    let s = dev.new_stream().unwrap();
    let x = Arc::new(dev.upload(&xs()).unwrap());
    let mut y = dev.alloc_zeroed::<f32>(N).unwrap();
    saxpy::launch(&s, cfg(), 0.0, &*x, &mut y).unwrap();
    s.synchronize().unwrap();
    let xc = x.clone();
    let g = s
        .capture(CaptureMode::Global, move |s| {
            saxpy::launch(s, cfg(), 1.0, &*xc, &mut y)
        })
        .unwrap();
    let exec = g.instantiate().unwrap();
    drop(g);
    drop(x); // the last owner: the capture's copy went with the closure
    for _ in 0..2 {
        exec.launch(&s).unwrap();
    }
    s.synchronize().unwrap();
    drop(exec);
    dev.synchronize().unwrap();
}

/// Graph launches take part in the use tracking: a launch on another stream after the graph
/// writes the buffer sees the graph's result, and a synchronous read after both sees both.
pub fn graph_launches_are_ordered_with_other_work(dev: &Device) {
    let (s1, s2) = (dev.new_stream().unwrap(), dev.new_stream().unwrap());
    let mut y = dev.upload(&vec![1.0f32; N]).unwrap();
    scale::launch(&s1, cfg(), 1.0, &mut y).unwrap();
    s1.synchronize().unwrap();
    let mut vals = Vec::new();
    {
        let g = s1
            .capture(CaptureMode::Global, |s| {
                for _ in 0..20 {
                    scale::launch(s, cfg(), 2.0, &mut y)?;
                }
                Ok(())
            })
            .unwrap();
        let exec = g.instantiate().unwrap();
        exec.launch(&s1).unwrap();
        drop(exec);
        drop(g);
        // Dropping the exec does not wait; the next use on s2 is ordered after the graph.
        scale::launch(&s2, cfg(), 0.5, &mut y).unwrap();
        vals.extend(y.to_vec().unwrap());
    }
    assert!(
        vals.iter().all(|&v| v == (1u32 << 19) as f32),
        "{}",
        vals[0]
    );
}

/// The benchmark's shape: a 1000-node chain of empty kernels, replayed.
pub fn thousand_node_graph_replays(dev: &Device) {
    let s = dev.new_stream().unwrap();
    empty::launch(&s, LaunchConfig::for_elements(1, 1)).unwrap();
    s.synchronize().unwrap();
    let mut g = Graph::new(dev).unwrap();
    let mut last: Option<GraphNode> = None;
    for _ in 0..1000 {
        let deps: Vec<GraphNode> = last.into_iter().collect();
        last = Some(empty::node(&mut g, LaunchConfig::for_elements(1, 1), &deps).unwrap());
    }
    assert_eq!(g.node_count(), 1000);
    let exec = g.instantiate().unwrap();
    exec.upload(&s).unwrap();
    for _ in 0..3 {
        exec.launch(&s).unwrap();
    }
    s.synchronize().unwrap();
}
