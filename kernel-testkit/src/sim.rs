//! Compact builders for hand-made IR kernels and a tiny device-memory harness for the simulator
//! tests.

use kernel_ir::intrinsic::IntrinsicId;
use kernel_ir::ir::*;
use kernel_sim::{self as sim, GlobalMemory, SimError, SimLaunch, SimStats};
use kernel_std::intrinsics;

pub const FILE: &str = "tests/kernels.rs";

pub struct KB {
    pub k: Kernel,
    stack: Vec<Vec<Inst>>,
}

impl KB {
    pub fn new(name: &str) -> Self {
        KB {
            k: Kernel {
                name: name.into(),
                display_name: format!("tests::{name}"),
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
            },
            stack: vec![Vec::new()],
        }
    }
    pub fn var(&mut self, ty: Ty) -> Var {
        self.k.new_var(ty)
    }
    pub fn push(&mut self, i: Inst) {
        self.stack.last_mut().unwrap().push(i);
    }
    pub fn finish(mut self) -> Kernel {
        assert_eq!(self.stack.len(), 1);
        self.k.body = Block(self.stack.pop().unwrap());
        self.k
    }
    /// `&[T]` / `&mut [T]` parameter: (pointer, length) variables.
    pub fn slice(&mut self, name: &str, elem: Ty, readonly: bool) -> (Var, Var) {
        let (p, l) = (self.var(Ty::U64), self.var(Ty::U64));
        self.k.params.push(Param {
            name: name.into(),
            size: 16,
            align: 8,
            kind: ParamKind::Slice {
                readonly,
                elem_bytes: elem.bytes(),
                ptr_align: elem.bytes(),
            },
            pieces: vec![(0, p), (8, l)],
        });
        (p, l)
    }
    pub fn scalar(&mut self, name: &str, ty: Ty) -> Var {
        let v = self.var(ty);
        self.k.params.push(Param {
            name: name.into(),
            size: ty.bytes(),
            align: ty.bytes(),
            kind: ParamKind::Scalar,
            pieces: vec![(0, v)],
        });
        v
    }
    pub fn intr(&mut self, name: &str) -> Var {
        let id = intrinsics::lookup(name).unwrap();
        let d = self.var(id.def().rets[0]);
        self.push(Inst::Intrinsic {
            id,
            dsts: vec![d],
            args: vec![],
        });
        d
    }
    /// Calls intrinsic `id` (an entry of the table or one a test defines).
    pub fn call(&mut self, id: IntrinsicId, args: Vec<Operand>) -> Vec<Var> {
        let dsts: Vec<Var> = id.def().rets.iter().map(|t| self.var(*t)).collect();
        self.push(Inst::Intrinsic {
            id,
            dsts: dsts.clone(),
            args,
        });
        dsts
    }
    pub fn sync(&mut self) {
        let id = intrinsics::lookup("sync_threads").unwrap();
        self.push(Inst::Intrinsic {
            id,
            dsts: vec![],
            args: vec![],
        });
    }
    pub fn ty(&self, o: Operand) -> Ty {
        self.k.operand_ty(o)
    }
    pub fn bin(&mut self, op: BinOp, a: impl Into<Operand>, b: impl Into<Operand>) -> Var {
        let (a, b) = (a.into(), b.into());
        let t = if op.is_compare() {
            Ty::Bool
        } else {
            self.ty(a)
        };
        let d = self.var(t);
        self.push(Inst::Binary { dst: d, op, a, b });
        d
    }
    pub fn un(&mut self, op: UnOp, a: impl Into<Operand>) -> Var {
        let a = a.into();
        let t = if matches!(op, UnOp::Popc | UnOp::Clz) {
            Ty::U32
        } else {
            self.ty(a)
        };
        let d = self.var(t);
        self.push(Inst::Unary { dst: d, op, a });
        d
    }
    pub fn cast(&mut self, a: impl Into<Operand>, to: Ty) -> Var {
        let d = self.var(to);
        self.push(Inst::Cast {
            dst: d,
            a: a.into(),
        });
        d
    }
    pub fn mov(&mut self, d: Var, a: impl Into<Operand>) {
        self.push(Inst::Mov {
            dst: d,
            src: a.into(),
        });
    }
    pub fn site(&mut self, kind: PanicKind, line: u32) -> SiteId {
        self.k.panic_sites.push(PanicSite {
            kind,
            file: FILE.into(),
            line,
            col: 5,
        });
        SiteId(self.k.panic_sites.len() as u32 - 1)
    }
    pub fn block(&mut self, f: impl FnOnce(&mut Self)) -> Block {
        self.stack.push(Vec::new());
        f(self);
        Block(self.stack.pop().unwrap())
    }
    pub fn if_(
        &mut self,
        cond: impl Into<Operand>,
        then: impl FnOnce(&mut Self),
        els: impl FnOnce(&mut Self),
    ) {
        let then = self.block(then);
        let els = self.block(els);
        self.push(Inst::If {
            cond: cond.into(),
            then,
            els,
        });
    }
    #[allow(clippy::too_many_arguments)]
    pub fn for_(
        &mut self,
        ty: Ty,
        start: impl Into<Operand>,
        end: impl Into<Operand>,
        step: impl Into<Operand>,
        inclusive: bool,
        reverse: bool,
        body: impl FnOnce(&mut Self, Var, LoopId),
    ) {
        let iv = self.var(ty);
        let id = self.k.new_loop();
        let b = self.block(|s| body(s, iv, id));
        self.push(Inst::For {
            id,
            iv,
            start: start.into(),
            end: end.into(),
            inclusive,
            step: step.into(),
            reverse,
            body: b,
            unroll: Unroll::Never,
        });
    }
    pub fn loop_(&mut self, body: impl FnOnce(&mut Self, LoopId)) {
        let id = self.k.new_loop();
        let b = self.block(|s| body(s, id));
        self.push(Inst::Loop { id, body: b });
    }
    /// Global linear index `ctaid.x * ntid.x + tid.x` as U32.
    pub fn gid(&mut self) -> Var {
        let (b, n, t) = (
            self.intr("ctaid.x"),
            self.intr("ntid.x"),
            self.intr("tid.x"),
        );
        let m = self.bin(BinOp::Mul, b, n);
        self.bin(BinOp::Add, m, t)
    }
    /// Address of element `i` (U32 or U64) of a slice with base `ptr`, checked against `len`.
    pub fn elem_addr(&mut self, ptr: Var, len: Var, i: Var, elem: Ty, site: Option<SiteId>) -> Var {
        let i64v = if self.k.ty(i) == Ty::U64 {
            i
        } else {
            self.cast(i, Ty::U64)
        };
        if let Some(site) = site {
            self.push(Inst::BoundsCheck {
                idx: i64v.into(),
                len: len.into(),
                site,
            });
        }
        let off = self.bin(BinOp::Mul, i64v, Const::u64(elem.bytes() as u64));
        self.bin(BinOp::Add, ptr, off)
    }
    pub fn load(&mut self, space: Space, ty: Ty, addr: impl Into<Operand>) -> Var {
        let d = self.var(ty);
        self.push(Inst::Load {
            dst: d,
            space,
            addr: addr.into(),
            readonly: false,
        });
        d
    }
    pub fn store(&mut self, space: Space, addr: impl Into<Operand>, val: impl Into<Operand>) {
        self.push(Inst::Store {
            space,
            addr: addr.into(),
            val: val.into(),
        });
    }
    pub fn shared(&mut self, name: &str, bytes: u32, align: u32) -> Var {
        self.k.shared.push(SharedAlloc {
            name: name.into(),
            bytes,
            align,
        });
        let d = self.var(Ty::U32);
        self.push(Inst::SharedAddr {
            dst: d,
            alloc: SharedId(self.k.shared.len() as u32 - 1),
        });
        d
    }
}

