//! Loop versioning of bounds checks: an innermost loop whose checks index `base + iv` below its
//! exit bound runs as a copy without those checks when one test before the loop proves them all.
//!
//! Why: the plain port style walks rows and grids with `while c < cols { .. x[row + c] ..; c +=
//! 256 }` and `for i in 0..n`. Each checked access is a compare and a branch to a panic per
//! iteration, and ptxas does not move a load above such a branch, so the loop's loads do not
//! overlap as in nvcc's build. Every check there reads `iv` where the loop's exit test has just
//! held (`iv < bound`), so `base + iv < base + bound`: when `bound <= len` and `base <= len -
//! bound` (both evaluated before the loop, without wrap-around) every such check passes.
//!
//! What runs: `if bound <= len && base <= len - bound && .. { loop' } else { loop }`, where
//! `loop'` is the loop without the checks that test proves; the original loop, every check in it,
//! runs otherwise, so a thread that would panic panics at the same check with the same values.
//!
//! Which checks: a `BoundsCheck { idx, len }` (64-bit) in the loop body after the exit test and
//! before the first write of `iv` in the body, with `idx` either `iv` or `iv + base` (made at the
//! body's top level after the exit test and not written again before the check), and `base`,
//! `len` and `bound` written nowhere in the loop. The exit test is a `loop` whose body starts
//! (after pure code) with `if iv < bound {} else { break }` or `if iv >= bound { break }`, or a
//! `for iv in start..bound` (exclusive, counting up). Only innermost loops are versioned, so
//! the copy never nests copies; variables written once and read only inside the body get fresh
//! names in the copy, so analyses keyed on single definitions still see one.

use super::fx::{FxHashMap, FxHashSet};
use super::util::{assigned_vars, def_use_counts, refresh_loop_ids};
use kernel_ir::ir::{BinOp, Block, Const, Inst, Kernel, LoopId, Operand, Ty, Var};
use kernel_ir::visit::{
    for_each_def, for_each_def_mut, for_each_use, for_each_use_mut, walk, walk_mut,
};

/// Largest loop body (instructions) that is copied.
const MAX_BODY: usize = 400;

/// Returns whether a loop was versioned.
pub fn version_loops(k: &mut Kernel) -> bool {
    let (defs, uses) = def_use_counts(k);
    let mut body = std::mem::take(&mut k.body);
    let mut cx = Cx {
        k,
        defs,
        uses,
        changed: false,
    };
    cx.block(&mut body);
    let changed = cx.changed;
    k.body = body;
    changed
}

struct Cx<'a> {
    k: &'a mut Kernel,
    defs: Vec<u32>,
    uses: Vec<u32>,
    changed: bool,
}

/// What an innermost loop's exit test gives its body: `iv < bound` from statement `from` on.
struct Exit {
    iv: Var,
    bound: Operand,
    from: usize,
}

