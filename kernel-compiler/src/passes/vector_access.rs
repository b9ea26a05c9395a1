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
//! shifts and sums of those and constants what arithmetic says. It is followed with the walk:
//! each write of an integer gives it the alignment its operands have there; a loop's body starts
//! with what the loop writes unknown (1), and after an `if` or a loop what they wrote is unknown.
//!
//! Exact: the vector access reads (writes) the bytes the scalar ones did, and runs at the first
//! one's place. Between that place and each later member there is no check, barrier, control
//! flow or side effect, nothing that writes (for stores: reads or writes) the same memory space,
//! and for loads nothing that reads or writes the later destination; a store's value and a
//! guard hold the same value at the first place as at their own (their variables are not
//! written in between).
//!
//! Cost: it runs on every kernel, the largest (unrolled GEMMs) included, so it is one walk over
//! the kernel (and one more over each loop body, for what the loop writes). What a point of the
//! walk knows of each variable (version, address form, alignment) lives in an array indexed by
//! variable; an `if` branch's changes are undone from a log where it ends, rather than the state
//! being copied for each nested block, which made this pass a quarter of SGEMM's whole compile
//! (a copy of every variable's entry for each of its hundreds of guarded loads). Floats, never an
//! address or a guard, are not followed. A block builds its map of candidates (keyed by
//! everything two members share) only if it has an access that may start a run.

use super::fx::FxHashMap;
use kernel_ir::ir::{BinOp, Block, Inst, Kernel, Operand, ParamKind, Space, Ty, Var};
use kernel_ir::props::Props;
use kernel_ir::visit::{blocks, for_each_def, for_each_use, is_compound, walk};

/// Alignments are tracked as powers of two up to `1 << MAX_LOG2` (more says nothing a 16-byte
/// access needs).
const MAX_LOG2: u8 = 8;

/// Returns whether anything changed.
pub fn vector_access(k: &mut Kernel) -> bool {
    let mut slots: Vec<Slot> = k
        .vars
        .iter()
        .map(|t| Slot {
            tracked: t.is_int() || *t == Ty::Bool,
            ..Slot::default()
        })
        .collect();
    for p in &k.params {
        if let (ParamKind::Slice { ptr_align, .. }, Some(&(0, ptr))) = (p.kind, p.pieces.first()) {
            if let Some(s) = slots.get_mut(ptr.0 as usize) {
                s.align = log2(ptr_align.max(1) as u64);
            }
        }
    }
    let mut body = std::mem::take(&mut k.body);
    let mut cx = Cx {
        k,
        slots,
        undo: Vec::new(),
        written: Vec::new(),
        stamp: 0,
        region: 0,
        regions: 0,
        changed: false,
    };
    cx.block(&mut body);
    let changed = cx.changed;
    k.body = body;
    changed
}

/// The alignment (log2) every multiple of `c` has, capped: that of its lowest set bit.
fn log2(c: u64) -> u8 {
    if c == 0 {
        MAX_LOG2
    } else {
        (c.trailing_zeros() as u8).min(MAX_LOG2)
    }
}

/// An address's form: it holds `base + off` (wrapping in its type) for the value `base` had at
/// `version`, a multiple of `1 << align`.
#[derive(Clone, Copy)]
struct Form {
    base: Var,
    version: u32,
    off: u64,
    align: u8,
}

/// What the walk knows of one variable where it is.
#[derive(Clone, Copy, Default)]
struct Slot {
    /// Its version: a fresh stamp at every write, so two points of one block see the same
    /// version only if nothing wrote the variable between them.
    version: u32,
    /// The form of what it holds, if known.
    form: Option<Form>,
    /// What it holds is a multiple of `1 << align` (0: nothing known).
    align: u8,
    /// The region ([`Cx::region`]) whose undo log last saved this slot.
    saved_in: u32,
    /// Whether it is followed: an integer (an address, or what one is made from) or a `Bool`
    /// (a guard). Other values (the floats of a GEMM's arithmetic) are never a base or a
    /// guard, and their writes cost nothing here.
    tracked: bool,
}

