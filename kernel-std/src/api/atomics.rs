//! Device API: atomic read-modify-write on global or shared memory (`atomicAdd` and friends).
//!
//! Each takes `&mut T` to a slice element or shared-array element (`atomic_add(&mut hist[b], 1)`)
//! and returns the old value. The plain names are CUDA's device-scope atomics; `_block` variants
//! are only atomic with respect to the block (`atomicAdd_block`), `_system` ones also with respect
//! to the host and peer devices (`atomicAdd_system`). All are relaxed, as in CUDA: order them with
//! `thread_fence*` or a barrier.

use super::{device_only, DeviceType};

/// Types with atomic add, exchange, min and max: 32/64-bit integers and floats.
pub trait AtomicValue: DeviceType {}
/// Integer types with the bitwise atomics, `atomic_sub` and `atomic_cas`.
pub trait AtomicInt: AtomicValue {}

macro_rules! mark {
    ($tr:ident: $($t:ty),*) => {$(impl $tr for $t {})*};
}
mark!(AtomicValue: u32, i32, u64, i64, f32, f64);
mark!(AtomicInt: u32, i32, u64, i64);

macro_rules! scoped {
    ($doc:literal, $dev:ident, $block:ident, $sys:ident, <$t:ident: $b:ident>($($arg:ident: $ty:ty),*)) => {
        device_intrinsic!(
            #[doc = $doc]
            pub fn $dev<$t: $b>(p: &mut $t, $($arg: $ty),*) -> $t
        );
        device_intrinsic!(
            #[doc = concat!("Block-scope `", stringify!($dev), "`.")]
            pub fn $block<$t: $b>(p: &mut $t, $($arg: $ty),*) -> $t
        );
        device_intrinsic!(
            #[doc = concat!("System-scope `", stringify!($dev), "`.")]
            pub fn $sys<$t: $b>(p: &mut $t, $($arg: $ty),*) -> $t
        );
    };
}

scoped!("`atomicAdd`: `*p += v` (wrapping for integers); returns the old value.",
    atomic_add, atomic_add_block, atomic_add_system, <T: AtomicValue>(v: T));
scoped!("`atomicSub`: `*p -= v` (wrapping); returns the old value.",
    atomic_sub, atomic_sub_block, atomic_sub_system, <T: AtomicInt>(v: T));
scoped!("`atomicExch`: `*p = v`; returns the old value.",
    atomic_exch, atomic_exch_block, atomic_exch_system, <T: AtomicValue>(v: T));
scoped!("`atomicMin`: `*p = min(*p, v)`; returns the old value (floats: a compare-and-swap loop).",
    atomic_min, atomic_min_block, atomic_min_system, <T: AtomicValue>(v: T));
scoped!("`atomicMax`: `*p = max(*p, v)`; returns the old value (floats: a compare-and-swap loop).",
    atomic_max, atomic_max_block, atomic_max_system, <T: AtomicValue>(v: T));
scoped!("`atomicCAS`: `*p = if *p == compare { v } else { *p }`; returns the old value.",
    atomic_cas, atomic_cas_block, atomic_cas_system, <T: AtomicInt>(compare: T, v: T));
scoped!("`atomicAnd`: `*p &= v`; returns the old value.",
    atomic_and, atomic_and_block, atomic_and_system, <T: AtomicInt>(v: T));
scoped!("`atomicOr`: `*p |= v`; returns the old value.",
    atomic_or, atomic_or_block, atomic_or_system, <T: AtomicInt>(v: T));
scoped!("`atomicXor`: `*p ^= v`; returns the old value.",
    atomic_xor, atomic_xor_block, atomic_xor_system, <T: AtomicInt>(v: T));

macro_rules! scoped_u32 {
    ($doc:literal, $dev:ident, $block:ident, $sys:ident) => {
        device_intrinsic!(
            #[doc = $doc]
            pub fn $dev(p: &mut u32, limit: u32) -> u32
        );
        device_intrinsic!(
            #[doc = concat!("Block-scope `", stringify!($dev), "`.")]
            pub fn $block(p: &mut u32, limit: u32) -> u32
        );
        device_intrinsic!(
            #[doc = concat!("System-scope `", stringify!($dev), "`.")]
            pub fn $sys(p: &mut u32, limit: u32) -> u32
        );
    };
}
scoped_u32!(
    "`atomicInc`: `*p = if *p >= limit { 0 } else { *p + 1 }`; returns the old value.",
    atomic_inc,
    atomic_inc_block,
    atomic_inc_system
);
scoped_u32!("`atomicDec`: `*p = if *p == 0 || *p > limit { limit } else { *p - 1 }`; returns the old value.",
    atomic_dec, atomic_dec_block, atomic_dec_system);
