//! Typing of calls to the device API (`kernel_std::intrinsics`): one rule per lowering kind of
//! the callee's spec, plus the custom ones.

use kernel_ir::ast::{self, Expr, GenericArg, IntTy};
use kernel_ir::ast::{Access, Custom, IntrinsicSpec, Lowering};
use kernel_ir::intrinsic::IntrinsicDef;
use kernel_ir::ir::Space;

use super::super::layout::{access_lanes, field_lanes};
use super::super::types::{from_ir, Ty};
use super::{dim3, key, Infer, Kind, R};

impl<'a> Infer<'a> {
    pub(super) fn intrinsic(
        &mut self,
        e: &Expr,
        spec: &'static IntrinsicSpec,
        generic_args: &[GenericArg],
        args: &[Expr],
    ) -> R<Ty> {
        let sp = e.span;
        let name = spec.name;
        let mut arg_tys = Vec::new();
        for a in args {
            arg_tys.push(self.expr(a)?);
        }
        match spec.lowering {
            Lowering::Scalar(def) => self.entry_call(name, def, &arg_tys, args, sp),
            Lowering::Typed { arg } => {
                let def = self.typed_entry(spec, arg, &arg_tys, sp)?;
                self.entry_call(name, def, &arg_tys, args, sp)
            }
            Lowering::Lanes { params, ret, .. } => {
                self.want_args(name, args, params.len(), sp)?;
                for ((t, a), p) in arg_tys.iter().zip(args).zip(params) {
                    let want = self.conv(&p(), a.span)?;
                    let t = self.deref(t);
                    self.unify(&t, &want, a.span)?;
                }
                self.conv(&ret(), sp)
            }
            Lowering::Access(acc) => self.access_call(spec, acc, &arg_tys, args, sp),
            Lowering::AddressOf(space) => {
                self.want_args(name, args, 1, sp)?;
                self.pointee(name, &arg_tys[0], false, args[0].span)?;
                Ok(Ty::Int(if space == Space::Shared {
                    IntTy::U32
                } else {
                    IntTy::U64
                }))
            }
            Lowering::IsIn(_) => {
                self.want_args(name, args, 1, sp)?;
                self.pointee(name, &arg_tys[0], false, args[0].span)?;
                Ok(Ty::Bool)
            }
            Lowering::Dim3 { .. } => {
                self.want_args(name, args, 0, sp)?;
                Ok(dim3())
            }
            Lowering::Math(m) => {
                // One float type throughout, but for the `i32` arguments (`ldexp(x, n)`).
                let is_int = |i: usize| m.int_args >> i & 1 == 1;
                let Some(fi) = (0..arg_tys.len()).find(|&i| !is_int(i)) else {
                    return self.math_result(name, m, &Ty::Unit, args.len(), sp);
                };
                let t = self.deref(&arg_tys[fi]);
                for (i, (a, e)) in arg_tys.iter().zip(args).enumerate() {
                    let a = self.deref(a);
                    if let Some(it) = m.int_arg(i) {
                        self.unify(&a, &super::calls::math_int(it), e.span)?;
                    } else if i != fi {
                        self.unify(&a, &t, e.span)?;
                    }
                }
                let t = self.shallow(&t);
                self.math_result(name, m, &t, args.len(), sp)
            }
            Lowering::Custom(c) => self.custom_call(e, name, c, generic_args, &arg_tys, args),
        }
    }

    /// A call of one entry with its own signature: one result is a value, several a tuple.
    fn entry_call(
        &mut self,
        name: &str,
        def: &IntrinsicDef,
        arg_tys: &[Ty],
        args: &[Expr],
        sp: ast::Span,
    ) -> R<Ty> {
        self.want_args(name, args, def.args.len(), sp)?;
        for ((t, a), want) in arg_tys.iter().zip(args).zip(def.args) {
            let t = self.deref(t);
            self.unify(&t, &from_ir(*want), a.span)?;
        }
        Ok(match def.rets {
            [] => Ty::Unit,
            [one] => from_ir(*one),
            many => Ty::Tuple(many.iter().map(|t| from_ir(*t)).collect()),
        })
    }

    pub(super) fn want_args(&self, name: &str, args: &[Expr], n: usize, sp: ast::Span) -> R<()> {
        if args.len() == n {
            Ok(())
        } else {
            Err(self.err(
                sp,
                format!("`{name}` takes {n} argument(s), {} given", args.len()),
            ))
        }
    }

