//! Compact builders for hand-written IR in the passes' tests.

use kernel_ir::ir::*;
use kernel_ir::visit::for_each_def;
use kernel_std::intrinsics;

/// One xorshift64 step of the random-program generators' `seed` (fixed sequences per seed, so a
/// failing seed reproduces), reduced below `m`.
pub fn next_below(seed: &mut u64, m: u64) -> u64 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    *seed % m
}

pub fn kernel() -> Kernel {
    Kernel {
        name: "t".into(),
        display_name: "tests::t".into(),
        params: vec![],
        vars: vec![],
        var_names: vec![],
        arrays: vec![],
        shared: vec![],
        uses_dyn_shared: false,
        panic_sites: vec![PanicSite {
            kind: PanicKind::Bounds,
            file: "k.rs".into(),
            line: 1,
            col: 1,
        }],
        body: Block::default(),
        attrs: KernelAttrs::default(),
        next_loop: 0,
    }
}

/// A scalar parameter of type `ty`.
pub fn param(k: &mut Kernel, name: &str, ty: Ty) -> Var {
    let v = k.new_var(ty);
    k.params.push(Param {
        name: name.into(),
        size: ty.bytes(),
        align: ty.bytes(),
        kind: ParamKind::Scalar,
        pieces: vec![(0, v)],
    });
    v
}

/// A `&mut [T]` parameter: (pointer, length).
pub fn slice(k: &mut Kernel, name: &str, elem_bytes: u32) -> (Var, Var) {
    let p = k.new_var(Ty::U64);
    let n = k.new_var(Ty::U64);
    k.params.push(Param {
        name: name.into(),
        size: 16,
        align: 8,
        kind: ParamKind::Slice {
            readonly: false,
            elem_bytes,
            ptr_align: 1,
        },
        pieces: vec![(0, p), (8, n)],
    });
    (p, n)
}

pub fn u32c(v: u32) -> Operand {
    Const::u32(v).into()
}
pub fn u64c(v: u64) -> Operand {
    Const::u64(v).into()
}
pub fn i32c(v: i32) -> Operand {
    Const::i32(v).into()
}
pub fn f32c(v: f32) -> Operand {
    Const::f32(v).into()
}

pub fn mov(dst: Var, src: impl Into<Operand>) -> Inst {
    Inst::Mov {
        dst,
        src: src.into(),
    }
}
pub fn bin(dst: Var, op: BinOp, a: impl Into<Operand>, b: impl Into<Operand>) -> Inst {
    Inst::Binary {
        dst,
        op,
        a: a.into(),
        b: b.into(),
    }
}
pub fn cast(dst: Var, a: impl Into<Operand>) -> Inst {
    Inst::Cast { dst, a: a.into() }
}
pub fn store(addr: impl Into<Operand>, val: impl Into<Operand>) -> Inst {
    Inst::Store {
        space: Space::Global,
        addr: addr.into(),
        val: val.into(),
    }
}
pub fn load(dst: Var, addr: impl Into<Operand>) -> Inst {
    Inst::Load {
        dst,
        space: Space::Global,
        addr: addr.into(),
        readonly: false,
    }
}
pub fn aload(dst: Var, array: u32, idx: impl Into<Operand>) -> Inst {
    Inst::ArrayLoad {
        dst,
        array: ArrayId(array),
        idx: idx.into(),
    }
}
pub fn astore(array: u32, idx: impl Into<Operand>, val: impl Into<Operand>) -> Inst {
    Inst::ArrayStore {
        array: ArrayId(array),
        idx: idx.into(),
        val: val.into(),
    }
}
pub fn check(idx: impl Into<Operand>, len: impl Into<Operand>) -> Inst {
    Inst::BoundsCheck {
        idx: idx.into(),
        len: len.into(),
        site: SiteId(0),
    }
}
pub fn if_(cond: impl Into<Operand>, then: Vec<Inst>, els: Vec<Inst>) -> Inst {
    Inst::If {
        cond: cond.into(),
        then: Block(then),
        els: Block(els),
    }
}
pub fn intr(name: &str, dsts: Vec<Var>, args: Vec<Operand>) -> Inst {
    Inst::Intrinsic {
        id: intrinsics::lookup(name).expect("intrinsic in table"),
        dsts,
        args,
    }
}

/// `for iv in start..end` (step 1, forward) with a fresh loop id.
pub fn for_(
    k: &mut Kernel,
    iv: Var,
    start: impl Into<Operand>,
    end: impl Into<Operand>,
    unroll: Unroll,
    body: Vec<Inst>,
) -> Inst {
    let step = match k.ty(iv) {
        Ty::U64 => Const::u64(1),
        Ty::I32 => Const::i32(1),
        _ => Const::u32(1),
    };
    Inst::For {
        id: k.new_loop(),
        iv,
        start: start.into(),
        end: end.into(),
        inclusive: false,
        step: step.into(),
        reverse: false,
        body: Block(body),
        unroll,
    }
}

