//! The benchmark's outputs: a table on stdout, JSON and an SVG bar chart.

use super::timing::Timing;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// `amount` bytes moved per run.
    GBps,
    /// `amount` floating-point operations per run.
    Tflops,
    /// Plain time in microseconds (lower is better).
    Micros,
    /// Plain time in milliseconds (lower is better).
    Millis,
}

#[derive(Clone)]
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

fn esc(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

pub fn write_json(path: &str, header: &str, rows: &[Row]) -> Result<(), String> {
    let mut s = format!("{{\n  \"device\": \"{}\",\n  \"rows\": [\n", esc(header));
    for (i, r) in rows.iter().enumerate() {
        let t = |t: &Option<Timing>| match t {
            Some(t) => format!(
                "{{\"median_ms\": {}, \"min_ms\": {}, \"max_ms\": {}, \"value\": {}}}",
                t.median_ms,
                t.min_ms,
                t.max_ms,
                r.value(t)
            ),
            None => "null".into(),
        };
        s += &format!(
            "    {{\"name\": \"{}\", \"unit\": \"{}\", \"ours\": {}, \"reference\": {}, \"ratio\": {}, \"error\": {}}}{}\n",
            esc(&r.name),
            r.unit_name(),
            t(&r.ours),
            t(&r.reference),
            r.ratio().map(|x| x.to_string()).unwrap_or_else(|| "null".into()),
            r.error.as_ref().map(|e| format!("\"{}\"", esc(e))).unwrap_or_else(|| "null".into()),
            if i + 1 < rows.len() { "," } else { "" }
        );
    }
    s += "  ]\n}\n";
    std::fs::write(path, s).map_err(|e| format!("{path}: {e}"))
}

/// Horizontal bars, one pair per throughput row, scaled per row to the larger of the two.
pub fn write_svg(path: &str, header: &str, rows: &[Row]) -> Result<(), String> {
    let rows: Vec<&Row> = rows
        .iter()
        .filter(|r| r.ours.is_some() && matches!(r.unit, Unit::GBps | Unit::Tflops))
        .collect();
    let (w, bar_h, left) = (900.0, 16.0, 330.0);
    let h = 60.0 + rows.len() as f64 * 50.0;
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n<text x=\"10\" y=\"20\" font-size=\"14\">Ferrocuda (blue) vs nvcc twin / reference (grey): {}</text>\n",
        xml(header)
    );
    for (i, r) in rows.iter().enumerate() {
        let y = 45.0 + i as f64 * 50.0;
        let o = r.ours.as_ref().map(|t| r.value(t)).unwrap_or(0.0);
        let f = r.reference.as_ref().map(|t| r.value(t)).unwrap_or(0.0);
        let max = o.max(f).max(1e-9);
        let scale = (w - left - 120.0) / max;
        s += &format!(
            "<text x=\"10\" y=\"{}\">{}</text>\n",
            y + 20.0,
            xml(&r.name)
        );
        s += &format!(
            "<rect x=\"{left}\" y=\"{y}\" width=\"{}\" height=\"{bar_h}\" fill=\"#3572b0\"/>\n",
            o * scale
        );
        s += &format!(
            "<text x=\"{}\" y=\"{}\">{o:.1} {}</text>\n",
            left + o * scale + 5.0,
            y + 12.0,
            r.unit_name()
        );
        if f > 0.0 {
            s += &format!(
                "<rect x=\"{left}\" y=\"{}\" width=\"{}\" height=\"{bar_h}\" fill=\"#999\"/>\n",
                y + bar_h + 2.0,
                f * scale
            );
            s += &format!(
                "<text x=\"{}\" y=\"{}\">{f:.1} {}</text>\n",
                left + f * scale + 5.0,
                y + bar_h + 14.0,
                r.unit_name()
            );
        }
    }
    s += "</svg>\n";
    std::fs::write(path, s).map_err(|e| format!("{path}: {e}"))
}

fn xml(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
