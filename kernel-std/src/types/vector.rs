//! Device API: CUDA's built-in vector types (`float4`, `int2`, `double2`...; Programming Guide
//! B.3.1) with their alignments, so `&[float4]` has the layout of a `float4*` and a struct holding
//! one has the same C layout as on the CUDA side.
//!
//! Construct them in device code with `make_float4(x, y, z, w)` (CUDA's name) or a struct literal;
//! on the host with `float4::new(x, y, z, w)`. `ldg(&p[i])`, `stcs(&mut p[i], v)` and the other
//! hinted accesses move a whole vector in one 8- or 16-byte access (`ld.global.nc.v4.f32`), and so
//! do plain `p[i]`, `p[i].x` then `p[i].y`, and `q[i] = make_float4(..)`: the compiler's
//! `vector_access` pass merges the field accesses, relying on these types' alignment.

#![allow(non_camel_case_types)]

use kernel_macros::{device, DeviceCopy};

/// One CUDA vector type: the `#[repr(C, align)]` struct, its host constructor `new` and its
/// device constructor `make_*`.
macro_rules! vector_type {
    ($name:ident, $make:ident, $t:ty, $align:literal, [$($f:ident),+]) => {
        #[doc = concat!("CUDA's `", stringify!($name), "`: `", stringify!($t), "` lanes, ", stringify!($align), "-byte aligned.")]
        #[repr(C, align($align))]
        #[derive(Clone, Copy, Debug, Default, PartialEq, DeviceCopy)]
        pub struct $name {
            $(pub $f: $t),+
        }

        impl $name {
            pub const fn new($($f: $t),+) -> Self {
                $name { $($f),+ }
            }
        }

        #[doc = concat!("`", stringify!($make), "`: the device-side constructor.")]
        #[device]
        pub fn $make($($f: $t),+) -> $name {
            $name { $($f),+ }
        }
    };
}

vector_type!(char2, make_char2, i8, 2, [x, y]);
vector_type!(uchar2, make_uchar2, u8, 2, [x, y]);
vector_type!(char4, make_char4, i8, 4, [x, y, z, w]);
vector_type!(uchar4, make_uchar4, u8, 4, [x, y, z, w]);
vector_type!(short2, make_short2, i16, 4, [x, y]);
vector_type!(ushort2, make_ushort2, u16, 4, [x, y]);
vector_type!(short4, make_short4, i16, 8, [x, y, z, w]);
vector_type!(ushort4, make_ushort4, u16, 8, [x, y, z, w]);
vector_type!(int2, make_int2, i32, 8, [x, y]);
vector_type!(int3, make_int3, i32, 4, [x, y, z]);
vector_type!(int4, make_int4, i32, 16, [x, y, z, w]);
vector_type!(uint2, make_uint2, u32, 8, [x, y]);
vector_type!(uint3, make_uint3, u32, 4, [x, y, z]);
vector_type!(uint4, make_uint4, u32, 16, [x, y, z, w]);
vector_type!(longlong2, make_longlong2, i64, 16, [x, y]);
vector_type!(ulonglong2, make_ulonglong2, u64, 16, [x, y]);
vector_type!(float2, make_float2, f32, 8, [x, y]);
vector_type!(float3, make_float3, f32, 4, [x, y, z]);
vector_type!(float4, make_float4, f32, 16, [x, y, z, w]);
vector_type!(double2, make_double2, f64, 16, [x, y]);
