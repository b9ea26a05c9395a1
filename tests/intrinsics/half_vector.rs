//! f16/bf16 intrinsics, `half2`/`bfloat162` lane operations, rounding-mode conversions and the
//! CUDA vector types, against CPU references built on the `half` crate: on the simulator, on a GPU
//! (`--ignored`), and assembled by ptxas for sm_80 and sm_90.

use crate::intr_common;

use ferrocuda::prelude::*;
use intr_common::{assembles, gpu, sim};

const HS: usize = 15;

#[kernel]
pub fn half_scalar(
    a: &[f16],
    b: &[f16],
    c: &[f16],
    out: &mut [f16],
    flags: &mut [u32],
    ints: &mut [i32],
    conv: &mut [f16],
) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    if i < a.len() {
        let (x, y, z) = (a[i], b[i], c[i]);
        let o = i * HS;
        out[o] = hadd(x, y);
        out[o + 1] = hsub(x, y);
        out[o + 2] = hmul(x, y);
        out[o + 3] = hfma(x, y, z);
        out[o + 4] = hneg(x);
        out[o + 5] = habs(x);
        out[o + 6] = hmin(x, y);
        out[o + 7] = hmax(x, y);
        let f = f16_to_f32(x) * 1.000_1;
        out[o + 8] = f32_to_f16_rn(f);
        out[o + 9] = f32_to_f16_rz(f);
        out[o + 10] = f32_to_f16_ru(f);
        out[o + 11] = f32_to_f16_rd(f);
        out[o + 12] = f32_to_f16_rz(f16_to_f32(x) * 70000.0);
        out[o + 13] = f32_to_f16_ru(-f16_to_f32(x) * 70000.0);
        out[o + 14] = f32_to_f16_rd(f16_to_f32(z) * 1.0e-6);
        let q = hmul(x, f32_to_f16_rn(0.37));
        ints[4 * i] = f16_to_i32_rn(q);
        ints[4 * i + 1] = f16_to_i32_rz(q);
        ints[4 * i + 2] = f16_to_i32_ru(q);
        ints[4 * i + 3] = f16_to_i32_rd(q);
        let m = f16_to_f32(y) as i32 * 13 + 2049;
        conv[4 * i] = i32_to_f16_rn(m);
        conv[4 * i + 1] = i32_to_f16_rz(m);
        conv[4 * i + 2] = i32_to_f16_ru(m);
        conv[4 * i + 3] = i32_to_f16_rd(m);
        flags[i] = heq(x, y) as u32
            | (hne(x, y) as u32) << 1
            | (hlt(x, y) as u32) << 2
            | (hle(x, y) as u32) << 3
            | (hgt(x, y) as u32) << 4
            | (hge(x, y) as u32) << 5
            | (hisnan(x) as u32) << 6;
    }
}

const BS: usize = 11;

#[kernel]
pub fn bf16_scalar(
    a: &[bf16],
    b: &[bf16],
    c: &[bf16],
    f: &[f32],
    out: &mut [bf16],
    wide: &mut [f32],
) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    if i < a.len() {
        let (x, y, z) = (a[i], b[i], c[i]);
        let o = i * BS;
        out[o] = hadd_bf16(x, y);
        out[o + 1] = hsub_bf16(x, y);
        out[o + 2] = hmul_bf16(x, y);
        out[o + 3] = hfma_bf16(x, y, z);
        out[o + 4] = hneg_bf16(x);
        out[o + 5] = habs_bf16(x);
        out[o + 6] = hmin_bf16(x, y);
        out[o + 7] = hmax_bf16(x, y);
        out[o + 8] = f32_to_bf16_rn(f[i]);
        out[o + 9] = f32_to_bf16_rz(f[i]);
        out[o + 10] = f32_to_bf16_rn(-f[i]);
        wide[i] = bf16_to_f32(x);
    }
}

/// bf16 rounding up and down need sm_90 (`cvt.rp/rm.bf16.f32`).
#[kernel]
pub fn bf16_directed(f: &[f32], out: &mut [bf16]) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    if i < f.len() {
        out[2 * i] = f32_to_bf16_ru(f[i]);
        out[2 * i + 1] = f32_to_bf16_rd(f[i]);
    }
}

