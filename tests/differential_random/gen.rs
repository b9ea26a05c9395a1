//! The random kernel generator: a seed becomes a well-typed, race-free `#[kernel]` as a
//! `kernel_ir::ast::FnDef` (no rustc involved), with its launch shape and input data.
//!
//! What it writes, and the rules that keep every program's result defined and independent of
//! thread order (so the host reference can run threads one after another):
//! - integer arithmetic of every width and signedness through Rust's wrapping methods
//!   (`wrapping_add`...), bitwise operators, shifts by masked amounts, division and remainder by
//!   divisors forced nonzero (and, for signed types, never `MIN / -1`), bit counts, rotations,
//!   `min`/`max`/`clamp`/`abs_diff`/`saturating_*`/`signum`/`div_ceil`; `as` casts between every
//!   pair of scalar types; f32/f64 `+ - * / %`, `mul_add`, `sqrt`, rounding, `recip`, `fract`,
//!   `signum`, `min`/`max`; f16/bf16 arithmetic through `from_f32`/`to_f32`;
//! - `if`/`else`, `match` (literals, `|`, ranges, guards), block expressions, `for` over ranges
//!   (`..`, `..=`, `.rev()`, `.step_by(n)`), `while`, `loop` with `break value`, labels, `break` and
//!   `continue`, all with data-dependent trip counts bounded by masks;
//! - local arrays indexed by data (`% N`);
//! - each thread writes only its own output slots; global atomics go to slots that receive one
//!   kind of operation each (so their order does not matter), float adds only add small integers
//!   (exact sums), and only a thread's private slot returns its old value;
//! - shared memory in phases between `sync_threads()` barriers: in each phase an array is either
//!   written (each thread its own slot), read (any slot), or updated by one commutative atomic
//!   operation; every array is fully written before its first read;
//! - barriers and warp collectives (shuffles, votes, `reduce_*_sync`, `match_*_sync`,
//!   `sync_threads_count/and/or`) only at the kernel's top level, where every thread of every
//!   full warp arrives, all with the full mask; blocks are whole warps.
//! - a kernel of the panic family has exactly one operation that may panic (an unchecked divisor
//!   or an unmasked index) and no barriers or collectives, so every backend reports the same site.

use ferrocuda::kernel_ir::ast::*;
use ferrocuda::kernel_std::api as dev;

use crate::rng::Rng;
use crate::syntax::*;

/// Elements each thread may write in each output slice.
pub const SLOTS: usize = 4;
/// Contended atomic slots at the start of each atomic slice (4 groups of 4, one operation each);
/// thread `tid`'s private slot follows at `ATOMIC_SHARED + tid`.
pub const ATOMIC_SHARED: usize = 16;
const INP_LEN: usize = 64;
const FIN_LEN: usize = 32;
const MAX_DEPTH: u32 = 3;

/// What a kernel may contain.
#[derive(Clone, Copy, Debug)]
pub struct Features {
    pub shared: bool,
    pub warp: bool,
    pub atomics: bool,
    pub half: bool,
    /// Float `min`/`max` (Rust leaves the sign of a zero result unspecified, so the rustc check
    /// leaves them out).
    pub float_minmax: bool,
    /// One operation that may panic.
    pub panic_site: bool,
    /// Math-library functions (`sin`, `powf`...), stored straight into a float output whose
    /// comparison allows the function's documented error ([`MATH`]).
    pub math: bool,
    /// Declare every parameter of the catalogue, used or not (one host signature for all).
    pub all_params: bool,
}

/// Math functions the generator calls, with the error allowed against the host's result: CUDA's
/// documented maximum (docs/math-ulp.md) plus the reference's own (glibc's f64 functions: the
/// table's "reference allowance" column for f64; for f32, computed in f64 and rounded once, 1 ulp
/// of margin). Their results go only to outputs.
pub const MATH: [(&str, u32, u32, u32); 22] = [
    // (method, arguments, f32 ulps, f64 ulps)
    ("sin", 1, 3, 2),
    ("cos", 1, 3, 2),
    ("tan", 1, 5, 3),
    ("exp", 1, 3, 2),
    ("exp2", 1, 3, 2),
    ("exp_m1", 1, 2, 2),
    ("ln", 1, 2, 2),
    ("log2", 1, 2, 2),
    ("log10", 1, 3, 3),
    ("ln_1p", 1, 2, 2),
    ("cbrt", 1, 2, 5),
    ("asin", 1, 5, 3),
    ("acos", 1, 4, 2),
    ("atan", 1, 3, 3),
    ("sinh", 1, 4, 3),
    ("cosh", 1, 3, 3),
    ("tanh", 1, 3, 3),
    ("asinh", 1, 4, 4),
    ("atan2", 2, 4, 3),
    ("hypot", 2, 4, 3),
    ("powf", 2, 9, 3),
    ("acosh", 1, 5, 4),
];

impl Features {
    /// The mix of the differential run: a seed picks the family.
    pub fn for_seed(rng: &mut Rng) -> Features {
        let panic_site = rng.chance(1, 12);
        Features {
            shared: !panic_site && rng.chance(1, 2),
            warp: !panic_site && rng.chance(1, 2),
            atomics: rng.chance(2, 3),
            half: rng.chance(1, 3),
            float_minmax: true,
            panic_site,
            math: rng.chance(1, 3),
            all_params: false,
        }
    }

