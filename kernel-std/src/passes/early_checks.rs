//! Early checks: a straight-line run whose bounds checks depend on no memory it reads evaluates
//! all of them at its head, panics there at the first one (in program order) that would fail,
//! and then runs without checks.
//!
//! Why: deferred checks ([`super::defer_checks`]) keep the run's control flow straight, but the
//! panic dispatch at the end of the run keeps every check's operands and conditions alive across
//! the run's loads and stores. ptxas then fits the tile loads of a transpose into its register
//! target by interleaving them with the shared stores (three groups of loads instead of one). With
//! the dispatch at the head nothing outlives it, and the run is the unchecked code: ptxas issues
//! all the loads first, as for nvcc's build.
//!
//! What changes for a thread: when a check of the run fails, the accesses of the run before it do
//! not happen either. The kernel stops with the same report (site, index, length) as the first
//! failing check would give, and no memory holds a value the Rust code would not have written.
//! Checks whose operands or path conditions come from a load in the run (an index read from
//! memory) cannot move; such runs keep the deferred flag.

use super::check_cover::{self, Reached};
use super::fx::FxHashMap;

use super::util::{
    child_blocks, for_each_def, for_each_use, for_each_use_mut, pure_value, set_pure_dst,
};
use crate::ir::{BinOp, Block, Inst, Kernel, Operand, SiteId, Ty, UnOp, Var};

/// One assignment in the run: where (pre-order position), under which `if` branches, and the
/// instruction when it is pure.
struct Def<'a> {
    pos: u32,
    path: Vec<(u32, bool)>,
    inst: Option<&'a Inst>,
}

/// A variable's first two assignments in the run, in order: [`Head::value`] needs a value's
/// only assignment before a point, so a third never decides anything (keeping every one, each
/// with a copy of its instruction, was most of the head's time).
type FirstDefs<'a> = [Option<Def<'a>>; 2];

/// A check as the head sees it: position, path (with each `if`'s condition), operands.
struct Check {
    pos: u32,
    path: Vec<(u32, bool)>,
    conds: Vec<(u32, Operand, bool)>,
    idx: Operand,
    len: Operand,
    site: SiteId,
}

#[derive(Default)]
struct Scan<'a> {
    pos: u32,
    path: Vec<(u32, bool)>,
    conds: Vec<(u32, Operand, bool)>,
    defs: FxHashMap<Var, FirstDefs<'a>>,
    checks: Vec<Check>,
}

impl<'a> Scan<'a> {
    fn inst(&mut self, inst: &'a Inst) {
        self.pos += 1;
        let pos = self.pos;
        for_each_def(inst, |v| {
            let first = self.defs.entry(v).or_default();
            if let Some(slot) = first.iter_mut().find(|d| d.is_none()) {
                *slot = Some(Def {
                    pos,
                    path: self.path.clone(),
                    inst: pure_value(inst, true).then_some(inst),
                });
            }
        });
        match inst {
            Inst::BoundsCheck { idx, len, site } => self.checks.push(Check {
                pos,
                path: self.path.clone(),
                conds: self.conds.clone(),
                idx: *idx,
                len: *len,
                site: *site,
            }),
            Inst::If { cond, then, els } => {
                for (taken, b) in [(true, then), (false, els)] {
                    self.path.push((pos, taken));
                    self.conds.push((pos, *cond, taken));
                    for i in &b.0 {
                        self.inst(i);
                    }
                    self.conds.pop();
                    self.path.pop();
                }
            }
            other => debug_assert!(child_blocks(other).is_empty()),
        }
    }
}

/// Largest head, in instructions: beyond it the run keeps the chained flag.
const MAX_HEAD: usize = 256;

struct Head<'a> {
    k: &'a mut Kernel,
    defs: &'a FxHashMap<Var, FirstDefs<'a>>,
    memo: FxHashMap<(Var, u32), Operand>,
    code: Vec<Inst>,
}

impl Head<'_> {
    /// `o` as it is at position `at` (under `path`), computed from values the run has not
    /// assigned yet; `None` when it depends on a load, an impure or conditional assignment.
    fn value(&mut self, o: Operand, at: u32, path: &[(u32, bool)]) -> Option<Operand> {
        let Operand::Var(v) = o else { return Some(o) };
        if let Some(r) = self.memo.get(&(v, at)) {
            return Some(*r);
        }
        let defs = self.defs.get(&v).map(|d| &d[..]).unwrap_or_default();
        let mut before = defs.iter().flatten().filter(|d| d.pos < at);
        let r = match (before.next(), before.next()) {
            (None, _) => o,
            (Some(d), None) => {
                // The assignment must happen whenever `at` is reached: its branch path is a
                // prefix of `at`'s.
                let dominates = d.path.len() <= path.len() && d.path[..] == path[..d.path.len()];
                let inst = d.inst.filter(|_| dominates)?;
                if self.code.len() >= MAX_HEAD {
                    return None;
                }
                let (def_pos, def_path) = (d.pos, d.path.clone());
                let mut inst = inst.clone();
                let mut reads = Vec::new();
                for_each_use(&inst, |o| {
                    if let Operand::Var(x) = o {
                        reads.push(x);
                    }
                });
                // Each read becomes its value at the definition, in operand order (a short
                // list: a map per step was most of this function's time).
                let mut map: Vec<(Var, Operand)> = Vec::with_capacity(reads.len());
                for x in reads {
                    let r = self.value(x.into(), def_pos, &def_path)?;
                    map.push((x, r));
                }
                for_each_use_mut(&mut inst, |o| {
                    if let Operand::Var(x) = o {
                        // The last value found for `x` wins, as a map insert would have it.
                        if let Some((_, r)) = map.iter().rev().find(|(y, _)| y == x) {
                            *o = *r;
                        }
                    }
                });
                let fresh = self.k.new_var(self.k.ty(v));
                set_pure_dst(&mut inst, fresh);
                self.code.push(inst);
                Operand::Var(fresh)
            }
            _ => return None,
        };
        self.memo.insert((v, at), r);
        Some(r)
    }

    fn bool_op(&mut self, op: BinOp, a: Operand, b: Operand) -> Operand {
        let dst = self.k.new_var(Ty::Bool);
        self.code.push(Inst::Binary { dst, op, a, b });
        dst.into()
    }

    fn not(&mut self, a: Operand) -> Operand {
        let dst = self.k.new_var(Ty::Bool);
        self.code.push(Inst::Unary {
            dst,
            op: UnOp::Not,
            a,
        });
        dst.into()
    }
}

