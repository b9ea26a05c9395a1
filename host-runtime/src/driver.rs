//! Checked access to the raw driver API: the one place that knows whether `libcuda` exists, that
//! initializes the driver, and that turns a `CUresult` into an [`Error`].
//!
//! cudarc's dynamically loaded bindings panic on the first call when the library is missing, so
//! [`init`] asks `is_culib_present` once (cached) and every safe type goes through [`init`] before
//! touching any other entry point. Calls are written `unsafe { cu!(cuMemAlloc_v2(&mut p, n))? }`:
//! the macro only adds the call's name to the error, the `unsafe` stays visible at the call site.

use std::ffi::{c_char, c_void, CStr};
use std::sync::OnceLock;

pub use cudarc::driver::sys;
use sys::CUresult;

use crate::{Error, Result};

/// Calls a raw driver function and converts a failure into [`Error::Driver`] naming the call.
/// Must be used inside `unsafe`, like the raw function itself.
macro_rules! cu {
    ($f:ident($($arg:expr),* $(,)?)) => {
        $crate::driver::check(stringify!($f), $crate::driver::sys::$f($($arg),*))
    };
}
pub(crate) use cu;

/// Whether the driver library can be loaded on this machine (asked once, then cached).
pub fn driver_present() -> bool {
    static PRESENT: OnceLock<bool> = OnceLock::new();
    // SAFETY: only tries to dlopen the library; nothing is called through it.
    *PRESENT.get_or_init(|| unsafe { sys::is_culib_present() })
}

/// Loads and initializes the driver once. `Err(NoDriver)` without `libcuda`, `Err(NoDevice)` when
/// the driver reports no device.
pub fn init() -> Result<()> {
    static INIT: OnceLock<Result<(), CUresult>> = OnceLock::new();
    if !driver_present() {
        return Err(Error::NoDriver);
    }
    // SAFETY: the library is present, so the symbol lookups inside cudarc cannot panic.
    let r = INIT.get_or_init(|| match unsafe { sys::cuInit(0) } {
        CUresult::CUDA_SUCCESS => Ok(()),
        e => Err(e),
    });
    match *r {
        Ok(()) => Ok(()),
        Err(CUresult::CUDA_ERROR_NO_DEVICE) => Err(Error::NoDevice { ordinal: None }),
        Err(CUresult::CUDA_ERROR_STUB_LIBRARY) => Err(Error::NoDriver),
        Err(code) => Err(driver_error("cuInit", code)),
    }
}

/// The driver's version as `major * 1000 + minor * 10` (13000 for CUDA 13.0).
pub fn driver_version() -> Result<i32> {
    init()?;
    let mut v = 0;
    unsafe { cu!(cuDriverGetVersion(&mut v))? };
    Ok(v)
}

/// `Ok(())` for `CUDA_SUCCESS`, otherwise the [`Error::Driver`] for `call`.
#[inline]
pub fn check(call: &'static str, code: CUresult) -> Result<()> {
    if code == CUresult::CUDA_SUCCESS {
        Ok(())
    } else {
        Err(driver_error(call, code))
    }
}

/// Builds the error value for a failed call (cold: kept out of the callers' hot paths).
#[cold]
pub fn driver_error(call: &'static str, code: CUresult) -> Error {
    Error::Driver {
        call,
        code,
        name: error_name(code),
        meaning: error_meaning(code),
    }
}

/// A count or size for a driver parameter of C type `int`: one that does not fit is
/// `Err(InvalidValue)` naming it, never a wrapped (negative) value.
pub(crate) fn to_c_int<T>(value: T, what: &str) -> Result<i32>
where
    T: TryInto<i32> + Copy + std::fmt::Display,
{
    value.try_into().map_err(|_| {
        Error::InvalidValue(format!(
            "{what} {value} exceeds the driver's limit of {}",
            i32::MAX
        ))
    })
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

/// The symbolic name of a result code: the driver's own answer when it is loaded, else our table.
pub fn error_name(code: CUresult) -> &'static str {
    if driver_present() {
        let mut p: *const c_char = std::ptr::null();
        // SAFETY: cuGetErrorName needs no initialization and returns a static string.
        if unsafe { sys::cuGetErrorName(code, &mut p) } == CUresult::CUDA_SUCCESS && !p.is_null() {
            if let Ok(s) = unsafe { CStr::from_ptr(p) }.to_str() {
                return s;
            }
        }
    }
    table_entry(code).map_or("CUDA_ERROR_UNKNOWN_CODE", |e| e.1)
}

