//! Atomic read-modify-write operations and reductions on global and shared memory (B.14).

use super::IntrinsicDef;

/// This category's entries (appended to the table in `mod.rs`'s order).
pub(super) static ENTRIES: &[IntrinsicDef] = &[];
