//! Speculation of pure code out of `if`s without an `else`: an instruction that cannot fault
//! and whose result is dead after the `if` runs before the `if` instead of inside it.
//!
//! Why: ptxas turns a small `if` into predicated instructions and then schedules across it (a
//! tile's row loads overlap), but not an `if` holding a row's whole address arithmetic and
//! bounds bookkeeping. Moving that arithmetic out leaves the guarded accesses and the few
//! values that outlive the `if`, which ptxas does predicate. It also stops predicated address
//! arithmetic from hiding zero-extensions from ptxas (a guarded `cvt.u64.u32` may leave the
//! register's old high half, so every 64-bit multiply after it stays a full one).
//!
//! Exact: a hoisted instruction reads the values it read inside the `if` (nothing kept inside
//! before it writes its operands), writes a variable nothing reads after the `if` nor inside it
//! before its position, and is not the condition. Loads, integer division by a variable,
//! intrinsics, checks and control flow stay inside.

use super::split_webs::{for_each_read, has_jump, live_after_each};
use super::util::{can_panic, pure_def};
use super::varset::VarSet;
use kernel_ir::ir::{Block, Inst, Kernel, LoopId, Operand, SourceLoc, Space, Var};
use kernel_ir::props::Props;
use kernel_ir::visit::{for_each_def, for_each_use, is_compound, walk, walk_inst};

/// Returns whether anything was hoisted.
pub fn speculate(k: &mut Kernel) -> bool {
    let mut cx = Cx {
        anywhere: VarSet::with_capacity(k.vars.len()),
        loops: Vec::new(),
        seen: Vec::new(),
    };
    cx.scan(&k.body, None);
    let mut body = std::mem::take(&mut k.body);
    let changed = block(k, &mut body, &VarSet::new(), &cx);
    k.body = body;
    changed
}

fn speculable(inst: &Inst) -> Option<Var> {
    pure_def(inst).filter(|_| !matches!(inst, Inst::Intrinsic { .. }))
}

/// What liveness needs of the whole kernel, from one walk: every variable read anywhere, and for
/// each loop what its body reads (nested code included) and whether it holds a jump or return.
/// Liveness at every level asked for both by walking the loop again; this pass only changes a
/// loop after the liveness around it is computed, so one walk up front sees the same code.
struct Cx {
    anywhere: VarSet,
    /// By `LoopId`; `None` for an id seen twice (its loops are walked when asked about).
    loops: Vec<Option<(VarSet, bool)>>,
    seen: Vec<bool>,
}

impl Cx {
    /// Adds what `b` reads to `anywhere` and to `acc` (the innermost enclosing loop's entry).
    fn scan(&mut self, b: &Block, mut acc: Option<&mut (VarSet, bool)>) {
        for inst in &b.0 {
            for_each_use(inst, |o| {
                if let Operand::Var(v) = o {
                    self.anywhere.insert(v);
                    if let Some(a) = acc.as_deref_mut() {
                        a.0.insert(v);
                    }
                }
            });
            match inst {
                Inst::Break(_) | Inst::Continue(_) | Inst::Return => {
                    if let Some(a) = acc.as_deref_mut() {
                        a.1 = true;
                    }
                }
                Inst::If { then, els, .. } => {
                    self.scan(then, acc.as_deref_mut());
                    self.scan(els, acc.as_deref_mut());
                }
                Inst::For { id, body, .. } | Inst::Loop { id, body } => {
                    let mut inner = (VarSet::new(), false);
                    self.scan(body, Some(&mut inner));
                    if let Some(a) = acc.as_deref_mut() {
                        a.0.union_with(&inner.0);
                        a.1 |= inner.1;
                    }
                    let at = id.0 as usize;
                    if at >= self.loops.len() {
                        self.loops.resize(at + 1, None);
                        self.seen.resize(at + 1, false);
                    }
                    let again = std::mem::replace(&mut self.seen[at], true);
                    self.loops[at] = (!again).then_some(inner);
                }
                _ => {}
            }
        }
    }

