//! Finer points of the lowering: literals, associated calls, macro messages, `use` inside bodies.

// The device functions here are only reached through their ASTs, never called on the host.
#![allow(dead_code)]

use ferrocuda::__private::ast::{
    self, Callable, ConstValue, ExprKind, FloatTy, IntTy, Lit, Pat, Stmt, Type,
};
use ferrocuda::prelude::*;

mod helpers {
    use ferrocuda::prelude::*;

    #[device]
    pub fn twice(x: f32) -> f32 {
        x * 2.0
    }

    pub mod deep {
        pub const LIMIT: u32 = 7;
    }
}

use helpers::twice as double_it;

#[device]
fn literals() -> f32 {
    let a = 1e3f32;
    let b = 2f32;
    let c = b'a';
    let d = 0x10u64;
    let e = 1_000;
    let f = -0.0f64;
    let g = true;
    a + b + c as f32 + d as f32 + e as f32 + f as f32 + g as u8 as f32
}

#[device]
fn assoc<T: Float>(x: T, y: f32) -> f32 {
    let a = T::sqrt(x);
    let b = <T as Float>::abs(a);
    let _ = <T as Float>::ONE;
    let _ = b;
    f32::sqrt(y) + f32::MAX.min(y)
}

#[device]
fn messages(x: u32) -> u32 {
    assert!(x.count_ones() > 0 && !x.is_power_of_two());
    assert_ne!(x, 7, "seven is {{bad}}");
    debug_assert_eq!(x / 2, x >> 1);
    if x == 1 {
        panic!();
    }
    if x == 2 {
        panic!("two {{}}");
    }
    if x == 4 {
        unreachable!("four");
    }
    x
}

#[device]
fn unroll_in_tail(out: &mut [u32]) {
    #[unroll(2)]
    for i in 0..4u32 {
        out[0] += i;
    }
}

#[device]
fn uses_matches(x: u32, y: i32) -> bool {
    matches!(x, 1 | 3..=5) && !matches!(y, -3..=-1 if x > 2)
}

#[device]
fn uses_items(x: f32) -> f32 {
    use helpers::deep::LIMIT as L;
    const EXTRA: u32 = 3;
    let n = {
        const INNER: u32 = 5;
        INNER + L + EXTRA
    };
    double_it(x) + n as f32
}

#[kernel]
pub fn no_params() {}

/// Parameters named like the launcher's own: the launcher renames its `stream`/`cfg`.
#[kernel]
pub fn named_like_launcher(stream: u32, cfg: &mut [u32]) {
    cfg[0] = stream;
}

fn launcher_with_clashing_names(s: &Stream, out: &mut Vec<u32>) {
    struct Buf;
    // SAFETY: `launch_arg_mut` refuses every stream, so nothing is launched with it.
    unsafe impl ferrocuda::host_runtime::KernelSliceMut<u32> for Buf {
        fn kernel_arg_mut(&mut self) -> ferrocuda::host_runtime::SliceArg {
            ferrocuda::host_runtime::SliceArg { ptr: 0, len: 0 }
        }
        fn launch_arg_mut(
            &mut self,
            _: &Stream,
        ) -> ferrocuda::host_runtime::Result<ferrocuda::host_runtime::SliceArg> {
            Err(ferrocuda::host_runtime::Error::WrongDevice)
        }
    }
    let _ = named_like_launcher::launch(s, LaunchConfig::for_elements(1, 1), 3, &mut Buf);
    out.clear();
}

#[kernel]
pub fn unused_param(_: u32, _y: &[u8]) {}

fn device_def(c: Callable) -> &'static ast::FnDef {
    match c {
        Callable::Device(d) => d,
        Callable::Intrinsic(n) => panic!("{n} is an intrinsic"),
    }
}

