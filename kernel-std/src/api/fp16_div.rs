//! Device API: half division (`__hdiv`, `__h2div`), correctly rounded.

use half::{bf16, f16};
use kernel_macros::device;

use super::device_only;
use super::{bfloat162, half2};

device_intrinsic!(
    /// `__hdiv`: `a / b` correctly rounded to f16 (computed as an f32 division, rounded once).
    pub fn hdiv(a: f16, b: f16) -> f16
);
device_intrinsic!(
    /// `__hdiv` on `bf16`: `a / b` correctly rounded to bf16 (sm_80+).
    pub fn hdiv_bf16(a: bf16, b: bf16) -> bf16
);
device_intrinsic!(
    #[doc(hidden)]
    /// The lanes of [`h2div`] as separate values (the table entry's flat signature).
    pub fn h2div_lanes(ax: f16, ay: f16, bx: f16, by: f16) -> (f16, f16)
);
/// `__h2div`: lane-wise `a / b`, each lane as [`hdiv`].
#[device]
pub fn h2div(a: half2, b: half2) -> half2 {
    let (x, y) = h2div_lanes(a.x, a.y, b.x, b.y);
    half2 { x, y }
}
device_intrinsic!(
    #[doc(hidden)]
    /// The lanes of [`h2div_bf16`] as separate values (the table entry's flat signature).
    pub fn h2div_bf16_lanes(ax: bf16, ay: bf16, bx: bf16, by: bf16) -> (bf16, bf16)
);
/// `__h2div` on `bfloat162`: lane-wise `a / b`, each lane as [`hdiv_bf16`] (sm_80+).
#[device]
pub fn h2div_bf16(a: bfloat162, b: bfloat162) -> bfloat162 {
    let (x, y) = h2div_bf16_lanes(a.x, a.y, b.x, b.y);
    bfloat162 { x, y }
}
