//! Counted `while` loops become `for` loops, so that `unroll` treats them as it treats `for`.
//!
//! Why: C has no range loop, so ports keep C's shape: `let mut j = 0; while j < TILE { ..; j +=
//! ROWS }` (the tiled transpose). Its trip count is a constant, and nvcc unrolls it completely,
//! but only `for` loops reach `unroll`; the `while` went on to `stride_unroll`, which treats it as
//! a loop of unknown count (four copies per trip plus a remainder loop).
//!
//! Shape (after `const_fold`, which removes the front end's copies):
//!
//! ```text
//! j = mov START
//! loop L { c = lt j, END (or le); if c {} else { break L }; B; j = add j, STEP }
//! ```
//!
//! with `START`, `END`, `STEP` constants, `STEP > 0`, `j` written nowhere in `B`, no other jump to
//! `L` in `B`, and `c` read nowhere else. It becomes
//!
//! ```text
//! for L i in START..END step STEP { j = mov i; B }   (..=END for `le`)
//! j = mov EXIT
//! ```
//!
//! Exact: the loop runs with `j` = START, START + STEP, ... while `j < END`, which is the `for`
//! loop's sequence; EXIT is the first value not below END, the value `j` leaves the `while` with.
//! A loop whose increment would wrap before reaching EXIT (where the `while` would go on with
//! wrapped values) is left alone.

use kernel_ir::ir::{BinOp, Block, Const, Inst, Kernel, LoopId, Operand, Unroll, Var};
use kernel_ir::visit::{for_each_def, for_each_use, walk};

use super::eval::int_const;
use super::unroll::trip;

/// Returns whether any loop was rewritten.
pub fn counted_while(k: &mut Kernel) -> bool {
    let mut reads = vec![0u32; k.vars.len()];
    walk(&k.body, &mut |i| {
        for_each_use(i, |o| {
            if let Operand::Var(v) = o {
                reads[v.0 as usize] += 1;
            }
        })
    });
    let mut body = std::mem::take(&mut k.body);
    let changed = block(k, &mut body, &reads);
    k.body = body;
    changed
}

fn block(k: &mut Kernel, b: &mut Block, reads: &[u32]) -> bool {
    let mut changed = false;
    for inst in &mut b.0 {
        for child in kernel_ir::visit::blocks_mut(inst) {
            changed |= block(k, child, reads);
        }
    }
    let mut i = 0;
    while i < b.0.len() {
        if let Some((for_loop, exit)) = counted(k, &b.0, i, reads) {
            b.0[i] = for_loop;
            b.0.insert(i + 1, exit);
            changed = true;
        }
        i += 1;
    }
    changed
}

/// The `for` loop and the exit assignment that replace the `loop` at `at`, if it is counted.
fn counted(k: &mut Kernel, insts: &[Inst], at: usize, reads: &[u32]) -> Option<(Inst, Inst)> {
    let Inst::Loop { id, body } = &insts[at] else {
        return None;
    };
    // `j = mov START`, the last instruction before the loop other than markers.
    let before = insts[..at]
        .iter()
        .rev()
        .find(|i| !matches!(i, Inst::Loc(_)))?;
    let Inst::Mov {
        dst: j,
        src: Operand::Const(start),
    } = *before
    else {
        return None;
    };
    let code: Vec<usize> = (0..body.0.len())
        .filter(|&n| !matches!(body.0[n], Inst::Loc(_)))
        .collect();
    let (&first, &second, &last) = (code.first()?, code.get(1)?, code.last()?);
    if code.len() < 3 {
        return None;
    }
    let Inst::Binary {
        dst: c,
        op: op @ (BinOp::Lt | BinOp::Le),
        a: Operand::Var(cj),
        b: Operand::Const(end),
    } = body.0[first]
    else {
        return None;
    };
    if cj != j || !exits_unless(&body.0[second], c, *id) || reads[c.0 as usize] != 1 {
        return None;
    }
    let Inst::Binary {
        dst: inc,
        op: BinOp::Add,
        a: Operand::Var(ij),
        b: Operand::Const(step),
    } = body.0[last]
    else {
        return None;
    };
    let ty = k.ty(j);
    if inc != j || ij != j || start.ty != ty || end.ty != ty || step.ty != ty {
        return None;
    }
    let rest = &body.0[second + 1..last];
    if writes(rest, j) || kernel_ir::visit::jumps_to(rest, *id) {
        return None;
    }
    let inclusive = op == BinOp::Le;
    let t = trip(
        Operand::Const(start),
        Operand::Const(end),
        Operand::Const(step),
        inclusive,
        false,
    )?;
    let exit = t.value(t.count);
    if int_const(ty, exit).as_i128() != exit {
        return None;
    }
    let iv = k.new_var(ty);
    let mut new_body = vec![Inst::Mov {
        dst: j,
        src: Operand::Var(iv),
    }];
    // Markers before the header keep their place; the header and the increment go.
    new_body.extend(body.0[..first].iter().cloned());
    new_body.extend(rest.iter().cloned());
    let for_loop = Inst::For {
        id: *id,
        iv,
        start: Operand::Const(start),
        end: Operand::Const(end),
        inclusive,
        step: Operand::Const(step),
        reverse: false,
        body: Block(new_body),
        unroll: Unroll::Auto,
    };
    let exit = Inst::Mov {
        dst: j,
        src: Operand::Const(Const {
            ty,
            bits: int_const(ty, exit).bits,
        }),
    };
    Some((for_loop, exit))
}

/// Whether `inst` is `if c {} else { break id }`.
fn exits_unless(inst: &Inst, c: Var, id: LoopId) -> bool {
    matches!(inst, Inst::If { cond: Operand::Var(v), then, els }
        if *v == c && then.0.iter().all(|i| matches!(i, Inst::Loc(_)))
            && matches!(els.0.as_slice(), [Inst::Break(l)] if *l == id))
}

/// Whether any instruction of `insts` (nested included) assigns `v`.
fn writes(insts: &[Inst], v: Var) -> bool {
    let mut w = false;
    for inst in insts {
        kernel_ir::visit::walk_inst(inst, &mut |i| for_each_def(i, |d| w |= d == v));
    }
    w
}
