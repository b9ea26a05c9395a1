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

mod dead;
mod prefold;

pub(crate) use prefold::Prefold;

use super::eval::{
    eval_binary, eval_bitcast, eval_cast, eval_fma, eval_unary, int_const, is_all_ones, is_int_one,
    is_int_zero,
};
use super::util::{
    child_blocks, diverges, drop_repeated_locs, falls_through, for_each_def, for_each_use,
    for_each_use_mut, is_removable, jumps_to_insts, prune_locs, same_ignoring_locs, single_dst,
    walk,
};
use dead::remove_dead_values;
use kernel_ir::ir::{BinOp, Block, Const, Inst, Kernel, LoopId, Operand, Ty, Var};

/// Runs folding and dead-value removal to a fixed point. Returns whether anything changed.
pub fn const_fold(k: &mut Kernel) -> bool {
    const_fold_settled(k).0
}

/// [`const_fold`], also saying whether it stopped at its fixed point (rather than at its round
/// limit): then running it again on the same IR would change nothing, so the pipeline can skip
/// that run after a pass that changed nothing.
pub(crate) fn const_fold_settled(k: &mut Kernel) -> (bool, bool) {
    let (any, settled, locs) = fold_rounds(k);
    // Removed code leaves a statement's marker next to an equal one (`loc A; x; loc B; loc A`
    // after `loc B`'s statement folded away). Dropping one neither empties a block nor makes a
    // marker cover nothing, so the fixed point stands. Without markers (GPU compiles drop
    // them after lowering) the walk would find nothing.
    if any && locs {
        drop_repeated_locs(&mut k.body, None);
    }
    (any, settled)
}

/// Runs folding rounds; returns whether anything changed, whether the rounds stopped at their
/// fixed point, and whether the IR may hold a source marker.
fn fold_rounds(k: &mut Kernel) -> (bool, bool, bool) {
    let mut any = false;
    // Whether a folding walk met a marker: the first walk meets every instruction, and no
    // later step makes one, so without one there is none.
    let mut locs = false;
    // Whether the previous round ended with a `coalesce_moves` that changed nothing.
    let mut settled = false;
    // Whether dead values were removed to their fixed point in an earlier round.
    let mut swept = false;
    for _ in 0..16 {
        let mut f = Folder::new(&k.vars);
        let mut body = std::mem::take(&mut k.body);
        f.block(&mut body, &mut Env::new(k.vars.len()));
        let changed = f.changed;
        k.body = body;
        let Folder {
            mattered,
            mut dropped,
            mut unsettled,
            array_loads,
            locs: met_locs,
            ..
        } = f;
        locs |= met_locs;
        // Folding reports every edit, so the IR is then exactly what the previous round left:
        // `remove_dead_values` already ran to its fixed point on it and `coalesce_moves` found
        // nothing, so running them again would change nothing (and cost two more walks).
        if !changed && settled {
            return (any, true, locs);
        }
        // Dead-value removal left its fixed point at the end of the previous round, and moves
        // coalesced since then take away only a read that its renamed definition alone reached,
        // which makes nothing else dead: with no fold either, there is nothing to remove.
        let removed =
            (changed || !swept) && remove_dead_values(k, &mut dropped, &mut unsettled, array_loads);
        swept = true;
        let (coalesced, scan) = coalesce_quietly(k, &mattered);
        if !changed && !removed && !coalesced {
            return (any, true, locs);
        }
        any = true;
        // The next round would fold nothing: see `Folder::mattered` and `coalesce_quietly`.
        if let Some(mut scan) = scan.filter(|_| !unsettled) {
            let mut copied = std::mem::take(&mut scan.copied);
            if dropped.iter().all(|v| {
                let m = mattered[v.0 as usize];
                if m == COPIES {
                    copied.push(*v);
                }
                m & HARD == 0
            }) && scan.copies_gone(&copied)
            {
                return (any, true, locs);
            }
        }
        settled = !coalesced;
    }
    (any, false, locs)
}

/// A variable's write forgot a fact the next round could keep if the write went: a widened
/// value, a fact forgotten at a loop's head, or a copy nothing tells apart (see
/// `Folder::mattered`).
const HARD: u8 = 1;
/// A variable's write forgot copies of it (`y = t`), and only those. Such a fact is made by a
/// move `y = mov t` alone (folding records facts from moves as rewritten, and a join keeps a
/// fact only where both sides have one), so where no move from `t` is left after the round,
/// the next round makes none of them, and taking `t`'s write away keeps none alive.
const COPIES: u8 = 2;

/// What one walk over the IR finds for [`coalesce_quietly`] and the round's end.
struct Scan<'m> {
    mattered: &'m [u8],
    /// Whether some block has a pair `dce::coalesce_moves` looks at (`t = ...` directly
    /// followed by `x = mov t`): most rounds have none.
    pair: bool,
    /// Whether some pair's `t` mattered to folding ([`HARD`]) or its `op` is a `cast`.
    loud: bool,
    /// The `t`s of pairs whose writes forgot only copies (see [`COPIES`]), with repeats.
    copied: Vec<Var>,
    /// Whether some `if` has two arms that are the same (folding dissolves it).
    same_arms: bool,
    /// Variables some move reads.
    moved_from: Vec<bool>,
    /// Each variable's read count (`util::use_counts`), where the walk was asked to count
    /// (for the coalescing right after it, which would otherwise walk the IR once more).
    uses: Vec<u32>,
}

impl<'m> Scan<'m> {
    fn new(b: &Block, mattered: &'m [u8]) -> Self {
        Self::walk::<false>(b, mattered)
    }

    /// [`Scan::new`], counting reads into `uses`.
    fn counting(b: &Block, mattered: &'m [u8]) -> Self {
        Self::walk::<true>(b, mattered)
    }

    fn walk<const COUNT: bool>(b: &Block, mattered: &'m [u8]) -> Self {
        let mut s = Scan {
            mattered,
            pair: false,
            loud: false,
            copied: Vec::new(),
            same_arms: false,
            moved_from: vec![false; mattered.len()],
            uses: if COUNT {
                vec![0; mattered.len()]
            } else {
                Vec::new()
            },
        };
        s.block::<COUNT>(b);
        s
    }

