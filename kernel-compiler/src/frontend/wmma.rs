//! `wmma`'s calls (`Custom::Wmma`): a fragment is a struct whose one field `x` is an array of
//! its elements; loads, stores and `mma` move those elements through the fragment type's table
//! entries, element by element, so that `sroa` keeps whole fragments in registers. A load or
//! store checks once that its tile lies inside the slice.

use kernel_ir::ast::{Expr, Span, WmmaFragment, WmmaOp, WmmaTable};
use kernel_ir::ir::{self, BinOp, Operand, Space};

use super::consts::eval_const;
use super::infer::wmma::wmma_fragment_of;
use super::types::Ty;
use super::value::{c_int, c_u32, c_u64, Loc, SliceVal, Val};
use super::{Lower, R};

/// A fragment's storage and type.
struct Frag {
    def: &'static WmmaFragment,
    loc: Loc,
    ty: Ty,
    elem: Ty,
    count: u32,
}

impl Lower {
    pub(super) fn wmma(
        &mut self,
        e: &Expr,
        name: &str,
        op: WmmaOp,
        table: &'static WmmaTable,
        args: &[Expr],
    ) -> R<Val> {
        let sp = e.span;
        match op {
            WmmaOp::Fragment => {
                let f = self.new_fragment(name, table, &self.ty(e), sp)?;
                for i in 0..f.count {
                    let zero = Val::Scalar(c_int(self.elem_ir(&f), 0));
                    self.write_elem(&f, i, &zero, sp)?;
                }
                self.read(&f.loc, &f.ty, sp)
            }
            WmmaOp::Fill => {
                let f = self.fragment_arg(name, table, &args[0])?;
                let v = self.scalar(&args[1])?;
                let v = Val::Scalar(self.cast(v, self.elem_ir(&f)));
                for i in 0..f.count {
                    self.write_elem(&f, i, &v, sp)?;
                }
                Ok(Val::Unit)
            }
            WmmaOp::Load => {
                let f = self.fragment_arg(name, table, &args[0])?;
                let tile_args: Vec<&Expr> = args[1..].iter().collect();
                let (def, addr, ldm) = self.tile(name, &f, &tile_args, false, sp)?;
                let r = self.intrinsic(def, &[addr, ldm], sp)?;
                for (i, v) in r.into_iter().enumerate() {
                    self.write_elem(&f, i as u32, &Val::Scalar(Operand::Var(v)), sp)?;
                }
                Ok(Val::Unit)
            }
            WmmaOp::Store => {
                let f = self.fragment_arg(name, table, &args[2])?;
                // Expressions are known by address: pass them, never copies.
                let tile_args = [&args[0], &args[1], &args[3], &args[4]];
                let (def, addr, ldm) = self.tile(name, &f, &tile_args, true, sp)?;
                let mut ops = vec![addr, ldm];
                ops.extend(self.elems(&f, sp)?);
                self.intrinsic(def, &ops, sp)?;
                Ok(Val::Unit)
            }
            WmmaOp::Mma => {
                let a = self.fragment_arg(name, table, &args[0])?;
                let b = self.fragment_arg(name, table, &args[1])?;
                let c = self.fragment_arg(name, table, &args[2])?;
                let d = self.new_fragment(name, table, &self.ty(e), sp)?;
                let def = (table.mma)(d.def.name, a.def.name, b.def.name, c.def.name).ok_or_else(
                    || {
                        self.err(
                            sp,
                            format!(
                                "`{name}`: wmma has no mma giving `{}` from `{}` x `{}` + `{}`",
                                d.def.name, a.def.name, b.def.name, c.def.name
                            ),
                        )
                    },
                )?;
                let mut ops = self.elems(&a, sp)?;
                ops.extend(self.elems(&b, sp)?);
                ops.extend(self.elems(&c, sp)?);
                let r = self.intrinsic(def, &ops, sp)?;
                for (i, v) in r.into_iter().enumerate() {
                    self.write_elem(&d, i as u32, &Val::Scalar(Operand::Var(v)), sp)?;
                }
                self.read(&d.loc, &d.ty, sp)
            }
        }
    }

    fn elem_ir(&self, f: &Frag) -> ir::Ty {
        f.elem.ir().unwrap_or(ir::Ty::U32)
    }

    /// Fresh storage for a fragment of type `t` (the call's result type).
    fn new_fragment(&mut self, name: &str, table: &'static WmmaTable, t: &Ty, sp: Span) -> R<Frag> {
        let Some((def, elem)) = wmma_fragment_of(table, t) else {
            return Err(self.err(
                sp,
                format!("`{name}` gives a wmma fragment: its type must be known here (annotate the binding: `let f: Fragment<..> = {name}(..)`), not `{t}`"),
            ));
        };
        let loc = self.alloc_uninit(t, "fragment", sp)?;
        self.frag(def, loc, t.clone(), elem, sp)
    }

    fn frag(&mut self, def: &'static WmmaFragment, loc: Loc, ty: Ty, elem: Ty, _: Span) -> R<Frag> {
        Ok(Frag {
            def,
            loc,
            ty,
            elem,
            count: def.elems,
        })
    }

