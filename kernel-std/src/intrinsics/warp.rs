//! Warp vote, match, reduce and shuffle collectives, `__syncwarp` (guide B.19-B.22).

use super::IntrinsicDef;

/// This category's entries (appended to the table in `mod.rs`'s order).
pub(super) static ENTRIES: &[IntrinsicDef] = &[];
