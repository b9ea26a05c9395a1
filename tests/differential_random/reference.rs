//! The host reference: evaluates a generated kernel's AST with Rust's own operators and semantics
//! (`wrapping_*` methods, `as` casts, IEEE f32/f64 and the `half` crate's f16/bf16), independently
//! of the compiler.
//!
//! Threads of a block run one top-level statement at a time, in thread order; the generator only
//! writes race-free programs (own output slots, shared memory read only in phases nobody writes
//! it, commutative atomics), so this order gives the result of every interleaving. Barriers are
//! then no-ops, and each warp collective (at top level only) sees the arguments of its whole
//! warp: it is evaluated once all threads of the block computed them. A panicking thread stops;
//! the others run on, so the report lists every thread that panics.

use std::collections::HashMap;

use ferrocuda::kernel_ir::ast::*;
use ferrocuda::kernel_ir::ir::PanicKind;
use half::{bf16, f16};

use crate::gen::Case;
use crate::syntax::{int_range, Sc};
use crate::value::{bf16_from_f64, f16_from_f64, fmax, fmin, sc_of, V};

/// A thread's panic: what, where (the AST node's span) and its detail values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefPanic {
    pub kind: PanicKind,
    pub line: u32,
    pub col: u32,
    pub block: u32,
    pub thread: u32,
    pub a: u64,
    pub b: u64,
}

pub enum RefOutcome {
    /// Every parameter's bytes after the launch.
    Done(Vec<Vec<u8>>),
    /// Panics of all threads, in block then thread order.
    Panicked(Vec<RefPanic>),
}

#[derive(Clone, Debug)]
enum Val {
    S(V),
    Arr(Vec<V>),
    Tup(Vec<V>),
    /// Parameter slice `i`.
    Buf(usize),
    /// Shared allocation `i` of the current block.
    Shared(usize),
}

impl Val {
    fn s(&self) -> V {
        match self {
            Val::S(v) => *v,
            other => panic!("{other:?} is not a scalar"),
        }
    }
}

enum Flow {
    Break(Option<String>, Option<V>),
    Continue(Option<String>),
    Panic(PanicKind, Span, u64, u64),
}

type R<T> = Result<T, Flow>;

/// Where an assignment or atomic goes.
#[derive(Clone, Copy, Debug)]
enum Place {
    /// Environment slot, and an element if it holds an array.
    Local(usize, Option<usize>),
    Buf(usize, usize),
    Shared(usize, usize),
}

struct Machine<'c> {
    case: &'c Case,
    bufs: Vec<Vec<V>>,
    elems: Vec<Sc>,
    shared: Vec<Vec<V>>,
    shared_ids: HashMap<usize, usize>,
    block: u32,
}

#[derive(Clone)]
struct Thread {
    x: u32,
    env: Vec<(String, Val)>,
    dead: bool,
}

pub fn run(case: &Case) -> RefOutcome {
    let mut m = Machine {
        case,
        bufs: vec![],
        elems: vec![],
        shared: vec![],
        shared_ids: HashMap::new(),
        block: 0,
    };
    for (p, init) in case.params.iter().zip(&case.init) {
        let size = elem_size(p.elem);
        m.bufs
            .push(init.chunks(size).map(|c| V::from_le(p.elem, c)).collect());
        m.elems.push(p.elem);
    }
    let mut panics = Vec::new();
    for block in 0..case.grid {
        m.block = block;
        m.shared.clear();
        m.shared_ids.clear();
        let mut threads: Vec<Thread> = (0..case.block)
            .map(|x| Thread {
                x,
                env: case
                    .def
                    .params
                    .iter()
                    .enumerate()
                    .map(|(i, p)| (p.name.clone(), Val::Buf(i)))
                    .collect(),
                dead: false,
            })
            .collect();
        for s in &case.def.body.stmts {
            if let Some(c) = collective(s) {
                m.collective(s, c, &mut threads);
                continue;
            }
            for t in threads.iter_mut().filter(|t| !t.dead) {
                let mut ex = Exec { m: &mut m, t };
                match ex.stmt(s) {
                    Ok(()) => {}
                    Err(Flow::Panic(kind, sp, a, b)) => {
                        panics.push(RefPanic {
                            kind,
                            line: sp.line,
                            col: sp.col,
                            block,
                            thread: t.x,
                            a,
                            b,
                        });
                        t.dead = true;
                    }
                    Err(_) => panic!("break or continue outside a loop"),
                }
            }
        }
    }
    if !panics.is_empty() {
        return RefOutcome::Panicked(panics);
    }
    RefOutcome::Done(
        m.bufs
            .iter()
            .map(|b| {
                let mut out = Vec::new();
                for v in b {
                    v.to_le(&mut out);
                }
                out
            })
            .collect(),
    )
}

pub fn elem_size(t: Sc) -> usize {
    match t {
        Sc::Bool => 1,
        Sc::I(i) => (crate::syntax::bits(i) / 8) as usize,
        Sc::F(FloatTy::F16 | FloatTy::BF16) => 2,
        Sc::F(FloatTy::F32) => 4,
        Sc::F(FloatTy::F64) => 8,
    }
}

const COLLECTIVES: [&str; 20] = [
    "sync_threads",
    "sync_threads_count",
    "sync_threads_and",
    "sync_threads_or",
    "sync_warp",
    "all_sync",
    "any_sync",
    "ballot_sync",
    "shfl_sync",
    "shfl_up_sync",
    "shfl_down_sync",
    "shfl_xor_sync",
    "match_any_sync",
    "match_all_sync",
    "reduce_add_sync",
    "reduce_min_sync",
    "reduce_max_sync",
    "reduce_and_sync",
    "reduce_or_sync",
    "reduce_xor_sync",
];

