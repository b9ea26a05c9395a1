//! Shared by the `intr_*` tests: the devices each check runs on and the ptxas gate.

#![allow(dead_code)]

use ferrocuda::kernel_compiler::{compile, CompileOptions};
use ferrocuda::kernel_ir::ast::FnDef;
use ferrocuda::prelude::*;

pub fn sim() -> Device {
    Device::simulator()
}

/// CUDA device 0, or `None` (after saying why) without one; `FERROCUDA_REQUIRE_GPU` turns a missing
/// GPU into a failure.
pub fn gpu() -> Option<Device> {
    match Device::cuda(0) {
        Ok(d) => Some(d),
        Err(e) if std::env::var_os("FERROCUDA_REQUIRE_GPU").is_none() => {
            eprintln!("skipping GPU test: {e}");
            None
        }
        Err(e) => panic!("GPU required: {e}"),
    }
}

/// Compiles `def` for sm_80 and sm_90 and assembles both with ptxas (skipped, with a note, when
/// ptxas is not installed).
pub fn assembles(def: &'static FnDef) {
    for sm in [80, 90] {
        let opts = CompileOptions {
            sm,
            ..CompileOptions::default()
        };
        let c = compile(def, &[], &opts).unwrap_or_else(|e| panic!("sm_{sm}: {e}"));
        if kernel_testkit::ptxas::require_ptxas().is_none() {
            return;
        }
        kernel_testkit::ptxas::assemble(&c.ptx, sm)
            .unwrap_or_else(|e| panic!("ptxas sm_{sm}: {e}\n{}", c.ptx));
    }
}

/// A small deterministic generator (xorshift) for test inputs, mixed with edge values.
pub fn inputs(n: usize, seed: u64) -> Vec<u32> {
    let edges = [
        0u32,
        1,
        2,
        0x7f,
        0x80,
        0xff,
        0x7fff,
        0x8000,
        0xffff,
        0x7fff_ffff,
        0x8000_0000,
        0xffff_ffff,
        0x8080_8080,
        0x7f7f_7f7f,
        0x0001_ffff,
        0xfffe_0001,
    ];
    let mut s = seed | 1;
    (0..n)
        .map(|i| {
            if i < edges.len() {
                edges[(i + seed as usize) % edges.len()]
            } else {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                s as u32
            }
        })
        .collect()
}
