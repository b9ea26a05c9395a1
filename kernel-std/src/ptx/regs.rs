//! Register naming: one PTX register per IR `Var`, numbered densely within its class in `Var`
//! order (`%r0` is the first 32-bit var), then compiler temporaries after them. Dense numbering keeps
//! the `.reg .b32 %r<N>` declarations exact.

use super::types::RegClass;
use crate::ir::Ty;

pub struct Regs {
    names: Vec<String>,
    /// Registers made so far per class, in `RegClass::ALL` order (an array: `fresh` runs once
    /// per variable and temporary).
    counts: [u32; RegClass::ALL.len()],
}

fn slot(class: RegClass) -> usize {
    RegClass::ALL
        .iter()
        .position(|c| *c == class)
        .unwrap_or_default()
}

impl Regs {
    pub fn new(vars: &[Ty]) -> Regs {
        let mut r = Regs {
            names: Vec::with_capacity(vars.len()),
            counts: [0; RegClass::ALL.len()],
        };
        for &ty in vars {
            let name = r.fresh(RegClass::of(ty));
            r.names.push(name);
        }
        r
    }

    /// A new register of `class` (a temporary, or a var's own).
    pub fn fresh(&mut self, class: RegClass) -> String {
        let n = &mut self.counts[slot(class)];
        *n += 1;
        let mut name = String::with_capacity(12);
        name.push_str(class.prefix());
        push_decimal(&mut name, *n - 1);
        name
    }

    pub fn var(&self, id: u32) -> Option<&str> {
        self.names.get(id as usize).map(|s| s.as_str())
    }

    /// `.reg` declarations for every class used.
    pub fn declarations(&self) -> String {
        let mut s = String::new();
        for class in RegClass::ALL {
            let n = self.counts[slot(class)];
            if n > 0 {
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

/// Appends `n` in decimal (what `write!(s, "{n}")` writes, without the formatting machinery:
/// one call per register name).
fn push_decimal(s: &mut String, n: u32) {
    let mut digits = [0u8; 10];
    let mut at = digits.len();
    let mut n = n;
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &d in &digits[at..] {
        s.push(d as char);
    }
}