pub fn text(k: &Kernel) -> String {
    kernel_ir::print::body_text(k)
}

/// Compares body text, ignoring a common leading indentation in `want`.
#[track_caller]
pub fn assert_body(k: &Kernel, want: &str) {
    let lines: Vec<&str> = want.lines().filter(|l| !l.trim().is_empty()).collect();
    let indent = lines
        .iter()
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    let want: String = lines
        .iter()
        .map(|l| format!("{}\n", &l[indent..]))
        .collect();
    let got = text(k);
    assert_eq!(got, want, "\n--- got ---\n{got}--- want ---\n{want}");
}

/// What running a kernel body did, for comparing a kernel before and after a pass.
#[derive(Debug, PartialEq)]
pub struct Trace {
    /// Global/shared stores in order: (address, value bits).
    pub stores: Vec<(u64, u64)>,
    /// Panic site and detail values, if the thread panicked.
    pub panic: Option<(u32, u64, u64)>,
}

impl Trace {
    /// Whether `opt` (an optimized run) did what `self` (the original) did: the same panic, and
    /// the same stores, except that a panicking run may leave out stores its early checks skipped
    /// (see `early_checks`), so its stores are a prefix of the original's.
    pub fn same_effects(&self, opt: &Trace) -> bool {
        self.panic == opt.panic
            && match self.panic {
                None => self.stores == opt.stores,
                Some(_) => self.stores.starts_with(&opt.stores),
            }
    }
}

enum Flow {
    Normal,
    Break(LoopId),
    Continue(LoopId),
    Stop,
}

/// A small reference interpreter for one thread (test only): loads return a fixed function of
/// the address, intrinsics read `tid.x = 5`, `ctaid.x = 3`, `ntid.x = 128`, the rest 0.
pub fn run(k: &Kernel, params: &[(Var, Const)]) -> Trace {
    let mut it = Interp {
        k,
        vars: vec![None; k.vars.len()],
        arrays: k
            .arrays
            .iter()
            .map(|a| vec![None; a.len as usize])
            .collect(),
        trace: Trace {
            stores: vec![],
            panic: None,
        },
        steps: 0,
    };
    for (v, c) in params {
        it.vars[v.0 as usize] = Some(*c);
    }
    it.block(&k.body);
    it.trace
}

/// What the interpreter's memory holds at `addr`, as a value of type `t`: a fixed function of the
/// address, so loads split or merged by a pass read the same values.
fn loaded(addr: u64, t: Ty) -> u64 {
    let bits = addr.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40;
    if t == Ty::F32 {
        ((bits % 1000) as f32 / 8.0).to_bits() as u64
    } else {
        super::eval::int_const(t, bits as i128).bits
    }
}

struct Interp<'a> {
    k: &'a Kernel,
    vars: Vec<Option<Const>>,
    arrays: Vec<Vec<Option<Const>>>,
    trace: Trace,
    steps: u64,
}