/// Code for the head of `run`: evaluates every check the run would make and, when one fails,
/// panics at the first failing one in program order, with its index and length; `None` when a
/// check cannot be evaluated there. After the head, every check of the run passes.
pub(super) fn head(k: &mut Kernel, run: &[Inst]) -> Option<Vec<Inst>> {
    let mut scan = Scan::default();
    // Most instructions of a run define a value: room for them all at once.
    scan.defs.reserve(run.len());
    for inst in run {
        scan.inst(inst);
    }
    if scan.checks.is_empty() {
        return None;
    }
    let mut h = Head {
        k,
        defs: &scan.defs,
        memo: FxHashMap::with_capacity_and_hasher(2 * MAX_HEAD, Default::default()),
        code: Vec::with_capacity(MAX_HEAD),
    };
    let mut all: Option<Operand> = None;
    let mut dispatch = Vec::new();
    let mut reached = Vec::with_capacity(scan.checks.len());
    for c in &scan.checks {
        let idx = h.value(c.idx, c.pos, &c.path)?;
        let len = h.value(c.len, c.pos, &c.path)?;
        let mut on_path = Vec::with_capacity(c.conds.len());
        let fail = h.bool_op(BinOp::Ge, idx, len);
        // Fails when reached: `fail && c0 == t0 && c1 == t1 ...`.
        let mut fails = fail;
        let mut panic = vec![Inst::If {
            cond: fail,
            then: Block(vec![Inst::Panic {
                site: c.site,
                a: idx,
                b: len,
            }]),
            els: Block::default(),
        }];
        for (if_pos, cond, taken) in c.conds.iter().rev() {
            let prefix: Vec<(u32, bool)> = c
                .path
                .iter()
                .take_while(|(p, _)| p < if_pos)
                .copied()
                .collect();
            let cv = h.value(*cond, *if_pos, &prefix)?;
            on_path.push((cv, *taken));
            let reached = if *taken { cv } else { h.not(cv) };
            fails = h.bool_op(BinOp::And, reached, fails);
            let (then, els) = if *taken {
                (Block(panic), Block::default())
            } else {
                (Block::default(), Block(panic))
            };
            panic = vec![Inst::If {
                cond: cv,
                then,
                els,
            }];
        }
        reached.push(Reached {
            idx,
            len,
            conds: on_path,
        });
        dispatch.extend(panic);
        all = Some(match all {
            None => fails,
            Some(a) => h.bool_op(BinOp::Or, a, fails),
        });
    }
    let Head { k, code, .. } = h;
    Some(check_cover::wrap(k, code, all?, dispatch, &reached))
}

/// `b` without its bounds checks (the head made them).
pub(super) fn strip_checks(b: Vec<Inst>) -> Vec<Inst> {
    b.into_iter()
        .filter(|i| !matches!(i, Inst::BoundsCheck { .. }))
        .map(|i| match i {
            Inst::If { cond, then, els } => Inst::If {
                cond,
                then: Block(strip_checks(then.0)),
                els: Block(strip_checks(els.0)),
            },
            other => other,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::testkit::*;
    use super::*;

    /// `i = x + r` checked against `n` and `j = p[i]` checked against 8: the first check only
    /// reads parameters, the second a loaded value.
    fn two_checks(k: &mut Kernel, with_loaded_index: bool) -> Vec<Inst> {
        let p = param(k, "p", Ty::U64);
        let x = param(k, "x", Ty::U64);
        let (i, j, a) = (k.new_var(Ty::U64), k.new_var(Ty::U64), k.new_var(Ty::U64));
        let mut run = vec![
            bin(i, BinOp::Add, x, u64c(1)),
            check(i, u64c(16)),
            bin(a, BinOp::Add, p, i),
            load(j, a),
        ];
        if with_loaded_index {
            run.extend([check(j, u64c(8)), store(p, j)]);
        } else {
            run.push(store(p, i));
        }
        run
    }

    #[test]
    fn checks_on_parameters_move_to_the_head() {
        let mut k = kernel();
        let run = two_checks(&mut k, false);
        let head = head(&mut k, &run).expect("the check reads only parameters");
        // The head ends in the dispatch, which panics at the check's site.
        assert!(matches!(head.last(), Some(Inst::If { .. })));
        assert_eq!(
            strip_checks(run)
                .iter()
                .filter(|i| matches!(i, Inst::BoundsCheck { .. }))
                .count(),
            0
        );
    }

    #[test]
    fn a_check_on_a_loaded_index_keeps_the_run_deferred() {
        let mut k = kernel();
        let run = two_checks(&mut k, true);
        assert!(head(&mut k, &run).is_none());
    }
}
