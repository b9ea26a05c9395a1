//! Live-range splitting: a variable that a block assigns several times gets a fresh variable for
//! each value whose reads all lie between one assignment and the next (or the block's end, when
//! the variable is dead there).
//!
//! Why: unrolled copies of a loop body reuse the body's variables, so the PTX writes one
//! register per copy. ptxas renames such registers itself in branchy code, but inside a
//! predicated region every guarded write is a read-modify-write of its register: the copies'
//! loads then depend on each other through the register and cannot be overlapped. One register
//! per value removes that false dependence.
//!
//! The rewrite is exact: a split value is read only where it was read before, and only those
//! reads change name. A stretch that contains a `break`, `continue` or `return` is left alone
//! (the old name could be read where control goes).

use std::collections::HashSet;

use super::util::{child_blocks, for_each_def, for_each_use, for_each_use_mut, walk};
use crate::ir::{Block, Inst, Kernel, Operand, Var};

/// Returns whether any variable was split.
pub fn split_webs(k: &mut Kernel) -> bool {
    let mut read_anywhere = HashSet::new();
    walk(&k.body, &mut |i| {
        for_each_use(i, |o| {
            if let Operand::Var(v) = o {
                read_anywhere.insert(v);
            }
        })
    });
    let mut body = std::mem::take(&mut k.body);
    let mut s = Splitter {
        k,
        read_anywhere,
        changed: false,
    };
    s.block(&mut body, &HashSet::new());
    let changed = s.changed;
    k.body = body;
    changed
}

struct Splitter<'a> {
    k: &'a mut Kernel,
    /// Every variable read somewhere: the conservative live set where control jumps.
    read_anywhere: HashSet<Var>,
    changed: bool,
}

/// Variables read by `inst` or anything nested in it.
pub(crate) fn reads(inst: &Inst) -> HashSet<Var> {
    let mut s = HashSet::new();
    let mut add = |i: &Inst| {
        for_each_use(i, |o| {
            if let Operand::Var(v) = o {
                s.insert(v);
            }
        })
    };
    add(inst);
    for c in child_blocks(inst) {
        walk(c, &mut add);
    }
    s
}

pub(crate) fn has_jump(inst: &Inst) -> bool {
    let mut found = matches!(inst, Inst::Break(_) | Inst::Continue(_) | Inst::Return);
    for c in child_blocks(inst) {
        walk(c, &mut |i| {
            found |= matches!(i, Inst::Break(_) | Inst::Continue(_) | Inst::Return)
        });
    }
    found
}

/// A plain one-result instruction (not a loop, not an intrinsic with several results).
fn simple_def(inst: &Inst) -> Option<Var> {
    match inst {
        Inst::If { .. } | Inst::For { .. } | Inst::Loop { .. } | Inst::Intrinsic { .. } => None,
        _ => {
            let mut d = None;
            for_each_def(inst, |v| d = Some(v));
            d
        }
    }
}

/// Whether `b` assigns `v` at its top level before anything in it reads `v`.
fn block_defines_first(b: &Block, v: Var) -> bool {
    for inst in &b.0 {
        if reads(inst).contains(&v) {
            return false;
        }
        if simple_def(inst) == Some(v) {
            return true;
        }
        let mut d = false;
        for_each_def(inst, |x| d |= x == v);
        for c in child_blocks(inst) {
            walk(c, &mut |i| for_each_def(i, |x| d |= x == v));
        }
        if d || has_jump(inst) {
            return false;
        }
    }
    false
}

/// The variable `inst` surely assigns, not reading its old value first: a plain definition, or
/// an `if` both of whose branches start by assigning it (the guarded load of `defer_checks`).
fn full_def(inst: &Inst) -> Option<Var> {
    match inst {
        Inst::If { .. } if has_jump(inst) => None,
        Inst::If { cond, then, els } => {
            let v = then.0.iter().find_map(simple_def)?;
            let cond_reads = *cond == Operand::Var(v);
            (!cond_reads && block_defines_first(then, v) && block_defines_first(els, v))
                .then_some(v)
        }
        _ => simple_def(inst),
    }
}

/// Live variables before `inst`, given those live after it (conservative for loops and jumps).
pub(crate) fn live_before(
    inst: &Inst,
    after: &HashSet<Var>,
    anywhere: &HashSet<Var>,
) -> HashSet<Var> {
    match inst {
        Inst::If { cond, then, els } => {
            let mut s = live_before_block(then, after, anywhere);
            s.extend(live_before_block(els, after, anywhere));
            if let Operand::Var(v) = cond {
                s.insert(*v);
            }
            s
        }
        Inst::For { .. } | Inst::Loop { .. } => {
            let mut s = after.clone();
            s.extend(reads(inst));
            if has_jump(inst) {
                s.extend(anywhere.iter().copied());
            }
            s
        }
        Inst::Break(_) | Inst::Continue(_) => anywhere.clone(),
        Inst::Return => HashSet::new(),
        Inst::Panic { .. } => reads(inst),
        _ => {
            let mut s = after.clone();
            if let Some(d) = simple_def(inst) {
                s.remove(&d);
            }
            s.extend(reads(inst));
            s
        }
    }
}

