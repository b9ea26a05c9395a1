//! Compact builders for hand-made IR kernels, and the assemble-everywhere check the PTX tests share.
#![allow(dead_code)]

use kernel_compiler::ptx;
use kernel_compiler::CompileOptions;
use kernel_ir::ir::*;
use kernel_std::intrinsics;

pub const ALL_TYS: [Ty; 13] = Ty::ALL;

pub struct KB {
    pub k: Kernel,
    stack: Vec<Vec<Inst>>,
}

pub fn c(ty: Ty, bits: u64) -> Operand {
    Operand::Const(Const { ty, bits })
}

pub fn v(x: Var) -> Operand {
    Operand::Var(x)
}

impl KB {
    pub fn new(name: &str) -> KB {
        KB {
            k: Kernel {
                name: name.into(),
                display_name: format!("tests::{name}"),
                params: vec![],
                vars: vec![],
                var_names: vec![],
                arrays: vec![],
                shared: vec![],
                uses_dyn_shared: false,
                panic_sites: vec![],
                body: Block::default(),
                attrs: KernelAttrs::default(),
                next_loop: 0,
            },
            stack: vec![vec![]],
        }
    }

    pub fn var(&mut self, ty: Ty) -> Var {
        self.k.new_var(ty)
    }

    pub fn push(&mut self, i: Inst) {
        self.stack.last_mut().unwrap().push(i);
    }

    pub fn scalar_param(&mut self, name: &str, ty: Ty) -> Var {
        let x = self.var(ty);
        self.k.params.push(Param {
            name: name.into(),
            size: ty.bytes(),
            align: ty.bytes(),
            kind: ParamKind::Scalar,
            pieces: vec![(0, x)],
        });
        x
    }

