//! Front-end lowering checked by running the lowered IR on the test interpreter.

mod common;

use common::interp::{self, Arg};
use common::*;
use kernel_ir::ast::{BinOp, FloatTy, IntTy, Type};
use kernel_ir::ir::PanicKind;

const I32: IntTy = IntTy::I32;
const I64: IntTy = IntTy::I64;

/// Lowers `fn k(out: &mut [i64]) { stmts }` and returns `out` (n elements, initially zero).
fn run_i64(n: usize, stmts: Vec<kernel_ir::ast::Stmt>) -> Vec<i64> {
    let k = lower_checked(out_kernel(ti(I64), stmts), &[]);
    let o = interp::run(&k, &[interp::i64s(&vec![0; n])], 0);
    assert!(o.panic.is_none(), "unexpected panic {:?}\n{k:#?}", o.panic);
    interp::as_i64(&o.bufs[0])
}

fn as_i64(e: kernel_ir::ast::Expr) -> kernel_ir::ast::Expr {
    cast(e, ti(I64))
}

#[test]
fn integer_arithmetic_wraps_and_shifts_mask() {
    let got = run_i64(
        6,
        vec![
            let_("x", false, ti(I32), int(i32::MAX as i128)),
            put(0, as_i64(add(var("x"), int(1)))),
            let_("y", false, ti(IntTy::U8), int(250)),
            put(1, as_i64(add(var("y"), int(10)))),
            // 1u32 << 33 == 2 (amount masked by 31)
            put(2, as_i64(bin(BinOp::Shl, int_t(1, IntTy::U32), int(33)))),
            // -16i32 >> 2 is arithmetic
            put(3, as_i64(bin(BinOp::Shr, int_t(-16, I32), int(2)))),
            // 0x80u8 >> 9 == 0x40
            put(4, as_i64(bin(BinOp::Shr, int_t(0x80, IntTy::U8), int(9)))),
            put(5, as_i64(mul(int_t(0x4000_0000, I32), int(4)))),
        ],
    );
    assert_eq!(got, vec![i32::MIN as i64, 4, 2, -4, 0x40, 0]);
}

#[test]
fn casts_follow_rust_as() {
    let fc = |v: f32| f32l(v);
    let got = run_i64(
        10,
        vec![
            put(0, as_i64(cast(fc(-1.5), ti(IntTy::U8)))),
            put(1, as_i64(cast(fc(300.7), ti(IntTy::U8)))),
            put(
                2,
                as_i64(cast(
                    ex(kernel_ir::ast::ExprKind::AssocConst {
                        ty: tf(FloatTy::F32),
                        name: "NAN".into(),
                    }),
                    ti(I32),
                )),
            ),
            put(3, as_i64(cast(int_t(-1, I32), ti(IntTy::U32)))),
            put(4, as_i64(cast(int_t(300, I32), ti(IntTy::U8)))),
            put(5, as_i64(cast(int_t(200, IntTy::U8), ti(IntTy::I8)))),
            put(6, as_i64(cast(fc(1e20), ti(I32)))),
            put(7, cast(fc(-1e20), ti(I64))),
            put(8, as_i64(cast(fc(-7.9), ti(I32)))),
            put(9, as_i64(cast(boolean(true), ti(IntTy::U8)))),
        ],
    );
    assert_eq!(
        got,
        vec![
            0,
            255,
            0,
            4294967295,
            44,
            -56,
            i32::MAX as i64,
            i64::MIN,
            -7,
            1
        ]
    );
}

fn div_kernel(op: BinOp) -> kernel_ir::ir::Kernel {
    let def = kernel(
        "div",
        vec![
            param("out", tslice(ti(I32), true)),
            param("a", ti(I32)),
            param("d", ti(I32)),
        ],
        blk(vec![put(0, bin(op, var("a"), var("d")))], None),
    );
    lower_checked(def, &[])
}

#[test]
fn division_checks_zero_and_overflow_first() {
    for op in [BinOp::Div, BinOp::Rem] {
        let k = div_kernel(op);
        let run = |a: i32, d: i32| {
            interp::run(
                &k,
                &[
                    interp::i32s(&[0]),
                    Arg::Bits(a as u32 as u64),
                    Arg::Bits(d as u32 as u64),
                ],
                0,
            )
        };
        let o = run(-7, 2);
        assert!(o.panic.is_none());
        let want = if op == BinOp::Div { -3 } else { -1 };
        assert_eq!(interp::as_i32(&o.bufs[0]), vec![want]);
        // `%` has its own words in Rust: "attempt to calculate the remainder with ...".
        let (zero, overflow) = if op == BinOp::Div {
            (PanicKind::DivByZero, PanicKind::DivOverflow)
        } else {
            (PanicKind::RemByZero, PanicKind::RemOverflow)
        };
        let o = run(5, 0);
        let (site, ..) = o.panic.expect("division by zero must panic");
        assert_eq!(k.panic_sites[site.0 as usize].kind, zero);
        let o = run(i32::MIN, -1);
        let (site, ..) = o.panic.expect("MIN / -1 must panic");
        assert_eq!(k.panic_sites[site.0 as usize].kind, overflow);
        assert_eq!(k.panic_sites[site.0 as usize].file, "tests/frontend.rs");
    }
}

