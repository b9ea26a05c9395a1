//! Flattened values and the places they live in, and the IR emitted to move between them.
//!
//! A [`Val`] is what an expression produces; a [`Loc`] is storage (registers, a slice of local
//! arrays, memory). Arrays are never copied into registers by value: an array-typed `Val` names
//! its storage and is copied element-wise when bound or assigned.

use kernel_ir::ast::Span;
use kernel_ir::ir::{self, ArrayId, BinOp, Inst, Operand, Space, Var};

pub use super::emit::{c_int, c_u32, c_u64};
use super::layout::{layout, leaves, struct_fields, struct_layout};
use super::types::{self, array_flat, mem_ir, Ty};
use super::{Lower, R};

/// A slice value: a pointer (U64 global address or U32 shared offset) and a U64 length. A slice
/// of a thread-local array (`local`: its arrays) has the U32 flat element index as `ptr`.
#[derive(Clone, Debug)]
pub struct SliceVal {
    pub ptr: Operand,
    pub len: Operand,
    pub space: Space,
    pub readonly: bool,
    pub local: Option<Vec<ArrayId>>,
}

#[derive(Clone, Debug)]
pub enum Val {
    Unit,
    /// Control never reaches the point where this value would be used.
    Never,
    Scalar(Operand),
    /// Tuple elements / struct fields in declaration order.
    Agg(Vec<Val>),
    /// An array, by the storage that holds it; `temp` when that storage is a fresh temporary
    /// that a binding may adopt instead of copying.
    Array {
        loc: Loc,
        temp: bool,
    },
    Slice(SliceVal),
    Ref(Loc),
}

#[derive(Clone, Debug)]
pub enum Loc {
    Unit,
    Var(Var),
    Agg(Vec<Loc>),
    /// A value at flat element `index` (U32) of local arrays, one array per scalar leaf of the
    /// innermost element type; an array-typed value spans consecutive elements from `index`.
    Local {
        arrays: Vec<ArrayId>,
        index: Operand,
    },
    /// A value in memory at byte address `addr` (U64 global, U32 shared).
    Mem {
        space: Space,
        addr: Operand,
        readonly: bool,
    },
    /// A mutable slice variable.
    SliceVars {
        ptr: Var,
        len: Var,
        space: Space,
        readonly: bool,
        local: Option<Vec<ArrayId>>,
    },
    /// An immutable binding of a reference or slice: cannot be assigned.
    Fixed(Box<Val>),
    /// A reference that can be re-pointed (`let mut r = &mut a[i]`, a value several `return`s or
    /// branches produce): the address or element index lives in register `at`; the memory
    /// space or local arrays are fixed.
    RefVar {
        target: RefTarget,
        at: Option<Var>,
    },
}

/// What a [`Loc::RefVar`] can point into.
#[derive(Clone, Debug, PartialEq)]
pub enum RefTarget {
    Mem {
        space: Space,
        readonly: bool,
    },
    Local {
        arrays: Vec<ArrayId>,
    },
    /// Always the same register variable (`at` is `None`).
    Reg(Var),
}

impl Lower {
    /// Fresh local arrays for an array type: one per scalar leaf of its innermost element.
    pub fn new_arrays(&mut self, t: &Ty, span: Span) -> R<Vec<ArrayId>> {
        let (elem, n) = array_flat(t);
        let ls = leaves(elem).map_err(|m| self.err(span, m))?;
        if n > u32::MAX as u64 {
            return Err(self.err(span, format!("array type `{t}` is too large")));
        }
        Ok(ls
            .into_iter()
            .map(|l| {
                self.k.arrays.push(ir::LocalArray {
                    elem: mem_ir(l),
                    len: n as u32,
                });
                ArrayId(self.k.arrays.len() as u32 - 1)
            })
            .collect())
    }

