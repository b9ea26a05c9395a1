//! Structs, generic device functions, shared memory, slices, parameters and errors.

mod common;

use std::sync::OnceLock;

use common::interp::{self, Arg};
use common::*;
use kernel_compiler::frontend::lower_kernel;
use kernel_ir::ast::{
    self, BinOp, Callable, ExprKind, FloatTy, FnDef, FnKind, Generic, GenericArg, IntTy, StructDef,
    StructRef, Type,
};
use kernel_ir::ir::{self, ParamKind};
use kernel_ir::GenericValue;

const I32: IntTy = IntTy::I32;
const I64: IntTy = IntTy::I64;

fn lower(def: &'static FnDef) -> ir::Kernel {
    lower_checked(def, &[])
}

fn pair_def() -> &'static StructDef {
    static D: OnceLock<StructDef> = OnceLock::new();
    D.get_or_init(|| StructDef {
        name: "Pair",
        size: 8,
        align: 4,
        fields: vec![
            ("a".into(), Type::Int(I32)),
            ("b".into(), Type::Float(FloatTy::F32)),
        ],
    })
}
fn pair() -> Type {
    Type::Struct(StructRef {
        name: "Pair",
        def: pair_def,
    })
}
fn pair_bytes(a: i32, b: f32) -> Vec<u8> {
    a.to_le_bytes().into_iter().chain(b.to_le_bytes()).collect()
}

#[test]
fn structs_by_value_in_registers_and_in_slices() {
    let def = kernel(
        "structs",
        vec![
            param("out", tslice(ti(I64), true)),
            param("p", pair()),
            param("ps", tslice(pair(), true)),
        ],
        blk(
            vec![
                put(0, cast(field(var("p"), "a"), ti(I64))),
                put(1, cast(field(index(var("ps"), int(1)), "b"), ti(I64))),
                let_(
                    "q",
                    true,
                    Type::Infer,
                    ex(ExprKind::StructLit {
                        ty: StructRef {
                            name: "Pair",
                            def: pair_def,
                        },
                        fields: vec![
                            ("b".into(), f32l(2.5)),
                            ("a".into(), add(field(var("p"), "a"), int(1))),
                        ],
                    }),
                ),
                st(assign_op(BinOp::Mul, field(var("q"), "a"), int(3))),
                put(2, cast(field(var("q"), "a"), ti(I64))),
                let_("e", false, Type::Infer, index(var("ps"), int(0))),
                put(3, cast(field(var("e"), "a"), ti(I64))),
                st(assign(index(var("ps"), int(0)), var("q"))),
            ],
            None,
        ),
    );
    let k = lower(def);
    assert_eq!(k.params[1].kind, ParamKind::Struct);
    assert_eq!((k.params[1].size, k.params[1].align), (8, 4));
    assert_eq!(
        k.params[1].pieces.iter().map(|p| p.0).collect::<Vec<_>>(),
        vec![0, 4]
    );
    let ps: Vec<u8> = pair_bytes(7, 1.0)
        .into_iter()
        .chain(pair_bytes(8, 9.75))
        .collect();
    let o = interp::run(
        &k,
        &[
            interp::i64s(&[0; 4]),
            Arg::Bytes(pair_bytes(41, 0.5)),
            Arg::Buf(ps),
        ],
        0,
    );
    assert!(o.panic.is_none());
    assert_eq!(interp::as_i64(&o.bufs[0]), vec![41, 9, 126, 7]);
    assert_eq!(&o.bufs[1][..8], &pair_bytes(126, 2.5)[..]);
}

#[test]
fn struct_layout_mismatch_is_an_error() {
    fn bad() -> &'static StructDef {
        static D: OnceLock<StructDef> = OnceLock::new();
        D.get_or_init(|| StructDef {
            name: "Bad",
            size: 16,
            align: 4,
            fields: vec![
                ("a".into(), Type::Int(IntTy::U8)),
                ("b".into(), Type::Int(I32)),
            ],
        })
    }
    let def = kernel(
        "bad",
        vec![param(
            "x",
            Type::Struct(StructRef {
                name: "Bad",
                def: bad,
            }),
        )],
        blk(vec![], None),
    );
    let e = lower_kernel(def, &[]).unwrap_err();
    assert!(e.message.contains("repr(C)"), "{}", e.message);
}

// ---- device functions ----

