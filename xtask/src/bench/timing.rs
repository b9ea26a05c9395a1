//! Event timing: warm up, then time each run with CUDA events, report median and spread.

use ferrocuda::host_runtime::{Device, Event, EventFlags, Result, Stream};

pub const WARMUP: usize = 5;
/// Warm-up also lasts at least this long, so the GPU has left its idle clocks before timing.
pub const WARMUP_MS: f32 = 200.0;
pub const RUNS: usize = 30;

/// Median and spread (min, max) in milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
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
    f: impl FnMut(&Stream) -> Result<()>,
) -> Result<Timing> {
    let none: Option<fn(&Stream) -> Result<()>> = None;
    Ok(time_pair(dev, stream, f, none)?.0)
}

/// Times `ours` and, when given, `twin` alternately (ours-twin, then twin-ours, ...) after warming
/// both up, so clock or thermal drift during the run falls on both sides alike: the ratios of a
/// few percent the suite reports would otherwise move with the order of the workloads.
pub fn time_pair(
    dev: &Device,
    stream: &Stream,
    mut ours: impl FnMut(&Stream) -> Result<()>,
    mut twin: Option<impl FnMut(&Stream) -> Result<()>>,
) -> Result<(Timing, Option<Timing>)> {
    let start = Event::new(dev, EventFlags::default())?;
    let stop = Event::new(dev, EventFlags::default())?;
    // Behind an untimed run (see `time_events`): no host enqueue time in the sample.
    let once = |f: &mut dyn FnMut(&Stream) -> Result<()>| -> Result<f64> {
        f(stream)?;
        start.record(stream)?;
        f(stream)?;
        stop.record(stream)?;
        stop.synchronize()?;
        Ok(start.elapsed_ms(&stop)? as f64)
    };
    let (mut warm_ms, mut runs) = (0.0, 0);
    while runs < WARMUP || warm_ms < f64::from(WARMUP_MS) {
        warm_ms += once(&mut ours)?;
        if let Some(t) = twin.as_mut() {
            warm_ms += once(t)?;
        }
        runs += 1;
    }
    let (mut a, mut b) = (Vec::with_capacity(RUNS), Vec::with_capacity(RUNS));
    for i in 0..RUNS {
        match twin.as_mut() {
            Some(t) if i % 2 == 1 => {
                b.push(once(t)?);
                a.push(once(&mut ours)?);
            }
            Some(t) => {
                a.push(once(&mut ours)?);
                b.push(once(t)?);
            }
            None => a.push(once(&mut ours)?),
        }
    }
    let twin = (!b.is_empty()).then(|| Timing::from_samples(b));
    Ok((Timing::from_samples(a), twin))
}
