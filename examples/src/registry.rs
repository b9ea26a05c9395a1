//! Every kernel of the examples by name, with the generic arguments tooling compiles it with
//! (`cargo xtask ptx`, the ptxas validation test).

use ferrocuda::kernel_ir::ast::FnDef;
use ferrocuda::kernel_ir::GenericValue;

pub struct KernelEntry {
    pub name: &'static str,
    pub def: fn() -> &'static FnDef,
    pub generics: fn() -> Vec<GenericValue>,
    /// The block shape the kernel's program launches it with, where tools should compile the
    /// variant that launch gets (launch-time specialization; `cargo xtask compile-budget` counts
    /// that compile). `None`: the general variant (the kernel fixes its own shape with
    /// `block_dim`, or is launched with several).
    pub launch_block: Option<[u32; 3]>,
}

fn none() -> Vec<GenericValue> {
    Vec::new()
}

pub static KERNELS: &[KernelEntry] = &[
    KernelEntry {
        name: "vector_add",
        def: crate::vector_add::vector_add::ast,
        generics: none,
        launch_block: None,
    },
    KernelEntry {
        name: "saxpy",
        def: crate::saxpy::saxpy::ast,
        generics: none,
        launch_block: None,
    },
    KernelEntry {
        name: "reverse_block",
        def: crate::reverse::reverse_block::ast,
        generics: none,
        launch_block: None,
    },
    KernelEntry {
        name: "transpose",
        def: crate::transpose::transpose::ast,
        generics: || vec![GenericValue::Const(32)],
        launch_block: None,
    },
    KernelEntry {
        name: "sgemm",
        def: crate::sgemm::sgemm::ast,
        generics: none,
        launch_block: Some([256, 1, 1]),
    },
    KernelEntry {
        name: "split_arrive_wait",
        def: crate::async_barriers::split_arrive_wait::ast,
        generics: none,
        launch_block: None,
    },
    KernelEntry {
        name: "barrier_producer_consumer",
        def: crate::async_barriers::producer_consumer::ast,
        generics: none,
        launch_block: None,
    },
    KernelEntry {
        name: "barrier_early_exit",
        def: crate::async_barriers::early_exit::ast,
        generics: none,
        launch_block: None,
    },
    KernelEntry {
        name: "matmul_sync",
        def: crate::async_matmul::matmul_sync::ast,
        generics: || vec![GenericValue::Const(32)],
        launch_block: Some([32, 32, 1]),
    },
    KernelEntry {
        name: "matmul_async",
        def: crate::async_matmul::matmul_async::ast,
        generics: || vec![GenericValue::Const(32)],
        launch_block: Some([32, 32, 1]),
    },
    KernelEntry {
        name: "matmul_pipelined",
        def: crate::async_matmul::matmul_pipelined::ast,
        generics: || vec![GenericValue::Const(32), GenericValue::Const(4)],
        launch_block: Some([32, 32, 1]),
    },
    KernelEntry {
        name: "wmma_gemm",
        def: crate::wmma_gemm::wmma_gemm::ast,
        generics: none,
        launch_block: None,
    },
    KernelEntry {
        name: "atomics_u32",
        def: crate::simple_atomics::atomics_u32::ast,
        generics: none,
        launch_block: None,
    },
    KernelEntry {
        name: "atomics_i32",
        def: crate::simple_atomics::atomics_i32::ast,
        generics: none,
        launch_block: None,
    },
    KernelEntry {
        name: "atomics_64",
        def: crate::simple_atomics::atomics_64::ast,
        generics: none,
        launch_block: None,
    },
    KernelEntry {
        name: "atomics_float",
        def: crate::simple_atomics::atomics_float::ast,
        generics: none,
        launch_block: None,
    },
    KernelEntry {
        name: "simple_printf",
        def: crate::simple_printf::test_kernel::ast,
        generics: none,
        launch_block: None,
    },
    KernelEntry {
        name: "printf_showcase",
        def: crate::simple_printf::format_showcase::ast,
        generics: none,
        launch_block: None,
    },
    KernelEntry {
        name: "vote",
        def: crate::simple_vote::vote::ast,
        generics: none,
        launch_block: None,
    },
    KernelEntry {
        name: "scan_block",
        def: crate::shfl_scan::scan_block::ast,
        generics: none,
        launch_block: None,
    },
    KernelEntry {
        name: "add_block_prefix",
        def: crate::shfl_scan::add_block_prefix::ast,
        generics: none,
        launch_block: None,
    },
    KernelEntry {
        name: "reduce_shared",
        def: crate::reduction::reduce_shared::ast,
        generics: none,
        launch_block: None,
    },
    KernelEntry {
        name: "reduce_shfl",
        def: crate::reduction::reduce_shfl::ast,
        generics: none,
        launch_block: None,
    },
    KernelEntry {
        name: "reduce_redux",
        def: crate::reduction::reduce_redux::ast,
        generics: none,
        launch_block: None,
    },
    KernelEntry {
        name: "histogram256",
        def: crate::histogram::histogram256::ast,
        generics: none,
        launch_block: None,
    },
    KernelEntry {
        name: "fence_reduce",
        def: crate::fence_reduction::fence_reduce::ast,
        generics: none,
        launch_block: None,
    },
    KernelEntry {
        name: "timed_reduction",
        def: crate::clock::timed_reduction::ast,
        generics: none,
        launch_block: None,
    },
];

