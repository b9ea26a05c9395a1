//! Expansion tests: the real macros through the `ferrocuda` facade, checked on the built `FnDef`.

use ferrocuda::__private::ast::{
    self, BinOp, Callable, ConstValue, ExprKind, FloatTy, FnKind, Generic, GenericArg, IntTy, Lit,
    Mutability, Pat, Stmt, Type, Unroll,
};
use ferrocuda::prelude::*;

mod kernels;

use kernels::*;

#[test]
fn type_aliases_resolve_through_rustc() {
    let def = with_alias::ast();
    assert!(
        matches!(&def.params[0].ty, Type::Slice(e, Mutability::Mut) if matches!(**e, Type::Float(FloatTy::F32)))
    );
    assert!(matches!(def.params[1].ty, Type::Float(FloatTy::F32)));
    let Stmt::Let {
        ty: Type::Array(e, _),
        ..
    } = &def.body.stmts[0]
    else {
        panic!()
    };
    assert!(matches!(**e, Type::Float(FloatTy::F32)));
}

#[test]
fn relative_paths_in_signatures() {
    let def = nested::relative::ast();
    assert!(
        matches!(&def.params[1].ty, Type::Slice(e, _) if matches!(&**e, Type::Struct(s) if s.name == "Local"))
    );
    assert!(matches!(def.params[2].ty, Type::Float(FloatTy::F32)));
}

#[allow(dead_code)]
fn relative_launcher_type_checks(stream: &Stream, x: &FakeBuf, y: &mut FakeBuf) {
    let _ = nested::relative::launch(stream, LaunchConfig::for_elements(1, 1), y, x, 1.0);
}

fn find_local<'a>(block: &'a ast::Block, name: &str) -> Option<&'a ast::Expr> {
    block.stmts.iter().find_map(|s| match s {
        Stmt::Let {
            pat: Pat::Ident { name: n, .. },
            init: Some(e),
            ..
        } if n == name => Some(e),
        _ => None,
    })
}

fn stmt_exprs(block: &ast::Block) -> Vec<&ast::Expr> {
    block
        .stmts
        .iter()
        .filter_map(|s| match s {
            Stmt::Expr(e) => Some(e),
            _ => None,
        })
        .chain(block.tail.as_deref())
        .collect()
}

#[test]
fn saxpy_signature_and_spans() {
    let def = saxpy::ast();
    assert_eq!(def.name, "saxpy");
    assert!(def.module.ends_with("kernels"), "{}", def.module);
    assert!(def.file.ends_with("mod.rs"), "{}", def.file);
    assert_eq!(def.kind, FnKind::Kernel(Default::default()));
    assert_eq!(def.span.line, SAXPY_LINE + 2);
    assert_eq!(def.span.col, 8);
    assert_eq!(def.params.len(), 3);
    assert!(matches!(def.params[0].ty, Type::Float(FloatTy::F32)));
    assert!(
        matches!(&def.params[1].ty, Type::Slice(t, Mutability::Not) if matches!(**t, Type::Float(FloatTy::F32)))
    );
    assert!(matches!(&def.params[2].ty, Type::Slice(_, Mutability::Mut)));
    assert_eq!(def.params[2].name, "y");
    assert_eq!(def.params[1].span, ast::Span::new(SAXPY_LINE + 2, 22));
    assert!(matches!(def.ret, Type::Unit));

    // let i = (block_idx().x * ...) as usize;
    let init = find_local(&def.body, "i").expect("let i");
    assert_eq!(init.span, ast::Span::new(SAXPY_LINE + 3, 13));
    let ExprKind::Cast(inner, Type::Int(IntTy::Usize)) = &init.kind else {
        panic!("{:?}", init.kind)
    };
    let ExprKind::Binary(BinOp::Add, lhs, rhs) = &inner.kind else {
        panic!("{:?}", inner.kind)
    };
    assert_eq!(lhs.span, ast::Span::new(SAXPY_LINE + 3, 14));
    let ExprKind::Field(call, f) = &rhs.kind else {
        panic!()
    };
    assert_eq!(f, "x");
    let ExprKind::Call { callee, args, .. } = &call.kind else {
        panic!()
    };
    assert_eq!(callee.path, "thread_idx");
    assert!(args.is_empty());
    assert!(matches!(
        (callee.resolve)(),
        Callable::Intrinsic("thread_idx")
    ));
    assert_eq!(call.span, ast::Span::new(SAXPY_LINE + 3, 46));

    // if i < y.len() { y[i] = a * x[i] + y[i]; }
    let tail = def.body.tail.as_deref().expect("if is the tail");
    let ExprKind::If { cond, then, els } = &tail.kind else {
        panic!()
    };
    assert!(els.is_none());
    let ExprKind::Binary(BinOp::Lt, l, r) = &cond.kind else {
        panic!()
    };
    assert!(matches!(&l.kind, ExprKind::Local(n) if n == "i"));
    let ExprKind::MethodCall {
        receiver,
        method,
        args,
        ..
    } = &r.kind
    else {
        panic!()
    };
    assert_eq!(method, "len");
    assert!(args.is_empty());
    assert!(matches!(&receiver.kind, ExprKind::Local(n) if n == "y"));
    // Method calls point at the method name, like rustc's caller locations.
    assert_eq!(r.span, ast::Span::new(SAXPY_LINE + 4, 14));
    let assign = stmt_exprs(then)[0];
    assert_eq!(assign.span, ast::Span::new(SAXPY_LINE + 5, 9));
    let ExprKind::Assign(dst, src) = &assign.kind else {
        panic!()
    };
    assert!(matches!(&dst.kind, ExprKind::Index(..)));
    assert!(matches!(&src.kind, ExprKind::Binary(BinOp::Add, ..)));
}