fn lets(def: &ast::FnDef) -> Vec<(&str, &ast::Expr)> {
    def.body
        .stmts
        .iter()
        .filter_map(|s| match s {
            Stmt::Let {
                pat: Pat::Ident { name, .. },
                init: Some(e),
                ..
            } => Some((name.as_str(), e)),
            _ => None,
        })
        .collect()
}

#[test]
fn literal_forms() {
    let def = device_def(literals::__fc_callable());
    let l = lets(def);
    let lit = |i: usize| match &l[i].1.kind {
        ExprKind::Lit(lit) => lit.clone(),
        ExprKind::Unary(ast::UnOp::Neg, e) => match &e.kind {
            ExprKind::Lit(Lit::Float(v, t)) => Lit::Float(-v, *t),
            k => panic!("{k:?}"),
        },
        k => panic!("{k:?}"),
    };
    assert!(matches!(lit(0), Lit::Float(v, Some(FloatTy::F32)) if v == 1000.0));
    assert!(matches!(lit(1), Lit::Float(v, Some(FloatTy::F32)) if v == 2.0));
    assert!(matches!(lit(2), Lit::Int(97, Some(IntTy::U8))));
    assert!(matches!(lit(3), Lit::Int(16, Some(IntTy::U64))));
    assert!(matches!(lit(4), Lit::Int(1000, None)));
    assert!(
        matches!(lit(5), Lit::Float(v, Some(FloatTy::F64)) if v == 0.0 && v.is_sign_negative())
    );
    assert!(matches!(lit(6), Lit::Bool(true)));
    assert!(matches!(def.ret, Type::Float(FloatTy::F32)));
}

#[test]
fn associated_calls_and_consts() {
    let def = device_def(assoc::__fc_callable());
    let l = lets(def);
    assert!(matches!(&l[0].1.kind,
        ExprKind::AssocCall { ty: Type::Param(t), method, args } if t == "T" && method == "sqrt" && args.len() == 1));
    assert!(matches!(&l[1].1.kind,
        ExprKind::AssocCall { ty: Type::Param(t), method, .. } if t == "T" && method == "abs"));
    let Stmt::Let {
        init: Some(one),
        pat: Pat::Wild,
        ..
    } = &def.body.stmts[2]
    else {
        panic!()
    };
    assert!(
        matches!(&one.kind, ExprKind::AssocConst { ty: Type::Param(t), name } if t == "T" && name == "ONE")
    );
    let tail = def.body.tail.as_deref().unwrap();
    let ExprKind::Binary(_, sqrt, min) = &tail.kind else {
        panic!()
    };
    assert!(matches!(&sqrt.kind,
        ExprKind::AssocCall { ty: Type::Float(FloatTy::F32), method, .. } if method == "sqrt"));
    let ExprKind::MethodCall { receiver, .. } = &min.kind else {
        panic!()
    };
    let ExprKind::HostConst(h) = &receiver.kind else {
        panic!()
    };
    assert_eq!(h.text, "f32::MAX");
    assert_eq!((h.eval)(), ConstValue::Float(f32::MAX as f64, FloatTy::F32));
}

#[test]
fn macro_messages() {
    let def = device_def(messages::__fc_callable());
    let mut asserts = Vec::new();
    let mut panics = Vec::new();
    for s in &def.body.stmts {
        let Stmt::Expr(e) = s else { continue };
        match &e.kind {
            ExprKind::Assert { message, .. } => asserts.push(message.clone()),
            ExprKind::If { then, .. } => match &then.stmts[0] {
                Stmt::Expr(ast::Expr {
                    kind: ExprKind::Panic { message },
                    ..
                }) => panics.push(message.clone()),
                s => panic!("{s:?}"),
            },
            _ => {}
        }
    }
    let mut want = vec![
        "assertion failed: x.count_ones() > 0 && !x.is_power_of_two()".to_string(),
        "assertion `left != right` failed: seven is {bad}".to_string(),
    ];
    if cfg!(debug_assertions) {
        want.push("assertion `left == right` failed".into());
    }
    assert_eq!(asserts, want);
    assert_eq!(
        panics,
        [
            "explicit panic",
            "two {}",
            "internal error: entered unreachable code: four"
        ]
    );
}