fn is_collective(name: &str) -> bool {
    COLLECTIVES.contains(&name)
}

/// The collective call of a top-level statement, if it is one.
fn collective(s: &Stmt) -> Option<&Expr> {
    let x = match s {
        Stmt::Let { init: Some(x), .. } => x,
        Stmt::Expr(x) => x,
        _ => return None,
    };
    match &x.kind {
        ExprKind::Call { callee, .. } if is_collective(callee.path) => Some(x),
        _ => None,
    }
}

impl Machine<'_> {
    fn collective(&mut self, s: &Stmt, call: &Expr, threads: &mut [Thread]) {
        let ExprKind::Call { callee, args, .. } = &call.kind else {
            unreachable!()
        };
        let name = callee.path;
        // Arguments of every thread first, as the warp or block meets at the call.
        let mut argv: Vec<Vec<V>> = Vec::new();
        for t in threads.iter_mut() {
            assert!(!t.dead, "a collective after a panic is not generated");
            let mut ex = Exec { m: self, t };
            let vals: Vec<V> = args
                .iter()
                .map(|a| match ex.expr(a) {
                    Ok(v) => v.s(),
                    Err(_) => panic!("a collective's argument panicked or jumped"),
                })
                .collect();
            argv.push(vals);
        }
        let n = threads.len();
        let results: Vec<Val> = match name {
            "sync_threads" | "sync_warp" => vec![Val::S(V::Unit); n],
            "sync_threads_count" => {
                let c = argv.iter().filter(|a| a[0].as_bool()).count() as u32;
                vec![Val::S(V::U32(c)); n]
            }
            "sync_threads_and" => {
                let r = argv.iter().all(|a| a[0].as_bool());
                vec![Val::S(V::Bool(r)); n]
            }
            "sync_threads_or" => {
                let r = argv.iter().any(|a| a[0].as_bool());
                vec![Val::S(V::Bool(r)); n]
            }
            _ => {
                let mut out = Vec::with_capacity(n);
                for w in 0..n / 32 {
                    out.extend(warp_collective(name, &argv[w * 32..w * 32 + 32]));
                }
                out
            }
        };
        for (t, r) in threads.iter_mut().zip(results) {
            if let Stmt::Let { pat, .. } = s {
                bind(&mut t.env, pat, r);
            }
        }
    }
}

/// One warp's results of a warp collective, lane by lane (all 32 lanes take part).
fn warp_collective(name: &str, argv: &[Vec<V>]) -> Vec<Val> {
    assert!(
        argv.iter().all(|a| a[0] == V::U32(u32::MAX)),
        "warp collectives are generated with the full mask"
    );
    let lanes = 0..32usize;
    let preds = || argv.iter().map(|a| a[1].as_bool());
    match name {
        "all_sync" => vec![Val::S(V::Bool(preds().all(|p| p))); 32],
        "any_sync" => vec![Val::S(V::Bool(preds().any(|p| p))); 32],
        "ballot_sync" => {
            let m = preds()
                .enumerate()
                .fold(0u32, |m, (i, p)| m | ((p as u32) << i));
            vec![Val::S(V::U32(m)); 32]
        }
        "shfl_sync" | "shfl_up_sync" | "shfl_down_sync" | "shfl_xor_sync" => lanes
            .map(|lane| {
                let b = argv[lane][2].as_i128() as i64 & 31;
                let width = argv[lane][3].as_i128() as i64;
                let src = shuffle_source(name, lane as i64, b, width);
                Val::S(argv[src][1])
            })
            .collect(),
        "match_any_sync" => lanes
            .map(|lane| {
                let v = argv[lane][1];
                let m = (0..32).fold(0u32, |m, j| m | (((argv[j][1] == v) as u32) << j));
                Val::S(V::U32(m))
            })
            .collect(),
        "match_all_sync" => {
            let same = argv.iter().all(|a| a[1] == argv[0][1]);
            let r = if same {
                Val::Tup(vec![V::U32(u32::MAX), V::Bool(true)])
            } else {
                Val::Tup(vec![V::U32(0), V::Bool(false)])
            };
            vec![r; 32]
        }
        _ => {
            let vals: Vec<i128> = argv.iter().map(|a| a[1].as_i128()).collect();
            let t = argv[0][1].sc();
            let Sc::I(it) = t else {
                panic!("{name} of {t:?}")
            };
            let r = match name {
                "reduce_add_sync" => vals.iter().sum::<i128>(),
                "reduce_min_sync" => *vals.iter().min().unwrap(),
                "reduce_max_sync" => *vals.iter().max().unwrap(),
                "reduce_and_sync" => vals.iter().fold(-1, |a, b| a & b),
                "reduce_or_sync" => vals.iter().fold(0, |a, b| a | b),
                "reduce_xor_sync" => vals.iter().fold(0, |a, b| a ^ b),
                _ => panic!("unknown collective {name}"),
            };
            vec![Val::S(V::int(r, it)); 32]
        }
    }
}