    /// Kernels a plain host function can run thread by thread.
    pub fn host_checkable() -> Features {
        Features {
            shared: false,
            warp: false,
            atomics: true,
            half: true,
            float_minmax: false,
            panic_site: false,
            // The reference computes them with glibc, not with Rust's methods, whose `acosh`
            // (for one) overflows where the device and glibc do not.
            math: false,
            all_params: true,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    Input,
    Output,
    Atomic,
}

#[derive(Clone, Debug)]
pub struct ParamSpec {
    pub name: &'static str,
    pub elem: Sc,
    pub len: usize,
    pub role: Role,
}

/// The parameter catalogue, in declaration order: inputs, per-type outputs, atomic targets.
pub const CATALOGUE: [(&str, Sc, Role); 15] = [
    ("inp", Sc::I(IntTy::U64), Role::Input),
    ("fin", Sc::F(FloatTy::F32), Role::Input),
    ("din", Sc::F(FloatTy::F64), Role::Input),
    ("o8", Sc::I(IntTy::U8), Role::Output),
    ("o16", Sc::I(IntTy::I16), Role::Output),
    ("o32", Sc::I(IntTy::U32), Role::Output),
    ("o64", Sc::I(IntTy::I64), Role::Output),
    ("of", Sc::F(FloatTy::F32), Role::Output),
    ("od", Sc::F(FloatTy::F64), Role::Output),
    ("ga", Sc::I(IntTy::U32), Role::Atomic),
    ("gi", Sc::I(IntTy::I32), Role::Atomic),
    ("gu", Sc::I(IntTy::U64), Role::Atomic),
    ("gl", Sc::I(IntTy::I64), Role::Atomic),
    ("gf", Sc::F(FloatTy::F32), Role::Atomic),
    ("gd", Sc::F(FloatTy::F64), Role::Atomic),
];

/// A generated kernel with everything needed to run it.
#[derive(Clone)]
pub struct Case {
    pub seed: u64,
    /// The kernel, its spans set by the printer (leaked: the compiler takes `&'static FnDef`).
    pub def: &'static FnDef,
    /// `#[kernel]` source whose positions the spans name.
    pub source: String,
    pub grid: u32,
    pub block: u32,
    pub params: Vec<ParamSpec>,
    /// Initial contents of each parameter's slice, little-endian.
    pub init: Vec<Vec<u8>>,
    pub features: Features,
    /// Output slots (parameter, slot within a thread's `SLOTS`) a math function wrote, with the
    /// ulps the comparison with the reference allows there.
    pub tolerance: Vec<(&'static str, usize, u32)>,
}

impl Case {
    pub fn threads(&self) -> usize {
        (self.grid * self.block) as usize
    }
}

/// A commutative (per slot) atomic operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomOp {
    Add,
    Sub,
    And,
    Or,
    Xor,
    Min,
    Max,
    Inc(u32),
    Dec(u32),
    Exch,
    Cas,
}

impl AtomOp {
    pub fn name(self) -> &'static str {
        match self {
            AtomOp::Add => "atomic_add",
            AtomOp::Sub => "atomic_sub",
            AtomOp::And => "atomic_and",
            AtomOp::Or => "atomic_or",
            AtomOp::Xor => "atomic_xor",
            AtomOp::Min => "atomic_min",
            AtomOp::Max => "atomic_max",
            AtomOp::Inc(_) => "atomic_inc",
            AtomOp::Dec(_) => "atomic_dec",
            AtomOp::Exch => "atomic_exch",
            AtomOp::Cas => "atomic_cas",
        }
    }
}

/// The path and companion resolver of a device intrinsic, as `#[kernel]` would emit them.
pub fn intrinsic(name: &str) -> (&'static str, fn() -> Callable) {
    macro_rules! table {
        ($($n:ident),*) => {
            match name {
                $(stringify!($n) => (stringify!($n), dev::$n::__fc_callable as fn() -> Callable),)*
                _ => panic!("no intrinsic `{name}` in the generator's table"),
            }
        };
    }
    table!(
        thread_idx,
        block_idx,
        block_dim,
        grid_dim,
        lane_id,
        warp_size,
        sync_threads,
        sync_threads_count,
        sync_threads_and,
        sync_threads_or,
        shared_array,
        all_sync,
        any_sync,
        ballot_sync,
        sync_warp,
        shfl_sync,
        shfl_up_sync,
        shfl_down_sync,
        shfl_xor_sync,
        match_any_sync,
        match_all_sync,
        reduce_add_sync,
        reduce_min_sync,
        reduce_max_sync,
        reduce_and_sync,
        reduce_or_sync,
        reduce_xor_sync,
        atomic_add,
        atomic_sub,
        atomic_and,
        atomic_or,
        atomic_xor,
        atomic_min,
        atomic_max,
        atomic_inc,
        atomic_dec,
        atomic_exch,
        atomic_cas
    )
}

pub fn icall(name: &str, args: Vec<Expr>) -> Expr {
    let (p, r) = intrinsic(name);
    call(p, r, args)
}

#[derive(Clone, Debug)]
enum VarKind {
    Scalar(Sc),
    Local(Sc, usize),
    Shared,
}

#[derive(Clone, Debug)]
struct Var {
    name: String,
    kind: VarKind,
    /// Whether random assignments may target it (loop counters are `mut` but not assignable).
    assignable: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Write,
    Read,
    Atomic(AtomOp),
}

#[derive(Clone, Debug)]
struct SharedArr {
    name: String,
    elem: Sc,
    len: usize,
    mode: Mode,
}

#[derive(Clone, Debug)]
struct LoopCtx {
    label: Option<String>,
    value: Option<Sc>,
}

struct Gen {
    rng: Rng,
    f: Features,
    block: u32,
    scopes: Vec<Vec<Var>>,
    counter: u32,
    used: [bool; CATALOGUE.len()],
    shared: Vec<SharedArr>,
    loops: Vec<LoopCtx>,
    panic_left: bool,
    /// The operation of each contended group of each atomic parameter.
    atom_ops: [[AtomOp; 4]; CATALOGUE.len()],
    budget: i32,
    tolerance: Vec<(&'static str, usize, u32)>,
}

const FULL: u32 = 0xffff_ffff;

/// Generates the kernel of `seed` with `features` (the family) and its data.
pub fn generate(seed: u64, features: Features) -> Case {
    let mut rng = Rng::new(seed);
    let block = 32 * rng.pick(&[1u32, 1, 2, 2, 3, 4]);
    let grid = rng.pick(&[1u32, 1, 2, 3]);
    let threads = (block * grid) as usize;
    let mut atom_ops = [[AtomOp::Add; 4]; CATALOGUE.len()];
    for (ops, (_, elem, role)) in atom_ops.iter_mut().zip(&CATALOGUE) {
        if *role != Role::Atomic {
            continue;
        }
        for op in ops.iter_mut() {
            *op = random_atomic(&mut rng, *elem);
        }
    }
    let budget = 10 + rng.below(30) as i32;
    let mut g = Gen {
        rng,
        f: features,
        block,
        scopes: vec![vec![]],
        counter: 0,
        used: [false; CATALOGUE.len()],
        shared: vec![],
        loops: vec![],
        panic_left: features.panic_site,
        atom_ops,
        budget,
        tolerance: vec![],
    };
    let body = g.kernel_body();
    if features.all_params {
        g.used = [true; CATALOGUE.len()];
    }
    let mut params = Vec::new();
    let mut specs = Vec::new();
    let mut init = Vec::new();
    for (i, &(name, elem, role)) in CATALOGUE.iter().enumerate() {
        if !g.used[i] {
            continue;
        }
        let len = match role {
            Role::Input if name == "inp" => INP_LEN,
            Role::Input => FIN_LEN,
            Role::Output => threads * SLOTS,
            Role::Atomic => ATOMIC_SHARED + threads,
        };
        params.push(Param {
            name: name.into(),
            mutable: false,
            ty: slice_ty(elem, role != Role::Input),
            span: Span::default(),
        });
        init.push(initial_data(&mut g.rng, name, elem, role, len));
        specs.push(ParamSpec {
            name,
            elem,
            len,
            role,
        });
    }
    let name: &'static str = Box::leak(format!("k_{seed:016x}").into_boxed_str());
    let file: &'static str = Box::leak(format!("{name}.rs").into_boxed_str());
    let mut def = FnDef {
        name,
        module: "differential_random",
        file,
        span: Span::default(),
        kind: FnKind::Kernel(KernelAttrs::default()),
        generics: vec![],
        params,
        ret: Type::Unit,
        body,
        // The generated arithmetic wraps explicitly (`wrapping_*`); no operator may panic.
        overflow_checks: false,
    };
    let source = crate::print::print_kernel(&mut def, true);
    Case {
        seed,
        def: Box::leak(Box::new(def)),
        source,
        grid,
        block,
        params: specs,
        init,
        features,
        tolerance: g.tolerance,
    }
}

fn random_atomic(rng: &mut Rng, elem: Sc) -> AtomOp {
    match elem {
        Sc::F(_) => rng.pick(&[AtomOp::Add, AtomOp::Add, AtomOp::Min, AtomOp::Max]),
        Sc::I(IntTy::U32) => match rng.below(9) {
            7 => AtomOp::Inc(rng.pick(&[0, 1, 5, 100, u32::MAX])),
            8 => AtomOp::Dec(rng.pick(&[0, 1, 5, 100, u32::MAX])),
            _ => random_int_atomic(rng),
        },
        _ => random_int_atomic(rng),
    }
}

fn random_int_atomic(rng: &mut Rng) -> AtomOp {
    rng.pick(&[
        AtomOp::Add,
        AtomOp::Sub,
        AtomOp::And,
        AtomOp::Or,
        AtomOp::Xor,
        AtomOp::Min,
        AtomOp::Max,
    ])
}

/// Interesting bit patterns for integers.
fn int_bits(rng: &mut Rng) -> u64 {
    match rng.below(8) {
        0 => rng.pick(&[0u64, 1, 2, 3, 7, 0x80, 0xff, 0x7fff, 0x8000]),
        1 => rng.pick(&[u64::MAX, u64::MAX - 1, 1 << 63, (1 << 63) - 1, 0xffff_ffff]),
        2 => 1u64 << rng.below(64),
        3 => (1u64 << rng.below(64)).wrapping_sub(1),
        4 => rng.below(32),
        5 => (rng.below(256) as i64 - 128) as u64,
        _ => rng.next_u64(),
    }
}

/// Interesting f64 values (also used, rounded, for f32).
fn float_value(rng: &mut Rng) -> f64 {
    match rng.below(10) {
        0 => rng.pick(&[
            0.0,
            -0.0,
            1.0,
            -1.0,
            0.5,
            -2.5,
            3.5,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
        ]),
        1 => rng.pick(&[
            f64::MAX,
            f64::MIN_POSITIVE,
            5e-324,
            f32::MAX as f64,
            f32::MIN_POSITIVE as f64,
            1e-45,
            65504.0,
            2147483647.0,
            2147483648.0,
            -2147483649.0,
            4294967296.0,
            9.223372036854776e18,
            1.8446744073709552e19,
        ]),
        2 => f64::from_bits(rng.next_u64()),
        3 => (rng.below(2001) as f64 - 1000.0) / 8.0,
        4 => (rng.below(100) as f64) + 0.5,
        _ => {
            let m = rng.below(1 << 20) as f64 - (1 << 19) as f64;
            m * 2f64.powi(rng.below(80) as i32 - 40)
        }
    }
}

fn initial_data(rng: &mut Rng, name: &str, elem: Sc, role: Role, len: usize) -> Vec<u8> {
    let mut out = Vec::new();
    for _ in 0..len {
        match (elem, role) {
            (Sc::I(t), Role::Input) => push_int(&mut out, t, int_bits(rng)),
            (Sc::F(FloatTy::F32), Role::Input) => {
                out.extend_from_slice(&(float_value(rng) as f32).to_le_bytes())
            }
            (Sc::F(FloatTy::F64), Role::Input) => {
                out.extend_from_slice(&float_value(rng).to_le_bytes())
            }
            // Outputs start from a pattern, so unwritten slots compare too.
            (Sc::I(t), Role::Output) => push_int(&mut out, t, 0x5a5a_5a5a_5a5a_5a5a),
            (Sc::F(FloatTy::F32), Role::Output) => out.extend_from_slice(&1.25f32.to_le_bytes()),
            (Sc::F(FloatTy::F64), Role::Output) => out.extend_from_slice(&1.25f64.to_le_bytes()),
            // Atomic targets: small values, so float sums stay exact.
            (Sc::I(t), Role::Atomic) => push_int(&mut out, t, int_bits(rng) & 0xff),
            (Sc::F(FloatTy::F32), Role::Atomic) => {
                out.extend_from_slice(&((rng.below(64) as f32) - 32.0).to_le_bytes())
            }
            (Sc::F(FloatTy::F64), Role::Atomic) => {
                out.extend_from_slice(&((rng.below(64) as f64) - 32.0).to_le_bytes())
            }
            _ => panic!("no data for {name}: {elem:?}"),
        }
    }
    out
}

fn push_int(out: &mut Vec<u8>, t: IntTy, v: u64) {
    let n = (bits(t) / 8) as usize;
    out.extend_from_slice(&v.to_le_bytes()[..n]);
}

const BIN_CMP: [BinOp; 6] = [
    BinOp::Eq,
    BinOp::Ne,
    BinOp::Lt,
    BinOp::Le,
    BinOp::Gt,
    BinOp::Ge,
];

impl Gen {
    // ----------------------------------------------------------------------------- names, scopes