#[test]
fn kernel_attrs_generics_and_loops() {
    let def = transpose::ast();
    let FnKind::Kernel(k) = &def.kind else {
        panic!()
    };
    assert_eq!(
        (k.max_threads, k.min_blocks, k.max_registers),
        (Some(256), Some(2), Some(64))
    );
    assert!(
        matches!(&def.generics[..], [Generic::Const { name, ty: Type::Int(IntTy::Usize) }] if name == "TILE")
    );

    let tile = find_local(&def.body, "tile").unwrap();
    let ExprKind::Call {
        callee,
        generic_args,
        ..
    } = &tile.kind
    else {
        panic!()
    };
    assert!(matches!(
        (callee.resolve)(),
        Callable::Intrinsic("shared_array")
    ));
    let [GenericArg::Type(Type::Array(inner, outer_len))] = &generic_args[..] else {
        panic!("{generic_args:?}")
    };
    assert!(matches!(outer_len.kind, ExprKind::Lit(Lit::Int(32, None))));
    assert!(
        matches!(&**inner, Type::Array(e, l) if matches!(**e, Type::Float(FloatTy::F32)) && matches!(l.kind, ExprKind::Lit(Lit::Int(33, None))))
    );

    // let (tx, ty) = (..)
    assert!(def
        .body
        .stmts
        .iter()
        .any(|s| matches!(s, Stmt::Let { pat: Pat::Tuple(p), .. } if p.len() == 2)));

    let fors: Vec<_> = stmt_exprs(&def.body)
        .into_iter()
        .filter_map(|e| match &e.kind {
            ExprKind::For {
                pat, iter, unroll, ..
            } => Some((pat, iter, *unroll, e.span)),
            _ => None,
        })
        .collect();
    assert_eq!(fors.len(), 3);
    assert_eq!(fors[0].2, Unroll::Full);
    assert!(matches!(fors[0].0, Pat::Ident { name, .. } if name == "k"));
    assert!(matches!(
        &fors[0].1.kind,
        ExprKind::Range {
            inclusive: false,
            start: Some(_),
            end: Some(_)
        }
    ));
    assert_eq!(fors[1].2, Unroll::By(4));
    let ExprKind::MethodCall {
        receiver, method, ..
    } = &fors[1].1.kind
    else {
        panic!()
    };
    assert_eq!(method, "rev");
    let ExprKind::Range { end: Some(end), .. } = &receiver.kind else {
        panic!()
    };
    assert!(matches!(&end.kind, ExprKind::Local(n) if n == "TILE"));
    assert_eq!(fors[2].2, Unroll::Never);
    assert!(matches!(fors[2].0, Pat::Wild));
    assert!(
        matches!(&fors[2].1.kind, ExprKind::MethodCall { method, args, .. } if method == "step_by" && args.len() == 1)
    );

    // out[tx] = acc * util::SCALE + BLOCK as f32 + core::f32::consts::PI;
    let last = def.body.stmts.last().unwrap();
    let Stmt::Expr(e) = last else { panic!() };
    let ExprKind::Assign(_, rhs) = &e.kind else {
        panic!()
    };
    let mut consts = Vec::new();
    collect_host_consts(rhs, &mut consts);
    let got: Vec<_> = consts.iter().map(|h| (h.text, (h.eval)())).collect();
    assert_eq!(
        got,
        vec![
            ("util::SCALE", ConstValue::Float(2.5, FloatTy::F32)),
            ("BLOCK", ConstValue::Int(4, IntTy::Usize)),
            (
                "core::f32::consts::PI",
                ConstValue::Float(core::f32::consts::PI as f64, FloatTy::F32)
            ),
        ]
    );
}

