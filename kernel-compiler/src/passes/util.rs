//! Walkers and small analyses over the structured IR that several passes share.

use super::fx::{FxHashMap, FxHashSet};

use kernel_ir::ir::{Block, Inst, Kernel, LoopId, Operand, Var};
use kernel_ir::visit::{
    for_each_def, for_each_use, for_each_use_mut, nested_reads, single_def, walk, walk_mut,
};

/// The one variable a pure value (see `Props::is_pure`) writes: what a pass may compute
/// earlier, again or speculatively.
pub fn pure_def(inst: &Inst) -> Option<Var> {
    if inst.props().is_pure() {
        single_def(inst)
    } else {
        None
    }
}

/// Whether `b` can panic: a cold branch (a check's panic, the dispatch of a run's early or
/// deferred checks, a user's `assert!`). Code moved out of one would run on the hot path of
/// every thread, and values it reads from the hot path stay live into it.
pub fn can_panic(b: &Block) -> bool {
    let mut found = false;
    walk(b, &mut |i| found |= matches!(i, Inst::Panic { .. }));
    found
}

/// Every variable written anywhere in `b` (nested blocks and loop induction variables included).
pub fn assigned_vars(b: &Block) -> FxHashSet<Var> {
    let mut s = FxHashSet::default();
    walk(b, &mut |i| {
        for_each_def(i, |v| {
            s.insert(v);
        })
    });
    s
}

/// [`assigned_vars`] as a bit set (`vars`: the kernel's variable count, for its size): a hash
/// set of an unrolled loop body's thousands of variables cost more than the pass using it.
pub fn assigned_set(b: &Block, vars: usize) -> super::varset::VarSet {
    let mut s = super::varset::VarSet::with_capacity(vars);
    walk(b, &mut |i| {
        for_each_def(i, |v| {
            s.insert(v);
        })
    });
    s
}

/// How often each variable is read, over the whole kernel.
pub fn use_counts(k: &Kernel) -> Vec<u32> {
    let mut n = vec![0u32; k.vars.len()];
    walk(&k.body, &mut |i| {
        for_each_use(i, |o| {
            if let Operand::Var(v) = o {
                n[v.0 as usize] += 1;
            }
        })
    });
    n
}

/// How often each variable is written (textually) over the whole kernel, parameter pieces included.
pub fn def_counts(k: &Kernel) -> Vec<u32> {
    let mut n = vec![0u32; k.vars.len()];
    for p in &k.params {
        for (_, v) in &p.pieces {
            n[v.0 as usize] += 1;
        }
    }
    walk(&k.body, &mut |i| for_each_def(i, |v| n[v.0 as usize] += 1));
    n
}

/// [`def_counts`] and [`use_counts`] from one walk.
pub fn def_use_counts(k: &Kernel) -> (Vec<u32>, Vec<u32>) {
    let mut defs = vec![0u32; k.vars.len()];
    let mut uses = vec![0u32; k.vars.len()];
    for p in &k.params {
        for (_, v) in &p.pieces {
            defs[v.0 as usize] += 1;
        }
    }
    walk(&k.body, &mut |i| {
        for_each_def(i, |v| defs[v.0 as usize] += 1);
        for_each_use(i, |o| {
            if let Operand::Var(v) = o {
                uses[v.0 as usize] += 1;
            }
        })
    });
    (defs, uses)
}

/// Number of instructions in `b`, nested ones included (a size measure for unrolling). Source
/// position markers cost nothing, so they do not count.
pub fn inst_count(b: &Block) -> usize {
    let mut n = 0;
    walk(b, &mut |i| n += !matches!(i, Inst::Loc(_)) as usize);
    n
}

/// Drops every `Loc` marker of `b`, at every depth (what a compile for a GPU does first: see
/// `CompileOptions::source_markers`).
pub fn strip_locs(b: &mut Block) {
    b.0.retain(|i| !matches!(i, Inst::Loc(_)));
    for inst in &mut b.0 {
        match inst {
            Inst::If { then, els, .. } => {
                strip_locs(then);
                strip_locs(els);
            }
            Inst::For { body, .. } | Inst::Loop { body, .. } => strip_locs(body),
            _ => {}
        }
    }
}

