//! Warp collectives, atomics and reducing barriers through intrinsics this test defines (with the
//! simulator semantics of the table's own entries: `kernel_std::intrinsics::collectives`).

#![allow(clippy::result_large_err)]

use std::sync::OnceLock;

use kernel_ir::intrinsic::{Class, IntrinsicDef, IntrinsicId, SimEnv, SimWarpFn};
use kernel_ir::ir::{BinOp, Inst, Kernel, Operand, SourceLoc, Space, Ty};
use kernel_sim::{self as sim, SimError, SimErrorKind, SimLaunch, SimStats};
use kernel_std::intrinsics::collectives as sem;
use kernel_std::intrinsics::lookup;
use kernel_testkit::sim::*;

fn warp(
    name: &'static str,
    args: &'static [Ty],
    rets: &'static [Ty],
    f: SimWarpFn,
) -> IntrinsicDef {
    IntrinsicDef {
        name,
        args,
        rets,
        min_sm: 70,
        ptx: "",
        class: Class::Warp,
        sim: None,
        sim_warp: Some(f),
    }
}

fn atomic_add_shared(e: &mut dyn SimEnv, a: &[u64], o: &mut [u64]) {
    let old = e.atomic_read(Space::Shared, a[0], 4);
    e.atomic_write(
        Space::Shared,
        a[0],
        4,
        (old as u32).wrapping_add(a[1] as u32) as u64,
    );
    o[0] = old;
}
fn atomic_add_global(e: &mut dyn SimEnv, a: &[u64], o: &mut [u64]) {
    let old = e.atomic_read(Space::Global, a[0], 4);
    e.atomic_write(
        Space::Global,
        a[0],
        4,
        (old as u32).wrapping_add(a[1] as u32) as u64,
    );
    o[0] = old;
}
fn atomic_cas_shared(e: &mut dyn SimEnv, a: &[u64], o: &mut [u64]) {
    let old = e.atomic_read(Space::Shared, a[0], 4);
    if old as u32 == a[1] as u32 {
        e.atomic_write(Space::Shared, a[0], 4, a[2]);
    }
    o[0] = old;
}
fn count_true(args: &[Option<Vec<u64>>], out: &mut [Vec<u64>]) -> Result<(), String> {
    let n = args.iter().flatten().filter(|a| a[0] != 0).count() as u64;
    out.iter_mut().for_each(|o| o[0] = n);
    Ok(())
}

const U: Ty = Ty::U32;
// Indices of the test's entries in `table()`.
const SHFL: usize = 0;
const SHFL_DOWN: usize = 1;
const SHFL_XOR: usize = 2;
const BALLOT: usize = 3;
const SYNCWARP: usize = 4;
const ATOM_S: usize = 5;
const ATOM_G: usize = 6;
const SYNC_COUNT: usize = 7;
const CAS_S: usize = 8 + SREG_COPIES.len();
const SREG_COPIES: [&str; 14] = [
    "copy tid.x",
    "copy tid.y",
    "copy tid.z",
    "copy ctaid.x",
    "copy ctaid.y",
    "copy ctaid.z",
    "copy ntid.x",
    "copy ntid.y",
    "copy ntid.z",
    "copy nctaid.x",
    "copy nctaid.y",
    "copy nctaid.z",
    "copy warp_size",
    "copy lane_id",
];

