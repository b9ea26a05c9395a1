//! `assume(cond)` and `assume_aligned(slice, align)` (B.18): hints to the GPU compiler that the
//! simulator checks. A false assumption is undefined behaviour in CUDA; here the simulator stops
//! with a panic at the call, while the PTX keeps no trace of the check (it sits behind the
//! `sim_checks` predicate, constant false on the GPU).

use kernel_ir::ast::Expr;
use kernel_ir::intrinsic::IntrinsicDef;
use kernel_ir::ir::{self, BinOp, Operand, PanicKind, UnOp};

use super::consts::eval_const;
use super::value::{c_u64, Val};
use super::{Lower, R};

impl Lower {
    /// `assume(cond)`, checked behind the entry `checks` (`sim_checks`).
    pub(super) fn assume(
        &mut self,
        e: &Expr,
        checks: &'static IntrinsicDef,
        cond: &Expr,
    ) -> R<Val> {
        let c = self.scalar(cond)?;
        if matches!(c, Operand::Const(k) if k.bits == 1) {
            return Ok(Val::Unit);
        }
        let bad = self.un(UnOp::Not, c, ir::Ty::Bool);
        self.sim_check(
            checks,
            bad,
            "assumption violated: `assume` got false".into(),
            e.span,
        )?;
        Ok(Val::Unit)
    }

    /// `assume_aligned(slice, align)`, checked as `assume`.
    pub(super) fn assume_aligned(
        &mut self,
        e: &Expr,
        checks: &'static IntrinsicDef,
        args: &[Expr],
    ) -> R<Val> {
        let sp = e.span;
        let env = self.cx().env.clone();
        let align = match eval_const(&args[1], &env) {
            Ok((a, _)) if a > 0 && (a as u64).is_power_of_two() => a as u64,
            _ => {
                return Err(self.err(
                    args[1].span,
                    "`assume_aligned` takes a constant power-of-two alignment in bytes",
                ))
            }
        };
        let (l, t) = self.place_or_temp(&args[0])?;
        let (l, t) = self.auto_deref(l, t, sp)?;
        let s = self.slice_of(&l, &t, args[0].span)?;
        if s.local.is_some() {
            return Err(self.err(
                args[0].span,
                "`assume_aligned` takes a slice of global or shared memory",
            ));
        }
        let ptr = self.cast(s.ptr, ir::Ty::U64);
        let rem = self.bin(BinOp::And, ptr, c_u64(align - 1));
        let bad = self.bin(BinOp::Ne, rem, c_u64(0));
        self.sim_check(
            checks,
            bad,
            format!("assumption violated: the slice passed to `assume_aligned` is not {align}-byte aligned"),
            sp,
        )?;
        Ok(Val::Slice(s))
    }

    /// Panics with `message` when `bad` holds, in the simulator only.
    fn sim_check(
        &mut self,
        checks: &'static IntrinsicDef,
        bad: Operand,
        message: String,
        sp: kernel_ir::ast::Span,
    ) -> R<()> {
        let on = self.intrinsic(checks, &[], sp)?;
        let both = self.bin(BinOp::And, Operand::Var(on[0]), bad);
        let site = self.site(PanicKind::Explicit(message), sp);
        self.panic_if(both, site);
        Ok(())
    }
}
