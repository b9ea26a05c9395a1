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

/// Most checks of a variable index in a run that takes the early path. A head evaluates every
/// index of the run before the first access, and the dispatch keeps them: SGEMM's epilogue (64
/// stores of the register tile, each checked) went from 127 to 196 registers on sm_90 that way,
/// where the deferred flag lets each index die at its store. A 17-tap convolution has 18 (and 17
/// of a constant index), the 5x5 filter's tile reads about fifty.
const MAX_CHECKS: usize = 56;

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
    /// The assignments (variable, position) [`Head::value`] would have copied.
    defs_made: FxHashSet<(Var, u32)>,
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
                if !self.defs_made.insert((v, d.pos)) {
                    self.memo.insert((v, at));
                    return Some(());
                }
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
    fn head(&mut self, checks: &[Check], plan: &[Role]) -> Option<()> {
        let mut first = true;
        for (c, &role) in checks.iter().zip(plan) {
            self.value(c.idx, c.pos, &c.path)?;
            self.value(c.len, c.pos, &c.path)?;
            for (if_pos, cond, _) in c.conds.iter().rev() {
                self.value(*cond, *if_pos, path_before(&c.path, *if_pos))?;
            }
            if role == Role::Covered {
                continue;
            }
            // The failure compare, and the `or` onto the group's failures.
            self.code += 1 + usize::from(matches!(role, Role::Joins | Role::Ends));
            if matches!(role, Role::Alone | Role::Ends) {
                // A `not` per `else` branch and an `and` per `if` of the path, and the `or`
                // onto the previous checks' failures.
                for (_, _, taken) in &c.conds {
                    self.code += usize::from(!*taken) + 1;
                }
                self.code += usize::from(!first);
                first = false;
            }
        }
        Some(())
    }
}