/// The lane a shuffle reads, by PTX's `shfl.sync` definition with the `c` operand CUDA's
/// `__shfl*_sync(mask, v, b, width)` passes: `((32 - width) << 8) | clamp`, clamp 0 for `up` and
/// 31 otherwise. Out-of-segment sources read the lane's own value.
fn shuffle_source(name: &str, lane: i64, b: i64, width: i64) -> usize {
    let seg_mask = (32 - width) & 31;
    let clamp = if name == "shfl_up_sync" { 0 } else { 31 };
    let max_lane = (lane & seg_mask) | (clamp & !seg_mask);
    let min_lane = lane & seg_mask;
    let (j, ok) = match name {
        "shfl_up_sync" => {
            let j = lane - b;
            (j, j >= max_lane)
        }
        "shfl_down_sync" => {
            let j = lane + b;
            (j, j <= max_lane)
        }
        "shfl_xor_sync" => {
            let j = lane ^ b;
            (j, j <= max_lane)
        }
        _ => {
            let j = min_lane | (b & !seg_mask & 31);
            (j, j <= max_lane)
        }
    };
    if ok {
        j as usize
    } else {
        lane as usize
    }
}

fn bind(env: &mut Vec<(String, Val)>, pat: &Pat, v: Val) {
    match pat {
        Pat::Ident { name, .. } => env.push((name.clone(), v)),
        Pat::Wild => {}
        Pat::Tuple(ps) => {
            let Val::Tup(vs) = v else {
                panic!("tuple pattern on {v:?}")
            };
            for (p, x) in ps.iter().zip(vs) {
                bind(env, p, Val::S(x));
            }
        }
        other => panic!("pattern {other:?} in a binding"),
    }
}

struct Exec<'a, 'c> {
    m: &'a mut Machine<'c>,
    t: &'a mut Thread,
}

fn panic_at<T>(kind: PanicKind, sp: Span, a: u64, b: u64) -> R<T> {
    Err(Flow::Panic(kind, sp, a, b))
}

impl Exec<'_, '_> {
    fn lookup(&self, name: &str) -> usize {
        self.t
            .env
            .iter()
            .rposition(|(n, _)| n == name)
            .unwrap_or_else(|| panic!("no variable `{name}`"))
    }

    fn stmt(&mut self, s: &Stmt) -> R<()> {
        match s {
            Stmt::Let { pat, init, .. } => {
                let v = self.expr(init.as_ref().expect("let without a value"))?;
                bind(&mut self.t.env, pat, v);
                Ok(())
            }
            Stmt::Expr(x) => self.expr(x).map(|_| ()),
        }
    }

    fn block(&mut self, b: &Block) -> R<Val> {
        let mark = self.t.env.len();
        let r = (|| {
            for s in &b.stmts {
                self.stmt(s)?;
            }
            match &b.tail {
                Some(t) => self.expr(t),
                None => Ok(Val::S(V::Unit)),
            }
        })();
        self.t.env.truncate(mark);
        r
    }

    fn scalar(&mut self, e: &Expr) -> R<V> {
        Ok(self.expr(e)?.s())
    }

