//! Integer intrinsics: popc, clz, brev, byte_perm, funnel shifts, mul_hi, dp4a, SIMD video (B.7, B.37).

use super::IntrinsicDef;

/// This category's entries (appended to the table in `mod.rs`'s order).
pub(super) static ENTRIES: &[IntrinsicDef] = &[];
