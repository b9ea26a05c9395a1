//! Constant folding, constant/copy propagation, exact algebraic identities, branch folding,
//! removal of unreachable code and unused pure values, and coalescing of `t = ...; x = mov t`.
//!
//! Propagation is flow sensitive over the structured tree, so it also works after unrolling, where
//! one variable is assigned once per unrolled copy: walking a block in order, a `Mov` of a constant
//! or of another variable records a fact `v = value` that is dropped as soon as `v` (or the copied
//! variable) is written again. Facts from before an `if` flow into both branches; after it only
//! facts that both branches agree on survive (a branch that cannot fall through contributes none).
//! Before a loop body every variable written anywhere in the loop (its induction variable
//! included) loses its facts, since its value at the top of a later iteration is unknown.
//!
//! Identities are applied only where they are exact for every input: for integers `x+0`, `x-0`,
//! `x*1`, `x*0`, `x/1`, `x%1`, `x&0`, `x&!0`, `x|0`, `x|!0`, `x^0`, `x-x`, `x^x`, `x<<0`, `x>>0`
//! and comparisons of a value with itself; for floats only `x*1.0`, `x/1.0`, `x+(-0.0)` and
//! `x-0.0`, which keep NaNs NaN and the sign of zero.

use super::dce;
use super::eval::{
    eval_binary, eval_bitcast, eval_cast, eval_fma, eval_unary, int_const, is_all_ones, is_int_one,
    is_int_zero,
};
use super::util::{drop_repeated_locs, prune_locs, same_ignoring_locs};
use super::varset::VarSet;
use kernel_ir::ir::{BinOp, Block, Const, Inst, Kernel, Operand, Ty, Var};
use kernel_ir::visit::{
    diverges, falls_through, for_each_def, for_each_nested_def, for_each_use_mut, jumps_to, walk,
};

/// Runs rounds of folding, dead-value removal and move coalescing until the next round would
/// change nothing. Returns whether anything changed.
///
/// When a round is the last: folding rewrites each instruction into the form the next round
/// would give it from the same facts, so the next round can fold more only where the facts
/// differ. Facts differ where a write that forgot a fact is gone (removed as dead, coalesced
/// away): the facts it forgot then survive ([`Folder::forgot`]) — unless all it forgot were
/// copies of it (`y = t` for `t`'s write), and no move from it is left: such a fact comes only
/// from a move `y = mov t`, so the next round makes none. Besides, dissolving an `if`
/// whose arms are the same gives the code after it one arm's facts rather than their join,
/// a loop folding left running once is dissolved next round, and a coalesced cast gives its new
/// destination a widened value. A round with none of these is the last.
pub fn const_fold(k: &mut Kernel) -> bool {
    let mut any = false;
    for _ in 0..16 {
        let (changed, last) = round(k);
        any |= changed;
        if !changed || last {
            break;
        }
    }
    // Removed code leaves a statement's marker next to an equal one (`loc A; x; loc B; loc A`
    // after `loc B`'s statement folded away).
    if any {
        drop_repeated_locs(&mut k.body, None);
    }
    any
}

/// One round: folding, dead-value removal, move coalescing. Returns whether it changed anything
/// and whether it is the last (the next would change nothing).
fn round(k: &mut Kernel) -> (bool, bool) {
    let mut f = Folder {
        vars: &k.vars,
        changed: false,
        forgot: vec![Forgot::Nothing; k.vars.len()],
        unsettled: false,
        gone: Vec::new(),
    };
    f.block(&mut k.body, &mut Env::new(k.vars.len()));
    let Folder {
        changed,
        forgot,
        mut unsettled,
        mut gone,
        ..
    } = f;
    let removed = dce::remove_dead_values_into(k, &mut gone, &mut unsettled);
    let mut coalesced = false;
    let mut moved_from = VarSet::new();
    while dce::coalesce_moves_into(k, &mut gone, &mut unsettled, &mut moved_from) {
        coalesced = true;
    }
    let last = !unsettled
        && gone.iter().all(|v| match forgot[v.0 as usize] {
            Forgot::Nothing => true,
            Forgot::Copies => !moved_from.contains(v),
            Forgot::More => false,
        });
    (changed || removed || coalesced, last)
}

