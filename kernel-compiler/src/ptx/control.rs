//! Structured control flow to labels and branches.
//!
//! Counted loops never compute a value past their last iteration: instead of `iv += step;
//! if iv < end`, the latch compares the remaining distance (`end - iv`, or `iv - start` going
//! down, as an unsigned number of the same width) with the step. That is exact for every range,
//! including inclusive ranges that end at the type's maximum, where `iv + step` would wrap.

use super::emit::{Emitter, Label, LoopLabels, Res};
use super::types::{int_suffix, reg_bits, uint_suffix};
use kernel_ir::ir::{Block, Inst, LoopId, Operand, Ty, Var};
use kernel_ir::props::Props;

/// Most instructions per branch of an `if` emitted as predicated code instead of a branch.
/// The guarded accesses of `defer_checks` (`if ok { x = load } else { x = 0 }`, `if ok { store }`)
/// sit inside bigger `if`s (a tile row's bounds test); ptxas if-converts a single-level region
/// but not one with a branch nested in it, and a branch between two rows' loads keeps it from
/// overlapping them. Predicating only these tiny ones keeps the region single-level; bigger bodies
/// stay branches (predicating address arithmetic hides its zero-extensions from ptxas).
const PREDICATE_MAX: usize = 2;

/// The destination of `if c { x = load [a] } else { x = K }` when neither `c` nor `a` is `x`.
fn load_else_constant(cond: Operand, then: &Block, els: &Block) -> Option<Var> {
    match (then.0.as_slice(), els.0.as_slice()) {
        (
            [Inst::Load { dst, addr, .. } | Inst::ArrayLoad { dst, idx: addr, .. }],
            [Inst::Mov {
                dst: z,
                src: Operand::Const(_),
            }],
        ) if z == dst && *addr != Operand::Var(*dst) && cond != Operand::Var(*dst) => Some(*dst),
        _ => None,
    }
}

/// Whether `b` touches memory: pure tiny `if`s ptxas if-converts by itself.
fn accesses(b: &Block) -> bool {
    b.0.iter().any(|i| {
        matches!(
            i,
            Inst::Load { .. }
                | Inst::Store { .. }
                | Inst::LoadVec { .. }
                | Inst::StoreVec { .. }
                | Inst::ArrayLoad { .. }
                | Inst::ArrayStore { .. }
        )
    })
}

fn tiny(b: &Block) -> bool {
    b.0.len() <= PREDICATE_MAX && b.0.iter().all(|i| i.props().contains(Props::PREDICABLE))
}