    fn expr(&mut self, e: &Expr) -> R<Val> {
        let sp = e.span;
        Ok(Val::S(match &e.kind {
            ExprKind::Lit(Lit::Int(v, Some(t))) => V::int(*v as i128, *t),
            ExprKind::Lit(Lit::Float(v, Some(t))) => V::float(*v, *t),
            ExprKind::Lit(Lit::Bool(b)) => V::Bool(*b),
            ExprKind::Lit(l) => panic!("unsuffixed literal {l:?}"),
            ExprKind::Local(n) => {
                let i = self.lookup(n);
                return Ok(self.t.env[i].1.clone());
            }
            ExprKind::AssocConst { ty, name } => match (sc_of(ty), name.as_str()) {
                (Sc::I(t), "MIN") => V::int(int_range(t).0, t),
                (Sc::I(t), "MAX") => V::int(int_range(t).1, t),
                (Sc::F(t), "NAN") => V::float(f64::NAN, t),
                (Sc::F(t), "INFINITY") => V::float(f64::INFINITY, t),
                (Sc::F(t), "NEG_INFINITY") => V::float(f64::NEG_INFINITY, t),
                other => panic!("constant {other:?}"),
            },
            ExprKind::Unary(op, x) => {
                let v = self.scalar(x)?;
                unary(*op, v)
            }
            ExprKind::Binary(BinOp::And, l, r) => {
                V::Bool(self.scalar(l)?.as_bool() && self.scalar(r)?.as_bool())
            }
            ExprKind::Binary(BinOp::Or, l, r) => {
                V::Bool(self.scalar(l)?.as_bool() || self.scalar(r)?.as_bool())
            }
            ExprKind::Binary(op, l, r) => {
                let a = self.scalar(l)?;
                let b = self.scalar(r)?;
                binary(*op, a, b, sp)?
            }
            ExprKind::Assign(p, x) => {
                let v = self.scalar(x)?;
                let place = self.place(p)?;
                self.store(place, v);
                V::Unit
            }
            ExprKind::AssignOp(op, p, x) => {
                let v = self.scalar(x)?;
                let place = self.place(p)?;
                let old = self.load(place);
                let new = binary(*op, old, v, sp)?;
                self.store(place, new);
                V::Unit
            }
            ExprKind::Cast(x, t) => self.scalar(x)?.cast(sc_of(t)),
            ExprKind::Index(..) => {
                let p = self.place(e)?;
                self.load(p)
            }
            ExprKind::Field(x, f) => match (self.scalar(x)?, f.as_str()) {
                (V::Dim3(d), "x") => V::U32(d[0]),
                (V::Dim3(d), "y") => V::U32(d[1]),
                (V::Dim3(d), "z") => V::U32(d[2]),
                other => panic!("field {other:?}"),
            },
            ExprKind::Call { callee, args, .. } => return self.call(e, callee.path, args),
            ExprKind::AssocCall { ty, method, args } => {
                let a = self.scalar(&args[0])?;
                match (sc_of(ty), method.as_str(), a) {
                    (Sc::F(FloatTy::F16), "from_f32", V::F32(x)) => V::F16(f16::from_f32(x)),
                    (Sc::F(FloatTy::F16), "from_f64", V::F64(x)) => V::F16(f16_from_f64(x)),
                    (Sc::F(FloatTy::BF16), "from_f32", V::F32(x)) => V::BF16(bf16::from_f32(x)),
                    (Sc::F(FloatTy::BF16), "from_f64", V::F64(x)) => V::BF16(bf16_from_f64(x)),
                    (Sc::F(FloatTy::F32), "from_bits", V::U32(x)) => V::F32(f32::from_bits(x)),
                    (Sc::F(FloatTy::F64), "from_bits", V::U64(x)) => V::F64(f64::from_bits(x)),
                    other => panic!("associated call {other:?}"),
                }
            }
            ExprKind::MethodCall {
                receiver,
                method,
                args,
                ..
            } => {
                let x = self.scalar(receiver)?;
                let mut a = Vec::with_capacity(args.len());
                for arg in args {
                    a.push(self.scalar(arg)?);
                }
                scalar_method(x, method, &a, sp)?
            }
            ExprKind::Array(xs) => {
                let mut v = Vec::with_capacity(xs.len());
                for x in xs {
                    v.push(self.scalar(x)?);
                }
                return Ok(Val::Arr(v));
            }
            ExprKind::ArrayRepeat(x, n) => {
                let v = self.scalar(x)?;
                let n = self.scalar(n)?.as_i128() as usize;
                return Ok(Val::Arr(vec![v; n]));
            }
            ExprKind::Block(b) => return self.block(b),
            ExprKind::If { cond, then, els } => {
                if self.scalar(cond)?.as_bool() {
                    return self.block(then);
                }
                return match els {
                    Some(x) => self.expr(x),
                    None => Ok(Val::S(V::Unit)),
                };
            }
            ExprKind::Match { scrutinee, arms } => {
                let s = self.scalar(scrutinee)?;
                for arm in arms {
                    if !pat_matches(&arm.pat, s) {
                        continue;
                    }
                    if let Some(g) = &arm.guard {
                        if !self.scalar(g)?.as_bool() {
                            continue;
                        }
                    }
                    return self.expr(&arm.body);
                }
                panic!("no arm matched {s:?}")
            }
            ExprKind::While { label, cond, body } => {
                while self.scalar(cond)?.as_bool() {
                    match self.block(body) {
                        Ok(_) => {}
                        Err(f) => match targets(f, label) {
                            Ok(None) => {}
                            Ok(Some(_)) => break,
                            Err(f) => return Err(f),
                        },
                    }
                }
                V::Unit
            }
            ExprKind::Loop { label, body } => loop {
                match self.block(body) {
                    Ok(_) => {}
                    Err(f) => match targets(f, label) {
                        Ok(None) => {}
                        Ok(Some(v)) => break v.unwrap_or(V::Unit),
                        Err(f) => return Err(f),
                    },
                }
            },
            ExprKind::For {
                label,
                pat,
                iter,
                body,
                ..
            } => {
                let Pat::Ident { name, .. } = pat else {
                    panic!("for pattern {pat:?}")
                };
                for v in self.range_values(iter)? {
                    let mark = self.t.env.len();
                    self.t.env.push((name.clone(), Val::S(v)));
                    let r = self.block(body);
                    self.t.env.truncate(mark);
                    match r {
                        Ok(_) => {}
                        Err(f) => match targets(f, label) {
                            Ok(None) => {}
                            Ok(Some(_)) => break,
                            Err(f) => return Err(f),
                        },
                    }
                }
                V::Unit
            }
            ExprKind::Break { label, value } => {
                let v = match value {
                    Some(x) => Some(self.scalar(x)?),
                    None => None,
                };
                return Err(Flow::Break(label.clone(), v));
            }
            ExprKind::Continue { label } => return Err(Flow::Continue(label.clone())),
            other => panic!("expression {other:?} is not generated"),
        }))
    }

    /// The values a `for` loop's iterator yields: a range, then `.rev()` / `.step_by(k)`.
    fn range_values(&mut self, it: &Expr) -> R<Vec<V>> {
        match &it.kind {
            ExprKind::Range {
                start: Some(lo),
                end: Some(hi),
                inclusive,
            } => {
                let lo = self.scalar(lo)?;
                let hi = self.scalar(hi)?;
                let t = lo.sc();
                let Sc::I(it) = t else {
                    panic!("range over {t:?}")
                };
                let (a, mut b) = (lo.as_i128(), hi.as_i128());
                if *inclusive {
                    b += 1;
                }
                Ok((a..b.max(a)).map(|v| V::int(v, it)).collect())
            }
            ExprKind::MethodCall {
                receiver,
                method,
                args,
                ..
            } => {
                let mut v = self.range_values(receiver)?;
                match method.as_str() {
                    "rev" => v.reverse(),
                    "step_by" => {
                        let k = self.scalar(&args[0])?.as_i128() as usize;
                        v = v.into_iter().step_by(k).collect();
                    }
                    m => panic!("iterator method {m}"),
                }
                Ok(v)
            }
            other => panic!("for over {other:?}"),
        }
    }

