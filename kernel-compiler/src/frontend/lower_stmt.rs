//! Kernel entry (parameters), blocks, `let` with irrefutable patterns, and `if`.

use crate::passes::fx::FxHashMap as HashMap;

use kernel_ir::ast::{Block, Expr, FnDef, Pat, Span, Stmt};
use kernel_ir::ir::{self, BinOp, Inst, Operand};

use super::consts::{convert_type, Env};
use super::infer::key;
use super::layout::{layout, struct_fields, struct_layout};
use super::scope::{Binding, FnCtx, RetTarget};
use super::types::Ty;
use super::value::{c_int, c_u32, c_u64, scalar_ir, Loc, Val};
use super::{Lower, R};

impl Lower {
    pub(super) fn lower_kernel_body(&mut self, def: &'static FnDef, env: Env) -> R<()> {
        let types = self.types_for(def, &env)?;
        self.fns
            .push(FnCtx::new(def, env.clone(), types, RetTarget::Kernel));
        for p in &def.params {
            let t = convert_type(&p.ty, &env, &mut || Ty::Unit).map_err(|m| self.err(p.span, m))?;
            let loc = self.kernel_param(&p.name, p.mutable, &t, p.span)?;
            self.cx_mut().bind(&p.name, Binding { ty: t, loc });
        }
        self.block(&def.body)?;
        self.fns.pop();
        Ok(())
    }

    /// Declares one kernel parameter per the `ir::ParamKind` contract and binds its value.
    fn kernel_param(&mut self, name: &str, mutable: bool, t: &Ty, sp: Span) -> R<Loc> {
        let (param, val) = match t {
            Ty::Bool | Ty::Int(_) | Ty::Float(_) => {
                let st = scalar_ir(t);
                let piece = self.named_var(super::types::mem_ir(st), name);
                let (size, align) = layout(t).map_err(|m| self.err(sp, m))?;
                let v = if st == ir::Ty::Bool {
                    self.bin(BinOp::Ne, Operand::Var(piece), c_int(ir::Ty::U8, 0))
                } else {
                    Operand::Var(piece)
                };
                (
                    ir::Param {
                        name: name.to_string(),
                        size,
                        align,
                        kind: ir::ParamKind::Scalar,
                        pieces: vec![(0, piece)],
                    },
                    Val::Scalar(v),
                )
            }
            Ty::Slice(et, m) => {
                let (elem_bytes, elem_align) = layout(et).map_err(|m| self.err(sp, m))?;
                if elem_bytes == 0 {
                    return Err(self.err(sp, format!("kernel parameter `{name}`: slices of zero-sized elements are not supported")));
                }
                let ptr = self.named_var(ir::Ty::U64, &format!("{name}.ptr"));
                let len = self.named_var(ir::Ty::U64, &format!("{name}.len"));
                (
                    ir::Param {
                        name: name.to_string(),
                        size: 16,
                        align: 8,
                        kind: ir::ParamKind::Slice {
                            readonly: !*m,
                            elem_bytes,
                            ptr_align: elem_align,
                        },
                        pieces: vec![(0, ptr), (8, len)],
                    },
                    Val::Slice(super::value::SliceVal {
                        ptr: Operand::Var(ptr),
                        len: Operand::Var(len),
                        space: ir::Space::Global,
                        readonly: !*m,
                        local: None,
                    }),
                )
            }
            Ty::Struct(_) | Ty::Array(..) => {
                let (size, align) = layout(t).map_err(|m| self.err(sp, m))?;
                let mut pieces = Vec::new();
                let val = self.param_pieces(t, 0, name, &mut pieces, sp)?;
                (
                    ir::Param {
                        name: name.to_string(),
                        size,
                        align,
                        kind: ir::ParamKind::Struct,
                        pieces,
                    },
                    val,
                )
            }
            Ty::Ref(inner, m) if super::infer::bulk::is_tensor_map(inner) => {
                // CUDA's `const __grid_constant__ CUtensorMap`: the bytes stay in `.param`
                // space; the one piece is their address (see `ParamKind::GridConstant`).
                let (size, align) = layout(inner).map_err(|m| self.err(sp, m))?;
                let addr = self.named_var(ir::Ty::U64, &format!("{name}.addr"));
                (
                    ir::Param {
                        name: name.to_string(),
                        size,
                        align,
                        kind: ir::ParamKind::GridConstant { writable: *m },
                        pieces: vec![(0, addr)],
                    },
                    Val::Ref(Loc::Mem {
                        space: ir::Space::Global,
                        addr: Operand::Var(addr),
                        readonly: !*m,
                    }),
                )
            }
            _ => {
                return Err(self.err(
                    sp,
                    format!("kernel parameter `{name}` has type `{t}`; kernels take scalars, slices, arrays and #[derive(DeviceCopy)] structs"),
                ))
            }
        };
        self.k.params.push(param);
        self.bind_value(t, val, mutable, name, sp)
    }

