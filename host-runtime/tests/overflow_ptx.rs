//! What integer overflow checks cost in PTX: nothing with them off (the code of the `wrapping_*`
//! methods), one or two compares against constants when an operand is a constant, a branch to
//! a cold block after the body when a check fails, and nothing where value ranges prove that a
//! check cannot fire. The simulator runs the same IR; `overflow_checks.rs` runs both.

use ferrocuda::prelude::*;
use kernel_compiler::{compile, CompileOptions};

#[kernel(overflow_checks = false)]
pub fn plain_ops(a: i32, b: i32, c: i32, out: &mut [i32]) {
    out[0] = a + b * c;
    out[1] = -a - c;
}

#[kernel(overflow_checks = false)]
pub fn wrapping_ops(a: i32, b: i32, c: i32, out: &mut [i32]) {
    out[0] = a.wrapping_add(b.wrapping_mul(c));
    out[1] = a.wrapping_neg().wrapping_sub(c);
}

#[kernel(overflow_checks = true)]
pub fn add_constant(a: u32, out: &mut [u32]) {
    out[0] = a + 5;
}

#[kernel(overflow_checks = true)]
pub fn add_variables(a: u32, b: u32, out: &mut [u32]) {
    out[0] = a + b;
}

/// Every overflow test here is decided by the thread index's range (at most 256 threads).
#[kernel(launch_bounds(max_threads = 256), overflow_checks = true)]
pub fn indexed_by_thread(out: &mut [u32]) {
    let t = thread_idx().x;
    let i = t * 4 + 3;
    out[i as usize] = (i - 3) / 4;
    out[t as usize] = 1 << (t % 32);
}

/// The same arithmetic on a value the ranges know nothing about keeps its checks.
#[kernel(launch_bounds(max_threads = 256), overflow_checks = true)]
pub fn indexed_by_parameter(t: u32, out: &mut [u32]) {
    let i = t * 4 + 3;
    out[i as usize] = (i - 3) / 4;
    out[t as usize] = 1 << (t % 32);
}

/// The labels of the cold blocks of failing overflow checks.
const OVERFLOW_BLOCK: &str = "$Lfc_overflow";

fn ptx(def: &'static kernel_ir::ast::FnDef) -> String {
    let opts = CompileOptions {
        sm: 90,
        // `.loc` lines name the source lines, which differ between the twins.
        source_markers: false,
        ..CompileOptions::default()
    };
    let c = compile(def, &[], &opts).unwrap_or_else(|e| panic!("{e}"));
    if kernel_testkit::ptxas::require_ptxas().is_some() {
        kernel_testkit::ptxas::assemble(&c.ptx, 90).unwrap_or_else(|e| panic!("{e}\n{}", c.ptx));
    }
    c.ptx
}

/// The kernel's instructions, its name taken out.
fn body(ptx: &str, name: &str) -> Vec<String> {
    ptx.lines()
        .map(|l| l.trim().replace(name, "K"))
        .filter(|l| !l.is_empty() && !l.starts_with("//"))
        .collect()
}

fn count(ptx: &str, needle: &str) -> usize {
    ptx.lines().filter(|l| l.contains(needle)).count()
}

#[test]
fn unchecked_operators_compile_to_the_wrapping_methods_code() {
    let (a, b) = (ptx(plain_ops::ast()), ptx(wrapping_ops::ast()));
    assert_eq!(body(&a, "plain_ops"), body(&b, "wrapping_ops"), "{a}\n{b}");
    assert_eq!(count(&a, OVERFLOW_BLOCK), 0, "{a}");
}

#[test]
fn a_constant_operand_makes_the_check_one_compare() {
    let p = ptx(add_constant::ast());
    // `a + 5` leaves `u32` exactly when `a > u32::MAX - 5`: one compare, no sum to test.
    let limit = [format!("{}", u32::MAX - 5), format!("{:#X}", u32::MAX - 5)];
    assert_eq!(count(&p, "setp.gt.u32"), 1, "{p}");
    assert!(
        limit
            .iter()
            .any(|l| p.to_uppercase().contains(&l.to_uppercase())),
        "no limit {limit:?}\n{p}"
    );
    assert_eq!(count(&p, "setp.lt.u32"), 0, "no test of a wrapped sum\n{p}");
    // Two variables: the wrapped sum compared with an operand.
    let v = ptx(add_variables::ast());
    assert!(count(&v, "setp.lt.u32") >= 1, "{v}");
}

#[test]
fn a_failing_check_branches_to_a_cold_block_after_the_body() {
    let p = ptx(add_variables::ast());
    let branch = p
        .lines()
        .find(|l| l.contains("bra") && l.contains(OVERFLOW_BLOCK))
        .unwrap_or_else(|| panic!("no branch to an overflow block\n{p}"));
    let label = branch
        .split_whitespace()
        .last()
        .unwrap()
        .trim_end_matches(';');
    assert!(branch.trim_start().starts_with('@'), "{branch}");
    let at = p.find(&format!("{label}:")).expect("the cold block");
    let ret = p.find("ret;").expect("the body's return");
    assert!(ret < at, "the cold block follows the body's return\n{p}");
}

#[test]
fn value_ranges_remove_checks_that_cannot_fire() {
    let by_thread = ptx(indexed_by_thread::ast());
    assert_eq!(count(&by_thread, OVERFLOW_BLOCK), 0, "{by_thread}");
    let by_param = ptx(indexed_by_parameter::ast());
    // `t * 4` and `+ 3` may overflow for an arbitrary `t` (`- 3` may fold into them).
    let blocks = by_param
        .lines()
        .filter(|l| l.starts_with(OVERFLOW_BLOCK) && l.ends_with(':'))
        .count();
    assert!(blocks >= 2, "{by_param}");
}