    /// What the body of loop `id` reads, and whether it jumps or returns.
    fn body_of(&self, id: LoopId) -> Option<&(VarSet, bool)> {
        self.loops.get(id.0 as usize)?.as_ref()
    }

    /// `split_webs::transfer`, with each loop's reads and jumps from the walk up front.
    fn transfer(&self, inst: &Inst, live: &mut VarSet) {
        match inst {
            // A guarded access: what is live on either path is what is live after it and
            // what the one instruction reads (no copy of the set).
            Inst::If { cond, then, els }
                if els.0.is_empty()
                    && matches!(then.0.as_slice(), [i] if !matches!(
                        i,
                        Inst::If { .. }
                            | Inst::For { .. }
                            | Inst::Loop { .. }
                            | Inst::Break(_)
                            | Inst::Continue(_)
                    )) =>
            {
                for_each_use(&then.0[0], |o| {
                    if let Operand::Var(v) = o {
                        live.insert(v);
                    }
                });
                if let Operand::Var(v) = cond {
                    live.insert(*v);
                }
            }
            Inst::If { cond, then, els } => {
                let mut e = live.clone();
                self.live_through(els, &mut e);
                self.live_through(then, live);
                live.union_with(&e);
                if let Operand::Var(v) = cond {
                    live.insert(*v);
                }
            }
            Inst::For { id, .. } | Inst::Loop { id, .. } => {
                for_each_use(inst, |o| {
                    if let Operand::Var(v) = o {
                        live.insert(v);
                    }
                });
                match self.body_of(*id) {
                    Some((reads, jumps)) => {
                        live.union_with(reads);
                        if *jumps {
                            live.union_with(&self.anywhere);
                        }
                    }
                    None => {
                        for_each_read(inst, |v| {
                            live.insert(v);
                        });
                        if has_jump(inst) {
                            live.union_with(&self.anywhere);
                        }
                    }
                }
            }
            Inst::Break(_) | Inst::Continue(_) => live.assign(&self.anywhere),
            Inst::Return => live.clear(),
            Inst::Panic { .. } => {
                live.clear();
                for_each_use(inst, |o| {
                    if let Operand::Var(v) = o {
                        live.insert(v);
                    }
                });
            }
            _ => plain_transfer(inst, live),
        }
    }

    fn live_through(&self, b: &Block, live: &mut VarSet) {
        for inst in b.0.iter().rev() {
            self.step(inst, live);
        }
    }

    /// [`Cx::transfer`], with straight-line instructions (most of a block) handled here
    /// rather than through the call.
    #[inline(always)]
    fn step(&self, inst: &Inst, live: &mut VarSet) {
        match inst {
            Inst::Loc(_) => {}
            _ if inst.props().intersects(Props::CONTROL) => self.transfer(inst, live),
            _ => plain_transfer(inst, live),
        }
    }

    /// The variables live after each `if` and loop of `b`, in block order: one set per nested
    /// construct rather than one (mostly empty) per instruction, which cost a set made and
    /// dropped for each of the thousands of instructions of an unrolled loop body.
    fn live_after(&self, b: &Block, live_out: &VarSet) -> Vec<VarSet> {
        let mut out = Vec::new();
        let mut live = live_out.clone();
        for inst in b.0.iter().rev() {
            if matches!(inst, Inst::If { .. } | Inst::For { .. } | Inst::Loop { .. }) {
                out.push(live.clone());
            }
            self.step(inst, &mut live);
        }
        out.reverse();
        out
    }
}

