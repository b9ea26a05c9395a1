//! Grid-stride loops run four iterations per trip, with the four iterations' loads issued first.
//!
//! Why: a grid-stride loop (`while i < n { .. a[i] ..; i += stride }`) keeps one load in flight
//! per thread. At full occupancy that is about 8 KiB per SM, while an H100's HBM3 needs about
//! twice that to stay busy (Little's law: ~3.3 TB/s x ~600 ns over 132 SMs). nvcc compiles such
//! loops as written: the reduction and histogram twins' SASS issues one LDG per trip. With the
//! loop hand-unrolled in CUDA C and the loads first (H100, 2^26 words, same run): the warp-shuffle
//! reduction went from 2227 to 2935 GB/s and histogram256 from 2025 to 2125 GB/s; two iterations
//! per trip gave less, eight no more than four (docs/perf-notes.md).
//!
//! Shape: a `loop` whose body is `c = iv < n; if c {} else { break }; B; iv = iv + stride`, with
//! `iv` unsigned, `n` and `stride` not written in the loop, and `B` small, without jumps, nested
//! loops, barriers or warp collectives (a collective's lanes must meet in the same iteration,
//! and a thread's iterations now split between two loops). It becomes
//!
//! ```text
//! s3 = stride * 3, or MAX if that overflows;  lim = n - s3, or 0 if s3 >= n
//! loop { if !(iv < lim) break; iv1 = iv + stride; iv2 = iv1 + stride; iv3 = iv2 + stride;
//!        P0 P1 P2 P3 R0 R1 R2 R3; iv = iv3 + stride }
//! the original loop (the last zero to three iterations)
//! ```
//!
//! where copy `k` is `B` reading `ivk` for `iv`, split into `Pk`, its leading pure values and
//! read-only global loads, and `Rk`, the rest.
//!
//! Exact: `iv < lim` holds exactly when `iv + 3 * stride < n` does, without overflow, so a trip
//! runs the four iterations the original would run next, with the same induction values.
//! Variables that each iteration writes before reading them, and that nobody reads after the
//! loop, get fresh names per copy. `Pk` moves ahead of `R0..Rk-1` only when it reads none of
//! their writes and writes nothing they touch; its loads read a `&[T]`, which no write of the
//! kernel can change (the host API's borrows), and they are in bounds: `bce` ran before and kept
//! no check for them, so they were proven for `iv < n`, which each `ivk` satisfies. Stores,
//! atomics, checks and panics keep their order.

use super::fx::{FxHashMap, FxHashSet};
use super::util::{pure_def, use_counts};
use kernel_ir::ir::{BinOp, Block, Const, Inst, Kernel, LoopId, Operand, Space, Ty, Unroll, Var};
use kernel_ir::props::Props;
use kernel_ir::visit::{
    blocks, for_each_def, for_each_def_mut, for_each_use, for_each_use_mut, walk, walk_mut,
};

/// Iterations per trip of the unrolled loop.
const FACTOR: usize = 4;
/// Largest body (instructions, nested ones included) worth copying four times.
const MAX_BODY: usize = 48;

/// Returns whether a loop was unrolled.
pub fn stride_unroll(k: &mut Kernel) -> bool {
    // Most kernels have no loop small enough: then nothing is counted or rebuilt.
    if !has_small_loop(&k.body) {
        return false;
    }
    let uses = use_counts(k);
    let mut body = std::mem::take(&mut k.body);
    let changed = block(k, &mut body, &uses);
    k.body = body;
    changed
}