    /// The entry of a family for the type of argument `arg`, which must be known here.
    fn typed_entry(
        &self,
        spec: &IntrinsicSpec,
        arg: usize,
        arg_tys: &[Ty],
        sp: ast::Span,
    ) -> R<&'static IntrinsicDef> {
        let name = spec.name;
        let Some(t) = arg_tys.get(arg) else {
            return Err(self.err(sp, format!("`{name}` takes more arguments")));
        };
        let Some(ir_ty) = self.deref(t).ir() else {
            return Err(self.err(
                sp,
                format!("`{name}`: the type of argument {} must be known here (annotate it, e.g. `1u32`)", arg + 1),
            ));
        };
        (spec.entries)()
            .iter()
            .find(|d| d.args.get(arg) == Some(&ir_ty))
            .ok_or_else(|| {
                self.err(
                    sp,
                    format!("`{name}` does not take values of type `{ir_ty:?}`"),
                )
            })
    }

    /// The type a reference argument points to; `mutable`: it must be `&mut`.
    pub(super) fn pointee(&self, name: &str, t: &Ty, mutable: bool, sp: ast::Span) -> R<Ty> {
        match self.shallow(t) {
            Ty::Ref(p, m) if m || !mutable => Ok(*p),
            _ if mutable => Err(self.err(
                sp,
                format!("`{name}` takes a mutable reference (`&mut x[i]`)"),
            )),
            _ => Err(self.err(sp, format!("`{name}` takes a reference (`&x[i]`)"))),
        }
    }

    /// Memory through reference argument 0: the other arguments and the result have the
    /// pointee's type, which one of the spec's entries must move (see `Access`).
    fn access_call(
        &mut self,
        spec: &IntrinsicSpec,
        acc: Access,
        arg_tys: &[Ty],
        args: &[Expr],
        sp: ast::Span,
    ) -> R<Ty> {
        let name = spec.name;
        let Some(first) = arg_tys.first() else {
            return Err(self.err(sp, format!("`{name}` takes a reference first")));
        };
        let pointee = self.pointee(name, first, acc.writes, args[0].span)?;
        for (t, a) in arg_tys.iter().zip(args).skip(1) {
            let t = self.deref(t);
            self.unify(&t, &pointee, a.span)?;
        }
        let pointee = self.shallow(&pointee);
        let entries = (spec.entries)();
        // An entry moves the pointee as `lanes`; each other argument is one such value.
        let fits = |d: &IntrinsicDef, lanes: &[kernel_ir::ir::Ty]| {
            d.value_lanes() == lanes && d.args.len() == 1 + (args.len() - 1) * lanes.len()
        };
        let whole = access_lanes(&pointee).is_some_and(|l| entries.iter().any(|d| fits(d, &l)));
        let fields = || {
            acc.by_field
                && field_lanes(&pointee)
                    .is_some_and(|fs| fs.iter().all(|f| entries.iter().any(|d| fits(d, &[*f]))))
        };
        if !whole && !fields() {
            let what = if matches!(pointee, Ty::Var(_)) || self.kind(&pointee) == Some(Kind::Int) {
                format!("`{name}`: the type of argument 1 must be known here (annotate it, e.g. `1u32`)")
            } else {
                format!(
                    "`{name}` does not take values of type `{}`",
                    self.show(&pointee)
                )
            };
            return Err(self.err(sp, what));
        }
        Ok(if entries[0].rets.is_empty() {
            Ty::Unit
        } else {
            pointee
        })
    }

    fn custom_call(
        &mut self,
        e: &Expr,
        name: &str,
        c: Custom,
        generic_args: &[GenericArg],
        arg_tys: &[Ty],
        args: &[Expr],
    ) -> R<Ty> {
        let sp = e.span;
        match c {
            Custom::SharedArray | Custom::DynamicShared => {
                self.want_args(name, args, 0, sp)?;
                let t = self.type_arg(name, generic_args, "()", sp)?;
                self.intrinsic_args.insert(key(e), vec![t.clone()]);
                Ok(if matches!(c, Custom::SharedArray) {
                    Ty::Ref(Box::new(t), true)
                } else {
                    Ty::Slice(Box::new(t), true)
                })
            }
            Custom::DeviceMalloc(_) | Custom::Alloca(_) => {
                let t = self.type_arg(name, generic_args, "(n)", sp)?;
                self.want_args(name, args, 1, sp)?;
                self.unify(&arg_tys[0], &Ty::USIZE, args[0].span)?;
                self.intrinsic_args.insert(key(e), vec![t.clone()]);
                Ok(Ty::Slice(Box::new(t), true))
            }
            Custom::DeviceFree(_) => {
                self.want_args(name, args, 1, sp)?;
                match self.shallow(&arg_tys[0]) {
                    Ty::Slice(_, true) => Ok(Ty::Unit),
                    Ty::Ref(t, _) if matches!(self.shallow(&t), Ty::Slice(_, true)) => Ok(Ty::Unit),
                    _ => Err(self.err(
                        args[0].span,
                        "`device_free` takes the `&mut [T]` that `device_malloc` returned",
                    )),
                }
            }
            Custom::Assume(_) => {
                self.want_args(name, args, 1, sp)?;
                self.unify(&arg_tys[0], &Ty::Bool, args[0].span)?;
                Ok(Ty::Unit)
            }
            Custom::AssumeAligned(_) => {
                self.want_args(name, args, 2, sp)?;
                self.unify(&arg_tys[1], &Ty::USIZE, args[1].span)?;
                let t = self.shallow(&arg_tys[0]);
                let is_slice = match &t {
                    Ty::Slice(..) => true,
                    Ty::Ref(r, _) => matches!(self.shallow(r), Ty::Slice(..)),
                    _ => false,
                };
                if !is_slice {
                    return Err(self.err(
                        args[0].span,
                        "`assume_aligned` takes a slice (`&[T]` or `&mut [T]`)",
                    ));
                }
                Ok(t)
            }
            Custom::Trap(..) => {
                self.want_args(name, args, 0, sp)?;
                Ok(Ty::Unit)
            }
            Custom::Wmma(op, table) => {
                self.wmma_call(e, name, (op, table), generic_args, arg_tys, args)
            }
            Custom::PmCounter(_) | Custom::ConstIndex(_) => {
                self.want_args(name, args, 1, sp)?;
                self.unify(&arg_tys[0], &Ty::Int(IntTy::U32), args[0].span)?;
                Ok(Ty::Unit)
            }
            Custom::SharedRef(def, _) => {
                // The reference, then the entry's own scalar arguments.
                self.want_args(name, args, def.args.len(), sp)?;
                self.pointee(name, &arg_tys[0], false, args[0].span)?;
                for ((t, a), want) in arg_tys[1..].iter().zip(&args[1..]).zip(&def.args[1..]) {
                    let t = self.deref(t);
                    self.unify(&t, &from_ir(*want), a.span)?;
                }
                Ok(match def.rets {
                    [] => Ty::Unit,
                    [one] => from_ir(*one),
                    many => Ty::Tuple(many.iter().map(|t| from_ir(*t)).collect()),
                })
            }
            Custom::AsyncCopy(form, _) => self.async_copy_call(name, form, arg_tys, args, sp),
            Custom::Bulk(def, kinds) => self.bulk_call(name, def, kinds, arg_tys, args, sp),
            Custom::BulkCopy { to_shared, .. } => {
                self.bulk_copy_call(name, to_shared, arg_tys, args, sp)
            }
            Custom::MapSharedRank { writes, .. } => {
                self.want_args(name, args, 2, sp)?;
                self.unify(&arg_tys[1], &Ty::Int(IntTy::U32), args[1].span)?;
                match self.shallow(&arg_tys[0]) {
                    Ty::Ref(t, m) if m || !writes => Ok(Ty::Ref(t, writes)),
                    _ => Err(self.err(
                        args[0].span,
                        format!(
                            "`{name}` takes a {} reference into this block's shared memory (a `shared_array`, or an element of one)",
                            if writes { "`&mut`" } else { "`&`" }
                        ),
                    )),
                }
            }
        }
    }

    /// The explicit type argument of `name::<T>()`.
    fn type_arg(
        &mut self,
        name: &str,
        generic_args: &[GenericArg],
        call: &str,
        sp: ast::Span,
    ) -> R<Ty> {
        match generic_args.first() {
            Some(GenericArg::Type(t)) => self.conv(t, sp),
            _ => Err(self.err(
                sp,
                format!("`{name}` needs its element type written explicitly: `{name}::<T>{call}`"),
            )),
        }
    }
}
