//! Device memory, shared memory with barriers, parameters, launch checks and block order.

use kernel_ir::ir::{BinOp, Inst, PanicKind, Space, Ty};
use kernel_sim::{BlockOrder, GlobalMemory, SimErrorKind, SimLaunch};
use kernel_testkit::sim::*;

#[test]
fn allocations_are_aligned_distinct_and_separated() {
    let mut m = GlobalMemory::new();
    let a = m.alloc(10);
    let b = m.alloc(0);
    let c = m.alloc(1000);
    for p in [a, b, c] {
        assert_ne!(p, 0);
        assert_eq!(p % 256, 0);
    }
    assert!(a + 10 < b && b < c);
    m.write(a, &[1; 10]).unwrap();
    let mut buf = [0u8; 10];
    m.read(a, &mut buf).unwrap();
    assert_eq!(buf, [1; 10]);
    // One byte past the end is unmapped.
    assert_eq!(
        m.read(a + 10, &mut [0u8; 1]).unwrap_err().kind,
        SimErrorKind::OutOfBounds
    );
    assert_eq!(
        m.write(a + 5, &[0; 6]).unwrap_err().kind,
        SimErrorKind::OutOfBounds
    );
    m.fill(c + 10, 20, 7).unwrap();
    let mut d = [0u8; 32];
    m.read(c, &mut d).unwrap();
    assert_eq!(
        &d[9..31],
        &[0, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 0][..]
    );
    assert_eq!(m.free(a + 1).unwrap_err().kind, SimErrorKind::InvalidFree);
    m.free(a).unwrap();
    assert_eq!(
        m.read(a, &mut buf).unwrap_err().kind,
        SimErrorKind::OutOfBounds
    );
    assert_eq!(m.free(a).unwrap_err().kind, SimErrorKind::InvalidFree);
    assert!(m.alloc(10) > c);
}

/// saxpy: y[i] = a * x[i] + y[i], with the bounds checks the front end would emit.
pub fn saxpy() -> kernel_ir::ir::Kernel {
    let mut kb = KB::new("saxpy");
    let a = kb.scalar("a", Ty::F32);
    let (px, lx) = kb.slice("x", Ty::F32, true);
    let (py, ly) = kb.slice("y", Ty::F32, false);
    let i = kb.gid();
    let i64v = kb.cast(i, Ty::U64);
    let inb = kb.bin(BinOp::Lt, i64v, ly);
    let site = kb.site(PanicKind::Bounds, 10);
    kb.if_(
        inb,
        |kb| {
            let xa = kb.elem_addr(px, lx, i, Ty::F32, Some(site));
            let ya = kb.elem_addr(py, ly, i, Ty::F32, None);
            let x = kb.load(Space::Global, Ty::F32, xa);
            let y = kb.load(Space::Global, Ty::F32, ya);
            let r = kb.var(Ty::F32);
            kb.push(Inst::Fma {
                dst: r,
                a: a.into(),
                b: x.into(),
                c: y.into(),
            });
            kb.store(Space::Global, ya, r);
        },
        |_| {},
    );
    kb.finish()
}

#[test]
fn saxpy_matches_fused_multiply_add_on_the_host() {
    let k = saxpy();
    let n = 1000;
    let x: Vec<f32> = (0..n).map(|i| i as f32 * 0.37).collect();
    let y: Vec<f32> = (0..n).map(|i| 1.0 / (i as f32 + 1.0)).collect();
    let mut dev = Dev::new();
    let xd = dev.upload(&x);
    let yd = dev.upload(&y);
    let stats = dev
        .launch(
            &k,
            SimLaunch::linear(4, 256),
            &[1.5f32.to_le_bytes().to_vec(), sp(xd), sp(yd)],
        )
        .unwrap();
    let want: Vec<f32> = x
        .iter()
        .zip(&y)
        .map(|(x, y)| 1.5f32.mul_add(*x, *y))
        .collect();
    assert_eq!(dev.download::<f32>(yd), want);
    assert_eq!(stats.threads, 1024);
    assert_eq!(stats.blocks, 4);
    assert!(stats.instructions > 1000 * 10);
}

