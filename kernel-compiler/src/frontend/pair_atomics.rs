//! `atomic_add_half2` / `atomic_add_bfloat162`: the entry for the reference's memory space
//! (`atomic_add_half2_lanes.shared`), the pair's lanes as separate values.

use kernel_ir::ast::Expr;
use kernel_ir::ir::{Operand, Space};
use kernel_std::intrinsics;

use super::value::Val;
use super::{Lower, R};

impl Lower {
    /// Lowers the paired atomics; `None` for every other intrinsic.
    pub(super) fn pair_atomic(&mut self, e: &Expr, name: &str, args: &[Expr]) -> R<Option<Val>> {
        if name != "atomic_add_half2_lanes" && name != "atomic_add_bfloat162_lanes" {
            return Ok(None);
        }
        let (space, addr) = self.reference_address(&args[0], name)?;
        let entry = match space {
            Space::Global => format!("{name}.global"),
            Space::Shared => format!("{name}.shared"),
            Space::Local => {
                return Err(self.err(
                    args[0].span,
                    format!("`{name}` needs a reference into global or shared memory"),
                ))
            }
        };
        debug_assert!(intrinsics::lookup(&entry).is_some());
        let x = self.scalar(&args[1])?;
        let y = self.scalar(&args[2])?;
        let r = self.intrinsic(&entry, &[addr, x, y], e.span)?;
        Ok(Some(Val::Agg(
            r.iter().map(|v| Val::Scalar(Operand::Var(*v))).collect(),
        )))
    }
}
