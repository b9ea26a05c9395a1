//! Removes Ferrocuda's loop attributes from the host copy of a function: rustc does not know
//! `#[unroll]`, and the AST already recorded them.

use syn::visit_mut::{self, VisitMut};

use crate::attrs::is_loop_attr;

struct StripLoopAttrs;

impl VisitMut for StripLoopAttrs {
    fn visit_expr_for_loop_mut(&mut self, e: &mut syn::ExprForLoop) {
        e.attrs.retain(|a| !is_loop_attr(a));
        visit_mut::visit_expr_for_loop_mut(self, e);
    }
}

pub(crate) fn strip_loop_attrs(f: &mut syn::ItemFn) {
    StripLoopAttrs.visit_item_fn_mut(f);
}
