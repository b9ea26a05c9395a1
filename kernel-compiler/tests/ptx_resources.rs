//! Launch-bound attributes, register pressure (no spills for a kernel with many live floats),
//! target/version selection, intrinsic checks and the ptxas driver itself.

mod ptx_support;
use kernel_compiler::ptx;
use kernel_ir::ir::*;
use ptx_support::*;

/// 64 floats live at once, each combined with its neighbours: needs many registers, no spills.
fn many_floats() -> Kernel {
    let mut b = KB::new("many_floats");
    let (inp, _) = b.slice_param("inp", true, Ty::F32);
    let (out, _) = b.slice_param("out", false, Ty::F32);
    let tid = b.tid_x();
    let base = b.bin(BinOp::Mul, v(tid), c(Ty::U32, 64));
    let xs: Vec<Var> = (0..64)
        .map(|i| {
            let idx = b.bin(BinOp::Add, v(base), c(Ty::U32, i));
            let a = b.elem_addr(inp, v(idx), Ty::F32);
            b.load_global(Ty::F32, a, true)
        })
        .collect();
    for i in 0..64 {
        let m = b.bin(BinOp::Mul, v(xs[i]), v(xs[(i + 1) % 64]));
        let s = b.bin(BinOp::Add, v(m), v(xs[(i + 7) % 64]));
        let idx = b.bin(BinOp::Add, v(base), c(Ty::U32, i as u64));
        let a = b.elem_addr(out, v(idx), Ty::F32);
        b.store_global(a, v(s));
    }
    b.finish()
}

#[test]
fn many_live_floats_do_not_spill() {
    let k = many_floats();
    for (sm, _, report) in check_on(&k, &[80, 90]) {
        let Some(report) = report else { return };
        let e = report.entry("many_floats").expect("entry in report");
        assert_eq!(e.spill_stores, 0, "sm_{sm}: {e:?}");
        assert_eq!(e.spill_loads, 0, "sm_{sm}: {e:?}");
        assert_eq!(e.stack_frame, 0, "sm_{sm}: {e:?}");
        assert!(e.registers >= 32, "sm_{sm}: {e:?}");
    }
}

#[test]
fn attributes() {
    let mut k = many_floats();
    k.attrs = KernelAttrs {
        max_threads: Some(256),
        min_blocks: Some(2),
        max_registers: None,
        block_dim: None,
        cluster_dims: None,
    };
    let p = check(&k);
    assert_line(&p, ".maxntid 256, 1, 1");
    assert_line(&p, ".minnctapersm 2");
    k.attrs = KernelAttrs {
        max_threads: None,
        min_blocks: None,
        max_registers: Some(32),
        block_dim: None,
        cluster_dims: None,
    };
    let all = check_on(&k, &[80]);
    assert_line(&all[0].1, ".maxnreg 32");
    if let Some(r) = &all[0].2 {
        assert!(r.entries[0].registers <= 32, "{:?}", r.entries);
    }
}

#[test]
fn header_and_targets() {
    let mut b = KB::new("hdr");
    b.tid_x();
    let k = b.finish();
    let p = ptx::emit(&k, &opts(90)).unwrap();
    assert!(
        p.contains(".version 8.0\n.target sm_90\n.address_size 64\n"),
        "{p}"
    );
    assert!(p.contains(".visible .entry hdr("));
    assert!(ptx::emit(&k, &opts(60)).is_err());
    assert!(ptx::emit(&k, &opts(100)).unwrap().contains(".version 8.6"));
}

#[test]
fn intrinsic_templates_and_arity() {
    let mut b = KB::new("intr");
    let (out, _) = b.slice_param("out", false, Ty::U32);
    let names = [
        "tid.x",
        "tid.y",
        "tid.z",
        "ctaid.x",
        "ctaid.y",
        "ctaid.z",
        "ntid.x",
        "ntid.y",
        "ntid.z",
        "nctaid.x",
        "nctaid.y",
        "nctaid.z",
        "warp_size",
        "lane_id",
        "clock",
    ];
    for (i, n) in names.iter().enumerate() {
        let r = b.intrinsic(n, vec![])[0];
        let a = b.elem_addr(out, c(Ty::U32, i as u64), Ty::U32);
        b.store_global(a, v(r));
    }
    let r = b.intrinsic("clock64", vec![])[0];
    let a = b.elem_addr(out, c(Ty::U32, 40), Ty::U32);
    b.store_global(a, v(r));
    b.intrinsic("sync_threads", vec![]);
    let p = check(&b.finish());
    assert_line(&p, "%laneid");
    assert_line(&p, "WARP_SZ");
    assert_line(&p, "%clock64");

    let mut b = KB::new("bad_arity");
    let d = b.var(Ty::U32);
    let id = kernel_std::intrinsics::lookup("tid.x").unwrap();
    b.push(Inst::Intrinsic {
        id,
        dsts: vec![d],
        args: vec![c(Ty::U32, 1)],
    });
    assert!(ptx::emit(&b.finish(), &opts(80)).is_err());
}

#[test]
fn ptxas_rejects_bad_ptx_and_reports_entries() {
    if kernel_testkit::ptxas::require_ptxas().is_none() {
        return;
    }
    let err = kernel_testkit::ptxas::assemble(
        ".version 8.0\n.target sm_80\n.address_size 64\nnonsense",
        80,
    )
    .unwrap_err();
    assert!(err.contains("error") || err.contains("fatal"), "{err}");
    let mut b = KB::new("two_regs");
    b.tid_x();
    let r =
        kernel_testkit::ptxas::assemble(&ptx::emit(&b.finish(), &opts(80)).unwrap(), 80).unwrap();
    assert_eq!(r.entries.len(), 1);
    assert_eq!(r.entries[0].name, "two_regs");
    assert!(!r.cubin.is_empty());
}