fn collect_host_consts(e: &ast::Expr, out: &mut Vec<ast::HostConst>) {
    match &e.kind {
        ExprKind::HostConst(h) => out.push(*h),
        ExprKind::Binary(_, l, r) => {
            collect_host_consts(l, out);
            collect_host_consts(r, out);
        }
        ExprKind::Cast(x, _) | ExprKind::Unary(_, x) => collect_host_consts(x, out),
        _ => {}
    }
}

#[test]
fn generic_kernel_calls_device_fns() {
    let def = generic_scale::ast();
    assert!(
        matches!(&def.generics[0], Generic::Type { name, bounds } if name == "T" && bounds == &["Float".to_string()])
    );
    assert!(matches!(&def.generics[1], Generic::Const { name, .. } if name == "N"));
    assert!(matches!(&def.params[1].ty, Type::Param(t) if t == "T"));
    let Stmt::Let {
        ty: Type::Array(elem, len),
        init: Some(init),
        ..
    } = &def.body.stmts[1]
    else {
        panic!()
    };
    assert!(matches!(&**elem, Type::Param(t) if t == "T"));
    assert!(matches!(&len.kind, ExprKind::Local(n) if n == "N"));
    let ExprKind::ArrayRepeat(v, _) = &init.kind else {
        panic!()
    };
    assert!(
        matches!(&v.kind, ExprKind::AssocConst { ty: Type::Param(t), name } if t == "T" && name == "ZERO")
    );

    let calls: Vec<_> = def.body.stmts[2..]
        .iter()
        .map(|s| {
            let Stmt::Expr(e) = s else { panic!() };
            let ExprKind::Assign(_, rhs) = &e.kind else {
                panic!()
            };
            rhs
        })
        .collect();
    let ExprKind::Binary(BinOp::Add, call, _) = &calls[0].kind else {
        panic!()
    };
    let ExprKind::Call {
        callee,
        generic_args,
        ..
    } = &call.kind
    else {
        panic!()
    };
    assert_eq!(callee.path, "clamp01");
    assert!(matches!(&generic_args[..], [GenericArg::Type(Type::Param(t))] if t == "T"));
    let Callable::Device(clamp) = (callee.resolve)() else {
        panic!()
    };
    assert_eq!(clamp.name, "clamp01");
    assert!(clamp.module.ends_with("util"));
    assert_eq!(clamp.kind, FnKind::Device);
    let ExprKind::Call { callee: c2, .. } = &calls[1].kind else {
        panic!()
    };
    assert_eq!(c2.path, "util::clamp01");
    let Callable::Device(clamp2) = (c2.resolve)() else {
        panic!()
    };
    assert!(std::ptr::eq(clamp, clamp2), "one FnDef per device fn");

    // The device fn body: v.max(T::ZERO).min(T::ONE)
    let tail = clamp.body.tail.as_deref().unwrap();
    let ExprKind::MethodCall {
        receiver,
        method,
        args,
        ..
    } = &tail.kind
    else {
        panic!()
    };
    assert_eq!(method, "min");
    assert!(matches!(&args[0].kind, ExprKind::AssocConst { name, .. } if name == "ONE"));
    assert!(matches!(&receiver.kind, ExprKind::MethodCall { method, .. } if method == "max"));
    // The host copy is still an ordinary function.
    assert_eq!(util::clamp01(3.0f32), 1.0);
}

#[test]
fn match_patterns_and_local_consts() {
    let Callable::Device(def) = classify::__fc_callable() else {
        panic!()
    };
    let ExprKind::Match { arms, scrutinee } = &def.body.tail.as_deref().unwrap().kind else {
        panic!()
    };
    assert!(matches!(&scrutinee.kind, ExprKind::Local(n) if n == "x"));
    assert_eq!(arms.len(), 6);
    let Pat::Range {
        start: Some(s),
        end: Some(e),
        inclusive: true,
    } = &arms[0].pat
    else {
        panic!("{:?}", arms[0].pat)
    };
    assert!(
        matches!(&**s, Pat::HostConst(h) if (h.eval)() == ConstValue::Int(i32::MIN as i128, IntTy::I32))
    );
    assert!(matches!(&**e, Pat::Lit(Lit::Int(v, None)) if *v as i128 == -1));
    assert!(matches!(&arms[1].pat, Pat::Lit(Lit::Int(0, None))));
    assert!(matches!(&arms[2].pat, Pat::Or(v) if v.len() == 3));
    // A local `const` item is visible to the host-const evaluation.
    assert!(
        matches!(&arms[3].pat, Pat::HostConst(h) if h.text == "LIMIT" && (h.eval)() == ConstValue::Int(100, IntTy::I32))
    );
    assert!(matches!(&arms[4].pat, Pat::Ident { name, .. } if name == "n"));
    assert!(arms[4].guard.is_some());
    assert!(matches!(&arms[5].pat, Pat::Wild));
    assert_eq!(arms[0].span.line, arms[1].span.line - 1);
}

