//! Shared memory (guide B.2.3): `__shared__` arrays and the launch's dynamic shared buffer.

use super::{Custom, DeviceType};

intrinsics! {
    table TABLE;

    /// A statically sized `__shared__` array: every call site is one allocation per block, shared by
    /// all threads of the block. `T` is an array type such as `[[f32; 33]; 32]`. Starts uninitialised.
    pub fn shared_array<T: DeviceType>() -> &'static mut T = custom(Custom::SharedArray);
    /// `extern __shared__ T buf[]`: the dynamic shared memory sized by the launch's
    /// `shared_mem_bytes`, viewed as a slice of `T` (length = bytes / `size_of::<T>()`).
    pub fn dynamic_shared<T: DeviceType>() -> &'static mut [T] = custom(Custom::DynamicShared);
}