fn table() -> &'static [IntrinsicDef] {
    static T: OnceLock<&'static [IntrinsicDef]> = OnceLock::new();
    T.get_or_init(|| {
        let mut t = vec![
            warp("shfl_sync", &[U, U, U, U], &[U], sem::sim_shfl_sync),
            warp(
                "shfl_down_sync",
                &[U, U, U, U],
                &[U],
                sem::sim_shfl_down_sync,
            ),
            warp("shfl_xor_sync", &[U, U, U, U], &[U], sem::sim_shfl_xor_sync),
            warp("ballot_sync", &[U, Ty::Bool], &[U], sem::sim_ballot_sync),
            warp("sync_warp", &[U], &[], sem::sim_sync_warp),
        ];
        let mem = |name, args: &'static [Ty], f: kernel_ir::intrinsic::SimFn| IntrinsicDef {
            name,
            args,
            rets: &[U],
            min_sm: 70,
            ptx: "",
            class: Class::Memory,
            sim: Some(f),
            sim_warp: None,
        };
        t.push(mem("atomic_add_shared_u32", &[U, U], atomic_add_shared));
        t.push(mem(
            "atomic_add_global_u32",
            &[Ty::U64, U],
            atomic_add_global,
        ));
        t.push(IntrinsicDef {
            name: "sync_threads_count",
            args: &[Ty::Bool],
            rets: &[U],
            min_sm: 70,
            ptx: "",
            class: Class::Barrier,
            sim: None,
            sim_warp: Some(count_true),
        });
        // Renamed copies of the built-in registers: the interpreter inlines the originals by name
        // and calls `sim` for these.
        for name in SREG_COPIES {
            let original = lookup(&name[5..]).expect("a built-in register").def();
            t.push(IntrinsicDef { name, ..*original });
        }
        t.push(mem("atomic_cas_shared_u32", &[U, U, U], atomic_cas_shared));
        Box::leak(t.into_boxed_slice())
    })
}

fn call(kb: &mut KB, extra: usize, args: Vec<Operand>) -> Option<kernel_ir::ir::Var> {
    kb.call(IntrinsicId(&table()[extra]), args).first().copied()
}

fn run(
    dev: &mut Dev,
    k: &Kernel,
    cfg: SimLaunch,
    params: &[Vec<u8>],
) -> Result<SimStats, SimError> {
    let p: Vec<&[u8]> = params.iter().map(|v| v.as_slice()).collect();
    sim::launch(k, &cfg, &p, &mut dev.mem)
}

/// out[tid] = the collective's result for a per-lane value `tid * 3 + 1`.
fn per_lane(
    threads: u32,
    body: impl FnOnce(&mut KB, kernel_ir::ir::Var, kernel_ir::ir::Var) -> kernel_ir::ir::Var,
) -> Result<Vec<u32>, SimError> {
    let mut kb = KB::new("warp_op");
    let (po, lo) = kb.slice("out", U, false);
    let t = kb.intr("tid.x");
    let v = kb.bin(BinOp::Mul, t, c32(3));
    let v = kb.bin(BinOp::Add, v, c32(1));
    let lane = kb.intr("lane_id");
    let r = body(&mut kb, v, lane);
    let a = kb.elem_addr(po, lo, t, U, None);
    kb.store(Space::Global, a, r);
    let k = kb.finish();
    let mut dev = Dev::new();
    let out = dev.zeroed::<u32>(threads as usize);
    run(&mut dev, &k, SimLaunch::linear(1, threads), &[sp(out)])?;
    Ok(dev.download(out))
}

#[test]
fn shuffle_down_tree_reduction() {
    let got = per_lane(64, |kb, v, _| {
        let acc = kb.var(U);
        kb.mov(acc, v);
        for d in [16, 8, 4, 2, 1] {
            let o = call(
                kb,
                SHFL_DOWN,
                vec![c32(!0).into(), acc.into(), c32(d).into(), c32(32).into()],
            )
            .unwrap();
            let s = kb.bin(BinOp::Add, acc, o);
            kb.mov(acc, s);
        }
        acc
    })
    .unwrap();
    let vals: Vec<u32> = (0..64).map(|t| t * 3 + 1).collect();
    assert_eq!(got[0], vals[..32].iter().sum::<u32>());
    assert_eq!(got[32], vals[32..].iter().sum::<u32>());
    // Lane 31 only ever added its own value (shifts past the end keep it).
    assert_eq!(got[31], vals[31] * 32);
}