/// Block-wide reverse through static shared memory: write, barrier, read the mirrored slot.
fn shared_reverse(n: u32) -> kernel_ir::ir::Kernel {
    let mut kb = KB::new("reverse");
    let (pi, li) = kb.slice("x", Ty::U32, true);
    let (po, lo) = kb.slice("y", Ty::U32, false);
    let buf = kb.shared("buf", n * 4, 4);
    let t = kb.intr("tid.x");
    let g = kb.gid();
    let xa = kb.elem_addr(pi, li, g, Ty::U32, None);
    let v = kb.load(Space::Global, Ty::U32, xa);
    let off = kb.bin(BinOp::Mul, t, c32(4));
    let sa = kb.bin(BinOp::Add, buf, off);
    kb.store(Space::Shared, sa, v);
    kb.sync();
    let r = kb.bin(BinOp::Sub, c32(n - 1), t);
    let roff = kb.bin(BinOp::Mul, r, c32(4));
    let ra = kb.bin(BinOp::Add, buf, roff);
    let w = kb.load(Space::Shared, Ty::U32, ra);
    let ya = kb.elem_addr(po, lo, g, Ty::U32, None);
    kb.store(Space::Global, ya, w);
    kb.finish()
}

#[test]
fn block_reverse_through_shared_memory_with_a_barrier() {
    let k = shared_reverse(128);
    let x: Vec<u32> = (0..512).map(|i| i * 3 + 1).collect();
    for order in [
        BlockOrder::Sequential,
        BlockOrder::Shuffled(7),
        BlockOrder::Shuffled(99),
    ] {
        let mut dev = Dev::new();
        let xd = dev.upload(&x);
        let yd = dev.zeroed::<u32>(512);
        let cfg = SimLaunch {
            block_order: order,
            ..SimLaunch::linear(4, 128)
        };
        let stats = dev.launch(&k, cfg, &[sp(xd), sp(yd)]).unwrap();
        let want: Vec<u32> = x
            .chunks(128)
            .flat_map(|c| c.iter().rev().copied().collect::<Vec<_>>())
            .collect();
        assert_eq!(dev.download::<u32>(yd), want);
        assert_eq!(stats.barriers, 4);
    }
}

#[test]
fn dynamic_shared_memory_follows_static_and_reports_its_size() {
    let mut kb = KB::new("dyn_shared");
    let (po, lo) = kb.slice("out", Ty::U32, false);
    let _fixed = kb.shared("fixed", 12, 4);
    let base = kb.var(Ty::U32);
    kb.push(Inst::DynSharedAddr { dst: base });
    let size = kb.var(Ty::U32);
    kb.push(Inst::DynSharedBytes { dst: size });
    let t = kb.intr("tid.x");
    let off = kb.bin(BinOp::Mul, t, c32(4));
    let a = kb.bin(BinOp::Add, base, off);
    kb.store(Space::Shared, a, t);
    kb.sync();
    let r = kb.bin(BinOp::Xor, t, c32(1));
    let roff = kb.bin(BinOp::Mul, r, c32(4));
    let ra = kb.bin(BinOp::Add, base, roff);
    let v = kb.load(Space::Shared, Ty::U32, ra);
    let s = kb.bin(BinOp::Add, v, size);
    let s = kb.bin(BinOp::Add, s, base);
    let oa = kb.elem_addr(po, lo, t, Ty::U32, None);
    kb.store(Space::Global, oa, s);
    let k = kb.finish();
    let mut dev = Dev::new();
    let out = dev.zeroed::<u32>(8);
    let cfg = SimLaunch {
        dyn_shared_bytes: 32,
        ..SimLaunch::linear(1, 8)
    };
    dev.launch(&k, cfg, &[sp(out)]).unwrap();
    // Dynamic memory starts at 16 (12 static bytes, 16-aligned).
    assert_eq!(
        dev.download::<u32>(out),
        (0..8).map(|t| (t ^ 1) + 32 + 16).collect::<Vec<_>>()
    );
    // Too small a dynamic region: thread 7 writes past the end.
    let cfg = SimLaunch {
        dyn_shared_bytes: 28,
        ..SimLaunch::linear(1, 8)
    };
    let e = dev.launch(&k, cfg, &[sp(out)]).unwrap_err();
    assert_eq!(e.kind, SimErrorKind::OutOfBounds);
    assert_eq!(e.thread, [7, 0, 0]);
}