/// Liveness across a straight-line instruction: its last result dies (intrinsics keep their
/// results live, as `split_webs` has it), what it reads lives.
#[inline(always)]
fn plain_transfer(inst: &Inst, live: &mut VarSet) {
    // The common forms by hand: LLVM keeps `for_each_use` out of line here, a call per
    // instruction of every block whose liveness is asked for.
    let read = |live: &mut VarSet, o: Operand| {
        if let Operand::Var(v) = o {
            live.insert(v);
        }
    };
    match *inst {
        Inst::Binary { dst, a, b, .. } => {
            live.remove(&dst);
            read(live, a);
            return read(live, b);
        }
        Inst::Mov { dst, src: a }
        | Inst::Unary { dst, a, .. }
        | Inst::Cast { dst, a }
        | Inst::Bitcast { dst, a, .. }
        | Inst::Load { dst, addr: a, .. } => {
            live.remove(&dst);
            return read(live, a);
        }
        Inst::Fma { dst, a, b, c, .. }
        | Inst::Select {
            dst,
            cond: a,
            a: b,
            b: c,
        } => {
            live.remove(&dst);
            read(live, a);
            read(live, b);
            return read(live, c);
        }
        Inst::Store { addr, val, .. } => {
            read(live, addr);
            return read(live, val);
        }
        _ => {}
    }
    if !matches!(inst, Inst::Intrinsic { .. }) {
        let mut d = None;
        for_each_def(inst, |v| d = Some(v));
        if let Some(d) = d {
            live.remove(&d);
        }
    }
    for_each_use(inst, |o| {
        if let Operand::Var(v) = o {
            live.insert(v);
        }
    });
}

fn block(k: &mut Kernel, b: &mut Block, live_out: &VarSet, cx: &Cx) -> bool {
    // Without nested control there is nothing to hoist or dissolve, and no liveness is needed:
    // most blocks are the one-access branches of guarded loads and stores.
    if !b.0.iter().any(is_compound) {
        return sink_stores(&mut b.0);
    }
    let live_after = cx.live_after(b, live_out);
    // Debug builds (the tests' random programs included) check the cached liveness against the
    // walking one it replaces.
    debug_assert!(
        live_after
            == live_after_each(b, live_out, &cx.anywhere, |i| { is_compound(i) })
                .into_iter()
                .flatten()
                .collect::<Vec<_>>()
    );
    // `live_after` of the nested constructs, taken in order as the walk meets them.
    let mut nested_live = live_after.iter();
    let mut changed = false;
    // The source marker in force at the current point of this block, if the block set one.
    let mut cur_loc: Option<SourceLoc> = None;
    // What replaces an `if` (hoisted code, then the `if` or its flat form), spliced in at the
    // end: most blocks change nowhere and are not moved at all.
    let mut splices: Vec<(usize, Vec<Inst>)> = Vec::new();
    let empty = VarSet::new();
    for (i, inst) in b.0.iter_mut().enumerate() {
        let live_after = match inst {
            Inst::If { .. } | Inst::For { .. } | Inst::Loop { .. } => {
                nested_live.next().expect("a live set per nested construct")
            }
            _ => &empty,
        };
        match &mut *inst {
            Inst::If { then, els, .. } => {
                changed |= block(k, then, live_after, cx);
                changed |= block(k, els, live_after, cx);
            }
            Inst::For { id, body, .. } | Inst::Loop { id, body } => {
                let mut o = live_after.clone();
                match cx.body_of(*id) {
                    Some((reads, _)) => o.union_with(reads),
                    None => walk(body, &mut |x| {
                        for_each_use(x, |u| {
                            if let Operand::Var(v) = u {
                                o.insert(v);
                            }
                        })
                    }),
                }
                changed |= block(k, body, &o, cx);
            }
            Inst::Loc(l) => cur_loc = Some(*l),
            _ => {}
        }
        if let Inst::If { cond, then, els } = &mut *inst {
            if els.0.is_empty() && !then.0.iter().any(has_jump) && !can_panic(then) {
                let cond = *cond;
                // A straight-line `if` that keeps its branch keeps its arithmetic too: hoisted,
                // the addresses of a long body (a 17-tap filter's) are all live across the
                // branch, and ptxas, which does not sink them back, spends registers (occupancy)
                // on them. (A body holding a loop still gives up its loop-invariant set-up.)
                if keeps_branch(then) && !then.0.iter().any(has_loop) {
                    continue;
                }
                let hoisted = hoist(then, cond, live_after);
                let mut seq = Vec::new();
                if !hoisted.is_empty() {
                    changed = true;
                    seq = hoisted;
                }
                if then.0.is_empty() {
                    splices.push((i, seq));
                    continue;
                }
                // One access under `cond` is its own flat form.
                if !already_flat(then, live_after)
                    && flattening_stays_linear(then)
                    && accesses(then) <= MAX_DISSOLVED_ACCESSES
                {
                    if let Some(flat) = dissolve(k, cond, then, live_after, cur_loc) {
                        changed = true;
                        seq.extend(flat);
                        splices.push((i, seq));
                        continue;
                    }
                }
                if !seq.is_empty() {
                    seq.push(std::mem::replace(inst, Inst::Return));
                    splices.push((i, seq));
                }
            }
        }
    }
    if !splices.is_empty() {
        let added: usize = splices.iter().map(|(_, s)| s.len()).sum();
        let old = std::mem::take(&mut b.0);
        b.0.reserve(old.len() + added);
        let mut next = splices.into_iter().peekable();
        for (at, inst) in old.into_iter().enumerate() {
            match next.next_if(|(s, _)| *s == at) {
                Some((_, seq)) => b.0.extend(seq),
                None => b.0.push(inst),
            }
        }
    }
    changed |= sink_stores(&mut b.0);
    changed
}

