//! Plain loads and stores of CUDA vector-type elements (`let v = p[i]`, `q[i] = make_uchar4(..)`,
//! `p[i].x` then `p[i].y`), which `passes::vector_access` makes one `ld`/`st.v2`/`v4`: the
//! values are those of the field-by-field accesses, through views that start at any element
//! (a view keeps the element's alignment: the simulator faults a misaligned vector access),
//! and the PTX holds the vector accesses and assembles.

use crate::intr_common;

use ferrocuda::kernel_compiler::{compile, CompileOptions};
use ferrocuda::prelude::*;
use intr_common::{assembles, gpu, sim};

#[kernel]
pub fn vector_moves(
    f: &[float4],
    u: &[uchar4],
    g: &[int2],
    fo: &mut [float4],
    uo: &mut [uchar4],
    go: &mut [int2],
) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    if i < f.len() {
        let v = f[i];
        fo[i] = make_float4(v.w, v.z * 2.0, v.y, v.x + 1.0);
        let p = u[i];
        uo[i] = uchar4 {
            x: p.z,
            y: p.y.wrapping_add(1),
            z: p.x,
            w: p.w,
        };
        // Field reads of one element, then a whole-element store.
        let (a, b) = (g[i].x, g[i].y);
        go[i] = make_int2(b, a - 3);
    }
}

fn check(dev: &Device) {
    let n = 37;
    let f: Vec<float4> = (0..n)
        .map(|k| float4::new(k as f32, 0.5 * k as f32, -(k as f32), 3.0 + k as f32))
        .collect();
    let u: Vec<uchar4> = (0..n)
        .map(|k| uchar4::new(k as u8, (3 * k) as u8, (200 + k) as u8, 255 - k as u8))
        .collect();
    let g: Vec<int2> = (0..n)
        .map(|k| int2::new(k as i32 * 7, -(k as i32)))
        .collect();
    let stream = dev.new_stream().unwrap();
    let (df, du, dg) = (
        dev.upload(&f).unwrap(),
        dev.upload(&u).unwrap(),
        dev.upload(&g).unwrap(),
    );
    // Whole buffers, then views starting at elements 1 and 3 of every buffer.
    for start in [0usize, 1, 3] {
        let m = n - start;
        let mut fo = dev.upload(&vec![float4::default(); m]).unwrap();
        let mut uo = dev.upload(&vec![uchar4::default(); m]).unwrap();
        let mut go = dev.upload(&vec![int2::default(); m]).unwrap();
        vector_moves::launch(
            &stream,
            LaunchConfig::for_elements(m, 32),
            &df.view(start..).unwrap(),
            &du.view(start..).unwrap(),
            &dg.view(start..).unwrap(),
            &mut fo,
            &mut uo,
            &mut go,
        )
        .unwrap();
        let (fo, uo, go) = (
            fo.to_vec().unwrap(),
            uo.to_vec().unwrap(),
            go.to_vec().unwrap(),
        );
        for k in 0..m {
            let (v, p, q) = (f[start + k], u[start + k], g[start + k]);
            assert_eq!(
                fo[k],
                float4::new(v.w, v.z * 2.0, v.y, v.x + 1.0),
                "float4 {k}"
            );
            assert_eq!(
                uo[k],
                uchar4::new(p.z, p.y.wrapping_add(1), p.x, p.w),
                "uchar4 {k}"
            );
            assert_eq!(go[k], int2::new(q.y, q.x - 3), "int2 {k}");
        }
    }
}

#[test]
fn vector_elements_move_whole_with_their_values_sim() {
    check(&sim());
}

#[test]
#[ignore = "needs a GPU"]
fn vector_elements_move_whole_with_their_values_gpu() {
    if let Some(d) = gpu() {
        check(&d);
    }
}

#[test]
fn vector_elements_are_single_vector_accesses_in_ptx() {
    assembles(vector_moves::ast());
    let c = compile(vector_moves::ast(), &[], &CompileOptions::default()).unwrap();
    for want in [
        "ld.global.nc.v4.f32",
        "st.global.v4.f32",
        "ld.global.nc.v4.u8",
        "st.global.v4.u8",
        "ld.global.nc.v2.s32",
        "st.global.v2.s32",
    ] {
        assert!(c.ptx.contains(want), "no `{want}` in:\n{}", c.ptx);
    }
    assert!(
        !c.ptx.contains("ld.global.nc.f32"),
        "a field-by-field load:\n{}",
        c.ptx
    );
}

/// The porting corpus's RGBA gain and bias written on `uchar4` (its twin's type): the pixel is
/// one 4-byte load and one 4-byte store (`[u8; 4]`, 1-aligned, stays byte by byte).
#[kernel]
pub fn rgba_adjust_uchar4(src: &[uchar4], dst: &mut [uchar4], n: i32, gain: f32, bias: f32) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    if i < n as usize {
        let p = src[i];
        let r = (p.x as f32 * gain + bias).max(0.0).min(255.0) as u8;
        let g = (p.y as f32 * gain + bias).max(0.0).min(255.0) as u8;
        let b = (p.z as f32 * gain + bias).max(0.0).min(255.0) as u8;
        dst[i] = make_uchar4(r, g, b, p.w);
    }
}

#[test]
fn uchar4_pixels_are_one_access_each_in_ptx() {
    assembles(rgba_adjust_uchar4::ast());
    let c = compile(rgba_adjust_uchar4::ast(), &[], &CompileOptions::default()).unwrap();
    if std::env::var_os("VECTOR_ACCESS_PRINT_PTX").is_some() {
        println!("{}", c.ptx);
    }
    for want in ["ld.global.nc.v4.u8", "st.global.v4.u8"] {
        assert!(c.ptx.contains(want), "no `{want}` in:\n{}", c.ptx);
    }
    assert!(
        !c.ptx.contains("ld.global.nc.u8"),
        "a byte load:\n{}",
        c.ptx
    );
}
