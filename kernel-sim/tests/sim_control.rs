//! Control flow: counted loops (both directions, inclusive ends at the type's limit), loops with
//! break/continue by id, early return, and thread-private arrays with computed indices.

use kernel_ir::ir::{ArrayId, BinOp, Const, Inst, LocalArray, Space, Ty};
use kernel_sim::SimLaunch;
use kernel_testkit::sim::*;

/// out = [iterations, hash of the induction values] of `for iv in start..end` (by flags).
fn run_for(ty: Ty, inclusive: bool, reverse: bool, start: i64, end: i64, step: i64) -> (u64, u64) {
    let mut kb = KB::new("for_loop");
    let s = kb.scalar("start", ty);
    let e = kb.scalar("end", ty);
    let st = kb.scalar("step", ty);
    let (po, _) = kb.slice("out", Ty::U64, false);
    let count = kb.var(Ty::U64);
    let hash = kb.var(Ty::U64);
    kb.mov(count, Const::u64(0));
    kb.mov(hash, Const::u64(0));
    kb.for_(ty, s, e, st, inclusive, reverse, |kb, iv, _| {
        let c1 = kb.bin(BinOp::Add, count, Const::u64(1));
        kb.mov(count, c1);
        let wide = kb.cast(iv, Ty::I64);
        let w = kb.cast(wide, Ty::U64);
        let h = kb.bin(BinOp::Mul, hash, Const::u64(31));
        let h = kb.bin(BinOp::Add, h, w);
        kb.mov(hash, h);
    });
    kb.store(Space::Global, po, count);
    let a8 = kb.bin(BinOp::Add, po, Const::u64(8));
    kb.store(Space::Global, a8, hash);
    let k = kb.finish();
    let mut dev = Dev::new();
    let out = dev.zeroed::<u64>(2);
    let b = |v: i64| v.to_le_bytes()[..ty.bytes() as usize].to_vec();
    dev.launch(
        &k,
        SimLaunch::linear(1, 1),
        &[b(start), b(end), b(step), sp(out)],
    )
    .unwrap();
    let r = dev.download::<u64>(out);
    (r[0], r[1])
}

fn expect(values: impl Iterator<Item = i64>) -> (u64, u64) {
    values.fold((0, 0), |(c, h), v| {
        (c + 1, h.wrapping_mul(31).wrapping_add(v as u64))
    })
}

#[test]
fn counted_loops_match_rust_ranges() {
    for (s, e, st) in [
        (0i64, 10, 1),
        (0, 10, 3),
        (5, 5, 1),
        (7, 2, 2),
        (-4, 9, 4),
        (3, 4, 10),
    ] {
        let su = st as usize;
        assert_eq!(
            run_for(Ty::I32, false, false, s, e, st),
            expect((s..e).step_by(su)),
            "{s}..{e} by {st}"
        );
        assert_eq!(
            run_for(Ty::I32, true, false, s, e, st),
            expect((s..=e).step_by(su)),
            "{s}..={e} by {st}"
        );
        assert_eq!(
            run_for(Ty::I32, false, true, s, e, st),
            expect((s..e).rev().step_by(su)),
            "rev {s}..{e} by {st}"
        );
        assert_eq!(
            run_for(Ty::I32, true, true, s, e, st),
            expect((s..=e).rev().step_by(su)),
            "rev {s}..={e} by {st}"
        );
    }
}

#[test]
fn inclusive_loops_reach_the_type_limits_without_overflow() {
    assert_eq!(run_for(Ty::I8, true, false, 120, 127, 1), expect(120..=127));
    assert_eq!(
        run_for(Ty::I8, true, false, 120, 127, 5),
        expect((120..=127).step_by(5))
    );
    assert_eq!(run_for(Ty::U8, true, true, 0, 3, 1), expect((0..=3).rev()));
    assert_eq!(
        run_for(Ty::I8, true, true, -128, -126, 1),
        expect((-128..=-126).rev())
    );
    assert_eq!(
        run_for(Ty::U32, false, false, 4_294_967_290, 4_294_967_295, 2),
        expect((4_294_967_290i64..4_294_967_295).step_by(2))
    );
}

#[test]
fn zero_step_is_reported_not_looped_forever() {
    let mut kb = KB::new("zero_step");
    kb.for_(Ty::U32, c32(0), c32(10), c32(0), false, false, |_, _, _| {});
    let k = kb.finish();
    let err = Dev::new()
        .launch(&k, SimLaunch::linear(1, 1), &[])
        .unwrap_err();
    assert_eq!(err.kind, kernel_sim::SimErrorKind::MalformedIr);
}

