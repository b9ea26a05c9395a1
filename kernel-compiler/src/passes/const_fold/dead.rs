//! Dead-value removal for `const_fold` in (usually) one backward walk.
//!
//! [`dce::remove_dead_values`] alternates a use-count sweep (unused values, dead array stores,
//! empty `if`s and loops, stray source markers) with a liveness pass until neither changes
//! anything: on unrolled code that is three walks and two liveness passes per call, the last
//! of each only confirming. [`remove_dead_values`] here does all of those removals inside one
//! liveness pass: an instruction is deleted only when the sweep or the liveness pass would delete
//! it in the code as it is at that moment, so it reaches the same fixed point (deleting dead code
//! never makes other dead code live, so the order of deletions does not matter). Where one of its
//! deletions may have made more code dead than its own walk can see (an `if` or loop emptied
//! inside a loop, whose head liveness was computed with it, or the last load of a local array
//! gone), it finishes with [`dce::remove_dead_values`] itself.

use crate::passes::dce;
use crate::passes::util::same_ignoring_locs;
use crate::passes::varset::VarSet;
use kernel_ir::ir::{Block, Inst, Kernel, LoopId, Operand, Var};
use kernel_ir::props::Props;
use kernel_ir::visit::{for_each_def, for_each_use, walk};

type Live = VarSet;

/// Deletes unused values, dead array stores and empty control flow, to the fixed point
/// [`dce::remove_dead_values`] reaches. Returns whether anything changed. Expects source markers
/// pruned as `util::prune_locs` leaves them, in every block (folding leaves them so).
/// Appends to `dropped` every variable a deleted instruction wrote, and sets `same_arms` when
/// deletions left an `if` with two arms that are the same (folding then dissolves it) or when
/// the deletions are not all known (after a round-based finish). `array_loads`: whether the IR
/// may hold an `array_load` (else no walk counts them; after `sroa` none is left).
pub(super) fn remove_dead_values(
    k: &mut Kernel,
    dropped: &mut Vec<Var>,
    same_arms: &mut bool,
    array_loads: bool,
) -> bool {
    let mut loads = vec![0u32; k.arrays.len()];
    if array_loads && !k.arrays.is_empty() {
        walk(&k.body, &mut |i| {
            if let Inst::ArrayLoad { array, .. } = i {
                loads[array.0 as usize] += 1;
            }
        });
    }
    let mut dv = DeadValues {
        loops: Vec::new(),
        dropped,
        same_arms: false,
        deleted: 0,
        loads,
        changed: false,
        found: false,
        again: false,
        depth: 0,
        path: Vec::new(),
        stale: 0,
        log: None,
    };
    let mut body = std::mem::take(&mut k.body);
    dv.block(&mut body, Live::with_capacity(k.vars.len()), true);
    k.body = body;
    let (again, changed) = (dv.again, dv.changed);
    *same_arms |= dv.same_arms;
    if again {
        let more = dce::remove_dead_values(k);
        // What it deleted is not known: assume the worst.
        *same_arms |= more;
        return more || changed;
    }
    changed
}

struct DeadValues<'d> {
    /// For each enclosing loop, by id: (live after it, live at its head).
    loops: Vec<Option<(Live, Live)>>,
    /// Variables written by deleted instructions.
    dropped: &'d mut Vec<Var>,
    /// Whether deletions left an `if` whose arms are the same.
    same_arms: bool,
    /// Number of instructions deleted so far.
    deleted: usize,
    /// Number of `array_load`s of each local array left in the kernel.
    loads: Vec<u32>,
    changed: bool,
    /// Whether a dead instruction was seen (deleted or not) since this was last cleared: a loop
    /// body's last fixed-point pass that saw none needs no second pass to delete them.
    found: bool,
    /// Whether a deletion may have made code dead that this walk does not see.
    again: bool,
    /// Number of loops around the block being walked.
    depth: usize,
    /// Where the block being walked lies: for each enclosing compound instruction, its index in
    /// its block and which of its blocks (0: `then` or a loop body, 1: `else`).
    path: Path,
    /// Number of deletions so far that a pass without deletions would not have made (emptied
    /// control flow, stores to an array whose last load went), which make liveness smaller.
    stale: usize,
    /// While a loop body's removal pass runs on a guessed head liveness (see [`Guess`]): what it
    /// deleted, to put back if the guess was wrong.
    log: Option<Log>,
}

