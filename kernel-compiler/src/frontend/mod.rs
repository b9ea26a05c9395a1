//! Front end: type check, monomorphize, inline device functions, lower the AST to IR.
//!
//! [`lower_kernel`] infers the types of the kernel body ([`infer`]), then walks it once, emitting
//! IR into a stack of open blocks. Each device-function call is inferred for its own generic
//! substitution and lowered in place (inlined) inside an `Inst::Loop`, so `return` is an
//! assignment plus `Break`. Values are flattened as they are produced (module `value`): scalars are
//! operands, structs/tuples lists of values, arrays live in local arrays or memory, slices are
//! (pointer, length) pairs.
//!
//! `f16` / `bf16` arithmetic is done by converting the operands to `f32`, computing in `f32`
//! and rounding back to nearest-even, which is what the `half` crate does on the host for
//! `+ - * /` (single operations are then correctly rounded, since f32 has more than twice the
//! precision of either format). `mul_add` on them rounds twice (f32, then the half type).
//!
//! Supported beyond plain Rust expressions: `for` over ranges (`.rev()`, `.step_by(n)`), arrays
//! and slices (`.iter()`, `.iter_mut()`, `.enumerate()`); `match` on integers, bools, tuples,
//! ranges, constants and or-patterns with guards; references to places (`&mut a[i]`) as aliases,
//! also re-pointed (`let mut r`), returned from device functions and produced by `if`/`match`;
//! slices of global, shared and thread-local arrays; scalar methods (see `methods`).
//!
//! Float math methods (`x.sin()`, `x.powf(y)`...), the math free functions (`rsqrt(x)`...) and
//! float `%` are calls into the math library (`kernel_std::math`), inlined like device functions.
//!
//! Not supported (each is a compile error at the user's span): recursion, closures and
//! iterator adaptors other than the above, `if let` / enums, tuples in device memory, arrays
//! inside the elements of arrays, re-pointing a reference between different arrays or memory
//! spaces.

mod access;
mod assume;
mod async_copy;
mod builtins;
mod bulk;
pub mod consts;
mod custom;
mod emit;
mod heap;
pub mod infer;
mod inline;
pub mod layout;
mod lower_expr;
mod lower_loop;
mod lower_match;
mod lower_place;
mod lower_stmt;
/// The method names device code may call (shared with the macros, which `include!` the file).
pub mod method_names;
mod methods;
mod overflow;
mod print;
mod scope;
pub mod types;
mod value;
mod wmma;

use crate::passes::fx::FxHashMap as HashMap;
use std::rc::Rc;

use crate::error::CompileError;
use crate::options::CompileOptions;
use kernel_ir::ast::{self, FnDef, Span};
use kernel_ir::ir;
use kernel_ir::GenericValue;

use consts::{concrete_type, Env, GBind};
use infer::Types;
use scope::FnCtx;
use types::Ty;

/// A front-end error before it is attributed to a kernel: source file, position, message.
#[derive(Clone, Debug)]
pub struct FErr {
    pub file: &'static str,
    pub span: Span,
    pub msg: String,
}

impl FErr {
    pub fn new(file: &'static str, span: Span, msg: impl Into<String>) -> Self {
        FErr {
            file,
            span,
            msg: msg.into(),
        }
    }
}

pub(crate) type R<T> = Result<T, FErr>;

/// Type checks and lowers one kernel instantiation (`generics` in declaration order) to IR.
pub fn lower_kernel(
    def: &'static FnDef,
    generics: &[GenericValue],
) -> Result<ir::Kernel, CompileError> {
    lower_kernel_with(def, generics, &CompileOptions::default())
}

/// [`lower_kernel`] as `opts` ask: overflow checks forced on or off (`Some`) instead of following
/// the source (see `overflow`), the launch's block shape applied as `#[kernel(block_dim)]` and
/// its dynamic shared memory size as `dynamic_shared`'s length when `opts.specialization`
/// carries them (see `crate::specialize`).
pub fn lower_kernel_with(
    def: &'static FnDef,
    generics: &[GenericValue],
    opts: &CompileOptions,
) -> Result<ir::Kernel, CompileError> {
    let display_name = format!("{}::{}", def.module, def.name);
    lower_kernel_inner(def, generics, &display_name, opts).map_err(|e| CompileError {
        kernel: display_name.clone(),
        file: e.file.to_string(),
        line: e.span.line,
        col: e.span.col,
        message: e.msg,
    })
}

