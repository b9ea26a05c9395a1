//! Event timing: warm up, then time each run with CUDA events, report median and spread.

use ferrocuda::runtime::{Device, Event, EventFlags, Result, Stream};

pub const WARMUP: usize = 5;
/// Warm-up also lasts at least this long, so the GPU has left its idle clocks before timing.
pub const WARMUP_MS: f32 = 200.0;
pub const RUNS: usize = 30;

/// Median and spread (min, max) in milliseconds.
#[derive(Clone, Copy, Debug, Default)]
pub struct Timing {
    pub median_ms: f64,
    pub min_ms: f64,
    pub max_ms: f64,
}

impl Timing {
    pub fn from_samples(mut v: Vec<f64>) -> Timing {
        v.sort_by(|a, b| a.total_cmp(b));
        Timing {
            median_ms: v[v.len() / 2],
            min_ms: v[0],
            max_ms: v[v.len() - 1],
        }
    }
}

/// Times `f` (which enqueues one run on `stream`) with events around each run.
///
/// Each timed run is enqueued behind an untimed one, so the GPU is busy while the host enqueues
/// it and the start event completes when the untimed run ends: the time is the kernel's alone.
/// Timing from an idle stream would add the host's enqueue time (a few microseconds, and not the
/// same for our typed launcher and a raw `cuLaunchKernel` of a CUDA C twin) to every sample.
pub fn time_events(
    dev: &Device,
    stream: &Stream,
    mut f: impl FnMut(&Stream) -> Result<()>,
) -> Result<Timing> {
    let start = Event::new(dev, EventFlags::default())?;
    let stop = Event::new(dev, EventFlags::default())?;
    let mut warm_ms = 0.0;
    let mut runs = 0;
    while runs < WARMUP || warm_ms < WARMUP_MS {
        start.record(stream)?;
        f(stream)?;
        stop.record(stream)?;
        stop.synchronize()?;
        warm_ms += start.elapsed_ms(&stop)?;
        runs += 1;
    }
    let mut samples = Vec::with_capacity(RUNS);
    for _ in 0..RUNS {
        f(stream)?;
        start.record(stream)?;
        f(stream)?;
        stop.record(stream)?;
        stop.synchronize()?;
        samples.push(start.elapsed_ms(&stop)? as f64);
    }
    Ok(Timing::from_samples(samples))
}
