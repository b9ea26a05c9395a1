//! Shared-memory address folding and vector loads.
//!
//! Every shared access whose address is `X + c` for a symbolic part `X` that another access of
//! the same block also uses gets its address as `anchor + (c - c0)`, where `anchor` is a copy
//! of the first such address: ptxas folds that constant into the instruction
//! (`ld.shared [r+16]`) instead of recomputing `base + (i + k) * 4` with a shift and an add per
//! access (it cannot distribute the multiply itself without knowing the sum does not wrap). Then
//! 4 (or 2) loads of 32-bit values at `c0, c0+4, c0+8, c0+12` from one `X`, in one straight run of
//! code, with `X + c0` provably a multiple of 16 (or 8), become one `LoadVec` (`ld.shared.v4`):
//! SGEMM's `a_s[kk][ty*8 + i]`, i in 0..8, is two 128-bit loads instead of eight 32-bit ones.
//!
//! Addresses are compared as linear forms over variables modulo 2^32 (a shared address is a u32
//! and the index arithmetic wraps, so truncation, zero/sign extension between 32/64-bit integers,
//! `+`, `-`, `*` and `<<` by constants all map exactly). Alignment comes from how the variables are
//! made: a multiple of a constant, a static shared allocation's base (whose alignment this pass
//! raises to 16 where a vector load relies on it).
//!
//! Exact: a vector load reads the same bytes as the loads it replaces, at the first one's place;
//! the run between holds no shared store, barrier, atomic, check or control flow, and nothing in
//! it reads or writes the later loads' destinations.

use super::fx::{FxHashMap, FxHashSet};

use super::varset::VarSet;
use kernel_ir::ir::{BinOp, Block, Const, Inst, Kernel, Operand, SharedId, Space, Ty, Var};
use kernel_ir::props::Props;
use kernel_ir::visit::{blocks, for_each_def, for_each_use, walk};

/// Alignment is tracked up to this (a 64 KiB multiple is as good as any).
const MAX_ALIGN: u32 = 1 << 16;

/// Returns whether anything changed.
pub fn vectorize(k: &mut Kernel) -> bool {
    // One walk: every variable's write count, and the first definition of each (kept only for
    // the variables written exactly once, parameters counting as a write).
    let n = k.vars.len();
    let mut counts = vec![0u32; n];
    for p in &k.params {
        for (_, v) in &p.pieces {
            counts[v.0 as usize] += 1;
        }
    }
    let mut at: Vec<Option<Def>> = vec![None; n];
    walk(&k.body, &mut |i| {
        let def = Def::of(i);
        for_each_def(i, |v| {
            let c = &mut counts[v.0 as usize];
            *c += 1;
            if *c == 1 {
                at[v.0 as usize] = def;
            }
        })
    });
    for (d, c) in at.iter_mut().zip(&counts) {
        if *c != 1 {
            *d = None;
        }
    }
    let defs = Defs { at };
    let mut v = Vectorizer {
        k,
        defs,
        memo: FxHashMap::default(),
        scratch: Scratch::default(),
        raise: FxHashSet::default(),
        changed: false,
    };
    let mut body = std::mem::take(&mut v.k.body);
    v.block(&mut body);
    let (raise, changed) = (std::mem::take(&mut v.raise), v.changed);
    k.body = body;
    for id in raise {
        let a = &mut k.shared[id.0 as usize].align;
        *a = (*a).max(16);
    }
    changed
}

/// Largest number of terms a [`Terms`] holds: stored forms keep at most 4, and a sum or
/// difference of two of them has at most 8.
const MAX_TERMS: usize = 8;

/// The symbolic part of a [`Lin`]: `(variable, version, coefficient)` terms in a fixed array,
/// unused slots zero (so derived equality and hashing see only the terms). Forms are copied at
/// every address instruction of the block; a `Vec` each was most of this pass's time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Terms {
    /// Terms in use; `MAX_TERMS + 1` once more than fit were added (never stored, see `len`).
    len: u8,
    items: [(Var, u32, u32); MAX_TERMS],
}

