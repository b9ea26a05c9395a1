//! Lowers the structured IR of one launch into flat bytecode: every operand becomes a register
//! slot (constants get slots preloaded in the register template), control flow becomes jumps,
//! and each operation's type dispatch is resolved once into a function pointer.

use std::collections::HashMap;

use super::error::{SimError, SimErrorKind};
use super::ops::{self, BinFn, FmaFn, UnFn};
use kernel_ir::intrinsic::{Class, IntrinsicDef, SpecialReg};
use kernel_ir::ir::{self, Block, Inst, Kernel, LoopId, Operand, SiteId, SourceLoc, Space, Ty};

pub(crate) type Slot = u32;

#[derive(Clone, Copy, Debug)]
pub(crate) enum Op {
    Mov {
        d: Slot,
        a: Slot,
    },
    Un {
        f: UnFn,
        d: Slot,
        a: Slot,
    },
    Bin {
        f: BinFn,
        d: Slot,
        a: Slot,
        b: Slot,
    },
    Fma {
        f: FmaFn,
        d: Slot,
        a: Slot,
        b: Slot,
        c: Slot,
    },
    Cast {
        from: Ty,
        to: Ty,
        d: Slot,
        a: Slot,
    },
    Select {
        d: Slot,
        c: Slot,
        a: Slot,
        b: Slot,
    },
    Load {
        space: Space,
        ty: Ty,
        d: Slot,
        addr: Slot,
    },
    /// `n` (2 or 4) consecutive elements into `d[..n]`, the address aligned to the whole vector.
    LoadVec {
        space: Space,
        ty: Ty,
        n: u8,
        d: [Slot; 4],
        addr: Slot,
    },
    Store {
        space: Space,
        bytes: u8,
        addr: Slot,
        v: Slot,
    },
    /// `n` (2 or 4) consecutive elements of `bytes` each from `v[..n]`, the address aligned to
    /// the whole vector.
    StoreVec {
        space: Space,
        bytes: u8,
        n: u8,
        v: [Slot; 4],
        addr: Slot,
    },
    ArrLoad {
        base: Slot,
        len: u32,
        d: Slot,
        i: Slot,
    },
    ArrStore {
        base: Slot,
        len: u32,
        i: Slot,
        v: Slot,
    },
    /// A built-in register read (`tid.x`...: `Sreg` index), inlined instead of a `sim` call.
    Sreg {
        d: Slot,
        reg: u8,
    },
    /// A `Pure` or `Memory` intrinsic; `call` indexes `Program::calls`.
    Call {
        call: u32,
    },
    /// A block barrier (`Class::Barrier`); the thread parks here.
    Barrier {
        call: u32,
    },
    /// A warp collective; the thread parks until its warp's lanes are gathered.
    Warp {
        call: u32,
    },
    Bounds {
        i: Slot,
        l: Slot,
        site: u32,
    },
    Panic {
        site: u32,
        a: Slot,
        b: Slot,
    },
    Jmp {
        t: u32,
    },
    /// Jump when the bool slot is false.
    Jz {
        c: Slot,
        t: u32,
    },
    ForInit {
        info: u32,
        exit: u32,
    },
    /// Back edge of a counted loop: advance the induction variable, jump to `top` unless done.
    ForNext {
        info: u32,
        top: u32,
    },
    Exit,
    /// A device `printf`; `call` indexes `Program::prints`.
    Print {
        call: u32,
    },
    /// Executing it is an error (unsupported intrinsic, ill-typed op in reachable code).
    Invalid {
        msg: u32,
    },
}

pub(crate) struct Call {
    pub def: &'static IntrinsicDef,
    pub args: Vec<Slot>,
    pub dsts: Vec<Slot>,
}

pub(crate) struct ForInfo {
    pub ty: Ty,
    pub iv: Slot,
    pub start: Slot,
    pub end: Slot,
    pub step: Slot,
    /// Hidden copies of the bounds, taken once at loop entry.
    pub lo: Slot,
    pub hi: Slot,
    pub st: Slot,
    pub inclusive: bool,
    pub reverse: bool,
}

