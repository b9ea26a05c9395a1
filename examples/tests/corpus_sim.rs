//! Every case of the porting corpus on the simulator at its small size, against the CPU
//! reference (the same check the GPU bench runs before timing), and every corpus kernel through
//! ptxas for sm_80 and sm_90.

use ferrocuda::kernel_compiler::{compile, CompileOptions};
use ferrocuda::prelude::*;
use ferrocuda_examples::corpus::{self, harness::Size};

fn run(name: &str) {
    let case = corpus::find(name).unwrap_or_else(|| panic!("no case `{name}`"));
    corpus::harness::run_and_check(case, &Device::simulator(), Size::Sim).unwrap();
}

macro_rules! sim_tests {
    ($($name:ident),* $(,)?) => {$(
        #[test]
        fn $name() {
            run(stringify!($name));
        }
    )*};
}

sim_tests!(
    vector_add,
    saxpy,
    gelu,
    transpose_naive,
    transpose_tiled,
    matmul_naive,
    matmul_tiled,
    sgemm_regtile,
    reduce_tree,
    reduce_shfl,
    reduce_warp_atomic,
    scan_block,
    scan_device,
    compact,
    histogram,
    stencil2d,
    stencil3d,
    filter5x5,
    conv_row,
    conv_col,
    softmax,
    layernorm,
    bitonic_step,
    spmv_scalar,
    spmv_vector,
    nbody,
    black_scholes,
    mandelbrot,
    rgba_adjust,
    rgba_to_gray,
    gemv_rows,
    gemv_cols,
);

#[test]
fn every_case_has_a_simulator_test() {
    // The list above names each case once; a case added to the corpus must be added there.
    let listed = include_str!("corpus_sim.rs");
    for c in corpus::cases() {
        assert!(
            listed.contains(&format!("    {},\n", c.name)),
            "case `{}` has no simulator test",
            c.name
        );
    }
    assert!(corpus::cases().count() >= 25);
}

#[test]
fn bitonic_sort_sorts_sim() {
    corpus::sort::check_full_sort(&Device::simulator(), 1 << 10).unwrap();
}

#[test]
fn every_corpus_kernel_assembles_for_sm80_and_sm90() {
    if kernel_testkit::ptxas::require_ptxas().is_none() {
        return;
    }
    for k in ferrocuda_examples::registry::CORPUS_KERNELS {
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
        }
    }
}

/// The same checks on a GPU at the simulator's sizes (the bench checks the timed sizes).
#[test]
#[ignore = "needs a GPU"]
fn corpus_gpu() {
    let dev = match Device::cuda(0) {
        Ok(d) => d,
        Err(e) if std::env::var_os("FERROCUDA_REQUIRE_GPU").is_none() => {
            eprintln!("skipping GPU test: {e}");
            return;
        }
        Err(e) => panic!("GPU required: {e}"),
    };
    let failures: Vec<String> = corpus::cases()
        .filter_map(|c| corpus::harness::run_and_check(c, &dev, Size::Sim).err())
        .collect();
    assert!(failures.is_empty(), "{failures:#?}");
    corpus::sort::check_full_sort(&dev, 1 << 16).unwrap();
}
