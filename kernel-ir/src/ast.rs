//! The kernel AST: what `#[kernel]` / `#[device]` hand to the compiler.
//!
//! The macro turns the user's Rust body into code that builds these values at run time (once,
//! cached). Names are already split into what rustc resolves for us (callees, structs, host
//! constants: carried as function pointers so that `use` and modules work exactly as in Rust)
//! and what our own type checker resolves (locals, generic parameters, methods on scalars).
//! Every node carries the user's line and column so errors and kernel panics point at the source.
//! A call names a `#[device]` function or a device function of kernel-std ([`IntrinsicSpec`]:
//! how the front end types and lowers it, and the table entries it lowers to).

use std::fmt;

use crate::intrinsic::IntrinsicDef;
use crate::ty::Space;

/// A position in the user's source file (1-based line, 1-based column).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Span {
    pub line: u32,
    pub col: u32,
}

impl Span {
    pub const fn new(line: u32, col: u32) -> Self {
        Span { line, col }
    }
}

impl fmt::Display for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.col)
    }
}

/// One `#[kernel]` or `#[device]` function.
#[derive(Clone, Debug)]
pub struct FnDef {
    pub name: &'static str,
    /// `module_path!()` of the definition, to tell apart equal names in different modules.
    pub module: &'static str,
    /// `file!()` of the definition.
    pub file: &'static str,
    pub span: Span,
    pub kind: FnKind,
    pub generics: Vec<Generic>,
    pub params: Vec<Param>,
    /// `Type::Unit` when the function returns nothing.
    pub ret: Type,
    pub body: Block,
    /// Whether the defining crate builds with overflow checks, as far as a macro can tell:
    /// `cfg!(debug_assertions)` evaluated in that crate (rustc's default for `overflow-checks`).
    /// `KernelAttrs::overflow_checks` overrides it for a whole kernel.
    pub overflow_checks: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FnKind {
    Kernel(KernelAttrs),
    Device,
}

/// `#[kernel(launch_bounds(max_threads = N, min_blocks = M), max_registers = R, ...)]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelAttrs {
    /// `.maxntid`
    pub max_threads: Option<u32>,
    /// `.minnctapersm`
    pub min_blocks: Option<u32>,
    /// `.maxnreg`
    pub max_registers: Option<u32>,
    /// `.reqntid`: the only block shape the kernel launches with (`#[kernel(block_dim(x, y, z))]`).
    pub block_dim: Option<[u32; 3]>,
    /// `.reqnctapercluster`: the thread block cluster shape the kernel launches with
    /// (`#[kernel(cluster_dims(x, y, z))]`, CUDA's `__cluster_dims__`).
    pub cluster_dims: Option<[u32; 3]>,
    /// `#[kernel(overflow_checks = true|false)]`: integer overflow checks for the kernel and every
    /// device function inlined into it, whatever their crates' profiles (`None`: each function
    /// follows its own `FnDef::overflow_checks`).
    pub overflow_checks: Option<bool>,
    /// Whether the kernel may be compiled for the block shape of its launch when it has no
    /// `block_dim` (`#[kernel(specialize = false)]` turns it off; see
    /// `kernel_compiler::specialize`).
    pub specialize: bool,
}

impl Default for KernelAttrs {
    fn default() -> Self {
        KernelAttrs {
            max_threads: None,
            min_blocks: None,
            max_registers: None,
            block_dim: None,
            cluster_dims: None,
            overflow_checks: None,
            specialize: true,
        }
    }
}

#[derive(Clone, Debug)]
pub enum Generic {
    /// `T: Float + ...` (bounds kept by name; rustc already checked them on the host copy).
    Type { name: String, bounds: Vec<String> },
    /// `const N: usize`
    Const { name: String, ty: Type },
}