impl Terms {
    const EMPTY: Terms = Terms {
        len: 0,
        items: [(Var(0), 0, 0); MAX_TERMS],
    };
    fn as_slice(&self) -> &[(Var, u32, u32)] {
        &self.items[..(self.len as usize).min(MAX_TERMS)]
    }
    fn as_mut_slice(&mut self) -> &mut [(Var, u32, u32)] {
        let n = (self.len as usize).min(MAX_TERMS);
        &mut self.items[..n]
    }
    fn len(&self) -> usize {
        self.len as usize
    }
    fn is_empty(&self) -> bool {
        self.len == 0
    }
    fn push(&mut self, t: (Var, u32, u32)) {
        match self.items.get_mut(self.len as usize) {
            Some(slot) => {
                *slot = t;
                self.len += 1;
            }
            None => self.len = MAX_TERMS as u8 + 1,
        }
    }
    /// Drops the terms with coefficient 0, keeping the others' order.
    fn retain_nonzero(&mut self) {
        let n = (self.len as usize).min(MAX_TERMS);
        let mut kept = 0;
        for i in 0..n {
            if self.items[i].2 != 0 {
                self.items[kept] = self.items[i];
                kept += 1;
            }
        }
        for slot in &mut self.items[kept..n] {
            *slot = (Var(0), 0, 0);
        }
        if self.len as usize <= MAX_TERMS {
            self.len = kept as u8;
        }
    }
}

/// `sum(coef * var@version) + c` modulo 2^32; terms sorted, coefficients non-zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Lin {
    terms: Terms,
    c: u32,
}

impl Lin {
    fn constant(c: u32) -> Lin {
        Lin {
            terms: Terms::EMPTY,
            c,
        }
    }
    fn atom(v: Var, version: u32) -> Lin {
        let mut terms = Terms::EMPTY;
        terms.push((v, version, 1));
        Lin { terms, c: 0 }
    }
    fn add(&self, o: &Lin, sign: u32) -> Lin {
        let mut terms = self.terms;
        for &(v, ver, coef) in o.terms.as_slice() {
            let coef = coef.wrapping_mul(sign);
            match terms
                .as_mut_slice()
                .iter_mut()
                .find(|(x, y, _)| *x == v && *y == ver)
            {
                Some(t) => t.2 = t.2.wrapping_add(coef),
                None => terms.push((v, ver, coef)),
            }
        }
        terms.retain_nonzero();
        terms.as_mut_slice().sort();
        Lin {
            terms,
            c: self.c.wrapping_add(o.c.wrapping_mul(sign)),
        }
    }
    fn scale(&self, m: u32) -> Lin {
        let mut terms = self.terms;
        for t in terms.as_mut_slice() {
            t.2 = t.2.wrapping_mul(m);
        }
        terms.retain_nonzero();
        Lin {
            terms,
            c: self.c.wrapping_mul(m),
        }
    }
}

fn low_align(c: u32) -> u32 {
    if c == 0 {
        MAX_ALIGN
    } else {
        (1u32 << c.trailing_zeros()).min(MAX_ALIGN)
    }
}

/// Integer types whose values map onto u32 arithmetic modulo 2^32 through a cast.
fn wide_int(t: Ty) -> bool {
    t.is_int() && t.bits() >= 32
}

/// The part of a definition `Vectorizer::align` looks into (any other counts as unknown, as an
/// absent one does): a copy per variable, where cloned instructions in a hash map were a large
/// part of this pass's time.
#[derive(Clone, Copy)]
enum Def {
    SharedAddr(SharedId),
    DynSharedAddr,
    Mov(Operand),
    Cast(Var, Operand),
    Binary(Var, BinOp, Operand, Operand),
}

impl Def {
    fn of(i: &Inst) -> Option<Def> {
        Some(match *i {
            Inst::SharedAddr { alloc, .. } => Def::SharedAddr(alloc),
            Inst::DynSharedAddr { .. } => Def::DynSharedAddr,
            Inst::Mov { src, .. } => Def::Mov(src),
            Inst::Cast { dst, a } => Def::Cast(dst, a),
            Inst::Binary { dst, op, a, b } => Def::Binary(dst, op, a, b),
            _ => return None,
        })
    }
}

/// The definition of every variable written exactly once, by variable.
struct Defs {
    at: Vec<Option<Def>>,
}

impl Defs {
    fn get(&self, v: Var) -> Option<Def> {
        self.at.get(v.0 as usize).copied().flatten()
    }
}