#[test]
fn loops_labels_and_breaks() {
    let Callable::Device(def) = loops::__fc_callable() else {
        panic!()
    };
    let outer = stmt_exprs(&def.body)
        .into_iter()
        .find(|e| matches!(e.kind, ExprKind::Loop { .. }))
        .unwrap();
    let ExprKind::Loop { label, body } = &outer.kind else {
        panic!()
    };
    assert_eq!(label.as_deref(), Some("'outer"));
    let ExprKind::While { body: wbody, .. } = &stmt_exprs(body)[0].kind else {
        panic!()
    };
    let ifs = stmt_exprs(wbody);
    let ExprKind::If { then, .. } = &ifs[1].kind else {
        panic!()
    };
    assert!(
        matches!(&stmt_exprs(then)[0].kind, ExprKind::Continue { label: Some(l) } if l == "'outer")
    );
    let v = find_local(body, "v").unwrap();
    let ExprKind::Loop {
        body: inner,
        label: None,
    } = &v.kind
    else {
        panic!()
    };
    let ExprKind::If { then, .. } = &stmt_exprs(inner)[1].kind else {
        panic!()
    };
    assert!(matches!(
        &stmt_exprs(then)[0].kind,
        ExprKind::Break {
            label: None,
            value: Some(_)
        }
    ));
    assert!(stmt_exprs(body)
        .iter()
        .any(|e| matches!(e.kind, ExprKind::AssignOp(BinOp::Shl, ..))));
}

#[test]
fn structs_asserts_and_unsafe() {
    let def = particles::ast();
    let Type::Slice(elem, Mutability::Mut) = &def.params[0].ty else {
        panic!()
    };
    let Type::Struct(p) = &**elem else { panic!() };
    let sd = (p.def)();
    assert_eq!(sd.name, "Particle");
    assert_eq!(sd.size, 16);
    assert_eq!(sd.align, 4);
    assert_eq!(sd.fields.len(), 2);
    assert_eq!(sd.fields[0].0, "pos");
    assert!(
        matches!(&sd.fields[0].1, Type::Array(e, _) if matches!(**e, Type::Float(FloatTy::F32)))
    );
    let Type::Slice(pair, _) = &def.params[1].ty else {
        panic!()
    };
    let Type::Struct(pair) = &**pair else {
        panic!()
    };
    let pd = (pair.def)();
    assert_eq!((pd.size, pd.align), (16, 8));
    assert_eq!(pd.fields[1].0, "1");
    assert!(matches!(def.params[2].ty, Type::Struct(_)));

    let exprs = stmt_exprs(&def.body);
    let asserts: Vec<_> = exprs
        .iter()
        .filter_map(|e| match &e.kind {
            ExprKind::Assert { message, .. } => Some(message.as_str()),
            _ => None,
        })
        .collect();
    let debug = cfg!(debug_assertions);
    let mut want = vec!["index out of range", "assertion `left == right` failed"];
    if debug {
        want.push("assertion failed: p.mass >= 0.0");
    }
    assert_eq!(asserts, want);
    let q = find_local(&def.body, "q").unwrap();
    let ExprKind::StructLit { ty, fields } = &q.kind else {
        panic!()
    };
    assert_eq!(ty.name, "Particle");
    assert_eq!(fields.len(), 2);
    assert!(matches!(&fields[0].1.kind, ExprKind::ArrayRepeat(..)));
    let b = find_local(&def.body, "b").unwrap();
    assert!(matches!(&b.kind, ExprKind::StructLit { fields, .. } if fields[0].0 == "0"));
    let ExprKind::If { then, .. } = &exprs
        .iter()
        .find(|e| matches!(e.kind, ExprKind::If { .. }))
        .unwrap()
        .kind
    else {
        panic!()
    };
    assert!(
        matches!(&stmt_exprs(then)[0].kind, ExprKind::Panic { message } if message == "internal error: entered unreachable code")
    );
    let r = find_local(&def.body, "r").unwrap();
    assert!(matches!(&r.kind, ExprKind::Ref(Mutability::Mut, _)));
    // unsafe { *ps.get_unchecked(i) } is a block whose tail derefs the method call.
    let unsafe_read = exprs
        .iter()
        .find_map(|e| match &e.kind {
            ExprKind::Assign(_, rhs) if matches!(rhs.kind, ExprKind::Block(_)) => Some(rhs),
            _ => None,
        })
        .unwrap();
    let ExprKind::Block(b) = &unsafe_read.kind else {
        panic!()
    };
    let ExprKind::Deref(m) = &b.tail.as_deref().unwrap().kind else {
        panic!()
    };
    assert!(matches!(&m.kind, ExprKind::MethodCall { method, .. } if method == "get_unchecked"));
    // Calls of device fns defined in the same module.
    let mass = exprs
        .iter()
        .find_map(|e| match &e.kind {
            ExprKind::Assign(l, r) if matches!(&l.kind, ExprKind::Field(_, f) if f == "mass") => {
                Some(r)
            }
            _ => None,
        })
        .unwrap();
    let mut callees = Vec::new();
    collect_calls(mass, &mut callees);
    assert_eq!(callees, vec!["classify", "loops"]);
}

