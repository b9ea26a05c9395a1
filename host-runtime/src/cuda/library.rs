//! Whether the driver library (`libcuda`) can be loaded here, and looking its entry points up
//! by name (for those newer drivers added): the bottom of the CUDA backend.

use std::ffi::c_void;
use std::sync::OnceLock;

use cudarc::driver::sys;

/// Whether the driver library can be loaded on this machine (asked once, then cached).
pub fn driver_present() -> bool {
    static PRESENT: OnceLock<bool> = OnceLock::new();
    // SAFETY: only tries to dlopen the library; nothing is called through it.
    *PRESENT.get_or_init(|| unsafe { sys::is_culib_present() })
}

/// Whether a driver symbol exists in the loaded library (for entry points newer drivers added).
pub(crate) fn has_symbol(name: &str) -> bool {
    if !driver_present() {
        return false;
    }
    // SAFETY: the library is present; looking a symbol up calls nothing.
    unsafe { sys::culib().get::<*const c_void>(name.as_bytes()).is_ok() }
}

/// Looks a driver entry point up by name with the given function type.
///
/// # Safety
/// `F` must be the exact `extern "C"` signature of `name`.
pub(crate) unsafe fn symbol<F: Copy>(name: &str) -> Option<F> {
    if !driver_present() {
        return None;
    }
    unsafe { sys::culib().get::<F>(name.as_bytes()).ok().map(|s| *s) }
}
