//! Floating-point contraction, as nvcc does by default (`--fmad=true`): a `f32`/`f64` multiply
//! whose result feeds exactly one add or subtract later in the same block becomes one fused
//! multiply-add with a single rounding:
//! `a*b + c` and `c + a*b` -> `fma(a, b, c)`, `a*b - c` -> `fma(a, b, -c)`,
//! `c - a*b` -> `fma(-a, b, c)`.
//!
//! This changes results (one rounding instead of two), deliberately, matching what CUDA C code
//! compiled with nvcc computes; it only runs when `CompileOptions::fma_contraction` is on. The
//! product must be written once and read once in the whole kernel, and neither factor may be
//! written between the multiply and the add, so the fused instruction reads the same values.
//! Negation is exact, so the sign rewrites above are exact too.

use std::collections::VecDeque;

use super::util::{dead_after, def_counts, for_each_use, nested_reads, use_counts};
use crate::ir::{BinOp, Block, Const, Inst, Kernel, Operand, Ty, UnOp, Var};

/// Returns whether anything was contracted.
pub fn fma(k: &mut Kernel) -> bool {
    let uses = use_counts(k);
    let defs = def_counts(k);
    let mut body = std::mem::take(&mut k.body);
    let changed = block(k, &mut body, &uses, &defs, true);
    k.body = body;
    changed
}

fn block(k: &mut Kernel, b: &mut Block, uses: &[u32], defs: &[u32], top: bool) -> bool {
    let mut changed = false;
    for inst in &mut b.0 {
        match inst {
            Inst::If { then, els, .. } => {
                changed |= block(k, then, uses, defs, false);
                changed |= block(k, els, uses, defs, false);
            }
            Inst::For { body, .. } | Inst::Loop { body, .. } => {
                changed |= block(k, body, uses, defs, false)
            }
            _ => {}
        }
    }
    // The front of `rest` is the current position: a contracted multiply leaves from the front
    // (removing it from a vector would move the whole tail each time).
    let mut rest: VecDeque<Inst> = std::mem::take(&mut b.0).into();
    let mut out = Vec::with_capacity(rest.len());
    while !rest.is_empty() {
        if let Some(j) = candidate(k, rest.make_contiguous(), 0, uses, defs, top) {
            contract(k, &mut rest, j);
            changed = true;
            continue;
        }
        out.extend(rest.pop_front());
    }
    b.0 = out;
    changed
}

fn is_contractible(t: Ty) -> bool {
    matches!(t, Ty::F32 | Ty::F64)
}

/// The position of the add/sub that consumes the multiply at `i`, if contraction is legal.
fn candidate(
    k: &Kernel,
    insts: &[Inst],
    i: usize,
    uses: &[u32],
    defs: &[u32],
    top: bool,
) -> Option<usize> {
    let Inst::Binary {
        dst: m,
        op: BinOp::Mul,
        a,
        b,
    } = insts[i]
    else {
        return None;
    };
    if !is_contractible(k.ty(m)) {
        return None;
    }
    let single = uses[m.0 as usize] == 1 && defs[m.0 as usize] == 1;
    if a == Operand::Var(m) || b == Operand::Var(m) {
        return None;
    }
    let factors: Vec<Var> = [a, b]
        .iter()
        .filter_map(|o| match o {
            Operand::Var(v) => Some(*v),
            Operand::Const(_) => None,
        })
        .collect();
    for (j, inst) in insts.iter().enumerate().skip(i + 1) {
        let mut reads_m = false;
        for_each_use(inst, |o| reads_m |= o == Operand::Var(m));
        if reads_m {
            let Inst::Binary {
                op: BinOp::Add | BinOp::Sub,
                a: x,
                b: y,
                ..
            } = inst
            else {
                return None;
            };
            let once = (*x == Operand::Var(m)) != (*y == Operand::Var(m));
            return (once && (single || dead_after(&insts[j + 1..], m, top))).then_some(j);
        }
        if writes(inst, m) || factors.iter().any(|f| writes(inst, *f)) {
            return None;
        }
        if !inst_is_simple(inst) && nested_reads(inst, m) {
            return None;
        }
    }
    None
}

/// Whether `inst` or anything nested in it writes `v`.
fn writes(inst: &Inst, v: Var) -> bool {
    let mut found = false;
    super::util::for_each_def(inst, |d| found |= d == v);
    for c in super::util::child_blocks(inst) {
        super::util::walk(c, &mut |i| {
            super::util::for_each_def(i, |d| found |= d == v)
        });
    }
    found
}

fn inst_is_simple(inst: &Inst) -> bool {
    !matches!(inst, Inst::If { .. } | Inst::For { .. } | Inst::Loop { .. })
}

fn negate(k: &mut Kernel, o: Operand, before: &mut Vec<Inst>) -> Operand {
    match o {
        Operand::Const(c) => {
            let sign = 1u64 << (c.ty.bits() - 1);
            Operand::Const(Const {
                ty: c.ty,
                bits: c.bits ^ sign,
            })
        }
        Operand::Var(v) => {
            let n = k.new_var(k.ty(v));
            before.push(Inst::Unary {
                dst: n,
                op: UnOp::Neg,
                a: o,
            });
            Operand::Var(n)
        }
    }
}

