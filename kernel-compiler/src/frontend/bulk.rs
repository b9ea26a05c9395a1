//! The bulk and tensor-copy calls (`Custom::Bulk`, `Custom::BulkCopy`, sm_90): each argument
//! becomes the operand the entry takes (a shared or parameter address, a scalar), with the
//! checks the copy engine's rules need where the types do not already guarantee them.
//!
//! - A tensor copy's shared side must be 128-byte aligned: a tile type that is so aligned
//!   passes as is, another gets a run-time check (a panic at the call, where the GPU would
//!   fault without saying where).
//! - A non-tensor bulk copy moves whole 16-byte units between 16-byte aligned addresses: its
//!   two slices must have the same length, a byte count that is a multiple of 16 (a compile
//!   error when both lengths are constants, a panic otherwise), and aligned starts (checked at
//!   run time unless the element type is 16-byte aligned).

use kernel_ir::ast::{BulkArg, Expr};
use kernel_ir::intrinsic::IntrinsicDef;
use kernel_ir::ir::{self, BinOp, Operand, PanicKind, Space};

use super::layout::layout;
use super::types::Ty;
use super::value::{c_u64, Loc, Val};
use super::{Lower, R};

/// Alignment the tensor copies need of their shared side.
const TILE_ALIGN: u32 = 128;
/// Unit and alignment of the non-tensor bulk copies.
const BULK_UNIT: u64 = 16;

impl Lower {
    /// A panic at `sp` unless `addr` (of any width) is a multiple of `align`.
    fn check_aligned(
        &mut self,
        addr: Operand,
        align: u64,
        message: String,
        sp: kernel_ir::ast::Span,
    ) {
        let a = self.cast(addr, ir::Ty::U64);
        let rem = self.bin(BinOp::And, a, c_u64(align - 1));
        let bad = self.bin(BinOp::Ne, rem, c_u64(0));
        let site = self.site(PanicKind::Explicit(message), sp);
        self.panic_if(bad, site);
    }

    pub(super) fn bulk_call(
        &mut self,
        e: &Expr,
        name: &str,
        def: &'static IntrinsicDef,
        kinds: &[BulkArg],
        args: &[Expr],
    ) -> R<Val> {
        let mut ops = Vec::with_capacity(args.len());
        for (kind, a) in kinds.iter().zip(args) {
            let op = match *kind {
                BulkArg::Tile { .. } => {
                    let Some((Space::Shared, addr)) = self.mem_ref(a)? else {
                        return Err(self.err(
                            a.span,
                            format!("`{name}` needs a reference into this block's shared memory (a `shared_array` tile)"),
                        ));
                    };
                    let pointee = match self.ty(a) {
                        Ty::Ref(t, _) => *t,
                        _ => return Err(self.err(a.span, "internal: reference type expected")),
                    };
                    let (_, align) = layout(&pointee).map_err(|m| self.err(a.span, m))?;
                    if align < TILE_ALIGN {
                        self.check_aligned(
                            addr,
                            TILE_ALIGN as u64,
                            format!("`{name}` needs a 128-byte aligned shared memory address (`{pointee}` is only {align}-byte aligned: use a `#[repr(C, align(128))]` tile type)"),
                            a.span,
                        );
                    }
                    addr
                }
                BulkArg::Barrier => match self.mem_ref(a)? {
                    Some((Space::Shared, addr)) => addr,
                    _ => {
                        return Err(self.err(
                            a.span,
                            format!("`{name}` completes on a `Barrier` in shared memory"),
                        ))
                    }
                },
                BulkArg::TensorMap { .. } => match self.mem_ref(a)? {
                    Some((Space::Global, addr)) => addr,
                    _ => {
                        return Err(self.err(
                            a.span,
                            format!("`{name}` takes the kernel's `&TensorMap` parameter"),
                        ))
                    }
                },
                BulkArg::Scalar => self.scalar(a)?,
            };
            ops.push(op);
        }
        self.intrinsic(def, &ops, e.span)?;
        Ok(Val::Unit)
    }

    /// A slice argument's start address, length and space (a slice, or a reference to an
    /// array in memory).
    fn bulk_slice(&mut self, a: &Expr) -> R<(Operand, Operand, Space)> {
        let (l, t) = self.place_or_temp(a)?;
        let (l, t) = self.auto_deref(l, t, a.span)?;
        match &t {
            Ty::Array(_, n) => match l {
                Loc::Mem { space, addr, .. } => Ok((addr, c_u64(*n), space)),
                _ => Err(self.err(a.span, "a bulk copy moves memory: pass a slice of a kernel parameter or of shared memory")),
            },
            _ => {
                let s = self.slice_of(&l, &t, a.span)?;
                if s.local.is_some() {
                    return Err(self.err(a.span, "a bulk copy moves memory: pass a slice of a kernel parameter or of shared memory, not of a local array"));
                }
                Ok((s.ptr, s.len, s.space))
            }
        }
    }

