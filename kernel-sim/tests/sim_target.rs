//! Launches are checked against the GPU architecture they stand for (`SimLaunch::target`): what a
//! GPU of that architecture (or ptxas for it) refuses, the simulator refuses too.

#![allow(clippy::result_large_err)]

use kernel_ir::intrinsic::{Class, IntrinsicDef, IntrinsicId, SimEnv};
use kernel_ir::ir::{BinOp, Inst, Kernel, SourceLoc, Space, Ty};
use kernel_sim::{SimErrorKind, SimLaunch, Target};
use kernel_testkit::sim::*;

/// `buf[tid] = tid` into a static shared array of `words` u32 (plus `dyn_bytes` of dynamic memory
/// touched at its first word when the launch has some).
fn static_shared(words: u32) -> Kernel {
    let mut kb = KB::new("big_static");
    let buf = kb.shared("buf", words * 4, 4);
    let t = kb.intr("tid.x");
    let off = kb.bin(BinOp::Mul, t, c32(4));
    let a = kb.bin(BinOp::Add, buf, off);
    kb.store(Space::Shared, a, t);
    kb.finish()
}

/// ptxas refuses more than 48 KiB of static shared memory on every target (`uses too much shared
/// data (0x13880 bytes, 0xc000 max)` for `[u32; 20000]`), so the simulator does too.
#[test]
fn static_shared_memory_above_48_kib_is_refused_on_every_target() {
    let k = static_shared(20_000);
    for target in Target::ALL {
        let e = Dev::new()
            .launch(&k, SimLaunch::linear(1, 32).on(target), &[])
            .unwrap_err();
        assert_eq!(e.kind, SimErrorKind::TargetLimit, "{e}");
        assert!(
            e.message
                .contains("80000 bytes of static shared memory (`buf` (80000 bytes))")
                && e.message
                    .contains(&format!("{target} allows at most 49152 per block")),
            "{e}"
        );
        assert_eq!(
            e.to_string(),
            format!(
                "kernel `tests::big_static` does not fit its target: {}",
                e.message
            )
        );
    }
    // Exactly 48 KiB is fine.
    Dev::new()
        .launch(&static_shared(12 * 1024), SimLaunch::linear(1, 32), &[])
        .unwrap();
}

/// A kernel with `fixed` static bytes that writes the last word of its dynamic shared memory.
fn dynamic_shared() -> Kernel {
    let mut kb = KB::new("dyn_user");
    let _fixed = kb.shared("fixed", 1024, 4);
    let base = kb.var(Ty::U32);
    kb.push(Inst::DynSharedAddr { dst: base });
    let size = kb.var(Ty::U32);
    kb.push(Inst::DynSharedBytes { dst: size });
    let end = kb.bin(BinOp::Add, base, size);
    let last = kb.bin(BinOp::Sub, end, c32(4));
    kb.store(Space::Shared, last, c32(7));
    kb.finish()
}

/// Dynamic shared memory: 48 KiB in all without the opt-in attribute; with it, up to the
/// target's opt-in limit (163 KiB on sm_80, 99 KiB on sm_86/89, 227 KiB on sm_90).
#[test]
fn dynamic_shared_memory_follows_the_targets_opt_in_limit() {
    let k = dynamic_shared();
    let kib = 1024;
    let launch = |cfg: SimLaunch| Dev::new().launch(&k, cfg, &[]);
    // 1 KiB static + 47 KiB dynamic fits the default; one more word does not.
    let fits = SimLaunch {
        dyn_shared_bytes: 47 * kib,
        ..SimLaunch::linear(1, 1)
    };
    launch(fits).unwrap();
    let e = launch(SimLaunch {
        dyn_shared_bytes: 47 * kib + 4,
        ..fits
    })
    .unwrap_err();
    assert_eq!(e.kind, SimErrorKind::InvalidLaunch, "{e}");
    assert!(
        e.message
            .contains("exceed the 49152 bytes a block of sm_80 gets without opting in"),
        "{e}"
    );
    // Opted in: the target's limit counts static and dynamic together.
    for (target, max_kib) in [
        (Target::SM_70, 96),
        (Target::SM_75, 64),
        (Target::SM_80, 163),
        (Target::SM_86, 99),
        (Target::SM_89, 99),
        (Target::SM_90, 227),
    ] {
        let ok = SimLaunch::linear(1, 1)
            .on(target)
            .with_dynamic_shared((max_kib - 1) * kib);
        launch(ok).unwrap_or_else(|e| panic!("{target}: {e}"));
        let e = launch(ok.with_dynamic_shared((max_kib - 1) * kib + 16)).unwrap_err();
        assert_eq!(e.kind, SimErrorKind::InvalidLaunch, "{target}: {e}");
        assert!(
            e.message.contains(&format!(
                "exceed the {} bytes a block of {target} may opt in to",
                max_kib * kib
            )),
            "{e}"
        );
    }
    // More than the attribute allows.
    let e = launch(SimLaunch {
        dyn_shared_bytes: 64 * kib,
        max_dynamic_shared_bytes: Some(60 * kib),
        ..SimLaunch::linear(1, 1)
    })
    .unwrap_err();
    assert!(
        e.message.contains("exceed the kernel's limit of 61440"),
        "{e}"
    );
}

