//! Structured control flow: if/else, every counted-loop form (inclusive, reverse, stepped, bounds at
//! the type's extremes), loop/break/continue and early return.

mod ptx_support;
use kernel_ir::ir::*;
use ptx_support::*;

fn max_of(ty: Ty) -> u64 {
    match ty {
        Ty::I8 => 0x7f,
        Ty::U8 => 0xff,
        Ty::I16 => 0x7fff,
        Ty::U16 => 0xffff,
        Ty::I32 => 0x7fff_ffff,
        Ty::U32 => 0xffff_ffff,
        Ty::I64 => i64::MAX as u64,
        _ => u64::MAX,
    }
}

/// Sums the induction variable of a loop for every (inclusive, reverse) form and stores the sums.
fn loops_kernel(ty: Ty) -> Kernel {
    let mut b = KB::new(&format!("loops_{ty:?}").to_lowercase());
    let (out, _) = b.slice_param("out", false, Ty::U64);
    let n = b.scalar_param("n", ty);
    let step = b.scalar_param("step", ty);
    let acc = b.var(ty);
    let mut slot = 0u64;
    for inclusive in [false, true] {
        for reverse in [false, true] {
            for (start, end, st) in [
                (c(ty, 0), v(n), c(ty, 1)),
                (c(ty, 1), c(ty, max_of(ty)), v(step)),
                (v(n), c(ty, max_of(ty)), c(ty, 3)),
            ] {
                b.push(Inst::Mov {
                    dst: acc,
                    src: c(ty, 0),
                });
                b.for_(ty, start, end, inclusive, st, reverse, |b, iv, id| {
                    b.push(Inst::Binary {
                        dst: acc,
                        op: BinOp::Add,
                        a: v(acc),
                        b: v(iv),
                    });
                    // `continue` on odd values, `break` past a threshold.
                    let low = b.bin(BinOp::And, v(iv), c(ty, 1));
                    let odd = b.bin(BinOp::Ne, v(low), c(ty, 0));
                    b.if_(v(odd), |b| b.push(Inst::Continue(id)), |_| {});
                    let big = b.bin(BinOp::Gt, v(acc), c(ty, 100));
                    b.if_(v(big), |b| b.push(Inst::Break(id)), |_| {});
                });
                let addr = b.elem_addr(out, c(Ty::U32, slot), Ty::U64);
                b.store_global(addr, v(acc));
                slot += 1;
            }
        }
    }
    b.finish()
}

#[test]
fn every_for_form_on_every_int_type_assembles() {
    for ty in ALL_TYS.into_iter().filter(|t| t.is_int()) {
        check(&loops_kernel(ty));
    }
}

#[test]
fn loop_latch_never_steps_past_the_end() {
    let p = check(&loops_kernel(Ty::U32));
    // The latch compares the remaining distance with the step (unsigned) instead of testing
    // `iv + step < end`, so an inclusive range ending at u32::MAX terminates.
    assert_line(&p, "setp.lt.u32");
    assert_line(&p, "setp.le.u32");
    assert_line(&p, ", 0xFFFFFFFF;");
    // 8-bit induction variables live normalized in 32-bit registers.
    let p = check(&loops_kernel(Ty::I8));
    assert_line(&p, "setp.le.s32");
    assert_line(&p, "setp.lt.u32");
}

#[test]
fn if_else_loop_break_continue_return() {
    let mut b = KB::new("flow");
    let (out, _) = b.slice_param("out", false, Ty::U32);
    let flag = b.scalar_param("flag", Ty::Bool);
    let tid = b.tid_x();
    let x = b.var(Ty::U32);
    b.push(Inst::Mov {
        dst: x,
        src: v(tid),
    });
    b.if_(
        v(flag),
        |b| {
            b.push(Inst::Binary {
                dst: x,
                op: BinOp::Mul,
                a: v(x),
                b: c(Ty::U32, 3),
            })
        },
        |b| {
            b.push(Inst::Binary {
                dst: x,
                op: BinOp::Add,
                a: v(x),
                b: c(Ty::U32, 7),
            })
        },
    );
    // Constant conditions pick one side at compile time.
    b.if_(
        c(Ty::Bool, 1),
        |b| b.push(Inst::Mov { dst: x, src: v(x) }),
        |b| b.push(Inst::Return),
    );
    b.loop_(|b, id| {
        let big = b.bin(BinOp::Gt, v(x), c(Ty::U32, 1000));
        b.if_(v(big), |b| b.push(Inst::Break(id)), |_| {});
        b.push(Inst::Binary {
            dst: x,
            op: BinOp::Mul,
            a: v(x),
            b: c(Ty::U32, 2),
        });
        let even = b.bin(BinOp::And, v(x), c(Ty::U32, 1));
        let z = b.bin(BinOp::Eq, v(even), c(Ty::U32, 0));
        b.if_(v(z), |b| b.push(Inst::Continue(id)), |_| {});
        b.push(Inst::Return);
    });
    let stop = b.bin(BinOp::Eq, v(x), c(Ty::U32, 5));
    b.if_(v(stop), |b| b.push(Inst::Return), |_| {});
    let addr = b.elem_addr(out, v(tid), Ty::U32);
    b.store_global(addr, v(x));
    let p = check(&b.finish());
    assert_line(&p, "@!%p0 bra $Lfc_else_");
    assert_line(&p, "bra $Lfc_loop_");
    assert_line(&p, "ret;");
    // Both constant-condition arms cannot appear: the `else` return was dropped.
    assert_eq!(p.matches("\tret;").count(), 3, "{p}");
}

#[test]
fn break_outside_its_loop_is_an_error() {
    let mut b = KB::new("bad_break");
    b.push(Inst::Break(LoopId(9)));
    let e = kernel_compiler::ptx::emit(&b.finish(), &opts(80)).unwrap_err();
    assert!(e.message.contains("break"), "{e}");
}
