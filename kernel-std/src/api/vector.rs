//! Device API: CUDA's built-in vector types (`float4`, `int2`, `double2`...; Programming Guide
//! B.3.1) with their alignments, so `&[float4]` has the layout of a `float4*` and a struct holding
//! one has the same C layout as on the CUDA side.
//!
//! Construct them in device code with `make_float4(x, y, z, w)` (CUDA's name) or a struct literal;
//! on the host with `float4::new(x, y, z, w)`. `ldg(&p[i])`, `stcs(&mut p[i], v)` and the other
//! hinted accesses move a whole vector in one 8- or 16-byte access (`ld.global.nc.v4.f32`); plain
//! `p[i]` is still loaded field by field (four `ld.global.f32`), since the IR has no global vector
//! load for the front end to emit yet.

#![allow(non_camel_case_types)]

use kernel_macros::{device, DeviceCopy};

/// CUDA's `char2`: 2 × `i8`, 2-byte aligned.
#[repr(C, align(2))]
#[derive(Clone, Copy, Debug, Default, PartialEq, DeviceCopy)]
pub struct char2 {
    pub x: i8,
    pub y: i8,
}

impl char2 {
    pub const fn new(x: i8, y: i8) -> Self {
        char2 { x, y }
    }
}

/// `make_char2`: the device-side constructor.
#[device]
pub fn make_char2(x: i8, y: i8) -> char2 {
    char2 { x, y }
}

/// CUDA's `uchar2`: 2 × `u8`, 2-byte aligned.
#[repr(C, align(2))]
#[derive(Clone, Copy, Debug, Default, PartialEq, DeviceCopy)]
pub struct uchar2 {
    pub x: u8,
    pub y: u8,
}

impl uchar2 {
    pub const fn new(x: u8, y: u8) -> Self {
        uchar2 { x, y }
    }
}

/// `make_uchar2`: the device-side constructor.
#[device]
pub fn make_uchar2(x: u8, y: u8) -> uchar2 {
    uchar2 { x, y }
}

/// CUDA's `char4`: 4 × `i8`, 4-byte aligned.
#[repr(C, align(4))]
#[derive(Clone, Copy, Debug, Default, PartialEq, DeviceCopy)]
pub struct char4 {
    pub x: i8,
    pub y: i8,
    pub z: i8,
    pub w: i8,
}

impl char4 {
    pub const fn new(x: i8, y: i8, z: i8, w: i8) -> Self {
        char4 { x, y, z, w }
    }
}

/// `make_char4`: the device-side constructor.
#[device]
pub fn make_char4(x: i8, y: i8, z: i8, w: i8) -> char4 {
    char4 { x, y, z, w }
}

/// CUDA's `uchar4`: 4 × `u8`, 4-byte aligned.
#[repr(C, align(4))]
#[derive(Clone, Copy, Debug, Default, PartialEq, DeviceCopy)]
pub struct uchar4 {
    pub x: u8,
    pub y: u8,
    pub z: u8,
    pub w: u8,
}

impl uchar4 {
    pub const fn new(x: u8, y: u8, z: u8, w: u8) -> Self {
        uchar4 { x, y, z, w }
    }
}

/// `make_uchar4`: the device-side constructor.
#[device]
pub fn make_uchar4(x: u8, y: u8, z: u8, w: u8) -> uchar4 {
    uchar4 { x, y, z, w }
}

/// CUDA's `short2`: 2 × `i16`, 4-byte aligned.
#[repr(C, align(4))]
#[derive(Clone, Copy, Debug, Default, PartialEq, DeviceCopy)]
pub struct short2 {
    pub x: i16,
    pub y: i16,
}

impl short2 {
    pub const fn new(x: i16, y: i16) -> Self {
        short2 { x, y }
    }
}

/// `make_short2`: the device-side constructor.
#[device]
pub fn make_short2(x: i16, y: i16) -> short2 {
    short2 { x, y }
}

/// CUDA's `ushort2`: 2 × `u16`, 4-byte aligned.
#[repr(C, align(4))]
#[derive(Clone, Copy, Debug, Default, PartialEq, DeviceCopy)]
pub struct ushort2 {
    pub x: u16,
    pub y: u16,
}

impl ushort2 {
    pub const fn new(x: u16, y: u16) -> Self {
        ushort2 { x, y }
    }
}

