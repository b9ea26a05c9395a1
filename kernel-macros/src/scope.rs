//! Lexical scopes of local names, so a single-segment path can be told apart: a local becomes
//! `ExprKind::Local`, anything else is left for rustc to resolve as a host constant.

use std::collections::HashSet;

#[derive(Default)]
pub(crate) struct Scopes {
    stack: Vec<HashSet<String>>,
}

impl Scopes {
    pub(crate) fn push(&mut self) {
        self.stack.push(HashSet::new());
    }

    pub(crate) fn pop(&mut self) {
        self.stack.pop();
    }

    pub(crate) fn bind(&mut self, name: &str) {
        if self.stack.is_empty() {
            self.push();
        }
        if let Some(top) = self.stack.last_mut() {
            top.insert(name.to_string());
        }
    }

    pub(crate) fn contains(&self, name: &str) -> bool {
        self.stack.iter().any(|s| s.contains(name))
    }
}