fn block(k: &mut Kernel, b: &mut Block, uses: &[u32]) -> bool {
    let mut changed = false;
    let mut out = Vec::with_capacity(b.0.len());
    for mut inst in std::mem::take(&mut b.0) {
        match &mut inst {
            Inst::If { then, els, .. } => {
                changed |= block(k, then, uses);
                changed |= block(k, els, uses);
            }
            Inst::For {
                iv,
                start,
                end,
                inclusive: false,
                step,
                reverse: false,
                body,
                unroll: Unroll::Auto,
                ..
            } => {
                changed |= block(k, body, uses);
                let insts = &body.0[..];
                if let Some(shape) =
                    Shape::check(k, *iv, *end, *step, insts, (0, insts.len()), body, uses)
                        .filter(|s| !four_never_fit(s))
                {
                    // The copies count from `j`; the `for` then starts where they stopped.
                    let j = fresh_like(k, *iv);
                    out.push(Inst::Mov {
                        dst: j,
                        src: *start,
                    });
                    out.extend(unrolled(k, &shape, insts, j));
                    *start = Operand::Var(j);
                    changed = true;
                }
            }
            Inst::For { body, .. } => changed |= block(k, body, uses),
            Inst::Loop { id, body } => {
                changed |= block(k, body, uses);
                if let Some(shape) = Shape::find(k, *id, body, uses).filter(|s| !four_never_fit(s))
                {
                    out.extend(unrolled(k, &shape, &body.0, shape.iv));
                    changed = true;
                }
            }
            _ => {}
        }
        out.push(inst);
    }
    b.0 = out;
    changed
}

/// Whether a constant bound and stride leave no room for one trip of four iterations (a tile
/// loop `while k < 400 { ..; k += 256 }`): the leading loop would be dead code.
fn four_never_fit(s: &Shape) -> bool {
    match (s.n, s.stride) {
        (Operand::Const(n), Operand::Const(st)) => {
            (st.bits as u128) * (FACTOR as u128 - 1) >= n.bits as u128
        }
        _ => false,
    }
}

/// Whether some loop [`block`] looks at could have a body proper of at most [`MAX_BODY`]
/// instructions: its whole body has at most that many besides markers and the 4 of a `while`
/// form's header and increment (the body proper counts every instruction nested in it).
fn has_small_loop(b: &Block) -> bool {
    b.0.iter().any(|inst| match inst {
        Inst::If { then, els, .. } => has_small_loop(then) || has_small_loop(els),
        Inst::For {
            inclusive,
            reverse,
            unroll,
            body,
            ..
        } => {
            (!*inclusive && !*reverse && *unroll == Unroll::Auto && small(body))
                || has_small_loop(body)
        }
        Inst::Loop { body, .. } => small(body) || has_small_loop(body),
        _ => false,
    })
}

/// Whether `b` holds at most `MAX_BODY + 4` instructions other than markers, nested ones
/// included (counting stops there).
fn small(b: &Block) -> bool {
    fn count(b: &Block, n: &mut usize) {
        for inst in &b.0 {
            if *n > MAX_BODY + 4 {
                return;
            }
            *n += !matches!(inst, Inst::Loc(_)) as usize;
            for c in blocks(inst) {
                count(c, n);
            }
        }
    }
    let mut n = 0;
    count(b, &mut n);
    n <= MAX_BODY + 4
}

/// A grid-stride loop: the positions of its header and increment in the body, and its operands.
struct Shape {
    iv: Var,
    n: Operand,
    stride: Operand,
    /// The body proper: from just after the `if` that breaks out to just before the
    /// increment (`while` form), or the whole body (`for` form).
    middle: (usize, usize),
    /// Variables each iteration writes before it reads them and nobody reads after the loop.
    locals: FxHashSet<Var>,
}