struct Vectorizer<'a> {
    k: &'a mut Kernel,
    /// The defining instruction of every variable assigned exactly once.
    defs: Defs,
    memo: FxHashMap<Var, (u32, Vec<SharedId>)>,
    /// Static allocations whose base must be 16-aligned for the vector loads made.
    raise: FxHashSet<SharedId>,
    changed: bool,
    /// Per-variable tables of [`Vectorizer::scan`], reset between blocks.
    scratch: Scratch,
}

/// Each variable's version and known form, in vectors indexed by variable and reset through the
/// list of what was set: hash maps made per block were most of `scan`'s time on SGEMM.
#[derive(Default)]
struct Scratch {
    version: Vec<u32>,
    forms: Vec<Option<Lin>>,
    touched: Vec<Var>,
}

impl Scratch {
    fn version(&self, v: Var) -> u32 {
        self.version.get(v.0 as usize).copied().unwrap_or(0)
    }
    fn form(&self, v: Var) -> Option<Lin> {
        self.forms.get(v.0 as usize).copied().flatten()
    }
    fn slot(&mut self, v: Var) -> usize {
        let i = v.0 as usize;
        if i >= self.version.len() {
            self.version.resize(i + 1, 0);
            self.forms.resize(i + 1, None);
        }
        self.touched.push(v);
        i
    }
    /// A new value of `v`, of unknown form.
    fn forget(&mut self, v: Var) {
        let i = self.slot(v);
        self.version[i] += 1;
        self.forms[i] = None;
    }
    fn set_form(&mut self, v: Var, f: Lin) {
        let i = self.slot(v);
        self.forms[i] = Some(f);
    }
    fn reset(&mut self) {
        for v in self.touched.drain(..) {
            let i = v.0 as usize;
            self.version[i] = 0;
            self.forms[i] = None;
        }
    }
}

/// One shared access of a block, with its address's form.
struct Access {
    at: usize,
    form: Lin,
    /// For loads of a 32-bit type: the destination.
    dst: Option<(Var, Ty)>,
    /// Index of the straight run (no shared store, barrier, check or control flow) it is in.
    run: usize,
}