    fn block<const COUNT: bool>(&mut self, b: &Block) {
        let mut prev: Option<&Inst> = None;
        for i in &b.0 {
            if COUNT {
                let uses = &mut self.uses;
                for_each_use(i, |o| {
                    if let Operand::Var(v) = o {
                        uses[v.0 as usize] += 1;
                    }
                });
            }
            match i {
                Inst::Mov {
                    dst: x,
                    src: Operand::Var(t),
                } => {
                    self.moved_from[t.0 as usize] = true;
                    if let Some(p) = prev {
                        if x != t && single_dst(p) == Some(*t) && is_removable(p) {
                            self.pair = true;
                            let m = self.mattered[t.0 as usize];
                            if m & HARD != 0 || matches!(p, Inst::Cast { .. }) {
                                self.loud = true;
                            } else if m == COPIES {
                                self.copied.push(*t);
                            }
                        }
                    }
                }
                Inst::If { then, els, .. } => {
                    self.same_arms |= same_ignoring_locs(then, els);
                    self.block::<COUNT>(then);
                    self.block::<COUNT>(els);
                }
                Inst::For { body, .. } | Inst::Loop { body, .. } => self.block::<COUNT>(body),
                _ => {}
            }
            prev = Some(i);
        }
    }

    /// Whether no move reads a variable of `vars` (with repeats): see [`COPIES`].
    fn copies_gone(&self, vars: &[Var]) -> bool {
        vars.iter().all(|v| !self.moved_from[v.0 as usize])
    }
}

/// Coalesces moves; returns whether it changed anything and, where the next folding round
/// would still fold nothing (given the round's `mattered`), the walk over the IR it leaves
/// (its `copied` moves must be gone: see [`COPIES`]).
///
/// Coalescing `t = op; x = mov t` into `x = op` (`t` read by the move alone, or dead after it)
/// takes away `t`'s write, which matters to folding as any dropped write does (`mattered`), and
/// `x`'s copy of `t`, which nothing used (a read of `x` folding turned into `t` would be a
/// second read of `t`). It gives `x` no fact unless `op` is a `cast` (a widened value), and may
/// leave two arms of an `if` the same. Where every pair it looks at passes on these counts, it
/// runs to its own fixed point here: the rounds in between would only confirm folding's.
fn coalesce_quietly<'m>(k: &mut Kernel, mattered: &'m [u8]) -> (bool, Option<Scan<'m>>) {
    let mut scan = Scan::counting(&k.body, mattered);
    if !scan.pair {
        return (false, Some(scan));
    }
    // The read counts of the IR scanned, kept exact by each coalescing step.
    let mut uses = std::mem::take(&mut scan.uses);
    let mut coalesce = |k: &mut Kernel| super::dce::coalesce_counted(k, &mut uses);
    if scan.loud {
        // Unless nothing coalesced: then no write went, and the IR is the one scanned.
        if coalesce(k) {
            return (true, None);
        }
        scan.copied.clear();
        return (false, Some(scan));
    }
    let mut copied = std::mem::take(&mut scan.copied);
    let mut coalesced = false;
    while coalesce(k) {
        coalesced = true;
        scan = Scan::new(&k.body, mattered);
        if scan.loud {
            return (true, None);
        }
        copied.append(&mut scan.copied);
        if !scan.pair {
            break;
        }
    }
    if coalesced && scan.same_arms {
        return (true, None);
    }
    if coalesced {
        scan.copied = copied;
    }
    (coalesced, Some(scan))
}

/// Known values of variables at a program point, indexed by variable (folding runs before
/// `split_webs`, while kernels have few variables, and hashing every lookup cost more than
/// copying the tables at the few branches).
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

impl Clone for Env {
    fn clone(&self) -> Self {
        Env {
            known: self.known.clone(),
            copies: clone_table(&self.copies),
            widened: self.widened.clone(),
            widened_from: clone_table(&self.widened_from),
        }
    }
    /// Copies into the tables (and copy lists) already there instead of allocating new ones.
    fn clone_from(&mut self, source: &Self) {
        self.known.clone_from(&source.known);
        clone_lists(&mut self.copies, &source.copies);
        self.widened.clone_from(&source.widened);
        clone_lists(&mut self.widened_from, &source.widened_from);
    }
}

/// A table of `n` empty lists (`vec![Vec::new(); n]` clones each through a call).
fn empty_table(n: usize) -> Vec<Vec<Var>> {
    std::iter::repeat_with(Vec::new).take(n).collect()
}

/// A copy of a table of lists, most of them empty: those become empty lists with one test
/// each (`Vec::clone` of the table cloned every list through a call, about 35 instructions per
/// variable).
fn clone_table(from: &[Vec<Var>]) -> Vec<Vec<Var>> {
    from.iter()
        .map(|l| if l.is_empty() { Vec::new() } else { l.clone() })
        .collect()
}

/// `to.clone_from(from)` for a table of lists, most of them empty on both sides: those are
/// skipped with one test each (`Vec::clone_from` on each list, a call with its own checks,
/// made every copy of the tables cost about 45 instructions per variable).
fn clone_lists(to: &mut Vec<Vec<Var>>, from: &[Vec<Var>]) {
    to.resize_with(from.len(), Vec::new);
    for (a, b) in to.iter_mut().zip(from) {
        if !(a.is_empty() && b.is_empty()) {
            a.clone_from(b);
        }
    }
}

impl Env {
    fn new(vars: usize) -> Self {
        Env {
            known: vec![None; vars],
            copies: empty_table(vars),
            widened: vec![None; vars],
            widened_from: empty_table(vars),
        }
    }
    /// Forgets `v`'s facts and those of other variables that refer to it; returns which of the
    /// latter were still true ([`HARD`] for a widened value, [`COPIES`] for copies of `v`, both
    /// or neither): then the write mattered to other variables' facts.
    ///
    /// Inlined for the common write that finds nothing to forget (most writes in unrolled
    /// code: a temporary nothing was copied from); the rest is a call.
    #[inline]
    fn kill(&mut self, v: Var) -> u8 {
        let i = v.0 as usize;
        self.known[i] = None;
        self.widened[i] = None;
        if self.widened_from[i].is_empty() && self.copies[i].is_empty() {
            return 0;
        }
        self.kill_refs(i)
    }

