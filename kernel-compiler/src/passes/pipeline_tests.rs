//! Whole-pipeline tests: a register-blocked SGEMM micro-kernel and random structured programs
//! checked against the reference interpreter.

use super::*;
use crate::passes::testkit::*;
use kernel_ir::ir::{BinOp, Const, Inst, LocalArray, Ty, Unroll, Var};

/// A register-blocked SGEMM micro-kernel: `acc: [f32; 64]` (8x8), `for k in 0..8 { for i in
/// 0..8 { a = A[i*8+k]; for j in 0..8 { acc[i*8+j] += a * B[k*8+j] } } }`, then `C = acc`.
fn sgemm_micro(n: u32) -> (kernel_ir::ir::Kernel, Var, Var, Var) {
    let mut k = kernel();
    let pa = param(&mut k, "a", Ty::U64);
    let pb = param(&mut k, "b", Ty::U64);
    let pc = param(&mut k, "c", Ty::U64);
    k.arrays.push(LocalArray {
        elem: Ty::F32,
        len: n * n,
    });
    let new = |k: &mut kernel_ir::ir::Kernel, t| k.new_var(t);
    let (i, j, kk) = (
        new(&mut k, Ty::U32),
        new(&mut k, Ty::U32),
        new(&mut k, Ty::U32),
    );
    let (idx, t32, off, addr) = (
        new(&mut k, Ty::U32),
        new(&mut k, Ty::U32),
        new(&mut k, Ty::U64),
        new(&mut k, Ty::U64),
    );
    let (a, b, acc, m, s) = (
        new(&mut k, Ty::F32),
        new(&mut k, Ty::F32),
        new(&mut k, Ty::F32),
        new(&mut k, Ty::F32),
        new(&mut k, Ty::F32),
    );
    // Address of element `e` (u32) of the f32 array at `base`.
    let addr_of = |base: Var, e: Var| {
        vec![
            cast(off, e),
            bin(off, BinOp::Mul, off, u64c(4)),
            bin(addr, BinOp::Add, base, off),
        ]
    };
    // acc = [0.0; 64]
    let zj = for_(
        &mut k,
        j,
        u32c(0),
        u32c(n),
        Unroll::Full,
        vec![
            bin(idx, BinOp::Mul, i, u32c(n)),
            bin(idx, BinOp::Add, idx, j),
            astore(0, idx, f32c(0.0)),
        ],
    );
    let zi = for_(&mut k, i, u32c(0), u32c(n), Unroll::Full, vec![zj]);
    // Inner product loops.
    let mut jb = vec![
        bin(t32, BinOp::Mul, kk, u32c(n)),
        bin(t32, BinOp::Add, t32, j),
    ];
    jb.extend(addr_of(pb, t32));
    jb.extend([
        load(b, addr),
        bin(idx, BinOp::Mul, i, u32c(n)),
        bin(idx, BinOp::Add, idx, j),
        aload(acc, 0, idx),
        bin(m, BinOp::Mul, a, b),
        bin(s, BinOp::Add, acc, m),
        astore(0, idx, s),
    ]);
    let lj = for_(&mut k, j, u32c(0), u32c(n), Unroll::Full, jb);
    let mut ib = vec![
        bin(t32, BinOp::Mul, i, u32c(n)),
        bin(t32, BinOp::Add, t32, kk),
    ];
    ib.extend(addr_of(pa, t32));
    ib.extend([load(a, addr), lj]);
    let li = for_(&mut k, i, u32c(0), u32c(n), Unroll::Full, ib);
    let lk = for_(&mut k, kk, u32c(0), u32c(n), Unroll::Full, vec![li]);
    // C = acc
    let mut ob = vec![
        bin(idx, BinOp::Mul, i, u32c(n)),
        bin(idx, BinOp::Add, idx, j),
        aload(acc, 0, idx),
    ];
    ob.extend(addr_of(pc, idx));
    ob.push(store(addr, acc));
    let oj = for_(&mut k, j, u32c(0), u32c(n), Unroll::Full, ob);
    let oi = for_(&mut k, i, u32c(0), u32c(n), Unroll::Full, vec![oj]);
    k.body.0 = vec![zi, lk, oi];
    (k, pa, pb, pc)
}

/// Timing of a 16x16 register tile (4096 multiply-adds), the largest blocking we expect.
#[test]
fn big_tile_optimizes_quickly() {
    let (mut k, ..) = sgemm_micro(16);
    let t = std::time::Instant::now();
    optimize(&mut k, &CompileOptions::default());
    let el = t.elapsed();
    assert_eq!(count(&k, |i| matches!(i, Inst::Fma { .. })), 16 * 16 * 16);
    assert!(k.arrays.is_empty());
    println!(
        "16x16x16 tile: {el:?}, {} instructions",
        util::inst_count(&k.body)
    );
}

fn count(k: &kernel_ir::ir::Kernel, f: impl Fn(&Inst) -> bool) -> usize {
    let mut n = 0;
    kernel_ir::visit::walk(&k.body, &mut |i| n += f(i) as usize);
    n
}