#[derive(Clone, Debug)]
pub struct Param {
    pub name: String,
    pub mutable: bool,
    pub ty: Type,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IntTy {
    I8,
    I16,
    I32,
    I64,
    Isize,
    U8,
    U16,
    U32,
    U64,
    Usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatTy {
    F16,
    BF16,
    F32,
    F64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mutability {
    Not,
    Mut,
}

/// A type as written by the user.
#[derive(Clone, Debug)]
pub enum Type {
    /// `()` or no return type.
    Unit,
    Bool,
    Int(IntTy),
    Float(FloatTy),
    /// `[T; LEN]`; the length is any constant expression (literal, const generic, host const, arithmetic).
    Array(Box<Type>, Box<Expr>),
    /// `&[T]` / `&mut [T]`
    Slice(Box<Type>, Mutability),
    /// `&T` / `&mut T`
    Ref(Box<Type>, Mutability),
    Tuple(Vec<Type>),
    /// A generic type parameter of the enclosing function, e.g. `T`.
    Param(String),
    /// A `#[derive(DeviceCopy)]` struct (or a built-in one such as `Dim3`), resolved by rustc.
    Struct(StructRef),
    /// `_` or an omitted `let` type.
    Infer,
}

/// How the compiler obtains a struct's layout: generated by `#[derive(DeviceCopy)]`.
#[derive(Clone, Copy)]
pub struct StructRef {
    pub name: &'static str,
    pub def: fn() -> &'static StructDef,
}

impl fmt::Debug for StructRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "struct {}", self.name)
    }
}

/// A `#[repr(C)]` struct usable by value in kernels and as slice elements.
#[derive(Clone, Debug)]
pub struct StructDef {
    pub name: &'static str,
    /// Host `size_of` / `align_of`, so the compiler can check its own layout against rustc's.
    pub size: usize,
    pub align: usize,
    /// Named fields; tuple structs use "0", "1", ...
    pub fields: Vec<(String, Type)>,
}

#[derive(Clone, Debug)]
pub struct Block {
    pub stmts: Vec<Stmt>,
    /// Trailing expression without `;` (the block's value).
    pub tail: Option<Box<Expr>>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum Stmt {
    Let {
        pat: Pat,
        ty: Type,
        init: Option<Expr>,
        span: Span,
    },
    /// An expression statement (with or without `;`).
    Expr(Expr),
}

#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

/// A literal. Integers keep their full value; the suffix (if any) fixes the type.
#[derive(Clone, Debug)]
pub enum Lit {
    Int(u128, Option<IntTy>),
    Float(f64, Option<FloatTy>),
    Bool(bool),
}

/// A constant computed by rustc on the host (module `const`s, `f32::MAX`, `core::f32::consts::PI`...).
#[derive(Clone, Copy)]
pub struct HostConst {
    /// The source text, for dumps and errors.
    pub text: &'static str,
    pub eval: fn() -> ConstValue,
}

impl fmt::Debug for HostConst {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "host const `{}`", self.text)
    }
}

/// A host-evaluated constant value with its Rust type.
#[derive(Clone, Debug, PartialEq)]
pub enum ConstValue {
    Bool(bool),
    Int(i128, IntTy),
    Float(f64, FloatTy),
    Array(Vec<ConstValue>),
    Tuple(Vec<ConstValue>),
}

/// Converts a host value to a [`ConstValue`]; implemented for every scalar and for arrays of them.
pub trait IntoConstValue {
    fn into_const_value(self) -> ConstValue;
}

macro_rules! impl_into_const_int {
    ($($t:ty => $v:ident),*) => {$(
        impl IntoConstValue for $t {
            fn into_const_value(self) -> ConstValue { ConstValue::Int(self as i128, IntTy::$v) }
        }
    )*};
}
impl_into_const_int!(i8 => I8, i16 => I16, i32 => I32, i64 => I64, isize => Isize,
    u8 => U8, u16 => U16, u32 => U32, u64 => U64, usize => Usize);

impl IntoConstValue for bool {
    fn into_const_value(self) -> ConstValue {
        ConstValue::Bool(self)
    }
}
impl IntoConstValue for f32 {
    fn into_const_value(self) -> ConstValue {
        ConstValue::Float(self as f64, FloatTy::F32)
    }
}
impl IntoConstValue for f64 {
    fn into_const_value(self) -> ConstValue {
        ConstValue::Float(self, FloatTy::F64)
    }
}
impl IntoConstValue for half::f16 {
    fn into_const_value(self) -> ConstValue {
        ConstValue::Float(self.to_f64(), FloatTy::F16)
    }
}
impl IntoConstValue for half::bf16 {
    fn into_const_value(self) -> ConstValue {
        ConstValue::Float(self.to_f64(), FloatTy::BF16)
    }
}
impl<T: IntoConstValue, const N: usize> IntoConstValue for [T; N] {
    fn into_const_value(self) -> ConstValue {
        ConstValue::Array(
            self.into_iter()
                .map(IntoConstValue::into_const_value)
                .collect(),
        )
    }
}
impl<T: IntoConstValue + Copy> IntoConstValue for &T {
    fn into_const_value(self) -> ConstValue {
        (*self).into_const_value()
    }
}

