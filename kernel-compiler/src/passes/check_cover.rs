//! Covering bounds for early checks: when every check of a run is implied by fewer compares of
//! run-invariant values, the run's head tests those first and evaluates the precise checks only
//! when one of them fails.
//!
//! Why: a 2D tile access `inp[(y + r) * w + x]` under `if x < w && y + r < h` is in bounds for
//! every `r` whenever `h * w <= inp.len()` (the index is at most `(h - 1) * w + (w - 1)`). The
//! head of a transpose's tile run evaluated each row's index, its compare and its path condition
//! on every thread, about twenty instructions per tile phase that nvcc's build does not have
//! (transpose ran at 0.99x its twin with checks on, 1.00x without). With the cover the hot path
//! is one wide multiply and one compare per distinct (bound, length) pair.
//!
//! Exactness: a cover only implies checks, never the other way round. When it holds, every check
//! of the run passes and skipping their evaluation changes nothing; when it fails, the head runs
//! exactly the code it ran before (same first failing check, site, index and length).

use kernel_ir::ir::{BinOp, Block, Inst, Kernel, Operand, Ty, UnOp, Var};
use kernel_ir::visit::for_each_def;

use super::fx::FxHashMap;

/// One check as the head evaluates it: index and length as head values, and the head values of
/// the `if` conditions on its path with the branch taken (`(cond, true)` for a `then` branch).
pub(super) struct Reached {
    pub idx: Operand,
    pub len: Operand,
    pub conds: Vec<(Operand, bool)>,
}

/// An exclusive upper bound of an index, from run-invariant values: one value (a `u64`, or a
/// `u32` zero-extended) or the product of two zero-extended `u32` values (which cannot wrap).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Bound {
    One(Operand),
    Two(Operand, Operand),
}

/// Deepest operand tree [`Cx::same`] compares (index math is a few instructions deep).
const SAME_DEPTH: u32 = 8;

struct Cx<'a> {
    k: &'a Kernel,
    code: &'a [Inst],
    /// Variables the head code defines, with the defining instruction's position.
    defs: FxHashMap<Var, usize>,
}

