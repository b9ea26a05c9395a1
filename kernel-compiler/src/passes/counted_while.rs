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
//!
//! Halving and doubling loops (the tree reduction's `while s > 0 { ..; s /= 2 }`, the scan's
//! `while offset < 256 { ..; offset *= 2 }`, the warp shuffle's `offset >>= 1`) have a constant
//! trip count too, the number of halvings or doublings, and nvcc unrolls them just as completely.
//! With `j = OP j, STEP` for OP a shift by a constant, or a multiplication or unsigned division by
//! a constant power of two, and the compare any of `<`, `<=`, `>`, `>=`, `!=` between `j` and a
//! constant, the loop becomes
//!
//! ```text
//! for L i in 0..TRIP { j = shl START, K*i (or shr); B }
//! j = mov EXIT
//! ```
//!
//! where TRIP and EXIT come from running the header and the update on the constants, at most
//! [`MAX_GEOMETRIC_TRIP`] times (a loop that has not stopped by then is left alone), and every
//! value the loop runs with is checked to be START shifted by `K*i`.

use kernel_ir::ir::{BinOp, Block, Const, Inst, Kernel, LoopId, Operand, Ty, Unroll, Var};
use kernel_ir::visit::{for_each_def, for_each_use, walk};

use super::eval::{eval_binary, int_const};
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
        op: cmp @ (BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Ne),
        a: ca,
        b: cb,
    } = body.0[first]
    else {
        return None;
    };
    // The compare's operands: `j` and a constant, either way round.
    let (j_left, bound) = match (ca, cb) {
        (Operand::Var(v), Operand::Const(e)) if v == j => (true, e),
        (Operand::Const(e), Operand::Var(v)) if v == j => (false, e),
        _ => return None,
    };
    if !exits_unless(&body.0[second], c, *id) || reads[c.0 as usize] != 1 {
        return None;
    }
    let Inst::Binary {
        dst: inc,
        op: update,
        a: Operand::Var(ij),
        b: Operand::Const(step),
    } = body.0[last]
    else {
        return None;
    };
    let ty = k.ty(j);
    if inc != j || ij != j || start.ty != ty || bound.ty != ty {
        return None;
    }
    let rest = &body.0[second + 1..last];
    if writes(rest, j) || kernel_ir::visit::jumps_to(rest, *id) {
        return None;
    }
    let header = Header {
        start,
        cmp,
        j_left,
        bound,
        update,
        step,
    };
    let parts = match (cmp, j_left, update) {
        (BinOp::Lt | BinOp::Le, true, BinOp::Add) => additive(k, j, header)?,
        _ => geometric(k, j, header)?,
    };
    let mut new_body = parts.head;
    // Markers before the header keep their place; the header and the update go.
    new_body.extend(body.0[..first].iter().cloned());
    new_body.extend(rest.iter().cloned());
    let for_loop = Inst::For {
        id: *id,
        iv: parts.iv,
        start: parts.start,
        end: parts.end,
        inclusive: parts.inclusive,
        step: parts.step,
        reverse: false,
        body: Block(new_body),
        unroll: Unroll::Auto,
    };
    let exit = Inst::Mov {
        dst: j,
        src: Operand::Const(parts.exit),
    };
    Some((for_loop, exit))
}

/// The constants of a `while` loop's counter: its start, the header's compare (`j CMP BOUND`
/// when `j_left`, else `BOUND CMP j`) and the update `j = UPDATE j, STEP`.
#[derive(Clone, Copy)]
struct Header {
    start: Const,
    cmp: BinOp,
    j_left: bool,
    bound: Const,
    update: BinOp,
    step: Const,
}

/// What replaces a counted `while`: the `for` loop's induction variable, bounds and step, the
/// code that sets `j` from the induction variable at the top of the body, and the value `j`
/// leaves the loop with.
struct ForParts {
    iv: Var,
    head: Vec<Inst>,
    start: Operand,
    end: Operand,
    inclusive: bool,
    step: Operand,
    exit: Const,
}