#[test]
fn out_of_bounds_global_access_is_caught_with_ids() {
    // y[i + 1] = x[i] with no bounds check: the last thread writes one past `y`.
    let mut kb = KB::new("shift");
    let (px, lx) = kb.slice("x", Ty::U32, true);
    let (py, ly) = kb.slice("y", Ty::U32, false);
    let site = kb.site(PanicKind::Bounds, 42);
    let i = kb.gid();
    let xa = kb.elem_addr(px, lx, i, Ty::U32, Some(site));
    let v = kb.load(Space::Global, Ty::U32, xa);
    let j = kb.bin(BinOp::Add, i, c32(1));
    let ya = kb.elem_addr(py, ly, j, Ty::U32, None);
    kb.store(Space::Global, ya, v);
    let k = kb.finish();
    let mut dev = Dev::new();
    let x: Vec<u32> = (1..=64).collect();
    let xd = dev.upload(&x);
    let yd = dev.zeroed::<u32>(64);
    let e = dev
        .launch(&k, SimLaunch::linear(2, 32), &[sp(xd), sp(yd)])
        .unwrap_err();
    assert_eq!(e.kind, SimErrorKind::OutOfBounds);
    assert_eq!((e.block, e.thread), ([1, 0, 0], [31, 0, 0]));
    assert_eq!((e.file.as_str(), e.line), (FILE, 42));
    assert!(e.message.contains("write of 4 bytes"), "{}", e.message);
    assert!(e.to_string().starts_with("kernel `tests::shift` made an out-of-bounds access at tests/kernels.rs:42:5 (block (1,0,0), thread (31,0,0)): write"), "{e}");
    // Everything before the faulting thread ran.
    let y = dev.download::<u32>(yd);
    assert_eq!(y[0], 0);
    assert_eq!(&y[1..], &x[..63]);
}

#[test]
fn misaligned_and_null_accesses_fault() {
    let mut kb = KB::new("misaligned");
    let p = kb.scalar("p", Ty::U64);
    let v = kb.load(Space::Global, Ty::U32, p);
    kb.store(Space::Global, p, v);
    let k = kb.finish();
    let mut dev = Dev::new();
    let (base, _) = dev.zeroed::<u32>(4);
    let e = dev
        .launch(
            &k,
            SimLaunch::linear(1, 1),
            &[(base + 2).to_le_bytes().to_vec()],
        )
        .unwrap_err();
    assert_eq!(e.kind, SimErrorKind::Misaligned);
    let e = dev
        .launch(&k, SimLaunch::linear(1, 1), &[0u64.to_le_bytes().to_vec()])
        .unwrap_err();
    assert_eq!(e.kind, SimErrorKind::OutOfBounds);
    dev.launch(
        &k,
        SimLaunch::linear(1, 1),
        &[(base + 12).to_le_bytes().to_vec()],
    )
    .unwrap();
}

#[test]
fn parameters_and_launch_shapes_are_validated() {
    let k = saxpy();
    let mut dev = Dev::new();
    let xd = dev.upload(&[0f32; 4]);
    let e = dev
        .launch(&k, SimLaunch::linear(1, 4), &[sp(xd), sp(xd)])
        .unwrap_err();
    assert_eq!(e.kind, SimErrorKind::InvalidParams);
    let e = dev
        .launch(&k, SimLaunch::linear(1, 4), &[vec![0; 8], sp(xd), sp(xd)])
        .unwrap_err();
    assert_eq!(e.kind, SimErrorKind::InvalidParams);
    let a = 1f32.to_le_bytes().to_vec();
    for cfg in [
        SimLaunch::linear(1, 2048),
        SimLaunch::linear(0, 32),
        SimLaunch {
            block: [32, 32, 2],
            ..SimLaunch::linear(1, 1)
        },
    ] {
        let e = dev
            .launch(&k, cfg, &[a.clone(), sp(xd), sp(xd)])
            .unwrap_err();
        assert_eq!(e.kind, SimErrorKind::InvalidLaunch);
    }
    let big = SimLaunch {
        dyn_shared_bytes: 300 * 1024,
        ..SimLaunch::linear(1, 1)
    };
    assert_eq!(
        dev.launch(&k, big, &[a.clone(), sp(xd), sp(xd)])
            .unwrap_err()
            .kind,
        SimErrorKind::InvalidLaunch
    );
    let mut bounded = k.clone();
    bounded.attrs.max_threads = Some(128);
    let e = dev
        .launch(&bounded, SimLaunch::linear(1, 256), &[a, sp(xd), sp(xd)])
        .unwrap_err();
    assert_eq!(e.kind, SimErrorKind::InvalidLaunch);
}

