//! Throughput checks, ignored by default (timings depend on the machine): run with
//! `cargo test --release -p ferrocuda-kernel-std --test sim_bench -- --ignored --nocapture`.

mod sim_common;
use std::time::Instant;

use kernel_std::ir::{BinOp, Inst, PanicKind, Space, Ty};
use kernel_std::sim::{self, SimLaunch};
use sim_common::*;

#[test]
#[ignore]
fn straight_line_arithmetic_throughput() {
    let ops = sim::throughput_probe();
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