    /// [`Env::kill`] where some variable's fact may refer to variable `i`.
    #[inline(never)]
    fn kill_refs(&mut self, i: usize) -> u8 {
        let v = Var(i as u32);
        let mut others = 0;
        // The lists are emptied in place, keeping their storage: the same variables are
        // copied and killed again and again in unrolled code.
        if !self.widened_from[i].is_empty() {
            let mut ws = std::mem::take(&mut self.widened_from[i]);
            for w in ws.drain(..) {
                if self.widened[w.0 as usize] == Some(v) {
                    self.widened[w.0 as usize] = None;
                    others |= HARD;
                }
            }
            self.widened_from[i] = ws;
        }
        if !self.copies[i].is_empty() {
            let mut ds = std::mem::take(&mut self.copies[i]);
            for d in ds.drain(..) {
                if self.known[d.0 as usize] == Some(Operand::Var(v)) {
                    self.known[d.0 as usize] = None;
                    others |= COPIES;
                }
            }
            self.copies[i] = ds;
        }
        others
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
    /// Forgets every variable `b` assigns (each once, in walk order), marking in `mattered`
    /// those that had a fact or that another variable's fact referred to.
    ///
    /// Only such variables can lose anything or be marked: the others' kills find nothing (their
    /// reverse lists hold only stale entries). So they are listed from the tables first (one
    /// look per variable, a few hundred), and the body is walked only while some of them is
    /// left, testing each write against the list (`watch`, a buffer kept across calls). Loops
    /// start with few facts (SGEMM's unrolled main loop: 11 of 311 variables in the call after
    /// unrolling, none in the one after `cse`), where a kill per write of the body cost about
    /// 60 instructions per instruction walked.
    fn kill_assigned(&mut self, b: &Block, mattered: &mut [u8], watch: &mut Vec<bool>) {
        watch.clear();
        watch.resize(self.known.len(), false);
        let mut left = 0usize;
        let mut mark = |x: usize| {
            if !std::mem::replace(&mut watch[x], true) {
                left += 1;
            }
        };
        for v in 0..self.known.len() {
            if let Some(o) = self.known[v] {
                mark(v);
                if let Operand::Var(x) = o {
                    mark(x.0 as usize);
                }
            }
            if let Some(x) = self.widened[v] {
                mark(v);
                mark(x.0 as usize);
            }
        }
        if left > 0 {
            self.kill_watched(b, mattered, watch, &mut left);
        }
    }

    /// [`Env::kill_assigned`]'s walk: kills each watched variable at its first write in `b`
    /// (pre-order, as `util::walk` visits: the marks depend on the order), taking it off the
    /// list. Returns whether the list is empty (nothing further can change). One match per
    /// instruction and no closure: this loop runs over every instruction of a loop body.
    fn kill_watched(
        &mut self,
        b: &Block,
        mattered: &mut [u8],
        watch: &mut [bool],
        left: &mut usize,
    ) -> bool {
        for inst in &b.0 {
            let d = match inst {
                Inst::Mov { dst, .. }
                | Inst::Unary { dst, .. }
                | Inst::Binary { dst, .. }
                | Inst::Fma { dst, .. }
                | Inst::Cast { dst, .. }
                | Inst::Bitcast { dst, .. }
                | Inst::Select { dst, .. }
                | Inst::Load { dst, .. }
                | Inst::SharedAddr { dst, .. }
                | Inst::DynSharedAddr { dst }
                | Inst::DynSharedBytes { dst }
                | Inst::ArrayLoad { dst, .. } => *dst,
                Inst::Intrinsic { dsts, .. } | Inst::LoadVec { dsts, .. } => {
                    for &d in dsts {
                        if watch[d.0 as usize] && self.kill_watched_var(d, mattered, watch, left) {
                            return true;
                        }
                    }
                    continue;
                }
                Inst::If { then, els, .. } => {
                    if self.kill_watched(then, mattered, watch, left)
                        || self.kill_watched(els, mattered, watch, left)
                    {
                        return true;
                    }
                    continue;
                }
                Inst::For { iv, body, .. } => {
                    if (watch[iv.0 as usize] && self.kill_watched_var(*iv, mattered, watch, left))
                        || self.kill_watched(body, mattered, watch, left)
                    {
                        return true;
                    }
                    continue;
                }
                Inst::Loop { body, .. } => {
                    if self.kill_watched(body, mattered, watch, left) {
                        return true;
                    }
                    continue;
                }
                _ => continue,
            };
            if watch[d.0 as usize] && self.kill_watched_var(d, mattered, watch, left) {
                return true;
            }
        }
        false
    }

    /// Kills watched variable `v` at its first write (see [`Env::kill_assigned`]); returns
    /// whether no watched variable is left. Out of line: few writes are watched.
    #[inline(never)]
    fn kill_watched_var(
        &mut self,
        v: Var,
        mattered: &mut [u8],
        watch: &mut [bool],
        left: &mut usize,
    ) -> bool {
        let n = v.0 as usize;
        watch[n] = false;
        *left -= 1;
        let own = self.known[n].is_some() || self.widened[n].is_some();
        if self.kill(v) != 0 || own {
            mattered[n] |= HARD;
        }
        *left == 0
    }

    fn widen(&mut self, w: Var, x: Var) {
        self.widened[w.0 as usize] = Some(x);
        self.widened_from[x.0 as usize].push(w);
    }
    fn widened(&self, w: Var) -> Option<Var> {
        self.widened[w.0 as usize]
    }
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

/// Whether `inst` is of a kind `simplify` can rewrite: most instructions (moves, loads and stores
/// above all) skip the call.
pub(crate) fn has_simpler_forms(inst: &Inst) -> bool {
    matches!(
        inst,
        Inst::Unary { .. }
            | Inst::Binary { .. }
            | Inst::Fma { .. }
            | Inst::Cast { .. }
            | Inst::Bitcast { .. }
            | Inst::Select { .. }
    )
}

/// Whether [`Folder::simplify`] can find anything for an instruction of a kind it rewrites:
/// not for arithmetic on variables alone (two different ones for a binary operation), which
/// only constants fold and only constant operands or one operand twice simplify. Most of
/// unrolled code is such arithmetic, and the call (returning an instruction) costs more than
/// the test.
fn may_simplify(inst: &Inst) -> bool {
    match inst {
        Inst::Binary {
            a: Operand::Var(x),
            b: Operand::Var(y),
            ..
        } => x == y,
        Inst::Unary {
            a: Operand::Var(_), ..
        } => false,
        Inst::Fma { a, b, c, .. } => [a, b, c].iter().all(|o| matches!(o, Operand::Const(_))),
        _ => true,
    }
}

struct Folder<'a> {
    vars: &'a [Ty],
    changed: bool,
    /// Tables no longer needed, reused for the copies taken at branches and loops.
    spare: Vec<Env>,
    /// Variables whose write, somewhere in this round, forgot a fact that was still true: one
    /// that another variable's fact referred to, or any fact of a variable a loop assigns,
    /// forgotten at the loop's head.
    ///
    /// A round's edits mostly leave the next round nothing to do: folding rewrites an
    /// instruction into the form the next round would give it from the same facts, and facts
    /// are recorded after rewriting. What can give the next round more facts is a write that is
    /// gone (a definition folded or dropped as unreachable here, or removed as dead after the
    /// round): the facts its write (or a loop head's) forgot survive. Its own earlier fact does
    /// not matter past the write (nothing reads the variable before its next write, or the write
    /// would not be dead), so only a variable marked here can make the next round fold more.
    ///
    /// Each variable's entry is [`HARD`] and/or [`COPIES`] (0: its writes forgot nothing). A
    /// write that forgot only copies of its variable matters no more once the moves that made
    /// them are gone: SGEMM's `t = load; a0 = mov t; t = load; a1 = mov t` after `sroa`, where
    /// every move is coalesced or dead and a whole confirming round used to follow.
    mattered: Vec<u8>,
    /// Variables written by instructions this round took away (see `mattered`).
    dropped: Vec<Var>,
    /// Whether this round made an edit after which the next round may fold more for another
    /// reason: a branch dissolved because both sides are the same (the code after it then sees
    /// one side's facts rather than their join) or a loop that runs once only after folding.
    unsettled: bool,
    /// Whether the walk met an `array_load`: it meets every instruction the round leaves
    /// (what it does not fold is dropped), so without one no load is left to count.
    array_loads: bool,
    /// [`Env::kill_assigned`]'s list of variables to look for, kept to reuse its storage.
    watch: Vec<bool>,
    /// Whether the walk met a source marker (it meets every instruction the round leaves).
    locs: bool,
    /// Spare copies of the facts for [`Folder::loop_body`].
    saved: Vec<Facts>,
}

/// A copy of an [`Env`]'s facts without its reverse lists: `known` and `widened`.
type Facts = (Vec<Option<Operand>>, Vec<Option<Var>>);

fn cst(o: Operand) -> Option<Const> {
    match o {
        Operand::Const(c) => Some(c),
        Operand::Var(_) => None,
    }
}

/// What [`Folder::inst_in_place`] did with an instruction.
enum Edit {
    /// It stays (possibly rewritten in place).
    Keep,
    /// It goes.
    Remove,
    /// It is replaced by these instructions, already folded.
    Splice(Vec<Inst>),
}

impl<'a> Folder<'a> {
    fn new(vars: &'a [Ty]) -> Self {
        Folder {
            vars,
            changed: false,
            spare: Vec::new(),
            mattered: vec![0; vars.len()],
            dropped: Vec::new(),
            unsettled: false,
            array_loads: false,
            watch: Vec::new(),
            locs: false,
            saved: Vec::new(),
        }
    }

