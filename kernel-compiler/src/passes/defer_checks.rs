//! Deferred bounds checks (for runs whose checks read memory the run loads; the others take the
//! cheaper `early_checks` path): a run of straight-line code (small `if`s included) that holds bounds
//! checks keeps one "all checks passed" flag instead of branching out at every check, guards the
//! memory accesses that follow a check with that flag, and panics at the end of the run, at the
//! first check that failed, with that check's index and length.
//!
//! Why: a check is a conditional branch to a panic block that ends the thread, and ptxas never
//! moves a load above such a branch (the load could fault). In a tile load such as
//! `for r in 0..4 { if ok(r) { tile[..] = inp[..] } }` each global load then waits for the one
//! before it (one full memory latency per row, 0.65x nvcc on an H200 transpose). With the checks
//! deferred, the guarded accesses are small `if`s that ptxas turns into predicated instructions
//! and schedules together, as it does for nvcc's code.
//!
//! What a thread observes is unchanged: every load, store and local-array access after a check
//! runs only while every check so far has passed (a guarded load that does not run leaves zero in
//! its destination, a value nothing observable reads, because the thread panics before the next
//! unguarded side effect); the panic reports the same site and detail values as the first failing
//! check would have: the run keeps copies of each check's operands (and of the conditions of the
//! `if`s around it) and, when the flag is down, evaluates the checks again in program order; it
//! happens before any barrier, collective, atomic, loop, jump, return or other panic that
//! follows. Only pure computations (which cannot fault: integer division by a variable ends a
//! run) execute on the values of accesses that were skipped. The hot path costs one compare and
//! one `and` per check; a run holds at most `MAX_CHECKS` checks, so the copies stay few.

use super::varset::VarSet;
use kernel_ir::ir::{BinOp, Block, Const, Inst, Kernel, Operand, SiteId, Ty, Var};
use kernel_ir::props::Props;
use kernel_ir::visit::{blocks, for_each_def, walk};

/// Returns whether any run of code was rewritten.
pub fn defer_checks(k: &mut Kernel) -> bool {
    let body = std::mem::take(&mut k.body);
    let mut changed = false;
    k.body = region(k, body, false, &mut changed);
    changed
}

/// Splits `b` into runs of deferrable instructions; rewrites each run and recurses into the
/// blocks of the instructions that end runs.
fn region(k: &mut Kernel, b: Block, in_loop: bool, changed: &mut bool) -> Block {
    // Deferring adds about half again the checked runs' length (flags, guards, copies).
    let mut out = Vec::with_capacity(b.0.len() * 3 / 2);
    let mut run = Vec::new();
    for inst in b.0 {
        if deferrable(&inst) {
            run.push(inst);
            continue;
        }
        finish_run(k, std::mem::take(&mut run), in_loop, &mut out, changed);
        out.push(match inst {
            Inst::If { cond, then, els } => Inst::If {
                cond,
                then: region(k, then, in_loop, changed),
                els: region(k, els, in_loop, changed),
            },
            Inst::For {
                id,
                iv,
                start,
                end,
                inclusive,
                step,
                reverse,
                body,
                unroll,
            } => Inst::For {
                id,
                iv,
                start,
                end,
                inclusive,
                step,
                reverse,
                body: region(k, body, true, changed),
                unroll,
            },
            Inst::Loop { id, body } => Inst::Loop {
                id,
                body: region(k, body, true, changed),
            },
            other => other,
        });
    }
    finish_run(k, run, in_loop, &mut out, changed);
    Block(out)
}

/// Whether `inst` may sit inside a deferred run: it cannot fault except through memory accesses
/// (which get guarded), does not synchronize with other threads and does not leave the run.
fn deferrable(inst: &Inst) -> bool {
    match inst {
        Inst::If { then, els, .. } => then.0.iter().all(deferrable) && els.0.iter().all(deferrable),
        // Integer division by a value that a skipped load could have left as 0 (or -1 for
        // `MIN / -1`) must not run on that value (`MAY_FAULT`).
        _ => !inst
            .props()
            .intersects(Props::CONTROL | Props::SYNC | Props::EFFECT | Props::MAY_FAULT),
    }
}

