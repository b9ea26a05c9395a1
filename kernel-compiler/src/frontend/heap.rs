//! `device_malloc` / `device_free` (B.33): the device heap as slices. A block is a global
//! `&mut [T]` whose length is the requested count, or 0 when `malloc` returned null, so a failed
//! allocation can never be indexed: every access fails its bounds check. `alloca` (B.17) gives a
//! `.local` slice of the thread's stack the same way (it cannot fail short of overflowing the
//! stack, which PTX does not report).

use kernel_ir::ast::Expr;
use kernel_ir::ir::{self, BinOp, Operand, Space};
use kernel_std::intrinsics::{ALLOCA, HEAP_FREE, HEAP_MALLOC};

use super::types::layout;
use super::value::{c_u64, SliceVal, Val};
use super::{Lower, R};

impl Lower {
    /// Lowers `device_malloc` and `device_free`; `None` for every other intrinsic.
    pub(super) fn heap_intrinsic(&mut self, e: &Expr, name: &str, args: &[Expr]) -> R<Option<Val>> {
        let sp = e.span;
        match name {
            "device_malloc" | "alloca" => {
                let t = self.intrinsic_ty(e, sp)?;
                let (size, _) = layout(&t).map_err(|m| self.err(sp, m))?;
                if size == 0 {
                    return Err(self.err(sp, format!("`{name}` of zero-sized elements")));
                }
                let n = self.scalar(&args[0])?;
                let n = self.cast(n, ir::Ty::U64);
                // A count whose size overflows asks for more than any heap holds, so it fails
                // like an exhausted heap instead of wrapping to a small block.
                let too_big = self.bin(BinOp::Gt, n, c_u64(u64::MAX / size as u64));
                let bytes = self.bin(BinOp::Mul, n, c_u64(size as u64));
                let bytes = self.select(too_big, c_u64(u64::MAX), bytes);
                if name == "alloca" {
                    let r = self.intrinsic(ALLOCA, &[bytes], sp)?;
                    return Ok(Some(Val::Slice(SliceVal {
                        ptr: Operand::Var(r[0]),
                        len: n,
                        space: Space::Local,
                        readonly: false,
                        local: None,
                    })));
                }
                let r = self.intrinsic(HEAP_MALLOC, &[bytes], sp)?;
                let len = self.select(Operand::Var(r[1]), c_u64(0), n);
                Ok(Some(Val::Slice(SliceVal {
                    ptr: Operand::Var(r[0]),
                    len,
                    space: Space::Global,
                    readonly: false,
                    local: None,
                })))
            }
            "device_free" => {
                let (l, t) = self.place_or_temp(&args[0])?;
                let (l, t) = self.auto_deref(l, t, sp)?;
                let s = self.slice_of(&l, &t, args[0].span)?;
                if s.space != Space::Global || s.local.is_some() {
                    return Err(self.err(
                        args[0].span,
                        "`device_free` takes a block from `device_malloc` (global memory)",
                    ));
                }
                self.intrinsic(HEAP_FREE, &[s.ptr], sp)?;
                Ok(Some(Val::Unit))
            }
            _ => Ok(None),
        }
    }
}
