//! `cargo xtask bench corpus [CASES...] [--peers]`: every case of the porting corpus
//! (`ferrocuda_examples::corpus`) against nvcc's build of its CUDA C twin
//! (`benches/reference/corpus/*.cu`), then the geometric mean and the worst ratio.
//!
//! Per case: inputs set up at the timed size (random, never zeros, buffers above L2), ours run
//! once and checked against the CPU reference, the twin likewise, then both timed alternately
//! with CUDA events (`time_pair`: warm-up, median of many runs). `--peers` adds the same
//! workloads written for Numba-CUDA and Triton (`benches/peers/peers.py`), see `peers.rs`.

use std::cell::RefCell;

use ferrocuda::host_runtime::{Device, Stream};
use ferrocuda_examples::corpus::{
    self,
    harness::{Case, Side, Size, Work},
};

use super::peers;
use super::report::{self, Measured, Row, Unit};
use super::timing::time_pair;
use super::twins::Twins;
use crate::progress::Progress;

/// The corpus as a workload of the full suite: one row per case, then the summary rows.
pub fn workload(dev: &Device, twins: &Twins) -> Result<Vec<Row>, String> {
    let measured = measure_all(dev, twins, &[]);
    let mut rows: Vec<Row> = measured.into_iter().map(|m| m.row).collect();
    rows.extend(summary_rows(&rows));
    Ok(rows)
}

/// The dedicated mode: its own table, summary and `corpus.json` (peers merged when asked).
pub fn run(
    dev: &Device,
    twins: &Twins,
    header: &str,
    cases: &[String],
    with_peers: bool,
) -> Result<(), String> {
    let wanted: Vec<&str> = cases.iter().map(String::as_str).collect();
    let measured = measure_all(dev, twins, &wanted);
    let rows: Vec<&Row> = measured.iter().map(|m| &m.row).collect();
    let owned: Vec<Row> = measured.iter().map(|m| m.row.clone()).collect();
    report::print_table(header, &owned);
    let summary = Summary::of(&rows);
    summary.print();
    let peer_out = if with_peers {
        Some(peers::run(dev, twins, &measured)?)
    } else {
        None
    };
    let out_dir = std::env::var("OUT").unwrap_or_else(|_| ".".into());
    let path = format!("{out_dir}/corpus.json");
    write_json(&path, header, &measured, &summary, peer_out.as_ref())?;
    eprintln!("wrote {path}");
    Ok(())
}

fn measure_all(dev: &Device, twins: &Twins, wanted: &[&str]) -> Vec<Measured> {
    let selected: Vec<&Case> = corpus::cases()
        .filter(|c| wanted.is_empty() || wanted.iter().any(|w| c.name.starts_with(w)))
        .collect();
    let progress = Progress::items("corpus", selected.len() as u64);
    let mut out = Vec::new();
    for case in selected {
        progress.start(case.name);
        let row = measure(dev, twins, case).unwrap_or_else(|e| {
            progress.println(&format!("  {} failed: {e}", case.name));
            Row::failed(case.name, &e)
        });
        out.push(Measured {
            case: case.name,
            row,
        });
        progress.inc();
    }
    progress.finish(&format!("{} cases", out.len()));
    out
}

fn e(x: impl std::fmt::Display) -> String {
    x.to_string()
}

/// Checks both sides once, then times them alternately.
fn measure(dev: &Device, twins: &Twins, case: &Case) -> Result<Row, String> {
    let inst = RefCell::new((case.setup)(dev, Size::Bench)?);
    let s = Stream::new(dev).map_err(e)?;
    inst.borrow_mut().run_ours(&s).map_err(e)?;
    s.synchronize().map_err(e)?;
    inst.borrow()
        .check(Side::Ours)
        .map_err(|m| format!("ours: {m}"))?;
    let file = format!("corpus/{}", case.twin_file);
    let twin = twins
        .functions(dev, &file, case.twin_entries)
        .transpose()
        .map_err(e)?;
    if let Some((_m, f)) = &twin {
        inst.borrow_mut().run_twin(&s, f).map_err(e)?;
        s.synchronize().map_err(e)?;
        inst.borrow()
            .check(Side::Twin)
            .map_err(|m| format!("twin: {m}"))?;
    }
    let (ours, twin_t) = time_pair(
        dev,
        &s,
        |s| inst.borrow_mut().run_ours(s),
        twin.as_ref()
            .map(|(_m, f)| |s: &Stream| inst.borrow_mut().run_twin(s, f)),
    )
    .map_err(e)?;
    let inst = inst.borrow();
    let (unit, amount) = match inst.work() {
        Work::Bytes(b) => (Unit::GBps, b),
        Work::Flops(f) => (Unit::Tflops, f),
        Work::Time => (Unit::Millis, 0.0),
    };
    Ok(Row::new(&inst.label(), unit, amount, Some(ours), twin_t))
}

/// The geometric mean of the ratios (twin time over ours: above 1 means ours is faster) and the
/// worst one.
pub struct Summary {
    pub count: usize,
    pub geomean: Option<f64>,
    pub worst: Option<(String, f64)>,
    pub failed: usize,
}

impl Summary {
    pub fn of(rows: &[&Row]) -> Summary {
        let ratios: Vec<(String, f64)> = rows
            .iter()
            .filter_map(|r| Some((r.name.clone(), r.ratio()?)))
            .collect();
        let geomean = (!ratios.is_empty())
            .then(|| (ratios.iter().map(|(_, x)| x.ln()).sum::<f64>() / ratios.len() as f64).exp());
        let worst = ratios.iter().min_by(|a, b| a.1.total_cmp(&b.1)).cloned();
        Summary {
            count: ratios.len(),
            geomean,
            worst,
            failed: rows.iter().filter(|r| r.error.is_some()).count(),
        }
    }

