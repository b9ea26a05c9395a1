//! Intrinsics that need more than a table lookup: cache-hinted loads and stores generic over the
//! element type (one `v2`/`v4` access for CUDA's vector types), address-space predicates known from the reference's provenance, `trap`,
//! `unreachable`, `assume`, `cvta_to_*` and `pm_counter`'s constant argument.

use kernel_ir::ast::Expr;
use kernel_ir::ir::{self, Inst, Operand, PanicKind, Space};

use super::consts::eval_const;
use super::types::{layout, struct_fields, struct_layout, Ty};
use super::value::{c_u64, Loc, Val};
use super::{Lower, R};

/// Cache-hinted loads (`__ldg`, `__ldca`, `__ldcg`, `__ldcs`, `__ldlu`, `__ldcv`).
pub const HINTED_LOADS: &[&str] = &["ldg", "ldca", "ldcg", "ldcs", "ldlu", "ldcv"];
/// Cache-hinted stores (`__stwb`, `__stcg`, `__stcs`, `__stwt`).
pub const HINTED_STORES: &[&str] = &["stwb", "stcg", "stcs", "stwt"];
/// `__isGlobal` and friends.
pub const SPACE_PREDICATES: &[&str] = &["is_global", "is_shared", "is_local", "is_constant"];

/// The element-type part of a hinted entry's name (`ldcg.f32`).
fn suffix(t: ir::Ty) -> Option<&'static str> {
    Some(match t {
        ir::Ty::U8 => "u8",
        ir::Ty::I8 => "s8",
        ir::Ty::U16 => "u16",
        ir::Ty::I16 => "s16",
        ir::Ty::U32 => "u32",
        ir::Ty::I32 => "s32",
        ir::Ty::U64 => "u64",
        ir::Ty::I64 => "s64",
        ir::Ty::F16 => "f16",
        ir::Ty::BF16 => "bf16",
        ir::Ty::F32 => "f32",
        ir::Ty::F64 => "f64",
        ir::Ty::Bool => return None,
    })
}

/// For a struct of 2 or 4 equal scalars whose alignment is its size (CUDA's vector types), the
/// lane count and the hinted entries' type suffix: such an element moves in one access.
fn vector_shape(t: &Ty) -> Option<(usize, &'static str)> {
    let Ty::Struct(s) = t else { return None };
    let fields = struct_fields(*s).ok()?;
    let first = fields.first()?.1.ir()?;
    if !fields.iter().all(|(_, f)| f.ir() == Some(first)) {
        return None;
    }
    let n = fields.len();
    let (size, align) = layout(t).ok()?;
    let fits = matches!((first.bytes(), n), (2, 2 | 4) | (4, 2 | 4) | (8, 2));
    (fits && size == align && first != ir::Ty::Bool && first.bytes() > 1)
        .then(|| suffix(first).map(|sfx| (n, sfx)))
        .flatten()
}

/// For a struct of scalars (no vector shape: `float3`, `uchar4`...), each field's byte offset and
/// hinted-entry suffix.
fn flat_fields(t: &Ty) -> Option<Vec<(u32, &'static str)>> {
    let Ty::Struct(s) = t else { return None };
    let (_, _, offs) = struct_layout(*s).ok()?;
    struct_fields(*s)
        .ok()?
        .iter()
        .zip(offs)
        .map(|((_, f), off)| f.ir().and_then(suffix).map(|sfx| (off, sfx)))
        .collect()
}