/// The porting corpus's kernels (`crate::corpus`), named `corpus_<kernel>`.
pub static CORPUS_KERNELS: &[KernelEntry] = &[
    KernelEntry {
        name: "corpus_vector_add",
        def: crate::corpus::elementwise::vector_add::ast,
        generics: none,
        launch_block: Some([256, 1, 1]),
    },
    KernelEntry {
        name: "corpus_saxpy",
        def: crate::corpus::elementwise::saxpy::ast,
        generics: none,
        launch_block: Some([256, 1, 1]),
    },
    KernelEntry {
        name: "corpus_gelu",
        def: crate::corpus::elementwise::gelu::ast,
        generics: none,
        launch_block: Some([256, 1, 1]),
    },
    KernelEntry {
        name: "corpus_transpose_naive",
        def: crate::corpus::transpose::transpose_naive::ast,
        generics: none,
        launch_block: Some([32, 8, 1]),
    },
    KernelEntry {
        name: "corpus_transpose_tiled",
        def: crate::corpus::transpose::transpose_tiled::ast,
        generics: none,
        launch_block: Some([32, 8, 1]),
    },
    KernelEntry {
        name: "corpus_matmul_naive",
        def: crate::corpus::matmul::matmul_naive::ast,
        generics: none,
        launch_block: Some([16, 16, 1]),
    },
    KernelEntry {
        name: "corpus_matmul_tiled",
        def: crate::corpus::matmul::matmul_tiled::ast,
        generics: none,
        launch_block: Some([16, 16, 1]),
    },
    KernelEntry {
        name: "corpus_sgemm_regtile",
        def: crate::corpus::matmul::sgemm_regtile::ast,
        generics: none,
        launch_block: Some([256, 1, 1]),
    },
    KernelEntry {
        name: "corpus_reduce_tree",
        def: crate::corpus::reduce::reduce_tree::ast,
        generics: none,
        launch_block: Some([256, 1, 1]),
    },
    KernelEntry {
        name: "corpus_reduce_shfl",
        def: crate::corpus::reduce::reduce_shfl::ast,
        generics: none,
        launch_block: Some([256, 1, 1]),
    },
    KernelEntry {
        name: "corpus_reduce_warp_atomic",
        def: crate::corpus::reduce::reduce_warp_atomic::ast,
        generics: none,
        launch_block: Some([256, 1, 1]),
    },
    KernelEntry {
        name: "corpus_scan_block",
        def: crate::corpus::scan::scan_block::ast,
        generics: none,
        launch_block: Some([256, 1, 1]),
    },
    KernelEntry {
        name: "corpus_add_offsets",
        def: crate::corpus::scan::add_offsets::ast,
        generics: none,
        launch_block: Some([256, 1, 1]),
    },
    KernelEntry {
        name: "corpus_compact_flags",
        def: crate::corpus::scan::compact_flags::ast,
        generics: none,
        launch_block: Some([256, 1, 1]),
    },
    KernelEntry {
        name: "corpus_compact_scatter",
        def: crate::corpus::scan::compact_scatter::ast,
        generics: none,
        launch_block: Some([256, 1, 1]),
    },
    KernelEntry {
        name: "corpus_histogram_uint4",
        def: crate::corpus::histogram::histogram_uint4::ast,
        generics: none,
        launch_block: Some([256, 1, 1]),
    },
    KernelEntry {
        name: "corpus_stencil2d",
        def: crate::corpus::stencil::stencil2d::ast,
        generics: none,
        launch_block: Some([32, 8, 1]),
    },
    KernelEntry {
        name: "corpus_stencil3d",
        def: crate::corpus::stencil::stencil3d::ast,
        generics: none,
        launch_block: Some([32, 4, 4]),
    },
    KernelEntry {
        name: "corpus_filter5x5",
        def: crate::corpus::stencil::filter5x5::ast,
        generics: none,
        launch_block: Some([16, 16, 1]),
    },
    KernelEntry {
        name: "corpus_conv_row",
        def: crate::corpus::convolution::conv_row::ast,
        generics: none,
        launch_block: Some([32, 8, 1]),
    },
    KernelEntry {
        name: "corpus_conv_col",
        def: crate::corpus::convolution::conv_col::ast,
        generics: none,
        launch_block: Some([32, 8, 1]),
    },
    KernelEntry {
        name: "corpus_softmax_rows",
        def: crate::corpus::rows::softmax_rows::ast,
        generics: none,
        launch_block: Some([256, 1, 1]),
    },
    KernelEntry {
        name: "corpus_layernorm",
        def: crate::corpus::rows::layernorm::ast,
        generics: none,
        launch_block: Some([256, 1, 1]),
    },
    KernelEntry {
        name: "corpus_bitonic_step",
        def: crate::corpus::sort::bitonic_step::ast,
        generics: none,
        launch_block: Some([256, 1, 1]),
    },
    KernelEntry {
        name: "corpus_spmv_csr_scalar",
        def: crate::corpus::spmv::spmv_csr_scalar::ast,
        generics: none,
        launch_block: Some([256, 1, 1]),
    },
    KernelEntry {
        name: "corpus_spmv_csr_vector",
        def: crate::corpus::spmv::spmv_csr_vector::ast,
        generics: none,
        launch_block: Some([256, 1, 1]),
    },
    KernelEntry {
        name: "corpus_nbody_forces",
        def: crate::corpus::nbody::nbody_forces::ast,
        generics: none,
        launch_block: Some([256, 1, 1]),
    },
    KernelEntry {
        name: "corpus_black_scholes",
        def: crate::corpus::black_scholes::black_scholes::ast,
        generics: none,
        launch_block: Some([256, 1, 1]),
    },
    KernelEntry {
        name: "corpus_mandelbrot",
        def: crate::corpus::mandelbrot::mandelbrot::ast,
        generics: none,
        launch_block: Some([32, 8, 1]),
    },
    KernelEntry {
        name: "corpus_rgba_adjust",
        def: crate::corpus::image::rgba_adjust::ast,
        generics: none,
        launch_block: Some([256, 1, 1]),
    },
    KernelEntry {
        name: "corpus_rgba_to_gray",
        def: crate::corpus::image::rgba_to_gray::ast,
        generics: none,
        launch_block: Some([256, 1, 1]),
    },
    KernelEntry {
        name: "corpus_gemv_rows",
        def: crate::corpus::gemv::gemv_rows::ast,
        generics: none,
        launch_block: Some([256, 1, 1]),
    },
    KernelEntry {
        name: "corpus_gemv_cols",
        def: crate::corpus::gemv::gemv_cols::ast,
        generics: none,
        launch_block: Some([256, 1, 1]),
    },
    KernelEntry {
        name: "scale_into",
        def: crate::simple_graphs::scale_into::ast,
        generics: none,
        launch_block: None,
    },
    KernelEntry {
        name: "sum_into",
        def: crate::simple_graphs::sum_into::ast,
        generics: none,
        launch_block: None,
    },
    KernelEntry {
        name: "zero_first",
        def: crate::simple_graphs::zero_first::ast,
        generics: none,
        launch_block: None,
    },
];

/// A kernel of the examples or of the corpus by name.
pub fn find(name: &str) -> Option<&'static KernelEntry> {
    KERNELS
        .iter()
        .chain(CORPUS_KERNELS)
        .find(|k| k.name == name)
}
