//! The IR text reads back as printed: for every example kernel (the registry's and the porting
//! corpus's), with checks on and off, the IR after the front end and after every pass parses to
//! a kernel that prints the same text.

use ferrocuda::kernel_compiler::{compile, lower, parse_ir, passes, CompileOptions};
use ferrocuda::kernel_ir::ir::Kernel;
use ferrocuda_examples::registry::{CORPUS_KERNELS, KERNELS};

fn round_trips(k: &Kernel, what: &str) {
    let text = k.to_string();
    let back = parse_ir(&text).unwrap_or_else(|e| panic!("{what}: {e}\n{text}"));
    assert_eq!(back.to_string(), text, "{what}");
}

#[test]
fn every_example_kernel_round_trips_after_every_pass() {
    for entry in KERNELS.iter().chain(CORPUS_KERNELS) {
        for bounds_checks in [true, false] {
            let opts = CompileOptions {
                bounds_checks,
                ..CompileOptions::default()
            };
            let mut k = lower((entry.def)(), &(entry.generics)()).unwrap();
            round_trips(&k, &format!("{} after the front end", entry.name));
            passes::optimize_with(&mut k, &opts, &mut |pass, k| {
                round_trips(k, &format!("{} after {pass}", entry.name))
            });
            let c = compile((entry.def)(), &(entry.generics)(), &opts).unwrap();
            round_trips(&c.kernel, &format!("{} optimized", entry.name));
        }
    }
}