impl Lower {
    /// Lowers the calls this file handles; `None` for every other intrinsic.
    pub(super) fn special_intrinsic(
        &mut self,
        e: &Expr,
        name: &str,
        args: &[Expr],
    ) -> R<Option<Val>> {
        let sp = e.span;
        let load = HINTED_LOADS.contains(&name);
        if load || HINTED_STORES.contains(&name) {
            let target = match self.ty(&args[0]) {
                Ty::Ref(t, _) => Some(*t),
                _ => None,
            };
            if let Some((n, sfx)) = target.as_ref().and_then(vector_shape) {
                return self.vector_hinted(e, name, load, n, sfx, args).map(Some);
            }
            if let Some(fields) = target.as_ref().and_then(flat_fields) {
                return self
                    .fieldwise_hinted(e, name, load, &fields, args)
                    .map(Some);
            }
            let elem = target.and_then(|t| t.ir()).and_then(suffix);
            let Some(sfx) = elem else {
                return Err(self.err(
                    args[0].span,
                    format!(
                        "`{name}` takes a reference to a scalar (integer, f16, bf16, f32, f64) or a \
                         struct of them (`float4`, `int2`, `half2`...) in global memory"
                    ),
                ));
            };
            let addr = self.global_address(&args[0], name)?;
            let entry = format!("{name}.{sfx}");
            if load {
                let r = self.intrinsic(&entry, &[addr], sp)?;
                return Ok(Some(Val::Scalar(Operand::Var(r[0]))));
            }
            let v = self.scalar(&args[1])?;
            self.intrinsic(&entry, &[addr, v], sp)?;
            return Ok(Some(Val::Unit));
        }
        if SPACE_PREDICATES.contains(&name) {
            // References carry their memory space statically, so the answer is a constant.
            let space = match self.expr(&args[0])? {
                Val::Ref(Loc::Mem {
                    space: Space::Global,
                    ..
                }) => "is_global",
                Val::Ref(Loc::Mem {
                    space: Space::Shared,
                    ..
                }) => "is_shared",
                _ => "is_local",
            };
            return Ok(Some(Val::Scalar(Operand::Const(ir::Const::bool(
                space == name,
            )))));
        }
        match name {
            "cvta_to_shared" | "cvta_to_global" => {
                // Shared references already hold the shared-window offset, global ones the
                // generic pointer (which is its own global address on every supported GPU).
                let want = if name == "cvta_to_shared" {
                    Space::Shared
                } else {
                    Space::Global
                };
                match self.expr(&args[0])? {
                    Val::Ref(Loc::Mem { space, addr, .. }) if space == want => {
                        Ok(Some(Val::Scalar(addr)))
                    }
                    _ => Err(self.err(
                        args[0].span,
                        format!("`{name}` needs a reference into {want:?} memory"),
                    )),
                }
            }
            "trap" | "unreachable" => {
                self.intrinsic("trap", &[], sp)?;
                // The GPU never gets past `trap`; the simulator reports the location instead.
                let msg = if name == "trap" {
                    "trap() called"
                } else {
                    "entered unreachable code"
                };
                let site = self.site(PanicKind::Explicit(msg.into()), sp);
                self.emit(Inst::Panic {
                    site,
                    a: c_u64(0),
                    b: c_u64(0),
                });
                Ok(Some(Val::Unit))
            }
            "assume" | "assume_aligned" => self.assumption(e, name, args).map(Some),
            "pm_counter" => {
                let env = self.cx().env.clone();
                let n = match eval_const(&args[0], &env) {
                    Ok((n, _)) if (0..16).contains(&n) => n,
                    _ => {
                        return Err(self.err(
                            args[0].span,
                            "`pm_counter` takes a constant counter number 0..=15",
                        ))
                    }
                };
                self.intrinsic(&format!("pm_counter.{n}"), &[], sp)?;
                Ok(Some(Val::Unit))
            }
            _ => Ok(None),
        }
    }

    /// A hinted access of a whole vector-type element: one `v2`/`v4` instruction.
    fn vector_hinted(
        &mut self,
        e: &Expr,
        name: &str,
        load: bool,
        n: usize,
        sfx: &str,
        args: &[Expr],
    ) -> R<Val> {
        let sp = e.span;
        let addr = self.global_address(&args[0], name)?;
        let entry = format!("{name}.v{n}.{sfx}");
        if load {
            let r = self.intrinsic(&entry, &[addr], sp)?;
            return Ok(Val::Agg(
                r.into_iter()
                    .map(|v| Val::Scalar(Operand::Var(v)))
                    .collect(),
            ));
        }
        let mut ops = vec![addr];
        match self.expr(&args[1])? {
            Val::Agg(vs) => {
                for v in vs {
                    match v {
                        Val::Scalar(o) => ops.push(o),
                        _ => {
                            return Err(
                                self.err(args[1].span, "internal: vector field is not a scalar")
                            )
                        }
                    }
                }
            }
            _ => return Err(self.err(args[1].span, "internal: vector value is not an aggregate")),
        }
        self.intrinsic(&entry, &ops, sp)?;
        Ok(Val::Unit)
    }

    /// A hinted access of a struct of scalars: one hinted access per field.
    fn fieldwise_hinted(
        &mut self,
        e: &Expr,
        name: &str,
        load: bool,
        fields: &[(u32, &str)],
        args: &[Expr],
    ) -> R<Val> {
        let sp = e.span;
        let base = self.global_address(&args[0], name)?;
        let value = if load {
            None
        } else {
            match self.expr(&args[1])? {
                Val::Agg(vs) => Some(vs),
                _ => {
                    return Err(self.err(args[1].span, "internal: struct value is not an aggregate"))
                }
            }
        };
        let mut out = Vec::new();
        for (k, (off, sfx)) in fields.iter().enumerate() {
            let addr = self.bin(
                ir::BinOp::Add,
                base,
                Operand::Const(ir::Const::u64(*off as u64)),
            );
            let entry = format!("{name}.{sfx}");
            match &value {
                None => {
                    let r = self.intrinsic(&entry, &[addr], sp)?;
                    out.push(Val::Scalar(Operand::Var(r[0])));
                }
                Some(vs) => match vs.get(k) {
                    Some(Val::Scalar(v)) => {
                        self.intrinsic(&entry, &[addr, *v], sp)?;
                    }
                    _ => {
                        return Err(self.err(args[1].span, "internal: struct field is not a scalar"))
                    }
                },
            }
        }
        Ok(if load { Val::Agg(out) } else { Val::Unit })
    }

    fn global_address(&mut self, a: &Expr, name: &str) -> R<Operand> {
        match self.expr(a)? {
            Val::Ref(Loc::Mem {
                space: Space::Global,
                addr,
                ..
            }) => Ok(addr),
            _ => Err(self.err(
                a.span,
                format!("`{name}` needs a reference into global memory (an element of a slice parameter)"),
            )),
        }
    }
}
