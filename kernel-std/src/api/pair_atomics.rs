//! Device API: `atomicAdd` on the paired half types (B.14.1.1), on global or shared memory.

use half::{bf16, f16};
use kernel_macros::device;

use super::device_only;
use super::{bfloat162, half2};

device_intrinsic!(
    #[doc(hidden)]
    /// [`atomic_add_half2`] with the addend's lanes separate (the table entry's flat signature).
    pub fn atomic_add_half2_lanes(p: &mut half2, x: f16, y: f16) -> (f16, f16)
);
device_intrinsic!(
    #[doc(hidden)]
    /// [`atomic_add_bfloat162`] with the addend's lanes separate.
    pub fn atomic_add_bfloat162_lanes(p: &mut bfloat162, x: bf16, y: bf16) -> (bf16, bf16)
);

/// `atomicAdd(__half2*, __half2)`: adds `v` lane-wise to `*p` as one 32-bit atomic
/// (`atom.add.noftz.f16x2`; each lane is atomic, rounded to nearest, subnormals kept); returns
/// the old value.
#[device]
pub fn atomic_add_half2(p: &mut half2, v: half2) -> half2 {
    let (x, y) = atomic_add_half2_lanes(p, v.x, v.y);
    half2 { x, y }
}

/// `atomicAdd(__nv_bfloat162*, __nv_bfloat162)`: as [`atomic_add_half2`] with
/// `atom.add.noftz.bf16x2`, which needs sm_90 (compiling for an older target is an error).
#[device]
pub fn atomic_add_bfloat162(p: &mut bfloat162, v: bfloat162) -> bfloat162 {
    let (x, y) = atomic_add_bfloat162_lanes(p, v.x, v.y);
    bfloat162 { x, y }
}
