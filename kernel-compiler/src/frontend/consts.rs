//! Compile-time values: generic substitutions, array lengths and other constant expressions,
//! host constants and associated constants (`T::MAX`) of concrete scalar types.

use crate::passes::fx::FxHashMap as HashMap;

use kernel_ir::ast::{self, ConstValue, ExprKind, FloatTy, IntTy, Lit, Type};

use super::types::{int_name, Ty};

/// What a generic parameter stands for in one instantiation.
#[derive(Clone, Debug, PartialEq)]
pub enum GBind {
    Type(Ty),
    Const(i128, IntTy),
}

/// The generic substitution of one function instance.
#[derive(Clone, Debug, Default)]
pub struct Env {
    pub map: HashMap<String, GBind>,
}

impl Env {
    pub fn ty(&self, name: &str) -> Option<&Ty> {
        match self.map.get(name) {
            Some(GBind::Type(t)) => Some(t),
            _ => None,
        }
    }
    pub fn konst(&self, name: &str) -> Option<(i128, IntTy)> {
        match self.map.get(name) {
            Some(GBind::Const(v, t)) => Some((*v, *t)),
            _ => None,
        }
    }
}

/// Converts a type written in the source. `fresh` supplies inference variables for `_`; without
/// it `_` is an error.
pub fn convert_type(t: &Type, env: &Env, fresh: &mut dyn FnMut() -> Ty) -> Result<Ty, String> {
    Ok(match t {
        Type::Unit => Ty::Unit,
        Type::Bool => Ty::Bool,
        Type::Int(i) => Ty::Int(*i),
        Type::Float(f) => Ty::Float(*f),
        Type::Array(e, len) => {
            let e = convert_type(e, env, fresh)?;
            let (n, _) = eval_const(len, env)?;
            if n < 0 || n > u32::MAX as i128 {
                return Err(format!("array length {n} is out of range"));
            }
            Ty::Array(Box::new(e), n as u64)
        }
        Type::Slice(e, m) => Ty::Slice(
            Box::new(convert_type(e, env, fresh)?),
            *m == ast::Mutability::Mut,
        ),
        Type::Ref(e, m) => Ty::Ref(
            Box::new(convert_type(e, env, fresh)?),
            *m == ast::Mutability::Mut,
        ),
        Type::Tuple(ts) => Ty::Tuple(
            ts.iter()
                .map(|x| convert_type(x, env, fresh))
                .collect::<Result<_, _>>()?,
        ),
        Type::Param(name) => match env.map.get(name) {
            Some(GBind::Type(t)) => t.clone(),
            Some(GBind::Const(..)) => return Err(format!("`{name}` is a const, not a type")),
            None => return Err(format!("unknown type parameter `{name}`")),
        },
        Type::Struct(s) => Ty::Struct(super::types::SDef((s.def)())),
        Type::Infer => fresh(),
    })
}

/// A type that needs no generic context (struct fields, generic arguments given by the host).
pub fn concrete_type(t: &Type) -> Result<Ty, String> {
    convert_type(t, &Env::default(), &mut || Ty::Unit).and_then(|ty| {
        if matches!(t, Type::Infer) {
            Err("`_` is not allowed here".into())
        } else {
            Ok(ty)
        }
    })
}

/// Evaluates a constant integer expression (array lengths, const generic arguments, `pow`
/// exponents). The type is `None` for unsuffixed literals.
pub fn eval_const(e: &ast::Expr, env: &Env) -> Result<(i128, Option<IntTy>), String> {
    Ok(match &e.kind {
        ExprKind::Lit(Lit::Int(v, t)) => (*v as i128, *t),
        ExprKind::Local(name) => match env.konst(name) {
            Some((v, t)) => (v, Some(t)),
            None => return Err(format!("`{name}` is not a constant")),
        },
        ExprKind::HostConst(h) => match (h.eval)() {
            ConstValue::Int(v, t) => (v, Some(t)),
            _ => return Err(format!("host constant `{}` is not an integer", h.text)),
        },
        ExprKind::Unary(ast::UnOp::Neg, a) => {
            let (v, t) = eval_const(a, env)?;
            (v.wrapping_neg(), t)
        }
        ExprKind::Cast(a, Type::Int(t)) => {
            let (v, _) = eval_const(a, env)?;
            (wrap_int(v, *t), Some(*t))
        }
        ExprKind::AssocConst {
            ty: Type::Int(t),
            name,
        } => (int_assoc(*t, name)?, Some(*t)),
        ExprKind::Block(b) if b.stmts.is_empty() && b.tail.is_some() => {
            eval_const(b.tail.as_ref().unwrap(), env)?
        }
        ExprKind::Binary(op, a, b) => {
            let (x, tx) = eval_const(a, env)?;
            let (y, ty) = eval_const(b, env)?;
            use ast::BinOp::*;
            let v = match op {
                Add => x.checked_add(y),
                Sub => x.checked_sub(y),
                Mul => x.checked_mul(y),
                Div => x.checked_div(y),
                Rem => x.checked_rem(y),
                Shl => u32::try_from(y).ok().and_then(|s| x.checked_shl(s)),
                Shr => u32::try_from(y).ok().and_then(|s| x.checked_shr(s)),
                BitAnd => Some(x & y),
                BitOr => Some(x | y),
                BitXor => Some(x ^ y),
                _ => return Err("this operator is not allowed in a constant expression".into()),
            }
            .ok_or("overflow or division by zero in a constant expression")?;
            let t = tx.or(ty);
            (t.map(|t| wrap_int(v, t)).unwrap_or(v), t)
        }
        _ => return Err("expected a constant integer expression".into()),
    })
}

