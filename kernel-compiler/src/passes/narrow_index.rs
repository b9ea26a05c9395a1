//! 32-bit index arithmetic.
//!
//! Rust indexes with `usize`, so `x[i]` for `i = (block_idx().x * block_dim().x + thread_idx().x)
//! as usize` becomes 64-bit multiplies and adds of a zero-extended 32-bit value. When value
//! ranges prove that the 32-bit computation cannot wrap, this pass computes in 32 bits and widens
//! once, where the offset meets the 64-bit base:
//! `w = zext(x); o = w * 4` -> `t = x * 4 (u32); o = zext(t)`, likewise for `shl` by a constant and
//! for `zext(x) + zext(y)` (or `+ constant`). Chains fold step by step, so the widening moves out to
//! the final add. `BoundsCheck { zext(x), zext(n) }` (or a constant length below 2^32) becomes a
//! 32-bit check of `x` against `n`; widening preserves unsigned order, so the outcome (and the
//! recorded detail values) are the same.
//!
//! Ranges (see `ranges`: special registers within hardware limits and launch bounds, constants,
//! casts, arithmetic without wrap-around, `for` counters from their bounds) are computed only for
//! variables written exactly once in the kernel; parameters and variables written more than once
//! have their type's full range. Every rewrite keeps each variable's value exactly the same.

use super::fx::FxHashMap;

use super::ranges::{self, Range};
use super::util::{def_counts, for_each_def, walk};
use kernel_ir::intrinsic::IntrinsicId;
use kernel_ir::ir::{BinOp, Block, Const, Inst, Kernel, Operand, Ty, Var};

/// What the passes below read of a variable's single definition: a copy of the instruction
/// (a hash map of cloned instructions was most of this pass's time).
#[derive(Clone, Copy)]
enum DefInfo {
    Iv {
        start: Operand,
        end: Operand,
        inclusive: bool,
    },
    Intrinsic(IntrinsicId),
    Mov(Operand),
    Cast(Operand),
    Binary(BinOp, Operand, Operand),
    /// Written once by anything else.
    Other,
}

impl DefInfo {
    fn of(i: &Inst) -> DefInfo {
        match *i {
            Inst::Intrinsic { id, .. } => DefInfo::Intrinsic(id),
            Inst::Mov { src, .. } => DefInfo::Mov(src),
            Inst::Cast { a, .. } => DefInfo::Cast(a),
            Inst::Binary { op, a, b, .. } => DefInfo::Binary(op, a, b),
            _ => DefInfo::Other,
        }
    }
}

/// Returns whether anything was narrowed.
pub fn narrow_index(k: &mut Kernel) -> bool {
    let counts = def_counts(k);
    let mut defs: Vec<Option<DefInfo>> = vec![None; k.vars.len()];
    walk(&k.body, &mut |i| {
        let mut single = true;
        for_each_def(i, |v| single &= counts[v.0 as usize] == 1);
        match i {
            Inst::For {
                iv,
                start,
                end,
                inclusive,
                ..
            } if single => {
                defs[iv.0 as usize] = Some(DefInfo::Iv {
                    start: *start,
                    end: *end,
                    inclusive: *inclusive,
                });
            }
            Inst::If { .. } | Inst::For { .. } | Inst::Loop { .. } => {}
            _ if single => {
                let d = DefInfo::of(i);
                for_each_def(i, |v| defs[v.0 as usize] = Some(d));
            }
            _ => {}
        }
    });
    let mut n = Narrow {
        defs,
        memo: FxHashMap::default(),
        counts,
        changed: false,
    };
    let mut body = std::mem::take(&mut k.body);
    n.block(k, &mut body);
    k.body = body;
    n.changed
}

struct Narrow {
    /// By variable.
    defs: Vec<Option<DefInfo>>,
    memo: FxHashMap<Var, Option<Range>>,
    /// Textual write counts (parameters count once).
    counts: Vec<u32>,
    changed: bool,
}

impl Narrow {
    fn def(&self, v: Var) -> Option<DefInfo> {
        self.defs.get(v.0 as usize).copied().flatten()
    }

    fn range(&mut self, k: &Kernel, o: Operand, depth: u32) -> Option<Range> {
        match o {
            Operand::Const(c) => ranges::of_const(c),
            Operand::Var(v) => {
                if let Some(r) = self.memo.get(&v) {
                    return *r;
                }
                // Provisional entry: a cycle through this variable sees the type's full range.
                self.memo.insert(v, ranges::full(k.ty(v)));
                let r = if depth > 200 {
                    ranges::full(k.ty(v))
                } else {
                    self.compute(k, v, depth + 1)
                };
                self.memo.insert(v, r);
                r
            }
        }
    }