fn add_fn() -> Callable {
    static D: OnceLock<FnDef> = OnceLock::new();
    Callable::Device(D.get_or_init(|| {
        fndef(
            "add",
            FnKind::Device,
            vec![Generic::Type {
                name: "T".into(),
                bounds: vec![],
            }],
            vec![
                param("a", Type::Param("T".into())),
                param("b", Type::Param("T".into())),
            ],
            Type::Param("T".into()),
            blk(vec![], Some(add(var("a"), var("b")))),
        )
    }))
}

fn sum_fn() -> Callable {
    static D: OnceLock<FnDef> = OnceLock::new();
    Callable::Device(D.get_or_init(|| {
        let n = || ex(ExprKind::Local("N".into()));
        fndef(
            "sum",
            FnKind::Device,
            vec![Generic::Const {
                name: "N".into(),
                ty: Type::Int(IntTy::Usize),
            }],
            vec![param("a", Type::Array(Box::new(ti(I64)), Box::new(n())))],
            ti(I64),
            blk(
                vec![
                    let_("s", true, Type::Infer, int(0)),
                    st(for_(
                        None,
                        "i",
                        range(int(0), n(), false),
                        blk(
                            vec![st(assign_op(
                                BinOp::Add,
                                var("s"),
                                index(var("a"), var("i")),
                            ))],
                            None,
                        ),
                    )),
                ],
                Some(var("s")),
            ),
        )
    }))
}

/// `fn first_neg(a: &[i64]) -> i64 { for i in 0..a.len() { if a[i] < 0 { return i as i64; } } -1 }`
fn first_neg_fn() -> Callable {
    static D: OnceLock<FnDef> = OnceLock::new();
    Callable::Device(D.get_or_init(|| {
        fndef(
            "first_neg",
            FnKind::Device,
            vec![],
            vec![param("a", tslice(ti(I64), false))],
            ti(I64),
            blk(
                vec![st(for_(
                    None,
                    "i",
                    range(int(0), mcall(var("a"), "len", vec![]), false),
                    blk(
                        vec![st(if_(
                            lt(index(var("a"), var("i")), int(0)),
                            blk(vec![st(ret(Some(cast(var("i"), ti(I64)))))], None),
                            None,
                        ))],
                        None,
                    ),
                ))],
                Some(int(-1)),
            ),
        )
    }))
}

fn zero_fn() -> Callable {
    static D: OnceLock<FnDef> = OnceLock::new();
    Callable::Device(D.get_or_init(|| {
        fndef(
            "zero",
            FnKind::Device,
            vec![Generic::Type {
                name: "T".into(),
                bounds: vec!["Float".into()],
            }],
            vec![],
            Type::Param("T".into()),
            blk(
                vec![],
                Some(ex(ExprKind::AssocConst {
                    ty: Type::Param("T".into()),
                    name: "ONE".into(),
                })),
            ),
        )
    }))
}

fn rec_fn() -> Callable {
    static D: OnceLock<FnDef> = OnceLock::new();
    Callable::Device(D.get_or_init(|| {
        fndef(
            "rec",
            FnKind::Device,
            vec![],
            vec![param("x", ti(I32))],
            ti(I32),
            blk(vec![], Some(call("rec", rec_fn, vec![], vec![var("x")]))),
        )
    }))
}

#[test]
fn generic_and_const_generic_device_functions_are_inlined() {
    let def = kernel(
        "gen",
        vec![
            param("out", tslice(ti(I64), true)),
            param("inp", tslice(ti(I64), false)),
        ],
        blk(
            vec![
                put(0, call("add", add_fn, vec![], vec![int_t(40, I64), int(2)])),
                put(
                    1,
                    cast(
                        call("add", add_fn, vec![], vec![f32l(1.5), float(2.0)]),
                        ti(I64),
                    ),
                ),
                put(
                    2,
                    call(
                        "sum",
                        sum_fn,
                        vec![],
                        vec![array(vec![int(1), int(2), int(3), int(4)])],
                    ),
                ),
                put(3, call("first_neg", first_neg_fn, vec![], vec![var("inp")])),
                put(
                    4,
                    cast(
                        call(
                            "zero",
                            zero_fn,
                            vec![GenericArg::Type(tf(FloatTy::F64))],
                            vec![],
                        ),
                        ti(I64),
                    ),
                ),
            ],
            None,
        ),
    );
    let k = lower(def);
    let o = interp::run(
        &k,
        &[interp::i64s(&[0; 5]), interp::i64s(&[3, 4, -1, 6])],
        0,
    );
    assert!(o.panic.is_none());
    assert_eq!(interp::as_i64(&o.bufs[0]), vec![42, 3, 10, 2, 1]);
    let loops = k
        .body
        .0
        .iter()
        .filter(|i| matches!(i, ir::Inst::Loop { .. }))
        .count();
    assert!(loops >= 5, "each inlined call is wrapped in a Loop: {k:#?}");
}