/// The description of a result code: the driver's own when it is loaded, else our table.
pub fn error_meaning(code: CUresult) -> &'static str {
    if driver_present() {
        let mut p: *const c_char = std::ptr::null();
        // SAFETY: as in `error_name`.
        if unsafe { sys::cuGetErrorString(code, &mut p) } == CUresult::CUDA_SUCCESS && !p.is_null()
        {
            if let Ok(s) = unsafe { CStr::from_ptr(p) }.to_str() {
                return s;
            }
        }
    }
    table_entry(code).map_or("unrecognized CUDA result code", |e| e.2)
}

/// The fallback table (used without a driver, or when the driver does not know a code).
pub fn table_entry(code: CUresult) -> Option<&'static (CUresult, &'static str, &'static str)> {
    ERROR_TABLE.iter().find(|e| e.0 == code)
}

/// Codes after which the context is unusable: only a context reset clears them.
pub(crate) fn is_sticky(code: CUresult) -> bool {
    use CUresult::*;
    matches!(
        code,
        CUDA_ERROR_ILLEGAL_ADDRESS
            | CUDA_ERROR_LAUNCH_FAILED
            | CUDA_ERROR_ILLEGAL_INSTRUCTION
            | CUDA_ERROR_MISALIGNED_ADDRESS
            | CUDA_ERROR_INVALID_ADDRESS_SPACE
            | CUDA_ERROR_INVALID_PC
            | CUDA_ERROR_HARDWARE_STACK_ERROR
            | CUDA_ERROR_ASSERT
            | CUDA_ERROR_LAUNCH_TIMEOUT
            | CUDA_ERROR_ECC_UNCORRECTABLE
    )
}

use CUresult as R;