    fn compute(&mut self, k: &Kernel, v: Var, depth: u32) -> Option<Range> {
        let t = k.ty(v);
        let full = ranges::full(t);
        let Some(def) = self.def(v) else {
            return full;
        };
        match def {
            DefInfo::Iv {
                start,
                end,
                inclusive,
            } => {
                let s = self.range(k, start, depth)?;
                let e = self.range(k, end, depth)?;
                let hi = if inclusive { e.1 } else { e.1.checked_sub(1)? };
                if s.0 <= hi {
                    ranges::fit((s.0, hi), t)
                } else {
                    full
                }
            }
            DefInfo::Intrinsic(id) => ranges::of_intrinsic(id, &k.attrs).or(full),
            DefInfo::Mov(src) => self.range(k, src, depth),
            DefInfo::Cast(a) if k.operand_ty(a).is_int() => {
                let r = self.range(k, a, depth);
                ranges::of_cast(r, t)
            }
            DefInfo::Binary(op, a, b) if !op.is_compare() && op != BinOp::MulHi => {
                let (ra, rb) = (self.range(k, a, depth), self.range(k, b, depth));
                ranges::of_binary(op, ra, rb, k.operand_ty(a))
            }
            _ => full,
        }
    }

    /// `x` if `o` is a variable defined once as a widening of a `u32` `x` (itself written once or
    /// a constant), or `o` as a `u32` constant if it is a constant that fits.
    fn narrow_source(&self, k: &Kernel, o: Operand) -> Option<Operand> {
        match o {
            Operand::Const(c) => {
                let v = c.as_i128();
                (0..=u32::MAX as i128)
                    .contains(&v)
                    .then(|| Operand::Const(Const::u32(v as u32)))
            }
            Operand::Var(w) => match self.def(w) {
                Some(DefInfo::Cast(Operand::Var(x)))
                    if k.ty(x) == Ty::U32 && k.ty(w).bits() > 32 && k.ty(w).is_int() =>
                {
                    (self.counts[x.0 as usize] == 1).then_some(Operand::Var(x))
                }
                _ => None,
            },
        }
    }

    fn block(&mut self, k: &mut Kernel, blk: &mut Block) {
        // Narrowed pairs are spliced in at the end: most blocks narrow nothing and are not moved.
        let mut splices: Vec<(usize, [Inst; 2])> = Vec::new();
        for (at, inst) in blk.0.iter_mut().enumerate() {
            match inst {
                Inst::If { then, els, .. } => {
                    self.block(k, then);
                    self.block(k, els);
                }
                Inst::For { body, .. } | Inst::Loop { body, .. } => self.block(k, body),
                Inst::BoundsCheck { idx, len, .. } => {
                    if let (Some(i), Some(l)) =
                        (self.narrow_source(k, *idx), self.narrow_source(k, *len))
                    {
                        if matches!(idx, Operand::Var(_)) {
                            *idx = i;
                            *len = l;
                            self.changed = true;
                        }
                    }
                }
                Inst::Binary { dst, op, a, b } => {
                    let (dst, op, a, b) = (*dst, *op, *a, *b);
                    if let Some((t, na, nb)) = self.try_narrow(k, dst, op, a, b) {
                        let pair = [
                            Inst::Binary {
                                dst: t,
                                op,
                                a: na,
                                b: nb,
                            },
                            Inst::Cast {
                                dst,
                                a: Operand::Var(t),
                            },
                        ];
                        for i in &pair {
                            if let Some(d) = super::util::single_dst(i) {
                                let at = d.0 as usize;
                                if at >= self.defs.len() {
                                    self.defs.resize(at + 1, None);
                                }
                                self.defs[at] = Some(DefInfo::of(i));
                            }
                        }
                        self.changed = true;
                        splices.push((at, pair));
                    }
                }
                _ => {}
            }
        }
        if splices.is_empty() {
            return;
        }
        let old = std::mem::take(&mut blk.0);
        blk.0.reserve(old.len() + splices.len());
        let mut next = splices.into_iter().peekable();
        for (at, inst) in old.into_iter().enumerate() {
            match next.next_if(|(s, _)| *s == at) {
                Some((_, pair)) => blk.0.extend(pair),
                None => blk.0.push(inst),
            }
        }
    }

