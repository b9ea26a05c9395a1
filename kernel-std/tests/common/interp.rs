//! A deliberately simple single-thread IR interpreter for front-end tests (the real simulator
//! lives in `kernel_std::sim`). It follows the IR's documented semantics directly.

use half::{bf16, f16};
use kernel_std::intrinsics::{self, SimEnv};
use kernel_std::ir::*;

/// A kernel argument: a scalar's bits, a buffer (for slices), or raw bytes (structs, arrays).
#[derive(Clone, Debug)]
pub enum Arg {
    Bits(u64),
    Buf(Vec<u8>),
    Bytes(Vec<u8>),
}

pub fn f32s(v: &[f32]) -> Arg {
    Arg::Buf(v.iter().flat_map(|x| x.to_le_bytes()).collect())
}
pub fn i32s(v: &[i32]) -> Arg {
    Arg::Buf(v.iter().flat_map(|x| x.to_le_bytes()).collect())
}
pub fn u32s(v: &[u32]) -> Arg {
    Arg::Buf(v.iter().flat_map(|x| x.to_le_bytes()).collect())
}
pub fn i64s(v: &[i64]) -> Arg {
    Arg::Buf(v.iter().flat_map(|x| x.to_le_bytes()).collect())
}
pub fn as_i32(b: &[u8]) -> Vec<i32> {
    b.chunks(4)
        .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}
pub fn as_u32(b: &[u8]) -> Vec<u32> {
    b.chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}