    /// Storage for a binding of type `t`, shaped after `init` where the type alone does not say
    /// enough (slices: which memory space; references: which place).
    pub fn alloc(
        &mut self,
        t: &Ty,
        init: Option<&Val>,
        mutable: bool,
        name: &str,
        span: Span,
    ) -> R<Loc> {
        Ok(match t {
            Ty::Unit | Ty::Never => Loc::Unit,
            Ty::Bool | Ty::Int(_) | Ty::Float(_) => Loc::Var(self.named_var(t.ir().unwrap(), name)),
            Ty::Tuple(ts) => {
                let mut ls = Vec::new();
                for (i, et) in ts.iter().enumerate() {
                    let sub = match init {
                        Some(Val::Agg(vs)) => vs.get(i),
                        _ => None,
                    };
                    ls.push(self.alloc(et, sub, mutable, &format!("{name}.{i}"), span)?);
                }
                Loc::Agg(ls)
            }
            Ty::Struct(s) => {
                let fs = struct_fields(*s).map_err(|m| self.err(span, m))?;
                let mut ls = Vec::new();
                for (i, (fname, ft)) in fs.iter().enumerate() {
                    let sub = match init {
                        Some(Val::Agg(vs)) => vs.get(i),
                        _ => None,
                    };
                    ls.push(self.alloc(ft, sub, mutable, &format!("{name}.{fname}"), span)?);
                }
                Loc::Agg(ls)
            }
            Ty::Array(..) => Loc::Local {
                arrays: self.new_arrays(t, span)?,
                index: c_u32(0),
            },
            Ty::Slice(..) => match init {
                Some(Val::Slice(s)) if mutable => {
                    let ptr = self.named_var(self.op_ty(s.ptr), &format!("{name}.ptr"));
                    let len = self.named_var(ir::Ty::U64, &format!("{name}.len"));
                    Loc::SliceVars {
                        ptr,
                        len,
                        space: s.space,
                        readonly: s.readonly,
                        local: s.local.clone(),
                    }
                }
                Some(v @ Val::Slice(_)) => Loc::Fixed(Box::new(v.clone())),
                _ => {
                    return Err(self.err(
                        span,
                        format!("slice variable `{name}` must be initialised where it is declared"),
                    ))
                }
            },
            Ty::Ref(..) => match init {
                Some(v @ Val::Ref(_)) if !mutable => Loc::Fixed(Box::new(v.clone())),
                Some(Val::Ref(target)) => {
                    let (target, at_ty) = match target {
                        Loc::Mem {
                            space,
                            addr,
                            readonly,
                        } => (
                            RefTarget::Mem {
                                space: *space,
                                readonly: *readonly,
                            },
                            Some(self.op_ty(*addr)),
                        ),
                        Loc::Local { arrays, .. } => (
                            RefTarget::Local {
                                arrays: arrays.clone(),
                            },
                            Some(ir::Ty::U32),
                        ),
                        Loc::Var(v) => (RefTarget::Reg(*v), None),
                        _ => {
                            return Err(self.err(
                                span,
                                format!("`{name}`: a reference to this value cannot be re-pointed or returned from several places"),
                            ))
                        }
                    };
                    let at = at_ty.map(|t| self.named_var(t, &format!("{name}.ref")));
                    Loc::RefVar { target, at }
                }
                _ => {
                    return Err(self.err(
                        span,
                        format!(
                            "reference variable `{name}` must be initialised where it is declared"
                        ),
                    ))
                }
            },
            Ty::Range(_) | Ty::Iter(_) | Ty::Var(_) => {
                return Err(self.err(span, format!("a variable of type `{t}` is not supported")))
            }
        })
    }

