//! The result layer: checked access to the raw driver API, as cudarc's `result` module is to its
//! `sys` bindings. It is the one place that knows whether `libcuda` exists, that initializes the
//! driver, and that calls a raw entry point: each call the runtime makes has a function here that
//! returns a `Result` whose error names the call and its `CUresult` ([`Error::Driver`]). The
//! backend's safe code (`cuda/`) is written against these functions, never against `sys`.
//!
//! cudarc's dynamically loaded bindings panic on the first call when the library is missing, so
//! [`init`] asks `is_culib_present` once (cached) and every path goes through it before touching
//! any other entry point. Functions taking raw handles or pointers are `unsafe`: the handles must
//! be live objects of the current context, the pointers valid for the sizes given.

use std::ffi::{c_char, c_void, CStr};
use std::sync::OnceLock;

pub use cudarc::driver::sys;
use sys::{
    CUcontext, CUdevice, CUdeviceptr, CUevent, CUfunction, CUgraph, CUgraphExec, CUgraphNode,
    CUlimit, CUmemoryPool, CUmodule, CUresult, CUstream,
};

use super::error_codes::{error_meaning, error_name};
pub(crate) use super::library::{driver_present, has_symbol, symbol};
use crate::{Error, Result};

/// Calls a raw driver function and converts a failure into [`Error::Driver`] naming the call.
/// Must be used inside `unsafe`, like the raw function itself.
macro_rules! cu {
    ($f:ident($($arg:expr),* $(,)?)) => {
        check(stringify!($f), sys::$f($($arg),*))
    };
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

// ---- devices and contexts ----

/// `cuDeviceGetCount`.
pub(crate) fn device_count() -> Result<usize> {
    init()?;
    let mut n = 0;
    unsafe { cu!(cuDeviceGetCount(&mut n))? };
    Ok(usize::try_from(n).unwrap_or(0))
}

/// `cuDeviceGet`.
pub(crate) fn device_get(ordinal: usize) -> Result<CUdevice> {
    let ordinal = to_c_int(ordinal, "device ordinal")?;
    let mut d: CUdevice = 0;
    unsafe { cu!(cuDeviceGet(&mut d, ordinal))? };
    Ok(d)
}

/// `cuDeviceGetAttribute`, clamped at 0 (attributes are counts and sizes).
pub(crate) fn device_attribute(dev: CUdevice, a: sys::CUdevice_attribute) -> Result<u32> {
    let mut v = 0i32;
    unsafe { cu!(cuDeviceGetAttribute(&mut v, a, dev))? };
    Ok(u32::try_from(v).unwrap_or(0))
}

/// `cuDeviceGetName`.
pub(crate) fn device_name(dev: CUdevice) -> Result<String> {
    let mut buf = [0 as c_char; 256];
    unsafe { cu!(cuDeviceGetName(buf.as_mut_ptr(), buf.len() as i32, dev))? };
    // SAFETY: the driver wrote a NUL-terminated string into the buffer.
    Ok(unsafe { CStr::from_ptr(buf.as_ptr()) }
        .to_string_lossy()
        .into_owned())
}

/// `cuDeviceTotalMem_v2`.
pub(crate) fn device_total_mem(dev: CUdevice) -> Result<usize> {
    let mut total = 0usize;
    unsafe { cu!(cuDeviceTotalMem_v2(&mut total, dev))? };
    Ok(total)
}

/// `cuDeviceGetDefaultMemPool`.
pub(crate) fn device_default_mem_pool(dev: CUdevice) -> Result<CUmemoryPool> {
    let mut p: CUmemoryPool = std::ptr::null_mut();
    unsafe { cu!(cuDeviceGetDefaultMemPool(&mut p, dev))? };
    Ok(p)
}

/// `cuDevicePrimaryCtxRetain`.
pub(crate) fn primary_ctx_retain(dev: CUdevice) -> Result<CUcontext> {
    let mut c: CUcontext = std::ptr::null_mut();
    unsafe { cu!(cuDevicePrimaryCtxRetain(&mut c, dev))? };
    Ok(c)
}

/// `cuDevicePrimaryCtxRelease_v2`.
pub(crate) fn primary_ctx_release(dev: CUdevice) -> Result<()> {
    unsafe { cu!(cuDevicePrimaryCtxRelease_v2(dev)) }
}

/// `cuDevicePrimaryCtxReset_v2`.
pub(crate) fn primary_ctx_reset(dev: CUdevice) -> Result<()> {
    unsafe { cu!(cuDevicePrimaryCtxReset_v2(dev)) }
}

/// `cuCtxSetCurrent`.
///
/// # Safety
/// `ctx` must be a live context (or null).
pub(crate) unsafe fn ctx_set_current(ctx: CUcontext) -> Result<()> {
    unsafe { cu!(cuCtxSetCurrent(ctx)) }
}

/// `cuCtxSynchronize` (the current context).
pub(crate) fn ctx_synchronize() -> Result<()> {
    unsafe { cu!(cuCtxSynchronize()) }
}

/// `cuCtxSetLimit` (the current context).
pub(crate) fn ctx_set_limit(limit: CUlimit, value: usize) -> Result<()> {
    unsafe { cu!(cuCtxSetLimit(limit, value)) }
}

/// `cuCtxResetPersistingL2Cache` (the current context): every persisting L2 line back to normal.
pub(crate) fn ctx_reset_persisting_l2_cache() -> Result<()> {
    unsafe { cu!(cuCtxResetPersistingL2Cache()) }
}

/// `cuStreamSetAttribute`.
///
/// # Safety
/// `s` must be a live stream of the current context.
pub(crate) unsafe fn stream_set_attribute(
    s: sys::CUstream,
    id: sys::CUstreamAttrID,
    value: &sys::CUstreamAttrValue,
) -> Result<()> {
    unsafe { cu!(cuStreamSetAttribute(s, id, value)) }
}

/// `cuCtxGetLimit` (the current context).
pub(crate) fn ctx_get_limit(limit: CUlimit) -> Result<usize> {
    let mut v = 0usize;
    unsafe { cu!(cuCtxGetLimit(&mut v, limit))? };
    Ok(v)
}

/// `cuCtxGetStreamPriorityRange` as `(least, greatest)`.
pub(crate) fn ctx_stream_priority_range() -> Result<(i32, i32)> {
    let (mut least, mut greatest) = (0, 0);
    unsafe { cu!(cuCtxGetStreamPriorityRange(&mut least, &mut greatest))? };
    Ok((least, greatest))
}

/// `cuMemGetInfo_v2` as `(free, total)` bytes.
pub(crate) fn mem_get_info() -> Result<(usize, usize)> {
    let (mut free, mut total) = (0usize, 0usize);
    unsafe { cu!(cuMemGetInfo_v2(&mut free, &mut total))? };
    Ok((free, total))
}

// ---- streams and events ----

/// `cuStreamCreate`.
pub(crate) fn stream_create(flags: u32) -> Result<CUstream> {
    let mut s: CUstream = std::ptr::null_mut();
    unsafe { cu!(cuStreamCreate(&mut s, flags))? };
    Ok(s)
}

/// `cuStreamCreateWithPriority`.
pub(crate) fn stream_create_with_priority(flags: u32, priority: i32) -> Result<CUstream> {
    let mut s: CUstream = std::ptr::null_mut();
    unsafe { cu!(cuStreamCreateWithPriority(&mut s, flags, priority))? };
    Ok(s)
}

/// `cuStreamDestroy_v2` (queued work still completes).
///
/// # Safety
/// `s` must be a live stream, not used afterwards.
pub(crate) unsafe fn stream_destroy(s: CUstream) -> Result<()> {
    unsafe { cu!(cuStreamDestroy_v2(s)) }
}

/// `cuStreamSynchronize`.
///
/// # Safety
/// `s` must be a live stream.
pub(crate) unsafe fn stream_synchronize(s: CUstream) -> Result<()> {
    unsafe { cu!(cuStreamSynchronize(s)) }
}

/// `cuStreamQuery`: `Ok(true)` when the stream's work completed, `Ok(false)` while it runs.
///
/// # Safety
/// `s` must be a live stream.
pub(crate) unsafe fn stream_query(s: CUstream) -> Result<bool> {
    match unsafe { sys::cuStreamQuery(s) } {
        CUresult::CUDA_SUCCESS => Ok(true),
        CUresult::CUDA_ERROR_NOT_READY => Ok(false),
        e => Err(driver_error("cuStreamQuery", e)),
    }
}

/// `cuStreamWaitEvent`.
///
/// # Safety
/// `s` and `e` must be live objects of the current context.
pub(crate) unsafe fn stream_wait_event(s: CUstream, e: CUevent) -> Result<()> {
    unsafe { cu!(cuStreamWaitEvent(s, e, 0)) }
}

/// `cuLaunchHostFunc`.
///
/// # Safety
/// `s` must be a live stream; `f` is called once with `data`, which it must own.
pub(crate) unsafe fn launch_host_func(
    s: CUstream,
    f: unsafe extern "C" fn(*mut c_void),
    data: *mut c_void,
) -> Result<()> {
    unsafe { cu!(cuLaunchHostFunc(s, Some(f), data)) }
}

/// `cuEventCreate`.
pub(crate) fn event_create(flags: u32) -> Result<CUevent> {
    let mut e: CUevent = std::ptr::null_mut();
    unsafe { cu!(cuEventCreate(&mut e, flags))? };
    Ok(e)
}

/// `cuEventDestroy_v2` (waits already queued on it still resolve).
///
/// # Safety
/// `e` must be a live event, not used afterwards.
pub(crate) unsafe fn event_destroy(e: CUevent) -> Result<()> {
    unsafe { cu!(cuEventDestroy_v2(e)) }
}

/// `cuEventRecord`.
///
/// # Safety
/// `e` and `s` must be live objects of the current context.
pub(crate) unsafe fn event_record(e: CUevent, s: CUstream) -> Result<()> {
    unsafe { cu!(cuEventRecord(e, s)) }
}

/// `cuEventQuery`: `Ok(true)` once the recorded work completed.
///
/// # Safety
/// `e` must be a live event.
pub(crate) unsafe fn event_query(e: CUevent) -> Result<bool> {
    match unsafe { sys::cuEventQuery(e) } {
        CUresult::CUDA_SUCCESS => Ok(true),
        CUresult::CUDA_ERROR_NOT_READY => Ok(false),
        r => Err(driver_error("cuEventQuery", r)),
    }
}

/// `cuEventSynchronize`.
///
/// # Safety
/// `e` must be a live event.
pub(crate) unsafe fn event_synchronize(e: CUevent) -> Result<()> {
    unsafe { cu!(cuEventSynchronize(e)) }
}

/// Milliseconds between two recorded events: `cuEventElapsedTime_v2` (CUDA 12.8+) or, on older
/// drivers, `cuEventElapsedTime`.
///
/// # Safety
/// `start` and `end` must be live events of the current context.
pub(crate) unsafe fn event_elapsed_ms(start: CUevent, end: CUevent) -> Result<f32> {
    type Elapsed = unsafe extern "C" fn(*mut f32, CUevent, CUevent) -> CUresult;
    let (name, f) = match unsafe { symbol::<Elapsed>("cuEventElapsedTime_v2") } {
        Some(f) => ("cuEventElapsedTime_v2", f),
        None => match unsafe { symbol::<Elapsed>("cuEventElapsedTime") } {
            Some(f) => ("cuEventElapsedTime", f),
            None => return Err(Error::Unsupported("cuEventElapsedTime")),
        },
    };
    let mut ms = 0f32;
    check(name, unsafe { f(&mut ms, start, end) })?;
    Ok(ms)
}

// ---- device memory ----

/// `cuMemAlloc_v2`.
pub(crate) fn mem_alloc(bytes: usize) -> Result<CUdeviceptr> {
    let mut p = 0;
    unsafe { cu!(cuMemAlloc_v2(&mut p, bytes))? };
    Ok(p)
}

/// `cuMemAllocPitch_v2` as `(address, pitch)`.
pub(crate) fn mem_alloc_pitch(
    row: usize,
    height: usize,
    elem: u32,
) -> Result<(CUdeviceptr, usize)> {
    let (mut p, mut pitch) = (0, 0usize);
    unsafe { cu!(cuMemAllocPitch_v2(&mut p, &mut pitch, row, height, elem))? };
    Ok((p, pitch))
}

/// `cuMemAllocManaged`.
pub(crate) fn mem_alloc_managed(bytes: usize, flags: u32) -> Result<CUdeviceptr> {
    let mut p = 0;
    unsafe { cu!(cuMemAllocManaged(&mut p, bytes, flags))? };
    Ok(p)
}

/// `cuMemFree_v2`.
///
/// # Safety
/// `p` must be a live allocation no queued work uses, not used afterwards.
pub(crate) unsafe fn mem_free(p: CUdeviceptr) -> Result<()> {
    unsafe { cu!(cuMemFree_v2(p)) }
}

/// `cuMemAllocAsync` (the device's default pool).
///
/// # Safety
/// `s` must be a live stream.
pub(crate) unsafe fn mem_alloc_async(bytes: usize, s: CUstream) -> Result<CUdeviceptr> {
    let mut p = 0;
    unsafe { cu!(cuMemAllocAsync(&mut p, bytes, s))? };
    Ok(p)
}

/// `cuMemAllocFromPoolAsync`.
///
/// # Safety
/// `pool` and `s` must be live objects of the current context.
pub(crate) unsafe fn mem_alloc_from_pool_async(
    bytes: usize,
    pool: CUmemoryPool,
    s: CUstream,
) -> Result<CUdeviceptr> {
    let mut p = 0;
    unsafe { cu!(cuMemAllocFromPoolAsync(&mut p, bytes, pool, s))? };
    Ok(p)
}

/// `cuMemFreeAsync`.
///
/// # Safety
/// `p` must be a stream-ordered allocation every use of which is ordered before `s`'s next work.
pub(crate) unsafe fn mem_free_async(p: CUdeviceptr, s: CUstream) -> Result<()> {
    unsafe { cu!(cuMemFreeAsync(p, s)) }
}

/// `cuMemcpyHtoDAsync_v2`.
///
/// # Safety
/// `src` must hold `bytes` readable bytes until the copy completes; `dst` `bytes` device bytes.
pub(crate) unsafe fn memcpy_htod_async(
    dst: CUdeviceptr,
    src: *const c_void,
    bytes: usize,
    s: CUstream,
) -> Result<()> {
    unsafe { cu!(cuMemcpyHtoDAsync_v2(dst, src, bytes, s)) }
}

/// `cuMemcpyDtoHAsync_v2`.
///
/// # Safety
/// `dst` must hold `bytes` writable bytes until the copy completes.
pub(crate) unsafe fn memcpy_dtoh_async(
    dst: *mut c_void,
    src: CUdeviceptr,
    bytes: usize,
    s: CUstream,
) -> Result<()> {
    unsafe { cu!(cuMemcpyDtoHAsync_v2(dst, src, bytes, s)) }
}

/// `cuMemcpyDtoDAsync_v2`.
///
/// # Safety
/// Both ranges must be live device memory of `bytes` bytes.
pub(crate) unsafe fn memcpy_dtod_async(
    dst: CUdeviceptr,
    src: CUdeviceptr,
    bytes: usize,
    s: CUstream,
) -> Result<()> {
    unsafe { cu!(cuMemcpyDtoDAsync_v2(dst, src, bytes, s)) }
}

/// `cuMemcpyDtoH_v2` (synchronous, legacy stream).
///
/// # Safety
/// `dst` must hold `bytes` writable bytes.
pub(crate) unsafe fn memcpy_dtoh(dst: *mut c_void, src: CUdeviceptr, bytes: usize) -> Result<()> {
    unsafe { cu!(cuMemcpyDtoH_v2(dst, src, bytes)) }
}

/// `cuMemcpy2DAsync_v2`.
///
/// # Safety
/// Every address in `p` must be valid for the rows it describes until the copy completes.
pub(crate) unsafe fn memcpy_2d_async(p: &sys::CUDA_MEMCPY2D, s: CUstream) -> Result<()> {
    unsafe { cu!(cuMemcpy2DAsync_v2(p, s)) }
}

/// `cuMemsetD8Async`, `cuMemsetD16Async` or `cuMemsetD32Async` by element size (1, 2 or 4).
///
/// # Safety
/// `dst` must be live device memory of `count` elements.
pub(crate) unsafe fn memset_async(
    dst: CUdeviceptr,
    elem: usize,
    pattern: u32,
    count: usize,
    s: CUstream,
) -> Result<()> {
    unsafe {
        match elem {
            1 => cu!(cuMemsetD8Async(dst, pattern as u8, count, s)),
            2 => cu!(cuMemsetD16Async(dst, pattern as u16, count, s)),
            _ => cu!(cuMemsetD32Async(dst, pattern, count, s)),
        }
    }
}

/// `cuMemPrefetchAsync_v2` (CUDA 12.2+).
///
/// # Safety
/// `p` must be managed memory of `bytes` bytes.
pub(crate) unsafe fn mem_prefetch_async(
    p: CUdeviceptr,
    bytes: usize,
    to: sys::CUmemLocation,
    s: CUstream,
) -> Result<()> {
    if !has_symbol("cuMemPrefetchAsync_v2") {
        return Err(Error::Unsupported(
            "cuMemPrefetchAsync_v2 (needs a CUDA 12.2+ driver)",
        ));
    }
    unsafe { cu!(cuMemPrefetchAsync_v2(p, bytes, to, 0, s)) }
}

/// `cuMemAdvise_v2` (CUDA 12.2+).
///
/// # Safety
/// `p` must be managed memory of `bytes` bytes.
pub(crate) unsafe fn mem_advise(
    p: CUdeviceptr,
    bytes: usize,
    advice: sys::CUmem_advise,
    loc: sys::CUmemLocation,
) -> Result<()> {
    if !has_symbol("cuMemAdvise_v2") {
        return Err(Error::Unsupported(
            "cuMemAdvise_v2 (needs a CUDA 12.2+ driver)",
        ));
    }
    unsafe { cu!(cuMemAdvise_v2(p, bytes, advice, loc)) }
}

// ---- memory pools ----

/// `cuMemPoolCreate`.
pub(crate) fn mem_pool_create(props: &sys::CUmemPoolProps) -> Result<CUmemoryPool> {
    let mut p: CUmemoryPool = std::ptr::null_mut();
    unsafe { cu!(cuMemPoolCreate(&mut p, props))? };
    Ok(p)
}

/// `cuMemPoolDestroy` (outstanding allocations keep the pool until freed).
///
/// # Safety
/// `p` must be a live pool, not used afterwards.
pub(crate) unsafe fn mem_pool_destroy(p: CUmemoryPool) -> Result<()> {
    unsafe { cu!(cuMemPoolDestroy(p)) }
}

/// `cuMemPoolSetAttribute`.
///
/// # Safety
/// `p` must be a live pool; `value` must point at the attribute's type.
pub(crate) unsafe fn mem_pool_set_attribute(
    p: CUmemoryPool,
    a: sys::CUmemPool_attribute,
    value: *mut c_void,
) -> Result<()> {
    unsafe { cu!(cuMemPoolSetAttribute(p, a, value)) }
}

/// `cuMemPoolGetAttribute`.
///
/// # Safety
/// `p` must be a live pool; `value` must point at the attribute's type.
pub(crate) unsafe fn mem_pool_get_attribute(
    p: CUmemoryPool,
    a: sys::CUmemPool_attribute,
    value: *mut c_void,
) -> Result<()> {
    unsafe { cu!(cuMemPoolGetAttribute(p, a, value)) }
}

/// `cuMemPoolTrimTo`.
///
/// # Safety
/// `p` must be a live pool.
pub(crate) unsafe fn mem_pool_trim_to(p: CUmemoryPool, keep: usize) -> Result<()> {
    unsafe { cu!(cuMemPoolTrimTo(p, keep)) }
}

// ---- page-locked host memory ----

/// `cuMemHostAlloc`.
pub(crate) fn mem_host_alloc(bytes: usize, flags: u32) -> Result<*mut c_void> {
    let mut p: *mut c_void = std::ptr::null_mut();
    unsafe { cu!(cuMemHostAlloc(&mut p, bytes, flags))? };
    Ok(p)
}

/// `cuMemFreeHost`.
///
/// # Safety
/// `p` must come from `cuMemHostAlloc` and not be used afterwards.
pub(crate) unsafe fn mem_free_host(p: *mut c_void) -> Result<()> {
    unsafe { cu!(cuMemFreeHost(p)) }
}

/// `cuMemHostRegister_v2`.
///
/// # Safety
/// `p` must point at `bytes` bytes that stay allocated until unregistered.
pub(crate) unsafe fn mem_host_register(p: *mut c_void, bytes: usize, flags: u32) -> Result<()> {
    unsafe { cu!(cuMemHostRegister_v2(p, bytes, flags)) }
}

/// `cuMemHostUnregister`.
///
/// # Safety
/// `p` must be registered.
pub(crate) unsafe fn mem_host_unregister(p: *mut c_void) -> Result<()> {
    unsafe { cu!(cuMemHostUnregister(p)) }
}

/// `cuMemHostGetDevicePointer_v2`.
///
/// # Safety
/// `p` must be mapped page-locked memory.
pub(crate) unsafe fn mem_host_get_device_pointer(p: *mut c_void) -> Result<CUdeviceptr> {
    let mut d = 0;
    unsafe { cu!(cuMemHostGetDevicePointer_v2(&mut d, p, 0))? };
    Ok(d)
}

// ---- modules, functions, launches ----

/// `cuModuleLoadData`.
///
/// # Safety
/// `image` must point at a complete cubin or fatbin image.
pub(crate) unsafe fn module_load_data(image: *const c_void) -> Result<CUmodule> {
    let mut m: CUmodule = std::ptr::null_mut();
    unsafe { cu!(cuModuleLoadData(&mut m, image))? };
    Ok(m)
}

/// `cuModuleLoadDataEx`: the raw code, so the caller can turn a JIT failure into its log.
///
/// # Safety
/// `image` must be NUL-terminated PTX; `opts` and `vals` must pair up as the JIT expects.
pub(crate) unsafe fn module_load_data_ex(
    image: *const c_void,
    opts: &mut [sys::CUjit_option],
    vals: &mut [*mut c_void],
) -> (CUresult, CUmodule) {
    let mut m: CUmodule = std::ptr::null_mut();
    let r = unsafe {
        sys::cuModuleLoadDataEx(
            &mut m,
            image,
            opts.len() as u32,
            opts.as_mut_ptr(),
            vals.as_mut_ptr(),
        )
    };
    (r, m)
}

/// `cuModuleUnload`.
///
/// # Safety
/// `m` must be a live module none of whose functions runs or is used afterwards.
pub(crate) unsafe fn module_unload(m: CUmodule) -> Result<()> {
    unsafe { cu!(cuModuleUnload(m)) }
}

/// `cuModuleGetFunction`.
///
/// # Safety
/// `m` must be a live module.
pub(crate) unsafe fn module_get_function(m: CUmodule, name: &CStr) -> Result<CUfunction> {
    let mut f: CUfunction = std::ptr::null_mut();
    unsafe { cu!(cuModuleGetFunction(&mut f, m, name.as_ptr()))? };
    Ok(f)
}

/// `cuModuleGetGlobal_v2` as `(address, bytes)`; `Ok(None)` when the module lacks the symbol.
///
/// # Safety
/// `m` must be a live module.
pub(crate) unsafe fn module_get_global(
    m: CUmodule,
    name: &CStr,
) -> Result<Option<(CUdeviceptr, usize)>> {
    let (mut p, mut bytes) = (0, 0usize);
    match unsafe { sys::cuModuleGetGlobal_v2(&mut p, &mut bytes, m, name.as_ptr()) } {
        CUresult::CUDA_SUCCESS => Ok(Some((p, bytes))),
        CUresult::CUDA_ERROR_NOT_FOUND => Ok(None),
        e => Err(driver_error("cuModuleGetGlobal_v2", e)),
    }
}

/// `cuFuncGetAttribute`, clamped at 0 (attributes are counts and sizes).
///
/// # Safety
/// `f` must be a live function.
pub(crate) unsafe fn func_get_attribute(
    f: CUfunction,
    a: sys::CUfunction_attribute,
) -> Result<u32> {
    let mut v = 0;
    unsafe { cu!(cuFuncGetAttribute(&mut v, a, f))? };
    Ok(u32::try_from(v).unwrap_or(0))
}

/// `cuFuncSetAttribute`.
///
/// # Safety
/// `f` must be a live function.
pub(crate) unsafe fn func_set_attribute(
    f: CUfunction,
    a: sys::CUfunction_attribute,
    value: i32,
) -> Result<()> {
    unsafe { cu!(cuFuncSetAttribute(f, a, value)) }
}

/// `cuLaunchKernel`.
///
/// # Safety
/// `args` must hold one pointer per parameter of `f`, each to a value of its exact layout; every
/// device address among them must stay valid until the kernel completes.
#[allow(clippy::too_many_arguments)]
#[inline]
pub(crate) unsafe fn launch_kernel(
    f: CUfunction,
    grid: [u32; 3],
    block: [u32; 3],
    shared_mem_bytes: u32,
    s: CUstream,
    args: &mut [*mut c_void],
) -> Result<()> {
    unsafe {
        cu!(cuLaunchKernel(
            f,
            grid[0],
            grid[1],
            grid[2],
            block[0],
            block[1],
            block[2],
            shared_mem_bytes,
            s,
            args.as_mut_ptr(),
            std::ptr::null_mut()
        ))
    }
}

/// `cuOccupancyMaxPotentialBlockSize` as `(min_grid, block)`.
///
/// # Safety
/// `f` must be a live function.
pub(crate) unsafe fn occupancy_max_potential_block_size(
    f: CUfunction,
    dyn_shared: usize,
) -> Result<(u32, u32)> {
    let (mut grid, mut block) = (0i32, 0i32);
    unsafe {
        cu!(cuOccupancyMaxPotentialBlockSize(
            &mut grid, &mut block, f, None, dyn_shared, 0
        ))?
    };
    Ok((
        u32::try_from(grid).unwrap_or(0),
        u32::try_from(block).unwrap_or(0),
    ))
}

/// `cuOccupancyMaxActiveBlocksPerMultiprocessor`.
///
/// # Safety
/// `f` must be a live function.
pub(crate) unsafe fn occupancy_max_active_blocks(
    f: CUfunction,
    block: u32,
    dyn_shared: usize,
) -> Result<u32> {
    let block = to_c_int(block, "threads per block")?;
    let mut n = 0i32;
    unsafe {
        cu!(cuOccupancyMaxActiveBlocksPerMultiprocessor(
            &mut n, f, block, dyn_shared
        ))?
    };
    Ok(u32::try_from(n).unwrap_or(0))
}

/// `cuLinkCreate_v2`.
///
/// # Safety
/// `opts` and `vals` must pair up as the linker expects and outlive the link state.
pub(crate) unsafe fn link_create(
    opts: &mut [sys::CUjit_option],
    vals: &mut [*mut c_void],
) -> Result<sys::CUlinkState> {
    let mut state: sys::CUlinkState = std::ptr::null_mut();
    unsafe {
        cu!(cuLinkCreate_v2(
            opts.len() as u32,
            opts.as_mut_ptr(),
            vals.as_mut_ptr(),
            &mut state
        ))?
    };
    Ok(state)
}

/// `cuLinkAddData_v2` with PTX text: the raw code, so the caller can turn a failure into the log.
///
/// # Safety
/// `state` must be a live link state; `ptx` NUL-terminated.
pub(crate) unsafe fn link_add_ptx(state: sys::CUlinkState, ptx: &CStr, name: &CStr) -> CUresult {
    unsafe {
        sys::cuLinkAddData_v2(
            state,
            sys::CUjitInputType::CU_JIT_INPUT_PTX,
            ptx.as_ptr() as *mut c_void,
            ptx.to_bytes_with_nul().len(),
            name.as_ptr(),
            0,
            std::ptr::null_mut(),
            std::ptr::null_mut(),
        )
    }
}

/// `cuLinkComplete`: the raw code and the image the linker owns until `cuLinkDestroy`.
///
/// # Safety
/// `state` must be a live link state.
pub(crate) unsafe fn link_complete(state: sys::CUlinkState) -> (CUresult, *mut c_void, usize) {
    let mut image: *mut c_void = std::ptr::null_mut();
    let mut size = 0usize;
    let r = unsafe { sys::cuLinkComplete(state, &mut image, &mut size) };
    (r, image, size)
}

/// `cuLinkDestroy`.
///
/// # Safety
/// `state` must be a live link state, not used afterwards.
pub(crate) unsafe fn link_destroy(state: sys::CUlinkState) -> Result<()> {
    unsafe { cu!(cuLinkDestroy(state)) }
}

// ---- graphs and stream capture ----

fn dep_ptr(deps: &[CUgraphNode]) -> *const CUgraphNode {
    if deps.is_empty() {
        std::ptr::null()
    } else {
        deps.as_ptr()
    }
}

/// `cuGraphCreate`.
pub(crate) fn graph_create() -> Result<CUgraph> {
    let mut g = std::ptr::null_mut();
    unsafe { cu!(cuGraphCreate(&mut g, 0))? };
    Ok(g)
}

/// `cuGraphDestroy`.
///
/// # Safety
/// `g` must be a live graph no one uses afterwards.
pub(crate) unsafe fn graph_destroy(g: CUgraph) -> Result<()> {
    unsafe { cu!(cuGraphDestroy(g)) }
}

/// `cuGraphAddKernelNode_v2`.
///
/// # Safety
/// `g` and `deps` live; `p` a valid kernel node description whose argument pointers are readable
/// during the call.
/// `cuGraphKernelNodeSetAttribute`.
///
/// # Safety
/// `n` must be a kernel node of a live graph of the current context.
pub(crate) unsafe fn graph_kernel_node_set_attribute(
    n: CUgraphNode,
    attr: &sys::CUlaunchAttribute,
) -> Result<()> {
    unsafe { cu!(cuGraphKernelNodeSetAttribute(n, attr.id, &attr.value)) }
}

pub(crate) unsafe fn graph_add_kernel_node(
    g: CUgraph,
    deps: &[CUgraphNode],
    p: &sys::CUDA_KERNEL_NODE_PARAMS,
) -> Result<CUgraphNode> {
    let mut n = std::ptr::null_mut();
    unsafe {
        cu!(cuGraphAddKernelNode_v2(
            &mut n,
            g,
            dep_ptr(deps),
            deps.len(),
            p
        ))?
    };
    Ok(n)
}

/// `cuGraphAddEmptyNode`.
///
/// # Safety
/// `g` and `deps` live.
pub(crate) unsafe fn graph_add_empty_node(g: CUgraph, deps: &[CUgraphNode]) -> Result<CUgraphNode> {
    let mut n = std::ptr::null_mut();
    unsafe { cu!(cuGraphAddEmptyNode(&mut n, g, dep_ptr(deps), deps.len()))? };
    Ok(n)
}

/// `cuGraphAddMemcpyNode`.
///
/// # Safety
/// `g`, `deps` and `ctx` live; the memory `p` names valid whenever the node runs.
pub(crate) unsafe fn graph_add_memcpy_node(
    g: CUgraph,
    deps: &[CUgraphNode],
    p: &sys::CUDA_MEMCPY3D,
    ctx: CUcontext,
) -> Result<CUgraphNode> {
    let mut n = std::ptr::null_mut();
    unsafe {
        cu!(cuGraphAddMemcpyNode(
            &mut n,
            g,
            dep_ptr(deps),
            deps.len(),
            p,
            ctx
        ))?
    };
    Ok(n)
}

/// `cuGraphAddMemsetNode`.
///
/// # Safety
/// As for [`graph_add_memcpy_node`].
pub(crate) unsafe fn graph_add_memset_node(
    g: CUgraph,
    deps: &[CUgraphNode],
    p: &sys::CUDA_MEMSET_NODE_PARAMS,
    ctx: CUcontext,
) -> Result<CUgraphNode> {
    let mut n = std::ptr::null_mut();
    unsafe {
        cu!(cuGraphAddMemsetNode(
            &mut n,
            g,
            dep_ptr(deps),
            deps.len(),
            p,
            ctx
        ))?
    };
    Ok(n)
}

/// `cuGraphAddHostNode`.
///
/// # Safety
/// `g` and `deps` live; `p.userData` valid whenever the node runs.
pub(crate) unsafe fn graph_add_host_node(
    g: CUgraph,
    deps: &[CUgraphNode],
    p: &sys::CUDA_HOST_NODE_PARAMS,
) -> Result<CUgraphNode> {
    let mut n = std::ptr::null_mut();
    unsafe { cu!(cuGraphAddHostNode(&mut n, g, dep_ptr(deps), deps.len(), p))? };
    Ok(n)
}

/// `cuGraphAddEventRecordNode` (`record`) or `cuGraphAddEventWaitNode`.
///
/// # Safety
/// `g`, `deps` and `e` live (the event as long as the node may run).
pub(crate) unsafe fn graph_add_event_node(
    g: CUgraph,
    deps: &[CUgraphNode],
    e: CUevent,
    record: bool,
) -> Result<CUgraphNode> {
    let mut n = std::ptr::null_mut();
    unsafe {
        if record {
            cu!(cuGraphAddEventRecordNode(
                &mut n,
                g,
                dep_ptr(deps),
                deps.len(),
                e
            ))?
        } else {
            cu!(cuGraphAddEventWaitNode(
                &mut n,
                g,
                dep_ptr(deps),
                deps.len(),
                e
            ))?
        }
    };
    Ok(n)
}

/// `cuGraphAddChildGraphNode` (the child is cloned into the node).
///
/// # Safety
/// `g`, `deps` and `child` live.
pub(crate) unsafe fn graph_add_child_node(
    g: CUgraph,
    deps: &[CUgraphNode],
    child: CUgraph,
) -> Result<CUgraphNode> {
    let mut n = std::ptr::null_mut();
    unsafe {
        cu!(cuGraphAddChildGraphNode(
            &mut n,
            g,
            dep_ptr(deps),
            deps.len(),
            child
        ))?
    };
    Ok(n)
}

/// `cuGraphAddDependencies_v2` (default edges).
///
/// # Safety
/// `g` and the nodes live, nodes of `g`.
pub(crate) unsafe fn graph_add_dependencies(
    g: CUgraph,
    from: &[CUgraphNode],
    to: &[CUgraphNode],
) -> Result<()> {
    let n = from.len().min(to.len());
    unsafe {
        cu!(cuGraphAddDependencies_v2(
            g,
            from.as_ptr(),
            to.as_ptr(),
            std::ptr::null(),
            n
        ))
    }
}

/// `cuGraphGetNodes`.
///
/// # Safety
/// `g` live.
pub(crate) unsafe fn graph_get_nodes(g: CUgraph) -> Result<Vec<CUgraphNode>> {
    let mut n = 0usize;
    unsafe { cu!(cuGraphGetNodes(g, std::ptr::null_mut(), &mut n))? };
    let mut v = vec![std::ptr::null_mut(); n];
    if n > 0 {
        unsafe { cu!(cuGraphGetNodes(g, v.as_mut_ptr(), &mut n))? };
        v.truncate(n);
    }
    Ok(v)
}

/// `cuGraphDebugDotPrint` (verbose) into `path`.
///
/// # Safety
/// `g` live.
pub(crate) unsafe fn graph_debug_dot_print(g: CUgraph, path: &CStr) -> Result<()> {
    let flags = sys::CUgraphDebugDot_flags::CU_GRAPH_DEBUG_DOT_FLAGS_VERBOSE as u32;
    unsafe { cu!(cuGraphDebugDotPrint(g, path.as_ptr(), flags)) }
}

/// `cuGraphInstantiateWithFlags`.
///
/// # Safety
/// `g` live.
pub(crate) unsafe fn graph_instantiate(g: CUgraph) -> Result<CUgraphExec> {
    let mut e = std::ptr::null_mut();
    unsafe { cu!(cuGraphInstantiateWithFlags(&mut e, g, 0))? };
    Ok(e)
}

/// `cuGraphExecDestroy`.
///
/// # Safety
/// `e` live, used by nothing afterwards (launches already queued complete).
pub(crate) unsafe fn graph_exec_destroy(e: CUgraphExec) -> Result<()> {
    unsafe { cu!(cuGraphExecDestroy(e)) }
}

/// `cuGraphLaunch`.
///
/// # Safety
/// `e` and `s` live, of the same context.
#[inline]
pub(crate) unsafe fn graph_launch(e: CUgraphExec, s: CUstream) -> Result<()> {
    unsafe { cu!(cuGraphLaunch(e, s)) }
}

/// `cuGraphUpload`.
///
/// # Safety
/// As for [`graph_launch`].
pub(crate) unsafe fn graph_upload(e: CUgraphExec, s: CUstream) -> Result<()> {
    unsafe { cu!(cuGraphUpload(e, s)) }
}

/// `cuGraphExecUpdate_v2`: `Ok(None)` when updated, `Ok(Some(result))` with the driver's reason
/// when it refused (`CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE`).
///
/// # Safety
/// `e` and `g` live.
pub(crate) unsafe fn graph_exec_update(
    e: CUgraphExec,
    g: CUgraph,
) -> Result<Option<sys::CUgraphExecUpdateResult>> {
    let mut info: sys::CUgraphExecUpdateResultInfo = unsafe { std::mem::zeroed() };
    let code = unsafe { sys::cuGraphExecUpdate_v2(e, g, &mut info) };
    match code {
        CUresult::CUDA_SUCCESS => Ok(None),
        CUresult::CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE => Ok(Some(info.result)),
        c => Err(driver_error("cuGraphExecUpdate_v2", c)),
    }
}

/// `cuGraphExecKernelNodeSetParams_v2`.
///
/// # Safety
/// As for [`graph_add_kernel_node`]; `n` a kernel node of the graph `e` came from.
pub(crate) unsafe fn graph_exec_kernel_node_set_params(
    e: CUgraphExec,
    n: CUgraphNode,
    p: &sys::CUDA_KERNEL_NODE_PARAMS,
) -> Result<()> {
    unsafe { cu!(cuGraphExecKernelNodeSetParams_v2(e, n, p)) }
}

/// `cuStreamBeginCapture_v2`.
///
/// # Safety
/// `s` live.
pub(crate) unsafe fn stream_begin_capture(
    s: CUstream,
    mode: sys::CUstreamCaptureMode,
) -> Result<()> {
    unsafe { cu!(cuStreamBeginCapture_v2(s, mode)) }
}

/// `cuStreamEndCapture`: the graph, or the error that invalidated the capture.
///
/// # Safety
/// `s` live and capturing.
pub(crate) unsafe fn stream_end_capture(s: CUstream) -> Result<CUgraph> {
    let mut g = std::ptr::null_mut();
    unsafe { cu!(cuStreamEndCapture(s, &mut g))? };
    Ok(g)
}

/// `cuLaunchKernelEx`: a launch with attributes (clusters, programmatic dependent launch).
///
/// # Safety
/// As for [`launch_kernel`]; `config.attrs` points to `config.numAttrs` valid attributes and
/// `config.hStream` is a live stream of the current context.
pub(crate) unsafe fn launch_kernel_ex(
    f: CUfunction,
    config: &sys::CUlaunchConfig,
    args: &mut [*mut c_void],
) -> Result<()> {
    if !has_symbol("cuLaunchKernelEx") {
        return Err(Error::Unsupported(
            "launch attributes (cuLaunchKernelEx needs a CUDA 11.8 or newer driver)",
        ));
    }
    unsafe {
        cu!(cuLaunchKernelEx(
            config,
            f,
            args.as_mut_ptr(),
            std::ptr::null_mut()
        ))
    }
}

/// `cuOccupancyMaxActiveClusters`: clusters of `config`'s shape that can be resident at once.
///
/// # Safety
/// `f` must be a live function; `config` as for [`launch_kernel_ex`] (its stream may be null).
pub(crate) unsafe fn occupancy_max_active_clusters(
    f: CUfunction,
    config: &sys::CUlaunchConfig,
) -> Result<u32> {
    if !has_symbol("cuOccupancyMaxActiveClusters") {
        return Err(Error::Unsupported(
            "cluster occupancy (needs a CUDA 11.8 or newer driver)",
        ));
    }
    let mut n = 0i32;
    unsafe { cu!(cuOccupancyMaxActiveClusters(&mut n, f, config))? };
    Ok(u32::try_from(n).unwrap_or(0))
}

/// `cuOccupancyMaxPotentialClusterSize`: the largest cluster `f` can launch with `config`'s grid,
/// block and shared memory (its cluster attribute is ignored).
///
/// # Safety
/// As for [`occupancy_max_active_clusters`].
pub(crate) unsafe fn occupancy_max_potential_cluster_size(
    f: CUfunction,
    config: &sys::CUlaunchConfig,
) -> Result<u32> {
    if !has_symbol("cuOccupancyMaxPotentialClusterSize") {
        return Err(Error::Unsupported(
            "cluster occupancy (needs a CUDA 11.8 or newer driver)",
        ));
    }
    let mut n = 0i32;
    unsafe { cu!(cuOccupancyMaxPotentialClusterSize(&mut n, f, config))? };
    Ok(u32::try_from(n).unwrap_or(0))
}

/// The driver's encoding of a tiled tensor map (`cuTensorMapEncodeTiled`), from a description
/// `tensor_map` already validated; `strides` are the `rank - 1` byte strides above the first.
#[allow(clippy::too_many_arguments)]
pub(crate) fn tensor_map_encode_tiled(
    data_type: u32,
    rank: u32,
    address: u64,
    dims: &[u64],
    strides: &[u64],
    box_dim: &[u32],
    elem_strides: &[u32],
    modes: [u32; 4],
) -> Result<[u8; 128]> {
    init()?;
    let mut map = std::mem::MaybeUninit::<sys::CUtensorMap>::zeroed();
    let (interleave, swizzle, l2, oob) = tensor_map_modes(modes)?;
    // SAFETY: the arrays hold `rank` (strides `rank - 1`) values, as the call reads; the
    // address is only recorded in the map, not dereferenced.
    unsafe {
        cu!(cuTensorMapEncodeTiled(
            map.as_mut_ptr(),
            tensor_data_type(data_type)?,
            rank,
            address as *mut c_void,
            dims.as_ptr(),
            strides.as_ptr(),
            box_dim.as_ptr(),
            elem_strides.as_ptr(),
            interleave,
            swizzle,
            l2,
            oob,
        ))?;
        Ok(tensor_map_bytes(&map.assume_init()))
    }
}

/// The driver's encoding of an im2col tensor map (`cuTensorMapEncodeIm2col`).
#[allow(clippy::too_many_arguments)]
pub(crate) fn tensor_map_encode_im2col(
    data_type: u32,
    rank: u32,
    address: u64,
    dims: &[u64],
    strides: &[u64],
    lower: &[i32],
    upper: &[i32],
    channels_per_pixel: u32,
    pixels_per_column: u32,
    elem_strides: &[u32],
    modes: [u32; 4],
) -> Result<[u8; 128]> {
    init()?;
    let mut map = std::mem::MaybeUninit::<sys::CUtensorMap>::zeroed();
    let (interleave, swizzle, l2, oob) = tensor_map_modes(modes)?;
    // SAFETY: as for `tensor_map_encode_tiled`; the corners hold `rank - 2` values.
    unsafe {
        cu!(cuTensorMapEncodeIm2col(
            map.as_mut_ptr(),
            tensor_data_type(data_type)?,
            rank,
            address as *mut c_void,
            dims.as_ptr(),
            strides.as_ptr(),
            lower.as_ptr(),
            upper.as_ptr(),
            channels_per_pixel,
            pixels_per_column,
            elem_strides.as_ptr(),
            interleave,
            swizzle,
            l2,
            oob,
        ))?;
        Ok(tensor_map_bytes(&map.assume_init()))
    }
}

fn tensor_map_bytes(map: &sys::CUtensorMap) -> [u8; 128] {
    let mut out = [0u8; 128];
    for (o, w) in out.chunks_exact_mut(8).zip(map.opaque.iter()) {
        o.copy_from_slice(&w.to_le_bytes());
    }
    out
}

fn tensor_data_type(v: u32) -> Result<sys::CUtensorMapDataType> {
    use sys::CUtensorMapDataType as D;
    Ok(match v {
        0 => D::CU_TENSOR_MAP_DATA_TYPE_UINT8,
        1 => D::CU_TENSOR_MAP_DATA_TYPE_UINT16,
        2 => D::CU_TENSOR_MAP_DATA_TYPE_UINT32,
        3 => D::CU_TENSOR_MAP_DATA_TYPE_INT32,
        4 => D::CU_TENSOR_MAP_DATA_TYPE_UINT64,
        5 => D::CU_TENSOR_MAP_DATA_TYPE_INT64,
        6 => D::CU_TENSOR_MAP_DATA_TYPE_FLOAT16,
        7 => D::CU_TENSOR_MAP_DATA_TYPE_FLOAT32,
        8 => D::CU_TENSOR_MAP_DATA_TYPE_FLOAT64,
        9 => D::CU_TENSOR_MAP_DATA_TYPE_BFLOAT16,
        10 => D::CU_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ,
        11 => D::CU_TENSOR_MAP_DATA_TYPE_TFLOAT32,
        12 => D::CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ,
        _ => return Err(Error::InvalidValue(format!("tensor map data type {v}"))),
    })
}

/// Interleave, swizzle, L2 promotion and out-of-bounds fill, from their `CUtensorMap*` values.
fn tensor_map_modes(
    [i, s, l, o]: [u32; 4],
) -> Result<(
    sys::CUtensorMapInterleave,
    sys::CUtensorMapSwizzle,
    sys::CUtensorMapL2promotion,
    sys::CUtensorMapFloatOOBfill,
)> {
    use sys::CUtensorMapFloatOOBfill as O;
    use sys::CUtensorMapInterleave as I;
    use sys::CUtensorMapL2promotion as L;
    use sys::CUtensorMapSwizzle as S;
    let bad = || {
        Error::InvalidValue(format!(
            "tensor map modes interleave={i} swizzle={s} l2={l} oob={o}"
        ))
    };
    Ok((
        match i {
            0 => I::CU_TENSOR_MAP_INTERLEAVE_NONE,
            1 => I::CU_TENSOR_MAP_INTERLEAVE_16B,
            2 => I::CU_TENSOR_MAP_INTERLEAVE_32B,
            _ => return Err(bad()),
        },
        match s {
            0 => S::CU_TENSOR_MAP_SWIZZLE_NONE,
            1 => S::CU_TENSOR_MAP_SWIZZLE_32B,
            2 => S::CU_TENSOR_MAP_SWIZZLE_64B,
            3 => S::CU_TENSOR_MAP_SWIZZLE_128B,
            _ => return Err(bad()),
        },
        match l {
            0 => L::CU_TENSOR_MAP_L2_PROMOTION_NONE,
            1 => L::CU_TENSOR_MAP_L2_PROMOTION_L2_64B,
            2 => L::CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
            3 => L::CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
            _ => return Err(bad()),
        },
        match o {
            0 => O::CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE,
            1 => O::CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA,
            _ => return Err(bad()),
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

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