struct Cx<'a> {
    /// The kernel, its body taken out while the pass rewrites it.
    k: &'a Kernel,
    slots: Vec<Slot>,
    /// `(variable, its slot before)`, saved at its first change in each region, so that the
    /// branch of an `if` can be undone where it ends (the other branch starts from the same
    /// state).
    undo: Vec<(Var, Slot)>,
    /// The variables a loop or an `if` writes, a stack shared by the nested ones.
    written: Vec<Var>,
    /// The last stamp handed out.
    stamp: u32,
    /// The branch being walked (0: none, whose changes are never undone and are not saved).
    region: u32,
    /// The last region number handed out.
    regions: u32,
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
    /// The address is a multiple of `1 << align`.
    align: u8,
    /// The load's destination or the store's value.
    data: Operand,
    readonly: bool,
    /// The guard (`if c { access }`) and its version.
    guard: Option<(Operand, u32)>,
}

/// What two members of one vector access share, with the member's offset: the key of
/// [`Cx::groups`]'s map.
type Key = (bool, Space, Ty, (Var, u32), u64, Option<(Operand, u32)>);

impl Acc {
    fn key(&self, off: u64) -> Key {
        (self.store, self.space, self.ty, self.base, off, self.guard)
    }
}

impl Cx<'_> {
    fn ver(&self, v: Var) -> u32 {
        self.slots[v.0 as usize].version
    }

    /// The form of what `v` holds here: a known one, else `v` itself at its version.
    fn form(&self, v: Var) -> Form {
        let s = &self.slots[v.0 as usize];
        s.form.unwrap_or(Form {
            base: v,
            version: s.version,
            off: 0,
            align: s.align,
        })
    }

    fn align_of(&self, o: Operand) -> u8 {
        match o {
            Operand::Const(c) => log2(c.bits),
            Operand::Var(v) => self.slots[v.0 as usize].align,
        }
    }

    /// The alignment of what `inst` assigns to its integer destination, from its operands'
    /// alignments here (before it runs).
    fn def_align(&self, inst: &Inst) -> u8 {
        let int = |v: Var| self.k.ty(v).is_int();
        match *inst {
            Inst::SharedAddr { alloc, .. } => self
                .k
                .shared
                .get(alloc.0 as usize)
                .map_or(0, |s| log2(s.align.max(1) as u64)),
            Inst::DynSharedAddr { .. } => 4,
            Inst::Mov { src, .. } => self.align_of(src),
            Inst::Cast { dst, a } if int(dst) => self.align_of(a),
            Inst::Binary { dst, op, a, b } if int(dst) => {
                let (x, y) = (self.align_of(a), self.align_of(b));
                match (op, b) {
                    (BinOp::Mul, _) => (x + y).min(MAX_LOG2),
                    (BinOp::Shl, Operand::Const(c)) => (x as u64 + c.bits.min(8)).min(8) as u8,
                    (BinOp::Add | BinOp::Sub, _) => x.min(y),
                    (BinOp::And, _) => x.max(y),
                    _ => 0,
                }
            }
            _ => 0,
        }
    }

    /// The slot of `v`, saved first if this region has not saved it yet; `None` for a variable
    /// not followed.
    #[inline]
    fn change(&mut self, v: Var) -> Option<&mut Slot> {
        let s = self.slots.get_mut(v.0 as usize)?;
        if !s.tracked {
            return None;
        }
        if s.saved_in != self.region {
            let old = *s;
            s.saved_in = self.region;
            self.undo.push((v, old));
        }
        Some(s)
    }

    /// `v` is written here: a new version, of no known form or alignment.
    #[inline]
    fn bump(&mut self, v: Var) {
        self.stamp += 1;
        let stamp = self.stamp;
        if let Some(s) = self.change(v) {
            s.version = stamp;
            s.form = None;
            s.align = 0;
        }
    }

    /// Undoes every change since the log held `mark` entries.
    fn undo_to(&mut self, mark: usize) {
        while self.undo.len() > mark {
            let Some((v, old)) = self.undo.pop() else {
                break;
            };
            self.slots[v.0 as usize] = old;
        }
    }

    /// Walks the branch `b` of an `if` in a region of its own, then undoes what it changed;
    /// pushes the variables it wrote on [`Cx::written`].
    fn branch(&mut self, b: &mut Block) {
        if let [inst] = b.0.as_slice() {
            if !is_compound(inst) {
                // One instruction, nothing nested (a speculated access): nothing to merge, and
                // what it changes would be undone; only what it writes matters.
                let (w, slots) = (&mut self.written, &self.slots);
                for_each_def(inst, |v| {
                    if slots[v.0 as usize].tracked {
                        w.push(v)
                    }
                });
                return;
            }
        }
        let (outer, mark) = (self.region, self.undo.len());
        self.regions += 1;
        self.region = self.regions;
        self.block(b);
        // Every followed variable the branch wrote was saved once, in this region.
        self.written.extend(self.undo[mark..].iter().map(|e| e.0));
        self.undo_to(mark);
        self.region = outer;
    }

    /// Gives every variable in `written[from..]` a new version, and drops them from the stack.
    fn bump_written(&mut self, from: usize) {
        for i in from..self.written.len() {
            let v = self.written[i];
            self.bump(v);
        }
        self.written.truncate(from);
    }

    /// Merges the accesses of `b` and of the blocks nested in it, from what the walk knows where
    /// `b` starts; leaves what it knows where `b` ends.
    fn block(&mut self, b: &mut Block) {
        let accs = self.scan(b);
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
    /// address forms, in order; the blocks nested in it are merged on the way, each from what
    /// the walk knows where it starts.
    ///
    /// Forms flow into nested blocks (an address computed before an `if` is known inside it);
    /// a loop body starts with every variable the loop writes at a new version, since an
    /// iteration after the first sees other values.
    fn scan(&mut self, b: &mut Block) -> Vec<Acc> {
        let mut out = Vec::new();
        for at in 0..b.0.len() {
            // The nested blocks first, each from the state where it starts; after them,
            // every variable they write has a new version.
            let from = self.written.len();
            match &mut b.0[at] {
                Inst::If { then, els, .. } => {
                    self.branch(then);
                    self.branch(els);
                }
                inst @ (Inst::For { .. } | Inst::Loop { .. }) => {
                    // A loop body starts with what the loop writes at new versions, which it
                    // keeps after the loop (an iteration may have run or not): nothing to undo.
                    let (w, slots) = (&mut self.written, &self.slots);
                    let mut push = |v: Var| {
                        if slots[v.0 as usize].tracked {
                            w.push(v)
                        }
                    };
                    for_each_def(inst, &mut push);
                    if let Inst::For { body, .. } | Inst::Loop { body, .. } = &*inst {
                        walk(body, &mut |x| for_each_def(x, &mut push));
                    }
                    for i in from..self.written.len() {
                        let v = self.written[i];
                        self.bump(v);
                    }
                    if let Inst::For { body, .. } | Inst::Loop { body, .. } = inst {
                        self.block(body);
                    }
                }
                _ => {}
            }
            let inst = &b.0[at];
            if let Some((a, guard)) = access_of(inst) {
                let guard = guard.map(|g| match g {
                    Operand::Var(v) => (g, self.ver(v)),
                    Operand::Const(_) => (g, 0),
                });
                let acc = match *a {
                    Inst::Load {
                        dst,
                        space,
                        addr: Operand::Var(addr),
                        readonly,
                    } => Some((
                        false,
                        space,
                        self.k.ty(dst),
                        addr,
                        Operand::Var(dst),
                        readonly,
                    )),
                    Inst::Store {
                        space,
                        addr: Operand::Var(addr),
                        val,
                    } => Some((true, space, self.k.operand_ty(val), addr, val, false)),
                    _ => None,
                };
                if let Some((store, space, ty, addr, data, readonly)) = acc {
                    if ty != Ty::Bool && matches!(space, Space::Global | Space::Shared) {
                        let f = self.form(addr);
                        out.push(Acc {
                            at,
                            store,
                            space,
                            ty,
                            base: (f.base, f.version),
                            off: f.off,
                            align: f.align.min(log2(f.off)),
                            data,
                            readonly,
                            guard,
                        });
                    }
                }
            }
            // After an `if` or a loop, what it wrote is unknown.
            if self.written.len() > from {
                self.bump_written(from);
                continue;
            }
            // What an integer assignment gives its destination: an alignment, and for a copy
            // or a constant offset of a known form, a form.
            let dst = match *inst {
                Inst::SharedAddr { dst, .. }
                | Inst::DynSharedAddr { dst }
                | Inst::Mov { dst, .. }
                | Inst::Cast { dst, .. }
                | Inst::Binary { dst, .. } => Some(dst),
                _ => None,
            };
            let Some(dst) = dst.filter(|&d| self.slots[d.0 as usize].tracked) else {
                for_each_def(inst, |v| self.bump(v));
                continue;
            };
            let align = self.def_align(inst);
            let wide = self.k.ty(dst).is_int() && self.k.ty(dst).bits() >= 32;
            let form = match *inst {
                Inst::Mov {
                    src: Operand::Var(s),
                    ..
                } if wide => Some(self.form(s)),
                Inst::Binary { op, a, b, .. } if wide => {
                    let mask = if self.k.ty(dst).bits() == 32 {
                        u32::MAX as u64
                    } else {
                        u64::MAX
                    };
                    let moved = |f: Form, off: u64| Form {
                        off: off & mask,
                        ..f
                    };
                    match (op, a, b) {
                        (BinOp::Add, Operand::Var(v), Operand::Const(c))
                        | (BinOp::Add, Operand::Const(c), Operand::Var(v)) => {
                            let f = self.form(v);
                            Some(moved(f, f.off.wrapping_add(c.bits)))
                        }
                        (BinOp::Sub, Operand::Var(v), Operand::Const(c)) => {
                            let f = self.form(v);
                            Some(moved(f, f.off.wrapping_sub(c.bits)))
                        }
                        _ => None,
                    }
                }
                _ => None,
            };
            self.bump(dst);
            let s = &mut self.slots[dst.0 as usize];
            s.align = align;
            // A form in terms of the variable itself (`x = x + 4`) names an old value.
            s.form = form.filter(|f| f.base != dst);
        }
        out
    }

    /// Groups of 2 or 4 access indices, lowest address first, that become one vector access, with
    /// the positions of the initialisations that move ahead of it ([`movable`]).
    fn groups(&mut self, b: &Block, accs: &[Acc]) -> Vec<(Vec<usize>, Vec<usize>)> {
        // The accesses that may start a run (at least a 2-wide one, which the 4-wide needs
        // too): most blocks have none, and then no map is built.
        let leads: Vec<usize> = (0..accs.len())
            .filter(|&i| {
                let (w, a) = (accs[i].ty.bytes() as u64, &accs[i]);
                2 * w <= 16 && (1u64 << a.align) >= 2 * w
            })
            .collect();
        if leads.is_empty() {
            return Vec::new();
        }
        // The first access of each key, and after each access the next of its key.
        let mut first: FxHashMap<Key, usize> = FxHashMap::default();
        let mut next = vec![usize::MAX; accs.len()];
        for (j, a) in accs.iter().enumerate().rev() {
            if let Some(old) = first.insert(a.key(a.off), j) {
                next[j] = old;
            }
        }
        let mut taken = vec![false; accs.len()];
        let mut out = Vec::new();
        for i in leads {
            if taken[i] {
                continue;
            }
            let lead = accs[i];
            let w = lead.ty.bytes() as u64;
            for n in [4u64, 2] {
                if n * w > 16 || (1u64 << lead.align) < n * w {
                    continue;
                }
                let mut g = vec![i];
                for m in 1..n {
                    // The first untaken access after the lead at this member's address.
                    let want = lead.key(lead.off.wrapping_add(m * w));
                    let mut j = first.get(&want).copied().unwrap_or(usize::MAX);
                    while j != usize::MAX && (j <= i || taken[j]) {
                        j = next[j];
                    }
                    if j == usize::MAX {
                        break;
                    }
                    g.push(j);
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
        Inst::Store { space: s, .. } | Inst::StoreVec { space: s, .. } => !s.may_alias(space),
        Inst::Load { space: s, .. } | Inst::LoadVec { space: s, .. } => {
            !store || !s.may_alias(space)
        }
        Inst::ArrayLoad { .. } | Inst::ArrayStore { .. } => true,
        _ => !p.intersects(Props::READS_MEMORY | Props::WRITES_MEMORY),
    }
}
