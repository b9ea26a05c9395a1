//! Progress of the long commands (`gpu-bundle`, `bench`): a live bar when stderr is a terminal,
//! plain timestamped lines when it is not (the bench runs on a remote machine whose output is
//! captured into a log, where redrawn bars would be noise).
//!
//! A task has items (`start` one, `inc` when it is done) or none (a spinner), and a `detail`
//! that says what it is doing now. In plain mode every `start` is one line; details are printed
//! at most every [`DETAIL_EVERY`], so a build that reports each crate stays a short log. Tasks
//! may nest (the bench's corpus workload has its cases): on a terminal every live bar belongs to
//! one process-wide `MultiProgress`, which stacks them instead of letting them draw over each
//! other.

use std::io::{IsTerminal, Write};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};

/// The shortest time between two plain-mode detail lines.
pub const DETAIL_EVERY: Duration = Duration::from_secs(10);

/// Where plain-mode lines go: stderr, or a buffer in tests.
type Sink = Arc<Mutex<dyn Write + Send>>;

pub struct Progress {
    label: String,
    started: Instant,
    out: Output,
}

enum Output {
    Bar(ProgressBar),
    Plain(Mutex<Plain>),
}

struct Plain {
    sink: Sink,
    total: Option<u64>,
    done: u64,
    last_detail: Option<Instant>,
}

impl Progress {
    /// A task of `total` items.
    pub fn items(label: &str, total: u64) -> Progress {
        Self::new(label, Some(total), stderr_sink())
    }

    /// A task without a count: a spinner on a terminal.
    pub fn spinner(label: &str) -> Progress {
        Self::new(label, None, stderr_sink())
    }

    fn new(label: &str, total: Option<u64>, plain_sink: Sink) -> Progress {
        if std::io::stderr().is_terminal() {
            Self::bar(label, total)
        } else {
            Self::plain(label, total, plain_sink)
        }
    }

    fn bar(label: &str, total: Option<u64>) -> Progress {
        let bar = match total {
            Some(n) => {
                let b = ProgressBar::with_draw_target(Some(n), ProgressDrawTarget::hidden());
                b.set_style(
                    ProgressStyle::with_template(
                        "{prefix} [{elapsed_precise}] {bar:30} {pos}/{len} {wide_msg}",
                    )
                    .expect("valid template"),
                );
                b
            }
            None => {
                let b = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
                b.set_style(
                    ProgressStyle::with_template(
                        "{spinner} {prefix} [{elapsed_precise}] {wide_msg}",
                    )
                    .expect("valid template"),
                );
                b
            }
        };
        let bar = bars().add(bar);
        bar.set_prefix(label.to_string());
        // Redraws the elapsed time while one item takes minutes (a release build of the
        // compiler, a benchmark row); a wake-up per second is nothing next to either.
        bar.enable_steady_tick(Duration::from_secs(1));
        Progress {
            label: label.into(),
            started: Instant::now(),
            out: Output::Bar(bar),
        }
    }

    fn plain(label: &str, total: Option<u64>, sink: Sink) -> Progress {
        Progress {
            label: label.into(),
            started: Instant::now(),
            out: Output::Plain(Mutex::new(Plain {
                sink,
                total,
                done: 0,
                last_detail: None,
            })),
        }
    }

    fn stamp(&self) -> String {
        format!(
            "[{:>6.1}s] {}",
            self.started.elapsed().as_secs_f32(),
            self.label
        )
    }

    /// The next item begins (one line in plain mode: `[  12.0s] bench 3/14: sgemm`).
    pub fn start(&self, item: &str) {
        match &self.out {
            Output::Bar(b) => b.set_message(item.to_string()),
            Output::Plain(p) => {
                let p = p.lock().unwrap();
                let count = match p.total {
                    Some(n) => format!(" {}/{n}", p.done + 1),
                    None => String::new(),
                };
                let line = format!("{}{count}: {item}", self.stamp());
                write_line(&p.sink, &line);
            }
        }
    }

    /// The current item is done.
    pub fn inc(&self) {
        match &self.out {
            Output::Bar(b) => b.inc(1),
            Output::Plain(p) => p.lock().unwrap().done += 1,
        }
    }