/// What a call's path resolves to. Every callable name usable in kernels has a companion module of
/// the same name (`mod foo { pub fn __fc_callable() -> Callable }`), generated by `#[device]` or by
/// kernel-std's intrinsic declarations, so rustc's own name resolution finds it through any `use`.
#[derive(Clone, Copy, Debug)]
pub enum Callable {
    Device(&'static FnDef),
    /// A device function of kernel-std's `intrinsics`: its spec, with how to lower it.
    Intrinsic(&'static IntrinsicSpec),
}

#[derive(Clone, Copy)]
pub struct Callee {
    /// The path as written (without generic arguments), for dumps and errors.
    pub path: &'static str,
    pub resolve: fn() -> Callable,
}

impl fmt::Debug for Callee {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.path)
    }
}

#[derive(Clone, Debug)]
pub enum GenericArg {
    Type(Type),
    Const(Expr),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    /// `-x`
    Neg,
    /// `!x` (logical for bool, bitwise for integers)
    Not,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    BitAnd,
    BitOr,
    BitXor,
    Shl,
    Shr,
    /// `&&` (short-circuit)
    And,
    /// `||` (short-circuit)
    Or,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    Lit(Lit),
    /// A local variable, function parameter or const generic parameter, by name.
    Local(String),
    HostConst(HostConst),
    /// `T::ZERO`, `T::MAX`... where `T` is a generic parameter (or a primitive type written as a path
    /// when the macro prefers not to capture it).
    AssocConst {
        ty: Type,
        name: String,
    },
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    Assign(Box<Expr>, Box<Expr>),
    /// `a op= b`
    AssignOp(BinOp, Box<Expr>, Box<Expr>),
    Cast(Box<Expr>, Type),
    Index(Box<Expr>, Box<Expr>),
    /// `a.b`, and tuple fields `a.0` (name "0").
    Field(Box<Expr>, String),
    Call {
        callee: Callee,
        generic_args: Vec<GenericArg>,
        args: Vec<Expr>,
    },
    /// `T::method(args)` / `f32::sqrt(x)`: a method named through a type (generic or primitive).
    AssocCall {
        ty: Type,
        method: String,
        args: Vec<Expr>,
    },
    MethodCall {
        receiver: Box<Expr>,
        method: String,
        generic_args: Vec<GenericArg>,
        args: Vec<Expr>,
    },
    Tuple(Vec<Expr>),
    /// `[a, b, c]`
    Array(Vec<Expr>),
    /// `[value; len]`
    ArrayRepeat(Box<Expr>, Box<Expr>),
    StructLit {
        ty: StructRef,
        fields: Vec<(String, Expr)>,
    },
    Block(Block),
    If {
        cond: Box<Expr>,
        then: Block,
        /// `else` block or `else if` (an `If` expression).
        els: Option<Box<Expr>>,
    },
    Match {
        scrutinee: Box<Expr>,
        arms: Vec<Arm>,
    },
    While {
        label: Option<String>,
        cond: Box<Expr>,
        body: Block,
    },
    Loop {
        label: Option<String>,
        body: Block,
    },
    /// `for pat in iter { body }`; `iter` is a `Range` possibly wrapped in `.rev()` / `.step_by(n)`
    /// method calls, which the compiler recognises.
    For {
        label: Option<String>,
        pat: Pat,
        iter: Box<Expr>,
        body: Block,
        unroll: Unroll,
    },
    /// `a..b`, `a..=b` (also `..b` etc. inside slicing)
    Range {
        start: Option<Box<Expr>>,
        end: Option<Box<Expr>>,
        inclusive: bool,
    },
    Break {
        label: Option<String>,
        value: Option<Box<Expr>>,
    },
    Continue {
        label: Option<String>,
    },
    Return(Option<Box<Expr>>),
    /// `&x` / `&mut x`
    Ref(Mutability, Box<Expr>),
    /// `*x`
    Deref(Box<Expr>),
    /// `assert!(cond)` / `assert!(cond, "msg")` / `assert_eq!`, lowered to a condition and a fixed message.
    Assert {
        cond: Box<Expr>,
        message: String,
    },
    /// `panic!("msg")`, `unreachable!()`.
    Panic {
        message: String,
    },
    /// `gpu_print!` / `gpu_println!` (CUDA's device `printf`): the format string already parsed by
    /// the macro (`gpu_println!`'s newline is part of the last text piece); `args` are evaluated
    /// once each, in order, whatever order the placeholders name them in.
    Print {
        pieces: Vec<FmtPiece>,
        args: Vec<Expr>,
    },
}

