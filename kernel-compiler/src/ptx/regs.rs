//! Register naming: one PTX register per IR `Var`, numbered densely within its class in `Var`
//! order (`%r0` is the first 32-bit var), then compiler temporaries after them. Dense numbering keeps
//! the `.reg .b32 %r<N>` declarations exact.
//!
//! A register is a `Copy` pair (class, number) written out only where it lands in the output:
//! kernels have thousands of registers and every instruction names several, so owning a `String`
//! per name (and per operand use) was most of the emitter's time.

use super::types::RegClass;
use kernel_ir::ir::Ty;
use std::fmt;

/// A PTX register, e.g. `%rd12`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reg {
    class: RegClass,
    n: u32,
}

impl Reg {
    /// Appends the register's name to `out`, a byte at a time: names are a few bytes, and a
    /// `push_str` of each piece (a `memcpy` call) cost more than the pushes.
    #[inline]
    pub fn write_to(self, out: &mut String) {
        out.reserve(16);
        out.push('%');
        match self.class {
            RegClass::Pred => out.push('p'),
            RegClass::Half => out.push('h'),
            RegClass::B32 => out.push('r'),
            RegClass::B64 => {
                out.push('r');
                out.push('d');
            }
            RegClass::F32 => out.push('f'),
            RegClass::F64 => {
                out.push('f');
                out.push('d');
            }
        }
        push_digits(out, u64::from(self.n));
    }
}

impl fmt::Display for Reg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::with_capacity(16);
        self.write_to(&mut s);
        f.write_str(&s)
    }
}

pub struct Regs {
    vars: Vec<Reg>,
    /// Registers made so far per class, in `RegClass::ALL` order.
    counts: [u32; RegClass::ALL.len()],
}

impl Regs {
    pub fn new(vars: &[Ty]) -> Regs {
        let mut r = Regs {
            vars: Vec::with_capacity(vars.len()),
            counts: [0; RegClass::ALL.len()],
        };
        for &ty in vars {
            let reg = r.fresh(RegClass::of(ty));
            r.vars.push(reg);
        }
        r
    }

    /// A new register of `class` (a temporary, or a var's own).
    pub fn fresh(&mut self, class: RegClass) -> Reg {
        let n = &mut self.counts[class.index()];
        *n += 1;
        Reg { class, n: *n - 1 }
    }

    #[inline]
    pub fn var(&self, id: u32) -> Option<Reg> {
        self.vars.get(id as usize).copied()
    }

    /// `.reg` declarations for every class used.
    pub fn declarations(&self) -> String {
        let mut s = String::new();
        for class in RegClass::ALL {
            let n = self.counts[class.index()];
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

#[inline(never)]
fn push_decimal_slow(s: &mut String, n: u64) {
    push_decimal(s, n);
}

/// The two-digit decimal strings `00` to `99`, concatenated.
const PAIRS: &[u8; 200] = b"0001020304050607080910111213141516171819\
2021222324252627282930313233343536373839\
4041424344454647484950515253545556575859\
6061626364656667686970717273747576777879\
8081828384858687888990919293949596979899";

#[inline(always)]
fn push_pair(s: &mut String, n: u64) {
    let i = 2 * n as usize;
    push_digit(s, PAIRS[i]);
    push_digit(s, PAIRS[i + 1]);
}

/// Pushes an ASCII digit; the mask tells the compiler it is one byte of UTF-8.
#[inline(always)]
fn push_digit(s: &mut String, b: u8) {
    s.push(char::from(b & 0x7F));
}

/// Appends `n` in decimal (as `write!(s, "{n}")`, without the formatting machinery): register
/// numbers and offsets are almost always below 10000, so those take a few pushes.
pub fn push_decimal(s: &mut String, n: u64) {
    push_digits(s, n);
}

/// [`push_decimal`], inlined into [`Reg::write_to`] (a call per register name was a fifth of its
/// cost).
#[inline(always)]
fn push_digits(s: &mut String, n: u64) {
    if n < 10 {
        push_digit(s, b'0' + n as u8);
    } else if n < 100 {
        push_pair(s, n);
    } else if n < 1000 {
        push_digit(s, b'0' + (n / 100) as u8);
        push_pair(s, n % 100);
    } else if n < 10000 {
        push_pair(s, n / 100);
        push_pair(s, n % 100);
    } else {
        push_decimal_slow(s, n / 10000);
        let r = n % 10000;
        push_pair(s, r / 100);
        push_pair(s, r % 100);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_match_formatting() {
        let mut regs = Regs::new(&[Ty::U32, Ty::F32, Ty::U32, Ty::Bool]);
        assert_eq!(regs.var(2).map(|r| r.to_string()).as_deref(), Some("%r1"));
        let mut x = 0x9E37_79B9u32;
        for class in RegClass::ALL {
            for _ in 0..300 {
                let r = regs.fresh(class);
                let mut s = String::from("x");
                r.write_to(&mut s);
                assert_eq!(s, format!("x{}{}", class.prefix(), r.n));
            }
            for n in [0, 9, 10, 99, 100, u32::MAX, x] {
                let r = Reg { class, n };
                assert_eq!(r.to_string(), format!("{}{n}", class.prefix()));
                x = x.wrapping_mul(2_654_435_761).rotate_left(7);
            }
        }
        let mut n = 1u64;
        for i in 0..20_000u64 {
            for m in [i, n, n - 1, u64::MAX - i] {
                let mut s = String::from("x");
                push_decimal(&mut s, m);
                assert_eq!(s, format!("x{m}"));
            }
            n = n.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(5) | 1;
        }
    }
}
