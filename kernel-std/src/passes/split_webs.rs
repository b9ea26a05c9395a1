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

use super::util::{
    child_blocks, for_each_def, for_each_def_mut, for_each_use, for_each_use_mut, nested_reads,
    walk,
};
use super::varset::VarSet;
use crate::ir::{Block, Inst, Kernel, Operand, Var};

/// Returns whether any variable was split.
pub fn split_webs(k: &mut Kernel) -> bool {
    let mut read_anywhere = VarSet::with_capacity(k.vars.len());
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
        next_anchor: DenseMap::default(),
        name: DenseMap::default(),
    };
    s.block(&mut body, &VarSet::new());
    let changed = s.changed;
    k.body = body;
    changed
}

struct Splitter<'a> {
    k: &'a mut Kernel,
    /// Every variable read somewhere: the conservative live set where control jumps.
    read_anywhere: VarSet,
    changed: bool,
    /// Scratch maps of [`Splitter::block`], empty between uses (the nested blocks are done
    /// before a block uses them): per variable, the position of its next anchor, and its
    /// current name.
    next_anchor: DenseMap,
    name: DenseMap,
}

/// A map from variables to `u32`s in a vector indexed by variable, cleared through the list of
/// what was set: SGEMM's blocks look up every operand, which a hash map made a large part of
/// this pass.
#[derive(Default)]
struct DenseMap {
    slots: Vec<u32>,
    set: Vec<Var>,
    len: usize,
}

impl DenseMap {
    const NONE: u32 = u32::MAX;
    fn get(&self, v: Var) -> Option<u32> {
        self.slots
            .get(v.0 as usize)
            .copied()
            .filter(|&x| x != Self::NONE)
    }
    /// Sets `v` to `x`, returning the value before.
    fn insert(&mut self, v: Var, x: u32) -> Option<u32> {
        let i = v.0 as usize;
        if i >= self.slots.len() {
            self.slots.resize(i + 1, Self::NONE);
        }
        let old = std::mem::replace(&mut self.slots[i], x);
        if old == Self::NONE {
            self.len += 1;
            self.set.push(v);
            None
        } else {
            Some(old)
        }
    }
    fn remove(&mut self, v: Var) {
        if let Some(x) = self.slots.get_mut(v.0 as usize) {
            if *x != Self::NONE {
                *x = Self::NONE;
                self.len -= 1;
            }
        }
    }
    fn is_empty(&self) -> bool {
        self.len == 0
    }
    fn clear(&mut self) {
        for v in self.set.drain(..) {
            if let Some(x) = self.slots.get_mut(v.0 as usize) {
                *x = Self::NONE;
            }
        }
        self.len = 0;
    }
}

/// Calls `f` on every variable read by `inst` or anything nested in it.
pub(crate) fn for_each_read(inst: &Inst, mut f: impl FnMut(Var)) {
    let mut add = |i: &Inst| {
        for_each_use(i, |o| {
            if let Operand::Var(v) = o {
                f(v);
            }
        })
    };
    add(inst);
    for c in child_blocks(inst) {
        walk(c, &mut add);
    }
}