pub(crate) struct Program {
    pub ops: Vec<Op>,
    /// Per op: pre-order IR instruction index, nearest panic site and the `Inst::Loc` in force
    /// (an index into `srcs`), for detector reports.
    pub locs: Vec<(u32, Option<SiteId>, Option<u32>)>,
    pub srcs: Vec<SourceLoc>,
    pub calls: Vec<Call>,
    pub fors: Vec<ForInfo>,
    pub msgs: Vec<String>,
    pub prints: Vec<PrintCall>,
    /// Registers per thread: variables, constants, loop temporaries, local array elements.
    pub nslots: usize,
    /// Initial register file of every thread (constants and parameters filled in).
    pub template: Vec<u64>,
    pub shared_offsets: Vec<u32>,
    pub shared_static_bytes: u32,
    pub dyn_offset: u32,
    /// The first intrinsic call the target lacks (`min_sm` above it): its op and entry.
    pub too_new: Option<(usize, &'static IntrinsicDef)>,
    /// The bytes of each grid-constant parameter (`ParamKind::GridConstant`), by parameter
    /// index, what the handle in its piece names (`kernel_ir::tensor_map`); empty for others.
    pub grid_constants: Vec<Vec<u8>>,
}

/// One print site, lowered: the C format and where its promoted arguments live.
pub(crate) struct PrintCall {
    pub format: String,
    pub args: Vec<(Slot, Ty)>,
}

/// Where dynamic shared memory starts relative to the static allocations.
const DYN_ALIGN: u32 = 16;

struct Lower<'k> {
    k: &'k Kernel,
    p: Program,
    consts: HashMap<(Ty, u64), Slot>,
    array_base: Vec<Slot>,
    /// Open loops: id, index of the `continue` target (patched later), pending break jumps.
    loops: Vec<(LoopId, Vec<usize>, Vec<usize>)>,
    inst_index: u32,
    cur_inst: u32,
    last_site: Option<SiteId>,
    /// The innermost `Inst::Loc` seen on the way to the current instruction (index into `srcs`).
    cur_src: Option<u32>,
    dyn_bytes: u32,
    /// The target's compute capability (`Target::sm`).
    sm: u32,
}

pub(crate) fn lower(k: &Kernel, dyn_shared_bytes: u32, sm: u32) -> Result<Program, SimError> {
    let mut shared_offsets = Vec::with_capacity(k.shared.len());
    let mut off = 0u32;
    for s in &k.shared {
        let align = s.align.max(1);
        if !align.is_power_of_two() {
            return Err(malformed(
                k,
                format!("shared `{}` has alignment {align}", s.name),
            ));
        }
        off = off.next_multiple_of(align);
        shared_offsets.push(off);
        off = off
            .checked_add(s.bytes)
            .ok_or_else(|| malformed(k, "static shared memory exceeds 4 GiB".into()))?;
    }
    let dyn_offset = off.next_multiple_of(DYN_ALIGN);
    let nvars = k.vars.len();
    let mut l = Lower {
        k,
        p: Program {
            ops: Vec::new(),
            locs: Vec::new(),
            srcs: Vec::new(),
            calls: Vec::new(),
            fors: Vec::new(),
            msgs: Vec::new(),
            prints: Vec::new(),
            nslots: nvars,
            template: vec![0; nvars],
            shared_offsets,
            shared_static_bytes: off,
            dyn_offset,
            too_new: None,
            grid_constants: Vec::new(),
        },
        consts: HashMap::new(),
        array_base: Vec::new(),
        loops: Vec::new(),
        inst_index: 0,
        cur_inst: 0,
        last_site: None,
        cur_src: None,
        dyn_bytes: dyn_shared_bytes,
        sm,
    };
    for a in &k.arrays {
        let base = l.p.nslots as Slot;
        l.array_base.push(base);
        l.p.nslots += a.len as usize;
        l.p.template.resize(l.p.nslots, 0);
    }
    l.block(&k.body);
    l.emit(Op::Exit);
    check_slots(&l.p).map_err(|m| malformed(k, m))?;
    // Ops before the first panic site take the next one in program order.
    let mut next = None;
    for loc in l.p.locs.iter_mut().rev() {
        match loc.1 {
            Some(s) => next = Some(s),
            None => loc.1 = next,
        }
    }
    Ok(l.p)
}

