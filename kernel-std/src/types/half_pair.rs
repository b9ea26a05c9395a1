//! CUDA's paired half types (`half2`, `nv_bfloat162`) and their constructors; their lane-wise
//! operations (`hadd2`...) are in `intrinsics::half`.

#![allow(non_camel_case_types)]

use half::{bf16, f16};
use kernel_macros::{device, DeviceCopy};

/// CUDA's `half2` (`__half2`): two f16 lanes in one 32-bit word, `x` in the low half.
#[repr(C, align(4))]
#[derive(Clone, Copy, Debug, Default, PartialEq, DeviceCopy)]
pub struct half2 {
    pub x: f16,
    pub y: f16,
}

/// CUDA's `nv_bfloat162`: two bf16 lanes in one 32-bit word, `x` in the low half.
#[repr(C, align(4))]
#[derive(Clone, Copy, Debug, Default, PartialEq, DeviceCopy)]
pub struct bfloat162 {
    pub x: bf16,
    pub y: bf16,
}

impl half2 {
    /// Host-side constructor; in device code write `make_half2(x, y)` or `half2 { x, y }`.
    pub const fn new(x: f16, y: f16) -> Self {
        half2 { x, y }
    }
}
impl bfloat162 {
    /// Host-side constructor; in device code write `make_bfloat162(x, y)` or `bfloat162 { x, y }`.
    pub const fn new(x: bf16, y: bf16) -> Self {
        bfloat162 { x, y }
    }
}

/// `make_half2(x, y)` (`__halves2half2`).
#[device]
pub fn make_half2(x: f16, y: f16) -> half2 {
    half2 { x, y }
}
/// `make_bfloat162(x, y)` (`__halves2bfloat162`).
#[device]
pub fn make_bfloat162(x: bf16, y: bf16) -> bfloat162 {
    bfloat162 { x, y }
}