const PS: usize = 14;

#[kernel]
pub fn pairs(a: &[half2], b: &[half2], c: &[half2], out: &mut [half2], bo: &mut [bfloat162]) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    if i < a.len() {
        let (x, y, z) = (a[i], b[i], c[i]);
        let o = i * PS;
        out[o] = hadd2(x, y);
        out[o + 1] = hsub2(x, y);
        out[o + 2] = hmul2(x, y);
        out[o + 3] = hmin2(x, y);
        out[o + 4] = hmax2(x, y);
        out[o + 5] = hfma2(x, y, z);
        out[o + 6] = hneg2(x);
        out[o + 7] = habs2(x);
        out[o + 8] = heq2(x, y);
        out[o + 9] = hne2(x, y);
        out[o + 10] = hlt2(x, y);
        out[o + 11] = hle2(x, y);
        out[o + 12] = hgt2(x, y);
        out[o + 13] = hge2(make_half2(y.x, x.y), floats_to_half2_rn(0.5, -2.0));
        let bx = make_bfloat162(
            f32_to_bf16_rn(f16_to_f32(x.x)),
            f32_to_bf16_rn(f16_to_f32(x.y)),
        );
        let by = make_bfloat162(
            f32_to_bf16_rn(f16_to_f32(y.x)),
            f32_to_bf16_rn(f16_to_f32(y.y)),
        );
        let bz = make_bfloat162(
            f32_to_bf16_rn(f16_to_f32(z.x)),
            f32_to_bf16_rn(f16_to_f32(z.y)),
        );
        let ob = i * 8;
        bo[ob] = hadd2_bf16(bx, by);
        bo[ob + 1] = hsub2_bf16(bx, by);
        bo[ob + 2] = hmul2_bf16(bx, by);
        bo[ob + 3] = hmin2_bf16(bx, by);
        bo[ob + 4] = hmax2_bf16(bx, by);
        bo[ob + 5] = hfma2_bf16(bx, by, bz);
        bo[ob + 6] = hneg2_bf16(bx);
        bo[ob + 7] = habs2_bf16(bx);
    }
}

/// Vector types: constructors, field access, and slices of them in and out.
#[kernel]
pub fn vectors(
    a: &[float4],
    b: &[float2],
    c: &[int4],
    d: &[double2],
    o4: &mut [float4],
    o2: &mut [float2],
    oi: &mut [int4],
    od: &mut [double2],
    o3: &mut [float3],
    ou: &mut [uchar4],
) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    if i < a.len() {
        let v = a[i];
        let w = b[i];
        o4[i] = make_float4(v.x + w.x, v.y * w.y, v.z - 1.0, v.w);
        o2[i] = make_float2(w.y, w.x);
        let k = c[i];
        oi[i] = make_int4(k.w, k.z, k.y, k.x + 1);
        let e = d[i];
        od[i] = make_double2(e.x * 2.0, e.y + e.x);
        o3[i] = make_float3(v.x, v.y, v.z);
        ou[i] = make_uchar4(k.x as u8, k.y as u8, k.z as u8, 255);
    }
}

/// Vector types through the hinted loads and stores: one 8- or 16-byte access each.
#[kernel]
pub fn vector_hinted(
    a: &[float4],
    d: &[double2],
    h: &[half2],
    k: &[int2],
    o4: &mut [float4],
    od: &mut [double2],
    oh: &mut [half2],
    ok: &mut [int2],
) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    if i < a.len() {
        let v = ldg(&a[i]);
        stcs(&mut o4[i], make_float4(v.w, v.z, v.y, v.x));
        let e = ldcs(&d[i]);
        stwt(&mut od[i], make_double2(e.y, e.x));
        let p = ldcg(&h[i]);
        stcg(&mut oh[i], hadd2(p, p));
        let q = ldcv(&k[i]);
        stwb(&mut ok[i], make_int2(q.x + q.y, q.y));
    }
}