/// Whether the run has at least two loads after its first check: only then is there latency to
/// overlap (a lone load after a check has nothing to be issued together with).
fn worth_deferring(run: &[Inst]) -> bool {
    fn scan(insts: &[Inst], seen: &mut bool, loads: &mut u32) {
        for inst in insts {
            match inst {
                Inst::BoundsCheck { .. } => *seen = true,
                Inst::Load { .. } | Inst::ArrayLoad { .. } | Inst::LoadVec { .. } if *seen => {
                    *loads += 1
                }
                // A check in one branch guards a load after the `if`, not one in the other
                // branch; scanning both in order over-approximates, which only decides whether
                // to rewrite, never what is correct.
                Inst::If { then, els, .. } => {
                    scan(&then.0, seen, loads);
                    scan(&els.0, seen, loads);
                }
                _ => {}
            }
        }
    }
    let mut loads = 0;
    scan(run, &mut false, &mut loads);
    loads >= 2
}

/// Checks per run: each one keeps its operands alive until the run's end.
const MAX_CHECKS: usize = 16;

/// A deferred check: copies of its operands and of the conditions of the `if`s around it (with
/// the branch taken), so the panic dispatch at the end of the run can evaluate it again.
struct Pending {
    /// Pure instructions (fresh destinations) that recompute `idx`/`len` in the dispatch.
    remat: Vec<Inst>,
    idx: Operand,
    len: Operand,
    site: SiteId,
    path: Vec<(Operand, bool)>,
}

/// A pure instruction of the run whose destination the run assigns only there: its position,
/// whether it sits outside the run's `if`s (its value then holds until the run ends), and the
/// instruction.
struct PureDef {
    pos: u32,
    top: bool,
    inst: Inst,
}

/// An absent entry of the per-variable tables of [`Deferred`].
const NONE: u32 = u32::MAX;

/// The tables of [`Deferred`] are vectors indexed by variable (hash maps were most of this
/// pass's time on SGEMM); variables made after they were sized read as absent.
fn at(t: &[u32], v: Var) -> u32 {
    t.get(v.0 as usize).copied().unwrap_or(0)
}

impl Deferred {
    fn ahead(&self, v: Var) -> u32 {
        at(&self.ahead, v)
    }
    fn pure_def(&self, v: Var) -> Option<&PureDef> {
        let i = self.pure_def.get(v.0 as usize).copied().unwrap_or(NONE);
        (i != NONE).then(|| &self.pure_insts[i as usize])
    }
}

/// The state of one run.
struct Deferred {
    /// Whether every check so far has passed.
    ok: Var,
    pending: Vec<Pending>,
    /// Conditions of the enclosing `if`s inside the run (copies), with the branch.
    path: Vec<(Operand, bool)>,
    /// Whether a check precedes the current point (in program order) of the run.
    seen: bool,

    /// Per variable, how many assignments in the run are still ahead of the current point: a
    /// check operand with none ahead needs no copy.
    ahead: Vec<u32>,
    /// Assignments per variable in the whole run.
    total: Vec<u32>,
    /// The pure instruction (and its position) that assigned each variable the run assigns once:
    /// an index into `pure_insts` per variable ([`NONE`] when there is none).
    pure_def: Vec<u32>,
    pure_insts: Vec<PureDef>,
    /// Position of each variable's latest assignment in the run so far ([`NONE`] before any).
    def_pos: Vec<u32>,
    /// Instructions of the run passed so far (positions count up).
    pos: u32,
    /// Variables assigned so far inside the run's current top-level `if`: a check operand among
    /// them gets a copy too, so the value itself dies with the `if` (`speculate` can then move
    /// its arithmetic out) and only the copy outlives it.
    in_if: VarSet,
    /// Whether the dispatch may read the run's own values instead of recomputing them (see
    /// [`recompute`]): outside loops only.
    reuse: bool,
}

/// Outside loops a run whose checks read no loaded value takes the early path; inside a loop it
/// keeps the deferred flag. Measured on an H100 (same run, alternating with the nvcc twins): the
/// transpose's top-level tile phases went from 0.85x (deferred) to 0.99x (early), while SGEMM's
/// per-tile loads inside the `k` loop went from 1.00x (deferred) to 0.94x (early): there the head
/// puts every check's compare before the tile's first load in each iteration, on the path the
/// loop waits for.
fn finish_run(
    k: &mut Kernel,
    run: Vec<Inst>,
    in_loop: bool,
    out: &mut Vec<Inst>,
    changed: &mut bool,
) {
    if !worth_deferring(&run) {
        out.extend(run);
        return;
    }
    *changed = true;
    let mut ahead = vec![0u32; k.vars.len()];
    for inst in &run {
        walk_inst(inst, &mut |i| {
            for_each_def(i, |v| {
                let i = v.0 as usize;
                if i >= ahead.len() {
                    ahead.resize(i + 1, 0);
                }
                ahead[i] += 1;
            })
        });
    }
    let total = ahead.clone();
    if let Some(head) = (!in_loop)
        .then(|| super::early_checks::head(k, &run))
        .flatten()
    {
        out.extend(head);
        out.extend(super::early_checks::strip_checks(run));
        return;
    }
    let mut d = fresh_run(k, out, ahead, total);
    d.reuse = !in_loop;
    for inst in run {
        rewrite(k, inst, out, &mut d);
        if d.pending.len() >= MAX_CHECKS {
            flush(k, std::mem::take(&mut d.pending), d.ok, out);
            // A new flag; the tables about the run's assignments go on (sizing fresh ones
            // here only to replace them cost two vectors as long as the kernel's variables).
            d.ok = new_flag(k, out);
            d.path.clear();
            d.seen = false;
            d.in_if = VarSet::new();
        }
    }
    flush(k, d.pending, d.ok, out);
}