    fn place(&mut self, e: &Expr) -> R<Place> {
        match &e.kind {
            ExprKind::Local(n) => Ok(Place::Local(self.lookup(n), None)),
            ExprKind::Index(base, idx) => {
                let i = self.scalar(idx)?.as_i128();
                let ExprKind::Local(n) = &base.kind else {
                    panic!("index of {base:?}")
                };
                let slot = self.lookup(n);
                let (len, place) = match &self.t.env[slot].1 {
                    Val::Arr(a) => (a.len(), Place::Local(slot, Some(0))),
                    Val::Buf(b) => (self.m.bufs[*b].len(), Place::Buf(*b, 0)),
                    Val::Shared(s) => (self.m.shared[*s].len(), Place::Shared(*s, 0)),
                    other => panic!("index of {other:?}"),
                };
                if i < 0 || i as usize >= len {
                    return panic_at(PanicKind::Bounds, e.span, i as u64, len as u64);
                }
                let i = i as usize;
                Ok(match place {
                    Place::Local(s, _) => Place::Local(s, Some(i)),
                    Place::Buf(b, _) => Place::Buf(b, i),
                    Place::Shared(s, _) => Place::Shared(s, i),
                })
            }
            other => panic!("place {other:?}"),
        }
    }

    fn load(&self, p: Place) -> V {
        let v = match p {
            Place::Local(s, None) => self.t.env[s].1.s(),
            Place::Local(s, Some(i)) => match &self.t.env[s].1 {
                Val::Arr(a) => a[i],
                other => panic!("element of {other:?}"),
            },
            Place::Buf(b, i) => self.m.bufs[b][i],
            Place::Shared(s, i) => self.m.shared[s][i],
        };
        assert!(v != V::Uninit, "read of unwritten shared memory");
        v
    }

    fn store(&mut self, p: Place, v: V) {
        match p {
            Place::Local(s, None) => self.t.env[s].1 = Val::S(v),
            Place::Local(s, Some(i)) => match &mut self.t.env[s].1 {
                Val::Arr(a) => a[i] = v,
                other => panic!("element of {other:?}"),
            },
            Place::Buf(b, i) => {
                assert_eq!(v.sc(), self.m.elems[b], "store of the wrong type");
                self.m.bufs[b][i] = v
            }
            Place::Shared(s, i) => self.m.shared[s][i] = v,
        }
    }

    fn call(&mut self, e: &Expr, name: &str, args: &[Expr]) -> R<Val> {
        let case = self.m.case;
        let v = match name {
            "thread_idx" => V::Dim3([self.t.x, 0, 0]),
            "block_idx" => V::Dim3([self.m.block, 0, 0]),
            "block_dim" => V::Dim3([case.block, 1, 1]),
            "grid_dim" => V::Dim3([case.grid, 1, 1]),
            "lane_id" => V::U32(self.t.x % 32),
            "warp_size" => V::U32(32),
            "shared_array" => {
                let ExprKind::Call { generic_args, .. } = &e.kind else {
                    unreachable!()
                };
                let Some(GenericArg::Type(Type::Array(_, n))) = generic_args.first() else {
                    panic!("shared_array without an array type")
                };
                let ExprKind::Lit(Lit::Int(len, _)) = n.kind else {
                    panic!("shared array length")
                };
                // One allocation per call site and block, as CUDA's `__shared__`.
                let key = e as *const Expr as usize;
                let next = self.m.shared.len();
                let id = *self.m.shared_ids.entry(key).or_insert(next);
                if id == next {
                    self.m.shared.push(vec![V::Uninit; len as usize]);
                }
                return Ok(Val::Shared(id));
            }
            n if n.starts_with("atomic_") => {
                let ExprKind::Ref(_, target) = &args[0].kind else {
                    panic!("atomic on {:?}", args[0])
                };
                // Arguments in order: the place (and its bounds check) first.
                let place = self.place(target)?;
                let mut a = Vec::new();
                for x in &args[1..] {
                    a.push(self.scalar(x)?);
                }
                let old = self.load(place);
                let new = atomic(n, old, &a);
                self.store(place, new);
                old
            }
            other => panic!("call of `{other}` outside the top level"),
        };
        Ok(Val::S(v))
    }
}

/// Whether a loop labelled `label` handles a break or continue: `Ok(None)` continue with the next
/// iteration, `Ok(Some(v))` leave with `v`, `Err` for an enclosing loop (or a panic).
#[allow(clippy::type_complexity)]
fn targets(f: Flow, label: &Option<String>) -> Result<Option<Option<V>>, Flow> {
    let ours = |l: &Option<String>| l.is_none() || l == label;
    match f {
        Flow::Break(l, v) if ours(&l) => Ok(Some(v)),
        Flow::Continue(l) if ours(&l) => Ok(None),
        f => Err(f),
    }
}

fn pat_matches(p: &Pat, v: V) -> bool {
    let x = v.as_i128();
    let lit = |p: &Pat| match p {
        Pat::Lit(Lit::Int(n, _)) => *n as i128,
        other => panic!("pattern bound {other:?}"),
    };
    match p {
        Pat::Wild => true,
        Pat::Lit(_) => lit(p) == x,
        Pat::Or(ps) => ps.iter().any(|q| pat_matches(q, v)),
        Pat::Range {
            start: Some(a),
            end: Some(b),
            inclusive,
        } => {
            let (a, b) = (lit(a), lit(b));
            a <= x && (if *inclusive { x <= b } else { x < b })
        }
        other => panic!("pattern {other:?}"),
    }
}

