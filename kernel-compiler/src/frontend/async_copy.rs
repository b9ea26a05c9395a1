//! The asynchronous barrier and copy calls (`Custom::SharedRef`, `ConstIndex`, `AsyncCopy`):
//! an `mbarrier` entry on the address of a shared reference, an entry picked by a constant,
//! and `memcpy_async`'s `cp.async` with its checks.
//!
//! A copy's two references come from indexing, so both ranges are already bounds-checked; what
//! is left is the alignment `cp.async` needs (its size), which the element type guarantees when
//! its alignment is its size (`f32`, `float4`) and is checked at run time otherwise, a panic at
//! the call as a bounds check is (the GPU would fault with a misaligned address, and only
//! compute-sanitizer would say where).

use kernel_ir::ast::{AsyncCopyEntries, AsyncCopyForm, Expr};
use kernel_ir::intrinsic::IntrinsicDef;
use kernel_ir::ir::{self, BinOp, Operand, PanicKind, Space};

use super::builtins::results;
use super::consts::eval_const;
use super::layout::layout;
use super::types::Ty;
use super::value::{c_u32, c_u64, Loc, Val};
use super::{Lower, R};

impl Lower {
    /// A reference argument's memory space and address.
    pub(super) fn mem_ref(&mut self, a: &Expr) -> R<Option<(Space, Operand)>> {
        Ok(match self.expr(a)? {
            Val::Ref(Loc::Mem { space, addr, .. }) => Some((space, addr)),
            _ => None,
        })
    }

    /// `def` on the shared address of `args[0]` and the scalars of the others.
    pub(super) fn shared_ref_call(
        &mut self,
        e: &Expr,
        name: &str,
        def: &'static IntrinsicDef,
        args: &[Expr],
    ) -> R<Val> {
        let addr = match self.mem_ref(&args[0])? {
            Some((Space::Shared, addr)) => addr,
            _ => {
                return Err(self.err(
                    args[0].span,
                    format!("`{name}` needs a reference into shared memory (a `shared_array::<Barrier>()` or an element of one)"),
                ))
            }
        };
        let mut ops = vec![addr];
        for a in &args[1..] {
            ops.push(self.scalar(a)?);
        }
        let r = self.intrinsic(def, &ops, e.span)?;
        Ok(results(&r))
    }

    /// The entry `entries[n]` for the constant argument `n`.
    pub(super) fn const_index_call(
        &mut self,
        e: &Expr,
        name: &str,
        entries: &'static [IntrinsicDef],
        args: &[Expr],
    ) -> R<Val> {
        let env = self.cx().env.clone();
        let def = match eval_const(&args[0], &env) {
            Ok((n, _)) if (0..entries.len() as i128).contains(&n) => &entries[n as usize],
            _ => {
                return Err(self.err(
                    args[0].span,
                    format!(
                        "`{name}` takes a constant 0..={} (the instruction's immediate): a literal, a `const` or a const generic",
                        entries.len() - 1
                    ),
                ))
            }
        };
        self.intrinsic(def, &[], e.span)?;
        Ok(Val::Unit)
    }

    /// `memcpy_async(&mut dst, &src)` / `memcpy_async_or_zero(&mut dst, src, i)`.
    pub(super) fn async_copy(
        &mut self,
        e: &Expr,
        name: &str,
        form: AsyncCopyForm,
        entries: &'static AsyncCopyEntries,
        args: &[Expr],
    ) -> R<Val> {
        let sp = e.span;
        let elem = match self.ty(&args[0]) {
            Ty::Ref(t, _) => *t,
            _ => return Err(self.err(sp, "internal: reference type expected")),
        };
        let (size, align) = layout(&elem).map_err(|m| self.err(sp, m))?;
        let k = match size {
            4 => 0,
            8 => 1,
            16 => 2,
            _ => {
                return Err(self.err(
                    sp,
                    format!(
                        "`{name}` copies one element of 4, 8 or 16 bytes (`cp.async`'s sizes); `{elem}` is {size} bytes: copy it as `u32`/`uint2`/`uint4` pieces, or stage it through registers"
                    ),
                ))
            }
        };
        let dst = match self.mem_ref(&args[0])? {
            Some((Space::Shared, addr)) => addr,
            _ => {
                return Err(self.err(
                    args[0].span,
                    format!("`{name}` copies into shared memory: pass `&mut` an element of a `shared_array` or `dynamic_shared` slice"),
                ))
            }
        };
        let not_global = |me: &Self, a: &Expr| {
            me.err(
                a.span,
                format!("`{name}` copies from global memory: pass an element (or slice) of a kernel's slice parameter"),
            )
        };
        let (src, base, src_bytes) = match form {
            AsyncCopyForm::Element => match self.mem_ref(&args[1])? {
                Some((Space::Global, addr)) => (addr, addr, None),
                _ => return Err(not_global(self, &args[1])),
            },
            AsyncCopyForm::OrZero => {
                let (l, t) = self.place_or_temp(&args[1])?;
                let (l, t) = self.auto_deref(l, t, args[1].span)?;
                let s = self.slice_of(&l, &t, args[1].span)?;
                if s.space != Space::Global || s.local.is_some() {
                    return Err(not_global(self, &args[1]));
                }
                let i = self.scalar(&args[2])?;
                let i = self.cast(i, ir::Ty::U64);
                let len = self.cast(s.len, ir::Ty::U64);
                let inside = self.bin(BinOp::Lt, i, len);
                // Out of range: no byte is read (source size 0), from the slice's start.
                let at = self.select(inside, i, c_u64(0));
                let off = self.bin(BinOp::Mul, at, c_u64(size as u64));
                let ptr = self.cast(s.ptr, ir::Ty::U64);
                let src = self.bin(BinOp::Add, ptr, off);
                let n = self.select(inside, c_u32(size), c_u32(0));
                (src, ptr, Some(n))
            }
        };
        if align < size {
            let d = self.cast(dst, ir::Ty::U64);
            let b = self.cast(base, ir::Ty::U64);
            let both = self.bin(BinOp::Or, d, b);
            let rem = self.bin(BinOp::And, both, c_u64(size as u64 - 1));
            let bad = self.bin(BinOp::Ne, rem, c_u64(0));
            let site = self.site(
                PanicKind::Explicit(format!(
                    "`{name}` of {size} bytes needs {size}-byte aligned source and destination addresses (`{elem}` is only {align}-byte aligned)"
                )),
                sp,
            );
            self.panic_if(bad, site);
        }
        match src_bytes {
            None => self.intrinsic(entries.plain[k], &[dst, src], sp)?,
            Some(n) => self.intrinsic(entries.zfill[k], &[dst, src, n], sp)?,
        };
        Ok(Val::Unit)
    }
}