/// Every register operand must name a slot of the thread's register file (variables out of
/// `Kernel::vars` would otherwise index past it).
fn check_slots(p: &Program) -> Result<(), String> {
    let n = p.nslots as u64;
    let bad = |s: &Slot| *s as u64 >= n;
    for op in &p.ops {
        let slots: &[Slot] = match op {
            Op::Mov { d, a } | Op::Un { d, a, .. } | Op::Cast { d, a, .. } => &[*d, *a],
            Op::Bin { d, a, b, .. } => &[*d, *a, *b],
            Op::Fma { d, a, b, c, .. } | Op::Select { d, c, a, b } => &[*d, *a, *b, *c],
            Op::Load { d, addr, .. } => &[*d, *addr],
            Op::LoadVec { d, addr, .. } => &[d[0], d[1], d[2], d[3], *addr],
            Op::Store { addr, v, .. } => &[*addr, *v],
            Op::StoreVec { v, addr, .. } => &[v[0], v[1], v[2], v[3], *addr],
            Op::ArrLoad { d, i, .. } => &[*d, *i],
            Op::ArrStore { i, v, .. } => &[*i, *v],
            Op::Sreg { d, .. } => &[*d],
            Op::Bounds { i, l, .. } => &[*i, *l],
            Op::Panic { a, b, .. } => &[*a, *b],
            Op::Jz { c, .. } => &[*c],
            _ => &[],
        };
        if let Some(s) = slots.iter().find(|s| bad(s)) {
            return Err(format!(
                "variable v{s} is not declared in the kernel's `vars`"
            ));
        }
    }
    for c in &p.calls {
        if let Some(s) = c.args.iter().chain(&c.dsts).find(|s| bad(s)) {
            return Err(format!(
                "variable v{s} is not declared in the kernel's `vars`"
            ));
        }
    }
    for f in &p.fors {
        if let Some(s) = [f.iv, f.start, f.end, f.step].iter().find(|s| bad(s)) {
            return Err(format!(
                "variable v{s} is not declared in the kernel's `vars`"
            ));
        }
    }
    Ok(())
}

/// The interpreter's number for a special register (the order of `exec::sreg_value`).
fn sreg(r: SpecialReg) -> u8 {
    match r {
        SpecialReg::Tid(a) => a,
        SpecialReg::Ctaid(a) => 3 + a,
        SpecialReg::Ntid(a) => 6 + a,
        SpecialReg::Nctaid(a) => 9 + a,
        SpecialReg::WarpSize => 12,
        SpecialReg::LaneId => 13,
    }
}

fn malformed(k: &Kernel, message: String) -> SimError {
    let mut e = SimError::host(SimErrorKind::MalformedIr, message);
    e.kernel = k.display_name.clone();
    e
}