    /// The scalar pieces of a by-value aggregate parameter at their C offsets.
    fn param_pieces(
        &mut self,
        t: &Ty,
        base: u32,
        name: &str,
        pieces: &mut Vec<(u32, ir::Var)>,
        sp: Span,
    ) -> R<Val> {
        Ok(match t {
            Ty::Struct(s) => {
                let (_, _, offs) = struct_layout(*s).map_err(|m| self.err(sp, m))?;
                let fs = struct_fields(*s).map_err(|m| self.err(sp, m))?;
                let mut vs = Vec::new();
                for ((fname, ft), off) in fs.iter().zip(offs) {
                    vs.push(self.param_pieces(
                        ft,
                        base + off,
                        &format!("{name}.{fname}"),
                        pieces,
                        sp,
                    )?);
                }
                Val::Agg(vs)
            }
            Ty::Array(et, n) => {
                let (esize, _) = layout(et).map_err(|m| self.err(sp, m))?;
                let arrays = self.new_arrays(t, sp)?;
                let loc = Loc::Local {
                    arrays,
                    index: c_u32(0),
                };
                for i in 0..*n {
                    let v = self.param_pieces(
                        et,
                        base + esize * i as u32,
                        &format!("{name}[{i}]"),
                        pieces,
                        sp,
                    )?;
                    let el = self.array_elem_loc(&loc, t, c_u64(i), sp)?;
                    self.write(&el, et, &v, sp)?;
                }
                Val::Array { loc, temp: true }
            }
            _ if t.is_scalar() => {
                let st = scalar_ir(t);
                let piece = self.named_var(super::types::mem_ir(st), name);
                pieces.push((base, piece));
                Val::Scalar(if st == ir::Ty::Bool {
                    self.bin(BinOp::Ne, Operand::Var(piece), c_int(ir::Ty::U8, 0))
                } else {
                    Operand::Var(piece)
                })
            }
            _ => {
                return Err(self.err(
                    sp,
                    format!("type `{t}` cannot be part of a kernel parameter"),
                ))
            }
        })
    }

    pub fn block(&mut self, b: &Block) -> R<Val> {
        self.cx_mut().scopes.push(HashMap::default());
        let r = self.block_inner(b);
        self.cx_mut().scopes.pop();
        r
    }

    fn block_inner(&mut self, b: &Block) -> R<Val> {
        let mut diverged = false;
        for s in &b.stmts {
            match s {
                Stmt::Let {
                    pat, init, span, ..
                } => {
                    self.mark(*span);
                    let t = self
                        .cx()
                        .types
                        .lets
                        .get(&key(s))
                        .cloned()
                        .unwrap_or(Ty::Unit);
                    match init {
                        Some(e) => {
                            let v = self.expr(e)?;
                            if matches!(v, Val::Never) {
                                diverged = true;
                            }
                            let v = self.coerce_val(v, &self.ty(e), &t, e.span)?;
                            self.bind_pat(pat, &t, v, *span)?;
                        }
                        None => self.bind_uninit(pat, &t, *span)?,
                    }
                }
                Stmt::Expr(e) => {
                    self.mark(e.span);
                    if matches!(self.expr(e)?, Val::Never) {
                        diverged = true;
                    }
                }
            }
        }
        match &b.tail {
            Some(t) => {
                self.mark(t.span);
                self.expr(t)
            }
            None if diverged => Ok(Val::Never),
            None => Ok(Val::Unit),
        }
    }