    fn fresh(&mut self, prefix: &str) -> String {
        self.counter += 1;
        format!("{prefix}{}", self.counter)
    }

    fn declare(&mut self, name: &str, kind: VarKind, assignable: bool) {
        self.scopes.last_mut().unwrap().push(Var {
            name: name.into(),
            kind,
            assignable,
        });
    }

    fn scoped<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> T {
        self.scopes.push(vec![]);
        let r = f(self);
        self.scopes.pop();
        r
    }

    fn vars(&self) -> impl Iterator<Item = &Var> {
        self.scopes.iter().flatten()
    }

    fn scalars_of(&self, t: Sc) -> Vec<String> {
        self.vars()
            .filter(|v| matches!(v.kind, VarKind::Scalar(s) if s == t))
            .map(|v| v.name.clone())
            .collect()
    }

    fn param(&mut self, name: &str) -> Expr {
        let i = CATALOGUE.iter().position(|p| p.0 == name).unwrap();
        self.used[i] = true;
        var(name)
    }

    // ------------------------------------------------------------------------------ the kernel

    fn kernel_body(&mut self) -> Block {
        let mut stmts = Vec::new();
        // let tid: usize = (block_idx().x * block_dim().x + thread_idx().x) as usize;
        let gid = bin(
            BinOp::Add,
            bin(
                BinOp::Mul,
                field(icall("block_idx", vec![]), "x"),
                field(icall("block_dim", vec![]), "x"),
            ),
            field(icall("thread_idx", vec![]), "x"),
        );
        stmts.push(let_(
            "tid",
            false,
            Type::Int(IntTy::Usize),
            cast(gid, Sc::I(IntTy::Usize)),
        ));
        self.declare("tid", VarKind::Scalar(Sc::I(IntTy::Usize)), false);
        stmts.push(let_(
            "lid",
            false,
            Type::Int(IntTy::U32),
            field(icall("thread_idx", vec![]), "x"),
        ));
        self.declare("lid", VarKind::Scalar(Sc::I(IntTy::U32)), false);
        if self.f.shared {
            for _ in 0..1 + self.rng.below(3) {
                stmts.extend(self.declare_shared());
            }
        }
        let segments = 1 + self
            .rng
            .below(if self.f.shared || self.f.warp { 5 } else { 2 });
        for s in 0..segments {
            let n = (self.budget / (segments - s) as i32).max(1) as usize;
            stmts.extend(self.stmts(n, 0));
            // A panicking thread exits: no barrier or collective may follow it.
            if !self.f.panic_site && (s + 1 < segments || self.rng.chance(1, 3)) {
                stmts.extend(self.collective());
            }
        }
        block(stmts, None)
    }

    /// `let shN = shared_array::<[T; BLOCK]>(); shN[lid as usize] = e;`
    fn declare_shared(&mut self) -> Vec<Stmt> {
        let elem = self.rng.pick(&[
            Sc::I(IntTy::U32),
            Sc::I(IntTy::I32),
            Sc::I(IntTy::U64),
            Sc::I(IntTy::I64),
            Sc::I(IntTy::U8),
            Sc::I(IntTy::I16),
            Sc::F(FloatTy::F32),
            Sc::F(FloatTy::F64),
        ]);
        let len = self.block as usize;
        let name = self.fresh("sh");
        let (p, r) = intrinsic("shared_array");
        let init = call_generic(p, r, arr_ty(elem, len), vec![]);
        let decl = let_(&name, false, Type::Infer, init);
        // The first value is made before the array exists for the generator: nothing reads it
        // unwritten.
        let v = self.expr(elem, 2);
        self.shared.push(SharedArr {
            name: name.clone(),
            elem,
            len,
            mode: Mode::Write,
        });
        self.declare(&name, VarKind::Shared, false);
        vec![decl, st(assign(own_slot(&name), v))]
    }

    /// A barrier or warp collective at the top level.
    fn collective(&mut self) -> Vec<Stmt> {
        let mut choices = vec![0];
        if self.f.warp {
            choices.extend([1, 1, 1, 2]);
        }
        if self.f.shared || self.f.warp {
            choices.push(3);
        }
        match self.rng.pick(&choices) {
            0 => {
                self.new_phase();
                vec![st(icall("sync_threads", vec![]))]
            }
            1 => self.warp_op(),
            2 => vec![st(icall("sync_warp", vec![u32_lit(FULL)]))],
            _ => {
                let (name, t) = self.rng.pick(&[
                    ("sync_threads_count", Sc::I(IntTy::U32)),
                    ("sync_threads_and", Sc::Bool),
                    ("sync_threads_or", Sc::Bool),
                ]);
                let pred = self.expr(Sc::Bool, 2);
                self.new_phase();
                let v = self.fresh("b");
                let s = let_(&v, false, ty(t), icall(name, vec![pred]));
                self.declare(&v, VarKind::Scalar(t), false);
                vec![s]
            }
        }
    }

    fn new_phase(&mut self) {
        for i in 0..self.shared.len() {
            let elem = self.shared[i].elem;
            let atomic_ok = matches!(
                elem,
                Sc::I(IntTy::U32 | IntTy::I32 | IntTy::U64 | IntTy::I64) | Sc::F(_)
            );
            self.shared[i].mode = match self.rng.below(4) {
                0 => Mode::Write,
                1 if atomic_ok && self.f.atomics => {
                    Mode::Atomic(random_atomic(&mut self.rng, elem))
                }
                _ => Mode::Read,
            };
        }
    }