impl Vectorizer<'_> {
    /// A lower bound on the alignment of every value `v` ever holds, and the allocations whose
    /// base alignment (taken as 16) that bound relies on.
    fn align(&mut self, v: Var, depth: u32) -> (u32, Vec<SharedId>) {
        if let Some(r) = self.memo.get(&v) {
            return r.clone();
        }
        let r = if depth > 16 {
            (1, vec![])
        } else {
            match self.defs.get(v) {
                Some(Def::SharedAddr(alloc)) => {
                    let a = self.k.shared.get(alloc.0 as usize).map_or(1, |s| s.align);
                    if a >= 16 {
                        (a.min(MAX_ALIGN), vec![])
                    } else {
                        (16, vec![alloc])
                    }
                }
                Some(Def::DynSharedAddr) => (16, vec![]),
                Some(Def::Mov(src)) => self.align_op(src, depth),
                Some(Def::Cast(dst, a)) if self.k.ty(dst).is_int() => self.align_op(a, depth),
                Some(Def::Binary(dst, op, a, b)) if self.k.ty(dst).is_int() => match op {
                    BinOp::Mul => {
                        let (x, rx) = self.align_op(a, depth);
                        let (y, ry) = self.align_op(b, depth);
                        let m = (x as u64 * y as u64).min(MAX_ALIGN as u64) as u32;
                        (m, [rx, ry].concat())
                    }
                    BinOp::Shl => match b {
                        Operand::Const(c) => {
                            let (x, rx) = self.align_op(a, depth);
                            let m = (x as u64) << c.bits.min(31);
                            (m.min(MAX_ALIGN as u64) as u32, rx)
                        }
                        _ => (1, vec![]),
                    },
                    BinOp::Add | BinOp::Sub => {
                        let (x, rx) = self.align_op(a, depth);
                        let (y, ry) = self.align_op(b, depth);
                        (x.min(y), [rx, ry].concat())
                    }
                    BinOp::And => {
                        let (x, rx) = self.align_op(a, depth);
                        let (y, ry) = self.align_op(b, depth);
                        if x >= y {
                            (x, rx)
                        } else {
                            (y, ry)
                        }
                    }
                    _ => (1, vec![]),
                },
                _ => (1, vec![]),
            }
        };
        self.memo.insert(v, r.clone());
        r
    }

    fn align_op(&mut self, o: Operand, depth: u32) -> (u32, Vec<SharedId>) {
        match o {
            Operand::Const(c) => (low_align(c.bits as u32), vec![]),
            Operand::Var(v) => self.align(v, depth + 1),
        }
    }

    /// Alignment of the value `form` stands for.
    fn form_align(&mut self, form: &Lin) -> (u32, Vec<SharedId>) {
        let mut a = low_align(form.c);
        let mut rel = vec![];
        for &(v, _, coef) in form.terms.as_slice() {
            let (x, r) = self.align(v, 0);
            let t = (x as u64 * low_align(coef) as u64).min(MAX_ALIGN as u64) as u32;
            if t < a {
                a = t;
            }
            rel.extend(r);
        }
        (a, rel)
    }

    fn block(&mut self, b: &mut Block) {
        for inst in &mut b.0 {
            match inst {
                Inst::If { then, els, .. } => {
                    self.block(then);
                    self.block(els);
                }
                Inst::For { body, .. } | Inst::Loop { body, .. } => self.block(body),
                _ => {}
            }
        }
        // A block without shared accesses (global accesses' guards, most of them) has nothing
        // to anchor or to vectorize.
        if !b.0.iter().any(|i| {
            matches!(
                i,
                Inst::Load {
                    space: Space::Shared,
                    ..
                } | Inst::Store {
                    space: Space::Shared,
                    ..
                }
            )
        }) {
            return;
        }
        let accesses = self.scan(b);
        // Symbolic parts used by at least two accesses get an anchor.
        let mut uses: FxHashMap<Terms, usize> = FxHashMap::default();
        for a in &accesses {
            *uses.entry(a.form.terms).or_default() += 1;
        }
        let groups = self.groups(b, &accesses);
        // What happens at each position, in vectors by position (hash maps by position were a
        // lookup per instruction of the block): its access, and its role in a vector load.
        let mut leader: Vec<Option<Vec<Var>>> = vec![None; b.0.len()];
        let mut dropped = vec![false; b.0.len()];
        for g in &groups {
            leader[accesses[g[0]].at] =
                Some(g.iter().map(|&i| accesses[i].dst.unwrap().0).collect());
            for &i in &g[1..] {
                dropped[accesses[i].at] = true;
            }
        }
        let mut by_at: Vec<Option<&Access>> = vec![None; b.0.len()];
        for a in &accesses {
            by_at[a.at] = Some(a);
        }
        let mut anchors: FxHashMap<Terms, (Var, u32)> = FxHashMap::default();
        let mut out = Vec::with_capacity(b.0.len());
        for (i, mut inst) in std::mem::take(&mut b.0).into_iter().enumerate() {
            if dropped[i] {
                self.changed = true;
                continue;
            }
            if let Some(a) = by_at[i] {
                let shared_part = !a.form.terms.is_empty() && uses[&a.form.terms] >= 2;
                if shared_part {
                    let addr = match anchors.get(&a.form.terms) {
                        None => {
                            let anchor = self.k.new_var(Ty::U32);
                            let old = address(&inst);
                            push_before_markers(
                                &mut out,
                                Inst::Mov {
                                    dst: anchor,
                                    src: old,
                                },
                            );
                            anchors.insert(a.form.terms, (anchor, a.form.c));
                            anchor
                        }
                        Some(&(anchor, c0)) if c0 == a.form.c => anchor,
                        Some(&(anchor, c0)) => {
                            let t = self.k.new_var(Ty::U32);
                            push_before_markers(
                                &mut out,
                                Inst::Binary {
                                    dst: t,
                                    op: BinOp::Add,
                                    a: anchor.into(),
                                    b: Const::u32(a.form.c.wrapping_sub(c0)).into(),
                                },
                            );
                            t
                        }
                    };
                    set_address(&mut inst, addr.into());
                    self.changed = true;
                }
                if let Some(dsts) = leader[i].take() {
                    if let Inst::Load {
                        space,
                        addr,
                        readonly,
                        ..
                    } = inst
                    {
                        inst = Inst::LoadVec {
                            dsts,
                            space,
                            addr,
                            readonly,
                        };
                        self.changed = true;
                    }
                }
            }
            out.push(inst);
        }
        b.0 = out;
    }

    /// The shared accesses of `b`'s top level with their address forms.
    fn scan(&mut self, b: &Block) -> Vec<Access> {
        let mut sc = std::mem::take(&mut self.scratch);
        let mut out = Vec::new();
        let mut run = 0;
        // Forms matter only for values that reach a shared address: a backward pass over the
        // block marks them (a variable's every earlier definition, which may say more than
        // needed), and the others keep their versions without a form (most of an unrolled
        // block is global address arithmetic and floating point).
        let mut needed = VarSet::with_capacity(self.k.vars.len());
        let mark = |o: Operand, needed: &mut VarSet| {
            if let Operand::Var(v) = o {
                needed.insert(v);
            }
        };
        for inst in b.0.iter().rev() {
            match *inst {
                Inst::Load {
                    space: Space::Shared,
                    addr,
                    ..
                }
                | Inst::Store {
                    space: Space::Shared,
                    addr,
                    ..
                } => mark(addr, &mut needed),
                Inst::Mov { dst, src: a } | Inst::Cast { dst, a } if needed.contains(&dst) => {
                    mark(a, &mut needed)
                }
                Inst::Binary { dst, a, b, .. } if needed.contains(&dst) => {
                    mark(a, &mut needed);
                    mark(b, &mut needed);
                }
                _ => {}
            }
        }
        for (at, inst) in b.0.iter().enumerate() {
            let form_of = |o: Operand, sc: &Scratch| match o {
                Operand::Const(c) => Lin::constant(c.bits as u32),
                Operand::Var(v) => sc.form(v).unwrap_or_else(|| Lin::atom(v, sc.version(v))),
            };
            match inst {
                Inst::Load {
                    dst,
                    space: Space::Shared,
                    addr,
                    ..
                } => {
                    let t = self.k.ty(*dst);
                    let vec_ok = t.bits() == 32 && t != Ty::Bool;
                    out.push(Access {
                        at,
                        form: form_of(*addr, &sc),
                        dst: vec_ok.then_some((*dst, t)),
                        run,
                    });
                }
                Inst::Store {
                    space: Space::Shared,
                    addr,
                    ..
                } => {
                    out.push(Access {
                        at,
                        form: form_of(*addr, &sc),
                        dst: None,
                        run,
                    });
                    run += 1;
                }
                _ => {}
            }
            if breaks_run(inst) {
                run += 1;
            }
            // The new values of what `inst` assigns.
            let wanted = |d: &Var| needed.contains(d);
            let new_form = match inst {
                Inst::Mov { dst, .. } | Inst::Cast { dst, .. } | Inst::Binary { dst, .. }
                    if !wanted(dst) =>
                {
                    None
                }
                Inst::Mov { dst, src } if wide_int(self.k.ty(*dst)) => {
                    Some((*dst, form_of(*src, &sc)))
                }
                Inst::Cast { dst, a }
                    if wide_int(self.k.ty(*dst)) && wide_int(self.k.operand_ty(*a)) =>
                {
                    Some((*dst, form_of(*a, &sc)))
                }
                Inst::Binary { dst, op, a, b } if wide_int(self.k.ty(*dst)) => {
                    let (fa, fb) = (form_of(*a, &sc), form_of(*b, &sc));
                    match op {
                        BinOp::Add => Some((*dst, fa.add(&fb, 1))),
                        BinOp::Sub => Some((*dst, fa.add(&fb, u32::MAX))),
                        BinOp::Mul if fb.terms.is_empty() => Some((*dst, fa.scale(fb.c))),
                        BinOp::Mul if fa.terms.is_empty() => Some((*dst, fb.scale(fa.c))),
                        BinOp::Shl => match b {
                            Operand::Const(c) if c.bits < 32 => {
                                Some((*dst, fa.scale(1u32 << c.bits)))
                            }
                            _ => None,
                        },
                        _ => None,
                    }
                }
                _ => None,
            };
            let mut forget = |v: Var| sc.forget(v);
            for_each_def(inst, &mut forget);
            // Forgetting a variable twice only bumps its version twice: forms compare versions
            // for equality, so no set of the nested definitions is needed.
            for c in blocks(inst) {
                walk(c, &mut |x| for_each_def(x, &mut forget));
            }
            if let Some((d, f)) = new_form {
                if f.terms.len() <= 4 {
                    sc.set_form(d, f);
                }
            }
        }
        sc.reset();
        self.scratch = sc;
        out
    }

    /// Groups of 4 (or 2) access indices, leader first, that become vector loads.
    fn groups(&mut self, b: &Block, acc: &[Access]) -> Vec<Vec<usize>> {
        let mut taken = vec![false; acc.len()];
        let mut out = Vec::new();
        for i in 0..acc.len() {
            if taken[i] || acc[i].dst.is_none() {
                continue;
            }
            let (align, rel) = self.form_align(&acc[i].form);
            for n in [4u32, 2] {
                if align < 4 * n {
                    continue;
                }
                let mut g = vec![i];
                for m in 1..n {
                    let want = acc[i].form.c.wrapping_add(4 * m);
                    let found = (i + 1..acc.len()).find(|&j| {
                        !taken[j]
                            && acc[j].run == acc[i].run
                            && acc[j].form.terms == acc[i].form.terms
                            && acc[j].form.c == want
                            && acc[j]
                                .dst
                                .is_some_and(|(_, t)| Some(t) == acc[i].dst.map(|d| d.1))
                    });
                    match found {
                        Some(j) => g.push(j),
                        None => break,
                    }
                }
                if g.len() == n as usize && movable(b, acc, &g) {
                    for &j in &g {
                        taken[j] = true;
                    }
                    self.raise.extend(rel.iter().copied());
                    out.push(g);
                    break;
                }
            }
        }
        out
    }
}

