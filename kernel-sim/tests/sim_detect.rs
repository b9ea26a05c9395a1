//! Panics and the detectors, each with a planted bug: kind, location and ids are asserted.

use kernel_ir::ir::{BinOp, Const, Inst, Kernel, PanicKind, SourceLoc, Space, Ty, Var};
use kernel_sim::{SimErrorKind, SimLaunch};
use kernel_testkit::sim::*;

#[test]
fn bounds_panic_reports_index_length_site_and_ids() {
    // out[i] = i for i < 48, but out has 40 elements: the front end's check fails at i = 40.
    let mut kb = KB::new("fill");
    let (po, lo) = kb.slice("out", Ty::U32, false);
    let site = kb.site(PanicKind::Bounds, 17);
    let i = kb.gid();
    let a = kb.elem_addr(po, lo, i, Ty::U32, Some(site));
    kb.store(Space::Global, a, i);
    let k = kb.finish();
    let mut dev = Dev::new();
    let out = dev.zeroed::<u32>(40);
    let e = dev
        .launch(&k, SimLaunch::linear(3, 16), &[sp(out)])
        .unwrap_err();
    assert_eq!(e.kind, SimErrorKind::Panic(PanicKind::Bounds));
    assert_eq!(e.bounds_detail(), Some((40, 40)));
    assert_eq!((e.a, e.b, e.site.map(|s| s.0)), (40, 40, Some(0)));
    assert_eq!((e.block, e.thread), ([2, 0, 0], [8, 0, 0]));
    assert_eq!(
        e.to_string(),
        "kernel `tests::fill` panicked at tests/kernels.rs:17:5 (block (2,0,0), thread (8,0,0)): \
         index out of bounds: the len is 40 but the index is 40"
    );
    // Earlier threads' stores happened.
    assert_eq!(dev.download::<u32>(out), (0..40).collect::<Vec<_>>());
}

#[test]
fn explicit_and_division_panics_carry_their_messages() {
    let mut kb = KB::new("checks");
    let d = kb.scalar("d", Ty::I32);
    let div0 = kb.site(PanicKind::DivByZero, 3);
    let msg = kb.site(PanicKind::Explicit("assertion failed: d != 7".into()), 4);
    let z = kb.bin(BinOp::Eq, d, Const::i32(0));
    kb.if_(
        z,
        |kb| {
            kb.push(Inst::Panic {
                site: div0,
                a: Const::u64(0).into(),
                b: Const::u64(0).into(),
            })
        },
        |_| {},
    );
    let s = kb.bin(BinOp::Eq, d, Const::i32(7));
    kb.if_(
        s,
        |kb| {
            kb.push(Inst::Panic {
                site: msg,
                a: Const::u64(0).into(),
                b: Const::u64(0).into(),
            })
        },
        |_| {},
    );
    let k = kb.finish();
    let mut dev = Dev::new();
    let e = dev
        .launch(&k, SimLaunch::linear(1, 1), &[0i32.to_le_bytes().to_vec()])
        .unwrap_err();
    assert_eq!(e.kind, SimErrorKind::Panic(PanicKind::DivByZero));
    assert_eq!(
        (e.line, e.message.as_str()),
        (3, "attempt to divide by zero")
    );
    let e = dev
        .launch(&k, SimLaunch::linear(1, 1), &[7i32.to_le_bytes().to_vec()])
        .unwrap_err();
    assert_eq!(
        e.kind,
        SimErrorKind::Panic(PanicKind::Explicit("assertion failed: d != 7".into()))
    );
    assert_eq!(
        (e.line, e.message.as_str()),
        (4, "assertion failed: d != 7")
    );
    dev.launch(&k, SimLaunch::linear(1, 1), &[5i32.to_le_bytes().to_vec()])
        .unwrap();
}

fn at(line: u32) -> Inst {
    Inst::Loc(SourceLoc {
        file: FILE,
        line,
        col: 9,
    })
}