/// `make_ushort2`: the device-side constructor.
#[device]
pub fn make_ushort2(x: u16, y: u16) -> ushort2 {
    ushort2 { x, y }
}

/// CUDA's `short4`: 4 × `i16`, 8-byte aligned.
#[repr(C, align(8))]
#[derive(Clone, Copy, Debug, Default, PartialEq, DeviceCopy)]
pub struct short4 {
    pub x: i16,
    pub y: i16,
    pub z: i16,
    pub w: i16,
}

impl short4 {
    pub const fn new(x: i16, y: i16, z: i16, w: i16) -> Self {
        short4 { x, y, z, w }
    }
}

/// `make_short4`: the device-side constructor.
#[device]
pub fn make_short4(x: i16, y: i16, z: i16, w: i16) -> short4 {
    short4 { x, y, z, w }
}

/// CUDA's `ushort4`: 4 × `u16`, 8-byte aligned.
#[repr(C, align(8))]
#[derive(Clone, Copy, Debug, Default, PartialEq, DeviceCopy)]
pub struct ushort4 {
    pub x: u16,
    pub y: u16,
    pub z: u16,
    pub w: u16,
}

impl ushort4 {
    pub const fn new(x: u16, y: u16, z: u16, w: u16) -> Self {
        ushort4 { x, y, z, w }
    }
}

/// `make_ushort4`: the device-side constructor.
#[device]
pub fn make_ushort4(x: u16, y: u16, z: u16, w: u16) -> ushort4 {
    ushort4 { x, y, z, w }
}

/// CUDA's `int2`: 2 × `i32`, 8-byte aligned.
#[repr(C, align(8))]
#[derive(Clone, Copy, Debug, Default, PartialEq, DeviceCopy)]
pub struct int2 {
    pub x: i32,
    pub y: i32,
}

impl int2 {
    pub const fn new(x: i32, y: i32) -> Self {
        int2 { x, y }
    }
}

/// `make_int2`: the device-side constructor.
#[device]
pub fn make_int2(x: i32, y: i32) -> int2 {
    int2 { x, y }
}

/// CUDA's `int3`: 3 × `i32`, 4-byte aligned.
#[repr(C, align(4))]
#[derive(Clone, Copy, Debug, Default, PartialEq, DeviceCopy)]
pub struct int3 {
    pub x: i32,
    pub y: i32,
    pub z: i32,
}

impl int3 {
    pub const fn new(x: i32, y: i32, z: i32) -> Self {
        int3 { x, y, z }
    }
}

/// `make_int3`: the device-side constructor.
#[device]
pub fn make_int3(x: i32, y: i32, z: i32) -> int3 {
    int3 { x, y, z }
}

/// CUDA's `int4`: 4 × `i32`, 16-byte aligned.
#[repr(C, align(16))]
#[derive(Clone, Copy, Debug, Default, PartialEq, DeviceCopy)]
pub struct int4 {
    pub x: i32,
    pub y: i32,
    pub z: i32,
    pub w: i32,
}

impl int4 {
    pub const fn new(x: i32, y: i32, z: i32, w: i32) -> Self {
        int4 { x, y, z, w }
    }
}

/// `make_int4`: the device-side constructor.
#[device]
pub fn make_int4(x: i32, y: i32, z: i32, w: i32) -> int4 {
    int4 { x, y, z, w }
}

/// CUDA's `uint2`: 2 × `u32`, 8-byte aligned.
#[repr(C, align(8))]
#[derive(Clone, Copy, Debug, Default, PartialEq, DeviceCopy)]
pub struct uint2 {
    pub x: u32,
    pub y: u32,
}

impl uint2 {
    pub const fn new(x: u32, y: u32) -> Self {
        uint2 { x, y }
    }
}

/// `make_uint2`: the device-side constructor.
#[device]
pub fn make_uint2(x: u32, y: u32) -> uint2 {
    uint2 { x, y }
}

/// CUDA's `uint3`: 3 × `u32`, 4-byte aligned.
#[repr(C, align(4))]
#[derive(Clone, Copy, Debug, Default, PartialEq, DeviceCopy)]
pub struct uint3 {
    pub x: u32,
    pub y: u32,
    pub z: u32,
}

impl uint3 {
    pub const fn new(x: u32, y: u32, z: u32) -> Self {
        uint3 { x, y, z }
    }
}