/// Each block records `clock64()` (monotonic over the launch) so the run order is visible.
#[test]
fn shuffled_block_order_is_a_seeded_permutation() {
    let mut kb = KB::new("order");
    let (po, lo) = kb.slice("out", Ty::U64, false);
    let b = kb.intr("ctaid.x");
    let by = kb.intr("ctaid.y");
    let nx = kb.intr("nctaid.x");
    let row = kb.bin(BinOp::Mul, by, nx);
    let lin = kb.bin(BinOp::Add, row, b);
    let c = kb.intr("clock64");
    let a = kb.elem_addr(po, lo, lin, Ty::U64, None);
    kb.store(Space::Global, a, c);
    let k = kb.finish();
    let run = |order| {
        let mut dev = Dev::new();
        let out = dev.zeroed::<u64>(64);
        let cfg = SimLaunch {
            grid: [8, 8, 1],
            block: [1, 1, 1],
            block_order: order,
            ..SimLaunch::linear(1, 1)
        };
        dev.launch(&k, cfg, &[sp(out)]).unwrap();
        let t = dev.download::<u64>(out);
        let mut idx: Vec<usize> = (0..64).collect();
        idx.sort_by_key(|&i| t[i]);
        idx
    };
    assert_eq!(run(BlockOrder::Sequential), (0..64).collect::<Vec<_>>());
    let s1 = run(BlockOrder::Shuffled(1));
    assert_ne!(s1, (0..64).collect::<Vec<_>>());
    assert_eq!(s1, run(BlockOrder::Shuffled(1)));
    assert_ne!(s1, run(BlockOrder::Shuffled(2)));
    let mut sorted = s1.clone();
    sorted.sort();
    assert_eq!(sorted, (0..64).collect::<Vec<_>>());
}

#[test]
fn multidimensional_blocks_have_x_fastest_thread_ids() {
    let mut kb = KB::new("ids");
    let (po, lo) = kb.slice("out", Ty::U32, false);
    let (x, y, z) = (kb.intr("tid.x"), kb.intr("tid.y"), kb.intr("tid.z"));
    let (nx, ny) = (kb.intr("ntid.x"), kb.intr("ntid.y"));
    let zy = kb.bin(BinOp::Mul, z, ny);
    let zy = kb.bin(BinOp::Add, zy, y);
    let lin = kb.bin(BinOp::Mul, zy, nx);
    let lin = kb.bin(BinOp::Add, lin, x);
    let lane = kb.intr("lane_id");
    let v = kb.bin(BinOp::Mul, x, c32(10000));
    let yy = kb.bin(BinOp::Mul, y, c32(100));
    let v = kb.bin(BinOp::Add, v, yy);
    let v = kb.bin(BinOp::Add, v, z);
    let l = kb.bin(BinOp::Shl, lane, c32(24));
    let v = kb.bin(BinOp::Or, v, l);
    let a = kb.elem_addr(po, lo, lin, Ty::U32, None);
    kb.store(Space::Global, a, v);
    let k = kb.finish();
    let mut dev = Dev::new();
    let out = dev.zeroed::<u32>(60);
    let cfg = SimLaunch {
        block: [5, 4, 3],
        ..SimLaunch::linear(1, 1)
    };
    dev.launch(&k, cfg, &[sp(out)]).unwrap();
    let got = dev.download::<u32>(out);
    for (i, g) in got.iter().enumerate() {
        let (x, y, z) = (i % 5, (i / 5) % 4, i / 20);
        assert_eq!(*g, ((i % 32) << 24 | (x * 10000 + y * 100 + z)) as u32);
    }
}

