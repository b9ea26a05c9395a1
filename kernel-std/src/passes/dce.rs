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

use std::collections::{HashMap, HashSet};

use super::util::{
    for_each_def, for_each_use, for_each_use_mut, is_removable, use_counts, walk, walk_mut,
};
use crate::ir::{ArrayId, Block, Inst, Kernel, LoopId, Operand, Var};

/// Deletes unused values, dead array stores and empty control flow, to a fixed point. Returns
/// whether anything changed.
pub fn remove_dead_values(k: &mut Kernel) -> bool {
    let mut any = false;
    loop {
        let uses = use_counts(k);
        let mut loaded: HashSet<ArrayId> = HashSet::new();
        walk(&k.body, &mut |i| {
            if let Inst::ArrayLoad { array, .. } = i {
                loaded.insert(*array);
            }
        });
        let mut changed = false;
        sweep(&mut k.body, &uses, &loaded, &mut changed);
        changed |= remove_dead_assignments(k);
        if !changed {
            return any;
        }
        any = true;
    }
}

fn dead(inst: &Inst, uses: &[u32], loaded: &HashSet<ArrayId>) -> bool {
    match inst {
        Inst::ArrayStore { array, .. } => !loaded.contains(array),
        Inst::If { then, els, .. } => then.0.is_empty() && els.0.is_empty(),
        Inst::For { body, .. } => body.0.is_empty(),
        Inst::Loop { id, body } => matches!(body.0.as_slice(), [Inst::Break(l)] if l == id),
        _ if is_removable(inst) => {
            let mut all_unused = true;
            for_each_def(inst, |v| all_unused &= uses[v.0 as usize] == 0);
            all_unused
        }
        _ => false,
    }
}

fn sweep(b: &mut Block, uses: &[u32], loaded: &HashSet<ArrayId>, changed: &mut bool) {
    for inst in &mut b.0 {
        match inst {
            Inst::If { then, els, .. } => {
                sweep(then, uses, loaded, changed);
                sweep(els, uses, loaded, changed);
            }
            Inst::For { body, .. } | Inst::Loop { body, .. } => sweep(body, uses, loaded, changed),
            _ => {}
        }
    }
    let before = b.0.len();
    b.0.retain(|i| !dead(i, uses, loaded));
    *changed |= b.0.len() != before;
}

/// Deletes removable instructions whose results are overwritten before any read (the IR is not
/// SSA, so a variable can be read elsewhere and still be dead here). Backward liveness over the
/// structured tree; loops iterate to a fixed point, `break`/`continue` take the liveness after the
/// loop / at its head.
pub fn remove_dead_assignments(k: &mut Kernel) -> bool {
    let mut lv = Liveness {
        loops: HashMap::new(),
        removed: false,
    };
    let mut body = std::mem::take(&mut k.body);
    lv.block(&mut body, HashSet::new(), true);
    k.body = body;
    lv.removed
}

type Live = HashSet<Var>;

struct Liveness {
    /// For each enclosing loop: (live after it, live at its head).
    loops: HashMap<LoopId, (Live, Live)>,
    removed: bool,
}

