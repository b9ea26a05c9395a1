//! Dead code removal.
//!
//! [`remove_dead_values`] deletes removable instructions (see `util::is_removable`: pure values,
//! loads, pure intrinsics) none of whose results is read anywhere, stores to local arrays that are
//! never loaded, `if`s with two empty branches and counted `for` loops with an empty body (a `for`
//! always terminates). An empty `loop {}` is an infinite loop and stays. Panics, bounds checks,
//! global/shared stores, barriers, warp and memory intrinsics are never removed.
//!
//! [`dce`] additionally renumbers what is left: local arrays nobody touches are dropped (so the
//! PTX has no `.local` frame for arrays that became registers) and variables that no instruction
//! or parameter mentions are dropped from the variable table.

use super::fx::{FxHashMap, FxHashSet};
use super::varset::VarSet;

use super::util::{dead_after, prune_locs, use_counts};
use kernel_ir::ir::{ArrayId, Block, Inst, Kernel, LoopId, Operand, Var};
use kernel_ir::props::Props;
use kernel_ir::visit::{
    for_each_def, for_each_def_mut, for_each_use, for_each_use_mut, single_def, walk, walk_mut,
};

/// Deletes unused values, dead array stores and empty control flow, to a fixed point. Returns
/// whether anything changed.
pub fn remove_dead_values(k: &mut Kernel) -> bool {
    remove_dead_values_counted(k).0
}

/// [`remove_dead_values`], also returning the use counts of what is left when it still has them
/// exact (so [`dce`] need not count again for move coalescing).
fn remove_dead_values_counted(k: &mut Kernel) -> (bool, Option<Vec<u32>>) {
    let mut any = false;
    // Use counts and the loaded arrays; both sweeps and liveness keep the counts exact as they
    // remove code, so only a removed array load (which may leave an array unread) needs them
    // counted again.
    let mut counts: Option<(Vec<u32>, FxHashSet<ArrayId>)> = None;
    loop {
        let (uses, loaded) = counts.get_or_insert_with(|| count_uses(k));
        let (mut changed, mut removed_load) = (false, false);
        let mut sw = Sweep {
            uses,
            loaded,
            changed: false,
            removed_load: false,
            kept: vec![false; k.vars.len()],
            revived: false,
        };
        sw.block(&mut k.body);
        changed |= sw.changed;
        removed_load |= sw.removed_load;
        let revived = sw.revived;
        // Removing what liveness found dead leaves every live set as it was (a dead
        // instruction adds no use), so liveness finds nothing more in its own output: after the
        // first round it can only find something new when the sweep changed the code.
        if any && !changed {
            return (any, counts.map(|c| c.0));
        }
        let (removed, liveness_removed_load) = remove_dead_assignments_counted(k, Some(uses));
        if removed_load || liveness_removed_load {
            counts = None;
        }
        changed |= removed;
        if !changed {
            return (any, counts.map(|c| c.0));
        }
        // Another sweep finds something only where a value lost its last read after the sweep
        // had kept its definition (a loop-carried value, read before it is written), or where
        // liveness removed code or an array load: otherwise it would only walk the kernel again.
        if !revived && !removed && !removed_load && !liveness_removed_load {
            return (true, counts.map(|c| c.0));
        }
        any = true;
    }
}

/// State of one [`sweep`](Sweep::block) over the kernel.
struct Sweep<'a> {
    uses: &'a mut [u32],
    loaded: &'a FxHashSet<ArrayId>,
    changed: bool,
    removed_load: bool,
    /// Variables written by an instruction the sweep has kept so far.
    kept: Vec<bool>,
    /// Whether a kept instruction's result has since lost its last read.
    revived: bool,
}