/// Tiled matrix multiply: shared tiles reloaded every iteration between two barriers, so the race
/// detector sees write-after-read across barriers (allowed) many times.
#[test]
fn tiled_matmul_with_barriers_in_a_loop() {
    const N: u32 = 32;
    const T: u32 = 8;
    let mut kb = KB::new("matmul");
    let (pa, la) = kb.slice("a", Ty::F32, true);
    let (pb, lb) = kb.slice("b", Ty::F32, true);
    let (pc, lc) = kb.slice("c", Ty::F32, false);
    let ta = kb.shared("ta", T * T * 4, 4);
    let tb = kb.shared("tb", T * T * 4, 4);
    let (tx, ty) = (kb.intr("tid.x"), kb.intr("tid.y"));
    let (bx, by) = (kb.intr("ctaid.x"), kb.intr("ctaid.y"));
    let row = kb.bin(BinOp::Mul, by, c32(T));
    let row = kb.bin(BinOp::Add, row, ty);
    let col = kb.bin(BinOp::Mul, bx, c32(T));
    let col = kb.bin(BinOp::Add, col, tx);
    let acc = kb.var(Ty::F32);
    kb.mov(acc, kernel_ir::ir::Const::f32(0.0));
    let slot = kb.bin(BinOp::Mul, ty, c32(T));
    let slot = kb.bin(BinOp::Add, slot, tx);
    let slot = kb.bin(BinOp::Mul, slot, c32(4));
    let sa = kb.bin(BinOp::Add, ta, slot);
    let sb = kb.bin(BinOp::Add, tb, slot);
    kb.for_(
        Ty::U32,
        c32(0),
        c32(N / T),
        c32(1),
        false,
        false,
        |kb, t, _| {
            let k0 = kb.bin(BinOp::Mul, t, c32(T));
            let ak = kb.bin(BinOp::Add, k0, tx);
            let ai = kb.bin(BinOp::Mul, row, c32(N));
            let ai = kb.bin(BinOp::Add, ai, ak);
            let aa = kb.elem_addr(pa, la, ai, Ty::F32, None);
            let av = kb.load(Space::Global, Ty::F32, aa);
            kb.store(Space::Shared, sa, av);
            let bk = kb.bin(BinOp::Add, k0, ty);
            let bi = kb.bin(BinOp::Mul, bk, c32(N));
            let bi = kb.bin(BinOp::Add, bi, col);
            let ba = kb.elem_addr(pb, lb, bi, Ty::F32, None);
            let bv = kb.load(Space::Global, Ty::F32, ba);
            kb.store(Space::Shared, sb, bv);
            kb.sync();
            kb.for_(Ty::U32, c32(0), c32(T), c32(1), false, false, |kb, k, _| {
                let ao = kb.bin(BinOp::Mul, ty, c32(T));
                let ao = kb.bin(BinOp::Add, ao, k);
                let ao = kb.bin(BinOp::Mul, ao, c32(4));
                let ao = kb.bin(BinOp::Add, ta, ao);
                let bo = kb.bin(BinOp::Mul, k, c32(T));
                let bo = kb.bin(BinOp::Add, bo, tx);
                let bo = kb.bin(BinOp::Mul, bo, c32(4));
                let bo = kb.bin(BinOp::Add, tb, bo);
                let x = kb.load(Space::Shared, Ty::F32, ao);
                let y = kb.load(Space::Shared, Ty::F32, bo);
                let r = kb.var(Ty::F32);
                kb.push(Inst::Fma {
                    dst: r,
                    a: x.into(),
                    b: y.into(),
                    c: acc.into(),
                });
                kb.mov(acc, r);
            });
            kb.sync();
        },
    );
    let ci = kb.bin(BinOp::Mul, row, c32(N));
    let ci = kb.bin(BinOp::Add, ci, col);
    let ca = kb.elem_addr(pc, lc, ci, Ty::F32, None);
    kb.store(Space::Global, ca, acc);
    let k = kb.finish();

    let n = N as usize;
    let a: Vec<f32> = (0..n * n).map(|i| ((i * 7) % 11) as f32 * 0.25).collect();
    let b: Vec<f32> = (0..n * n).map(|i| ((i * 5) % 13) as f32 - 6.0).collect();
    let mut dev = Dev::new();
    let (ad, bd) = (dev.upload(&a), dev.upload(&b));
    let cd = dev.zeroed::<f32>(n * n);
    let cfg = SimLaunch {
        grid: [N / T, N / T, 1],
        block: [T, T, 1],
        block_order: BlockOrder::Shuffled(3),
        ..SimLaunch::linear(1, 1)
    };
    let stats = dev.launch(&k, cfg, &[sp(ad), sp(bd), sp(cd)]).unwrap();
    assert_eq!(stats.barriers, 16 * 8);
    let mut want = vec![0f32; n * n];
    for i in 0..n {
        for j in 0..n {
            want[i * n + j] = (0..n).fold(0f32, |acc, k| a[i * n + k].mul_add(b[k * n + j], acc));
        }
    }
    assert_eq!(dev.download::<f32>(cd), want);
}
