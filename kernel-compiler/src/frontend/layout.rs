//! Memory layout of the front end's types: size, alignment and field offsets with C rules
//! (checked against the host's), the scalar leaves a value is flattened to, and the registers a
//! value moves in as one access. Struct field types are converted here (through `consts`), so
//! that `types` stays below the constant evaluator.

use kernel_ir::ir;

use super::consts::concrete_type;
use super::types::{SDef, Ty};

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
    concrete_type(t).map_err(|m| format!("field `{name}` of struct `{}`: {m}", s.0.name))
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