    fn warp_op(&mut self) -> Vec<Stmt> {
        let full = || u32_lit(FULL);
        // No `activemask()`: which lanes run together after divergent code is the hardware's
        // choice (CUDA promises no reconvergence before a `_sync` collective), so its value is not
        // defined by the program.
        let (init, t) = match self.rng.below(5) {
            0 | 1 => {
                let t = self.rng.pick(&[
                    Sc::I(IntTy::U32),
                    Sc::I(IntTy::I32),
                    Sc::F(FloatTy::F32),
                    Sc::I(IntTy::U64),
                    Sc::I(IntTy::I64),
                    Sc::F(FloatTy::F64),
                ]);
                let v = self.expr(t, 2);
                let width = self.rng.pick(&[32u32, 32, 16, 8, 4, 2, 1]);
                let (name, lane) = match self.rng.below(4) {
                    0 => ("shfl_sync", self.masked_u32(31)),
                    1 => ("shfl_up_sync", self.masked_u32(width.max(2) - 1)),
                    2 => ("shfl_down_sync", self.masked_u32(width.max(2) - 1)),
                    _ => ("shfl_xor_sync", self.masked_u32(31)),
                };
                (icall(name, vec![full(), v, lane, u32_lit(width)]), t)
            }
            2 => {
                let p = self.expr(Sc::Bool, 2);
                match self.rng.below(3) {
                    0 => (icall("ballot_sync", vec![full(), p]), Sc::I(IntTy::U32)),
                    1 => (icall("all_sync", vec![full(), p]), Sc::Bool),
                    _ => (icall("any_sync", vec![full(), p]), Sc::Bool),
                }
            }
            3 => {
                let t = self.rng.pick(&[Sc::I(IntTy::U32), Sc::I(IntTy::I32)]);
                let v = self.expr(t, 2);
                let name = self.rng.pick(&[
                    "reduce_add_sync",
                    "reduce_min_sync",
                    "reduce_max_sync",
                    "reduce_and_sync",
                    "reduce_or_sync",
                    "reduce_xor_sync",
                ]);
                (icall(name, vec![full(), v]), t)
            }
            _ => {
                let vt = self
                    .rng
                    .pick(&[IntTy::U32, IntTy::I32, IntTy::U64, IntTy::I64]);
                let v = bin(BinOp::BitAnd, self.expr(Sc::I(vt), 2), int(3, vt));
                if self.rng.chance(1, 2) {
                    (icall("match_any_sync", vec![full(), v]), Sc::I(IntTy::U32))
                } else {
                    // let (m, p): (u32, bool) = match_all_sync(FULL, v);
                    let (m, p) = (self.fresh("m"), self.fresh("p"));
                    let s = Stmt::Let {
                        pat: Pat::Tuple(vec![
                            Pat::Ident {
                                name: m.clone(),
                                mutable: false,
                            },
                            Pat::Ident {
                                name: p.clone(),
                                mutable: false,
                            },
                        ]),
                        ty: Type::Tuple(vec![Type::Int(IntTy::U32), Type::Bool]),
                        init: Some(icall("match_all_sync", vec![full(), v])),
                        span: Span::default(),
                    };
                    self.declare(&m, VarKind::Scalar(Sc::I(IntTy::U32)), false);
                    self.declare(&p, VarKind::Scalar(Sc::Bool), false);
                    return vec![s];
                }
            }
        };
        let name = self.fresh("w");
        let s = let_(&name, false, ty(t), init);
        self.declare(&name, VarKind::Scalar(t), false);
        vec![s]
    }

    /// `(e & mask)` of type u32.
    fn masked_u32(&mut self, mask: u32) -> Expr {
        if self.rng.chance(1, 3) {
            return u32_lit(self.rng.below(mask as u64 + 1) as u32);
        }
        bin(
            BinOp::BitAnd,
            self.expr(Sc::I(IntTy::U32), 1),
            u32_lit(mask),
        )
    }

    // ------------------------------------------------------------------------------ statements

    fn stmts(&mut self, n: usize, d: u32) -> Vec<Stmt> {
        let mut out = Vec::new();
        for _ in 0..n {
            if self.budget <= 0 {
                break;
            }
            self.budget -= 1;
            out.extend(self.stmt(d));
        }
        out
    }

    fn stmt(&mut self, d: u32) -> Vec<Stmt> {
        let mut w: Vec<(u32, u8)> = vec![(5, 0), (4, 2)];
        if self
            .vars()
            .any(|v| v.assignable && matches!(v.kind, VarKind::Scalar(_)))
        {
            w.push((4, 1));
        }
        w.push((1, 3));
        if self.vars().any(|v| matches!(v.kind, VarKind::Local(..))) {
            w.push((2, 4));
        }
        if d < MAX_DEPTH {
            w.extend([(2, 5), (2, 6), (1, 7)]);
        }
        if self.f.atomics {
            w.push((2, 8));
        }
        if self.shared.iter().any(|s| s.mode != Mode::Read) {
            w.push((3, 9));
        }
        if !self.loops.is_empty() {
            w.push((2, 10));
        }
        let total: u32 = w.iter().map(|x| x.0).sum();
        let mut r = self.rng.below(total as u64) as u32;
        let mut kind = 0;
        for (wt, k) in w {
            if r < wt {
                kind = k;
                break;
            }
            r -= wt;
        }
        match kind {
            0 => self.let_scalar(),
            1 => self.assign_stmt(),
            2 => vec![self.output_store()],
            3 => self.local_array(),
            4 => self.local_store(),
            5 => vec![st(self.if_stmt(d))],
            6 => self.loop_stmt(d),
            7 => vec![st(self.match_stmt(d))],
            8 => self.atomic_stmt(),
            9 => self.shared_stmt(),
            _ => vec![st(self.break_or_continue())],
        }
    }

    fn any_type(&mut self) -> Sc {
        match self.rng.below(10) {
            0 => Sc::Bool,
            1 | 2 => Sc::F(self.rng.pick(&[FloatTy::F32, FloatTy::F64])),
            3 if self.f.half => Sc::F(self.rng.pick(&[FloatTy::F16, FloatTy::BF16])),
            _ => Sc::I(self.rng.pick(&INTS)),
        }
    }

    fn let_scalar(&mut self) -> Vec<Stmt> {
        let t = self.any_type();
        let v = self.expr(t, MAX_DEPTH);
        let name = self.fresh("v");
        let mutable = self.rng.chance(1, 2);
        self.declare(&name, VarKind::Scalar(t), mutable);
        vec![let_(&name, mutable, ty(t), v)]
    }

    fn assign_stmt(&mut self) -> Vec<Stmt> {
        let cands: Vec<(String, Sc)> = self
            .vars()
            .filter(|v| v.assignable)
            .filter_map(|v| match v.kind {
                VarKind::Scalar(s) => Some((v.name.clone(), s)),
                _ => None,
            })
            .collect();
        let (name, t) = cands[self.rng.below(cands.len() as u64) as usize].clone();
        let x = self.expr(t, 2);
        let s = match t {
            Sc::I(_) => match self.rng.below(5) {
                0 => assign_op(BinOp::BitXor, var(&name), x),
                1 => assign_op(BinOp::BitOr, var(&name), x),
                2 => assign_op(BinOp::BitAnd, var(&name), x),
                3 => assign(var(&name), method(var(&name), "wrapping_add", vec![x])),
                _ => assign(var(&name), x),
            },
            Sc::F(FloatTy::F32 | FloatTy::F64) => match self.rng.below(4) {
                0 => assign_op(BinOp::Add, var(&name), x),
                1 => assign_op(BinOp::Sub, var(&name), x),
                2 => assign_op(BinOp::Mul, var(&name), x),
                _ => assign(var(&name), x),
            },
            _ => assign(var(&name), x),
        };
        vec![st(s)]
    }

    /// `of[tid * SLOTS + k] = x.sin();`: a math function's result, compared within its bound.
    fn math_store(&mut self) -> Stmt {
        let (name, ft, col) = if self.rng.chance(1, 2) {
            ("of", FloatTy::F32, 2)
        } else {
            ("od", FloatTy::F64, 3)
        };
        let m = MATH[self.rng.below(MATH.len() as u64) as usize];
        let t = Sc::F(ft);
        let x = self.expr(t, 2);
        let args = (1..m.1).map(|_| self.expr(t, 2)).collect();
        let k = self.rng.below(SLOTS as u64) as usize;
        let ulps = if col == 2 { m.2 } else { m.3 };
        self.tolerance.push((name, k, ulps));
        let idx = bin(
            BinOp::Add,
            bin(BinOp::Mul, var("tid"), usize_lit(SLOTS)),
            usize_lit(k),
        );
        let target = self.param(name);
        st(assign(index(target, idx), method(x, m.0, args)))
    }

    /// `oN[tid * SLOTS + k] = e;`
    fn output_store(&mut self) -> Stmt {
        if self.f.math && self.rng.chance(1, 5) {
            return self.math_store();
        }
        let outs: Vec<(&str, Sc)> = CATALOGUE
            .iter()
            .filter(|p| p.2 == Role::Output)
            .map(|p| (p.0, p.1))
            .collect();
        let (name, t) = self.rng.pick(&outs);
        let k = if self.rng.chance(2, 3) {
            usize_lit(self.rng.below(SLOTS as u64) as usize)
        } else {
            let x = self.expr(Sc::I(IntTy::U32), 1);
            bin(BinOp::Rem, cast(x, Sc::I(IntTy::Usize)), usize_lit(SLOTS))
        };
        let idx = bin(BinOp::Add, bin(BinOp::Mul, var("tid"), usize_lit(SLOTS)), k);
        let v = self.expr(t, MAX_DEPTH);
        let target = self.param(name);
        st(assign(index(target, idx), v))
    }