impl Cx<'_> {
    fn block(&mut self, b: &mut Block) {
        let mut out = Vec::with_capacity(b.0.len());
        for mut inst in std::mem::take(&mut b.0) {
            let innermost = match &mut inst {
                Inst::If { then, els, .. } => {
                    self.block(then);
                    self.block(els);
                    false
                }
                Inst::For { body, .. } | Inst::Loop { body, .. } => {
                    let mut nested = false;
                    walk(body, &mut |x| {
                        nested |= matches!(x, Inst::For { .. } | Inst::Loop { .. })
                    });
                    if nested {
                        self.block(body);
                    }
                    !nested
                }
                _ => false,
            };
            if innermost {
                if let Some(code) = self.version(&inst) {
                    out.extend(code);
                    self.changed = true;
                    continue;
                }
            }
            out.push(inst);
        }
        b.0 = out;
    }

    /// The versioned form of the innermost loop `l`, if it has checks to prove.
    fn version(&mut self, l: &Inst) -> Option<Vec<Inst>> {
        let (id, body) = match l {
            Inst::For { id, body, .. } | Inst::Loop { id, body } => (*id, body),
            _ => return None,
        };
        if super::util::inst_count(body) > MAX_BODY {
            return None;
        }
        let written = assigned_vars(body);
        let inv = Invariants::of(body, &written);
        let unwritten = |o: Operand| match o {
            Operand::Const(_) => true,
            Operand::Var(v) => !written.contains(&v),
        };
        let exit = match l {
            Inst::For {
                iv,
                end,
                inclusive: false,
                reverse: false,
                step: Operand::Const(s),
                ..
            } if s.bits > 0 && !written.contains(iv) && unwritten(*end) => Exit {
                iv: *iv,
                bound: *end,
                from: 0,
            },
            Inst::Loop { .. } => loop_exit(&body.0, id, &written)?,
            _ => return None,
        };
        if self.k.ty(exit.iv) != Ty::U64 || self.k.operand_ty(exit.bound) != Ty::U64 {
            return None;
        }
        // The checks the test proves, by pre-order position in the body, and the (base, len)
        // pairs the test needs.
        let mut proved: FxHashSet<usize> = FxHashSet::default();
        let mut needs: Vec<(Operand, Operand, Operand)> = Vec::new();
        {
            let mut scan = Scan {
                iv: exit.iv,
                prods: FxHashMap::default(),
                sums: FxHashMap::default(),
                pos: 0,
                stopped: false,
                proved: &mut proved,
                needs: &mut needs,
                inv: &inv,
                top: 0,
            };
            for (i, inst) in body.0.iter().enumerate() {
                if i < exit.from {
                    scan.pos += count(inst);
                    continue;
                }
                scan.top = i;
                scan.inst(inst, true);
                if scan.stopped {
                    break;
                }
            }
        }
        if proved.is_empty() {
            return None;
        }
        // The test, before the loop.
        let mut code = Vec::new();
        let mut all: Option<Operand> = None;
        let mut made: FxHashMap<Var, Operand> = FxHashMap::default();
        for (m, base, len) in needs {
            let m = self.materialize(m, &inv, &mut code, &mut made);
            let base = self.materialize(base, &inv, &mut code, &mut made);
            let len = self.materialize(len, &inv, &mut code, &mut made);
            let one = matches!(m, Operand::Const(c) if c.bits == 1);
            let zero = matches!(base, Operand::Const(c) if c.bits == 0);
            let ok = if one {
                // `iv + base < bound + base <= len`.
                let fits = self.bin(&mut code, BinOp::Le, exit.bound, len, Ty::Bool);
                if zero {
                    fits
                } else {
                    let room = self.bin(&mut code, BinOp::Sub, len, exit.bound, Ty::U64);
                    let below = self.bin(&mut code, BinOp::Le, base, room, Ty::Bool);
                    self.bin(&mut code, BinOp::And, fits, below, Ty::Bool)
                }
            } else {
                // `iv * m + base <= (bound - 1) * m + base <= len - 1`: `base < len` and
                // `bound - 1 <= (len - 1 - base) / max(m, 1)` (false for `bound == 0`, where
                // the loop does not run). For `m == 0` the test is stricter than it need be.
                let inside = self.bin(&mut code, BinOp::Lt, base, len, Ty::Bool);
                let last = self.bin(
                    &mut code,
                    BinOp::Sub,
                    len,
                    Operand::Const(Const::u64(1)),
                    Ty::U64,
                );
                let room = self.bin(&mut code, BinOp::Sub, last, base, Ty::U64);
                let step = self.bin(
                    &mut code,
                    BinOp::Max,
                    m,
                    Operand::Const(Const::u64(1)),
                    Ty::U64,
                );
                let most = self.bin(&mut code, BinOp::Div, room, step, Ty::U64);
                let top = self.bin(
                    &mut code,
                    BinOp::Sub,
                    exit.bound,
                    Operand::Const(Const::u64(1)),
                    Ty::U64,
                );
                let fits = self.bin(&mut code, BinOp::Le, top, most, Ty::Bool);
                self.bin(&mut code, BinOp::And, inside, fits, Ty::Bool)
            };
            all = Some(match all {
                None => ok,
                Some(a) => self.bin(&mut code, BinOp::And, a, ok, Ty::Bool),
            });
        }
        // The copy: fresh loop ids, fresh names for the body's own single-definition values,
        // and no proved checks.
        let mut copy = Block(vec![l.clone()]);
        refresh_loop_ids(self.k, &mut copy);
        let mut rename: FxHashMap<Var, Var> = FxHashMap::default();
        let mut inside_uses: FxHashMap<Var, u32> = FxHashMap::default();
        walk(body, &mut |i| {
            for_each_use(i, |o| {
                if let Operand::Var(v) = o {
                    *inside_uses.entry(v).or_default() += 1;
                }
            })
        });
        walk(body, &mut |i| {
            for_each_def(i, |v| {
                let n = v.0 as usize;
                let local = self.defs[n] == 1
                    && inside_uses.get(&v).copied().unwrap_or(0) == self.uses[n]
                    && v != exit.iv;
                if local && !rename.contains_key(&v) {
                    let fresh = self.k.new_var(self.k.ty(v));
                    rename.insert(v, fresh);
                }
            })
        });
        let Some(Inst::For { body: cb, .. } | Inst::Loop { body: cb, .. }) = copy.0.first_mut()
        else {
            unreachable!("the copy is the loop")
        };
        let mut pos = 0usize;
        strip_proved(cb, &proved, &mut pos);
        walk_mut(cb, &mut |i| {
            for_each_def_mut(i, |d| {
                if let Some(&f) = rename.get(d) {
                    *d = f;
                }
            });
            for_each_use_mut(i, |o| {
                if let Operand::Var(v) = o {
                    if let Some(&f) = rename.get(v) {
                        *o = Operand::Var(f);
                    }
                }
            });
        });
        code.push(Inst::If {
            cond: all?,
            then: copy,
            els: Block(vec![l.clone()]),
        });
        Some(code)
    }

    /// `o`'s value before the loop: itself, or a copy of the body's invariant computation of it.
    fn materialize(
        &mut self,
        o: Operand,
        inv: &Invariants,
        code: &mut Vec<Inst>,
        made: &mut FxHashMap<Var, Operand>,
    ) -> Operand {
        let Operand::Var(v) = o else { return o };
        if let Some(&r) = made.get(&v) {
            return r;
        }
        let Some((_, inst)) = inv.defs.get(&v) else {
            return o;
        };
        let mut inst = (*inst).clone();
        let mut reads = Vec::new();
        for_each_use(&inst, |x| reads.push(x));
        let vals: Vec<Operand> = reads
            .into_iter()
            .map(|x| self.materialize(x, inv, code, made))
            .collect();
        let mut n = 0;
        for_each_use_mut(&mut inst, |x| {
            *x = vals[n];
            n += 1;
        });
        let fresh = self.k.new_var(self.k.ty(v));
        for_each_def_mut(&mut inst, |d| *d = fresh);
        code.push(inst);
        made.insert(v, fresh.into());
        fresh.into()
    }

    fn bin(&mut self, code: &mut Vec<Inst>, op: BinOp, a: Operand, b: Operand, ty: Ty) -> Operand {
        let dst = self.k.new_var(ty);
        code.push(Inst::Binary { dst, op, a, b });
        dst.into()
    }
}

