//! Loop unrolling of counted `for` loops with constant bounds and step.
//!
//! Policy, per the loop's [`Unroll`] hint:
//! - `Full`: unrolled completely when the trip count is at most [`FULL_MAX_TRIP`] and trip count
//!   times body size (instructions, nested included) at most [`FULL_MAX_INSTS`]; otherwise left
//!   as is (not an error).
//! - `Auto`: unrolled completely where nvcc would unroll it, or, for a constant trip count too
//!   long for that, as `By(8)` or `By(4)` where that leaves no leftover iterations: see [`policy`].
//! - `By(n)`: the body is repeated `n` times inside a loop stepping `n * step`, followed by the
//!   `trip % n` leftover iterations unrolled straight. Copy `j` of the body reads `iv + j*step`
//!   (`iv - j*step` for reversed loops) from a fresh variable. Loops whose body breaks out of or
//!   continues the loop itself are left alone under `By`.
//! - `Never`, or bounds that are not constants: left alone.
//!
//! Full unrolling emits, per iteration, a copy of the body with the induction variable replaced
//! by its constant value (inner loops get fresh ids); `const_fold` then folds what that enables. The body's variables are
//! reused by every copy, which is fine because the IR is not SSA. A `continue` of the unrolled
//! loop becomes a `break` out of a one-shot `loop` wrapped around that copy, and a `break` a `break`
//! out of a one-shot `loop` around all copies, so early exits keep their meaning.
//!
//! Loops are processed innermost first.

pub mod policy;
mod prefold;

use super::eval::int_const;
use super::util::{drop_repeated_locs, inst_count, refresh_loop_ids};
use kernel_ir::ir::{BinOp, Block, Inst, Kernel, LoopId, Operand, Ty, Unroll, Var};
use kernel_ir::visit::{for_each_use_mut, is_compound, jumps_to, walk, walk_inst_mut, walk_mut};
use prefold::Prefold;

pub const FULL_MAX_TRIP: u128 = 4096;
pub const FULL_MAX_INSTS: usize = 1 << 17;

/// Unrolls every eligible loop once (innermost first). Returns whether anything changed.
pub fn unroll(k: &mut Kernel) -> bool {
    unroll_with(k, true)
}

/// [`unroll`]; without `prefold`, straight copies are made as they are (for tests: folding them
/// gives what the prefolded copies fold to).
fn unroll_with(k: &mut Kernel, prefold: bool) -> bool {
    let mut body = std::mem::take(&mut k.body);
    let changed = unroll_block(k, &mut body, prefold);
    // Every copy of a body repeats its statements' markers.
    if changed {
        drop_repeated_locs(&mut body, None);
    }
    k.body = body;
    changed
}

/// Unrolls the loops of `b` and of the blocks nested in it, innermost first.
fn unroll_block(k: &mut Kernel, b: &mut Block, prefold: bool) -> bool {
    let mut changed = false;
    for inst in &mut b.0 {
        match inst {
            Inst::If { then, els, .. } => {
                changed |= unroll_block(k, then, prefold);
                changed |= unroll_block(k, els, prefold);
            }
            Inst::For { body, .. } | Inst::Loop { body, .. } => {
                changed |= unroll_block(k, body, prefold)
            }
            _ => {}
        }
    }
    // The block is rebuilt only if a loop at its level may be unrolled.
    if !b.0.iter().any(|i| matches!(i, Inst::For { .. })) {
        return changed;
    }
    let mut out = Vec::with_capacity(b.0.len());
    for inst in std::mem::take(&mut b.0) {
        if unroll_for(k, &inst, &mut out, prefold) {
            changed = true;
        } else {
            out.push(inst);
        }
    }
    b.0 = out;
    changed
}

/// A counted loop with constant bounds and step: in iteration `i` (from 0) the induction
/// variable is `first + i * delta`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Trip {
    pub first: i128,
    pub delta: i128,
    pub count: u128,
}

impl Trip {
    pub fn value(&self, i: u128) -> i128 {
        self.first + i as i128 * self.delta
    }
}

