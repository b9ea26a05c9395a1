//! `device_malloc` / `device_free` (B.33): the device heap as slices. A block is a global
//! `&mut [T]` whose length is the requested count, or 0 when `malloc` returned null, so a failed
//! allocation can never be indexed: every access fails its bounds check. `alloca` (B.17) gives a
//! `.local` slice of the thread's stack the same way (it cannot fail short of overflowing the
//! stack, which PTX does not report).

use kernel_ir::ast::Expr;
use kernel_ir::intrinsic::IntrinsicDef;
use kernel_ir::ir::{self, BinOp, Operand, Space};

use super::layout::layout;
use super::value::{c_u64, SliceVal, Val};
use super::{Lower, R};

impl Lower {
    /// `device_malloc::<T>(n)` (`local`: `alloca::<T>(n)`) through the allocating entry `def`.
    pub(super) fn allocation(
        &mut self,
        e: &Expr,
        name: &str,
        def: &'static IntrinsicDef,
        local: bool,
        count: &Expr,
    ) -> R<Val> {
        let sp = e.span;
        let t = self.intrinsic_ty(e, sp)?;
        let (size, _) = layout(&t).map_err(|m| self.err(sp, m))?;
        if size == 0 {
            return Err(self.err(sp, format!("`{name}` of zero-sized elements")));
        }
        let n = self.scalar(count)?;
        let n = self.cast(n, ir::Ty::U64);
        // A count whose size overflows asks for more than any heap holds, so it fails like an
        // exhausted heap instead of wrapping to a small block.
        let too_big = self.bin(BinOp::Gt, n, c_u64(u64::MAX / size as u64));
        let bytes = self.bin(BinOp::Mul, n, c_u64(size as u64));
        let bytes = self.select(too_big, c_u64(u64::MAX), bytes);
        if local {
            let r = self.intrinsic(def, &[bytes], sp)?;
            return Ok(Val::Slice(SliceVal {
                ptr: Operand::Var(r[0]),
                len: n,
                space: Space::Local,
                readonly: false,
                local: None,
            }));
        }
        let r = self.intrinsic(def, &[bytes], sp)?;
        let len = self.select(Operand::Var(r[1]), c_u64(0), n);
        Ok(Val::Slice(SliceVal {
            ptr: Operand::Var(r[0]),
            len,
            space: Space::Global,
            readonly: false,
            local: None,
        }))
    }

    /// `device_free(block)` through the freeing entry `def`.
    pub(super) fn device_free(
        &mut self,
        e: &Expr,
        def: &'static IntrinsicDef,
        block: &Expr,
    ) -> R<Val> {
        let sp = e.span;
        let (l, t) = self.place_or_temp(block)?;
        let (l, t) = self.auto_deref(l, t, sp)?;
        let s = self.slice_of(&l, &t, block.span)?;
        if s.space != Space::Global || s.local.is_some() {
            return Err(self.err(
                block.span,
                "`device_free` takes a block from `device_malloc` (global memory)",
            ));
        }
        self.intrinsic(def, &[s.ptr], sp)?;
        Ok(Val::Unit)
    }
}
