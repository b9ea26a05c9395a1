//! Per-kernel handles and the launch entry point used by generated launchers.

use std::ffi::c_void;

use kernel_std::ast::FnDef;

use crate::launch_api::{GenericsFn, InstanceKey};
use crate::{Error, LaunchConfig, Result, Stream};

/// One per `#[kernel]`: its definition plus the cache of compiled instantiations.
pub struct KernelHandle {
    pub def: fn() -> &'static FnDef,
}

impl KernelHandle {
    pub const fn new(def: fn() -> &'static FnDef) -> Self {
        KernelHandle { def }
    }
}

/// Launches one instantiation of a kernel. `args` holds one pointer per user parameter.
pub fn launch_kernel(
    _stream: &Stream,
    _kernel: &'static KernelHandle,
    _key: &InstanceKey<'_>,
    _generics: GenericsFn<'_>,
    _cfg: LaunchConfig,
    _args: &mut [*mut c_void],
) -> Result<()> {
    Err(Error::Unsupported("launch"))
}
