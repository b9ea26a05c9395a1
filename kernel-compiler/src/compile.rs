//! The compiler driver: AST -> IR -> passes -> PTX.

use kernel_ir::ast::FnDef;
use kernel_ir::{ir, GenericValue};

use crate::error::CompileError;
use crate::options::CompileOptions;
use crate::{frontend, passes, ptx};

/// A compiled kernel instantiation.
#[derive(Clone, Debug)]
pub struct Compiled {
    /// The optimized IR: what the simulator runs and what the PTX was emitted from.
    pub kernel: ir::Kernel,
    pub ptx: String,
}

/// Front end only: type check, monomorphize, inline, lower to IR (the `ir` dump stage).
pub fn lower(def: &'static FnDef, generics: &[GenericValue]) -> Result<ir::Kernel, CompileError> {
    frontend::lower_kernel(def, generics)
}

/// [`lower`] as [`compile`] does it with `opts` (which may force overflow checks).
pub fn lower_with(
    def: &'static FnDef,
    generics: &[GenericValue],
    opts: &CompileOptions,
) -> Result<ir::Kernel, CompileError> {
    frontend::lower_kernel_with(def, generics, opts.overflow_checks)
}

/// The whole pipeline.
pub fn compile(
    def: &'static FnDef,
    generics: &[GenericValue],
    opts: &CompileOptions,
) -> Result<Compiled, CompileError> {
    let mut kernel = lower_with(def, generics, opts)?;
    if !opts.source_markers {
        passes::util::strip_locs(&mut kernel.body);
    }
    passes::optimize(&mut kernel, opts);
    let ptx = match ptx::emit(&kernel, opts) {
        Ok(ptx) => ptx,
        // The emitter's errors (an intrinsic the target lacks) name the user's line, which only
        // the markers know: compile once more with them for the message.
        Err(_) if !opts.source_markers => {
            let with = CompileOptions {
                source_markers: true,
                ..opts.clone()
            };
            return compile(def, generics, &with);
        }
        Err(e) => return Err(e),
    };
    Ok(Compiled { kernel, ptx })
}
