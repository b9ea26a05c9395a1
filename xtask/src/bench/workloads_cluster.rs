//! Issue 19's sm_90 workloads: a chain of 100 small dependent kernels with programmatic
//! dependent launch against the same chain without it, and the distributed-shared-memory
//! histogram against a global-atomics one. Each checks its result first; on an older device
//! they are rows with an error saying so.

use ferrocuda::host_runtime::{Device, DeviceBuffer, LaunchConfig, Stream};
use ferrocuda::kernel_std::api::Dim3;
use ferrocuda_examples::{cluster_histogram as ch, pdl_pair};

use super::report::{Row, Unit};
use super::timing::time_pair;
use super::twins::Twins;

fn e(x: impl std::fmt::Display) -> String {
    x.to_string()
}

/// Links of the chain, and the elements each one touches (small: launch latency dominates).
const STEPS: usize = 100;
const CHAIN_ELEMENTS: usize = 1 << 16;

fn needs_sm90(dev: &Device, name: &str) -> Option<Vec<Row>> {
    let sm = dev.properties().sm();
    (sm < 90).then(|| {
        vec![Row::failed(
            name,
            &format!("needs sm_90; this device is sm_{sm}"),
        )]
    })
}

/// The chain with PDL (ours) against the chain without (the row's reference): the ratio is
/// PDL's speed-up, which must be above 1.
pub fn pdl_chain(dev: &Device, _: &Twins) -> Result<Vec<Row>, String> {
    let name = "chain of 100 dependent kernels, PDL (vs the same chain without PDL)";
    if let Some(rows) = needs_sm90(dev, name) {
        return Ok(rows);
    }
    pdl_pair::check_chain(dev, CHAIN_ELEMENTS, STEPS)?;
    let x: Vec<f32> = (0..CHAIN_ELEMENTS).map(|i| (i % 97) as f32).collect();
    let mut a = DeviceBuffer::upload(dev, &x).map_err(e)?;
    let mut b = DeviceBuffer::<f32>::zeroed(dev, CHAIN_ELEMENTS).map_err(e)?;
    let s = Stream::new(dev).map_err(e)?;
    let cell = std::cell::RefCell::new((&mut a, &mut b));
    let (with, without) = time_pair(
        dev,
        &s,
        |s| {
            let mut g = cell.borrow_mut();
            let (a, b) = &mut *g;
            pdl_pair::chain(s, a, b, STEPS, true)
        },
        Some(|s: &Stream| {
            let mut g = cell.borrow_mut();
            let (a, b) = &mut *g;
            pdl_pair::chain(s, a, b, STEPS, false)
        }),
    )
    .map_err(e)?;
    Ok(vec![Row::new(name, Unit::Micros, 0.0, Some(with), without)])
}

/// The DSMEM histogram (clusters of 2 and 4 over 2048 bins: 4 and 2 KiB of shared memory per
/// block) against global atomics on the same input, 2^26 words.
pub fn dsmem_histogram(dev: &Device, _: &Twins) -> Result<Vec<Row>, String> {
    let name = "DSMEM histogram, 2048 bins";
    if let Some(rows) = needs_sm90(dev, name) {
        return Ok(rows);
    }
    ch::check_all(dev, true)?;
    let (n, nbins) = (1usize << 26, 2048usize);
    let data = ch::input(n, nbins);
    let want = ch::reference(&data, nbins);
    let input = DeviceBuffer::upload(dev, &data).map_err(e)?;
    let blocks = dev.properties().multiprocessor_count.max(1) * 8;
    let s = Stream::new(dev).map_err(e)?;
    let base = LaunchConfig {
        grid: Dim3::new(blocks, 1, 1),
        block: Dim3::new(ch::BLOCK, 1, 1),
        shared_mem_bytes: 0,
        attrs: Default::default(),
    };
    let mut rows = Vec::new();
    for c in [2u32, 4] {
        let cfg = LaunchConfig {
            shared_mem_bytes: (nbins / c as usize * 4) as u32,
            ..base
        }
        .cluster_dim((c, 1, 1));
        let mut bins = DeviceBuffer::<u32>::zeroed(dev, nbins).map_err(e)?;
        let mut gbins = DeviceBuffer::<u32>::zeroed(dev, nbins).map_err(e)?;
        ch::cluster_hist::launch(&s, cfg, &mut bins, &input).map_err(e)?;
        ch::global_hist::launch(&s, base, &mut gbins, &input).map_err(e)?;
        if bins.to_vec().map_err(e)? != want || gbins.to_vec().map_err(e)? != want {
            return Err(format!("{name}: wrong counts"));
        }
        let (ours, global) = time_pair(
            dev,
            &s,
            |s| ch::cluster_hist::launch(s, cfg, &mut bins, &input),
            Some(|s: &Stream| ch::global_hist::launch(s, base, &mut gbins, &input)),
        )
        .map_err(e)?;
        rows.push(Row::new(
            &format!("{name}, clusters of {c} (vs global atomics)"),
            Unit::GBps,
            4.0 * n as f64,
            Some(ours),
            global,
        ));
    }
    Ok(rows)
}