#[test]
fn recursion_is_a_compile_error() {
    let def = kernel(
        "r",
        vec![],
        blk(vec![st(call("rec", rec_fn, vec![], vec![int(1)]))], None),
    );
    let e = lower_kernel(def, &[]).unwrap_err();
    assert!(e.message.contains("recursive"), "{}", e.message);
    assert_eq!(e.kernel, "tests::r");
}

// ---- shared memory, slices ----

fn shared_array_fn() -> Callable {
    Callable::Intrinsic(&kernel_std::api::shared_array::SPEC)
}
fn dynamic_shared_fn() -> Callable {
    Callable::Intrinsic(&kernel_std::api::dynamic_shared::SPEC)
}

fn smem_kernel() -> &'static FnDef {
    kernel(
        "smem",
        vec![param("out", tslice(ti(I64), true))],
        blk(
            vec![
                let_(
                    "s",
                    false,
                    Type::Infer,
                    call(
                        "shared_array",
                        shared_array_fn,
                        vec![GenericArg::Type(tarr(tarr(ti(I64), 4), 2))],
                        vec![],
                    ),
                ),
                st(assign(index(index(var("s"), int(1)), int(3)), int(5))),
                put(0, index(index(var("s"), int(1)), int(3))),
                let_(
                    "d",
                    false,
                    Type::Infer,
                    call(
                        "dynamic_shared",
                        dynamic_shared_fn,
                        vec![GenericArg::Type(ti(I32))],
                        vec![],
                    ),
                ),
                put(1, cast(mcall(var("d"), "len", vec![]), ti(I64))),
                st(assign(index(var("d"), int(2)), int(-9))),
                put(2, cast(index(var("d"), int(2)), ti(I64))),
            ],
            None,
        ),
    )
}

#[test]
fn shared_and_dynamic_shared_memory() {
    let k = lower(smem_kernel());
    assert_eq!(k.shared.len(), 1);
    assert_eq!((k.shared[0].bytes, k.shared[0].align), (64, 8));
    assert!(k.uses_dyn_shared);
    let o = interp::run(&k, &[interp::i64s(&[0; 3])], 24);
    assert!(o.panic.is_none(), "{:?}", o.panic);
    assert_eq!(interp::as_i64(&o.bufs[0]), vec![5, 6, -9]);
}

/// Specialized on the launch's dynamic shared memory size (`Specialization::dyn_shared`), the
/// slice's length is a constant: no `dyn_shared_bytes` division, a constant index needs no check.
/// The variant checks the size it runs with: another one is a panic at the `dynamic_shared` call,
/// not a check against the wrong length.
#[test]
fn dynamic_shared_length_is_the_specialized_size() {
    use kernel_compiler::{frontend::lower_kernel_with, CompileOptions, Specialization};
    let opts = |bytes| CompileOptions {
        specialization: Specialization {
            block: None,
            dyn_shared: Some(bytes),
        },
        ..CompileOptions::default()
    };
    let k = lower_kernel_with(smem_kernel(), &[], &opts(24)).unwrap();
    common::assemble(&k);
    let text = k.to_string();
    assert!(!text.contains("div.u32"), "{text}");
    // `d[2]` (stored, then loaded) of a constant length 6 needs no check; the general variant
    // checks both against the run-time length.
    let checks = |t: &str| t.matches("bounds_check").count();
    let general = lower(smem_kernel()).to_string();
    assert_eq!(checks(&text) + 2, checks(&general), "{text}\n{general}");
    let o = interp::run(&k, &[interp::i64s(&[0; 3])], 24);
    assert!(o.panic.is_none(), "{:?}", o.panic);
    assert_eq!(interp::as_i64(&o.bufs[0]), vec![5, 6, -9]);
    // A launch with another size than the variant's.
    for other in [16, 28] {
        let o = interp::run(&k, &[interp::i64s(&[0; 3])], other);
        let (site, _, _) = o.panic.expect("a launch of another size panics");
        let ir::PanicKind::Explicit(m) = &k.panic_sites[site.0 as usize].kind else {
            panic!("{:?}", k.panic_sites[site.0 as usize]);
        };
        assert!(
            m.contains("compiled for launches with 24 bytes of dynamic shared memory"),
            "{m}"
        );
    }
    // Eight bytes: a length of 2, so `d[2]` is out of bounds (the general variant's own check
    // against the run-time length says the same).
    let k = lower_kernel_with(smem_kernel(), &[], &opts(8)).unwrap();
    let o = interp::run(&k, &[interp::i64s(&[0; 3])], 8);
    let (site, a, b) = o.panic.expect("index 2 of 2 panics");
    assert_eq!(k.panic_sites[site.0 as usize].kind, ir::PanicKind::Bounds);
    assert_eq!((a, b), (2, 2));
}

