//! [`CudaDevice`]: a CUDA device's implementation of [`DeviceOps`], over its [`Core`].

use std::any::Any;
use std::sync::Arc;

use cudarc::driver::sys::{CUlimit, CUstream_flags};
use kernel_compiler::Compiled;

use super::context::Context;
use super::core::Core;
use super::event::CudaEvent;
use super::internal::Internal;
use super::module::load_compiled;
use super::panic_slots::PanicSlots;
use super::properties::query;
use super::result;
use super::stream::CudaStream;
use crate::backend::{
    AsyncCopy, BackendKind, ContextLimit, Copy2d, DeviceOps, EventOps, GraphOps, LoadedKernel,
    PinnedAlloc, StreamOps,
};
use crate::launch::Limits;
use crate::options::{Advice, EventFlags, Location, PinnedFlags, StreamOptions};
use crate::properties::DeviceProperties;
use crate::Result;

/// The CUDA backend of one device.
pub(crate) struct CudaDevice(pub(crate) Arc<Core>);

impl CudaDevice {
    /// Opens CUDA device `ordinal` (the driver is initialized and the ordinal exists).
    pub(crate) fn open(ordinal: usize) -> Result<CudaDevice> {
        let cu = result::device_get(ordinal)?;
        let props = query(cu)?;
        let ctx = Context::retain(cu)?;
        ctx.bind()?;
        let internal = Internal::create(ordinal, props.memory_pools_supported)?;
        let driver_version = result::driver_version()?;
        let limits = Limits::from_properties(&props);
        Ok(CudaDevice(Arc::new(Core {
            ordinal,
            cu,
            ctx,
            props,
            limits,
            panics: PanicSlots::default(),
            driver_version,
            internal,
        })))
    }

    pub(crate) fn core(&self) -> &Arc<Core> {
        &self.0
    }
}

fn cu_limit(l: ContextLimit) -> CUlimit {
    match l {
        ContextLimit::MallocHeap => CUlimit::CU_LIMIT_MALLOC_HEAP_SIZE,
        ContextLimit::PrintfFifo => CUlimit::CU_LIMIT_PRINTF_FIFO_SIZE,
        ContextLimit::PersistingL2 => CUlimit::CU_LIMIT_PERSISTING_L2_CACHE_SIZE,
    }
}

