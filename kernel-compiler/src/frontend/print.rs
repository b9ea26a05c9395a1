//! `gpu_print!` / `gpu_println!` (`ExprKind::Print`) to `Inst::Print`: once the argument types
//! are known, each placeholder gets its C conversion (`printf::conversion`) and its value the C
//! varargs promotion, so the IR carries a ready `vprintf` format and buffer contents.

use kernel_ir::ast::{Expr, FmtPiece, Span};
use kernel_ir::ir::{Inst, Operand};
use kernel_ir::printf::{self, CConv};

use super::types::Ty;
use super::value::{scalar_ir, Val};
use super::{Lower, R};

impl Lower {
    pub(super) fn print(&mut self, pieces: &[FmtPiece], args: &[Expr], sp: Span) -> R<Val> {
        let placeholders = pieces
            .iter()
            .filter(|p| matches!(p, FmtPiece::Arg { .. }))
            .count();
        if placeholders > printf::MAX_ARGS {
            return Err(self.err(
                sp,
                format!(
                    "a device printf takes at most {} arguments; this one has {placeholders}",
                    printf::MAX_ARGS
                ),
            ));
        }
        // Every argument is evaluated once, in order, as `format_args!` does.
        let mut values = Vec::with_capacity(args.len());
        for a in args {
            let v = self.expr(a)?;
            if matches!(v, Val::Never) {
                return Ok(Val::Never);
            }
            let t = self.ty(a);
            let inner = match &t {
                Ty::Ref(i, _) => (**i).clone(),
                t => t.clone(),
            };
            if !inner.is_scalar() {
                return Err(self.err(
                    a.span,
                    format!("only numbers can be printed by the device printf, not `{inner}`"),
                ));
            }
            let o = self.scalar_of(v, &t, a.span)?;
            values.push((o, scalar_ir(&inner), a.span));
        }
        let mut convs: Vec<CConv> = Vec::with_capacity(placeholders);
        let mut operands: Vec<Operand> = Vec::with_capacity(placeholders);
        for p in pieces {
            let FmtPiece::Arg { index, spec } = p else {
                continue;
            };
            let Some(&(o, ty, asp)) = values.get(*index) else {
                return Err(self.err(
                    sp,
                    format!(
                        "internal: placeholder names argument {index} of {}",
                        args.len()
                    ),
                ));
            };
            let c = printf::conversion(spec, ty).map_err(|m| self.err(asp, m))?;
            let o = match c.via {
                Some(via) => self.cast(o, via),
                None => o,
            };
            operands.push(self.cast(o, c.ty));
            convs.push(c);
        }
        self.emit(Inst::Print {
            format: printf::c_format(pieces, &convs),
            args: operands,
        });
        Ok(Val::Unit)
    }
}
