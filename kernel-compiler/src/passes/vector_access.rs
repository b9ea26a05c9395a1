//! Whole-vector global and shared accesses from the field-by-field ones the front end makes.
//!
//! The front end moves a struct or array value through memory one scalar field at a time: `let v
//! = p[i];` of a `float4` is four `ld.global.f32`, `out[i] = make_uchar4(..)` four `st.u8`,
//! where nvcc, knowing `float4` is 16-aligned and `uchar4` 4-aligned, makes one `LDG.128` and
//! one `STG.32`. This pass finds, in one block, 2 or 4 loads (or stores) of one type at
//! `base + c0, base + c0 + w, ...` (one `base` value, `w` the type's size, at most 16 bytes in
//! all) with `base + c0` provably a multiple of the whole size, and makes them one `LoadVec`
//! (`StoreVec`): `ld.global.v4.f32`, `st.global.v4.u8` (ptxas makes that one 32-bit store).
//! Field reads of one element (`p[i].x`, then `p[i].y`) are the same loads once `cse` has given
//! them one element address, so they merge too. Speculated accesses (`if c { load }`, one each,
//! as `speculate` leaves them) merge when they share the guard.
//!
//! Alignment comes from how the base is made: a slice parameter's pointer is a multiple of
//! `ParamKind::Slice::ptr_align` (its element type's alignment, which every buffer and view the
//! host API hands a kernel keeps: `float4` 16, `uint2` 8, `uchar4` 4, a `#[repr(C, align(16))]`
//! struct 16; `[u8; 4]` only 1, since a registered host buffer may start at any byte), a static
//! shared allocation's base its declared alignment, dynamic shared memory 16, and products,
//! shifts and sums of those and constants what arithmetic says.
//!
//! Exact: the vector access reads (writes) the bytes the scalar ones did, and runs at the first
//! one's place. Between that place and each later member there is no check, barrier, control
//! flow or side effect, nothing that writes (for stores: reads or writes) the same memory space,
//! and for loads nothing that reads or writes the later destination; a store's value and a
//! guard hold the same value at the first place as at their own (their variables are not
//! written in between).

use super::fx::FxHashMap;
use kernel_ir::ir::{BinOp, Block, Inst, Kernel, Operand, ParamKind, Space, Ty, Var};
use kernel_ir::props::Props;
use kernel_ir::visit::{blocks, for_each_def, for_each_use, walk};

/// Alignment is tracked up to this (more says nothing a 16-byte access needs).
const MAX_ALIGN: u64 = 256;

/// Returns whether anything changed.
pub fn vector_access(k: &mut Kernel) -> bool {
    let n = k.vars.len();
    let mut counts = vec![0u32; n];
    let mut at: Vec<Option<Def>> = vec![None; n];
    for p in &k.params {
        for (off, v) in &p.pieces {
            counts[v.0 as usize] += 1;
            if let (ParamKind::Slice { ptr_align, .. }, 0) = (p.kind, *off) {
                at[v.0 as usize] = Some(Def::Ptr(ptr_align));
            }
        }
    }
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
    let mut cx = Cx {
        k,
        defs: at,
        memo: FxHashMap::default(),
        changed: false,
    };
    let mut body = std::mem::take(&mut cx.k.body);
    cx.block(&mut body, State::default());
    let changed = cx.changed;
    k.body = body;
    changed
}

/// Each variable's version (bumped at every write) and, for addresses, its form
/// `(base, base's version, offset)`, at one point of a block.
#[derive(Clone, Default)]
struct State {
    version: FxHashMap<Var, u32>,
    forms: FxHashMap<Var, (Var, u32, u64)>,
}

/// What [`Cx::align`] looks into, per variable written exactly once.
#[derive(Clone, Copy)]
enum Def {
    /// A slice parameter's pointer, a multiple of this.
    Ptr(u32),
    Shared(u32),
    DynShared,
    Mov(Operand),
    Cast(Var, Operand),
    Binary(Var, BinOp, Operand, Operand),
}