fn atomic(name: &str, old: V, a: &[V]) -> V {
    macro_rules! int_atomic {
        ($o:expr, $c:ident) => {{
            let o = $o;
            let v = match a[0] {
                V::$c(v) => v,
                ref x => panic!("atomic operand {x:?}"),
            };
            V::$c(match name {
                "atomic_add" => o.wrapping_add(v),
                "atomic_sub" => o.wrapping_sub(v),
                "atomic_and" => o & v,
                "atomic_or" => o | v,
                "atomic_xor" => o ^ v,
                "atomic_min" => o.min(v),
                "atomic_max" => o.max(v),
                "atomic_exch" => v,
                "atomic_cas" => {
                    let w = match a[1] {
                        V::$c(w) => w,
                        ref x => panic!("atomic operand {x:?}"),
                    };
                    if o == v {
                        w
                    } else {
                        o
                    }
                }
                other => panic!("{other} on {}", stringify!($c)),
            })
        }};
    }
    macro_rules! float_atomic {
        ($o:expr, $c:ident) => {{
            let o = $o;
            let v = match a[0] {
                V::$c(v) => v,
                ref x => panic!("atomic operand {x:?}"),
            };
            V::$c(match name {
                "atomic_add" => o + v,
                "atomic_min" => fmin(o, v),
                "atomic_max" => fmax(o, v),
                "atomic_exch" => v,
                other => panic!("{other} on {}", stringify!($c)),
            })
        }};
    }
    match (name, old) {
        ("atomic_inc", V::U32(o)) => {
            let l = a[0].as_i128() as u32;
            V::U32(if o >= l { 0 } else { o + 1 })
        }
        ("atomic_dec", V::U32(o)) => {
            let l = a[0].as_i128() as u32;
            V::U32(if o == 0 || o > l { l } else { o - 1 })
        }
        (_, V::U32(o)) => int_atomic!(o, U32),
        (_, V::I32(o)) => int_atomic!(o, I32),
        (_, V::U64(o)) => int_atomic!(o, U64),
        (_, V::I64(o)) => int_atomic!(o, I64),
        (_, V::F32(o)) => float_atomic!(o, F32),
        (_, V::F64(o)) => float_atomic!(o, F64),
        other => panic!("atomic {other:?}"),
    }
}

fn unary(op: UnOp, v: V) -> V {
    macro_rules! neg_int {
        ($x:expr, $c:ident) => {
            V::$c(
                $x.checked_neg()
                    .expect("the generator negates only what fits"),
            )
        };
    }
    match (op, v) {
        (UnOp::Not, V::Bool(b)) => V::Bool(!b),
        (UnOp::Not, V::I8(x)) => V::I8(!x),
        (UnOp::Not, V::I16(x)) => V::I16(!x),
        (UnOp::Not, V::I32(x)) => V::I32(!x),
        (UnOp::Not, V::I64(x)) => V::I64(!x),
        (UnOp::Not, V::Isize(x)) => V::Isize(!x),
        (UnOp::Not, V::U8(x)) => V::U8(!x),
        (UnOp::Not, V::U16(x)) => V::U16(!x),
        (UnOp::Not, V::U32(x)) => V::U32(!x),
        (UnOp::Not, V::U64(x)) => V::U64(!x),
        (UnOp::Not, V::Usize(x)) => V::Usize(!x),
        (UnOp::Neg, V::I8(x)) => neg_int!(x, I8),
        (UnOp::Neg, V::I16(x)) => neg_int!(x, I16),
        (UnOp::Neg, V::I32(x)) => neg_int!(x, I32),
        (UnOp::Neg, V::I64(x)) => neg_int!(x, I64),
        (UnOp::Neg, V::Isize(x)) => neg_int!(x, Isize),
        (UnOp::Neg, V::F16(x)) => V::F16(-x),
        (UnOp::Neg, V::BF16(x)) => V::BF16(-x),
        (UnOp::Neg, V::F32(x)) => V::F32(-x),
        (UnOp::Neg, V::F64(x)) => V::F64(-x),
        other => panic!("unary {other:?}"),
    }
}

fn cmp<T: PartialOrd>(op: BinOp, a: T, b: T) -> Option<V> {
    Some(V::Bool(match op {
        BinOp::Eq => a == b,
        BinOp::Ne => a != b,
        BinOp::Lt => a < b,
        BinOp::Le => a <= b,
        BinOp::Gt => a > b,
        BinOp::Ge => a >= b,
        _ => return None,
    }))
}