/// Drops the `Loc` markers of `b` (top level only) that cover no instruction: one directly
/// followed by another marker, or last in its block. A block of markers alone becomes empty, so
/// the passes that delete empty `if`s and loops still see it as empty. Returns whether anything
/// was dropped.
pub fn prune_locs(b: &mut Block) -> bool {
    // A marker survives only if a non-marker instruction follows it directly. Most calls find
    // nothing to drop: test first, so that they move nothing.
    let is_loc = |i: &Inst| matches!(i, Inst::Loc(_));
    let drops = |w: &[Inst]| is_loc(&w[0]) && is_loc(&w[1]);
    let last_is_loc = b.0.last().is_some_and(is_loc);
    if !last_is_loc && !b.0.windows(2).any(drops) {
        return false;
    }
    let n = b.0.len();
    let keep: Vec<bool> = (0..n)
        .map(|i| !is_loc(&b.0[i]) || b.0.get(i + 1).is_some_and(|x| !is_loc(x)))
        .collect();
    let mut it = keep.into_iter();
    b.0.retain(|_| it.next().unwrap_or(true));
    true
}

/// Drops every `Loc` marker equal to the one already in force where it stands (the last
/// marker before it in its block, else `outer`, the enclosing block's), at every depth. Unrolled
/// copies of a statement each carry its marker: an 8x8 unrolled `acc[i][j] += ..` is 64
/// markers for one line, over a third of the instructions every later pass walks. A marker's
/// scope ends with its block (the simulator and the PTX emitter restore the outer one), so a
/// repeated marker changes no report. Returns whether anything was dropped.
pub fn drop_repeated_locs(b: &mut Block, outer: Option<kernel_ir::ir::SourceLoc>) -> bool {
    let mut active = outer;
    let mut changed = false;
    b.0.retain_mut(|i| {
        match i {
            Inst::Loc(l) => {
                if active == Some(*l) {
                    changed = true;
                    return false;
                }
                active = Some(*l);
            }
            Inst::If { then, els, .. } => {
                changed |= drop_repeated_locs(then, active);
                changed |= drop_repeated_locs(els, active);
            }
            Inst::For { body, .. } | Inst::Loop { body, .. } => {
                changed |= drop_repeated_locs(body, active);
            }
            _ => {}
        }
        true
    });
    changed
}

/// Whether `a` and `b` do the same thing: equal once source markers are ignored (at every depth).
pub fn same_ignoring_locs(a: &Block, b: &Block) -> bool {
    let code = |b: &Block| b.0.iter().filter(|i| !matches!(i, Inst::Loc(_))).count();
    if code(a) != code(b) {
        return false;
    }
    let xs = a.0.iter().filter(|i| !matches!(i, Inst::Loc(_)));
    let ys = b.0.iter().filter(|i| !matches!(i, Inst::Loc(_)));
    xs.zip(ys).all(|(x, y)| match (x, y) {
        (
            Inst::If {
                cond: c1,
                then: t1,
                els: e1,
            },
            Inst::If {
                cond: c2,
                then: t2,
                els: e2,
            },
        ) => c1 == c2 && same_ignoring_locs(t1, t2) && same_ignoring_locs(e1, e2),
        (Inst::Loop { id: i1, body: b1 }, Inst::Loop { id: i2, body: b2 }) => {
            i1 == i2 && same_ignoring_locs(b1, b2)
        }
        (
            Inst::For {
                id: i1,
                iv: v1,
                start: s1,
                end: n1,
                inclusive: c1,
                step: p1,
                reverse: r1,
                body: b1,
                unroll: u1,
            },
            Inst::For {
                id: i2,
                iv: v2,
                start: s2,
                end: n2,
                inclusive: c2,
                step: p2,
                reverse: r2,
                body: b2,
                unroll: u2,
            },
        ) => {
            (i1, v1, s1, n1, c1, p1, r1, u1) == (i2, v2, s2, n2, c2, p2, r2, u2)
                && same_ignoring_locs(b1, b2)
        }
        _ => x == y,
    })
}

/// Gives every loop defined inside `b` a fresh id (and rewrites the breaks/continues that name it),
/// so that copies of one body never share loop ids.
pub fn refresh_loop_ids(k: &mut Kernel, b: &mut Block) {
    let mut map: FxHashMap<LoopId, LoopId> = FxHashMap::default();
    walk_mut(b, &mut |i| {
        if let Inst::For { id, .. } | Inst::Loop { id, .. } = i {
            let fresh = k.new_loop();
            map.insert(*id, fresh);
            *id = fresh;
        }
    });
    walk_mut(b, &mut |i| {
        if let Inst::Break(l) | Inst::Continue(l) = i {
            if let Some(n) = map.get(l) {
                *l = *n;
            }
        }
    });
}

