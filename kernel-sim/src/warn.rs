//! What a launch finds suspect but legal: kept on the launch's [`crate::SimStats`] and printed once
//! per process (per kernel, kind and source location) on stderr, so a pattern that runs in a loop
//! does not flood the output. [`capture_warnings`] collects them for the current thread instead,
//! as `capture_output` does for device printf.

use std::cell::RefCell;
use std::collections::HashSet;
use std::fmt;
use std::sync::Mutex;

/// Why a warning was given.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SimWarningKind {
    /// A plain read of a shared word that another thread accesses atomically between the same
    /// barriers, where the reading thread then accesses the word atomically itself: the first
    /// guess of a compare-and-swap loop (`old = *p; do { ... } while (atomicCAS(p, ...) != ...)`),
    /// which the CAS validates. A plain read not followed by the thread's own atomic is a
    /// `SharedRace` error.
    ReadRacesWithAtomic,
}

/// One warning: the first occurrence of its kind at its program point in the launch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimWarning {
    pub kind: SimWarningKind,
    /// `Kernel::display_name`.
    pub kernel: String,
    /// The source marker in force at the access (empty for IR without markers).
    pub file: String,
    pub line: u32,
    pub col: u32,
    pub block: [u32; 3],
    pub thread: [u32; 3],
    pub message: String,
    /// How many times the launch hit it (every thread, every iteration).
    pub count: u64,
}

impl fmt::Display for SimWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "warning: kernel `{}` at ", self.kernel)?;
        if self.file.is_empty() {
            write!(f, "<unknown location>")?;
        } else {
            write!(f, "{}:{}:{}", self.file, self.line, self.col)?;
        }
        let [bx, by, bz] = self.block;
        let [tx, ty, tz] = self.thread;
        write!(
            f,
            " (block ({bx},{by},{bz}), thread ({tx},{ty},{tz})): {}",
            self.message
        )?;
        if self.count > 1 {
            write!(f, " ({} times in this launch)", self.count)?;
        }
        Ok(())
    }
}

thread_local! {
    static SINK: RefCell<Option<Vec<SimWarning>>> = const { RefCell::new(None) };
}

/// Runs `f` with the warnings printed by this thread's launches collected instead; returns `f`'s
/// result and the warnings that would have been printed (each still only once per process).
pub fn capture_warnings<R>(f: impl FnOnce() -> R) -> (R, Vec<SimWarning>) {
    let outer = SINK.with(|s| s.borrow_mut().replace(Vec::new()));
    let r = f();
    let got = SINK.with(|s| std::mem::replace(&mut *s.borrow_mut(), outer));
    (r, got.unwrap_or_default())
}

/// What makes a warning the same as one printed before: kernel, kind, file, line, column.
type Key = (String, SimWarningKind, String, u32, u32);

/// Prints the warnings not printed before in this process.
pub(crate) fn report(warnings: &[SimWarning]) {
    static SEEN: Mutex<Option<HashSet<Key>>> = Mutex::new(None);
    for w in warnings {
        let key = (
            w.kernel.clone(),
            w.kind.clone(),
            w.file.clone(),
            w.line,
            w.col,
        );
        let fresh = SEEN
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get_or_insert_with(HashSet::new)
            .insert(key);
        if !fresh {
            continue;
        }
        let captured = SINK.with(|s| match s.borrow_mut().as_mut() {
            Some(v) => {
                v.push(w.clone());
                true
            }
            None => false,
        });
        if !captured {
            eprintln!("ferrocuda simulator {w}");
        }
    }
}