fn lower_kernel_inner(
    def: &'static FnDef,
    generics: &[GenericValue],
    display: &str,
    opts: &CompileOptions,
) -> R<ir::Kernel> {
    let overflow_checks = opts.overflow_checks;
    // The launch's dynamic shared memory size, when the compile is specialized on it (`custom`'s
    // `dynamic_shared` then has a constant length).
    let dyn_shared_bytes = match &def.kind {
        ast::FnKind::Kernel(a) => opts.specialization.dyn_shared.filter(|_| a.specialize),
        ast::FnKind::Device => None,
    };
    let overflow_override = match &def.kind {
        ast::FnKind::Kernel(a) => overflow_checks.or(a.overflow_checks),
        ast::FnKind::Device => overflow_checks,
    };
    let attrs = match &def.kind {
        ast::FnKind::Kernel(a) => ir::KernelAttrs {
            max_threads: a.max_threads,
            min_blocks: a.min_blocks,
            max_registers: a.max_registers,
            // The launch's shape counts exactly as the attribute would: every pass and the PTX
            // (`.reqntid`) read only this field. The attribute and the opt-out win.
            block_dim: a
                .block_dim
                .or(opts.specialization.block.filter(|_| a.specialize)),
            cluster_dims: a.cluster_dims,
        },
        ast::FnKind::Device => {
            return Err(FErr::new(
                def.file,
                def.span,
                format!("`{}` is a device function, not a kernel", def.name),
            ))
        }
    };
    let err = |m: String| FErr::new(def.file, def.span, m);
    if generics.len() != def.generics.len() {
        return Err(err(format!(
            "kernel `{}` has {} generic parameters but {} arguments were given",
            def.name,
            def.generics.len(),
            generics.len()
        )));
    }
    let mut env = Env::default();
    let mut mangled = types::sanitize(def.module);
    mangled.push('$');
    mangled.push_str(&types::sanitize(def.name));
    for (g, v) in def.generics.iter().zip(generics) {
        match (g, v) {
            (ast::Generic::Type { name, .. }, GenericValue::Type(t)) => {
                let t = concrete_type(t).map_err(&err)?;
                mangled.push('$');
                mangled.push_str(&types::mangle(&t));
                env.map.insert(name.clone(), GBind::Type(t));
            }
            (ast::Generic::Const { name, ty }, GenericValue::Const(v)) => {
                let ast::Type::Int(it) = ty else {
                    return Err(err(format!(
                        "const generic `{name}` must have an integer type"
                    )));
                };
                if consts::wrap_int(*v, *it) != *v {
                    return Err(err(format!(
                        "value {v} does not fit the type of const generic `{name}`"
                    )));
                }
                mangled.push('$');
                if *v < 0 {
                    mangled.push('n');
                }
                mangled.push_str(&v.unsigned_abs().to_string());
                env.map.insert(name.clone(), GBind::Const(*v, *it));
            }
            (g, _) => {
                let n = match g {
                    ast::Generic::Type { name, .. } | ast::Generic::Const { name, .. } => name,
                };
                return Err(err(format!(
                    "generic argument for `{n}` is of the wrong kind"
                )));
            }
        }
    }
    let kernel = ir::Kernel {
        name: mangled,
        display_name: display.to_string(),
        params: Vec::new(),
        vars: Vec::new(),
        var_names: Vec::new(),
        arrays: Vec::new(),
        shared: Vec::new(),
        uses_dyn_shared: false,
        panic_sites: Vec::new(),
        body: ir::Block::default(),
        attrs,
        next_loop: 0,
    };
    let mut lw = Lower {
        k: kernel,
        blocks: vec![Vec::new()],
        fns: Vec::new(),
        infer_cache: HashMap::default(),
        shared_sites: HashMap::default(),
        overflow_override,
        sm: opts.sm,
        dyn_shared_bytes,
    };
    lw.lower_kernel_body(def, env)?;
    let body = lw.blocks.pop().unwrap_or_default();
    lw.k.body = ir::Block(body);
    Ok(lw.k)
}

