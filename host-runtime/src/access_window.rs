//! The constructors of [`AccessPolicyWindow`] from a buffer (which proves the range is device
//! memory and in bounds) and its check against a device (kept apart from the plain types of
//! `access_policy`, which the launch configuration and the errors name).

use std::ops::Range;

use crate::access_policy::{AccessPolicyError, AccessPolicyWindow, AccessProperty};
use crate::memory::DeviceBuffer;
use crate::properties::DeviceProperties;
use kernel_std::api::DeviceType;

impl AccessPolicyWindow {
    /// Elements `range` of `buf`: `hit_ratio` of them `hit_prop`, the rest `miss_prop`.
    /// `Err(OutsideBuffer)` for a range the buffer does not hold, `Err(EmptyWindow)` for an
    /// empty one; the ratio and size are checked against the device when used.
    pub fn for_buffer<T: DeviceType>(
        buf: &DeviceBuffer<T>,
        range: Range<usize>,
        hit_ratio: f32,
        hit_prop: AccessProperty,
        miss_prop: AccessProperty,
    ) -> Result<Self, AccessPolicyError> {
        if range.start > range.end || range.end > buf.len() {
            return Err(AccessPolicyError::OutsideBuffer {
                start: range.start,
                end: range.end,
                len: buf.len(),
            });
        }
        let size = std::mem::size_of::<T>();
        let num_bytes = (range.end - range.start) * size;
        if num_bytes == 0 {
            return Err(AccessPolicyError::EmptyWindow);
        }
        Ok(AccessPolicyWindow {
            base: buf.device_ptr() + (range.start * size) as u64,
            num_bytes,
            hit_ratio,
            hit_prop,
            miss_prop,
        })
    }

    /// All of `buf`, `hit_ratio` of it persisting and the rest streaming: the guide's example.
    pub fn persisting<T: DeviceType>(
        buf: &DeviceBuffer<T>,
        hit_ratio: f32,
    ) -> Result<Self, AccessPolicyError> {
        Self::for_buffer(
            buf,
            0..buf.len(),
            hit_ratio,
            AccessProperty::Persisting,
            AccessProperty::Streaming,
        )
    }

    /// Checks the window against a device: L2 access management present, `hit_ratio` in
    /// `[0, 1]`, at most the device's largest window.
    pub fn validate(&self, p: &DeviceProperties) -> Result<(), AccessPolicyError> {
        self.check(p.max_access_policy_window_size)
    }
}