    fn local_array(&mut self) -> Vec<Stmt> {
        let elem = match self.any_type() {
            Sc::F(FloatTy::F16 | FloatTy::BF16) => Sc::F(FloatTy::F32),
            t => t,
        };
        let n = 1 + self.rng.below(8) as usize;
        let init = if self.rng.chance(1, 2) {
            let v = self.leaf(elem);
            e(ExprKind::ArrayRepeat(Box::new(v), Box::new(usize_lit(n))))
        } else {
            let items = (0..n).map(|_| self.expr(elem, 1)).collect();
            e(ExprKind::Array(items))
        };
        let name = self.fresh("a");
        self.declare(&name, VarKind::Local(elem, n), false);
        vec![let_(&name, true, arr_ty(elem, n), init)]
    }

    fn local_store(&mut self) -> Vec<Stmt> {
        let arrays: Vec<(String, Sc, usize)> = self
            .vars()
            .filter_map(|v| match v.kind {
                VarKind::Local(s, n) => Some((v.name.clone(), s, n)),
                _ => None,
            })
            .collect();
        let (name, elem, n) = arrays[self.rng.below(arrays.len() as u64) as usize].clone();
        let i = self.bounded_index(n);
        let v = self.expr(elem, 2);
        vec![st(assign(index(var(&name), i), v))]
    }

    /// An index in `0..n`: a constant or `(e as usize) % n`.
    fn bounded_index(&mut self, n: usize) -> Expr {
        if self.rng.chance(1, 3) {
            return usize_lit(self.rng.below(n as u64) as usize);
        }
        let t = self.rng.pick(&INTS);
        let x = self.expr(Sc::I(t), 1);
        bin(BinOp::Rem, cast(x, Sc::I(IntTy::Usize)), usize_lit(n))
    }

    fn sub_block(&mut self, d: u32) -> Block {
        let n = 1 + self.rng.below(4) as usize;
        self.scoped(|g| block(g.stmts(n, d + 1), None))
    }

    fn if_stmt(&mut self, d: u32) -> Expr {
        let c = self.expr(Sc::Bool, 2);
        let then = self.sub_block(d);
        let els = match self.rng.below(3) {
            0 => None,
            1 => Some(block_expr(self.sub_block(d))),
            _ => Some(self.if_stmt(d + 1)),
        };
        if_(c, then, els)
    }

    fn match_stmt(&mut self, d: u32) -> Expr {
        let (scrut, st_) = self.scrutinee();
        let n = 1 + self.rng.below(4);
        let pats = self.arm_patterns(st_, n as usize);
        let mut arms = Vec::new();
        for p in pats {
            let guard = self.rng.chance(1, 5).then(|| self.expr(Sc::Bool, 1));
            let body = block_expr(self.sub_block(d));
            arms.push(Arm {
                pat: p,
                guard,
                body,
                span: Span::default(),
            });
        }
        arms.push(Arm {
            pat: Pat::Wild,
            guard: None,
            body: block_expr(self.sub_block(d)),
            span: Span::default(),
        });
        e(ExprKind::Match {
            scrutinee: Box::new(scrut),
            arms,
        })
    }

    /// `(e & 15)` of a random integer type, non-negative.
    fn scrutinee(&mut self) -> (Expr, IntTy) {
        let t = self.rng.pick(&INTS);
        let x = self.expr(Sc::I(t), 2);
        (bin(BinOp::BitAnd, x, int(15, t)), t)
    }

    /// `n` non-overlapping patterns over `0..16`: literals, `a | b`, ranges.
    fn arm_patterns(&mut self, t: IntTy, n: usize) -> Vec<Pat> {
        let lit = |v: u64| Pat::Lit(Lit::Int(v as u128, Some(t)));
        let mut next = self.rng.below(3);
        let mut pats = Vec::new();
        for _ in 0..n {
            if next > 14 {
                break;
            }
            let p = match self.rng.below(3) {
                0 => {
                    let p = lit(next);
                    next += 1;
                    p
                }
                1 => {
                    let p = Pat::Or(vec![lit(next), lit(next + 1)]);
                    next += 2;
                    p
                }
                _ => {
                    let hi = next + self.rng.below(3);
                    let inclusive = self.rng.chance(1, 2);
                    let p = Pat::Range {
                        start: Some(Box::new(lit(next))),
                        end: Some(Box::new(lit(if inclusive { hi } else { hi + 1 }))),
                        inclusive,
                    };
                    next = hi + 1;
                    p
                }
            };
            pats.push(p);
            next += self.rng.below(2);
        }
        pats
    }

    fn trip_count(&mut self, t: IntTy) -> Expr {
        let mask = if self.loops.is_empty() { 7 } else { 3 };
        let x = self.expr(Sc::I(t), 1);
        bin(BinOp::BitAnd, x, int(mask, t))
    }

    fn loop_stmt(&mut self, d: u32) -> Vec<Stmt> {
        let label = self.rng.chance(1, 3).then(|| {
            let l = self.fresh("l");
            format!("'{l}")
        });
        match self.rng.below(4) {
            0 | 1 => {
                // for i in lo..hi (possibly ..=, .rev(), .step_by(k))
                let t =
                    self.rng
                        .pick(&[IntTy::U32, IntTy::I32, IntTy::Usize, IntTy::U8, IntTy::I64]);
                let lo = int(self.rng.below(3) as i128, t);
                let hi = self.trip_count(t);
                let mut it = range(lo, hi, self.rng.chance(1, 4));
                if self.rng.chance(1, 4) {
                    it = method(it, "rev", vec![]);
                }
                if self.rng.chance(1, 4) {
                    let k = 1 + self.rng.below(3) as usize;
                    it = method(it, "step_by", vec![usize_lit(k)]);
                }
                let i = self.fresh("i");
                self.loops.push(LoopCtx {
                    label: label.clone(),
                    value: None,
                });
                let body = self.scoped(|g| {
                    g.declare(&i, VarKind::Scalar(Sc::I(t)), false);
                    let n = 1 + g.rng.below(4) as usize;
                    block(g.stmts(n, d + 1), None)
                });
                self.loops.pop();
                vec![st(e(ExprKind::For {
                    label,
                    pat: Pat::Ident {
                        name: i,
                        mutable: false,
                    },
                    iter: Box::new(it),
                    body,
                    unroll: Unroll::Auto,
                }))]
            }
            2 => {
                // let mut c = 0; while c < n { c += 1; ... }
                let c = self.fresh("c");
                let n = self.trip_count(IntTy::U32);
                let decl = let_(&c, true, Type::Int(IntTy::U32), u32_lit(0));
                self.declare(&c, VarKind::Scalar(Sc::I(IntTy::U32)), false);
                self.loops.push(LoopCtx {
                    label: label.clone(),
                    value: None,
                });
                let body = self.scoped(|g| {
                    let mut s = vec![st(assign_op(BinOp::Add, var(&c), u32_lit(1)))];
                    let k = 1 + g.rng.below(4) as usize;
                    s.extend(g.stmts(k, d + 1));
                    block(s, None)
                });
                self.loops.pop();
                let w = e(ExprKind::While {
                    label,
                    cond: Box::new(bin(BinOp::Lt, var(&c), n)),
                    body,
                });
                vec![decl, st(w)]
            }
            _ => {
                // let mut c = 0; [let r: T =] loop { c += 1; if c > n { break [e]; } ... }
                let c = self.fresh("c");
                let decl = let_(&c, true, Type::Int(IntTy::U32), u32_lit(0));
                self.declare(&c, VarKind::Scalar(Sc::I(IntTy::U32)), false);
                let value = self.rng.chance(1, 2).then(|| match self.any_type() {
                    Sc::F(FloatTy::F16 | FloatTy::BF16) => Sc::F(FloatTy::F64),
                    t => t,
                });
                let n = self.trip_count(IntTy::U32);
                self.loops.push(LoopCtx {
                    label: label.clone(),
                    value,
                });
                let body = self.scoped(|g| {
                    let mut s = vec![st(assign_op(BinOp::Add, var(&c), u32_lit(1)))];
                    let exit_value = value.map(|t| g.expr(t, 2));
                    let exit = e(ExprKind::Break {
                        label: None,
                        value: exit_value.map(Box::new),
                    });
                    s.push(st(if_(
                        bin(BinOp::Gt, var(&c), n),
                        block(vec![st(exit)], None),
                        None,
                    )));
                    let k = 1 + g.rng.below(4) as usize;
                    s.extend(g.stmts(k, d + 1));
                    block(s, None)
                });
                self.loops.pop();
                let l = e(ExprKind::Loop { label, body });
                match value {
                    None => vec![decl, st(l)],
                    Some(t) => {
                        let r = self.fresh("r");
                        let assignable = self.rng.chance(1, 2);
                        self.declare(&r, VarKind::Scalar(t), assignable);
                        vec![decl, let_(&r, true, ty(t), l)]
                    }
                }
            }
        }
    }