fn vector_hinted_on(dev: &Device, n: usize) {
    let a: Vec<float4> = (0..n)
        .map(|i| float4::new(i as f32, 1.0, 2.0, -3.5))
        .collect();
    let d: Vec<double2> = (0..n)
        .map(|i| double2::new(i as f64 * 0.25, -1.0))
        .collect();
    let h: Vec<half2> = (0..n).map(|i| half2::new(hv(i as f32), hv(-0.5))).collect();
    let k: Vec<int2> = (0..n as i32).map(|i| int2::new(i, -2 * i)).collect();
    let s = dev.new_stream().unwrap();
    let (da, dd, dh, dk) = (
        dev.upload(&a).unwrap(),
        dev.upload(&d).unwrap(),
        dev.upload(&h).unwrap(),
        dev.upload(&k).unwrap(),
    );
    let mut o4 = dev.upload(&vec![float4::default(); n]).unwrap();
    let mut od = dev.upload(&vec![double2::default(); n]).unwrap();
    let mut oh = dev.upload(&vec![half2::default(); n]).unwrap();
    let mut ok = dev.upload(&vec![int2::default(); n]).unwrap();
    vector_hinted::launch(
        &s,
        LaunchConfig::for_elements(n, 64),
        &da,
        &dd,
        &dh,
        &dk,
        &mut o4,
        &mut od,
        &mut oh,
        &mut ok,
    )
    .unwrap();
    let (g4, gd, gh, gk) = (
        o4.to_vec().unwrap(),
        od.to_vec().unwrap(),
        oh.to_vec().unwrap(),
        ok.to_vec().unwrap(),
    );
    for i in 0..n {
        let v = a[i];
        assert_eq!(g4[i], float4::new(v.w, v.z, v.y, v.x));
        assert_eq!(gd[i], double2::new(d[i].y, d[i].x));
        let p = h[i];
        assert_eq!(
            gh[i],
            half2::new(hv(p.x.to_f32() * 2.0), hv(p.y.to_f32() * 2.0))
        );
        assert_eq!(gk[i], int2::new(k[i].x + k[i].y, k[i].y));
    }
}

/// Structs without a vector shape (`float3`, byte lanes) go field by field through the hints.
#[kernel]
pub fn fieldwise_hinted(a: &[float3], b: &[uchar4], oa: &mut [float3], ob: &mut [uchar4]) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    if i < a.len() {
        let v = ldg(&a[i]);
        stcs(&mut oa[i], make_float3(v.z, v.y, v.x));
        let c = ldcs(&b[i]);
        stwt(&mut ob[i], make_uchar4(c.w, c.z, c.y, c.x));
    }
}

#[test]
fn structs_of_scalars_go_field_by_field_through_hints() {
    let n = 100;
    let a: Vec<float3> = (0..n).map(|i| float3::new(i as f32, -1.0, 0.25)).collect();
    let b: Vec<uchar4> = (0..n).map(|i| uchar4::new(i as u8, 1, 2, 200)).collect();
    let dev = sim();
    let s = dev.new_stream().unwrap();
    let (da, db) = (dev.upload(&a).unwrap(), dev.upload(&b).unwrap());
    let mut oa = dev.upload(&vec![float3::default(); n]).unwrap();
    let mut ob = dev.upload(&vec![uchar4::default(); n]).unwrap();
    fieldwise_hinted::launch(
        &s,
        LaunchConfig::for_elements(n, 64),
        &da,
        &db,
        &mut oa,
        &mut ob,
    )
    .unwrap();
    let (ga, gb) = (oa.to_vec().unwrap(), ob.to_vec().unwrap());
    for i in 0..n {
        assert_eq!(ga[i], float3::new(a[i].z, a[i].y, a[i].x));
        assert_eq!(gb[i], uchar4::new(b[i].w, b[i].z, b[i].y, b[i].x));
    }
    let ptx =
        ferrocuda::kernel_compiler::compile(fieldwise_hinted::ast(), &[], &Default::default())
            .unwrap()
            .ptx;
    assert_eq!(ptx.matches("ld.global.nc.f32").count(), 3, "{ptx}");
    assert_eq!(ptx.matches("st.global.wt.u8").count(), 4, "{ptx}");
    assembles(fieldwise_hinted::ast());
}