impl DeviceOps for CudaDevice {
    fn kind(&self) -> BackendKind {
        BackendKind::Cuda
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn describe(&self) -> String {
        let c = &self.0;
        format!(
            "cuda, {} (device {}, sm_{}, {} SMs, {:.1} GiB, driver {}.{})",
            c.props.name,
            c.ordinal,
            c.props.sm(),
            c.props.multiprocessor_count,
            c.props.total_memory as f64 / (1u64 << 30) as f64,
            c.driver_version / 1000,
            c.driver_version % 1000 / 10
        )
    }

    fn ordinal(&self) -> usize {
        self.0.ordinal
    }

    fn properties(&self) -> &DeviceProperties {
        &self.0.props
    }

    fn driver_version(&self) -> i32 {
        self.0.driver_version
    }

    fn generation(&self) -> u64 {
        self.0.ctx.generation()
    }

    fn enter(&self, generation: u64) -> Result<()> {
        self.0.enter(generation)
    }

    fn synchronize(&self) -> Result<()> {
        self.0.synchronize()
    }

    fn bind_to_thread(&self) -> Result<()> {
        Context::unbind_cache();
        self.0.ctx.bind()
    }

    fn recover(&self) -> Result<()> {
        let c = &self.0;
        c.panics.forget();
        c.ctx.reset()?;
        // The reset destroyed the runtime's own streams and pool with everything else.
        c.internal
            .recreate(c.ordinal, c.props.memory_pools_supported)
    }

    fn memory_info(&self) -> Result<(usize, usize)> {
        self.0.ctx.bind()?;
        result::mem_get_info()
    }

    fn set_limit(&self, limit: ContextLimit, bytes: usize) -> Result<()> {
        self.0.ctx.bind()?;
        result::ctx_set_limit(cu_limit(limit), bytes)
    }

    fn limit(&self, limit: ContextLimit) -> Result<usize> {
        self.0.ctx.bind()?;
        result::ctx_get_limit(cu_limit(limit))
    }

    fn stream_priority_range(&self) -> Result<(i32, i32)> {
        self.0.ctx.bind()?;
        result::ctx_stream_priority_range()
    }

    fn reset_persisting_l2(&self) -> Result<()> {
        self.0.ctx.bind()?;
        result::ctx_reset_persisting_l2_cache()
    }

    fn encode_tensor_map(&self, m: &kernel_ir::tensor_map::SimTensorMap) -> Result<[u8; 128]> {
        let r = m.rank as usize;
        let dims = &m.dims[..r];
        let strides = &m.strides[1..r];
        let estr: Vec<u32> = m.elem_strides[..r].iter().map(|&v| v as u32).collect();
        let code =
            |bytes: u8, table: &[u8]| table.iter().position(|&b| b == bytes).unwrap_or(0) as u32;
        let modes = [
            code(m.interleave, &[0, 16, 32]),
            code(m.swizzle, &[0, 32, 64, 128]),
            m.l2_promotion as u32,
            m.oob_nan as u32,
        ];
        match m.im2col {
            None => {
                let boxes: Vec<u32> = m.box_dim[..r].iter().map(|&v| v as u32).collect();
                result::tensor_map_encode_tiled(
                    m.data_type as u32,
                    r as u32,
                    m.global_address,
                    dims,
                    strides,
                    &boxes,
                    &estr,
                    modes,
                )
            }
            Some(c) => {
                let lower: Vec<i32> = c.lower[..r - 2].iter().map(|&v| v as i32).collect();
                let upper: Vec<i32> = c.upper[..r - 2].iter().map(|&v| v as i32).collect();
                result::tensor_map_encode_im2col(
                    m.data_type as u32,
                    r as u32,
                    m.global_address,
                    dims,
                    strides,
                    &lower,
                    &upper,
                    c.channels_per_pixel as u32,
                    c.pixels_per_column as u32,
                    &estr,
                    modes,
                )
            }
        }
    }

    fn new_stream(&self, opts: StreamOptions, id: u64) -> Result<Box<dyn StreamOps>> {
        let flags = if opts.non_blocking {
            CUstream_flags::CU_STREAM_NON_BLOCKING
        } else {
            CUstream_flags::CU_STREAM_DEFAULT
        };
        Ok(Box::new(CudaStream::create(
            &self.0,
            flags as u32,
            opts.priority,
            id,
        )?))
    }

    fn new_event(&self, flags: EventFlags) -> Result<Box<dyn EventOps>> {
        Ok(Box::new(CudaEvent::create(&self.0, flags)?))
    }

    fn alloc(&self, bytes: usize) -> Result<(u64, bool)> {
        self.alloc_for_init(bytes)
    }

    fn finish_init(&self) -> Result<()> {
        self.0.wait_work()
    }

    fn free(&self, addr: u64, generation: u64, pooled: bool, after: &[&dyn StreamOps]) {
        self.free_after(addr, generation, pooled, after)
    }

    unsafe fn write(
        &self,
        generation: u64,
        dst: u64,
        src: *const std::ffi::c_void,
        bytes: usize,
        after: &[&dyn StreamOps],
    ) -> Result<()> {
        // SAFETY: the caller's contract.
        self.on_work(generation, bytes, after, |q| unsafe {
            result::memcpy_htod_async(dst, src, bytes, q)
        })
    }

    unsafe fn read(
        &self,
        generation: u64,
        src: u64,
        dst: *mut std::ffi::c_void,
        bytes: usize,
    ) -> Result<()> {
        self.0.enter(generation)?;
        self.0.synchronize()?;
        if bytes == 0 {
            return Ok(());
        }
        // Every stream is idle now and nobody writes this memory (the caller holds it shared), so
        // the legacy stream's synchronous copy races nothing.
        // SAFETY: the caller's contract.
        unsafe { result::memcpy_dtoh(dst, src, bytes) }
    }

    fn copy(
        &self,
        generation: u64,
        dst: u64,
        src: u64,
        bytes: usize,
        after: &[&dyn StreamOps],
    ) -> Result<()> {
        // SAFETY: both ranges are live buffers the caller checked.
        self.on_work(generation, bytes, after, |q| unsafe {
            result::memcpy_dtod_async(dst, src, bytes, q)
        })
    }

    fn fill(
        &self,
        generation: u64,
        dst: u64,
        elem: usize,
        pattern: u32,
        count: usize,
        after: &[&dyn StreamOps],
    ) -> Result<()> {
        // SAFETY: a live buffer of `count` elements the caller checked.
        self.on_work(generation, count, after, |q| unsafe {
            result::memset_async(dst, elem, pattern, count, q)
        })
    }

    unsafe fn copy_2d(
        &self,
        generation: u64,
        copy: &Copy2d,
        after: &[&dyn StreamOps],
    ) -> Result<()> {
        // SAFETY: the caller's contract.
        unsafe { self.copy_2d_on_work(generation, copy, after) }
    }

    fn alloc_on_stream(&self, stream: &dyn StreamOps, bytes: usize) -> Result<u64> {
        self.0.enter(stream.generation())?;
        if bytes == 0 {
            return Ok(0);
        }
        // SAFETY: a live stream of this context.
        unsafe { result::mem_alloc_async(bytes, stream.raw()) }
    }

    fn zero_on_stream(&self, stream: &dyn StreamOps, addr: u64, bytes: usize) -> Result<()> {
        self.0.enter(stream.generation())?;
        if bytes == 0 {
            return Ok(());
        }
        // SAFETY: the caller's fresh allocation of `bytes` bytes.
        unsafe { result::memset_async(addr, 1, 0, bytes, stream.raw()) }
    }

    unsafe fn copy_on_stream(&self, stream: &dyn StreamOps, copy: AsyncCopy) -> Result<()> {
        self.0.enter(stream.generation())?;
        let s = stream.raw();
        // SAFETY: the caller's contract.
        unsafe {
            match copy {
                AsyncCopy::HostToDevice { bytes: 0, .. }
                | AsyncCopy::DeviceToHost { bytes: 0, .. }
                | AsyncCopy::DeviceToDevice { bytes: 0, .. } => Ok(()),
                AsyncCopy::HostToDevice { dst, src, bytes } => {
                    result::memcpy_htod_async(dst, src, bytes, s)
                }
                AsyncCopy::DeviceToHost { dst, src, bytes } => {
                    result::memcpy_dtoh_async(dst, src, bytes, s)
                }
                AsyncCopy::DeviceToDevice { dst, src, bytes } => {
                    result::memcpy_dtod_async(dst, src, bytes, s)
                }
            }
        }
    }

    fn alloc_managed(&self, bytes: usize) -> Result<(u64, *mut u8)> {
        self.managed_alloc(bytes)
    }

    fn prefetch(
        &self,
        addr: u64,
        bytes: usize,
        to: Location,
        stream: &dyn StreamOps,
    ) -> Result<()> {
        self.managed_prefetch(addr, bytes, to, stream)
    }

    fn advise(&self, addr: u64, bytes: usize, advice: Advice) -> Result<()> {
        self.managed_advise(addr, bytes, advice)
    }

    fn alloc_pitched(
        &self,
        row_bytes: usize,
        height: usize,
        elem_size: usize,
    ) -> Result<(u64, usize)> {
        self.pitched_alloc(row_bytes, height, elem_size)
    }

    fn alloc_pinned(&self, bytes: usize, align: usize, flags: PinnedFlags) -> Result<PinnedAlloc> {
        let _ = align; // page-locked allocations are page aligned
        self.pinned_alloc(bytes, flags)
    }

    unsafe fn free_pinned(&self, p: *mut u8, bytes: usize, align: usize, generation: u64) {
        let _ = align;
        if bytes != 0 && self.0.enter(generation).is_ok() {
            // SAFETY: the caller's contract.
            unsafe {
                let _ = result::mem_free_host(p as *mut std::ffi::c_void);
            }
        }
    }

    unsafe fn register_host(
        &self,
        p: *mut u8,
        bytes: usize,
        flags: PinnedFlags,
    ) -> Result<Option<u64>> {
        // SAFETY: the caller's contract.
        unsafe { self.host_register(p, bytes, flags) }
    }

    unsafe fn unregister_host(&self, p: *mut u8, generation: u64) {
        if self.0.enter(generation).is_ok() {
            // SAFETY: the caller's contract.
            unsafe {
                let _ = result::mem_host_unregister(p as *mut std::ffi::c_void);
            }
        }
    }

    fn compile_target(&self) -> (u32, bool) {
        // PTX carries no positions (see `CompileOptions::source_markers`).
        (self.0.props.sm(), false)
    }

    fn new_graph(&self) -> Result<Box<dyn GraphOps>> {
        Ok(Box::new(super::graph::CudaGraph::create(&self.0)?))
    }

    fn load(&self, compiled: &Arc<Compiled>) -> Result<Arc<dyn LoadedKernel>> {
        let module = load_compiled(&self.0, compiled)?;
        // The PTX entry is the kernel name made a valid PTX identifier.
        let name = kernel_compiler::ptx::entry_name(&compiled.kernel.name);
        let f = module.function(&name)?;
        let k = &compiled.kernel;
        let grid_sync = k.uses_grid_sync().then(|| k.display_name.clone());
        Ok(f.with_required_shapes(k.attrs.block_dim, k.attrs.cluster_dims, grid_sync)?)
    }
}