impl Sweep<'_> {
    /// Takes a removed instruction's read of `o` off the counts.
    #[inline]
    fn unuse(&mut self, o: Operand) {
        if let Operand::Var(v) = o {
            let u = &mut self.uses[v.0 as usize];
            *u -= 1;
            if *u == 0 && self.kept.get(v.0 as usize).copied().unwrap_or(true) {
                self.revived = true;
            }
        }
    }

    /// Removes what [`dead`] finds, last instruction first, and takes each removed
    /// instruction's reads off `uses`: a chain of dead values (`a` read only by `b`, read only
    /// by `c`) goes in one sweep instead of one per link. Deadness only grows as instructions
    /// go, so the fixed point [`remove_dead_values`] reaches is the same in any order.
    fn block(&mut self, b: &mut Block) {
        let mut keep: Vec<bool> = Vec::new();
        for n in (0..b.0.len()).rev() {
            let inst = &mut b.0[n];
            // The common kinds in one match (`dead` and the kept arm below take three): a pure
            // value with one result is dead when nothing reads it.
            let simple = match inst {
                Inst::Binary { dst, a, b, .. } => Some((*dst, *a, Some(*b))),
                Inst::Mov { dst, src: a }
                | Inst::Unary { dst, a, .. }
                | Inst::Cast { dst, a }
                | Inst::Bitcast { dst, a }
                | Inst::Load { dst, addr: a, .. } => Some((*dst, *a, None)),
                _ => None,
            };
            if let Some((dst, a, b2)) = simple {
                if self.uses[dst.0 as usize] == 0 {
                    for o in [Some(a), b2].into_iter().flatten() {
                        self.unuse(o);
                    }
                    if keep.is_empty() {
                        keep = vec![true; b.0.len()];
                    }
                    keep[n] = false;
                } else if let Some(k) = self.kept.get_mut(dst.0 as usize) {
                    *k = true;
                }
                continue;
            }
            match inst {
                Inst::If { then, els, .. } => {
                    self.block(els);
                    self.block(then);
                }
                Inst::For { body, .. } | Inst::Loop { body, .. } => self.block(body),
                _ => {}
            }
            if dead(inst, self.uses, self.loaded) {
                self.removed_load |= matches!(inst, Inst::ArrayLoad { .. });
                for_each_use(inst, |o| self.unuse(o));
                if keep.is_empty() {
                    keep = vec![true; b.0.len()];
                }
                keep[n] = false;
            } else {
                for_each_def(inst, |v| {
                    if let Some(k) = self.kept.get_mut(v.0 as usize) {
                        *k = true;
                    }
                });
            }
        }
        if !keep.is_empty() {
            self.changed = true;
            let mut it = keep.into_iter();
            b.0.retain(|_| it.next().unwrap_or(true));
        }
        self.changed |= prune_locs(b);
    }
}

/// Use counts of every variable and the arrays some instruction loads, in one walk.
fn count_uses(k: &Kernel) -> (Vec<u32>, FxHashSet<ArrayId>) {
    let mut uses = vec![0u32; k.vars.len()];
    let mut loaded: FxHashSet<ArrayId> = FxHashSet::default();
    walk(&k.body, &mut |i| {
        if let Inst::ArrayLoad { array, .. } = i {
            loaded.insert(*array);
        }
        for_each_use(i, |o| {
            if let Operand::Var(v) = o {
                uses[v.0 as usize] += 1;
            }
        })
    });
    (uses, loaded)
}

fn dead(inst: &Inst, uses: &[u32], loaded: &FxHashSet<ArrayId>) -> bool {
    match inst {
        Inst::ArrayStore { array, .. } => !loaded.contains(array),
        Inst::If { then, els, .. } => then.0.is_empty() && els.0.is_empty(),
        Inst::For { body, .. } => body.0.is_empty(),
        Inst::Loop { id, body } => matches!(body.0.as_slice(), [Inst::Break(l)] if l == id),
        _ if inst.props().contains(Props::VALUE) => {
            let mut all_unused = true;
            for_each_def(inst, |v| all_unused &= uses[v.0 as usize] == 0);
            all_unused
        }
        _ => false,
    }
}

/// Deletes removable instructions whose results are overwritten before any read (the IR is not
/// SSA, so a variable can be read elsewhere and still be dead here). Backward liveness over the
/// structured tree; loops iterate to a fixed point, `break`/`continue` take the liveness after the
/// loop / at its head.
pub fn remove_dead_assignments(k: &mut Kernel) -> bool {
    remove_dead_assignments_counted(k, None).0
}

/// [`remove_dead_assignments`], taking each removed instruction's reads off `uses` when given;
/// also returns whether an array load was removed.
fn remove_dead_assignments_counted(k: &mut Kernel, uses: Option<&mut [u32]>) -> (bool, bool) {
    let mut lv = Liveness {
        loops: FxHashMap::default(),
        removed: false,
        found: false,
        uses,
        removed_load: false,
    };
    let mut body = std::mem::take(&mut k.body);
    lv.block(&mut body, Live::with_capacity(k.vars.len()), true);
    k.body = body;
    (lv.removed, lv.removed_load)
}