/// Where a block lies below a loop body: see `DeadValues::path`.
type Path = Vec<(u32, u8)>;

/// Deletions made on a guess, oldest first: for each block compacted, its path below the
/// guessed loop's body and the deleted instructions with their indices before the compaction.
struct Log {
    base: usize,
    entries: Vec<(Path, Vec<(usize, Inst)>)>,
}

/// The walker's counters before a guessed removal pass, to restore when the guess was wrong.
struct Guess {
    dropped: usize,
    deleted: usize,
    loads: Vec<u32>,
    changed: bool,
    same_arms: bool,
    again: bool,
    stale: usize,
}

/// Whether `b` holds nothing but source markers (the sweep's marker pruning empties it).
fn only_locs(b: &Block) -> bool {
    b.0.iter().all(|i| matches!(i, Inst::Loc(_)))
}

/// Whether loop `id`'s body is just `break id` once markers are pruned (a marker in front of
/// the `break` stays).
fn breaks_at_once(b: &Block, id: LoopId) -> bool {
    matches!(b.0.first(), Some(Inst::Break(l)) if *l == id) && only_locs_from(b, 1)
}

fn only_locs_from(b: &Block, from: usize) -> bool {
    b.0[from..].iter().all(|i| matches!(i, Inst::Loc(_)))
}

fn add_use(live: &mut Live, o: Operand) {
    if let Operand::Var(v) = o {
        live.insert(v);
    }
}

