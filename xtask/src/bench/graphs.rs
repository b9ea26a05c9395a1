//! CUDA graphs: what one node of a replayed graph costs. A chain of 1000 nodes of the empty
//! three-argument kernel (the launch row's), built with the typed `empty3::node`, instantiated
//! and uploaded; each replay is timed with events like every GPU row, and divided by the node
//! count. The CUDA C twin (`benches/reference/host/graph.cu`) builds the same chain with
//! `cudaGraphAddKernelNode` in its own process and times it the same way.

use ferrocuda::host_runtime::graph::{Graph, GraphMut, GraphNode};
use ferrocuda::host_runtime::{Device, DeviceBuffer, LaunchConfig, Stream};
use ferrocuda_examples::launch as empty;

use super::report::{Row, Unit};
use super::timing::{time_events, Timing};
use super::twins::Twins;

const NODES: usize = 1000;

fn e(x: impl std::fmt::Display) -> String {
    x.to_string()
}

/// Per-node time of a timing of the whole graph (milliseconds, as every row's timings are; the
/// report shows microseconds for this unit).
fn per_node(t: Timing) -> Timing {
    let f = 1.0 / NODES as f64;
    Timing {
        median_ms: t.median_ms * f,
        min_ms: t.min_ms * f,
        max_ms: t.max_ms * f,
    }
}

pub fn graph_replay(dev: &Device, twins: &Twins) -> Result<Vec<Row>, String> {
    let s = Stream::new(dev).map_err(e)?;
    let x = DeviceBuffer::upload(dev, &[1.0f32; 256]).map_err(e)?;
    let mut y = DeviceBuffer::upload(dev, &[2.0f32; 256]).map_err(e)?;
    let cfg = LaunchConfig::for_elements(256, 256);
    // Compiled and loaded before the graph is built.
    empty::empty3::launch(&s, cfg, 1.0, &x, &mut y).map_err(e)?;
    s.synchronize().map_err(e)?;
    let ours = {
        let mut yh = GraphMut::new(&mut y);
        let mut g = Graph::new(dev).map_err(e)?;
        let mut last: Option<GraphNode> = None;
        for _ in 0..NODES {
            let deps: Vec<GraphNode> = last.into_iter().collect();
            last = Some(empty::empty3::node(&mut g, cfg, &deps, 1.0, &x, &mut yh).map_err(e)?);
        }
        let exec = g.instantiate().map_err(e)?;
        exec.upload(&s).map_err(e)?;
        let t = time_events(dev, &s, |s| exec.launch(s)).map_err(e)?;
        s.synchronize().map_err(e)?;
        per_node(t)
    };
    let twin = match twins.run_host_program("graph") {
        Some(out) => {
            let out = out?;
            let us = out
                .lines()
                .find_map(|l| {
                    l.strip_prefix("graph_replay_us ")?
                        .trim()
                        .parse::<f64>()
                        .ok()
                })
                .ok_or_else(|| format!("graph printed no `graph_replay_us` line: {out}"))?;
            let per = us / NODES as f64 / 1e3;
            Some(Timing {
                median_ms: per,
                min_ms: per,
                max_ms: per,
            })
        }
        None => None,
    };
    Ok(vec![Row::new(
        "graph replay per node (1000 empty kernels, vs CUDA C graph)",
        Unit::Micros,
        0.0,
        Some(ours),
        twin,
    )])
}
