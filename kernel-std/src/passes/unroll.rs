//! Loop unrolling of counted `for` loops with constant bounds and step.
//!
//! Policy, per the loop's [`Unroll`] hint:
//! - `Full`: unrolled completely when the trip count is at most [`FULL_MAX_TRIP`] and trip count
//!   times body size (instructions, nested included) at most [`FULL_MAX_INSTS`]; otherwise left
//!   as is (not an error).
//! - `Auto`: unrolled completely when the trip count is at most [`AUTO_MAX_TRIP`] and trip count
//!   times body size at most [`AUTO_MAX_INSTS`].
//! - `By(n)`: the body is repeated `n` times inside a loop stepping `n * step`, followed by the
//!   `trip % n` leftover iterations unrolled straight. Copy `j` of the body reads `iv + j*step`
//!   (`iv - j*step` for reversed loops) from a fresh variable. Loops whose body breaks out of or
//!   continues the loop itself are left alone under `By`.
//! - `Never`, or bounds that are not constants: left alone.
//!
//! Full unrolling emits, per iteration, `iv = <constant>` followed by a copy of the body (inner
//! loops get fresh ids); `const_fold` then propagates the constant. The body's variables are
//! reused by every copy, which is fine because the IR is not SSA. A `continue` of the unrolled
//! loop becomes a `break` out of a one-shot `loop` wrapped around that copy, and a `break` a `break`
//! out of a one-shot `loop` around all copies, so early exits keep their meaning.
//!
//! Loops are processed innermost first.

use super::eval::int_const;
use super::util::{inst_count, jumps_to, refresh_loop_ids, walk_mut};
use crate::ir::{BinOp, Block, Const, Inst, Kernel, LoopId, Operand, Ty, Unroll, Var};

pub const FULL_MAX_TRIP: u128 = 4096;
pub const FULL_MAX_INSTS: usize = 1 << 17;
pub const AUTO_MAX_TRIP: u128 = 16;
pub const AUTO_MAX_INSTS: usize = 512;

/// Unrolls every eligible loop once (innermost first). Returns whether anything changed.
pub fn unroll(k: &mut Kernel) -> bool {
    let mut body = std::mem::take(&mut k.body);
    let changed = unroll_block(k, &mut body);
    k.body = body;
    changed
}

fn unroll_block(k: &mut Kernel, b: &mut Block) -> bool {
    let mut changed = false;
    let mut out = Vec::with_capacity(b.0.len());
    for mut inst in std::mem::take(&mut b.0) {
        match &mut inst {
            Inst::If { then, els, .. } => {
                changed |= unroll_block(k, then);
                changed |= unroll_block(k, els);
            }
            Inst::Loop { body, .. } => changed |= unroll_block(k, body),
            Inst::For { body, .. } => {
                changed |= unroll_block(k, body);
                if let Some(seq) = unroll_for(k, &inst) {
                    out.extend(seq);
                    changed = true;
                    continue;
                }
            }
            _ => {}
        }
        out.push(inst);
    }
    b.0 = out;
    changed
}

/// The induction variable's values in iteration order, if bounds and step are constants and
/// there are at most `cap` of them.
pub fn iteration_values(
    start: Operand,
    end: Operand,
    step: Operand,
    inclusive: bool,
    reverse: bool,
    cap: u128,
) -> Option<Vec<i128>> {
    let (Operand::Const(s), Operand::Const(e), Operand::Const(st)) = (start, end, step) else {
        return None;
    };
    let (s, e, st) = (s.as_i128(), e.as_i128(), st.as_i128());
    if st <= 0 {
        return None;
    }
    let hi = if inclusive { e } else { e - 1 };
    if hi < s {
        return Some(vec![]);
    }
    let count = ((hi - s) / st + 1) as u128;
    if count > cap {
        return None;
    }
    Some(
        (0..count as i128)
            .map(|i| if reverse { hi - i * st } else { s + i * st })
            .collect(),
    )
}

