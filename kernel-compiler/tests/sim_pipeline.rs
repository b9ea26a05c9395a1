//! Kernels built as ASTs (as `#[kernel]` would), lowered by the front end, optimized by the passes,
//! then simulated: the IR the PTX is emitted from, run end to end.

mod common;

use common::*;
use kernel_compiler::{passes, CompileOptions};
use kernel_ir::ast::{Callable, FloatTy, GenericArg, IntTy, Type};
use kernel_ir::ir::PanicKind;
use kernel_sim::{BlockOrder, SimErrorKind, SimLaunch};
use kernel_testkit::sim::Dev;

fn thread_idx() -> Callable {
    Callable::Intrinsic(&kernel_std::api::thread_idx::SPEC)
}
fn block_idx() -> Callable {
    Callable::Intrinsic(&kernel_std::api::block_idx::SPEC)
}
fn block_dim() -> Callable {
    Callable::Intrinsic(&kernel_std::api::block_dim::SPEC)
}
fn sync_threads() -> Callable {
    Callable::Intrinsic(&kernel_std::api::sync_threads::SPEC)
}
fn shared_array() -> Callable {
    Callable::Intrinsic(&kernel_std::api::shared_array::SPEC)
}
fn usize_t() -> Type {
    ti(IntTy::Usize)
}
fn dim(f: fn() -> Callable, name: &'static str, c: &str) -> kernel_ir::ast::Expr {
    field(call(name, f, vec![], vec![]), c)
}

fn optimized(def: &'static kernel_ir::ast::FnDef) -> kernel_ir::ir::Kernel {
    let mut k = kernel_compiler::compile::lower(def, &[]).unwrap_or_else(|e| panic!("{e}"));
    passes::optimize(&mut k, &CompileOptions::default());
    k
}

/// `reverse_block(input: &[i32], output: &mut [i32])` through a 64-element shared array.
fn reverse_block() -> kernel_ir::ir::Kernel {
    let def = kernel(
        "reverse_block",
        vec![
            param("input", tslice(ti(IntTy::I32), false)),
            param("output", tslice(ti(IntTy::I32), true)),
        ],
        blk(
            vec![
                let_(
                    "s",
                    false,
                    Type::Infer,
                    call(
                        "shared_array",
                        shared_array,
                        vec![GenericArg::Type(tarr(ti(IntTy::I32), 64))],
                        vec![],
                    ),
                ),
                let_(
                    "t",
                    false,
                    usize_t(),
                    cast(dim(thread_idx, "thread_idx", "x"), usize_t()),
                ),
                let_(
                    "base",
                    false,
                    usize_t(),
                    mul(cast(dim(block_idx, "block_idx", "x"), usize_t()), int(64)),
                ),
                st(assign(
                    index(var("s"), var("t")),
                    index(var("input"), add(var("base"), var("t"))),
                )),
                st(call("sync_threads", sync_threads, vec![], vec![])),
                st(assign(
                    index(var("output"), add(var("base"), var("t"))),
                    index(var("s"), sub(int(63), var("t"))),
                )),
            ],
            None,
        ),
    );
    optimized(def)
}

#[test]
fn frontend_reverse_block_runs_and_its_bounds_checks_fire() {
    let k = reverse_block();
    let input: Vec<i32> = (0..256).map(|i| i * 7 - 300).collect();
    let mut dev = Dev::new();
    let din = dev.upload(&input);
    let dout = dev.zeroed::<i32>(256);
    let cfg = SimLaunch {
        block_order: BlockOrder::Shuffled(11),
        ..SimLaunch::linear(4, 64)
    };
    let stats = dev
        .launch(
            &k,
            cfg,
            &[kernel_testkit::sim::sp(din), kernel_testkit::sim::sp(dout)],
        )
        .unwrap();
    assert_eq!(stats.barriers, 4);
    let want: Vec<i32> = input
        .chunks(64)
        .flat_map(|c| c.iter().rev().copied().collect::<Vec<_>>())
        .collect();
    assert_eq!(dev.download::<i32>(dout), want);

    // Blocks of 128 threads index the 64-element shared array out of bounds.
    let e = dev
        .launch(
            &k,
            SimLaunch::linear(2, 128),
            &[kernel_testkit::sim::sp(din), kernel_testkit::sim::sp(dout)],
        )
        .unwrap_err();
    assert_eq!(e.kind, SimErrorKind::Panic(PanicKind::Bounds));
    assert_eq!(e.bounds_detail(), Some((64, 64)));
    assert_eq!((e.block, e.thread), ([0, 0, 0], [64, 0, 0]));
    assert_eq!(e.file, "tests/frontend.rs");
    assert!(e.line > 0);
}

/// `saxpy(a: f32, x: &[f32], y: &mut [f32])` with `if i < y.len()`; the fma pass contracts it.
#[test]
fn frontend_saxpy_is_contracted_and_matches_mul_add() {
    let def = kernel(
        "saxpy",
        vec![
            param("a", tf(FloatTy::F32)),
            param("x", tslice(tf(FloatTy::F32), false)),
            param("y", tslice(tf(FloatTy::F32), true)),
        ],
        blk(
            vec![
                let_(
                    "i",
                    false,
                    usize_t(),
                    cast(
                        add(
                            mul(
                                dim(block_idx, "block_idx", "x"),
                                dim(block_dim, "block_dim", "x"),
                            ),
                            dim(thread_idx, "thread_idx", "x"),
                        ),
                        usize_t(),
                    ),
                ),
                st(if_(
                    lt(var("i"), mcall(var("y"), "len", vec![])),
                    blk(
                        vec![st(assign(
                            index(var("y"), var("i")),
                            add(
                                mul(var("a"), index(var("x"), var("i"))),
                                index(var("y"), var("i")),
                            ),
                        ))],
                        None,
                    ),
                    None,
                )),
            ],
            None,
        ),
    );
    let k = optimized(def);
    assert!(
        has_fma(&k.body),
        "the fma pass should contract a * x[i] + y[i]"
    );
    let n = 1000;
    let x: Vec<f32> = (0..n).map(|i| (i as f32).sqrt()).collect();
    let y: Vec<f32> = (0..n).map(|i| 1.0 / (1.0 + i as f32)).collect();
    let mut dev = Dev::new();
    let (xd, yd) = (dev.upload(&x), dev.upload(&y));
    dev.launch(
        &k,
        SimLaunch::linear(8, 128),
        &[
            0.7f32.to_le_bytes().to_vec(),
            kernel_testkit::sim::sp(xd),
            kernel_testkit::sim::sp(yd),
        ],
    )
    .unwrap();
    let want: Vec<f32> = x
        .iter()
        .zip(&y)
        .map(|(x, y)| 0.7f32.mul_add(*x, *y))
        .collect();
    assert_eq!(dev.download::<f32>(yd), want);
}

fn has_fma(b: &kernel_ir::ir::Block) -> bool {
    use kernel_ir::ir::Inst;
    b.0.iter().any(|i| match i {
        Inst::Fma { .. } => true,
        Inst::If { then, els, .. } => has_fma(then) || has_fma(els),
        Inst::For { body, .. } | Inst::Loop { body, .. } => has_fma(body),
        _ => false,
    })
}