#[test]
fn shuffle_xor_all_reduce_and_indexed_broadcast_within_width() {
    let got = per_lane(32, |kb, v, _| {
        let acc = kb.var(U);
        kb.mov(acc, v);
        for m in [1, 2, 4, 8, 16] {
            let o = call(
                kb,
                SHFL_XOR,
                vec![c32(!0).into(), acc.into(), c32(m).into(), c32(32).into()],
            )
            .unwrap();
            let s = kb.bin(BinOp::Max, acc, o);
            kb.mov(acc, s);
        }
        acc
    })
    .unwrap();
    assert_eq!(got, vec![31 * 3 + 1; 32]);
    let got = per_lane(32, |kb, v, _| {
        call(
            kb,
            SHFL,
            vec![c32(!0).into(), v.into(), c32(3).into(), c32(8).into()],
        )
        .unwrap()
    })
    .unwrap();
    assert_eq!(
        got,
        (0..32)
            .map(|t| ((t / 8) * 8 + 3) * 3 + 1)
            .collect::<Vec<u32>>()
    );
}

#[test]
fn ballot_of_odd_lanes() {
    let got = per_lane(40, |kb, _, lane| {
        let odd = kb.bin(BinOp::And, lane, c32(1));
        let odd = kb.bin(BinOp::Ne, odd, c32(0));
        let m = kb.var(U);
        let w = kb.intr("tid.x");
        let second = kb.bin(BinOp::Ge, w, c32(32));
        kb.push(kernel_ir::ir::Inst::Select {
            dst: m,
            cond: second.into(),
            a: c32(0xff).into(),
            b: c32(!0).into(),
        });
        call(kb, BALLOT, vec![m.into(), odd.into()]).unwrap()
    })
    .unwrap();
    assert_eq!(got[..32], vec![0xaaaa_aaaa; 32][..]);
    assert_eq!(got[32..], vec![0xaa; 8][..]);
}

#[test]
fn full_mask_in_divergent_code_is_a_mask_mismatch() {
    let e = per_lane(32, |kb, v, lane| {
        let r = kb.var(U);
        kb.mov(r, v);
        let low = kb.bin(BinOp::Lt, lane, c32(16));
        kb.if_(
            low,
            |kb| {
                kb.push(Inst::Loc(SourceLoc {
                    file: "src/warp_user.rs",
                    line: 21,
                    col: 13,
                }));
                let o = call(
                    kb,
                    SHFL,
                    vec![c32(!0).into(), v.into(), c32(0).into(), c32(32).into()],
                )
                .unwrap();
                kb.mov(r, o);
            },
            |_| {},
        );
        r
    })
    .unwrap_err();
    assert_eq!(e.kind, SimErrorKind::WarpMaskMismatch);
    assert_eq!(
        (e.file.as_str(), e.line, e.col),
        ("src/warp_user.rs", 21, 13)
    );
    assert_eq!((e.block, e.thread), ([0, 0, 0], [0, 0, 0]));
    assert!(
        e.message
            .contains("names lane 16, which is not taking part"),
        "{}",
        e.message
    );
    // The right mask for the divergent branch works.
    let got = per_lane(32, |kb, v, lane| {
        let r = kb.var(U);
        kb.mov(r, v);
        let low = kb.bin(BinOp::Lt, lane, c32(16));
        kb.if_(
            low,
            |kb| {
                let o = call(
                    kb,
                    SHFL,
                    vec![c32(0xffff).into(), v.into(), c32(0).into(), c32(32).into()],
                )
                .unwrap();
                kb.mov(r, o);
            },
            |_| {},
        );
        r
    })
    .unwrap();
    assert_eq!(got[..16], vec![1; 16][..]);
    assert_eq!(got[16], 16 * 3 + 1);
    // A partial last warp: a full mask names lanes outside the block.
    let e = per_lane(48, |kb, v, _| {
        call(
            kb,
            SHFL,
            vec![c32(!0).into(), v.into(), c32(0).into(), c32(32).into()],
        )
        .unwrap()
    })
    .unwrap_err();
    assert_eq!(
        (e.kind, e.thread),
        (SimErrorKind::WarpMaskMismatch, [32, 0, 0])
    );
}