/// Whether the value `v` holds before `rest` is never read: `rest` overwrites `v` (at its top
/// level) before reading it, or reaches its end without reading it and `top` says the block is
/// the kernel's outermost one. Unrolled copies reuse one variable per copy, so this catches dead
/// temporaries that use counts miss.
pub fn dead_after(rest: &[Inst], v: Var, top: bool) -> bool {
    for inst in rest {
        if nested_reads(inst, v) {
            return false;
        }
        let mut defines = false;
        for_each_def(inst, |d| defines |= d == v);
        if defines {
            return true;
        }
        if matches!(inst, Inst::Return | Inst::Panic { .. }) {
            return true;
        }
    }
    top
}

/// Reads of `x` after `x = mov y` in the same block (nested code included) read `y` instead,
/// where `x` and `y` are each assigned once in the whole kernel and `y` before the move: within
/// one run of the block nothing can assign either again, so both hold the same value there. A
/// move left with no reader goes. Returns whether anything changed.
///
/// Why: `cse` turns a value computed again into a move from the first result; after
/// `split_webs` every such copy has one assignment, and the passes after `cse` would otherwise
/// walk (and look through) every copy until the final cleanup.
pub fn propagate_single_copies(k: &mut Kernel) -> bool {
    let (defs, uses) = def_use_counts(k);
    let mut seen = super::varset::VarSet::with_capacity(k.vars.len());
    for p in &k.params {
        for (_, v) in &p.pieces {
            seen.insert(*v);
        }
    }
    let mut cx = Copies {
        defs,
        uses,
        seen,
        map: vec![u32::MAX; k.vars.len()],
        changed: false,
    };
    let mut body = std::mem::take(&mut k.body);
    cx.block(&mut body);
    k.body = body;
    cx.changed
}

struct Copies {
    defs: Vec<u32>,
    /// Reads left per variable.
    uses: Vec<u32>,
    /// Variables assigned so far in program order (pre-order of the tree).
    seen: super::varset::VarSet,
    /// Per variable, the variable its reads read instead (`u32::MAX`: itself), for the copies
    /// of the enclosing blocks' runs so far.
    map: Vec<u32>,
    changed: bool,
}