impl Shape {
    fn find(k: &Kernel, id: LoopId, body: &Block, uses: &[u32]) -> Option<Shape> {
        let insts = &body.0;
        let real: Vec<usize> = (0..insts.len())
            .filter(|&i| !matches!(insts[i], Inst::Loc(_)))
            .collect();
        let (&first, &second, &last) = (real.first()?, real.get(1)?, real.last()?);
        if real.len() < 4 {
            return None;
        }
        // `c = iv < n` (or `n > iv`), read only by the `if` after it.
        let Inst::Binary { dst: c, op, a, b } = &insts[first] else {
            return None;
        };
        let (iv, n) = match (op, a, b) {
            (BinOp::Lt, Operand::Var(iv), n) | (BinOp::Gt, n, Operand::Var(iv)) => (*iv, *n),
            _ => return None,
        };
        if uses.get(c.0 as usize) != Some(&1) {
            return None;
        }
        let Inst::If { cond, then, els } = &insts[second] else {
            return None;
        };
        let only_break = |b: &Block| {
            let mut it = b.0.iter().filter(|i| !matches!(i, Inst::Loc(_)));
            matches!(it.next(), Some(Inst::Break(l)) if *l == id) && it.next().is_none()
        };
        let empty = |b: &Block| b.0.iter().all(|i| matches!(i, Inst::Loc(_)));
        if *cond != Operand::Var(*c) || !empty(then) || !only_break(els) {
            return None;
        }
        // `iv = iv + stride`.
        let stride = match &insts[last] {
            Inst::Binary {
                dst,
                op: BinOp::Add,
                a,
                b,
            } if *dst == iv => match (a, b) {
                (Operand::Var(v), s) | (s, Operand::Var(v)) if *v == iv => *s,
                _ => return None,
            },
            _ => return None,
        };
        Shape::check(k, iv, n, stride, insts, (second + 1, last), body, uses)
    }

    /// The checks both forms share: an unsigned induction variable, `n` and `stride` of its type
    /// and not written in the loop, and a small body without jumps, nested loops, barriers or
    /// warp collectives. `insts` is the whole loop body, `middle` the body proper within it.
    #[allow(clippy::too_many_arguments)]
    fn check(
        k: &Kernel,
        iv: Var,
        n: Operand,
        stride: Operand,
        insts: &[Inst],
        middle: (usize, usize),
        whole: &Block,
        uses: &[u32],
    ) -> Option<Shape> {
        let ty = k.ty(iv);
        if !matches!(ty, Ty::U32 | Ty::U64)
            || k.operand_ty(n) != ty
            || k.operand_ty(stride) != ty
            || n == Operand::Var(iv)
            || stride == Operand::Var(iv)
        {
            return None;
        }
        let body = &insts[middle.0..middle.1];
        let mut size = 0;
        let mut fits = true;
        let mut written = FxHashSet::default();
        for inst in body {
            let mut visit = |i: &Inst| {
                // Markers are no code: a body's size must not depend on them.
                size += !matches!(i, Inst::Loc(_)) as usize;
                fits &= match i {
                    Inst::Break(_) | Inst::Continue(_) | Inst::Return => false,
                    Inst::For { .. } | Inst::Loop { .. } => false,
                    _ if i.props().contains(Props::SYNC) => false,
                    _ => true,
                };
                for_each_def(i, |v| {
                    written.insert(v);
                });
            };
            visit(inst);
            for c in blocks(inst) {
                walk(c, &mut visit);
            }
        }
        let operand_written = |o: Operand| matches!(o, Operand::Var(v) if written.contains(&v));
        if !fits
            || size == 0
            || size > MAX_BODY
            || written.contains(&iv)
            || operand_written(n)
            || operand_written(stride)
        {
            return None;
        }
        Some(Shape {
            iv,
            n,
            stride,
            middle,
            locals: locals(body, whole, uses),
        })
    }
}

/// The variables of `middle` that each iteration writes (unconditionally, at the top level)
/// before anything in the loop reads them, and that are not read outside the loop.
fn locals(middle: &[Inst], whole: &Block, uses: &[u32]) -> FxHashSet<Var> {
    let mut inside: FxHashMap<Var, u32> = FxHashMap::default();
    walk(whole, &mut |i| {
        for_each_use(i, |o| {
            if let Operand::Var(v) = o {
                *inside.entry(v).or_default() += 1;
            }
        })
    });
    let mut seen = FxHashSet::default();
    let mut local = FxHashSet::default();
    for inst in middle {
        let mark = |i: &Inst, seen: &mut FxHashSet<Var>| {
            for_each_use(i, |o| {
                if let Operand::Var(v) = o {
                    seen.insert(v);
                }
            })
        };
        mark(inst, &mut seen);
        for c in blocks(inst) {
            walk(c, &mut |i| {
                mark(i, &mut seen);
                for_each_def(i, |v| {
                    seen.insert(v);
                });
            });
        }
        for_each_def(inst, |v| {
            if seen.insert(v) && inside.get(&v).copied().unwrap_or(0) == uses[v.0 as usize] {
                local.insert(v);
            }
        });
    }
    local
}