/// `buf[tid] = tid; y = buf[from(tid)]` in one block of 64 threads, with or without a barrier
/// between the write (line 10) and the read (line 11).
fn exchange(name: &str, barrier: bool, from: impl FnOnce(&mut KB, Var) -> Var) -> Kernel {
    let mut kb = KB::new(name);
    let buf = kb.shared("buf", 256, 4);
    let t = kb.intr("tid.x");
    let off = kb.bin(BinOp::Mul, t, c32(4));
    let a = kb.bin(BinOp::Add, buf, off);
    kb.push(at(10));
    kb.store(Space::Shared, a, t);
    if barrier {
        kb.sync();
    }
    let r = from(&mut kb, t);
    let roff = kb.bin(BinOp::Mul, r, c32(4));
    let ra = kb.bin(BinOp::Add, buf, roff);
    kb.push(at(11));
    let _ = kb.load(Space::Shared, Ty::U32, ra);
    kb.finish()
}

/// `y = buf[tid + 1]` right after `buf[tid] = tid`: thread 0 reads byte 4 before thread 1 (run
/// later) writes it. That read is a race with thread 1's write, not a read of uninitialised
/// memory: the simulator holds it back until the write shows up.
#[test]
fn read_before_a_later_threads_write_is_a_race_not_an_uninitialised_read() {
    let k = exchange("shift_nosync", false, |kb, t| kb.bin(BinOp::Add, t, c32(1)));
    let e = Dev::new()
        .launch(&k, SimLaunch::linear(1, 63), &[])
        .unwrap_err();
    assert_eq!(e.kind, SimErrorKind::SharedRace, "{e}");
    assert_eq!((e.file.as_str(), e.line, e.col), (FILE, 10, 9), "{e}");
    assert_eq!((e.block, e.thread), ([0, 0, 0], [1, 0, 0]));
    assert!(
        e.message
            .contains("write of shared byte 4 races with a read by thread (0,0,0)"),
        "{e}"
    );
    // With the barrier, thread 62 reads byte 252, which nobody wrote.
    let k = exchange("shift_sync", true, |kb, t| kb.bin(BinOp::Add, t, c32(1)));
    let e = Dev::new()
        .launch(&k, SimLaunch::linear(1, 63), &[])
        .unwrap_err();
    assert_eq!(e.kind, SimErrorKind::UninitSharedRead, "{e}");
    assert_eq!((e.line, e.thread), (11, [62, 0, 0]), "{e}");
    assert!(e.message.contains("shared byte 252"), "{e}");
}

/// The block reverse without its barrier: threads 0-31 read words of threads 63-32 that those
/// have not written yet (held back), and the first conflict in the schedule is thread 32
/// writing the word thread 31 read.
#[test]
fn reverse_without_barrier_is_a_race() {
    let k = exchange("reverse_nosync", false, |kb, t| {
        kb.bin(BinOp::Sub, c32(63), t)
    });
    let e = Dev::new()
        .launch(&k, SimLaunch::linear(2, 64), &[])
        .unwrap_err();
    assert_eq!(e.kind, SimErrorKind::SharedRace, "{e}");
    assert_eq!((e.block, e.thread), ([0, 0, 0], [32, 0, 0]));
    assert_eq!((e.file.as_str(), e.line, e.col), (FILE, 10, 9));
    assert!(
        e.message
            .contains("write of shared byte 128 races with a read by thread (31,0,0)"),
        "{e}"
    );
    let k = exchange("reverse", true, |kb, t| kb.bin(BinOp::Sub, c32(63), t));
    Dev::new()
        .launch(&k, SimLaunch::linear(2, 64), &[])
        .unwrap();
}

