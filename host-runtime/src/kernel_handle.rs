//! Per-kernel handles and the launch entry point used by generated launchers.

use std::ffi::c_void;
use std::sync::Arc;

use kernel_compiler::Compiled;
use kernel_ir::ast::FnDef;
use kernel_std::api::Dim3;

use crate::cuda::CudaFunction;
use crate::kernel_cache::{Entry, KernelCache};
use crate::launch::LaunchError;
use crate::launch_api::{GenericsFn, InstanceKey};
use crate::{Device, Error, Function, LaunchConfig, Result, Stream};

/// One per `#[kernel]`: its definition plus the cache of compiled instantiations.
pub struct KernelHandle {
    /// Returns the kernel's AST (built by the macro).
    pub def: fn() -> &'static FnDef,
    /// Compiled instantiations per device.
    pub cache: KernelCache,
}

impl KernelHandle {
    /// A handle for a kernel definition (const, for `static` items in generated code).
    pub const fn new(def: fn() -> &'static FnDef) -> Self {
        KernelHandle {
            def,
            cache: KernelCache::new(),
        }
    }
}

/// Launches one instantiation of a kernel. `args` holds one pointer per user parameter.
///
/// The first launch of an instantiation on a device compiles it and has the device's backend load
/// it; later launches cost a cache lookup, the validation, and the backend's launch
/// (`cuLaunchKernel` on a GPU). Generated launchers guarantee that `args` match the kernel's
/// parameters (they build them from the typed signature).
#[inline]
pub fn launch_kernel(
    stream: &Stream,
    kernel: &'static KernelHandle,
    key: &InstanceKey<'_>,
    generics: GenericsFn<'_>,
    cfg: LaunchConfig,
    args: &mut [*mut c_void],
) -> Result<()> {
    let entry = launch_entry(stream.device(), kernel, key, generics, &cfg)?;
    if args.len() != entry.param_count {
        return Err(LaunchError::ArgCount {
            expected: entry.param_count,
            got: args.len(),
        }
        .into());
    }
    // SAFETY: the argument count matches; the generated launcher built each pointer from the
    // kernel's typed signature.
    unsafe { entry.kernel.launch(stream.ops(), &cfg, args) }
}

/// The cache entry a launch of an instantiation with `cfg` runs on `device`: the variant for its
/// block shape and dynamic shared memory size (launch-time specialization), compiled and loaded
/// on a miss.
#[inline]
pub(crate) fn launch_entry(
    device: &Device,
    kernel: &'static KernelHandle,
    key: &InstanceKey<'_>,
    generics: GenericsFn<'_>,
    cfg: &LaunchConfig,
) -> Result<&'static Entry> {
    let b = cfg.block;
    kernel.cache.get(
        device,
        kernel.def,
        key,
        generics,
        Some([b.x, b.y, b.z]),
        Some(cfg.shared_mem_bytes),
    )
}

/// The cache entry of an instantiation on `device` for a launch with `block` (`None`: the general
/// variant) and any dynamic shared memory size, compiled and loaded on a miss.
#[inline]
pub(crate) fn entry(
    device: &Device,
    kernel: &'static KernelHandle,
    key: &InstanceKey<'_>,
    generics: GenericsFn<'_>,
    block: Option<[u32; 3]>,
) -> Result<&'static Entry> {
    kernel
        .cache
        .get(device, kernel.def, key, generics, block, None)
}

/// The loaded function of one instantiation of a kernel on `device` (compiling it if needed): the
/// raw handle benchmarks and occupancy queries use. Non-generic kernels pass
/// `&InstanceKey::EMPTY` and `&Vec::new`. `block` picks the variant: `Some(shape)` is the one a
/// launch with that block shape runs (its PTX may require that shape, `.reqntid`), `None` the
/// general variant, valid for any shape (what occupancy queries want).
/// `Err(Unsupported)` on the simulator, which runs the IR.
pub fn kernel_function(
    device: &Device,
    kernel: &'static KernelHandle,
    key: &InstanceKey<'_>,
    generics: GenericsFn<'_>,
    block: Option<Dim3>,
) -> Result<Function> {
    device
        .cuda_backend()
        .map_err(|_| Error::Unsupported("loaded functions on the simulator (it runs the IR)"))?;
    let loaded = entry(device, kernel, key, generics, block.map(axes))?
        .kernel
        .clone();
    let f = loaded
        .into_any()
        .downcast::<CudaFunction>()
        .map_err(|_| Error::Unsupported("a CUDA entry without a loaded function"))?;
    Ok(Function::new(device, f))
}

/// The compiled form (optimized IR and PTX) of one instantiation as loaded on `device`: the
/// variant a launch with block shape `block` runs, or the general one (`None`), as for
/// [`kernel_function`].
pub fn compiled_kernel(
    device: &Device,
    kernel: &'static KernelHandle,
    key: &InstanceKey<'_>,
    generics: GenericsFn<'_>,
    block: Option<Dim3>,
) -> Result<Arc<Compiled>> {
    Ok(entry(device, kernel, key, generics, block.map(axes))?
        .compiled
        .clone())
}

fn axes(d: Dim3) -> [u32; 3] {
    [d.x, d.y, d.z]
}

pub use crate::sim::param_bytes;

#[cfg(test)]
mod tests {
    use super::*;
    use kernel_ir::ir::{Block, Kernel, KernelAttrs, Param, ParamKind};

    fn kernel(params: &[(u32, ParamKind)]) -> Kernel {
        Kernel {
            name: "k".into(),
            display_name: "m::k".into(),
            params: params
                .iter()
                .enumerate()
                .map(|(i, &(size, kind))| Param {
                    name: format!("p{i}"),
                    size,
                    align: size.min(8),
                    kind,
                    pieces: vec![],
                })
                .collect(),
            vars: vec![],
            var_names: vec![],
            arrays: vec![],
            shared: vec![],
            uses_dyn_shared: false,
            panic_sites: vec![],
            body: Block::default(),
            attrs: KernelAttrs::default(),
            next_loop: 0,
        }
    }

    #[test]
    fn param_bytes_are_sized_by_the_ir() {
        let k = kernel(&[
            (4, ParamKind::Scalar),
            (
                16,
                ParamKind::Slice {
                    readonly: true,
                    elem_bytes: 4,
                    ptr_align: 4,
                },
            ),
        ]);
        let mut a = 2.5f32;
        let mut s = crate::SliceArg {
            ptr: 0x1000,
            len: 7,
        };
        let args = [
            &mut a as *mut f32 as *mut c_void,
            &mut s as *mut crate::SliceArg as *mut c_void,
        ];
        let bytes = unsafe { param_bytes(&k, &args) }.unwrap();
        assert_eq!(bytes[0], &2.5f32.to_ne_bytes());
        assert_eq!(bytes[1].len(), 16);
        assert_eq!(&bytes[1][..8], &0x1000u64.to_ne_bytes());
        assert_eq!(&bytes[1][8..], &7u64.to_ne_bytes());
        assert!(matches!(
            unsafe { param_bytes(&k, &args[..1]) },
            Err(Error::InvalidLaunch(LaunchError::ArgCount {
                expected: 2,
                got: 1
            }))
        ));
    }

    #[test]
    fn handles_are_const() {
        fn def() -> &'static FnDef {
            unreachable!("never called by this test")
        }
        static H: KernelHandle = KernelHandle::new(def);
        assert!(std::ptr::fn_addr_eq(H.def, def as fn() -> &'static FnDef));
    }
}
