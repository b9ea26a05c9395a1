//! Register naming: one PTX register per IR `Var`, numbered densely within its class in `Var`
//! order (`%r0` is the first 32-bit var), then compiler temporaries after them. Dense numbering keeps
//! the `.reg .b32 %r<N>` declarations exact.

use super::types::RegClass;
use crate::ir::Ty;
use std::collections::BTreeMap;

pub struct Regs {
    names: Vec<String>,
    counts: BTreeMap<RegClass, u32>,
}

impl Regs {
    pub fn new(vars: &[Ty]) -> Regs {
        let mut r = Regs {
            names: Vec::with_capacity(vars.len()),
            counts: BTreeMap::new(),
        };
        for &ty in vars {
            let name = r.fresh(RegClass::of(ty));
            r.names.push(name);
        }
        r
    }

    /// A new register of `class` (a temporary, or a var's own).
    pub fn fresh(&mut self, class: RegClass) -> String {
        let n = self.counts.entry(class).or_insert(0);
        *n += 1;
        format!("{}{}", class.prefix(), *n - 1)
    }

    pub fn var(&self, id: u32) -> Option<&str> {
        self.names.get(id as usize).map(|s| s.as_str())
    }

    /// `.reg` declarations for every class used.
    pub fn declarations(&self) -> String {
        let mut s = String::new();
        for class in RegClass::ALL {
            if let Some(&n) = self.counts.get(&class) {
                s.push_str(&format!(
                    "\t.reg {} {}<{}>;\n",
                    class.decl(),
                    class.prefix(),
                    n
                ));
            }
        }
        s
    }
}