#[test]
fn vector_types_move_in_one_access_through_hinted_loads_and_stores() {
    vector_hinted_on(&sim(), 200);
    let ptx = ferrocuda::kernel_compiler::compile(vector_hinted::ast(), &[], &Default::default())
        .unwrap()
        .ptx;
    for ins in [
        "ld.global.nc.v4.f32",
        "st.global.cs.v4.f32",
        "ld.global.cs.v2.f64",
        "st.global.wt.v2.f64",
        "ld.global.cg.v2.b16",
        "st.global.cg.v2.b16",
        "ld.global.cv.v2.s32",
        "st.global.wb.v2.s32",
    ] {
        assert!(ptx.contains(ins), "{ins} missing:\n{ptx}");
    }
    assembles(vector_hinted::ast());
}

// ---------------------------------------------------------------------------------------------

fn hv(x: f32) -> f16 {
    f16::from_f32(x)
}
fn inputs_h(n: usize, seed: u32) -> Vec<f16> {
    let special = [
        0.0f32, 1.0, -1.0, 0.5, 65504.0, -65504.0, 6.1e-5, 3.0e-7, 1.0e-3, 100.0,
    ];
    (0..n)
        .map(|i| {
            if i < special.len() {
                hv(special[(i + seed as usize) % special.len()])
            } else {
                let k = (i as u32)
                    .wrapping_mul(2_654_435_761)
                    .wrapping_add(seed * 97);
                hv(((k % 20001) as f32 - 10000.0) / 137.0)
            }
        })
        .collect()
}

/// Rounds `x` to f16 in a direction by searching the two f16 neighbours of the nearest value.
fn f16_directed(x: f32, mode: char) -> f16 {
    let n = f16::from_f32(x);
    let cands = [
        f16::from_bits(n.to_bits().wrapping_sub(1)),
        n,
        f16::from_bits(n.to_bits().wrapping_add(1)),
    ];
    let ok = |c: &f16| {
        let v = c.to_f32();
        !v.is_nan()
            && match mode {
                'z' => v.abs() <= x.abs() && v.signum() * x.signum() >= 0.0,
                'u' => v >= x,
                _ => v <= x,
            }
    };
    // The best candidate is the one closest to x among those on the allowed side.
    let mut best: Option<f16> = None;
    for c in cands.iter().filter(|c| ok(c)) {
        if best.is_none_or(|b| (c.to_f32() - x).abs() < (b.to_f32() - x).abs()) {
            best = Some(*c);
        }
    }
    best.unwrap_or(n)
}

fn eq_h(a: f16, b: f16) -> bool {
    (a.is_nan() && b.is_nan()) || a.to_bits() == b.to_bits() || (a == b && a.to_f32() == 0.0)
}