    /// `if c { break ['l] [v]; }` or `if c { continue ['l]; }` for an enclosing loop.
    fn break_or_continue(&mut self) -> Expr {
        let inner = self.loops.len() - 1;
        let targets: Vec<usize> = (0..self.loops.len())
            .filter(|&i| i == inner || self.loops[i].label.is_some())
            .collect();
        let t = self.rng.pick(&targets);
        let ctx = self.loops[t].clone();
        // The innermost loop may be named or not; an outer one only by its label.
        let label = if t == inner && self.rng.chance(1, 2) {
            None
        } else {
            ctx.label.clone()
        };
        let jump = if self.rng.chance(1, 2) {
            e(ExprKind::Continue { label })
        } else {
            let value = ctx.value.map(|vt| Box::new(self.expr(vt, 1)));
            e(ExprKind::Break { label, value })
        };
        let c = self.expr(Sc::Bool, 2);
        if_(c, block(vec![st(jump)], None), None)
    }

    fn atomic_target_params(&self) -> Vec<usize> {
        (0..CATALOGUE.len())
            .filter(|&i| CATALOGUE[i].2 == Role::Atomic)
            .collect()
    }

    /// The operand of an atomic on elements of type `elem`: float adds take small integers, float
    /// min/max integer-valued floats (no NaN, no negative zero), so order never matters.
    fn atomic_operand(&mut self, elem: Sc, op: AtomOp) -> Expr {
        match (elem, op) {
            (Sc::F(_), AtomOp::Add) => {
                let x = self.expr(Sc::I(IntTy::U32), 1);
                cast(bin(BinOp::BitAnd, x, u32_lit(15)), elem)
            }
            (Sc::F(_), _) => cast(self.expr(Sc::I(IntTy::I16), 1), elem),
            _ => self.expr(elem, 2),
        }
    }

    fn atomic_args(&mut self, target: Expr, elem: Sc, op: AtomOp) -> Vec<Expr> {
        let mut args = vec![refm(target)];
        match op {
            AtomOp::Inc(l) | AtomOp::Dec(l) => args.push(u32_lit(l)),
            AtomOp::Cas => {
                args.push(self.atomic_operand(elem, op));
                args.push(self.atomic_operand(elem, op));
            }
            _ => args.push(self.atomic_operand(elem, op)),
        }
        args
    }

    fn atomic_stmt(&mut self) -> Vec<Stmt> {
        let arrays = self.atomic_target_params();
        let p = self.rng.pick(&arrays);
        let (name, elem, _) = CATALOGUE[p];
        if self.rng.chance(1, 3) {
            // The thread's private slot: any operation, and the old value is defined.
            let op = match elem {
                Sc::F(_) => self
                    .rng
                    .pick(&[AtomOp::Add, AtomOp::Exch, AtomOp::Min, AtomOp::Max]),
                Sc::I(IntTy::U32) => match self.rng.below(4) {
                    0 => AtomOp::Inc(self.rng.pick(&[0, 3, 100])),
                    1 => AtomOp::Dec(self.rng.pick(&[0, 3, 100])),
                    2 => self.rng.pick(&[AtomOp::Exch, AtomOp::Cas]),
                    _ => random_int_atomic(&mut self.rng),
                },
                _ => {
                    if self.rng.chance(1, 3) {
                        self.rng.pick(&[AtomOp::Exch, AtomOp::Cas])
                    } else {
                        random_int_atomic(&mut self.rng)
                    }
                }
            };
            let slot = bin(BinOp::Add, usize_lit(ATOMIC_SHARED), var("tid"));
            let target = index(self.param(name), slot);
            let args = self.atomic_args(target, elem, op);
            let r = self.fresh("old");
            self.declare(&r, VarKind::Scalar(elem), false);
            return vec![let_(&r, false, ty(elem), icall(op.name(), args))];
        }
        let group = self.rng.below(4) as usize;
        let op = self.atom_ops[p][group];
        let x = self.expr(Sc::I(IntTy::U32), 1);
        let slot = bin(
            BinOp::Add,
            cast(bin(BinOp::BitAnd, x, u32_lit(3)), Sc::I(IntTy::Usize)),
            usize_lit(group * 4),
        );
        let target = index(self.param(name), slot);
        let args = self.atomic_args(target, elem, op);
        vec![st(icall(op.name(), args))]
    }

    fn shared_stmt(&mut self) -> Vec<Stmt> {
        let cands: Vec<usize> = (0..self.shared.len())
            .filter(|&i| self.shared[i].mode != Mode::Read)
            .collect();
        let i = self.rng.pick(&cands);
        let s = self.shared[i].clone();
        match s.mode {
            Mode::Write => {
                let v = self.expr(s.elem, 2);
                vec![st(assign(own_slot(&s.name), v))]
            }
            Mode::Atomic(op) => {
                let idx = self.bounded_index(s.len);
                let target = index(var(&s.name), idx);
                let args = self.atomic_args(target, s.elem, op);
                vec![st(icall(op.name(), args))]
            }
            Mode::Read => unreachable!(),
        }
    }

    // ----------------------------------------------------------------------------- expressions

    fn expr(&mut self, t: Sc, d: u32) -> Expr {
        if d == 0 || self.rng.chance(1, 4) {
            return self.leaf(t);
        }
        match t {
            Sc::Bool => self.bool_expr(d),
            Sc::I(it) => self.int_expr(it, d),
            Sc::F(FloatTy::F32 | FloatTy::F64) => self.float_expr(t, d),
            Sc::F(_) => self.half_expr(t, d),
        }
    }

    fn leaf(&mut self, t: Sc) -> Expr {
        let mut choices: Vec<u8> = if t == Sc::Bool {
            vec![0, 1, 1, 1, 2, 2, 3]
        } else {
            vec![0, 0, 1, 1, 1, 2, 3]
        };
        if matches!(t, Sc::I(_) | Sc::F(FloatTy::F32 | FloatTy::F64)) {
            choices.extend([4, 4, 4, 5]);
        }
        if self.vars().any(|v| matches!(v.kind, VarKind::Local(..))) {
            choices.push(6);
        }
        if (0..self.shared.len())
            .any(|i| !matches!(self.shared[i].mode, Mode::Atomic(_)) && self.shared_visible(i))
        {
            choices.push(7);
        }
        if self.panic_left && matches!(t, Sc::I(_)) {
            choices.push(8);
        }
        match self.rng.pick(&choices) {
            1 => {
                let vs = self.scalars_of(t);
                if vs.is_empty() {
                    self.literal(t)
                } else {
                    var(&vs[self.rng.below(vs.len() as u64) as usize])
                }
            }
            2 => {
                // another scalar variable, converted
                let all: Vec<(String, Sc)> = self
                    .vars()
                    .filter_map(|v| match v.kind {
                        VarKind::Scalar(s) => Some((v.name.clone(), s)),
                        _ => None,
                    })
                    .collect();
                let (n, s) = all[self.rng.below(all.len() as u64) as usize].clone();
                convert(var(&n), s, t)
            }
            3 => self.builtin(t),
            4 => {
                let (name, s) = self.rng.pick(&[
                    ("inp", Sc::I(IntTy::U64)),
                    ("inp", Sc::I(IntTy::U64)),
                    ("fin", Sc::F(FloatTy::F32)),
                    ("din", Sc::F(FloatTy::F64)),
                ]);
                let n = if name == "inp" { INP_LEN } else { FIN_LEN };
                let i = self.small_index(n);
                let x = index(self.param(name), i);
                convert(x, s, t)
            }
            5 => {
                let tid = var("tid");
                convert(tid, Sc::I(IntTy::Usize), t)
            }
            6 => self.local_read(t),
            7 => self.shared_read(t),
            8 => self.panicking(t),
            _ => self.literal(t),
        }
    }

    /// Index for the input slices: masked, so it never panics.
    fn small_index(&mut self, n: usize) -> Expr {
        match self.rng.below(3) {
            0 => usize_lit(self.rng.below(n as u64) as usize),
            1 => bin(BinOp::Rem, var("tid"), usize_lit(n)),
            _ => {
                let x = self.leaf(Sc::I(IntTy::U32));
                bin(BinOp::Rem, cast(x, Sc::I(IntTy::Usize)), usize_lit(n))
            }
        }
    }