    /// A slice parameter: (pointer, length).
    pub fn slice_param(&mut self, name: &str, readonly: bool, elem: Ty) -> (Var, Var) {
        let p = self.var(Ty::U64);
        let l = self.var(Ty::U64);
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

    pub fn struct_param(
        &mut self,
        name: &str,
        size: u32,
        align: u32,
        pieces: &[(u32, Ty)],
    ) -> Vec<Var> {
        let vars: Vec<Var> = pieces.iter().map(|&(_, t)| self.var(t)).collect();
        self.k.params.push(Param {
            name: name.into(),
            size,
            align,
            kind: ParamKind::Struct,
            pieces: pieces
                .iter()
                .zip(&vars)
                .map(|(&(o, _), &x)| (o, x))
                .collect(),
        });
        vars
    }

    pub fn bin(&mut self, op: BinOp, a: Operand, b: Operand) -> Var {
        let ty = if op.is_compare() {
            Ty::Bool
        } else {
            self.k.operand_ty(a)
        };
        let dst = self.var(ty);
        self.push(Inst::Binary { dst, op, a, b });
        dst
    }

    pub fn un(&mut self, op: UnOp, a: Operand) -> Var {
        let ty = if matches!(op, UnOp::Popc | UnOp::Clz) {
            Ty::U32
        } else {
            self.k.operand_ty(a)
        };
        let dst = self.var(ty);
        self.push(Inst::Unary { dst, op, a });
        dst
    }

    pub fn cast(&mut self, a: Operand, to: Ty) -> Var {
        let dst = self.var(to);
        self.push(Inst::Cast { dst, a });
        dst
    }

    pub fn bitcast(&mut self, a: Operand, to: Ty) -> Var {
        let dst = self.var(to);
        self.push(Inst::Bitcast { dst, a });
        dst
    }

    pub fn intrinsic(&mut self, name: &str, args: Vec<Operand>) -> Vec<Var> {
        let id = intrinsics::lookup(name).unwrap_or_else(|| panic!("no intrinsic {name}"));
        let rets = id.def().rets;
        let dsts: Vec<Var> = rets.iter().map(|&t| self.var(t)).collect();
        self.push(Inst::Intrinsic {
            id,
            dsts: dsts.clone(),
            args,
        });
        dsts
    }

    pub fn tid_x(&mut self) -> Var {
        self.intrinsic("tid.x", vec![])[0]
    }

    /// `ptr + (idx as u64) * elem_bytes` as a global address.
    pub fn elem_addr(&mut self, ptr: Var, idx: Operand, elem: Ty) -> Var {
        let i64v = if self.k.operand_ty(idx) == Ty::U64 {
            match idx {
                Operand::Var(x) => x,
                o => {
                    let x = self.var(Ty::U64);
                    self.push(Inst::Mov { dst: x, src: o });
                    x
                }
            }
        } else {
            self.cast(idx, Ty::U64)
        };
        let off = self.bin(BinOp::Mul, v(i64v), c(Ty::U64, elem.bytes() as u64));
        self.bin(BinOp::Add, v(ptr), v(off))
    }

    pub fn load_global(&mut self, ty: Ty, addr: Var, readonly: bool) -> Var {
        let dst = self.var(ty);
        self.push(Inst::Load {
            dst,
            space: Space::Global,
            addr: v(addr),
            readonly,
        });
        dst
    }

    pub fn store_global(&mut self, addr: Var, val: Operand) {
        self.push(Inst::Store {
            space: Space::Global,
            addr: v(addr),
            val,
        });
    }

    pub fn site(&mut self, kind: PanicKind) -> SiteId {
        self.k.panic_sites.push(PanicSite {
            kind,
            file: "tests.rs".into(),
            line: 1 + self.k.panic_sites.len() as u32,
            col: 5,
        });
        SiteId(self.k.panic_sites.len() as u32 - 1)
    }

    pub fn block(&mut self, f: impl FnOnce(&mut KB)) -> Block {
        self.stack.push(vec![]);
        f(self);
        Block(self.stack.pop().unwrap())
    }

    pub fn if_(&mut self, cond: Operand, then: impl FnOnce(&mut KB), els: impl FnOnce(&mut KB)) {
        let then = self.block(then);
        let els = self.block(els);
        self.push(Inst::If { cond, then, els });
    }

    #[allow(clippy::too_many_arguments)]
    pub fn for_(
        &mut self,
        ty: Ty,
        start: Operand,
        end: Operand,
        inclusive: bool,
        step: Operand,
        reverse: bool,
        body: impl FnOnce(&mut KB, Var, LoopId),
    ) {
        let id = self.k.new_loop();
        let iv = self.var(ty);
        let body = self.block(|b| body(b, iv, id));
        self.push(Inst::For {
            id,
            iv,
            start,
            end,
            inclusive,
            step,
            reverse,
            body,
            unroll: Unroll::Never,
        });
    }

    pub fn loop_(&mut self, body: impl FnOnce(&mut KB, LoopId)) {
        let id = self.k.new_loop();
        let body = self.block(|b| body(b, id));
        self.push(Inst::Loop { id, body });
    }

    pub fn finish(mut self) -> Kernel {
        assert_eq!(self.stack.len(), 1);
        self.k.body = Block(self.stack.pop().unwrap());
        self.k
    }
}

pub fn opts(sm: u32) -> CompileOptions {
    CompileOptions {
        sm,
        ..CompileOptions::default()
    }
}

/// The ptxas architecture that checks PTX emitted for `sm`: CUDA 13's ptxas no longer accepts
/// sm_70, so PTX targeting sm_70 is assembled for the closest architecture it knows (sm_75; a
/// `.target` below the `-arch` is legal), which still rejects every sm_80-only instruction.
pub fn arch_for(sm: u32) -> u32 {
    if sm < 75 {
        75
    } else {
        sm
    }
}

/// Emits `k` for every target in `sms`, assembles each with ptxas (when present; errors and
/// warnings both fail) and returns the PTX and the report per target.
pub fn check_on(
    k: &Kernel,
    sms: &[u32],
) -> Vec<(u32, String, Option<kernel_testkit::ptxas::PtxasReport>)> {
    let have = kernel_testkit::ptxas::require_ptxas().is_some();
    sms.iter()
        .map(|&sm| {
            let text = ptx::emit(k, &opts(sm)).unwrap_or_else(|e| panic!("emit for sm_{sm}: {e}"));
            let report = have.then(|| {
                kernel_testkit::ptxas::assemble(&text, arch_for(sm)).unwrap_or_else(|e| {
                    panic!("ptxas rejected PTX for sm_{sm}:\n{e}\n--- PTX ---\n{text}")
                })
            });
            if let Some(r) = &report {
                assert!(
                    !r.log.contains("warning"),
                    "ptxas warned for sm_{sm}:\n{}\n--- PTX ---\n{text}",
                    r.log
                );
            }
            (sm, text, report)
        })
        .collect()
}

/// Assembles for sm_70 (as sm_75), sm_80 and sm_90; returns the sm_80 PTX.
pub fn check(k: &Kernel) -> String {
    check_on(k, &[70, 80, 90])
        .into_iter()
        .find(|(sm, _, _)| *sm == 80)
        .map(|(_, t, _)| t)
        .unwrap()
}

/// Asserts that `ptx` has a line containing `needle` (whitespace-normalized).
pub fn has_line(ptx: &str, needle: &str) -> bool {
    ptx.lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .any(|l| l.contains(needle))
}

#[track_caller]
pub fn assert_line(ptx: &str, needle: &str) {
    assert!(
        has_line(ptx, needle),
        "no line containing `{needle}` in:\n{ptx}"
    );
}