/// The longest body holding merges (`x = c ? t : x`) that [`dissolve`] flattens again (the
/// registry's longest is 32 instructions, `corpus_compact_scatter`'s edge tests).
const MAX_REFLATTENED: usize = 64;

/// The most memory accesses an `if` [`dissolve`] flattens holds. Flat, every access is a
/// guarded instruction (a load also a zero in front) that a thread outside the condition still
/// issues; a long body (a filter's 25 taps under `if x < w && y < h`) runs faster behind one
/// branch, which ptxas schedules across as well once the body is straight-line code.
const MAX_DISSOLVED_ACCESSES: usize = 8;

/// Whether [`dissolve`] would leave `then` behind its branch whatever it holds besides pure
/// code (more accesses than [`MAX_DISSOLVED_ACCESSES`], or a flattening that would compound).
fn keeps_branch(then: &Block) -> bool {
    accesses(then) > MAX_DISSOLVED_ACCESSES || !flattening_stays_linear(then)
}

/// Whether `inst` is or holds a loop.
fn has_loop(inst: &Inst) -> bool {
    let mut found = false;
    walk_inst(inst, &mut |i| {
        found |= matches!(i, Inst::For { .. } | Inst::Loop { .. })
    });
    found
}

/// The loads and stores in `b`, nested ones included.
fn accesses(b: &Block) -> usize {
    let mut n = 0;
    walk(b, &mut |i| {
        n += matches!(
            i,
            Inst::Load { .. }
                | Inst::Store { .. }
                | Inst::ArrayLoad { .. }
                | Inst::ArrayStore { .. }
        ) as usize
    });
    n
}

/// Whether flattening `then` cannot compound. [`dissolve`] turns each value a body computes into
/// a computation and a merge, two instructions for one; flattening the enclosing `if` then does
/// the same to those merges, so `n` nested `if`s that each flatten grew as 2^n (30 levels of
/// `if x[i] > 0 { .. }`: billions of instructions). A body without merges (one the source wrote,
/// of any length) is flattened once; one that holds merges, the output of an earlier flattening,
/// only while short: past that the `if` stays, and so does every `if` around it (an `if` in the
/// body is not flattened).
fn flattening_stays_linear(then: &Block) -> bool {
    then.0.len() <= MAX_REFLATTENED
        || !then
            .0
            .iter()
            .any(|i| matches!(i, Inst::Select { dst, b: Operand::Var(v), .. } if dst == v))
}

