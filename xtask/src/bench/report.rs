//! The benchmark's outputs: a table on stdout and JSON (serde); the charts are `chart`'s.

use serde::{Deserialize, Serialize};

use super::timing::Timing;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Unit {
    /// `amount` bytes moved per run.
    #[serde(rename = "GB/s")]
    GBps,
    /// `amount` floating-point operations per run.
    #[serde(rename = "TFLOP/s")]
    Tflops,
    /// Plain time in microseconds (lower is better).
    #[serde(rename = "us")]
    Micros,
    /// Plain time in milliseconds (lower is better).
    #[serde(rename = "ms")]
    Millis,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub name: String,
    pub unit: Unit,
    pub amount: f64,
    pub ours: Option<Timing>,
    /// The CUDA C twin (or the baseline the row names).
    pub reference: Option<Timing>,
    pub error: Option<String>,
}

impl Row {
    pub fn new(
        name: &str,
        unit: Unit,
        amount: f64,
        ours: Option<Timing>,
        reference: Option<Timing>,
    ) -> Row {
        Row {
            name: name.into(),
            unit,
            amount,
            ours,
            reference,
            error: None,
        }
    }
    pub fn failed(name: &str, err: &str) -> Row {
        Row {
            name: name.into(),
            unit: Unit::Millis,
            amount: 0.0,
            ours: None,
            reference: None,
            error: Some(err.into()),
        }
    }
    /// The figure of merit for one timing: GB/s, TFLOP/s, or the time itself.
    pub fn value(&self, t: &Timing) -> f64 {
        match self.unit {
            Unit::GBps => self.amount / (t.median_ms * 1e-3) / 1e9,
            Unit::Tflops => self.amount / (t.median_ms * 1e-3) / 1e12,
            Unit::Micros => t.median_ms * 1e3,
            Unit::Millis => t.median_ms,
        }
    }
    /// Ours relative to the reference: > 1 means ours is better (faster or higher throughput).
    pub fn ratio(&self) -> Option<f64> {
        let (o, r) = (self.ours.as_ref()?, self.reference.as_ref()?);
        Some(r.median_ms / o.median_ms)
    }
    pub fn spread(t: &Timing) -> f64 {
        (t.max_ms - t.min_ms) / t.median_ms * 100.0
    }
    fn unit_name(&self) -> &'static str {
        match self.unit {
            Unit::GBps => "GB/s",
            Unit::Tflops => "TFLOP/s",
            Unit::Micros => "us",
            Unit::Millis => "ms",
        }
    }
}

/// The measured ceilings: the device-to-device copy for GB/s rows, cuBLAS for TFLOP/s rows.
fn peaks(rows: &[Row]) -> (Option<f64>, Option<f64>) {
    let find = |prefix: &str| {
        rows.iter()
            .find(|r| r.name.starts_with(prefix))
            .and_then(|r| r.ours.as_ref().map(|t| r.value(t)))
    };
    (find("copy"), find("cuBLAS"))
}

/// Ours as a percentage of the measured ceiling of its unit.
fn percent_of_peak(r: &Row, peaks: (Option<f64>, Option<f64>)) -> Option<f64> {
    let v = r.value(r.ours.as_ref()?);
    let peak = match r.unit {
        Unit::GBps => peaks.0?,
        Unit::Tflops => peaks.1?,
        _ => return None,
    };
    Some(v / peak * 100.0)
}

pub fn print_table(header: &str, rows: &[Row]) {
    let pk = peaks(rows);
    println!("\n{header}");
    println!(
        "| {:<46} | {:>18} | {:>18} | {:>7} | {:>8} | {:>8} |",
        "workload", "Ferrocuda", "reference", "ratio", "% peak", "spread"
    );
    println!(
        "|{:-<48}|{:-<20}|{:-<20}|{:-<9}|{:-<10}|{:-<10}|",
        "", "", "", "", "", ""
    );
    for r in rows {
        if let Some(err) = &r.error {
            println!("| {:<46} | FAILED: {err}", r.name);
            continue;
        }
        let fmt = |t: &Option<Timing>| match t {
            Some(t) => format!("{:.2} {}", r.value(t), r.unit_name()),
            None => "-".into(),
        };
        let ratio = r
            .ratio()
            .map(|x| format!("{x:.3}"))
            .unwrap_or_else(|| "-".into());
        let peak = percent_of_peak(r, pk)
            .map(|p| format!("{p:.1}%"))
            .unwrap_or_else(|| "-".into());
        let spread = r
            .ours
            .as_ref()
            .map(|t| format!("{:.1}%", Row::spread(t)))
            .unwrap_or_default();
        println!(
            "| {:<46} | {:>18} | {:>18} | {:>7} | {:>8} | {:>8} |",
            r.name,
            fmt(&r.ours),
            fmt(&r.reference),
            ratio,
            peak,
            spread
        );
    }
}

/// `bench.json`: the device line and one entry per row.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub device: String,
    pub rows: Vec<JsonRow>,
}