    /// The fragment a reference argument points to.
    fn fragment_arg(&mut self, name: &str, table: &'static WmmaTable, a: &Expr) -> R<Frag> {
        let t = self.ty(a).deref_all().clone();
        let Some((def, elem)) = wmma_fragment_of(table, &t) else {
            return Err(self.err(a.span, format!("`{name}` takes a wmma fragment")));
        };
        let loc = match self.expr(a)? {
            Val::Ref(l) => l,
            _ => return Err(self.err(a.span, format!("`{name}` takes a fragment by reference"))),
        };
        self.frag(def, loc, t, elem, a.span)
    }

    fn elem_loc(&mut self, f: &Frag, i: u32, sp: Span) -> R<(Loc, Ty)> {
        let arr_ty = self.agg_tys(&f.ty, sp)?.remove(0);
        let arr = self.field_loc(&f.loc, &f.ty, 0, sp)?;
        let l = self.array_elem_loc(&arr, &arr_ty, c_u32(i), sp)?;
        Ok((l, f.elem.clone()))
    }

    fn write_elem(&mut self, f: &Frag, i: u32, v: &Val, sp: Span) -> R<()> {
        let (l, t) = self.elem_loc(f, i, sp)?;
        self.write(&l, &t, v, sp)
    }

    /// Every element of a fragment, in order.
    fn elems(&mut self, f: &Frag, sp: Span) -> R<Vec<Operand>> {
        let mut out = Vec::new();
        for i in 0..f.count {
            let (l, t) = self.elem_loc(f, i, sp)?;
            let v = self.read(&l, &t, sp)?;
            out.push(self.scalar_of(v, &t, sp)?);
        }
        Ok(out)
    }

    /// A load's or store's tile: `[slice, offset, ldm(, layout)]`. Checks that the tile lies in
    /// the slice (one check: its last element) and returns the entry, the tile's address and ldm.
    fn tile(
        &mut self,
        name: &str,
        f: &Frag,
        args: &[&Expr],
        store: bool,
        sp: Span,
    ) -> R<(
        &'static kernel_ir::intrinsic::IntrinsicDef,
        Operand,
        Operand,
    )> {
        let s = self.slice_arg(name, args[0])?;
        if s.local.is_some() || !matches!(s.space, Space::Global | Space::Shared) {
            return Err(self.err(
                args[0].span,
                format!("`{name}` needs a slice of global or shared memory"),
            ));
        }
        if store && s.readonly {
            return Err(self.err(
                args[0].span,
                format!("`{name}` writes: pass a `&mut` slice"),
            ));
        }
        let col = match f.def.col_major {
            Some(c) => c,
            None => {
                let env = self.cx().env.clone();
                match eval_const(args[3], &env) {
                    Ok((0, _)) => false,
                    Ok((1, _)) => true,
                    _ => {
                        return Err(self.err(
                            args[3].span,
                            format!("`{name}`: the layout must be the constant `MEM_ROW_MAJOR` or `MEM_COL_MAJOR`"),
                        ))
                    }
                }
            }
        };
        let shared = s.space == Space::Shared;
        let at = 2 * shared as usize + col as usize;
        let def = if store {
            f.def.store[at]
        } else {
            f.def.load[at]
        };
        let def =
            def.ok_or_else(|| self.err(sp, format!("`{name}` has no form for this fragment")))?;
        let offset = self.scalar(args[1])?;
        let offset = self.cast(offset, ir::Ty::U64);
        let ldm = self.scalar(args[2])?;
        let ldm = self.cast(ldm, ir::Ty::U32);
        // The tile's last element: offset + (major - 1) * ldm + minor - 1, with an offset past
        // any slice clamped so that the sum cannot wrap.
        let (major, minor) = if col {
            (f.def.cols, f.def.rows)
        } else {
            (f.def.rows, f.def.cols)
        };
        let ldm64 = self.cast(ldm, ir::Ty::U64);
        let span = self.bin(BinOp::Mul, ldm64, c_u64(major as u64 - 1));
        let span = self.bin(BinOp::Add, span, c_u64(minor as u64 - 1));
        let base = self.bin(BinOp::Min, offset, c_u64(1 << 62));
        let last = self.bin(BinOp::Add, base, span);
        self.bounds_check(last, s.len, sp);
        let bytes = f.def.mem.bytes();
        let addr = self.scaled_addr(s.space, s.ptr, offset, bytes);
        Ok((def, addr, ldm))
    }

    /// A slice argument, or a reference to an array (a shared array) as the slice of it.
    fn slice_arg(&mut self, name: &str, a: &Expr) -> R<SliceVal> {
        let t = self.ty(a);
        let v = self.expr(a)?;
        let (l, inner) = match (v, t) {
            (Val::Slice(s), _) => return Ok(s),
            (Val::Ref(l), Ty::Ref(inner, _)) => (l, *inner),
            _ => return Err(self.err(a.span, format!("`{name}` takes a slice"))),
        };
        if let Ty::Array(_, n) = inner {
            let l = match self.read(&l, &inner, a.span)? {
                Val::Array { loc, .. } => loc,
                _ => l,
            };
            return self
                .array_as_slice(&l, n)
                .ok_or_else(|| self.err(a.span, format!("`{name}` cannot view this array")));
        }
        self.slice_of(&l, &inner, a.span)
    }
}