#[test]
fn sub_slices_and_unchecked_access() {
    let def = kernel(
        "slices",
        vec![
            param("out", tslice(ti(I64), true)),
            param("inp", tslice(ti(I64), false)),
            param("a", ti(IntTy::Usize)),
        ],
        blk(
            vec![
                let_(
                    "s",
                    false,
                    Type::Infer,
                    refr(index(var("inp"), range(var("a"), int(4), false))),
                ),
                put(0, cast(mcall(var("s"), "len", vec![]), ti(I64))),
                put(1, index(var("s"), int(1))),
                put(2, deref(mcall(var("inp"), "get_unchecked", vec![int(3)]))),
            ],
            None,
        ),
    );
    let k = lower(def);
    assert_eq!(
        k.params[1].kind,
        ParamKind::Slice {
            readonly: true,
            elem_bytes: 8,
            ptr_align: 8
        }
    );
    assert_eq!((k.params[1].size, k.params[1].align), (16, 8));
    assert_eq!(
        k.params[1].pieces.iter().map(|p| p.0).collect::<Vec<_>>(),
        vec![0, 8]
    );
    assert_eq!(
        k.params[0].kind,
        ParamKind::Slice {
            readonly: false,
            elem_bytes: 8,
            ptr_align: 8
        }
    );
    let run = |a: u64| {
        interp::run(
            &k,
            &[
                interp::i64s(&[0; 3]),
                interp::i64s(&[10, 11, 12, 13, 14]),
                Arg::Bits(a),
            ],
            0,
        )
    };
    let o = run(1);
    assert!(o.panic.is_none());
    assert_eq!(interp::as_i64(&o.bufs[0]), vec![3, 12, 13]);
    // a > end: slicing panics.
    assert!(run(5).panic.is_some());
    // Loads from `&[T]` are marked read-only.
    fn has_ro_load(b: &ir::Block) -> bool {
        b.0.iter().any(|i| match i {
            ir::Inst::Load { readonly, .. } => *readonly,
            ir::Inst::If { then, els, .. } => has_ro_load(then) || has_ro_load(els),
            ir::Inst::Loop { body, .. } | ir::Inst::For { body, .. } => has_ro_load(body),
            _ => false,
        })
    }
    assert!(has_ro_load(&k.body));
}

#[test]
fn half_precision_arithmetic_rounds_through_f32() {
    let h = |v: f64| ex(ExprKind::Lit(ast::Lit::Float(v, Some(FloatTy::F16))));
    let got = {
        let def = out_kernel(
            ti(I64),
            vec![
                let_("h", false, tf(FloatTy::F16), h(1.5)),
                let_(
                    "g",
                    false,
                    Type::Infer,
                    add(mul(var("h"), var("h")), var("h")),
                ),
                put(
                    0,
                    cast(mul(cast(var("g"), tf(FloatTy::F32)), f32l(100.0)), ti(I64)),
                ),
                // 2049 is not representable in f16: rounds to even (2048)
                put(1, cast(add(h(2048.0), h(1.0)), ti(I64))),
            ],
        );
        let k = lower(def);
        interp::as_i64(&interp::run(&k, &[interp::i64s(&[0; 2])], 0).bufs[0])
    };
    assert_eq!(got, vec![375, 2048]);
}

