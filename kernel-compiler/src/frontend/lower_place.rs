//! Places: locals, fields, indexing (with bounds checks), dereferences and sub-slices.

use kernel_ir::ast::{Expr, ExprKind, Span};
use kernel_ir::ir::{self, BinOp, Inst, Operand, PanicKind, Space};

use super::layout::layout;
use super::types::{array_flat, Ty};
use super::value::{c_u32, c_u64, Loc, SliceVal, Val};
use super::{Lower, R};

impl Lower {
    /// Where the value of a place expression lives, and its type.
    pub fn place(&mut self, e: &Expr) -> R<(Loc, Ty)> {
        let sp = e.span;
        match &e.kind {
            ExprKind::Local(name) => match self.cx().lookup(name) {
                Some(b) => Ok((b.loc.clone(), b.ty.clone())),
                None => Err(self.err(sp, format!("`{name}` is not a variable"))),
            },
            ExprKind::Field(b, name) => {
                let (l, t) = self.place_or_temp(b)?;
                let (l, t) = self.auto_deref(l, t, sp)?;
                let i = match &t {
                    Ty::Tuple(ts) => name.parse::<usize>().ok().filter(|i| *i < ts.len()),
                    Ty::Struct(s) => s.0.fields.iter().position(|(n, _)| n == name),
                    _ => None,
                }
                .ok_or_else(|| self.err(sp, format!("no field `{name}` on type `{t}`")))?;
                let ft = self.agg_tys(&t, sp)?[i].clone();
                let fl = self.field_loc(&l, &t, i, sp)?;
                Ok((fl, ft))
            }
            // A failed bounds check is reported at the indexing expression (`a[i]`), where
            // rustc reports it.
            ExprKind::Index(b, i) => {
                let (l, t) = self.place_or_temp(b)?;
                let (l, t) = self.auto_deref(l, t, sp)?;
                match &t {
                    Ty::Array(et, n) => {
                        let et = (**et).clone();
                        let idx = self.scalar(i)?;
                        self.bounds_check(idx, c_u64(*n), sp);
                        let el = self.array_elem_loc(&l, &t, idx, sp)?;
                        Ok((el, et))
                    }
                    Ty::Slice(et, _) => {
                        let et = (**et).clone();
                        let s = self.slice_of(&l, &t, sp)?;
                        let idx = self.scalar(i)?;
                        self.bounds_check(idx, s.len, sp);
                        Ok((self.slice_elem(&s, &et, idx, sp)?, et))
                    }
                    _ => Err(self.err(sp, format!("cannot index into a value of type `{t}`"))),
                }
            }
            ExprKind::Deref(a) => {
                let t = match self.ty(a) {
                    Ty::Ref(inner, _) => *inner,
                    t => return Err(self.err(sp, format!("type `{t}` cannot be dereferenced"))),
                };
                match self.expr(a)? {
                    Val::Ref(l) => Ok((l, t)),
                    _ => Err(self.err(sp, "this value cannot be dereferenced")),
                }
            }
            _ => Err(self.err(
                sp,
                "this expression is not a place that can be assigned or borrowed",
            )),
        }
    }

    /// A place, or a temporary holding the expression's value.
    pub fn place_or_temp(&mut self, e: &Expr) -> R<(Loc, Ty)> {
        match &e.kind {
            ExprKind::Local(n) if self.cx().lookup(n).is_some() => self.place(e),
            ExprKind::Field(..) | ExprKind::Deref(..) => self.place(e),
            ExprKind::Index(_, i) if !matches!(self.ty(i), Ty::Range(_)) => self.place(e),
            _ => {
                let v = self.expr(e)?;
                let t = self.ty(e);
                Ok((self.materialize(v, &t, e.span)?, t))
            }
        }
    }

    /// Follows references to the place they point at.
    pub fn auto_deref(&mut self, mut l: Loc, mut t: Ty, sp: Span) -> R<(Loc, Ty)> {
        while let Ty::Ref(inner, _) = &t {
            let inner = (**inner).clone();
            match self.read(&l, &t, sp)? {
                Val::Ref(target) => {
                    l = target;
                    t = inner;
                }
                _ => return Err(self.err(sp, "internal: reference value expected")),
            }
        }
        Ok((l, t))
    }

    pub fn slice_of(&mut self, l: &Loc, t: &Ty, sp: Span) -> R<SliceVal> {
        match self.read(l, t, sp)? {
            Val::Slice(s) => Ok(s),
            _ => Err(self.err(sp, "internal: slice value expected")),
        }
    }