/// Lanes exchange values through shared memory; `sync_warp` between the write and the read
/// orders them, without it the read races with the neighbour's write.
#[test]
fn sync_warp_orders_shared_accesses_within_a_warp() {
    let build = |with_sync: bool| {
        let mut kb = KB::new("warp_exchange");
        let buf = kb.shared("buf", 32 * 4, 4);
        let t = kb.intr("tid.x");
        let off = kb.bin(BinOp::Mul, t, c32(4));
        let a = kb.bin(BinOp::Add, buf, off);
        kb.store(Space::Shared, a, c32(0));
        kb.sync();
        kb.store(Space::Shared, a, t);
        if with_sync {
            call(&mut kb, SYNCWARP, vec![c32(!0).into()]);
        }
        let n = kb.bin(BinOp::Xor, t, c32(1));
        let noff = kb.bin(BinOp::Mul, n, c32(4));
        let na = kb.bin(BinOp::Add, buf, noff);
        let _ = kb.load(Space::Shared, U, na);
        kb.finish()
    };
    let mut dev = Dev::new();
    let e = run(&mut dev, &build(false), SimLaunch::linear(1, 32), &[]).unwrap_err();
    assert_eq!(
        (e.kind.clone(), e.thread),
        (SimErrorKind::SharedRace, [1, 0, 0])
    );
    assert!(
        e.message
            .contains("write of shared byte 4 races with a read by thread (0,0,0)"),
        "{}",
        e.message
    );
    let stats = run(&mut dev, &build(true), SimLaunch::linear(1, 32), &[]).unwrap();
    assert_eq!(stats.warp_collectives, 1);
}

#[test]
fn atomics_build_a_shared_histogram_and_a_global_count() {
    let mut kb = KB::new("histogram");
    let (px, lx) = kb.slice("x", U, true);
    let (ph, lh) = kb.slice("hist", U, false);
    let (pc, _) = kb.slice("count", U, false);
    let bins = kb.shared("bins", 8 * 4, 4);
    let t = kb.intr("tid.x");
    let g = kb.gid();
    let small = kb.bin(BinOp::Lt, t, c32(8));
    let toff = kb.bin(BinOp::Mul, t, c32(4));
    let tslot = kb.bin(BinOp::Add, bins, toff);
    kb.if_(small, |kb| kb.store(Space::Shared, tslot, c32(0)), |_| {});
    kb.sync();
    let xa = kb.elem_addr(px, lx, g, U, None);
    let x = kb.load(Space::Global, U, xa);
    let b = kb.bin(BinOp::And, x, c32(7));
    let boff = kb.bin(BinOp::Mul, b, c32(4));
    let slot = kb.bin(BinOp::Add, bins, boff);
    call(&mut kb, ATOM_S, vec![slot.into(), c32(1).into()]);
    call(&mut kb, ATOM_G, vec![pc.into(), c32(1).into()]);
    kb.sync();
    kb.if_(
        small,
        |kb| {
            let v = kb.load(Space::Shared, U, tslot);
            let ha = kb.elem_addr(ph, lh, t, U, None);
            call(kb, ATOM_G, vec![ha.into(), v.into()]);
        },
        |_| {},
    );
    let k = kb.finish();
    let xs: Vec<u32> = (0..256).map(|i| (i * i + 3 * i) % 13).collect();
    let mut dev = Dev::new();
    let xd = dev.upload(&xs);
    let hd = dev.zeroed::<u32>(8);
    let cd = dev.zeroed::<u32>(1);
    run(
        &mut dev,
        &k,
        SimLaunch::linear(4, 64),
        &[sp(xd), sp(hd), sp(cd)],
    )
    .unwrap();
    let mut want = vec![0u32; 8];
    xs.iter().for_each(|x| want[(x & 7) as usize] += 1);
    assert_eq!(dev.download::<u32>(hd), want);
    assert_eq!(dev.download::<u32>(cd), vec![256]);
}