/// One piece of a parsed `gpu_print!` format string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FmtPiece {
    /// Text printed as is (`{{` / `}}` already unescaped).
    Text(String),
    /// A placeholder: argument `index` of the macro, formatted by `spec`.
    Arg { index: usize, spec: FmtSpec },
}

/// What follows the `:` of a placeholder, restricted to what C's `printf` can reproduce.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FmtSpec {
    pub conv: FmtConv,
    /// Minimum width; the value is right-aligned unless `left`.
    pub width: Option<u32>,
    /// Digits after the point for floats (ignored for integers, as in Rust).
    pub precision: Option<u32>,
    /// `{:<}`: left-aligned in its width.
    pub left: bool,
    /// `{:0N}`: sign-aware zero padding.
    pub zero: bool,
    /// `{:+}`: always print the sign.
    pub plus: bool,
    /// `{:#x}` / `{:#o}`: the `0x` / `0o` prefix.
    pub alternate: bool,
}

/// The formatting trait a placeholder names.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum FmtConv {
    /// `{}`
    #[default]
    Display,
    /// `{:?}`
    Debug,
    /// `{:x}`
    LowerHex,
    /// `{:X}`
    UpperHex,
    /// `{:o}`
    Octal,
    /// `{:e}`
    LowerExp,
    /// `{:E}`
    UpperExp,
}

/// `#[unroll]` (full) / `#[unroll(N)]` (by N) / nothing (compiler's choice: small constant loops).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Unroll {
    #[default]
    Auto,
    Full,
    By(u32),
    /// `#[unroll(1)]` / `#[no_unroll]`
    Never,
}

#[derive(Clone, Debug)]
pub struct Arm {
    pub pat: Pat,
    pub guard: Option<Expr>,
    pub body: Expr,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum Pat {
    /// `_`
    Wild,
    /// `x`, `mut x`
    Ident { name: String, mutable: bool },
    /// `(a, b)`
    Tuple(Vec<Pat>),
    /// `[a, b, c]`
    Array(Vec<Pat>),
    /// A literal (match arms), possibly negative.
    Lit(Lit),
    /// A host constant used as a pattern (`MAX_LEN =>`).
    HostConst(HostConst),
    /// `a..=b`, `a..b` with literal or host-constant bounds.
    Range {
        start: Option<Box<Pat>>,
        end: Option<Box<Pat>>,
        inclusive: bool,
    },
    /// `p | q`
    Or(Vec<Pat>),
}

/// Helper constructors used by the code that `#[kernel]` generates; they keep that code short.
pub mod build {
    use super::*;

    pub fn e(kind: ExprKind, line: u32, col: u32) -> Expr {
        Expr {
            kind,
            span: Span::new(line, col),
        }
    }
    pub fn bx(kind: ExprKind, line: u32, col: u32) -> Box<Expr> {
        Box::new(e(kind, line, col))
    }
    pub fn s(x: &str) -> String {
        x.to_string()
    }
    /// `l op r`.
    pub fn bin(op: BinOp, l: Expr, r: Expr, line: u32, col: u32) -> Expr {
        e(ExprKind::Binary(op, Box::new(l), Box::new(r)), line, col)
    }
    /// A local variable.
    pub fn local(name: &str, line: u32, col: u32) -> Expr {
        e(ExprKind::Local(name.to_string()), line, col)
    }
    /// `base[index]`.
    pub fn index(base: Expr, index: Expr, line: u32, col: u32) -> Expr {
        e(ExprKind::Index(Box::new(base), Box::new(index)), line, col)
    }
    /// An integer literal without a suffix.
    pub fn int(v: u128, line: u32, col: u32) -> Expr {
        e(ExprKind::Lit(Lit::Int(v, None)), line, col)
    }
}

/// A generic argument of a kernel instantiation: `T = f32`, `TILE = 32`.
#[derive(Clone, Debug)]
pub enum GenericValue {
    Type(Type),
    Const(i128),
}

// ---- The device functions a call may name besides `#[device]` ones ----

/// A device function of the standard library as the front end sees it: what
/// [`Callable::Intrinsic`] names. Each is declared next to the table entries
/// it lowers to (kernel-std's `intrinsics`), by one declaration that also gives the stub users call.
pub struct IntrinsicSpec {
    /// The name users call it by, for messages.
    pub name: &'static str,
    pub lowering: Lowering,
    /// The table entries it owns: its own, or its family's (each entry has one owner, so a table
    /// of every function lists each entry once).
    pub entries: Entries,
}

impl std::fmt::Debug for IntrinsicSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "intrinsic fn {}", self.name)
    }
}

