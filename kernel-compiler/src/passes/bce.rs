//! Bounds-check elimination.
//!
//! Walks the structured tree keeping facts `x < y` (unsigned, on values) that hold at the current
//! point, and drops a `BoundsCheck { idx, len }` that the facts prove. Facts come from:
//! - the condition of an enclosing `if`: in `then`, `a < b` for a condition `lt(a, b)` or
//!   `gt(b, a)`; in `else`, for `ge(a, b)` / `le(b, a)`; through `and` (then), `or` (else) and `not`;
//!   and after an `if` one of whose branches cannot fall through (`if i >= n { return }`), the
//!   other branch's facts continue;
//! - an enclosing `for iv in start..end` (exclusive, any step, either direction): `iv < end` when
//!   `end` is a constant or a variable the body does not write; `..=c` gives `iv < c + 1`;
//! - an earlier check on the path: after `BoundsCheck { idx, len }` the thread only continues if
//!   `idx < len`.
//!
//! Values are compared through copies and zero extensions: `idx = x as u64` with `x: u32` and
//! `len = n as u64` are checked against facts about `x` and `n`, since widening an unsigned value
//! preserves its order. Only comparisons of unsigned operands produce facts. Constant sides compare
//! by value (`i < 8` proves `i < 16`; any fact `_ < len` proves `0 < len`).
//!
//! A fact or definition is forgotten as soon as a variable in it is written again; entering a loop
//! forgets everything about variables the loop writes.
//!
//! With `CompileOptions::bounds_checks` off, every check is removed (the benchmark's unchecked
//! configuration).
//!
//! The same walk drops overflow checks (`if add_ovf a, b { panic }`, see `frontend::overflow`)
//! whose test the operands' value ranges prove false (`tid * 8 + 7` with at most 1024 threads),
//! and shift-amount checks whose unsigned comparison the ranges decide; these stay whatever
//! `bounds_checks` says.

use super::ranges::{self, Range};
use super::util::assigned_set;
use crate::options::CompileOptions;
use kernel_ir::ir::{BinOp, Block, Const, Inst, Kernel, KernelAttrs, Operand, Ty, UnOp, Var};
use kernel_ir::visit::{falls_through, for_each_def};

/// Returns whether any check was removed.
pub fn bce(k: &mut Kernel, opts: &CompileOptions) -> bool {
    let mut body = std::mem::take(&mut k.body);
    let mut cx = Cx {
        vars: &k.vars,
        attrs: &k.attrs,
        removed: false,
        drop_all: !opts.bounds_checks,
    };
    cx.block(&mut body, &mut State::new(k.vars.len()));
    k.body = body;
    cx.removed
}

#[derive(Clone, Debug, PartialEq)]
enum Def {
    /// Same value (a `mov`, or a zero extension of an unsigned value).
    Same(Operand),
    Cmp(BinOp, Operand, Operand),
    And(Operand, Operand),
    Or(Operand, Operand),
    Not(Operand),
    /// `x + 1` in a type wider than `x`'s canonical value (so it cannot wrap).
    AddOne(Operand),
}

impl Def {
    fn mentions(&self, v: Var) -> bool {
        let m = |o: &Operand| *o == Operand::Var(v);
        match self {
            Def::Same(a) | Def::Not(a) | Def::AddOne(a) => m(a),
            Def::Cmp(_, a, b) | Def::And(a, b) | Def::Or(a, b) => m(a) || m(b),
        }
    }
}

/// Per-variable tables indexed by `Var.0` (hash maps of them were most of this pass's time on
/// unrolled kernels, which assign thousands of values between two branches).
#[derive(Clone, Default)]
struct State {
    defs: Vec<Option<Def>>,
    /// `(a, b)`: `a < b` holds, on canonical operands.
    facts: Vec<(Operand, Operand)>,
    /// Known value ranges (facts about values, so they stay true when an operand that produced
    /// them is written later; only writing the variable itself forgets its range).
    ranges: Vec<Option<Range>>,
    /// For each variable, the variables whose `defs` entry mentioned it when it was recorded
    /// (some may be stale): forgetting the definitions that read a written variable looks only
    /// at these instead of at every definition.
    readers: Vec<Vec<Var>>,
    /// How many entries of `facts` mention each variable, so writing one that none mentions
    /// skips the scan.
    in_facts: Vec<u32>,
}

