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

/// Stack of the thread [`compile`] runs on. The front end and the passes recurse along the
/// kernel's expression tree; a long expression (10,000 terms) or deep nesting needs far more than
/// the 2 MiB of a `std::thread` (or the 8 MiB of a main thread) in a crate built at opt-level 0.
/// The memory is reserved, not committed: pages are touched only as deep as a compile goes.
const COMPILE_STACK: usize = 1 << 30;

/// The whole pipeline. Runs on its own thread with a [`COMPILE_STACK`]-sized stack, so that how
/// deep a kernel's expressions go never depends on the stack of the thread that launches it.
pub fn compile(
    def: &'static FnDef,
    generics: &[GenericValue],
    opts: &CompileOptions,
) -> Result<Compiled, CompileError> {
    std::thread::scope(|s| {
        let worker = std::thread::Builder::new()
            .name("ferrocuda-compile".into())
            .stack_size(COMPILE_STACK)
            .spawn_scoped(s, || compile_here(def, generics, opts));
        match worker {
            Ok(handle) => handle
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            // No thread to be had (resource limits): compile on the caller's stack.
            Err(_) => compile_here(def, generics, opts),
        }
    })
}

fn compile_here(
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
            return compile_here(def, generics, &with);
        }
        Err(e) => return Err(e),
    };
    Ok(Compiled { kernel, ptx })
}