fn half_scalar_on(dev: &Device, n: usize) {
    let (a, b, c) = (inputs_h(n, 0), inputs_h(n, 3), inputs_h(n, 7));
    let s = dev.new_stream().unwrap();
    let (da, db, dc) = (
        dev.upload(&a).unwrap(),
        dev.upload(&b).unwrap(),
        dev.upload(&c).unwrap(),
    );
    let mut out = dev.upload(&vec![f16::NAN; n * HS]).unwrap();
    let mut flags = dev.upload(&vec![u32::MAX; n]).unwrap();
    let mut ints = dev.upload(&vec![i32::MIN; 4 * n]).unwrap();
    let mut conv = dev.upload(&vec![f16::NAN; 4 * n]).unwrap();
    half_scalar::launch(
        &s,
        LaunchConfig::for_elements(n, 64),
        &da,
        &db,
        &dc,
        &mut out,
        &mut flags,
        &mut ints,
        &mut conv,
    )
    .unwrap();
    let (got, gf) = (out.to_vec().unwrap(), flags.to_vec().unwrap());
    let (gi, gc) = (ints.to_vec().unwrap(), conv.to_vec().unwrap());
    for i in 0..n {
        let (x, y, z) = (a[i].to_f32(), b[i].to_f32(), c[i].to_f32());
        let f = x * 1.000_1;
        let want = [
            hv(x + y),
            hv(x - y),
            hv(x * y),
            f16::from_f64((x as f64).mul_add(y as f64, z as f64)),
            -a[i],
            hv(x.abs()),
            hv(x.min(y)),
            hv(x.max(y)),
            hv(f),
            f16_directed(f, 'z'),
            f16_directed(f, 'u'),
            f16_directed(f, 'd'),
            f16_directed(x * 70000.0, 'z'),
            f16_directed(-x * 70000.0, 'u'),
            f16_directed(z * 1.0e-6, 'd'),
        ];
        for (k, w) in want.iter().enumerate() {
            let g = got[i * HS + k];
            assert!(
                eq_h(g, *w),
                "op {k} on {x} {y} {z}: got {g} ({:#x}), want {w} ({:#x})",
                g.to_bits(),
                w.to_bits()
            );
        }
        let wf = (x == y) as u32
            | ((x != y) as u32) << 1
            | ((x < y) as u32) << 2
            | ((x <= y) as u32) << 3
            | ((x > y) as u32) << 4
            | ((x >= y) as u32) << 5;
        assert_eq!(gf[i], wf, "comparisons of {x} {y}");
        let q = hv(x * hv(0.37).to_f32()).to_f32();
        let want_i = [
            q.round_ties_even() as i32,
            q.trunc() as i32,
            q.ceil() as i32,
            q.floor() as i32,
        ];
        assert_eq!(&gi[4 * i..4 * i + 4], &want_i, "f16 {q} to i32");
        let m = (y as i32 * 13 + 2049) as f32;
        let want_c = [
            hv(m),
            f16_directed(m, 'z'),
            f16_directed(m, 'u'),
            f16_directed(m, 'd'),
        ];
        for (k, w) in want_c.iter().enumerate() {
            let g = gc[4 * i + k];
            assert!(eq_h(g, *w), "i32 {m} to f16 mode {k}: got {g}, want {w}");
        }
    }
}

fn bv(x: f32) -> bf16 {
    bf16::from_f32(x)
}

fn bf16_directed_ref(x: f32, up: bool) -> bf16 {
    let n = bf16::from_f32(x);
    let v = n.to_f32();
    if (up && v < x) || (!up && v > x) {
        let bits = n.to_bits();
        let neg = bits & 0x8000 != 0;
        bf16::from_bits(if neg == up { bits - 1 } else { bits + 1 })
    } else {
        n
    }
}

fn bf16_scalar_on(dev: &Device, n: usize) {
    let conv = |v: Vec<f16>| -> Vec<bf16> { v.iter().map(|h| bv(h.to_f32() * 3.3)).collect() };
    let (a, b, c) = (
        conv(inputs_h(n, 0)),
        conv(inputs_h(n, 3)),
        conv(inputs_h(n, 7)),
    );
    let f: Vec<f32> = (0..n)
        .map(|i| (i as f32 - 77.7) * 1.234_567_9e3 + 0.3)
        .collect();
    let s = dev.new_stream().unwrap();
    let (da, db, dc, df) = (
        dev.upload(&a).unwrap(),
        dev.upload(&b).unwrap(),
        dev.upload(&c).unwrap(),
        dev.upload(&f).unwrap(),
    );
    let mut out = dev.upload(&vec![bf16::NAN; n * BS]).unwrap();
    let mut wide = dev.upload(&vec![f32::NAN; n]).unwrap();
    bf16_scalar::launch(
        &s,
        LaunchConfig::for_elements(n, 64),
        &da,
        &db,
        &dc,
        &df,
        &mut out,
        &mut wide,
    )
    .unwrap();
    let (got, gw) = (out.to_vec().unwrap(), wide.to_vec().unwrap());
    for i in 0..n {
        let (x, y, z) = (a[i].to_f32(), b[i].to_f32(), c[i].to_f32());
        let rz = {
            let t = f[i].to_bits() & 0xffff_0000;
            bf16::from_bits((t >> 16) as u16)
        };
        let want = [
            bv(x + y),
            bv(x - y),
            bv(x * y),
            bf16::from_f64((x as f64).mul_add(y as f64, z as f64)),
            -a[i],
            bv(x.abs()),
            bv(x.min(y)),
            bv(x.max(y)),
            bv(f[i]),
            rz,
            bv(-f[i]),
        ];
        for (k, w) in want.iter().enumerate() {
            let g = got[i * BS + k];
            assert!(
                g.to_bits() == w.to_bits() || (g == *w),
                "op {k} on {x} {y} {z} {}: got {g}, want {w}",
                f[i]
            );
        }
        assert_eq!(gw[i], x);
    }
}