/// The instructions that run the loop's iterations four at a time, to be placed before it.
/// `insts` is the loop's body and `from` the variable holding the first iteration's induction
/// value (the `while` loop's own variable, or the copy of a `for` loop's start).
fn unrolled(k: &mut Kernel, s: &Shape, insts: &[Inst], from: Var) -> Vec<Inst> {
    let ty = k.ty(s.iv);
    let max = if ty == Ty::U64 {
        u64::MAX
    } else {
        u32::MAX as u64
    };
    let c = |v: u64| Operand::Const(Const { ty, bits: v });
    let bin = |dst, op, a, b| Inst::Binary { dst, op, a, b };
    let sel = |dst, cond: Var, a, b| Inst::Select {
        dst,
        cond: cond.into(),
        a,
        b,
    };
    let steps = FACTOR as u64 - 1;
    let mut out = Vec::new();
    // `s3` and `lim` are computed here where the stride (and the bound) are constants, so that
    // no instruction on constants is left for ptxas (nothing folds after this pass).
    let s3: Operand = match s.stride {
        Operand::Const(st) => c(if st.bits > max / steps {
            max
        } else {
            st.bits * steps
        }),
        _ => {
            let (big, s3x, s3) = (k.new_var(Ty::Bool), k.new_var(ty), k.new_var(ty));
            out.extend([
                bin(big, BinOp::Gt, s.stride, c(max / steps)),
                bin(s3x, BinOp::Mul, s.stride, c(steps)),
                sel(s3, big, c(max), s3x.into()),
            ]);
            s3.into()
        }
    };
    let lim: Operand = match (s.n, s3) {
        (Operand::Const(n), Operand::Const(s3)) => c(n.bits.saturating_sub(s3.bits)),
        _ => {
            let (room, n_minus, lim) = (k.new_var(Ty::Bool), k.new_var(ty), k.new_var(ty));
            out.extend([
                bin(room, BinOp::Gt, s.n, s3),
                bin(n_minus, BinOp::Sub, s.n, s3),
                sel(lim, room, n_minus.into(), c(0)),
            ]);
            lim.into()
        }
    };

    let id = k.new_loop();
    let go = k.new_var(Ty::Bool);
    let mut trip = vec![
        bin(go, BinOp::Lt, from.into(), lim),
        Inst::If {
            cond: go.into(),
            then: Block::default(),
            els: Block(vec![Inst::Break(id)]),
        },
    ];
    let middle = &insts[s.middle.0..s.middle.1];
    let mut ivs = vec![from];
    for _ in 1..FACTOR {
        let prev = *ivs.last().unwrap_or(&from);
        let next = fresh_like(k, s.iv);
        trip.push(bin(next, BinOp::Add, prev.into(), s.stride));
        ivs.push(next);
    }
    let copies: Vec<Vec<Inst>> = ivs
        .iter()
        .enumerate()
        .map(|(n, &ivk)| copy(k, middle, s, ivk, n > 0))
        .collect();
    trip.extend(schedule(copies));
    let last = *ivs.last().unwrap_or(&from);
    trip.push(bin(from, BinOp::Add, last.into(), s.stride));
    out.push(Inst::Loop {
        id,
        body: Block(trip),
    });
    out
}