fn binary(op: BinOp, a: V, b: V, sp: Span) -> R<V> {
    if matches!(op, BinOp::Shl | BinOp::Shr) {
        return Ok(shift(op, a, b.as_i128()));
    }
    macro_rules! int_bin {
        ($x:expr, $y:expr, $c:ident, $t:ty) => {{
            let (x, y): ($t, $t) = ($x, $y);
            if let Some(v) = cmp(op, x, y) {
                return Ok(v);
            }
            V::$c(match op {
                // Plain `+ - *` appear only where they cannot overflow (index math, counters).
                BinOp::Add => x.checked_add(y).expect("generated `+` overflowed"),
                BinOp::Sub => x.checked_sub(y).expect("generated `-` overflowed"),
                BinOp::Mul => x.checked_mul(y).expect("generated `*` overflowed"),
                BinOp::Div | BinOp::Rem => {
                    if y == 0 {
                        // Rust's words: `/` divides, `%` calculates a remainder.
                        let kind = if op == BinOp::Div {
                            PanicKind::DivByZero
                        } else {
                            PanicKind::RemByZero
                        };
                        return panic_at(kind, sp, 0, 0);
                    }
                    let r = if op == BinOp::Div {
                        x.checked_div(y)
                    } else {
                        x.checked_rem(y)
                    };
                    match r {
                        Some(r) => r,
                        None if op == BinOp::Div => {
                            return panic_at(PanicKind::DivOverflow, sp, 0, 0)
                        }
                        None => return panic_at(PanicKind::RemOverflow, sp, 0, 0),
                    }
                }
                BinOp::BitAnd => x & y,
                BinOp::BitOr => x | y,
                BinOp::BitXor => x ^ y,
                other => panic!("{other:?} on {}", stringify!($t)),
            })
        }};
    }
    macro_rules! float_bin {
        ($x:expr, $y:expr, $c:ident) => {{
            let (x, y) = ($x, $y);
            if let Some(v) = cmp(op, x, y) {
                return Ok(v);
            }
            V::$c(match op {
                BinOp::Add => x + y,
                BinOp::Sub => x - y,
                BinOp::Mul => x * y,
                BinOp::Div => x / y,
                BinOp::Rem => x % y,
                other => panic!("{other:?} on floats"),
            })
        }};
    }
    Ok(match (a, b) {
        (V::I8(x), V::I8(y)) => int_bin!(x, y, I8, i8),
        (V::I16(x), V::I16(y)) => int_bin!(x, y, I16, i16),
        (V::I32(x), V::I32(y)) => int_bin!(x, y, I32, i32),
        (V::I64(x), V::I64(y)) => int_bin!(x, y, I64, i64),
        (V::Isize(x), V::Isize(y)) => int_bin!(x, y, Isize, isize),
        (V::U8(x), V::U8(y)) => int_bin!(x, y, U8, u8),
        (V::U16(x), V::U16(y)) => int_bin!(x, y, U16, u16),
        (V::U32(x), V::U32(y)) => int_bin!(x, y, U32, u32),
        (V::U64(x), V::U64(y)) => int_bin!(x, y, U64, u64),
        (V::Usize(x), V::Usize(y)) => int_bin!(x, y, Usize, usize),
        (V::F16(x), V::F16(y)) => float_bin!(x, y, F16),
        (V::BF16(x), V::BF16(y)) => float_bin!(x, y, BF16),
        (V::F32(x), V::F32(y)) => float_bin!(x, y, F32),
        (V::F64(x), V::F64(y)) => float_bin!(x, y, F64),
        (V::Bool(x), V::Bool(y)) => match op {
            BinOp::BitAnd => V::Bool(x & y),
            BinOp::BitOr => V::Bool(x | y),
            BinOp::BitXor => V::Bool(x ^ y),
            _ => cmp(op, x, y).unwrap_or_else(|| panic!("{op:?} on bools")),
        },
        other => panic!("{op:?} on {other:?}"),
    })
}

fn shift(op: BinOp, a: V, amount: i128) -> V {
    let n = amount as u32;
    macro_rules! sh {
        ($x:expr, $c:ident) => {{
            let x = $x;
            V::$c(if op == BinOp::Shl {
                x.checked_shl(n)
                    .expect("generated shift amount out of range")
            } else {
                x.checked_shr(n)
                    .expect("generated shift amount out of range")
            })
        }};
    }
    match a {
        V::I8(x) => sh!(x, I8),
        V::I16(x) => sh!(x, I16),
        V::I32(x) => sh!(x, I32),
        V::I64(x) => sh!(x, I64),
        V::Isize(x) => sh!(x, Isize),
        V::U8(x) => sh!(x, U8),
        V::U16(x) => sh!(x, U16),
        V::U32(x) => sh!(x, U32),
        V::U64(x) => sh!(x, U64),
        V::Usize(x) => sh!(x, Usize),
        other => panic!("shift of {other:?}"),
    }
}

