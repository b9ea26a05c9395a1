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

/// Size and alignment in bytes with C layout rules. `Err` carries the reason a type has no
/// device memory layout (tuples, references) or a struct whose layout disagrees with rustc's.
pub fn layout(t: &Ty) -> Result<(u32, u32), String> {
    Ok(match t {
        Ty::Bool | Ty::Int(_) | Ty::Float(_) => {
            let b = t.ir().map(|x| x.bytes()).unwrap_or(1);
            (b, b)
        }
        Ty::Array(e, n) => {
            let (s, a) = layout(e)?;
            let total = (s as u64)
                .checked_mul(*n)
                .filter(|v| *v <= u32::MAX as u64)
                .ok_or_else(|| format!("array type `{t}` is too large"))?;
            (total as u32, a)
        }
        Ty::Struct(s) => {
            let (size, align, _) = struct_layout(*s)?;
            (size, align)
        }
        Ty::Unit => (0, 1),
        _ => {
            return Err(format!(
                "type `{t}` has no fixed memory layout on the device"
            ))
        }
    })
}

/// The C layout of a struct: size, alignment and each field's offset; checked against the host's
/// `size_of` / `align_of` recorded by the derive.
pub fn struct_layout(s: SDef) -> Result<(u32, u32, Vec<u32>), String> {
    let mut off = 0u32;
    let mut align = 1u32;
    let mut offs = Vec::new();
    for (name, fty) in &s.0.fields {
        let ft = field_ty(s, name, fty)?;
        let (fs, fa) = layout(&ft)?;
        off = off.div_ceil(fa) * fa;
        offs.push(off);
        off += fs;
        align = align.max(fa);
    }
    // `#[repr(C, align(N))]` raises the alignment (CUDA's vector types: `float4` is 16-aligned).
    if s.0.align.is_power_of_two() && s.0.align > align as usize && s.0.align <= 256 {
        align = s.0.align as u32;
    }
    let size = off.div_ceil(align) * align;
    if size as usize != s.0.size || align as usize != s.0.align {
        return Err(format!(
            "struct `{}`: computed C layout (size {size}, align {align}) differs from the host's \
             (size {}, align {}); is it #[repr(C)]?",
            s.0.name, s.0.size, s.0.align
        ));
    }
    Ok((size, align, offs))
}

/// Converts a struct field's declared type (always concrete) to a `Ty`.
pub fn field_ty(s: SDef, name: &str, t: &kernel_ir::ast::Type) -> Result<Ty, String> {
    super::consts::concrete_type(t)
        .map_err(|m| format!("field `{name}` of struct `{}`: {m}", s.0.name))
}

/// Field types of a struct in declaration order.
pub fn struct_fields(s: SDef) -> Result<Vec<(String, Ty)>, String> {
    s.0.fields
        .iter()
        .map(|(n, t)| Ok((n.clone(), field_ty(s, n, t)?)))
        .collect()
}

/// The scalar leaves of a register-flattenable element type (scalars, structs, tuples of them),
/// in field order. Arrays of such elements become one local array per leaf.
pub fn leaves(t: &Ty) -> Result<Vec<ir::Ty>, String> {
    let mut out = Vec::new();
    leaves_into(t, &mut out)?;
    Ok(out)
}

fn leaves_into(t: &Ty, out: &mut Vec<ir::Ty>) -> Result<(), String> {
    match t {
        Ty::Unit => {}
        Ty::Tuple(ts) => {
            for x in ts {
                leaves_into(x, out)?;
            }
        }
        Ty::Struct(s) => {
            for (_, ft) in struct_fields(*s)? {
                leaves_into(&ft, out)?;
            }
        }
        _ => match t.ir() {
            Some(x) => out.push(x),
            None => {
                return Err(format!(
                    "arrays whose elements are `{t}` are not supported (element types must be \
                     scalars, or structs/tuples of scalars)"
                ))
            }
        },
    }
    Ok(())
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

/// The registers a value of type `t` moves in as one memory access: a scalar, or the fields of a
/// struct of scalars whose alignment is its size (CUDA's vector types, `half2`). `None` for
/// anything else.
pub fn access_lanes(t: &Ty) -> Option<Vec<ir::Ty>> {
    if let Some(s) = t.ir() {
        return Some(vec![s]);
    }
    let (size, align) = layout(t).ok()?;
    if size != align {
        return None;
    }
    field_lanes(t)
}

/// The fields of a struct of scalars, `None` for anything else.
pub fn field_lanes(t: &Ty) -> Option<Vec<ir::Ty>> {
    let Ty::Struct(s) = t else { return None };
    struct_fields(*s)
        .ok()?
        .iter()
        .map(|(_, f)| f.ir())
        .collect()
}
