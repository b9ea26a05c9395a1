//! Ports of classic CUDA samples. Each module holds the kernel, a CPU reference and a `check`
//! function that runs the kernel on a device (GPU or simulator) with random inputs and poisoned
//! outputs and compares against the reference; tests, example binaries and benchmarks share them.

pub mod async_barriers;
pub mod async_matmul;
pub mod clock;
pub mod cluster_histogram;
pub mod cluster_sum;
pub mod cooperative_groups;
pub mod corpus;
pub mod fence_reduction;
pub mod grid_sync;
pub mod histogram;
pub mod l2_persist;
pub mod launch;
pub mod pdl_pair;
pub mod reduction;
pub mod registry;
pub mod reverse;
pub mod saxpy;
pub mod sgemm;
pub mod shfl_scan;
pub mod simple_atomics;
pub mod simple_graphs;
pub mod simple_printf;
pub mod simple_vote;
pub mod tma;
pub mod transpose;
pub mod util;
pub mod vector_add;
pub mod wmma_gemm;
