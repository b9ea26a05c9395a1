//! Device functions with lowering code of their own (`Lowering::Custom`): shared memory (static
//! and dynamic), `trap`/`unreachable`, `pm_counter`'s constant, and (in `heap` and `assume`) the device heap, `alloca` and the assumptions.

use kernel_ir::ast::Custom;
use kernel_ir::ast::Expr;
use kernel_ir::ir::{self, BinOp, Inst, Operand, PanicKind, Space};

use super::consts::eval_const;
use super::infer::key;
use super::layout::layout;
use super::types::Ty;
use super::value::{c_u32, c_u64, Loc, SliceVal, Val};
use super::{Lower, R};

impl Lower {
    pub(super) fn custom_intrinsic(
        &mut self,
        e: &Expr,
        name: &str,
        c: Custom,
        args: &[Expr],
    ) -> R<Val> {
        let sp = e.span;
        match c {
            Custom::SharedArray => {
                let t = self.intrinsic_ty(e, sp)?;
                let (bytes, align) = layout(&t).map_err(|m| self.err(sp, m))?;
                let alloc = self.shared_alloc(e, bytes, align);
                let dst = self.var(ir::Ty::U32);
                self.emit(Inst::SharedAddr { dst, alloc });
                Ok(Val::Ref(Loc::Mem {
                    space: Space::Shared,
                    addr: Operand::Var(dst),
                    readonly: false,
                }))
            }
            Custom::DynamicShared => {
                let t = self.intrinsic_ty(e, sp)?;
                let (size, _) = layout(&t).map_err(|m| self.err(sp, m))?;
                if size == 0 {
                    return Err(self.err(sp, "dynamic shared memory of zero-sized elements"));
                }
                self.k.uses_dyn_shared = true;
                let ptr = self.var(ir::Ty::U32);
                self.emit(Inst::DynSharedAddr { dst: ptr });
                let bytes = self.var(ir::Ty::U32);
                self.emit(Inst::DynSharedBytes { dst: bytes });
                let len = match self.dyn_shared_bytes {
                    // Specialized on the launch's size (`crate::specialize`): a constant length,
                    // so indices into the slice are proven as a `shared_array`'s are. The variant
                    // checks here that it runs with that size.
                    Some(fixed) => {
                        let other = self.bin(BinOp::Ne, Operand::Var(bytes), c_u32(fixed));
                        let site = self.site(
                            PanicKind::Explicit(format!(
                                "this variant of the kernel was compiled for launches with {fixed} bytes of dynamic shared memory (launch-time specialization) and was launched with another size"
                            )),
                            sp,
                        );
                        self.panic_if(other, site);
                        c_u64(u64::from(fixed / size))
                    }
                    None => {
                        let n = self.var(ir::Ty::U32);
                        self.emit(Inst::Binary {
                            dst: n,
                            op: BinOp::Div,
                            a: Operand::Var(bytes),
                            b: c_u32(size),
                        });
                        self.cast(Operand::Var(n), ir::Ty::U64)
                    }
                };
                Ok(Val::Slice(SliceVal {
                    ptr: Operand::Var(ptr),
                    len,
                    space: Space::Shared,
                    readonly: false,
                    local: None,
                }))
            }
            Custom::DeviceMalloc(def) | Custom::Alloca(def) => {
                let local = matches!(c, Custom::Alloca(_));
                self.allocation(e, name, def, local, &args[0])
            }
            Custom::DeviceFree(def) => self.device_free(e, def, &args[0]),
            Custom::Assume(checks) => self.assume(e, checks, &args[0]),
            Custom::AssumeAligned(checks) => self.assume_aligned(e, checks, args),
            Custom::Trap(def, message) => {
                self.intrinsic(def, &[], sp)?;
                // The GPU never gets past `trap`; the simulator reports the location instead.
                let site = self.site(PanicKind::Explicit(message.into()), sp);
                self.emit(Inst::Panic {
                    site,
                    a: c_u64(0),
                    b: c_u64(0),
                });
                Ok(Val::Unit)
            }
            Custom::Wmma(op, table) => self.wmma(e, name, op, table, args),
            Custom::SharedRef(def, newer) => {
                let def = newer.filter(|d| self.sm >= d.min_sm).unwrap_or(def);
                self.shared_ref_call(e, name, def, args)
            }
            Custom::ConstIndex(entries) => self.const_index_call(e, name, entries, args),
            Custom::AsyncCopy(form, entries) => self.async_copy(e, name, form, entries, args),
            Custom::Bulk(def, kinds) => self.bulk_call(e, name, def, kinds, args),
            Custom::BulkCopy { def, to_shared } => self.bulk_copy(e, name, def, to_shared, args),
            Custom::MapSharedRank {
                mapa,
                nctarank,
                writes,
            } => {
                let (addr, readonly) = match self.expr(&args[0])? {
                    Val::Ref(Loc::Mem {
                        space: Space::Shared,
                        addr,
                        readonly,
                    }) => (addr, readonly),
                    _ => {
                        return Err(self.err(
                            args[0].span,
                            format!("`{name}` takes a reference into this block's shared memory (a `shared_array`, or an element of one)"),
                        ))
                    }
                };
                let rank = self.scalar(&args[1])?;
                let blocks = self.intrinsic(nctarank, &[], sp)?[0];
                self.bounds_check(rank, Operand::Var(blocks), sp);
                let mapped = self.intrinsic(mapa, &[addr, rank], sp)?[0];
                Ok(Val::Ref(Loc::Mem {
                    space: Space::Cluster,
                    addr: Operand::Var(mapped),
                    readonly: readonly || !writes,
                }))
            }
            Custom::PmCounter(entries) => {
                let env = self.cx().env.clone();
                let def = match eval_const(&args[0], &env) {
                    Ok((n, _)) if (0..entries.len() as i128).contains(&n) => &entries[n as usize],
                    _ => {
                        return Err(self.err(
                            args[0].span,
                            format!(
                                "`{name}` takes a constant counter number 0..={}",
                                entries.len() - 1
                            ),
                        ))
                    }
                };
                self.intrinsic(def, &[], sp)?;
                Ok(Val::Unit)
            }
        }
    }

    pub(super) fn intrinsic_ty(&self, e: &Expr, sp: kernel_ir::ast::Span) -> R<Ty> {
        self.cx()
            .types
            .intrinsic_args
            .get(&key(e))
            .and_then(|v| v.first().cloned())
            .ok_or_else(|| self.err(sp, "internal: missing type argument"))
    }

    /// One allocation per `shared_array` call site and function instance: inlining the same
    /// device function twice shares its `__shared__` array, as in CUDA.
    fn shared_alloc(&mut self, e: &Expr, bytes: u32, align: u32) -> ir::SharedId {
        let cx = self.cx();
        let mut env: Vec<String> = cx
            .env
            .map
            .iter()
            .map(|(k, v)| format!("{k}={v:?}"))
            .collect();
        env.sort();
        let site_key = (key(e), env.join(","));
        if let Some(id) = self.shared_sites.get(&site_key) {
            return *id;
        }
        let name = format!(
            "{}_smem{}",
            super::types::sanitize(cx.def.name),
            self.k.shared.len()
        );
        self.k.shared.push(ir::SharedAlloc { name, bytes, align });
        let id = ir::SharedId(self.k.shared.len() as u32 - 1);
        self.shared_sites.insert(site_key, id);
        id
    }
}
