//! L2 access policy windows (guide "L2 cache access management", seed 004, sm_80+): a range of
//! global memory whose accesses the L2 should keep (`Persisting`) or not keep (`Streaming`),
//! for a fraction (`hit_ratio`) of its lines, set on a launch
//! ([`LaunchConfig::access_policy`](crate::LaunchConfig::access_policy),
//! `CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW`) or on a stream
//! ([`Stream::set_access_policy_window`](crate::Stream::set_access_policy_window),
//! `cuStreamSetAttribute`), plus the L2 set aside for persisting lines
//! ([`Device::set_persisting_l2_cache_size`](crate::Device::set_persisting_l2_cache_size)) and
//! its reset.
//!
//! A window is only a hint to the cache: it never changes what a kernel computes, so it is made
//! from a buffer (which proves the range is device memory and in bounds) and checked before the
//! driver against the device's limits; a window that outlives its buffer only points the hint at
//! memory nobody uses. The simulator accepts, checks and records windows (it models no cache).

//! The window's constructors from buffers and its check against a device's properties are in
//! `access_window`.

/// What the L2 does with the lines of a window (`CUaccessProperty`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AccessProperty {
    /// `CU_ACCESS_PROPERTY_NORMAL`: no hint (also what resets persisting lines to normal).
    Normal,
    /// `CU_ACCESS_PROPERTY_STREAMING`: less likely to stay in L2.
    Streaming,
    /// `CU_ACCESS_PROPERTY_PERSISTING`: kept in the set-aside part of L2.
    Persisting,
}

/// A window of global memory with its L2 hints (`CUaccessPolicyWindow`): `hit_ratio` of its
/// bytes get `hit_prop`, the rest `miss_prop`.
#[derive(Clone, Copy, Debug)]
pub struct AccessPolicyWindow {
    /// Start address (a device buffer's).
    pub base: u64,
    /// Bytes in the window.
    pub num_bytes: usize,
    /// The fraction of the window that gets `hit_prop`, in `[0, 1]`.
    pub hit_ratio: f32,
    /// The property of the hit fraction.
    pub hit_prop: AccessProperty,
    /// The property of the rest.
    pub miss_prop: AccessProperty,
}

impl PartialEq for AccessPolicyWindow {
    fn eq(&self, o: &Self) -> bool {
        (
            self.base,
            self.num_bytes,
            self.hit_ratio.to_bits(),
            self.hit_prop,
            self.miss_prop,
        ) == (
            o.base,
            o.num_bytes,
            o.hit_ratio.to_bits(),
            o.hit_prop,
            o.miss_prop,
        )
    }
}
impl Eq for AccessPolicyWindow {}
impl std::hash::Hash for AccessPolicyWindow {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        (
            self.base,
            self.num_bytes,
            self.hit_ratio.to_bits(),
            self.hit_prop,
            self.miss_prop,
        )
            .hash(h)
    }
}

/// Why a window or an L2 setting was refused before the driver.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AccessPolicyError {
    /// `hit_ratio` is NaN or outside `[0, 1]` (its bits, so that the error compares exactly).
    #[error("hit_ratio {} is not in [0, 1]", f32::from_bits(*bits))]
    HitRatio {
        /// `hit_ratio.to_bits()`.
        bits: u32,
    },
    /// The window is larger than the device allows.
    #[error(
        "a window of {bytes} bytes exceeds the device's largest access policy window ({max} bytes)"
    )]
    WindowTooLarge {
        /// The window's bytes.
        bytes: usize,
        /// `CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE`.
        max: u32,
    },
    /// An empty window.
    #[error("an access policy window of 0 bytes")]
    EmptyWindow,
    /// The element range is outside the buffer.
    #[error("window {start}..{end} is outside the buffer of {len} elements")]
    OutsideBuffer {
        /// First element.
        start: usize,
        /// One past the last.
        end: usize,
        /// The buffer's elements.
        len: usize,
    },
    /// The device has no L2 access management (before sm_80).
    #[error("this device has no L2 access policy windows (sm_80 and newer)")]
    Unsupported,
    /// More persisting L2 than the device may set aside.
    #[error("{bytes} bytes of persisting L2 exceed the device's {max}")]
    SetAsideTooLarge {
        /// Requested bytes.
        bytes: usize,
        /// `CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE`.
        max: u32,
    },
}

impl AccessPolicyWindow {
    /// The checks of [`AccessPolicyWindow::validate`] for a device whose largest window is
    /// `max` bytes (0: none).
    pub(crate) fn check(&self, max: u32) -> Result<(), AccessPolicyError> {
        if max == 0 {
            return Err(AccessPolicyError::Unsupported);
        }
        if !(self.hit_ratio >= 0.0 && self.hit_ratio <= 1.0) {
            return Err(AccessPolicyError::HitRatio {
                bits: self.hit_ratio.to_bits(),
            });
        }
        if self.num_bytes == 0 {
            return Err(AccessPolicyError::EmptyWindow);
        }
        if self.num_bytes > max as usize {
            return Err(AccessPolicyError::WindowTooLarge {
                bytes: self.num_bytes,
                max,
            });
        }
        Ok(())
    }
}

/// The check of a persisting-L2 set-aside of `bytes` against a device that may set aside at most
/// `max` bytes (`max_persisting_l2_cache_size`; 0: none).
pub(crate) fn validate_set_aside(max: u32, bytes: usize) -> Result<(), AccessPolicyError> {
    if max == 0 {
        return Err(AccessPolicyError::Unsupported);
    }
    if bytes > max as usize {
        return Err(AccessPolicyError::SetAsideTooLarge { bytes, max });
    }
    Ok(())
}
