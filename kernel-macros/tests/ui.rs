//! Compile-fail tests: every construct the macros reject, with the message the user sees.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
}