impl DeadValues<'_> {
    fn loop_sets(&self, l: LoopId) -> Option<&(Live, Live)> {
        self.loops.get(l.0 as usize).and_then(|x| x.as_ref())
    }

    fn set_loop(&mut self, l: LoopId, sets: (Live, Live)) {
        let i = l.0 as usize;
        if i >= self.loops.len() {
            self.loops.resize(i + 1, None);
        }
        self.loops[i] = Some(sets);
    }

    /// A control-flow instruction emptied by deletions inside it goes too; inside a loop that
    /// may leave the loop's liveness stale (larger than the code's), so another walk must look.
    fn emptied(&mut self) {
        self.stale += 1;
        if self.depth > 0 {
            self.again = true;
        }
    }

    /// Liveness before `b` given liveness after it; deletes dead instructions when `remove`.
    fn block(&mut self, b: &mut Block, mut live: Live, remove: bool) -> Live {
        let mut keep: Option<Vec<bool>> = None;
        let len = b.0.len();
        for n in (0..len).rev() {
            let dead = match &mut b.0[n] {
                Inst::Break(l) => {
                    live = self.loop_sets(*l).map(|x| x.0.clone()).unwrap_or_default();
                    false
                }
                Inst::Continue(l) => {
                    live = self.loop_sets(*l).map(|x| x.1.clone()).unwrap_or_default();
                    false
                }
                Inst::Return => {
                    live = Live::new();
                    false
                }
                Inst::If { then, els, .. } if only_locs(then) && only_locs(els) => true,
                Inst::If { cond, then, els } => {
                    let after = remove.then(|| live.clone());
                    let before = self.deleted;
                    self.path.push((n as u32, 0));
                    let t = self.block(then, live.clone(), remove);
                    self.path.last_mut().expect("pushed").1 = 1;
                    live = self.block(els, live, remove);
                    self.path.pop();
                    match after {
                        Some(after) if then.0.is_empty() && els.0.is_empty() => {
                            self.emptied();
                            live = after;
                            true
                        }
                        _ => {
                            if self.deleted > before && same_ignoring_locs(then, els) {
                                self.same_arms = true;
                            }
                            live.union_with(&t);
                            add_use(&mut live, *cond);
                            false
                        }
                    }
                }
                Inst::For { body, .. } if only_locs(body) => true,
                Inst::For {
                    id,
                    iv,
                    start,
                    end,
                    step,
                    body,
                    ..
                } => {
                    let (id, iv) = (*id, *iv);
                    let after = live.clone();
                    let head = self.settle(id, Some(iv), body, n, &after, remove);
                    if remove && body.0.is_empty() {
                        self.emptied();
                        live = after;
                        true
                    } else {
                        live = head;
                        live.remove(&iv);
                        for o in [*start, *end, *step] {
                            add_use(&mut live, o);
                        }
                        false
                    }
                }
                Inst::Loop { id, body } if breaks_at_once(body, *id) => true,
                Inst::Loop { id, body } => {
                    let id = *id;
                    let after = live.clone();
                    let head = self.settle(id, None, body, n, &after, remove);
                    if remove && breaks_at_once(body, id) {
                        self.emptied();
                        live = after;
                        true
                    } else {
                        live = head;
                        false
                    }
                }
                Inst::ArrayStore { array, .. } if self.loads[array.0 as usize] == 0 => true,
                // The common kinds in one match each (what the general arm below does with
                // three): a pure value is dead unless its destination is live.
                Inst::Loc(_) => false,
                Inst::Binary { dst, a, b, .. } => {
                    let dead = !live.remove(dst);
                    if !dead {
                        add_use(&mut live, *a);
                        add_use(&mut live, *b);
                    }
                    dead
                }
                Inst::Mov { dst, src: a }
                | Inst::Unary { dst, a, .. }
                | Inst::Cast { dst, a }
                | Inst::Bitcast { dst, a }
                | Inst::Load { dst, addr: a, .. } => {
                    let dead = !live.remove(dst);
                    if !dead {
                        add_use(&mut live, *a);
                    }
                    dead
                }
                inst => {
                    // One look at the definitions both decides and kills: a dead value's
                    // definitions are not live, so removing them changes nothing.
                    let mut defs_live = false;
                    for_each_def(inst, |v| defs_live |= live.remove(&v));
                    let dead = !defs_live && inst.props().contains(Props::VALUE);
                    if !dead {
                        for_each_use(inst, |o| add_use(&mut live, o));
                    }
                    dead
                }
            };
            if dead {
                self.found = true;
                if remove {
                    // An emptied `if` or loop writes nothing but a `for`'s induction variable
                    // (what it held was deleted, and recorded, first).
                    let dropped = &mut *self.dropped;
                    for_each_def(&b.0[n], |v| dropped.push(v));
                    self.deleted += 1;
                    if let Inst::ArrayLoad { array, .. } = &b.0[n] {
                        let left = &mut self.loads[array.0 as usize];
                        *left -= 1;
                        if *left == 0 {
                            self.stale += 1;
                            self.again = true;
                        }
                    }
                    keep.get_or_insert_with(|| vec![true; len])[n] = false;
                }
            }
        }
        if let Some(mut keep) = keep {
            self.changed = true;
            self.compact(b, &mut keep);
        }
        live
    }

    /// Liveness at the head of loop `id` (a `for` with induction variable `iv`, else a `loop`),
    /// the instruction at index `n` of its block, computed to its fixed point; deletes dead code
    /// in its body when `remove`.
    ///
    /// The iteration usually settles on its second pass, which only confirms, and a third pass
    /// then deletes. With `remove`, every pass after the first guesses that it is the one that
    /// confirms and deletes as it goes, logging what it deletes: if the head did not settle, or
    /// the pass emptied control flow (which the pass without deletions would not have seen), the
    /// log puts everything back and the iteration goes on as if the pass had deleted nothing.
    fn settle(
        &mut self,
        id: LoopId,
        iv: Option<Var>,
        body: &mut Block,
        n: usize,
        after: &Live,
        remove: bool,
    ) -> Live {
        let mut head = match iv {
            Some(_) => after.clone(),
            None => Live::new(),
        };
        let mut settled = None;
        let mut deleted = false;
        let mut may_guess = remove && self.log.is_none();
        self.depth += 1;
        let mut round = 0;
        while round < 64 {
            self.set_loop(id, (after.clone(), head.clone()));
            let mut out = head.clone();
            if iv.is_some() {
                out.union_with(after);
            }
            self.path.push((n as u32, 0));
            let guess = (may_guess && round > 0).then(|| self.begin_guess());
            let outer = std::mem::replace(&mut self.found, false);
            let body_in = self.block(body, out, guess.is_some());
            self.path.pop();
            let found = self.found;
            self.found |= outer;
            let (next, same) = match iv {
                Some(iv) => {
                    let mut body_in = body_in;
                    body_in.remove(&iv);
                    let mut next = head.clone();
                    next.union_with(&body_in);
                    let same = next == head;
                    (next, same)
                }
                None => {
                    let same = body_in == head;
                    let mut next = body_in;
                    next.union_with(&head);
                    (next, same)
                }
            };
            if let Some(saved) = guess {
                let log = self.log.take().expect("a guessed pass logs");
                let emptied = self.stale != saved.stale;
                if same && !emptied {
                    settled = Some(found);
                    deleted = true;
                    break;
                }
                self.undo(body, log, saved);
                if emptied {
                    // Its liveness is not what the pass without deletions finds: do that one.
                    may_guess = false;
                    continue;
                }
            }
            if same {
                settled = Some(found);
                break;
            }
            head = next;
            round += 1;
        }
        self.set_loop(id, (after.clone(), head.clone()));
        if settled.is_none() {
            self.again = true;
        }
        if !deleted && needs_last_pass(settled, remove) {
            let mut out = head.clone();
            if iv.is_some() {
                out.union_with(after);
            }
            self.path.push((n as u32, 0));
            self.block(body, out, remove);
            self.path.pop();
        }
        self.depth -= 1;
        head
    }

    /// Starts logging deletions below the loop body whose path was just pushed.
    fn begin_guess(&mut self) -> Guess {
        self.log = Some(Log {
            base: self.path.len(),
            entries: Vec::new(),
        });
        Guess {
            dropped: self.dropped.len(),
            deleted: self.deleted,
            loads: self.loads.clone(),
            changed: self.changed,
            same_arms: self.same_arms,
            again: self.again,
            stale: self.stale,
        }
    }

    /// Puts back what a wrong guess deleted in `body`, newest deletions first (each block's
    /// path is valid once the blocks around it are whole again), and the counters.
    fn undo(&mut self, body: &mut Block, log: Log, saved: Guess) {
        for (path, mut removed) in log.entries.into_iter().rev() {
            let mut b = &mut *body;
            for &(i, arm) in &path {
                b = match &mut b.0[i as usize] {
                    Inst::If { then, els, .. } => {
                        if arm == 0 {
                            then
                        } else {
                            els
                        }
                    }
                    Inst::For { body, .. } | Inst::Loop { body, .. } => body,
                    _ => unreachable!("a logged path leads through control flow"),
                };
            }
            removed.sort_unstable_by_key(|(i, _)| *i);
            for (i, inst) in removed {
                b.0.insert(i, inst);
            }
        }
        self.dropped.truncate(saved.dropped);
        self.deleted = saved.deleted;
        self.loads = saved.loads;
        self.changed = saved.changed;
        self.same_arms = saved.same_arms;
        self.again = saved.again;
        self.stale = saved.stale;
    }

    /// Deletes the instructions `keep` marks off and then the markers left covering nothing
    /// (as `util::prune_locs` does), logging them while a guess is on.
    fn compact(&mut self, b: &mut Block, keep: &mut [bool]) {
        // A kept marker goes unless the next kept instruction is code.
        let mut code_next = false;
        for (k, inst) in keep.iter_mut().zip(&b.0).rev() {
            if *k {
                let marker = matches!(inst, Inst::Loc(_));
                if marker && !code_next {
                    *k = false;
                }
                code_next = !marker;
            }
        }
        match &mut self.log {
            None => {
                let mut it = keep.iter();
                b.0.retain(|_| it.next().copied().unwrap_or(true));
            }
            Some(log) => {
                // The deleted instructions are taken out in one loop over the flags (a
                // placeholder left in their place), then the block is compacted as above:
                // `extract_if` zipped with the deleted indices went through `Vec`'s generic
                // `extend`, about 40 instructions per instruction of the block.
                let mut removed = Vec::with_capacity(keep.iter().filter(|k| !**k).count());
                for (i, k) in keep.iter().enumerate() {
                    if !*k {
                        removed.push((i, std::mem::replace(&mut b.0[i], Inst::Return)));
                    }
                }
                let mut it = keep.iter();
                b.0.retain(|_| it.next().copied().unwrap_or(true));
                log.entries.push((self.path[log.base..].to_vec(), removed));
            }
        }
    }
}