fn walk_inst(inst: &Inst, f: &mut impl FnMut(&Inst)) {
    f(inst);
    for c in blocks(inst) {
        walk(c, f);
    }
}

/// `ok = true` for a run's flag.
fn new_flag(k: &mut Kernel, out: &mut Vec<Inst>) -> Var {
    let ok = k.new_var(Ty::Bool);
    out.push(Inst::Mov {
        dst: ok,
        src: Const::bool(true).into(),
    });
    ok
}

fn fresh_run(k: &mut Kernel, out: &mut Vec<Inst>, ahead: Vec<u32>, total: Vec<u32>) -> Deferred {
    let ok = new_flag(k, out);
    let n = ahead.len();
    Deferred {
        ok,
        pending: Vec::new(),
        path: Vec::new(),
        seen: false,
        ahead,
        total,
        pure_def: vec![NONE; n],
        pure_insts: Vec::new(),
        def_pos: vec![NONE; n],
        pos: 0,
        in_if: VarSet::new(),
        reuse: false,
    }
}

/// Panics at the first failed check, in program order, among those that ran: every check before
/// the first failure ran on the values it would have had, so the first one that fails again here
/// is the one that failed first.
fn flush(k: &mut Kernel, pending: Vec<Pending>, ok: Var, out: &mut Vec<Inst>) {
    if pending.is_empty() {
        return;
    }
    let mut dispatch = Vec::new();
    for p in pending {
        let fail = k.new_var(Ty::Bool);
        let mut code = p.remat;
        code.extend([
            Inst::Binary {
                dst: fail,
                op: BinOp::Ge,
                a: p.idx,
                b: p.len,
            },
            Inst::If {
                cond: fail.into(),
                then: Block(vec![Inst::Panic {
                    site: p.site,
                    a: p.idx,
                    b: p.len,
                }]),
                els: Block::default(),
            },
        ]);
        for (cond, taken) in p.path.into_iter().rev() {
            let (then, els) = if taken {
                (Block(code), Block::default())
            } else {
                (Block::default(), Block(code))
            };
            code = vec![Inst::If { cond, then, els }];
        }
        dispatch.extend(code);
    }
    let failed = k.new_var(Ty::Bool);
    out.push(Inst::Unary {
        dst: failed,
        op: kernel_ir::ir::UnOp::Not,
        a: ok.into(),
    });
    out.push(Inst::If {
        cond: failed.into(),
        then: Block(dispatch),
        els: Block::default(),
    });
}

/// Largest recomputation of a check operand the dispatch makes instead of keeping a copy.
const MAX_REMAT: usize = 16;

/// `o` as the dispatch can read it: `o` itself when nothing later in the run overwrites it and
/// it does not die with an `if`; better, a recomputation (appended to `remat`) through the pure
/// instructions that made it, from values unchanged since (so `speculate` can move the original
/// arithmetic out of its `if`, and the value need not stay live); else a copy made here.
fn operand_for_dispatch(
    k: &mut Kernel,
    o: Operand,
    out: &mut Vec<Inst>,
    d: &Deferred,
    remat: &mut Vec<Inst>,
) -> Operand {
    if let Operand::Var(v) = o {
        let keeps = d.ahead(v) == 0 && !d.in_if.contains(&v);
        if !keeps || d.pure_def(v).is_some() {
            let mut code = Vec::new();
            let mut memo = Vec::with_capacity(2 * MAX_REMAT);
            let mut steps = 0;
            if let Some(r) = recompute(k, v, d.pos + 1, d, &mut memo, &mut code, &mut steps) {
                remat.extend(code);
                return r;
            }
        }
    }
    snapshot(k, o, out, d)
}

/// Recomputations made so far for one check operand: `(variable, position)` -> value. A short
/// list (a recomputation has at most [`MAX_REMAT`] steps), searched linearly: a hash map per
/// operand cost more in allocations than the lookups it saved.
type Memo = Vec<((Var, u32), Operand)>;

