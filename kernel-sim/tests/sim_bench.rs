//! Throughput checks, ignored by default (timings depend on the machine): run with
//! `cargo test --release -p kernel-sim --test sim_bench -- --ignored --nocapture`.

use std::time::Instant;

use kernel_ir::ir::{BinOp, Block, Const, Inst, Kernel, KernelAttrs, PanicKind, Space, Ty, Var};
use kernel_sim::{self as sim, GlobalMemory, SimLaunch};
use kernel_std::intrinsics;
use kernel_testkit::sim::*;

#[test]
#[ignore]
fn straight_line_arithmetic_throughput() {
    let ops = throughput_probe();
    println!("straight-line arithmetic: {:.1} M IR ops/s", ops / 1e6);
}

#[test]
#[ignore]
fn saxpy_one_million_elements() {
    let mut kb = KB::new("saxpy");
    let a = kb.scalar("a", Ty::F32);
    let (px, lx) = kb.slice("x", Ty::F32, true);
    let (py, ly) = kb.slice("y", Ty::F32, false);
    let i = kb.gid();
    let i64v = kb.cast(i, Ty::U64);
    let inb = kb.bin(BinOp::Lt, i64v, ly);
    let site = kb.site(PanicKind::Bounds, 10);
    kb.if_(
        inb,
        |kb| {
            let xa = kb.elem_addr(px, lx, i, Ty::F32, Some(site));
            let ya = kb.elem_addr(py, ly, i, Ty::F32, None);
            let x = kb.load(Space::Global, Ty::F32, xa);
            let y = kb.load(Space::Global, Ty::F32, ya);
            let r = kb.var(Ty::F32);
            kb.push(Inst::Fma {
                dst: r,
                a: a.into(),
                b: x.into(),
                c: y.into(),
            });
            kb.store(Space::Global, ya, r);
        },
        |_| {},
    );
    let k = kb.finish();
    let n = 1 << 20;
    let x: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let y: Vec<f32> = vec![1.0; n];
    let mut dev = Dev::new();
    let xd = dev.upload(&x);
    let yd = dev.upload(&y);
    let start = Instant::now();
    let stats = dev
        .launch(
            &k,
            SimLaunch::linear((n as u32).div_ceil(256), 256),
            &[2f32.to_le_bytes().to_vec(), sp(xd), sp(yd)],
        )
        .unwrap();
    let dt = start.elapsed();
    println!(
        "saxpy 1M: {dt:?}, {} instructions, {:.1} M/s",
        stats.instructions,
        stats.instructions as f64 / dt.as_secs_f64() / 1e6
    );
    assert_eq!(dev.download::<f32>(yd)[12345], 2.0 * 12345.0 + 1.0);
}

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
    let id = intrinsics::lookup("tid.x").expect("tid.x is in the table");
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
fn throughput_probe() -> f64 {
    let k = arithmetic_kernel(2000);
    let mut mem = GlobalMemory::new();
    let cfg = SimLaunch::linear(32, 256);
    let start = Instant::now();
    let stats = sim::launch(&k, &cfg, &[], &mut mem).expect("the probe kernel is well formed");
    stats.instructions as f64 / start.elapsed().as_secs_f64().max(1e-9)
}
