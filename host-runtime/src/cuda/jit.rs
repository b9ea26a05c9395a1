//! Getting code into a context: the PTX JIT and the driver's linker with their log buffers, and
//! cubin images. A JIT failure becomes [`Error::Jit`] with the driver's log and the PTX line the
//! log points at.

use std::ffi::{c_void, CString};

use cudarc::driver::sys::{self, CUjit_option as J, CUmodule};

use super::error_codes::{error_meaning, error_name};
use super::result;
use crate::{Error, Result};

const LOG_BYTES: usize = 16 * 1024;

/// Loads a binary image into the current context.
pub(crate) fn load_cubin(image: &[u8]) -> Result<CUmodule> {
    if image.is_empty() {
        return Err(Error::InvalidValue("empty module image".into()));
    }
    // The driver finds the image's extent from its header; an owned copy guarantees alignment.
    let owned: Vec<u64> = image
        .chunks(8)
        .map(|c| {
            let mut b = [0u8; 8];
            b[..c.len()].copy_from_slice(c);
            u64::from_ne_bytes(b)
        })
        .collect();
    // SAFETY: a whole image, kept alive through the call.
    unsafe { result::module_load_data(owned.as_ptr() as *const c_void) }
}

/// JIT-loads PTX into the current context with info and error logs attached.
pub(crate) fn jit_load(ptx: &str) -> Result<CUmodule> {
    let image =
        CString::new(ptx).map_err(|_| Error::InvalidValue("PTX contains a NUL byte".into()))?;
    let mut logs = JitLogs::new();
    let (mut opts, mut vals) = logs.options();
    // SAFETY: NUL-terminated PTX; the options point at `logs`, alive through the call.
    let (r, raw) = unsafe {
        result::module_load_data_ex(image.as_ptr() as *const c_void, &mut opts, &mut vals)
    };
    match r {
        sys::CUresult::CUDA_SUCCESS => Ok(raw),
        sys::CUresult::CUDA_ERROR_INVALID_PTX
        | sys::CUresult::CUDA_ERROR_INVALID_IMAGE
        | sys::CUresult::CUDA_ERROR_INVALID_SOURCE
        | sys::CUresult::CUDA_ERROR_UNSUPPORTED_PTX_VERSION
        | sys::CUresult::CUDA_ERROR_NO_BINARY_FOR_GPU => Err(logs.error(ptx, r)),
        e => Err(result::driver_error("cuModuleLoadDataEx", e)),
    }
}

/// Compiles PTX to a cubin for the current context's device with the driver's linker.
pub(crate) fn link_ptx(ptx: &str) -> Result<Vec<u8>> {
    let image =
        CString::new(ptx).map_err(|_| Error::InvalidValue("PTX contains a NUL byte".into()))?;
    let mut logs = JitLogs::new();
    let (mut opts, mut vals) = logs.options();
    // SAFETY: the options point at `logs`, which outlives the link state.
    let state = unsafe { result::link_create(&mut opts, &mut vals)? };
    let linked = (|| {
        // SAFETY: a live link state; NUL-terminated PTX.
        let r = unsafe { result::link_add_ptx(state, &image, c"kernel.ptx") };
        if r != sys::CUresult::CUDA_SUCCESS {
            return Err(jit_or_driver("cuLinkAddData_v2", r, &logs, ptx));
        }
        // SAFETY: as above.
        let (r, cubin, size) = unsafe { result::link_complete(state) };
        if r != sys::CUresult::CUDA_SUCCESS {
            return Err(jit_or_driver("cuLinkComplete", r, &logs, ptx));
        }
        // SAFETY: the linker owns `size` bytes at `cubin` until `cuLinkDestroy`.
        Ok(unsafe { std::slice::from_raw_parts(cubin as *const u8, size) }.to_vec())
    })();
    // SAFETY: ours, used by nothing after this.
    unsafe {
        let _ = result::link_destroy(state);
    }
    linked
}

fn jit_or_driver(call: &'static str, r: sys::CUresult, logs: &JitLogs, ptx: &str) -> Error {
    match r {
        sys::CUresult::CUDA_ERROR_INVALID_PTX
        | sys::CUresult::CUDA_ERROR_INVALID_IMAGE
        | sys::CUresult::CUDA_ERROR_UNSUPPORTED_PTX_VERSION
        | sys::CUresult::CUDA_ERROR_NO_BINARY_FOR_GPU => logs.error(ptx, r),
        e => result::driver_error(call, e),
    }
}