/// Collatz step counts with `loop`, `break` and `continue`, and an early `return` for x == 0.
#[test]
fn loop_break_continue_and_return() {
    let mut kb = KB::new("collatz");
    let (pi, li) = kb.slice("x", Ty::U32, true);
    let (po, lo) = kb.slice("steps", Ty::U32, false);
    let i = kb.gid();
    let ia = kb.elem_addr(pi, li, i, Ty::U32, None);
    let oa = kb.elem_addr(po, lo, i, Ty::U32, None);
    let x = kb.load(Space::Global, Ty::U32, ia);
    let zero = kb.bin(BinOp::Eq, x, c32(0));
    kb.if_(
        zero,
        |kb| {
            kb.store(Space::Global, oa, c32(u32::MAX));
            kb.push(Inst::Return);
        },
        |_| {},
    );
    let steps = kb.var(Ty::U32);
    kb.mov(steps, c32(0));
    kb.loop_(|kb, id| {
        let one = kb.bin(BinOp::Eq, x, c32(1));
        kb.if_(one, |kb| kb.push(Inst::Break(id)), |_| {});
        let s1 = kb.bin(BinOp::Add, steps, c32(1));
        kb.mov(steps, s1);
        let odd = kb.bin(BinOp::And, x, c32(1));
        let is_odd = kb.bin(BinOp::Ne, odd, c32(0));
        kb.if_(
            is_odd,
            |kb| {
                let t = kb.bin(BinOp::Mul, x, c32(3));
                let t = kb.bin(BinOp::Add, t, c32(1));
                kb.mov(x, t);
                kb.push(Inst::Continue(id));
            },
            |_| {},
        );
        let h = kb.bin(BinOp::Shr, x, c32(1));
        kb.mov(x, h);
    });
    kb.store(Space::Global, oa, steps);
    let k = kb.finish();
    let xs: Vec<u32> = (0..100).collect();
    let mut dev = Dev::new();
    let xi = dev.upload(&xs);
    let out = dev.zeroed::<u32>(100);
    dev.launch(&k, SimLaunch::linear(4, 25), &[sp(xi), sp(out)])
        .unwrap();
    let got = dev.download::<u32>(out);
    let collatz = |mut x: u32| {
        if x == 0 {
            return u32::MAX;
        }
        let mut n = 0;
        while x != 1 {
            x = if x % 2 == 1 { 3 * x + 1 } else { x / 2 };
            n += 1;
        }
        n
    };
    assert_eq!(got, xs.iter().map(|&x| collatz(x)).collect::<Vec<_>>());
}

/// Nested counted loops; `break` of the outer loop from the inner one.
#[test]
fn break_of_outer_loop_by_id() {
    let mut kb = KB::new("nested");
    let (po, _) = kb.slice("out", Ty::U32, false);
    let acc = kb.var(Ty::U32);
    kb.mov(acc, c32(0));
    kb.for_(
        Ty::U32,
        c32(0),
        c32(10),
        c32(1),
        false,
        false,
        |kb, i, outer| {
            kb.for_(
                Ty::U32,
                c32(0),
                c32(10),
                c32(1),
                false,
                false,
                |kb, j, _| {
                    let p = kb.bin(BinOp::Mul, i, j);
                    let stop = kb.bin(BinOp::Eq, p, c32(12));
                    kb.if_(stop, |kb| kb.push(Inst::Break(outer)), |_| {});
                    let a = kb.bin(BinOp::Add, acc, c32(1));
                    kb.mov(acc, a);
                },
            );
        },
    );
    kb.store(Space::Global, po, acc);
    let k = kb.finish();
    let mut dev = Dev::new();
    let out = dev.zeroed::<u32>(1);
    dev.launch(&k, SimLaunch::linear(1, 1), &[sp(out)]).unwrap();
    // i = 0, 1 run all 10 inner iterations; i = 2 stops at j = 6.
    assert_eq!(dev.download::<u32>(out), vec![26]);
}

/// A thread-private array indexed by runtime values: each thread reverses 8 of its inputs.
#[test]
fn local_arrays_with_dynamic_indices() {
    let mut kb = KB::new("local_reverse");
    kb.k.arrays.push(LocalArray {
        elem: Ty::F32,
        len: 8,
    });
    let arr = ArrayId(0);
    let (pi, li) = kb.slice("x", Ty::F32, true);
    let (po, lo) = kb.slice("y", Ty::F32, false);
    let t = kb.gid();
    let base = kb.bin(BinOp::Mul, t, c32(8));
    kb.for_(Ty::U32, c32(0), c32(8), c32(1), false, false, |kb, j, _| {
        let idx = kb.bin(BinOp::Add, base, j);
        let a = kb.elem_addr(pi, li, idx, Ty::F32, None);
        let v = kb.load(Space::Global, Ty::F32, a);
        kb.push(Inst::ArrayStore {
            array: arr,
            idx: j.into(),
            val: v.into(),
        });
    });
    kb.for_(Ty::U32, c32(0), c32(8), c32(1), false, false, |kb, j, _| {
        let r = kb.bin(BinOp::Sub, c32(7), j);
        let v = kb.var(Ty::F32);
        kb.push(Inst::ArrayLoad {
            dst: v,
            array: arr,
            idx: r.into(),
        });
        let idx = kb.bin(BinOp::Add, base, j);
        let a = kb.elem_addr(po, lo, idx, Ty::F32, None);
        kb.store(Space::Global, a, v);
    });
    let k = kb.finish();
    let xs: Vec<f32> = (0..64).map(|i| i as f32 * 0.5).collect();
    let mut dev = Dev::new();
    let xi = dev.upload(&xs);
    let out = dev.zeroed::<f32>(64);
    dev.launch(&k, SimLaunch::linear(2, 4), &[sp(xi), sp(out)])
        .unwrap();
    let want: Vec<f32> = xs
        .chunks(8)
        .flat_map(|c| c.iter().rev().copied().collect::<Vec<_>>())
        .collect();
    assert_eq!(dev.download::<f32>(out), want);
}
