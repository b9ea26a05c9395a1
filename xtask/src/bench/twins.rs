//! Builds the CUDA C twins with nvcc on the spot (when nvcc is on PATH) and loads them.

use std::path::{Path, PathBuf};
use std::process::Command;

use ferrocuda::host_runtime::{Device, Function, Module, Result};

pub struct Twins {
    dir: Option<PathBuf>,
    /// Where the `.cu` sources are, and the architecture they are built for.
    src: Option<PathBuf>,
    sm: u32,
    pub nvcc_version: String,
    /// Why twins are missing, if they are.
    pub note: Option<String>,
}

/// Where the `.cu` files are: `benches/reference` in a checkout, `reference/` in a gpu-bundle.
fn source_dir() -> Option<PathBuf> {
    let exe_dir = std::env::current_exe()
        .ok()?
        .parent()?
        .parent()?
        .to_path_buf();
    [
        PathBuf::from("benches/reference"),
        exe_dir.join("reference"),
    ]
    .into_iter()
    .find(|p| p.join("saxpy.cu").exists())
}

impl Twins {
    pub fn build(sm: u32) -> Twins {
        let Some(src) = source_dir() else {
            return Twins::none(
                "CUDA C sources not found (benches/reference or bundle reference/)",
            );
        };
        let version = match Command::new("nvcc").arg("--version").output() {
            Ok(o) if o.status.success() => String::from_utf8_lossy(&o.stdout)
                .lines()
                .find(|l| l.contains("release"))
                .unwrap_or("nvcc")
                .trim()
                .to_string(),
            _ => return Twins::none("nvcc not on PATH: only the Rust side runs"),
        };
        let out = std::env::temp_dir().join(format!("ferrocuda-twins-{}", std::process::id()));
        if let Err(e) = std::fs::create_dir_all(&out) {
            return Twins::none(&format!("cannot create {}: {e}", out.display()));
        }
        // `reference/*.cu` and the porting corpus's `reference/corpus/*.cu`, all at once.
        let mut jobs = Vec::new();
        for (sub, dest) in [
            (src.clone(), out.clone()),
            (src.join("corpus"), out.join("corpus")),
        ] {
            if std::fs::create_dir_all(&dest).is_err() {
                continue;
            }
            for entry in std::fs::read_dir(&sub).into_iter().flatten().flatten() {
                let p = entry.path();
                if p.is_file() && p.extension().is_some_and(|e| e == "cu") {
                    let stem = p.file_stem().unwrap().to_string_lossy().to_string();
                    let cubin = dest.join(format!("{stem}.cubin"));
                    let child = Command::new("nvcc")
                        .args(["-cubin", "-O3", &format!("-arch=sm_{sm}"), "-o"])
                        .arg(&cubin)
                        .arg(&p)
                        .spawn();
                    jobs.push((p, child));
                }
            }
        }
        for (p, child) in jobs {
            if !child.and_then(|mut c| c.wait()).is_ok_and(|s| s.success()) {
                return Twins::none(&format!("nvcc failed on {}", p.display()));
            }
        }
        Twins {
            dir: Some(out),
            src: Some(src),
            sm,
            nvcc_version: version,
            note: None,
        }
    }

    fn none(note: &str) -> Twins {
        Twins {
            dir: None,
            src: None,
            sm: 0,
            nvcc_version: "no nvcc".into(),
            note: Some(note.to_string()),
        }
    }

    /// Builds the host program `host/<name>.cu` (a CUDA C measurement with its own `main`, such
    /// as the runtime API's launch cost) and runs it; its standard output, or None when twins
    /// were not built.
    pub fn run_host_program(&self, name: &str) -> Option<std::result::Result<String, String>> {
        let (dir, src) = (self.dir.as_deref()?, self.src.as_deref()?);
        let source = src.join("host").join(format!("{name}.cu"));
        let exe = dir.join(name);
        let built = Command::new("nvcc")
            .args(["-O3", &format!("-arch=sm_{}", self.sm), "-o"])
            .arg(&exe)
            .arg(&source)
            .output();
        match built {
            Ok(o) if o.status.success() => {}
            Ok(o) => {
                return Some(Err(format!(
                    "nvcc {}: {}",
                    source.display(),
                    String::from_utf8_lossy(&o.stderr).trim()
                )))
            }
            Err(e) => return Some(Err(format!("nvcc {}: {e}", source.display()))),
        }
        Some(match Command::new(&exe).output() {
            Ok(o) if o.status.success() => Ok(String::from_utf8_lossy(&o.stdout).into_owned()),
            Ok(o) => Err(format!(
                "{name}: {}",
                String::from_utf8_lossy(&o.stderr).trim()
            )),
            Err(e) => Err(format!("{name}: {e}")),
        })
    }

    /// Loads `entries` from `<file>.cubin` (`file` may name a subfolder: `corpus/scan`); None
    /// when twins were not built.
    pub fn functions(
        &self,
        dev: &Device,
        file: &str,
        entries: &[&str],
    ) -> Option<Result<(Module, Vec<Function>)>> {
        let dir: &Path = self.dir.as_deref()?;
        let image = std::fs::read(dir.join(format!("{file}.cubin"))).ok()?;
        Some(Module::from_cubin(dev, &image).and_then(|m| {
            let f = entries
                .iter()
                .map(|e| m.function(e))
                .collect::<Result<Vec<_>>>()?;
            Ok((m, f))
        }))
    }

    /// The folder of the CUDA C sources, when found.
    pub fn source_dir(&self) -> Option<&Path> {
        self.src.as_deref()
    }

    /// Loads `entry` from `<file>.cubin`; None when twins were not built.
    pub fn function(
        &self,
        dev: &Device,
        file: &str,
        entry: &str,
    ) -> Option<Result<(Module, Function)>> {
        let dir: &Path = self.dir.as_deref()?;
        let image = match std::fs::read(dir.join(format!("{file}.cubin"))) {
            Ok(i) => i,
            Err(_) => return None,
        };
        Some(Module::from_cubin(dev, &image).and_then(|m| {
            let f = m.function(entry)?;
            Ok((m, f))
        }))
    }
}