    pub fn print(&self) {
        println!(
            "\ncorpus: {} kernels timed against nvcc, {} failed",
            self.count, self.failed
        );
        if let Some(g) = self.geomean {
            println!("corpus geometric mean (nvcc time / ours): {g:.3}");
        }
        if let Some((name, w)) = &self.worst {
            println!("corpus worst: {w:.3} ({name})");
        }
    }
}

/// The summary as rows of the full suite's table (ratio column).
fn summary_rows(rows: &[Row]) -> Vec<Row> {
    let refs: Vec<&Row> = rows.iter().collect();
    let s = Summary::of(&refs);
    let as_row = |name: String, ratio: f64| {
        // A row whose ratio reads as the figure: reference 1 ms, ours 1/ratio ms.
        let t = |ms: f64| super::timing::Timing {
            median_ms: ms,
            min_ms: ms,
            max_ms: ms,
        };
        Row::new(&name, Unit::Millis, 0.0, Some(t(1.0 / ratio)), Some(t(1.0)))
    };
    let mut out = Vec::new();
    if let Some(g) = s.geomean {
        out.push(as_row(
            format!("corpus geometric mean ({} kernels)", s.count),
            g,
        ));
    }
    if let Some((name, w)) = s.worst {
        out.push(as_row(format!("corpus worst: {name}"), w));
    }
    out
}

/// `corpus.json`: the device line, one entry per case, the summary and the peers' results.
fn corpus_json(
    header: &str,
    measured: &[Measured],
    summary: &Summary,
    peers: Option<&peers::PeerResults>,
) -> serde_json::Value {
    use serde_json::json;
    let timing = |t: &Option<super::timing::Timing>| {
        t.map(|t| json!({"median_ms": t.median_ms, "min_ms": t.min_ms, "max_ms": t.max_ms}))
    };
    let cases: Vec<serde_json::Value> = measured
        .iter()
        .map(|m| {
            let r = &m.row;
            json!({
                "case": m.case,
                "name": r.name,
                "unit": r.unit,
                "amount": r.amount,
                "ours": timing(&r.ours),
                "nvcc": timing(&r.reference),
                "ratio": r.ratio(),
                "error": r.error,
            })
        })
        .collect();
    let mut out = json!({
        "device": header,
        "cases": cases,
        "summary": {
            "count": summary.count,
            "failed": summary.failed,
            "geomean": summary.geomean,
            "worst": summary.worst.as_ref().map(|(n, w)| json!({"name": n, "ratio": w})),
        },
    });
    if let Some(p) = peers {
        out["peers"] = p.json();
    }
    out
}

fn write_json(
    path: &str,
    header: &str,
    measured: &[Measured],
    summary: &Summary,
    peers: Option<&peers::PeerResults>,
) -> Result<(), String> {
    let text = serde_json::to_string_pretty(&corpus_json(header, measured, summary, peers))
        .map_err(|e| format!("{path}: {e}"))?;
    std::fs::write(path, text + "\n").map_err(|e| format!("{path}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::super::timing::Timing;
    use super::*;

    #[test]
    fn corpus_json_has_every_case_and_the_summary() {
        let t = |ms: f64| Timing {
            median_ms: ms,
            min_ms: ms,
            max_ms: ms,
        };
        let measured = vec![
            Measured {
                case: "saxpy",
                row: Row::new("saxpy \"x\"", Unit::GBps, 12.0, Some(t(2.0)), Some(t(1.0))),
            },
            Measured {
                case: "scan",
                row: Row::failed("scan", "ours: element 3"),
            },
        ];
        let rows: Vec<&Row> = measured.iter().map(|m| &m.row).collect();
        let summary = Summary::of(&rows);
        let peers = peers::PeerResults {
            rows: vec![peers::PeerRow {
                case: "saxpy".into(),
                peer: "numba".into(),
                timing: t(3.0),
                note: "n\"ote".into(),
            }],
            launch: vec![("triton".into(), 20.5, String::new())],
            compile: vec![("numba".into(), "saxpy".into(), 150.0, String::new())],
            errors: vec![("triton".into(), "scan".into(), "no scan".into())],
            info: vec![("numba".into(), "0.60".into())],
        };
        let v = corpus_json("H100 \"x\"", &measured, &summary, Some(&peers));
        let text = serde_json::to_string(&v).unwrap();
        let back: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(back, v);
        assert_eq!(back["device"], "H100 \"x\"");
        assert_eq!(back["cases"][0]["name"], "saxpy \"x\"");
        assert_eq!(back["cases"][0]["unit"], "GB/s");
        assert_eq!(back["cases"][0]["ratio"], 0.5);
        assert_eq!(back["cases"][1]["error"], "ours: element 3");
        assert!(back["cases"][1]["ours"].is_null());
        assert_eq!(back["summary"]["count"], 1);
        assert_eq!(back["summary"]["failed"], 1);
        assert_eq!(back["summary"]["worst"]["ratio"], 0.5);
        assert_eq!(back["peers"]["rows"][0]["note"], "n\"ote");
        assert_eq!(back["peers"]["rows"][0]["median_ms"], 3.0);
        assert_eq!(back["peers"]["launch"][0]["us"], 20.5);
        assert_eq!(back["peers"]["compile"][0]["kernel"], "saxpy");
        assert_eq!(back["peers"]["errors"][0]["message"], "no scan");
        assert_eq!(back["peers"]["info"][0]["versions"], "0.60");
    }
}