type Live = VarSet;

struct Liveness<'a> {
    /// For each enclosing loop: (live after it, live at its head).
    loops: FxHashMap<LoopId, (Live, Live)>,
    removed: bool,
    /// Whether a dead instruction was seen (removed or not) since this was last cleared: a
    /// loop body's last fixed-point pass that saw none needs no second pass to remove them.
    found: bool,
    /// Use counts to keep exact as instructions go.
    uses: Option<&'a mut [u32]>,
    removed_load: bool,
}

impl Liveness<'_> {
    /// Liveness before `b` given liveness after it; deletes dead instructions when `remove`.
    fn block(&mut self, b: &mut Block, mut live: Live, remove: bool) -> Live {
        // Allocated at the first removal: most blocks (and every pass without `remove`) have
        // none.
        let mut keep: Vec<bool> = Vec::new();
        let len = b.0.len();
        for (n, inst) in b.0.iter_mut().enumerate().rev() {
            // The common kinds in one match each (the general arm below does it with four): a
            // pure value is dead unless its destination is live.
            let simple = match inst {
                Inst::Binary { dst, a, b, .. } => Some((*dst, *a, Some(*b))),
                Inst::Mov { dst, src: a }
                | Inst::Unary { dst, a, .. }
                | Inst::Cast { dst, a }
                | Inst::Bitcast { dst, a }
                | Inst::Load { dst, addr: a, .. } => Some((*dst, *a, None)),
                _ => None,
            };
            if let Some((dst, a, b2)) = simple {
                if live.remove(&dst) {
                    add_use(&mut live, a);
                    if let Some(b2) = b2 {
                        add_use(&mut live, b2);
                    }
                } else {
                    self.found = true;
                    if remove {
                        if keep.is_empty() {
                            keep = vec![true; len];
                        }
                        keep[n] = false;
                        if let Some(uses) = self.uses.as_deref_mut() {
                            for o in [Some(a), b2].into_iter().flatten() {
                                if let Operand::Var(v) = o {
                                    uses[v.0 as usize] -= 1;
                                }
                            }
                        }
                    }
                }
                continue;
            }
            match inst {
                Inst::Break(l) => live = self.loops.get(l).map(|x| x.0.clone()).unwrap_or_default(),
                Inst::Continue(l) => {
                    live = self.loops.get(l).map(|x| x.1.clone()).unwrap_or_default()
                }
                Inst::Return => live = Live::new(),
                // A third of unrolled code: no values, nothing to remove.
                Inst::Loc(_) => {}
                Inst::If { cond, then, els } => {
                    let t = self.block(then, live.clone(), remove);
                    live = self.block(els, live, remove);
                    live.union_with(&t);
                    add_use(&mut live, *cond);
                }
                Inst::For {
                    id,
                    iv,
                    start,
                    end,
                    step,
                    body,
                    ..
                } => {
                    let after = live.clone();
                    let mut head = after.clone();
                    // Whether the last pass saw a dead instruction, once the head is settled:
                    // that pass ran on exactly what a last, removing pass would.
                    let mut settled = None;
                    for _ in 0..64 {
                        self.loops.insert(*id, (after.clone(), head.clone()));
                        let mut out = head.clone();
                        out.union_with(&after);
                        let outer = std::mem::replace(&mut self.found, false);
                        let mut body_in = self.block(body, out, false);
                        let found = self.found;
                        self.found |= outer;
                        body_in.remove(iv);
                        let mut next = head.clone();
                        next.union_with(&body_in);
                        if next == head {
                            settled = Some(found);
                            break;
                        }
                        head = next;
                    }
                    self.loops.insert(*id, (after.clone(), head.clone()));
                    if needs_last_pass(settled, remove) {
                        let mut out = head.clone();
                        out.union_with(&after);
                        self.block(body, out, remove);
                    }
                    live = head;
                    live.remove(iv);
                    for o in [*start, *end, *step] {
                        add_use(&mut live, o);
                    }
                }
                Inst::Loop { id, body } => {
                    let after = live.clone();
                    let mut head = Live::new();
                    let mut settled = None;
                    for _ in 0..64 {
                        self.loops.insert(*id, (after.clone(), head.clone()));
                        let outer = std::mem::replace(&mut self.found, false);
                        let next = self.block(body, head.clone(), false);
                        let found = self.found;
                        self.found |= outer;
                        if next == head {
                            settled = Some(found);
                            break;
                        }
                        let mut next = next;
                        next.union_with(&head);
                        head = next;
                    }
                    self.loops.insert(*id, (after, head.clone()));
                    if needs_last_pass(settled, remove) {
                        self.block(body, head.clone(), remove);
                    }
                    live = head;
                }
                _ => {
                    if inst.props().contains(Props::VALUE) {
                        let mut dead = true;
                        for_each_def(inst, |v| dead &= !live.contains(&v));
                        if dead {
                            self.found = true;
                            if remove {
                                if keep.is_empty() {
                                    keep = vec![true; len];
                                }
                                keep[n] = false;
                                self.removed_load |= matches!(inst, Inst::ArrayLoad { .. });
                                if let Some(uses) = self.uses.as_deref_mut() {
                                    for_each_use(inst, |o| {
                                        if let Operand::Var(v) = o {
                                            uses[v.0 as usize] -= 1;
                                        }
                                    });
                                }
                            }
                            continue;
                        }
                    }
                    for_each_def(inst, |v| {
                        live.remove(&v);
                    });
                    for_each_use(inst, |o| add_use(&mut live, o));
                }
            }
        }
        if !keep.is_empty() {
            self.removed = true;
            let mut it = keep.into_iter();
            b.0.retain(|_| it.next().unwrap_or(true));
        }
        live
    }
}

