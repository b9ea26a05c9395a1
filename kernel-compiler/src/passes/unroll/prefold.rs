//! Folding of unrolled copies as `unroll` builds them.
//!
//! Full unrolling substitutes a constant for the induction variable in every copy of a body;
//! `const_fold` then turns about half of what the copies hold into nothing (`v = mul.u32 3u32,
//! 8u32`, bounds checks of constants, casts of constants, then the dead `mov`s those leave).
//! [`Prefold`] does the part of that which needs no facts from outside the copies while they are
//! built, so fewer instructions are built, moved and folded again:
//! - constants written by `mov`s of the copies so far are substituted into their readers;
//! - an instruction whose operands are then all constants is simplified exactly as folding
//!   simplifies it (the same function, which needs no other fact for constant operands);
//! - a bounds check of two constants that holds goes, as folding drops it;
//! - a `mov` of a constant that the straight-line copies overwrite before anything reads it goes,
//!   as dead-value removal deletes it, where that changes no fact folding has elsewhere: not the
//!   variable's first write in the copies (it forgets facts from before them that refer to the
//!   variable), nor a write of a variable the copies read as a variable (a fact may refer to it),
//!   nor one followed by a bounds check before the next write (folding may find that the check
//!   fails, and what follows a panic is unreachable, so the `mov` stays live).
//!
//! Every such edit is one `const_fold` makes itself on the plain copies, and the facts used are
//! ones folding has at the same point too (a constant written inside the copies is known to it
//! until the variable is written again), so folding the prefolded copies gives the same code.
//! Nested control flow is left as it is: what it writes is forgotten, and it ends every run of
//! writes that could be dropped.

use crate::passes::const_fold::simplify;
use kernel_ir::ir::{Const, Inst, Operand, SourceLoc, Ty, Var};
use kernel_ir::visit::{for_each_def, for_each_use, for_each_use_mut, walk_inst};

/// The constants the copies built so far hold.
pub(super) struct Prefold {
    /// Per variable, one slot (the tables are read and written together for every operand).
    slots: Vec<Slot>,
    /// Variables whose `pending` may be set.
    pending_vars: Vec<Var>,
    /// Output positions of the `mov`s to drop.
    dead: Vec<u32>,
    /// The last marker appended at the top level (a copy of the body's first marker repeats
    /// the previous copy's last one, which [`drop_repeated_locs`] would drop afterwards).
    ///
    /// [`drop_repeated_locs`]: crate::passes::util::drop_repeated_locs
    loc: Option<SourceLoc>,
}

/// What the copies built so far did with one variable.
#[derive(Clone, Copy)]
struct Slot {
    known: Option<Const>,
    /// Output position of the variable's last write, if that is a `mov` of a constant that is
    /// not its first write and that nothing read since (`NONE` otherwise).
    pending: u32,
    /// Whether the copies wrote it (straight-line).
    written: bool,
    /// Whether the copies read it as a variable or wrote it inside control flow (then none of
    /// its writes is dropped).
    tainted: bool,
}

const NONE: u32 = u32::MAX;

impl Prefold {
    pub(super) fn new(vars: usize) -> Self {
        let empty = Slot {
            known: None,
            pending: NONE,
            written: false,
            tainted: false,
        };
        Prefold {
            slots: vec![empty; vars],
            pending_vars: Vec::new(),
            dead: Vec::new(),
            loc: None,
        }
    }

    /// No pending write is dropped by a later one.
    fn flush(&mut self) {
        for v in self.pending_vars.drain(..) {
            self.slots[v.0 as usize].pending = NONE;
        }
    }

    /// The unrolled loop's induction variable holds `c` in the copy built next.
    pub(super) fn set(&mut self, iv: Var, c: Const) {
        self.slots[iv.0 as usize].known = Some(c);
    }

    /// Control flow (built by the caller) was appended: what it writes is no longer known, and
    /// what it reads or writes is tainted.
    pub(super) fn forget(&mut self, inst: &Inst) {
        self.flush();
        let slots = &mut self.slots;
        let mut look = |i: &Inst| {
            for_each_def(i, |d| {
                let s = &mut slots[d.0 as usize];
                s.known = None;
                s.tainted = true;
            });
            for_each_use(i, |o| {
                if let Operand::Var(v) = o {
                    slots[v.0 as usize].tainted = true;
                }
            });
        };
        walk_inst(inst, &mut look);
    }

    /// `o` with a known constant substituted; a variable read as a variable is tainted and its
    /// pending write stays.
    #[inline(always)]
    fn operand(&mut self, o: Operand, consts: &mut bool) -> Operand {
        if let Operand::Var(v) = o {
            let s = &mut self.slots[v.0 as usize];
            if let Some(c) = s.known {
                return Operand::Const(c);
            }
            *consts = false;
            s.tainted = true;
            s.pending = NONE;
        }
        o
    }

