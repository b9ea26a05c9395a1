//! Time, sleep, trap, breakpoint, profiler counters, printf support (B.12, B.23, B.28-B.32).

use super::IntrinsicDef;

/// This category's entries (appended to the table in `mod.rs`'s order).
pub(super) static ENTRIES: &[IntrinsicDef] = &[];
