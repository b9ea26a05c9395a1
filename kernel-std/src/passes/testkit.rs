//! Compact builders for hand-written IR in the passes' tests.

use crate::intrinsics;
use crate::ir::*;

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

pub fn op(v: impl Into<Operand>) -> Operand {
    v.into()
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
pub fn un(dst: Var, op: UnOp, a: impl Into<Operand>) -> Inst {
    Inst::Unary {
        dst,
        op,
        a: a.into(),
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
    crate::ir_print::body_text(k)
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
