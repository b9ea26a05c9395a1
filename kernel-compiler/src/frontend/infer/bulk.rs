//! Typing of the bulk and tensor-copy calls (`Custom::Bulk`, `Custom::BulkCopy`): references
//! into shared memory, the `&TensorMap` parameter, the barrier and the entry's scalars; for the
//! non-tensor copies two slices of one element type.

use kernel_ir::ast::{self, BulkArg, Expr};
use kernel_ir::intrinsic::IntrinsicDef;

use super::super::types::{from_ir, Ty};
use super::{Infer, R};

/// Whether `t` is kernel-std's `TensorMap` (the struct a grid-constant parameter holds).
pub fn is_tensor_map(t: &Ty) -> bool {
    use kernel_std::api::DeviceCopy;
    matches!(t, Ty::Struct(s) if std::ptr::eq(s.0, kernel_std::api::TensorMap::struct_def()))
}

impl Infer<'_> {
    pub(super) fn bulk_call(
        &mut self,
        name: &str,
        def: &IntrinsicDef,
        kinds: &[BulkArg],
        arg_tys: &[Ty],
        args: &[Expr],
        sp: ast::Span,
    ) -> R<Ty> {
        self.want_args(name, args, kinds.len(), sp)?;
        for (i, kind) in kinds.iter().enumerate() {
            let (t, a) = (&arg_tys[i], &args[i]);
            match *kind {
                BulkArg::Tile { writes } => {
                    self.pointee(name, t, writes, a.span)?;
                }
                BulkArg::Barrier => {
                    self.pointee(name, t, false, a.span)?;
                }
                BulkArg::TensorMap { writes } => {
                    let p = self.pointee(name, t, writes, a.span);
                    let ok = p.as_ref().is_ok_and(|p| is_tensor_map(&self.shallow(p)));
                    if !ok {
                        return Err(self.err(
                            a.span,
                            format!(
                                "`{name}` takes the kernel's tensor map parameter (`tmap: {}TensorMap`)",
                                if writes { "&mut " } else { "&" }
                            ),
                        ));
                    }
                }
                BulkArg::Scalar => {
                    let t = self.deref(t);
                    self.unify(&t, &from_ir(def.args[i]), a.span)?;
                }
            }
        }
        Ok(Ty::Unit)
    }

    /// The element type of a slice argument (a slice, or a reference to an array or slice).
    fn bulk_elem(&mut self, name: &str, t: &Ty, sp: ast::Span) -> R<Ty> {
        let t = self.shallow(t);
        let inner = match t {
            Ty::Ref(p, _) => self.shallow(&p),
            t => t,
        };
        match inner {
            Ty::Slice(e, _) | Ty::Array(e, _) => Ok(*e),
            _ => Err(self.err(
                sp,
                format!("`{name}` copies between slices (`&mut tile[..]`, `&src[a..b]`)"),
            )),
        }
    }

    pub(super) fn bulk_copy_call(
        &mut self,
        name: &str,
        to_shared: bool,
        arg_tys: &[Ty],
        args: &[Expr],
        sp: ast::Span,
    ) -> R<Ty> {
        let n = if to_shared { 3 } else { 2 };
        self.want_args(name, args, n, sp)?;
        let d = self.bulk_elem(name, &arg_tys[0], args[0].span)?;
        let s = self.bulk_elem(name, &arg_tys[1], args[1].span)?;
        self.unify(&d, &s, args[1].span)?;
        if to_shared {
            self.pointee(name, &arg_tys[2], false, args[2].span)?;
        }
        Ok(Ty::Unit)
    }
}
