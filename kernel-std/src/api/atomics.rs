//! Device API: atomic read-modify-write, load and store on global or shared memory
//! (`atomicAdd` and friends, B.14).
//!
//! Each takes a reference to a slice element or shared-array element (`atomic_add(&mut hist[b], 1)`)
//! and returns the old value. The plain names are CUDA's: device scope, relaxed ordering. Suffixes
//! choose another scope (`_block`: atomic only with respect to the block, as `atomicAdd_block`;
//! `_system`: also with respect to the host and peer devices, as `atomicAdd_system`) and another
//! ordering (`_acquire`, `_release`, `_acq_rel`, as `cuda::atomic_ref` with `memory_order_*`), in
//! that order: `atomic_add_block_acq_rel`. The compiler picks the PTX instruction for the value
//! type and for the memory the reference points into (`atom.shared` / `atom.global`).

use super::{device_only, DeviceType};

/// Types with atomic add, exchange, min, max, load and store: 32/64-bit integers and floats.
pub trait AtomicValue: DeviceType {}
/// Types with `atomic_add`: every [`AtomicValue`], plus `f16` (sm_70) and `bf16` (sm_90) on
/// global memory only.
pub trait AtomicAddValue: DeviceType {}
/// Integer types with the bitwise atomics, `atomic_sub` and `atomic_cas`.
pub trait AtomicInt: AtomicValue {}