#[test]
fn plain_read_of_an_atomically_updated_word_without_barrier_races() {
    let mut kb = KB::new("atomic_then_read");
    let w = kb.shared("w", 4, 4);
    let t = kb.intr("tid.x");
    let z = kb.bin(BinOp::Eq, t, c32(0));
    kb.if_(z, |kb| kb.store(Space::Shared, w, c32(0)), |_| {});
    kb.sync();
    call(&mut kb, ATOM_S, vec![w.into(), c32(1).into()]);
    let _ = kb.load(Space::Shared, U, w);
    let k = kb.finish();
    let e = run(&mut Dev::new(), &k, SimLaunch::linear(1, 4), &[]).unwrap_err();
    assert_eq!((e.kind, e.thread), (SimErrorKind::SharedRace, [1, 0, 0]));
}

#[test]
fn reducing_barrier_counts_over_the_block() {
    let got = per_lane(100, |kb, v, _| {
        let m = kb.bin(BinOp::And, v, c32(1));
        let p = kb.bin(BinOp::Ne, m, c32(0));
        call(kb, SYNC_COUNT, vec![p.into()]).unwrap()
    })
    .unwrap();
    // v = 3t + 1 is odd for even t.
    assert_eq!(got, vec![50; 100]);
}

#[test]
fn inlined_registers_agree_with_the_table_semantics() {
    let mut kb = KB::new("sregs");
    let (po, lo) = kb.slice("out", U, false);
    let mut diff = kb.var(U);
    kb.mov(diff, c32(0));
    for (i, name) in SREG_COPIES.iter().enumerate() {
        let inline = kb.intr(&name[5..]);
        let called = call(&mut kb, 8 + i, vec![]).unwrap();
        let ne = kb.bin(BinOp::Ne, inline, called);
        let ne = kb.cast(ne, U);
        let sh = kb.bin(BinOp::Shl, ne, c32(i as u32));
        diff = kb.bin(BinOp::Or, diff, sh);
    }
    let (bx, by, bz) = (kb.intr("ctaid.x"), kb.intr("ctaid.y"), kb.intr("ctaid.z"));
    let (x, y, z) = (kb.intr("tid.x"), kb.intr("tid.y"), kb.intr("tid.z"));
    let mut lin = c32(0).into();
    for v in [bz, by, bx, z, y, x] {
        let m = kb.bin(BinOp::Mul, lin, c32(8));
        lin = kb.bin(BinOp::Add, m, v).into();
    }
    let Operand::Var(lin) = lin else {
        unreachable!()
    };
    let a = kb.elem_addr(po, lo, lin, U, None);
    kb.store(Space::Global, a, diff);
    let k = kb.finish();
    let mut dev = Dev::new();
    let out = dev.upload(&vec![u32::MAX; 1 << 18]);
    let cfg = SimLaunch {
        grid: [3, 2, 2],
        block: [5, 3, 4],
        ..SimLaunch::linear(1, 1)
    };
    let stats = run(&mut dev, &k, cfg, &[sp(out)]).unwrap();
    assert_eq!(stats.threads, 12 * 60);
    let got = dev.download::<u32>(out);
    assert_eq!(got.iter().filter(|&&d| d == 0).count(), 12 * 60);
    assert!(got.iter().all(|&d| d == 0 || d == u32::MAX));
}