impl std::fmt::Display for IntrinsicSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

/// The entries of a function or family. A function, so that a large generated family (the
/// atomics) is built on its first use only.
pub type Entries = fn() -> &'static [IntrinsicDef];

/// How the front end types and lowers a call: one generic path per kind, plus [`Custom`] for the
/// few that need code of their own.
#[derive(Clone, Copy, Debug)]
pub enum Lowering {
    /// One entry with a fixed signature: the arguments converted to the entry's types; one result
    /// is a value, several a tuple (`match_all_sync`'s `(u32, bool)`).
    Scalar(&'static IntrinsicDef),
    /// One entry whose struct arguments and result travel as their fields (`half2`: two f16
    /// lanes): the entry takes the arguments' fields in order and returns the result's.
    Lanes {
        entry: &'static IntrinsicDef,
        params: &'static [fn() -> Type],
        ret: fn() -> Type,
    },
    /// A family of entries of one shape (the spec's `entries`), picked by the type of argument
    /// `arg` (`shfl_sync` on an f32 is the entry whose `args[arg]` is F32).
    Typed { arg: usize },
    /// Memory through a reference (atomics, cache-hinted loads and stores), the entry one of the
    /// spec's: see [`Access`].
    Access(Access),
    /// The address a reference into `space` holds, as an integer (U32 for shared, U64 for global
    /// memory: `cvta_to_shared`).
    AddressOf(Space),
    /// Whether a reference points into `space` (`None`: constant memory, where no reference of a
    /// kernel points), a constant known from the reference.
    IsIn(Option<Space>),
    /// A `Dim3` whose fields are three entries without arguments (`thread_idx()`: `tid.x/y/z`).
    Dim3 {
        axes: &'static [IntrinsicDef; 3],
        known: Known,
    },
    /// A function of the math library: see [`MathFn`].
    Math(MathFn),
    /// Lowered by code of its own in the front end.
    Custom(Custom),
}

/// A function of the math library (`rsqrt(x)`, `x.sin()`, float `%`): its arguments and results
/// all have one float type, which picks the implementation; `f16`/`bf16` compute in f32 and
/// round once at the end. A function with only an f32 implementation takes `f32`.
#[derive(Clone, Copy, Debug)]
pub struct MathFn {
    /// How many arguments (a method's receiver included).
    pub args: usize,
    /// Two results (`sincos`), returned as a tuple; otherwise one.
    pub pair: bool,
    /// The arguments of type `i32` instead of the float type, bit `i` for argument `i`
    /// (`ldexp(x, n)`: `0b10`). The float type is that of the first other argument.
    pub int_args: u8,
    /// The results of type `i32` instead of the float type, bit `i` for result `i` (`ilogb`:
    /// `0b1`; `frexp`, `(mantissa, exponent)`: `0b10`).
    pub int_rets: u8,
    /// Of those integer arguments and results, the ones of type `i64` (C's `long`) rather than
    /// `i32`: bit `i` for argument `i`, bit `4 + i` for result `i` (`scalbln(x, n)`: `0b10`;
    /// `lrint(x)`: `0b1_0000`).
    pub wide: u8,
    pub f32: Option<MathImpl>,
    pub f64: Option<MathImpl>,
}

impl MathFn {
    /// The integer type of argument `i` (`I32` or `I64`), `None` where it has the float type.
    pub fn int_arg(&self, i: usize) -> Option<crate::ir::Ty> {
        (self.int_args >> i & 1 == 1).then(|| self.int_ty(i))
    }
    /// The integer type of result `i`, `None` where it has the float type.
    pub fn int_ret(&self, i: usize) -> Option<crate::ir::Ty> {
        (self.int_rets >> i & 1 == 1).then(|| self.int_ty(4 + i))
    }
    fn int_ty(&self, bit: usize) -> crate::ir::Ty {
        if self.wide >> bit & 1 == 1 {
            crate::ir::Ty::I64
        } else {
            crate::ir::Ty::I32
        }
    }
}

/// How a [`MathFn`] computes for one float type.
#[derive(Clone, Copy, Debug)]
pub enum MathImpl {
    /// One table entry (directed-rounding arithmetic, `fma`, the `.approx` fast paths).
    Entry(&'static IntrinsicDef),
    /// A `#[device]` function of the math library, inlined like user device functions.
    Device(fn() -> Callable),
}

/// An operation on the memory a reference points at. Argument 0 is the reference, passed as its
/// address: each entry's `args[0]` says which space it serves (U64: global, U32: shared memory).
/// The other arguments and the result (when the entry has one) are values of the pointee's type,
/// passed as its lanes: a scalar, or the fields of a struct whose alignment is its size (`half2`,
/// `float4`), which then moves in one access. The entry is the one for the reference's space
/// whose lanes are the pointee's.
#[derive(Clone, Copy, Debug)]
pub struct Access {
    /// Writes through the reference: it must be `&mut`.
    pub writes: bool,
    /// A struct pointee without an entry of its own may be accessed field by field (hinted loads
    /// and stores of `float3`); an atomic must stay one access.
    pub by_field: bool,
}

/// What a kernel's required block shape (`#[kernel(block_dim = ...)]`) tells about the fields
/// of a [`Lowering::Dim3`] register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Known {
    Nothing,
    /// The extent itself (`block_dim()`).
    Extent,
    /// An index, 0 along an axis of extent 1 (`thread_idx()`).
    Index,
}

/// Intrinsics that need code of their own in the front end.
#[derive(Clone, Copy, Debug)]
pub enum Custom {
    /// `shared_array::<T>()`: one static allocation per call site.
    SharedArray,
    /// `dynamic_shared::<T>()`: the launch's dynamic shared memory as a slice.
    DynamicShared,
    /// `device_malloc::<T>(n)`: a slice of the device heap (the entry allocates).
    DeviceMalloc(&'static IntrinsicDef),
    /// `alloca::<T>(n)`: a slice of the thread's stack (the entry allocates).
    Alloca(&'static IntrinsicDef),
    /// `device_free(slice)` (the entry frees).
    DeviceFree(&'static IntrinsicDef),
    /// `assume(cond)`: checked in the simulator behind the entry (`sim_checks`).
    Assume(&'static IntrinsicDef),
    /// `assume_aligned(slice, align)`: as `Assume`.
    AssumeAligned(&'static IntrinsicDef),
    /// The entry, then a panic with this message that the simulator reports (`trap`,
    /// `unreachable`).
    Trap(&'static IntrinsicDef, &'static str),
    /// `pm_counter(n)`: the constant `n` picks the entry.
    PmCounter(&'static [IntrinsicDef]),
    /// One of `nvcuda::wmma`'s warp matrix functions (B.24), on fragments described by the table.
    Wmma(WmmaOp, &'static WmmaTable),
    /// The entry on the address of argument 0, a reference into shared memory (an `mbarrier`),
    /// and the other arguments as scalars; for sm_90 and newer the second entry when there is
    /// one (the same operation in a form older targets lack: `try_wait` spins, in which the
    /// hardware suspends the waiting thread instead of polling).
    SharedRef(&'static IntrinsicDef, Option<&'static IntrinsicDef>),
    /// The constant argument 0 (`0..len`) picks the entry, which takes no arguments (an
    /// instruction's immediate: `cp.async.wait_group N`).
    ConstIndex(&'static [IntrinsicDef]),
    /// `memcpy_async`'s forms: a `cp.async` from a global reference to a shared one.
    AsyncCopy(AsyncCopyForm, &'static AsyncCopyEntries),
    /// `map_shared_rank(r, rank)` (`writes`: `map_shared_rank_mut`): the memory `r` points at in
    /// this block's shared memory, in the block of rank `rank` of the cluster (distributed shared
    /// memory, `cluster.map_shared_rank`). `rank` is bounds-checked against `nctarank` (the entry
    /// reading the cluster's block count), then `mapa` maps the address.
    MapSharedRank {
        mapa: &'static IntrinsicDef,
        nctarank: &'static IntrinsicDef,
        writes: bool,
    },
    /// A bulk tensor (TMA) instruction (sm_90): the entry on one operand per argument, in
    /// order, each as [`BulkArg`] says.
    Bulk(&'static IntrinsicDef, &'static [BulkArg]),
    /// A non-tensor bulk copy between a shared and a global slice of the same length (entry
    /// arguments: destination address, source address, bytes, then the barrier's address for a
    /// load): `to_shared` says which way. The lengths must match and the bytes be a multiple of
    /// 16 (a compile error where both are constants, a panic at the call otherwise), both
    /// addresses 16-byte aligned (checked at run time unless the element type guarantees it).
    BulkCopy {
        def: &'static IntrinsicDef,
        to_shared: bool,
    },
}

/// One argument of a [`Custom::Bulk`] call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BulkArg {
    /// A reference into shared memory (`writes`: `&mut`, the destination of a load): its
    /// address, which must be a multiple of 128 (checked at run time unless the type is that
    /// aligned).
    Tile { writes: bool },
    /// A `&TensorMap` kernel parameter (`writes`: `&mut TensorMap`, what a store or reduction
    /// needs): its address.
    TensorMap { writes: bool },
    /// A `&Barrier` in shared memory: its address.
    Barrier,
    /// A scalar of the entry's argument type.
    Scalar,
}

/// Which `memcpy_async` a [`Custom::AsyncCopy`] call is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AsyncCopyForm {
    /// `memcpy_async(&mut dst, &src)`: one element.
    Element,
    /// `memcpy_async_or_zero(&mut dst, src, i)`: `src[i]`, or zeros when `i` is out of range.
    OrZero,
}

/// The `cp.async` entries of one cache policy, by size: `plain[k]` / `zfill[k]` copy
/// `4 << k` bytes (`zfill`: with the source-size operand).
#[derive(Debug)]
pub struct AsyncCopyEntries {
    pub plain: [&'static IntrinsicDef; 3],
    pub zfill: [&'static IntrinsicDef; 3],
}

/// Which warp matrix function a [`Custom::Wmma`] call is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WmmaOp {
    /// `fragment::<F>()`: a fragment whose elements are all zero.
    Fragment,
    /// `fill_fragment(&mut f, v)`: every element of `f` set to `v`.
    Fill,
    /// `load_matrix_sync(&mut f, slice, offset, ldm)` (an accumulator also takes a layout).
    Load,
    /// `store_matrix_sync(slice, offset, &f, ldm, layout)`.
    Store,
    /// `mma_sync(&mut d, &a, &b, &c)`.
    Mma,
}

/// The fragment types of `wmma` and their entries, for the front end: a fragment is a struct
/// with one array field `x` (its elements), recognised by the struct's name.
#[derive(Debug)]
pub struct WmmaTable {
    /// The fragment type whose struct is named `name`.
    pub fragment: fn(name: &str) -> Option<&'static WmmaFragment>,
    /// The `mma` entry for fragments `d`, `a`, `b`, `c` (by struct name), if that combination
    /// exists.
    pub mma: fn(d: &str, a: &str, b: &str, c: &str) -> Option<&'static IntrinsicDef>,
}

/// One fragment type: how its tile lies in memory and the entries that move it.
#[derive(Debug)]
pub struct WmmaFragment {
    /// The struct's name (`Fragment<MatrixA, 16, 16, 16, f16, RowMajor>`).
    pub name: &'static str,
    /// The tile's rows and columns (A: M x K, B: K x N, accumulator: M x N).
    pub rows: u32,
    pub cols: u32,
    /// The matrix element type in memory (the type of the slice it is loaded from), which is
    /// also the type of the fragment's elements.
    pub mem: crate::ir::Ty,
    /// Elements per thread (`num_elements`, the length of `x`).
    pub elems: u32,
    /// The memory layout fixed by the type (matrix A and B: `Some(col_major)`); an accumulator's
    /// is given at each load and store (`None`).
    pub col_major: Option<bool>,
    /// Load entries, at `2 * shared + col_major` (`None` where the layout is not this type's).
    pub load: [Option<&'static IntrinsicDef>; 4],
    /// Store entries, indexed as `load` (accumulators only).
    pub store: [Option<&'static IntrinsicDef>; 4],
}