/// Reads of bytes no thread writes before the next barrier stay uninitialised reads, reported at
/// the first such read, even when the byte is written after the barrier.
#[test]
fn reads_of_never_written_shared_memory_are_uninitialised() {
    let mut kb = KB::new("half_filled");
    let buf = kb.shared("buf", 256, 4);
    let t = kb.intr("tid.x");
    let low = kb.bin(BinOp::Lt, t, c32(32));
    let off = kb.bin(BinOp::Mul, t, c32(4));
    let a = kb.bin(BinOp::Add, buf, off);
    kb.if_(low, |kb| kb.store(Space::Shared, a, t), |_| {});
    let r = kb.bin(BinOp::Sub, c32(63), t);
    let roff = kb.bin(BinOp::Mul, r, c32(4));
    let ra = kb.bin(BinOp::Add, buf, roff);
    kb.sync();
    kb.push(at(30));
    let _ = kb.load(Space::Shared, Ty::U32, ra);
    kb.sync();
    kb.push(at(31));
    kb.store(Space::Shared, a, t);
    let e = Dev::new()
        .launch(&kb.finish(), SimLaunch::linear(2, 64), &[])
        .unwrap_err();
    assert_eq!(e.kind, SimErrorKind::UninitSharedRead, "{e}");
    assert_eq!((e.block, e.thread), ([0, 0, 0], [0, 0, 0]));
    assert_eq!((e.file.as_str(), e.line), (FILE, 30));
    assert!(e.message.contains("shared byte 252"), "{}", e.message);
    assert!(e.inst.is_some());
}

#[test]
fn write_write_race_on_shared_memory() {
    let mut kb = KB::new("ww");
    let site = kb.site(PanicKind::Bounds, 50);
    let buf = kb.shared("flag", 4, 4);
    let t = kb.intr("tid.x");
    kb.push(Inst::BoundsCheck {
        idx: t.into(),
        len: c32(1024).into(),
        site,
    });
    kb.store(Space::Shared, buf, t);
    let k = kb.finish();
    let e = Dev::new()
        .launch(
            &k,
            SimLaunch {
                block: [4, 2, 1],
                ..SimLaunch::linear(1, 1)
            },
            &[],
        )
        .unwrap_err();
    assert_eq!(e.kind, SimErrorKind::SharedRace);
    assert_eq!(e.thread, [1, 0, 0]);
    assert_eq!(e.line, 50);
    assert!(
        e.message
            .contains("write of shared byte 0 races with a write by thread (0,0,0)"),
        "{}",
        e.message
    );
}

/// Shift left through shared memory: each thread reads its right neighbour then overwrites its own
/// slot, with no barrier between the phases.
#[test]
fn read_write_race_between_barriers() {
    let build = |with_barrier: bool| {
        let mut kb = KB::new("shift_left");
        let buf = kb.shared("buf", 33 * 4, 4);
        let t = kb.intr("tid.x");
        let off = kb.bin(BinOp::Mul, t, c32(4));
        let a = kb.bin(BinOp::Add, buf, off);
        kb.store(Space::Shared, a, t);
        let first = kb.bin(BinOp::Eq, t, c32(0));
        kb.if_(
            first,
            |kb| {
                let last = kb.bin(BinOp::Add, buf, c32(32 * 4));
                kb.store(Space::Shared, last, c32(0));
            },
            |_| {},
        );
        kb.sync();
        let a4 = kb.bin(BinOp::Add, a, c32(4));
        let v = kb.load(Space::Shared, Ty::U32, a4);
        if with_barrier {
            kb.sync();
        }
        kb.store(Space::Shared, a, v);
        kb.finish()
    };
    let e = Dev::new()
        .launch(&build(false), SimLaunch::linear(1, 32), &[])
        .unwrap_err();
    assert_eq!(e.kind, SimErrorKind::SharedRace);
    assert_eq!(e.thread, [1, 0, 0]);
    assert!(
        e.message.contains("races with a read by thread (0,0,0)"),
        "{}",
        e.message
    );
    let ok = Dev::new()
        .launch(&build(true), SimLaunch::linear(1, 32), &[])
        .unwrap();
    assert_eq!(ok.barriers, 2);
}

