//! Per-function lowering context: local bindings (lexically scoped), enclosing loops and where
//! `return` goes.

use crate::passes::fx::FxHashMap as HashMap;
use std::rc::Rc;

use kernel_ir::ast::FnDef;
use kernel_ir::ir::LoopId;

use super::consts::Env;
use super::infer::Types;
use super::types::Ty;
use super::value::Loc;

/// A named local: its type and where its value lives.
#[derive(Clone, Debug)]
pub struct Binding {
    pub ty: Ty,
    pub loc: Loc,
}

/// An enclosing loop that `break` / `continue` can name.
#[derive(Clone, Debug)]
pub struct LoopCtx {
    pub label: Option<String>,
    pub id: LoopId,
    /// The type of `break` values (`loop` expressions with a value), and where they go:
    /// allocated by the first `break value` lowered, so slices and references keep their shape.
    pub value_ty: Option<Ty>,
    pub slot: Option<Loc>,
}

/// What `return` does in the function being lowered.
#[derive(Clone, Debug)]
pub enum RetTarget {
    /// Kernel level: the thread exits.
    Kernel,
    /// An inlined device function: store the value into `FnCtx::ret_slot`, then break out of
    /// its wrapper loop.
    Inline { id: LoopId, ty: Ty },
}

pub struct FnCtx {
    pub def: &'static FnDef,
    pub env: Env,
    pub types: Rc<Types>,
    pub scopes: Vec<HashMap<String, Binding>>,
    pub loops: Vec<LoopCtx>,
    pub ret: RetTarget,
    /// Where an inlined function's result goes; allocated by the first `return` (or the tail)
    /// lowered, so slice and reference results take that value's shape.
    pub ret_slot: Option<Loc>,
}

impl FnCtx {
    pub fn new(def: &'static FnDef, env: Env, types: Rc<Types>, ret: RetTarget) -> Self {
        FnCtx {
            def,
            env,
            types,
            scopes: vec![HashMap::default()],
            loops: Vec::new(),
            ret,
            ret_slot: None,
        }
    }

    pub fn lookup(&self, name: &str) -> Option<&Binding> {
        self.scopes.iter().rev().find_map(|s| s.get(name))
    }

    pub fn bind(&mut self, name: &str, b: Binding) {
        self.scopes.last_mut().unwrap().insert(name.to_string(), b);
    }

    /// The loop a `break` / `continue` with this label targets (innermost when unlabelled).
    pub fn find_loop(&self, label: Option<&str>) -> Option<&LoopCtx> {
        match label {
            None => self.loops.last(),
            Some(l) => self
                .loops
                .iter()
                .rev()
                .find(|x| x.label.as_deref() == Some(l)),
        }
    }
}
