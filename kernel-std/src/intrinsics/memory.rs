//! Cache-hinted loads and stores, address-space predicates and conversions (B.10, B.11, B.15, B.16).

use super::IntrinsicDef;

/// This category's entries (appended to the table in `mod.rs`'s order).
pub(super) static ENTRIES: &[IntrinsicDef] = &[];