/// Known values of variables at a program point, indexed by variable.
#[derive(Clone)]
struct Env {
    known: Vec<Option<Operand>>,
    /// For each variable, the variables currently known to be copies of it (so that writing it
    /// forgets them without scanning every fact).
    copies: Vec<Vec<Var>>,
    /// `w -> x`: `w` holds `x` widened (an integer cast to a wider type, so casting `w` back to
    /// `x`'s type gives `x`), with the reverse index for forgetting.
    widened: Vec<Option<Var>>,
    widened_from: Vec<Vec<Var>>,
}

impl Env {
    fn new(vars: usize) -> Self {
        Env {
            known: vec![None; vars],
            copies: vec![Vec::new(); vars],
            widened: vec![None; vars],
            widened_from: vec![Vec::new(); vars],
        }
    }

    /// Forgets `v`'s facts and those of other variables that refer to it; says which of the
    /// latter held.
    #[inline]
    fn kill(&mut self, v: Var) -> Forgot {
        let i = v.0 as usize;
        self.known[i] = None;
        self.widened[i] = None;
        if self.widened_from[i].is_empty() && self.copies[i].is_empty() {
            return Forgot::Nothing;
        }
        let mut forgot = Forgot::Nothing;
        // The lists are cleared in place, keeping their storage: unrolled code writes the
        // same variables again and again.
        for n in 0..self.widened_from[i].len() {
            let w = self.widened_from[i][n].0 as usize;
            if self.widened[w] == Some(v) {
                self.widened[w] = None;
                forgot = Forgot::More;
            }
        }
        self.widened_from[i].clear();
        for n in 0..self.copies[i].len() {
            let d = self.copies[i][n].0 as usize;
            if self.known[d] == Some(Operand::Var(v)) {
                self.known[d] = None;
                forgot = forgot.max(Forgot::Copies);
            }
        }
        self.copies[i].clear();
        forgot
    }

    /// Forgets every variable `b` assigns (a loop's body, at its head); marks in `forgot` those
    /// whose own fact or another variable's fact about them went.
    fn kill_assigned(&mut self, b: &Block, forgot: &mut [Forgot]) {
        // Without any fact there is nothing to forget (nor a reason to walk the body).
        if self.known.iter().all(Option::is_none) && self.widened.iter().all(Option::is_none) {
            return;
        }
        walk(b, &mut |i| {
            for_each_def(i, |v| {
                let own =
                    self.known[v.0 as usize].is_some() || self.widened[v.0 as usize].is_some();
                let f = &mut forgot[v.0 as usize];
                *f = (*f).max(self.kill(v));
                if own {
                    *f = Forgot::More;
                }
            })
        });
    }

    fn set(&mut self, v: Var, val: Operand) {
        self.known[v.0 as usize] = Some(val);
        if let Operand::Var(s) = val {
            self.copies[s.0 as usize].push(v);
        }
    }

    fn get(&self, o: Operand) -> Operand {
        match o {
            Operand::Var(v) => self.known[v.0 as usize].unwrap_or(o),
            c => c,
        }
    }

    fn widen(&mut self, w: Var, x: Var) {
        self.widened[w.0 as usize] = Some(x);
        self.widened_from[x.0 as usize].push(w);
    }

    /// Keeps the facts `other` agrees with (the join after an `if`).
    fn intersect(&mut self, other: &Env) {
        for (a, b) in self.known.iter_mut().zip(&other.known) {
            if *a != *b {
                *a = None;
            }
        }
        for (a, b) in self.widened.iter_mut().zip(&other.widened) {
            if *a != *b {
                *a = None;
            }
        }
    }
}

struct Folder<'a> {
    vars: &'a [Ty],
    changed: bool,
    /// Per variable: whether one of its writes (or a loop head, for a variable the loop
    /// writes) forgot a fact that still held. Only where such a write goes can the next round
    /// know more.
    forgot: Vec<Forgot>,
    /// Whether an edit was made after which the next round may fold more for another reason
    /// (see [`const_fold`]).
    unsettled: bool,
    /// Variables written by instructions this walk took away.
    gone: Vec<Var>,
}

/// Which facts a variable's writes forgot, least to most (see [`const_fold`]).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Forgot {
    Nothing,
    /// Only copies of the variable (`y = t`).
    Copies,
    /// A widened value of it, or any fact at a loop's head.
    More,
}

/// What folding does with an instruction.
enum Edit {
    Keep,
    Remove,
    /// Replaced by these instructions (already folded).
    Replace(Vec<Inst>),
}