/// Fuses the multiply at the front of `b` into its consumer at `j` and drops the multiply.
fn contract(k: &mut Kernel, b: &mut VecDeque<Inst>, j: usize) {
    let Inst::Binary {
        dst: m, a, b: bb, ..
    } = b[0]
    else {
        return;
    };
    let Inst::Binary {
        dst,
        op,
        a: x,
        b: y,
    } = b[j]
    else {
        return;
    };
    let mv = Operand::Var(m);
    let mut before = Vec::new();
    let fused = match op {
        BinOp::Add => {
            let c = if x == mv { y } else { x };
            Inst::Fma { dst, a, b: bb, c }
        }
        BinOp::Sub if x == mv => {
            let c = negate(k, y, &mut before);
            Inst::Fma { dst, a, b: bb, c }
        }
        _ => {
            let na = negate(k, a, &mut before);
            Inst::Fma {
                dst,
                a: na,
                b: bb,
                c: x,
            }
        }
    };
    b[j] = fused;
    for (n, inst) in before.into_iter().enumerate() {
        b.insert(j + n, inst);
    }
    b.pop_front();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::passes::testkit::*;

    fn setup() -> (Kernel, Var, Var, Var, Var) {
        let mut k = kernel();
        let p = param(&mut k, "p", Ty::U64);
        let a = param(&mut k, "a", Ty::F32);
        let b = param(&mut k, "b", Ty::F32);
        let c = param(&mut k, "c", Ty::F32);
        (k, p, a, b, c)
    }

    #[test]
    fn contracts_add_and_both_subtractions() {
        let (mut k, p, a, b, c) = setup();
        let v: Vec<Var> = (0..6).map(|_| k.new_var(Ty::F32)).collect();
        k.body.0 = vec![
            bin(v[0], BinOp::Mul, a, b),
            bin(v[1], BinOp::Add, c, v[0]),
            store(p, v[1]),
            bin(v[2], BinOp::Mul, a, b),
            bin(v[3], BinOp::Sub, v[2], c),
            store(p, v[3]),
            bin(v[4], BinOp::Mul, a, f32c(2.0)),
            bin(v[5], BinOp::Sub, c, v[4]),
            store(p, v[5]),
        ];
        assert!(fma(&mut k));
        assert_body(
            &k,
            "
            v5 = fma.f32 v1, v2, v3
            store.global.f32 [v0], v5
            v10 = neg.f32 v3
            v7 = fma.f32 v1, v2, v10
            store.global.f32 [v0], v7
            v11 = neg.f32 v1
            v9 = fma.f32 v11, 2.0f32, v3
            store.global.f32 [v0], v9
            ",
        );
    }

    #[test]
    fn leaves_shared_products_and_clobbered_factors() {
        let (mut k, p, a, b, c) = setup();
        let v: Vec<Var> = (0..5).map(|_| k.new_var(Ty::F32)).collect();
        let x = k.new_var(Ty::U32);
        let (y, z) = (k.new_var(Ty::U32), k.new_var(Ty::U32));
        k.body.0 = vec![
            // Product read twice.
            bin(v[0], BinOp::Mul, a, b),
            bin(v[1], BinOp::Add, v[0], c),
            store(p, v[0]),
            store(p, v[1]),
            // A factor is written between multiply and add.
            bin(v[2], BinOp::Mul, a, b),
            mov(a, c),
            bin(v[3], BinOp::Add, v[2], c),
            store(p, v[3]),
            // The add sits in another block.
            bin(v[4], BinOp::Mul, a, b),
            if_(
                crate::ir::Operand::Const(crate::ir::Const::bool(true)),
                vec![bin(v[4], BinOp::Add, v[4], c)],
                vec![],
            ),
            store(p, v[4]),
            // Integers are not contracted.
            bin(y, BinOp::Mul, x, x),
            bin(z, BinOp::Add, y, x),
            store(p, z),
        ];
        let before = text(&k);
        assert!(!fma(&mut k));
        assert_eq!(text(&k), before);
    }

    #[test]
    fn reused_product_variable_in_straight_line_code() {
        let (mut k, p, a, b, c) = setup();
        let (m, s) = (k.new_var(Ty::F32), k.new_var(Ty::F32));
        k.body.0 = vec![
            bin(m, BinOp::Mul, a, b),
            bin(s, BinOp::Add, m, c),
            store(p, s),
            bin(m, BinOp::Mul, a, c),
            bin(s, BinOp::Add, m, c),
            store(p, s),
            store(p, m),
        ];
        fma(&mut k);
        assert_body(
            &k,
            "
            v5 = fma.f32 v1, v2, v3
            store.global.f32 [v0], v5
            v4 = mul.f32 v1, v3
            v5 = add.f32 v4, v3
            store.global.f32 [v0], v5
            store.global.f32 [v0], v4
            ",
        );
    }
}