    /// The element at `idx` (U64, already checked) of a slice.
    pub fn slice_elem(&mut self, s: &SliceVal, et: &Ty, idx: Operand, sp: Span) -> R<Loc> {
        if let Some(arrays) = &s.local {
            let i = self.cast(idx, ir::Ty::U32);
            let off = self.bin(BinOp::Mul, i, c_u32(array_flat(et).1 as u32));
            return Ok(Loc::Local {
                arrays: arrays.clone(),
                index: self.bin(BinOp::Add, s.ptr, off),
            });
        }
        let (size, _) = layout(et).map_err(|m| self.err(sp, m))?;
        Ok(Loc::Mem {
            space: s.space,
            addr: self.scaled_addr(s.space, s.ptr, idx, size),
            readonly: s.readonly,
        })
    }

    /// `idx < len` or panic (both widened to U64); omitted when both are constants in range.
    pub fn bounds_check(&mut self, idx: Operand, len: Operand, sp: Span) {
        let idx = self.cast(idx, ir::Ty::U64);
        let len = self.cast(len, ir::Ty::U64);
        if let (Operand::Const(i), Operand::Const(n)) = (idx, len) {
            if i.bits < n.bits {
                return;
            }
        }
        let site = self.site(PanicKind::Bounds, sp);
        self.emit(Inst::BoundsCheck { idx, len, site });
    }

    /// `&x[a..b]` and friends: a sub-slice after checking `a <= b <= len`.
    pub fn slice_range(&mut self, b: &Expr, range: &Expr, sp: Span) -> R<SliceVal> {
        let (l, t) = self.place_or_temp(b)?;
        let (l, t) = self.auto_deref(l, t, sp)?;
        let (s, et) = match &t {
            Ty::Slice(et, _) => (self.slice_of(&l, &t, sp)?, (**et).clone()),
            Ty::Array(et, n) => match self.array_as_slice(&l, *n) {
                Some(s) => (s, (**et).clone()),
                None => return Err(self.err(sp, "this array cannot be sliced")),
            },
            _ => return Err(self.err(sp, format!("cannot slice a value of type `{t}`"))),
        };
        let ExprKind::Range {
            start,
            end,
            inclusive,
        } = &range.kind
        else {
            return Err(self.err(range.span, "slicing needs a range expression `a..b`"));
        };
        let lo = match start {
            Some(x) => {
                let v = self.scalar(x)?;
                self.cast(v, ir::Ty::U64)
            }
            None => c_u64(0),
        };
        let hi = match end {
            Some(x) => {
                let v = self.scalar(x)?;
                let v = self.cast(v, ir::Ty::U64);
                if *inclusive {
                    self.bin(BinOp::Add, v, c_u64(1))
                } else {
                    v
                }
            }
            None => s.len,
        };
        // hi <= len  <=>  hi < len + 1 ;  lo <= hi  <=>  lo < hi + 1
        if end.is_some() {
            let len1 = self.bin(BinOp::Add, s.len, c_u64(1));
            self.bounds_check(hi, len1, range.span);
        }
        if start.is_some() {
            let hi1 = self.bin(BinOp::Add, hi, c_u64(1));
            self.bounds_check(lo, hi1, range.span);
        }
        let ptr = match &s.local {
            Some(_) => {
                let lo = self.cast(lo, ir::Ty::U32);
                let off = self.bin(BinOp::Mul, lo, c_u32(array_flat(&et).1 as u32));
                self.bin(BinOp::Add, s.ptr, off)
            }
            None => {
                let (size, _) = layout(&et).map_err(|m| self.err(sp, m))?;
                self.scaled_addr(s.space, s.ptr, lo, size)
            }
        };
        let len = self.bin(BinOp::Sub, hi, lo);
        Ok(SliceVal {
            ptr,
            len,
            space: s.space,
            readonly: s.readonly,
            local: s.local,
        })
    }

    /// The whole of an array stored at `loc` as a slice (memory or thread-local storage).
    pub fn array_as_slice(&self, loc: &Loc, n: u64) -> Option<SliceVal> {
        match loc {
            Loc::Mem {
                space,
                addr,
                readonly,
            } => Some(SliceVal {
                ptr: *addr,
                len: c_u64(n),
                space: *space,
                readonly: *readonly,
                local: None,
            }),
            Loc::Local { arrays, index } => Some(SliceVal {
                ptr: *index,
                len: c_u64(n),
                space: Space::Global,
                readonly: false,
                local: Some(arrays.clone()),
            }),
            _ => None,
        }
    }
}