/// The iterations of `for` with these operands, if they are constants (and the step positive).
pub fn trip(
    start: Operand,
    end: Operand,
    step: Operand,
    inclusive: bool,
    reverse: bool,
) -> Option<Trip> {
    let (Operand::Const(s), Operand::Const(e), Operand::Const(st)) = (start, end, step) else {
        return None;
    };
    let (s, e, st) = (s.as_i128(), e.as_i128(), st.as_i128());
    if st <= 0 {
        return None;
    }
    let hi = if inclusive { e } else { e - 1 };
    let count = if hi < s {
        0
    } else {
        ((hi - s) / st + 1) as u128
    };
    Some(if reverse {
        Trip {
            first: hi,
            delta: -st,
            count,
        }
    } else {
        Trip {
            first: s,
            delta: st,
            count,
        }
    })
}

/// The induction variable's values in iteration order, if bounds and step are constants and
/// there are at most `cap` of them.
pub fn iteration_values(
    start: Operand,
    end: Operand,
    step: Operand,
    inclusive: bool,
    reverse: bool,
    cap: u128,
) -> Option<Vec<i128>> {
    let t = trip(start, end, step, inclusive, reverse)?;
    (t.count <= cap).then(|| (0..t.count).map(|i| t.value(i)).collect())
}

/// If `inst` is a loop to unroll, appends its unrolled form to `out` and returns true.
fn unroll_for(k: &mut Kernel, inst: &Inst, out: &mut Vec<Inst>, prefold: bool) -> bool {
    unrolled(k, inst, out, prefold).is_some()
}

fn unrolled(k: &mut Kernel, inst: &Inst, out: &mut Vec<Inst>, prefold: bool) -> Option<()> {
    let Inst::For {
        id,
        iv,
        start,
        end,
        inclusive,
        step,
        reverse,
        body,
        unroll,
    } = inst
    else {
        return None;
    };
    let size = inst_count(body).max(1);
    let ty = k.ty(*iv);
    match *unroll {
        Unroll::Never | Unroll::By(0) | Unroll::By(1) => None,
        Unroll::Full | Unroll::Auto => {
            let t = trip(*start, *end, *step, *inclusive, *reverse)?;
            let ok = if *unroll == Unroll::Full {
                t.count <= FULL_MAX_TRIP
                    && (t.count as usize).saturating_mul(size) <= FULL_MAX_INSTS
            } else {
                policy::auto_full(body, *iv, t.count, k.vars.len())
            };
            if !ok {
                let n = (*unroll == Unroll::Auto)
                    .then(|| policy::auto_partial(body, t.count))
                    .flatten()?;
                let mut by = inst.clone();
                if let Inst::For { unroll, .. } = &mut by {
                    *unroll = Unroll::By(n);
                }
                return unrolled(k, &by, out, prefold);
            }
            let vals: Vec<i128> = (0..t.count).map(|i| t.value(i)).collect();
            full(k, *id, *iv, ty, body, &vals, out, prefold);
            Some(())
        }
        Unroll::By(n) => {
            if jumps_to(&body.0, *id) {
                return None;
            }
            let t = trip(*start, *end, *step, *inclusive, *reverse)?;
            let n = n as usize;
            // Every copy made here (main body and leftover iterations) is below `n`, so bounding
            // `n` copies of the body bounds the growth.
            if size.saturating_mul(n) > FULL_MAX_INSTS {
                return None;
            }
            let q = t.count / n as u128;
            let tail = |from: u128| -> Vec<i128> { (from..t.count).map(|i| t.value(i)).collect() };
            if q == 0 {
                full(k, *id, *iv, ty, body, &tail(0), out, prefold);
                return Some(());
            }
            let Operand::Const(st) = *step else {
                return None;
            };
            let wide = st.as_i128() * n as i128;
            let big_step = int_const(ty, wide);
            if big_step.as_i128() != wide {
                return None;
            }
            let (first, last) = (t.value(0), t.value((q - 1) * n as u128));
            let c = |v: i128| Operand::Const(int_const(ty, v));
            let mut main = Vec::new();
            for j in 0..n {
                let mut copy = body.clone();
                if j > 0 {
                    refresh_loop_ids(k, &mut copy);
                    let ivj = k.new_var(ty);
                    let off = int_const(ty, st.as_i128() * j as i128);
                    main.push(Inst::Binary {
                        dst: ivj,
                        op: if *reverse { BinOp::Sub } else { BinOp::Add },
                        a: Operand::Var(*iv),
                        b: off.into(),
                    });
                    substitute(&mut copy, *iv, Operand::Var(ivj));
                }
                main.extend(copy.0);
            }
            out.push(Inst::For {
                id: *id,
                iv: *iv,
                start: if *reverse { c(last) } else { c(first) },
                end: if *reverse { c(first) } else { c(last) },
                inclusive: true,
                step: big_step.into(),
                reverse: *reverse,
                body: Block(main),
                unroll: Unroll::Never,
            });
            full(k, *id, *iv, ty, body, &tail(q * n as u128), out, prefold);
            Some(())
        }
    }
}