impl Emitter<'_> {
    pub fn if_(&mut self, cond: Operand, then: &Block, els: &Block) -> Res {
        if self.oty(cond)? != Ty::Bool {
            return self.err("if condition is not a bool");
        }
        if let Operand::Const(c) = cond {
            self.maybe_heap_calls = true;
            return self.block(if c.bits != 0 { then } else { els });
        }
        if self.pred.is_none() && tiny(then) && tiny(els) && (accesses(then) || accesses(els)) {
            return self.if_predicated(cond, then, els);
        }
        if els.0.is_empty() && self.pred.is_none() {
            if let Some((site, a, b)) = self.overflow_panic(then) {
                let c = self.src(cond)?;
                return self.cold_panic_if(c, site, a, b);
            }
        }
        let c = self.src(cond)?;
        let end = self.new_label("endif");
        if els.0.is_empty() {
            self.ins().s("@!").r(c).s(" bra ").l(end).end();
            self.block(then)?;
        } else {
            let other = self.new_label("else");
            self.ins().s("@!").r(c).s(" bra ").l(other).end();
            self.block(then)?;
            self.bra(end);
            self.put_label(other);
            self.block(els)?;
        }
        self.put_label(end);
        Ok(())
    }

    /// A tiny `if` as straight-line code: each branch's instructions guarded by the branch's
    /// predicate. Both predicates are taken before the `then` branch runs (it may assign the
    /// condition's variable).
    fn if_predicated(&mut self, cond: Operand, then: &Block, els: &Block) -> Res {
        if let Some(dst) = load_else_constant(cond, then, els) {
            // `x = c ? load : k` as `x = k; @c x = load`: the constant is not a consumer of the
            // load, so ptxas does not schedule the next instructions as if waiting on it.
            debug_assert!(self.ty(dst).is_ok());
            self.block(els)?;
            let c = self.src(cond)?;
            let pt = self.tmp(Ty::Bool);
            self.ins_always().s("mov.pred ").r(pt).cr(c).end();
            let outer = self.pred.replace(pt);
            let r = self.block(then);
            self.pred = outer;
            return r;
        }
        let c = self.src(cond)?;
        let outer = self.pred;
        let pt = self.tmp(Ty::Bool);
        self.ins_always().s("mov.pred ").r(pt).cr(c).end();
        let pe = if els.0.is_empty() {
            None
        } else {
            let pe = self.tmp(Ty::Bool);
            self.ins_always().s("not.pred ").r(pe).cr(c).end();
            Some(pe)
        };
        self.pred = Some(pt);
        let r = self.block(then);
        let r = r.and_then(|_| match pe {
            Some(pe) => {
                self.pred = Some(pe);
                self.block(els)
            }
            None => Ok(()),
        });
        self.pred = outer;
        r
    }

    #[allow(clippy::too_many_arguments)]
    pub fn for_(
        &mut self,
        id: LoopId,
        iv: Var,
        start: Operand,
        end: Operand,
        inclusive: bool,
        step: Operand,
        reverse: bool,
        body: &Block,
    ) -> Res {
        let ty = self.ty(iv)?;
        if !ty.is_int() || self.oty(start)? != ty || self.oty(end)? != ty || self.oty(step)? != ty {
            return self
                .err("for loop bounds and step must share the induction variable's integer type");
        }
        let is = int_suffix(ty);
        let us = uint_suffix(ty);
        let i = self.reg(iv)?;
        let lo = self.snapshot(start)?;
        let hi = self.snapshot(end)?;
        let st = self.snapshot(step)?;
        let top = self.new_label("for_body");
        let cont = self.new_label("for_next");
        let brk = self.new_label("for_end");
        let p = self.tmp(Ty::Bool);
        let cmp = if inclusive { "le" } else { "lt" };
        self.line(format_args!("setp.{cmp}.{is} {p}, {lo}, {hi}"));
        self.line(format_args!("@!{p} bra {brk}"));
        match (reverse, inclusive) {
            (false, _) => self.line(format_args!("mov.b{} {i}, {lo}", reg_bits(ty))),
            (true, true) => self.line(format_args!("mov.b{} {i}, {hi}", reg_bits(ty))),
            (true, false) => self.line(format_args!("sub.{is} {i}, {hi}, 1")),
        }
        self.put_label(top);
        self.loops.push(LoopLabels { id, cont, brk });
        let r = self.block(body);
        self.loops.pop();
        r?;
        self.put_label(cont);
        let diff = self.tmp(ty);
        if reverse {
            self.line(format_args!("sub.{is} {diff}, {i}, {lo}"));
        } else {
            self.line(format_args!("sub.{is} {diff}, {hi}, {i}"));
        }
        // Going up exclusively, another iteration needs iv + step < end, i.e. end - iv > step;
        // otherwise the next value must stay within the bound: distance >= step.
        let stop = if !reverse && !inclusive { "le" } else { "lt" };
        let q = self.tmp(Ty::Bool);
        self.line(format_args!("setp.{stop}.{us} {q}, {diff}, {st}"));
        self.line(format_args!("@{q} bra {brk}"));
        let op = if reverse { "sub" } else { "add" };
        self.line(format_args!("{op}.{is} {i}, {i}, {st}"));
        self.bra(top);
        self.put_label(brk);
        Ok(())
    }

    pub fn loop_(&mut self, id: LoopId, body: &Block) -> Res {
        let top = self.new_label("loop");
        let brk = self.new_label("loop_end");
        self.put_label(top);
        self.loops.push(LoopLabels { id, cont: top, brk });
        let r = self.block(body);
        self.loops.pop();
        r?;
        self.bra(top);
        self.put_label(brk);
        Ok(())
    }

    /// `bra l`.
    pub fn bra(&mut self, l: Label) {
        self.ins().s("bra ").l(l).end();
    }

    fn target(&self, id: LoopId, brk: bool) -> Res<Label> {
        match self.loops.iter().rev().find(|l| l.id == id) {
            Some(l) => Ok(if brk { l.brk } else { l.cont }),
            None => self.err(format!("break/continue outside loop {}", id.0)),
        }
    }

    pub fn break_(&mut self, id: LoopId) -> Res {
        let t = self.target(id, true)?;
        self.bra(t);
        Ok(())
    }

    pub fn continue_(&mut self, id: LoopId) -> Res {
        let t = self.target(id, false)?;
        self.bra(t);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    /// The emitted counted loop's arithmetic on `w`-bit registers (values as the register holds
    /// them, compares as emitted): entry test, first value, then latch `distance vs step`.
    fn emitted_trace(
        lo: i64,
        hi: i64,
        step: i64,
        inclusive: bool,
        reverse: bool,
        w: u32,
    ) -> Vec<i64> {
        let mask = (1u128 << w) - 1;
        let u = |x: i64| (x as i128 as u128) & mask;
        let mut out = vec![];
        if !(if inclusive { lo <= hi } else { lo < hi }) {
            return out;
        }
        let mut iv = match (reverse, inclusive) {
            (false, _) => lo,
            (true, true) => hi,
            (true, false) => hi - 1,
        };
        loop {
            out.push(iv);
            let diff = if reverse { u(iv - lo) } else { u(hi - iv) };
            let stop = if !reverse && !inclusive {
                diff <= u(step)
            } else {
                diff < u(step)
            };
            if stop {
                return out;
            }
            iv = if reverse { iv - step } else { iv + step };
        }
    }

    fn rust_trace(lo: i64, hi: i64, step: i64, inclusive: bool, reverse: bool) -> Vec<i64> {
        let s = step as usize;
        match (inclusive, reverse) {
            (false, false) => (lo..hi).step_by(s).collect(),
            (true, false) => (lo..=hi).step_by(s).collect(),
            (false, true) => (lo..hi).rev().step_by(s).collect(),
            (true, true) => (lo..=hi).rev().step_by(s).collect(),
        }
    }

    #[test]
    fn latch_matches_rust_ranges_exhaustively_for_8_bit() {
        // i8 and u8 live normalized in 16-bit registers.
        for (min, max) in [(-128i64, 127i64), (0, 255)] {
            for lo in (min..=max).step_by(3).chain([max]) {
                for hi in (min..=max).step_by(5).chain([max, min]) {
                    for step in [1, 2, 3, 7, 100, max] {
                        for inclusive in [false, true] {
                            for reverse in [false, true] {
                                assert_eq!(
                                    emitted_trace(lo, hi, step, inclusive, reverse, 16),
                                    rust_trace(lo, hi, step, inclusive, reverse),
                                    "{lo} {hi} {step} {inclusive} {reverse}"
                                );
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn latch_terminates_at_u32_max() {
        let max = u32::MAX as i64;
        for step in [1, 2, 5] {
            let t = emitted_trace(max - 10, max, step, true, false, 32);
            assert_eq!(t, rust_trace(max - 10, max, step, true, false));
            let t = emitted_trace(i32::MIN as i64, i32::MIN as i64 + 3, step, true, true, 32);
            assert_eq!(
                t,
                rust_trace(i32::MIN as i64, i32::MIN as i64 + 3, step, true, true)
            );
        }
    }
}
