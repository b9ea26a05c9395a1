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
}

impl Default for CompileOptions {
    fn default() -> Self {
        CompileOptions {
            sm: 80,
            bounds_checks: true,
            fma_contraction: true,
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
    passes::optimize(&mut kernel, opts);
    let ptx = ptx::emit(&kernel, opts)?;
    Ok(Compiled { kernel, ptx })
}