    /// Reads the value of type `t` stored at `loc`. Registers are copied so that the value does
    /// not change if the variable is assigned later.
    pub fn read(&mut self, loc: &Loc, t: &Ty, span: Span) -> R<Val> {
        if matches!(loc, Loc::Mem { .. }) && super::infer::bulk::is_tensor_map(t) {
            // Its bytes live in parameter space, which no load of ours reads.
            return Err(self.err(
                span,
                "a `TensorMap` is opaque: pass the `&TensorMap` parameter itself to the TMA functions (`cp_async_bulk_tensor_*`, `prefetch_tensormap`)",
            ));
        }
        Ok(match loc {
            Loc::Unit => match t {
                Ty::Never => Val::Never,
                _ => Val::Unit,
            },
            Loc::Var(v) => Val::Scalar(self.snapshot(Operand::Var(*v))),
            Loc::Fixed(v) => (**v).clone(),
            Loc::RefVar { target, at } => {
                let at = at.map(|a| self.snapshot(Operand::Var(a)));
                Val::Ref(match (target, at) {
                    (RefTarget::Mem { space, readonly }, Some(addr)) => Loc::Mem {
                        space: *space,
                        addr,
                        readonly: *readonly,
                    },
                    (RefTarget::Local { arrays }, Some(index)) => Loc::Local {
                        arrays: arrays.clone(),
                        index,
                    },
                    (RefTarget::Reg(v), _) => Loc::Var(*v),
                    _ => return Err(self.err(span, "internal: malformed reference variable")),
                })
            }
            Loc::SliceVars {
                ptr,
                len,
                space,
                readonly,
                local,
            } => Val::Slice(SliceVal {
                ptr: self.snapshot(Operand::Var(*ptr)),
                len: self.snapshot(Operand::Var(*len)),
                space: *space,
                readonly: *readonly,
                local: local.clone(),
            }),
            Loc::Agg(ls) => {
                let tys = self.agg_tys(t, span)?;
                let mut vs = Vec::new();
                for (l, et) in ls.iter().zip(tys.iter()) {
                    vs.push(self.read(l, et, span)?);
                }
                Val::Agg(vs)
            }
            Loc::Local { .. } | Loc::Mem { .. } if matches!(t, Ty::Array(..)) => Val::Array {
                loc: loc.clone(),
                temp: false,
            },
            Loc::Local { arrays, index } => {
                if let Some(st) = t.ir() {
                    let mt = mem_ir(st);
                    let dst = self.var(mt);
                    self.emit(Inst::ArrayLoad {
                        dst,
                        array: arrays[0],
                        idx: *index,
                    });
                    Val::Scalar(self.mem_to_reg(Operand::Var(dst), st))
                } else {
                    let tys = self.agg_tys(t, span)?;
                    let mut vs = Vec::new();
                    for (i, et) in tys.iter().enumerate() {
                        let l = self.field_loc(loc, t, i, span)?;
                        vs.push(self.read(&l, et, span)?);
                    }
                    Val::Agg(vs)
                }
            }
            Loc::Mem {
                space,
                addr,
                readonly,
            } => {
                if let Some(st) = t.ir() {
                    let dst = self.var(mem_ir(st));
                    self.mark(span);
                    self.emit(Inst::Load {
                        dst,
                        space: *space,
                        addr: *addr,
                        readonly: *readonly,
                    });
                    Val::Scalar(self.mem_to_reg(Operand::Var(dst), st))
                } else {
                    let tys = self.agg_tys(t, span)?;
                    let mut vs = Vec::new();
                    for (i, et) in tys.iter().enumerate() {
                        let l = self.field_loc(loc, t, i, span)?;
                        vs.push(self.read(&l, et, span)?);
                    }
                    Val::Agg(vs)
                }
            }
        })
    }

    /// Converts a loaded memory scalar to its register form (`u8` -> `bool`).
    fn mem_to_reg(&mut self, o: Operand, t: ir::Ty) -> Operand {
        if t == ir::Ty::Bool {
            self.bin(BinOp::Ne, o, c_int(ir::Ty::U8, 0))
        } else {
            o
        }
    }

    fn reg_to_mem(&mut self, o: Operand) -> Operand {
        if self.op_ty(o) == ir::Ty::Bool {
            self.cast(o, ir::Ty::U8)
        } else {
            o
        }
    }

    /// Element / field types of an aggregate type.
    pub fn agg_tys(&self, t: &Ty, span: Span) -> R<Vec<Ty>> {
        match t {
            Ty::Tuple(ts) => Ok(ts.clone()),
            Ty::Struct(s) => Ok(struct_fields(*s)
                .map_err(|m| self.err(span, m))?
                .into_iter()
                .map(|(_, t)| t)
                .collect()),
            _ => Err(self.err(span, format!("internal: `{t}` is not an aggregate"))),
        }
    }