/// `j = START; while j < END (or <=) { ..; j += STEP }`: `for i in START..END step STEP`.
fn additive(k: &mut Kernel, j: Var, h: Header) -> Option<ForParts> {
    let ty = k.ty(j);
    let (start, end, step) = (h.start, h.bound, h.step);
    if step.ty != ty {
        return None;
    }
    let inclusive = h.cmp == BinOp::Le;
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
    Some(ForParts {
        iv,
        head: vec![Inst::Mov {
            dst: j,
            src: Operand::Var(iv),
        }],
        start: Operand::Const(start),
        end: Operand::Const(end),
        inclusive,
        step: Operand::Const(step),
        exit: Const {
            ty,
            bits: int_const(ty, exit).bits,
        },
    })
}

/// Most iterations of a halving or doubling loop that is rewritten: a 64-bit counter halves at
/// most 64 times.
const MAX_GEOMETRIC_TRIP: u32 = 64;

/// `j = START; while j CMP BOUND { ..; j = j * 2^K }` (or `<< K`, `/ 2^K`, `>> K`): `for i in
/// 0..TRIP { j = START << K*i (or >>); .. }`.
fn geometric(k: &mut Kernel, j: Var, h: Header) -> Option<ForParts> {
    let ty = k.ty(j);
    if !ty.is_int() {
        return None;
    }
    let bits = ty.bits();
    // The shift per iteration, and its direction.
    let (shift, left) = match h.update {
        BinOp::Shl | BinOp::Shr if h.step.ty == Ty::U32 && (h.step.bits as u32) < bits => {
            (h.step.bits as u32, h.update == BinOp::Shl)
        }
        // A power of two above 1; division only when unsigned (a signed one rounds toward
        // zero, a shift toward minus infinity).
        BinOp::Mul | BinOp::Div
            if h.step.ty == ty && (h.update == BinOp::Mul || !ty.is_signed()) =>
        {
            let v = h.step.as_i128();
            if v < 2 || v.count_ones() != 1 {
                return None;
            }
            (v.trailing_zeros(), h.update == BinOp::Mul)
        }
        _ => return None,
    };
    let shift_op = if left { BinOp::Shl } else { BinOp::Shr };
    // Run the counter on the constants: each value the body sees must be START shifted by K*i
    // (checked, so that no rule of wrapping or rounding is assumed here).
    let mut s = h.start;
    let mut trip = 0u32;
    loop {
        let (a, b) = if h.j_left { (s, h.bound) } else { (h.bound, s) };
        if eval_binary(h.cmp, a, b)?.bits == 0 {
            break;
        }
        let amount = shift.checked_mul(trip).filter(|&n| n < bits)?;
        if eval_binary(shift_op, h.start, Const::u32(amount))? != s {
            return None;
        }
        trip += 1;
        if trip > MAX_GEOMETRIC_TRIP {
            return None;
        }
        s = eval_binary(h.update, s, h.step)?;
    }
    let iv = k.new_var(Ty::U32);
    let mut head = Vec::with_capacity(2);
    let amount = if shift == 1 {
        Operand::Var(iv)
    } else {
        let t = k.new_var(Ty::U32);
        head.push(Inst::Binary {
            dst: t,
            op: BinOp::Mul,
            a: Operand::Var(iv),
            b: Operand::Const(Const::u32(shift)),
        });
        Operand::Var(t)
    };
    head.push(Inst::Binary {
        dst: j,
        op: shift_op,
        a: Operand::Const(h.start),
        b: amount,
    });
    Some(ForParts {
        iv,
        head,
        start: Operand::Const(Const::u32(0)),
        end: Operand::Const(Const::u32(trip)),
        inclusive: false,
        step: Operand::Const(Const::u32(1)),
        exit: s,
    })
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