impl State {
    fn new(vars: usize) -> Self {
        State {
            defs: vec![None; vars],
            facts: Vec::new(),
            ranges: vec![None; vars],
            readers: vec![Vec::new(); vars],
            in_facts: vec![0; vars],
        }
    }

    /// Makes room for `v` in every table (the kernel's variables all fit from the start).
    fn room(&mut self, v: Var) -> usize {
        let i = v.0 as usize;
        if i >= self.defs.len() {
            self.defs.resize(i + 1, None);
            self.ranges.resize(i + 1, None);
            self.readers.resize(i + 1, Vec::new());
            self.in_facts.resize(i + 1, 0);
        }
        i
    }

    fn def(&self, v: Var) -> Option<&Def> {
        self.defs.get(v.0 as usize).and_then(Option::as_ref)
    }

    fn set_range(&mut self, v: Var, r: Range) {
        let i = self.room(v);
        self.ranges[i] = Some(r);
    }

    /// Whether `v` has no range, definition, recorded readers or facts: killing it would change
    /// nothing.
    fn forgotten(&self, v: Var) -> bool {
        let i = v.0 as usize;
        self.defs.get(i).is_none_or(Option::is_none)
            && self.ranges.get(i).is_none_or(Option::is_none)
            && self.readers.get(i).is_none_or(Vec::is_empty)
            && self.in_facts.get(i).is_none_or(|n| *n == 0)
    }

    fn kill(&mut self, v: Var) {
        let i = self.room(v);
        self.ranges[i] = None;
        self.defs[i] = None;
        for r in std::mem::take(&mut self.readers[i]) {
            let at = r.0 as usize;
            if self.defs[at].as_ref().is_some_and(|d| d.mentions(v)) {
                self.defs[at] = None;
            }
        }
        if self.in_facts[i] > 0 {
            let o = Operand::Var(v);
            let in_facts = &mut self.in_facts;
            self.facts.retain(|&(a, b)| {
                let keep = a != o && b != o;
                if !keep {
                    for x in [a, b] {
                        if let Operand::Var(x) = x {
                            in_facts[x.0 as usize] -= 1;
                        }
                    }
                }
                keep
            });
        }
    }

    fn define(&mut self, dst: Var, def: Def) {
        let (a, b) = match def {
            Def::Same(a) | Def::Not(a) | Def::AddOne(a) => (a, a),
            Def::Cmp(_, a, b) | Def::And(a, b) | Def::Or(a, b) => (a, b),
        };
        for (i, o) in [a, b].into_iter().enumerate() {
            if let Operand::Var(x) = o {
                if i == 0 || b != a {
                    let at = self.room(x);
                    self.readers[at].push(dst);
                }
            }
        }
        let at = self.room(dst);
        self.defs[at] = Some(def);
    }

    /// Adds `facts[from..]` to `in_facts` (after pushing facts directly), and narrows the range
    /// of a variable each new fact bounds: `a < b` makes `a` at most `b`'s largest value less
    /// one (a `while k < 400` loop's counter is then below 400 in the body, so `k / 20` is
    /// below 20). Facts come from unsigned compares and checks, so `a` is unsigned and a
    /// missing range starts at 0.
    fn count_facts(&mut self, from: usize) {
        for n in from..self.facts.len() {
            let (a, b) = self.facts[n];
            for x in [a, b] {
                if let Operand::Var(x) = x {
                    let i = self.room(x);
                    self.in_facts[i] += 1;
                }
            }
            // `a < b` also makes `b` at least `a`'s smallest value plus one.
            if let Operand::Var(y) = b {
                let a_min = match a {
                    Operand::Const(c) => ranges::of_const(c).map(|r| r.0),
                    Operand::Var(x) => self
                        .ranges
                        .get(x.0 as usize)
                        .copied()
                        .flatten()
                        .map(|r| r.0),
                };
                let i = self.room(y);
                if let (Some(lo), Some((old_lo, hi))) = (a_min.map(|m| m + 1), self.ranges[i]) {
                    if lo.max(old_lo) <= hi {
                        self.ranges[i] = Some((lo.max(old_lo), hi));
                    }
                }
            }
            let Operand::Var(x) = a else { continue };
            let b_max = match b {
                Operand::Const(c) => ranges::of_const(c).map(|r| r.1),
                Operand::Var(y) => self
                    .ranges
                    .get(y.0 as usize)
                    .copied()
                    .flatten()
                    .map(|r| r.1),
            };
            if let Some(hi) = b_max.and_then(|m| m.checked_sub(1)) {
                let i = self.room(x);
                let (lo, old_hi) = self.ranges[i].unwrap_or((0, hi));
                if lo <= hi.min(old_hi) {
                    self.ranges[i] = Some((lo, hi.min(old_hi)));
                }
            }
        }
    }