impl Lower<'_> {
    fn emit(&mut self, op: Op) -> usize {
        self.p.ops.push(op);
        self.p
            .locs
            .push((self.cur_inst, self.last_site, self.cur_src));
        self.p.ops.len() - 1
    }

    fn here(&self) -> u32 {
        self.p.ops.len() as u32
    }

    fn invalid(&mut self, msg: String) {
        self.p.msgs.push(msg);
        let m = self.p.msgs.len() as u32 - 1;
        self.emit(Op::Invalid { msg: m });
    }

    fn var_slot(&self, v: ir::Var) -> Slot {
        v.0
    }

    fn fresh(&mut self) -> Slot {
        self.p.nslots += 1;
        self.p.template.push(0);
        self.p.nslots as Slot - 1
    }

    fn constant(&mut self, ty: Ty, bits: u64) -> Slot {
        if let Some(&s) = self.consts.get(&(ty, bits)) {
            return s;
        }
        let s = self.fresh();
        self.p.template[s as usize] = bits;
        self.consts.insert((ty, bits), s);
        s
    }

    fn opnd(&mut self, o: Operand) -> Slot {
        match o {
            Operand::Var(v) => self.var_slot(v),
            Operand::Const(c) => self.constant(c.ty, c.bits),
        }
    }

    /// A block's markers cover only its own instructions: what follows it (the rest of an `if`,
    /// a loop's back edge) is located where the enclosing block was.
    fn block(&mut self, b: &Block) {
        let outer = self.cur_src;
        for inst in &b.0 {
            self.inst(inst);
        }
        self.cur_src = outer;
    }

    fn patch(&mut self, at: usize, target: u32) {
        match &mut self.p.ops[at] {
            Op::Jmp { t } | Op::Jz { t, .. } => *t = target,
            Op::ForInit { exit, .. } => *exit = target,
            Op::ForNext { top, .. } => *top = target,
            _ => unreachable!("patching a non-jump"),
        }
    }

    fn inst(&mut self, inst: &Inst) {
        self.cur_inst = self.inst_index;
        self.inst_index += 1;
        let k = self.k;
        match inst {
            Inst::Mov { dst, src } => {
                let a = self.opnd(*src);
                self.emit(Op::Mov { d: dst.0, a });
            }
            Inst::Unary { dst, op, a } => {
                let ty = k.operand_ty(*a);
                let s = self.opnd(*a);
                match ops::un_fn(*op, ty) {
                    Some(f) => {
                        self.emit(Op::Un { f, d: dst.0, a: s });
                    }
                    None => self.invalid(format!("unary {op:?} on {ty:?}")),
                }
            }
            Inst::Binary { dst, op, a, b } => {
                let ty = k.operand_ty(*a);
                let (sa, sb) = (self.opnd(*a), self.opnd(*b));
                match ops::bin_fn(*op, ty) {
                    Some(f) => {
                        self.emit(Op::Bin {
                            f,
                            d: dst.0,
                            a: sa,
                            b: sb,
                        });
                    }
                    None => self.invalid(format!("binary {op:?} on {ty:?}")),
                }
            }
            Inst::Fma { dst, a, b, c } => {
                let ty = k.ty(*dst);
                let (sa, sb, sc) = (self.opnd(*a), self.opnd(*b), self.opnd(*c));
                match ops::fma_fn(ty) {
                    Some(f) => {
                        self.emit(Op::Fma {
                            f,
                            d: dst.0,
                            a: sa,
                            b: sb,
                            c: sc,
                        });
                    }
                    None => self.invalid(format!("fma on {ty:?}")),
                }
            }
            Inst::Cast { dst, a } => {
                let (from, to) = (k.operand_ty(*a), k.ty(*dst));
                let s = self.opnd(*a);
                if ops::cast(from, to, 0).is_some() {
                    self.emit(Op::Cast {
                        from,
                        to,
                        d: dst.0,
                        a: s,
                    });
                } else {
                    self.invalid(format!("cast from {from:?} to {to:?}"));
                }
            }
            Inst::Bitcast { dst, a } => {
                let (from, to) = (k.operand_ty(*a), k.ty(*dst));
                let s = self.opnd(*a);
                if from.bits() == to.bits() {
                    self.emit(Op::Mov { d: dst.0, a: s });
                } else {
                    self.invalid(format!("bitcast from {from:?} to {to:?}"));
                }
            }
            Inst::Select { dst, cond, a, b } => {
                let (c, sa, sb) = (self.opnd(*cond), self.opnd(*a), self.opnd(*b));
                self.emit(Op::Select {
                    d: dst.0,
                    c,
                    a: sa,
                    b: sb,
                });
            }
            Inst::Load {
                dst, space, addr, ..
            } => {
                let addr = self.opnd(*addr);
                self.emit(Op::Load {
                    space: *space,
                    ty: k.ty(*dst),
                    d: dst.0,
                    addr,
                });
            }
            Inst::LoadVec {
                dsts, space, addr, ..
            } => {
                let ty = dsts.first().map(|d| k.ty(*d));
                let same = ty.is_some_and(|t| dsts.iter().all(|d| k.ty(*d) == t));
                match ty {
                    Some(ty)
                        if same
                            && matches!(dsts.len(), 2 | 4)
                            && ty != Ty::Bool
                            && dsts.len() as u32 * ty.bytes() <= 16 =>
                    {
                        let addr = self.opnd(*addr);
                        let mut d = [dsts[0].0; 4];
                        for (slot, v) in d.iter_mut().zip(dsts) {
                            *slot = self.var_slot(*v);
                        }
                        self.emit(Op::LoadVec {
                            space: *space,
                            ty,
                            n: dsts.len() as u8,
                            d,
                            addr,
                        });
                    }
                    _ => self.invalid(format!(
                        "vector load of {} elements of {ty:?} (expects 2 or 4 of one type, at most 16 bytes)",
                        dsts.len()
                    )),
                }
            }
            Inst::Store { space, addr, val } => {
                let bytes = k.operand_ty(*val).bytes() as u8;
                let (addr, v) = (self.opnd(*addr), self.opnd(*val));
                self.emit(Op::Store {
                    space: *space,
                    bytes,
                    addr,
                    v,
                });
            }
            Inst::StoreVec { space, addr, vals } => {
                let ty = vals.first().map(|v| k.operand_ty(*v));
                let same = ty.is_some_and(|t| vals.iter().all(|v| k.operand_ty(*v) == t));
                match ty {
                    Some(ty)
                        if same
                            && matches!(vals.len(), 2 | 4)
                            && ty != Ty::Bool
                            && vals.len() as u32 * ty.bytes() <= 16 =>
                    {
                        let addr = self.opnd(*addr);
                        let first = self.opnd(vals[0]);
                        let mut v = [first; 4];
                        for (slot, x) in v.iter_mut().zip(vals).skip(1) {
                            *slot = self.opnd(*x);
                        }
                        self.emit(Op::StoreVec {
                            space: *space,
                            bytes: ty.bytes() as u8,
                            n: vals.len() as u8,
                            v,
                            addr,
                        });
                    }
                    _ => self.invalid(format!(
                        "vector store of {} elements of {ty:?} (expects 2 or 4 of one type, at most 16 bytes)",
                        vals.len()
                    )),
                }
            }
            Inst::SharedAddr { dst, alloc } => match self.p.shared_offsets.get(alloc.0 as usize) {
                Some(&off) => {
                    let a = self.constant(Ty::U32, off as u64);
                    self.emit(Op::Mov { d: dst.0, a });
                }
                None => self.invalid(format!("shared allocation {} does not exist", alloc.0)),
            },
            Inst::DynSharedAddr { dst } => {
                let a = self.constant(Ty::U32, self.p.dyn_offset as u64);
                self.emit(Op::Mov { d: dst.0, a });
            }
            Inst::DynSharedBytes { dst } => {
                let a = self.constant(Ty::U32, self.dyn_bytes as u64);
                self.emit(Op::Mov { d: dst.0, a });
            }
            Inst::ArrayLoad { dst, array, idx } => match k.arrays.get(array.0 as usize) {
                Some(arr) => {
                    let (base, len) = (self.array_base[array.0 as usize], arr.len);
                    let i = self.opnd(*idx);
                    self.emit(Op::ArrLoad {
                        base,
                        len,
                        d: dst.0,
                        i,
                    });
                }
                None => self.invalid(format!("local array {} does not exist", array.0)),
            },
            Inst::ArrayStore { array, idx, val } => match k.arrays.get(array.0 as usize) {
                Some(arr) => {
                    let (base, len) = (self.array_base[array.0 as usize], arr.len);
                    let (i, v) = (self.opnd(*idx), self.opnd(*val));
                    self.emit(Op::ArrStore { base, len, i, v });
                }
                None => self.invalid(format!("local array {} does not exist", array.0)),
            },
            Inst::Intrinsic { id, dsts, args } => {
                let def = id.def();
                // Reachable or not, ptxas refuses the whole module: the launch reports it.
                if def.min_sm > self.sm && self.p.too_new.is_none() {
                    self.p.too_new = Some((self.p.ops.len(), def));
                }
                if args.len() != def.args.len() || dsts.len() != def.rets.len() {
                    return self.invalid(format!(
                        "intrinsic `{}` takes {} arguments and {} results",
                        def.name,
                        def.args.len(),
                        def.rets.len()
                    ));
                }
                if let (Some(reg), [d]) = (def.reg.map(sreg), &dsts[..]) {
                    self.emit(Op::Sreg { d: d.0, reg });
                    return;
                }
                let args = args.iter().map(|a| self.opnd(*a)).collect();
                let dsts = dsts.iter().map(|d| d.0).collect();
                self.p.calls.push(Call { def, args, dsts });
                let call = self.p.calls.len() as u32 - 1;
                match def.class {
                    Class::Pure | Class::Memory if def.sim.is_some() => {
                        self.emit(Op::Call { call });
                    }
                    Class::Barrier if def.rets.is_empty() || def.sim_warp.is_some() => {
                        self.emit(Op::Barrier { call });
                    }
                    // The scheduler tells the two apart by the call's class.
                    Class::ClusterBarrier | Class::GridBarrier if def.rets.is_empty() => {
                        self.emit(Op::Barrier { call });
                    }
                    Class::Warp if def.sim_warp.is_some() => {
                        self.emit(Op::Warp { call });
                    }
                    _ => self.invalid(format!(
                        "intrinsic `{}` has no simulator semantics",
                        def.name
                    )),
                }
            }
            Inst::BoundsCheck { idx, len, site } => {
                self.last_site = Some(*site);
                let (i, l) = (self.opnd(*idx), self.opnd(*len));
                self.emit(Op::Bounds { i, l, site: site.0 });
            }
            Inst::Panic { site, a, b } => {
                self.last_site = Some(*site);
                let (sa, sb) = (self.opnd(*a), self.opnd(*b));
                self.emit(Op::Panic {
                    site: site.0,
                    a: sa,
                    b: sb,
                });
            }
            Inst::Print { format, args } => {
                let mut lowered = Vec::with_capacity(args.len());
                for &a in args {
                    let ty = k.operand_ty(a);
                    if !matches!(ty, Ty::I32 | Ty::U32 | Ty::I64 | Ty::U64 | Ty::F64) {
                        return self.invalid(format!("printf argument of unpromoted type {ty:?}"));
                    }
                    lowered.push((self.opnd(a), ty));
                }
                let call = self.p.prints.len() as u32;
                self.p.prints.push(PrintCall {
                    format: format.clone(),
                    args: lowered,
                });
                self.emit(Op::Print { call });
            }
            Inst::If { cond, then, els } => {
                let c = self.opnd(*cond);
                let jz = self.emit(Op::Jz { c, t: 0 });
                self.block(then);
                if els.0.is_empty() {
                    let end = self.here();
                    self.patch(jz, end);
                } else {
                    let j = self.emit(Op::Jmp { t: 0 });
                    let e = self.here();
                    self.patch(jz, e);
                    self.block(els);
                    let end = self.here();
                    self.patch(j, end);
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
                let ty = k.ty(*iv);
                if !ty.is_int() {
                    return self.invalid(format!("for loop over {ty:?}"));
                }
                let (s, e, st) = (self.opnd(*start), self.opnd(*end), self.opnd(*step));
                let (lo, hi, stc) = (self.fresh(), self.fresh(), self.fresh());
                self.p.fors.push(ForInfo {
                    ty,
                    iv: iv.0,
                    start: s,
                    end: e,
                    step: st,
                    lo,
                    hi,
                    st: stc,
                    inclusive: *inclusive,
                    reverse: *reverse,
                });
                let info = self.p.fors.len() as u32 - 1;
                let init = self.emit(Op::ForInit { info, exit: 0 });
                let top = self.here();
                self.loops.push((*id, Vec::new(), Vec::new()));
                self.block(body);
                let (_, conts, breaks) = self.loops.pop().expect("loop stack");
                let next = self.here();
                self.emit(Op::ForNext { info, top });
                let exit = self.here();
                self.patch(init, exit);
                for c in conts {
                    self.patch(c, next);
                }
                for b in breaks {
                    self.patch(b, exit);
                }
            }
            Inst::Loop { id, body } => {
                let top = self.here();
                self.loops.push((*id, Vec::new(), Vec::new()));
                self.block(body);
                self.emit(Op::Jmp { t: top });
                let (_, conts, breaks) = self.loops.pop().expect("loop stack");
                let exit = self.here();
                for c in conts {
                    self.patch(c, top);
                }
                for b in breaks {
                    self.patch(b, exit);
                }
            }
            Inst::Break(id) | Inst::Continue(id) => {
                let is_break = matches!(inst, Inst::Break(_));
                let Some(pos) = self.loops.iter().rposition(|l| l.0 == *id) else {
                    return self.invalid(format!("break/continue of loop {} outside it", id.0));
                };
                let j = self.emit(Op::Jmp { t: 0 });
                let entry = &mut self.loops[pos];
                if is_break {
                    entry.2.push(j);
                } else {
                    entry.1.push(j);
                }
            }
            Inst::Return => {
                self.emit(Op::Exit);
            }
            Inst::Loc(l) => {
                self.p.srcs.push(*l);
                self.cur_src = Some(self.p.srcs.len() as u32 - 1);
            }
        }
    }
}
