//! Typing of `memcpy_async`'s forms (`Custom::AsyncCopy`): a mutable reference to the shared
//! destination and the global source of the same element type (a reference, or a slice and an
//! index). The element's size is checked when lowering, where its layout is known.

use kernel_ir::ast::{self, AsyncCopyForm, Expr};

use super::super::types::Ty;
use super::{Infer, R};

impl Infer<'_> {
    pub(super) fn async_copy_call(
        &mut self,
        name: &str,
        form: AsyncCopyForm,
        arg_tys: &[Ty],
        args: &[Expr],
        sp: ast::Span,
    ) -> R<Ty> {
        let n = match form {
            AsyncCopyForm::Element => 2,
            AsyncCopyForm::OrZero => 3,
        };
        if args.len() != n {
            return Err(self.err(
                sp,
                format!("`{name}` takes {n} argument(s), {} given", args.len()),
            ));
        }
        let dst = match self.shallow(&arg_tys[0]) {
            Ty::Ref(p, true) => *p,
            _ => {
                return Err(self.err(
                    args[0].span,
                    format!(
                    "`{name}` copies into a mutable reference to shared memory (`&mut tile[i]`)"
                ),
                ))
            }
        };
        match form {
            AsyncCopyForm::Element => {
                let src = match self.shallow(&arg_tys[1]) {
                    Ty::Ref(p, _) => *p,
                    _ => {
                        return Err(self.err(
                            args[1].span,
                            format!("`{name}` copies from a reference to global memory (`&a[i]`)"),
                        ))
                    }
                };
                self.unify(&src, &dst, args[1].span)?;
            }
            AsyncCopyForm::OrZero => {
                let slice = self.deref(&arg_tys[1]);
                match self.shallow(&slice) {
                    Ty::Slice(e, _) => self.unify(&e, &dst, args[1].span)?,
                    _ => {
                        return Err(self.err(
                            args[1].span,
                            format!("`{name}` copies from a slice of global memory"),
                        ))
                    }
                }
                self.unify(&arg_tys[2], &Ty::USIZE, args[2].span)?;
            }
        }
        Ok(Ty::Unit)
    }
}
