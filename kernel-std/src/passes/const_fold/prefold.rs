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

use super::{Env, Folder};
use crate::ir::{Const, Inst, Operand, Ty, Var};
use crate::passes::util::{child_blocks, for_each_def, for_each_use, for_each_use_mut, walk};

/// The constants the copies built so far hold.
pub(crate) struct Prefold {
    known: Vec<Option<Const>>,
    /// Per variable: whether the copies wrote it (straight-line), and whether they read it as a
    /// variable or wrote it inside control flow (then none of its writes is dropped).
    written: Vec<bool>,
    tainted: Vec<bool>,
    /// Output position of each variable's last write, if that is a `mov` of a constant that is
    /// not its first write and that nothing read since (`NONE` otherwise).
    pending: Vec<u32>,
    /// Variables whose `pending` may be set.
    pending_vars: Vec<Var>,
    /// Output positions of the `mov`s to drop.
    dead: Vec<u32>,
}

const NONE: u32 = u32::MAX;

impl Prefold {
    pub(crate) fn new(vars: usize) -> Self {
        Prefold {
            known: vec![None; vars],
            written: vec![false; vars],
            tainted: vec![false; vars],
            pending: vec![NONE; vars],
            pending_vars: Vec::new(),
            dead: Vec::new(),
        }
    }

    /// No pending write is dropped by a later one.
    fn flush(&mut self) {
        for v in self.pending_vars.drain(..) {
            self.pending[v.0 as usize] = NONE;
        }
    }

    /// The unrolled loop's induction variable holds `c` in the copy built next.
    pub(crate) fn set(&mut self, iv: Var, c: Const) {
        self.known[iv.0 as usize] = Some(c);
    }

    /// Control flow (built by the caller) was appended: what it writes is no longer known, and
    /// what it reads or writes is tainted.
    pub(crate) fn forget(&mut self, inst: &Inst) {
        self.flush();
        let (known, tainted) = (&mut self.known, &mut self.tainted);
        let mut look = |i: &Inst| {
            for_each_def(i, |d| {
                known[d.0 as usize] = None;
                tainted[d.0 as usize] = true;
            });
            for_each_use(i, |o| {
                if let Operand::Var(v) = o {
                    tainted[v.0 as usize] = true;
                }
            });
        };
        look(inst);
        for c in child_blocks(inst) {
            walk(c, &mut look);
        }
    }

    /// Appends a copy of `inst` (no control flow) to `out`, folded where it can be.
    pub(crate) fn push(&mut self, vars: &[Ty], inst: &Inst, out: &mut Vec<Inst>) {
        let mut inst = inst.clone();
        if let Inst::Loc(_) = inst {
            out.push(inst);
            return;
        }
        let (known, tainted, pending) = (&self.known, &mut self.tainted, &mut self.pending);
        let mut consts = true;
        for_each_use_mut(&mut inst, |o| {
            if let Operand::Var(v) = *o {
                let n = v.0 as usize;
                match known[n] {
                    Some(c) => *o = Operand::Const(c),
                    None => {
                        consts = false;
                        tainted[n] = true;
                        pending[n] = NONE;
                    }
                }
            }
        });
        if let Inst::BoundsCheck { idx, len, .. } = inst {
            if let (Operand::Const(i), Operand::Const(l)) = (idx, len) {
                if i.bits < l.bits {
                    return;
                }
            }
            self.flush();
        }
        // `diverges` for an instruction without nested blocks (the only kind pushed here),
        // inline: this runs for every instruction of every copy.
        if matches!(
            inst,
            Inst::Break(_) | Inst::Continue(_) | Inst::Return | Inst::Panic { .. }
        ) {
            self.flush();
        }
        if consts && super::has_simpler_forms(&inst) {
            if let Some(s) = simplify_consts(vars, &inst) {
                inst = s;
            }
        }
        let (known, pending, dead) = (&mut self.known, &mut self.pending, &mut self.dead);
        let (written, tainted) = (&mut self.written, &self.tainted);
        let mut first = false;
        for_each_def(&inst, |d| {
            let n = d.0 as usize;
            known[n] = None;
            if pending[n] != NONE {
                if !tainted[n] {
                    dead.push(pending[n]);
                }
                pending[n] = NONE;
            }
            first = !std::mem::replace(&mut written[n], true);
        });
        if let Inst::Mov {
            dst,
            src: Operand::Const(c),
        } = inst
        {
            let n = dst.0 as usize;
            known[n] = Some(c);
            if !first && !tainted[n] {
                pending[n] = out.len() as u32;
                self.pending_vars.push(dst);
            }
        }
        out.push(inst);
    }

    /// Deletes the dropped `mov`s from `out` (the vector everything was appended to).
    pub(crate) fn finish(self, out: &mut Vec<Inst>) {
        if self.dead.is_empty() {
            return;
        }
        let mut drop = vec![false; out.len()];
        for d in self.dead {
            drop[d as usize] = true;
        }
        let mut n = 0;
        out.retain(|_| {
            n += 1;
            !drop[n - 1]
        });
    }
}

/// What folding makes of `inst`, all of whose operands are constants.
fn simplify_consts(vars: &[Ty], inst: &Inst) -> Option<Inst> {
    let f = Folder {
        vars,
        changed: false,
        spare: Vec::new(),
        mattered: Vec::new(),
        dropped: Vec::new(),
        unsettled: false,
    };
    let none = Env {
        known: Vec::new(),
        copies: Vec::new(),
        widened: Vec::new(),
        widened_from: Vec::new(),
    };
    f.simplify(inst, &none)
}