/// Reduces an integer to the range of `t` (two's complement wrap).
pub fn wrap_int(v: i128, t: IntTy) -> i128 {
    let bits = super::types::int_ir(t).bits();
    let m = v & ((1i128 << bits) - 1);
    if super::types::int_ir(t).is_signed() && m >= 1i128 << (bits - 1) {
        m - (1i128 << bits)
    } else {
        m
    }
}

pub fn int_min_max(t: IntTy) -> (i128, i128) {
    let ir = super::types::int_ir(t);
    let bits = ir.bits();
    if ir.is_signed() {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    } else {
        (0, (1i128 << bits) - 1)
    }
}

pub fn int_assoc(t: IntTy, name: &str) -> Result<i128, String> {
    let (min, max) = int_min_max(t);
    Ok(match name {
        "MIN" => min,
        "MAX" => max,
        "ZERO" => 0,
        "ONE" => 1,
        "BITS" => super::types::int_ir(t).bits() as i128,
        _ => return Err(format!("`{}::{name}` is not supported", int_name(t))),
    })
}

/// Associated float constants as f64 values (exactly representable in the target type).
pub fn float_assoc(t: FloatTy, name: &str) -> Result<f64, String> {
    use half::{bf16, f16};
    let v = match (t, name) {
        (_, "ZERO") => 0.0,
        (_, "ONE") => 1.0,
        (_, "INFINITY") => f64::INFINITY,
        (_, "NEG_INFINITY") => f64::NEG_INFINITY,
        (_, "NAN") => f64::NAN,
        (FloatTy::F32, "MAX") => f32::MAX as f64,
        (FloatTy::F32, "MIN") => f32::MIN as f64,
        (FloatTy::F32, "EPSILON") => f32::EPSILON as f64,
        (FloatTy::F32, "MIN_POSITIVE") => f32::MIN_POSITIVE as f64,
        (FloatTy::F64, "MAX") => f64::MAX,
        (FloatTy::F64, "MIN") => f64::MIN,
        (FloatTy::F64, "EPSILON") => f64::EPSILON,
        (FloatTy::F64, "MIN_POSITIVE") => f64::MIN_POSITIVE,
        (FloatTy::F16, "MAX") => f16::MAX.to_f64(),
        (FloatTy::F16, "MIN") => f16::MIN.to_f64(),
        (FloatTy::F16, "EPSILON") => f16::EPSILON.to_f64(),
        (FloatTy::F16, "MIN_POSITIVE") => f16::MIN_POSITIVE.to_f64(),
        (FloatTy::BF16, "MAX") => bf16::MAX.to_f64(),
        (FloatTy::BF16, "MIN") => bf16::MIN.to_f64(),
        (FloatTy::BF16, "EPSILON") => bf16::EPSILON.to_f64(),
        (FloatTy::BF16, "MIN_POSITIVE") => bf16::MIN_POSITIVE.to_f64(),
        _ => {
            return Err(format!(
                "`{}::{name}` is not supported",
                super::types::float_name(t)
            ))
        }
    };
    Ok(v)
}

/// The IR bits of a float value in type `t` (rounded once to nearest even, as the device does).
pub fn float_bits(v: f64, t: FloatTy) -> u64 {
    match t {
        FloatTy::F16 => kernel_ir::float16::f16_from_f64(v) as u64,
        FloatTy::BF16 => kernel_ir::float16::bf16_from_f64(v) as u64,
        FloatTy::F32 => (v as f32).to_bits() as u64,
        FloatTy::F64 => v.to_bits(),
    }
}

/// The type of a host constant's value.
pub fn const_value_ty(v: &ConstValue) -> Result<Ty, String> {
    Ok(match v {
        ConstValue::Bool(_) => Ty::Bool,
        ConstValue::Int(_, t) => Ty::Int(*t),
        ConstValue::Float(_, t) => Ty::Float(*t),
        ConstValue::Array(vs) => {
            let first = vs
                .first()
                .ok_or("empty constant arrays are not supported")?;
            Ty::Array(Box::new(const_value_ty(first)?), vs.len() as u64)
        }
        ConstValue::Tuple(vs) => {
            Ty::Tuple(vs.iter().map(const_value_ty).collect::<Result<_, _>>()?)
        }
    })
}