fn cst(o: Operand) -> Option<Const> {
    match o {
        Operand::Const(c) => Some(c),
        Operand::Var(_) => None,
    }
}

/// Whether the loop whose body is `body` runs once: it ends with its own `break` and holds no
/// other jump to itself.
fn runs_once(id: kernel_ir::ir::LoopId, body: &Block) -> bool {
    matches!(body.0.last(), Some(Inst::Break(l)) if *l == id)
        && !jumps_to(&body.0[..body.0.len() - 1], id)
}

impl Folder<'_> {
    /// Notes the writes of `inst` (and of the code nested in it), which goes.
    fn drop(&mut self, inst: &Inst) {
        for_each_nested_def(inst, |v| self.gone.push(v));
    }

    /// A write of `v` by an instruction that stays.
    fn kill(&mut self, env: &mut Env, v: Var) {
        let f = &mut self.forgot[v.0 as usize];
        *f = (*f).max(env.kill(v));
    }

    /// Folds `b` in place. Code after an instruction that never falls through is unreachable
    /// and goes; the block is rebuilt only where an instruction goes or is replaced.
    fn block(&mut self, b: &mut Block, env: &mut Env) {
        let mut edits = Vec::new();
        let mut end = b.0.len();
        for n in 0..b.0.len() {
            let edit = self.inst(&mut b.0[n], env);
            let diverged = match &edit {
                Edit::Keep => diverges(&b.0[n]),
                Edit::Remove => false,
                Edit::Replace(insts) => insts.last().is_some_and(diverges),
            };
            if !matches!(edit, Edit::Keep) {
                edits.push((n, edit));
            }
            if diverged {
                end = n + 1;
                break;
            }
        }
        // What follows is unreachable.
        for inst in b.0.drain(end..) {
            self.changed = true;
            self.drop(&inst);
        }
        if !edits.is_empty() {
            let mut out = Vec::with_capacity(b.0.len());
            let mut edits = edits.into_iter().peekable();
            for (n, inst) in std::mem::take(&mut b.0).into_iter().enumerate() {
                match edits.next_if(|(at, _)| *at == n) {
                    None => out.push(inst),
                    Some((_, Edit::Replace(insts))) => out.extend(insts),
                    Some((_, _)) => {}
                }
            }
            b.0 = out;
        }
        self.changed |= prune_locs(b);
    }

    /// Substitutes known values into `inst`'s operands.
    fn subst(&mut self, inst: &mut Inst, env: &Env) {
        for_each_use_mut(inst, |o| {
            let n = env.get(*o);
            if n != *o {
                *o = n;
                self.changed = true;
            }
        });
    }

    /// Folds `inst` where it lies; says whether it stays, goes, or what replaces it (already
    /// folded).
    fn inst(&mut self, inst: &mut Inst, env: &mut Env) -> Edit {
        self.subst(inst, env);
        match inst {
            Inst::If { cond, then, els } => {
                if let Some(c) = cst(*cond) {
                    self.changed = true;
                    let (taken, other) = if c.bits != 0 {
                        (then, els)
                    } else {
                        (els, then)
                    };
                    other.0.iter().for_each(|i| self.drop(i));
                    self.block(taken, env);
                    return Edit::Replace(std::mem::take(&mut taken.0));
                }
                let mut env_t = env.clone();
                self.block(then, &mut env_t);
                self.block(els, env);
                match (falls_through(then), falls_through(els)) {
                    (true, true) => env.intersect(&env_t),
                    (true, false) => *env = env_t,
                    // Neither falls through: nothing after the `if` runs, no table is looked at.
                    (false, _) => {}
                }
                if then.0.is_empty() && els.0.is_empty() {
                    self.changed = true;
                    return Edit::Remove;
                }
                if same_ignoring_locs(then, els) {
                    // Both branches do the same thing: the condition does not matter.
                    self.changed = true;
                    self.unsettled = true;
                    return Edit::Replace(std::mem::take(&mut then.0));
                }
                Edit::Keep
            }
            Inst::For {
                iv,
                start,
                end,
                inclusive,
                body,
                ..
            } => {
                if let (Some(s), Some(e)) = (cst(*start), cst(*end)) {
                    let (s, e) = (s.as_i128(), e.as_i128());
                    if s > e || (s == e && !*inclusive) {
                        self.changed = true;
                        self.drop(inst);
                        return Edit::Remove;
                    }
                }
                // A value at the top of a later iteration is unknown for everything the loop
                // writes (its induction variable included).
                env.kill_assigned(body, &mut self.forgot);
                self.kill(env, *iv);
                self.block(body, &mut env.clone());
                Edit::Keep
            }
            Inst::Loop { id, body } if runs_once(*id, body) => {
                self.changed = true;
                body.0.pop();
                self.block(body, env);
                Edit::Replace(std::mem::take(&mut body.0))
            }
            Inst::Loop { id, body } => {
                env.kill_assigned(body, &mut self.forgot);
                self.block(body, &mut env.clone());
                // Left running once: dissolved next round.
                self.unsettled |= runs_once(*id, body);
                Edit::Keep
            }
            Inst::BoundsCheck { idx, len, site } => match (cst(*idx), cst(*len)) {
                (Some(i), Some(l)) if i.bits < l.bits => {
                    self.changed = true;
                    Edit::Remove
                }
                (Some(_), Some(_)) => {
                    self.changed = true;
                    *inst = Inst::Panic {
                        site: *site,
                        a: *idx,
                        b: *len,
                    };
                    Edit::Keep
                }
                _ => {
                    (*idx, *len) = self.narrow_check(*idx, *len, env);
                    Edit::Keep
                }
            },
            _ => {
                if let Some(s) = simplify(self.vars, &env.widened, inst) {
                    self.changed = true;
                    *inst = s;
                }
                match *inst {
                    Inst::Mov {
                        dst,
                        src: Operand::Var(s),
                    } if s == dst => {
                        self.changed = true;
                        self.gone.push(dst);
                        return Edit::Remove;
                    }
                    Inst::Mov { dst, src } => {
                        self.kill(env, dst);
                        env.set(dst, src);
                    }
                    Inst::Cast {
                        dst,
                        a: Operand::Var(x),
                    } => {
                        self.kill(env, dst);
                        let (from, to) = (self.vars[x.0 as usize], self.vars[dst.0 as usize]);
                        if from.is_int() && to.is_int() && to.bits() > from.bits() && x != dst {
                            env.widen(dst, x);
                        }
                    }
                    _ => for_each_def(inst, |v| self.kill(env, v)),
                }
                Edit::Keep
            }
        }
    }

    /// A `u64` check of `u32` values widened to `u64` (against a widened `u32` or a constant that
    /// fits) becomes a `u32` check: zero extension keeps the order and the reported values.
    fn narrow_check(&mut self, idx: Operand, len: Operand, env: &Env) -> (Operand, Operand) {
        let narrow = |o: Operand| -> Option<Operand> {
            match o {
                Operand::Var(w) => {
                    let x = env.widened[w.0 as usize]?;
                    (self.vars[x.0 as usize] == Ty::U32).then_some(Operand::Var(x))
                }
                Operand::Const(c) => {
                    (c.bits <= u32::MAX as u64).then(|| Operand::Const(Const::u32(c.bits as u32)))
                }
            }
        };
        if self.ty(idx) != Ty::U64 || matches!(idx, Operand::Const(_)) {
            return (idx, len);
        }
        match (narrow(idx), narrow(len)) {
            (Some(i), Some(l)) => {
                self.changed = true;
                (i, l)
            }
            _ => (idx, len),
        }
    }

    fn ty(&self, o: Operand) -> Ty {
        operand_ty(self.vars, o)
    }
}

