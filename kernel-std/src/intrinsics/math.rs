//! Floating-point math with a single PTX instruction (`sqrt.rn`, `.approx` fast paths...) (B.7).

use super::IntrinsicDef;

/// This category's entries (appended to the table in `mod.rs`'s order).
pub(super) static ENTRIES: &[IntrinsicDef] = &[];
