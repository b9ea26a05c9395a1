//! The front end's own type representation: resolved (monomorphic) types plus inference variables,
//! their memory layout (C rules, checked against rustc's numbers for structs) and their flattening
//! into IR scalars.

use std::fmt;

use kernel_ir::ast::{FloatTy, IntTy, StructDef};
use kernel_ir::ir;

/// A `#[repr(C)]` struct definition, compared by identity (each derive yields one static).
#[derive(Clone, Copy)]
pub struct SDef(pub &'static StructDef);

impl PartialEq for SDef {
    fn eq(&self, o: &Self) -> bool {
        std::ptr::eq(self.0, o.0)
    }
}
/// Includes the definition's address: substitution cache keys are built from `Debug` output,
/// and two structs may share a name in different modules.
impl fmt::Debug for SDef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}@{:p}", self.0.name, self.0)
    }
}

/// A type during and after inference. `Var` only appears before resolution.
#[derive(Clone, Debug, PartialEq)]
pub enum Ty {
    Unit,
    /// The type of expressions that never produce a value (`return`, `break`, `panic!`).
    Never,
    Bool,
    Int(IntTy),
    Float(FloatTy),
    Array(Box<Ty>, u64),
    Tuple(Vec<Ty>),
    Struct(SDef),
    /// `&[T]` / `&mut [T]` (the bool says mutable).
    Slice(Box<Ty>, bool),
    /// `&T` / `&mut T`.
    Ref(Box<Ty>, bool),
    /// A range `a..b` (only as a `for` iterator or a slicing index).
    Range(Box<Ty>),
    /// An iterator over a slice or array yielding this item (`.iter()`, `.iter_mut()`,
    /// `.enumerate()`), only as a `for` iterator.
    Iter(Box<Ty>),
    /// An inference variable.
    Var(u32),
}

impl Ty {
    pub const USIZE: Ty = Ty::Int(IntTy::Usize);

    pub fn is_scalar(&self) -> bool {
        matches!(self, Ty::Bool | Ty::Int(_) | Ty::Float(_))
    }

    /// The IR register type of a scalar.
    pub fn ir(&self) -> Option<ir::Ty> {
        Some(match self {
            Ty::Bool => ir::Ty::Bool,
            Ty::Int(i) => int_ir(*i),
            Ty::Float(f) => float_ir(*f),
            _ => return None,
        })
    }

    /// Strips references (auto-deref for fields, indexing, methods and operators).
    pub fn deref_all(&self) -> &Ty {
        let mut t = self;
        while let Ty::Ref(inner, _) = t {
            t = inner;
        }
        t
    }
}

pub fn int_ir(i: IntTy) -> ir::Ty {
    match i {
        IntTy::I8 => ir::Ty::I8,
        IntTy::I16 => ir::Ty::I16,
        IntTy::I32 => ir::Ty::I32,
        IntTy::I64 | IntTy::Isize => ir::Ty::I64,
        IntTy::U8 => ir::Ty::U8,
        IntTy::U16 => ir::Ty::U16,
        IntTy::U32 => ir::Ty::U32,
        IntTy::U64 | IntTy::Usize => ir::Ty::U64,
    }
}

pub fn float_ir(f: FloatTy) -> ir::Ty {
    match f {
        FloatTy::F16 => ir::Ty::F16,
        FloatTy::BF16 => ir::Ty::BF16,
        FloatTy::F32 => ir::Ty::F32,
        FloatTy::F64 => ir::Ty::F64,
    }
}

/// The front-end type of an IR scalar type (`U64` maps to `u64`, not `usize`).
pub fn from_ir(t: ir::Ty) -> Ty {
    match t {
        ir::Ty::Bool => Ty::Bool,
        ir::Ty::I8 => Ty::Int(IntTy::I8),
        ir::Ty::I16 => Ty::Int(IntTy::I16),
        ir::Ty::I32 => Ty::Int(IntTy::I32),
        ir::Ty::I64 => Ty::Int(IntTy::I64),
        ir::Ty::U8 => Ty::Int(IntTy::U8),
        ir::Ty::U16 => Ty::Int(IntTy::U16),
        ir::Ty::U32 => Ty::Int(IntTy::U32),
        ir::Ty::U64 => Ty::Int(IntTy::U64),
        ir::Ty::F16 => Ty::Float(FloatTy::F16),
        ir::Ty::BF16 => Ty::Float(FloatTy::BF16),
        ir::Ty::F32 => Ty::Float(FloatTy::F32),
        ir::Ty::F64 => Ty::Float(FloatTy::F64),
    }
}

