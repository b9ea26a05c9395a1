//! simpleCudaGraphs: the same work (upload, scale, reduce, download) as an explicitly built graph
//! and as a graph captured from a stream; both give the CPU reference's sum, replayed several
//! times. Then an exec's kernel parameter is changed in place (`set_node_params`) and a captured
//! exec is updated as a whole from a re-capture with another factor, each checked again.
//! Integer data and atomics keep every result exact.

use ferrocuda::host_runtime::graph::GraphMut;
use ferrocuda::host_runtime::{PinnedBuffer, PinnedFlags};
use ferrocuda::prelude::*;

use crate::util::{check_equal, Rng};

pub const BLOCK: u32 = 256;

/// `y[i] = a * x[i]`.
#[kernel]
pub fn scale_into(a: u32, x: &[u32], y: &mut [u32]) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    if i < y.len() {
        y[i] = a.wrapping_mul(x[i]);
    }
}

/// `sum[0] += y[i]` for every element.
#[kernel]
pub fn sum_into(y: &[u32], sum: &mut [u32]) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    if i < y.len() {
        atomic_add(&mut sum[0], y[i]);
    }
}

/// `sum[0] = 0` (the captured graph's reset; the explicit one uses a memset node).
#[kernel]
pub fn zero_first(sum: &mut [u32]) {
    if block_idx().x == 0 && thread_idx().x == 0 {
        sum[0] = 0;
    }
}

pub fn reference(x: &[u32], a: u32) -> u32 {
    x.iter()
        .fold(0u32, |s, &v| s.wrapping_add(a.wrapping_mul(v)))
}

fn err(e: Error) -> String {
    e.to_string()
}

/// The captured graph: y = a * x, sum = 0, sum += y.
fn capture<'a>(
    s: &Stream,
    cfg: LaunchConfig,
    a: u32,
    x: &'a DeviceBuffer<u32>,
    y: &'a mut DeviceBuffer<u32>,
    sum: &'a mut DeviceBuffer<u32>,
) -> Result<Graph<'a>> {
    s.capture(CaptureMode::Global, move |s| {
        scale_into::launch(s, cfg, a, x, y)?;
        zero_first::launch(s, LaunchConfig::for_elements(1, 1), sum)?;
        sum_into::launch(s, cfg, y, sum)
    })
}

/// Runs both graphs on `n` random values, `replays` times each, then the two updates.
pub fn check(dev: &Device, n: usize, replays: usize) -> Result<(), String> {
    let mut rng = Rng::new(0x6a09);
    let input: Vec<u32> = (0..n).map(|_| rng.next_u32() % 1000).collect();
    let cfg = LaunchConfig::for_elements(n, BLOCK);
    let s = dev.new_stream().map_err(err)?;
    let host_in = PinnedBuffer::from_slice(dev, &input, PinnedFlags::default()).map_err(err)?;
    let mut host_sum = PinnedBuffer::<u32>::new(dev, 1, PinnedFlags::default()).map_err(err)?;
    let mut x = dev.alloc_zeroed::<u32>(n).map_err(err)?;
    let mut y = dev.alloc_zeroed::<u32>(n).map_err(err)?;
    let mut sum = dev.alloc_zeroed::<u32>(1).map_err(err)?;

    // Explicit: H2D copy -> scale -> (memset of the sum) -> reduce -> D2H copy.
    {
        let mut xh = GraphMut::new(&mut x);
        let mut yh = GraphMut::new(&mut y);
        let mut sh = GraphMut::new(&mut sum);
        let mut g = Graph::new(dev).map_err(err)?;
        let up = g.memcpy_from_host(&[], &mut xh, &host_in).map_err(err)?;
        let k = scale_into::node(&mut g, cfg, &[up], 3, &xh, &mut yh).map_err(err)?;
        let z = g.memset(&[], &mut sh, 0).map_err(err)?;
        let r = sum_into::node(&mut g, cfg, &[k, z], &yh, &mut sh).map_err(err)?;
        g.memcpy_to_host(&[r], &mut host_sum, &sh).map_err(err)?;
        let mut exec = g.instantiate().map_err(err)?;
        for _ in 0..replays {
            exec.launch(&s).map_err(err)?;
        }
        s.synchronize().map_err(err)?;
        // The device sum through its handle (device reads are ordered after the graph's work;
        // the pinned copy is the exec's until it is dropped).
        let got = sh.get().to_vec().map_err(err)?;
        check_equal("explicit graph", &got, &[reference(&input, 3)])?;

        // A new factor for the scale node, in the instantiated graph.
        scale_into::set_node_params(&mut exec, k, cfg, 5, &xh, &mut yh).map_err(err)?;
        exec.launch(&s).map_err(err)?;
        s.synchronize().map_err(err)?;
    }
    check_equal("after set_node_params", &host_sum, &[reference(&input, 5)])?;

    // Captured: the same kernels on a stream (x already holds the input).
    let capture = |a, y, sum| capture(&s, cfg, a, &x, y, sum);
    // Warm the kernels up so the capture does not load modules.
    zero_first::launch(&s, LaunchConfig::for_elements(1, 1), &mut sum).map_err(err)?;
    scale_into::launch(&s, cfg, 1, &x, &mut y).map_err(err)?;
    sum_into::launch(&s, cfg, &y, &mut sum).map_err(err)?;
    let mut y2 = dev.alloc_zeroed::<u32>(n).map_err(err)?;
    let mut sum2 = dev.alloc_zeroed::<u32>(1).map_err(err)?;
    {
        let g = capture(3, &mut y, &mut sum).map_err(err)?;
        let mut exec = g.instantiate().map_err(err)?;
        for _ in 0..replays {
            exec.launch(&s).map_err(err)?;
        }
        s.synchronize().map_err(err)?;
        // A re-capture with another factor and other buffers updates the exec as a whole.
        let g7 = capture(7, &mut y2, &mut sum2).map_err(err)?;
        exec.update(&g7).map_err(err)?;
        exec.launch(&s).map_err(err)?;
        s.synchronize().map_err(err)?;
    }
    check_equal(
        "captured graph",
        &sum.to_vec().map_err(err)?,
        &[reference(&input, 3)],
    )?;
    check_equal(
        "after exec update",
        &sum2.to_vec().map_err(err)?,
        &[reference(&input, 7)],
    )
}