    /// What the task is doing now; plain mode prints it when [`DETAIL_EVERY`] has passed since
    /// the last detail line.
    pub fn detail(&self, what: &str) {
        match &self.out {
            Output::Bar(b) => b.set_message(what.to_string()),
            Output::Plain(p) => {
                let mut p = p.lock().unwrap();
                let now = Instant::now();
                if p.last_detail
                    .is_some_and(|t| now.duration_since(t) < DETAIL_EVERY)
                {
                    return;
                }
                p.last_detail = Some(now);
                let line = format!("{}: {what}", self.stamp());
                write_line(&p.sink, &line);
            }
        }
    }

    /// A line of output that must not be lost (a failure, a compiler diagnostic): above the bar.
    pub fn println(&self, line: &str) {
        match &self.out {
            Output::Bar(b) => b.println(line),
            Output::Plain(p) => write_line(&p.lock().unwrap().sink, line),
        }
    }

    /// Ends the task with a closing line.
    pub fn finish(&self, line: &str) {
        let line = format!("{}: {line}", self.stamp());
        match &self.out {
            Output::Bar(b) => {
                b.println(&line);
                b.finish_and_clear();
                bars().remove(b);
            }
            Output::Plain(p) => write_line(&p.lock().unwrap().sink, &line),
        }
    }
}

impl Drop for Progress {
    /// A task left by an early `?` must not leave a bar ticking over the error message.
    fn drop(&mut self) {
        if let Output::Bar(b) = &self.out {
            if !b.is_finished() {
                b.finish_and_clear();
                bars().remove(b);
            }
        }
    }
}

/// Every live bar of the process, drawn together on stderr.
fn bars() -> &'static MultiProgress {
    static BARS: std::sync::OnceLock<MultiProgress> = std::sync::OnceLock::new();
    BARS.get_or_init(|| MultiProgress::with_draw_target(ProgressDrawTarget::stderr()))
}

fn stderr_sink() -> Sink {
    Arc::new(Mutex::new(Eprint))
}

/// stderr through `eprint!`, which a test harness captures (a raw `io::stderr()` it does not).
struct Eprint;

impl Write for Eprint {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        eprint!("{}", String::from_utf8_lossy(buf));
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        std::io::stderr().flush()
    }
}

fn write_line(sink: &Sink, line: &str) {
    let mut w = sink.lock().unwrap();
    let _ = writeln!(w, "{line}");
    let _ = w.flush();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn captured(total: Option<u64>) -> (Progress, Arc<Mutex<Vec<u8>>>) {
        let buf = Arc::new(Mutex::new(Vec::new()));
        let sink: Sink = buf.clone();
        (Progress::plain("bench", total, sink), buf)
    }

    fn lines(buf: &Arc<Mutex<Vec<u8>>>) -> Vec<String> {
        let text = String::from_utf8(buf.lock().unwrap().clone()).unwrap();
        // Drop the timestamps, which vary.
        text.lines()
            .map(|l| match l.strip_prefix('[') {
                Some(rest) => rest.split_once("] ").map_or(l, |(_, r)| r).to_string(),
                None => l.to_string(),
            })
            .collect()
    }

    #[test]
    fn plain_mode_counts_items_and_passes_lines_through() {
        let (p, buf) = captured(Some(3));
        p.start("copy");
        p.inc();
        p.start("saxpy");
        p.println("  saxpy failed: twin mismatch");
        p.inc();
        p.start("sgemm");
        p.inc();
        p.finish("done");
        assert_eq!(
            lines(&buf),
            [
                "bench 1/3: copy",
                "bench 2/3: saxpy",
                "  saxpy failed: twin mismatch",
                "bench 3/3: sgemm",
                "bench: done",
            ]
        );
    }

    #[test]
    fn plain_mode_rate_limits_details() {
        let (p, buf) = captured(None);
        p.start("building");
        for i in 0..50 {
            p.detail(&format!("compiled {i} crates"));
        }
        // The first detail is printed, the next 49 within the same interval are not.
        assert_eq!(lines(&buf), ["bench: building", "bench: compiled 0 crates"]);
        // Once the interval has passed, the next detail is printed again.
        if let Output::Plain(m) = &p.out {
            m.lock().unwrap().last_detail = Some(Instant::now() - DETAIL_EVERY);
        }
        p.detail("compiled 50 crates");
        assert_eq!(lines(&buf).last().unwrap(), "bench: compiled 50 crates");
    }
}