impl Interp<'_> {
    fn get(&self, o: Operand) -> Const {
        match o {
            Operand::Const(c) => c,
            Operand::Var(v) => {
                self.vars[v.0 as usize].unwrap_or_else(|| panic!("read of unset {v}"))
            }
        }
    }
    fn copy(&mut self, dst: Var, src: Operand) {
        self.vars[dst.0 as usize] = match src {
            Operand::Const(c) => Some(c),
            Operand::Var(v) => self.vars[v.0 as usize].map(|c| Const {
                ty: self.k.ty(dst),
                bits: c.bits,
            }),
        };
    }
    fn set(&mut self, v: Var, bits: u64) {
        let ty = self.k.ty(v);
        self.vars[v.0 as usize] = Some(Const { ty, bits });
    }
    fn block(&mut self, b: &Block) -> Flow {
        for i in &b.0 {
            self.steps += 1;
            assert!(self.steps < 10_000_000, "runaway");
            match self.inst(i) {
                Flow::Normal => {}
                f => return f,
            }
        }
        Flow::Normal
    }
    /// Whether an operand is a variable never set.
    fn unset(&self, o: Operand) -> bool {
        matches!(o, Operand::Var(v) if self.vars[v.0 as usize].is_none())
    }
    fn inst(&mut self, i: &Inst) -> Flow {
        use super::eval::*;
        // Arithmetic on a value never set gives a value never set, as on a GPU register; only
        // observing it (a store, an address, a condition, a check, a panic) is an error. Speculated
        // code computes such values where the original skipped the computation, and discards them.
        let pure_unset = match i {
            Inst::Unary { a, .. } | Inst::Cast { a, .. } | Inst::Bitcast { a, .. } => {
                self.unset(*a)
            }
            Inst::Binary { a, b, .. } => self.unset(*a) || self.unset(*b),
            Inst::Fma { a, b, c, .. } => self.unset(*a) || self.unset(*b) || self.unset(*c),
            Inst::Select { cond, .. } => self.unset(*cond),
            _ => false,
        };
        if pure_unset {
            for_each_def(i, |d| self.vars[d.0 as usize] = None);
            return Flow::Normal;
        }
        match i {
            Inst::Mov { dst, src } => self.copy(*dst, *src),
            Inst::Unary { dst, op, a } => {
                let r = eval_unary(*op, self.get(*a), self.k.ty(*dst)).expect("unary");
                self.set(*dst, r.bits)
            }
            Inst::Binary { dst, op, a, b } => {
                let r = eval_binary(*op, self.get(*a), self.get(*b)).expect("binary");
                self.set(*dst, r.bits)
            }
            Inst::Fma { dst, a, b, c } => {
                let r = eval_fma(self.get(*a), self.get(*b), self.get(*c)).expect("fma");
                self.set(*dst, r.bits)
            }
            Inst::Cast { dst, a } => {
                let r = eval_cast(self.get(*a), self.k.ty(*dst)).expect("cast");
                self.set(*dst, r.bits)
            }
            Inst::Bitcast { dst, a } => self.set(*dst, self.get(*a).bits),
            // Copying a value never set (a speculated `x = c ? t : x` before `x`'s first
            // assignment) leaves the destination unset, as a PTX register copy would: only a
            // real use of it is an error.
            Inst::Select { dst, cond, a, b } => {
                let v = if self.get(*cond).bits != 0 { *a } else { *b };
                self.copy(*dst, v)
            }
            Inst::Load { dst, addr, .. } => {
                let a = self.get(*addr).bits;
                self.set(*dst, loaded(a, self.k.ty(*dst)))
            }
            Inst::LoadVec { dsts, addr, .. } => {
                let a = self.get(*addr).bits;
                for (i, d) in dsts.iter().enumerate() {
                    let t = self.k.ty(*d);
                    self.set(*d, loaded(a + i as u64 * t.bytes() as u64, t))
                }
            }
            Inst::Store { addr, val, .. } => {
                let e = (self.get(*addr).bits, self.get(*val).bits);
                self.trace.stores.push(e)
            }
            Inst::StoreVec { addr, vals, .. } => {
                let a = self.get(*addr).bits;
                for (i, v) in vals.iter().enumerate() {
                    let bytes = self.k.operand_ty(*v).bytes() as u64;
                    let e = (a + i as u64 * bytes, self.get(*v).bits);
                    self.trace.stores.push(e)
                }
            }
            Inst::ArrayLoad { dst, array, idx } => {
                let c = self.arrays[array.0 as usize][self.get(*idx).bits as usize]
                    .expect("array element set");
                self.set(*dst, c.bits)
            }
            Inst::ArrayStore { array, idx, val } => {
                let i = self.get(*idx).bits as usize;
                self.arrays[array.0 as usize][i] = Some(self.get(*val))
            }
            Inst::Intrinsic { id, dsts, .. } => {
                use kernel_ir::intrinsic::SpecialReg::{Ctaid, Ntid, Tid};
                let v = match id.def().reg {
                    Some(Tid(0)) => 5,
                    Some(Ctaid(0)) => 3,
                    Some(Ntid(0)) => 128,
                    _ => 0,
                };
                for d in dsts {
                    self.set(*d, v)
                }
            }
            Inst::BoundsCheck { idx, len, site } => {
                let (a, b) = (self.get(*idx).bits, self.get(*len).bits);
                if a >= b {
                    self.trace.panic = Some((site.0, a, b));
                    return Flow::Stop;
                }
            }
            Inst::Panic { site, a, b } => {
                self.trace.panic = Some((site.0, self.get(*a).bits, self.get(*b).bits));
                return Flow::Stop;
            }
            // A print observes its arguments like stores to an address no real store uses.
            Inst::Print { args, .. } => {
                for a in args {
                    let e = (u64::MAX, self.get(*a).bits);
                    self.trace.stores.push(e)
                }
            }
            Inst::If { cond, then, els } => {
                return if self.get(*cond).bits != 0 {
                    self.block(then)
                } else {
                    self.block(els)
                }
            }
            Inst::For {
                id,
                iv,
                start,
                end,
                inclusive,
                step,
                reverse,
                body,
                ..
            } => {
                let vals = super::unroll::iteration_values(
                    self.get(*start).into(),
                    self.get(*end).into(),
                    self.get(*step).into(),
                    *inclusive,
                    *reverse,
                    1 << 20,
                )
                .expect("finite loop");
                for v in vals {
                    self.set(*iv, int_const(self.k.ty(*iv), v).bits);
                    match self.block(body) {
                        Flow::Break(l) if l == *id => break,
                        Flow::Continue(l) if l == *id => continue,
                        Flow::Normal => {}
                        f => return f,
                    }
                }
            }
            Inst::Loop { id, body } => loop {
                match self.block(body) {
                    Flow::Break(l) if l == *id => break,
                    Flow::Continue(l) if l == *id => continue,
                    Flow::Normal => {}
                    f => return f,
                }
            },
            Inst::Break(l) => return Flow::Break(*l),
            Inst::Continue(l) => return Flow::Continue(*l),
            Inst::Return => return Flow::Stop,
            Inst::SharedAddr { dst, .. }
            | Inst::DynSharedAddr { dst }
            | Inst::DynSharedBytes { dst } => self.set(*dst, 0),
            Inst::Loc(_) => {}
        }
        Flow::Normal
    }
}

