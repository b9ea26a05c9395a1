//! Dead code removal.
//!
//! [`remove_dead_values`] deletes every value whose result is never read (see
//! `Props::VALUE`: arithmetic, loads, pure intrinsics), stores to local arrays nothing loads,
//! `if`s left with two empty branches and counted `for` loops left with an empty body (a `for`
//! always terminates). An empty `loop {}` is an infinite loop and stays; so do panics, bounds
//! checks, global and shared stores, barriers, warp and memory intrinsics.
//!
//! Liveness is computed backwards over the structured tree, with loops iterated to a fixed point
//! and `break`/`continue` taking the liveness after the loop / at its head. A dead instruction
//! does not make its operands live, and control flow that would be left empty makes nothing
//! live, so one walk finds a chain of dead values (`a` read only by dead `b`) and the
//! conditions of emptied `if`s at once.
//!
//! [`dce`] additionally renumbers what is left: local arrays nobody touches are dropped (so the
//! PTX has no `.local` frame for arrays that became registers) and variables that no instruction
//! or parameter mentions are dropped from the variable table.

use super::fx::FxHashMap;
use super::util::{dead_after, prune_locs, same_ignoring_locs, use_counts};
use super::varset::VarSet;
use kernel_ir::ir::{ArrayId, Block, Inst, Kernel, LoopId, Operand, Var};
use kernel_ir::props::Props;
use kernel_ir::visit::{
    blocks_mut, for_each_def, for_each_def_mut, for_each_use, for_each_use_mut, single_def, walk,
    walk_mut,
};

/// Deletes unused values, dead array stores and empty control flow, to a fixed point. Returns
/// whether anything changed.
pub fn remove_dead_values(k: &mut Kernel) -> bool {
    remove_dead_values_into(k, &mut Vec::new(), &mut false)
}

/// [`remove_dead_values`], appending to `gone` every variable a deleted instruction wrote and
/// setting `same_arms` when deletions left an `if` whose two arms are the same.
pub(crate) fn remove_dead_values_into(
    k: &mut Kernel,
    gone: &mut Vec<Var>,
    same_arms: &mut bool,
) -> bool {
    let mut any = false;
    loop {
        let mut loads = vec![0u32; k.arrays.len()];
        if !k.arrays.is_empty() {
            walk(&k.body, &mut |i| {
                if let Inst::ArrayLoad { array, .. } = i {
                    loads[array.0 as usize] += 1;
                }
            });
        }
        let mut lv = Liveness {
            loops: FxHashMap::default(),
            loads,
            removed: false,
            removed_load: false,
            saw_dead: false,
            gone,
            same_arms,
        };
        lv.block(&mut k.body, VarSet::with_capacity(k.vars.len()), true);
        any |= lv.removed;
        // Stores to an array whose last load just went are dead too: look again.
        if !lv.removed_load {
            return any;
        }
    }
}

type Live = VarSet;

/// What is left of a block once its dead code is gone (see [`Liveness::block`]).
#[derive(Clone, Copy, PartialEq)]
enum Left {
    /// Nothing but source markers.
    Nothing,
    /// Only a `break` of this loop.
    Break(LoopId),
    Code,
}

struct Liveness<'g> {
    /// For each enclosing loop: (live after it, live at its head).
    loops: FxHashMap<LoopId, (Live, Live)>,
    /// Number of `array_load`s of each local array.
    loads: Vec<u32>,
    removed: bool,
    removed_load: bool,
    /// Whether a dead instruction was seen since this was last cleared.
    saw_dead: bool,
    /// Variables written by deleted instructions.
    gone: &'g mut Vec<Var>,
    /// Whether deletions left an `if` whose arms are the same.
    same_arms: &'g mut bool,
}

fn add_use(live: &mut Live, o: Operand) {
    if let Operand::Var(v) = o {
        live.insert(v);
    }
}