/// Lanes whose masks overlap must pass the same mask: lane 0 passes the full mask, naming lane 5,
/// which passes only itself and lane 0. Lanes with disjoint masks may share the call.
#[test]
fn lanes_passing_different_masks_to_one_collective_are_a_mismatch() {
    let shuffle_with = |mask_of: fn(&mut KB, kernel_ir::ir::Var) -> kernel_ir::ir::Var| {
        per_lane(32, |kb, v, lane| {
            let m = mask_of(kb, lane);
            kb.push(Inst::Loc(SourceLoc {
                file: "src/masks.rs",
                line: 8,
                col: 17,
            }));
            call(
                kb,
                SHFL,
                vec![m.into(), v.into(), c32(0).into(), c32(32).into()],
            )
            .unwrap()
        })
    };
    let e = shuffle_with(|kb, lane| {
        let five = kb.bin(BinOp::Eq, lane, c32(5));
        let m = kb.var(U);
        kb.push(Inst::Select {
            dst: m,
            cond: five.into(),
            a: c32(0b10_0001).into(),
            b: c32(!0).into(),
        });
        m
    })
    .unwrap_err();
    assert_eq!(e.kind, SimErrorKind::WarpMaskMismatch, "{e}");
    assert_eq!((e.file.as_str(), e.line, e.col), ("src/masks.rs", 8, 17));
    assert_eq!((e.block, e.thread), ([0, 0, 0], [0, 0, 0]));
    assert!(
        e.message.contains(
            "lane 0 passes mask 0xffffffff but lane 5, which that mask names, passes 0x00000021"
        ),
        "{e}"
    );
    // A ballot where lanes 0-15 pass 0xffff and lanes 16-31 the full mask.
    let e = per_lane(32, |kb, _, lane| {
        let low = kb.bin(BinOp::Lt, lane, c32(16));
        let m = kb.var(U);
        kb.push(Inst::Select {
            dst: m,
            cond: low.into(),
            a: c32(0xffff).into(),
            b: c32(!0).into(),
        });
        call(kb, BALLOT, vec![m.into(), low.into()]).unwrap()
    })
    .unwrap_err();
    assert_eq!(
        (e.kind.clone(), e.thread),
        (SimErrorKind::WarpMaskMismatch, [16, 0, 0]),
        "{e}"
    );
    // Two halves with their own masks shuffle independently.
    let got = shuffle_with(|kb, lane| {
        let low = kb.bin(BinOp::Lt, lane, c32(16));
        let m = kb.var(U);
        kb.push(Inst::Select {
            dst: m,
            cond: low.into(),
            a: c32(0xffff).into(),
            b: c32(0xffff_0000).into(),
        });
        m
    });
    // Source lane 0 of the whole warp: lane 16 reads from lane 0, which its mask leaves out.
    assert!(got.is_err());
    let got = per_lane(32, |kb, v, lane| {
        let low = kb.bin(BinOp::Lt, lane, c32(16));
        let m = kb.var(U);
        kb.push(Inst::Select {
            dst: m,
            cond: low.into(),
            a: c32(0xffff).into(),
            b: c32(0xffff_0000).into(),
        });
        call(
            kb,
            SHFL,
            vec![m.into(), v.into(), c32(0).into(), c32(16).into()],
        )
        .unwrap()
    })
    .unwrap();
    assert_eq!(got[..16], vec![1; 16][..]);
    assert_eq!(got[16..], vec![16 * 3 + 1; 16][..]);
}