/// Whether `then` is one access that [`dissolve`] would give back as it is: a store, or a load
/// whose destination dies with the `if`.
fn already_flat(then: &Block, live_after: &VarSet) -> bool {
    match then.0.as_slice() {
        [Inst::Store { .. } | Inst::ArrayStore { .. }] => true,
        [Inst::Load { dst, .. } | Inst::ArrayLoad { dst, .. }] => !live_after.contains(dst),
        _ => false,
    }
}

/// The space a plain or guarded store writes, with everything it reads.
fn store_of(inst: &Inst) -> Option<Space> {
    match inst {
        Inst::Store { space, .. } => Some(*space),
        Inst::If { then, els, .. } if els.0.is_empty() => match then.0.as_slice() {
            [Inst::Store { space, .. }] => Some(*space),
            _ => None,
        },
        _ => None,
    }
}

/// The variables a [`store_of`] instruction reads: its guard, address and value.
fn store_reads(inst: &Inst) -> [Option<Var>; 3] {
    let var = |o: &Operand| match o {
        Operand::Var(v) => Some(*v),
        Operand::Const(_) => None,
    };
    let (guard, store) = match inst {
        Inst::If { cond, then, .. } => (var(cond), then.0.first()),
        _ => (None, Some(inst)),
    };
    match store {
        Some(Inst::Store { addr, val, .. }) => [guard, var(addr), var(val)],
        _ => [guard, None, None],
    }
}

/// The space a plain or guarded load (`if g { x = load } else { x = 0 }`) reads.
fn load_of(inst: &Inst) -> Option<Space> {
    match inst {
        Inst::Load { space, .. } => Some(*space),
        Inst::If { then, els, .. } => match (then.0.as_slice(), els.0.as_slice()) {
            ([Inst::Load { space, .. }], [] | [Inst::Mov { .. }]) => Some(*space),
            _ => None,
        },
        _ => None,
    }
}

/// Moves stores below the pure code and the loads of the other memory space that follow them,
/// so a tile's loads (global) come before its stores (shared): ptxas keeps stores and loads
/// nearly in program order, and a store waiting for its row's load then holds back the next
/// row's load. A store never passes another store, a load of its own space, or anything that
/// writes what it reads; global and shared memory never overlap, so the order of the accesses
/// to each space, and every value stored, are unchanged.
fn sink_stores(b: &mut Vec<Inst>) -> bool {
    // Only a store with something after it can move.
    let len = b.len();
    if !b
        .iter()
        .enumerate()
        .any(|(i, x)| i + 1 < len && store_of(x).is_some())
    {
        return false;
    }
    let mut changed = false;
    // Last instruction first. What follows the current one is kept as a stack (`after`, the
    // next instruction on top) of positions: a store moves only a few places, so it is placed
    // by popping and pushing those few. Positions `len..` are the markers a store takes along
    // (in `extra`). The instructions themselves move once, into the final order, and only
    // when something moved.
    let mut extra: Vec<Inst> = Vec::new();
    let mut after: Vec<u32> = Vec::with_capacity(len + 8);
    let mut moved: Vec<u32> = Vec::new();
    for i in (0..len).rev() {
        let Some(space) = store_of(&b[i]) else {
            after.push(i as u32);
            continue;
        };
        let at = |e: u32| -> &Inst {
            let e = e as usize;
            if e < len {
                &b[e]
            } else {
                &extra[e - len]
            }
        };
        // The source marker in force at the store, if this block set one: a store may pass
        // other markers only then (it takes its own along, and the last one passed is put back).
        let own = b[..i]
            .iter()
            .rev()
            .find(|x| matches!(x, Inst::Loc(_)))
            .cloned();
        let r = store_reads(&b[i]);
        // How many of the following instructions the store passes.
        let mut passes = 0;
        let mut passed: Option<Inst> = None;
        while passes < after.len() {
            let next = at(after[after.len() - 1 - passes]);
            let is_loc = matches!(next, Inst::Loc(_));
            // Pure code (whose one result is all it writes), markers (which write nothing) and
            // the other space's loads are passed unless they write what the store reads.
            let passes_next = if let Some(d) = speculable(next) {
                !r.contains(&Some(d))
            } else if is_loc {
                own.is_some()
            } else if load_of(next).is_some_and(|s| !s.may_alias(space)) {
                let mut writes = false;
                for_each_def(next, |v| writes |= r.contains(&Some(v)));
                for c in kernel_ir::visit::blocks(next) {
                    walk(c, &mut |x| {
                        for_each_def(x, |v| writes |= r.contains(&Some(v)))
                    });
                }
                !writes
            } else {
                false
            };
            if !passes_next {
                break;
            }
            if is_loc {
                passed = Some(next.clone());
            }
            passes += 1;
        }
        // The passed instructions, last one first, go back on top of the store.
        moved.clear();
        moved.extend(after.drain(after.len() - passes..));
        match (own, passed) {
            // `own, store, passed` in place of the store.
            (Some(own), Some(passed)) => {
                let p = (len + extra.len()) as u32;
                extra.push(passed);
                extra.push(own);
                after.extend([p, i as u32, p + 1]);
            }
            _ => after.push(i as u32),
        }
        after.extend_from_slice(&moved);
        changed |= passes != 0;
    }
    if !changed {
        return false;
    }
    // `after`, read from its end, is the final order of the positions (markers taken along
    // included, once appended): a permutation, applied in place one cycle at a time, so each
    // instruction is swapped to where it goes with no placeholder left to drop.
    b.append(&mut extra);
    let n = b.len();
    debug_assert_eq!(after.len(), n);
    let mut done = vec![false; n];
    for start in 0..n {
        if done[start] {
            continue;
        }
        let mut cur = start;
        loop {
            done[cur] = true;
            let from = after[n - 1 - cur] as usize;
            if from == start {
                break;
            }
            b.swap(cur, from);
            cur = from;
        }
    }
    true
}