impl Cx<'_> {
    fn def(&self, o: Operand) -> Option<&Inst> {
        let Operand::Var(v) = o else { return None };
        self.defs.get(&v).map(|&i| &self.code[i])
    }

    /// A value the head has before its first instruction: a constant or a variable the head
    /// code does not define (the head reads such variables at their value on entry to the run).
    fn invariant(&self, o: Operand) -> bool {
        match o {
            Operand::Const(_) => true,
            Operand::Var(v) => !self.defs.contains_key(&v),
        }
    }

    fn unsigned(&self, o: Operand) -> bool {
        matches!(self.k.operand_ty(o), Ty::U32 | Ty::U64)
    }

    /// Whether `a` and `b` hold the same value: equal operands, or head copies of the same pure
    /// computation (the head evaluates a value once per position that reads it).
    fn same(&self, a: Operand, b: Operand, depth: u32) -> bool {
        if a == b {
            return true;
        }
        if depth == 0 || self.k.operand_ty(a) != self.k.operand_ty(b) {
            return false;
        }
        let (Some(x), Some(y)) = (self.def(a), self.def(b)) else {
            return false;
        };
        let shape = |i: &Inst| {
            let mut i = i.clone();
            kernel_ir::visit::for_each_def_mut(&mut i, |v| *v = Var(0));
            kernel_ir::visit::for_each_use_mut(&mut i, |o| {
                if let Operand::Var(v) = o {
                    *v = Var(0);
                }
            });
            i
        };
        if shape(x) != shape(y) {
            return false;
        }
        let (mut ua, mut ub) = (Vec::new(), Vec::new());
        kernel_ir::visit::for_each_use(x, |o| ua.push(o));
        kernel_ir::visit::for_each_use(y, |o| ub.push(o));
        ua.iter()
            .zip(&ub)
            .all(|(&p, &q)| self.same(p, q, depth - 1))
    }

    /// Facts `p < q` (unsigned, `q` run-invariant) that hold when `cond` equals `taken`.
    fn facts(&self, cond: Operand, taken: bool, out: &mut Vec<(Operand, Operand)>, depth: u32) {
        if depth == 0 {
            return;
        }
        let Some(inst) = self.def(cond) else { return };
        let lt = match (inst, taken) {
            (
                Inst::Binary {
                    op: BinOp::And,
                    a,
                    b,
                    ..
                },
                true,
            )
            | (
                Inst::Binary {
                    op: BinOp::Or,
                    a,
                    b,
                    ..
                },
                false,
            ) => {
                self.facts(*a, taken, out, depth - 1);
                self.facts(*b, taken, out, depth - 1);
                return;
            }
            (
                Inst::Unary {
                    op: UnOp::Not, a, ..
                },
                _,
            ) => {
                self.facts(*a, !taken, out, depth - 1);
                return;
            }
            (
                Inst::Binary {
                    op: BinOp::Lt,
                    a,
                    b,
                    ..
                },
                true,
            )
            | (
                Inst::Binary {
                    op: BinOp::Ge,
                    a,
                    b,
                    ..
                },
                false,
            ) => (*a, *b),
            (
                Inst::Binary {
                    op: BinOp::Gt,
                    a,
                    b,
                    ..
                },
                true,
            )
            | (
                Inst::Binary {
                    op: BinOp::Le,
                    a,
                    b,
                    ..
                },
                false,
            ) => (*b, *a),
            _ => return,
        };
        if self.unsigned(lt.0) && self.invariant(lt.1) {
            out.push(lt);
        }
    }

    /// A run-invariant `q` with `o < q` by one of `facts`.
    fn below(&self, o: Operand, facts: &[(Operand, Operand)]) -> Option<Operand> {
        facts
            .iter()
            .find(|(p, _)| self.same(*p, o, SAME_DEPTH))
            .map(|&(_, q)| q)
    }

    /// `v` when `o` is `v` (a `u32`) zero-extended to `u64`.
    fn widened(&self, o: Operand) -> Option<Operand> {
        match self.def(o)? {
            Inst::Cast { dst, a } if self.k.ty(*dst) == Ty::U64 => {
                (self.k.operand_ty(*a) == Ty::U32).then_some(*a)
            }
            _ => None,
        }
    }

    /// An exclusive upper bound of the `u64` index `idx` under `facts`: `idx < q` itself,
    /// `zext(v)` with `v < q`, or `zext(a) * zext(w) + zext(x)` with `a < h` and `x < w` (at
    /// most `(h - 1) * w + w - 1`, so below `h * w`; no step wraps in 64 bits).
    fn bound(&self, idx: Operand, facts: &[(Operand, Operand)]) -> Option<Bound> {
        if let Some(q) = self.below(idx, facts) {
            return Some(Bound::One(q));
        }
        if let Some(v) = self.widened(idx) {
            return self.below(v, facts).map(Bound::One);
        }
        let Some(Inst::Binary {
            op: BinOp::Add,
            a,
            b,
            ..
        }) = self.def(idx)
        else {
            return None;
        };
        for (m, r) in [(*a, *b), (*b, *a)] {
            let Some(Inst::Binary {
                op: BinOp::Mul,
                a: p,
                b: s,
                ..
            }) = self.def(m)
            else {
                continue;
            };
            let Some(x) = self.widened(r) else { continue };
            let Some(w) = self.below(x, facts) else {
                continue;
            };
            for (row, width) in [(*p, *s), (*s, *p)] {
                let width_ok = self
                    .widened(width)
                    .is_some_and(|w2| self.same(w2, w, SAME_DEPTH));
                let row_bound = self.widened(row).and_then(|a| self.below(a, facts));
                if let (true, Some(h)) = (width_ok, row_bound) {
                    return Some(Bound::Two(h, w));
                }
            }
        }
        None
    }
}