impl Def {
    fn of(i: &Inst) -> Option<Def> {
        Some(match *i {
            Inst::SharedAddr { alloc, .. } => Def::Shared(alloc.0),
            Inst::DynSharedAddr { .. } => Def::DynShared,
            Inst::Mov { src, .. } => Def::Mov(src),
            Inst::Cast { dst, a } => Def::Cast(dst, a),
            Inst::Binary { dst, op, a, b } => Def::Binary(dst, op, a, b),
            _ => return None,
        })
    }
}

fn low_align(c: u64) -> u64 {
    if c == 0 {
        MAX_ALIGN
    } else {
        (1u64 << c.trailing_zeros().min(8)).min(MAX_ALIGN)
    }
}

struct Cx<'a> {
    k: &'a mut Kernel,
    defs: Vec<Option<Def>>,
    memo: FxHashMap<Var, u64>,
    changed: bool,
}

/// One access of a block: a load or store at `base@version + off`, maybe under a guard.
#[derive(Clone, Copy)]
struct Acc {
    at: usize,
    store: bool,
    space: Space,
    ty: Ty,
    base: (Var, u32),
    off: u64,
    /// The load's destination or the store's value.
    data: Operand,
    readonly: bool,
    /// The guard (`if c { access }`) and its version.
    guard: Option<(Operand, u32)>,
}

