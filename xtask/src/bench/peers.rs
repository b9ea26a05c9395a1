//! `--peers`: the corpus's workloads as Numba-CUDA and Triton users write them
//! (`benches/peers/peers.py`, run with the machine's `python3`), merged with our rows: what a
//! user would pick instead of Ferrocuda, on the same GPU and sizes, timed the same way (CUDA
//! events, warm-up, median). Also each peer's host cost per launch and first-launch compile
//! time, beside ours.
//!
//! The script writes tab-separated lines:
//! `row CASE PEER MEDIAN_MS MIN_MS MAX_MS NOTE`, `launch PEER US NOTE`,
//! `compile PEER KERNEL MS NOTE`, `error PEER CASE MESSAGE`, `info PEER VERSIONS`.

use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

use ferrocuda::host_runtime::{Device, DeviceBuffer, Module, Stream};
use ferrocuda::kernel_compiler::{self, CompileOptions};
use ferrocuda_examples::corpus::elementwise::vector_add;
use ferrocuda_examples::corpus::harness::grid_1d;

use super::report::Measured;
use super::timing::Timing;
use super::twins::Twins;

pub struct PeerRow {
    pub case: String,
    pub peer: String,
    pub timing: Timing,
    pub note: String,
}

#[derive(Default)]
pub struct PeerResults {
    pub rows: Vec<PeerRow>,
    /// (peer, microseconds per launch, note); ours first.
    pub launch: Vec<(String, f64, String)>,
    /// (peer, kernel, milliseconds, note); ours first.
    pub compile: Vec<(String, String, f64, String)>,
    /// (peer, case, message).
    pub errors: Vec<(String, String, String)>,
    /// (peer, versions).
    pub info: Vec<(String, String)>,
}

fn script(twins: &Twins) -> PathBuf {
    // `benches/reference` in a checkout, `reference/` in a bundle: the peers sit beside it.
    twins
        .source_dir()
        .and_then(|d| d.parent())
        .map(|d| d.join("peers").join("peers.py"))
        .unwrap_or_else(|| PathBuf::from("benches/peers/peers.py"))
}

pub fn run(dev: &Device, twins: &Twins, measured: &[Measured]) -> Result<PeerResults, String> {
    let mut res = PeerResults::default();
    ours_costs(dev, &mut res)?;
    let script = script(twins);
    let out = std::env::temp_dir().join(format!("ferrocuda-peers-{}.tsv", std::process::id()));
    let sms = dev.properties().multiprocessor_count;
    let cases: Vec<&str> = measured.iter().map(|m| m.case).collect();
    eprintln!("peers: python3 {}", script.display());
    let status = Command::new("python3")
        .arg(&script)
        .arg("--out")
        .arg(&out)
        .arg("--sms")
        .arg(sms.to_string())
        .arg("--cases")
        .arg(cases.join(","))
        .env("PYTHONUNBUFFERED", "1")
        .status()
        .map_err(|e| format!("python3 {}: {e}", script.display()))?;
    let text = std::fs::read_to_string(&out).unwrap_or_default();
    let _ = std::fs::remove_file(&out);
    if !status.success() && text.is_empty() {
        return Err(format!("{} failed ({status})", script.display()));
    }
    parse(&text, &mut res);
    print(&res, measured);
    Ok(res)
}

fn parse(text: &str, res: &mut PeerResults) {
    let ms = |s: &str| s.parse::<f64>().unwrap_or(f64::NAN);
    for line in text.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        match f.as_slice() {
            ["row", case, peer, med, min, max, note @ ..] => res.rows.push(PeerRow {
                case: case.to_string(),
                peer: peer.to_string(),
                timing: Timing {
                    median_ms: ms(med),
                    min_ms: ms(min),
                    max_ms: ms(max),
                },
                note: note.join(" "),
            }),
            ["launch", peer, us, note @ ..] => {
                res.launch.push((peer.to_string(), ms(us), note.join(" ")))
            }
            ["compile", peer, kernel, t, note @ ..] => {
                res.compile
                    .push((peer.to_string(), kernel.to_string(), ms(t), note.join(" ")))
            }
            ["info", peer, text @ ..] => res.info.push((peer.to_string(), text.join(" "))),
            ["error", peer, case, msg @ ..] => {
                res.errors
                    .push((peer.to_string(), case.to_string(), msg.join(" ")))
            }
            _ => {}
        }
    }
}