/// Whether a loop body needs its pass with the settled head: not when the fixed-point
/// iteration settled (`Some(found)`) and that pass would remove nothing (`remove` off, or no
/// dead instruction seen in the last iteration, which computed exactly the same liveness).
fn needs_last_pass(settled: Option<bool>, remove: bool) -> bool {
    match settled {
        Some(found) => remove && found,
        None => true,
    }
}

fn add_use(live: &mut Live, o: Operand) {
    if let Operand::Var(v) = o {
        live.insert(v);
    }
}

/// Final cleanup: [`remove_dead_values`], then drop unused local arrays and variables and renumber
/// the rest (parameter pieces and debug names follow their variables).
pub fn dce(k: &mut Kernel) -> bool {
    let (mut changed, uses) = remove_dead_values_counted(k);
    let uses = uses.unwrap_or_else(|| use_counts(k));
    if coalesce_with(k, &uses) {
        changed = true;
        remove_dead_values(k);
    }
    changed |= compact(k);
    changed
}

/// `t = op ...; x = mov t` -> `x = op ...` when the temporary `t` is not read afterwards (its only
/// read is this move, or the rest of the block overwrites it first). Unrolled and scalar-replaced
/// code is full of these pairs (an accumulator update through a temporary).
pub fn coalesce_moves(k: &mut Kernel) -> bool {
    let uses = use_counts(k);
    coalesce_with(k, &uses)
}

/// [`coalesce_moves`] given every variable's use count.
fn coalesce_with(k: &mut Kernel, uses: &[u32]) -> bool {
    let mut body = std::mem::take(&mut k.body);
    let changed = coalesce_block(&mut body, uses, true, &mut Vec::new());
    k.body = body;
    changed
}

/// [`coalesce_moves`] given every variable's use count, which it keeps exact for the code it
/// leaves: each dropped move `x = mov t` was one read of `t`, and renaming a definition reads
/// nothing (the counts are updated after the walk, which decides on the counts given).
pub(crate) fn coalesce_counted(k: &mut Kernel, uses: &mut [u32]) -> bool {
    let mut body = std::mem::take(&mut k.body);
    let mut moved = Vec::new();
    let changed = coalesce_block(&mut body, uses, true, &mut moved);
    k.body = body;
    for t in moved {
        uses[t.0 as usize] -= 1;
    }
    debug_assert_eq!(
        uses,
        &use_counts(k)[..],
        "coalescing keeps the counts exact"
    );
    changed
}