    /// Records the variables `insts` (and the code nested in them) write: they are taken away.
    fn drop_defs<'i>(&mut self, insts: impl IntoIterator<Item = &'i Inst>) {
        for i in insts {
            for_each_def(i, |v| self.dropped.push(v));
            for c in child_blocks(i) {
                let dropped = &mut self.dropped;
                walk(c, &mut |j| for_each_def(j, |v| dropped.push(v)));
            }
        }
    }

    /// A write of `v` (killing its facts) by an instruction that stays.
    #[inline(always)]
    fn kill(&mut self, env: &mut Env, v: Var) {
        self.mattered[v.0 as usize] |= env.kill(v);
    }

    /// Folds `b` in place: kept instructions are rewritten where they lie and moved only to close
    /// the gaps removals leave, so a block with nothing removed (most blocks in a round that
    /// confirms the fixed point) is not rebuilt. The first splice (a branch or one-shot loop
    /// replaced by its contents) moves the rest of the block through [`Folder::inst`].
    ///
    /// Markers are pruned as `util::prune_locs` prunes them, on the way: one that the next kept
    /// instruction shows to cover nothing (another marker, or the end) is dropped there.
    fn block(&mut self, b: &mut Block, env: &mut Env) {
        let len = b.0.len();
        let mut w = 0;
        let mut r = 0;
        while r < len {
            // A marker folds to itself; the one kept before it, if also a marker, covers nothing.
            if let Inst::Loc(_) = b.0[r] {
                self.locs = true;
                if w > 0 && matches!(b.0[w - 1], Inst::Loc(_)) {
                    self.changed = true;
                    w -= 1;
                }
                if w != r {
                    b.0.swap(w, r);
                }
                w += 1;
                r += 1;
                continue;
            }
            match self.inst_in_place(&mut b.0[r], env) {
                Edit::Keep => {
                    if w != r {
                        b.0.swap(w, r);
                    }
                    w += 1;
                    r += 1;
                    if diverges(&b.0[w - 1]) {
                        if r < len {
                            self.changed = true;
                            self.drop_defs(&b.0[r..]);
                        }
                        break;
                    }
                }
                Edit::Remove => r += 1,
                Edit::Splice(insts) => {
                    let rest = b.0.split_off(r + 1);
                    b.0.truncate(w);
                    let mut out = std::mem::take(&mut b.0);
                    out.extend(insts);
                    let mut iter = rest.into_iter();
                    if out.last().is_some_and(diverges) {
                        if iter.len() > 0 {
                            self.changed = true;
                            self.drop_defs(iter.as_slice());
                        }
                    } else {
                        while let Some(inst) = iter.next() {
                            self.inst(inst, env, &mut out);
                            if out.last().is_some_and(diverges) {
                                if iter.len() > 0 {
                                    self.changed = true;
                                    self.drop_defs(iter.as_slice());
                                }
                                break;
                            }
                        }
                    }
                    b.0 = out;
                    self.changed |= prune_locs(b);
                    return;
                }
            }
        }
        if w > 0 && matches!(b.0[w - 1], Inst::Loc(_)) {
            self.changed = true;
            w -= 1;
        }
        b.0.truncate(w);
    }

