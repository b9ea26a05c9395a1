//! Issue 19's L2 persistence row: a kernel that streams through an array several times the
//! size of L2 while reading a hot table at scattered positions, the table in a persisting
//! access-policy window (ours) against the same launch without one (the reference). The table
//! is the size of the persisting set-aside, which the workload sets (and resets after).

use ferrocuda::host_runtime::{AccessPolicyWindow, Device, DeviceBuffer, Stream};
use ferrocuda_examples::l2_persist as l2;

use super::report::{Row, Unit};
use super::timing::time_pair;
use super::twins::Twins;

fn e(x: impl std::fmt::Display) -> String {
    x.to_string()
}

/// Hot-table reads per streamed element.
const ROUNDS: u32 = 4;

pub fn l2_persist(dev: &Device, _: &Twins) -> Result<Vec<Row>, String> {
    let name = "hot table in a persisting L2 window (vs no window)";
    let p = dev.properties().clone();
    if p.max_persisting_l2_cache_size == 0 || p.max_access_policy_window_size == 0 {
        return Ok(vec![Row::failed(
            name,
            "the device has no L2 persistence (sm_80+)",
        )]);
    }
    l2::check(dev, 1 << 16, 1 << 20, ROUNDS)?;
    // The table fills the set-aside (and at most half of L2); the stream is 8x L2.
    let aside = (p.max_persisting_l2_cache_size as usize)
        .min(p.max_access_policy_window_size as usize)
        .min(p.l2_cache_bytes as usize / 2);
    let hot_len = aside / 4;
    let n = (p.l2_cache_bytes as usize * 8 / 4).max(1 << 22);
    dev.set_persisting_l2_cache_size(aside).map_err(e)?;
    let hot = DeviceBuffer::upload(dev, &(0..hot_len as u32).collect::<Vec<_>>()).map_err(e)?;
    let stream_in = DeviceBuffer::upload(dev, &vec![1u32; n]).map_err(e)?;
    let mut out = DeviceBuffer::<u32>::zeroed(dev, n).map_err(e)?;
    let mut out2 = DeviceBuffer::<u32>::zeroed(dev, n).map_err(e)?;
    let w = AccessPolicyWindow::persisting(&hot, 1.0).map_err(e)?;
    let s = Stream::new(dev).map_err(e)?;
    let (with, without) = time_pair(
        dev,
        &s,
        |s| {
            l2::hot_table_mix::launch(
                s,
                l2::config(n, Some(w)),
                &hot,
                &stream_in,
                &mut out,
                ROUNDS,
            )
        },
        Some(|s: &Stream| {
            l2::hot_table_mix::launch(s, l2::config(n, None), &hot, &stream_in, &mut out2, ROUNDS)
        }),
    )
    .map_err(e)?;
    dev.reset_persisting_l2_cache().map_err(e)?;
    dev.set_persisting_l2_cache_size(0).map_err(e)?;
    // Bytes the kernel asks for: the stream in and out, and the hot reads.
    let bytes = (n * 8 + n * ROUNDS as usize * 4) as f64;
    Ok(vec![Row::new(
        &format!(
            "{name}, {} MiB table, {} MiB stream",
            aside >> 20,
            (n * 4) >> 20
        ),
        Unit::GBps,
        bytes,
        Some(with),
        without,
    )])
}