/// The guide's compare-and-swap loop on a shared word (line 20: `old = *w`; line 21: the CAS).
/// Every thread's first read races with the other threads' CAS, which the loop tolerates: a
/// warning, once per launch site, not an error.
fn cas_loop_kernel(name: &str, cas: bool) -> Kernel {
    let mut kb = KB::new(name);
    let (po, lo) = kb.slice("out", U, false);
    let w = kb.shared("w", 4, 4);
    let t = kb.intr("tid.x");
    let first = kb.bin(BinOp::Eq, t, c32(0));
    kb.if_(first, |kb| kb.store(Space::Shared, w, c32(0)), |_| {});
    kb.sync();
    if cas {
        kb.push(Inst::Loc(SourceLoc {
            file: "src/cas.rs",
            line: 20,
            col: 19,
        }));
        let old = kb.load(Space::Shared, U, w);
        kb.loop_(|kb, l| {
            kb.push(Inst::Loc(SourceLoc {
                file: "src/cas.rs",
                line: 21,
                col: 15,
            }));
            let want = kb.bin(BinOp::Add, old, c32(3));
            let got = call(kb, CAS_S, vec![w.into(), old.into(), want.into()]).unwrap();
            let done = kb.bin(BinOp::Eq, got, old);
            kb.mov(old, got);
            kb.if_(done, |kb| kb.push(Inst::Break(l)), |_| {});
        });
    } else {
        // Even threads add atomically, odd ones only read the word: a real race.
        let odd = kb.bin(BinOp::And, t, c32(1));
        let odd = kb.bin(BinOp::Ne, odd, c32(0));
        kb.if_(
            odd,
            |kb| {
                kb.push(Inst::Loc(SourceLoc {
                    file: "src/cas.rs",
                    line: 30,
                    col: 19,
                }));
                let _ = kb.load(Space::Shared, U, w);
            },
            |kb| {
                call(kb, ATOM_S, vec![w.into(), c32(3).into()]);
            },
        );
    }
    kb.sync();
    kb.if_(
        first,
        |kb| {
            let v = kb.load(Space::Shared, U, w);
            let oa = kb.elem_addr(po, lo, t, U, None);
            kb.store(Space::Global, oa, v);
        },
        |_| {},
    );
    kb.finish()
}

#[test]
fn compare_and_swap_loop_first_read_is_a_warning_printed_once() {
    let k = cas_loop_kernel("cas_loop", true);
    let mut dev = Dev::new();
    let out = dev.zeroed::<u32>(1);
    let (stats, printed) =
        sim::capture_warnings(|| run(&mut dev, &k, SimLaunch::linear(2, 64), &[sp(out)]).unwrap());
    assert_eq!(dev.download::<u32>(out), vec![64 * 3]);
    assert_eq!(stats.warnings.len(), 1, "{:#?}", stats.warnings);
    let w = &stats.warnings[0];
    assert_eq!(w.kind, sim::SimWarningKind::ReadRacesWithAtomic);
    assert_eq!((w.file.as_str(), w.line, w.col), ("src/cas.rs", 20, 19));
    assert_eq!((w.block, w.thread), ([0, 0, 0], [1, 0, 0]));
    // Threads 1-63 of both blocks.
    assert_eq!(w.count, 2 * 63);
    assert!(
        w.message
            .contains("read of shared byte 0 races with an atomic access by thread (0,0,0)"),
        "{w}"
    );
    assert!(w
        .to_string()
        .starts_with("warning: kernel `tests::cas_loop` at src/cas.rs:20:19"));
    assert_eq!(printed, stats.warnings);
    // The next launch collects it again but does not print it again.
    let (stats, printed) =
        sim::capture_warnings(|| run(&mut dev, &k, SimLaunch::linear(1, 64), &[sp(out)]).unwrap());
    assert_eq!(stats.warnings.len(), 1);
    assert!(printed.is_empty(), "{printed:?}");
}

#[test]
fn plain_read_racing_with_atomics_without_its_own_atomic_is_still_a_race() {
    let k = cas_loop_kernel("read_of_counter", false);
    let mut dev = Dev::new();
    let out = dev.zeroed::<u32>(1);
    let e = run(&mut dev, &k, SimLaunch::linear(1, 64), &[sp(out)]).unwrap_err();
    assert_eq!(e.kind, SimErrorKind::SharedRace, "{e}");
    assert_eq!((e.file.as_str(), e.line, e.col), ("src/cas.rs", 30, 19));
    assert_eq!(e.thread, [1, 0, 0]);
    assert!(
        e.message
            .contains("read of shared byte 0 races with an atomic access by thread (0,0,0)"),
        "{e}"
    );
}
