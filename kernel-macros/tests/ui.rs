//! Compile-fail tests: every construct the macros reject, with the message the user sees and the
//! line it points to (`tests/ui/NAME.rs`, expectations in `NAME.expected`; see `ui_support` for
//! what is compared and why rustc's own wording is not).

mod ui_support;

use std::path::Path;

#[test]
fn ui() {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let scratch = Path::new(env!("CARGO_TARGET_TMPDIR")).join("kernel-macros-ui");
    ui_support::check(crate_dir, &scratch);
}