/// What stays the same in every iteration of a loop: constants, values the body never writes,
/// and the body's own top-level pure computations of those (written once in the body), which a
/// position reads as invariant when they are made before it.
struct Invariants<'b> {
    written: &'b FxHashSet<Var>,
    /// Per variable written once in the body, by a top-level pure non-dividing instruction: its
    /// top-level index and instruction.
    defs: FxHashMap<Var, (usize, &'b Inst)>,
}

impl<'b> Invariants<'b> {
    fn of(body: &'b Block, written: &'b FxHashSet<Var>) -> Self {
        let mut count: FxHashMap<Var, u32> = FxHashMap::default();
        walk(body, &mut |i| {
            for_each_def(i, |v| *count.entry(v).or_default() += 1)
        });
        let mut defs = FxHashMap::default();
        for (i, inst) in body.0.iter().enumerate() {
            let d = match inst {
                Inst::Binary { dst, op, .. }
                    if !matches!(op, BinOp::Div | BinOp::Rem) && !op.is_overflow_test() =>
                {
                    *dst
                }
                Inst::Cast { dst, .. } | Inst::Mov { dst, .. } => *dst,
                _ => continue,
            };
            if count.get(&d) == Some(&1) {
                defs.insert(d, (i, inst));
            }
        }
        Invariants { written, defs }
    }