#[test]
fn items_inside_bodies_and_renamed_imports() {
    let def = device_def(uses_items::__fc_callable());
    let l = lets(def);
    let ExprKind::Block(b) = &l[0].1.kind else {
        panic!()
    };
    let mut consts = Vec::new();
    fn walk(e: &ast::Expr, out: &mut Vec<(&'static str, ConstValue)>) {
        match &e.kind {
            ExprKind::HostConst(h) => out.push((h.text, (h.eval)())),
            ExprKind::Binary(_, l, r) => {
                walk(l, out);
                walk(r, out);
            }
            _ => {}
        }
    }
    walk(b.tail.as_deref().unwrap(), &mut consts);
    assert_eq!(
        consts,
        [
            ("INNER", ConstValue::Int(5, IntTy::U32)),
            ("L", ConstValue::Int(7, IntTy::U32)),
            ("EXTRA", ConstValue::Int(3, IntTy::U32)),
        ]
    );
    let ExprKind::Binary(_, call, _) = &def.body.tail.as_deref().unwrap().kind else {
        panic!()
    };
    let ExprKind::Call { callee, .. } = &call.kind else {
        panic!()
    };
    assert_eq!(callee.path, "double_it");
    let target = device_def((callee.resolve)());
    assert_eq!(target.name, "twice");
    assert!(target.module.ends_with("helpers"));
}

#[test]
fn matches_macro_is_a_match() {
    let def = device_def(uses_matches::__fc_callable());
    let ExprKind::Binary(ast::BinOp::And, l, r) = &def.body.tail.as_deref().unwrap().kind else {
        panic!()
    };
    let ExprKind::Match { arms, .. } = &l.kind else {
        panic!("{:?}", l.kind)
    };
    assert!(matches!(&arms[0].pat, Pat::Or(v) if v.len() == 2));
    assert!(matches!(arms[0].body.kind, ExprKind::Lit(Lit::Bool(true))));
    assert!(matches!(arms[1].pat, Pat::Wild));
    let ExprKind::Unary(ast::UnOp::Not, m) = &r.kind else {
        panic!()
    };
    let ExprKind::Match { arms, .. } = &m.kind else {
        panic!()
    };
    assert!(arms[0].guard.is_some());
}

#[test]
fn loop_attribute_on_a_tail_loop() {
    let def = device_def(unroll_in_tail::__fc_callable());
    let tail = def.body.tail.as_deref().expect("the loop is the tail");
    assert!(matches!(
        tail.kind,
        ExprKind::For {
            unroll: ast::Unroll::By(2),
            ..
        }
    ));
}

#[test]
fn trivial_kernels() {
    let def = no_params::ast();
    assert!(def.params.is_empty());
    assert!(def.body.stmts.is_empty() && def.body.tail.is_none());
    let def = unused_param::ast();
    assert_eq!(def.params[0].name, "_");
    assert_eq!(def.params[1].name, "_y");
    assert!(std::ptr::eq(unused_param::ast(), unused_param::__fc_def()));
}

/// Crates that deny `unsafe_code` or require docs can still use the macros.
#[deny(unsafe_code, missing_docs)]
pub mod strict {
    use ferrocuda::prelude::*;

    /// A documented device struct.
    #[derive(Clone, Copy, DeviceCopy)]
    #[repr(C)]
    pub struct S {
        /// A field.
        pub x: f32,
    }

    /// A documented kernel.
    #[kernel]
    pub fn k(s: S, out: &mut [f32]) {
        out[0] = s.x;
    }

    /// A documented device function.
    #[device]
    pub fn d(s: S) -> f32 {
        s.x
    }
}

#[test]
fn strict_module_items_exist() {
    assert_eq!(strict::k::ast().params.len(), 2);
    assert_eq!(device_def(strict::d::__fc_callable()).name, "d");
}