    fn canon(&self, mut o: Operand) -> Operand {
        for _ in 0..64 {
            match o {
                Operand::Var(v) => match self.def(v) {
                    Some(Def::Same(x)) => o = *x,
                    _ => return o,
                },
                Operand::Const(_) => return o,
            }
        }
        o
    }

    fn cond_facts(
        &self,
        cond: Operand,
        truth: bool,
        out: &mut Vec<(Operand, Operand)>,
        depth: u32,
    ) {
        let Operand::Var(c) = cond else { return };
        if depth > 16 {
            return;
        }
        let mut push = |a: Operand, b: Operand| out.push((self.canon(a), self.canon(b)));
        match self.def(c) {
            Some(Def::Cmp(op, a, b)) => match (op, truth) {
                (BinOp::Lt, true) | (BinOp::Ge, false) => push(*a, *b),
                (BinOp::Gt, true) | (BinOp::Le, false) => push(*b, *a),
                // `x + 1 <= b` gives `x < b` when the increment cannot wrap.
                (BinOp::Le, true) | (BinOp::Gt, false) => {
                    if let Some(x) = self.plus_one_of(*a) {
                        push(x, *b)
                    }
                }
                (BinOp::Ge, true) | (BinOp::Lt, false) => {
                    if let Some(x) = self.plus_one_of(*b) {
                        push(x, *a)
                    }
                    // `a >= c` for a constant `c > 0` is `c - 1 < a`.
                    if let Operand::Const(c) = *b {
                        if c.ty.is_int() && !c.ty.is_signed() && c.bits > 0 {
                            let less = Const {
                                ty: c.ty,
                                bits: c.bits - 1,
                            };
                            push(less.into(), *a)
                        }
                    }
                }
                _ => {}
            },
            Some(Def::And(a, b)) if truth => {
                self.cond_facts(*a, true, out, depth + 1);
                self.cond_facts(*b, true, out, depth + 1);
            }
            Some(Def::Or(a, b)) if !truth => {
                self.cond_facts(*a, false, out, depth + 1);
                self.cond_facts(*b, false, out, depth + 1);
            }
            Some(Def::Not(a)) => self.cond_facts(*a, !truth, out, depth + 1),
            Some(Def::Same(a)) => self.cond_facts(*a, truth, out, depth + 1),
            _ => {}
        }
    }

    /// `x` if `o` is known to equal `x + 1` without wrap-around.
    fn plus_one_of(&self, o: Operand) -> Option<Operand> {
        let Operand::Var(v) = o else { return None };
        match self.def(v) {
            Some(Def::AddOne(x)) => Some(*x),
            _ => None,
        }
    }

    /// The range of `o`, narrowed by its canonical value's: the two are equal (a copy or a
    /// zero extension), and facts bound the canonical one (`t < s` on a widened `tid`).
    fn range(&self, vars: &[Ty], o: Operand) -> Option<Range> {
        let own = |o: Operand| match o {
            Operand::Const(c) => ranges::of_const(c),
            Operand::Var(v) => self.ranges.get(v.0 as usize).copied().flatten(),
        };
        let full = || match o {
            Operand::Var(v) => ranges::full(vars[v.0 as usize]),
            Operand::Const(_) => None,
        };
        let canon = self.canon(o);
        match (own(o), if canon == o { None } else { own(canon) }) {
            (Some(a), Some(b)) if a.0.max(b.0) <= a.1.min(b.1) => {
                Some((a.0.max(b.0), a.1.min(b.1)))
            }
            (Some(a), _) => Some(a),
            (None, Some(b)) => Some(b),
            (None, None) => full(),
        }
    }

