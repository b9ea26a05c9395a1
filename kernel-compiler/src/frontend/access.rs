//! Device functions on the memory a reference points at (`Lowering::Access`: atomics, cache-hinted
//! loads and stores, paired-half atomics), the address a reference holds (`cvta_to_shared`) and
//! the space it points into (`is_global`...), which references carry statically.

use kernel_ir::ast::Expr;
use kernel_ir::ast::{Access, IntrinsicSpec};
use kernel_ir::intrinsic::IntrinsicDef;
use kernel_ir::ir::{self, Operand, Space};

use super::builtins::results;
use super::layout::{access_lanes, field_lanes, struct_layout};
use super::types::Ty;
use super::value::{Loc, Val};
use super::{Lower, R};

/// The memory space an access entry serves (`IntrinsicDef::access_space`).
fn space_of(d: &IntrinsicDef) -> Space {
    d.access_space()
}

/// How a reference's memory must be named in a message about `entries`.
fn spaces_text(entries: &[IntrinsicDef]) -> &'static str {
    if entries.iter().any(|d| space_of(d) == Space::Shared) {
        "global or shared memory (a slice element or shared array element)"
    } else {
        "global memory (an element of a slice parameter)"
    }
}

impl Lower {
    /// One access of the pointee through the entry for its space and lanes, or (`by_field`)
    /// one per field of a struct of scalars.
    pub(super) fn access(
        &mut self,
        e: &Expr,
        spec: &IntrinsicSpec,
        acc: Access,
        args: &[Expr],
    ) -> R<Val> {
        let (sp, name) = (e.span, spec.name);
        let entries = (spec.entries)();
        let (space, addr, readonly) = match self.expr(&args[0])? {
            Val::Ref(Loc::Mem {
                space,
                addr,
                readonly,
            }) => (space, addr, readonly),
            _ => {
                return Err(self.err(
                    args[0].span,
                    format!("`{name}` needs a reference into {}", spaces_text(entries)),
                ))
            }
        };
        if acc.writes && readonly {
            return Err(self.err(
                args[0].span,
                format!("`{name}` writes through its reference: pass `&mut`, not `&`"),
            ));
        }
        if !entries.iter().any(|d| space_of(d) == space) {
            return Err(self.err(
                args[0].span,
                format!("`{name}` needs a reference into {}", spaces_text(entries)),
            ));
        }
        let pointee = match self.ty(&args[0]) {
            Ty::Ref(t, _) => *t,
            _ => return Err(self.err(sp, "internal: reference type expected")),
        };
        let values = args.len() - 1;
        let entry = |lanes: &[ir::Ty]| {
            entries.iter().find(|d| {
                space_of(d) == space
                    && d.value_lanes() == lanes
                    && d.args.len() == 1 + values * lanes.len()
            })
        };
        if let Some(def) = access_lanes(&pointee).and_then(|l| entry(&l)) {
            let mut ops = vec![addr];
            for a in &args[1..] {
                let v = self.expr(a)?;
                self.lanes_of(v, &self.ty(a), &mut ops, a.span)?;
            }
            let r = self.intrinsic(def, &ops, sp)?;
            if r.is_empty() || pointee.ir().is_some() {
                return Ok(results(&r));
            }
            let mut r = r.into_iter().map(|v| Val::Scalar(Operand::Var(v)));
            return self.assemble(&pointee, &mut r, sp);
        }
        let fields = field_lanes(&pointee)
            .filter(|_| acc.by_field)
            .and_then(|fs| fs.iter().map(|f| entry(&[*f])).collect::<Option<Vec<_>>>());
        let (Some(defs), Ty::Struct(s)) = (fields, &pointee) else {
            return Err(self.err(
                args[0].span,
                format!("`{name}` on `{pointee}` values is not available in {space:?} memory"),
            ));
        };
        // Field by field: the value first, then one access per field at its offset.
        let mut values = Vec::new();
        for a in &args[1..] {
            match self.expr(a)? {
                Val::Agg(vs) => values.push(vs),
                _ => return Err(self.err(a.span, "internal: struct value is not an aggregate")),
            }
        }
        let (_, _, offsets) = struct_layout(*s).map_err(|m| self.err(sp, m))?;
        let mut out = Vec::new();
        for (k, (def, off)) in defs.into_iter().zip(offsets).enumerate() {
            let at = self.bin(
                ir::BinOp::Add,
                addr,
                Operand::Const(ir::Const::u64(off as u64)),
            );
            let mut ops = vec![at];
            for vs in &values {
                match vs.get(k) {
                    Some(Val::Scalar(v)) => ops.push(*v),
                    _ => return Err(self.err(sp, "internal: struct field is not a scalar")),
                }
            }
            let r = self.intrinsic(def, &ops, sp)?;
            out.extend(r.into_iter().map(|v| Val::Scalar(Operand::Var(v))));
        }
        Ok(if out.is_empty() {
            Val::Unit
        } else {
            Val::Agg(out)
        })
    }

    /// The address a reference into `space` holds: shared references hold the shared-window
    /// offset, global ones the generic pointer (which is its own global address on every
    /// supported GPU).
    pub(super) fn address_of(&mut self, name: &str, space: Space, a: &Expr) -> R<Val> {
        match self.expr(a)? {
            Val::Ref(Loc::Mem { space: s, addr, .. }) if s == space => Ok(Val::Scalar(addr)),
            _ => Err(self.err(
                a.span,
                format!("`{name}` needs a reference into {space:?} memory"),
            )),
        }
    }

    /// Whether reference `a` points into `space`: a constant, since references carry their space
    /// (anything but global or shared memory is the thread's own).
    pub(super) fn is_in(&mut self, space: Option<Space>, a: &Expr) -> R<Val> {
        let actual = match self.expr(a)? {
            Val::Ref(Loc::Mem { space, .. }) => space,
            _ => Space::Local,
        };
        Ok(Val::Scalar(Operand::Const(ir::Const::bool(
            space == Some(actual),
        ))))
    }
}