    /// A fresh `u32` variable for the narrowed result, if `dst = a op b` may be computed in 32 bits.
    fn try_narrow(
        &mut self,
        k: &mut Kernel,
        dst: Var,
        op: BinOp,
        a: Operand,
        b: Operand,
    ) -> Option<(Var, Operand, Operand)> {
        if !matches!(op, BinOp::Add | BinOp::Mul | BinOp::Shl) {
            return None;
        }
        let wide = k.ty(dst);
        if !wide.is_int() || wide.bits() <= 32 || self.def(dst).is_none() {
            return None;
        }
        let (na, nb) = (self.narrow_source(k, a)?, self.narrow_source(k, b)?);
        if matches!((na, nb), (Operand::Const(_), Operand::Const(_))) {
            return None;
        }
        if op == BinOp::Shl && !matches!(nb, Operand::Const(c) if c.bits < 32) {
            return None;
        }
        // Both narrow operands equal the wide ones as values, so the 32-bit result is exact when
        // its range fits.
        let (ra, rb) = (self.range(k, na, 0)?, self.range(k, nb, 0)?);
        let hi = match op {
            BinOp::Add => ra.1 + rb.1,
            BinOp::Mul => ra.1.checked_mul(rb.1)?,
            _ => ra.1.checked_shl(rb.1 as u32)?,
        };
        if hi > u32::MAX as u128 {
            return None;
        }
        let t = k.new_var(Ty::U32);
        if !k.var_names.is_empty() {
            k.var_names.resize(k.vars.len(), String::new());
        }
        self.counts.push(1);
        Some((t, na, nb))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::passes::testkit::*;
    use kernel_ir::ir::Unroll;

    #[test]
    fn thread_index_offset_is_computed_in_32_bits() {
        let mut k = kernel();
        let (p, n) = slice(&mut k, "x", 4);
        let t = k.new_var(Ty::U32);
        let u = k.new_var(Ty::U32);
        let (w, s, off, addr) = (
            k.new_var(Ty::U64),
            k.new_var(Ty::U64),
            k.new_var(Ty::U64),
            k.new_var(Ty::U64),
        );
        let wu = k.new_var(Ty::U64);
        k.body.0 = vec![
            intr("tid.x", vec![t], vec![]),
            intr("tid.y", vec![u], vec![]),
            cast(w, t),
            cast(wu, u),
            bin(s, BinOp::Add, w, wu),
            check(s, n),
            bin(off, BinOp::Shl, s, u32c(2)),
            bin(addr, BinOp::Add, p, off),
            store(addr, t),
        ];
        let orig = k.clone();
        assert!(narrow_index(&mut k));
        assert_body(
            &k,
            "
            v2 = call tid.x()
            v3 = call tid.y()
            v4 = cast.u64.u32 v2
            v8 = cast.u64.u32 v3
            v9 = add.u32 v2, v3
            v5 = cast.u64.u32 v9
            bounds_check.u64 v5, v1 @site0
            v10 = shl.u32 v9, 2u32
            v6 = cast.u64.u32 v10
            v7 = add.u64 v0, v6
            store.global.u32 [v7], v2
            ",
        );
        let args = [(p, Const::u64(4096)), (n, Const::u64(100))];
        assert_eq!(run(&orig, &args), run(&k, &args));
    }

    #[test]
    fn global_index_that_may_wrap_stays_64_bit() {
        let mut k = kernel();
        let p = param(&mut k, "p", Ty::U64);
        let (b, d, t, g) = (
            k.new_var(Ty::U32),
            k.new_var(Ty::U32),
            k.new_var(Ty::U32),
            k.new_var(Ty::U32),
        );
        let (h, w, off) = (k.new_var(Ty::U32), k.new_var(Ty::U64), k.new_var(Ty::U64));
        k.body.0 = vec![
            intr("ctaid.x", vec![b], vec![]),
            intr("ntid.x", vec![d], vec![]),
            intr("tid.x", vec![t], vec![]),
            bin(g, BinOp::Mul, b, d),
            bin(h, BinOp::Add, g, t),
            cast(w, h),
            bin(off, BinOp::Mul, w, u64c(4)),
            bin(off, BinOp::Add, p, off),
            store(off, t),
        ];
        assert!(!narrow_index(&mut k), "{}", text(&k));
    }

    #[test]
    fn loop_counter_and_bounds_check_narrow() {
        let mut k = kernel();
        let (p, _) = slice(&mut k, "x", 4);
        let n32 = param(&mut k, "n", Ty::U32);
        let i = k.new_var(Ty::U32);
        let (w, l, off) = (k.new_var(Ty::U64), k.new_var(Ty::U64), k.new_var(Ty::U64));
        let body = vec![
            cast(w, i),
            cast(l, n32),
            check(w, l),
            bin(off, BinOp::Mul, w, u64c(8)),
            store(off, i),
        ];
        let lp = for_(&mut k, i, u32c(0), u32c(1000), Unroll::Never, body);
        k.body.0 = vec![lp];
        let orig = k.clone();
        assert!(narrow_index(&mut k));
        let got = text(&k);
        assert!(got.contains("bounds_check.u32 v3, v2 @site0"), "{got}");
        assert!(got.contains("= mul.u32 v3, 8u32"), "{got}");
        for nv in [5u32, 5000] {
            let args = [(p, Const::u64(0)), (n32, Const::u32(nv))];
            assert_eq!(run(&orig, &args), run(&k, &args));
        }
    }

    #[test]
    fn reassigned_values_are_not_narrowed() {
        let mut k = kernel();
        let p = param(&mut k, "p", Ty::U64);
        let t = k.new_var(Ty::U32);
        let (w, off) = (k.new_var(Ty::U64), k.new_var(Ty::U64));
        k.body.0 = vec![
            intr("tid.x", vec![t], vec![]),
            bin(t, BinOp::Mul, t, u32c(1 << 30)),
            cast(w, t),
            bin(off, BinOp::Mul, w, u64c(4)),
            store(p, off),
        ];
        assert!(!narrow_index(&mut k));
    }
}