#[test]
fn sgemm_accumulators_end_up_in_registers() {
    let (mut k, pa, pb, pc) = sgemm_micro(8);
    let orig = k.clone();
    let opts = CompileOptions {
        fma_contraction: false,
        ..CompileOptions::default()
    };
    optimize(&mut k, &opts);
    assert_eq!(
        count(&k, |i| matches!(
            i,
            Inst::ArrayLoad { .. } | Inst::ArrayStore { .. }
        )),
        0
    );
    assert_eq!(
        count(&k, |i| matches!(i, Inst::For { .. } | Inst::Loop { .. })),
        0
    );
    assert!(k.arrays.is_empty(), "no local memory frame left");
    assert_eq!(
        count(&k, |i| matches!(i, Inst::Load { .. })),
        8 * 8 + 8 * 8 * 8
    );
    assert_eq!(count(&k, |i| matches!(i, Inst::Store { .. })), 64);
    let args = [
        (pa, Const::u64(0)),
        (pb, Const::u64(4096)),
        (pc, Const::u64(8192)),
    ];
    assert_eq!(run(&orig, &args), run(&k, &args));

    let (mut k2, ..) = sgemm_micro(8);
    optimize(&mut k2, &CompileOptions::default());
    assert_eq!(count(&k2, |i| matches!(i, Inst::Fma { .. })), 8 * 8 * 8);
    assert_eq!(
        count(&k2, |i| matches!(i, Inst::Mov { .. })),
        0,
        "temporaries coalesced"
    );
    assert_eq!(
        count(&k2, |i| matches!(i, Inst::Binary { op: BinOp::Mul, .. })),
        0
    );
}

struct Gen {
    seed: u64,
    k: kernel_ir::ir::Kernel,
    pool: Vec<Var>,
    p: Var,
    n: Var,
    loops: Vec<kernel_ir::ir::LoopId>,
}

impl Gen {
    fn rnd(&mut self, m: u64) -> u64 {
        crate::passes::testkit::next_below(&mut self.seed, m)
    }
    fn operand(&mut self) -> kernel_ir::ir::Operand {
        if self.rnd(4) == 0 {
            u32c([0, 1, 2, 3, 7, 8, 31, u32::MAX][self.rnd(8) as usize])
        } else {
            let i = self.rnd(self.pool.len() as u64) as usize;
            self.pool[i].into()
        }
    }
    fn target(&mut self) -> Var {
        // Never the first two pool entries' loop counters: only plain variables are written.
        let i = self.rnd(6) as usize;
        self.pool[i]
    }
    fn block(&mut self, depth: u32) -> Vec<Inst> {
        let mut out = vec![];
        for _ in 0..1 + self.rnd(5) {
            self.stmt(depth, &mut out);
        }
        out
    }
    fn stmt(&mut self, depth: u32, out: &mut Vec<Inst>) {
        let ops = [
            BinOp::Add,
            BinOp::Sub,
            BinOp::Mul,
            BinOp::And,
            BinOp::Or,
            BinOp::Xor,
            BinOp::Min,
            BinOp::Max,
            BinOp::Shr,
        ];
        match self.rnd(if depth < 3 { 10 } else { 6 }) {
            0 | 1 => {
                let op = ops[self.rnd(ops.len() as u64) as usize];
                let (a, b) = (self.operand(), self.operand());
                let b = if op == BinOp::Shr {
                    u32c(self.rnd(32) as u32)
                } else {
                    b
                };
                let d = self.target();
                if self.rnd(4) == 0 {
                    // A round trip through a wider or narrower type.
                    let t = [Ty::U64, Ty::I64, Ty::U8, Ty::I16][self.rnd(4) as usize];
                    let w = self.k.new_var(t);
                    out.push(cast(w, a));
                    out.push(cast(d, w));
                } else {
                    out.push(bin(d, op, a, b));
                }
            }
            2 => {
                let v = self.operand();
                out.push(store(self.p, v));
            }
            3 => {
                let (i, v) = (self.operand(), self.operand());
                let r = self.k.new_var(Ty::U32);
                out.push(bin(r, BinOp::And, i, u32c(7)));
                out.push(astore(0, r, v));
            }
            4 => {
                let d = self.target();
                let i = if self.rnd(2) == 0 {
                    u32c(self.rnd(8) as u32)
                } else {
                    let r = self.k.new_var(Ty::U32);
                    let i = self.operand();
                    out.push(bin(r, BinOp::And, i, u32c(7)));
                    r.into()
                };
                out.push(aload(d, 0, i));
            }
            5 => {
                let i = self.operand();
                let len = if self.rnd(2) == 0 {
                    u32c(40)
                } else {
                    self.operand()
                };
                out.push(check(i, len));
            }
            6 | 7 => {
                let c = self.k.new_var(Ty::Bool);
                let (a, b) = (self.operand(), self.operand());
                let cmp = [
                    BinOp::Lt,
                    BinOp::Le,
                    BinOp::Gt,
                    BinOp::Ge,
                    BinOp::Eq,
                    BinOp::Ne,
                ];
                let op = cmp[self.rnd(cmp.len() as u64) as usize];
                out.push(bin(c, op, a, b));
                let mut then = self.block(depth + 1);
                if !self.loops.is_empty() && self.rnd(2) == 0 {
                    let i = self.rnd(self.loops.len() as u64) as usize;
                    let l = self.loops[i];
                    {
                        then.push(if self.rnd(2) == 0 {
                            Inst::Break(l)
                        } else {
                            Inst::Continue(l)
                        });
                    }
                }
                let els = if self.rnd(2) == 0 {
                    vec![]
                } else {
                    self.block(depth + 1)
                };
                out.push(if_(c, then, els));
            }
            8 if self.rnd(2) == 0 => {
                // `while iv < end { body; iv += step }`: a grid-stride loop's shape.
                let iv = self.k.new_var(Ty::U32);
                let c = self.k.new_var(Ty::Bool);
                let id = self.k.new_loop();
                let start = self.operand();
                let end = if self.rnd(2) == 0 {
                    self.n.into()
                } else {
                    u32c(self.rnd(40) as u32)
                };
                let step = u32c(1 + self.rnd(5) as u32);
                out.push(mov(iv, start));
                // No `continue` of this loop (it would skip the increment and never end).
                self.pool.push(iv);
                let mut body = vec![
                    bin(c, BinOp::Lt, iv, end),
                    if_(c, vec![], vec![Inst::Break(id)]),
                ];
                body.extend(self.block(depth + 1));
                self.pool.pop();
                body.push(bin(iv, BinOp::Add, iv, step));
                out.push(Inst::Loop {
                    id,
                    body: kernel_ir::ir::Block(body),
                });
            }
            _ => {
                let iv = self.k.new_var(Ty::U32);
                let id = self.k.new_loop();
                let unroll = [
                    Unroll::Full,
                    Unroll::Auto,
                    Unroll::By(2),
                    Unroll::By(3),
                    Unroll::Never,
                ][self.rnd(5) as usize];
                let start = u32c(self.rnd(3) as u32);
                let end = if self.rnd(3) == 0 {
                    self.n.into()
                } else {
                    u32c(self.rnd(9) as u32)
                };
                self.loops.push(id);
                self.pool.push(iv);
                let body = self.block(depth + 1);
                self.pool.pop();
                self.loops.pop();
                out.push(Inst::For {
                    id,
                    iv,
                    start,
                    end,
                    inclusive: self.rnd(4) == 0,
                    step: u32c(1 + self.rnd(3) as u32),
                    reverse: self.rnd(3) == 0,
                    body: kernel_ir::ir::Block(body),
                    unroll,
                });
            }
        }
    }
}

