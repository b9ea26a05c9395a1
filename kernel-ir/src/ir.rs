//! The kernel IR: one definition shared by the passes, the PTX emitter and the simulator.
//!
//! It is structured (if / counted for / loop with break and continue by id) rather than a CFG,
//! because the passes we need most (unrolling, scalar replacement of arrays, bounds-check
//! elimination under a dominating guard) are simple on structured code and PTX's own registers
//! and branches are easy to emit from it. Values live in typed virtual registers ([`Var`]) that
//! may be assigned more than once, like PTX registers; ptxas does SSA and register allocation.
//!
//! Everything is scalar here: the front end flattens structs, tuples, slices (pointer + length)
//! and arrays of aggregates (one [`LocalArray`] per scalar leaf) before the IR is built. All
//! device functions are inlined, so one [`Kernel`] is one PTX entry.

use std::fmt;

pub use crate::ty::{Space, Ty};

/// A virtual register; its type is `Kernel::vars[id]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Var(pub u32);

/// A constant: the value's bits, zero-extended to 64 (floats as their IEEE bits; f16/bf16 in the
/// low 16 bits; bool as 0/1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Const {
    pub ty: Ty,
    pub bits: u64,
}

impl Const {
    pub fn bool(b: bool) -> Self {
        Const {
            ty: Ty::Bool,
            bits: b as u64,
        }
    }
    pub fn u32(v: u32) -> Self {
        Const {
            ty: Ty::U32,
            bits: v as u64,
        }
    }
    pub fn u64(v: u64) -> Self {
        Const {
            ty: Ty::U64,
            bits: v,
        }
    }
    pub fn i32(v: i32) -> Self {
        Const {
            ty: Ty::I32,
            bits: v as u32 as u64,
        }
    }
    pub fn f32(v: f32) -> Self {
        Const {
            ty: Ty::F32,
            bits: v.to_bits() as u64,
        }
    }
    pub fn f64(v: f64) -> Self {
        Const {
            ty: Ty::F64,
            bits: v.to_bits(),
        }
    }
    /// The value sign-extended (signed types) or zero-extended to i128, for integer folding.
    pub fn as_i128(self) -> i128 {
        match self.ty {
            Ty::I8 => self.bits as u8 as i8 as i128,
            Ty::I16 => self.bits as u16 as i16 as i128,
            Ty::I32 => self.bits as u32 as i32 as i128,
            Ty::I64 => self.bits as i64 as i128,
            _ => self.bits as i128,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operand {
    Var(Var),
    Const(Const),
}

impl From<Var> for Operand {
    fn from(v: Var) -> Self {
        Operand::Var(v)
    }
}
impl From<Const> for Operand {
    fn from(c: Const) -> Self {
        Operand::Const(c)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    /// Arithmetic negation (wrapping for integers).
    Neg,
    /// Bitwise not for integers, logical not for bool.
    Not,
    /// Float absolute value / integer wrapping abs.
    Abs,
    /// Float square root, correctly rounded (`sqrt.rn`).
    Sqrt,
    /// Population count / leading zeros: result type is the destination's (u32).
    Popc,
    Clz,
    /// Float rounding (Rust's `floor`, `ceil`, `trunc`, `round` = half away from zero).
    Floor,
    Ceil,
    Trunc,
    Round,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    /// Integer ops wrap (release-build Rust; the front end emits the overflow checks of debug
    /// builds before them, see `AddOverflows`); float ops round to nearest even.
    Add,
    Sub,
    Mul,
    /// Integer division truncates; the front end emits the divide-by-zero (and `MIN / -1`) check first.
    Div,
    Rem,
    And,
    Or,
    Xor,
    /// Shift amount is masked by the bit width, as Rust's wrapping shifts (the front end reduces it).
    Shl,
    /// Arithmetic for signed types, logical for unsigned.
    Shr,
    /// Rust's `min`/`max`: for floats, if one operand is NaN the other is returned.
    Min,
    Max,
    /// Upper half of the full product (`mul.hi`).
    MulHi,
    /// Comparisons produce `Ty::Bool`; float comparisons are ordered except `Ne` (true on NaN), as Rust.
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    /// Whether the exact (unwrapped) `a + b`, `a - b`, `a * b` lies outside the operands' integer
    /// type: `Bool` results, the conditions of Rust's overflow checks (`PanicKind::Overflow`).
    /// Kept as operations, not spelled out in compares and bit tricks, so that value ranges can
    /// prove a check never fires and each backend picks its best sequence.
    AddOverflows,
    SubOverflows,
    MulOverflows,
}

impl UnOp {
    /// Every operation, for the text parser and for tests that cover them all.
    pub const ALL: [UnOp; 10] = {
        use UnOp::*;
        [Neg, Not, Abs, Sqrt, Popc, Clz, Floor, Ceil, Trunc, Round]
    };
}

impl BinOp {
    /// Every operation, for the text parser and for tests that cover them all.
    pub const ALL: [BinOp; 22] = {
        use BinOp::*;
        [
            Add,
            Sub,
            Mul,
            Div,
            Rem,
            And,
            Or,
            Xor,
            Shl,
            Shr,
            Min,
            Max,
            MulHi,
            AddOverflows,
            SubOverflows,
            MulOverflows,
            Eq,
            Ne,
            Lt,
            Le,
            Gt,
            Ge,
        ]
    };

    pub fn is_compare(self) -> bool {
        matches!(
            self,
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
        )
    }

    /// `AddOverflows`, `SubOverflows` or `MulOverflows`.
    pub fn is_overflow_test(self) -> bool {
        matches!(
            self,
            BinOp::AddOverflows | BinOp::SubOverflows | BinOp::MulOverflows
        )
    }

    /// Whether the result is `Bool` whatever the operands' type (comparisons, overflow tests).
    pub fn yields_bool(self) -> bool {
        self.is_compare() || self.is_overflow_test()
    }
}

/// A fixed-size array of scalars in thread-private storage. Becomes registers when every index is
/// a constant (after unrolling and folding), `.local` memory otherwise.
#[derive(Clone, Debug)]
pub struct LocalArray {
    pub elem: Ty,
    pub len: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ArrayId(pub u32);

/// A statically sized shared-memory allocation (one per `shared_array` call site).
#[derive(Clone, Debug)]
pub struct SharedAlloc {
    pub name: String,
    pub bytes: u32,
    pub align: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SharedId(pub u32);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LoopId(pub u32);

/// Index into `Kernel::panic_sites`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SiteId(pub u32);

/// Why a kernel thread stops with a panic, and where in the user's source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PanicSite {
    pub kind: PanicKind,
    pub file: String,
    pub line: u32,
    pub col: u32,
}

/// What a panic site reports; [`PanicKind::message`] words it as Rust does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PanicKind {
    /// `index out of bounds: the len is {len} but the index is {index}`
    Bounds,
    /// Integer `x / 0`.
    DivByZero,
    /// Integer `x % 0`.
    RemByZero,
    /// `i32::MIN / -1` and friends (checked whatever the overflow-check setting, as in Rust).
    DivOverflow,
    /// `i32::MIN % -1` and friends.
    RemOverflow,
    /// An operation that Rust checks only with overflow checks on (debug builds).
    Overflow(OverflowOp),
    /// `assert!` / `panic!` with its message.
    Explicit(String),
}

/// The operations `-C overflow-checks` makes panic, named as in Rust's messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OverflowOp {
    Add,
    Sub,
    Mul,
    /// Unary `-` (and `abs`) of the signed minimum.
    Neg,
    /// `<<` / `>>` by at least the bit width (or by a negative amount).
    Shl,
    Shr,
}

impl PanicKind {
    /// Rust's wording for a panic of this kind with detail values `a` (bounds: the index) and
    /// `b` (bounds: the length): the one place both the host runtime and the simulator take it.
    pub fn message(&self, a: u64, b: u64) -> String {
        let text = match self {
            PanicKind::Bounds => {
                return format!("index out of bounds: the len is {b} but the index is {a}")
            }
            PanicKind::Explicit(m) => return m.clone(),
            PanicKind::DivByZero => "attempt to divide by zero",
            PanicKind::RemByZero => "attempt to calculate the remainder with a divisor of zero",
            PanicKind::DivOverflow => "attempt to divide with overflow",
            PanicKind::RemOverflow => "attempt to calculate the remainder with overflow",
            PanicKind::Overflow(op) => match op {
                OverflowOp::Add => "attempt to add with overflow",
                OverflowOp::Sub => "attempt to subtract with overflow",
                OverflowOp::Mul => "attempt to multiply with overflow",
                OverflowOp::Neg => "attempt to negate with overflow",
                OverflowOp::Shl => "attempt to shift left with overflow",
                OverflowOp::Shr => "attempt to shift right with overflow",
            },
        };
        text.to_string()
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Inst {
    /// `dst = src` (same type).
    Mov {
        dst: Var,
        src: Operand,
    },
    Unary {
        dst: Var,
        op: UnOp,
        a: Operand,
    },
    /// Operand types equal; `dst` is `Bool` for comparisons, else the operand type. For `Shl`/`Shr`
    /// the amount `b` is `U32` and already reduced modulo the bit width.
    Binary {
        dst: Var,
        op: BinOp,
        a: Operand,
        b: Operand,
    },
    /// `dst = a * b + c` with a single rounding (float types only).
    Fma {
        dst: Var,
        a: Operand,
        b: Operand,
        c: Operand,
    },
    /// Rust `as` from the operand's type to `dst`'s: integer truncation / sign or zero extension,
    /// float->int saturating with NaN -> 0, int->float round to nearest, float->float round to nearest,
    /// bool -> int 0/1.
    Cast {
        dst: Var,
        a: Operand,
    },
    /// Reinterpret bits between equally sized types (`to_bits` / `from_bits`).
    Bitcast {
        dst: Var,
        a: Operand,
    },
    /// `dst = if cond { a } else { b }`.
    Select {
        dst: Var,
        cond: Operand,
        a: Operand,
        b: Operand,
    },
    /// Load `dst`'s type from `addr` (U64 for global, U32 for shared). `readonly`: the address is
    /// inside a `&[T]` kernel parameter, so the non-coherent path (`ld.global.nc`) is legal.
    Load {
        dst: Var,
        space: Space,
        addr: Operand,
        readonly: bool,
    },
    Store {
        space: Space,
        addr: Operand,
        val: Operand,
    },
    /// Loads `dsts.len()` (2 or 4) consecutive elements of the destinations' common integer or
    /// float type (not `Bool`; the whole vector at most 16 bytes) from `addr`, which is a
    /// multiple of the whole vector's size, as one access (`ld.v2`, `ld.v4`). Only
    /// `passes::vectorize` and `passes::vector_access` make these, from scalar loads they proved
    /// adjacent and aligned. `readonly` as for `Load`.
    LoadVec {
        dsts: Vec<Var>,
        space: Space,
        addr: Operand,
        readonly: bool,
    },
    /// Stores `vals.len()` (2 or 4) consecutive elements of one type to `addr`, under the same
    /// rules as `LoadVec` (`st.v2`, `st.v4`). Only `passes::vector_access` makes these.
    StoreVec {
        space: Space,
        addr: Operand,
        vals: Vec<Operand>,
    },
    /// Byte offset of a static shared allocation in the block's shared window (U32).
    SharedAddr {
        dst: Var,
        alloc: SharedId,
    },
    /// Byte offset where dynamic shared memory starts (U32), and its size in bytes (U32) as launched.
    DynSharedAddr {
        dst: Var,
    },
    DynSharedBytes {
        dst: Var,
    },
    /// Thread-private array element access; `idx` is U32 and in range (checked before if needed).
    ArrayLoad {
        dst: Var,
        array: ArrayId,
        idx: Operand,
    },
    ArrayStore {
        array: ArrayId,
        idx: Operand,
        val: Operand,
    },
    /// Built-in registers, barriers, warp collectives, atomics, math...: see `intrinsics`.
    Intrinsic {
        id: crate::intrinsic::IntrinsicId,
        dsts: Vec<Var>,
        args: Vec<Operand>,
    },
    /// Panic at `site` unless `idx < len` (both U64 or both U32). Kept as one instruction so the
    /// bounds-check-elimination pass can find and drop it.
    BoundsCheck {
        idx: Operand,
        len: Operand,
        site: SiteId,
    },
    /// Unconditional panic (record the site and this thread, then stop this thread).
    /// `a` and `b` are recorded as the two detail values (for bounds: index and length).
    Panic {
        site: SiteId,
        a: Operand,
        b: Operand,
    },
    /// CUDA's device `printf` (`vprintf`): `format` is the C format string (without its NUL),
    /// with one conversion per argument in order. Arguments are already promoted as C varargs are
    /// (`I32`/`U32`/`I64`/`U64`/`F64` only), so the PTX emitter and the simulator agree on the
    /// argument buffer's layout. A side effect: never removed, moved or merged.
    Print {
        format: String,
        args: Vec<Operand>,
    },
    If {
        cond: Operand,
        then: Block,
        els: Block,
    },
    /// `for iv in start..end` (`..=end` when `inclusive`), stepping by `step` (positive, same type as
    /// `iv`), downwards when `reverse` (as `(start..end).rev().step_by(step)` — iterates from the top).
    /// `start`/`end` are evaluated once before the loop; `iv` is integer typed and not written in `body`.
    For {
        id: LoopId,
        iv: Var,
        start: Operand,
        end: Operand,
        inclusive: bool,
        step: Operand,
        reverse: bool,
        body: Block,
        unroll: Unroll,
    },
    /// Repeats `body` until a `Break` with this id (or a `Return`).
    Loop {
        id: LoopId,
        body: Block,
    },
    Break(LoopId),
    Continue(LoopId),
    /// The kernel returns (this thread exits).
    Return,
    /// The user's source position of the instructions that follow, up to the next `Loc` or the end
    /// of this block (nested blocks inherit it). A no-op for the passes and the PTX emitter; the
    /// simulator reports it in every error. Inlined device code carries its own file.
    Loc(SourceLoc),
}

/// A position in the user's source: `file!()` of the function the code was written in, 1-based
/// line and column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SourceLoc {
    pub file: &'static str,
    pub line: u32,
    pub col: u32,
}

/// How a loop should be unrolled, from the user's `#[unroll]` attribute.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Unroll {
    /// Unroll fully when the trip count is a small constant (see `passes::unroll`).
    #[default]
    Auto,
    Full,
    By(u32),
    Never,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Block(pub Vec<Inst>);

/// A kernel parameter as the launcher passes it: one user parameter is one PTX parameter, so the
/// host passes exactly one argument pointer per user parameter. Scalars are a single piece at offset
/// 0 (`.param .u32 a`); slices are `{ ptr: u64, len: u64 }` (16 bytes, align 8) and structs their C
/// layout, both as `.param .align A .b8 name[size]`.
#[derive(Clone, Debug)]
pub struct Param {
    pub name: String,
    pub size: u32,
    pub align: u32,
    pub kind: ParamKind,
    /// The scalar pieces: byte offset within the parameter, and the variable that holds it in the kernel.
    pub pieces: Vec<(u32, Var)>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamKind {
    Scalar,
    /// `&[T]` (`readonly`) or `&mut [T]`: pieces are the pointer (offset 0) and the length (offset 8).
    Slice {
        readonly: bool,
        elem_bytes: u32,
        /// The pointer is a multiple of this (a power of two): the element type's alignment,
        /// which every buffer and view the host API makes keeps (allocations are 256-aligned,
        /// views start at whole elements, the launch contract of `KernelSlice` says so).
        /// Vector accesses (`passes::vector_access`) rely on it.
        ptr_align: u32,
    },
    Struct,
    /// `&TensorMap` / `&mut TensorMap` (CUDA's `const __grid_constant__ CUtensorMap`): the
    /// parameter's bytes stay in `.param` space, where the TMA unit reads them, and its one piece
    /// (offset 0, U64) is the parameter's generic address (`cvta.param`), not a value loaded from
    /// it. The simulator binds that piece to a handle of the parameter's bytes
    /// (`tensor_map::grid_constant_handle`).
    GridConstant {
        writable: bool,
    },
}

/// One kernel, every device function inlined.
#[derive(Clone, Debug)]
pub struct Kernel {
    /// The PTX entry name (mangled with type/const arguments for generic kernels).
    pub name: String,
    /// The user-facing name (`module::function`), for panics and dumps.
    pub display_name: String,
    pub params: Vec<Param>,
    /// Type of every `Var`, indexed by `Var.0`.
    pub vars: Vec<Ty>,
    /// Optional debug names of variables (for dumps and PTX comments), indexed like `vars`; empty = none.
    pub var_names: Vec<String>,
    pub arrays: Vec<LocalArray>,
    pub shared: Vec<SharedAlloc>,
    /// Whether the kernel uses dynamic shared memory.
    pub uses_dyn_shared: bool,
    pub panic_sites: Vec<PanicSite>,
    pub body: Block,
    pub attrs: KernelAttrs,
    pub next_loop: u32,
}

/// Launch bounds and register limits, from `#[kernel(...)]`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KernelAttrs {
    pub max_threads: Option<u32>,
    pub min_blocks: Option<u32>,
    pub max_registers: Option<u32>,
    /// The required block shape (`.reqntid`): launches with any other shape are rejected, so
    /// `block_dim()` is a constant and each thread index has an exact bound.
    pub block_dim: Option<[u32; 3]>,
    /// The required cluster shape (`.reqnctapercluster`, `#[kernel(cluster_dims(..))]`): launches
    /// run in clusters of exactly this many blocks.
    pub cluster_dims: Option<[u32; 3]>,
}

impl Kernel {
    pub fn new_var(&mut self, ty: Ty) -> Var {
        self.vars.push(ty);
        Var(self.vars.len() as u32 - 1)
    }
    pub fn ty(&self, v: Var) -> Ty {
        self.vars[v.0 as usize]
    }
    pub fn operand_ty(&self, o: Operand) -> Ty {
        match o {
            Operand::Var(v) => self.ty(v),
            Operand::Const(c) => c.ty,
        }
    }
    pub fn new_loop(&mut self) -> LoopId {
        self.next_loop += 1;
        LoopId(self.next_loop - 1)
    }
}

impl fmt::Display for Var {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "v{}", self.0)
    }
}