fn scalar_method(x: V, m: &str, a: &[V], sp: Span) -> R<V> {
    macro_rules! common {
        ($x:ident, $arg:ident, $c:ident, $uc:ident, $t:ty, { $($extra:tt)* }) => {{
            let $x: $t = $x;
            let $arg = |i: usize| -> $t {
                match a[i] {
                    V::$c(y) => y,
                    ref o => panic!("argument {o:?} of `{m}` on {}", stringify!($t)),
                }
            };
            let amount = |i: usize| -> u32 {
                match a[i] {
                    V::U32(y) => y,
                    ref o => panic!("amount {o:?}"),
                }
            };
            match m {
                "wrapping_add" => V::$c($x.wrapping_add($arg(0))),
                "wrapping_sub" => V::$c($x.wrapping_sub($arg(0))),
                "wrapping_mul" => V::$c($x.wrapping_mul($arg(0))),
                "wrapping_neg" => V::$c($x.wrapping_neg()),
                "reverse_bits" => V::$c($x.reverse_bits()),
                "rotate_left" => V::$c($x.rotate_left(amount(0))),
                "rotate_right" => V::$c($x.rotate_right(amount(0))),
                "saturating_add" => V::$c($x.saturating_add($arg(0))),
                "saturating_sub" => V::$c($x.saturating_sub($arg(0))),
                "count_ones" => V::U32($x.count_ones()),
                "count_zeros" => V::U32($x.count_zeros()),
                "leading_zeros" => V::U32($x.leading_zeros()),
                "trailing_zeros" => V::U32($x.trailing_zeros()),
                "min" => V::$c($x.min($arg(0))),
                "max" => V::$c($x.max($arg(0))),
                "clamp" => V::$c($x.clamp($arg(0), $arg(1))),
                "abs_diff" => V::$uc($x.abs_diff($arg(0))),
                $($extra)*
                other => panic!("method `{other}` on {}", stringify!($t)),
            }
        }};
    }
    macro_rules! signed {
        ($x:ident, $c:ident, $uc:ident, $t:ty) => {
            common!($x, arg, $c, $uc, $t, {
                "wrapping_abs" => V::$c($x.wrapping_abs()),
                "signum" => V::$c($x.signum()),
                "is_positive" => V::Bool($x.is_positive()),
                "is_negative" => V::Bool($x.is_negative()),
            })
        };
    }
    macro_rules! unsigned {
        ($x:ident, $c:ident, $t:ty) => {
            common!($x, arg, $c, $c, $t, {
                "is_power_of_two" => V::Bool($x.is_power_of_two()),
                "div_ceil" => {
                    let d = arg(0);
                    if d == 0 {
                        return panic_at(PanicKind::DivByZero, sp, 0, 0);
                    }
                    V::$c($x.div_ceil(d))
                }
            })
        };
    }
    macro_rules! float {
        ($x:expr, $c:ident, $t:ty) => {{
            let x: $t = $x;
            let arg = |i: usize| -> $t {
                match a[i] {
                    V::$c(y) => y,
                    ref o => panic!("argument {o:?} of `{m}`"),
                }
            };
            match m {
                "abs" => V::$c(x.abs()),
                "sqrt" => V::$c(x.sqrt()),
                "floor" => V::$c(x.floor()),
                "ceil" => V::$c(x.ceil()),
                "round" => V::$c(x.round()),
                "trunc" => V::$c(x.trunc()),
                "fract" => V::$c(x.fract()),
                "recip" => V::$c(x.recip()),
                "signum" => V::$c(x.signum()),
                "mul_add" => V::$c(x.mul_add(arg(0), arg(1))),
                "min" => V::$c(fmin(x, arg(0))),
                "max" => V::$c(fmax(x, arg(0))),
                "is_nan" => V::Bool(x.is_nan()),
                // The math library, compared within `gen::MATH`: glibc's f64 functions (Rust's
                // own `asinh`/`acosh`/`atanh` overflow for large arguments), f32 ones on the
                // widened argument, rounded once.
                name if crate::gen::MATH.iter().any(|f| f.0 == name) => {
                    let y = if a.is_empty() { 0.0 } else { arg(0) as f64 };
                    V::$c(libm(name, x as f64, y) as $t)
                }
                "is_finite" => V::Bool(x.is_finite()),
                "is_infinite" => V::Bool(x.is_infinite()),
                other => panic!("method `{other}` on floats"),
            }
        }};
    }
    Ok(match x {
        V::I8(v) => signed!(v, I8, U8, i8),
        V::I16(v) => signed!(v, I16, U16, i16),
        V::I32(v) => signed!(v, I32, U32, i32),
        V::I64(v) => signed!(v, I64, U64, i64),
        V::Isize(v) => signed!(v, Isize, Usize, isize),
        V::U8(v) => unsigned!(v, U8, u8),
        V::U16(v) => unsigned!(v, U16, u16),
        V::U32(v) => unsigned!(v, U32, u32),
        V::U64(v) => unsigned!(v, U64, u64),
        V::Usize(v) => unsigned!(v, Usize, usize),
        V::F32(v) => float!(v, F32, f32),
        V::F64(v) => float!(v, F64, f64),
        V::F16(v) => match m {
            "to_f32" => V::F32(v.to_f32()),
            "to_f64" => V::F64(v.to_f64()),
            other => panic!("method `{other}` on f16"),
        },
        V::BF16(v) => match m {
            "to_f32" => V::F32(v.to_f32()),
            "to_f64" => V::F64(v.to_f64()),
            other => panic!("method `{other}` on bf16"),
        },
        other => panic!("method `{m}` on {other:?}"),
    })
}

/// The host C library's f64 math functions.
fn libm(name: &str, x: f64, y: f64) -> f64 {
    mod c {
        extern "C" {
            pub fn sin(x: f64) -> f64;
            pub fn cos(x: f64) -> f64;
            pub fn tan(x: f64) -> f64;
            pub fn exp(x: f64) -> f64;
            pub fn exp2(x: f64) -> f64;
            pub fn expm1(x: f64) -> f64;
            pub fn log(x: f64) -> f64;
            pub fn log2(x: f64) -> f64;
            pub fn log10(x: f64) -> f64;
            pub fn log1p(x: f64) -> f64;
            pub fn cbrt(x: f64) -> f64;
            pub fn asin(x: f64) -> f64;
            pub fn acos(x: f64) -> f64;
            pub fn atan(x: f64) -> f64;
            pub fn sinh(x: f64) -> f64;
            pub fn cosh(x: f64) -> f64;
            pub fn tanh(x: f64) -> f64;
            pub fn asinh(x: f64) -> f64;
            pub fn acosh(x: f64) -> f64;
            pub fn atanh(x: f64) -> f64;
            pub fn atan2(y: f64, x: f64) -> f64;
            pub fn hypot(x: f64, y: f64) -> f64;
            pub fn pow(x: f64, y: f64) -> f64;
        }
    }
    // SAFETY: pure functions of their arguments, provided by the C library std links.
    unsafe {
        match name {
            "sin" => c::sin(x),
            "cos" => c::cos(x),
            "tan" => c::tan(x),
            "exp" => c::exp(x),
            "exp2" => c::exp2(x),
            "exp_m1" => c::expm1(x),
            "ln" => c::log(x),
            "log2" => c::log2(x),
            "log10" => c::log10(x),
            "ln_1p" => c::log1p(x),
            "cbrt" => c::cbrt(x),
            "asin" => c::asin(x),
            "acos" => c::acos(x),
            "atan" => c::atan(x),
            "sinh" => c::sinh(x),
            "cosh" => c::cosh(x),
            "tanh" => c::tanh(x),
            "asinh" => c::asinh(x),
            "acosh" => c::acosh(x),
            "atanh" => c::atanh(x),
            "atan2" => c::atan2(x, y),
            "hypot" => c::hypot(x, y),
            "powf" => c::pow(x, y),
            other => panic!("no libm function for `{other}`"),
        }
    }
}