    /// Whether `o` holds the same value in every iteration at top-level index `before`.
    fn at(&self, o: Operand, before: usize) -> bool {
        self.depth(o, before, 8)
    }

    fn depth(&self, o: Operand, before: usize, left: u32) -> bool {
        let Operand::Var(v) = o else { return true };
        if !self.written.contains(&v) {
            return true;
        }
        let Some(&(at, inst)) = self.defs.get(&v) else {
            return false;
        };
        if at >= before || left == 0 {
            return false;
        }
        let mut ok = true;
        for_each_use(inst, |x| ok &= self.depth(x, at, left - 1));
        ok
    }
}

/// A `loop`'s exit test: pure code, then `if iv < bound {} else { break }` (or `if iv >= bound
/// { break }`) on a compare made in that code.
fn loop_exit(body: &[Inst], id: LoopId, written: &FxHashSet<Var>) -> Option<Exit> {
    let mut compares: FxHashMap<Var, (BinOp, Operand, Operand)> = FxHashMap::default();
    let mut before: FxHashSet<Var> = FxHashSet::default();
    for (i, inst) in body.iter().enumerate() {
        for_each_def(inst, |v| _ = before.insert(v));
        match inst {
            Inst::Loc(_) => {}
            Inst::Binary { dst, op, a, b } => {
                compares.insert(*dst, (*op, *a, *b));
            }
            Inst::Mov { .. } | Inst::Cast { .. } => {}
            Inst::If {
                cond: Operand::Var(c),
                then,
                els,
            } => {
                let brk = |b: &Block| matches!(b.0.as_slice(), [Inst::Break(l)] if *l == id);
                let (op, a, b) = *compares.get(c)?;
                let (iv, bound) = match (
                    op,
                    then.0.is_empty() && brk(els),
                    brk(then) && els.0.is_empty(),
                ) {
                    (BinOp::Lt, true, _) | (BinOp::Ge, _, true) => (a, b),
                    (BinOp::Gt, true, _) | (BinOp::Le, _, true) => (b, a),
                    _ => return None,
                };
                // `iv` holds at the test what it held at the compare: nothing before writes it.
                let Operand::Var(iv) = iv else { return None };
                if before.contains(&iv) {
                    return None;
                }
                let bound_ok = match bound {
                    Operand::Const(_) => true,
                    Operand::Var(v) => !written.contains(&v),
                };
                return bound_ok.then_some(Exit {
                    iv,
                    bound,
                    from: i + 1,
                });
            }
            _ => return None,
        }
    }
    None
}

/// Instructions `inst` counts in a pre-order walk (itself and everything nested).
fn count(inst: &Inst) -> usize {
    let mut n = 0;
    kernel_ir::visit::walk_inst(inst, &mut |_| n += 1);
    n
}

