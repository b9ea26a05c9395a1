//! The walkers every pass shares: which operands an instruction reads, which variables it
//! writes, which blocks it nests, and walks over a whole tree of blocks.
//!
//! "Uses" and "defs" are those of the instruction itself; the `nested_*` forms and [`walk`]
//! include the code nested in `if`s and loops. A `for` writes its induction variable.

use crate::ir::{Block, Inst, Kernel, LoopId, Operand, Var};

/// Calls `f` on every operand `inst` itself reads (not those of instructions nested in it).
#[inline]
pub fn for_each_use(inst: &Inst, mut f: impl FnMut(Operand)) {
    match inst {
        Inst::Mov { src: a, .. }
        | Inst::Unary { a, .. }
        | Inst::Cast { a, .. }
        | Inst::Bitcast { a, .. }
        | Inst::Load { addr: a, .. }
        | Inst::LoadVec { addr: a, .. }
        | Inst::ArrayLoad { idx: a, .. }
        | Inst::If { cond: a, .. } => f(*a),
        Inst::Binary { a, b, .. }
        | Inst::Store {
            addr: a, val: b, ..
        }
        | Inst::ArrayStore { idx: a, val: b, .. }
        | Inst::BoundsCheck { idx: a, len: b, .. }
        | Inst::Panic { a, b, .. } => {
            f(*a);
            f(*b)
        }
        Inst::Fma { a, b, c, .. }
        | Inst::Select {
            cond: a,
            a: b,
            b: c,
            ..
        }
        | Inst::For {
            start: a,
            end: b,
            step: c,
            ..
        } => {
            f(*a);
            f(*b);
            f(*c)
        }
        Inst::Intrinsic { args, .. } | Inst::Print { args, .. } => args.iter().for_each(|a| f(*a)),
        Inst::StoreVec { addr, vals, .. } => {
            f(*addr);
            vals.iter().for_each(|a| f(*a))
        }
        Inst::SharedAddr { .. }
        | Inst::DynSharedAddr { .. }
        | Inst::DynSharedBytes { .. }
        | Inst::Loop { .. }
        | Inst::Break(_)
        | Inst::Continue(_)
        | Inst::Return
        | Inst::Loc(_) => {}
    }
}

/// [`for_each_use`] with mutable access (to substitute operands).
#[inline]
pub fn for_each_use_mut(inst: &mut Inst, mut f: impl FnMut(&mut Operand)) {
    match inst {
        Inst::Mov { src: a, .. }
        | Inst::Unary { a, .. }
        | Inst::Cast { a, .. }
        | Inst::Bitcast { a, .. }
        | Inst::Load { addr: a, .. }
        | Inst::LoadVec { addr: a, .. }
        | Inst::ArrayLoad { idx: a, .. }
        | Inst::If { cond: a, .. } => f(a),
        Inst::Binary { a, b, .. }
        | Inst::Store {
            addr: a, val: b, ..
        }
        | Inst::ArrayStore { idx: a, val: b, .. }
        | Inst::BoundsCheck { idx: a, len: b, .. }
        | Inst::Panic { a, b, .. } => {
            f(a);
            f(b)
        }
        Inst::Fma { a, b, c, .. }
        | Inst::Select {
            cond: a,
            a: b,
            b: c,
            ..
        }
        | Inst::For {
            start: a,
            end: b,
            step: c,
            ..
        } => {
            f(a);
            f(b);
            f(c)
        }
        Inst::Intrinsic { args, .. } | Inst::Print { args, .. } => args.iter_mut().for_each(f),
        Inst::StoreVec { addr, vals, .. } => {
            f(addr);
            vals.iter_mut().for_each(f)
        }
        Inst::SharedAddr { .. }
        | Inst::DynSharedAddr { .. }
        | Inst::DynSharedBytes { .. }
        | Inst::Loop { .. }
        | Inst::Break(_)
        | Inst::Continue(_)
        | Inst::Return
        | Inst::Loc(_) => {}
    }
}