fn live_before_block(b: &Block, after: &HashSet<Var>, anywhere: &HashSet<Var>) -> HashSet<Var> {
    let mut live = after.clone();
    for inst in b.0.iter().rev() {
        live = live_before(inst, &live, anywhere);
    }
    live
}

/// Renames reads of `from` in `inst` itself (not nested).
fn rename_own_uses(inst: &mut Inst, from: Var, to: Var) {
    for_each_use_mut(inst, |o| {
        if *o == Operand::Var(from) {
            *o = Operand::Var(to);
        }
    });
}

fn rename_own_defs(inst: &mut Inst, from: Var, to: Var) {
    let r = |v: &mut Var| {
        if *v == from {
            *v = to;
        }
    };
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
        | Inst::ArrayLoad { dst, .. } => r(dst),
        Inst::Intrinsic { dsts, .. } | Inst::LoadVec { dsts, .. } => dsts.iter_mut().for_each(r),
        Inst::For { iv, .. } => r(iv),
        _ => {}
    }
}

/// Renames every occurrence of `from` in `inst` and everything nested in it.
fn rename_all(inst: &mut Inst, from: Var, to: Var) {
    rename_own_uses(inst, from, to);
    rename_own_defs(inst, from, to);
    match inst {
        Inst::If { then, els, .. } => {
            then.0.iter_mut().for_each(|i| rename_all(i, from, to));
            els.0.iter_mut().for_each(|i| rename_all(i, from, to));
        }
        Inst::For { body, .. } | Inst::Loop { body, .. } => {
            body.0.iter_mut().for_each(|i| rename_all(i, from, to))
        }
        _ => {}
    }
}

impl Splitter<'_> {
    fn block(&mut self, b: &mut Block, live_out: &HashSet<Var>) {
        let n = b.0.len();
        // live_after[i]: live after instruction i.
        let mut live_after = vec![HashSet::new(); n];
        let mut live = live_out.clone();
        for i in (0..n).rev() {
            live_after[i] = live.clone();
            live = live_before(&b.0[i], &live, &self.read_anywhere);
        }
        for (i, inst) in b.0.iter_mut().enumerate() {
            match inst {
                Inst::If { then, els, .. } => {
                    self.block(then, &live_after[i]);
                    self.block(els, &live_after[i]);
                }
                Inst::For { body, .. } | Inst::Loop { body, .. } => {
                    // Values may flow around the back edge: everything the loop reads stays live.
                    let mut out = live_after[i].clone();
                    let mut r = HashSet::new();
                    walk(body, &mut |x| {
                        for_each_use(x, |o| {
                            if let Operand::Var(v) = o {
                                r.insert(v);
                            }
                        })
                    });
                    out.extend(r);
                    self.block(body, &out);
                }
                _ => {}
            }
        }
        // Anchors: top-level full definitions, per variable, in order.
        let mut anchors: Vec<(Var, Vec<usize>)> = Vec::new();
        for (i, inst) in b.0.iter().enumerate() {
            if let Some(v) = full_def(inst) {
                match anchors.iter_mut().find(|(x, _)| *x == v) {
                    Some((_, list)) => list.push(i),
                    None => anchors.push((v, vec![i])),
                }
            }
        }
        for (v, list) in anchors {
            for (t, &start) in list.iter().enumerate() {
                let end = list.get(t + 1).copied();
                if end.is_none() && live_out.contains(&v) {
                    continue;
                }
                let stop = end.unwrap_or(n);
                if b.0[start + 1..stop].iter().any(has_jump) {
                    continue;
                }
                // The whole value is dead right away: nothing to gain.
                if end.is_none() && !live_after[start].contains(&v) {
                    continue;
                }
                let ty = self.k.ty(v);
                let fresh = self.k.new_var(ty);
                if !self.k.var_names.is_empty() {
                    let name = self
                        .k
                        .var_names
                        .get(v.0 as usize)
                        .cloned()
                        .unwrap_or_default();
                    self.k
                        .var_names
                        .resize(self.k.vars.len() - 1, String::new());
                    self.k.var_names.push(name);
                }
                match &mut b.0[start] {
                    anchor @ Inst::If { .. } => rename_if_anchor(anchor, v, fresh),
                    anchor => rename_own_defs(anchor, v, fresh),
                }
                for inst in &mut b.0[start + 1..stop] {
                    rename_all(inst, v, fresh);
                }
                if let Some(e) = end {
                    match &mut b.0[e] {
                        Inst::If { .. } => {}
                        next => rename_own_uses(next, v, fresh),
                    }
                }
                self.changed = true;
            }
        }
    }
}

/// Renames `from` inside an `if` anchor: its condition does not read it and both branches assign
/// it before reading it, so every occurrence inside is the new value's.
fn rename_if_anchor(inst: &mut Inst, from: Var, to: Var) {
    if let Inst::If { then, els, .. } = inst {
        then.0.iter_mut().for_each(|i| rename_all(i, from, to));
        els.0.iter_mut().for_each(|i| rename_all(i, from, to));
    }
}