    /// Whether the condition `cond` of a check (`if cond { panic }`) is false whenever it runs:
    /// a constant (an overflow test proven false), or an unsigned comparison whose operands'
    /// ranges decide it (a shift amount below the bit width).
    fn never_true(&self, vars: &[Ty], cond: Operand) -> bool {
        if self.canon(cond) == Operand::Const(Const::bool(false)) {
            return true;
        }
        let Operand::Var(c) = cond else {
            return false;
        };
        let Some(&Def::Cmp(op, a, b)) = self.def(c) else {
            return false;
        };
        let (Some(ra), Some(rb)) = (self.range(vars, a), self.range(vars, b)) else {
            return false;
        };
        match op {
            BinOp::Lt => ra.0 >= rb.1,
            BinOp::Le => ra.0 > rb.1,
            BinOp::Gt => ra.1 <= rb.0,
            BinOp::Ge => ra.1 < rb.0,
            _ => false,
        }
    }

    fn proves(&self, vars: &[Ty], idx: Operand, len: Operand) -> bool {
        if let (Some(ri), Some(rl)) = (self.range(vars, idx), self.range(vars, len)) {
            if ri.1 < rl.0 {
                return true;
            }
        }
        let (i, l) = (self.canon(idx), self.canon(len));
        let val = |o: Operand| match o {
            Operand::Const(c) => Some(c.bits),
            Operand::Var(_) => None,
        };
        if let (Some(a), Some(b)) = (val(i), val(l)) {
            return a < b;
        }
        let same = |x: Operand, y: Operand| match (val(x), val(y)) {
            (Some(a), Some(b)) => a == b,
            _ => x == y,
        };
        self.facts.iter().any(|&(a, b)| {
            let lhs_ok = same(a, i)
                || matches!((val(a), val(i)), (Some(x), Some(y)) if y <= x)
                || val(i) == Some(0);
            let rhs_ok = same(b, l) || matches!((val(b), val(l)), (Some(x), Some(y)) if x <= y);
            lhs_ok && rhs_ok
        })
    }
}

struct Cx<'a> {
    vars: &'a [Ty],
    attrs: &'a KernelAttrs,
    removed: bool,
    drop_all: bool,
}