/// Variables read by `inst` or anything nested in it.
pub(crate) fn reads(inst: &Inst) -> VarSet {
    let mut s = VarSet::new();
    for_each_read(inst, |v| {
        s.insert(v);
    });
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
        if nested_reads(inst, v) {
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

/// Turns the variables live after `inst` into those live before it (conservative for loops and
/// jumps).
pub(crate) fn transfer(inst: &Inst, live: &mut VarSet, anywhere: &VarSet) {
    match inst {
        Inst::If { cond, then, els } => {
            let mut e = live.clone();
            live_through(els, &mut e, anywhere);
            live_through(then, live, anywhere);
            live.union_with(&e);
            if let Operand::Var(v) = cond {
                live.insert(*v);
            }
        }
        Inst::For { .. } | Inst::Loop { .. } => {
            for_each_read(inst, |v| {
                live.insert(v);
            });
            if has_jump(inst) {
                live.union_with(anywhere);
            }
        }
        Inst::Break(_) | Inst::Continue(_) => live.assign(anywhere),
        Inst::Return => live.clear(),
        Inst::Panic { .. } => *live = reads(inst),
        _ => {
            if let Some(d) = simple_def(inst) {
                live.remove(&d);
            }
            for_each_use(inst, |o| {
                if let Operand::Var(v) = o {
                    live.insert(v);
                }
            });
        }
    }
}

/// [`transfer`] over a whole block, backwards.
pub(crate) fn live_through(b: &Block, live: &mut VarSet, anywhere: &VarSet) {
    for inst in b.0.iter().rev() {
        transfer(inst, live, anywhere);
    }
}

/// For each instruction of `b` that `want` selects, the variables live after it.
pub(crate) fn live_after_each(
    b: &Block,
    live_out: &VarSet,
    anywhere: &VarSet,
    want: impl Fn(&Inst) -> bool,
) -> Vec<Option<VarSet>> {
    let mut out = vec![None; b.0.len()];
    let mut live = live_out.clone();
    for (i, inst) in b.0.iter().enumerate().rev() {
        if want(inst) {
            out[i] = Some(live.clone());
        }
        transfer(inst, &mut live, anywhere);
    }
    out
}

impl Splitter<'_> {
    fn block(&mut self, b: &mut Block, live_out: &VarSet) {
        let n = b.0.len();
        let anchor_of: Vec<Option<Var>> = b.0.iter().map(full_def).collect();
        // Backwards: the live set after each nested control structure, and for each anchor only
        // whether its own variable is live after it (a whole set per anchor would copy the live
        // set at nearly every instruction).
        let mut live_after: Vec<Option<VarSet>> = vec![None; n];
        let mut anchor_live_after = vec![false; n];
        let mut live = live_out.clone();
        for (i, inst) in b.0.iter().enumerate().rev() {
            if matches!(inst, Inst::If { .. } | Inst::For { .. } | Inst::Loop { .. }) {
                live_after[i] = Some(live.clone());
            }
            if let Some(v) = anchor_of[i] {
                anchor_live_after[i] = live.contains(&v);
            }
            transfer(inst, &mut live, &self.read_anywhere);
        }
        drop(live);
        for (i, inst) in b.0.iter_mut().enumerate() {
            match inst {
                Inst::If { then, els, .. } => {
                    let after = live_after[i].as_ref().expect("computed for ifs");
                    self.block(then, after);
                    self.block(els, after);
                }
                Inst::For { body, .. } | Inst::Loop { body, .. } => {
                    // Values may flow around the back edge: everything the loop reads stays live.
                    let mut out = live_after[i].clone().expect("computed for loops");
                    walk(body, &mut |x| {
                        for_each_use(x, |o| {
                            if let Operand::Var(v) = o {
                                out.insert(v);
                            }
                        })
                    });
                    self.block(body, &out);
                }
                _ => {}
            }
        }
        // Jumps before each position, to test a stretch in constant time.
        let mut jumps = vec![0u32; n + 1];
        for i in 0..n {
            jumps[i + 1] = jumps[i] + has_jump(&b.0[i]) as u32;
        }
        // Per anchor: does the value it starts get its own variable? Decided from the next
        // anchor of the same variable (or the block's end).
        let mut next_anchor = std::mem::take(&mut self.next_anchor);
        let mut split = vec![false; n];
        for i in (0..n).rev() {
            let Some(v) = anchor_of[i] else { continue };
            let end = next_anchor.insert(v, i as u32).map(|e| e as usize);
            let stop = end.unwrap_or(n);
            split[i] = jumps[stop] == jumps[i + 1]
                && match end {
                    Some(_) => true,
                    // The last value: only when nothing after the block reads it, and something
                    // in the block does (a value dead at once gains nothing).
                    None => !live_out.contains(&v) && anchor_live_after[i],
                };
        }
        next_anchor.clear();
        self.next_anchor = next_anchor;
        // One forward walk: each variable's current name.
        let mut name = std::mem::take(&mut self.name);
        for i in 0..n {
            let inst = &mut b.0[i];
            // Reads by the instruction itself belong to the value before it.
            rename_own_uses_map(inst, &name);
            if let Some(v) = anchor_of[i] {
                if split[i] {
                    let fresh = self.fresh_like(v);
                    name.insert(v, fresh.0);
                    self.changed = true;
                } else {
                    name.remove(v);
                }
            }
            // Definitions and everything nested: the current names.
            rename_defs_and_nested(inst, &name);
        }
        name.clear();
        self.name = name;
    }

    fn fresh_like(&mut self, v: Var) -> Var {
        let fresh = self.k.new_var(self.k.ty(v));
        if !self.k.var_names.is_empty() {
            let n = self
                .k
                .var_names
                .get(v.0 as usize)
                .cloned()
                .unwrap_or_default();
            self.k
                .var_names
                .resize(self.k.vars.len() - 1, String::new());
            self.k.var_names.push(n);
        }
        fresh
    }
}

fn rename_own_uses_map(inst: &mut Inst, name: &DenseMap) {
    if name.is_empty() {
        return;
    }
    for_each_use_mut(inst, |o| {
        if let Operand::Var(v) = o {
            if let Some(n) = name.get(*v) {
                *o = Operand::Var(Var(n));
            }
        }
    });
}

/// Renames the definitions of `inst` and every occurrence inside its nested blocks.
fn rename_defs_and_nested(inst: &mut Inst, name: &DenseMap) {
    if name.is_empty() {
        return;
    }
    let r = |v: &mut Var| {
        if let Some(n) = name.get(*v) {
            *v = Var(n);
        }
    };
    for_each_def_mut(inst, r);
    match inst {
        Inst::If { then, els, .. } => {
            for i in then.0.iter_mut().chain(els.0.iter_mut()) {
                rename_own_uses_map(i, name);
                rename_defs_and_nested(i, name);
            }
        }
        Inst::For { body, .. } | Inst::Loop { body, .. } => {
            for i in &mut body.0 {
                rename_own_uses_map(i, name);
                rename_defs_and_nested(i, name);
            }
        }
        _ => {}
    }
}