/// Calls `f` on every variable `inst` itself reads.
#[inline]
pub fn for_each_var_use(inst: &Inst, mut f: impl FnMut(Var)) {
    for_each_use(inst, |o| {
        if let Operand::Var(v) = o {
            f(v)
        }
    })
}

/// Calls `f` on every variable `inst` itself writes (a `for` writes its induction variable).
#[inline]
pub fn for_each_def(inst: &Inst, mut f: impl FnMut(Var)) {
    match inst {
        Inst::Mov { dst, .. }
        | Inst::Unary { dst, .. }
        | Inst::Binary { dst, .. }
        | Inst::Fma { dst, .. }
        | Inst::Cast { dst, .. }
        | Inst::Bitcast { dst, .. }
        | Inst::Select { dst, .. }
        | Inst::Load { dst, .. }
        | Inst::SharedAddr { dst, .. }
        | Inst::DynSharedAddr { dst }
        | Inst::DynSharedBytes { dst }
        | Inst::ArrayLoad { dst, .. }
        | Inst::For { iv: dst, .. } => f(*dst),
        Inst::Intrinsic { dsts, .. } | Inst::LoadVec { dsts, .. } => {
            dsts.iter().for_each(|d| f(*d))
        }
        _ => {}
    }
}

/// [`for_each_def`] with mutable access (to rename destinations).
#[inline]
pub fn for_each_def_mut(inst: &mut Inst, mut f: impl FnMut(&mut Var)) {
    match inst {
        Inst::Mov { dst, .. }
        | Inst::Unary { dst, .. }
        | Inst::Binary { dst, .. }
        | Inst::Fma { dst, .. }
        | Inst::Cast { dst, .. }
        | Inst::Bitcast { dst, .. }
        | Inst::Select { dst, .. }
        | Inst::Load { dst, .. }
        | Inst::SharedAddr { dst, .. }
        | Inst::DynSharedAddr { dst }
        | Inst::DynSharedBytes { dst }
        | Inst::ArrayLoad { dst, .. }
        | Inst::For { iv: dst, .. } => f(dst),
        Inst::Intrinsic { dsts, .. } | Inst::LoadVec { dsts, .. } => dsts.iter_mut().for_each(f),
        _ => {}
    }
}

/// The one variable a straight-line instruction writes, if it writes exactly one (not a loop's
/// induction variable).
pub fn single_def(inst: &Inst) -> Option<Var> {
    match inst {
        Inst::Intrinsic { dsts, .. } => match dsts[..] {
            [d] => Some(d),
            _ => None,
        },
        Inst::LoadVec { .. } | Inst::For { .. } => None,
        _ => {
            let mut d = None;
            for_each_def(inst, |v| d = Some(v));
            d
        }
    }
}

/// The blocks nested directly in `inst` (none, a loop's body, or an `if`'s two branches).
pub fn blocks(inst: &Inst) -> impl Iterator<Item = &Block> {
    let (a, b) = match inst {
        Inst::If { then, els, .. } => (Some(then), Some(els)),
        Inst::For { body, .. } | Inst::Loop { body, .. } => (Some(body), None),
        _ => (None, None),
    };
    a.into_iter().chain(b)
}

/// [`blocks`] with mutable access.
pub fn blocks_mut(inst: &mut Inst) -> impl Iterator<Item = &mut Block> {
    let (a, b) = match inst {
        Inst::If { then, els, .. } => (Some(then), Some(els)),
        Inst::For { body, .. } | Inst::Loop { body, .. } => (Some(body), None),
        _ => (None, None),
    };
    a.into_iter().chain(b)
}

/// Whether `inst` nests blocks (an `if` or a loop).
pub fn is_compound(inst: &Inst) -> bool {
    matches!(inst, Inst::If { .. } | Inst::For { .. } | Inst::Loop { .. })
}

/// Pre-order walk over every instruction of `b`, nested ones included.
pub fn walk(b: &Block, f: &mut impl FnMut(&Inst)) {
    for inst in &b.0 {
        f(inst);
        match inst {
            Inst::If { then, els, .. } => {
                walk(then, f);
                walk(els, f);
            }
            Inst::For { body, .. } | Inst::Loop { body, .. } => walk(body, f),
            _ => {}
        }
    }
}

