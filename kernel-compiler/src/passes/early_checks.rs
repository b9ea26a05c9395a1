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
use super::fx::{FxHashMap, FxHashSet};

use super::util::pure_def;
use kernel_ir::ir::{BinOp, Block, Inst, Kernel, Operand, SiteId, Ty, UnOp, Var};
use kernel_ir::visit::{for_each_def, for_each_use, for_each_use_mut, is_compound};

/// One assignment in the run: where (pre-order position), under which `if` branches (an index
/// into [`Scan::paths`]), and the instruction when it is pure.
struct Def<'a> {
    pos: u32,
    path: u32,
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

struct Scan<'a> {
    pos: u32,
    path: Vec<(u32, bool)>,
    /// Every branch path the scan has been under, the empty one first; [`Def::path`] and
    /// [`Scan::cur`] index it. One copy per `if` branch instead of one per assignment (most
    /// of the scan's allocations: the runs that reach the head are mostly guarded code).
    paths: Vec<Vec<(u32, bool)>>,
    /// The entry of `paths` equal to `path`.
    cur: u32,
    conds: Vec<(u32, Operand, bool)>,
    defs: FxHashMap<Var, FirstDefs<'a>>,
    checks: Vec<Check>,
}

impl<'a> Scan<'a> {
    fn new(run_len: usize) -> Self {
        let mut defs = FxHashMap::default();
        // Most instructions of a run define a value: room for them all at once.
        defs.reserve(run_len);
        Scan {
            pos: 0,
            path: Vec::new(),
            paths: vec![Vec::new()],
            cur: 0,
            conds: Vec::new(),
            defs,
            checks: Vec::new(),
        }
    }

