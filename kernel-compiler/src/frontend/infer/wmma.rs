//! Typing of `wmma`'s calls (`Custom::Wmma`): fragments are the structs the table knows; a
//! load's or store's slice holds the fragment's memory element type. Results whose fragment
//! type comes from the context (`fragment()`, `mma_sync`) are checked when lowering, once the
//! type is known.

use kernel_ir::ast::{Expr, GenericArg, IntTy, WmmaFragment, WmmaOp, WmmaTable};

use super::super::types::{from_ir, Ty};
use super::{key, Infer, Kind, R};

impl<'a> Infer<'a> {
    pub(super) fn wmma_call(
        &mut self,
        e: &Expr,
        name: &str,
        (op, table): (WmmaOp, &'static WmmaTable),
        generic_args: &[GenericArg],
        arg_tys: &[Ty],
        args: &[Expr],
    ) -> R<Ty> {
        let sp = e.span;
        let want = match op {
            WmmaOp::Fragment => 0,
            WmmaOp::Fill => 2,
            WmmaOp::Load => args.len().clamp(4, 5),
            WmmaOp::Store => 5,
            WmmaOp::Mma => 3,
        };
        if args.len() != want {
            return Err(self.err(
                sp,
                format!("`{name}` takes {want} argument(s), {} given", args.len()),
            ));
        }
        let u32_ty = Ty::Int(IntTy::U32);
        match op {
            WmmaOp::Fragment => {
                let t = match generic_args.first() {
                    Some(GenericArg::Type(t)) => self.conv(t, sp)?,
                    _ => self.fresh(Kind::Any),
                };
                self.intrinsic_args.insert(key(e), vec![t.clone()]);
                Ok(t)
            }
            WmmaOp::Fill => {
                let (_, elem) = self.wmma_fragment(name, table, &arg_tys[0], true, &args[0])?;
                let v = self.deref(&arg_tys[1]);
                self.unify(&v, &elem, args[1].span)?;
                Ok(Ty::Unit)
            }
            WmmaOp::Load | WmmaOp::Store => {
                let (f, s) = if op == WmmaOp::Load { (0, 1) } else { (2, 0) };
                let (frag, _) =
                    self.wmma_fragment(name, table, &arg_tys[f], op == WmmaOp::Load, &args[f])?;
                match (frag.col_major, args.len() > 4) {
                    (Some(_), true) => {
                        return Err(self.err(
                            sp,
                            format!("`{name}`: a matrix_a/matrix_b fragment has its layout in its type; call `load_matrix_sync(f, src, offset, ldm)`"),
                        ))
                    }
                    (None, false) => {
                        return Err(self.err(
                            sp,
                            format!("`{name}`: an accumulator needs the layout in memory; call `load_accumulator_sync(f, src, offset, ldm, MEM_ROW_MAJOR)`"),
                        ))
                    }
                    _ => {}
                }
                let mutable_ref = matches!(self.shallow(&arg_tys[s]), Ty::Ref(_, true));
                let elem = match self.deref(&arg_tys[s]) {
                    Ty::Slice(t, m) if m || op == WmmaOp::Load => *t,
                    // A shared (or global) array, `shared_array::<[f16; N]>()`, as a slice.
                    Ty::Array(t, _) if mutable_ref || op == WmmaOp::Load => *t,
                    _ => {
                        return Err(self.err(
                            args[s].span,
                            if op == WmmaOp::Load {
                                format!("`{name}` reads a slice (`&[T]`) of global or shared memory")
                            } else {
                                format!("`{name}` writes a mutable slice (`&mut [T]`) of global or shared memory")
                            },
                        ))
                    }
                };
                self.unify(&elem, &from_ir(frag.mem), args[s].span)?;
                let off = if op == WmmaOp::Load { 2 } else { 1 };
                let t = self.deref(&arg_tys[off]);
                self.unify(&t, &Ty::USIZE, args[off].span)?;
                for i in 3..args.len() {
                    let t = self.deref(&arg_tys[i]);
                    self.unify(&t, &u32_ty, args[i].span)?;
                }
                Ok(Ty::Unit)
            }
            WmmaOp::Mma => {
                for (t, a) in arg_tys.iter().zip(args) {
                    self.wmma_fragment(name, table, t, false, a)?;
                }
                Ok(self.fresh(Kind::Any))
            }
        }
    }

    /// The fragment a reference argument points to, and its element type.
    fn wmma_fragment(
        &mut self,
        name: &str,
        table: &'static WmmaTable,
        t: &Ty,
        mutable: bool,
        a: &Expr,
    ) -> R<(&'static WmmaFragment, Ty)> {
        let inner = match self.shallow(t) {
            Ty::Ref(p, m) if m || !mutable => self.shallow(&p),
            _ => {
                let what = if mutable { "`&mut f`" } else { "`&f`" };
                return Err(self.err(
                    a.span,
                    format!("`{name}` takes a wmma fragment by reference ({what})"),
                ));
            }
        };
        wmma_fragment_of(table, &inner).ok_or_else(|| {
            self.err(
                a.span,
                format!(
                    "`{name}` takes a wmma fragment (`Fragment<..>`), not `{}`",
                    self.show(&inner)
                ),
            )
        })
    }
}

/// The table's fragment of type `t`, with its element type (`x`'s elements have the memory
/// element type, `f32` for tf32).
pub fn wmma_fragment_of(table: &WmmaTable, t: &Ty) -> Option<(&'static WmmaFragment, Ty)> {
    let Ty::Struct(s) = t else { return None };
    let f = (table.fragment)(s.0.name)?;
    Some((f, from_ir(f.mem)))
}