#[test]
fn loops_for_rev_step_inclusive_while_loop_value() {
    // s0 = sum 0..10; s1 = digits of (0..10).rev().step_by(3) = 9,6,3,0 as 9630; s2 = sum 1..=5
    let digits = |iter| {
        vec![
            let_("d", true, ti(I64), int(0)),
            st(for_(
                None,
                "i",
                iter,
                blk(
                    vec![st(assign(
                        var("d"),
                        add(mul(var("d"), int(10)), cast(var("i"), ti(I64))),
                    ))],
                    None,
                ),
            )),
        ]
    };
    let mut stmts = vec![let_("s", true, ti(I64), int(0))];
    stmts.push(st(for_(
        None,
        "i",
        range(int(0), int(10), false),
        blk(vec![st(assign_op(BinOp::Add, var("s"), var("i")))], None),
    )));
    stmts.push(put(0, var("s")));
    stmts.push(st(bexpr(
        {
            let mut v = digits(mcall(
                mcall(range(int(0), int(10), false), "rev", vec![]),
                "step_by",
                vec![int(3)],
            ));
            v.push(put(1, var("d")));
            v
        },
        None,
    )));
    stmts.push(st(bexpr(
        {
            let mut v = digits(range(int(1), int(5), true));
            v.push(put(2, var("d")));
            v
        },
        None,
    )));
    // while with an inferred usize counter
    stmts.push(let_("i", true, Type::Infer, int(0)));
    stmts.push(st(while_(
        lt(var("i"), int(3)),
        blk(vec![st(assign_op(BinOp::Add, var("i"), int(1)))], None),
    )));
    stmts.push(put(3, cast(var("i"), ti(I64))));
    // loop with a break value
    stmts.push(let_("n", true, ti(I64), int(1)));
    stmts.push(let_(
        "v",
        false,
        Type::Infer,
        loop_(
            None,
            blk(
                vec![
                    st(assign_op(BinOp::Mul, var("n"), int(2))),
                    st(if_(
                        bin(BinOp::Gt, var("n"), int(100)),
                        blk(vec![st(brk(None, Some(add(var("n"), int(1)))))], None),
                        None,
                    )),
                ],
                None,
            ),
        ),
    ));
    stmts.push(put(4, var("v")));
    let got = run_i64(5, stmts);
    assert_eq!(got, vec![45, 9630, 12345, 3, 129]);
}

#[test]
fn labelled_break_and_continue() {
    // 'outer: for i in 0..5 { for j in 0..5 { if j > i { continue 'outer } if i == 3 { break 'outer } c += 1 } }
    let inner = for_(
        None,
        "j",
        range(int(0), int(5), false),
        blk(
            vec![
                st(if_(
                    bin(BinOp::Gt, var("j"), var("i")),
                    blk(vec![st(cont(Some("outer")))], None),
                    None,
                )),
                st(if_(
                    eq(var("i"), int(3)),
                    blk(vec![st(brk(Some("outer"), None))], None),
                    None,
                )),
                st(assign_op(BinOp::Add, var("c"), int(1))),
            ],
            None,
        ),
    );
    let outer = for_(
        Some("outer"),
        "i",
        range(int(0), int(5), false),
        blk(vec![st(inner)], None),
    );
    let got = run_i64(
        1,
        vec![
            let_("c", true, ti(I64), int(0)),
            st(outer),
            put(0, var("c")),
        ],
    );
    assert_eq!(got, vec![1 + 2 + 3]);
}

#[test]
fn match_ranges_guards_or_patterns() {
    use kernel_ir::ast::Pat;
    let classify = |x: i128| {
        match_(
            int_t(x, I32),
            vec![
                arm(Pat::Or(vec![plit(1), plit(2)]), None, int(10)),
                arm(
                    prange(3, 9, true),
                    Some(eq(bin(BinOp::Rem, var("x0"), int(2)), int(0))),
                    int(20),
                ),
                arm(prange(3, 10, false), None, int(30)),
                arm(pid("v"), Some(lt(var("v"), int(0))), neg(var("v"))),
                arm(Pat::Wild, None, int(99)),
            ],
        )
    };
    let mut stmts = Vec::new();
    for (i, x) in [1, 2, 4, 5, 9, -3, 50].iter().enumerate() {
        stmts.push(let_("x0", false, ti(I32), int(*x)));
        stmts.push(put(i, as_i64(classify(*x))));
    }
    let got = run_i64(7, stmts);
    assert_eq!(got, vec![10, 10, 20, 30, 30, 3, 99]);
}