impl Liveness<'_> {
    /// Liveness before `b` given liveness after it, and what of `b` is not dead. With `remove`,
    /// the dead instructions go (and the markers that then cover nothing); without, `b` is left
    /// as it is (the passes of a loop's fixed point).
    fn block(&mut self, b: &mut Block, mut live: Live, remove: bool) -> (Live, Left) {
        let mut dead = vec![false; b.0.len()];
        let mut left = Left::Nothing;
        for (n, inst) in b.0.iter_mut().enumerate().rev() {
            let is_dead = match &mut *inst {
                Inst::Loc(_) => continue,
                Inst::Break(l) => {
                    live = self.loops.get(l).map(|x| x.0.clone()).unwrap_or_default();
                    false
                }
                Inst::Continue(l) => {
                    live = self.loops.get(l).map(|x| x.1.clone()).unwrap_or_default();
                    false
                }
                Inst::Return => {
                    live = Live::new();
                    false
                }
                Inst::If { cond, then, els } => {
                    let (t, t_left) = self.block(then, live.clone(), remove);
                    let (e, e_left) = self.block(els, live.clone(), remove);
                    let empty = t_left == Left::Nothing && e_left == Left::Nothing;
                    if remove && !empty && self.removed && same_ignoring_locs(then, els) {
                        *self.same_arms = true;
                    }
                    if !empty {
                        live = t;
                        live.union_with(&e);
                        add_use(&mut live, *cond);
                    }
                    empty
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
                    // The body may run zero times: what is live after the loop is live at its
                    // head too.
                    let (head, body_left) = self.settle(*id, Some(*iv), body, &live, remove);
                    let empty = body_left == Left::Nothing;
                    if !empty {
                        live = head;
                        live.remove(iv);
                        for o in [*start, *end, *step] {
                            add_use(&mut live, o);
                        }
                    }
                    empty
                }
                Inst::Loop { id, body } => {
                    let id = *id;
                    let (head, body_left) = self.settle(id, None, body, &live, remove);
                    let empty = body_left == Left::Break(id);
                    if !empty {
                        live = head;
                    }
                    empty
                }
                Inst::ArrayStore { array, .. } if self.loads[array.0 as usize] == 0 => true,
                other => {
                    let mut defs_live = false;
                    for_each_def(other, |v| defs_live |= live.remove(&v));
                    let dead = !defs_live && other.props().contains(Props::VALUE);
                    if !dead {
                        for_each_use(other, |o| add_use(&mut live, o));
                    }
                    dead
                }
            };
            if is_dead {
                dead[n] = true;
                self.saw_dead = true;
            } else {
                left = match (left, &*inst) {
                    (Left::Nothing, Inst::Break(l)) => Left::Break(*l),
                    _ => Left::Code,
                };
            }
        }
        if remove {
            let mut n = 0;
            b.0.retain(|inst| {
                let keep = !dead[n];
                n += 1;
                if !keep {
                    self.removed = true;
                    self.removed_load |= matches!(inst, Inst::ArrayLoad { .. });
                    for_each_def(inst, |v| self.gone.push(v));
                }
                keep
            });
            self.removed |= prune_locs(b);
        }
        (live, left)
    }

    /// Liveness at the head of loop `id` (a `for` with induction variable `iv`, else a `loop`)
    /// given `after`, the liveness after it: the body is walked until the head's set settles,
    /// then once more with `remove`.
    fn settle(
        &mut self,
        id: LoopId,
        iv: Option<Var>,
        body: &mut Block,
        after: &Live,
        remove: bool,
    ) -> (Live, Left) {
        let mut head = match iv {
            Some(_) => after.clone(),
            None => Live::new(),
        };
        // What the body's end flows into: the next iteration's head (and, for a `for` whose
        // last iteration ends there, what follows the loop).
        let out = |head: &Live| {
            let mut out = head.clone();
            if iv.is_some() {
                out.union_with(after);
            }
            out
        };
        let outer_saw_dead = std::mem::replace(&mut self.saw_dead, false);
        let left = loop {
            self.loops.insert(id, (after.clone(), head.clone()));
            self.saw_dead = false;
            let (mut body_in, left) = self.block(body, out(&head), false);
            if let Some(iv) = iv {
                body_in.remove(&iv);
            }
            let mut next = head.clone();
            next.union_with(&body_in);
            if next == head {
                break left;
            }
            head = next;
        };
        // The last walk saw the body with the settled head, as the removing walk would: it
        // need not run when it found nothing dead.
        let left = if remove && self.saw_dead {
            self.block(body, out(&head), true).1
        } else {
            left
        };
        self.saw_dead |= outer_saw_dead;
        (head, left)
    }
}

