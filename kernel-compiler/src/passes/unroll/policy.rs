//! When a loop without a hint (`Unroll::Auto`) is unrolled completely: what nvcc does with the
//! plain loops CUDA programmers write, so that a port runs as fast as its twin without
//! `#[unroll]`.
//!
//! - A loop of a small constant trip count whose unrolled copies stay small: at most
//!   [`AUTO_MAX_TRIP`] iterations and [`AUTO_MAX_INSTS`] instructions in all (a 17-tap
//!   convolution is unrolled as nvcc unrolls it).
//! - A loop whose induction variable indexes a thread-private array, with the much larger
//!   budget [`REGISTER_ARRAY_MAX_INSTS`]: the array can live in registers (`sroa`) only once
//!   every index is a constant, and an array left in local memory costs a stack frame and a
//!   local load or store per access, far more than the copies (SGEMM's 8x8 register tile).
//!
//! The body is measured by [`body_cost`], which leaves out what folding removes from every
//! copy once the induction variable is a constant (copies, source markers, bounds checks against
//! a constant length), so the checks a port carries do not keep its loops rolled.

use kernel_ir::ir::{Block, Inst, Operand, Var};
use kernel_ir::visit::{for_each_def, for_each_use, walk};

use crate::passes::varset::VarSet;

pub const AUTO_MAX_TRIP: u128 = 32;
pub const AUTO_MAX_INSTS: usize = 512;
/// Trip count cap for loops that index a register array (a local array is at most this long
/// in the cases worth keeping in registers).
pub const REGISTER_ARRAY_MAX_TRIP: u128 = 256;
pub const REGISTER_ARRAY_MAX_INSTS: usize = 8192;

/// Largest copy count of a partly unrolled loop's body ([`auto_partial`]).
pub const AUTO_PARTIAL_MAX_INSTS: usize = 256;

/// For an `Auto` loop of a constant trip count too long to unroll completely: how many
/// iterations each trip runs when nvcc would unroll it partly (as its twins' 256-iteration
/// loops over a shared tile are, eight per trip): 8 or 4 where that divides the trip count, so
/// no leftover iterations, and the copies stay small. `None`: left rolled.
pub fn auto_partial(body: &Block, trip: u128) -> Option<u32> {
    if trip <= AUTO_MAX_TRIP || has_loop(body) {
        return None;
    }
    let cost = body_cost(body).max(1);
    [8u32, 4]
        .into_iter()
        .find(|&n| trip.is_multiple_of(n as u128) && cost * n as usize <= AUTO_PARTIAL_MAX_INSTS)
}

fn has_loop(body: &Block) -> bool {
    let mut found = false;
    walk(body, &mut |i| {
        found |= matches!(i, Inst::For { .. } | Inst::Loop { .. })
    });
    found
}

/// Whether an `Auto` loop of `trip` iterations over `body` (induction variable `iv`) is
/// unrolled completely.
pub fn auto_full(body: &Block, iv: Var, trip: u128, nvars: usize) -> bool {
    let total = |max: usize| (trip as usize).saturating_mul(body_cost(body)) <= max;
    if trip <= AUTO_MAX_TRIP && total(AUTO_MAX_INSTS) {
        return true;
    }
    trip <= REGISTER_ARRAY_MAX_TRIP
        && total(REGISTER_ARRAY_MAX_INSTS)
        && indexes_local_array(body, iv, nvars)
}

/// Instructions of `body` (nested included) that stay in each unrolled copy: copies (`mov`),
/// source markers and bounds checks against a constant length are not counted (folding
/// propagates the first, the second are no code, and the third either fold away with a
/// constant index or are proven by `bce`).
pub fn body_cost(body: &Block) -> usize {
    let mut n = 0;
    walk(body, &mut |i| {
        n += !matches!(
            i,
            Inst::Loc(_)
                | Inst::Mov { .. }
                | Inst::BoundsCheck {
                    len: Operand::Const(_),
                    ..
                }
        ) as usize
    });
    n
}

/// Whether a value computed from `iv` (through any chain of instructions in `body`) is the
/// index of a local array access in `body`.
pub fn indexes_local_array(body: &Block, iv: Var, nvars: usize) -> bool {
    let mut from_iv = VarSet::with_capacity(nvars);
    from_iv.insert(iv);
    // The body is not SSA and loops nest: walk again until no new variable is reached (at most
    // one round per variable; in practice two or three).
    loop {
        let mut grew = false;
        walk(body, &mut |i| {
            if matches!(i, Inst::For { .. } | Inst::Loop { .. } | Inst::If { .. }) {
                return;
            }
            let mut reads = false;
            for_each_use(i, |o| {
                reads |= matches!(o, Operand::Var(v) if from_iv.contains(&v))
            });
            if reads {
                for_each_def(i, |d| grew |= from_iv.insert(d));
            }
        });
        if !grew {
            break;
        }
    }
    let mut found = false;
    walk(body, &mut |i| {
        if let Inst::ArrayLoad {
            idx: Operand::Var(v),
            ..
        }
        | Inst::ArrayStore {
            idx: Operand::Var(v),
            ..
        } = i
        {
            found |= from_iv.contains(v);
        }
    });
    found
}
