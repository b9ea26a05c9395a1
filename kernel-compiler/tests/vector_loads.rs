//! `LoadVec` (made by `passes::vectorize`): what the simulator reads and reports, and the PTX
//! the emitter writes for it (assembled by ptxas when present).

use kernel_compiler::ptx;
use kernel_compiler::CompileOptions;
use kernel_ir::ir::{BinOp, Inst, Kernel, Space, Ty};
use kernel_sim::{SimErrorKind, SimLaunch};
use kernel_testkit::sim::*;

/// Each of 32 threads writes its id to `tile[tid]`; after the barrier thread t reads the 4-element
/// vector at element `(tid & !3) + skew` and writes the sum of its 4 elements to `out[tid]`.
fn vector_sum(skew: u32) -> Kernel {
    let mut kb = KB::new("vector_sum");
    let (po, lo) = kb.slice("out", Ty::U32, false);
    let base = kb.shared("tile", 256, 16);
    let tid = kb.intr("tid.x");
    let off = kb.bin(BinOp::Mul, tid, c32(4));
    let mine = kb.bin(BinOp::Add, base, off);
    kb.store(Space::Shared, mine, tid);
    kb.sync();
    let quad = kb.bin(BinOp::And, tid, c32(!3));
    let start = kb.bin(BinOp::Add, quad, c32(skew));
    let qoff = kb.bin(BinOp::Mul, start, c32(4));
    let qaddr = kb.bin(BinOp::Add, base, qoff);
    let d: Vec<_> = (0..4).map(|_| kb.var(Ty::U32)).collect();
    kb.push(Inst::LoadVec {
        dsts: d.clone(),
        space: Space::Shared,
        addr: qaddr.into(),
        readonly: false,
    });
    let s01 = kb.bin(BinOp::Add, d[0], d[1]);
    let s23 = kb.bin(BinOp::Add, d[2], d[3]);
    let sum = kb.bin(BinOp::Add, s01, s23);
    let a = kb.elem_addr(po, lo, tid, Ty::U32, None);
    kb.store(Space::Global, a, sum);
    kb.finish()
}

#[test]
fn vector_loads_read_four_consecutive_elements() {
    let k = vector_sum(0);
    let mut dev = Dev::new();
    let out = dev.zeroed::<u32>(32);
    dev.launch(&k, SimLaunch::linear(1, 32), &[sp(out)])
        .unwrap();
    let want: Vec<u32> = (0..32u32).map(|t| 4 * (t & !3) + 6).collect();
    assert_eq!(dev.download::<u32>(out), want);
}

#[test]
fn misaligned_vector_loads_are_reported() {
    // Element 4t + 1 is 4-byte aligned only: a GPU faults on a 16-byte access there.
    let k = vector_sum(1);
    let mut dev = Dev::new();
    let out = dev.zeroed::<u32>(32);
    let e = dev
        .launch(&k, SimLaunch::linear(1, 32), &[sp(out)])
        .unwrap_err();
    assert_eq!(e.kind, SimErrorKind::Misaligned, "{e}");
}

#[test]
fn vector_loads_emit_one_ld_v4_that_ptxas_accepts() {
    let k = vector_sum(0);
    // sm_70 PTX is assembled as sm_75 (this ptxas no longer targets sm_70).
    for (sm, arch) in [(70, 75), (80, 80), (90, 90)] {
        let opts = CompileOptions {
            sm,
            ..CompileOptions::default()
        };
        let text = ptx::emit(&k, &opts).unwrap();
        let line = text
            .lines()
            .find(|l| l.contains("ld.shared.v4.u32"))
            .unwrap_or_else(|| panic!("no vector load in:\n{text}"));
        assert!(
            line.contains('{') && line.matches("%r").count() == 5,
            "{line}"
        );
        if kernel_testkit::ptxas::require_ptxas().is_some() {
            let r = kernel_testkit::ptxas::assemble(&text, arch)
                .unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert!(!r.log.contains("warning"), "{}", r.log);
        }
    }
}