/// One row as written: timings with their figure of merit, and the ratio.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
pub struct JsonRow {
    pub name: String,
    pub unit: Unit,
    /// Bytes or flops per run (0 for plain times; reports from before it was written have
    /// none, and read back as 0).
    #[serde(default)]
    pub amount: f64,
    pub ours: Option<JsonTiming>,
    pub reference: Option<JsonTiming>,
    pub ratio: Option<f64>,
    pub error: Option<String>,
}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
pub struct JsonTiming {
    pub median_ms: f64,
    pub min_ms: f64,
    pub max_ms: f64,
    /// GB/s, TFLOP/s, or the time in the row's unit.
    pub value: f64,
}

impl Report {
    pub fn new(header: &str, rows: &[Row]) -> Report {
        let timing = |r: &Row, t: &Option<Timing>| {
            t.as_ref().map(|t| JsonTiming {
                median_ms: t.median_ms,
                min_ms: t.min_ms,
                max_ms: t.max_ms,
                value: r.value(t),
            })
        };
        Report {
            device: header.into(),
            rows: rows
                .iter()
                .map(|r| JsonRow {
                    name: r.name.clone(),
                    unit: r.unit,
                    amount: r.amount,
                    ours: timing(r, &r.ours),
                    reference: timing(r, &r.reference),
                    ratio: r.ratio(),
                    error: r.error.clone(),
                })
                .collect(),
        }
    }
}

#[cfg(test)]
impl Report {
    /// The rows back, as measured.
    pub fn rows(&self) -> Vec<Row> {
        let timing = |t: &Option<JsonTiming>| {
            t.as_ref().map(|t| Timing {
                median_ms: t.median_ms,
                min_ms: t.min_ms,
                max_ms: t.max_ms,
            })
        };
        self.rows
            .iter()
            .map(|r| Row {
                name: r.name.clone(),
                unit: r.unit,
                amount: r.amount,
                ours: timing(&r.ours),
                reference: timing(&r.reference),
                error: r.error.clone(),
            })
            .collect()
    }
}

pub fn write_json(path: &str, header: &str, rows: &[Row]) -> Result<(), String> {
    let text = serde_json::to_string_pretty(&Report::new(header, rows))
        .map_err(|e| format!("{path}: {e}"))?;
    std::fs::write(path, text + "\n").map_err(|e| format!("{path}: {e}"))
}

/// One measured case: its short name (what peers match on) and its row.
pub struct Measured {
    pub case: &'static str,
    pub row: Row,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn timing(median_ms: f64) -> Timing {
        Timing {
            median_ms,
            min_ms: median_ms * 0.99,
            max_ms: median_ms * 1.02,
        }
    }

    fn rows() -> Vec<Row> {
        vec![
            Row::new(
                "saxpy (2^28 f32)",
                Unit::GBps,
                12.0 * (1u64 << 28) as f64,
                Some(timing(1.1)),
                Some(timing(1.2)),
            ),
            Row::new(
                "sgemm \"quoted\" \\ name",
                Unit::Tflops,
                2.0 * 4096f64.powi(3),
                Some(timing(6.5)),
                None,
            ),
            Row::new("launch", Unit::Micros, 0.0, Some(timing(0.002)), None),
            Row::failed("transpose (8192^2 f32)", "twin: element 3 is 1, expected 2"),
        ]
    }

    /// Reports written before rows had an `amount` (docs/bench/bench.json) still read, so their
    /// charts can be redrawn from the values they hold.
    #[test]
    fn reports_without_amounts_read() {
        let text = r#"{"device": "H100", "rows": [{"name": "copy", "unit": "GB/s",
            "ours": {"median_ms": 0.7, "min_ms": 0.7, "max_ms": 0.8, "value": 3011.0},
            "reference": null, "ratio": null, "error": null}]}"#;
        let r: Report = serde_json::from_str(text).unwrap();
        assert_eq!(r.rows[0].amount, 0.0);
        assert_eq!(r.rows[0].ours.as_ref().unwrap().value, 3011.0);
    }

    #[test]
    fn json_round_trips_through_serde() {
        let rows = rows();
        let dir = std::env::temp_dir().join(format!("xtask-report-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("bench.json");
        write_json(path.to_str().unwrap(), "H100 (sm_90), \"nvcc\"", &rows).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        let back: Report = serde_json::from_str(&text).unwrap();
        assert_eq!(back, Report::new("H100 (sm_90), \"nvcc\"", &rows));
        assert_eq!(back.rows(), rows);
        // What readers of bench.json rely on: unit spelled as in the table, value and ratio there.
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["rows"][0]["unit"], "GB/s");
        assert_eq!(v["rows"][1]["unit"], "TFLOP/s");
        let value = v["rows"][0]["ours"]["value"].as_f64().unwrap();
        assert!((value - rows[0].value(rows[0].ours.as_ref().unwrap())).abs() < 1e-9);
        assert!((v["rows"][0]["ratio"].as_f64().unwrap() - 1.2 / 1.1).abs() < 1e-12);
        assert!(v["rows"][1]["reference"].is_null() && v["rows"][1]["ratio"].is_null());
        assert_eq!(v["rows"][3]["error"], "twin: element 3 is 1, expected 2");
    }
}
