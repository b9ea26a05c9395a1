//! Rust's integer overflow checks (`-C overflow-checks`), where the setting says so.
//!
//! Which code is checked: a kernel's `#[kernel(overflow_checks = ..)]` decides for the kernel and
//! every device function inlined into it; without it each function follows its own crate's
//! profile (`FnDef::overflow_checks`, the crate's `debug_assertions`), as rustc decides per crate.
//! A compile option can force either way for tools (`CompileOptions::overflow_checks`). The device
//! library (`kernel_std`: the math functions, half-precision and vector helpers) is never checked,
//! like Rust's standard library, which ships compiled without overflow checks.
//!
//! What is checked, as rustc does with the setting on: `+ - *` (and `+= -= *=`), unary `-`,
//! `<<` / `>>` by an amount of at least the bit width (a negative amount included), and the
//! methods that inherit the setting in `core` (`abs` of the minimum, `pow`). Each check is
//! `if overflows { panic }` before the wrapping operation, with the kind of `PanicKind::Overflow`
//! naming Rust's message. Division and remainder by zero or `MIN / -1` are checked whatever
//! the setting (`Lower::div_checks`); `as` casts and the `wrapping_*` methods never panic.

use kernel_ir::ast::{FnDef, Span};
use kernel_ir::ir::{self, BinOp, Const, Operand, OverflowOp, PanicKind};

use super::value::c_int;
use super::Lower;
use crate::passes::eval::eval_binary;

/// Whether `def` belongs to the device library, which is compiled without overflow checks.
fn in_device_library(def: &FnDef) -> bool {
    def.module == "kernel_std" || def.module.starts_with("kernel_std::")
}

impl Lower {
    /// Whether integer arithmetic in the function being lowered panics on overflow.
    pub fn overflow_checks(&self) -> bool {
        let def = self.cx().def;
        !in_device_library(def) && self.overflow_override.unwrap_or(def.overflow_checks)
    }

    /// With checks on, panics at `sp` when `x op y` (`Add`, `Sub` or `Mul`) overflows.
    pub fn check_arith(&mut self, op: BinOp, x: Operand, y: Operand, sp: Span) {
        if !self.overflow_checks() {
            return;
        }
        let (test, what) = match op {
            BinOp::Add => (BinOp::AddOverflows, OverflowOp::Add),
            BinOp::Sub => (BinOp::SubOverflows, OverflowOp::Sub),
            BinOp::Mul => (BinOp::MulOverflows, OverflowOp::Mul),
            _ => return,
        };
        self.overflow_if(test, x, y, what, sp);
    }

    /// With checks on, panics at `sp` when negating the signed `x` overflows (`x == MIN`): unary
    /// `-` and `abs`, which Rust reports the same way.
    pub fn check_neg(&mut self, x: Operand, sp: Span) {
        let t = self.op_ty(x);
        if self.overflow_checks() && t.is_signed() {
            self.overflow_if(BinOp::SubOverflows, c_int(t, 0), x, OverflowOp::Neg, sp);
        }
    }

    /// The amount of `x << y` / `x >> y` (`x` of type `t`) as the IR's `u32`: with checks on,
    /// first a panic when `y` is at least the bit width (or negative, which Rust reads as a huge
    /// unsigned amount), otherwise reduced modulo the width as release Rust does.
    pub fn shift_amount(&mut self, op: BinOp, t: ir::Ty, y: Operand, sp: Span) -> Operand {
        let bits = t.bits();
        if self.overflow_checks() {
            let yt = self.op_ty(y);
            let ut = match yt {
                ir::Ty::I8 => ir::Ty::U8,
                ir::Ty::I16 => ir::Ty::U16,
                ir::Ty::I32 => ir::Ty::U32,
                ir::Ty::I64 => ir::Ty::U64,
                t => t,
            };
            let amt = self.cast(y, ut);
            let what = if op == BinOp::Shl {
                OverflowOp::Shl
            } else {
                OverflowOp::Shr
            };
            let out_of_range = match amt {
                Operand::Const(c) => Operand::Const(Const::bool(c.bits >= u64::from(bits))),
                _ => self.bin(BinOp::Ge, amt, c_int(ut, i128::from(bits))),
            };
            if out_of_range != Operand::Const(Const::bool(false)) {
                let site = self.site(PanicKind::Overflow(what), sp);
                self.panic_if(out_of_range, site);
            }
            // In range from here on, so the reduction would change nothing.
            return self.cast(amt, ir::Ty::U32);
        }
        let amt = self.cast(y, ir::Ty::U32);
        match amt {
            Operand::Const(c) => c_int(ir::Ty::U32, i128::from((c.bits as u32) & (bits - 1))),
            _ => self.bin(BinOp::And, amt, c_int(ir::Ty::U32, i128::from(bits - 1))),
        }
    }

    /// `if test(x, y) { panic at sp }`, decided here when the operands make it certain.
    pub fn overflow_if(&mut self, test: BinOp, x: Operand, y: Operand, what: OverflowOp, sp: Span) {
        let value = |o: Operand| match o {
            Operand::Const(c) => Some(c.as_i128()),
            Operand::Var(_) => None,
        };
        let never = matches!(
            (test, value(x), value(y)),
            (BinOp::AddOverflows, _, Some(0))
                | (BinOp::AddOverflows, Some(0), _)
                | (BinOp::SubOverflows, _, Some(0))
                | (BinOp::MulOverflows, Some(0 | 1), _)
                | (BinOp::MulOverflows, _, Some(0 | 1))
        );
        if never {
            return;
        }
        let cond = match (x, y) {
            (Operand::Const(a), Operand::Const(b)) => match eval_binary(test, a, b) {
                Some(c) if c.bits == 0 => return,
                Some(c) => Operand::Const(c),
                None => self.bin(test, x, y),
            },
            _ => self.bin(test, x, y),
        };
        let site = self.site(PanicKind::Overflow(what), sp);
        self.panic_if(cond, site);
    }
}