/// What is left of an `if c` after hoisting, as straight-line code, when it is only guarded
/// accesses and values that outlive the `if`: a guarded access `if g { .. }` becomes
/// `if c && g { .. }` (a guarded load's `else` zero only lands where its destination is dead
/// after the `if`), an unguarded one `if c { .. }`, and `x = f(..)` becomes
/// `t = f(..); x = c ? t : x`. None when anything else is left or a branch assigns `c`.
fn dissolve(
    k: &mut Kernel,
    c: Operand,
    then: &Block,
    live_after: &VarSet,
    cur_loc: Option<SourceLoc>,
) -> Option<Vec<Inst>> {
    let mut out = Vec::new();
    let mut had_loc = false;
    for inst in &then.0 {
        // Source markers stay with the code they cover; the block's own marker is put back after
        // (or, when the block inherited its marker, the inner ones are dropped).
        if matches!(inst, Inst::Loc(_)) {
            had_loc = true;
            if cur_loc.is_some() {
                out.push(inst.clone());
            }
            continue;
        }
        let mut writes_c = false;
        for_each_def(inst, |v| writes_c |= Operand::Var(v) == c);
        for ch in kernel_ir::visit::blocks(inst) {
            walk(ch, &mut |x| {
                for_each_def(x, |v| writes_c |= Operand::Var(v) == c)
            });
        }
        if writes_c {
            return None;
        }
        let guarded = |k: &mut Kernel, g: Option<Operand>, out: &mut Vec<Inst>| -> Operand {
            match g {
                None => c,
                // `c ? g : false`: `g` may only have been computed under `c`.
                Some(g) => {
                    let t = k.new_var(kernel_ir::ir::Ty::Bool);
                    out.push(Inst::Select {
                        dst: t,
                        cond: c,
                        a: g,
                        b: kernel_ir::ir::Const::bool(false).into(),
                    });
                    t.into()
                }
            }
        };
        match inst {
            Inst::If {
                cond: g,
                then: t,
                els: e,
            } if access(t) && (e.0.is_empty() || zero_of(e, t, live_after)) => {
                let g = guarded(k, Some(*g), &mut out);
                out.push(Inst::If {
                    cond: g,
                    then: t.clone(),
                    els: e.clone(),
                });
            }
            Inst::Store { .. } | Inst::ArrayStore { .. } => {
                out.push(Inst::If {
                    cond: c,
                    then: Block(vec![inst.clone()]),
                    els: Block::default(),
                });
            }
            // Skipped when `c` is false, as before; its destination is dead after the `if`, and
            // what follows here only reads it under `c` (selects and guarded accesses).
            Inst::Load { dst, .. } | Inst::ArrayLoad { dst, .. } if !live_after.contains(dst) => {
                out.push(Inst::If {
                    cond: c,
                    then: Block(vec![inst.clone()]),
                    els: Block::default(),
                });
            }
            // Dead after the `if`: read only by what follows here, which only uses it under
            // `c`, so computing it when `c` is false changes nothing and needs no merge.
            _ if speculable(inst).is_some_and(|x| !live_after.contains(&x)) => {
                out.push(inst.clone());
            }
            _ => {
                let x = speculable(inst)?;
                let t = k.new_var(k.ty(x));
                let mut copy = inst.clone();
                kernel_ir::visit::for_each_def_mut(&mut copy, |d| *d = t);
                out.push(copy);
                out.push(Inst::Select {
                    dst: x,
                    cond: c,
                    a: t.into(),
                    b: x.into(),
                });
            }
        }
    }
    if had_loc {
        if let Some(l) = cur_loc {
            out.push(Inst::Loc(l));
        }
    }
    Some(out)
}

