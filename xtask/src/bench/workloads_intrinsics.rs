//! Workloads of the intrinsics examples: the warp-shuffle reduction and the shared-atomics
//! histogram against their CUDA C twins (`benches/reference/{reduction,histogram}.cu`, the same
//! algorithm, block size and grid), plus the shared-memory-tree and `reduce_add_sync` reductions
//! as extra rows. Inputs: 256 MiB of random words. Both sides' results are checked against the
//! CPU at that size before timing; ours and the twin are then timed alternately (`time_pair`).
//!
//! The warp-shuffle reduction has two rows, one per twin, because they answer two questions:
//! - "vs plain twin" (`reduce_shfl`): the CUDA C written line for line like our Rust kernel. nvcc
//!   compiles its grid-stride loop as written (one load in flight per thread); our compiler runs
//!   it four iterations per trip. A ratio above 1 is what our compiler adds to the same source.
//! - "vs hand-unrolled twin" (`reduce_shfl_unrolled`): the loop unrolled by hand to four loads
//!   per trip, as a CUDA expert writes a bandwidth-bound reduction. A ratio near 1 means the plain
//!   Rust kernel runs as fast as the expert's CUDA C; it is the fair speed comparison.

use std::ffi::c_void;

use ferrocuda::host_runtime::{Device, DeviceBuffer, Function, LaunchConfig, Module, Stream};
use ferrocuda_examples::{histogram, reduction, util::Rng};

use super::report::{Row, Unit};
use super::timing::time_pair;
use super::twins::Twins;

/// 2^26 words: 256 MiB, far above L2.
const WORDS: usize = 1 << 26;

fn e(x: impl std::fmt::Display) -> String {
    x.to_string()
}

fn ptr<T>(v: &mut T) -> *mut c_void {
    v as *mut T as *mut c_void
}

/// Enough blocks of 256 threads to fill every multiprocessor (8 resident blocks each).
fn blocks(dev: &Device) -> u32 {
    dev.properties().multiprocessor_count.max(1) * 8
}

fn random_words(seed: u64) -> Vec<u32> {
    let mut rng = Rng::new(seed);
    (0..WORDS).map(|_| rng.next_u32()).collect()
}

/// Launches a twin taking `(const unsigned *in, unsigned long long n, unsigned *out)`.
fn launch_twin(
    f: &Function,
    s: &Stream,
    cfg: LaunchConfig,
    input: &DeviceBuffer<u32>,
    out: &DeviceBuffer<u32>,
) -> ferrocuda::host_runtime::Result<()> {
    let (mut i, mut n, mut o) = (input.device_ptr(), input.len() as u64, out.device_ptr());
    let mut args = [ptr(&mut i), ptr(&mut n), ptr(&mut o)];
    unsafe { f.launch_raw(s, cfg, &mut args) }
}

/// The twin `entry` of `file`, checked once: one run into a zeroed `out_len`-word buffer must
/// give `want`. None without twins; the module, function and output buffer to time with.
fn checked_twin(
    dev: &Device,
    twins: &Twins,
    (file, entry): (&str, &str),
    cfg: LaunchConfig,
    input: &DeviceBuffer<u32>,
    want: &[u32],
) -> Result<Option<(Module, Function, DeviceBuffer<u32>)>, String> {
    let Some(f) = twins.function(dev, file, entry) else {
        return Ok(None);
    };
    let (m, f) = f.map_err(e)?;
    let s = Stream::new(dev).map_err(e)?;
    let out = DeviceBuffer::<u32>::zeroed(dev, want.len()).map_err(e)?;
    launch_twin(&f, &s, cfg, input, &out).map_err(e)?;
    s.synchronize().map_err(e)?;
    if out.to_vec().map_err(e)? != want {
        return Err(format!("{entry} twin: wrong result"));
    }
    Ok(Some((m, f, out)))
}