impl Cx<'_> {
    /// A lower bound on the alignment of every value `v` holds.
    fn align(&mut self, v: Var, depth: u32) -> u64 {
        if let Some(&a) = self.memo.get(&v) {
            return a;
        }
        let a = if depth > 16 {
            1
        } else {
            match self.defs.get(v.0 as usize).copied().flatten() {
                Some(Def::Ptr(a)) => (a as u64).clamp(1, MAX_ALIGN),
                Some(Def::Shared(id)) => self
                    .k
                    .shared
                    .get(id as usize)
                    .map_or(1, |s| (s.align as u64).clamp(1, MAX_ALIGN)),
                Some(Def::DynShared) => 16,
                Some(Def::Mov(src)) => self.align_op(src, depth),
                Some(Def::Cast(dst, a)) if self.k.ty(dst).is_int() => self.align_op(a, depth),
                Some(Def::Binary(dst, op, a, b)) if self.k.ty(dst).is_int() => match op {
                    BinOp::Mul => {
                        (self.align_op(a, depth) * self.align_op(b, depth)).min(MAX_ALIGN)
                    }
                    BinOp::Shl => match b {
                        Operand::Const(c) => {
                            (self.align_op(a, depth) << c.bits.min(8)).min(MAX_ALIGN)
                        }
                        _ => 1,
                    },
                    BinOp::Add | BinOp::Sub => self.align_op(a, depth).min(self.align_op(b, depth)),
                    BinOp::And => self.align_op(a, depth).max(self.align_op(b, depth)),
                    _ => 1,
                },
                _ => 1,
            }
        };
        self.memo.insert(v, a);
        a
    }

    fn align_op(&mut self, o: Operand, depth: u32) -> u64 {
        match o {
            Operand::Const(c) => low_align(c.bits),
            Operand::Var(v) => self.align(v, depth + 1),
        }
    }

    /// Merges the accesses of `b` and of the blocks nested in it; `st` holds the variables'
    /// versions and address forms where `b` starts.
    fn block(&mut self, b: &mut Block, st: State) {
        let accs = self.scan(b, st);
        if accs.len() < 2 {
            return;
        }
        let groups = self.groups(b, &accs);
        if groups.is_empty() {
            return;
        }
        let mut replace: Vec<Option<Inst>> = vec![None; b.0.len()];
        let mut dropped = vec![false; b.0.len()];
        let mut before: Vec<Vec<Inst>> = vec![Vec::new(); b.0.len()];
        for (g, inits) in &groups {
            let lead = accs[g[0]];
            let addr = access_of(&b.0[lead.at]).map(|(i, _)| address(i));
            let Some(addr) = addr else { continue };
            let data: Vec<Operand> = g.iter().map(|&i| accs[i].data).collect();
            let access = if lead.store {
                Inst::StoreVec {
                    space: lead.space,
                    addr,
                    vals: data,
                }
            } else {
                Inst::LoadVec {
                    dsts: data
                        .iter()
                        .map(|o| match o {
                            Operand::Var(v) => *v,
                            Operand::Const(_) => unreachable!("a load's destination"),
                        })
                        .collect(),
                    space: lead.space,
                    addr,
                    readonly: g.iter().all(|&i| accs[i].readonly),
                }
            };
            let first = g.iter().map(|&i| accs[i].at).min().unwrap_or(lead.at);
            replace[first] = Some(match lead.guard {
                Some((cond, _)) => Inst::If {
                    cond,
                    then: Block(vec![access]),
                    els: Block::default(),
                },
                None => access,
            });
            for &i in g {
                if accs[i].at != first {
                    dropped[accs[i].at] = true;
                }
            }
            for &p in inits {
                before[first].push(b.0[p].clone());
                dropped[p] = true;
            }
        }
        let old = std::mem::take(&mut b.0);
        for (i, inst) in old.into_iter().enumerate() {
            b.0.append(&mut before[i]);
            if dropped[i] {
                continue;
            }
            match replace[i].take() {
                Some(r) => b.0.push(r),
                None => b.0.push(inst),
            }
        }
        self.changed = true;
    }

    /// The block's top-level loads and stores (plain or alone under a guard) with their
    /// address forms, in order.
    ///
    /// Forms flow into nested blocks (an address computed before an `if` is known inside it);
    /// a loop body starts with every variable the loop writes at a new version, since an
    /// iteration after the first sees other values.
    fn scan(&mut self, b: &mut Block, st: State) -> Vec<Acc> {
        let State {
            mut version,
            mut forms,
        } = st;
        let ver = |version: &FxHashMap<Var, u32>, v: Var| version.get(&v).copied().unwrap_or(0);
        let mut out = Vec::new();
        for at in 0..b.0.len() {
            // The nested blocks first, each from the state where it starts.
            match &mut b.0[at] {
                Inst::If { then, els, .. } => {
                    let st = State {
                        version: version.clone(),
                        forms: forms.clone(),
                    };
                    self.block(then, st.clone());
                    self.block(els, st);
                }
                inst @ (Inst::For { .. } | Inst::Loop { .. }) => {
                    let mut st = State {
                        version: version.clone(),
                        forms: forms.clone(),
                    };
                    let mut written = Vec::new();
                    for_each_def(inst, |v| written.push(v));
                    for c in blocks(inst) {
                        walk(c, &mut |x| for_each_def(x, |v| written.push(v)));
                    }
                    for v in written {
                        *st.version.entry(v).or_insert(0) += 1;
                        st.forms.remove(&v);
                    }
                    if let Inst::For { body, .. } | Inst::Loop { body, .. } = inst {
                        self.block(body, st);
                    }
                }
                _ => {}
            }
            let inst = &b.0[at];
            if let Some((a, guard)) = access_of(inst) {
                let form = |o: Operand| match o {
                    Operand::Var(v) => {
                        Some(forms.get(&v).copied().unwrap_or((v, ver(&version, v), 0)))
                    }
                    Operand::Const(_) => None,
                };
                let guard = guard.map(|g| {
                    let gv = match g {
                        Operand::Var(v) => ver(&version, v),
                        Operand::Const(_) => 0,
                    };
                    (g, gv)
                });
                let acc = match *a {
                    Inst::Load {
                        dst,
                        space,
                        addr,
                        readonly,
                    } => form(addr).map(|(bv, bver, off)| Acc {
                        at,
                        store: false,
                        space,
                        ty: self.k.ty(dst),
                        base: (bv, bver),
                        off,
                        data: Operand::Var(dst),
                        readonly,
                        guard,
                    }),
                    Inst::Store { space, addr, val } => form(addr).map(|(bv, bver, off)| Acc {
                        at,
                        store: true,
                        space,
                        ty: self.k.operand_ty(val),
                        base: (bv, bver),
                        off,
                        data: val,
                        readonly: false,
                        guard,
                    }),
                    _ => None,
                };
                if let Some(acc) = acc.filter(|a| {
                    a.ty != Ty::Bool && matches!(a.space, Space::Global | Space::Shared)
                }) {
                    out.push(acc);
                }
            }
            // The form of what `inst` assigns: a copy or a constant offset of a known form.
            let int = |k: &Kernel, v: Var| k.ty(v).is_int() && k.ty(v).bits() >= 32;
            let new_form = match *inst {
                Inst::Mov {
                    dst,
                    src: Operand::Var(s),
                } if int(self.k, dst) => Some((
                    dst,
                    forms.get(&s).copied().unwrap_or((s, ver(&version, s), 0)),
                )),
                Inst::Binary { dst, op, a, b } if int(self.k, dst) => {
                    let mask = if self.k.ty(dst).bits() == 32 {
                        u32::MAX as u64
                    } else {
                        u64::MAX
                    };
                    let of = |v: Var| forms.get(&v).copied().unwrap_or((v, ver(&version, v), 0));
                    match (op, a, b) {
                        (BinOp::Add, Operand::Var(v), Operand::Const(c))
                        | (BinOp::Add, Operand::Const(c), Operand::Var(v)) => {
                            let (bv, bver, off) = of(v);
                            Some((dst, (bv, bver, off.wrapping_add(c.bits) & mask)))
                        }
                        (BinOp::Sub, Operand::Var(v), Operand::Const(c)) => {
                            let (bv, bver, off) = of(v);
                            Some((dst, (bv, bver, off.wrapping_sub(c.bits) & mask)))
                        }
                        _ => None,
                    }
                }
                _ => None,
            };
            let mut bump = |v: Var| {
                *version.entry(v).or_insert(0) += 1;
                forms.remove(&v);
            };
            for_each_def(inst, &mut bump);
            for c in blocks(inst) {
                walk(c, &mut |x| for_each_def(x, &mut bump));
            }
            if let Some((d, f)) = new_form {
                // A form in terms of the variable itself (`x = x + 4`) names an old value.
                if f.0 != d {
                    forms.insert(d, f);
                }
            }
        }
        out
    }

    /// Groups of 2 or 4 access indices, lowest address first, that become one vector access, with
    /// the positions of the initialisations that move ahead of it ([`movable`]).
    fn groups(&mut self, b: &Block, accs: &[Acc]) -> Vec<(Vec<usize>, Vec<usize>)> {
        let mut taken = vec![false; accs.len()];
        let mut out = Vec::new();
        for i in 0..accs.len() {
            if taken[i] {
                continue;
            }
            let lead = accs[i];
            let w = lead.ty.bytes() as u64;
            let align = self.align(lead.base.0, 0).min(low_align(lead.off));
            for n in [4u64, 2] {
                if n * w > 16 || align < n * w || !lead.off.is_multiple_of(n * w) {
                    continue;
                }
                let mut g = vec![i];
                for m in 1..n {
                    let want = lead.off.wrapping_add(m * w);
                    let found = (i + 1..accs.len()).find(|&j| {
                        let a = &accs[j];
                        !taken[j]
                            && a.store == lead.store
                            && a.space == lead.space
                            && a.ty == lead.ty
                            && a.base == lead.base
                            && a.off == want
                            && a.guard == lead.guard
                    });
                    match found {
                        Some(j) => g.push(j),
                        None => break,
                    }
                }
                if g.len() != n as usize {
                    continue;
                }
                if let Some(inits) = movable(b, accs, &g) {
                    for &j in &g {
                        taken[j] = true;
                    }
                    out.push((g, inits));
                    break;
                }
            }
        }
        out
    }
}