fn collect_calls(e: &ast::Expr, out: &mut Vec<&'static str>) {
    match &e.kind {
        ExprKind::Call { callee, args, .. } => {
            if let Callable::Device(d) = (callee.resolve)() {
                out.push(d.name);
            }
            args.iter().for_each(|a| collect_calls(a, out));
        }
        ExprKind::Binary(_, l, r) => {
            collect_calls(l, out);
            collect_calls(r, out);
        }
        ExprKind::Cast(x, _) => collect_calls(x, out),
        _ => {}
    }
}

#[test]
fn device_copy_types() {
    use ferrocuda::__private::{DeviceCopy, DeviceType};
    assert!(matches!(Particle::ast_type(), Type::Struct(s) if s.name == "Particle"));
    assert_eq!(Pair::struct_def().fields.len(), 2);
    assert!(matches!(
        Pair::struct_def().fields[0].1,
        Type::Int(IntTy::U32)
    ));
}

/// A stand-in device buffer: the launchers must accept anything implementing the slice traits.
struct FakeBuf(u64);

// SAFETY: never launched (see `launchers_type_check`); `launch_arg` refuses every stream.
unsafe impl<T> ferrocuda::host_runtime::KernelSlice<T> for FakeBuf {
    fn kernel_arg(&self) -> ferrocuda::host_runtime::SliceArg {
        ferrocuda::host_runtime::SliceArg {
            ptr: self.0,
            len: 1,
        }
    }
    fn launch_arg(
        &self,
        _: &Stream,
    ) -> ferrocuda::host_runtime::Result<ferrocuda::host_runtime::SliceArg> {
        Err(ferrocuda::host_runtime::Error::WrongDevice)
    }
}

// SAFETY: as above.
unsafe impl<T> ferrocuda::host_runtime::KernelSliceMut<T> for FakeBuf {
    fn kernel_arg_mut(&mut self) -> ferrocuda::host_runtime::SliceArg {
        ferrocuda::host_runtime::SliceArg {
            ptr: self.0,
            len: 1,
        }
    }
    fn launch_arg_mut(
        &mut self,
        _: &Stream,
    ) -> ferrocuda::host_runtime::Result<ferrocuda::host_runtime::SliceArg> {
        Err(ferrocuda::host_runtime::Error::WrongDevice)
    }
}

/// Type-checks the generated launchers' signatures (inference and turbofish); never called since a
/// `Stream` needs a device.
#[allow(dead_code)]
fn launchers_type_check(
    stream: &Stream,
    x: &FakeBuf,
    y: &mut FakeBuf,
) -> ferrocuda::host_runtime::Result<()> {
    let p = Particle {
        pos: [0.0; 3],
        mass: 1.0,
    };
    saxpy::launch(stream, LaunchConfig::for_elements(10, 128), 2.0, x, y)?;
    transpose::launch::<16>(stream, LaunchConfig::for_elements(10, 128), y, x, 4, 4)?;
    generic_scale::launch::<f32, 4>(stream, LaunchConfig::for_elements(10, 128), y, 2.0)?;
    generic_scale::launch::<_, 8>(stream, LaunchConfig::for_elements(10, 128), y, 2.0f64)?;
    particles::launch(stream, LaunchConfig::for_elements(10, 128), y, x, p)
}