struct Head<'a> {
    k: &'a mut Kernel,
    defs: &'a FxHashMap<Var, FirstDefs<'a>>,
    paths: &'a [Vec<(u32, bool)>],
    memo: FxHashMap<(Var, u32), Operand>,
    /// The head's copy of each assignment (variable, position) it has copied.
    made: FxHashMap<(Var, u32), Operand>,
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
                // One copy per assignment: every position it reaches reads the same value.
                if let Some(&r) = self.made.get(&(v, d.pos)) {
                    self.memo.insert((v, at), r);
                    return Some(r);
                }
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
                self.made.insert((v, def_pos), Operand::Var(fresh));
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
    let variable = scan
        .checks
        .iter()
        .filter(|c| !matches!(c.idx, Operand::Const(_)))
        .count();
    if scan.checks.is_empty() || variable > MAX_CHECKS {
        return None;
    }
    let mut count = Count {
        defs: &scan.defs,
        paths: &scan.paths,
        memo: FxHashSet::with_capacity_and_hasher(2 * MAX_HEAD, Default::default()),
        defs_made: FxHashSet::with_capacity_and_hasher(MAX_HEAD, Default::default()),
        code: 0,
    };
    let plan = plan(&scan);
    count.head(&scan.checks, &plan)?;
    let mut h = Head {
        k,
        defs: &scan.defs,
        paths: &scan.paths,
        memo: FxHashMap::with_capacity_and_hasher(2 * MAX_HEAD, Default::default()),
        made: FxHashMap::with_capacity_and_hasher(MAX_HEAD, Default::default()),
        code: Vec::with_capacity(MAX_HEAD),
    };
    let mut all: Option<Operand> = None;
    let mut dispatch = Vec::new();
    let mut reached = Vec::with_capacity(scan.checks.len());
    // The failures of the open group of checks on one path (`Role::Starts`), not yet under
    // that path's conditions.
    let mut group: Option<Operand> = None;
    for (c, &role) in scan.checks.iter().zip(&plan) {
        let covered = role == Role::Covered;
        let idx = h.value(c.idx, c.pos, &c.path)?;
        let len = h.value(c.len, c.pos, &c.path)?;
        let mut on_path = Vec::with_capacity(c.conds.len());
        // A covered check's compare is made only in the dispatch.
        let mut panic = Vec::with_capacity(2);
        let fail = if covered {
            let dst = h.k.new_var(Ty::Bool);
            panic.push(Inst::Binary {
                dst,
                op: BinOp::Ge,
                a: idx,
                b: len,
            });
            dst.into()
        } else {
            h.bool_op(BinOp::Ge, idx, len)
        };
        if matches!(role, Role::Joins | Role::Ends) {
            let g = group.take().expect("a group is open");
            group = Some(h.bool_op(BinOp::Or, g, fail));
        } else if role == Role::Starts {
            group = Some(fail);
        }
        // Fails when reached: `fail && c0 == t0 && c1 == t1 ...`.
        let mut fails = fail;
        panic.push(Inst::If {
            cond: fail,
            then: Block(vec![Inst::Panic {
                site: c.site,
                a: idx,
                b: len,
            }]),
            els: Block::default(),
        });
        for (if_pos, cond, taken) in c.conds.iter().rev() {
            let cv = h.value(*cond, *if_pos, path_before(&c.path, *if_pos))?;
            on_path.push((cv, *taken));
            if role == Role::Alone {
                let reached = if *taken { cv } else { h.not(cv) };
                fails = h.bool_op(BinOp::And, reached, fails);
            }
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
        match role {
            Role::Covered | Role::Starts | Role::Joins => continue,
            Role::Ends => {
                fails = group.take().expect("a group is open");
                let conds = &reached.last().expect("pushed above").conds;
                for &(cv, taken) in conds {
                    let reached = if taken { cv } else { h.not(cv) };
                    fails = h.bool_op(BinOp::And, reached, fails);
                }
            }
            Role::Alone => {}
        }
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

/// How a check enters the head's "some check fails" test.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    /// Left out (see [`covered_by_a_larger_constant`]); only the dispatch compares it.
    Covered,
    /// Its failure, under its path's conditions, is or-ed onto the test.
    Alone,
    /// The first of consecutive checks (covered ones skipped) on the same path: their failures
    /// are or-ed together first, and put under the path's conditions once, at the last one
    /// (`Ends`); one `and` per `if` for the group instead of one per check (a convolution's
    /// seventeen taps under `if x < w && y < h`).
    Starts,
    Joins,
    Ends,
}

/// The [`Role`] of each check of the run.
fn plan(scan: &Scan) -> Vec<Role> {
    let covered = covered_by_a_larger_constant(scan);
    let tested: Vec<usize> = (0..scan.checks.len()).filter(|&i| !covered[i]).collect();
    let mut roles: Vec<Role> = covered
        .iter()
        .map(|&c| if c { Role::Covered } else { Role::Alone })
        .collect();
    // Checks outside every `if` have no conditions to share: they stay alone (the `or`s come
    // out the same either way).
    let same = |a: usize, b: usize| {
        let (x, y) = (&scan.checks[a].conds, &scan.checks[b].conds);
        !x.is_empty() && x == y
    };
    for (n, &i) in tested.iter().enumerate() {
        let with_prev = n > 0 && same(tested[n - 1], i);
        let with_next = tested.get(n + 1).is_some_and(|&j| same(i, j));
        roles[i] = match (with_prev, with_next) {
            (false, false) => Role::Alone,
            (false, true) => Role::Starts,
            (true, true) => Role::Joins,
            (true, false) => Role::Ends,
        };
    }
    roles
}

/// Per check, whether the head's "some check fails" test can leave it out: its index is a
/// constant, and another check on the same path compares a larger constant (or the same one,
/// later) with the same length, one the run does not assign. Such a check fails only when that
/// one fails too, so the dispatch runs whenever it would fail, and the dispatch evaluates every
/// check again in program order. A constant-trip loop unrolled over `taps[j]` then costs one
/// compare, `16 < taps.len()`, instead of seventeen.
fn covered_by_a_larger_constant(scan: &Scan) -> Vec<bool> {
    let checks = &scan.checks;
    let invariant = |o: Operand| match o {
        Operand::Const(_) => true,
        Operand::Var(v) => !scan.defs.contains_key(&v),
    };
    let constant = |c: &Check| match c.idx {
        Operand::Const(x) if invariant(c.len) => Some(x.as_i128()),
        _ => None,
    };
    let mut covered = vec![false; checks.len()];
    for (i, c) in checks.iter().enumerate() {
        let Some(a) = constant(c) else { continue };
        covered[i] = checks.iter().enumerate().any(|(j, d)| {
            j != i
                && constant(d).is_some_and(|b| b > a || (b == a && j > i))
                && d.len == c.len
                && d.conds == c.conds
        });
    }
    covered
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