/// The lowering state for one kernel.
pub(crate) struct Lower {
    pub k: ir::Kernel,
    /// Open blocks; instructions go to the last one.
    blocks: Vec<Vec<ir::Inst>>,
    /// The function instances being lowered (kernel first, then inlined callees).
    fns: Vec<FnCtx>,
    infer_cache: HashMap<(usize, String), Rc<Types>>,
    /// Static shared allocations by (call site, substitution).
    shared_sites: HashMap<(usize, String), ir::SharedId>,
    /// Overflow checks for the whole kernel, when its attribute or the compile options say
    /// (see `overflow`).
    overflow_override: Option<bool>,
    /// The target (`CompileOptions::sm`), for the few calls with a better form on newer ones.
    sm: u32,
    /// The dynamic shared memory bytes every launch of this variant has (launch-time
    /// specialization, `crate::specialize`), or `None`: a run-time size.
    dyn_shared_bytes: Option<u32>,
}

impl Lower {
    pub fn emit(&mut self, i: ir::Inst) {
        self.blocks.last_mut().unwrap().push(i);
    }

    /// Marks the user's source position of what is emitted next (a statement, a memory access, a
    /// barrier...), for the simulator's reports. A marker covering nothing is replaced.
    pub fn mark(&mut self, span: Span) {
        let loc = ir::SourceLoc {
            file: self.cx().def.file,
            line: span.line,
            col: span.col,
        };
        let cur = self.blocks.last_mut().unwrap();
        match cur.last_mut() {
            Some(ir::Inst::Loc(l)) => *l = loc,
            _ => cur.push(ir::Inst::Loc(loc)),
        }
    }

    /// Appends a closed block's instructions to the current block.
    pub fn splice(&mut self, b: ir::Block) {
        self.blocks.last_mut().unwrap().extend(b.0);
    }

    pub fn open(&mut self) {
        self.blocks.push(Vec::new());
    }

    pub fn close(&mut self) -> ir::Block {
        ir::Block(self.blocks.pop().unwrap_or_default())
    }

    pub fn cx(&self) -> &FnCtx {
        self.fns.last().unwrap()
    }

    pub fn cx_mut(&mut self) -> &mut FnCtx {
        self.fns.last_mut().unwrap()
    }

    pub fn err(&self, span: Span, msg: impl Into<String>) -> FErr {
        FErr::new(self.cx().def.file, span, msg)
    }

    /// The resolved type of an expression of the current function.
    pub fn ty(&self, e: &ast::Expr) -> Ty {
        self.cx().types.expr(e)
    }

    pub fn var(&mut self, t: ir::Ty) -> ir::Var {
        let v = self.k.new_var(t);
        self.k.var_names.push(String::new());
        v
    }

    pub fn named_var(&mut self, t: ir::Ty, name: &str) -> ir::Var {
        let v = self.k.new_var(t);
        self.k.var_names.push(name.to_string());
        v
    }

    /// Registers a panic site at `span` of the current function.
    pub fn site(&mut self, kind: ir::PanicKind, span: Span) -> ir::SiteId {
        let file = self.cx().def.file.to_string();
        self.k.panic_sites.push(ir::PanicSite {
            kind,
            file,
            line: span.line,
            col: span.col,
        });
        ir::SiteId(self.k.panic_sites.len() as u32 - 1)
    }

    /// Types of a function instance, inferred once per (function, substitution).
    fn types_for(&mut self, def: &'static FnDef, env: &Env) -> R<Rc<Types>> {
        let mut keys: Vec<String> = env.map.iter().map(|(k, v)| format!("{k}={v:?}")).collect();
        keys.sort();
        let key = (def as *const FnDef as usize, keys.join(","));
        if let Some(t) = self.infer_cache.get(&key) {
            return Ok(t.clone());
        }
        let t = Rc::new(infer::infer_fn(def, env)?);
        self.infer_cache.insert(key, t.clone());
        Ok(t)
    }
}