    /// [`Folder::inst`] on an instruction where it lies; the same edits, in the same order.
    fn inst_in_place(&mut self, inst: &mut Inst, env: &mut Env) -> Edit {
        self.subst(inst, env);
        match inst {
            Inst::If { cond, then, els } => {
                if cst(*cond).is_some() {
                    return self.splice(inst, env);
                }
                let mut env_t = self.copy_env(env);
                self.block(then, &mut env_t);
                // The else branch starts from `env` itself: a join keeps only facts both
                // branches agree on, whichever table the result is built in.
                self.block(els, env);
                match (falls_through(then), falls_through(els)) {
                    (true, true) => {
                        env.intersect(&env_t);
                        self.spare.push(env_t);
                    }
                    (true, false) => self.spare.push(std::mem::replace(env, env_t)),
                    // Neither falls through: the `if` diverges, so no code after it in its block
                    // is folded (it is dropped) and the table left here is never joined (see
                    // `Folder::loop_body`): the else branch's table stays.
                    (false, true) | (false, false) => self.spare.push(env_t),
                }
                if then.0.is_empty() && els.0.is_empty() {
                    self.changed = true;
                    return Edit::Remove;
                }
                if same_ignoring_locs(then, els) {
                    self.changed = true;
                    self.unsettled = true;
                    return Edit::Splice(std::mem::take(&mut then.0));
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
                        self.drop_defs([&*inst]);
                        return Edit::Remove;
                    }
                }
                env.kill_assigned(body, &mut self.mattered, &mut self.watch);
                self.kill(env, *iv);
                self.loop_body(body, env);
                Edit::Keep
            }
            Inst::Loop { id, body } => {
                let runs_once = matches!(body.0.last(), Some(Inst::Break(l)) if *l == *id)
                    && !jumps_to_insts(&body.0[..body.0.len() - 1], *id);
                if runs_once {
                    return self.splice(inst, env);
                }
                env.kill_assigned(body, &mut self.mattered, &mut self.watch);
                self.loop_body(body, env);
                self.check_once(*id, body);
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
            // The commonest kinds, which `simplify` leaves alone and which record no fact: only
            // the kill of what they write (the general arm below does the same with six more
            // matches).
            Inst::Binary {
                dst,
                a: Operand::Var(x),
                b: Operand::Var(y),
                ..
            } if x != y => {
                self.kill(env, *dst);
                Edit::Keep
            }
            Inst::Load { dst, .. } => {
                self.kill(env, *dst);
                Edit::Keep
            }
            // Moves, the commonest kind after `sroa` (its element copies): what the general arm
            // does with one (a move to itself goes, else the kill and its fact), without the
            // general arm's matches for other kinds.
            Inst::Mov { dst, src } => {
                let (dst, src) = (*dst, *src);
                if src == Operand::Var(dst) {
                    self.changed = true;
                    self.dropped.push(dst);
                    return Edit::Remove;
                }
                self.kill(env, dst);
                env.set(dst, src);
                Edit::Keep
            }
            _ => {
                // Array loads reach this arm (and `inst`'s last one) alone.
                self.array_loads |= matches!(inst, Inst::ArrayLoad { .. });
                if let Some(s) = (has_simpler_forms(inst) && may_simplify(inst))
                    .then(|| self.simplify(inst, env))
                    .flatten()
                {
                    self.changed = true;
                    *inst = s;
                }
                if let Inst::Mov {
                    dst,
                    src: Operand::Var(s),
                } = *inst
                {
                    if s == dst {
                        self.changed = true;
                        self.dropped.push(dst);
                        return Edit::Remove;
                    }
                }
                for_each_def(inst, |v| self.kill(env, v));
                if let Inst::Mov { dst, src } = *inst {
                    env.set(dst, src);
                }
                if let Inst::Cast {
                    dst,
                    a: Operand::Var(x),
                } = *inst
                {
                    let (from, to) = (self.vars[x.0 as usize], self.vars[dst.0 as usize]);
                    if from.is_int() && to.is_int() && to.bits() > from.bits() && x != dst {
                        env.widen(dst, x);
                    }
                }
                Edit::Keep
            }
        }
    }

    /// A loop that folding left running once is dissolved by the next round.
    fn check_once(&mut self, id: LoopId, body: &Block) {
        if matches!(body.0.last(), Some(Inst::Break(l)) if *l == id)
            && !jumps_to_insts(&body.0[..body.0.len() - 1], id)
        {
            self.unsettled = true;
        }
    }

    /// Folds a loop's body (its head's kills done) in `env` itself, then puts back the facts
    /// from before it: what a copy of `env` for the body would leave, without copying the
    /// reverse lists (about half of a table copy).
    ///
    /// The body changes only facts of variables it writes (each set after its write's kill)
    /// and facts that refer to them, of which none is left after the head's kills. So putting
    /// back `known` and `widened` restores every fact; the reverse lists keep entries the body
    /// added (stale: a kill checks each entry against the table) and lose only those of
    /// variables the body writes, which no fact left refers to. An `if` inside that diverges
    /// leaves its else branch's table rather than an empty one (nothing looks at it), so the
    /// lists are never replaced by empty ones.
    fn loop_body(&mut self, body: &mut Block, env: &mut Env) {
        let mut facts = self.saved.pop().unwrap_or_default();
        facts.0.clone_from(&env.known);
        facts.1.clone_from(&env.widened);
        self.block(body, env);
        env.known.clone_from(&facts.0);
        env.widened.clone_from(&facts.1);
        self.saved.push(facts);
    }

    /// A copy of `env`, in a spare table where there is one.
    fn copy_env(&mut self, env: &Env) -> Env {
        match self.spare.pop() {
            Some(mut e) => {
                e.clone_from(env);
                e
            }
            None => env.clone(),
        }
    }

    /// Folds `inst` (a branch on a constant or a one-shot loop) into the instructions that
    /// replace it.
    fn splice(&mut self, inst: &mut Inst, env: &mut Env) -> Edit {
        let inst = std::mem::replace(inst, Inst::Return);
        let mut out = Vec::new();
        self.inst(inst, env, &mut out);
        Edit::Splice(out)
    }

    #[inline]
    fn subst(&mut self, inst: &mut Inst, env: &Env) {
        let mut changed = false;
        for_each_use_mut(inst, |o| {
            let n = env.get(*o);
            if n != *o {
                *o = n;
                changed = true;
            }
        });
        self.changed |= changed;
    }

