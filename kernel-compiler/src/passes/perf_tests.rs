//! Tests of the passes that shape code for ptxas's scheduler: `split_webs`, `defer_checks`,
//! `speculate` and `vectorize`. Each compares what a thread does (stores, panic) before and after,
//! on inputs that pass and inputs that fail the checks, and checks the shape that makes the
//! difference on a GPU.

use super::testkit::*;
use super::*;
use kernel_ir::ir::{
    BinOp, Const, Inst, Kernel, Operand, PanicKind, PanicSite, SharedAlloc, SharedId, SiteId,
    Space, Ty, Var,
};

fn count(k: &Kernel, f: impl Fn(&Inst) -> bool) -> usize {
    let mut n = 0;
    kernel_ir::visit::walk(&k.body, &mut |i| n += f(i) as usize);
    n
}

fn site(k: &mut Kernel, line: u32) -> SiteId {
    k.panic_sites.push(PanicSite {
        kind: PanicKind::Bounds,
        file: "k.rs".into(),
        line,
        col: 1,
    });
    SiteId(k.panic_sites.len() as u32 - 1)
}

fn check_at(idx: Var, len: impl Into<Operand>, site: SiteId) -> Inst {
    Inst::BoundsCheck {
        idx: idx.into(),
        len: len.into(),
        site,
    }
}

fn shared_load(dst: Var, addr: Var) -> Inst {
    Inst::Load {
        dst,
        space: Space::Shared,
        addr: addr.into(),
        readonly: false,
    }
}

fn shared_store(addr: Var, val: Var) -> Inst {
    Inst::Store {
        space: Space::Shared,
        addr: addr.into(),
        val: val.into(),
    }
}

/// A tile-load shape: for r in 0..4 (unrolled by hand, one variable per role reused by every
/// copy, as the unroller leaves it): `if x + r < n { check(i < len); v = p[i]; check(r < lim);
/// tile[r] = v }`, then a store of a marker.
fn tile_rows(lim: u32) -> (Kernel, Var, Var, Var) {
    let mut k = kernel();
    let p = param(&mut k, "p", Ty::U64);
    let x = param(&mut k, "x", Ty::U32);
    let n = param(&mut k, "n", Ty::U32);
    let s_glob = site(&mut k, 10);
    let s_tile = site(&mut k, 11);
    let (row, c, i, off, addr, v, r32, saddr) = (
        k.new_var(Ty::U32),
        k.new_var(Ty::Bool),
        k.new_var(Ty::U64),
        k.new_var(Ty::U64),
        k.new_var(Ty::U64),
        k.new_var(Ty::F32),
        k.new_var(Ty::U32),
        k.new_var(Ty::U32),
    );
    let mut body = vec![];
    for r in 0..4u32 {
        body.push(bin(row, BinOp::Add, x, u32c(r)));
        body.push(bin(c, BinOp::Lt, row, n));
        body.push(if_(
            c,
            vec![
                cast(i, row),
                check_at(i, u64c(6), s_glob),
                bin(off, BinOp::Mul, i, u64c(4)),
                bin(addr, BinOp::Add, p, off),
                load(v, addr),
                mov(r32, u32c(r)),
                check_at(r32, u32c(lim), s_tile),
                bin(saddr, BinOp::Mul, r32, u32c(4)),
                shared_store(saddr, v),
            ],
            vec![],
        ));
    }
    body.push(store(p, x));
    k.body.0 = body;
    (k, p, x, n)
}

fn run_all(orig: &Kernel, k: &Kernel, p: Var, x: Var, n: Var) {
    for (xv, nv) in [
        (0u32, 9u32),
        (1, 9),
        (3, 9),
        (4, 9),
        (5, 9),
        (0, 2),
        (9, 3),
        (2, 0),
    ] {
        let args = [
            (p, Const::u64(64)),
            (x, Const::u32(xv)),
            (n, Const::u32(nv)),
        ];
        let (a, b) = (run(orig, &args), run(k, &args));
        assert!(
            a.same_effects(&b),
            "{a:?}\n{b:?}\nx={xv} n={nv}\n--- original ---\n{}\n--- optimized ---\n{}",
            text(orig),
            text(k)
        );
    }
}