/// Finds the checks of `idx = iv * m + base` (`m` and `base` invariant; `iv`, `iv + base`,
/// `iv * m`, `iv << c` among them) between the exit test and the first write of `iv`.
struct Scan<'s, 'b> {
    iv: Var,
    /// `x = iv * m` (or `iv << c`) made at the body's top level, not written since: `m`.
    prods: FxHashMap<Var, Operand>,
    /// `x = iv * m + base` made at the body's top level, not written since: `(m, base)`.
    sums: FxHashMap<Var, (Operand, Operand)>,
    /// Pre-order position of the next instruction.
    pos: usize,
    stopped: bool,
    proved: &'s mut FxHashSet<usize>,
    needs: &'s mut Vec<(Operand, Operand, Operand)>,
    inv: &'s Invariants<'b>,
    /// Top-level index of the statement being scanned.
    top: usize,
}

impl Scan<'_, '_> {
    /// `o` as `iv * m` (`m`), if it is.
    fn scaled(&self, o: Operand) -> Option<Operand> {
        match o {
            Operand::Var(v) if v == self.iv => Some(Operand::Const(Const::u64(1))),
            Operand::Var(v) => self.prods.get(&v).copied(),
            Operand::Const(_) => None,
        }
    }

    fn inst(&mut self, inst: &Inst, top: bool) {
        if self.stopped {
            return;
        }
        let at = self.pos;
        self.pos += 1;
        if let Inst::BoundsCheck {
            idx: Operand::Var(x),
            len,
            ..
        } = *inst
        {
            let form = match self.scaled(x.into()) {
                Some(m) => Some((m, Operand::Const(Const::u64(0)))),
                None => self.sums.get(&x).copied(),
            };
            if let Some((m, base)) = form.filter(|_| self.inv.at(len, self.top)) {
                self.proved.insert(at);
                if !self.needs.contains(&(m, base, len)) {
                    self.needs.push((m, base, len));
                }
            }
            return;
        }
        let mut writes_iv = false;
        for_each_def(inst, |v| {
            writes_iv |= v == self.iv;
            self.sums.remove(&v);
            self.prods.remove(&v);
        });
        if writes_iv {
            self.stopped = true;
            return;
        }
        if let Inst::Binary { dst, op, a, b } = *inst {
            let reads_dst = a == dst.into() || b == dst.into();
            if top && !reads_dst {
                let inv = |o: Operand| self.inv.at(o, self.top);
                match op {
                    BinOp::Add => {
                        let form = match (self.scaled(a), self.scaled(b)) {
                            (Some(m), _) if inv(b) => Some((m, b)),
                            (_, Some(m)) if inv(a) => Some((m, a)),
                            _ => None,
                        };
                        if let Some(f) = form {
                            self.sums.insert(dst, f);
                        }
                    }
                    BinOp::Mul => {
                        let m = match (a, b) {
                            (Operand::Var(v), o) | (o, Operand::Var(v))
                                if v == self.iv && inv(o) =>
                            {
                                Some(o)
                            }
                            _ => None,
                        };
                        if let Some(m) = m {
                            self.prods.insert(dst, m);
                        }
                    }
                    BinOp::Shl => {
                        if let (Operand::Var(v), Operand::Const(c)) = (a, b) {
                            if v == self.iv && c.bits < 64 {
                                self.prods
                                    .insert(dst, Operand::Const(Const::u64(1 << c.bits)));
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
        if let Inst::If { then, els, .. } = inst {
            for b in [then, els] {
                for i in &b.0 {
                    self.inst(i, false);
                }
            }
        }
    }
}

/// Drops the checks at the pre-order positions `proved` (positions of the original body).
fn strip_proved(b: &mut Block, proved: &FxHashSet<usize>, pos: &mut usize) {
    let old = std::mem::take(&mut b.0);
    for mut inst in old {
        let at = *pos;
        *pos += 1;
        if matches!(inst, Inst::BoundsCheck { .. }) && proved.contains(&at) {
            continue;
        }
        match &mut inst {
            Inst::If { then, els, .. } => {
                strip_proved(then, proved, pos);
                strip_proved(els, proved, pos);
            }
            Inst::For { body, .. } | Inst::Loop { body, .. } => strip_proved(body, proved, pos),
            _ => {}
        }
        b.0.push(inst);
    }
}
