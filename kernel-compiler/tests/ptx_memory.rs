//! Global (read-only and writable), shared, dynamic shared and local-array accesses for every type,
//! plus struct parameters.

mod ptx_support;
use kernel_ir::ir::*;
use ptx_support::*;

fn memory_kernel(ty: Ty) -> Kernel {
    let mut b = KB::new(&format!("mem_{ty:?}").to_lowercase());
    let (inp, _) = b.slice_param("inp", true, ty);
    let (out, _) = b.slice_param("out", false, ty);
    b.k.shared.push(SharedAlloc {
        name: "tile".into(),
        bytes: 256 * ty.bytes(),
        align: 16,
    });
    b.k.uses_dyn_shared = true;
    b.k.arrays.push(LocalArray { elem: ty, len: 8 });
    let tid = b.tid_x();
    let ga = b.elem_addr(inp, v(tid), ty);
    let x = b.load_global(ty, ga, true);
    // Shared: tile[tid] = x; y = tile[tid ^ 1].
    let base = b.var(Ty::U32);
    b.push(Inst::SharedAddr {
        dst: base,
        alloc: SharedId(0),
    });
    let off = b.bin(BinOp::Mul, v(tid), c(Ty::U32, ty.bytes() as u64));
    let sa = b.bin(BinOp::Add, v(base), v(off));
    b.push(Inst::Store {
        space: Space::Shared,
        addr: v(sa),
        val: v(x),
    });
    b.intrinsic("sync_threads", vec![]);
    let y = b.var(ty);
    b.push(Inst::Load {
        dst: y,
        space: Space::Shared,
        addr: v(sa),
        readonly: false,
    });
    // Dynamic shared: dyn[0] = y when it fits.
    let dbase = b.var(Ty::U32);
    b.push(Inst::DynSharedAddr { dst: dbase });
    let dbytes = b.var(Ty::U32);
    b.push(Inst::DynSharedBytes { dst: dbytes });
    let fits = b.bin(BinOp::Ge, v(dbytes), c(Ty::U32, ty.bytes() as u64));
    b.if_(
        v(fits),
        |b| {
            b.push(Inst::Store {
                space: Space::Shared,
                addr: v(dbase),
                val: v(y),
            })
        },
        |_| {},
    );
    // Local array with a dynamic index (stays in .local).
    let i = b.bin(BinOp::And, v(tid), c(Ty::U32, 7));
    b.push(Inst::ArrayStore {
        array: ArrayId(0),
        idx: v(i),
        val: v(y),
    });
    b.push(Inst::ArrayStore {
        array: ArrayId(0),
        idx: c(Ty::U32, 3),
        val: v(x),
    });
    let z = b.var(ty);
    b.push(Inst::ArrayLoad {
        dst: z,
        array: ArrayId(0),
        idx: c(Ty::U32, 3),
    });
    let oa = b.elem_addr(out, v(tid), ty);
    b.store_global(oa, v(z));
    b.finish()
}

#[test]
fn every_type_through_every_space() {
    for ty in ALL_TYS {
        check(&memory_kernel(ty));
    }
}

#[test]
fn memory_lines() {
    let p = check(&memory_kernel(Ty::F32));
    for l in [
        "ld.global.nc.f32",
        "st.global.f32",
        ".shared .align 16 .b8 __fc_shared_0_tile[1024];",
        ", __fc_shared_0_tile;",
        "st.shared.f32",
        "ld.shared.f32",
        ".extern .shared .align 16 .b8 __fc_dyn_shared[];",
        "__fc_dyn_shared;",
        "%dynamic_smem_size",
        ".local .align 4 .b8 __fc_local_0[32];",
        "mad.lo.u32",
        "st.local.f32",
        "ld.local.f32",
        "bar.sync 0",
    ] {
        assert_line(&p, l);
    }
    let p = check(&memory_kernel(Ty::Bool));
    assert_line(&p, "st.shared.u8");
    assert_line(&p, "ld.local.u8");
    assert_line(&p, "setp.ne.u32");
    let p = check(&memory_kernel(Ty::BF16));
    assert_line(&p, "ld.global.nc.b16");
}

#[test]
fn writable_slices_use_coherent_loads() {
    let mut b = KB::new("rw");
    let (buf, _) = b.slice_param("buf", false, Ty::U32);
    let tid = b.tid_x();
    let a = b.elem_addr(buf, v(tid), Ty::U32);
    let x = b.load_global(Ty::U32, a, false);
    let y = b.bin(BinOp::Add, v(x), c(Ty::U32, 1));
    b.store_global(a, v(y));
    let p = check(&b.finish());
    assert_line(&p, "ld.global.u32");
    assert!(!p.contains(".nc"));
}

#[test]
fn scalar_and_struct_params() {
    let mut b = KB::new("params");
    let (out, _) = b.slice_param("out", false, Ty::U64);
    let mut vals = vec![];
    for (i, ty) in ALL_TYS.into_iter().enumerate() {
        vals.push(b.scalar_param(&format!("s{i}"), ty));
    }
    let pieces = b.struct_param(
        "my::Point<f32>",
        24,
        8,
        &[(0, Ty::F32), (4, Ty::Bool), (8, Ty::U64), (16, Ty::I16)],
    );
    vals.extend(pieces);
    for (n, x) in vals.into_iter().enumerate() {
        let a = b.elem_addr(out, c(Ty::U32, n as u64), Ty::U64);
        b.store_global(a, v(x));
    }
    let p = check(&b.finish());
    for l in [
        ".param .u8 p1_s0",
        ".param .s8 p2_s1",
        ".param .b16 p10_s9",
        ".param .f64 p13_s12",
        ".param .align 8 .b8 p14_my__Point_f32_[24]",
        "ld.param.u8 %r",
        "ld.param.u64 %rd",
        "[p14_my__Point_f32_+8]",
        "ld.param.s16 %r",
    ] {
        assert_line(&p, l);
    }
}