fn directed_inputs(n: usize) -> Vec<f32> {
    (0..n)
        .map(|i| (i as f32 - 50.3) * 3.217_3e-2 + 1.0e-3)
        .collect()
}

fn bf16_directed_on(dev: &Device, n: usize) {
    let f = directed_inputs(n);
    let s = dev.new_stream().unwrap();
    let df = dev.upload(&f).unwrap();
    let mut out = dev.upload(&vec![bf16::NAN; 2 * n]).unwrap();
    bf16_directed::launch(&s, LaunchConfig::for_elements(n, 64), &df, &mut out).unwrap();
    check_directed(&f, &out.to_vec().unwrap());
}

/// sm_80, the simulator's default target, lacks these conversions: run the sm_90 IR on a
/// simulator standing for sm_90.
fn bf16_directed_on_sim_sm90(n: usize) {
    use ferrocuda::kernel_sim::{self as sim, GlobalMemory, SimLaunch};
    let opts = ferrocuda::kernel_compiler::CompileOptions {
        sm: 90,
        ..Default::default()
    };
    let c = ferrocuda::kernel_compiler::compile(bf16_directed::ast(), &[], &opts).unwrap();
    let f = directed_inputs(n);
    let mut mem = GlobalMemory::new();
    let fb: Vec<u8> = f.iter().flat_map(|v| v.to_le_bytes()).collect();
    let fa = mem.alloc(fb.len());
    mem.write(fa, &fb).unwrap();
    let oa = mem.alloc(4 * n);
    let param = |addr: u64, len: usize| {
        let mut p = addr.to_le_bytes().to_vec();
        p.extend_from_slice(&(len as u64).to_le_bytes());
        p
    };
    let (p0, p1) = (param(fa, n), param(oa, 2 * n));
    let cfg = SimLaunch::linear(n.div_ceil(64) as u32, 64).on(sim::Target::SM_90);
    sim::launch(&c.kernel, &cfg, &[&p0, &p1], &mut mem).unwrap();
    let mut ob = vec![0u8; 4 * n];
    mem.read(oa, &mut ob).unwrap();
    let got: Vec<bf16> = ob
        .chunks(2)
        .map(|b| bf16::from_bits(u16::from_le_bytes([b[0], b[1]])))
        .collect();
    check_directed(&f, &got);
}

fn check_directed(f: &[f32], got: &[bf16]) {
    let n = f.len();
    for i in 0..n {
        assert_eq!(
            got[2 * i].to_bits(),
            bf16_directed_ref(f[i], true).to_bits(),
            "ru {}",
            f[i]
        );
        assert_eq!(
            got[2 * i + 1].to_bits(),
            bf16_directed_ref(f[i], false).to_bits(),
            "rd {}",
            f[i]
        );
    }
}