fn late_passes(k: &mut Kernel) {
    split_webs(k);
    if defer_checks(k) {
        split_webs(k);
        cse(k);
    }
    speculate(k);
    vectorize(k);
    dce(k);
}

#[test]
fn deferred_checks_keep_stores_and_the_first_panic() {
    for lim in [4, 3, 1] {
        let (orig, p, x, n) = tile_rows(lim);
        let mut k = orig.clone();
        late_passes(&mut k);
        run_all(&orig, &k, p, x, n);
        // No check is left inline: one dispatch at the end panics for either site.
        assert_eq!(
            count(&k, |i| matches!(i, Inst::BoundsCheck { .. })),
            0,
            "{}",
            text(&k)
        );
        assert!(count(&k, |i| matches!(i, Inst::Panic { .. })) >= 2);
    }
}

#[test]
fn tile_loads_come_before_the_stores() {
    let (mut k, ..) = tile_rows(4);
    late_passes(&mut k);
    // Top level: the early checks' dispatch, the four guarded global loads, the four guarded
    // shared stores, then the marker store, which no check guards any more.
    let kinds: String = k
        .body
        .0
        .iter()
        .filter_map(|i| match i {
            Inst::If { then, .. } => match then.0.as_slice() {
                [Inst::Load { .. }] => Some('L'),
                [Inst::Store {
                    space: Space::Shared,
                    ..
                }] => Some('S'),
                [Inst::Store { .. }] => Some('G'),
                _ if count(&k, |i| matches!(i, Inst::Panic { .. })) > 0 => Some('D'),
                _ => None,
            },
            Inst::Store { .. } => Some('g'),
            _ => None,
        })
        .collect();
    assert_eq!(kinds, "DLLLLSSSSg", "{}", text(&k));
}

#[test]
fn speculation_leaves_only_guarded_accesses_in_ifs() {
    let (mut k, ..) = tile_rows(4);
    late_passes(&mut k);
    kernel_ir::visit::walk(&k.body, &mut |i| {
        if let Inst::If { then, els, .. } = i {
            let body: Vec<&Inst> = then.0.iter().chain(&els.0).collect();
            let panics = body.iter().any(|i| {
                matches!(
                    i,
                    Inst::Panic { .. } | Inst::If { .. } | Inst::Binary { .. }
                )
            });
            // Dispatch ifs hold compares, nested ifs and panics; every other `if` one access.
            if !panics {
                assert!(
                    body.len() <= 2
                        && body.iter().all(|i| matches!(
                            i,
                            Inst::Load { .. } | Inst::Store { .. } | Inst::Mov { .. }
                        )),
                    "{}",
                    text(&k)
                );
            }
        }
    });
}

/// `a_s[row * 8 + i]` for i in 0..8 (f32, shared), as SGEMM reads its tile, then stores of the
/// eight values; `skew` shifts the row start by that many elements.
fn row_reads(skew: u32) -> (Kernel, Var) {
    let mut k = kernel();
    let p = param(&mut k, "p", Ty::U64);
    k.shared.push(SharedAlloc {
        name: "a_s".into(),
        bytes: 4096,
        align: 4,
    });
    let (base, tid, row, idx, wide, off, addr) = (
        k.new_var(Ty::U32),
        k.new_var(Ty::U32),
        k.new_var(Ty::U64),
        k.new_var(Ty::U64),
        k.new_var(Ty::U64),
        k.new_var(Ty::U32),
        k.new_var(Ty::U32),
    );
    let vals: Vec<Var> = (0..8).map(|_| k.new_var(Ty::F32)).collect();
    let mut body = vec![
        Inst::SharedAddr {
            dst: base,
            alloc: SharedId(0),
        },
        intr("tid.x", vec![tid], vec![]),
        cast(row, tid),
        bin(row, BinOp::Mul, row, u64c(8)),
    ];
    for (i, &v) in vals.iter().enumerate() {
        body.extend([
            bin(idx, BinOp::Add, row, u64c(i as u64 + skew as u64)),
            mov(wide, idx),
            cast(off, wide),
            bin(off, BinOp::Mul, off, u32c(4)),
            bin(addr, BinOp::Add, base, off),
            shared_load(v, addr),
        ]);
    }
    for &v in &vals {
        body.push(store(p, v));
    }
    k.body.0 = body;
    (k, p)
}