#[test]
fn shadowing_tuples_and_local_arrays() {
    let stmts = vec![
        let_("x", false, ti(I64), int(5)),
        let_("x", false, Type::Infer, mul(var("x"), int(2))),
        put(0, var("x")),
        let_pat(
            kernel_ir::ast::Pat::Tuple(vec![pid("a"), pid("b")]),
            tuple(vec![int_t(3, I64), int_t(4, I64)]),
        ),
        let_("t", true, Type::Infer, tuple(vec![var("b"), var("a")])),
        st(assign(
            tuple(vec![field(var("t"), "0"), field(var("t"), "1")]),
            tuple(vec![field(var("t"), "1"), field(var("t"), "0")]),
        )),
        put(
            1,
            add(mul(field(var("t"), "0"), int(10)), field(var("t"), "1")),
        ),
        // let mut arr = [[0i64; 3]; 2]; arr[i][j] = i*3+j; sum with dynamic indices
        let_(
            "arr",
            true,
            Type::Infer,
            repeat(repeat(int_t(0, I64), int(3)), int(2)),
        ),
        st(for_(
            None,
            "i",
            range(int(0), int(2), false),
            blk(
                vec![st(for_(
                    None,
                    "j",
                    range(int(0), int(3), false),
                    blk(
                        vec![st(assign(
                            index(index(var("arr"), var("i")), var("j")),
                            cast(add(mul(var("i"), int(3)), var("j")), ti(I64)),
                        ))],
                        None,
                    ),
                ))],
                None,
            ),
        )),
        let_("copy", true, Type::Infer, var("arr")),
        st(assign(index(index(var("arr"), int(1)), int(2)), int(100))),
        put(2, index(index(var("copy"), int(1)), int(2))),
        put(3, index(index(var("arr"), int(1)), int(2))),
        let_("row", false, Type::Infer, refm(index(var("arr"), int(0)))),
        st(assign(index(deref(var("row")), int(1)), int(-7))),
        put(4, index(index(var("arr"), int(0)), int(1))),
    ];
    let got = run_i64(5, stmts);
    assert_eq!(got, vec![10, 34, 5, 100, -7]);
}

#[test]
fn out_of_bounds_index_panics_with_index_and_len() {
    let def = kernel(
        "oob",
        vec![
            param("out", tslice(ti(I32), true)),
            param("i", ti(IntTy::Usize)),
        ],
        blk(vec![st(assign(index(var("out"), var("i")), int(1)))], None),
    );
    let k = lower_checked(def, &[]);
    let o = interp::run(&k, &[interp::i32s(&[0; 4]), Arg::Bits(5)], 0);
    let (site, a, b) = o.panic.expect("must panic");
    assert_eq!((a, b), (5, 4));
    assert_eq!(k.panic_sites[site.0 as usize].kind, PanicKind::Bounds);
    let o = interp::run(&k, &[interp::i32s(&[0; 4]), Arg::Bits(3)], 0);
    assert!(o.panic.is_none());
    assert_eq!(interp::as_i32(&o.bufs[0]), vec![0, 0, 0, 1]);
}

#[test]
fn scalar_methods() {
    let f = |v: f32| f32l(v);
    let nan = || {
        ex(kernel_ir::ast::ExprKind::AssocConst {
            ty: tf(FloatTy::F32),
            name: "NAN".into(),
        })
    };
    let stmts = vec![
        put(0, as_i64(mcall(nan(), "max", vec![f(2.0)]))),
        put(
            1,
            as_i64(mcall(int_t(1, IntTy::U8), "leading_zeros", vec![])),
        ),
        put(
            2,
            as_i64(mcall(int_t(0, IntTy::U16), "trailing_zeros", vec![])),
        ),
        put(3, as_i64(mcall(int_t(40, I32), "trailing_zeros", vec![]))),
        put(4, as_i64(mcall(int_t(-1, I32), "count_ones", vec![]))),
        put(5, as_i64(mcall(int_t(3, I32), "pow", vec![int(5)]))),
        put(6, as_i64(mcall(f(2.0), "powi", vec![int(-2)]))),
        put(
            7,
            as_i64(mcall(int_t(17, I32), "clamp", vec![int(0), int(10)])),
        ),
        put(8, as_i64(mcall(f(-0.0), "signum", vec![]))),
        put(9, as_i64(mcall(f(1.0), "to_bits", vec![]))),
        put(
            10,
            as_i64(mul(
                assoc_call(tf(FloatTy::F32), "from_bits", vec![int(0x40400000)]),
                f(2.0),
            )),
        ),
        put(11, as_i64(mcall(f(-2.5), "round", vec![]))),
        put(12, as_i64(mcall(f(2.0), "mul_add", vec![f(3.0), f(4.0)]))),
        put(13, as_i64(mcall(f(16.0), "sqrt", vec![]))),
        put(14, as_i64(mcall(nan(), "is_nan", vec![]))),
        put(15, as_i64(mcall(int_t(-5, I32), "abs", vec![]))),
    ];
    let got = run_i64(16, stmts);
    assert_eq!(
        got,
        vec![
            2,
            7,
            16,
            3,
            32,
            243,
            0,
            10,
            -1,
            0x3f80_0000,
            6,
            -3,
            10,
            4,
            1,
            5
        ]
    );
}