/// Replaces every read of `from` in `b` by `to` (exact for an induction variable, which the body
/// never writes).
fn substitute(b: &mut Block, from: Var, to: Operand) {
    walk_mut(b, &mut |i| {
        for_each_use_mut(i, |o| {
            if *o == Operand::Var(from) {
                *o = to;
            }
        })
    });
}

/// [`substitute`] in one instruction and the blocks nested in it.
fn substitute_inst(inst: &mut Inst, from: Var, to: Operand) {
    walk_inst_mut(inst, &mut |i| {
        for_each_use_mut(i, |o| {
            if *o == Operand::Var(from) {
                *o = to;
            }
        })
    });
}

/// Rewrites jumps to loop `from` inside `b` into `to` (a `continue` becomes a `break` of `to`
/// when `continue_to` is given, a `break` becomes `break to`).
fn retarget(b: &mut Block, from: LoopId, brk: Option<LoopId>, cont: Option<LoopId>) {
    walk_mut(b, &mut |i| match i {
        Inst::Break(l) if *l == from => {
            if let Some(t) = brk {
                *l = t;
            }
        }
        Inst::Continue(l) if *l == from => {
            if let Some(t) = cont {
                *i = Inst::Break(t);
            }
        }
        _ => {}
    });
}

/// One copy of `body` per value, with `iv` replaced by the value, appended to `out`.
#[allow(clippy::too_many_arguments)]
fn full(
    k: &mut Kernel,
    id: LoopId,
    iv: Var,
    ty: Ty,
    body: &Block,
    vals: &[i128],
    out: &mut Vec<Inst>,
    prefold: bool,
) {
    let (mut has_break, mut has_continue, mut has_loops) = (false, false, false);
    walk(body, &mut |i| match i {
        Inst::Break(l) if *l == id => has_break = true,
        Inst::Continue(l) if *l == id => has_continue = true,
        Inst::For { .. } | Inst::Loop { .. } => has_loops = true,
        _ => {}
    });
    if prefold && !has_loops && !has_break && !has_continue {
        // Straight copies: folded as they are built (see `prefold`).
        let mut pf = Prefold::new(k.vars.len());
        for &v in vals {
            let c = int_const(ty, v);
            pf.set(iv, c);
            for inst in &body.0 {
                if is_compound(inst) {
                    let mut inst = inst.clone();
                    substitute_inst(&mut inst, iv, Operand::Const(c));
                    pf.forget(&inst);
                    out.push(inst);
                } else {
                    pf.push(&k.vars, inst, out);
                }
            }
        }
        pf.finish(out);
        return;
    }
    let outer = has_break.then(|| k.new_loop());
    let mut seq = Vec::with_capacity(vals.len() * body.0.len() + 1);
    for &v in vals {
        let mut copy = body.clone();
        if has_loops {
            refresh_loop_ids(k, &mut copy);
        }
        let inner = has_continue.then(|| k.new_loop());
        if has_break || has_continue {
            retarget(&mut copy, id, outer, inner);
        }
        substitute(&mut copy, iv, Operand::Const(int_const(ty, v)));
        let mut one = copy.0;
        if let Some(c) = inner {
            one.push(Inst::Break(c));
            one = vec![Inst::Loop {
                id: c,
                body: Block(one),
            }];
        }
        seq.extend(one);
    }
    match outer {
        Some(o) => {
            seq.push(Inst::Break(o));
            out.push(Inst::Loop {
                id: o,
                body: Block(seq),
            });
        }
        None => out.extend(seq),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::passes::const_fold;
    use crate::passes::testkit::*;
    use kernel_ir::ir::Const;

    fn count_loops(k: &Kernel) -> usize {
        let mut n = 0;
        kernel_ir::visit::walk(&k.body, &mut |i| {
            n += matches!(i, Inst::For { .. } | Inst::Loop { .. }) as usize
        });
        n
    }

    fn unroll_fold(k: &mut Kernel) {
        for _ in 0..8 {
            let a = unroll(k);
            let b = const_fold(k);
            if !a && !b {
                break;
            }
        }
    }

    /// `(start, end, step, inclusive, reverse)` of an `i32` loop.
    type Shape = (i32, i32, i32, bool, bool);

    fn stepped(k: &mut Kernel, iv: Var, shape: Shape, u: Unroll, body: Vec<Inst>) -> Inst {
        let (s, e, step, incl, rev) = shape;
        Inst::For {
            id: k.new_loop(),
            iv,
            start: i32c(s),
            end: i32c(e),
            inclusive: incl,
            step: i32c(step),
            reverse: rev,
            body: Block(body),
            unroll: u,
        }
    }

    /// Every unroll mode over many shapes of `for` must store exactly what the loop did.
    #[test]
    fn unrolled_loops_store_the_same() {
        for u in [
            Unroll::Full,
            Unroll::Auto,
            Unroll::By(2),
            Unroll::By(3),
            Unroll::By(8),
        ] {
            for (s, e, step) in [(0, 5, 1), (-3, 7, 2), (2, 2, 1), (0, 9, 3), (5, 6, 4)] {
                for incl in [false, true] {
                    for rev in [false, true] {
                        let mut k = kernel();
                        let p = param(&mut k, "p", Ty::U64);
                        let i = k.new_var(Ty::I32);
                        let j = k.new_var(Ty::I32);
                        let x = k.new_var(Ty::I32);
                        let inner_body = vec![bin(x, BinOp::Mul, i, j), store(p, x)];
                        let inner = stepped(
                            &mut k,
                            j,
                            (0, 2, 1, false, false),
                            Unroll::Never,
                            inner_body,
                        );
                        let body = vec![store(p, i), inner];
                        let l = stepped(&mut k, i, (s, e, step, incl, rev), u, body);
                        k.body.0 = vec![l];
                        let orig = k.clone();
                        unroll_fold(&mut k);
                        let args = [(p, Const::u64(8))];
                        assert_eq!(
                            run(&orig, &args),
                            run(&k, &args),
                            "{u:?} {s}..{e} step {step} incl {incl} rev {rev}\n{}",
                            text(&k)
                        );
                        let mut ids = crate::passes::fx::FxHashSet::default();
                        kernel_ir::visit::walk(&k.body, &mut |i| {
                            if let Inst::For { id, .. } | Inst::Loop { id, .. } = i {
                                assert!(ids.insert(*id), "loop id reused");
                            }
                        });
                    }
                }
            }
        }
    }

    /// Random nests of fully unrolled loops whose bodies compute with the induction variables,
    /// constants, casts, checks and branches.
    struct Nest {
        seed: u64,
        k: Kernel,
        p: Var,
        narrow: Vec<Var>,
        wide: Vec<Var>,
        /// Whether bodies get source markers (a few distinct ones, so that some repeat).
        locs: bool,
    }

    impl Nest {
        fn rnd(&mut self, m: u64) -> u64 {
            crate::passes::testkit::next_below(&mut self.seed, m)
        }
        fn pick(&mut self, from: &[Var], ivs: &[Var]) -> Operand {
            match self.rnd(4) {
                0 => u32c(self.rnd(10) as u32),
                1 if !ivs.is_empty() => ivs[self.rnd(ivs.len() as u64) as usize].into(),
                _ => from[self.rnd(from.len() as u64) as usize].into(),
            }
        }
        fn body(&mut self, ivs: &mut Vec<Var>, depth: u32) -> Vec<Inst> {
            let mut out = vec![];
            for _ in 0..1 + self.rnd(7) {
                if self.locs && self.rnd(3) == 0 {
                    let line = 1 + self.rnd(3) as u32;
                    out.push(Inst::Loc(kernel_ir::ir::SourceLoc {
                        file: "nest.rs",
                        line,
                        col: 1,
                    }));
                }
                let narrow = self.narrow.clone();
                let d = narrow[self.rnd(narrow.len() as u64) as usize];
                let wi = self.rnd(self.wide.len() as u64) as usize;
                let w = self.wide[wi];
                match self.rnd(if depth < 2 { 10 } else { 8 }) {
                    0..=2 => {
                        let op = [BinOp::Add, BinOp::Mul, BinOp::Sub, BinOp::Shl, BinOp::Lt]
                            [self.rnd(5) as usize];
                        let (a, b) = (self.pick(&narrow, ivs), self.pick(&narrow, ivs));
                        if op == BinOp::Lt {
                            let c = self.k.new_var(Ty::Bool);
                            out.push(bin(c, op, a, b));
                            let (t, e) = (self.pick(&narrow, ivs), self.pick(&narrow, ivs));
                            out.push(Inst::Select {
                                dst: d,
                                cond: c.into(),
                                a: t,
                                b: e,
                            });
                        } else {
                            out.push(bin(d, op, a, b));
                        }
                    }
                    3 => {
                        let a = self.pick(&narrow, ivs);
                        out.push(mov(d, a));
                    }
                    4 => {
                        let a = self.pick(&narrow, ivs);
                        out.push(cast(w, a));
                        out.push(check(w, u64c(4 + self.rnd(4))));
                        if self.rnd(2) == 0 {
                            out.push(cast(d, w));
                        }
                    }
                    5 => {
                        let a = self.pick(&narrow, ivs);
                        out.push(check(a, u32c(3 + self.rnd(6) as u32)));
                    }
                    6 | 7 => {
                        let a = self.pick(&narrow, ivs);
                        out.push(store(self.p, a));
                    }
                    8 => {
                        let c = self.k.new_var(Ty::Bool);
                        let (a, b) = (self.pick(&narrow, ivs), self.pick(&narrow, ivs));
                        out.push(bin(c, BinOp::Lt, a, b));
                        let t = self.body(ivs, depth + 1);
                        let e = self.body(ivs, depth + 1);
                        out.push(if_(c, t, e));
                    }
                    _ => {
                        let iv = self.k.new_var(Ty::U32);
                        let end = if ivs.is_empty() || self.rnd(2) == 0 {
                            u32c(1 + self.rnd(4) as u32)
                        } else {
                            ivs[self.rnd(ivs.len() as u64) as usize].into()
                        };
                        ivs.push(iv);
                        let b = self.body(ivs, depth + 1);
                        ivs.pop();
                        let u = [Unroll::Full, Unroll::Auto, Unroll::Never][self.rnd(3) as usize];
                        let l = for_(&mut self.k, iv, u32c(0), end, u, b);
                        out.push(l);
                    }
                }
            }
            out
        }
    }

    pub(crate) fn random_nest(seed: u64) -> Kernel {
        let mut k = kernel();
        let p = param(&mut k, "p", Ty::U64);
        let x = param(&mut k, "x", Ty::U32);
        let mut narrow = vec![x];
        narrow.extend((0..5).map(|_| k.new_var(Ty::U32)));
        let wide = (0..2).map(|_| k.new_var(Ty::U64)).collect();
        let mut g = Nest {
            seed: seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1,
            k,
            p,
            narrow,
            wide,
            locs: seed % 2 == 1,
        };
        let iv = g.k.new_var(Ty::U32);
        let mut ivs = vec![iv];
        let body = g.body(&mut ivs, 0);
        let end = u32c(1 + g.rnd(5) as u32);
        let l = for_(&mut g.k, iv, u32c(0), end, Unroll::Full, body);
        let ti = g.rnd(6) as usize;
        let tail = g.narrow[ti];
        // Every variable starts set (the simulator reads no unset one), one of them constant.
        let mut init: Vec<Inst> = (2..6)
            .map(|i| bin(g.narrow[i], BinOp::Add, x, u32c(i as u32)))
            .collect();
        init.push(mov(g.narrow[1], u32c(2)));
        init.extend(g.wide.iter().map(|&w| cast(w, x)));
        g.k.body.0 = init;
        g.k.body.0.extend([l, store(p, tail)]);
        g.k
    }

    /// Folding while unrolling changes nothing: unrolling then folding as the pipeline does
    /// gives exactly the code the plain copies fold to.
    #[test]
    fn prefolded_copies_fold_to_the_same_code() {
        let mut folded_less = 0;
        for seed in 0..3000 {
            let k = random_nest(seed);
            let (mut a, mut b) = (k.clone(), k.clone());
            const_fold(&mut a);
            const_fold(&mut b);
            for _ in 0..8 {
                let ua = unroll_with(&mut a, true);
                let ub = unroll_with(&mut b, false);
                assert_eq!(ua, ub, "seed {seed}");
                if ua {
                    folded_less += (inst_count(&a.body) < inst_count(&b.body)) as usize;
                }
                let fa = const_fold(&mut a);
                let fb = const_fold(&mut b);
                assert_eq!(a.body, b.body, "seed {seed}\n{}", text(&k));
                if !ua && !fa && !fb {
                    break;
                }
            }
        }
        assert!(folded_less > 300, "{folded_less}");
    }

    /// Random nests of loops unrolled and folded as the pipeline does store what the loops
    /// stored.
    #[test]
    fn random_nests_unroll_to_the_same_stores() {
        let mut unrolled = 0;
        for seed in 0..3000 {
            let k = random_nest(seed);
            let mut a = k.clone();
            const_fold(&mut a);
            for _ in 0..8 {
                let u = unroll(&mut a);
                unrolled += u as usize;
                if !const_fold(&mut a) && !u {
                    break;
                }
            }
            let args = [(Var(1), Const::u32(3)), (Var(0), Const::u64(0))];
            assert_eq!(run(&k, &args), run(&a, &args), "seed {seed}\n{}", text(&k));
        }
        assert!(unrolled > 2000, "{unrolled}");
    }

    /// Huge constant trip counts are never materialized: `Full` leaves the loop, `By(n)` keeps a
    /// loop with at most `n - 1` leftover iterations.
    #[test]
    fn huge_trip_counts() {
        let mut k = kernel();
        let p = param(&mut k, "p", Ty::U64);
        let i = k.new_var(Ty::U64);
        let full_loop = for_(
            &mut k,
            i,
            u64c(0),
            u64c(u64::MAX),
            Unroll::Full,
            vec![store(p, i)],
        );
        let by = for_(
            &mut k,
            i,
            u64c(3),
            u64c(u64::MAX),
            Unroll::By(4),
            vec![store(p, i)],
        );
        k.body.0 = vec![full_loop, by];
        assert!(unroll(&mut k));
        let got = text(&k);
        assert_eq!(count_loops(&k), 2, "{got}");
        assert!(
            got.contains("for L1 v1 in 3u64..=18446744073709551611u64 step 4u64"),
            "{got}"
        );
        // (u64::MAX - 3) % 4 == 0: no leftover copies.
        assert_eq!(got.matches("store").count(), 5, "{got}");
    }
}