/// `middle` reading `ivk` for the induction variable, its locals renamed when `rename`.
fn copy(k: &mut Kernel, middle: &[Inst], s: &Shape, ivk: Var, rename: bool) -> Vec<Inst> {
    let mut map: FxHashMap<Var, Var> = FxHashMap::default();
    map.insert(s.iv, ivk);
    if rename {
        let mut locals: Vec<Var> = s.locals.iter().copied().collect();
        locals.sort_unstable_by_key(|v| v.0);
        for v in locals {
            let f = fresh_like(k, v);
            map.insert(v, f);
        }
    }
    let mut b = Block(middle.to_vec());
    walk_mut(&mut b, &mut |i| {
        for_each_use_mut(i, |o| {
            if let Operand::Var(v) = o {
                if let Some(n) = map.get(v) {
                    *o = Operand::Var(*n);
                }
            }
        });
        for_each_def_mut(i, |v| {
            if let Some(n) = map.get(v) {
                *v = *n;
            }
        });
    });
    b.0
}

/// Puts every copy's leading pure values and read-only loads ahead of the earlier copies'
/// rests where nothing they read or write conflicts; otherwise the copies run in order.
fn schedule(copies: Vec<Vec<Inst>>) -> Vec<Inst> {
    let mut heads = Vec::new();
    let mut rests: Vec<Vec<Inst>> = Vec::new();
    // What the rests placed so far read and write.
    let (mut rest_reads, mut rest_writes) = (FxHashSet::default(), FxHashSet::default());
    let mut tail: Vec<Inst> = Vec::new();
    for mut c in copies {
        if !tail.is_empty() {
            // An earlier copy could not move its head: the rest stays in order.
            tail.append(&mut c);
            continue;
        }
        let split = c
            .iter()
            .position(|i| !(matches!(i, Inst::Loc(_)) || hoistable(i)))
            .unwrap_or(c.len());
        let mut rest = c.split_off(split);
        // The rest runs after other code now: it starts with the source position in effect.
        if !matches!(rest.first(), None | Some(Inst::Loc(_))) {
            if let Some(loc) = c.iter().rev().find(|i| matches!(i, Inst::Loc(_))) {
                rest.insert(0, loc.clone());
            }
        }
        let (mut reads, mut writes) = (FxHashSet::default(), FxHashSet::default());
        for i in &c {
            for_each_use(i, |o| {
                if let Operand::Var(v) = o {
                    reads.insert(v);
                }
            });
            for_each_def(i, |v| {
                writes.insert(v);
            });
        }
        let conflicts = reads.iter().any(|v| rest_writes.contains(v))
            || writes
                .iter()
                .any(|v| rest_writes.contains(v) || rest_reads.contains(v));
        if conflicts {
            c.extend(rest);
            tail = c;
            continue;
        }
        heads.extend(c);
        let mut r = Block(rest);
        walk(&r, &mut |i| {
            for_each_use(i, |o| {
                if let Operand::Var(v) = o {
                    rest_reads.insert(v);
                }
            });
            for_each_def(i, |v| {
                rest_writes.insert(v);
            });
        });
        rests.push(std::mem::take(&mut r.0));
    }
    heads.extend(rests.into_iter().flatten());
    heads.extend(tail);
    heads
}

/// A pure value, or a load of a `&[T]` (no write of the kernel can change what it reads).
fn hoistable(i: &Inst) -> bool {
    pure_def(i).is_some()
        || matches!(
            i,
            Inst::Load {
                space: Space::Global,
                readonly: true,
                ..
            }
        )
}