    /// `d` is written (straight-line): its constant is forgotten, and a pending `mov` of it
    /// that nothing read goes. Returns whether this is its first write in the copies.
    #[inline(always)]
    fn def(&mut self, d: Var) -> bool {
        let s = &mut self.slots[d.0 as usize];
        s.known = None;
        if s.pending != NONE {
            if !s.tainted {
                self.dead.push(s.pending);
            }
            s.pending = NONE;
        }
        !std::mem::replace(&mut s.written, true)
    }

    /// Appends a copy of `inst` (no control flow) to `out`, folded where it can be.
    #[inline]
    pub(super) fn push(&mut self, vars: &[Ty], inst: &Inst, out: &mut Vec<Inst>) {
        let mut consts = true;
        let c = &mut consts;
        // The copy is built with its operands substituted (no clone to rewrite afterwards) for
        // the kinds unrolled bodies are made of.
        let mut inst = match *inst {
            Inst::Loc(l) => {
                if self.loc != Some(l) {
                    self.loc = Some(l);
                    out.push(Inst::Loc(l));
                }
                return;
            }
            Inst::Mov { dst, src } => Inst::Mov {
                dst,
                src: self.operand(src, c),
            },
            Inst::Unary { dst, op, a } => Inst::Unary {
                dst,
                op,
                a: self.operand(a, c),
            },
            Inst::Binary { dst, op, a, b } => Inst::Binary {
                dst,
                op,
                a: self.operand(a, c),
                b: self.operand(b, c),
            },
            Inst::Fma { dst, a, b, c: x } => Inst::Fma {
                dst,
                a: self.operand(a, c),
                b: self.operand(b, c),
                c: self.operand(x, c),
            },
            Inst::Cast { dst, a } => Inst::Cast {
                dst,
                a: self.operand(a, c),
            },
            Inst::Bitcast { dst, a } => Inst::Bitcast {
                dst,
                a: self.operand(a, c),
            },
            Inst::Select { dst, cond, a, b } => Inst::Select {
                dst,
                cond: self.operand(cond, c),
                a: self.operand(a, c),
                b: self.operand(b, c),
            },
            Inst::Load {
                dst,
                space,
                addr,
                readonly,
            } => Inst::Load {
                dst,
                space,
                addr: self.operand(addr, c),
                readonly,
            },
            Inst::Store { space, addr, val } => Inst::Store {
                space,
                addr: self.operand(addr, c),
                val: self.operand(val, c),
            },
            Inst::ArrayLoad { dst, array, idx } => Inst::ArrayLoad {
                dst,
                array,
                idx: self.operand(idx, c),
            },
            Inst::ArrayStore { array, idx, val } => Inst::ArrayStore {
                array,
                idx: self.operand(idx, c),
                val: self.operand(val, c),
            },
            Inst::BoundsCheck { idx, len, site } => {
                let (idx, len) = (self.operand(idx, c), self.operand(len, c));
                if let (Operand::Const(i), Operand::Const(l)) = (idx, len) {
                    if i.bits < l.bits {
                        return;
                    }
                }
                self.flush();
                Inst::BoundsCheck { idx, len, site }
            }
            _ => {
                let mut inst = inst.clone();
                for_each_use_mut(&mut inst, |o| *o = self.operand(*o, c));
                // `diverges` for an instruction without nested blocks (the only kind pushed
                // here).
                if matches!(
                    inst,
                    Inst::Break(_) | Inst::Continue(_) | Inst::Return | Inst::Panic { .. }
                ) {
                    self.flush();
                }
                inst
            }
        };
        if consts {
            if let Some(s) = simplify(vars, &[], &inst) {
                inst = s;
            }
        }
        match inst {
            Inst::Mov {
                dst,
                src: Operand::Const(k),
            } => {
                let first = self.def(dst);
                let s = &mut self.slots[dst.0 as usize];
                s.known = Some(k);
                if !first && !s.tainted {
                    s.pending = out.len() as u32;
                    self.pending_vars.push(dst);
                }
            }
            _ => for_each_def(&inst, |d| {
                self.def(d);
            }),
        }
        out.push(inst);
    }

    /// Deletes the dropped `mov`s from `out` (the vector everything was appended to).
    #[inline]
    pub(super) fn finish(mut self, out: &mut Vec<Inst>) {
        if self.dead.is_empty() {
            return;
        }
        self.dead.sort_unstable();
        let (mut n, mut next) = (0u32, 0);
        out.retain(|_| {
            let drop = self.dead.get(next) == Some(&n);
            next += drop as usize;
            n += 1;
            !drop
        });
    }
}
