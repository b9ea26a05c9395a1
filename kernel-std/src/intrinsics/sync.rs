//! Barrier variants (`__syncthreads_count/and/or`) and memory fences (B.5, B.6).

use super::IntrinsicDef;

/// This category's entries (appended to the table in `mod.rs`'s order).
pub(super) static ENTRIES: &[IntrinsicDef] = &[];