    /// The one operation of a panic-family kernel that may panic: an unmasked input index or a
    /// raw divisor.
    fn panicking(&mut self, t: Sc) -> Expr {
        self.panic_left = false;
        let Sc::I(it) = t else { unreachable!() };
        if self.rng.chance(1, 2) {
            let x = self.leaf(Sc::I(IntTy::U32));
            let limit = INP_LEN + 16 + self.rng.below(64) as usize;
            let i = bin(BinOp::Rem, cast(x, Sc::I(IntTy::Usize)), usize_lit(limit));
            convert(index(self.param("inp"), i), Sc::I(IntTy::U64), t)
        } else {
            let x = self.leaf(t);
            let masks: &[i128] = if signed(it) {
                &[1, 3, 7, -1]
            } else {
                &[1, 3, 7]
            };
            let dv = bin(BinOp::BitAnd, self.leaf(t), int(self.rng.pick(masks), it));
            let op = self.rng.pick(&[BinOp::Div, BinOp::Rem]);
            bin(op, x, dv)
        }
    }

    fn shared_visible(&self, i: usize) -> bool {
        let name = &self.shared[i].name;
        self.vars()
            .any(|v| &v.name == name && matches!(v.kind, VarKind::Shared))
    }

    fn builtin(&mut self, t: Sc) -> Expr {
        let x = match self.rng.below(6) {
            0 => field(icall("thread_idx", vec![]), "x"),
            1 => field(icall("block_idx", vec![]), "x"),
            2 => field(icall("block_dim", vec![]), "x"),
            3 => field(icall("grid_dim", vec![]), "x"),
            4 => icall("lane_id", vec![]),
            _ => var("lid"),
        };
        convert(x, Sc::I(IntTy::U32), t)
    }

    fn local_read(&mut self, t: Sc) -> Expr {
        let arrays: Vec<(String, Sc, usize)> = self
            .vars()
            .filter_map(|v| match v.kind {
                VarKind::Local(s, n) => Some((v.name.clone(), s, n)),
                _ => None,
            })
            .collect();
        let (name, elem, n) = arrays[self.rng.below(arrays.len() as u64) as usize].clone();
        let i = self.small_bounded(n);
        convert(index(var(&name), i), elem, t)
    }

    /// `k` or `(leaf as usize) % n`, without recursion (for leaves).
    fn small_bounded(&mut self, n: usize) -> Expr {
        if self.rng.chance(1, 2) {
            usize_lit(self.rng.below(n as u64) as usize)
        } else {
            let it = self.rng.pick(&INTS);
            let x = self.leaf_simple(Sc::I(it));
            bin(BinOp::Rem, cast(x, Sc::I(IntTy::Usize)), usize_lit(n))
        }
    }

    /// A literal or a variable (no memory reads), for indices inside leaves.
    fn leaf_simple(&mut self, t: Sc) -> Expr {
        let vs = self.scalars_of(t);
        if vs.is_empty() || self.rng.chance(1, 3) {
            self.literal(t)
        } else {
            var(&vs[self.rng.below(vs.len() as u64) as usize])
        }
    }

    fn shared_read(&mut self, t: Sc) -> Expr {
        let cands: Vec<usize> = (0..self.shared.len())
            .filter(|&i| !matches!(self.shared[i].mode, Mode::Atomic(_)) && self.shared_visible(i))
            .collect();
        if cands.is_empty() {
            return self.literal(t);
        }
        let i = self.rng.pick(&cands);
        let s = self.shared[i].clone();
        let x = match s.mode {
            Mode::Write => own_slot(&s.name),
            _ => {
                let i = self.small_bounded(s.len);
                index(var(&s.name), i)
            }
        };
        convert(x, s.elem, t)
    }

    fn literal(&mut self, t: Sc) -> Expr {
        match t {
            Sc::Bool => boolean(self.rng.chance(1, 2)),
            Sc::I(it) => {
                let (min, max) = int_range(it);
                let v = match self.rng.below(6) {
                    0 => min,
                    1 => max,
                    2 => self.rng.below(5) as i128,
                    3 if signed(it) => -(self.rng.below(5) as i128) - 1,
                    _ => {
                        let raw = int_bits(&mut self.rng) as i128;
                        let b = bits(it);
                        let m = raw & ((1i128 << b) - 1);
                        if signed(it) && m >= 1i128 << (b - 1) {
                            m - (1i128 << b)
                        } else {
                            m
                        }
                    }
                };
                int(v, it)
            }
            Sc::F(FloatTy::F16 | FloatTy::BF16) => {
                let v = self.literal(Sc::F(FloatTy::F32));
                assoc(t, "from_f32", vec![v])
            }
            Sc::F(ft) => {
                let v = match self.rng.below(6) {
                    0 => self
                        .rng
                        .pick(&[f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -0.0, 0.0]),
                    1 => {
                        if ft == FloatTy::F32 {
                            self.rng
                                .pick(&[f32::MAX as f64, f32::MIN_POSITIVE as f64, 1e-40])
                        } else {
                            self.rng.pick(&[f64::MAX, f64::MIN_POSITIVE, 1e-310])
                        }
                    }
                    2 => (self.rng.below(2001) as f64 - 1000.0) / 8.0,
                    _ => {
                        let m = self.rng.below(1 << 10) as f64 - 512.0;
                        m * 2f64.powi(self.rng.below(40) as i32 - 20)
                    }
                };
                float(v, ft)
            }
        }
    }

    fn bool_expr(&mut self, d: u32) -> Expr {
        match self.rng.below(8) {
            0..=2 => {
                let t = match self.any_type() {
                    Sc::Bool => Sc::I(IntTy::I32),
                    t => t,
                };
                let op = self.rng.pick(&BIN_CMP);
                bin(op, self.expr(t, d - 1), self.expr(t, d - 1))
            }
            3 => {
                let op = self.rng.pick(&[BinOp::And, BinOp::Or]);
                bin(op, self.expr(Sc::Bool, d - 1), self.expr(Sc::Bool, d - 1))
            }
            4 => un(UnOp::Not, self.expr(Sc::Bool, d - 1)),
            5 => {
                let t = Sc::F(self.rng.pick(&[FloatTy::F32, FloatTy::F64]));
                let m = self.rng.pick(&["is_nan", "is_finite", "is_infinite"]);
                method(self.expr(t, d - 1), m, vec![])
            }
            6 => {
                let it = self.rng.pick(&INTS);
                let m = if signed(it) {
                    self.rng.pick(&["is_positive", "is_negative"])
                } else {
                    "is_power_of_two"
                };
                method(self.expr(Sc::I(it), d - 1), m, vec![])
            }
            _ => self.if_expr(Sc::Bool, d),
        }
    }

    fn int_expr(&mut self, t: IntTy, d: u32) -> Expr {
        let s = Sc::I(t);
        let nb = bits(t);
        match self.rng.below(16) {
            0 | 1 => {
                let op = self.rng.pick(&[BinOp::BitAnd, BinOp::BitOr, BinOp::BitXor]);
                bin(op, self.expr(s, d - 1), self.expr(s, d - 1))
            }
            2..=4 => {
                let m = self
                    .rng
                    .pick(&["wrapping_add", "wrapping_sub", "wrapping_mul"]);
                method(self.expr(s, d - 1), m, vec![self.expr(s, d - 1)])
            }
            5 => {
                let op = self.rng.pick(&[BinOp::Shl, BinOp::Shr]);
                let amount = bin(
                    BinOp::BitAnd,
                    self.expr(Sc::I(IntTy::U32), d - 1),
                    u32_lit(nb - 1),
                );
                bin(op, self.expr(s, d - 1), amount)
            }
            6 => {
                let x = self.expr(s, d - 1);
                let dv = self.divisor(t, d);
                let op = self.rng.pick(&[BinOp::Div, BinOp::Rem]);
                bin(op, x, dv)
            }
            7 => {
                let x = self.expr(s, d - 1);
                match self.rng.below(if signed(t) { 6 } else { 5 }) {
                    0 => un(UnOp::Not, x),
                    1 => method(x, "wrapping_neg", vec![]),
                    2 => method(x, "reverse_bits", vec![]),
                    3 => {
                        let m = self.rng.pick(&["rotate_left", "rotate_right"]);
                        method(x, m, vec![self.expr(Sc::I(IntTy::U32), d - 1)])
                    }
                    4 => {
                        let m = self.rng.pick(&["saturating_add", "saturating_sub"]);
                        method(x, m, vec![self.expr(s, d - 1)])
                    }
                    _ => {
                        let m = self.rng.pick(&["wrapping_abs", "signum"]);
                        method(x, m, vec![])
                    }
                }
            }
            8 => {
                let src = self.rng.pick(&INTS);
                let m = self.rng.pick(&[
                    "count_ones",
                    "count_zeros",
                    "leading_zeros",
                    "trailing_zeros",
                ]);
                let c = method(self.expr(Sc::I(src), d - 1), m, vec![]);
                convert(c, Sc::I(IntTy::U32), s)
            }
            9 => match self.rng.below(4) {
                0 | 1 => {
                    let m = self.rng.pick(&["min", "max"]);
                    method(self.expr(s, d - 1), m, vec![self.expr(s, d - 1)])
                }
                2 => {
                    let (min, max) = int_range(t);
                    let a = self.rng.below(200) as i128 - if signed(t) { 100 } else { 0 };
                    let lo = a.clamp(min, max);
                    let hi = (lo + self.rng.below(300) as i128).min(max);
                    method(self.expr(s, d - 1), "clamp", vec![int(lo, t), int(hi, t)])
                }
                _ => {
                    let src = self.rng.pick(&INTS);
                    let x = method(
                        self.expr(Sc::I(src), d - 1),
                        "abs_diff",
                        vec![self.expr(Sc::I(src), d - 1)],
                    );
                    convert(x, Sc::I(unsigned_of(src)), s)
                }
            },
            10 if !signed(t) => {
                let x = self.expr(s, d - 1);
                let dv = self.divisor(t, d);
                method(x, "div_ceil", vec![dv])
            }
            10..=12 => {
                let src = match self.rng.below(4) {
                    0 => Sc::F(self.rng.pick(&[FloatTy::F32, FloatTy::F64])),
                    1 => Sc::Bool,
                    _ => Sc::I(self.rng.pick(&INTS)),
                };
                let x = self.expr(src, d - 1);
                convert(x, src, s)
            }
            13 => self.if_expr(s, d),
            14 => self.match_expr(s, d),
            _ => self.block_value(s, d),
        }
    }