/// Our side of the peers' extra rows: the typed launcher's host cost per launch (batches of
/// launches of the corpus's vector add on 256 elements, median per launch) and the first launch
/// of a new kernel (our compile, then the driver's JIT and load of the PTX).
fn ours_costs(dev: &Device, res: &mut PeerResults) -> Result<(), String> {
    const BATCH: usize = 2000;
    const ROUNDS: usize = 30;
    let e = |x: ferrocuda::host_runtime::Error| x.to_string();
    let s = Stream::new(dev).map_err(e)?;
    let a = DeviceBuffer::upload(dev, &[1.0f32; 256]).map_err(e)?;
    let b = DeviceBuffer::upload(dev, &[2.0f32; 256]).map_err(e)?;
    let mut c = DeviceBuffer::<f32>::zeroed(dev, 256).map_err(e)?;
    let cfg = grid_1d(256, 256);
    vector_add::launch(&s, cfg, &a, &b, &mut c, 256).map_err(e)?;
    s.synchronize().map_err(e)?;
    let mut per = Vec::new();
    for _ in 0..ROUNDS {
        let t = Instant::now();
        for _ in 0..BATCH {
            vector_add::launch(&s, cfg, &a, &b, &mut c, 256).map_err(e)?;
        }
        per.push(t.elapsed().as_secs_f64() * 1e6 / BATCH as f64);
        s.synchronize().map_err(e)?;
    }
    let t = Timing::from_samples(per);
    res.launch.push((
        "ferrocuda".into(),
        t.median_ms,
        "typed launcher, 5 arguments".into(),
    ));
    let opts = CompileOptions {
        sm: dev.sm(),
        source_markers: false,
        ..CompileOptions::default()
    };
    for name in ["saxpy", "matmul_tiled", "softmax_rows", "layernorm"] {
        let k = ferrocuda_examples::registry::find(&format!("corpus_{name}"))
            .ok_or_else(|| format!("corpus_{name} not registered"))?;
        let t0 = Instant::now();
        let c = kernel_compiler::compile((k.def)(), &(k.generics)(), &opts)
            .map_err(|x| x.to_string())?;
        let compiled = t0.elapsed().as_secs_f64() * 1e3;
        drop(Module::from_ptx(dev, &c.ptx).map_err(e)?);
        let total = t0.elapsed().as_secs_f64() * 1e3;
        res.compile.push((
            "ferrocuda".into(),
            name.into(),
            total,
            format!("our compile {compiled:.1} ms + driver JIT and load"),
        ));
    }
    Ok(())
}

fn print(res: &PeerResults, measured: &[Measured]) {
    for (peer, text) in &res.info {
        println!("{peer}: {text}");
    }
    println!("\nPeers: the same workloads in Numba-CUDA and Triton (value in the row's unit; ratio = peer time / ours, above 1: ours faster)");
    println!(
        "| {:<20} | {:<28} | {:>14} | {:>14} | {:>14} | {:>7} | note",
        "case", "peer", "peer", "Ferrocuda", "nvcc twin", "ratio"
    );
    println!(
        "|{:-<22}|{:-<30}|{:-<16}|{:-<16}|{:-<16}|{:-<9}|------",
        "", "", "", "", "", ""
    );
    for p in &res.rows {
        let ours = measured.iter().find(|m| m.case == p.case).map(|m| &m.row);
        let (peer_v, ours_v, nvcc_v, ratio) = match ours {
            Some(r) => {
                let v = |t: &Option<Timing>| {
                    t.as_ref()
                        .map(|t| format!("{:.1}", r.value(t)))
                        .unwrap_or_else(|| "-".into())
                };
                let ratio = r
                    .ours
                    .map(|o| format!("{:.3}", p.timing.median_ms / o.median_ms))
                    .unwrap_or_else(|| "-".into());
                (v(&Some(p.timing)), v(&r.ours), v(&r.reference), ratio)
            }
            None => (
                format!("{:.3} ms", p.timing.median_ms),
                "-".into(),
                "-".into(),
                "-".into(),
            ),
        };
        println!(
            "| {:<20} | {:<28} | {:>14} | {:>14} | {:>14} | {:>7} | {}",
            p.case, p.peer, peer_v, ours_v, nvcc_v, ratio, p.note
        );
    }
    println!("\nHost cost per launch (us, median of batches):");
    for (peer, us, note) in &res.launch {
        println!("  {peer:<12} {us:>8.2} us  {note}");
    }
    println!("\nFirst launch of a new kernel (compile + load, ms):");
    for (peer, kernel, ms, note) in &res.compile {
        println!("  {peer:<12} {kernel:<16} {ms:>9.1} ms  {note}");
    }
    for (peer, case, msg) in &res.errors {
        println!("  {peer} {case}: FAILED: {msg}");
    }
}

impl PeerResults {
    /// The peers' part of `corpus.json`.
    pub fn json(&self) -> serde_json::Value {
        use serde_json::json;
        let rows: Vec<_> = self
            .rows
            .iter()
            .map(|r| {
                json!({
                    "case": r.case,
                    "peer": r.peer,
                    "median_ms": r.timing.median_ms,
                    "min_ms": r.timing.min_ms,
                    "max_ms": r.timing.max_ms,
                    "note": r.note,
                })
            })
            .collect();
        let launch: Vec<_> = self
            .launch
            .iter()
            .map(|(p, us, n)| json!({"peer": p, "us": us, "note": n}))
            .collect();
        let compile: Vec<_> = self
            .compile
            .iter()
            .map(|(p, k, ms, n)| json!({"peer": p, "kernel": k, "ms": ms, "note": n}))
            .collect();
        let errors: Vec<_> = self
            .errors
            .iter()
            .map(|(p, c, m)| json!({"peer": p, "case": c, "message": m}))
            .collect();
        let info: Vec<_> = self
            .info
            .iter()
            .map(|(p, t)| json!({"peer": p, "versions": t}))
            .collect();
        json!({"info": info, "rows": rows, "launch": launch, "compile": compile, "errors": errors})
    }
}
