//! Device API: warp votes, matches, reductions, shuffles and `__syncwarp`.
//!
//! `mask` names the lanes taking part, as in CUDA (`0xffff_ffff` for the full warp); every lane it
//! names must reach the same call. The value-generic functions compile to the entry for the value's
//! type.

use super::{device_only, DeviceType};

/// Values a shuffle moves: 32-bit in one `shfl.sync`, 64-bit in two, 16-bit in one.
pub trait ShuffleValue: DeviceType {}
/// Values `match_any_sync` / `match_all_sync` compare (32- and 64-bit, by their bits).
pub trait MatchValue: DeviceType {}
/// Values the `redux.sync` reductions take (sm_80+).
pub trait ReduceValue: DeviceType {}

macro_rules! mark {
    ($tr:ident: $($t:ty),*) => {$(impl $tr for $t {})*};
}
mark!(ShuffleValue: u32, i32, f32, u64, i64, f64, half::f16, half::bf16);
mark!(MatchValue: u32, i32, f32, u64, i64, f64);
mark!(ReduceValue: u32, i32);

device_intrinsic!(
    /// `__all_sync(mask, pred)`: whether `pred` is true on every lane of `mask`.
    pub fn all_sync(mask: u32, pred: bool) -> bool
);
device_intrinsic!(
    /// `__any_sync(mask, pred)`: whether `pred` is true on any lane of `mask`.
    pub fn any_sync(mask: u32, pred: bool) -> bool
);
device_intrinsic!(
    /// `__ballot_sync(mask, pred)`: bit `i` is set when lane `i` of `mask` has `pred` true.
    pub fn ballot_sync(mask: u32, pred: bool) -> u32
);
device_intrinsic!(
    /// `__activemask()`: the lanes executing this call together.
    pub fn activemask() -> u32
);
device_intrinsic!(
    /// `__syncwarp(mask)`: the lanes of `mask` meet here; orders their memory accesses.
    pub fn sync_warp(mask: u32)
);
device_intrinsic!(
    /// `__shfl_sync(mask, v, src_lane, width)`: `v` of lane `src_lane` of this lane's
    /// `width`-lane segment (`width`: a power of two up to 32).
    pub fn shfl_sync<T: ShuffleValue>(mask: u32, v: T, src_lane: u32, width: u32) -> T
);
device_intrinsic!(
    /// `__shfl_up_sync(mask, v, delta, width)`: `v` of the lane `delta` below; lanes with none
    /// keep their own.
    pub fn shfl_up_sync<T: ShuffleValue>(mask: u32, v: T, delta: u32, width: u32) -> T
);
device_intrinsic!(
    /// `__shfl_down_sync(mask, v, delta, width)`: `v` of the lane `delta` above; lanes with none
    /// keep their own.
    pub fn shfl_down_sync<T: ShuffleValue>(mask: u32, v: T, delta: u32, width: u32) -> T
);
device_intrinsic!(
    /// `__shfl_xor_sync(mask, v, lane_mask, width)`: `v` of lane `lane ^ lane_mask` (butterfly).
    pub fn shfl_xor_sync<T: ShuffleValue>(mask: u32, v: T, lane_mask: u32, width: u32) -> T
);
device_intrinsic!(
    /// `__match_any_sync(mask, v)` (sm_70): the lanes of `mask` whose `v` equals this lane's.
    pub fn match_any_sync<T: MatchValue>(mask: u32, v: T) -> u32
);
device_intrinsic!(
    /// `__match_all_sync(mask, v, &pred)` (sm_70): `(mask, true)` when every lane of `mask` has
    /// the same `v`, else `(0, false)`.
    pub fn match_all_sync<T: MatchValue>(mask: u32, v: T) -> (u32, bool)
);
device_intrinsic!(
    /// `__reduce_add_sync(mask, v)` (sm_80): the wrapping sum of `v` over the lanes of `mask`.
    pub fn reduce_add_sync<T: ReduceValue>(mask: u32, v: T) -> T
);
device_intrinsic!(
    /// `__reduce_min_sync(mask, v)` (sm_80).
    pub fn reduce_min_sync<T: ReduceValue>(mask: u32, v: T) -> T
);
device_intrinsic!(
    /// `__reduce_max_sync(mask, v)` (sm_80).
    pub fn reduce_max_sync<T: ReduceValue>(mask: u32, v: T) -> T
);
device_intrinsic!(
    /// `__reduce_and_sync(mask, v)` (sm_80).
    pub fn reduce_and_sync<T: ReduceValue>(mask: u32, v: T) -> T
);
device_intrinsic!(
    /// `__reduce_or_sync(mask, v)` (sm_80).
    pub fn reduce_or_sync<T: ReduceValue>(mask: u32, v: T) -> T
);
device_intrinsic!(
    /// `__reduce_xor_sync(mask, v)` (sm_80).
    pub fn reduce_xor_sync<T: ReduceValue>(mask: u32, v: T) -> T
);