impl Cx<'_> {
    fn ty(&self, o: Operand) -> Ty {
        match o {
            Operand::Var(v) => self.vars[v.0 as usize],
            Operand::Const(c) => c.ty,
        }
    }

    fn is_unsigned(&self, o: Operand) -> bool {
        let t = self.ty(o);
        t.is_int() && !t.is_signed()
    }

    /// In place: only dropped checks move the instructions after them.
    fn block(&mut self, b: &mut Block, st: &mut State) {
        b.0.retain_mut(|inst| match inst {
            Inst::BoundsCheck { .. } | Inst::If { .. } | Inst::For { .. } | Inst::Loop { .. } => {
                self.inst(inst, st)
            }
            Inst::Binary { op, .. } if op.is_overflow_test() => {
                self.overflow_test(inst, st);
                true
            }
            _ => {
                self.plain(inst, st);
                true
            }
        });
    }

    /// A straight-line instruction: what it writes is forgotten, then its range and definition
    /// are noted. Floating-point values, loads, selects and fused multiplies have neither (no
    /// check's index or length is one, nor a condition read through them), so for those (most
    /// of an unrolled tile) only the forgetting is done.
    ///
    /// A floating-point variable is never in the state at all: definitions are only noted for
    /// integer and `bool` values and read only such operands (a `mov` or `add` has operands of
    /// its result's type, a widening cast an integer source, a compare unsigned operands),
    /// ranges come from integer arithmetic and integer intrinsics, and facts from checks and
    /// unsigned compares. Forgetting one is a no-op, so writes of floats (the fmas, loads and
    /// moves of an unrolled tile) are skipped outright.
    fn plain(&self, inst: &Inst, st: &mut State) {
        let plain_dst = match *inst {
            Inst::Load { dst, .. }
            | Inst::Select { dst, .. }
            | Inst::Fma { dst, .. }
            | Inst::Mov { dst, .. }
            | Inst::Unary { dst, .. }
            | Inst::Binary { dst, .. }
            | Inst::Cast { dst, .. }
                if self.vars[dst.0 as usize].is_float() =>
            {
                debug_assert!(st.forgotten(dst), "a float variable holds no facts");
                return;
            }
            Inst::Load { dst, .. } | Inst::Select { dst, .. } | Inst::Fma { dst, .. } => Some(dst),
            _ => None,
        };
        if let Some(dst) = plain_dst {
            st.kill(dst);
            return;
        }
        let range = self.range_of(inst, st);
        for_each_def(inst, |v| st.kill(v));
        if let Some((dst, r)) = range {
            st.set_range(dst, r);
        }
        if let Some((dst, def)) = self.def_of(inst, st) {
            if !def.mentions(dst) {
                st.define(dst, def);
            }
        }
    }

    /// Returns whether `inst` stays.
    fn inst(&mut self, inst: &mut Inst, st: &mut State) -> bool {
        match inst {
            Inst::BoundsCheck { idx, len, .. } => {
                let (idx, len) = (*idx, *len);
                if self.drop_all || st.proves(self.vars, idx, len) {
                    self.removed = true;
                    return false;
                }
                let fact = (st.canon(idx), st.canon(len));
                st.facts.push(fact);
                st.count_facts(st.facts.len() - 1);
                true
            }
            Inst::If { cond, then, els } => {
                let cond = *cond;
                if els.0.is_empty() && is_panic(then) && st.never_true(self.vars, cond) {
                    self.removed = true;
                    return false;
                }
                let (ft, fe) = (falls_through(then), falls_through(els));
                // The state after the `if` is the one of the branch that alone falls through,
                // else the state before it less what either branch writes. A branch is walked
                // for its checks, or when its state is the one kept, which is then worked on in
                // place: a copy of the whole state per branch was most of an `if`'s cost, and
                // most branches hold no check.
                let keep_then = ft && !fe;
                let keep_else = fe && !ft;
                for (branch, truth, kept) in
                    [(&mut *then, true, keep_then), (&mut *els, false, keep_else)]
                {
                    if !kept && has_check(branch) {
                        let mut inner = st.clone();
                        st.cond_facts(cond, truth, &mut inner.facts, 0);
                        inner.count_facts(st.facts.len());
                        self.block(branch, &mut inner);
                    }
                }
                if keep_then || keep_else {
                    let mut facts = Vec::new();
                    st.cond_facts(cond, keep_then, &mut facts, 0);
                    let from = st.facts.len();
                    st.facts.extend(facts);
                    st.count_facts(from);
                    let checked = keep_else && els.0.is_empty();
                    self.block(if keep_then { then } else { els }, st);
                    // After a check `if c { panic }` of a value with no definition to keep (an
                    // overflow test), `c` is false: the same check again (one `cse` merged
                    // into a copy of it) goes.
                    if let (true, Operand::Var(c)) = (checked, cond) {
                        if st.def(c).is_none() {
                            st.define(c, Def::Same(Const::bool(false).into()));
                        }
                    }
                } else {
                    let mut written = assigned_set(then, self.vars.len());
                    written.union_with(&assigned_set(els, self.vars.len()));
                    for v in written.iter() {
                        st.kill(v);
                    }
                }
                true
            }
            Inst::For {
                iv,
                start,
                end,
                inclusive,
                body,
                ..
            } => {
                let (iv, start, end, inclusive) = (*iv, *start, *end, *inclusive);
                let written = assigned_set(body, self.vars.len());
                let end_c = st.canon(end);
                let iv_range = match (st.range(self.vars, start), st.range(self.vars, end)) {
                    (Some(s), Some(e)) => {
                        let hi = if inclusive {
                            Some(e.1)
                        } else {
                            e.1.checked_sub(1)
                        };
                        hi.filter(|h| s.0 <= *h).map(|h| (s.0, h))
                    }
                    _ => None,
                };
                for v in written.iter() {
                    st.kill(v);
                }
                st.kill(iv);
                let mut inner = st.clone();
                if let Some(r) = iv_range {
                    inner.set_range(iv, r);
                }
                let end_stable = match end {
                    Operand::Var(v) => !written.contains(&v),
                    Operand::Const(_) => true,
                };
                if end_stable && self.is_unsigned(end) {
                    let end_c = if matches!(end_c, Operand::Var(v) if written.contains(&v)) {
                        end
                    } else {
                        end_c
                    };
                    if !inclusive {
                        inner.facts.push((Operand::Var(iv), end_c));
                    } else if let Operand::Const(c) = end {
                        if c.bits < u64::MAX >> (64 - c.ty.bits()) {
                            let next = Const {
                                ty: c.ty,
                                bits: c.bits + 1,
                            };
                            inner.facts.push((Operand::Var(iv), next.into()));
                        }
                    }
                }
                inner.count_facts(st.facts.len());
                self.block(body, &mut inner);
                true
            }
            Inst::Loop { body, .. } => {
                for v in assigned_set(body, self.vars.len()).iter() {
                    st.kill(v);
                }
                let mut inner = st.clone();
                self.block(body, &mut inner);
                true
            }
            other => {
                self.plain(other, st);
                true
            }
        }
    }

    /// An overflow test (`AddOverflows`...) whose operands' ranges prove it false becomes
    /// `false`, and the check it guards then goes at its `if` (`State::never_true`).
    fn overflow_test(&mut self, inst: &mut Inst, st: &mut State) {
        if let Inst::Binary { dst, op, a, b } = *inst {
            let (ra, rb) = (st.range(self.vars, a), st.range(self.vars, b));
            if ranges::never_overflows(op, ra, rb, self.ty(a)) {
                *inst = Inst::Mov {
                    dst,
                    src: Const::bool(false).into(),
                };
            }
        }
        self.plain(inst, st);
    }

    /// The range of the value `inst` writes, from the ranges of its operands before it runs.
    fn range_of(&self, inst: &Inst, st: &State) -> Option<(Var, Range)> {
        let r = |o: Operand| st.range(self.vars, o);
        let (dst, range) = match *inst {
            Inst::Mov { dst, src } => (dst, r(src)),
            Inst::Cast { dst, a } if self.ty(a).is_int() => {
                (dst, ranges::of_cast(r(a), self.vars[dst.0 as usize]))
            }
            Inst::Binary { dst, op, a, b } if !op.is_compare() && op != BinOp::MulHi => {
                (dst, ranges::of_binary(op, r(a), r(b), self.ty(a)))
            }
            Inst::Intrinsic { id, ref dsts, .. } if dsts.len() == 1 => {
                (dsts[0], ranges::of_intrinsic(id, self.attrs))
            }
            _ => return None,
        };
        Some((dst, range?))
    }

    fn def_of(&self, inst: &Inst, st: &State) -> Option<(Var, Def)> {
        Some(match *inst {
            Inst::Mov { dst, src } => (dst, Def::Same(src)),
            Inst::Cast { dst, a } => {
                let (from, to) = (self.ty(a), self.vars[dst.0 as usize]);
                let widening = from.is_int()
                    && !from.is_signed()
                    && to.is_int()
                    && (to.bits() > from.bits() || to == from);
                if !widening {
                    return None;
                }
                (dst, Def::Same(a))
            }
            Inst::Binary { dst, op, a, b } if op.is_compare() && self.is_unsigned(a) => {
                (dst, Def::Cmp(op, a, b))
            }
            Inst::Binary {
                dst,
                op: BinOp::And,
                a,
                b,
            } if self.ty(a) == Ty::Bool => (dst, Def::And(a, b)),
            Inst::Binary {
                dst,
                op: BinOp::Or,
                a,
                b,
            } if self.ty(a) == Ty::Bool => (dst, Def::Or(a, b)),
            Inst::Unary {
                dst,
                op: UnOp::Not,
                a,
            } if self.ty(a) == Ty::Bool => (dst, Def::Not(a)),
            Inst::Binary {
                dst,
                op: BinOp::Add,
                a,
                b,
            } if self.is_unsigned(a) => {
                let one = |o: Operand| matches!(o, Operand::Const(c) if c.bits == 1);
                let x = if one(b) {
                    a
                } else if one(a) {
                    b
                } else {
                    return None;
                };
                // The canonical value must come from a narrower type (a widened `u32`, say).
                let root = st.canon(x);
                let narrower = match root {
                    Operand::Var(r) => self.ty(Operand::Var(r)).bits() < self.ty(x).bits(),
                    Operand::Const(c) => c.bits < u64::MAX >> (64 - self.ty(x).bits()),
                };
                if !narrower {
                    return None;
                }
                (dst, Def::AddOne(x))
            }
            _ => return None,
        })
    }
}