macro_rules! mark {
    ($tr:ident: $($t:ty),*) => {$(impl $tr for $t {})*};
}
mark!(AtomicValue: u32, i32, u64, i64, f32, f64);
mark!(AtomicInt: u32, i32, u64, i64);
mark!(AtomicAddValue: u32, i32, u64, i64, f32, f64, half::f16, half::bf16);
device_intrinsic!(
    /// `atomicAdd`: `*p += v` (wrapping for integers); returns the old value.
    pub fn atomic_add<T: AtomicAddValue>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_add` at device scope, acquire ordering.
    pub fn atomic_add_acquire<T: AtomicAddValue>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_add` at device scope, release ordering.
    pub fn atomic_add_release<T: AtomicAddValue>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_add` at device scope, acquire-release ordering.
    pub fn atomic_add_acq_rel<T: AtomicAddValue>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_add` at block scope, relaxed ordering.
    pub fn atomic_add_block<T: AtomicAddValue>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_add` at block scope, acquire ordering.
    pub fn atomic_add_block_acquire<T: AtomicAddValue>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_add` at block scope, release ordering.
    pub fn atomic_add_block_release<T: AtomicAddValue>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_add` at block scope, acquire-release ordering.
    pub fn atomic_add_block_acq_rel<T: AtomicAddValue>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_add` at system scope, relaxed ordering.
    pub fn atomic_add_system<T: AtomicAddValue>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_add` at system scope, acquire ordering.
    pub fn atomic_add_system_acquire<T: AtomicAddValue>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_add` at system scope, release ordering.
    pub fn atomic_add_system_release<T: AtomicAddValue>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_add` at system scope, acquire-release ordering.
    pub fn atomic_add_system_acq_rel<T: AtomicAddValue>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomicSub`: `*p -= v` (wrapping); returns the old value.
    pub fn atomic_sub<T: AtomicInt>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_sub` at device scope, acquire ordering.
    pub fn atomic_sub_acquire<T: AtomicInt>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_sub` at device scope, release ordering.
    pub fn atomic_sub_release<T: AtomicInt>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_sub` at device scope, acquire-release ordering.
    pub fn atomic_sub_acq_rel<T: AtomicInt>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_sub` at block scope, relaxed ordering.
    pub fn atomic_sub_block<T: AtomicInt>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_sub` at block scope, acquire ordering.
    pub fn atomic_sub_block_acquire<T: AtomicInt>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_sub` at block scope, release ordering.
    pub fn atomic_sub_block_release<T: AtomicInt>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_sub` at block scope, acquire-release ordering.
    pub fn atomic_sub_block_acq_rel<T: AtomicInt>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_sub` at system scope, relaxed ordering.
    pub fn atomic_sub_system<T: AtomicInt>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_sub` at system scope, acquire ordering.
    pub fn atomic_sub_system_acquire<T: AtomicInt>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_sub` at system scope, release ordering.
    pub fn atomic_sub_system_release<T: AtomicInt>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_sub` at system scope, acquire-release ordering.
    pub fn atomic_sub_system_acq_rel<T: AtomicInt>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomicExch`: `*p = v`; returns the old value.
    pub fn atomic_exch<T: AtomicValue>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_exch` at device scope, acquire ordering.
    pub fn atomic_exch_acquire<T: AtomicValue>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_exch` at device scope, release ordering.
    pub fn atomic_exch_release<T: AtomicValue>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_exch` at device scope, acquire-release ordering.
    pub fn atomic_exch_acq_rel<T: AtomicValue>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_exch` at block scope, relaxed ordering.
    pub fn atomic_exch_block<T: AtomicValue>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_exch` at block scope, acquire ordering.
    pub fn atomic_exch_block_acquire<T: AtomicValue>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_exch` at block scope, release ordering.
    pub fn atomic_exch_block_release<T: AtomicValue>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_exch` at block scope, acquire-release ordering.
    pub fn atomic_exch_block_acq_rel<T: AtomicValue>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_exch` at system scope, relaxed ordering.
    pub fn atomic_exch_system<T: AtomicValue>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_exch` at system scope, acquire ordering.
    pub fn atomic_exch_system_acquire<T: AtomicValue>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_exch` at system scope, release ordering.
    pub fn atomic_exch_system_release<T: AtomicValue>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_exch` at system scope, acquire-release ordering.
    pub fn atomic_exch_system_acq_rel<T: AtomicValue>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomicMin`: `*p = min(*p, v)`; returns the old value (floats: a compare-and-swap loop).
    pub fn atomic_min<T: AtomicValue>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_min` at device scope, acquire ordering.
    pub fn atomic_min_acquire<T: AtomicValue>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_min` at device scope, release ordering.
    pub fn atomic_min_release<T: AtomicValue>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_min` at device scope, acquire-release ordering.
    pub fn atomic_min_acq_rel<T: AtomicValue>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_min` at block scope, relaxed ordering.
    pub fn atomic_min_block<T: AtomicValue>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_min` at block scope, acquire ordering.
    pub fn atomic_min_block_acquire<T: AtomicValue>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_min` at block scope, release ordering.
    pub fn atomic_min_block_release<T: AtomicValue>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_min` at block scope, acquire-release ordering.
    pub fn atomic_min_block_acq_rel<T: AtomicValue>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_min` at system scope, relaxed ordering.
    pub fn atomic_min_system<T: AtomicValue>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_min` at system scope, acquire ordering.
    pub fn atomic_min_system_acquire<T: AtomicValue>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_min` at system scope, release ordering.
    pub fn atomic_min_system_release<T: AtomicValue>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_min` at system scope, acquire-release ordering.
    pub fn atomic_min_system_acq_rel<T: AtomicValue>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomicMax`: `*p = max(*p, v)`; returns the old value (floats: a compare-and-swap loop).
    pub fn atomic_max<T: AtomicValue>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_max` at device scope, acquire ordering.
    pub fn atomic_max_acquire<T: AtomicValue>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_max` at device scope, release ordering.
    pub fn atomic_max_release<T: AtomicValue>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_max` at device scope, acquire-release ordering.
    pub fn atomic_max_acq_rel<T: AtomicValue>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_max` at block scope, relaxed ordering.
    pub fn atomic_max_block<T: AtomicValue>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_max` at block scope, acquire ordering.
    pub fn atomic_max_block_acquire<T: AtomicValue>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_max` at block scope, release ordering.
    pub fn atomic_max_block_release<T: AtomicValue>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_max` at block scope, acquire-release ordering.
    pub fn atomic_max_block_acq_rel<T: AtomicValue>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_max` at system scope, relaxed ordering.
    pub fn atomic_max_system<T: AtomicValue>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_max` at system scope, acquire ordering.
    pub fn atomic_max_system_acquire<T: AtomicValue>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_max` at system scope, release ordering.
    pub fn atomic_max_system_release<T: AtomicValue>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_max` at system scope, acquire-release ordering.
    pub fn atomic_max_system_acq_rel<T: AtomicValue>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomicInc`: `*p = if *p >= limit { 0 } else { *p + 1 }`; returns the old value.
    pub fn atomic_inc(p: &mut u32, limit: u32) -> u32
);
device_intrinsic!(
    /// `atomic_inc` at device scope, acquire ordering.
    pub fn atomic_inc_acquire(p: &mut u32, limit: u32) -> u32
);
device_intrinsic!(
    /// `atomic_inc` at device scope, release ordering.
    pub fn atomic_inc_release(p: &mut u32, limit: u32) -> u32
);
device_intrinsic!(
    /// `atomic_inc` at device scope, acquire-release ordering.
    pub fn atomic_inc_acq_rel(p: &mut u32, limit: u32) -> u32
);
device_intrinsic!(
    /// `atomic_inc` at block scope, relaxed ordering.
    pub fn atomic_inc_block(p: &mut u32, limit: u32) -> u32
);
device_intrinsic!(
    /// `atomic_inc` at block scope, acquire ordering.
    pub fn atomic_inc_block_acquire(p: &mut u32, limit: u32) -> u32
);
device_intrinsic!(
    /// `atomic_inc` at block scope, release ordering.
    pub fn atomic_inc_block_release(p: &mut u32, limit: u32) -> u32
);
device_intrinsic!(
    /// `atomic_inc` at block scope, acquire-release ordering.
    pub fn atomic_inc_block_acq_rel(p: &mut u32, limit: u32) -> u32
);
device_intrinsic!(
    /// `atomic_inc` at system scope, relaxed ordering.
    pub fn atomic_inc_system(p: &mut u32, limit: u32) -> u32
);
device_intrinsic!(
    /// `atomic_inc` at system scope, acquire ordering.
    pub fn atomic_inc_system_acquire(p: &mut u32, limit: u32) -> u32
);
device_intrinsic!(
    /// `atomic_inc` at system scope, release ordering.
    pub fn atomic_inc_system_release(p: &mut u32, limit: u32) -> u32
);
device_intrinsic!(
    /// `atomic_inc` at system scope, acquire-release ordering.
    pub fn atomic_inc_system_acq_rel(p: &mut u32, limit: u32) -> u32
);
device_intrinsic!(
    /// `atomicDec`: `*p = if *p == 0 || *p > limit { limit } else { *p - 1 }`; returns the old value.
    pub fn atomic_dec(p: &mut u32, limit: u32) -> u32
);
device_intrinsic!(
    /// `atomic_dec` at device scope, acquire ordering.
    pub fn atomic_dec_acquire(p: &mut u32, limit: u32) -> u32
);
device_intrinsic!(
    /// `atomic_dec` at device scope, release ordering.
    pub fn atomic_dec_release(p: &mut u32, limit: u32) -> u32
);
device_intrinsic!(
    /// `atomic_dec` at device scope, acquire-release ordering.
    pub fn atomic_dec_acq_rel(p: &mut u32, limit: u32) -> u32
);
device_intrinsic!(
    /// `atomic_dec` at block scope, relaxed ordering.
    pub fn atomic_dec_block(p: &mut u32, limit: u32) -> u32
);
device_intrinsic!(
    /// `atomic_dec` at block scope, acquire ordering.
    pub fn atomic_dec_block_acquire(p: &mut u32, limit: u32) -> u32
);
device_intrinsic!(
    /// `atomic_dec` at block scope, release ordering.
    pub fn atomic_dec_block_release(p: &mut u32, limit: u32) -> u32
);
device_intrinsic!(
    /// `atomic_dec` at block scope, acquire-release ordering.
    pub fn atomic_dec_block_acq_rel(p: &mut u32, limit: u32) -> u32
);
device_intrinsic!(
    /// `atomic_dec` at system scope, relaxed ordering.
    pub fn atomic_dec_system(p: &mut u32, limit: u32) -> u32
);
device_intrinsic!(
    /// `atomic_dec` at system scope, acquire ordering.
    pub fn atomic_dec_system_acquire(p: &mut u32, limit: u32) -> u32
);
device_intrinsic!(
    /// `atomic_dec` at system scope, release ordering.
    pub fn atomic_dec_system_release(p: &mut u32, limit: u32) -> u32
);
device_intrinsic!(
    /// `atomic_dec` at system scope, acquire-release ordering.
    pub fn atomic_dec_system_acq_rel(p: &mut u32, limit: u32) -> u32
);
device_intrinsic!(
    /// `atomicCAS`: `*p = if *p == compare { v } else { *p }`; returns the old value.
    pub fn atomic_cas<T: AtomicInt>(p: &mut T, compare: T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_cas` at device scope, acquire ordering.
    pub fn atomic_cas_acquire<T: AtomicInt>(p: &mut T, compare: T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_cas` at device scope, release ordering.
    pub fn atomic_cas_release<T: AtomicInt>(p: &mut T, compare: T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_cas` at device scope, acquire-release ordering.
    pub fn atomic_cas_acq_rel<T: AtomicInt>(p: &mut T, compare: T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_cas` at block scope, relaxed ordering.
    pub fn atomic_cas_block<T: AtomicInt>(p: &mut T, compare: T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_cas` at block scope, acquire ordering.
    pub fn atomic_cas_block_acquire<T: AtomicInt>(p: &mut T, compare: T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_cas` at block scope, release ordering.
    pub fn atomic_cas_block_release<T: AtomicInt>(p: &mut T, compare: T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_cas` at block scope, acquire-release ordering.
    pub fn atomic_cas_block_acq_rel<T: AtomicInt>(p: &mut T, compare: T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_cas` at system scope, relaxed ordering.
    pub fn atomic_cas_system<T: AtomicInt>(p: &mut T, compare: T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_cas` at system scope, acquire ordering.
    pub fn atomic_cas_system_acquire<T: AtomicInt>(p: &mut T, compare: T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_cas` at system scope, release ordering.
    pub fn atomic_cas_system_release<T: AtomicInt>(p: &mut T, compare: T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_cas` at system scope, acquire-release ordering.
    pub fn atomic_cas_system_acq_rel<T: AtomicInt>(p: &mut T, compare: T, v: T) -> T
);
device_intrinsic!(
    /// `atomicAnd`: `*p &= v`; returns the old value.
    pub fn atomic_and<T: AtomicInt>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_and` at device scope, acquire ordering.
    pub fn atomic_and_acquire<T: AtomicInt>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_and` at device scope, release ordering.
    pub fn atomic_and_release<T: AtomicInt>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_and` at device scope, acquire-release ordering.
    pub fn atomic_and_acq_rel<T: AtomicInt>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_and` at block scope, relaxed ordering.
    pub fn atomic_and_block<T: AtomicInt>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_and` at block scope, acquire ordering.
    pub fn atomic_and_block_acquire<T: AtomicInt>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_and` at block scope, release ordering.
    pub fn atomic_and_block_release<T: AtomicInt>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_and` at block scope, acquire-release ordering.
    pub fn atomic_and_block_acq_rel<T: AtomicInt>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_and` at system scope, relaxed ordering.
    pub fn atomic_and_system<T: AtomicInt>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_and` at system scope, acquire ordering.
    pub fn atomic_and_system_acquire<T: AtomicInt>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_and` at system scope, release ordering.
    pub fn atomic_and_system_release<T: AtomicInt>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_and` at system scope, acquire-release ordering.
    pub fn atomic_and_system_acq_rel<T: AtomicInt>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomicOr`: `*p |= v`; returns the old value.
    pub fn atomic_or<T: AtomicInt>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_or` at device scope, acquire ordering.
    pub fn atomic_or_acquire<T: AtomicInt>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_or` at device scope, release ordering.
    pub fn atomic_or_release<T: AtomicInt>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_or` at device scope, acquire-release ordering.
    pub fn atomic_or_acq_rel<T: AtomicInt>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_or` at block scope, relaxed ordering.
    pub fn atomic_or_block<T: AtomicInt>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_or` at block scope, acquire ordering.
    pub fn atomic_or_block_acquire<T: AtomicInt>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_or` at block scope, release ordering.
    pub fn atomic_or_block_release<T: AtomicInt>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_or` at block scope, acquire-release ordering.
    pub fn atomic_or_block_acq_rel<T: AtomicInt>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_or` at system scope, relaxed ordering.
    pub fn atomic_or_system<T: AtomicInt>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_or` at system scope, acquire ordering.
    pub fn atomic_or_system_acquire<T: AtomicInt>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_or` at system scope, release ordering.
    pub fn atomic_or_system_release<T: AtomicInt>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_or` at system scope, acquire-release ordering.
    pub fn atomic_or_system_acq_rel<T: AtomicInt>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomicXor`: `*p ^= v`; returns the old value.
    pub fn atomic_xor<T: AtomicInt>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_xor` at device scope, acquire ordering.
    pub fn atomic_xor_acquire<T: AtomicInt>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_xor` at device scope, release ordering.
    pub fn atomic_xor_release<T: AtomicInt>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_xor` at device scope, acquire-release ordering.
    pub fn atomic_xor_acq_rel<T: AtomicInt>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_xor` at block scope, relaxed ordering.
    pub fn atomic_xor_block<T: AtomicInt>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_xor` at block scope, acquire ordering.
    pub fn atomic_xor_block_acquire<T: AtomicInt>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_xor` at block scope, release ordering.
    pub fn atomic_xor_block_release<T: AtomicInt>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_xor` at block scope, acquire-release ordering.
    pub fn atomic_xor_block_acq_rel<T: AtomicInt>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_xor` at system scope, relaxed ordering.
    pub fn atomic_xor_system<T: AtomicInt>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_xor` at system scope, acquire ordering.
    pub fn atomic_xor_system_acquire<T: AtomicInt>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_xor` at system scope, release ordering.
    pub fn atomic_xor_system_release<T: AtomicInt>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// `atomic_xor` at system scope, acquire-release ordering.
    pub fn atomic_xor_system_acq_rel<T: AtomicInt>(p: &mut T, v: T) -> T
);
device_intrinsic!(
    /// An atomic load of `*p` (`cuda::atomic_ref::load`), never torn and never cached across calls.
    pub fn atomic_load<T: AtomicValue>(p: &T) -> T
);
device_intrinsic!(
    /// `atomic_load` at device scope, acquire ordering.
    pub fn atomic_load_acquire<T: AtomicValue>(p: &T) -> T
);
device_intrinsic!(
    /// `atomic_load` at block scope, relaxed ordering.
    pub fn atomic_load_block<T: AtomicValue>(p: &T) -> T
);
device_intrinsic!(
    /// `atomic_load` at block scope, acquire ordering.
    pub fn atomic_load_block_acquire<T: AtomicValue>(p: &T) -> T
);
device_intrinsic!(
    /// `atomic_load` at system scope, relaxed ordering.
    pub fn atomic_load_system<T: AtomicValue>(p: &T) -> T
);
device_intrinsic!(
    /// `atomic_load` at system scope, acquire ordering.
    pub fn atomic_load_system_acquire<T: AtomicValue>(p: &T) -> T
);
device_intrinsic!(
    /// An atomic store of `v` to `*p` (`cuda::atomic_ref::store`).
    pub fn atomic_store<T: AtomicValue>(p: &mut T, v: T)
);
device_intrinsic!(
    /// `atomic_store` at device scope, release ordering.
    pub fn atomic_store_release<T: AtomicValue>(p: &mut T, v: T)
);
device_intrinsic!(
    /// `atomic_store` at block scope, relaxed ordering.
    pub fn atomic_store_block<T: AtomicValue>(p: &mut T, v: T)
);
device_intrinsic!(
    /// `atomic_store` at block scope, release ordering.
    pub fn atomic_store_block_release<T: AtomicValue>(p: &mut T, v: T)
);
device_intrinsic!(
    /// `atomic_store` at system scope, relaxed ordering.
    pub fn atomic_store_system<T: AtomicValue>(p: &mut T, v: T)
);
device_intrinsic!(
    /// `atomic_store` at system scope, release ordering.
    pub fn atomic_store_system_release<T: AtomicValue>(p: &mut T, v: T)
);