#[test]
fn barrier_skipped_by_exited_threads_is_divergence() {
    // if tid >= 40 { return } sync_threads(): the early-exit pattern CUDA calls undefined.
    let mut kb = KB::new("early_exit");
    let site = kb.site(PanicKind::Bounds, 60);
    let t = kb.intr("tid.x");
    let big = kb.bin(BinOp::Ge, t, c32(40));
    kb.if_(big, |kb| kb.push(Inst::Return), |_| {});
    kb.push(Inst::BoundsCheck {
        idx: t.into(),
        len: c32(64).into(),
        site,
    });
    kb.sync();
    let k = kb.finish();
    let e = Dev::new()
        .launch(&k, SimLaunch::linear(1, 64), &[])
        .unwrap_err();
    assert_eq!(e.kind, SimErrorKind::BarrierDivergence);
    assert_eq!(e.thread, [0, 0, 0]);
    assert_eq!(e.line, 60);
    assert!(
        e.message
            .contains("thread (40,0,0) will never reach: it has exited"),
        "{}",
        e.message
    );
    // With every thread in range it runs.
    Dev::new()
        .launch(&k, SimLaunch::linear(1, 40), &[])
        .unwrap();
}

#[test]
fn threads_at_different_barriers_is_divergence() {
    let mut kb = KB::new("two_barriers");
    let t = kb.intr("tid.x");
    let odd = kb.bin(BinOp::And, t, c32(1));
    let odd = kb.bin(BinOp::Ne, odd, c32(0));
    kb.if_(odd, |kb| kb.sync(), |kb| kb.sync());
    let k = kb.finish();
    let e = Dev::new()
        .launch(&k, SimLaunch::linear(1, 8), &[])
        .unwrap_err();
    assert_eq!(e.kind, SimErrorKind::BarrierDivergence);
    assert_eq!(e.thread, [0, 0, 0]);
    assert!(
        e.message.contains("thread (1,0,0) waits at another one"),
        "{}",
        e.message
    );
}

#[test]
fn shared_out_of_bounds_and_local_array_index_are_caught() {
    let mut kb = KB::new("shared_oob");
    let buf = kb.shared("buf", 64, 4);
    let t = kb.intr("tid.x");
    let off = kb.bin(BinOp::Mul, t, c32(4));
    let a = kb.bin(BinOp::Add, buf, off);
    kb.store(Space::Shared, a, t);
    let k = kb.finish();
    let e = Dev::new()
        .launch(&k, SimLaunch::linear(1, 32), &[])
        .unwrap_err();
    assert_eq!(
        (e.kind.clone(), e.thread),
        (SimErrorKind::OutOfBounds, [16, 0, 0])
    );
    assert!(
        e.message
            .contains("outside the block's 64 bytes of shared memory"),
        "{}",
        e.message
    );

    let mut kb = KB::new("local_oob");
    kb.k.arrays.push(kernel_ir::ir::LocalArray {
        elem: Ty::U32,
        len: 4,
    });
    let t = kb.intr("tid.x");
    kb.push(Inst::ArrayStore {
        array: kernel_ir::ir::ArrayId(0),
        idx: t.into(),
        val: t.into(),
    });
    let k = kb.finish();
    let e = Dev::new()
        .launch(&k, SimLaunch::linear(1, 8), &[])
        .unwrap_err();
    assert_eq!((e.kind, e.thread), (SimErrorKind::OutOfBounds, [4, 0, 0]));
}

#[test]
fn malformed_ir_is_an_error_not_a_host_panic() {
    let mut kb = KB::new("bad_var");
    let v = kb.var(Ty::U32);
    kb.mov(v, kernel_ir::ir::Var(999));
    let e = Dev::new()
        .launch(&kb.finish(), SimLaunch::linear(1, 1), &[])
        .unwrap_err();
    assert_eq!(e.kind, SimErrorKind::MalformedIr);
    let mut kb = KB::new("bad_site");
    kb.push(Inst::Panic {
        site: kernel_ir::ir::SiteId(3),
        a: c32(0).into(),
        b: c32(0).into(),
    });
    let e = Dev::new()
        .launch(&kb.finish(), SimLaunch::linear(1, 1), &[])
        .unwrap_err();
    assert_eq!(e.kind, SimErrorKind::MalformedIr);
    // An ill-typed op only fails when it runs.
    let mut kb = KB::new("float_xor");
    let f = kb.var(Ty::F32);
    let t = kb.intr("tid.x");
    let big = kb.bin(BinOp::Gt, t, c32(5));
    kb.if_(
        big,
        |kb| {
            let d = kb.var(Ty::F32);
            kb.push(Inst::Binary {
                dst: d,
                op: BinOp::Xor,
                a: f.into(),
                b: f.into(),
            });
        },
        |_| {},
    );
    let k = kb.finish();
    Dev::new().launch(&k, SimLaunch::linear(1, 4), &[]).unwrap();
    let e = Dev::new()
        .launch(&k, SimLaunch::linear(1, 8), &[])
        .unwrap_err();
    assert_eq!((e.kind, e.thread), (SimErrorKind::MalformedIr, [6, 0, 0]));
}