/// Whether `b` holds a bounds check or an overflow test (nested ones included).
fn has_check(b: &Block) -> bool {
    let mut found = false;
    kernel_ir::visit::walk(b, &mut |i| {
        found |= match i {
            Inst::BoundsCheck { .. } => true,
            Inst::Binary { op, .. } => op.is_overflow_test(),
            _ => false,
        }
    });
    found
}

/// Whether `b` only panics (source markers aside): the body of a check.
fn is_panic(b: &Block) -> bool {
    let mut rest = b.0.iter().filter(|i| !matches!(i, Inst::Loc(_)));
    matches!(rest.next(), Some(Inst::Panic { .. })) && rest.next().is_none()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::passes::testkit::*;
    use kernel_ir::ir::{Inst, Unroll};

    fn checks(k: &Kernel) -> usize {
        let mut n = 0;
        kernel_ir::visit::walk(&k.body, &mut |i| {
            n += matches!(i, Inst::BoundsCheck { .. }) as usize
        });
        n
    }

    fn on() -> CompileOptions {
        CompileOptions::default()
    }

    /// Each comparison against the facts it may and may not give, checked on both branches by
    /// running the kernel with `i == n`, `i < n` and `i > n`.
    #[test]
    fn every_comparison_gives_only_true_facts() {
        for op in [
            BinOp::Lt,
            BinOp::Le,
            BinOp::Gt,
            BinOp::Ge,
            BinOp::Eq,
            BinOp::Ne,
        ] {
            for swap in [false, true] {
                let mut k = kernel();
                let p = param(&mut k, "p", Ty::U64);
                let i = param(&mut k, "i", Ty::U32);
                let n = param(&mut k, "n", Ty::U32);
                let c = k.new_var(Ty::Bool);
                let (a, b) = if swap { (n, i) } else { (i, n) };
                k.body.0 = vec![
                    bin(c, op, a, b),
                    if_(
                        c,
                        vec![check(i, n), store(p, u32c(1))],
                        vec![check(i, n), store(p, u32c(2))],
                    ),
                ];
                let orig = k.clone();
                bce(&mut k, &on());
                let proves = matches!(
                    (op, swap),
                    (BinOp::Lt | BinOp::Ge, false) | (BinOp::Gt | BinOp::Le, true)
                );
                assert_eq!(checks(&k), 2 - proves as usize, "{op:?} swap={swap}");
                for (iv, nv) in [(3u32, 3u32), (2, 3), (4, 3)] {
                    let args = [(p, Const::u64(0)), (i, Const::u32(iv)), (n, Const::u32(nv))];
                    assert_eq!(
                        run(&orig, &args),
                        run(&k, &args),
                        "{op:?} swap={swap} i={iv} n={nv}"
                    );
                }
            }
        }
    }

    /// Overflow checks whose test value ranges rule out go, the others stay, and the same check
    /// again (on a copy of the condition) goes; the kernel panics exactly as before.
    #[test]
    fn overflow_checks_proven_by_ranges_or_repeated() {
        let panic = || Inst::Panic {
            site: kernel_ir::ir::SiteId(0),
            a: u64c(0),
            b: u64c(0),
        };
        let mut k = kernel();
        let p = param(&mut k, "p", Ty::U64);
        let x = param(&mut k, "x", Ty::U32);
        let (t, s1, s2) = (k.new_var(Ty::U32), k.new_var(Ty::U32), k.new_var(Ty::U32));
        let (o1, o2, c) = (
            k.new_var(Ty::Bool),
            k.new_var(Ty::Bool),
            k.new_var(Ty::Bool),
        );
        k.body.0 = vec![
            intr("tid.x", vec![t], vec![]),
            // At most 1023 * 8: no overflow.
            bin(o1, BinOp::MulOverflows, t, u32c(8)),
            if_(o1, vec![panic()], vec![]),
            bin(s1, BinOp::Mul, t, u32c(8)),
            // `x` may be anything.
            bin(o2, BinOp::AddOverflows, s1, x),
            if_(o2, vec![panic()], vec![]),
            bin(s2, BinOp::Add, s1, x),
            mov(c, o2),
            if_(c, vec![panic()], vec![]),
            store(p, s2),
        ];
        let orig = k.clone();
        assert!(bce(&mut k, &on()));
        let got = text(&k);
        assert_eq!(got.matches("panic @").count(), 1, "{got}");
        assert!(!got.contains("mul_ovf"), "{got}");
        assert!(got.contains("add_ovf"), "{got}");
        for xv in [0, 7, u32::MAX - 40, u32::MAX - 39, u32::MAX] {
            let args = [(p, Const::u64(64)), (x, Const::u32(xv))];
            assert_eq!(run(&orig, &args), run(&k, &args), "x = {xv}");
        }

        // A shift amount below the width by its range (`1 << lane_id()`), and one that is not.
        let mut k = kernel();
        let (l, big) = (k.new_var(Ty::U32), k.new_var(Ty::Bool));
        let (m, wide) = (k.new_var(Ty::U32), k.new_var(Ty::Bool));
        k.body.0 = vec![
            intr("lane_id", vec![l], vec![]),
            bin(big, BinOp::Ge, l, u32c(32)),
            if_(big, vec![panic()], vec![]),
            intr("ntid.x", vec![m], vec![]),
            bin(wide, BinOp::Ge, m, u32c(32)),
            if_(wide, vec![panic()], vec![]),
        ];
        assert!(bce(&mut k, &on()));
        let got = text(&k);
        assert_eq!(got.matches("panic @").count(), 1, "{got}");
        assert!(got.contains("if v3"), "{got}");
    }

    #[test]
    fn ranges_follow_loops_and_rewrites() {
        let mut k = kernel();
        let p = param(&mut k, "p", Ty::U64);
        let (i, x) = (k.new_var(Ty::U32), k.new_var(Ty::U32));
        let body = vec![
            // In range on entry, but the loop doubles it every iteration.
            check(x, u32c(10)),
            bin(x, BinOp::Mul, x, u32c(2)),
            // The counter of `0..9` is always below 9.
            check(i, u32c(9)),
            store(p, x),
        ];
        let l = for_(&mut k, i, u32c(0), u32c(9), Unroll::Never, body);
        k.body.0 = vec![mov(x, u32c(3)), check(x, u32c(10)), l];
        bce(&mut k, &on());
        assert_body(
            &k,
            "
            v2 = mov 3u32
            for L0 v1 in 0u32..9u32 step 1u32 unroll(never) {
              bounds_check.u32 v2, 10u32 @site0
              v2 = mul.u32 v2, 2u32
              store.global.u32 [v0], v2
            }
            ",
        );
    }

    /// A `while k < 400` loop's counter is below 400 after the test: `k / 20` is below 20 and
    /// its check goes, while `k % 7 + k` keeps its check against 405.
    #[test]
    fn a_loop_test_bounds_its_counter() {
        let mut k = kernel();
        let p = param(&mut k, "p", Ty::U64);
        let (kv, go, q, r) = (
            k.new_var(Ty::U64),
            k.new_var(Ty::Bool),
            k.new_var(Ty::U64),
            k.new_var(Ty::U64),
        );
        let id = k.new_loop();
        let body = vec![
            bin(go, BinOp::Lt, kv, u64c(400)),
            if_(go, vec![], vec![Inst::Break(id)]),
            bin(q, BinOp::Div, kv, u64c(20)),
            check(q, u64c(20)),
            bin(r, BinOp::Add, kv, u64c(6)),
            check(r, u64c(405)),
            store(p, q),
            bin(kv, BinOp::Add, kv, u64c(256)),
        ];
        k.body.0 = vec![
            mov(kv, u64c(3)),
            Inst::Loop {
                id,
                body: Block(body),
            },
        ];
        assert!(bce(&mut k, &on()));
        let got = text(&k);
        assert!(!got.contains("bounds_check.u64 v3"), "{got}");
        assert!(got.contains("bounds_check.u64 v4, 405u64"), "{got}");
    }
}
