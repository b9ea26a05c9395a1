//! cuBLAS SGEMM as the reference ceiling for the SGEMM row (loaded at run time like the driver;
//! the row is skipped with a note when libcublas is not found).

use cudarc::cublas::sys as cb;
use ferrocuda::host_runtime::{Device, DeviceBuffer, Stream};
use ferrocuda_examples::util::Rng;

use super::report::{Row, Unit};
use super::timing::time_events;
use super::twins::Twins;

pub fn sgemm(dev: &Device, _: &Twins) -> Result<Vec<Row>, String> {
    if !unsafe { cb::is_culib_present() } {
        return Err("libcublas not found (add its folder to LD_LIBRARY_PATH)".into());
    }
    let (m, n, k) = (4096usize, 4096usize, 4096usize);
    let mut rng = Rng::new(6);
    let e = |x: ferrocuda::host_runtime::Error| x.to_string();
    let a = DeviceBuffer::upload(dev, &rng.vec_f32(m * k)).map_err(e)?;
    let b = DeviceBuffer::upload(dev, &rng.vec_f32(k * n)).map_err(e)?;
    let c = DeviceBuffer::upload(dev, &rng.vec_f32(m * n)).map_err(e)?;
    let s = Stream::new(dev).map_err(e)?;
    let mut handle: cb::cublasHandle_t = std::ptr::null_mut();
    let check = |st: cb::cublasStatus_t, call: &str| {
        if st == cb::cublasStatus_t::CUBLAS_STATUS_SUCCESS {
            Ok(())
        } else {
            Err(format!("{call}: {st:?}"))
        }
    };
    unsafe {
        check(cb::cublasCreate_v2(&mut handle), "cublasCreate")?;
        check(
            cb::cublasSetStream_v2(handle, s.raw() as _),
            "cublasSetStream",
        )?;
    }
    let (alpha, beta) = (1.0f32, 0.0f32);
    // Row-major C = A B is column-major C^T = B^T A^T.
    let run = |_: &Stream| -> ferrocuda::host_runtime::Result<()> {
        let st = unsafe {
            cb::cublasSgemm_v2(
                handle,
                cb::cublasOperation_t::CUBLAS_OP_N,
                cb::cublasOperation_t::CUBLAS_OP_N,
                n as i32,
                m as i32,
                k as i32,
                &alpha,
                b.device_ptr() as *const f32,
                n as i32,
                a.device_ptr() as *const f32,
                k as i32,
                &beta,
                c.device_ptr() as *mut f32,
                n as i32,
            )
        };
        if st != cb::cublasStatus_t::CUBLAS_STATUS_SUCCESS {
            return Err(ferrocuda::host_runtime::Error::InvalidValue(format!(
                "cublasSgemm: {st:?}"
            )));
        }
        Ok(())
    };
    let t = time_events(dev, &s, run);
    unsafe { cb::cublasDestroy_v2(handle) };
    let t = t.map_err(e)?;
    let flops = 2.0 * (m * n * k) as f64;
    Ok(vec![Row::new(
        "cuBLAS SGEMM (4096^3, reference only)",
        Unit::Tflops,
        flops,
        Some(t),
        None,
    )])
}