    /// A divisor that is never zero and never `-1` with a `MIN` dividend.
    fn divisor(&mut self, t: IntTy, d: u32) -> Expr {
        let x = self.expr(Sc::I(t), d - 1);
        if !signed(t) {
            bin(BinOp::BitOr, x, int(1, t))
        } else if self.rng.chance(1, 2) {
            // (x & MAX) | 1: positive
            let (_, max) = int_range(t);
            bin(BinOp::BitOr, bin(BinOp::BitAnd, x, int(max, t)), int(1, t))
        } else {
            // -((x & 126) | 2): from -126 to -2
            un(
                UnOp::Neg,
                bin(BinOp::BitOr, bin(BinOp::BitAnd, x, int(126, t)), int(2, t)),
            )
        }
    }

    fn float_expr(&mut self, t: Sc, d: u32) -> Expr {
        let Sc::F(ft) = t else { unreachable!() };
        match self.rng.below(14) {
            0..=2 => {
                let op = self
                    .rng
                    .pick(&[BinOp::Add, BinOp::Sub, BinOp::Mul, BinOp::Div]);
                bin(op, self.expr(t, d - 1), self.expr(t, d - 1))
            }
            3 => bin(BinOp::Rem, self.expr(t, d - 1), self.expr(t, d - 1)),
            4 | 5 => {
                let x = self.expr(t, d - 1);
                let m = self.rng.pick(&[
                    "abs", "sqrt", "floor", "ceil", "round", "trunc", "fract", "recip", "signum",
                    "-",
                ]);
                if m == "-" {
                    un(UnOp::Neg, x)
                } else {
                    method(x, m, vec![])
                }
            }
            6 => method(
                self.expr(t, d - 1),
                "mul_add",
                vec![self.expr(t, d - 1), self.expr(t, d - 1)],
            ),
            7 if self.f.float_minmax => {
                let m = self.rng.pick(&["min", "max"]);
                method(self.expr(t, d - 1), m, vec![self.expr(t, d - 1)])
            }
            7 | 8 => {
                let src = match self.rng.below(3) {
                    0 => Sc::F(if ft == FloatTy::F32 {
                        FloatTy::F64
                    } else {
                        FloatTy::F32
                    }),
                    _ => Sc::I(self.rng.pick(&INTS)),
                };
                let x = self.expr(src, d - 1);
                convert(x, src, t)
            }
            9 if self.f.half => {
                let h = Sc::F(self.rng.pick(&[FloatTy::F16, FloatTy::BF16]));
                let x = self.half_expr(h, d - 1);
                convert(x, h, t)
            }
            9 | 10 => {
                let bt = if ft == FloatTy::F32 {
                    IntTy::U32
                } else {
                    IntTy::U64
                };
                assoc(t, "from_bits", vec![self.expr(Sc::I(bt), d - 1)])
            }
            11 => self.if_expr(t, d),
            12 => self.match_expr(t, d),
            _ => self.block_value(t, d),
        }
    }

    /// f16 / bf16 values: made from f32/f64, combined with `+ - * /` and negation.
    fn half_expr(&mut self, t: Sc, d: u32) -> Expr {
        if d == 0 {
            return self.leaf(t);
        }
        match self.rng.below(5) {
            0 | 1 => {
                let op = self
                    .rng
                    .pick(&[BinOp::Add, BinOp::Sub, BinOp::Mul, BinOp::Div]);
                bin(op, self.half_expr(t, d - 1), self.half_expr(t, d - 1))
            }
            2 => un(UnOp::Neg, self.half_expr(t, d - 1)),
            3 => {
                let src = Sc::F(self.rng.pick(&[FloatTy::F32, FloatTy::F64]));
                let x = self.expr(src, d - 1);
                convert(x, src, t)
            }
            _ => self.if_expr(t, d),
        }
    }

    fn if_expr(&mut self, t: Sc, d: u32) -> Expr {
        let c = self.expr(Sc::Bool, d - 1);
        let a = self.scoped(|g| {
            let stmts = if g.rng.chance(1, 4) && d > 1 {
                g.stmts(1, MAX_DEPTH)
            } else {
                vec![]
            };
            let v = g.expr(t, d - 1);
            block(stmts, Some(v))
        });
        let b = self.expr(t, d - 1);
        if_(c, a, Some(block_expr(block(vec![], Some(b)))))
    }

    fn match_expr(&mut self, t: Sc, d: u32) -> Expr {
        let (scrut, st_) = self.scrutinee();
        let n = 1 + self.rng.below(4) as usize;
        let pats = self.arm_patterns(st_, n);
        let mut arms = Vec::new();
        for p in pats {
            let guard = self.rng.chance(1, 5).then(|| self.expr(Sc::Bool, 1));
            let body = self.expr(t, d - 1);
            arms.push(Arm {
                pat: p,
                guard,
                body,
                span: Span::default(),
            });
        }
        let last = self.expr(t, d - 1);
        arms.push(Arm {
            pat: Pat::Wild,
            guard: None,
            body: last,
            span: Span::default(),
        });
        e(ExprKind::Match {
            scrutinee: Box::new(scrut),
            arms,
        })
    }

    /// `{ let vN: T2 = e; value using vN }`
    fn block_value(&mut self, t: Sc, d: u32) -> Expr {
        self.scoped(|g| {
            let t2 = g.any_type();
            let x = g.expr(t2, d - 1);
            let name = g.fresh("v");
            g.declare(&name, VarKind::Scalar(t2), false);
            let s = let_(&name, false, ty(t2), x);
            let v = g.expr(t, d - 1);
            block_expr(block(vec![s], Some(v)))
        })
    }
}

/// `name[lid as usize]`
fn own_slot(name: &str) -> Expr {
    index(var(name), cast(var("lid"), Sc::I(IntTy::Usize)))
}

/// `x` (of type `from`) as a value of type `to`, the way Rust spells it.
pub fn convert(x: Expr, from: Sc, to: Sc) -> Expr {
    if from == to {
        return x;
    }
    match (from, to) {
        (Sc::F(FloatTy::F16 | FloatTy::BF16), Sc::F(FloatTy::F64)) => method(x, "to_f64", vec![]),
        (Sc::F(FloatTy::F16 | FloatTy::BF16), _) => {
            convert(method(x, "to_f32", vec![]), Sc::F(FloatTy::F32), to)
        }
        (Sc::F(FloatTy::F64), Sc::F(FloatTy::F16 | FloatTy::BF16)) => {
            assoc(to, "from_f64", vec![x])
        }
        (_, Sc::F(FloatTy::F16 | FloatTy::BF16)) => {
            let f = convert(x, from, Sc::F(FloatTy::F32));
            assoc(to, "from_f32", vec![f])
        }
        (Sc::Bool, Sc::F(_)) => convert(cast(x, Sc::I(IntTy::U8)), Sc::I(IntTy::U8), to),
        (_, Sc::Bool) => {
            let zero = match from {
                Sc::I(t) => int(0, t),
                Sc::F(t) => float(0.0, t),
                Sc::Bool => unreachable!(),
            };
            bin(BinOp::Ne, x, zero)
        }
        _ => cast(x, to),
    }
}