/// Pre-order walk over `inst` and everything nested in it.
pub fn walk_inst(inst: &Inst, f: &mut impl FnMut(&Inst)) {
    f(inst);
    for b in blocks(inst) {
        walk(b, f);
    }
}

/// Pre-order mutable walk over `inst` and everything nested in it.
pub fn walk_inst_mut(inst: &mut Inst, f: &mut impl FnMut(&mut Inst)) {
    f(inst);
    for b in blocks_mut(inst) {
        walk_mut(b, f);
    }
}

/// Pre-order mutable walk over every instruction of `b`, nested ones included.
pub fn walk_mut(b: &mut Block, f: &mut impl FnMut(&mut Inst)) {
    for inst in &mut b.0 {
        f(inst);
        match inst {
            Inst::If { then, els, .. } => {
                walk_mut(then, f);
                walk_mut(els, f);
            }
            Inst::For { body, .. } | Inst::Loop { body, .. } => walk_mut(body, f),
            _ => {}
        }
    }
}

/// Whether `inst` or anything nested in it reads `v`.
pub fn nested_reads(inst: &Inst, v: Var) -> bool {
    let mut found = false;
    walk_inst(inst, &mut |i| {
        for_each_use(i, |o| found |= o == Operand::Var(v))
    });
    found
}

/// Whether `inst` or anything nested in it writes `v`.
pub fn nested_writes(inst: &Inst, v: Var) -> bool {
    let mut found = false;
    walk_inst(inst, &mut |i| for_each_def(i, |d| found |= d == v));
    found
}

/// Calls `f` on every variable `inst` or anything nested in it reads.
pub fn for_each_nested_read(inst: &Inst, mut f: impl FnMut(Var)) {
    walk_inst(inst, &mut |i| for_each_var_use(i, &mut f));
}

/// Calls `f` on every variable `inst` or anything nested in it writes.
pub fn for_each_nested_def(inst: &Inst, mut f: impl FnMut(Var)) {
    walk_inst(inst, &mut |i| for_each_def(i, &mut f));
}

/// Whether control never falls through past `inst`: a jump, return or panic, or an `if` neither
/// of whose branches falls through.
pub fn diverges(inst: &Inst) -> bool {
    match inst {
        Inst::Break(_) | Inst::Continue(_) | Inst::Return | Inst::Panic { .. } => true,
        Inst::If { then, els, .. } => !falls_through(then) && !falls_through(els),
        _ => false,
    }
}

/// Whether control can reach the end of `b`.
pub fn falls_through(b: &Block) -> bool {
    !b.0.last().is_some_and(diverges)
}

/// Whether `inst` is or holds a `break`, `continue` or `return` (control may leave it other
/// than by falling through or panicking).
pub fn has_jump(inst: &Inst) -> bool {
    let mut found = false;
    walk_inst(inst, &mut |i| {
        found |= matches!(i, Inst::Break(_) | Inst::Continue(_) | Inst::Return)
    });
    found
}

/// Whether anything in `insts` (nested code included) breaks out of or continues loop `id`.
pub fn jumps_to(insts: &[Inst], id: LoopId) -> bool {
    insts.iter().any(|inst| {
        let mut found = false;
        walk_inst(inst, &mut |i| {
            found |= matches!(i, Inst::Break(l) | Inst::Continue(l) if *l == id)
        });
        found
    })
}

impl Kernel {
    /// Whether the kernel calls a grid-wide barrier (`this_grid().sync()`): it then takes the
    /// hidden grid-barrier parameter and may only run as a cooperative launch (every block
    /// resident at once), which the host checks before launching.
    pub fn uses_grid_sync(&self) -> bool {
        let mut found = false;
        walk(&self.body, &mut |i| {
            if let Inst::Intrinsic { id, .. } = i {
                found |= id.def().class == crate::intrinsic::Class::GridBarrier;
            }
        });
        found
    }
}
