//! The option and flag types the safe API hands to a backend: plain values, defined below
//! both so that neither the safe types nor the backends depend on each other for them.

use cudarc::driver::sys;

/// How to create a stream.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StreamOptions {
    /// Don't synchronize with the legacy default stream (`CU_STREAM_NON_BLOCKING`). The runtime's
    /// own copies, launches and frees are ordered after the work that uses the same memory on any
    /// stream either way (see `memory`); this only matters for work queued behind the runtime's
    /// back (raw launches, other libraries) on the legacy stream.
    pub non_blocking: bool,
    /// Priority within [`crate::Device::stream_priority_range`] (lower is more urgent; 0 is normal).
    pub priority: i32,
}

/// How an event behaves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EventFlags {
    /// Don't record timestamps (cheaper; [`crate::Event::elapsed_ms`] then fails).
    pub disable_timing: bool,
    /// Make [`crate::Event::synchronize`] block the thread instead of spinning.
    pub blocking_sync: bool,
}

impl EventFlags {
    /// Timing on, spin-waiting (the driver's default).
    pub const TIMING: EventFlags = EventFlags {
        disable_timing: false,
        blocking_sync: false,
    };
    /// For pure ordering between streams.
    pub const NO_TIMING: EventFlags = EventFlags {
        disable_timing: true,
        blocking_sync: false,
    };

    /// The driver's `CUevent_flags` bits.
    pub(crate) fn bits(self) -> u32 {
        let mut f = sys::CUevent_flags::CU_EVENT_DEFAULT as u32;
        if self.disable_timing {
            f |= sys::CUevent_flags::CU_EVENT_DISABLE_TIMING as u32;
        }
        if self.blocking_sync {
            f |= sys::CUevent_flags::CU_EVENT_BLOCKING_SYNC as u32;
        }
        f
    }
}

/// Where managed memory should live.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Location {
    /// The buffer's device.
    Device,
    /// Host memory.
    Host,
}

/// Placement hints for managed memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Advice {
    /// Mostly read: the driver may keep read-only copies on each processor.
    SetReadMostly,
    /// Undo [`Advice::SetReadMostly`].
    UnsetReadMostly,
    /// Prefer to keep pages at the location.
    SetPreferredLocation(Location),
    /// Undo [`Advice::SetPreferredLocation`].
    UnsetPreferredLocation,
    /// The location will access the memory: keep it mapped there.
    SetAccessedBy(Location),
    /// Undo [`Advice::SetAccessedBy`].
    UnsetAccessedBy(Location),
}

/// How page-locked memory is allocated or registered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PinnedFlags {
    /// Page-locked for every context, not only the allocating one.
    pub portable: bool,
    /// Mapped into the device address space (see [`crate::PinnedBuffer::device_ptr`]).
    pub mapped: bool,
    /// Write-combined: faster host-to-device transfers, very slow host reads. Allocation only.
    pub write_combined: bool,
}

/// How a capture treats unsafe calls (`cudaStreamCaptureMode`): whether a call such as a
/// synchronous allocation or copy made while the capture runs is an error for this thread only,
/// for every thread, or allowed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CaptureMode {
    /// Unsafe calls from any thread fail while any global capture runs (the safe default).
    #[default]
    Global,
    /// Unsafe calls fail only on the capturing thread.
    ThreadLocal,
    /// No call is refused because of the capture.
    Relaxed,
}
