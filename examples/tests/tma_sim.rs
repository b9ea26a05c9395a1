//! The TMA examples (a tiled 2-D copy, a 128-byte-swizzled transpose) and the bulk-copy rules:
//! on the simulator as sm_90 in `cargo test`, on an sm_90 GPU with `--ignored`.

use ferrocuda::prelude::*;
use ferrocuda_examples::tma;

fn sim90() -> Device {
    Device::simulator_with_arch(90).unwrap()
}

#[test]
fn tma_examples_sim() {
    tma::check_all(&sim90()).unwrap();
}

fn gpu90() -> Option<Device> {
    match Device::cuda(0) {
        Ok(d) if d.properties().sm() >= 90 => Some(d),
        Ok(d) => {
            eprintln!(
                "skipping: sm_{} has no tensor memory accelerator",
                d.properties().sm()
            );
            None
        }
        Err(e) if std::env::var_os("FERROCUDA_REQUIRE_GPU").is_none() => {
            eprintln!("skipping GPU test: {e}");
            None
        }
        Err(e) => panic!("GPU required: {e}"),
    }
}

#[test]
#[ignore = "needs an sm_90 GPU"]
fn tma_examples_gpu() {
    let Some(dev) = gpu90() else { return };
    tma::check_all(&dev).unwrap();
    tma::check(&dev, 4096, 4096).unwrap();
}

/// Both kernels' PTX assembles for sm_90 (under `CI=true` a missing ptxas fails), and the
/// descriptor stays in parameter space as nvcc leaves a `__grid_constant__ CUtensorMap`.
#[test]
fn tma_kernels_assemble_for_sm90() {
    use ferrocuda::kernel_compiler::{compile, CompileOptions};
    let opts = CompileOptions {
        sm: 90,
        ..CompileOptions::default()
    };
    for def in [tma::tma_copy_2d::ast(), tma::tma_transpose::ast()] {
        let c = compile(def, &[], &opts).unwrap();
        assert!(c.ptx.contains(".param .align 64 .b8"), "{}", c.ptx);
        assert!(c.ptx.contains("cvta.param.u64"), "{}", c.ptx);
        assert!(c.ptx.contains("cp.async.bulk.tensor.2d"), "{}", c.ptx);
        if std::env::var_os("TMA_DUMP").is_some() {
            println!("{}", c.ptx);
        }
        if kernel_testkit::ptxas::require_ptxas().is_none() {
            continue;
        }
        if let Err(e) = kernel_testkit::ptxas::assemble(&c.ptx, 90) {
            panic!("{}: {e}\n{}", def.name, c.ptx);
        }
    }
}

/// For an older target the TMA calls are a compile error naming the function.
#[test]
fn tma_kernels_need_sm90() {
    use ferrocuda::kernel_compiler::{compile, CompileOptions};
    let opts = CompileOptions {
        sm: 80,
        ..CompileOptions::default()
    };
    let e = compile(tma::tma_copy_2d::ast(), &[], &opts)
        .unwrap_err()
        .to_string();
    assert!(e.contains("sm_90"), "{e}");
}

/// The TMA kernels' IR (grid-constant parameters, bulk entries) reads back as printed after every
/// pass. They are not in the example registry, whose kernels every tool compiles for sm_80 too.
#[test]
fn tma_kernels_round_trip_through_ir_text() {
    use ferrocuda::kernel_compiler::{lower, parse_ir, passes, CompileOptions};
    let round_trips = |k: &ferrocuda::kernel_ir::ir::Kernel, what: &str| {
        let text = k.to_string();
        let back = parse_ir(&text).unwrap_or_else(|e| panic!("{what}: {e}\n{text}"));
        assert_eq!(back.to_string(), text, "{what}");
    };
    for def in [tma::tma_copy_2d::ast(), tma::tma_transpose::ast()] {
        let opts = CompileOptions {
            sm: 90,
            ..CompileOptions::default()
        };
        let mut k = lower(def, &[]).unwrap();
        round_trips(&k, def.name);
        assert!(k.to_string().contains("grid_constant_mut"), "{k}");
        passes::optimize_with(&mut k, &opts, &mut |pass, k| {
            round_trips(k, &format!("{} after {pass}", def.name))
        });
    }
}