#[test]
fn generic_kernels_are_monomorphized_and_mangled() {
    let t = || Type::Param("T".into());
    let def: &'static FnDef = Box::leak(Box::new(fndef(
        "fill",
        FnKind::Kernel(Default::default()),
        vec![
            Generic::Type {
                name: "T".into(),
                bounds: vec![],
            },
            Generic::Const {
                name: "N".into(),
                ty: Type::Int(IntTy::Usize),
            },
        ],
        vec![param("out", tslice(t(), true))],
        Type::Unit,
        blk(
            vec![st(for_(
                None,
                "i",
                range(int(0), ex(ExprKind::Local("N".into())), false),
                blk(
                    vec![st(assign(
                        index(var("out"), var("i")),
                        add(
                            ex(ExprKind::AssocConst {
                                ty: t(),
                                name: "ONE".into(),
                            }),
                            ex(ExprKind::AssocConst {
                                ty: t(),
                                name: "ONE".into(),
                            }),
                        ),
                    ))],
                    None,
                ),
            ))],
            None,
        ),
    )));
    let k = lower_kernel(
        def,
        &[GenericValue::Type(tf(FloatTy::F32)), GenericValue::Const(3)],
    )
    .unwrap();
    assert_eq!(k.display_name, "tests::fill");
    assert_eq!(k.name, "tests$fill$f32$3");
    assert!(k
        .name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$'));
    let o = interp::run(&k, &[interp::f32s(&[0.0; 4])], 0);
    assert_eq!(interp::as_f32(&o.bufs[0]), vec![2.0, 2.0, 2.0, 0.0]);
    let k2 = lower_checked(def, &[GenericValue::Type(ti(I32)), GenericValue::Const(1)]);
    assert_eq!(k2.name, "tests$fill$i32$1");
    let o = interp::run(&k2, &[interp::i32s(&[0; 2])], 0);
    assert_eq!(interp::as_i32(&o.bufs[0]), vec![2, 0]);
    assert!(lower_kernel(def, &[]).is_err());
}

#[test]
fn type_errors_point_at_the_source() {
    let bad = float(1.5);
    let line = bad.span.line;
    let def = out_kernel(ti(I64), vec![let_("x", false, ti(I32), bad)]);
    let e = lower_kernel(def, &[]).unwrap_err();
    assert!(e.message.contains("mismatched types"), "{}", e.message);
    assert_eq!((e.file.as_str(), e.line), ("tests/frontend.rs", line));

    let unknown = var("nope");
    let line = unknown.span.line;
    let e = lower_kernel(out_kernel(ti(I64), vec![put(0, unknown)]), &[]).unwrap_err();
    assert!(e.message.contains("nope"));
    assert_eq!(e.line, line);

    let e = lower_kernel(
        out_kernel(
            ti(I64),
            vec![put(0, mcall(int_t(1, I64), "frobnicate", vec![]))],
        ),
        &[],
    )
    .unwrap_err();
    assert!(e.message.contains("frobnicate"));

    let def = kernel(
        "tup",
        vec![param("t", Type::Tuple(vec![ti(I32), ti(I32)]))],
        blk(vec![], None),
    );
    assert!(lower_kernel(def, &[])
        .unwrap_err()
        .message
        .contains("kernel parameter"));
}

#[test]
fn thread_builtins_and_intrinsics() {
    fn tid() -> Callable {
        Callable::Intrinsic(&kernel_std::api::thread_idx::SPEC)
    }
    fn sync() -> Callable {
        Callable::Intrinsic(&kernel_std::api::sync_threads::SPEC)
    }
    let def = out_kernel(
        ti(I64),
        vec![
            st(call("sync_threads", sync, vec![], vec![])),
            put(
                0,
                cast(
                    add(field(call("thread_idx", tid, vec![], vec![]), "x"), int(7)),
                    ti(I64),
                ),
            ),
        ],
    );
    let k = lower(def);
    let names: Vec<&str> = k
        .body
        .0
        .iter()
        .filter_map(|i| match i {
            ir::Inst::Intrinsic { id, .. } => Some(id.name()),
            _ => None,
        })
        .collect();
    assert_eq!(names, vec!["sync_threads", "tid.x", "tid.y", "tid.z"]);
    let o = interp::run(&k, &[interp::i64s(&[0])], 0);
    assert_eq!(interp::as_i64(&o.bufs[0]), vec![7]);
}

