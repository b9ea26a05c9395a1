//! A throughput probe for the interpreter (no timing assertions anywhere: machines differ).

use std::time::Instant;

use super::{launch, GlobalMemory, SimLaunch};
use crate::intrinsics;
use crate::ir::{BinOp, Block, Const, Inst, IntrinsicId, Kernel, KernelAttrs, Ty, Var};

/// Straight-line arithmetic: per thread, a chain of `ops` float and integer operations.
fn arithmetic_kernel(ops: usize) -> Kernel {
    let mut k = Kernel {
        name: "throughput_probe".into(),
        display_name: "sim::throughput_probe".into(),
        params: Vec::new(),
        vars: Vec::new(),
        var_names: Vec::new(),
        arrays: Vec::new(),
        shared: Vec::new(),
        uses_dyn_shared: false,
        panic_sites: Vec::new(),
        body: Block::default(),
        attrs: KernelAttrs::default(),
        next_loop: 0,
    };
    let tid = k.new_var(Ty::U32);
    let f = k.new_var(Ty::F32);
    let i = k.new_var(Ty::U32);
    let id = intrinsics::lookup("tid.x").map_or(IntrinsicId(0), |x| x);
    let mut body = vec![
        Inst::Intrinsic {
            id,
            dsts: vec![tid],
            args: vec![],
        },
        Inst::Cast {
            dst: f,
            a: tid.into(),
        },
        Inst::Mov {
            dst: i,
            src: tid.into(),
        },
    ];
    for n in 0..ops / 2 {
        let (dst, op, a, b): (Var, BinOp, Var, Const) = if n % 2 == 0 {
            (f, BinOp::Mul, f, Const::f32(1.0001))
        } else {
            (i, BinOp::Add, i, Const::u32(0x9e37_79b9))
        };
        body.push(Inst::Binary {
            dst,
            op,
            a: a.into(),
            b: b.into(),
        });
        let (op2, c) = if n % 2 == 0 {
            (BinOp::Add, Const::f32(0.5))
        } else {
            (BinOp::Xor, Const::u32(0x5555))
        };
        body.push(Inst::Binary {
            dst,
            op: op2,
            a: dst.into(),
            b: c.into(),
        });
    }
    k.body = Block(body);
    k
}

/// Interpreted IR operations per second on straight-line arithmetic, on the calling thread.
pub fn throughput_probe() -> f64 {
    let k = arithmetic_kernel(2000);
    let mut mem = GlobalMemory::new();
    let cfg = SimLaunch::linear(32, 256);
    let start = Instant::now();
    let stats = launch(&k, &cfg, &[], &mut mem).expect("the probe kernel is well formed");
    stats.instructions as f64 / start.elapsed().as_secs_f64().max(1e-9)
}