fn fresh_like(k: &mut Kernel, v: Var) -> Var {
    let fresh = k.new_var(k.ty(v));
    if !k.var_names.is_empty() {
        let name = k.var_names.get(v.0 as usize).cloned().unwrap_or_default();
        k.var_names.resize(k.vars.len() - 1, String::new());
        k.var_names.push(name);
    }
    fresh
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::passes::testkit::*;

    fn ro_load(dst: Var, addr: Var) -> Inst {
        Inst::Load {
            dst,
            space: Space::Global,
            addr: addr.into(),
            readonly: true,
        }
    }

    /// `while i < n { w = words[i]; acc += w; out[i] = w * 3 (at q + 8 i); i += stride }; *q = acc`.
    fn grid_stride(extra: impl FnOnce(&mut Kernel, Var, Var) -> Vec<Inst>) -> (Kernel, [Var; 5]) {
        let mut k = kernel();
        let p = param(&mut k, "p", Ty::U64);
        let q = param(&mut k, "q", Ty::U64);
        let n = param(&mut k, "n", Ty::U64);
        let i = param(&mut k, "i", Ty::U64);
        let s = param(&mut k, "s", Ty::U64);
        let [off, addr, oaddr] = [0; 3].map(|_| k.new_var(Ty::U64));
        let [w, w3, acc] = [0; 3].map(|_| k.new_var(Ty::U32));
        let id = k.new_loop();
        let c = k.new_var(Ty::Bool);
        let mut body = vec![
            bin(c, BinOp::Lt, i, n),
            if_(c, vec![], vec![Inst::Break(id)]),
            bin(off, BinOp::Shl, i, u32c(2)),
            bin(addr, BinOp::Add, p, off),
            ro_load(w, addr),
            bin(acc, BinOp::Add, acc, w),
            bin(w3, BinOp::Mul, w, u32c(3)),
            bin(oaddr, BinOp::Shl, i, u32c(3)),
            bin(oaddr, BinOp::Add, oaddr, q),
            store(oaddr, w3),
        ];
        body.extend(extra(&mut k, i, acc));
        body.push(bin(i, BinOp::Add, i, s));
        k.body.0 = vec![
            mov(acc, u32c(7)),
            Inst::Loop {
                id,
                body: Block(body),
            },
            store(q, acc),
        ];
        (k, [p, q, n, i, s])
    }

    fn same_on(k: &Kernel, opt: &Kernel, [p, q, n, i, s]: [Var; 5]) {
        let m = u64::MAX;
        let cases: &[(u64, u64, u64)] = &[
            (0, 0, 1),
            (1, 0, 1),
            (13, 0, 1),
            (100, 5, 3),
            (100, 200, 3),
            (17, 2, 4),
            (1000, 7, 128),
            (10, 1, m / 3 + 1),
            (10, 1, m / 2),
            (m - 3, m - 20, 4),
            (m, m - 9, 3),
        ];
        for &(nv, iv, sv) in cases {
            let params = [
                (p, Const::u64(0x1000)),
                (q, Const::u64(0x8000)),
                (n, Const::u64(nv)),
                (i, Const::u64(iv)),
                (s, Const::u64(sv)),
            ];
            let (a, b) = (run(k, &params), run(opt, &params));
            assert!(a.same_effects(&b), "n={nv} i={iv} s={sv}\n{}", text(opt));
        }
    }

    #[test]
    fn four_iterations_per_trip_loads_first() {
        let (k, vars) = grid_stride(|_, _, _| vec![]);
        let mut opt = k.clone();
        assert!(stride_unroll(&mut opt));
        let Inst::Loop { body, .. } = &opt.body.0[7] else {
            panic!("unrolled loop after the limit: {}", text(&opt));
        };
        let first_store = body.0.iter().position(|i| matches!(i, Inst::Store { .. }));
        let loads: Vec<usize> = (0..body.0.len())
            .filter(|&j| matches!(body.0[j], Inst::Load { .. }))
            .collect();
        assert_eq!(loads.len(), 4, "{}", text(&opt));
        assert!(
            loads.iter().all(|&l| Some(l) < first_store),
            "{}",
            text(&opt)
        );
        assert!(
            matches!(opt.body.0[8], Inst::Loop { .. }),
            "the original loop follows"
        );
        same_on(&k, &opt, vars);
    }

    /// Source markers are no code: a body under the size limit unrolls however many markers it
    /// carries (the simulator's IR keeps them, the GPU's has none, and both must get the same).
    #[test]
    fn markers_do_not_count_toward_the_size_limit() {
        let (k, _) = grid_stride(|_, _, _| {
            (0..2 * MAX_BODY as u32)
                .map(|line| {
                    Inst::Loc(kernel_ir::ir::SourceLoc {
                        file: "k.rs",
                        line,
                        col: 1,
                    })
                })
                .collect()
        });
        let mut opt = k.clone();
        assert!(stride_unroll(&mut opt), "{}", text(&opt));
    }

    #[test]
    fn heads_that_read_a_later_write_stay_in_order() {
        // `acc` is read in each iteration's head and written by a plain load after the store:
        // copy k's head cannot move over copy k-1's rest.
        let (k, vars) = grid_stride(|k, i, acc| {
            let x = k.new_var(Ty::U64);
            vec![
                bin(x, BinOp::Xor, i, u64c(5)),
                store(x, u32c(1)),
                load(acc, x),
            ]
        });
        let mut opt = k.clone();
        assert!(stride_unroll(&mut opt));
        let Inst::Loop { body, .. } = &opt.body.0[7] else {
            panic!("unrolled loop after the limit: {}", text(&opt));
        };
        let first_store = body.0.iter().position(|i| matches!(i, Inst::Store { .. }));
        let last_load = body.0.iter().rposition(|i| matches!(i, Inst::Load { .. }));
        assert!(last_load > first_store, "{}", text(&opt));
        same_on(&k, &opt, vars);
    }

    /// `for i in (i0..n).step_by(s) { out[i] = words[i] + 1 }`, and with step 1.
    #[test]
    fn for_loops_unroll_the_same_way() {
        let mut k = kernel();
        let p = param(&mut k, "p", Ty::U64);
        let q = param(&mut k, "q", Ty::U64);
        let n = param(&mut k, "n", Ty::U64);
        let i0 = param(&mut k, "i", Ty::U64);
        let s = param(&mut k, "s", Ty::U64);
        let iv = k.new_var(Ty::U64);
        let [off, addr, oaddr] = [0; 3].map(|_| k.new_var(Ty::U64));
        let [w, w1] = [0; 2].map(|_| k.new_var(Ty::U32));
        let body = vec![
            bin(off, BinOp::Shl, iv, u32c(2)),
            bin(addr, BinOp::Add, p, off),
            ro_load(w, addr),
            bin(w1, BinOp::Add, w, u32c(1)),
            bin(oaddr, BinOp::Add, q, off),
            store(oaddr, w1),
        ];
        let mut l = for_(&mut k, iv, i0, n, Unroll::Auto, body);
        if let Inst::For { step, .. } = &mut l {
            *step = s.into();
        }
        k.body.0 = vec![l];
        let mut opt = k.clone();
        assert!(stride_unroll(&mut opt), "{}", text(&opt));
        assert!(
            matches!(
                opt.body.0.last(),
                Some(Inst::For {
                    start: Operand::Var(_),
                    ..
                })
            ),
            "{}",
            text(&opt)
        );
        same_on(&k, &opt, [p, q, n, i0, s]);
    }

    #[test]
    fn other_loops_stay() {
        // A warp collective: lanes must meet in the same iteration.
        let (mut k, _) = grid_stride(|k, _, _| {
            let v = k.new_var(Ty::U32);
            vec![intr("activemask", vec![v], vec![])]
        });
        assert!(!stride_unroll(&mut k), "{}", text(&k));
        // The induction variable written in the body.
        let (mut k, _) = grid_stride(|_, i, _| vec![bin(i, BinOp::Add, i, u64c(1))]);
        assert!(!stride_unroll(&mut k), "{}", text(&k));
        // A jump out of the body.
        let (mut k, _) = grid_stride(|k, _, _| {
            let id = LoopId(0);
            let c = k.new_var(Ty::Bool);
            vec![
                mov(c, Operand::Const(Const::bool(true))),
                if_(c, vec![Inst::Break(id)], vec![]),
            ]
        });
        assert!(!stride_unroll(&mut k), "{}", text(&k));
    }
}