    fn inst(&mut self, inst: &'a Inst) {
        self.pos += 1;
        let pos = self.pos;
        for_each_def(inst, |v| {
            let first = self.defs.entry(v).or_default();
            if let Some(slot) = first.iter_mut().find(|d| d.is_none()) {
                *slot = Some(Def {
                    pos,
                    path: self.cur,
                    inst: pure_def(inst).is_some().then_some(inst),
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
                let outer = self.cur;
                for (taken, b) in [(true, then), (false, els)] {
                    self.path.push((pos, taken));
                    self.conds.push((pos, *cond, taken));
                    self.cur = self.paths.len() as u32;
                    self.paths.push(self.path.clone());
                    for i in &b.0 {
                        self.inst(i);
                    }
                    self.conds.pop();
                    self.path.pop();
                }
                self.cur = outer;
            }
            other => debug_assert!(!is_compound(other)),
        }
    }
}

/// Largest head, in instructions: beyond it the run keeps the chained flag.
const MAX_HEAD: usize = 256;

/// Whether `path` (an `if` branch path) holds whenever `at_path` does: it is a prefix of it.
fn dominates(path: &[(u32, bool)], at_path: &[(u32, bool)]) -> bool {
    path.len() <= at_path.len() && path[..] == at_path[..path.len()]
}

/// The branches of `path` taken before position `pos`: the path of the `if` at `pos` (entries
/// are in position order, outermost first).
fn path_before(path: &[(u32, bool)], pos: u32) -> &[(u32, bool)] {
    &path[..path.iter().take_while(|(p, _)| *p < pos).count()]
}

/// A dry run of [`Head`]: walks the same values in the same order and counts the instructions
/// the head would emit, without making any. `false` exactly when [`Head`] would give up (an
/// operand it cannot evaluate, or more than [`MAX_HEAD`] instructions). SGEMM's epilogue run
/// (64 checks) gives up at `MAX_HEAD` after about 20 checks; building those instructions
/// (clones, fresh variables, memo entries of operands) only to drop them was most of the head's
/// time.
struct Count<'a> {
    defs: &'a FxHashMap<Var, FirstDefs<'a>>,
    paths: &'a [Vec<(u32, bool)>],
    /// The `(variable, position)` pairs [`Head::value`] would have in its memo.
    memo: FxHashSet<(Var, u32)>,
    code: usize,
}

impl Count<'_> {
    /// Mirrors [`Head::value`]: `None` where it returns `None`, and `code` counts its pushes.
    fn value(&mut self, o: Operand, at: u32, path: &[(u32, bool)]) -> Option<()> {
        let Operand::Var(v) = o else { return Some(()) };
        if self.memo.contains(&(v, at)) {
            return Some(());
        }
        let (all_defs, paths) = (self.defs, self.paths);
        let defs = all_defs.get(&v).map(|d| &d[..]).unwrap_or_default();
        let mut before = defs.iter().flatten().filter(|d| d.pos < at);
        match (before.next(), before.next()) {
            (None, _) => {}
            (Some(d), None) => {
                let def_path = &paths[d.path as usize][..];
                let inst = d.inst.filter(|_| dominates(def_path, path))?;
                if self.code >= MAX_HEAD {
                    return None;
                }
                let mut ok = true;
                for_each_use(inst, |o| {
                    if ok && matches!(o, Operand::Var(_)) {
                        ok = self.value(o, d.pos, def_path).is_some();
                    }
                });
                if !ok {
                    return None;
                }
                self.code += 1;
            }
            _ => return None,
        }
        self.memo.insert((v, at));
        Some(())
    }

    /// Mirrors [`head`]'s loop over the checks.
    fn head(&mut self, checks: &[Check]) -> Option<()> {
        for (i, c) in checks.iter().enumerate() {
            self.value(c.idx, c.pos, &c.path)?;
            self.value(c.len, c.pos, &c.path)?;
            // The failure compare.
            self.code += 1;
            for (if_pos, cond, taken) in c.conds.iter().rev() {
                self.value(*cond, *if_pos, path_before(&c.path, *if_pos))?;
                // A `not` for the `else` branch, and the `and` onto the failure.
                self.code += usize::from(!*taken) + 1;
            }
            // The `or` onto the previous checks' failures.
            self.code += usize::from(i > 0);
        }
        Some(())
    }
}

struct Head<'a> {
    k: &'a mut Kernel,
    defs: &'a FxHashMap<Var, FirstDefs<'a>>,
    paths: &'a [Vec<(u32, bool)>],
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
        let (all_defs, paths) = (self.defs, self.paths);
        let defs = all_defs.get(&v).map(|d| &d[..]).unwrap_or_default();
        let mut before = defs.iter().flatten().filter(|d| d.pos < at);
        let r = match (before.next(), before.next()) {
            (None, _) => o,
            (Some(d), None) => {
                // The assignment must happen whenever `at` is reached: its branch path is a
                // prefix of `at`'s.
                let def_path = &paths[d.path as usize][..];
                let inst = d.inst.filter(|_| dominates(def_path, path))?;
                if self.code.len() >= MAX_HEAD {
                    return None;
                }
                let def_pos = d.pos;
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
                    let r = self.value(x.into(), def_pos, def_path)?;
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
                kernel_ir::visit::for_each_def_mut(&mut inst, |d| *d = fresh);
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
    let mut scan = Scan::new(run.len());
    for inst in run {
        scan.inst(inst);
    }
    if scan.checks.is_empty() {
        return None;
    }
    let mut count = Count {
        defs: &scan.defs,
        paths: &scan.paths,
        memo: FxHashSet::with_capacity_and_hasher(2 * MAX_HEAD, Default::default()),
        code: 0,
    };
    count.head(&scan.checks)?;
    let mut h = Head {
        k,
        defs: &scan.defs,
        paths: &scan.paths,
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
            let cv = h.value(*cond, *if_pos, path_before(&c.path, *if_pos))?;
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
    debug_assert_eq!(
        code.len(),
        count.code,
        "the dry run counts what the head makes"
    );
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