    fn inst(&mut self, mut inst: Inst, env: &mut Env, out: &mut Vec<Inst>) {
        self.locs |= matches!(inst, Inst::Loc(_));
        self.subst(&mut inst, env);
        match inst {
            Inst::If {
                cond,
                mut then,
                mut els,
            } => {
                if let Some(c) = cst(cond) {
                    self.changed = true;
                    let (mut taken, other) = if c.bits != 0 {
                        (then, els)
                    } else {
                        (els, then)
                    };
                    self.drop_defs(&other.0);
                    self.block(&mut taken, env);
                    out.extend(taken.0);
                    return;
                }
                let mut env_t = env.clone();
                self.block(&mut then, &mut env_t);
                let mut env_e = env.clone();
                self.block(&mut els, &mut env_e);
                *env = match (falls_through(&then), falls_through(&els)) {
                    (true, true) => {
                        env_t.intersect(&env_e);
                        env_t
                    }
                    (true, false) => env_t,
                    // As in `inst_in_place`: after an `if` that diverges no table is looked at.
                    (false, true) | (false, false) => env_e,
                };
                if then.0.is_empty() && els.0.is_empty() {
                    self.changed = true;
                    return;
                }
                if same_ignoring_locs(&then, &els) {
                    // Both branches do the same thing: the condition does not matter.
                    self.changed = true;
                    self.unsettled = true;
                    out.extend(then.0);
                    return;
                }
                out.push(Inst::If { cond, then, els });
            }
            Inst::For {
                id,
                iv,
                start,
                end,
                inclusive,
                step,
                reverse,
                mut body,
                unroll,
            } => {
                if let (Some(s), Some(e)) = (cst(start), cst(end)) {
                    let (s, e) = (s.as_i128(), e.as_i128());
                    if s > e || (s == e && !inclusive) {
                        self.changed = true;
                        self.dropped.push(iv);
                        self.drop_defs(&body.0);
                        return;
                    }
                }
                env.kill_assigned(&body, &mut self.mattered, &mut self.watch);
                self.kill(env, iv);
                self.loop_body(&mut body, env);
                out.push(Inst::For {
                    id,
                    iv,
                    start,
                    end,
                    inclusive,
                    step,
                    reverse,
                    body,
                    unroll,
                });
            }
            Inst::Loop { id, mut body } => {
                let runs_once = matches!(body.0.last(), Some(Inst::Break(l)) if *l == id)
                    && !jumps_to_insts(&body.0[..body.0.len() - 1], id);
                if runs_once {
                    self.changed = true;
                    body.0.pop();
                    let mut iter = body.0.into_iter();
                    while let Some(i) = iter.next() {
                        self.inst(i, env, out);
                        if out.last().is_some_and(diverges) {
                            self.drop_defs(iter.as_slice());
                            break;
                        }
                    }
                    return;
                }
                env.kill_assigned(&body, &mut self.mattered, &mut self.watch);
                self.loop_body(&mut body, env);
                self.check_once(id, &body);
                out.push(Inst::Loop { id, body });
            }
            Inst::BoundsCheck { idx, len, site } => match (cst(idx), cst(len)) {
                (Some(i), Some(l)) if i.bits < l.bits => self.changed = true,
                (Some(_), Some(_)) => {
                    self.changed = true;
                    out.push(Inst::Panic {
                        site,
                        a: idx,
                        b: len,
                    });
                }
                _ => {
                    let (idx, len) = self.narrow_check(idx, len, env);
                    out.push(Inst::BoundsCheck { idx, len, site })
                }
            },
            mut other => {
                self.array_loads |= matches!(other, Inst::ArrayLoad { .. });
                if let Some(s) = self.simplify(&other, env) {
                    self.changed = true;
                    other = s;
                }
                if let Inst::Mov {
                    dst,
                    src: Operand::Var(s),
                } = other
                {
                    if s == dst {
                        self.changed = true;
                        self.dropped.push(dst);
                        return;
                    }
                }
                for_each_def(&other, |v| self.kill(env, v));
                if let Inst::Mov { dst, src } = other {
                    env.set(dst, src);
                }
                if let Inst::Cast {
                    dst,
                    a: Operand::Var(x),
                } = other
                {
                    let (from, to) = (self.vars[x.0 as usize], self.vars[dst.0 as usize]);
                    if from.is_int() && to.is_int() && to.bits() > from.bits() && x != dst {
                        env.widen(dst, x);
                    }
                }
                out.push(other);
            }
        }
    }