#[test]
fn adjacent_aligned_shared_loads_become_vector_loads() {
    let (orig, p) = row_reads(0);
    let mut k = orig.clone();
    late_passes(&mut k);
    let vec4 = count(
        &k,
        |i| matches!(i, Inst::LoadVec { dsts, .. } if dsts.len() == 4),
    );
    assert_eq!(vec4, 2, "{}", text(&k));
    assert_eq!(count(&k, |i| matches!(i, Inst::Load { .. })), 0);
    assert!(
        k.shared[0].align >= 16,
        "the vector loads rely on a 16-aligned base"
    );
    let args = [(p, Const::u64(8))];
    assert_eq!(run(&orig, &args), run(&k, &args));
}

#[test]
fn unaligned_row_starts_use_the_aligned_runs_inside() {
    // Elements 1..=8 of a 32-byte aligned row: 1 alone (4-byte aligned), 2-3 a pair (8-byte
    // aligned), 4-7 a quad (16-byte aligned), 8 alone (no neighbour after it).
    let (orig, p) = row_reads(1);
    let mut k = orig.clone();
    late_passes(&mut k);
    let n = |len: usize| {
        count(
            &k,
            |i| matches!(i, Inst::LoadVec { dsts, .. } if dsts.len() == len),
        )
    };
    assert_eq!((n(4), n(2)), (1, 1), "{}", text(&k));
    assert_eq!(count(&k, |i| matches!(i, Inst::Load { .. })), 2);
    let args = [(p, Const::u64(8))];
    assert_eq!(run(&orig, &args), run(&k, &args));
}

#[test]
fn shared_addresses_become_anchor_plus_constant() {
    let (mut k, _) = row_reads(1);
    late_passes(&mut k);
    // Every shared access reads its address from a one-instruction `anchor + constant` (or the
    // anchor itself): no per-access multiply is left.
    let muls = count(
        &k,
        |i| matches!(i, Inst::Binary { op: BinOp::Mul, dst, .. } if k.ty(*dst) == Ty::U32),
    );
    assert!(muls <= 1, "{}", text(&k));
}

#[test]
fn guarded_tile_loads_are_straight_line_ptx() {
    let (mut k, ..) = tile_rows(4);
    late_passes(&mut k);
    let text = crate::ptx::emit(&k, &crate::options::CompileOptions::default()).unwrap();
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let loads: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].contains("ld.global.f32"))
        .collect();
    assert_eq!(loads.len(), 4, "{text}");
    // Each load is predicated, and no branch separates the first load from the last.
    for &i in &loads {
        assert!(lines[i].starts_with("@%p"), "{}", lines[i]);
    }
    assert!(
        !lines[loads[0]..loads[3]].iter().any(|l| l.contains("bra ")),
        "{text}"
    );
}

#[test]
fn loads_are_not_merged_across_a_shared_store_or_a_barrier() {
    for barrier in [false, true] {
        let (mut k, _) = row_reads(0);
        // Between the 2nd and 3rd load: a shared store (or a barrier) that a merged load would
        // have to cross.
        let at = k
            .body
            .0
            .iter()
            .enumerate()
            .filter(|(_, i)| matches!(i, Inst::Load { .. }))
            .nth(1)
            .map(|(n, _)| n + 1)
            .unwrap();
        let (a, v) = (k.new_var(Ty::U32), k.new_var(Ty::F32));
        let extra = if barrier {
            vec![intr("sync_threads", vec![], vec![])]
        } else {
            vec![
                Inst::SharedAddr {
                    dst: a,
                    alloc: SharedId(0),
                },
                mov(v, f32c(1.0)),
                shared_store(a, v),
            ]
        };
        k.body.0.splice(at..at, extra);
        late_passes(&mut k);
        assert_eq!(
            count(
                &k,
                |i| matches!(i, Inst::LoadVec { dsts, .. } if dsts.len() == 4)
            ),
            1,
            "only the second quad (after the store) merges\n{}",
            text(&k)
        );
    }
}

