//! Calls of the device API (`kernel_std::intrinsics`): one path per lowering kind of the
//! callee's spec (`Lowering`). Memory through references is in `access`, the intrinsics with
//! code of their own in `custom`.

use kernel_ir::ast::{Expr, Span};
use kernel_ir::ast::{IntrinsicSpec, Known, Lowering};
use kernel_ir::intrinsic::{IntrinsicDef, IntrinsicId};
use kernel_ir::ir::{self, Inst, Operand};

use super::types::Ty;
use super::value::Val;
use super::{Lower, R};

impl Lower {
    pub fn call_intrinsic(
        &mut self,
        e: &Expr,
        spec: &'static IntrinsicSpec,
        args: &[Expr],
    ) -> R<Val> {
        let sp = e.span;
        match spec.lowering {
            Lowering::Scalar(def) => {
                let vals = self.scalars(args)?;
                let r = self.intrinsic(def, &vals, sp)?;
                Ok(results(&r))
            }
            Lowering::Typed { arg } => {
                let t = args.get(arg).and_then(|a| self.ty(a).deref_all().ir());
                let def = (spec.entries)()
                    .iter()
                    .find(|d| t.is_some() && d.args.get(arg).copied() == t)
                    .ok_or_else(|| {
                        self.err(sp, format!("internal: no entry of `{}`", spec.name))
                    })?;
                let vals = self.scalars(args)?;
                let r = self.intrinsic(def, &vals, sp)?;
                Ok(results(&r))
            }
            Lowering::Lanes { entry, .. } => {
                let mut vals = Vec::new();
                for a in args {
                    let v = self.expr(a)?;
                    self.lanes_of(v, &self.ty(a), &mut vals, a.span)?;
                }
                let r = self.intrinsic(entry, &vals, sp)?;
                let mut r = r.into_iter().map(|v| Val::Scalar(Operand::Var(v)));
                self.assemble(&self.ty(e), &mut r, sp)
            }
            Lowering::Dim3 { axes, known } => {
                let mut fields = Vec::new();
                for (axis, def) in axes.iter().enumerate() {
                    // A required block shape makes `block_dim()` a constant, and a thread index
                    // along an axis of extent 1 zero, as nvcc's `.reqntid` code does.
                    let fixed = self.k.attrs.block_dim.and_then(|d| match known {
                        Known::Extent => Some(d[axis]),
                        Known::Index if d[axis] == 1 => Some(0),
                        _ => None,
                    });
                    if let Some(v) = fixed {
                        fields.push(Val::Scalar(Operand::Const(ir::Const::u32(v))));
                        continue;
                    }
                    let r = self.intrinsic(def, &[], sp)?;
                    fields.push(Val::Scalar(Operand::Var(r[0])));
                }
                Ok(Val::Agg(fields))
            }
            Lowering::Access(acc) => self.access(e, spec, acc, args),
            Lowering::AddressOf(space) => self.address_of(spec.name, space, &args[0]),
            Lowering::IsIn(space) => self.is_in(space, &args[0]),
            Lowering::Math(m) => {
                let vals = self.scalars(args)?;
                self.math_call(spec.name, m, &vals, sp)
            }
            Lowering::Custom(c) => self.custom_intrinsic(e, spec.name, c, args),
        }
    }

    /// The arguments as scalar operands, in order.
    pub(super) fn scalars(&mut self, args: &[Expr]) -> R<Vec<Operand>> {
        args.iter().map(|a| self.scalar(a)).collect()
    }

    /// Appends the registers value `v` of type `t` travels in: a scalar, or a struct's or
    /// tuple's fields in order.
    pub(super) fn lanes_of(&mut self, v: Val, t: &Ty, out: &mut Vec<Operand>, sp: Span) -> R<()> {
        match v {
            Val::Scalar(o) => out.push(o),
            Val::Ref(l) => {
                let Ty::Ref(inner, _) = t else {
                    return Err(self.err(sp, "internal: reference type expected"));
                };
                let v = self.read(&l, inner, sp)?;
                self.lanes_of(v, inner, out, sp)?;
            }
            Val::Agg(vs) => {
                let tys = self.agg_tys(t, sp)?;
                for (v, t) in vs.into_iter().zip(tys) {
                    self.lanes_of(v, &t, out, sp)?;
                }
            }
            // Unreachable code: any operands of the right number will do.
            Val::Never => {
                let n = super::layout::leaves(t).map_err(|m| self.err(sp, m))?.len();
                out.extend((0..n).map(|_| Operand::Const(ir::Const::u32(0))));
            }
            _ => return Err(self.err(sp, format!("expected numbers, found `{t}`"))),
        }
        Ok(())
    }

    /// A value of type `t` from the registers `r` yields (the reverse of `lanes_of`).
    pub(super) fn assemble(
        &mut self,
        t: &Ty,
        r: &mut dyn Iterator<Item = Val>,
        sp: Span,
    ) -> R<Val> {
        if t.ir().is_some() {
            return r
                .next()
                .ok_or_else(|| self.err(sp, "internal: too few results"));
        }
        if matches!(t, Ty::Unit) {
            return Ok(Val::Unit);
        }
        let mut fields = Vec::new();
        for f in self.agg_tys(t, sp)? {
            fields.push(self.assemble(&f, r, sp)?);
        }
        Ok(Val::Agg(fields))
    }

    /// Emits one table entry, returning its result registers.
    pub(super) fn intrinsic(
        &mut self,
        def: &'static IntrinsicDef,
        args: &[Operand],
        sp: Span,
    ) -> R<Vec<ir::Var>> {
        let mut cast_args = Vec::new();
        for (a, t) in args.iter().zip(def.args) {
            cast_args.push(self.cast(*a, *t));
        }
        let dsts: Vec<ir::Var> = def.rets.iter().map(|t| self.var(*t)).collect();
        if def.class != kernel_ir::intrinsic::Class::Pure {
            self.mark(sp);
        }
        self.emit(Inst::Intrinsic {
            id: IntrinsicId(def),
            dsts: dsts.clone(),
            args: cast_args,
        });
        Ok(dsts)
    }
}

/// The value of an entry's results: nothing, one scalar, or a tuple of them.
pub(super) fn results(r: &[ir::Var]) -> Val {
    match r {
        [] => Val::Unit,
        [one] => Val::Scalar(Operand::Var(*one)),
        many => Val::Agg(many.iter().map(|v| Val::Scalar(Operand::Var(*v))).collect()),
    }
}