pub fn c32(v: u32) -> Const {
    Const::u32(v)
}
pub fn c(ty: Ty, bits: u64) -> Const {
    Const { ty, bits }
}

/// Device memory with typed upload/download helpers.
#[derive(Default)]
pub struct Dev {
    pub mem: GlobalMemory,
}

impl Dev {
    pub fn new() -> Self {
        Dev::default()
    }
    pub fn upload<T: bytemuck::Pod>(&mut self, data: &[T]) -> (u64, u64) {
        let bytes: &[u8] = bytemuck::cast_slice(data);
        let p = self.mem.alloc(bytes.len());
        self.mem.write(p, bytes).unwrap();
        (p, data.len() as u64)
    }
    pub fn zeroed<T: bytemuck::Pod>(&mut self, n: usize) -> (u64, u64) {
        let p = self.mem.alloc(n * std::mem::size_of::<T>());
        (p, n as u64)
    }
    pub fn download<T: bytemuck::Pod>(&self, (p, n): (u64, u64)) -> Vec<T> {
        let mut v = vec![T::zeroed(); n as usize];
        self.mem.read(p, bytemuck::cast_slice_mut(&mut v)).unwrap();
        v
    }
    pub fn launch(
        &mut self,
        k: &Kernel,
        cfg: SimLaunch,
        params: &[Vec<u8>],
    ) -> Result<SimStats, SimError> {
        let p: Vec<&[u8]> = params.iter().map(|v| v.as_slice()).collect();
        sim::launch(k, &cfg, &p, &mut self.mem)
    }
}

