//! Running NVIDIA's `ptxas` on emitted PTX: the tests use it to prove the PTX assembles for each
//! target and to read register / spill / stack usage, and tools use it to report resource use.
//!
//! `ptxas` is found through `$PTXAS`, then the `nvidia-cuda-nvcc` Python wheel (`nvidia/cu13/bin`
//! or `nvidia/cuda_nvcc/bin` in site-packages), then `PATH`, then `/usr/local/cuda/bin`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

/// Resource usage of one entry, as `ptxas -v` reports it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EntryReport {
    pub name: String,
    pub registers: u32,
    pub spill_stores: u32,
    pub spill_loads: u32,
    pub stack_frame: u32,
    /// Static shared memory (`smem`), bytes.
    pub shared_bytes: u32,
    pub barriers: u32,
}

#[derive(Clone, Debug, Default)]
pub struct PtxasReport {
    pub entries: Vec<EntryReport>,
    /// Everything ptxas printed (info lines and warnings).
    pub log: String,
    /// The assembled cubin.
    pub cubin: Vec<u8>,
}

impl PtxasReport {
    pub fn entry(&self, name: &str) -> Option<&EntryReport> {
        self.entries.iter().find(|e| e.name == name)
    }
}

impl std::fmt::Display for EntryReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: {} registers, {} B stack, {} B spill stores, {} B spill loads, {} B smem, {} barriers",
            self.name,
            self.registers,
            self.stack_frame,
            self.spill_stores,
            self.spill_loads,
            self.shared_bytes,
            self.barriers
        )
    }
}

impl std::fmt::Display for PtxasReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, e) in self.entries.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

fn is_file(p: &Path) -> bool {
    p.is_file()
}

fn from_python() -> Option<PathBuf> {
    let script = r#"
import os, site, sys
roots = []
try:
    import nvidia
    roots += list(nvidia.__path__)
except Exception:
    pass
for d in site.getsitepackages() + [site.getusersitepackages()]:
    roots.append(os.path.join(d, "nvidia"))
for r in roots:
    for sub in ("cu13/bin/ptxas", "cuda_nvcc/bin/ptxas", "cu12/bin/ptxas"):
        p = os.path.join(r, sub)
        if os.path.isfile(p):
            print(p)
            sys.exit(0)
"#;
    let out = Command::new("python3")
        .arg("-c")
        .arg(script)
        .output()
        .ok()?;
    let s = String::from_utf8(out.stdout).ok()?;
    let p = PathBuf::from(s.lines().next()?.trim());
    is_file(&p).then_some(p)
}

fn from_path() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join("ptxas"))
        .chain(std::iter::once(PathBuf::from("/usr/local/cuda/bin/ptxas")))
        .find(|p| is_file(p))
}

/// The `ptxas` to use, if any (looked up once per process).
pub fn find() -> Option<PathBuf> {
    static CACHE: OnceLock<Option<PathBuf>> = OnceLock::new();
    CACHE
        .get_or_init(|| {
            if let Some(p) = std::env::var_os("PTXAS").map(PathBuf::from) {
                if is_file(&p) {
                    return Some(p);
                }
            }
            from_python().or_else(from_path)
        })
        .clone()
}

/// For tests: the `ptxas` path, or `None` (the caller skips with a note) when there is none. Under
/// `CI=true` a missing `ptxas` is a failure, so CI cannot silently skip the PTX checks. Tests call
/// this, never `find` (a test in this module checks the workspace for that).
pub fn require_ptxas() -> Option<PathBuf> {
    required(find(), std::env::var("CI").is_ok_and(|v| v == "true"))
}

/// `found`, or the note / failure that `require_ptxas` gives when it is `None`.
fn required(found: Option<PathBuf>, ci: bool) -> Option<PathBuf> {
    if found.is_none() {
        if ci {
            panic!(
                "ptxas not found but CI=true: install the nvidia-cuda-nvcc wheel or set PTXAS to \
                 the ptxas binary"
            );
        }
        eprintln!("note: ptxas not found (set PTXAS); skipping PTX assembly checks");
    }
    found
}

fn temp_path(ext: &str) -> PathBuf {
    static N: AtomicU64 = AtomicU64::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    std::env::temp_dir().join(format!(
        "ferrocuda-{}-{n}-{nanos}.{ext}",
        std::process::id()
    ))
}

