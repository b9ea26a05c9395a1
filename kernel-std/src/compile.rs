//! The compiler driver: AST -> IR -> passes -> PTX, with options and the instantiation key.

use crate::ast::{FnDef, Type};
use crate::error::CompileError;
use crate::{frontend, ir, passes, ptx};

/// A generic argument of a kernel instantiation: `T = f32`, `TILE = 32`.
#[derive(Clone, Debug)]
pub enum GenericValue {
    Type(Type),
    Const(i128),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CompileOptions {
    /// Target compute capability as `major * 10 + minor` (70, 80, 90...).
    pub sm: u32,
    /// Keep bounds checks the compiler cannot prove redundant (on by default; the benchmark turns
    /// them off to measure their cost).
    pub bounds_checks: bool,
    /// Contract `a * b + c` into one fused multiply-add (nvcc's default `--fmad=true`).
    pub fma_contraction: bool,
    /// Keep the source markers (`ir::Inst::Loc`) in the optimized IR. The simulator needs them
    /// to name the statement of a race or an out-of-bounds access; PTX carries no positions, so
    /// a compile for a GPU drops them right after lowering: after unrolling they are a quarter
    /// of the instructions every pass walks. The optimizer ignores them (the same IR either way:
    /// `host-runtime/tests/loc_markers.rs`), and an emission error is reported with them.
    pub source_markers: bool,
}

impl Default for CompileOptions {
    fn default() -> Self {
        CompileOptions {
            sm: 80,
            bounds_checks: true,
            fma_contraction: true,
            source_markers: true,
        }
    }
}

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

/// The whole pipeline.
pub fn compile(
    def: &'static FnDef,
    generics: &[GenericValue],
    opts: &CompileOptions,
) -> Result<Compiled, CompileError> {
    let mut kernel = lower(def, generics)?;
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