/// How a scalar is stored in memory and in local arrays: `bool` is a byte (as in Rust), because
/// predicates have no memory form.
pub fn mem_ir(t: ir::Ty) -> ir::Ty {
    if t == ir::Ty::Bool {
        ir::Ty::U8
    } else {
        t
    }
}

pub fn int_name(i: IntTy) -> &'static str {
    match i {
        IntTy::I8 => "i8",
        IntTy::I16 => "i16",
        IntTy::I32 => "i32",
        IntTy::I64 => "i64",
        IntTy::Isize => "isize",
        IntTy::U8 => "u8",
        IntTy::U16 => "u16",
        IntTy::U32 => "u32",
        IntTy::U64 => "u64",
        IntTy::Usize => "usize",
    }
}

pub fn float_name(f: FloatTy) -> &'static str {
    match f {
        FloatTy::F16 => "f16",
        FloatTy::BF16 => "bf16",
        FloatTy::F32 => "f32",
        FloatTy::F64 => "f64",
    }
}

impl fmt::Display for Ty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ty::Unit => f.write_str("()"),
            Ty::Never => f.write_str("!"),
            Ty::Bool => f.write_str("bool"),
            Ty::Int(i) => f.write_str(int_name(*i)),
            Ty::Float(x) => f.write_str(float_name(*x)),
            Ty::Array(t, n) => write!(f, "[{t}; {n}]"),
            Ty::Tuple(ts) => {
                f.write_str("(")?;
                for (i, t) in ts.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{t}")?;
                }
                if ts.len() == 1 {
                    f.write_str(",")?;
                }
                f.write_str(")")
            }
            Ty::Struct(s) => f.write_str(s.0.name),
            Ty::Slice(t, m) => write!(f, "&{}[{t}]", if *m { "mut " } else { "" }),
            Ty::Ref(t, m) => write!(f, "&{}{t}", if *m { "mut " } else { "" }),
            Ty::Range(t) => write!(f, "Range<{t}>"),
            Ty::Iter(t) => write!(f, "Iter<{t}>"),
            Ty::Var(_) => f.write_str("_"),
        }
    }
}

/// A PTX-identifier-safe spelling of a type, for mangled kernel names.
pub fn mangle(t: &Ty) -> String {
    match t {
        Ty::Unit => "U".into(),
        Ty::Array(e, n) => format!("A{n}_{}", mangle(e)),
        Ty::Tuple(ts) => {
            let inner: Vec<String> = ts.iter().map(mangle).collect();
            format!("T{}_{}_E", ts.len(), inner.join("_"))
        }
        Ty::Struct(s) => sanitize(s.0.name),
        Ty::Slice(e, m) => format!("S{}_{}", if *m { "m" } else { "" }, mangle(e)),
        Ty::Ref(e, m) => format!("R{}_{}", if *m { "m" } else { "" }, mangle(e)),
        other => sanitize(&other.to_string()),
    }
}

/// Keeps `[A-Za-z0-9_$]`, maps `::` to `$` and anything else to `_`.
pub fn sanitize(s: &str) -> String {
    s.replace("::", "$")
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '$' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Innermost element type and total element count of a (nested) array type.
pub fn array_flat(t: &Ty) -> (&Ty, u64) {
    let mut t = t;
    let mut n = 1u64;
    while let Ty::Array(e, len) = t {
        n = n.saturating_mul(*len);
        t = e;
    }
    (t, n)
}

/// Whether a type holds a reference or a slice (views of memory, not plain data).
pub fn has_view(t: &Ty) -> bool {
    match t {
        Ty::Ref(..) | Ty::Slice(..) => true,
        Ty::Tuple(ts) => ts.iter().any(has_view),
        _ => false,
    }
}
