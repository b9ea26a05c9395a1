//! Whether a GPU test runs under NVIDIA's compute-sanitizer, as the GPU bundle's sweep
//! (`./run.sh sanitize`, `xtask/src/sanitize.rs`) runs them: it sets `FERROCUDA_UNDER_SANITIZER`
//! to the tool's name (`memcheck`, `racecheck`, `synccheck`, `initcheck`).
//!
//! The tools serialize kernel launches and copies and slow every instruction down 10-100 times,
//! so what a test measures in wall time means nothing there: the tests that assert overlap or
//! compare durations keep their ordering and correctness checks and skip only those assertions
//! ([`skip_timing`]), and the loops that measure launch overhead run a few rounds
//! ([`rounds`]). The list, kept explicit in the sweep's documentation:
//! `gpu_ordering::reads_and_disjoint_writes_on_two_streams_overlap`,
//! `gpu_ordering::dropping_a_buffer_neither_waits_nor_frees_early`,
//! `gpu_streams::copy_overlaps_kernel_on_another_stream` (timing skipped);
//! `gpu_kernels::raw_launches_succeed_and_their_overhead_is_reported`,
//! `gpu_e2e::typed_launches_succeed_and_their_overhead_is_reported` (fewer rounds);
//! `differential_random::random_kernels_on_the_gpu` (one thread, driver JIT).

/// The environment variable the sweep sets.
pub const ENV: &str = "FERROCUDA_UNDER_SANITIZER";

/// The compute-sanitizer tool the process runs under, if the sweep said so.
pub fn under_sanitizer() -> Option<String> {
    std::env::var(ENV).ok().filter(|t| !t.is_empty())
}

/// Whether `test` must skip its wall-time assertions (`what`): true under compute-sanitizer,
/// after saying so on stderr (the sweep's logs show every skipped assertion).
pub fn skip_timing(test: &str, what: &str) -> bool {
    match under_sanitizer() {
        Some(tool) => {
            eprintln!("{test}: skipped under compute-sanitizer {tool}: {what}");
            true
        }
        None => false,
    }
}

/// `normal` outside compute-sanitizer, `sanitized` under it.
pub fn rounds(normal: u32, sanitized: u32) -> u32 {
    if under_sanitizer().is_some() {
        sanitized
    } else {
        normal
    }
}
