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

/// What is compared survives a rustc that rewords its own notes and help: only our texts are
/// kept, with the error code and the span in the case's file.
#[test]
fn only_our_texts_are_compared() {
    let msg: serde_json::Value = serde_json::from_str(
        r#"{"level": "error", "message": "our message", "code": {"code": "E0277"},
            "spans": [{"file_name": "/x/tests/ui/case.rs", "line_start": 7, "column_start": 12,
                       "is_primary": true, "label": "our label", "expansion": null}],
            "children": [{"level": "note", "message": "rustc's own wording, any version"},
                         {"level": "help", "message": "our help"}]}"#,
    )
    .unwrap();
    let ours = "fn f() { \"our message\"; \"our label\"; \"our help\" }";
    let d = ui_support::diag(&msg, Path::new("/x/tests/ui/case.rs"), ours).unwrap();
    assert_eq!(
        d.to_string(),
        "error[E0277]: our message\n --> tests/ui/case.rs:7:12\n  = label: our label\n  = help: our help\n"
    );
    // Warnings are not compared at all.
    let mut w = msg.clone();
    w["level"] = "warning".into();
    assert!(ui_support::diag(&w, Path::new("/x/tests/ui/case.rs"), ours).is_none());
}
