//! Names and meanings of the driver's result codes, and which of them kill the context: the
//! driver's own strings when it is loaded, a table of the codes users meet otherwise.

use std::ffi::{c_char, CStr};

use cudarc::driver::sys::{self, CUresult};

use super::library::driver_present;

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
    fn sticky_codes_are_exactly_the_context_killers() {
        assert!(is_sticky(CUresult::CUDA_ERROR_LAUNCH_FAILED));
        assert!(is_sticky(CUresult::CUDA_ERROR_MISALIGNED_ADDRESS));
        assert!(!is_sticky(CUresult::CUDA_ERROR_OUT_OF_MEMORY));
        assert!(!is_sticky(CUresult::CUDA_ERROR_NOT_READY));
    }
}