    /// Stores `val` (of type `t`) into `loc`.
    pub fn write(&mut self, loc: &Loc, t: &Ty, val: &Val, span: Span) -> R<()> {
        if matches!(val, Val::Never) {
            return Ok(());
        }
        match (loc, val) {
            (Loc::Unit, _) => Ok(()),
            (Loc::Var(v), Val::Scalar(o)) => {
                self.emit(Inst::Mov { dst: *v, src: *o });
                Ok(())
            }
            (Loc::Agg(ls), Val::Agg(vs)) => {
                let tys = self.agg_tys(t, span)?;
                for ((l, v), et) in ls.iter().zip(vs).zip(tys.iter()) {
                    self.write(l, et, v, span)?;
                }
                Ok(())
            }
            (
                Loc::SliceVars {
                    ptr,
                    len,
                    space,
                    local,
                    ..
                },
                Val::Slice(s),
            ) => {
                if *space != s.space || *local != s.local {
                    return Err(self.err(
                        span,
                        "a slice variable cannot switch between global, shared and thread-local memory",
                    ));
                }
                self.emit(Inst::Mov {
                    dst: *ptr,
                    src: s.ptr,
                });
                self.emit(Inst::Mov {
                    dst: *len,
                    src: s.len,
                });
                Ok(())
            }
            (Loc::Local { .. } | Loc::Mem { .. }, Val::Array { loc: src, .. }) => {
                self.copy_array(loc, src, t, span)
            }
            (Loc::Local { arrays, index }, Val::Scalar(o)) => {
                let o = self.reg_to_mem(*o);
                self.emit(Inst::ArrayStore {
                    array: arrays[0],
                    idx: *index,
                    val: o,
                });
                Ok(())
            }
            (
                Loc::Mem {
                    space,
                    addr,
                    readonly,
                },
                Val::Scalar(o),
            ) => {
                if *readonly {
                    return Err(self.err(span, "cannot write through a shared reference (`&[T]`)"));
                }
                let o = self.reg_to_mem(*o);
                self.mark(span);
                self.emit(Inst::Store {
                    space: *space,
                    addr: *addr,
                    val: o,
                });
                Ok(())
            }
            (Loc::Local { .. } | Loc::Mem { .. }, Val::Agg(vs)) => {
                let tys = self.agg_tys(t, span)?;
                for (i, (v, et)) in vs.iter().zip(tys.iter()).enumerate() {
                    let l = self.field_loc(loc, t, i, span)?;
                    self.write(&l, et, v, span)?;
                }
                Ok(())
            }
            (Loc::RefVar { target, at }, Val::Ref(to)) => {
                let src = match (target, to) {
                    (
                        RefTarget::Mem { space, .. },
                        Loc::Mem {
                            space: s2, addr, ..
                        },
                    ) if space == s2 => Some(*addr),
                    (RefTarget::Local { arrays }, Loc::Local { arrays: a2, index })
                        if arrays == a2 =>
                    {
                        Some(*index)
                    }
                    (RefTarget::Reg(v), Loc::Var(v2)) if v == v2 => None,
                    _ => {
                        return Err(self.err(
                            span,
                            "a reference can only be re-pointed within the same memory, array or variable",
                        ))
                    }
                };
                if let (Some(at), Some(src)) = (at, src) {
                    self.emit(Inst::Mov { dst: *at, src });
                }
                Ok(())
            }
            (Loc::Fixed(_), _) => Err(self.err(
                span,
                "cannot assign to an immutable reference or slice binding",
            )),
            _ => Err(self.err(
                span,
                format!("internal: cannot store this value into a `{t}` place"),
            )),
        }
    }

    /// Element-wise copy of an array (flattened over nested dimensions), as a counted loop.
    fn copy_array(&mut self, dst: &Loc, src: &Loc, t: &Ty, span: Span) -> R<()> {
        let (elem, n) = array_flat(t);
        let elem = elem.clone();
        if n == 0 {
            return Ok(());
        }
        let id = self.k.new_loop();
        let iv = self.var(ir::Ty::U32);
        self.open();
        let d = self.flat_elem_loc(dst, &elem, Operand::Var(iv), span)?;
        let s = self.flat_elem_loc(src, &elem, Operand::Var(iv), span)?;
        let v = self.read(&s, &elem, span)?;
        self.write(&d, &elem, &v, span)?;
        let body = self.close();
        self.emit(Inst::For {
            id,
            iv,
            start: c_u32(0),
            end: c_u32(n as u32),
            inclusive: false,
            step: c_u32(1),
            reverse: false,
            body,
            unroll: ir::Unroll::Auto,
        });
        Ok(())
    }

    /// The innermost element at flat position `i` (U32) of an array stored at `loc`.
    fn flat_elem_loc(&mut self, loc: &Loc, elem: &Ty, i: Operand, span: Span) -> R<Loc> {
        Ok(match loc {
            Loc::Local { arrays, index } => Loc::Local {
                arrays: arrays.clone(),
                index: self.bin(BinOp::Add, *index, i),
            },
            Loc::Mem {
                space,
                addr,
                readonly,
            } => {
                let (size, _) = layout(elem).map_err(|m| self.err(span, m))?;
                let addr = self.scaled_addr(*space, *addr, i, size);
                Loc::Mem {
                    space: *space,
                    addr,
                    readonly: *readonly,
                }
            }
            _ => return Err(self.err(span, "internal: array storage expected")),
        })
    }

    /// `base + i * size` in the address width of `space`; `i` is any unsigned integer operand.
    pub fn scaled_addr(&mut self, space: Space, base: Operand, i: Operand, size: u32) -> Operand {
        let at = space.addr_ty();
        let i = self.cast(i, at);
        let off = self.bin(BinOp::Mul, i, c_int(at, size as i128));
        self.bin(BinOp::Add, base, off)
    }

