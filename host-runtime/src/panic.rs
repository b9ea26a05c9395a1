//! Kernel panics as the host reports them: [`KernelPanic`], built from a device's
//! [`PanicRecord`] (see `panic_slots` for how records reach the host) or from the simulator's
//! report, with Rust's wording for the message.

use std::fmt;

use kernel_ir::ir::{PanicKind, PanicSite};
use kernel_ir::panic_record::PanicRecord;

/// A panic inside a kernel, as reported at the next synchronization.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelPanic {
    /// `module::function` of the kernel (or the module's name for raw PTX modules).
    pub kernel: String,
    /// Source file of the panic site (`<unknown>` when the module has no site table).
    pub file: String,
    /// 1-based source line (0 when unknown).
    pub line: u32,
    /// 1-based source column (0 when unknown).
    pub col: u32,
    /// What went wrong, when the site is known.
    pub kind: Option<PanicKind>,
    /// Human-readable message (Rust's wording for bounds and division panics).
    pub message: String,
    /// For bounds panics the offending index; otherwise the record's first detail value.
    pub index: u64,
    /// For bounds panics the slice length; otherwise the record's second detail value.
    pub len: u64,
    /// `blockIdx` of the panicking thread.
    pub block: [u32; 3],
    /// `threadIdx` of the panicking thread.
    pub thread: [u32; 3],
    /// Index into the kernel's panic sites.
    pub site: u32,
}

impl fmt::Display for KernelPanic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "kernel `{}` panicked at {}:{}:{}: {} (block ({}, {}, {}), thread ({}, {}, {}))",
            self.kernel,
            self.file,
            self.line,
            self.col,
            self.message,
            self.block[0],
            self.block[1],
            self.block[2],
            self.thread[0],
            self.thread[1],
            self.thread[2]
        )
    }
}

impl std::error::Error for KernelPanic {}

impl KernelPanic {
    /// Rust's wording for a panic of `kind` with detail values `a` (index) and `b` (length).
    pub fn message_for(kind: &PanicKind, a: u64, b: u64) -> String {
        kind.message(a, b)
    }

    /// Builds the report for `rec` from the owning module's name and site table.
    pub fn from_record(kernel: &str, sites: Option<&[PanicSite]>, rec: &PanicRecord) -> Self {
        let site = sites.and_then(|s| s.get(rec.site as usize));
        let (file, line, col, kind) = match site {
            Some(s) => (s.file.clone(), s.line, s.col, Some(s.kind.clone())),
            None => ("<unknown>".to_string(), 0, 0, None),
        };
        let message = match &kind {
            Some(k) => KernelPanic::message_for(k, rec.a, rec.b),
            None => format!("panic at site {} (no site table for this module)", rec.site),
        };
        KernelPanic {
            kernel: kernel.to_string(),
            file,
            line,
            col,
            kind,
            message,
            index: rec.a,
            len: rec.b,
            block: rec.block,
            thread: rec.thread,
            site: rec.site,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use kernel_ir::panic_record::STATE_DONE;
    use std::sync::Arc;

    fn rec(site: u32, a: u64, b: u64) -> PanicRecord {
        PanicRecord {
            state: STATE_DONE,
            site,
            a,
            b,
            block: [1, 2, 3],
            thread: [4, 5, 6],
            module: 1,
            _pad: [0; 3],
        }
    }

    #[test]
    fn bounds_panic_reads_like_rust() {
        let sites: Arc<[PanicSite]> = vec![
            PanicSite {
                kind: PanicKind::DivByZero,
                file: "src/a.rs".into(),
                line: 3,
                col: 9,
            },
            PanicSite {
                kind: PanicKind::Bounds,
                file: "src/k.rs".into(),
                line: 12,
                col: 5,
            },
        ]
        .into();
        let p = KernelPanic::from_record("k::saxpy", Some(&sites), &rec(1, 1024, 1000));
        assert_eq!((p.file.as_str(), p.line, p.col), ("src/k.rs", 12, 5));
        assert_eq!((p.index, p.len), (1024, 1000));
        assert_eq!(p.kind, Some(PanicKind::Bounds));
        assert_eq!(
            p.to_string(),
            "kernel `k::saxpy` panicked at src/k.rs:12:5: index out of bounds: the len is 1000 \
             but the index is 1024 (block (1, 2, 3), thread (4, 5, 6))"
        );
        let d = KernelPanic::from_record("k::div", Some(&sites), &rec(0, 0, 0));
        assert_eq!(d.message, "attempt to divide by zero");
        assert_eq!(d.line, 3);
    }

    #[test]
    fn unknown_site_still_reports_thread() {
        let p = KernelPanic::from_record("raw_module", None, &rec(7, 1, 2));
        assert_eq!(p.file, "<unknown>");
        assert_eq!(p.site, 7);
        assert_eq!(p.thread, [4, 5, 6]);
        assert!(p.message.contains("site 7"));
        let explicit: Arc<[PanicSite]> = vec![PanicSite {
            kind: PanicKind::Explicit("x must be positive".into()),
            file: "f.rs".into(),
            line: 1,
            col: 1,
        }]
        .into();
        let e = KernelPanic::from_record("k", Some(&explicit), &rec(0, 0, 0));
        assert_eq!(e.message, "x must be positive");
    }
}