/// Final cleanup: [`remove_dead_values`] and [`coalesce_moves`], then drop unused local arrays
/// and variables and renumber the rest (parameter pieces and debug names follow their
/// variables).
pub fn dce(k: &mut Kernel) -> bool {
    let mut changed = remove_dead_values(k);
    if coalesce_moves(k) {
        changed = true;
        remove_dead_values(k);
    }
    // The passes before leave markers that cover nothing.
    walk_blocks_mut(&mut k.body, &mut |b| changed |= prune_locs(b));
    changed |= compact(k);
    changed
}

/// Calls `f` on `b` and every block nested in it.
fn walk_blocks_mut(b: &mut Block, f: &mut impl FnMut(&mut Block)) {
    f(b);
    for inst in &mut b.0 {
        for c in blocks_mut(inst) {
            walk_blocks_mut(c, f);
        }
    }
}

/// `t = op ...; x = mov t` -> `x = op ...` when the temporary `t` is not read afterwards (its only
/// read is this move, or the rest of the block overwrites it first). Unrolled and scalar-replaced
/// code is full of these pairs (an accumulator update through a temporary).
pub fn coalesce_moves(k: &mut Kernel) -> bool {
    coalesce_moves_into(k, &mut Vec::new(), &mut false, &mut VarSet::new())
}

/// [`coalesce_moves`], appending to `gone` the temporary of every pair, setting `cast` when a
/// pair's definition is a cast, and leaving in `moved_from` the variables the moves it keeps
/// read.
pub(crate) fn coalesce_moves_into(
    k: &mut Kernel,
    gone: &mut Vec<Var>,
    cast: &mut bool,
    moved_from: &mut VarSet,
) -> bool {
    let uses = use_counts(k);
    moved_from.clear();
    let mut c = Coalesce {
        uses: &uses,
        gone,
        cast,
        moved_from,
    };
    c.block(&mut k.body, true)
}

struct Coalesce<'a> {
    uses: &'a [u32],
    gone: &'a mut Vec<Var>,
    cast: &'a mut bool,
    moved_from: &'a mut VarSet,
}

impl Coalesce<'_> {
    fn block(&mut self, b: &mut Block, top: bool) -> bool {
        let mut changed = false;
        for inst in &mut b.0 {
            match inst {
                Inst::If { then, els, .. } => {
                    changed |= self.block(then, false);
                    changed |= self.block(els, false);
                }
                Inst::For { body, .. } | Inst::Loop { body, .. } => {
                    changed |= self.block(body, false)
                }
                _ => {}
            }
        }
        // `cur` is the instruction a move would fold into: a renamed definition meets the
        // instruction after its dropped move.
        let n = b.0.len();
        let mut dropped = vec![false; n];
        let mut cur = 0;
        #[allow(clippy::needless_range_loop)] // `cur` and `next` index one block
        for next in 1..n {
            if let Some((x, t)) = pair(&b.0[cur], &b.0[next]) {
                if self.uses[t.0 as usize] == 1 || dead_after(&b.0[next + 1..], t, top) {
                    self.gone.push(t);
                    *self.cast |= matches!(b.0[cur], Inst::Cast { .. });
                    for_each_def_mut(&mut b.0[cur], |v| {
                        if *v == t {
                            *v = x
                        }
                    });
                    dropped[next] = true;
                    changed = true;
                    continue;
                }
            }
            cur = next;
        }
        for (inst, &dropped) in b.0.iter().zip(&dropped) {
            if let Inst::Mov {
                src: Operand::Var(t),
                ..
            } = inst
            {
                if !dropped {
                    self.moved_from.insert(*t);
                }
            }
        }
        if changed {
            let mut n = 0;
            b.0.retain(|_| {
                n += 1;
                !dropped[n - 1]
            });
        }
        changed
    }
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