/// Whether the later loads of `g` may run at the leader's place: distinct destinations, and
/// nothing between the leader and each of them reads or writes its destination.
fn movable(b: &Block, acc: &[Access], g: &[usize]) -> bool {
    let dsts: Vec<Var> = g.iter().map(|&i| acc[i].dst.unwrap().0).collect();
    let distinct: FxHashSet<Var> = dsts.iter().copied().collect();
    if distinct.len() != dsts.len() {
        return false;
    }
    let start = acc[g[0]].at;
    g[1..].iter().all(|&m| {
        let d = acc[m].dst.unwrap().0;
        b.0[start + 1..acc[m].at].iter().all(|inst| {
            let mut touched = false;
            let mut f = |i: &Inst| {
                for_each_use(i, |o| touched |= o == Operand::Var(d));
                for_each_def(i, |v| touched |= v == d);
            };
            f(inst);
            for c in blocks(inst) {
                walk(c, &mut f);
            }
            !touched
        })
    })
}

/// Whether a load may not move across `inst`: it writes shared memory, synchronizes, may leave
/// the run, or is control flow.
fn breaks_run(inst: &Inst) -> bool {
    let p = inst.props();
    p.intersects(Props::CONTROL | Props::CHECK | Props::SYNC)
        || match inst {
            // A distributed shared store may write this block's shared memory too.
            Inst::Store { space, .. } => space.may_alias(Space::Shared),
            // Atomics may write shared memory.
            Inst::Intrinsic { .. } => p.contains(Props::WRITES_MEMORY),
            // Already merged.
            Inst::LoadVec { .. } => true,
            _ => false,
        }
}

/// Appends `inst` ahead of the source markers that end `out`: address arithmetic belongs to the
/// code before the access's statement marker, where the optimizer (move coalescing) sees it next
/// to the value it copies, with or without markers.
fn push_before_markers(out: &mut Vec<Inst>, inst: Inst) {
    let mut at = out.len();
    while at > 0 && matches!(out[at - 1], Inst::Loc(_)) {
        at -= 1;
    }
    out.insert(at, inst);
}

fn address(inst: &Inst) -> Operand {
    match inst {
        Inst::Load { addr, .. } | Inst::Store { addr, .. } | Inst::LoadVec { addr, .. } => *addr,
        _ => Operand::Const(Const::u32(0)),
    }
}

fn set_address(inst: &mut Inst, to: Operand) {
    if let Inst::Load { addr, .. } | Inst::Store { addr, .. } | Inst::LoadVec { addr, .. } = inst {
        *addr = to;
    }
}