/// The head: `code` (evaluation of every check; `any` is whether one fails) then `if any
/// { dispatch }` (the panic at the first failing one). Behind a cover when one exists and takes
/// fewer compares than the checks: `slow = bound0 > len0 || ...; if slow { code; dispatch }`
/// (`any` is then left for dead-code removal: the dispatch's own tests decide).
pub(super) fn wrap(
    k: &mut Kernel,
    mut code: Vec<Inst>,
    any: Operand,
    dispatch: Vec<Inst>,
    checks: &[Reached],
) -> Vec<Inst> {
    let plain = |mut code: Vec<Inst>, dispatch| {
        code.push(Inst::If {
            cond: any,
            then: Block(dispatch),
            els: Block::default(),
        });
        code
    };
    let mut defs = FxHashMap::default();
    for (i, inst) in code.iter().enumerate() {
        for_each_def(inst, |v| {
            defs.insert(v, i);
        });
    }
    let cx = Cx {
        k,
        code: &code,
        defs,
    };
    let mut covers: Vec<(Bound, Operand)> = Vec::new();
    let mut facts = Vec::new();
    for c in checks {
        if cx.k.operand_ty(c.idx) != Ty::U64 || !cx.invariant(c.len) {
            return plain(code, dispatch);
        }
        facts.clear();
        for &(cond, taken) in &c.conds {
            cx.facts(cond, taken, &mut facts, SAME_DEPTH);
        }
        let Some(b) = cx.bound(c.idx, &facts) else {
            return plain(code, dispatch);
        };
        let one_u64 = |o: Operand| matches!(cx.k.operand_ty(o), Ty::U64);
        let typed = match b {
            Bound::One(q) => matches!(cx.k.operand_ty(q), Ty::U32 | Ty::U64),
            Bound::Two(h, w) => !one_u64(h) && !one_u64(w),
        };
        if !typed {
            return plain(code, dispatch);
        }
        if !covers.contains(&(b, c.len)) {
            covers.push((b, c.len));
        }
    }
    if covers.len() >= checks.len() {
        return plain(code, dispatch);
    }
    let mut out = Vec::with_capacity(4 * covers.len() + 1);
    let mut slow: Option<Operand> = None;
    for (b, len) in covers {
        let bound = match b {
            Bound::One(q) => widen(k, &mut out, q),
            Bound::Two(h, w) => {
                let (h, w) = (widen(k, &mut out, h), widen(k, &mut out, w));
                binary(k, &mut out, Ty::U64, BinOp::Mul, h, w)
            }
        };
        let fails = binary(k, &mut out, Ty::Bool, BinOp::Gt, bound, len);
        slow = Some(match slow {
            None => fails,
            Some(s) => binary(k, &mut out, Ty::Bool, BinOp::Or, s, fails),
        });
    }
    let Some(slow) = slow else {
        return plain(code, dispatch);
    };
    code.extend(dispatch);
    out.push(Inst::If {
        cond: slow,
        then: Block(code),
        els: Block::default(),
    });
    out
}

/// `o` as a `u64` (zero-extended when it is a `u32`).
fn widen(k: &mut Kernel, out: &mut Vec<Inst>, o: Operand) -> Operand {
    if k.operand_ty(o) == Ty::U64 {
        return o;
    }
    let dst = k.new_var(Ty::U64);
    out.push(Inst::Cast { dst, a: o });
    dst.into()
}

fn binary(
    k: &mut Kernel,
    out: &mut Vec<Inst>,
    ty: Ty,
    op: BinOp,
    a: Operand,
    b: Operand,
) -> Operand {
    let dst = k.new_var(ty);
    out.push(Inst::Binary { dst, op, a, b });
    dst.into()
}

#[cfg(test)]
mod tests {
    use super::super::defer_checks;
    use super::super::testkit::*;
    use kernel_ir::ir::{BinOp, Const, Kernel, Ty, Var};