    fn bind_uninit(&mut self, pat: &Pat, t: &Ty, sp: Span) -> R<()> {
        match pat {
            Pat::Ident { name, .. } => {
                let loc = self.alloc_uninit(t, name, sp)?;
                self.cx_mut().bind(name, Binding { ty: t.clone(), loc });
                Ok(())
            }
            Pat::Wild => Ok(()),
            _ => Err(self.err(sp, "a `let` without initialiser must bind a single name")),
        }
    }

    /// Binds an irrefutable pattern to a value.
    pub fn bind_pat(&mut self, pat: &Pat, t: &Ty, v: Val, sp: Span) -> R<()> {
        match pat {
            Pat::Wild => Ok(()),
            Pat::Ident { name, mutable } => {
                let loc = self.bind_value(t, v, *mutable, name, sp)?;
                self.cx_mut().bind(name, Binding { ty: t.clone(), loc });
                Ok(())
            }
            Pat::Tuple(ps) => {
                let tys = self.agg_tys(t, sp)?;
                let vs = match v {
                    Val::Agg(vs) => vs,
                    _ => vec![Val::Never; ps.len()],
                };
                for ((p, et), v) in ps.iter().zip(tys.iter()).zip(vs) {
                    self.bind_pat(p, et, v, sp)?;
                }
                Ok(())
            }
            Pat::Array(ps) => {
                let Ty::Array(et, _) = t else {
                    return Err(self.err(sp, "array pattern on a non-array value"));
                };
                let loc = match v {
                    Val::Array { loc, .. } => loc,
                    _ => return Ok(()),
                };
                for (i, p) in ps.iter().enumerate() {
                    let el = self.array_elem_loc(&loc, t, c_u64(i as u64), sp)?;
                    let ev = self.read(&el, et, sp)?;
                    self.bind_pat(p, et, ev, sp)?;
                }
                Ok(())
            }
            Pat::Or(ps) if ps.len() == 1 => self.bind_pat(&ps[0], t, v, sp),
            _ => Err(self.err(sp, "refutable pattern in a `let` (use `match`)")),
        }
    }

    pub fn if_expr(&mut self, e: &Expr, cond: &Expr, then: &Block, els: Option<&Expr>) -> R<Val> {
        let t = self.ty(e);
        let c = self.scalar(cond)?;
        let mut result = None;
        self.open();
        let tv = self.block(then)?;
        if els.is_some() {
            self.branch_result(&mut result, &t, &tv, then.span)?;
        }
        let then_b = self.close();
        self.open();
        if let Some(x) = els {
            let ev = self.expr(x)?;
            self.branch_result(&mut result, &t, &ev, x.span)?;
        }
        let els_b = self.close();
        self.emit(Inst::If {
            cond: c,
            then: then_b,
            els: els_b,
        });
        match (result, els) {
            (Some(l), _) => self.read(&l, &t, e.span),
            (None, None) => Ok(Val::Unit),
            (None, Some(_)) => Ok(Val::Never),
        }
    }

    /// Stores one branch's value into the shared result of an `if` / `match`, allocating it from
    /// the first value that arrives (so slice results get the right memory space).
    pub fn branch_result(&mut self, slot: &mut Option<Loc>, t: &Ty, v: &Val, sp: Span) -> R<()> {
        if matches!(v, Val::Never) {
            return Ok(());
        }
        let loc = match slot {
            Some(l) => l.clone(),
            None => {
                let l = self.alloc(t, Some(v), true, "branch", sp)?;
                *slot = Some(l.clone());
                l
            }
        };
        self.write(&loc, t, v, sp)
    }
}