impl Liveness {
    /// Liveness before `b` given liveness after it; deletes dead instructions when `remove`.
    fn block(&mut self, b: &mut Block, mut live: Live, remove: bool) -> Live {
        let mut keep = vec![true; b.0.len()];
        for (n, inst) in b.0.iter_mut().enumerate().rev() {
            match inst {
                Inst::Break(l) => live = self.loops.get(l).map(|x| x.0.clone()).unwrap_or_default(),
                Inst::Continue(l) => {
                    live = self.loops.get(l).map(|x| x.1.clone()).unwrap_or_default()
                }
                Inst::Return => live = Live::new(),
                Inst::If { cond, then, els } => {
                    let t = self.block(then, live.clone(), remove);
                    let e = self.block(els, live, remove);
                    live = t.union(&e).copied().collect();
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
                    for _ in 0..64 {
                        self.loops.insert(*id, (after.clone(), head.clone()));
                        let mut out = head.clone();
                        out.extend(after.iter().copied());
                        let mut body_in = self.block(body, out, false);
                        body_in.remove(iv);
                        let next: Live = head.union(&body_in).copied().collect();
                        if next == head {
                            break;
                        }
                        head = next;
                    }
                    self.loops.insert(*id, (after.clone(), head.clone()));
                    let mut out = head.clone();
                    out.extend(after.iter().copied());
                    self.block(body, out, remove);
                    live = head;
                    live.remove(iv);
                    for o in [*start, *end, *step] {
                        add_use(&mut live, o);
                    }
                }
                Inst::Loop { id, body } => {
                    let after = live.clone();
                    let mut head = Live::new();
                    for _ in 0..64 {
                        self.loops.insert(*id, (after.clone(), head.clone()));
                        let next = self.block(body, head.clone(), false);
                        if next == head {
                            break;
                        }
                        head = next.union(&head).copied().collect();
                    }
                    self.loops.insert(*id, (after, head.clone()));
                    self.block(body, head.clone(), remove);
                    live = head;
                }
                _ => {
                    if is_removable(inst) {
                        let mut dead = true;
                        for_each_def(inst, |v| dead &= !live.contains(&v));
                        if dead {
                            if remove {
                                keep[n] = false;
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
        if keep.iter().any(|k| !k) {
            self.removed = true;
            let mut it = keep.into_iter();
            b.0.retain(|_| it.next().unwrap_or(true));
        }
        live
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
    let mut changed = remove_dead_values(k);
    changed |= compact_arrays(k);
    changed |= compact_vars(k);
    changed
}

fn compact_arrays(k: &mut Kernel) -> bool {
    let mut used = vec![false; k.arrays.len()];
    walk(&k.body, &mut |i| {
        if let Inst::ArrayLoad { array, .. } | Inst::ArrayStore { array, .. } = i {
            used[array.0 as usize] = true;
        }
    });
    if used.iter().all(|u| *u) {
        return false;
    }
    let mut map = vec![0u32; k.arrays.len()];
    let mut kept = Vec::new();
    for (i, arr) in std::mem::take(&mut k.arrays).into_iter().enumerate() {
        if used[i] {
            map[i] = kept.len() as u32;
            kept.push(arr);
        }
    }
    k.arrays = kept;
    walk_mut(&mut k.body, &mut |i| {
        if let Inst::ArrayLoad { array, .. } | Inst::ArrayStore { array, .. } = i {
            *array = ArrayId(map[array.0 as usize]);
        }
    });
    true
}

fn compact_vars(k: &mut Kernel) -> bool {
    let mut used = vec![false; k.vars.len()];
    for p in &k.params {
        for (_, v) in &p.pieces {
            used[v.0 as usize] = true;
        }
    }
    walk(&k.body, &mut |i| {
        for_each_def(i, |v| used[v.0 as usize] = true);
        for_each_use(i, |o| {
            if let Operand::Var(v) = o {
                used[v.0 as usize] = true;
            }
        });
    });
    if used.iter().all(|u| *u) {
        return false;
    }
    let mut map = vec![Var(u32::MAX); k.vars.len()];
    let mut vars = Vec::new();
    let mut names = Vec::new();
    let had_names = !k.var_names.is_empty();
    for (i, t) in k.vars.iter().enumerate() {
        if used[i] {
            map[i] = Var(vars.len() as u32);
            vars.push(*t);
            if had_names {
                names.push(k.var_names.get(i).cloned().unwrap_or_default());
            }
        }
    }
    k.vars = vars;
    k.var_names = names;
    let m = |v: &mut Var| *v = map[v.0 as usize];
    for p in &mut k.params {
        for (_, v) in &mut p.pieces {
            m(v);
        }
    }
    walk_mut(&mut k.body, &mut |i| {
        for_each_use_mut(i, |o| {
            if let Operand::Var(v) = o {
                m(v);
            }
        });
        rename_defs(i, &m);
    });
    true
}

fn rename_defs(inst: &mut Inst, m: &impl Fn(&mut Var)) {
    match inst {
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
        | Inst::ArrayLoad { dst, .. } => m(dst),
        Inst::Intrinsic { dsts, .. } => dsts.iter_mut().for_each(m),
        Inst::For { iv, .. } => m(iv),
        _ => {}
    }
}