/// The 16-byte `{ptr, len}` parameter of a slice.
pub fn sp((p, n): (u64, u64)) -> Vec<u8> {
    let mut v = p.to_le_bytes().to_vec();
    v.extend_from_slice(&n.to_le_bytes());
    v
}

/// Runs `out[i] = f(a[i], b[i])` over raw element bits for every i: a one-instruction kernel per
/// case, so each IR instruction kind is tested in isolation. Returns the raw result bits.
pub fn eval2(
    ty_a: Ty,
    ty_out: Ty,
    a: &[u64],
    b: &[u64],
    ty_b: Ty,
    build: impl FnOnce(&mut KB, Var, Var) -> Var,
) -> Vec<u64> {
    let n = a.len();
    assert_eq!(n, b.len());
    let mut kb = KB::new("eval2");
    let (pa, la) = kb.slice("a", ty_a, true);
    let (pb, lb) = kb.slice("b", ty_b, true);
    let (po, lo) = kb.slice("out", ty_out, false);
    let i = kb.gid();
    let ok = kb.bin(BinOp::Lt, i, Const::u32(n as u32));
    kb.if_(
        ok,
        |kb| {
            let aa = kb.elem_addr(pa, la, i, ty_a, None);
            let ba = kb.elem_addr(pb, lb, i, ty_b, None);
            let oa = kb.elem_addr(po, lo, i, ty_out, None);
            let x = kb.load(Space::Global, ty_a, aa);
            let y = kb.load(Space::Global, ty_b, ba);
            let r = build(kb, x, y);
            kb.store(Space::Global, oa, r);
        },
        |_| {},
    );
    let k = kb.finish();
    let mut dev = Dev::new();
    let ua = upload_bits(&mut dev, ty_a, a);
    let ub = upload_bits(&mut dev, ty_b, b);
    let out = dev.zeroed::<u8>(n * ty_out.bytes() as usize);
    let cfg = SimLaunch::linear((n as u32).div_ceil(64).max(1), 64);
    dev.launch(&k, cfg, &[sp(ua), sp(ub), sp((out.0, n as u64))])
        .unwrap();
    let raw: Vec<u8> = dev.download(out);
    raw.chunks(ty_out.bytes() as usize)
        .map(|c| {
            let mut b = [0u8; 8];
            b[..c.len()].copy_from_slice(c);
            u64::from_le_bytes(b)
        })
        .collect()
}

fn upload_bits(dev: &mut Dev, ty: Ty, v: &[u64]) -> (u64, u64) {
    let w = ty.bytes() as usize;
    let bytes: Vec<u8> = v
        .iter()
        .flat_map(|x| x.to_le_bytes()[..w].to_vec())
        .collect();
    let (p, _) = dev.upload(&bytes);
    (p, v.len() as u64)
}

pub fn eval_bin(op: BinOp, ty: Ty, a: &[u64], b: &[u64]) -> Vec<u64> {
    let out = if op.is_compare() { Ty::Bool } else { ty };
    let bty = if matches!(op, BinOp::Shl | BinOp::Shr) {
        Ty::U32
    } else {
        ty
    };
    eval2(ty, out, a, b, bty, |kb, x, y| kb.bin(op, x, y))
}

pub fn eval_un(op: UnOp, ty: Ty, a: &[u64]) -> Vec<u64> {
    let out = if matches!(op, UnOp::Popc | UnOp::Clz) {
        Ty::U32
    } else {
        ty
    };
    eval2(ty, out, a, a, ty, |kb, x, _| kb.un(op, x))
}

pub fn eval_cast(from: Ty, to: Ty, a: &[u64]) -> Vec<u64> {
    eval2(from, to, a, a, from, |kb, x, _| kb.cast(x, to))
}