pub fn reduction_bench(dev: &Device, twins: &Twins) -> Result<Vec<Row>, String> {
    reduction::check(dev, (1 << 20) + 5, 256)?;
    let host = random_words(8);
    let want = reduction::reference(&host);
    let input = DeviceBuffer::upload(dev, &host).map_err(e)?;
    let grid = blocks(dev);
    let cfg =
        LaunchConfig::for_elements(grid as usize * reduction::BLOCK as usize, reduction::BLOCK);
    let s = Stream::new(dev).map_err(e)?;
    let bytes = 4.0 * WORDS as f64;
    let mut rows = Vec::new();
    for v in reduction::VARIANTS {
        let mut out = DeviceBuffer::<u32>::zeroed(dev, 1).map_err(e)?;
        reduction::launch(&s, v, grid, &input, &mut out).map_err(e)?;
        s.synchronize().map_err(e)?;
        if out.to_vec().map_err(e)? != [want] {
            return Err(format!("reduction {v:?}: wrong sum on 2^26 words"));
        }
        let names: &[(&str, Option<&str>)] = match v {
            // Two rows, one per twin (see the module doc).
            reduction::Variant::Shuffle => &[
                (
                    "reduction, warp shuffle (2^26 u32) vs plain twin",
                    Some("reduce_shfl"),
                ),
                (
                    "reduction, warp shuffle (2^26 u32) vs hand-unrolled twin",
                    Some("reduce_shfl_unrolled"),
                ),
            ],
            reduction::Variant::Shared => &[("reduction, shared-memory tree (2^26 u32)", None)],
            reduction::Variant::Redux => &[("reduction, reduce_add_sync (2^26 u32)", None)],
        };
        for &(name, entry) in names {
            let twin_fn = match entry {
                Some(entry) => {
                    checked_twin(dev, twins, ("reduction", entry), cfg, &input, &[want])?
                }
                None => None,
            };
            let (ours, twin) = time_pair(
                dev,
                &s,
                |s| reduction::launch(s, v, grid, &input, &mut out),
                twin_fn
                    .as_ref()
                    .map(|(_m, f, o)| |s: &Stream| launch_twin(f, s, cfg, &input, o)),
            )
            .map_err(e)?;
            rows.push(Row::new(name, Unit::GBps, bytes, Some(ours), twin));
        }
    }
    Ok(rows)
}

pub fn histogram_bench(dev: &Device, twins: &Twins) -> Result<Vec<Row>, String> {
    histogram::check(dev, (1 << 20) + 3, 256)?;
    let host = random_words(9);
    let want = histogram::reference(&host);
    let input = DeviceBuffer::upload(dev, &host).map_err(e)?;
    let grid = blocks(dev);
    let cfg =
        LaunchConfig::for_elements(grid as usize * histogram::BLOCK as usize, histogram::BLOCK);
    let s = Stream::new(dev).map_err(e)?;
    let mut hist = DeviceBuffer::<u32>::zeroed(dev, histogram::BINS).map_err(e)?;
    histogram::launch(&s, grid, &input, &mut hist).map_err(e)?;
    s.synchronize().map_err(e)?;
    if hist.to_vec().map_err(e)? != want {
        return Err("histogram256: wrong counts on 2^26 words".into());
    }
    let twin_fn = checked_twin(
        dev,
        twins,
        ("histogram", "histogram256"),
        cfg,
        &input,
        &want,
    )?;
    let (ours, twin) = time_pair(
        dev,
        &s,
        |s| histogram::launch(s, grid, &input, &mut hist),
        twin_fn
            .as_ref()
            .map(|(_m, f, o)| |s: &Stream| launch_twin(f, s, cfg, &input, o)),
    )
    .map_err(e)?;
    Ok(vec![Row::new(
        "histogram256, shared atomics (256 MiB)",
        Unit::GBps,
        4.0 * WORDS as f64,
        Some(ours),
        twin,
    )])
}

#[cfg(test)]
mod tests {
    /// Both reduction twins the rows name are `extern "C"` kernels of `reduction.cu`, and the
    /// expert one issues four loads per trip.
    #[test]
    fn reduction_twins_exist() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../benches/reference/reduction.cu"
        );
        let src = std::fs::read_to_string(path).unwrap();
        for entry in ["reduce_shfl", "reduce_shfl_unrolled"] {
            let decl = format!("__launch_bounds__(BLOCK) {entry}(");
            assert!(
                src.lines()
                    .any(|l| l.starts_with("extern \"C\" __global__") && l.contains(&decl)),
                "{entry}"
            );
        }
        let unrolled = &src[src.find("reduce_shfl_unrolled(").unwrap()..];
        assert!(unrolled.contains("in[i + 3 * stride]"));
    }
}