fn pairs_on(dev: &Device, n: usize) {
    let mk = |s: u32| -> Vec<half2> {
        let (p, q) = (inputs_h(n, s), inputs_h(n, s + 11));
        p.iter().zip(&q).map(|(x, y)| half2::new(*x, *y)).collect()
    };
    let (a, b, c) = (mk(0), mk(3), mk(5));
    let s = dev.new_stream().unwrap();
    let (da, db, dc) = (
        dev.upload(&a).unwrap(),
        dev.upload(&b).unwrap(),
        dev.upload(&c).unwrap(),
    );
    let mut out = dev.upload(&vec![half2::default(); n * PS]).unwrap();
    let mut bo = dev.upload(&vec![bfloat162::default(); n * 8]).unwrap();
    pairs::launch(
        &s,
        LaunchConfig::for_elements(n, 64),
        &da,
        &db,
        &dc,
        &mut out,
        &mut bo,
    )
    .unwrap();
    let (got, gb) = (out.to_vec().unwrap(), bo.to_vec().unwrap());
    let one = |c: bool| hv(if c { 1.0 } else { 0.0 });
    for i in 0..n {
        let lanes = |p: half2| [p.x.to_f32(), p.y.to_f32()];
        let (x, y, z) = (lanes(a[i]), lanes(b[i]), lanes(c[i]));
        let cmp_l = [y[0], x[1]];
        let cmp_r = [0.5f32, -2.0];
        for l in 0..2 {
            let want = [
                hv(x[l] + y[l]),
                hv(x[l] - y[l]),
                hv(x[l] * y[l]),
                hv(x[l].min(y[l])),
                hv(x[l].max(y[l])),
                f16::from_f64((x[l] as f64).mul_add(y[l] as f64, z[l] as f64)),
                hv(-x[l]),
                hv(x[l].abs()),
                one(x[l] == y[l]),
                one(x[l] != y[l]),
                one(x[l] < y[l]),
                one(x[l] <= y[l]),
                one(x[l] > y[l]),
                one(cmp_l[l] >= cmp_r[l]),
            ];
            for (k, w) in want.iter().enumerate() {
                let g = got[i * PS + k];
                let g = if l == 0 { g.x } else { g.y };
                assert!(
                    eq_h(g, *w),
                    "half2 op {k} lane {l} on {x:?} {y:?} {z:?}: got {g}, want {w}"
                );
            }
            let (bx, by, bz) = (bv(x[l]).to_f32(), bv(y[l]).to_f32(), bv(z[l]).to_f32());
            let want_b = [
                bv(bx + by),
                bv(bx - by),
                bv(bx * by),
                bv(bx.min(by)),
                bv(bx.max(by)),
                bf16::from_f64((bx as f64).mul_add(by as f64, bz as f64)),
                bv(-bx),
                bv(bx.abs()),
            ];
            for (k, w) in want_b.iter().enumerate() {
                let g = gb[i * 8 + k];
                let g = if l == 0 { g.x } else { g.y };
                assert!(
                    g.to_bits() == w.to_bits() || g == *w,
                    "bfloat162 op {k} lane {l}: got {g}, want {w}"
                );
            }
        }
    }
}

fn vectors_on(dev: &Device, n: usize) {
    let a: Vec<float4> = (0..n)
        .map(|i| float4::new(i as f32, 0.5, -(i as f32), 3.0))
        .collect();
    let b: Vec<float2> = (0..n).map(|i| float2::new(1.5, i as f32 * 2.0)).collect();
    let c: Vec<int4> = (0..n as i32)
        .map(|i| int4::new(i, i + 1, -i, 7 * i))
        .collect();
    let d: Vec<double2> = (0..n)
        .map(|i| double2::new(i as f64 / 3.0, 1.0e300))
        .collect();
    let s = dev.new_stream().unwrap();
    let (da, db, dc, dd) = (
        dev.upload(&a).unwrap(),
        dev.upload(&b).unwrap(),
        dev.upload(&c).unwrap(),
        dev.upload(&d).unwrap(),
    );
    let mut o4 = dev.upload(&vec![float4::default(); n]).unwrap();
    let mut o2 = dev.upload(&vec![float2::default(); n]).unwrap();
    let mut oi = dev.upload(&vec![int4::default(); n]).unwrap();
    let mut od = dev.upload(&vec![double2::default(); n]).unwrap();
    let mut o3 = dev.upload(&vec![float3::default(); n]).unwrap();
    let mut ou = dev.upload(&vec![uchar4::default(); n]).unwrap();
    vectors::launch(
        &s,
        LaunchConfig::for_elements(n, 64),
        &da,
        &db,
        &dc,
        &dd,
        &mut o4,
        &mut o2,
        &mut oi,
        &mut od,
        &mut o3,
        &mut ou,
    )
    .unwrap();
    let (g4, g2, gi, gd, g3, gu) = (
        o4.to_vec().unwrap(),
        o2.to_vec().unwrap(),
        oi.to_vec().unwrap(),
        od.to_vec().unwrap(),
        o3.to_vec().unwrap(),
        ou.to_vec().unwrap(),
    );
    for i in 0..n {
        let (v, w, k, e) = (a[i], b[i], c[i], d[i]);
        assert_eq!(g4[i], float4::new(v.x + w.x, v.y * w.y, v.z - 1.0, v.w));
        assert_eq!(g2[i], float2::new(w.y, w.x));
        assert_eq!(gi[i], int4::new(k.w, k.z, k.y, k.x + 1));
        assert_eq!(gd[i], double2::new(e.x * 2.0, e.y + e.x));
        assert_eq!(g3[i], float3::new(v.x, v.y, v.z));
        assert_eq!(gu[i], uchar4::new(k.x as u8, k.y as u8, k.z as u8, 255));
    }
}