    /// A transpose tile phase: rows `y + 0` and `y + 8` of `p[(y + r) * w + x]` (a load and a
    /// store each: two checked loads make the run worth a head), each under
    /// `x < w && y + r < h2[r]` (`h2` is `[h, h]`, or `[h, g]` to break the cover).
    fn tile(second_row_bound_is_h: bool) -> (Kernel, [Var; 7]) {
        let mut k = kernel();
        let p = param(&mut k, "p", Ty::U64);
        let len = param(&mut k, "len", Ty::U64);
        let w = param(&mut k, "w", Ty::U32);
        let h = param(&mut k, "h", Ty::U32);
        let g = param(&mut k, "g", Ty::U32);
        let x = param(&mut k, "x", Ty::U32);
        let y = param(&mut k, "y", Ty::U32);
        let mut body = Vec::new();
        for r in [0u32, 8] {
            let bound = if r == 0 || second_row_bound_is_h {
                h
            } else {
                g
            };
            let row = k.new_var(Ty::U32);
            let (xa, ra, c) = (
                k.new_var(Ty::Bool),
                k.new_var(Ty::Bool),
                k.new_var(Ty::Bool),
            );
            let (wr, ww, m) = (k.new_var(Ty::U64), k.new_var(Ty::U64), k.new_var(Ty::U64));
            let (wx, i, off, a, v) = (
                k.new_var(Ty::U64),
                k.new_var(Ty::U64),
                k.new_var(Ty::U64),
                k.new_var(Ty::U64),
                k.new_var(Ty::U64),
            );
            body.extend([
                bin(row, BinOp::Add, y, u32c(r)),
                bin(xa, BinOp::Lt, x, w),
                bin(ra, BinOp::Lt, row, bound),
                bin(c, BinOp::And, xa, ra),
                if_(
                    c,
                    vec![
                        cast(wr, row),
                        cast(ww, w),
                        bin(m, BinOp::Mul, wr, ww),
                        cast(wx, x),
                        bin(i, BinOp::Add, m, wx),
                        check(i, len),
                        bin(off, BinOp::Mul, i, u64c(4)),
                        bin(a, BinOp::Add, p, off),
                        load(v, a),
                        store(a, v),
                    ],
                    vec![],
                ),
            ]);
        }
        k.body.0 = body;
        (k, [p, len, w, h, g, x, y])
    }

    fn same_effects_everywhere(k: &Kernel, opt: &Kernel, vars: [Var; 7]) {
        let [p, len, w, h, g, x, y] = vars;
        let mut seed = 7;
        for _ in 0..3000 {
            let mut pick = |m| next_below(&mut seed, m);
            let (wv, hv, gv) = (pick(6) as u32, pick(20) as u32, pick(20) as u32);
            let (xv, yv) = (pick(8) as u32, pick(20) as u32);
            let lenv = (wv as u64 * hv as u64).saturating_sub(pick(4));
            let u32v = |v: u32| Const {
                ty: Ty::U32,
                bits: v as u64,
            };
            let params = [
                (
                    p,
                    Const {
                        ty: Ty::U64,
                        bits: 1 << 20,
                    },
                ),
                (
                    len,
                    Const {
                        ty: Ty::U64,
                        bits: lenv,
                    },
                ),
                (w, u32v(wv)),
                (h, u32v(hv)),
                (g, u32v(gv)),
                (x, u32v(xv)),
                (y, u32v(yv)),
            ];
            let (want, got) = (run(k, &params), run(opt, &params));
            assert!(want.same_effects(&got), "{params:?}: {want:?} vs {got:?}");
        }
    }

    #[test]
    fn a_tile_is_covered_by_one_compare_and_keeps_its_reports() {
        let (k, vars) = tile(true);
        let mut opt = k.clone();
        assert!(defer_checks(&mut opt));
        let body = text(&opt);
        assert_eq!(body.matches("gt.u64").count(), 1, "{body}");
        same_effects_everywhere(&k, &opt, vars);
    }

    #[test]
    fn rows_under_different_bounds_keep_the_precise_head() {
        let (k, vars) = tile(false);
        let mut opt = k.clone();
        assert!(defer_checks(&mut opt));
        let body = text(&opt);
        assert!(!body.contains("gt.u64"), "{body}");
        same_effects_everywhere(&k, &opt, vars);
    }
}
