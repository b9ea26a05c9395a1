//! Intrinsic calls: the `Dim3` built-ins, shared memory (static and dynamic) and every other
//! entry of the intrinsic table, used with its scalar signature.

use kernel_ir::ast::Expr;
use kernel_ir::ir::{self, BinOp, Inst, Operand, Space};
use kernel_std::intrinsics;

use super::infer::key;
use super::types::{layout, Ty};
use super::value::{c_u32, Loc, SliceVal, Val};
use super::{Lower, R};

impl Lower {
    pub fn call_intrinsic(&mut self, e: &Expr, name: &str, args: &[Expr]) -> R<Val> {
        let sp = e.span;
        if let Some(v) = self.special_intrinsic(e, name, args)? {
            return Ok(v);
        }
        if let Some(v) = self.heap_intrinsic(e, name, args)? {
            return Ok(v);
        }
        if let Some(v) = self.pair_atomic(e, name, args)? {
            return Ok(v);
        }
        let mut vals = Vec::new();
        // Value-generic families resolve to the entry for the value's type (and, for atomics,
        // the address space of the reference, known once it is evaluated).
        let family = intrinsics::typed_family(name);
        let typed = family
            .and_then(|i| args.get(i))
            .and_then(|a| self.ty(a).deref_all().ir());
        let mut resolved = match (family, typed) {
            (Some(_), Some(t)) => intrinsics::typed_name(name, t, Space::Global),
            _ => name.to_string(),
        };
        for (i, a) in args.iter().enumerate() {
            if let (Some(0), Some(t), 0) = (family, typed, i) {
                let (space, addr) = self.reference_address(a, name)?;
                resolved = intrinsics::typed_name(name, t, space);
                if intrinsics::lookup(&resolved).is_none() {
                    return Err(self.err(
                        a.span,
                        format!("`{name}` on {t:?} values is not available in {space:?} memory"),
                    ));
                }
                vals.push(addr);
                continue;
            }
            let name = resolved.as_str();
            let want = intrinsics::lookup(name).and_then(|id| id.def().args.get(i).copied());
            let by_address = matches!(self.ty(a), Ty::Ref(..))
                && matches!(want, Some(ir::Ty::U64) | Some(ir::Ty::U32));
            if by_address {
                vals.push(self.address_arg(a, name, want.unwrap_or(ir::Ty::U64))?);
            } else {
                vals.push(self.scalar(a)?);
            }
        }
        if kernel_std::math::shape(name).is_some() && intrinsics::lookup(name).is_none() {
            return self.math_call(name, &vals, sp);
        }
        match name {
            "thread_idx" | "block_idx" | "block_dim" | "grid_dim" => {
                let prefix = match name {
                    "thread_idx" => "tid",
                    "block_idx" => "ctaid",
                    "block_dim" => "ntid",
                    _ => "nctaid",
                };
                let mut fields = Vec::new();
                for (axis, c) in ["x", "y", "z"].into_iter().enumerate() {
                    // A required block shape makes `block_dim()` a constant, and a thread index
                    // along an axis of extent 1 zero, as nvcc's `.reqntid` code does.
                    let fixed = self.k.attrs.block_dim.and_then(|d| match prefix {
                        "ntid" => Some(d[axis]),
                        "tid" if d[axis] == 1 => Some(0),
                        _ => None,
                    });
                    if let Some(v) = fixed {
                        fields.push(Val::Scalar(Operand::Const(ir::Const::u32(v))));
                        continue;
                    }
                    let r = self.intrinsic(&format!("{prefix}.{c}"), &[], sp)?;
                    fields.push(Val::Scalar(Operand::Var(r[0])));
                }
                Ok(Val::Agg(fields))
            }
            "shared_array" => {
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
            "dynamic_shared" => {
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
                let n = self.var(ir::Ty::U32);
                self.emit(Inst::Binary {
                    dst: n,
                    op: BinOp::Div,
                    a: Operand::Var(bytes),
                    b: c_u32(size),
                });
                let len = self.cast(Operand::Var(n), ir::Ty::U64);
                Ok(Val::Slice(SliceVal {
                    ptr: Operand::Var(ptr),
                    len,
                    space: Space::Shared,
                    readonly: false,
                    local: None,
                }))
            }
            _ => {
                let r = self.intrinsic(&resolved, &vals, sp)?;
                Ok(match r.as_slice() {
                    [] => Val::Unit,
                    [one] => Val::Scalar(Operand::Var(*one)),
                    many => Val::Agg(many.iter().map(|v| Val::Scalar(Operand::Var(*v))).collect()),
                })
            }
        }
    }

    /// The address of the memory a reference argument points at, in the width the intrinsic
    /// takes (U64: global, U32: shared).
    fn address_arg(&mut self, a: &Expr, name: &str, want: ir::Ty) -> R<Operand> {
        match self.expr(a)? {
            Val::Ref(Loc::Mem { space, addr, .. }) => {
                let ok = matches!(
                    (space, want),
                    (Space::Global, ir::Ty::U64) | (Space::Shared, ir::Ty::U32)
                );
                if !ok {
                    return Err(self.err(
                        a.span,
                        format!("`{name}` does not take a reference into {space:?} memory"),
                    ));
                }
                Ok(addr)
            }
            _ => Err(self.err(
                a.span,
                format!("`{name}` needs a reference into global or shared memory (a slice element or shared array element)"),
            )),
        }
    }

    /// The address space and address of the memory a reference argument points at (atomics).
    pub(super) fn reference_address(&mut self, a: &Expr, name: &str) -> R<(Space, Operand)> {
        match self.expr(a)? {
            Val::Ref(Loc::Mem { space, addr, readonly }) => {
                if readonly && !name.starts_with("atomic_load") {
                    return Err(self.err(
                        a.span,
                        format!("`{name}` writes through its reference: pass `&mut`, not `&`"),
                    ));
                }
                Ok((space, addr))
            }
            _ => Err(self.err(
                a.span,
                format!("`{name}` needs a reference into global or shared memory (a slice element or shared array element)"),
            )),
        }
    }

    /// Emits one table intrinsic, returning its result registers.
    pub(super) fn intrinsic(
        &mut self,
        name: &str,
        args: &[Operand],
        sp: kernel_ir::ast::Span,
    ) -> R<Vec<ir::Var>> {
        let id = intrinsics::lookup(name)
            .ok_or_else(|| self.err(sp, format!("unknown intrinsic `{name}`")))?;
        let def = id.def();
        let mut cast_args = Vec::new();
        for (a, t) in args.iter().zip(def.args) {
            cast_args.push(self.cast(*a, *t));
        }
        let dsts: Vec<ir::Var> = def.rets.iter().map(|t| self.var(*t)).collect();
        if def.class != intrinsics::Class::Pure {
            self.mark(sp);
        }
        self.emit(Inst::Intrinsic {
            id,
            dsts: dsts.clone(),
            args: cast_args,
        });
        Ok(dsts)
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