fn operand_ty(vars: &[Ty], o: Operand) -> Ty {
    match o {
        Operand::Var(v) => vars[v.0 as usize],
        Operand::Const(c) => c.ty,
    }
}

/// A simpler equivalent of `inst`, if there is one. `vars` are the variables' types, `widened`
/// what each variable holds widened (see [`Env`]; empty where nothing is known). Unrolling
/// uses it too, on copies whose operands are all constants.
pub(crate) fn simplify(vars: &[Ty], widened: &[Option<Var>], inst: &Inst) -> Option<Inst> {
    let mov = |dst, src: Operand| Some(Inst::Mov { dst, src });
    match *inst {
        Inst::Unary { dst, op, a } => {
            let r = eval_unary(op, cst(a)?, vars[dst.0 as usize])?;
            mov(dst, r.into())
        }
        Inst::Binary { dst, op, a, b } => {
            if let (Some(x), Some(y)) = (cst(a), cst(b)) {
                if let Some(r) = eval_binary(op, x, y) {
                    return mov(dst, r.into());
                }
            }
            identity(vars, dst, op, a, b)
        }
        Inst::Fma { dst, a, b, c } => {
            let r = eval_fma(cst(a)?, cst(b)?, cst(c)?)?;
            mov(dst, r.into())
        }
        Inst::Cast { dst, a } => {
            let to = vars[dst.0 as usize];
            if operand_ty(vars, a) == to {
                return mov(dst, a);
            }
            // Narrowing a widened value back to its own type gives the value.
            if let Operand::Var(w) = a {
                if let Some(x) = widened.get(w.0 as usize).copied().flatten() {
                    if vars[x.0 as usize] == to {
                        return mov(dst, Operand::Var(x));
                    }
                }
            }
            mov(dst, eval_cast(cst(a)?, to)?.into())
        }
        Inst::Bitcast { dst, a } => {
            let to = vars[dst.0 as usize];
            if operand_ty(vars, a) == to {
                return mov(dst, a);
            }
            mov(dst, eval_bitcast(cst(a)?, to)?.into())
        }
        Inst::Select { dst, cond, a, b } => {
            if a == b {
                return mov(dst, a);
            }
            if a == Const::bool(true).into() && b == Const::bool(false).into() {
                return mov(dst, cond);
            }
            let c = cst(cond)?;
            mov(dst, if c.bits != 0 { a } else { b })
        }
        _ => None,
    }
}