/// `moved` collects the `t` of every dropped move.
fn coalesce_block(b: &mut Block, uses: &[u32], top: bool, moved: &mut Vec<Var>) -> bool {
    let mut changed = false;
    for inst in &mut b.0 {
        match inst {
            Inst::If { then, els, .. } => {
                changed |= coalesce_block(then, uses, false, moved);
                changed |= coalesce_block(els, uses, false, moved);
            }
            Inst::For { body, .. } | Inst::Loop { body, .. } => {
                changed |= coalesce_block(body, uses, false, moved)
            }
            _ => {}
        }
    }
    // Pairs are found in place: `cur` is the position of the instruction a move would fold
    // into (a renamed definition meets the instruction after its dropped move), and dropped
    // moves are marked, then removed in one pass (most blocks, most calls, drop nothing and are
    // not moved at all).
    let n = b.0.len();
    let mut drop: Vec<bool> = Vec::new();
    let mut cur = 0;
    for next in 1..n {
        // Most instructions are not a move from a variable: only those look back at `cur`.
        if !matches!(
            b.0[next],
            Inst::Mov {
                src: Operand::Var(_),
                ..
            }
        ) {
            cur = next;
            continue;
        }
        if let Some((x, t)) = pair(&b.0[cur], &b.0[next]) {
            if uses[t.0 as usize] == 1 || dead_after(&b.0[next + 1..], t, top) {
                for_each_def_mut(&mut b.0[cur], |v: &mut Var| {
                    if *v == t {
                        *v = x
                    }
                });
                if drop.is_empty() {
                    drop = vec![false; n];
                }
                drop[next] = true;
                moved.push(t);
                changed = true;
                continue;
            }
        }
        cur = next;
    }
    if !drop.is_empty() {
        let mut it = drop.into_iter();
        b.0.retain(|_| !it.next().unwrap_or(false));
    }
    changed
}

/// `(x, t)` when `cur` computes `t` (removably, as its only result) and `next` is `x = mov t`.
fn pair(cur: &Inst, next: &Inst) -> Option<(Var, Var)> {
    match (cur, next) {
        (
            def,
            Inst::Mov {
                dst: x,
                src: Operand::Var(t),
            },
        ) if def.props().contains(Props::VALUE) && single_def(def) == Some(*t) && x != t => {
            Some((*x, *t))
        }
        _ => None,
    }
}

/// Drops the local arrays and the variables nothing mentions and renumbers the rest: one walk
/// finds both, one more renames both (only when something goes).
fn compact(k: &mut Kernel) -> bool {
    let mut used_arrays = vec![false; k.arrays.len()];
    let mut used = vec![false; k.vars.len()];
    for p in &k.params {
        for (_, v) in &p.pieces {
            used[v.0 as usize] = true;
        }
    }
    walk(&k.body, &mut |i| {
        if let Inst::ArrayLoad { array, .. } | Inst::ArrayStore { array, .. } = i {
            used_arrays[array.0 as usize] = true;
        }
        for_each_def(i, |v| used[v.0 as usize] = true);
        for_each_use(i, |o| {
            if let Operand::Var(v) = o {
                used[v.0 as usize] = true;
            }
        });
    });
    let arrays_go = !used_arrays.iter().all(|u| *u);
    let vars_go = !used.iter().all(|u| *u);
    if !arrays_go && !vars_go {
        return false;
    }
    let mut array_map = vec![0u32; k.arrays.len()];
    if arrays_go {
        let mut kept = Vec::new();
        for (i, arr) in std::mem::take(&mut k.arrays).into_iter().enumerate() {
            if used_arrays[i] {
                array_map[i] = kept.len() as u32;
                kept.push(arr);
            }
        }
        k.arrays = kept;
    }
    let mut map = vec![Var(u32::MAX); k.vars.len()];
    if vars_go {
        let mut vars = Vec::new();
        let mut names = Vec::new();
        let old_names = std::mem::take(&mut k.var_names);
        let had_names = !old_names.is_empty();
        let mut old_names = old_names.into_iter();
        for (i, t) in k.vars.iter().enumerate() {
            // The names move along (the table has one per variable, or may be shorter).
            let name = old_names.next();
            if used[i] {
                map[i] = Var(vars.len() as u32);
                vars.push(*t);
                if had_names {
                    names.push(name.unwrap_or_default());
                }
            }
        }
        k.vars = vars;
        k.var_names = names;
        for p in &mut k.params {
            for (_, v) in &mut p.pieces {
                *v = map[v.0 as usize];
            }
        }
    }
    walk_mut(&mut k.body, &mut |i| {
        if arrays_go {
            if let Inst::ArrayLoad { array, .. } | Inst::ArrayStore { array, .. } = i {
                *array = ArrayId(array_map[array.0 as usize]);
            }
        }
        if vars_go {
            for_each_use_mut(i, |o| {
                if let Operand::Var(v) = o {
                    *v = map[v.0 as usize];
                }
            });
            for_each_def_mut(i, |v| *v = map[v.0 as usize]);
        }
    });
    true
}