pub fn as_f32(b: &[u8]) -> Vec<f32> {
    b.chunks(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}
pub fn as_i64(b: &[u8]) -> Vec<i64> {
    b.chunks(8)
        .map(|c| i64::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

#[derive(Debug)]
pub struct Outcome {
    /// Final contents of each buffer argument, in argument order.
    pub bufs: Vec<Vec<u8>>,
    /// `(site, a, b)` when the thread panicked.
    pub panic: Option<(SiteId, u64, u64)>,
}

enum Flow {
    Normal,
    Break(LoopId),
    Continue(LoopId),
    Return,
    Panic(SiteId, u64, u64),
}

struct Env1 {
    tid: [u32; 3],
}
impl SimEnv for Env1 {
    fn thread_idx(&self) -> [u32; 3] {
        self.tid
    }
    fn block_idx(&self) -> [u32; 3] {
        [0; 3]
    }
    fn block_dim(&self) -> [u32; 3] {
        [32, 1, 1]
    }
    fn grid_dim(&self) -> [u32; 3] {
        [1, 1, 1]
    }
    fn clock(&mut self) -> u64 {
        0
    }
}

struct M<'k> {
    k: &'k Kernel,
    vars: Vec<u64>,
    arrays: Vec<Vec<u64>>,
    bufs: Vec<(u64, Vec<u8>)>,
    shared: Vec<u8>,
    shared_offs: Vec<u32>,
    dyn_off: u32,
    dyn_bytes: u32,
    steps: u64,
    env: Env1,
}

const BASE: u64 = 0x1_0000_0000;

/// Runs thread (0,0,0) of a one-block launch with `dyn_shared` bytes of dynamic shared memory.
pub fn run(k: &Kernel, args: &[Arg], dyn_shared: u32) -> Outcome {
    let mut shared_offs = Vec::new();
    let mut off = 0u32;
    for a in &k.shared {
        off = off.div_ceil(a.align.max(1)) * a.align.max(1);
        shared_offs.push(off);
        off += a.bytes;
    }
    let dyn_off = off.div_ceil(16) * 16;
    let mut m = M {
        k,
        vars: vec![0; k.vars.len()],
        arrays: k.arrays.iter().map(|a| vec![0; a.len as usize]).collect(),
        bufs: Vec::new(),
        shared: vec![0; (dyn_off + dyn_shared) as usize],
        shared_offs,
        dyn_off,
        dyn_bytes: dyn_shared,
        steps: 0,
        env: Env1 { tid: [0; 3] },
    };
    assert_eq!(k.params.len(), args.len(), "argument count");
    for (p, a) in k.params.iter().zip(args) {
        match (p.kind, a) {
            (ParamKind::Scalar, Arg::Bits(b)) => m.vars[p.pieces[0].1 .0 as usize] = *b,
            (ParamKind::Slice { elem_bytes, .. }, Arg::Buf(data)) => {
                let base = BASE * (m.bufs.len() as u64 + 1);
                m.vars[p.pieces[0].1 .0 as usize] = base;
                m.vars[p.pieces[1].1 .0 as usize] = data.len() as u64 / elem_bytes as u64;
                m.bufs.push((base, data.clone()));
            }
            (ParamKind::Struct, Arg::Bytes(data)) => {
                for (off, v) in &p.pieces {
                    let n = k.ty(*v).bytes() as usize;
                    let mut b = [0u8; 8];
                    b[..n].copy_from_slice(&data[*off as usize..*off as usize + n]);
                    m.vars[v.0 as usize] = u64::from_le_bytes(b);
                }
            }
            (kind, a) => panic!("argument {a:?} does not fit parameter kind {kind:?}"),
        }
    }
    let panic = match m.block(&k.body) {
        Flow::Panic(s, a, b) => Some((s, a, b)),
        _ => None,
    };
    Outcome {
        bufs: m.bufs.into_iter().map(|(_, d)| d).collect(),
        panic,
    }
}

fn mask(t: Ty, v: u64) -> u64 {
    if t.bits() >= 64 {
        v
    } else {
        v & ((1u64 << t.bits()) - 1)
    }
}
fn sext(t: Ty, v: u64) -> i128 {
    Const { ty: t, bits: v }.as_i128()
}
fn to_f64(t: Ty, v: u64) -> f64 {
    match t {
        Ty::F16 => f16::from_bits(v as u16).to_f64(),
        Ty::BF16 => bf16::from_bits(v as u16).to_f64(),
        Ty::F32 => f32::from_bits(v as u32) as f64,
        _ => f64::from_bits(v),
    }
}
fn from_f64(t: Ty, x: f64) -> u64 {
    match t {
        Ty::F16 => f16::from_f64(x).to_bits() as u64,
        Ty::BF16 => bf16::from_f64(x).to_bits() as u64,
        Ty::F32 => (x as f32).to_bits() as u64,
        _ => x.to_bits(),
    }
}
fn int_range(t: Ty) -> (i128, i128) {
    let b = t.bits();
    if t.is_signed() {
        (-(1i128 << (b - 1)), (1i128 << (b - 1)) - 1)
    } else {
        (0, (1i128 << b) - 1)
    }
}

impl M<'_> {
    fn get(&self, o: Operand) -> u64 {
        match o {
            Operand::Var(v) => self.vars[v.0 as usize],
            Operand::Const(c) => c.bits,
        }
    }
    fn set(&mut self, v: Var, bits: u64) {
        self.vars[v.0 as usize] = mask(self.k.ty(v), bits);
    }
    fn mem(&mut self, space: Space, addr: u64, n: usize) -> &mut [u8] {
        match space {
            Space::Shared => &mut self.shared[addr as usize..addr as usize + n],
            Space::Global => {
                let (base, data) = self
                    .bufs
                    .iter_mut()
                    .find(|(b, d)| addr >= *b && addr + n as u64 <= *b + d.len() as u64)
                    .unwrap_or_else(|| panic!("global access out of every buffer at {addr:#x}"));
                let o = (addr - *base) as usize;
                &mut data[o..o + n]
            }
        }
    }

    fn block(&mut self, b: &Block) -> Flow {
        for i in &b.0 {
            self.steps += 1;
            assert!(self.steps < 20_000_000, "interpreter step limit");
            match self.inst(i) {
                Flow::Normal => {}
                f => return f,
            }
        }
        Flow::Normal
    }

    fn inst(&mut self, i: &Inst) -> Flow {
        match i {
            Inst::Mov { dst, src } => self.set(*dst, self.get(*src)),
            Inst::Unary { dst, op, a } => {
                let t = self.k.operand_ty(*a);
                let x = self.get(*a);
                let r = unary(*op, t, x);
                self.set(*dst, r);
            }
            Inst::Binary { dst, op, a, b } => {
                let t = self.k.operand_ty(*a);
                let r = binary(*op, t, self.get(*a), self.get(*b));
                self.set(*dst, r);
            }
            Inst::Fma { dst, a, b, c } => {
                let t = self.k.ty(*dst);
                let (x, y, z) = (self.get(*a), self.get(*b), self.get(*c));
                let r = match t {
                    Ty::F32 => (f32::from_bits(x as u32)
                        .mul_add(f32::from_bits(y as u32), f32::from_bits(z as u32)))
                    .to_bits() as u64,
                    Ty::F64 => f64::from_bits(x)
                        .mul_add(f64::from_bits(y), f64::from_bits(z))
                        .to_bits(),
                    _ => panic!("fma on {t:?}"),
                };
                self.set(*dst, r);
            }
            Inst::Cast { dst, a } => {
                let (from, to) = (self.k.operand_ty(*a), self.k.ty(*dst));
                let r = cast(from, to, self.get(*a));
                self.set(*dst, r);
            }
            Inst::Bitcast { dst, a } => self.set(*dst, self.get(*a)),
            Inst::Select { dst, cond, a, b } => {
                let r = if self.get(*cond) != 0 {
                    self.get(*a)
                } else {
                    self.get(*b)
                };
                self.set(*dst, r);
            }
            Inst::Load {
                dst, space, addr, ..
            } => {
                let n = self.k.ty(*dst).bytes() as usize;
                let addr = self.get(*addr);
                let mut b = [0u8; 8];
                b[..n].copy_from_slice(self.mem(*space, addr, n));
                self.set(*dst, u64::from_le_bytes(b));
            }
            Inst::Store { space, addr, val } => {
                let n = self.k.operand_ty(*val).bytes() as usize;
                let (addr, v) = (self.get(*addr), self.get(*val));
                self.mem(*space, addr, n)
                    .copy_from_slice(&v.to_le_bytes()[..n]);
            }
            Inst::SharedAddr { dst, alloc } => {
                self.set(*dst, self.shared_offs[alloc.0 as usize] as u64)
            }
            Inst::DynSharedAddr { dst } => self.set(*dst, self.dyn_off as u64),
            Inst::DynSharedBytes { dst } => self.set(*dst, self.dyn_bytes as u64),
            Inst::ArrayLoad { dst, array, idx } => {
                let i = self.get(*idx) as usize;
                let v = self.arrays[array.0 as usize][i];
                self.set(*dst, v);
            }
            Inst::ArrayStore { array, idx, val } => {
                let i = self.get(*idx) as usize;
                let v = self.get(*val);
                self.arrays[array.0 as usize][i] = v;
            }
            Inst::Intrinsic { id, dsts, args } => {
                let def = intrinsics::get(*id);
                let a: Vec<u64> = args.iter().map(|o| self.get(*o)).collect();
                let mut out = vec![0u64; dsts.len()];
                if let Some(f) = def.sim {
                    f(&mut self.env, &a, &mut out);
                }
                for (d, v) in dsts.iter().zip(out) {
                    self.set(*d, v);
                }
            }
            Inst::BoundsCheck { idx, len, site } => {
                let (i, n) = (self.get(*idx), self.get(*len));
                if i >= n {
                    return Flow::Panic(*site, i, n);
                }
            }
            Inst::Panic { site, a, b } => return Flow::Panic(*site, self.get(*a), self.get(*b)),
            Inst::If { cond, then, els } => {
                return if self.get(*cond) != 0 {
                    self.block(then)
                } else {
                    self.block(els)
                };
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
                let t = self.k.ty(*iv);
                let val = |m: &Self, o: Operand| {
                    if t.is_signed() {
                        sext(t, m.get(o))
                    } else {
                        m.get(o) as i128
                    }
                };
                let (s, e, st) = (val(self, *start), val(self, *end), val(self, *step));
                let hi = if *inclusive { e } else { e - 1 };
                let mut i = if *reverse { hi } else { s };
                while s <= hi && (if *reverse { i >= s } else { i <= hi }) {
                    self.set(*iv, i as u64);
                    match self.block(body) {
                        Flow::Break(l) if l == *id => break,
                        Flow::Continue(l) if l == *id => {}
                        Flow::Normal => {}
                        f => return f,
                    }
                    if *reverse {
                        i -= st
                    } else {
                        i += st
                    }
                }
            }
            Inst::Loop { id, body } => loop {
                match self.block(body) {
                    Flow::Break(l) if l == *id => break,
                    Flow::Continue(l) if l == *id => {}
                    Flow::Normal => {}
                    f => return f,
                }
            },
            Inst::Break(l) => return Flow::Break(*l),
            Inst::Continue(l) => return Flow::Continue(*l),
            Inst::Return => return Flow::Return,
        }
        Flow::Normal
    }
}

fn unary(op: UnOp, t: Ty, x: u64) -> u64 {
    if t.is_float() {
        let v = to_f64(t, x);
        let r = match op {
            UnOp::Neg => -v,
            UnOp::Abs => v.abs(),
            UnOp::Sqrt => v.sqrt(),
            UnOp::Floor => v.floor(),
            UnOp::Ceil => v.ceil(),
            UnOp::Trunc => v.trunc(),
            UnOp::Round => v.round(),
            _ => panic!("{op:?} on {t:?}"),
        };
        return from_f64(t, r);
    }
    match op {
        UnOp::Not if t == Ty::Bool => (x == 0) as u64,
        UnOp::Not => mask(t, !x),
        UnOp::Neg => mask(t, sext(t, x).wrapping_neg() as u64),
        UnOp::Abs => mask(t, sext(t, x).unsigned_abs() as u64),
        UnOp::Popc => x.count_ones() as u64,
        UnOp::Clz => (x.leading_zeros() - (64 - t.bits())) as u64,
        _ => panic!("{op:?} on {t:?}"),
    }
}

fn binary(op: BinOp, t: Ty, a: u64, b: u64) -> u64 {
    if t.is_float() {
        let (x, y) = (to_f64(t, a), to_f64(t, b));
        let cmp = |c: bool| c as u64;
        return match op {
            BinOp::Add => from_f64(t, x + y),
            BinOp::Sub => from_f64(t, x - y),
            BinOp::Mul => from_f64(t, x * y),
            BinOp::Div => from_f64(t, x / y),
            BinOp::Min => from_f64(t, x.min(y)),
            BinOp::Max => from_f64(t, x.max(y)),
            BinOp::Eq => cmp(x == y),
            BinOp::Ne => cmp(x != y),
            BinOp::Lt => cmp(x < y),
            BinOp::Le => cmp(x <= y),
            BinOp::Gt => cmp(x > y),
            BinOp::Ge => cmp(x >= y),
            _ => panic!("{op:?} on {t:?}"),
        };
    }
    let (x, y) = (sext(t, a), sext(t, b));
    let r: i128 = match op {
        BinOp::Add => x + y,
        BinOp::Sub => x - y,
        BinOp::Mul => x.wrapping_mul(y),
        BinOp::Div => x / y,
        BinOp::Rem => x % y,
        BinOp::And => x & y,
        BinOp::Or => x | y,
        BinOp::Xor => x ^ y,
        BinOp::Shl => x << (b as u32),
        BinOp::Shr => x >> (b as u32),
        BinOp::Min => x.min(y),
        BinOp::Max => x.max(y),
        BinOp::MulHi => (x * y) >> t.bits(),
        BinOp::Eq => (x == y) as i128,
        BinOp::Ne => (x != y) as i128,
        BinOp::Lt => (x < y) as i128,
        BinOp::Le => (x <= y) as i128,
        BinOp::Gt => (x > y) as i128,
        BinOp::Ge => (x >= y) as i128,
    };
    if op.is_compare() {
        r as u64
    } else {
        mask(t, r as u64)
    }
}

fn cast(from: Ty, to: Ty, x: u64) -> u64 {
    if from.is_float() {
        let v = to_f64(from, x);
        if to.is_float() {
            return from_f64(to, v);
        }
        if v.is_nan() {
            return 0;
        }
        let (lo, hi) = int_range(to);
        let t = v.trunc();
        let r = if t < lo as f64 {
            lo
        } else if t > hi as f64 {
            hi
        } else {
            t as i128
        };
        return mask(to, r as u64);
    }
    let v = if from == Ty::Bool {
        x as i128
    } else {
        sext(from, x)
    };
    if to.is_float() {
        return match to {
            Ty::F32 => (v as f32).to_bits() as u64,
            Ty::F64 => (v as f64).to_bits(),
            _ => from_f64(to, v as f64),
        };
    }
    mask(to, v as u64)
}