#[test]
fn block_and_grid_limits_are_the_targets() {
    let k = static_shared(1024);
    let launch = |cfg: SimLaunch| Dev::new().launch(&k, cfg, &[]);
    for target in Target::ALL {
        let base = SimLaunch::linear(1, 1).on(target);
        for (grid, block) in [
            ([1, 1, 1], [1025, 1, 1]),
            ([1, 1, 1], [1, 1025, 1]),
            ([1, 1, 1], [1, 1, 65]),
            ([1, 1, 1], [32, 32, 2]),
            ([1, 65536, 1], [1, 1, 1]),
            ([1, 1, 65536], [1, 1, 1]),
            ([1 << 31, 1, 1], [1, 1, 1]),
        ] {
            let e = launch(SimLaunch {
                grid,
                block,
                ..base
            })
            .unwrap_err();
            assert_eq!(
                e.kind,
                SimErrorKind::InvalidLaunch,
                "{target} {grid:?} {block:?}"
            );
            assert!(e.message.contains(&target.to_string()), "{e}");
        }
        launch(SimLaunch {
            block: [1024, 1, 1],
            ..base
        })
        .unwrap();
    }
}

fn dummy(e: &mut dyn SimEnv, _: &[u64], o: &mut [u64]) {
    o[0] = e.thread_idx()[0] as u64 + 100;
}

/// An intrinsic that only sm_90 has, as the table's `bf16` atomics are.
static HOPPER_ONLY: IntrinsicDef = IntrinsicDef {
    name: "hopper_only",
    args: &[],
    rets: &[Ty::U32],
    min_sm: 90,
    ptx: "",
    class: Class::Pure,
    sim: Some(dummy),
    sim_warp: None,
};

/// ptxas refuses an instruction the target lacks wherever it is, even in code that never runs;
/// the simulator reports it at the call, and runs it on a target that has it.
#[test]
fn intrinsics_newer_than_the_target_are_refused_at_their_call() {
    let mut kb = KB::new("uses_sm90");
    let (po, lo) = kb.slice("out", Ty::U32, false);
    let t = kb.intr("tid.x");
    let never = kb.bin(BinOp::Gt, t, c32(5000));
    let r = kb.var(Ty::U32);
    kb.mov(r, t);
    kb.if_(
        never,
        |kb| {
            kb.push(Inst::Loc(SourceLoc {
                file: "src/hopper.rs",
                line: 4,
                col: 21,
            }));
            let v = kb.call(IntrinsicId(&HOPPER_ONLY), vec![])[0];
            kb.mov(r, v);
        },
        |_| {},
    );
    let a = kb.elem_addr(po, lo, t, Ty::U32, None);
    kb.store(Space::Global, a, r);
    let k = kb.finish();
    for target in [Target::SM_70, Target::SM_80, Target::SM_89] {
        let mut dev = Dev::new();
        let out = dev.zeroed::<u32>(4);
        let e = dev
            .launch(&k, SimLaunch::linear(1, 4).on(target), &[sp(out)])
            .unwrap_err();
        assert_eq!(e.kind, SimErrorKind::TargetLimit, "{e}");
        assert_eq!((e.file.as_str(), e.line, e.col), ("src/hopper.rs", 4, 21));
        assert_eq!(
            e.to_string(),
            format!(
                "kernel `tests::uses_sm90` does not fit its target at src/hopper.rs:4:21: \
                 `hopper_only` needs sm_90 or newer, but the target is {target}"
            )
        );
        // Nothing ran.
        assert_eq!(dev.download::<u32>(out), vec![0; 4]);
    }
    for target in [Target::SM_90, Target::SM_100, Target::SM_120] {
        let mut dev = Dev::new();
        let out = dev.zeroed::<u32>(4);
        dev.launch(&k, SimLaunch::linear(1, 4).on(target), &[sp(out)])
            .unwrap();
        assert_eq!(dev.download::<u32>(out), vec![0, 1, 2, 3]);
    }
    // The table's own sm_90 entries are refused the same way.
    let newest = kernel_std::intrinsics::all()
        .filter(|d| d.min_sm > 80)
        .count();
    assert!(newest > 0, "the table has entries newer than sm_80");
}

#[test]
fn targets_parse_and_carry_the_programming_guide_numbers() {
    assert_eq!(Target::default(), Target::SM_80);
    for s in ["90", "sm_90", "SM_90", "compute_90", "9.0", " 90 "] {
        assert_eq!(Target::parse(s), Ok(Target::SM_90), "{s}");
    }
    for s in ["91", "sm_60", "nine", "", "8.10"] {
        let e = Target::parse(s).unwrap_err();
        assert!(e.contains("is not a simulated architecture"), "{e}");
    }
    let t = Target::from_sm(86).unwrap();
    assert_eq!(t.compute_capability(), (8, 6));
    assert_eq!(
        (
            t.max_shared_per_block_optin,
            t.shared_per_multiprocessor,
            t.max_threads_per_multiprocessor
        ),
        (99 * 1024, 100 * 1024, 1536)
    );
    assert_eq!(Target::SM_90.max_shared_per_block_optin, 232_448);
    assert_eq!(Target::SM_80.max_shared_per_block_optin, 166_912);
    for t in Target::ALL {
        assert_eq!(t.max_static_shared, 48 * 1024);
        assert_eq!(t.default_shared_per_block, 48 * 1024);
        assert_eq!(t.max_threads_per_block, 1024);
        assert_eq!(t.max_block_dim, [1024, 1024, 64]);
        assert_eq!(t.max_grid_dim, [i32::MAX as u32, 65535, 65535]);
        assert!(t.max_shared_per_block_optin <= t.shared_per_multiprocessor);
        assert_eq!(Target::from_sm(t.sm), Some(t));
    }
}
