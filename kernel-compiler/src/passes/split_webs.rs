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
//! (the old name could be read where control goes). A variable the kernel assigns only once
//! keeps its name (a fresh one would renumber it, nothing more).

use super::varset::VarSet;
use kernel_ir::ir::{Block, Inst, Kernel, Operand, Var};
use kernel_ir::props::Props;
use kernel_ir::visit::{
    blocks, for_each_def, for_each_def_mut, for_each_use, for_each_use_mut, nested_reads, walk,
};

/// Returns whether any variable was split.
pub fn split_webs(k: &mut Kernel) -> bool {
    let mut read_anywhere = VarSet::with_capacity(k.vars.len());
    // Assignments per variable, 2 meaning "several": one written once has nothing to split
    // (renaming it would only renumber it).
    let mut defs = vec![0u8; k.vars.len()];
    walk(&k.body, &mut |i| {
        for_each_use(i, |o| {
            if let Operand::Var(v) = o {
                read_anywhere.insert(v);
            }
        });
        for_each_def(i, |v| {
            let n = &mut defs[v.0 as usize];
            *n = (*n + 1).min(2);
        });
    });
    for p in &k.params {
        for (_, v) in &p.pieces {
            defs[v.0 as usize] = 2;
        }
    }
    let mut body = std::mem::take(&mut k.body);
    let mut s = Splitter {
        k,
        read_anywhere,
        defs,
        changed: false,
        next_anchor: DenseMap::default(),
        name: DenseMap::default(),
        scratch: Vec::new(),
        sets: Vec::new(),
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
    /// Per variable: assigned once (1) or more often (2).
    defs: Vec<u8>,
    changed: bool,
    /// Scratch maps of [`Splitter::block`], empty between uses (the nested blocks are done
    /// before a block uses them): per variable, the position of its next anchor, and its
    /// current name.
    next_anchor: DenseMap,
    name: DenseMap,
    /// Per-block buffers and liveness sets, reused: most blocks are one- or two-instruction
    /// branches of guarded accesses, where allocating them was most of the work.
    scratch: Vec<Scratch>,
    sets: Vec<VarSet>,
}

/// The per-instruction tables of one [`Splitter::block`] call.
#[derive(Default)]
struct Scratch {
    anchor_of: Vec<Option<Var>>,
    jump: Vec<bool>,
    anchor_live_after: Vec<bool>,
    /// For each nested control structure (by position): the live set after it, and for loops
    /// what their body reads.
    live_after: Vec<(usize, VarSet)>,
    loop_reads: Vec<(usize, VarSet)>,
    jumps: Vec<u32>,
    split: Vec<bool>,
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
    for c in blocks(inst) {
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
    for c in blocks(inst) {
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
        for c in blocks(inst) {
            walk(c, &mut |i| for_each_def(i, |x| d |= x == v));
        }
        if d || has_jump(inst) {
            return false;
        }
    }
    false
}

/// The variable `inst` surely assigns, not reading its old value first: a plain definition, or
/// an `if` both of whose branches start by assigning it (the guarded load of `defer_checks`);
/// `jumps` says whether `inst` contains a jump.
fn full_def_known_jumps(inst: &Inst, jumps: bool) -> Option<Var> {
    match inst {
        Inst::If { .. } if jumps => None,
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
    /// A set from the pool, equal to `from`.
    fn set_like(&mut self, from: &VarSet) -> VarSet {
        let mut s = self.sets.pop().unwrap_or_default();
        s.clone_from(from);
        s
    }

    /// [`transfer`], with the loop's body reads and jumps already known and the pool's sets for
    /// the branches of `if`s.
    fn transfer(
        &mut self,
        inst: &Inst,
        live: &mut VarSet,
        jump: bool,
        body_reads: Option<&VarSet>,
    ) {
        match inst {
            Inst::If { cond, then, els } => {
                match (&then.0[..], els.0.is_empty()) {
                    // A guarded access: what is live after it, and what it reads (its own
                    // definition does not hide the value from the path around it).
                    ([one], true) if !one.props().intersects(Props::CONTROL) => {
                        for_each_use(one, |o| {
                            if let Operand::Var(v) = o {
                                live.insert(v);
                            }
                        });
                    }
                    _ => {
                        let mut e = self.set_like(live);
                        self.live_through(els, &mut e);
                        self.live_through(then, live);
                        live.union_with(&e);
                        self.sets.push(e);
                    }
                }
                if let Operand::Var(v) = cond {
                    live.insert(*v);
                }
            }
            Inst::For { .. } | Inst::Loop { .. } => {
                for_each_use(inst, |o| {
                    if let Operand::Var(v) = o {
                        live.insert(v);
                    }
                });
                match body_reads {
                    Some(r) => live.union_with(r),
                    None => for_each_read(inst, |v| {
                        live.insert(v);
                    }),
                }
                if jump {
                    live.union_with(&self.read_anywhere);
                }
            }
            _ => transfer(inst, live, &self.read_anywhere),
        }
    }

    fn live_through(&mut self, b: &Block, live: &mut VarSet) {
        for inst in b.0.iter().rev() {
            let jump = matches!(inst, Inst::For { .. } | Inst::Loop { .. }) && has_jump(inst);
            self.transfer(inst, live, jump, None);
        }
    }

    fn block(&mut self, b: &mut Block, live_out: &VarSet) {
        let n = b.0.len();
        // A lone plain instruction never splits: its value is either live after the block
        // (kept) or not read in it (nothing gained).
        if n == 0 || (n == 1 && !b.0[0].props().intersects(Props::CONTROL)) {
            return;
        }
        let mut sc = self.scratch.pop().unwrap_or_default();
        sc.jump.clear();
        sc.jump.extend(b.0.iter().map(|i| match i {
            Inst::Break(_) | Inst::Continue(_) | Inst::Return => true,
            Inst::If { .. } | Inst::For { .. } | Inst::Loop { .. } => has_jump(i),
            _ => false,
        }));
        sc.anchor_of.clear();
        sc.anchor_of.extend(
            b.0.iter()
                .zip(&sc.jump)
                .map(|(i, &j)| full_def_known_jumps(i, j))
                .map(|a| a.filter(|v| self.defs.get(v.0 as usize).is_none_or(|&n| n > 1))),
        );
        // What each loop body reads: the loop's live-in and its body's live-out both need it.
        sc.loop_reads.clear();
        for (i, inst) in b.0.iter().enumerate() {
            if let Inst::For { body, .. } | Inst::Loop { body, .. } = inst {
                let mut r = self.sets.pop().unwrap_or_default();
                r.clear();
                walk(body, &mut |x| {
                    for_each_use(x, |o| {
                        if let Operand::Var(v) = o {
                            r.insert(v);
                        }
                    })
                });
                sc.loop_reads.push((i, r));
            }
        }
        // Backwards: the live set after each nested control structure, and for each anchor only
        // whether its own variable is live after it (a whole set per anchor would copy the live
        // set at nearly every instruction).
        sc.anchor_live_after.clear();
        sc.anchor_live_after.resize(n, false);
        sc.live_after.clear();
        let mut live = self.set_like(live_out);
        let mut lr = sc.loop_reads.len();
        for (i, inst) in b.0.iter().enumerate().rev() {
            let compound = matches!(inst, Inst::If { .. } | Inst::For { .. } | Inst::Loop { .. });
            if compound {
                let s = self.set_like(&live);
                sc.live_after.push((i, s));
            }
            if let Some(v) = sc.anchor_of[i] {
                sc.anchor_live_after[i] = live.contains(&v);
            }
            let body_reads = if matches!(inst, Inst::For { .. } | Inst::Loop { .. }) {
                lr -= 1;
                Some(&sc.loop_reads[lr].1)
            } else {
                None
            };
            self.transfer(inst, &mut live, sc.jump[i], body_reads);
        }
        self.sets.push(live);
        // `live_after` was filled backwards.
        let mut la = sc.live_after.len();
        let mut lr = 0;
        for (i, inst) in b.0.iter_mut().enumerate() {
            match inst {
                Inst::If { then, els, .. } => {
                    la -= 1;
                    let after = &sc.live_after[la].1;
                    debug_assert_eq!(sc.live_after[la].0, i);
                    self.block(then, after);
                    self.block(els, after);
                }
                Inst::For { body, .. } | Inst::Loop { body, .. } => {
                    la -= 1;
                    // Values may flow around the back edge: everything the loop reads stays live.
                    let mut out = self.set_like(&sc.live_after[la].1);
                    out.union_with(&sc.loop_reads[lr].1);
                    lr += 1;
                    self.block(body, &out);
                    self.sets.push(out);
                }
                _ => {}
            }
        }
        self.sets.extend(sc.live_after.drain(..).map(|(_, s)| s));
        self.sets.extend(sc.loop_reads.drain(..).map(|(_, s)| s));
        // Jumps before each position, to test a stretch in constant time.
        sc.jumps.clear();
        sc.jumps.push(0);
        for i in 0..n {
            let j = sc.jumps[i] + sc.jump[i] as u32;
            sc.jumps.push(j);
        }
        // Per anchor: does the value it starts get its own variable? Decided from the next
        // anchor of the same variable (or the block's end).
        let mut next_anchor = std::mem::take(&mut self.next_anchor);
        sc.split.clear();
        sc.split.resize(n, false);
        for i in (0..n).rev() {
            let Some(v) = sc.anchor_of[i] else { continue };
            let end = next_anchor.insert(v, i as u32).map(|e| e as usize);
            let stop = end.unwrap_or(n);
            sc.split[i] = sc.jumps[stop] == sc.jumps[i + 1]
                && match end {
                    Some(_) => true,
                    // The last value: only when nothing after the block reads it, and something
                    // in the block does (a value dead at once gains nothing).
                    None => !live_out.contains(&v) && sc.anchor_live_after[i],
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
            if let Some(v) = sc.anchor_of[i] {
                if sc.split[i] {
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
        self.scratch.push(sc);
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
            let names = &mut self.k.var_names;
            let want = self.k.vars.len() - 1;
            if names.len() != want {
                names.resize(want, String::new());
            }
            names.push(n);
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