    /// Field `i` of an aggregate of type `t` stored at `loc`.
    pub fn field_loc(&mut self, loc: &Loc, t: &Ty, i: usize, span: Span) -> R<Loc> {
        Ok(match loc {
            Loc::Agg(ls) => ls
                .get(i)
                .cloned()
                .ok_or_else(|| self.err(span, "internal: field out of range"))?,
            Loc::Local { arrays, index } => {
                let tys = self.agg_tys(t, span)?;
                let mut start = 0;
                for et in &tys[..i] {
                    start += leaves(et).map_err(|m| self.err(span, m))?.len();
                }
                let n = leaves(&tys[i]).map_err(|m| self.err(span, m))?.len();
                Loc::Local {
                    arrays: arrays[start..start + n].to_vec(),
                    index: *index,
                }
            }
            Loc::Mem {
                space,
                addr,
                readonly,
            } => {
                let Ty::Struct(s) = t else {
                    return Err(self.err(
                        span,
                        format!("`{t}` has no memory layout (tuples cannot live in device memory)"),
                    ));
                };
                let (_, _, offs) = struct_layout(*s).map_err(|m| self.err(span, m))?;
                let off = offs[i];
                let at = self.op_ty(*addr);
                let addr = self.bin(BinOp::Add, *addr, c_int(at, off as i128));
                Loc::Mem {
                    space: *space,
                    addr,
                    readonly: *readonly,
                }
            }
            Loc::Fixed(v) => match &**v {
                Val::Agg(vs) => Loc::Fixed(Box::new(vs[i].clone())),
                _ => return Err(self.err(span, "internal: aggregate expected")),
            },
            _ => return Err(self.err(span, "internal: aggregate storage expected")),
        })
    }

    /// Element `i` (U64, already bounds checked) of an array of type `t` stored at `loc`.
    pub fn array_elem_loc(&mut self, loc: &Loc, t: &Ty, i: Operand, span: Span) -> R<Loc> {
        let Ty::Array(elem, _) = t else {
            return Err(self.err(span, "internal: array expected"));
        };
        Ok(match loc {
            Loc::Local { arrays, index } => {
                let (_, inner) = array_flat(elem);
                let i = self.cast(i, ir::Ty::U32);
                let off = self.bin(BinOp::Mul, i, c_u32(inner as u32));
                Loc::Local {
                    arrays: arrays.clone(),
                    index: self.bin(BinOp::Add, *index, off),
                }
            }
            Loc::Mem {
                space,
                addr,
                readonly,
            } => {
                let (size, _) = layout(elem).map_err(|m| self.err(span, m))?;
                Loc::Mem {
                    space: *space,
                    addr: self.scaled_addr(*space, *addr, i, size),
                    readonly: *readonly,
                }
            }
            _ => return Err(self.err(span, "internal: array storage expected")),
        })
    }

    /// Materialises a value into storage so that it can be indexed or borrowed.
    pub fn materialize(&mut self, v: Val, t: &Ty, span: Span) -> R<Loc> {
        Ok(match v {
            Val::Array { loc, .. } => loc,
            Val::Ref(_) | Val::Slice(_) => Loc::Fixed(Box::new(v)),
            Val::Unit | Val::Never => Loc::Unit,
            v => {
                let loc = self.alloc(t, Some(&v), false, "tmp", span)?;
                self.write(&loc, t, &v, span)?;
                loc
            }
        })
    }

    /// A binding's storage initialised from `v` (adopting temporary arrays instead of copying).
    pub fn bind_value(&mut self, t: &Ty, v: Val, mutable: bool, name: &str, span: Span) -> R<Loc> {
        if let Val::Array { loc, temp: true } = &v {
            return Ok(loc.clone());
        }
        if matches!(v, Val::Never) {
            // Unreachable binding: storage only matters for its type.
            if types::has_view(t) {
                return Ok(Loc::Unit);
            }
            return self.alloc_uninit(t, name, span);
        }
        let loc = self.alloc(t, Some(&v), mutable, name, span)?;
        if !matches!(loc, Loc::Fixed(_)) {
            self.write(&loc, t, &v, span)?;
        }
        Ok(loc)
    }

    /// Storage for a value assigned later (`let x;`, `loop` and device-function results): its
    /// shape must follow from the type alone, so no slices or references.
    pub fn alloc_uninit(&mut self, t: &Ty, name: &str, span: Span) -> R<Loc> {
        if types::has_view(t) {
            return Err(self.err(
                span,
                format!("`{name}` of type `{t}` must be given its value where it is declared (slices and references are fixed to the memory they view)"),
            ));
        }
        self.alloc(t, None, true, name, span)
    }
}

/// The IR scalar type of a front-end scalar type (callers check `is_scalar` first).
pub fn scalar_ir(t: &Ty) -> ir::Ty {
    t.ir().unwrap_or(ir::Ty::U32)
}