impl Copies {
    fn block(&mut self, b: &mut Block) {
        // The copies made in this block: position and destination.
        let mut active: Vec<(usize, Var)> = Vec::new();
        for (n, inst) in b.0.iter_mut().enumerate() {
            let (map, uses, changed) = (&self.map, &mut self.uses, &mut self.changed);
            for_each_use_mut(inst, |o| {
                if let Operand::Var(v) = o {
                    let r = map[v.0 as usize];
                    if r != u32::MAX {
                        uses[v.0 as usize] -= 1;
                        uses[r as usize] += 1;
                        *o = Operand::Var(Var(r));
                        *changed = true;
                    }
                }
            });
            match inst {
                Inst::If { then, els, .. } => {
                    self.block(then);
                    self.block(els);
                }
                Inst::For { body, .. } | Inst::Loop { body, .. } => self.block(body),
                _ => {}
            }
            let seen = &mut self.seen;
            for_each_def(inst, |v| {
                seen.insert(v);
            });
            if let Inst::Mov {
                dst: x,
                src: Operand::Var(y),
            } = inst
            {
                let (x, y) = (*x, *y);
                if x != y
                    && self.defs[x.0 as usize] == 1
                    && self.defs[y.0 as usize] == 1
                    && self.seen.contains(&y)
                {
                    self.map[x.0 as usize] = y.0;
                    active.push((n, x));
                }
            }
        }
        let mut dead = Vec::new();
        for (n, x) in active {
            self.map[x.0 as usize] = u32::MAX;
            if self.uses[x.0 as usize] == 0 {
                dead.push(n);
            }
        }
        if !dead.is_empty() {
            self.changed = true;
            for &n in &dead {
                // The move's own read goes with it.
                if let Inst::Mov {
                    src: Operand::Var(y),
                    ..
                } = b.0[n]
                {
                    self.uses[y.0 as usize] -= 1;
                }
            }
            let mut d = dead.into_iter().peekable();
            let mut n = 0;
            b.0.retain(|_| {
                let drop = d.peek() == Some(&n);
                if drop {
                    d.next();
                }
                n += 1;
                !drop
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kernel_ir::ir::{Const, SourceLoc};

    fn loc(line: u32) -> Inst {
        Inst::Loc(SourceLoc {
            file: "f.rs",
            line,
            col: 1,
        })
    }

    #[test]
    fn single_copies_are_read_through_and_dropped() {
        use crate::passes::testkit::*;
        use kernel_ir::ir::{BinOp, Ty};
        let mut k = kernel();
        let p = param(&mut k, "p", Ty::U64);
        let q = param(&mut k, "q", Ty::Bool);
        let (a, x, y, z) = (
            k.new_var(Ty::U64),
            k.new_var(Ty::U64),
            k.new_var(Ty::U64),
            k.new_var(Ty::U64),
        );
        k.body.0 = vec![
            bin(a, BinOp::Add, p, u64c(8)),
            // One assignment each: read through, then gone.
            mov(x, a),
            if_(q, vec![store(x, u64c(1))], vec![]),
            bin(y, BinOp::Add, x, u64c(4)),
            store(y, x),
            // `z` is assigned twice: its copy stays.
            mov(z, a),
            store(z, u64c(2)),
            mov(z, p),
            store(z, u64c(3)),
        ];
        let orig = k.clone();
        assert!(propagate_single_copies(&mut k));
        let got = super::super::testkit::text(&k);
        assert!(!got.contains("v3 = mov"), "{got}");
        assert!(got.contains("v4 = add.u64 v2, 4u64"), "{got}");
        assert!(got.contains("v5 = mov v2"), "{got}");
        for qv in [true, false] {
            let args = [(p, Const::u64(64)), (q, Const::bool(qv))];
            assert_eq!(run(&orig, &args), run(&k, &args));
        }
        assert!(!propagate_single_copies(&mut k));
    }

    #[test]
    fn markers_that_cover_nothing_are_pruned() {
        let mut b = Block(vec![loc(1), loc(2), Inst::Return, loc(3), loc(4)]);
        assert!(prune_locs(&mut b));
        assert_eq!(b.0, vec![loc(2), Inst::Return]);
        assert!(!prune_locs(&mut b));
        let mut only = Block(vec![loc(1), loc(2)]);
        assert!(prune_locs(&mut only));
        assert!(only.0.is_empty());
        assert_eq!(inst_count(&Block(vec![loc(1), Inst::Return])), 1);
    }

    #[test]
    fn markers_equal_to_the_one_in_force_are_dropped() {
        let ret = || Inst::Return;
        let nested = |then: Vec<Inst>| Inst::If {
            cond: Const::bool(true).into(),
            then: Block(then),
            els: Block(vec![loc(2), ret()]),
        };
        // The nested block inherits 1 (so its 1 goes, its 2 stays), and its 2 ends with it: the
        // outer block is still at 1 after it.
        let mut b = Block(vec![
            loc(1),
            ret(),
            loc(1),
            nested(vec![loc(1), ret(), loc(2), ret()]),
            loc(1),
            ret(),
            loc(3),
            ret(),
            loc(1),
        ]);
        assert!(drop_repeated_locs(&mut b, None));
        let want = Block(vec![
            loc(1),
            ret(),
            nested(vec![ret(), loc(2), ret()]),
            ret(),
            loc(3),
            ret(),
            loc(1),
        ]);
        assert_eq!(b, want);
        assert!(!drop_repeated_locs(&mut b, None));
        let mut inherited = Block(vec![loc(3), ret()]);
        assert!(drop_repeated_locs(
            &mut inherited,
            Some(match loc(3) {
                Inst::Loc(l) => l,
                _ => unreachable!(),
            })
        ));
        assert_eq!(inherited.0, vec![ret()]);
    }

    #[test]
    fn blocks_differing_only_in_markers_are_the_same() {
        let inner = |l| Inst::If {
            cond: Const::bool(true).into(),
            then: Block(vec![loc(l), Inst::Return]),
            els: Block::default(),
        };
        let a = Block(vec![loc(1), inner(2)]);
        let b = Block(vec![inner(5), loc(9)]);
        assert!(same_ignoring_locs(&a, &b));
        let c = Block(vec![inner(5), Inst::Return]);
        assert!(!same_ignoring_locs(&a, &c));
    }
}