#[test]
fn constant_indices_in_range_need_no_bounds_check() {
    let def = out_kernel(
        ti(I64),
        vec![
            let_(
                "a",
                true,
                Type::Infer,
                array(vec![int_t(1, I64), int(2), int(3)]),
            ),
            st(assign(index(var("a"), int(2)), int(9))),
            put(0, index(var("a"), int(2))),
        ],
    );
    let k = lower(def);
    let checks = format!("{k:#?}").matches("BoundsCheck").count();
    // Only `out[0]` (slice length unknown) is checked.
    assert_eq!(checks, 1, "{k:#?}");
    assert_eq!(
        interp::as_i64(&interp::run(&k, &[interp::i64s(&[0])], 0).bufs[0]),
        vec![9]
    );
}

#[test]
fn short_circuit_operators_skip_the_right_side() {
    // (false && (out[5] == 0)) must not index out of bounds.
    let def = out_kernel(
        ti(I64),
        vec![
            let_(
                "c",
                false,
                Type::Infer,
                bin(
                    BinOp::And,
                    boolean(false),
                    eq(index(var("out"), int(5)), int(0)),
                ),
            ),
            let_(
                "d",
                false,
                Type::Infer,
                bin(
                    BinOp::Or,
                    boolean(true),
                    eq(index(var("out"), int(5)), int(0)),
                ),
            ),
            put(0, cast(var("c"), ti(I64))),
            put(1, cast(var("d"), ti(I64))),
        ],
    );
    let k = lower(def);
    let o = interp::run(&k, &[interp::i64s(&[0; 2])], 0);
    assert!(o.panic.is_none());
    assert_eq!(interp::as_i64(&o.bufs[0]), vec![0, 1]);
}

#[test]
fn malformed_or_unsupported_code_is_an_error_not_a_panic() {
    let bodies: Vec<Vec<ast::Stmt>> = vec![
        vec![st(field(int(1), "x"))],
        vec![st(index(int(1), int(0)))],
        vec![st(brk(None, None))],
        vec![st(cont(Some("nope")))],
        vec![st(call("sum", sum_fn, vec![], vec![]))],
        vec![st(call("add", add_fn, vec![], vec![int(1), f32l(1.0)]))],
        vec![st(deref(int(3)))],
        vec![st(assign(int(3), int(4)))],
        vec![st(mcall(var("out"), "frob", vec![]))],
        vec![st(bin(BinOp::BitAnd, f32l(1.0), f32l(2.0)))],
        vec![st(for_(None, "i", int(3), blk(vec![], None)))],
        vec![st(range(int(0), int(3), false))],
        vec![let_("t", false, Type::Tuple(vec![ti(I32)]), int(1))],
        vec![st(mcall(int_t(1, I32), "pow", vec![]))],
        vec![st(call(
            "sync_threads",
            || Callable::Intrinsic(&kernel_std::api::sync_threads::SPEC),
            vec![],
            vec![int(1)],
        ))],
        vec![st(call(
            "shared_array",
            || Callable::Intrinsic(&kernel_std::api::shared_array::SPEC),
            vec![],
            vec![],
        ))],
        vec![st(mcall(
            mcall(range(int(0), int(4), false), "step_by", vec![int(2)]),
            "rev",
            vec![],
        ))],
        vec![st(for_(
            None,
            "i",
            mcall(
                mcall(range(int(0), int(4), false), "step_by", vec![int(2)]),
                "rev",
                vec![],
            ),
            blk(vec![], None),
        ))],
        vec![st(for_(
            None,
            "i",
            mcall(range(int(0), int(4), false), "step_by", vec![int(0)]),
            blk(vec![], None),
        ))],
        vec![let_(
            "x",
            false,
            Type::Infer,
            ex(ExprKind::AssocConst {
                ty: ti(I32),
                name: "NOPE".into(),
            }),
        )],
    ];
    for (i, b) in bodies.into_iter().enumerate() {
        let def = out_kernel(ti(I64), b);
        let r = std::panic::catch_unwind(|| lower_kernel(def, &[]));
        match r {
            Ok(Err(e)) => assert!(!e.message.is_empty() && e.line > 0, "case {i}: {e:?}"),
            Ok(Ok(k)) => panic!("case {i} lowered: {k:#?}"),
            Err(_) => panic!("case {i} panicked"),
        }
    }
}