fn identity(vars: &[Ty], dst: Var, op: BinOp, a: Operand, b: Operand) -> Option<Inst> {
    let t = operand_ty(vars, a);
    let mov = |src: Operand| Some(Inst::Mov { dst, src });
    let (ca, cb) = (cst(a), cst(b));
    let same = matches!((a, b), (Operand::Var(x), Operand::Var(y)) if x == y);
    // Every identity needs a constant operand or the same operand twice.
    if ca.is_none() && cb.is_none() && !same {
        return None;
    }
    let zero = Operand::Const(int_const(t, 0));
    if t.is_int() || t == Ty::Bool {
        let z = |c: Option<Const>| c.is_some_and(is_int_zero);
        let one = |c: Option<Const>| c.is_some_and(is_int_one) && t != Ty::Bool;
        let ones = |c: Option<Const>| c.is_some_and(is_all_ones);
        if op.is_compare() && same {
            let r = matches!(op, BinOp::Eq | BinOp::Le | BinOp::Ge);
            return mov(Const::bool(r).into());
        }
        return match op {
            BinOp::Add | BinOp::Or | BinOp::Xor if z(cb) => mov(a),
            BinOp::Add | BinOp::Or | BinOp::Xor if z(ca) => mov(b),
            BinOp::Sub if z(cb) => mov(a),
            BinOp::Sub | BinOp::Xor if same => mov(zero),
            BinOp::Mul if one(cb) => mov(a),
            BinOp::Mul if one(ca) => mov(b),
            BinOp::Mul if z(ca) || z(cb) => mov(zero),
            // Overflow tests of operations that cannot leave the type.
            BinOp::AddOverflows if z(ca) || z(cb) => mov(Const::bool(false).into()),
            BinOp::SubOverflows if z(cb) || same => mov(Const::bool(false).into()),
            BinOp::MulOverflows if z(ca) || z(cb) || one(ca) || one(cb) => {
                mov(Const::bool(false).into())
            }
            BinOp::Div if one(cb) => mov(a),
            BinOp::Rem if one(cb) => mov(zero),
            BinOp::And if z(ca) || z(cb) => mov(zero),
            BinOp::And if ones(cb) => mov(a),
            BinOp::And if ones(ca) => mov(b),
            BinOp::Or if ones(ca) || ones(cb) => mov(Operand::Const(int_const(t, -1))),
            BinOp::And | BinOp::Or | BinOp::Min | BinOp::Max if same => mov(a),
            // Unsigned bounds: 0 is the least value, all-ones the greatest.
            BinOp::Max if !t.is_signed() && z(cb) => mov(a),
            BinOp::Max if !t.is_signed() && z(ca) => mov(b),
            BinOp::Min if !t.is_signed() && (z(ca) || z(cb)) => mov(zero),
            BinOp::Min if !t.is_signed() && ones(cb) => mov(a),
            BinOp::Min if !t.is_signed() && ones(ca) => mov(b),
            BinOp::Max if !t.is_signed() && (ones(ca) || ones(cb)) => {
                mov(Operand::Const(int_const(t, -1)))
            }
            BinOp::Shl | BinOp::Shr
                if t.is_int() && cb.is_some_and(|c| c.bits as u32 & (t.bits() - 1) == 0) =>
            {
                mov(a)
            }
            _ => None,
        };
    }
    if !t.is_float() {
        return None;
    }
    let is = |c: Option<Const>, v: f64| {
        c.and_then(super::eval::float_value)
            .is_some_and(|x| x == v && x.is_sign_negative() == v.is_sign_negative())
    };
    match op {
        BinOp::Mul if is(cb, 1.0) => mov(a),
        BinOp::Mul if is(ca, 1.0) => mov(b),
        BinOp::Div if is(cb, 1.0) => mov(a),
        BinOp::Add if is(cb, -0.0) => mov(a),
        BinOp::Add if is(ca, -0.0) => mov(b),
        BinOp::Sub if is(cb, 0.0) => mov(a),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::passes::testkit::*;

    /// The rounds stop where plain rounds would change nothing more: random unrolled nests (with
    /// checks, casts, branches, markers) fold to the same code either way.
    #[test]
    fn rounds_stop_at_the_fixed_point() {
        let mut stopped_early = 0;
        for seed in 0..3000 {
            let mut a = crate::passes::unroll::tests::random_nest(seed);
            crate::passes::unroll(&mut a);
            let mut b = a.clone();
            const_fold(&mut a);
            let mut rounds = 0;
            while round(&mut b).0 {
                rounds += 1;
            }
            if rounds > 0 {
                drop_repeated_locs(&mut b.body, None);
            }
            // How often the last round was one `const_fold` did not need to run.
            let mut c = a.clone();
            stopped_early += round(&mut c).0 as usize;
            assert_eq!(a.body, b.body, "seed {seed}");
        }
        assert_eq!(stopped_early, 0);
    }

    /// Random straight-line and branchy integer code: folding must not change what is stored.
    #[test]
    fn random_programs_keep_their_stores() {
        let mut seed = 0x1234_5678_9abc_def0u64;
        let mut rnd = move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        let ops = [
            BinOp::Add,
            BinOp::Sub,
            BinOp::Mul,
            BinOp::And,
            BinOp::Or,
            BinOp::Xor,
            BinOp::Shl,
            BinOp::Shr,
            BinOp::Min,
            BinOp::Max,
            BinOp::MulHi,
        ];
        for round in 0..200 {
            let ty = [Ty::U32, Ty::I32, Ty::U8, Ty::I64][round % 4];
            let mut k = kernel();
            let p = param(&mut k, "p", Ty::U64);
            let x = param(&mut k, "x", ty);
            let mut vals = vec![x];
            let mut body = vec![];
            for _ in 0..12 {
                let pick = |r: u64, vals: &[Var]| -> Operand {
                    if r.is_multiple_of(3) {
                        let c = [0i128, 1, -1, 2, 31, 7][(r / 3 % 6) as usize];
                        Operand::Const(super::super::eval::int_const(ty, c))
                    } else {
                        Operand::Var(vals[(r as usize / 3) % vals.len()])
                    }
                };
                let d = if rnd(4) == 0 {
                    vals[rnd(vals.len() as u64) as usize]
                } else {
                    k.new_var(ty)
                };
                let op = ops[rnd(ops.len() as u64) as usize];
                let a = pick(rnd(1000), &vals);
                let b = if matches!(op, BinOp::Shl | BinOp::Shr) {
                    u32c(rnd(40) as u32)
                } else {
                    pick(rnd(1000), &vals)
                };
                let inst = bin(d, op, a, b);
                if rnd(5) == 0 {
                    let c = k.new_var(Ty::Bool);
                    body.push(bin(c, BinOp::Lt, x, a));
                    body.push(if_(c, vec![inst], vec![mov(d, a)]));
                } else {
                    body.push(inst);
                }
                if !vals.contains(&d) {
                    vals.push(d);
                }
                body.push(store(p, d));
            }
            k.body.0 = body;
            let orig = k.clone();
            const_fold(&mut k);
            for xv in [0i128, 1, -1, 77, 1 << 20] {
                let args = [
                    (p, Const::u64(64)),
                    (x, super::super::eval::int_const(ty, xv)),
                ];
                assert_eq!(
                    run(&orig, &args),
                    run(&k, &args),
                    "round {round}\n{}",
                    text(&orig)
                );
            }
        }
    }
}