/// (code, name, meaning) for the codes a user of this crate is likely to meet.
pub static ERROR_TABLE: &[(CUresult, &str, &str)] = &[
    (R::CUDA_SUCCESS, "CUDA_SUCCESS", "no error"),
    (
        R::CUDA_ERROR_INVALID_VALUE,
        "CUDA_ERROR_INVALID_VALUE",
        "invalid argument",
    ),
    (
        R::CUDA_ERROR_OUT_OF_MEMORY,
        "CUDA_ERROR_OUT_OF_MEMORY",
        "out of memory",
    ),
    (
        R::CUDA_ERROR_NOT_INITIALIZED,
        "CUDA_ERROR_NOT_INITIALIZED",
        "the driver has not been initialized",
    ),
    (
        R::CUDA_ERROR_DEINITIALIZED,
        "CUDA_ERROR_DEINITIALIZED",
        "the driver is shutting down",
    ),
    (
        R::CUDA_ERROR_STUB_LIBRARY,
        "CUDA_ERROR_STUB_LIBRARY",
        "the loaded libcuda is a stub, not a real driver",
    ),
    (
        R::CUDA_ERROR_NO_DEVICE,
        "CUDA_ERROR_NO_DEVICE",
        "no CUDA-capable device is detected",
    ),
    (
        R::CUDA_ERROR_INVALID_DEVICE,
        "CUDA_ERROR_INVALID_DEVICE",
        "invalid device ordinal",
    ),
    (
        R::CUDA_ERROR_INVALID_IMAGE,
        "CUDA_ERROR_INVALID_IMAGE",
        "device kernel image is invalid",
    ),
    (
        R::CUDA_ERROR_INVALID_CONTEXT,
        "CUDA_ERROR_INVALID_CONTEXT",
        "invalid device context",
    ),
    (
        R::CUDA_ERROR_NO_BINARY_FOR_GPU,
        "CUDA_ERROR_NO_BINARY_FOR_GPU",
        "no kernel image is available for execution on the device",
    ),
    (
        R::CUDA_ERROR_INVALID_PTX,
        "CUDA_ERROR_INVALID_PTX",
        "a PTX JIT compilation failed",
    ),
    (
        R::CUDA_ERROR_UNSUPPORTED_PTX_VERSION,
        "CUDA_ERROR_UNSUPPORTED_PTX_VERSION",
        "the provided PTX was compiled with an unsupported toolchain",
    ),
    (
        R::CUDA_ERROR_JIT_COMPILER_NOT_FOUND,
        "CUDA_ERROR_JIT_COMPILER_NOT_FOUND",
        "PTX JIT compiler library not found",
    ),
    (
        R::CUDA_ERROR_INVALID_SOURCE,
        "CUDA_ERROR_INVALID_SOURCE",
        "device kernel image is invalid",
    ),
    (
        R::CUDA_ERROR_FILE_NOT_FOUND,
        "CUDA_ERROR_FILE_NOT_FOUND",
        "file not found",
    ),
    (
        R::CUDA_ERROR_INVALID_HANDLE,
        "CUDA_ERROR_INVALID_HANDLE",
        "invalid resource handle",
    ),
    (
        R::CUDA_ERROR_NOT_FOUND,
        "CUDA_ERROR_NOT_FOUND",
        "named symbol not found",
    ),
    (
        R::CUDA_ERROR_NOT_READY,
        "CUDA_ERROR_NOT_READY",
        "device not ready",
    ),
    (
        R::CUDA_ERROR_ILLEGAL_ADDRESS,
        "CUDA_ERROR_ILLEGAL_ADDRESS",
        "an illegal memory access was encountered",
    ),
    (
        R::CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES,
        "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES",
        "too many resources requested for launch",
    ),
    (
        R::CUDA_ERROR_LAUNCH_TIMEOUT,
        "CUDA_ERROR_LAUNCH_TIMEOUT",
        "the launch timed out and was terminated",
    ),
    (
        R::CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE,
        "CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE",
        "the primary context is already active",
    ),
    (
        R::CUDA_ERROR_CONTEXT_IS_DESTROYED,
        "CUDA_ERROR_CONTEXT_IS_DESTROYED",
        "the context was destroyed",
    ),
    (
        R::CUDA_ERROR_ASSERT,
        "CUDA_ERROR_ASSERT",
        "a device-side assert triggered",
    ),
    (
        R::CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED,
        "CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED",
        "the host memory is already registered",
    ),
    (
        R::CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED,
        "CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED",
        "the host memory is not registered",
    ),
    (
        R::CUDA_ERROR_HARDWARE_STACK_ERROR,
        "CUDA_ERROR_HARDWARE_STACK_ERROR",
        "an illegal hardware stack access was encountered",
    ),
    (
        R::CUDA_ERROR_ILLEGAL_INSTRUCTION,
        "CUDA_ERROR_ILLEGAL_INSTRUCTION",
        "an illegal instruction was encountered",
    ),
    (
        R::CUDA_ERROR_MISALIGNED_ADDRESS,
        "CUDA_ERROR_MISALIGNED_ADDRESS",
        "a misaligned address was encountered",
    ),
    (
        R::CUDA_ERROR_INVALID_ADDRESS_SPACE,
        "CUDA_ERROR_INVALID_ADDRESS_SPACE",
        "an operation used an address in the wrong state space",
    ),
    (
        R::CUDA_ERROR_INVALID_PC,
        "CUDA_ERROR_INVALID_PC",
        "an illegal program counter was encountered",
    ),
    (
        R::CUDA_ERROR_LAUNCH_FAILED,
        "CUDA_ERROR_LAUNCH_FAILED",
        "an exception occurred on the device while executing a kernel",
    ),
    (
        R::CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE,
        "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE",
        "too many blocks in a cooperative launch",
    ),
    (
        R::CUDA_ERROR_NOT_PERMITTED,
        "CUDA_ERROR_NOT_PERMITTED",
        "operation not permitted",
    ),
    (
        R::CUDA_ERROR_NOT_SUPPORTED,
        "CUDA_ERROR_NOT_SUPPORTED",
        "operation not supported",
    ),
    (
        R::CUDA_ERROR_SYSTEM_DRIVER_MISMATCH,
        "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH",
        "the system driver and the CUDA driver versions do not match",
    ),
    (
        R::CUDA_ERROR_TIMEOUT,
        "CUDA_ERROR_TIMEOUT",
        "wait operation timed out",
    ),
    (R::CUDA_ERROR_UNKNOWN, "CUDA_ERROR_UNKNOWN", "unknown error"),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_names_match_the_binding_variants() {
        for (code, name, meaning) in ERROR_TABLE {
            assert_eq!(format!("{code:?}"), *name);
            assert!(!meaning.is_empty());
        }
    }

    #[test]
    fn table_codes_are_unique() {
        for (i, a) in ERROR_TABLE.iter().enumerate() {
            assert!(ERROR_TABLE[i + 1..].iter().all(|b| b.0 != a.0), "{}", a.1);
        }
    }

    #[test]
    fn check_maps_codes_to_driver_errors() {
        assert!(check("cuInit", CUresult::CUDA_SUCCESS).is_ok());
        match check("cuMemAlloc_v2", CUresult::CUDA_ERROR_OUT_OF_MEMORY) {
            Err(Error::Driver {
                call,
                code,
                name,
                meaning,
            }) => {
                assert_eq!(call, "cuMemAlloc_v2");
                assert_eq!(code, CUresult::CUDA_ERROR_OUT_OF_MEMORY);
                assert_eq!(name, "CUDA_ERROR_OUT_OF_MEMORY");
                assert!(meaning.contains("memory"), "{meaning}");
            }
            other => panic!("unexpected {other:?}"),
        }
        let e = check("cuLaunchKernel", CUresult::CUDA_ERROR_ILLEGAL_ADDRESS).unwrap_err();
        assert!(e.is_sticky());
        let text = e.to_string();
        assert!(
            text.starts_with("cuLaunchKernel failed: CUDA_ERROR_ILLEGAL_ADDRESS"),
            "{text}"
        );
        assert!(!check("cuMemAlloc_v2", CUresult::CUDA_ERROR_INVALID_VALUE)
            .unwrap_err()
            .is_sticky());
    }

    #[test]
    fn c_ints_never_wrap() {
        assert_eq!(to_c_int(7u32, "block").unwrap(), 7);
        assert_eq!(to_c_int(i32::MAX as usize, "n").unwrap(), i32::MAX);
        match to_c_int(3_000_000_000u32, "threads per block") {
            Err(Error::InvalidValue(m)) => {
                assert!(m.contains("threads per block 3000000000"), "{m}")
            }
            other => panic!("{other:?}"),
        }
        assert!(to_c_int(usize::MAX, "ordinal").is_err());
    }

    #[test]
    fn sticky_codes_are_exactly_the_context_killers() {
        assert!(is_sticky(CUresult::CUDA_ERROR_LAUNCH_FAILED));
        assert!(is_sticky(CUresult::CUDA_ERROR_MISALIGNED_ADDRESS));
        assert!(!is_sticky(CUresult::CUDA_ERROR_OUT_OF_MEMORY));
        assert!(!is_sticky(CUresult::CUDA_ERROR_NOT_READY));
    }

    #[test]
    fn no_driver_path_returns_errors_without_panicking() {
        if driver_present() {
            eprintln!("a CUDA driver is present; the no-driver path cannot be exercised here");
            return;
        }
        assert!(matches!(init(), Err(Error::NoDriver)));
        assert!(matches!(driver_version(), Err(Error::NoDriver)));
        assert!(!has_symbol("cuInit"));
        // Without a driver the names come from the table.
        assert_eq!(
            error_name(CUresult::CUDA_ERROR_INVALID_PTX),
            "CUDA_ERROR_INVALID_PTX"
        );
    }
}