/// Random structured programs (branches, counted loops of every unroll kind with break and
/// continue, `while` loops stepping an induction variable, local arrays, bounds checks): the optimized kernel must store the same values in
/// the same order and panic the same way as the original.
#[test]
fn random_programs_survive_the_pipeline() {
    for round in 0..1000u64 {
        let mut k = kernel();
        let p = param(&mut k, "p", Ty::U64);
        let x = param(&mut k, "x", Ty::U32);
        let n = param(&mut k, "n", Ty::U32);
        k.arrays.push(LocalArray {
            elem: Ty::U32,
            len: 8,
        });
        let pool: Vec<Var> = (0..6).map(|_| k.new_var(Ty::U32)).collect();
        let mut init: Vec<Inst> = pool
            .iter()
            .enumerate()
            .map(|(i, v)| {
                if i % 2 == 0 {
                    mov(*v, x)
                } else {
                    mov(*v, u32c(i as u32 * 3))
                }
            })
            .collect();
        for e in 0..8 {
            init.push(astore(0, u32c(e), u32c(e * 10)));
        }
        let mut g = Gen {
            seed: 0x9e37_79b9_7f4a_7c15 ^ (round * 0x1000_0001),
            k,
            pool,
            p,
            n,
            loops: vec![],
        };
        let mut body = init;
        body.extend(g.block(0));
        for v in g.pool.clone() {
            body.push(store(p, v));
        }
        let mut k = g.k;
        k.body.0 = body;
        let orig = k.clone();
        let opts = CompileOptions {
            fma_contraction: false,
            ..CompileOptions::default()
        };
        optimize(&mut k, &opts);
        for (xv, nv) in [(0u32, 0u32), (1, 3), (37, 5), (u32::MAX, 9)] {
            let args = [
                (p, Const::u64(64)),
                (x, Const::u32(xv)),
                (n, Const::u32(nv)),
            ];
            let (a, b) = (run(&orig, &args), run(&k, &args));
            assert!(
                a.same_effects(&b),
                "{a:?}\n{b:?}\nround {round} x={xv} n={nv}\n--- original ---\n{}\n--- optimized ---\n{}",
                text(&orig),
                text(&k)
            );
        }
    }
}