/// `make_uint3`: the device-side constructor.
#[device]
pub fn make_uint3(x: u32, y: u32, z: u32) -> uint3 {
    uint3 { x, y, z }
}

/// CUDA's `uint4`: 4 × `u32`, 16-byte aligned.
#[repr(C, align(16))]
#[derive(Clone, Copy, Debug, Default, PartialEq, DeviceCopy)]
pub struct uint4 {
    pub x: u32,
    pub y: u32,
    pub z: u32,
    pub w: u32,
}

impl uint4 {
    pub const fn new(x: u32, y: u32, z: u32, w: u32) -> Self {
        uint4 { x, y, z, w }
    }
}

/// `make_uint4`: the device-side constructor.
#[device]
pub fn make_uint4(x: u32, y: u32, z: u32, w: u32) -> uint4 {
    uint4 { x, y, z, w }
}

/// CUDA's `longlong2`: 2 × `i64`, 16-byte aligned.
#[repr(C, align(16))]
#[derive(Clone, Copy, Debug, Default, PartialEq, DeviceCopy)]
pub struct longlong2 {
    pub x: i64,
    pub y: i64,
}

impl longlong2 {
    pub const fn new(x: i64, y: i64) -> Self {
        longlong2 { x, y }
    }
}

/// `make_longlong2`: the device-side constructor.
#[device]
pub fn make_longlong2(x: i64, y: i64) -> longlong2 {
    longlong2 { x, y }
}

/// CUDA's `ulonglong2`: 2 × `u64`, 16-byte aligned.
#[repr(C, align(16))]
#[derive(Clone, Copy, Debug, Default, PartialEq, DeviceCopy)]
pub struct ulonglong2 {
    pub x: u64,
    pub y: u64,
}

impl ulonglong2 {
    pub const fn new(x: u64, y: u64) -> Self {
        ulonglong2 { x, y }
    }
}

/// `make_ulonglong2`: the device-side constructor.
#[device]
pub fn make_ulonglong2(x: u64, y: u64) -> ulonglong2 {
    ulonglong2 { x, y }
}

/// CUDA's `float2`: 2 × `f32`, 8-byte aligned.
#[repr(C, align(8))]
#[derive(Clone, Copy, Debug, Default, PartialEq, DeviceCopy)]
pub struct float2 {
    pub x: f32,
    pub y: f32,
}

impl float2 {
    pub const fn new(x: f32, y: f32) -> Self {
        float2 { x, y }
    }
}

/// `make_float2`: the device-side constructor.
#[device]
pub fn make_float2(x: f32, y: f32) -> float2 {
    float2 { x, y }
}

/// CUDA's `float3`: 3 × `f32`, 4-byte aligned.
#[repr(C, align(4))]
#[derive(Clone, Copy, Debug, Default, PartialEq, DeviceCopy)]
pub struct float3 {
    pub x: f32,
    pub y: f32,
    pub z: f32,
}

impl float3 {
    pub const fn new(x: f32, y: f32, z: f32) -> Self {
        float3 { x, y, z }
    }
}

/// `make_float3`: the device-side constructor.
#[device]
pub fn make_float3(x: f32, y: f32, z: f32) -> float3 {
    float3 { x, y, z }
}

/// CUDA's `float4`: 4 × `f32`, 16-byte aligned.
#[repr(C, align(16))]
#[derive(Clone, Copy, Debug, Default, PartialEq, DeviceCopy)]
pub struct float4 {
    pub x: f32,
    pub y: f32,
    pub z: f32,
    pub w: f32,
}

impl float4 {
    pub const fn new(x: f32, y: f32, z: f32, w: f32) -> Self {
        float4 { x, y, z, w }
    }
}

/// `make_float4`: the device-side constructor.
#[device]
pub fn make_float4(x: f32, y: f32, z: f32, w: f32) -> float4 {
    float4 { x, y, z, w }
}

/// CUDA's `double2`: 2 × `f64`, 16-byte aligned.
#[repr(C, align(16))]
#[derive(Clone, Copy, Debug, Default, PartialEq, DeviceCopy)]
pub struct double2 {
    pub x: f64,
    pub y: f64,
}

impl double2 {
    pub const fn new(x: f64, y: f64) -> Self {
        double2 { x, y }
    }
}

/// `make_double2`: the device-side constructor.
#[device]
pub fn make_double2(x: f64, y: f64) -> double2 {
    double2 { x, y }
}
