//! Hot-path compares of a sign-extended `i32` against a slice length, made in 32 bits.
//!
//! Why: the plain port style indexes with `(y * w + x) as usize` on `i32` values, so every
//! bounds check compares `sext(i)` with the slice's 64-bit length: a shift for the high half and
//! two compares per check (and more live predicates). `sext(i) >= len` has the same outcome as
//! `i as u32 >= min(len, 2^31) as u32`: a non-negative `i` is below 2^31, so it reaches `len`
//! exactly when it reaches the clamped length; a negative `i` is 2^31 or more as a `u32`, never
//! below the clamped length, and `sext(i)` is 2^64 - 2^31 or more, never below a slice length
//! (at most `isize::MAX`). The clamped length is computed once, at the kernel's top.
//!
//! Compares inside a panicking branch stay as they are: they are cold, and `cold_remat` made
//! them apart from the hot path's on purpose (ptxas would number equal compares as one value
//! and keep it live from the hot path into the branch).

use super::fx::FxHashMap;
use super::util::{can_panic, def_counts};
use kernel_ir::ir::{BinOp, Block, Const, Inst, Kernel, Operand, ParamKind, Ty, Var};
use kernel_ir::visit::walk;

/// Returns whether a compare was narrowed.
pub fn narrow_compares(k: &mut Kernel) -> bool {
    let defs = def_counts(k);
    let once = |v: Var| defs[v.0 as usize] == 1;
    // Slice lengths nothing reassigns.
    let lens: Vec<Var> = k
        .params
        .iter()
        .filter(|p| matches!(p.kind, ParamKind::Slice { .. }))
        .filter_map(|p| p.pieces.iter().find(|(off, _)| *off == 8).map(|&(_, v)| v))
        .filter(|&v| once(v))
        .collect();
    if lens.is_empty() {
        return false;
    }
    // `dst = sext(x)` for `x: i32`, both written once.
    let mut sext: FxHashMap<Var, Operand> = FxHashMap::default();
    walk(&k.body, &mut |i| {
        if let Inst::Cast {
            dst,
            a: a @ Operand::Var(x),
        } = *i
        {
            if k.ty(dst) == Ty::U64 && k.ty(x) == Ty::I32 && once(dst) && once(x) {
                sext.insert(dst, a);
            }
        }
    });
    if sext.is_empty() {
        return false;
    }
    let mut cx = Cx {
        k,
        lens,
        sext,
        clamped: FxHashMap::default(),
        top: Vec::new(),
    };
    let mut body = std::mem::take(&mut cx.k.body);
    cx.block(&mut body);
    let Cx { k, mut top, .. } = cx;
    let changed = !top.is_empty();
    top.append(&mut body.0);
    body.0 = top;
    k.body = body;
    changed
}

struct Cx<'a> {
    k: &'a mut Kernel,
    lens: Vec<Var>,
    sext: FxHashMap<Var, Operand>,
    /// Per length, `min(len, 2^31) as u32`.
    clamped: FxHashMap<Var, Var>,
    /// The clamps, for the kernel's top.
    top: Vec<Inst>,
}

impl Cx<'_> {
    fn clamp(&mut self, len: Var) -> Var {
        if let Some(&c) = self.clamped.get(&len) {
            return c;
        }
        let m = self.k.new_var(Ty::U64);
        self.top.push(Inst::Binary {
            dst: m,
            op: BinOp::Min,
            a: len.into(),
            b: Operand::Const(Const::u64(1 << 31)),
        });
        let c = self.k.new_var(Ty::U32);
        self.top.push(Inst::Cast {
            dst: c,
            a: m.into(),
        });
        self.clamped.insert(len, c);
        c
    }

    fn block(&mut self, b: &mut Block) {
        let mut out = Vec::with_capacity(b.0.len());
        for mut inst in std::mem::take(&mut b.0) {
            match &mut inst {
                Inst::If { then, els, .. } => {
                    for branch in [then, els] {
                        if !can_panic(branch) {
                            self.block(branch);
                        }
                    }
                }
                Inst::For { body, .. } | Inst::Loop { body, .. } => self.block(body),
                Inst::Binary { dst, op, a, b } => {
                    // `sext(x) >= len`, `sext(x) < len`, and the same with the sides swapped.
                    let (s, len, op32) = match (*op, *a, *b) {
                        (BinOp::Ge | BinOp::Lt, Operand::Var(s), Operand::Var(l)) => (s, l, *op),
                        (BinOp::Le, Operand::Var(l), Operand::Var(s)) => (s, l, BinOp::Ge),
                        (BinOp::Gt, Operand::Var(l), Operand::Var(s)) => (s, l, BinOp::Lt),
                        _ => {
                            out.push(inst);
                            continue;
                        }
                    };
                    let (Some(&x), true) = (self.sext.get(&s), self.lens.contains(&len)) else {
                        out.push(inst);
                        continue;
                    };
                    let dst = *dst;
                    let c = self.clamp(len);
                    let u = self.k.new_var(Ty::U32);
                    out.push(Inst::Cast { dst: u, a: x });
                    out.push(Inst::Binary {
                        dst,
                        op: op32,
                        a: u.into(),
                        b: c.into(),
                    });
                    continue;
                }
                _ => {}
            }
            out.push(inst);
        }
        b.0 = out;
    }
}