/// `v` as it was just before position `before`, at the end of the run: the variable itself when
/// the run assigns it only before `before` and never after the current point, or its pure
/// definition evaluated again from such values.
///
/// When that definition sits outside the run's `if`s and reads only values that are themselves
/// unchanged until the run's end, the recomputation would equal `v` (assigned once in the run)
/// step for step: `v` itself is the answer. `cse (defer)` used to find exactly these
/// recomputations again and the copy propagation after it removed them (about 1000 instructions
/// on SGEMM, walked by both). `steps` still counts them against [`MAX_REMAT`], so which operands
/// fall back to a copy does not change.
fn recompute(
    k: &mut Kernel,
    v: Var,
    before: u32,
    d: &Deferred,
    memo: &mut Memo,
    code: &mut Vec<Inst>,
    steps: &mut usize,
) -> Option<Operand> {
    if let Some((_, r)) = memo.iter().find(|(key, _)| *key == (v, before)) {
        return Some(*r);
    }
    let r = match d.pure_def(v) {
        Some(def) if def.pos < before => {
            if *steps >= MAX_REMAT {
                return None;
            }
            // A pure instruction reads at most three operands: each is replaced by its
            // recomputation, in operand order (no allocation per step of the recursion).
            let mut slots = [None; 3];
            let mut n = 0;
            kernel_ir::visit::for_each_use(&def.inst, |o| {
                if let Operand::Var(x) = o {
                    if let Some(s) = slots.get_mut(n) {
                        *s = Some(x);
                    }
                    n += 1;
                }
            });
            if n > slots.len() {
                return None;
            }
            let mut map = [None; 3];
            let mut same = def.top && d.reuse;
            for (m, x) in map.iter_mut().zip(slots) {
                if let Some(x) = x {
                    let r = recompute(k, x, def.pos, d, memo, code, steps)?;
                    same &= r == Operand::Var(x);
                    *m = Some((x, r));
                }
            }
            *steps += 1;
            if same {
                Operand::Var(v)
            } else {
                let mut inst = def.inst.clone();
                kernel_ir::visit::for_each_use_mut(&mut inst, |o| {
                    if let Operand::Var(x) = o {
                        // The last recomputation of `x` wins, as a map insert would have it
                        // (all are equal: the memo answers repeats).
                        if let Some((_, r)) = map.iter().flatten().rev().find(|(y, _)| y == x) {
                            *o = *r;
                        }
                    }
                });
                let fresh = k.new_var(k.ty(v));
                kernel_ir::visit::for_each_def_mut(&mut inst, |d| *d = fresh);
                code.push(inst);
                Operand::Var(fresh)
            }
        }
        _ => {
            let p = d.def_pos.get(v.0 as usize).copied().unwrap_or(NONE);
            let unchanged = d.ahead(v) == 0 && (p == NONE || p < before);
            if !unchanged {
                return None;
            }
            Operand::Var(v)
        }
    };
    // A key is never looked up deeper in its own recursion (positions only decrease), so it
    // is not in the list yet.
    memo.push(((v, before), r));
    Some(r)
}

/// `o`, or a copy of it when later code in the run overwrites it.
fn snapshot(k: &mut Kernel, o: Operand, out: &mut Vec<Inst>, d: &Deferred) -> Operand {
    match o {
        Operand::Const(_) => o,
        Operand::Var(v) if d.ahead(v) == 0 && !d.in_if.contains(&v) => o,
        Operand::Var(v) => {
            let s = k.new_var(k.ty(v));
            out.push(Inst::Mov { dst: s, src: o });
            s.into()
        }
    }
}

fn guard(d: &Deferred, then: Vec<Inst>, els: Vec<Inst>) -> Inst {
    Inst::If {
        cond: d.ok.into(),
        then: Block(then),
        els: Block(els),
    }
}