/// Assembles `ptx` for `sm_<sm>` with `ptxas -v` and returns its per-entry resource report.
/// `Err` carries ptxas's diagnostics (or why it could not run).
pub fn assemble(ptx: &str, sm: u32) -> Result<PtxasReport, String> {
    let exe = find().ok_or("ptxas not found (set PTXAS)")?;
    let src = temp_path("ptx");
    let bin = temp_path("cubin");
    std::fs::write(&src, ptx).map_err(|e| format!("writing {}: {e}", src.display()))?;
    let out = Command::new(&exe)
        .arg(format!("-arch=sm_{sm}"))
        .arg("-v")
        .arg(&src)
        .arg("-o")
        .arg(&bin)
        .output();
    let _ = std::fs::remove_file(&src);
    let out = out.map_err(|e| format!("running {}: {e}", exe.display()))?;
    let mut log = String::from_utf8_lossy(&out.stdout).into_owned();
    log.push_str(&String::from_utf8_lossy(&out.stderr));
    let cubin = std::fs::read(&bin).unwrap_or_default();
    let _ = std::fs::remove_file(&bin);
    if !out.status.success() {
        return Err(log);
    }
    Ok(PtxasReport {
        entries: parse_report(&log),
        log,
        cubin,
    })
}

/// The number right before `unit` in `line` (`"12 registers"` -> 12).
fn number_before(line: &str, unit: &str) -> Option<u32> {
    let at = line.find(unit)?;
    line[..at].split_whitespace().last()?.parse().ok()
}

/// Parses `ptxas -v` output into one report per entry.
pub fn parse_report(log: &str) -> Vec<EntryReport> {
    let mut entries: Vec<EntryReport> = Vec::new();
    for line in log.lines() {
        if let Some(rest) = line.split("Compiling entry function '").nth(1) {
            let name = rest.split('\'').next().unwrap_or_default().to_string();
            entries.push(EntryReport {
                name,
                ..Default::default()
            });
            continue;
        }
        let Some(cur) = entries.last_mut() else {
            continue;
        };
        if line.contains("bytes stack frame") {
            cur.stack_frame = number_before(line, "bytes stack frame").unwrap_or(0);
            cur.spill_stores = number_before(line, "bytes spill stores").unwrap_or(0);
            cur.spill_loads = number_before(line, "bytes spill loads").unwrap_or(0);
        } else if line.contains("Used ") && line.contains("registers") {
            cur.registers = number_before(line, "registers").unwrap_or(0);
            cur.barriers = number_before(line, "barriers").unwrap_or(0);
            cur.shared_bytes = number_before(line, "bytes smem").unwrap_or(0);
        }
    }
    entries
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_ptxas_verbose_output() {
        let log = "ptxas info    : 8 bytes gmem\n\
            ptxas info    : Compiling entry function 'k' for 'sm_80'\n\
            ptxas info    : Function properties for k\n\
            \x20   16 bytes stack frame, 8 bytes spill stores, 4 bytes spill loads\n\
            ptxas info    : Used 12 registers, used 1 barriers, 1024 bytes smem, 377 bytes cmem[0]\n";
        let r = parse_report(log);
        assert_eq!(
            r[0].to_string(),
            "k: 12 registers, 16 B stack, 8 B spill stores, 4 B spill loads, 1024 B smem, 1 barriers"
        );
        assert_eq!(
            r,
            vec![EntryReport {
                name: "k".into(),
                registers: 12,
                spill_stores: 8,
                spill_loads: 4,
                stack_frame: 16,
                shared_bytes: 1024,
                barriers: 1,
            }]
        );
    }

    #[test]
    fn a_missing_ptxas_fails_only_under_ci() {
        assert_eq!(required(None, false), None);
        let p = PathBuf::from("/x/ptxas");
        assert_eq!(required(Some(p.clone()), true), Some(p));
        let r = std::panic::catch_unwind(|| required(None, true));
        assert!(r.is_err(), "CI=true without ptxas must fail");
    }

    /// Every test finds ptxas through `require_ptxas` (which fails under `CI=true`); a direct
    /// `find()` would skip the check silently in CI.
    #[test]
    fn tests_use_require_ptxas() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let mut bad = Vec::new();
        let mut dirs = vec![root.to_path_buf()];
        while let Some(d) = dirs.pop() {
            for e in std::fs::read_dir(&d).unwrap().flatten() {
                let p = e.path();
                let name = e.file_name();
                if p.is_dir() {
                    if name != "target" && !name.to_string_lossy().starts_with('.') {
                        dirs.push(p);
                    }
                } else if p.extension().is_some_and(|x| x == "rs")
                    && p.components().any(|c| c.as_os_str() == "tests")
                {
                    let text = std::fs::read_to_string(&p).unwrap();
                    if text.contains(concat!("ptxas::", "find()")) {
                        bad.push(p.display().to_string());
                    }
                }
            }
        }
        assert!(
            bad.is_empty(),
            "call ptxas::require_ptxas instead of find in: {bad:?}"
        );
    }
}