    /// A `u64` check of `u32` values widened to `u64` (against a widened `u32` or a constant that
    /// fits) becomes a `u32` check: zero extension keeps the order and the reported values.
    fn narrow_check(&mut self, idx: Operand, len: Operand, env: &Env) -> (Operand, Operand) {
        let narrow = |o: Operand| -> Option<Operand> {
            match o {
                Operand::Var(w) => {
                    let x = env.widened(w)?;
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
        match o {
            Operand::Var(v) => self.vars[v.0 as usize],
            Operand::Const(c) => c.ty,
        }
    }

    /// A simpler equivalent of `inst`, if there is one.
    fn simplify(&self, inst: &Inst, env: &Env) -> Option<Inst> {
        Simplify {
            vars: self.vars,
            widened: &env.widened,
        }
        .inst(inst)
    }
}

/// What `simplify` needs: the variables' types and which variables hold widened values (empty
/// where none are known). Kept apart from [`Folder`] so that prefolding asks it without
/// building (and dropping) a folder and its tables for every instruction.
struct Simplify<'a> {
    vars: &'a [Ty],
    widened: &'a [Option<Var>],
}

impl Simplify<'_> {
    fn ty(&self, o: Operand) -> Ty {
        match o {
            Operand::Var(v) => self.vars[v.0 as usize],
            Operand::Const(c) => c.ty,
        }
    }

    /// A simpler equivalent of `inst`, if there is one.
    fn inst(&self, inst: &Inst) -> Option<Inst> {
        let mov = |dst, src: Operand| Some(Inst::Mov { dst, src });
        match *inst {
            Inst::Unary { dst, op, a } => {
                let r = eval_unary(op, cst(a)?, self.vars[dst.0 as usize])?;
                mov(dst, r.into())
            }
            Inst::Binary { dst, op, a, b } => {
                if let (Some(x), Some(y)) = (cst(a), cst(b)) {
                    if let Some(r) = eval_binary(op, x, y) {
                        return mov(dst, r.into());
                    }
                }
                self.identity(dst, op, a, b)
            }
            Inst::Fma { dst, a, b, c } => {
                let r = eval_fma(cst(a)?, cst(b)?, cst(c)?)?;
                mov(dst, r.into())
            }
            Inst::Cast { dst, a } => {
                let to = self.vars[dst.0 as usize];
                if self.ty(a) == to {
                    return mov(dst, a);
                }
                // Narrowing a widened value back to its own type gives the value.
                if let Operand::Var(w) = a {
                    if let Some(x) = self.widened.get(w.0 as usize).copied().flatten() {
                        if self.vars[x.0 as usize] == to {
                            return mov(dst, Operand::Var(x));
                        }
                    }
                }
                mov(dst, eval_cast(cst(a)?, to)?.into())
            }
            Inst::Bitcast { dst, a } => {
                let to = self.vars[dst.0 as usize];
                if self.ty(a) == to {
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

    fn identity(&self, dst: kernel_ir::ir::Var, op: BinOp, a: Operand, b: Operand) -> Option<Inst> {
        let t = self.ty(a);
        let mov = |src: Operand| Some(Inst::Mov { dst, src });
        let (ca, cb) = (cst(a), cst(b));
        let same = matches!((a, b), (Operand::Var(x), Operand::Var(y)) if x == y);
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::passes::testkit::*;
    use kernel_ir::ir::{UnOp, Unroll};

    #[test]
    fn folds_chains_in_u32() {
        let mut k = kernel();
        let p = param(&mut k, "p", Ty::U64);
        let (a, b, c) = (k.new_var(Ty::U32), k.new_var(Ty::U32), k.new_var(Ty::U32));
        k.body.0 = vec![
            mov(a, u32c(3)),
            bin(b, BinOp::Add, a, u32c(u32::MAX)),
            bin(c, BinOp::Shl, b, u32c(33)),
            store(p, c),
        ];
        assert!(const_fold(&mut k));
        assert_body(&k, "store.global.u32 [v0], 4u32");
    }

    #[test]
    fn var_written_in_loop_is_not_constant() {
        let mut k = kernel();
        let p = param(&mut k, "p", Ty::U64);
        let n = param(&mut k, "n", Ty::U32);
        let (x, i) = (k.new_var(Ty::U32), k.new_var(Ty::U32));
        let body = vec![store(p, x), bin(x, BinOp::Add, x, u32c(1))];
        let l = for_(&mut k, i, u32c(0), n, Unroll::Never, body);
        k.body.0 = vec![mov(x, u32c(7)), l, store(p, x)];
        let before = text(&k);
        const_fold(&mut k);
        assert_eq!(text(&k), before);
    }

    #[test]
    fn copies_die_when_source_is_rewritten() {
        let mut k = kernel();
        let p = param(&mut k, "p", Ty::U64);
        let x = param(&mut k, "x", Ty::U32);
        let y = k.new_var(Ty::U32);
        k.body.0 = vec![
            mov(y, x),
            store(p, y),
            bin(x, BinOp::Add, x, u32c(1)),
            store(p, y),
            store(p, x),
        ];
        const_fold(&mut k);
        assert_body(
            &k,
            "
            v2 = mov v1
            store.global.u32 [v0], v1
            v1 = add.u32 v1, 1u32
            store.global.u32 [v0], v2
            store.global.u32 [v0], v1
            ",
        );
    }

    #[test]
    fn branch_folding_and_merge() {
        let mut k = kernel();
        let p = param(&mut k, "p", Ty::U64);
        let q = param(&mut k, "q", Ty::Bool);
        let (c, x, y) = (k.new_var(Ty::Bool), k.new_var(Ty::U32), k.new_var(Ty::U32));
        k.body.0 = vec![
            bin(c, BinOp::Lt, i32c(-1), i32c(2)),
            if_(c, vec![mov(x, u32c(1))], vec![mov(x, u32c(2))]),
            if_(q, vec![mov(y, x)], vec![mov(y, u32c(1))]),
            store(p, y),
            if_(q, vec![mov(y, u32c(5))], vec![mov(y, u32c(6))]),
            store(p, y),
        ];
        const_fold(&mut k);
        assert_body(
            &k,
            "
            store.global.u32 [v0], 1u32
            if v1 {
              v4 = mov 5u32
            } else {
              v4 = mov 6u32
            }
            store.global.u32 [v0], v4
            ",
        );
    }

    #[test]
    fn float_identities_keep_nan_and_signed_zero_semantics() {
        let mut k = kernel();
        let p = param(&mut k, "p", Ty::U64);
        let x = param(&mut k, "x", Ty::F32);
        let v: Vec<Var> = (0..5).map(|_| k.new_var(Ty::F32)).collect();
        k.body.0 = vec![
            bin(v[0], BinOp::Mul, x, f32c(1.0)),
            bin(v[1], BinOp::Add, v[0], f32c(0.0)),
            bin(v[2], BinOp::Add, v[1], f32c(-0.0)),
            bin(v[3], BinOp::Mul, v[2], f32c(0.0)),
            bin(v[4], BinOp::Sub, v[3], f32c(0.0)),
            store(p, v[4]),
        ];
        const_fold(&mut k);
        assert_body(
            &k,
            "
            v3 = add.f32 v1, 0.0f32
            v5 = mul.f32 v3, 0.0f32
            store.global.f32 [v0], v5
            ",
        );
    }

    #[test]
    fn int_identities() {
        let mut k = kernel();
        let p = param(&mut k, "p", Ty::U64);
        let x = param(&mut k, "x", Ty::I32);
        let v: Vec<Var> = (0..6).map(|_| k.new_var(Ty::I32)).collect();
        let c = k.new_var(Ty::Bool);
        let y = param(&mut k, "y", Ty::U32);
        let u = k.new_var(Ty::U32);
        k.body.0 = vec![
            bin(v[0], BinOp::Mul, x, i32c(1)),
            bin(v[1], BinOp::Or, v[0], i32c(0)),
            bin(v[2], BinOp::Shr, v[1], u32c(32)),
            store(p, v[2]),
            bin(v[3], BinOp::Mul, x, i32c(0)),
            store(p, v[3]),
            bin(v[4], BinOp::Sub, x, x),
            bin(v[5], BinOp::And, v[4], i32c(-1)),
            store(p, v[5]),
            bin(c, BinOp::Le, x, x),
            store(p, c),
            bin(u, BinOp::Max, u32c(0), y),
            bin(u, BinOp::Min, u, u32c(u32::MAX)),
            store(p, u),
            bin(u, BinOp::Min, y, u32c(0)),
            store(p, u),
            bin(v[0], BinOp::Max, x, i32c(0)),
            store(p, v[0]),
        ];
        const_fold(&mut k);
        assert_body(
            &k,
            "
            store.global.i32 [v0], v1
            store.global.i32 [v0], 0i32
            store.global.i32 [v0], 0i32
            store.global.bool [v0], true
            store.global.u32 [v0], v9
            store.global.u32 [v0], 0u32
            v2 = max.i32 v1, 0i32
            store.global.i32 [v0], v2
            ",
        );
    }

    #[test]
    fn bounds_checks_and_unreachable_code() {
        let mut k = kernel();
        let p = param(&mut k, "p", Ty::U64);
        k.body.0 = vec![
            check(u32c(3), u32c(4)),
            store(p, u32c(1)),
            check(u32c(4), u32c(4)),
            store(p, u32c(2)),
        ];
        const_fold(&mut k);
        assert_body(
            &k,
            "
            store.global.u32 [v0], 1u32
            panic @site0 4u32, 4u32
            ",
        );
    }

    #[test]
    fn dead_values_go_effects_stay() {
        let mut k = kernel();
        let p = param(&mut k, "p", Ty::U64);
        let (a, b, t) = (k.new_var(Ty::U32), k.new_var(Ty::U32), k.new_var(Ty::U32));
        let n = k.new_var(Ty::U32);
        k.body.0 = vec![
            load(a, p),
            un(b, UnOp::Not, a),
            intr("tid.x", vec![t], vec![]),
            intr("clock", vec![n], vec![]),
            intr("sync_threads", vec![], vec![]),
            store(p, u32c(0)),
        ];
        const_fold(&mut k);
        assert_body(
            &k,
            "
            v4 = call clock()
            call sync_threads()
            store.global.u32 [v0], 0u32
            ",
        );
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

    /// Folding as it was before dead values were removed in one walk and skipped after rounds
    /// that only coalesced moves: every round folds, removes dead values and coalesces.
    fn reference_fold(k: &mut Kernel) -> bool {
        let mut any = false;
        for _ in 0..16 {
            let mut f = Folder::new(&k.vars);
            let mut body = std::mem::take(&mut k.body);
            f.block(&mut body, &mut Env::new(k.vars.len()));
            let folded = f.changed;
            k.body = body;
            let removed = super::super::dce::remove_dead_values(k);
            let coalesced = super::super::dce::coalesce_moves(k);
            if !folded && !removed && !coalesced {
                break;
            }
            any = true;
        }
        if any {
            drop_repeated_locs(&mut k.body, None);
        }
        any
    }

    /// The shortcuts change no output: random code folds to exactly what the plain rounds give.
    #[test]
    fn same_result_as_plain_rounds() {
        for seed in 0..3000 {
            let k = dead::tests::random_kernel(seed);
            let (mut a, mut b) = (k.clone(), k.clone());
            assert_eq!(const_fold(&mut a), reference_fold(&mut b), "seed {seed}");
            assert_eq!(a.body, b.body, "seed {seed}\n{}", text(&k));
        }
    }

    /// The instructions [`may_simplify`] lets skip `simplify` are ones it leaves alone, for
    /// every operation and type, whatever facts hold.
    #[test]
    fn skipped_instructions_have_no_simpler_form() {
        use kernel_ir::ir::UnOp;
        let bins = [
            BinOp::Add,
            BinOp::Sub,
            BinOp::Mul,
            BinOp::Div,
            BinOp::Rem,
            BinOp::And,
            BinOp::Or,
            BinOp::Xor,
            BinOp::Shl,
            BinOp::Shr,
            BinOp::Min,
            BinOp::Max,
            BinOp::MulHi,
            BinOp::Eq,
            BinOp::Ne,
            BinOp::Lt,
            BinOp::Le,
            BinOp::Gt,
            BinOp::Ge,
        ];
        let uns = [
            UnOp::Neg,
            UnOp::Not,
            UnOp::Abs,
            UnOp::Sqrt,
            UnOp::Popc,
            UnOp::Clz,
            UnOp::Floor,
            UnOp::Ceil,
            UnOp::Trunc,
            UnOp::Round,
        ];
        let tys = [
            Ty::Bool,
            Ty::I8,
            Ty::I16,
            Ty::I32,
            Ty::I64,
            Ty::U8,
            Ty::U16,
            Ty::U32,
            Ty::U64,
            Ty::F16,
            Ty::BF16,
            Ty::F32,
            Ty::F64,
        ];
        let mut skipped = 0;
        for ty in tys {
            let mut k = kernel();
            let (x, y, w) = (k.new_var(ty), k.new_var(ty), k.new_var(Ty::U64));
            let d = k.new_var(ty);
            let f = Folder::new(&k.vars);
            let mut env = Env::new(k.vars.len());
            // Facts that `simplify` reads (a widened value) must not matter either.
            env.widen(w, x);
            let c = Operand::Const(int_const(ty, 1));
            let mut insts = vec![];
            for op in bins {
                for (a, b) in [(x.into(), y.into()), (x.into(), x.into()), (x.into(), c)] {
                    insts.push(Inst::Binary { dst: d, op, a, b });
                }
            }
            for op in uns {
                insts.push(Inst::Unary {
                    dst: d,
                    op,
                    a: x.into(),
                });
            }
            for (a, b) in [(x.into(), c), (c, c)] {
                insts.push(Inst::Fma {
                    dst: d,
                    a,
                    b,
                    c: y.into(),
                });
                insts.push(Inst::Fma {
                    dst: d,
                    a: c,
                    b: c,
                    c: a,
                });
                insts.push(Inst::Fma { dst: d, a, b, c });
            }
            for i in &insts {
                if !may_simplify(i) {
                    skipped += 1;
                    assert_eq!(f.simplify(i, &env), None, "{i:?}");
                }
            }
        }
        assert!(skipped > 200, "{skipped}");
    }

    #[test]
    fn narrowing_a_widened_value_gives_it_back() {
        let mut k = kernel();
        let p = param(&mut k, "p", Ty::U64);
        let x = param(&mut k, "x", Ty::I32);
        let (w, y, z) = (k.new_var(Ty::I64), k.new_var(Ty::I32), k.new_var(Ty::U8));
        k.body.0 = vec![
            cast(w, x),
            cast(y, w),
            store(p, y),
            cast(z, w),
            store(p, z),
            bin(x, BinOp::Add, x, i32c(1)),
            cast(y, w),
            store(p, y),
            store(p, x),
        ];
        const_fold(&mut k);
        assert_body(
            &k,
            "
            v2 = cast.i64.i32 v1
            store.global.i32 [v0], v1
            v4 = cast.u8.i64 v2
            store.global.u8 [v0], v4
            v1 = add.i32 v1, 1i32
            v3 = cast.i32.i64 v2
            store.global.i32 [v0], v3
            store.global.i32 [v0], v1
            ",
        );
    }

    #[test]
    fn widened_bounds_checks_become_32_bit() {
        let mut k = kernel();
        let (_, n) = slice(&mut k, "x", 4);
        let i = param(&mut k, "i", Ty::U32);
        let m = param(&mut k, "m", Ty::U32);
        let s = param(&mut k, "s", Ty::I32);
        let (w, l, ws) = (k.new_var(Ty::U64), k.new_var(Ty::U64), k.new_var(Ty::U64));
        k.body.0 = vec![
            cast(w, i),
            cast(l, m),
            check(w, u64c(33)),
            check(w, l),
            // Against a 64-bit length, or from a signed value: unchanged.
            check(w, n),
            cast(ws, s),
            check(ws, u64c(8)),
            check(w, u64c(1 << 40)),
        ];
        const_fold(&mut k);
        assert_body(
            &k,
            "
            v5 = cast.u64.u32 v2
            bounds_check.u32 v2, 33u32 @site0
            bounds_check.u32 v2, v3 @site0
            bounds_check.u64 v5, v1 @site0
            v7 = cast.u64.i32 v4
            bounds_check.u64 v7, 8u64 @site0
            bounds_check.u64 v5, 1099511627776u64 @site0
            ",
        );
    }
}