/// The access `inst` is, and its guard: a `Load`/`Store`, or one alone in an `if` without
/// `else`.
fn access_of(inst: &Inst) -> Option<(&Inst, Option<Operand>)> {
    match inst {
        Inst::Load { .. } | Inst::Store { .. } => Some((inst, None)),
        Inst::If { cond, then, els } if els.0.is_empty() => match then.0.as_slice() {
            [a @ (Inst::Load { .. } | Inst::Store { .. })] => Some((a, Some(*cond))),
            _ => None,
        },
        _ => None,
    }
}

fn address(inst: &Inst) -> Operand {
    match inst {
        Inst::Load { addr, .. } | Inst::Store { addr, .. } => *addr,
        _ => unreachable!("an access"),
    }
}

/// Whether the later members of `g` may run at the first one's place (see the module's doc);
/// `Some` of the positions of the constant initialisations of later loads' destinations
/// (`x = 0; if ok { x = load }`, as `defer_checks` leaves guarded loads) that move ahead of the
/// vector load with them.
fn movable(b: &Block, accs: &[Acc], g: &[usize]) -> Option<Vec<usize>> {
    let lead = accs[g[0]];
    let first = g.iter().map(|&i| accs[i].at).min().unwrap_or(lead.at);
    // The lowest address's access is the first: its address operand is the vector's, computed
    // before that place.
    if first != lead.at {
        return None;
    }
    let members: Vec<usize> = g.iter().map(|&i| accs[i].at).collect();
    let dsts: Vec<Operand> = g.iter().map(|&i| accs[i].data).collect();
    if !lead.store {
        let mut d = dsts.clone();
        d.sort_by_key(|o| match o {
            Operand::Var(v) => v.0,
            Operand::Const(_) => u32::MAX,
        });
        d.dedup();
        if d.len() != g.len() {
            return None;
        }
    }
    let mut inits = Vec::new();
    for &m in &g[1..] {
        let acc = accs[m];
        let mut own_init = None;
        for (pos, inst) in b.0.iter().enumerate().take(acc.at).skip(first + 1) {
            if members.contains(&pos) {
                continue;
            }
            if !allowed_between(inst, lead.store, lead.space) {
                return None;
            }
            // `x = K` for this load's `x`, once, with nothing reading `x` in between: it moves
            // ahead of the vector load.
            if !lead.store {
                if let Inst::Mov {
                    dst,
                    src: Operand::Const(_),
                } = inst
                {
                    if Operand::Var(*dst) == acc.data && own_init.is_none() {
                        own_init = Some(pos);
                        continue;
                    }
                }
            }
            let mut touched = false;
            let mut f = |i: &Inst| {
                // A load's destination must be neither read nor written in between (nor any
                // other member's destination written: it would be before the vector load); a
                // store's value and the guard not written.
                if !lead.store {
                    for_each_use(i, |o| touched |= o == acc.data);
                }
                for_each_def(i, |v| {
                    touched |= Operand::Var(v) == acc.data;
                    if let Some((g, _)) = lead.guard {
                        touched |= Operand::Var(v) == g;
                    }
                });
            };
            f(inst);
            for c in blocks(inst) {
                walk(c, &mut f);
            }
            if touched {
                return None;
            }
        }
        if let Some(p) = own_init {
            // Nothing between the first member and the initialisation may read the value the
            // destination had (it now gets its constant earlier).
            let read_before = b.0[first..p].iter().any(|inst| {
                let mut r = false;
                let mut f = |i: &Inst| for_each_use(i, |o| r |= o == acc.data);
                f(inst);
                for c in blocks(inst) {
                    walk(c, &mut f);
                }
                r
            });
            if read_before {
                return None;
            }
            inits.push(p);
        }
    }
    Some(inits)
}

/// Whether `inst` may sit between the members of a group of `store`s (or loads) in `space`.
fn allowed_between(inst: &Inst, store: bool, space: Space) -> bool {
    if matches!(inst, Inst::Loc(_)) {
        return true;
    }
    let inner = match access_of(inst) {
        Some((a, _)) => a,
        None => inst,
    };
    let p = inner.props();
    if p.intersects(Props::CONTROL | Props::CHECK | Props::SYNC | Props::EFFECT) {
        return false;
    }
    match inner {
        Inst::Store { space: s, .. } | Inst::StoreVec { space: s, .. } => *s != space,
        Inst::Load { space: s, .. } | Inst::LoadVec { space: s, .. } => !store || *s != space,
        Inst::ArrayLoad { .. } | Inst::ArrayStore { .. } => true,
        _ => !p.intersects(Props::READS_MEMORY | Props::WRITES_MEMORY),
    }
}