/// The info and error log buffers handed to the JIT.
struct JitLogs {
    info: Vec<u8>,
    error: Vec<u8>,
}

impl JitLogs {
    fn new() -> Self {
        JitLogs {
            info: vec![0; LOG_BYTES],
            error: vec![0; LOG_BYTES],
        }
    }

    /// Option arrays pointing at the buffers (valid while `self` lives and is not moved).
    fn options(&mut self) -> (Vec<J>, Vec<*mut c_void>) {
        let opts = vec![
            J::CU_JIT_INFO_LOG_BUFFER,
            J::CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
            J::CU_JIT_ERROR_LOG_BUFFER,
            J::CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
            J::CU_JIT_LOG_VERBOSE,
        ];
        let vals = vec![
            self.info.as_mut_ptr() as *mut c_void,
            std::ptr::without_provenance_mut(LOG_BYTES),
            self.error.as_mut_ptr() as *mut c_void,
            std::ptr::without_provenance_mut(LOG_BYTES),
            std::ptr::without_provenance_mut(1),
        ];
        (opts, vals)
    }

    fn error(&self, ptx: &str, code: sys::CUresult) -> Error {
        let text = |b: &[u8]| {
            let end = b.iter().position(|&c| c == 0).unwrap_or(b.len());
            String::from_utf8_lossy(&b[..end]).trim().to_string()
        };
        let (err, info) = (text(&self.error), text(&self.info));
        let mut log = err.clone();
        if !info.is_empty() {
            if !log.is_empty() {
                log.push('\n');
            }
            log.push_str(&info);
        }
        if log.is_empty() {
            log = format!(
                "{} ({}); the JIT wrote no log",
                error_name(code),
                error_meaning(code)
            );
        }
        let ptx_line = offending_line(&log, ptx);
        Error::Jit { log, ptx_line }
    }
}

/// Finds the first `line N` an error message of the log names and returns it with its PTX text.
pub(crate) fn offending_line(log: &str, ptx: &str) -> Option<(u32, String)> {
    let pick = |l: &str| -> Option<u32> {
        let at = l.find("line ")?;
        let digits: String = l[at + 5..]
            .chars()
            .take_while(|c| c.is_ascii_digit())
            .collect();
        digits.parse().ok()
    };
    let n = log
        .lines()
        .filter(|l| l.contains("error"))
        .find_map(pick)
        .or_else(|| log.lines().find_map(pick))?;
    let text = ptx.lines().nth(n.checked_sub(1)? as usize)?;
    Some((n, text.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    const PTX: &str = ".version 7.0\n.target sm_70\n.address_size 64\n.visible .entry k()\n{\n  bogus.op %r1;\n  ret;\n}\n";

    #[test]
    fn finds_the_line_the_jit_complains_about() {
        let log = "ptxas application ptx input, line 6; error   : Not a name of any known instruction: 'bogus'\nptxas fatal   : Ptx assembly aborted due to errors";
        assert_eq!(
            offending_line(log, PTX),
            Some((6, "  bogus.op %r1;".to_string()))
        );
    }

    #[test]
    fn prefers_error_lines_over_warnings() {
        let log = "ptxas application ptx input, line 2; warning : something\nptxas application ptx input, line 7; error   : bad";
        assert_eq!(offending_line(log, PTX).map(|l| l.0), Some(7));
    }

    #[test]
    fn no_line_or_out_of_range_gives_none() {
        assert_eq!(
            offending_line("ptxas fatal : Unresolved extern function 'f'", PTX),
            None
        );
        assert_eq!(offending_line("ptx input, line 99; error : x", PTX), None);
        assert_eq!(offending_line("ptx input, line 0; error : x", PTX), None);
    }

    #[test]
    fn jit_error_message_names_the_line() {
        let e = Error::Jit {
            log: "ptxas application ptx input, line 6; error : bad".into(),
            ptx_line: Some((6, "  bogus.op %r1;".into())),
        };
        let s = e.to_string();
        assert!(s.contains("at PTX line 6: `bogus.op %r1;`"), "{s}");
    }
}