/// The printer (in `kernel_ir::print`) on a kernel built with this kit's builders.
#[cfg(test)]
mod print_tests {
    use super::*;

    #[test]
    fn whole_kernel_text() {
        let mut k = kernel();
        k.attrs.max_threads = Some(256);
        let (p, n) = slice(&mut k, "x", 4);
        let s = param(&mut k, "s", Ty::I32);
        k.var_names = vec!["x.ptr".into(), "x.len".into(), "s".into()];
        k.arrays.push(LocalArray {
            elem: Ty::F32,
            len: 8,
        });
        k.shared.push(SharedAlloc {
            name: "tile".into(),
            bytes: 1024,
            align: 16,
        });
        let (f, i, c) = (k.new_var(Ty::F32), k.new_var(Ty::U64), k.new_var(Ty::Bool));
        let (h, a) = (k.new_var(Ty::F16), k.new_var(Ty::U32));
        let id = LoopId(k.next_loop);
        let body = vec![
            check(i, n),
            Inst::Fma {
                dst: f,
                a: f.into(),
                b: f32c(-0.0),
                c: Const::f32(f32::from_bits(0x7fc0_0001)).into(),
            },
            Inst::Select {
                dst: f,
                cond: c.into(),
                a: f.into(),
                b: f32c(1.5),
            },
            Inst::Continue(id),
        ];
        let lp = Inst::For {
            id: k.new_loop(),
            iv: i,
            start: u64c(0),
            end: n.into(),
            inclusive: true,
            step: u64c(2),
            reverse: true,
            body: Block(body),
            unroll: Unroll::By(4),
        };
        k.body.0 = vec![
            Inst::SharedAddr {
                dst: a,
                alloc: SharedId(0),
            },
            bin(c, BinOp::Lt, s, i32c(-3)),
            if_(
                c,
                vec![aload(f, 0, u32c(2)), Inst::Return],
                vec![
                    astore(0, u32c(1), f),
                    Inst::Bitcast {
                        dst: h,
                        a: Const {
                            ty: Ty::U16,
                            bits: 0x3c00,
                        }
                        .into(),
                    },
                ],
            ),
            lp,
            intr("sync_threads", vec![], vec![]),
            Inst::Load {
                dst: f,
                space: Space::Global,
                addr: p.into(),
                readonly: true,
            },
            Inst::Store {
                space: Space::Shared,
                addr: a.into(),
                val: f.into(),
            },
            cast(i, s),
            Inst::Panic {
                site: SiteId(0),
                a: i.into(),
                b: n.into(),
            },
        ];
        let want = r#"kernel t (tests::t)
  param x: slice_mut elem=4 size=16 align=8 {+0: v0, +8: v1}
  param s: scalar size=4 align=4 {+0: v2}
  attrs max_threads=256
  var v0: u64 ; x.ptr
  var v1: u64 ; x.len
  var v2: i32 ; s
  var v3: f32
  var v4: u64
  var v5: bool
  var v6: f16
  var v7: u32
  array a0: [f32; 8]
  shared s0 "tile": 1024 bytes align 16
  site0: Bounds at k.rs:1:1
{
  v7 = shared_addr s0
  v5 = lt.i32 v2, -3i32
  if v5 {
    v3 = array_load a0[2u32]
    return
  } else {
    array_store a0[1u32], v3
    v6 = bitcast.f16.u16 15360u16
  }
  for L0 v4 in 0u64..=v1 step 2u64 rev unroll(4) {
    bounds_check.u64 v4, v1 @site0
    v3 = fma.f32 v3, -0.0f32, f32(0x7fc00001)
    v3 = select v5, v3, 1.5f32
    continue L0
  }
  call sync_threads()
  v3 = load.global.ro.f32 [v0]
  store.shared.f32 [v7], v3
  v4 = cast.u64.i32 v2
  panic @site0 v4, v1
}
"#;
        assert_eq!(k.to_string(), want);
    }
}
