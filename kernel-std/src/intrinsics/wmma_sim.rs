//! Simulator semantics of `wmma`: loads and stores move each thread's elements at the
//! positions `wmma_kinds` gives them; `mma` gathers the warp's fragments into whole matrices,
//! multiplies and hands every lane its elements of the result.
//!
//! An entry's semantics are a function of a constant code (const generic), since the table
//! holds plain function pointers: a load or store's code is `4 * kind + 2 * shared + col_major`,
//! an `mma`'s its index in `mma_forms()`.

use std::sync::OnceLock;

use half::{bf16, f16};
use kernel_ir::ir::Space;

use super::wmma_kinds::{mma_forms, Kind, Mma, Prec, KINDS};
use super::SimEnv;

/// The kind, memory space and layout a load or store code stands for.
fn decode(code: u32) -> (&'static Kind, Space, bool) {
    let kind = &KINDS[(code / 4) as usize];
    let space = if code & 2 != 0 {
        Space::Shared
    } else {
        Space::Global
    };
    (kind, space, code & 1 != 0)
}

/// The lane of the thread `env` runs (its linear index in the block, mod 32).
fn lane(env: &dyn SimEnv) -> u32 {
    let [x, y, z] = env.thread_idx();
    let [dx, dy, _] = env.block_dim();
    (x + dx * (y + dy * z)) % 32
}

/// The address of each element of the tile at `addr` with leading dimension `ldm`, checking
/// what the GPU requires: a 32-byte aligned tile and a leading dimension of a multiple of 16
/// bytes.
fn element_addrs(env: &mut dyn SimEnv, code: u32, addr: u64, ldm: u64) -> Vec<u64> {
    let (kind, space, col) = decode(code);
    let bytes = kind.prec.bytes() as u64;
    if !addr.is_multiple_of(32) {
        env.misaligned(format!(
            "wmma tile at {:?} address {addr:#x} is not 32-byte aligned",
            space
        ));
    }
    if !(ldm * bytes).is_multiple_of(16) {
        env.misaligned(format!(
            "wmma leading dimension {ldm} of {bytes}-byte elements is not a multiple of 16 bytes"
        ));
    }
    let lane = lane(env);
    (0..kind.count)
        .map(|i| {
            let (r, c) = kind.position(lane, i);
            let (major, minor) = if col { (c, r) } else { (r, c) };
            addr + (major as u64 * ldm + minor as u64) * bytes
        })
        .collect()
}

/// `wmma.load`: arguments (address, ldm); results the thread's elements.
pub(crate) fn sim_load<const C: u32>(env: &mut dyn SimEnv, a: &[u64], o: &mut [u64]) {
    let (kind, space, _) = decode(C);
    let bytes = kind.prec.bytes();
    for (o, at) in o.iter_mut().zip(element_addrs(env, C, a[0], a[1])) {
        *o = env.load(space, at, bytes);
    }
}

/// `wmma.store`: arguments (address, ldm, the thread's elements).
pub(crate) fn sim_store<const C: u32>(env: &mut dyn SimEnv, a: &[u64], _: &mut [u64]) {
    let (kind, space, _) = decode(C);
    let bytes = kind.prec.bytes();
    for (v, at) in a[2..].iter().zip(element_addrs(env, C, a[0], a[1])) {
        env.store(space, at, bytes, *v);
    }
}

/// An element's value from its register bits (integers exactly, as f64).
fn value(p: Prec, bits: u64) -> f64 {
    match p {
        Prec::F16 => f16::from_bits(bits as u16).to_f64(),
        Prec::Bf16 => bf16::from_bits(bits as u16).to_f64(),
        // The tensor core reads a tf32 element's top 19 bits.
        Prec::Tf32 => f32::from_bits(bits as u32 & 0xffff_e000) as f64,
        Prec::F32 => f32::from_bits(bits as u32) as f64,
        Prec::F64 => f64::from_bits(bits),
        Prec::U8 => bits as u8 as f64,
        Prec::S8 => bits as u8 as i8 as f64,
        Prec::S32 => bits as u32 as i32 as f64,
    }
}

/// The register bits of a result element.
fn bits(p: Prec, v: f64, int: i64) -> u64 {
    match p {
        Prec::F16 => f16::from_f64(v).to_bits() as u64,
        Prec::F32 => (v as f32).to_bits() as u64,
        Prec::F64 => v.to_bits(),
        // Wrapping, as `mma` without `.satfinite`.
        _ => int as u32 as u64,
    }
}

fn forms() -> &'static [Mma] {
    static FORMS: OnceLock<Vec<Mma>> = OnceLock::new();
    FORMS.get_or_init(mma_forms)
}

/// `wmma.mma`: each lane passes its A, B and C elements; every lane of the warp must take part.
/// Floating-point products are exact in f64 and summed there in k order (f64: fused, in order),
/// each result rounded once to D's type; integers wrap.
pub(crate) fn sim_mma<const C: u32>(
    args: &[Option<Vec<u64>>],
    out: &mut [Vec<u64>],
) -> Result<(), String> {
    let f = forms()[C as usize];
    let (ka, kb, kc, kd) = (&KINDS[f.a], &KINDS[f.b], &KINDS[f.c], &KINDS[f.d]);
    if args.len() < 32 || args.iter().take(32).any(|a| a.is_none()) {
        return Err(
            "wmma::mma_sync needs all 32 lanes of the warp (it is a warp-wide operation)".into(),
        );
    }
    let (m, n, k) = (ka.m as usize, ka.n as usize, ka.k as usize);
    let mut am = vec![0f64; m * k];
    let mut bm = vec![0f64; k * n];
    let mut cm = vec![0f64; m * n];
    for (lane, a) in args.iter().take(32).enumerate() {
        let a = a.as_ref().expect("checked");
        let lane = lane as u32;
        let (av, rest) = a.split_at(ka.count);
        let (bv, cv) = rest.split_at(kb.count);
        for (i, v) in av.iter().enumerate() {
            let (r, c) = ka.position(lane, i);
            am[r as usize * k + c as usize] = value(ka.prec, *v);
        }
        for (i, v) in bv.iter().enumerate() {
            let (r, c) = kb.position(lane, i);
            bm[r as usize * n + c as usize] = value(kb.prec, *v);
        }
        for (i, v) in cv.iter().enumerate().take(kc.count) {
            let (r, c) = kc.position(lane, i);
            cm[r as usize * n + c as usize] = value(kc.prec, *v);
        }
    }
    let int = matches!(kd.prec, Prec::S32);
    for (lane, o) in out.iter_mut().enumerate().take(32) {
        for i in 0..kd.count.min(o.len()) {
            let (r, c) = kd.position(lane as u32, i);
            let (r, c) = (r as usize, c as usize);
            let mut acc = cm[r * n + c];
            let mut iacc = acc as i64 as i32;
            for kk in 0..k {
                let (x, y) = (am[r * k + kk], bm[kk * n + c]);
                if int {
                    iacc = iacc.wrapping_add((x as i32).wrapping_mul(y as i32));
                } else if kd.prec == Prec::F64 {
                    acc = x.mul_add(y, acc);
                } else {
                    acc += x * y;
                }
            }
            o[i] = bits(kd.prec, acc, iacc as i64);
        }
    }
    Ok(())
}