#[test]
fn vector_types_have_cuda_sizes_and_alignments() {
    use std::mem::{align_of, size_of};
    assert_eq!((size_of::<float2>(), align_of::<float2>()), (8, 8));
    assert_eq!((size_of::<float3>(), align_of::<float3>()), (12, 4));
    assert_eq!((size_of::<float4>(), align_of::<float4>()), (16, 16));
    assert_eq!((size_of::<int2>(), align_of::<int2>()), (8, 8));
    assert_eq!((size_of::<int4>(), align_of::<int4>()), (16, 16));
    assert_eq!((size_of::<uint4>(), align_of::<uint4>()), (16, 16));
    assert_eq!((size_of::<double2>(), align_of::<double2>()), (16, 16));
    assert_eq!((size_of::<char4>(), align_of::<char4>()), (4, 4));
    assert_eq!((size_of::<short2>(), align_of::<short2>()), (4, 4));
    assert_eq!((size_of::<longlong2>(), align_of::<longlong2>()), (16, 16));
    assert_eq!((size_of::<half2>(), align_of::<half2>()), (4, 4));
    assert_eq!((size_of::<bfloat162>(), align_of::<bfloat162>()), (4, 4));
}

#[test]
fn half_intrinsics_match_cpu_on_the_simulator() {
    half_scalar_on(&sim(), 300);
}

#[test]
fn bf16_intrinsics_match_cpu_on_the_simulator() {
    bf16_scalar_on(&sim(), 300);
    bf16_directed_on_sim_sm90(300);
}

#[test]
fn half2_and_bfloat162_lanes_match_cpu_on_the_simulator() {
    pairs_on(&sim(), 300);
}

#[test]
fn vector_types_round_trip_on_the_simulator() {
    vectors_on(&sim(), 100);
}

#[test]
fn half_and_vector_intrinsics_assemble_for_sm80_and_sm90() {
    assembles(half_scalar::ast());
    assembles(bf16_scalar::ast());
    assembles(pairs::ast());
    assembles(vectors::ast());
    // sm_90 only: compiling for sm_80 is refused with the entry's minimum.
    let opts = |sm| ferrocuda::kernel_compiler::CompileOptions {
        sm,
        ..Default::default()
    };
    let err =
        ferrocuda::kernel_compiler::compile(bf16_directed::ast(), &[], &opts(80)).unwrap_err();
    assert!(err.to_string().contains("sm_90"), "{err}");
    let c = ferrocuda::kernel_compiler::compile(bf16_directed::ast(), &[], &opts(90)).unwrap();
    if kernel_testkit::ptxas::require_ptxas().is_some() {
        kernel_testkit::ptxas::assemble(&c.ptx, 90).unwrap();
    }
}

#[test]
#[ignore = "needs a GPU"]
fn half_and_vector_intrinsics_on_the_gpu() {
    let Some(dev) = gpu() else { return };
    half_scalar_on(&dev, 1 << 14);
    bf16_scalar_on(&dev, 1 << 14);
    pairs_on(&dev, 1 << 14);
    vectors_on(&dev, 1 << 14);
    vector_hinted_on(&dev, 1 << 14);
    if dev.sm() >= 90 {
        bf16_directed_on(&dev, 1 << 14);
    }
}