/// A thread that spins forever stops at the instruction limit, located at its loop's marker;
/// markers inside a block cover only that block.
#[test]
fn spinning_thread_hits_the_instruction_limit_at_its_loop() {
    let here = |line, col| SourceLoc {
        file: FILE,
        line,
        col,
    };
    let mut kb = KB::new("spin");
    let n = kb.var(Ty::U32);
    kb.mov(n, c32(0));
    kb.push(Inst::Loc(here(7, 5)));
    kb.loop_(|kb, _| {
        kb.push(Inst::Loc(here(8, 9)));
        let m = kb.bin(BinOp::Add, n, c32(1));
        kb.mov(n, m);
    });
    let k = kb.finish();
    let mut dev = Dev::new();
    let e = kernel_sim::launch_with_limit(&k, &SimLaunch::linear(1, 2), &[], &mut dev.mem, 5000)
        .unwrap_err();
    assert_eq!(e.kind, SimErrorKind::InstructionLimit);
    assert_eq!((e.file.as_str(), e.line, e.col), (FILE, 7, 5), "{e}");
    assert_eq!((e.block, e.thread), ([0, 0, 0], [0, 0, 0]));
    assert!(e.message.contains("more than 5000 operations"), "{e}");
    // A counted loop's back edge is checked too.
    let mut kb = KB::new("long_for");
    kb.push(Inst::Loc(here(3, 1)));
    kb.for_(
        Ty::U32,
        c32(0),
        c32(1_000_000),
        c32(1),
        false,
        false,
        |kb, i, _| {
            kb.push(Inst::Loc(here(4, 2)));
            let _ = kb.bin(BinOp::Add, i, c32(1));
        },
    );
    let k = kb.finish();
    let e = kernel_sim::launch_with_limit(&k, &SimLaunch::linear(1, 1), &[], &mut dev.mem, 10_000)
        .unwrap_err();
    assert_eq!(
        (e.kind, e.line, e.col),
        (SimErrorKind::InstructionLimit, 3, 1)
    );
    // Under the limit the same loop completes.
    kernel_sim::launch_with_limit(&k, &SimLaunch::linear(1, 1), &[], &mut dev.mem, 10_000_000)
        .unwrap();
}

/// Detectors report the marker in force, not the nearest panic site, when the IR has markers.
#[test]
fn detectors_report_the_marker_in_force() {
    let mut kb = KB::new("ww_marked");
    let site = kb.site(PanicKind::Bounds, 50);
    let buf = kb.shared("flag", 4, 4);
    let t = kb.intr("tid.x");
    kb.push(Inst::BoundsCheck {
        idx: t.into(),
        len: c32(1024).into(),
        site,
    });
    kb.push(Inst::Loc(SourceLoc {
        file: "src/other.rs",
        line: 12,
        col: 17,
    }));
    kb.store(Space::Shared, buf, t);
    let e = Dev::new()
        .launch(&kb.finish(), SimLaunch::linear(1, 2), &[])
        .unwrap_err();
    assert_eq!(e.kind, SimErrorKind::SharedRace);
    assert_eq!((e.file.as_str(), e.line, e.col), ("src/other.rs", 12, 17));
    assert!(e.to_string().contains("src/other.rs:12:17"), "{e}");
}
