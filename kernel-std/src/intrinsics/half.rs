//! f16/bf16 and half2/bfloat162 arithmetic and conversions.

use super::IntrinsicDef;

/// This category's entries (appended to the table in `mod.rs`'s order).
pub(super) static ENTRIES: &[IntrinsicDef] = &[];