fn rewrite(k: &mut Kernel, inst: Inst, out: &mut Vec<Inst>, d: &mut Deferred) {
    // An `if`'s own assignments are its branches', counted as the recursion passes them.
    d.pos += 1;
    if let Some(v) =
        super::util::pure_def(&inst).filter(|_| !matches!(inst, Inst::Intrinsic { .. }))
    {
        if at(&d.total, v) == 1 {
            if let Some(slot) = d.pure_def.get_mut(v.0 as usize) {
                *slot = d.pure_insts.len() as u32;
                d.pure_insts.push(PureDef {
                    pos: d.pos,
                    top: d.path.is_empty(),
                    inst: inst.clone(),
                });
            }
        }
    }
    if !matches!(inst, Inst::If { .. }) {
        let pos = d.pos;
        for_each_def(&inst, |v| {
            if let Some(p) = d.def_pos.get_mut(v.0 as usize) {
                *p = pos;
            }
        });
    }
    if !matches!(inst, Inst::If { .. }) {
        for_each_def(&inst, |v| {
            if let Some(n) = d.ahead.get_mut(v.0 as usize) {
                *n = n.saturating_sub(1);
            }
            if !d.path.is_empty() {
                d.in_if.insert(v);
            }
        });
    }
    match inst {
        Inst::BoundsCheck { idx, len, site } => {
            let pass = k.new_var(Ty::Bool);
            out.push(Inst::Binary {
                dst: pass,
                op: BinOp::Lt,
                a: idx,
                b: len,
            });
            // Outside the run's `if`s each step of the flag is a fresh variable (the
            // `split_webs` after this pass then has no chain to split); inside one, the step
            // must update the flag the code after the `if` reads.
            let next = if d.path.is_empty() {
                k.new_var(Ty::Bool)
            } else {
                d.ok
            };
            out.push(Inst::Binary {
                dst: next,
                op: BinOp::And,
                a: d.ok.into(),
                b: pass.into(),
            });
            d.ok = next;
            let mut remat = Vec::new();
            let idx = operand_for_dispatch(k, idx, out, d, &mut remat);
            let len = operand_for_dispatch(k, len, out, d, &mut remat);
            d.pending.push(Pending {
                remat,
                idx,
                len,
                site,
                path: d.path.clone(),
            });
            d.seen = true;
        }
        Inst::Load { dst, .. } | Inst::ArrayLoad { dst, .. } if d.seen => {
            let zero = Inst::Mov {
                dst,
                src: Const {
                    ty: k.ty(dst),
                    bits: 0,
                }
                .into(),
            };
            let reads_dst = kernel_ir::visit::nested_reads(&inst, dst);
            if reads_dst {
                out.push(guard(d, vec![inst], vec![zero]));
            } else {
                // `x = 0; if ok { x = load }`: the zero is no consumer of the load.
                out.push(zero);
                out.push(guard(d, vec![inst], vec![]));
            }
        }
        Inst::Store { .. } | Inst::ArrayStore { .. } | Inst::LoadVec { .. } if d.seen => {
            out.push(guard(d, vec![inst], vec![]));
        }
        Inst::If { cond, then, els } => {
            let c = snapshot(k, cond, out, d);
            if d.path.is_empty() {
                d.in_if.clear();
            }
            let mut t = Vec::new();
            d.path.push((c, true));
            for i in then.0 {
                rewrite(k, i, &mut t, d);
            }
            d.path.pop();
            let mut e = Vec::new();
            d.path.push((c, false));
            for i in els.0 {
                rewrite(k, i, &mut e, d);
            }
            d.path.pop();
            out.push(Inst::If {
                cond: c,
                then: Block(t),
                els: Block(e),
            });
        }
        other => out.push(other),
    }
}

#[cfg(test)]
mod tests {
    use super::super::testkit::*;
    use super::*;
    use kernel_ir::ir::Unroll;
    use kernel_ir::visit::walk;

    /// `i = x + 1` checked against 16, two loads through `p + i`, then a check of a loaded value
    /// (which keeps the run off the early path): how many `add`s the deferred code holds.
    fn adds_after_deferring(in_loop: bool) -> usize {
        let mut k = kernel();
        let p = param(&mut k, "p", Ty::U64);
        let x = param(&mut k, "x", Ty::U64);
        let [i, a, j, l] = [(); 4].map(|_| k.new_var(Ty::U64));
        let run = vec![
            bin(i, BinOp::Add, x, u64c(1)),
            check(i, u64c(16)),
            bin(a, BinOp::Add, p, i),
            load(j, a),
            load(l, a),
            check(j, u64c(8)),
            store(p, l),
        ];
        k.body = Block(if in_loop {
            let iv = k.new_var(Ty::U32);
            vec![for_(&mut k, iv, u32c(0), u32c(4), Unroll::Never, run)]
        } else {
            run
        });
        assert!(defer_checks(&mut k));
        let mut adds = 0;
        walk(&k.body, &mut |inst| {
            adds += usize::from(matches!(inst, Inst::Binary { op: BinOp::Add, .. }));
        });
        adds
    }

    #[test]
    fn the_dispatch_reads_the_runs_own_index_outside_loops() {
        // Outside a loop the panic dispatch reads `i`; inside one it computes `x + 1` again.
        assert_eq!(adds_after_deferring(false), 2);
        assert_eq!(adds_after_deferring(true), 3);
    }
}