/// Whether a loop body needs its pass with the settled head: not when the fixed-point
/// iteration settled (`Some(found)`) and that pass would delete nothing (`remove` off, or no
/// dead instruction seen in the last iteration, which computed exactly the same liveness).
fn needs_last_pass(settled: Option<bool>, remove: bool) -> bool {
    match settled {
        Some(found) => remove && found,
        None => true,
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::passes::testkit::*;
    use crate::passes::util::prune_locs;
    use kernel_ir::ir::{BinOp, LocalArray, SourceLoc, Ty, Unroll, Var};

    /// Random structured code full of what dead-value removal looks at: values read or not,
    /// temporaries overwritten, local array loads and stores, branches and loops that become
    /// empty, `break`/`continue`, source markers.
    pub(in crate::passes::const_fold) fn random_kernel(seed: u64) -> Kernel {
        let mut k = kernel();
        let p = param(&mut k, "p", Ty::U64);
        let x = param(&mut k, "x", Ty::U32);
        k.arrays.push(LocalArray {
            elem: Ty::U32,
            len: 8,
        });
        k.arrays.push(LocalArray {
            elem: Ty::U32,
            len: 8,
        });
        let mut vars: Vec<Var> = vec![x];
        vars.extend((0..8).map(|_| k.new_var(Ty::U32)));
        let mut g = RandomCode {
            seed: seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1,
            k,
            vars,
            p,
            loops: vec![],
        };
        let mut body = g.block(0);
        if g.rnd(2) == 0 {
            let v = g.operand();
            body.push(store(p, v));
        }
        let mut k = g.k;
        k.body.0 = body;
        // As folding leaves them (the removal's precondition): no marker without code after it.
        prune_all(&mut k.body);
        k
    }

    fn prune_all(b: &mut Block) {
        prune_locs(b);
        for i in &mut b.0 {
            match i {
                Inst::If { then, els, .. } => {
                    prune_all(then);
                    prune_all(els);
                }
                Inst::For { body, .. } | Inst::Loop { body, .. } => prune_all(body),
                _ => {}
            }
        }
    }

    struct RandomCode {
        seed: u64,
        k: Kernel,
        vars: Vec<Var>,
        p: Var,
        loops: Vec<LoopId>,
    }

    impl RandomCode {
        fn rnd(&mut self, m: u64) -> u64 {
            crate::passes::testkit::next_below(&mut self.seed, m)
        }
        fn var(&mut self) -> Var {
            let i = self.rnd(self.vars.len() as u64) as usize;
            self.vars[i]
        }
        fn operand(&mut self) -> Operand {
            if self.rnd(5) == 0 {
                u32c(self.rnd(4) as u32)
            } else {
                self.var().into()
            }
        }
        fn block(&mut self, depth: u32) -> Vec<Inst> {
            let mut out = vec![];
            for _ in 0..self.rnd(6) {
                self.stmt(depth, &mut out);
            }
            out
        }
        fn stmt(&mut self, depth: u32, out: &mut Vec<Inst>) {
            let loc = Inst::Loc(SourceLoc {
                file: "k.rs",
                line: self.rnd(100) as u32,
                col: 1,
            });
            match self.rnd(if depth < 3 { 14 } else { 9 }) {
                0..=2 => {
                    let (d, a, b) = (self.var(), self.operand(), self.operand());
                    out.push(bin(d, BinOp::Add, a, b));
                }
                3 => {
                    let (d, a) = (self.var(), self.operand());
                    out.push(mov(d, a));
                }
                4 => {
                    let v = self.operand();
                    out.push(store(self.p, v));
                }
                5 => {
                    let (a, i, v) = (self.rnd(2) as u32, self.rnd(8) as u32, self.operand());
                    out.push(astore(a, u32c(i), v));
                }
                6 => {
                    let (d, a, i) = (self.var(), self.rnd(2) as u32, self.rnd(8) as u32);
                    out.push(aload(d, a, u32c(i)));
                }
                7 | 8 => out.push(loc),
                9 | 10 => {
                    let c = self.k.new_var(Ty::Bool);
                    let (a, b) = (self.operand(), self.operand());
                    out.push(bin(c, BinOp::Lt, a, b));
                    let mut then = self.block(depth + 1);
                    if !self.loops.is_empty() && self.rnd(3) == 0 {
                        let i = self.rnd(self.loops.len() as u64) as usize;
                        let l = self.loops[i];
                        then.push(if self.rnd(2) == 0 {
                            Inst::Break(l)
                        } else {
                            Inst::Continue(l)
                        });
                    }
                    let els = self.block(depth + 1);
                    out.push(if_(c, then, els));
                }
                11 | 12 => {
                    let iv = self.k.new_var(Ty::U32);
                    let id = self.k.new_loop();
                    self.loops.push(id);
                    self.vars.push(iv);
                    let body = self.block(depth + 1);
                    self.vars.pop();
                    self.loops.pop();
                    let end = self.operand();
                    out.push(Inst::For {
                        id,
                        iv,
                        start: u32c(0),
                        end,
                        inclusive: false,
                        step: u32c(1),
                        reverse: false,
                        body: Block(body),
                        unroll: Unroll::Never,
                    });
                }
                _ => {
                    let id = self.k.new_loop();
                    self.loops.push(id);
                    let mut body = self.block(depth + 1);
                    self.loops.pop();
                    if self.rnd(3) == 0 {
                        body.insert(0, Inst::Break(id));
                    } else {
                        body.push(Inst::Break(id));
                    }
                    if self.rnd(2) == 0 {
                        body.push(loc);
                    }
                    out.push(Inst::Loop {
                        id,
                        body: Block(body),
                    });
                }
            }
        }
    }

    /// The one-walk removal reaches exactly the fixed point of the round-based one.
    #[test]
    fn matches_round_based_removal() {
        let mut changed = 0;
        for seed in 0..3000 {
            let k = random_kernel(seed);
            let (mut a, mut b) = (k.clone(), k.clone());
            let ra = remove_dead_values(&mut a, &mut Vec::new(), &mut false, true);
            let rb = dce::remove_dead_values(&mut b);
            assert_eq!(ra, rb, "seed {seed}\n{}", text(&k));
            assert_eq!(a.body, b.body, "seed {seed}\n{}", text(&k));
            changed += ra as usize;
        }
        assert!(changed > 1000, "{changed}");
    }
}