fn unroll_for(k: &mut Kernel, inst: &Inst) -> Option<Vec<Inst>> {
    let Inst::For {
        id,
        iv,
        start,
        end,
        inclusive,
        step,
        reverse,
        body,
        unroll,
    } = inst
    else {
        return None;
    };
    let size = inst_count(body).max(1);
    let ty = k.ty(*iv);
    match *unroll {
        Unroll::Never | Unroll::By(0) | Unroll::By(1) => None,
        Unroll::Full | Unroll::Auto => {
            let (max_trip, max_insts) = if *unroll == Unroll::Full {
                (FULL_MAX_TRIP, FULL_MAX_INSTS)
            } else {
                (AUTO_MAX_TRIP, AUTO_MAX_INSTS)
            };
            let vals = iteration_values(*start, *end, *step, *inclusive, *reverse, max_trip)?;
            if vals.len() * size > max_insts {
                return None;
            }
            Some(full(k, *id, *iv, ty, body, &vals))
        }
        Unroll::By(n) => {
            if jumps_to(body, *id) {
                return None;
            }
            let vals =
                iteration_values(*start, *end, *step, *inclusive, *reverse, u32::MAX as u128)?;
            let n = n as usize;
            let q = vals.len() / n;
            if q == 0 {
                return Some(full(k, *id, *iv, ty, body, &vals));
            }
            let Operand::Const(st) = *step else {
                return None;
            };
            let wide = st.as_i128() * n as i128;
            let big_step = int_const(ty, wide);
            if big_step.as_i128() != wide || size * n > FULL_MAX_INSTS {
                return None;
            }
            let (first, last) = (vals[0], vals[q * n - 1]);
            let c = |v: i128| Operand::Const(int_const(ty, v));
            let mut main = Vec::new();
            for j in 0..n {
                let mut copy = body.clone();
                if j > 0 {
                    refresh_loop_ids(k, &mut copy);
                    let ivj = k.new_var(ty);
                    let off = int_const(ty, st.as_i128() * j as i128);
                    main.push(Inst::Binary {
                        dst: ivj,
                        op: if *reverse { BinOp::Sub } else { BinOp::Add },
                        a: Operand::Var(*iv),
                        b: off.into(),
                    });
                    substitute_var(&mut copy, *iv, ivj);
                }
                main.extend(copy.0);
            }
            let mut seq = vec![Inst::For {
                id: *id,
                iv: *iv,
                start: if *reverse { c(last) } else { c(first) },
                end: if *reverse { c(first) } else { c(last) },
                inclusive: true,
                step: big_step.into(),
                reverse: *reverse,
                body: Block(main),
                unroll: Unroll::Never,
            }];
            seq.extend(full(k, *id, *iv, ty, body, &vals[q * n..]));
            Some(seq)
        }
    }
}

/// Replaces every read of `from` in `b` by `to`.
fn substitute_var(b: &mut Block, from: Var, to: Var) {
    walk_mut(b, &mut |i| {
        super::util::for_each_use_mut(i, |o| {
            if *o == Operand::Var(from) {
                *o = Operand::Var(to);
            }
        })
    });
}

/// Rewrites jumps to loop `from` inside `b` into `to` (a `continue` becomes a `break` of `to`
/// when `continue_to` is given, a `break` becomes `break to`).
fn retarget(b: &mut Block, from: LoopId, brk: Option<LoopId>, cont: Option<LoopId>) {
    walk_mut(b, &mut |i| match i {
        Inst::Break(l) if *l == from => {
            if let Some(t) = brk {
                *l = t;
            }
        }
        Inst::Continue(l) if *l == from => {
            if let Some(t) = cont {
                *i = Inst::Break(t);
            }
        }
        _ => {}
    });
}

/// One copy of `body` per value, each preceded by `iv = value`.
fn full(k: &mut Kernel, id: LoopId, iv: Var, ty: Ty, body: &Block, vals: &[i128]) -> Vec<Inst> {
    let mut has_break = false;
    let mut has_continue = false;
    super::util::walk(body, &mut |i| match i {
        Inst::Break(l) if *l == id => has_break = true,
        Inst::Continue(l) if *l == id => has_continue = true,
        _ => {}
    });
    let outer = has_break.then(|| k.new_loop());
    let mut seq = Vec::new();
    for &v in vals {
        let mut copy = body.clone();
        refresh_loop_ids(k, &mut copy);
        let inner = has_continue.then(|| k.new_loop());
        retarget(&mut copy, id, outer, inner);
        let mut one = vec![Inst::Mov {
            dst: iv,
            src: Const {
                ty,
                bits: int_const(ty, v).bits,
            }
            .into(),
        }];
        one.extend(copy.0);
        if let Some(c) = inner {
            one.push(Inst::Break(c));
            one = vec![Inst::Loop {
                id: c,
                body: Block(one),
            }];
        }
        seq.extend(one);
    }
    if let Some(o) = outer {
        seq.push(Inst::Break(o));
        seq = vec![Inst::Loop {
            id: o,
            body: Block(seq),
        }];
    }
    seq
}