    pub(super) fn bulk_copy(
        &mut self,
        e: &Expr,
        name: &str,
        def: &'static IntrinsicDef,
        to_shared: bool,
        args: &[Expr],
    ) -> R<Val> {
        let sp = e.span;
        let elem = match self.ty(&args[1]) {
            Ty::Ref(t, _) => match *t {
                Ty::Slice(t, _) | Ty::Array(t, _) => *t,
                t => t,
            },
            Ty::Slice(t, _) => *t,
            _ => return Err(self.err(sp, "internal: slice type expected")),
        };
        let (esize, ealign) = layout(&elem).map_err(|m| self.err(sp, m))?;
        let (dst, dlen, dspace) = self.bulk_slice(&args[0])?;
        let (src, slen, sspace) = self.bulk_slice(&args[1])?;
        let (want_d, want_s) = if to_shared {
            (Space::Shared, Space::Global)
        } else {
            (Space::Global, Space::Shared)
        };
        let where_ = |s: Space| {
            if s == Space::Shared {
                "shared memory"
            } else {
                "global memory (a kernel's slice parameter)"
            }
        };
        if dspace != want_d {
            return Err(self.err(
                args[0].span,
                format!("`{name}` copies into {}", where_(want_d)),
            ));
        }
        if sspace != want_s {
            return Err(self.err(
                args[1].span,
                format!("`{name}` copies from {}", where_(want_s)),
            ));
        }
        let dlen = self.cast(dlen, ir::Ty::U64);
        let slen = self.cast(slen, ir::Ty::U64);
        if let (Operand::Const(d), Operand::Const(s)) = (dlen, slen) {
            let bytes = d.bits * esize as u64;
            if d.bits != s.bits {
                return Err(self.err(
                    sp,
                    format!(
                        "`{name}`: the destination has {} elements and the source {}",
                        d.bits, s.bits
                    ),
                ));
            }
            if !bytes.is_multiple_of(BULK_UNIT) || bytes == 0 {
                return Err(self.err(sp, format!("`{name}` moves a multiple of 16 bytes (`cp.async.bulk`'s unit); {} elements of `{elem}` are {bytes} bytes", d.bits)));
            }
        } else {
            let differ = self.bin(BinOp::Ne, dlen, slen);
            let site = self.site(
                PanicKind::Explicit(format!(
                    "`{name}`: the destination and source slices have different lengths"
                )),
                sp,
            );
            self.panic_if(differ, site);
            let bytes = self.bin(BinOp::Mul, dlen, c_u64(esize as u64));
            let rem = self.bin(BinOp::And, bytes, c_u64(BULK_UNIT - 1));
            let bad = self.bin(BinOp::Ne, rem, c_u64(0));
            let big = self.bin(BinOp::Gt, bytes, c_u64(u32::MAX as u64 & !(BULK_UNIT - 1)));
            let bad = self.bin(BinOp::Or, bad, big);
            let site = self.site(
                PanicKind::Explicit(format!("`{name}` moves a multiple of 16 bytes (`cp.async.bulk`'s unit, below 4 GiB); the slices' byte length is not one")),
                sp,
            );
            self.panic_if(bad, site);
        }
        if (ealign as u64) < BULK_UNIT {
            let both = {
                let d = self.cast(dst, ir::Ty::U64);
                let s = self.cast(src, ir::Ty::U64);
                self.bin(BinOp::Or, d, s)
            };
            self.check_aligned(
                both,
                BULK_UNIT,
                format!("`{name}` needs 16-byte aligned source and destination addresses (`{elem}` is only {ealign}-byte aligned)"),
                sp,
            );
        }
        let bytes = self.bin(BinOp::Mul, dlen, c_u64(esize as u64));
        let bytes = self.cast(bytes, ir::Ty::U32);
        let mut ops = vec![dst, src, bytes];
        if to_shared {
            match self.mem_ref(&args[2])? {
                Some((Space::Shared, addr)) => ops.push(addr),
                _ => {
                    return Err(self.err(
                        args[2].span,
                        format!("`{name}` completes on a `Barrier` in shared memory"),
                    ))
                }
            }
        }
        self.intrinsic(def, &ops, sp)?;
        Ok(Val::Unit)
    }
}