#[test]
fn moved_code_keeps_its_source_markers() {
    use kernel_ir::ir::SourceLoc;
    let loc = |line: u32| {
        Inst::Loc(SourceLoc {
            file: "k.rs",
            line,
            col: 1,
        })
    };
    let (mut k, p, x, n) = tile_rows(4);
    // Row r's body is marked line 100 + r; the code between rows line 1.
    let mut body = vec![loc(1)];
    let mut r = 0;
    for inst in std::mem::take(&mut k.body.0) {
        match inst {
            Inst::If {
                cond,
                mut then,
                els,
            } => {
                then.0.insert(0, loc(100 + r));
                body.push(Inst::If { cond, then, els });
                body.push(loc(1));
                r += 1;
            }
            other => body.push(other),
        }
    }
    k.body.0 = body;
    let orig = k.clone();
    late_passes(&mut k);
    run_all(&orig, &k, p, x, n);
    // Every shared store still runs under its own row's marker, and the final global store
    // under line 1.
    let mut cur = 0;
    let mut rows = vec![];
    for inst in &k.body.0 {
        match inst {
            Inst::Loc(l) => cur = l.line,
            Inst::If { then, .. } => match then.0.as_slice() {
                [Inst::Store {
                    space: Space::Shared,
                    ..
                }] => rows.push(cur),
                [Inst::Store { .. }] => assert_eq!(cur, 1, "{}", text(&k)),
                _ => {}
            },
            _ => {}
        }
    }
    assert_eq!(rows, vec![100, 101, 102, 103], "{}", text(&k));
    // ... and the markers did not stop the stores from sinking below the loads.
    let kinds: String = k
        .body
        .0
        .iter()
        .filter_map(|i| match i {
            Inst::If { then, .. } => match then.0.as_slice() {
                [Inst::Load { .. }] => Some('L'),
                [Inst::Store { .. }] => Some('S'),
                _ => None,
            },
            Inst::Store { .. } => Some('s'),
            _ => None,
        })
        .collect();
    assert_eq!(kinds, "LLLLSSSSs", "{}", text(&k));
}

#[test]
fn runs_in_loops_keep_deferred_checks() {
    let (mut k, p, x, n) = tile_rows(4);
    let body = std::mem::take(&mut k.body.0);
    let iv = k.new_var(Ty::U32);
    let l = for_(
        &mut k,
        iv,
        u32c(0),
        u32c(3),
        kernel_ir::ir::Unroll::Never,
        body,
    );
    k.body.0 = vec![l];
    let orig = k.clone();
    late_passes(&mut k);
    run_all(&orig, &k, p, x, n);
    let Some(Inst::For { body, .. }) = k.body.0.iter().find(|i| matches!(i, Inst::For { .. }))
    else {
        panic!("the loop is gone:\n{}", text(&k))
    };
    // Deferred: the dispatch (the only `if` holding panics) comes after the loads, not before.
    let has_panic = |i: &Inst| {
        let mut n = 0;
        kernel_ir::visit::walk(&kernel_ir::ir::Block(vec![i.clone()]), &mut |j| {
            n += matches!(j, Inst::Panic { .. }) as usize
        });
        n > 0
    };
    let first_load = body
        .0
        .iter()
        .position(|i| matches!(i, Inst::If { then, .. } if matches!(then.0.as_slice(), [Inst::Load { .. }])))
        .expect("guarded loads");
    let dispatch = body.0.iter().position(has_panic).expect("a dispatch");
    assert!(first_load < dispatch, "{}", text(&k));
}