/// A block that is one load or store.
fn access(b: &Block) -> bool {
    matches!(
        b.0.as_slice(),
        [
            Inst::Load { .. }
                | Inst::Store { .. }
                | Inst::ArrayLoad { .. }
                | Inst::ArrayStore { .. }
        ]
    )
}

/// Whether `e` is the `else` of a guarded load in `t`: it zeroes the load's destination, which is
/// dead after the enclosing `if`.
fn zero_of(e: &Block, t: &Block, live_after: &VarSet) -> bool {
    match (e.0.as_slice(), t.0.as_slice()) {
        (
            [Inst::Mov {
                dst: z,
                src: Operand::Const(_),
            }],
            [Inst::Load { dst, .. } | Inst::ArrayLoad { dst, .. }],
        ) => z == dst && !live_after.contains(dst),
        _ => false,
    }
}

/// Takes the hoistable instructions out of `then`, in order.
fn hoist(then: &mut Block, cond: Operand, live_after: &VarSet) -> Vec<Inst> {
    // Most `if`s are one guarded access, which never moves: no sets, no rebuilt block.
    if !then.0.iter().any(|i| speculable(i).is_some()) {
        return Vec::new();
    }
    let mut hoisted = Vec::new();
    let mut kept = Vec::new();
    // Variables written, and variables read or written, by instructions that stay.
    let mut kept_defs = VarSet::new();
    let mut kept_touch = VarSet::new();
    for inst in std::mem::take(&mut then.0) {
        let movable = speculable(&inst).is_some_and(|d| {
            !live_after.contains(&d) && cond != Operand::Var(d) && !kept_touch.contains(&d) && {
                let mut disjoint = true;
                for_each_read(&inst, |v| disjoint &= !kept_defs.contains(&v));
                disjoint
            }
        });
        if movable {
            hoisted.push(inst);
            continue;
        }
        for_each_def(&inst, |v| {
            kept_defs.insert(v);
            kept_touch.insert(v);
        });
        for c in kernel_ir::visit::blocks(&inst) {
            walk(c, &mut |x| {
                for_each_def(x, |v| {
                    kept_defs.insert(v);
                    kept_touch.insert(v);
                })
            });
        }
        for_each_read(&inst, |v| {
            kept_touch.insert(v);
        });
        kept.push(inst);
    }
    then.0 = kept;
    hoisted
}
