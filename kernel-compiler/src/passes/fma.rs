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

use super::util::{dead_after, def_use_counts};
use kernel_ir::visit::{for_each_use, nested_reads};

use kernel_ir::ir::{BinOp, Block, Const, Inst, Kernel, Operand, SourceLoc, Ty, UnOp, Var};

/// Returns whether anything was contracted.
pub fn fma(k: &mut Kernel) -> bool {
    let (defs, uses) = def_use_counts(k);
    let mut body = std::mem::take(&mut k.body);
    let changed = block(k, &mut body, &uses, &defs, true, false);
    k.body = body;
    changed
}

/// `loop_body`: `b` is a loop's body, where a product's value may also die at the end (see
/// [`dead_at_loop_end`]).
fn block(
    k: &mut Kernel,
    b: &mut Block,
    uses: &[u32],
    defs: &[u32],
    top: bool,
    loop_body: bool,
) -> bool {
    let mut changed = false;
    for inst in &mut b.0 {
        match inst {
            Inst::If { then, els, .. } => {
                changed |= block(k, then, uses, defs, false, false);
                changed |= block(k, els, uses, defs, false, false);
            }
            Inst::For { body, .. } | Inst::Loop { body, .. } => {
                changed |= block(k, body, uses, defs, false, true)
            }
            _ => {}
        }
    }
    changed |= contract_all(k, b, uses, defs, top, loop_body);
    changed
}

fn contract_all(
    k: &mut Kernel,
    b: &mut Block,
    uses: &[u32],
    defs: &[u32],
    top: bool,
    loop_body: bool,
) -> bool {
    let mut changed = false;
    // Reads inside a loop body, counted before its contractions remove any (as `uses` was).
    // A count per variable (a hash map of them was a large part of this pass's time).
    let inside = loop_body.then(|| {
        let mut n = vec![0u32; k.vars.len()];
        kernel_ir::visit::walk(b, &mut |i| {
            for_each_use(i, |o| {
                if let Operand::Var(v) = o {
                    if let Some(c) = n.get_mut(v.0 as usize) {
                        *c += 1;
                    }
                }
            })
        });
        n
    });
    // Contracted multiplies become empty markers (reading and writing nothing, so the scans
    // below see the block as if they were gone) and are dropped in one pass at the end: removing
    // each at once moved the rest of the block every time, quadratic on unrolled bodies.
    let mut gone = Vec::new();
    let mut i = 0;
    while i < b.0.len() {
        if let Some(j) = candidate(k, &b.0, i, uses, defs, top, inside.as_deref()) {
            contract(k, b, i, j);
            gone.push(i);
            changed = true;
        }
        i += 1;
    }
    if !gone.is_empty() {
        let mut n = 0;
        let mut next = gone.iter().peekable();
        b.0.retain(|_| {
            let keep = next.peek() != Some(&&n);
            if !keep {
                next.next();
            }
            n += 1;
            keep
        });
    }
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
    inside: Option<&[u32]>,
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
    let factors = [a, b].map(|o| match o {
        Operand::Var(v) => Some(v),
        Operand::Const(_) => None,
    });
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
            let dead = single
                || dead_after(&insts[j + 1..], m, top)
                || inside.is_some_and(|n| {
                    let here = n.get(m.0 as usize).copied().unwrap_or(0);
                    here != 0 && here == uses[m.0 as usize] && dead_at_loop_end(insts, j, m)
                });
            return (once && dead).then_some(j);
        }
        if writes(inst, m) || factors.iter().flatten().any(|f| writes(inst, *f)) {
            return None;
        }
        if !inst_is_simple(inst) && nested_reads(inst, m) {
            return None;
        }
    }
    None
}

/// Whether the value of `m` after `insts[j]` (the last instruction of a loop body that reads
/// it) is dead, given that nothing outside the loop reads `m`: nothing after it in the body
/// reads it and the next iteration writes `m` before reading it. Unrolling leaves the last copy
/// of a product variable in this position (SGEMM's last `acc += a * b` of each k tile).
fn dead_at_loop_end(insts: &[Inst], j: usize, m: Var) -> bool {
    !insts[j + 1..].iter().any(|i| nested_reads(i, m)) && dead_after(insts, m, false)
}

/// Whether `inst` or anything nested in it writes `v`.
fn writes(inst: &Inst, v: Var) -> bool {
    let mut found = false;
    kernel_ir::visit::for_each_def(inst, |d| found |= d == v);
    // A match rather than `blocks`: nearly every instruction asked about is straight-line,
    // and the iterator cost more than the answer.
    let mut nested = |b: &kernel_ir::ir::Block| {
        kernel_ir::visit::walk(b, &mut |i| {
            kernel_ir::visit::for_each_def(i, |d| found |= d == v)
        })
    };
    match inst {
        Inst::If { then, els, .. } => {
            nested(then);
            nested(els);
        }
        Inst::For { body, .. } | Inst::Loop { body, .. } => nested(body),
        _ => {}
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

fn contract(k: &mut Kernel, b: &mut Block, i: usize, j: usize) {
    let Inst::Binary {
        dst: m, a, b: bb, ..
    } = b.0[i]
    else {
        return;
    };
    let Inst::Binary {
        dst,
        op,
        a: x,
        b: y,
    } = b.0[j]
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
    b.0[j] = fused;
    for (n, inst) in before.into_iter().enumerate() {
        b.0.insert(j + n, inst);
    }
    // Removed by the caller; insertions only ever happen after it, so its index stays valid.
    b.0[i] = Inst::Loc(SourceLoc {
        file: "",
        line: 0,
        col: 0,
    });
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
                kernel_ir::ir::Operand::Const(kernel_ir::ir::Const::bool(true)),
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

    /// Unrolled copies in a loop share one product variable; the last copy's value dies at the
    /// end of the body, as long as nothing after the loop reads it.
    #[test]
    fn last_product_of_a_loop_body_is_contracted() {
        let (mut k, p, a, b, c) = setup();
        let (m, acc, i, n) = (
            k.new_var(Ty::F32),
            k.new_var(Ty::F32),
            k.new_var(Ty::U32),
            k.new_var(Ty::U32),
        );
        let body = vec![
            bin(m, BinOp::Mul, a, b),
            bin(acc, BinOp::Add, acc, m),
            bin(m, BinOp::Mul, a, c),
            bin(acc, BinOp::Add, acc, m),
        ];
        let l = for_(
            &mut k,
            i,
            u32c(0),
            n,
            kernel_ir::ir::Unroll::Never,
            body.clone(),
        );
        k.body.0 = vec![mov(n, u32c(3)), mov(acc, f32c(0.0)), l, store(p, acc)];
        assert!(fma(&mut k));
        assert!(!text(&k).contains("mul"), "{}", text(&k));
        // Read after the loop: the last copy stays.
        let l = for_(&mut k, i, u32c(0), n, kernel_ir::ir::Unroll::Never, body);
        k.body.0 = vec![
            mov(n, u32c(3)),
            mov(acc, f32c(0.0)),
            l,
            store(p, acc),
            store(p, m),
        ];
        fma(&mut k);
        assert_eq!(text(&k).matches("mul").count(), 1, "{}", text(&k));
    }
}
