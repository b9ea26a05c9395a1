//! Every kernel of the examples compiles to PTX that ptxas assembles for sm_80 and sm_90; the
//! register-blocked SGEMM keeps its 8x8 accumulators in registers (no stack frame, no spills).
//! Skips (with a note) when ptxas is absent, except under CI=true where that is a failure.

use ferrocuda::kernel_compiler::{compile, CompileOptions};
use ferrocuda_examples::registry::KERNELS;

#[test]
fn every_example_kernel_assembles_for_sm80_and_sm90() {
    if kernel_testkit::ptxas::require_ptxas().is_none() {
        return;
    }
    for k in KERNELS {
        for sm in [80, 90] {
            let opts = CompileOptions {
                sm,
                ..CompileOptions::default()
            };
            let c = compile((k.def)(), &(k.generics)(), &opts)
                .unwrap_or_else(|e| panic!("{}: {e}", k.name));
            let report = kernel_testkit::ptxas::assemble(&c.ptx, sm)
                .unwrap_or_else(|e| panic!("{} for sm_{sm}: ptxas failed:\n{e}", k.name));
            assert_eq!(report.entries.len(), 1, "{}: {report}", k.name);
            let r = &report.entries[0];
            assert_eq!(
                r.spill_stores + r.spill_loads,
                0,
                "{} sm_{sm} spills: {report}",
                k.name
            );
        }
    }
}

#[test]
fn sgemm_accumulators_live_in_registers() {
    if kernel_testkit::ptxas::require_ptxas().is_none() {
        return;
    }
    let k = ferrocuda_examples::registry::find("sgemm").unwrap();
    let c = compile(
        (k.def)(),
        &[],
        &CompileOptions {
            sm: 90,
            ..CompileOptions::default()
        },
    )
    .unwrap();
    assert!(
        !c.ptx.contains(".local"),
        "SGEMM uses local memory:\n{}",
        c.ptx
    );
    let report = kernel_testkit::ptxas::assemble(&c.ptx, 90).unwrap();
    let r = &report.entries[0];
    assert_eq!(r.stack_frame, 0, "{report}");
    assert_eq!(r.spill_stores, 0, "{report}");
    assert_eq!(r.spill_loads, 0, "{report}");
    assert!(r.registers <= 255, "{report}");
}
