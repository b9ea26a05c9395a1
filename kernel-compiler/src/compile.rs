//! The compiler driver: AST -> IR -> passes -> PTX.
//!
//! `FERROCUDA_PRINT_AFTER=pass[,pass...]` (or `all`; `frontend` is the IR before the first
//! pass) makes every compile in the process print its kernel's IR to stderr after those passes:
//! any test, example or program that compiles kernels can be looked into without changes.

use kernel_ir::ast::FnDef;
use kernel_ir::{ir, GenericValue};

use std::sync::OnceLock;

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
    frontend::lower_kernel_with(def, generics, opts)
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
    let mut kernel = lower_with(def, generics, opts)?;
    if !opts.source_markers {
        passes::util::strip_locs(&mut kernel.body);
    }
    match print_after() {
        Some(pa) => {
            if pa.wants("frontend") {
                eprintln!(
                    "// ---- IR of {} after frontend\n{kernel}",
                    kernel.display_name
                );
            }
            passes::optimize_with(&mut kernel, opts, &mut |pass, k| {
                if pa.wants(pass) {
                    eprintln!("// ---- IR of {} after {pass}\n{k}", k.display_name);
                }
            })
        }
        None => passes::optimize(&mut kernel, opts),
    }
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

/// What `FERROCUDA_PRINT_AFTER` asks for, read once per process (a bad value is reported once
/// and ignored).
fn print_after() -> Option<&'static passes::PrintAfter> {
    static PRINT_AFTER: OnceLock<Option<passes::PrintAfter>> = OnceLock::new();
    PRINT_AFTER
        .get_or_init(|| {
            let spec = std::env::var("FERROCUDA_PRINT_AFTER").ok()?;
            passes::PrintAfter::parse(&spec)
                .map_err(|e| eprintln!("FERROCUDA_PRINT_AFTER: {e}"))
                .ok()
        })
        .as_ref()
}
