//! Kernels and device functions shared by the expansion and pipeline tests.

// Each test binary uses a different subset.
#![allow(dead_code)]

use ferrocuda::prelude::*;

pub mod util {
    use ferrocuda::prelude::*;

    #[device]
    pub fn clamp01<T: Float>(v: T) -> T {
        v.max(T::ZERO).min(T::ONE)
    }

    pub const SCALE: f32 = 2.5;
}

use util::clamp01;

pub const SAXPY_LINE: u32 = line!();
#[kernel]
pub fn saxpy(a: f32, x: &[f32], y: &mut [f32]) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    if i < y.len() {
        y[i] = a * x[i] + y[i];
    }
}

pub const BLOCK: usize = 4;

#[derive(Clone, Copy, DeviceCopy)]
#[repr(C)]
pub struct Particle {
    pub pos: [f32; 3],
    pub mass: f32,
}

#[derive(Clone, Copy, DeviceCopy)]
#[repr(C)]
pub struct Pair(pub u32, pub f64);

#[kernel(launch_bounds(max_threads = 256, min_blocks = 2), max_registers = 64)]
pub fn transpose<const TILE: usize>(out: &mut [f32], inp: &[f32], w: u32, h: u32) {
    let tile = shared_array::<[[f32; 33]; 32]>();
    let (tx, ty) = (thread_idx().x as usize, thread_idx().y as usize);
    tile[ty][tx] = inp[ty * w as usize + tx];
    sync_threads();
    let mut acc = 0.0f32;
    #[unroll]
    for k in 0..8 {
        acc += tile[k][tx];
    }
    #[unroll(4)]
    for k in (0..TILE).rev() {
        acc += k as f32;
    }
    #[no_unroll]
    for _ in (0..h).step_by(2) {}
    out[tx] = acc * util::SCALE + BLOCK as f32 + core::f32::consts::PI;
}

#[kernel]
pub fn generic_scale<T: Float, const N: usize>(v: &mut [T], s: T) {
    let i = thread_idx().x as usize;
    let arr: [T; N] = [T::ZERO; N];
    v[i] = clamp01::<T>(v[i] * s) + arr[0];
    v[i] = util::clamp01(v[i]);
}

#[device]
pub fn classify(x: i32) -> u32 {
    const LIMIT: i32 = 100;
    match x {
        i32::MIN..=-1 => 0,
        0 => 1,
        1 | 3 | 5 => 2,
        LIMIT => 3,
        n if n > 50 => 4,
        _ => 5,
    }
}

#[device]
pub fn loops(n: u32) -> u32 {
    let mut total = 0u32;
    let mut i = 0;
    'outer: loop {
        while i < n {
            i += 1;
            if i % 7 == 0 {
                continue 'outer;
            }
            if i > 100 {
                break 'outer;
            }
        }
        total += i;
        let v = loop {
            total += 1;
            if total > 3 {
                break 5u32;
            }
        };
        total <<= v;
        if total > 1000 {
            return total;
        }
        break;
    }
    total
}

#[kernel]
pub fn particles(ps: &mut [Particle], pairs: &[Pair], p0: Particle) {
    let i = thread_idx().x as usize;
    let mut p = ps[i];
    p.pos[0] += pairs[i].1 as f32 + p0.mass;
    let q = Particle {
        pos: [1.0; 3],
        mass: p.mass,
    };
    assert!(i < ps.len(), "index out of range");
    assert_eq!(q.mass, p.mass);
    debug_assert!(p.mass >= 0.0);
    if p.mass < 0.0 {
        unreachable!();
    }
    let b = Pair { 0: 1, 1: 2.0 };
    p.mass = b.1 as f32 + classify(i as i32) as f32 + loops(3) as f32;
    let r = &mut p;
    r.mass *= 2.0;
    ps[i] = unsafe { *ps.get_unchecked(i) };
    unsafe { *ps.get_unchecked_mut(i) = p };
    ps[i] = p;
}

pub type Real = f32;

#[kernel]
pub fn with_alias(v: &mut [Real], s: Real) {
    let pair: [Real; 2] = [s, s];
    v[0] = pair[1];
}

pub mod nested {
    use ferrocuda::prelude::*;

    #[derive(Clone, Copy, DeviceCopy)]
    #[repr(C)]
    pub struct Local {
        pub v: [u16; 2],
    }

    /// Relative paths in parameter types must still resolve from the generated launcher module.
    #[kernel]
    pub fn relative(a: &mut [super::Real], b: &[self::Local], c: super::Real) {
        a[0] = b[0].v[1] as super::Real + c;
    }
}

#[device]
pub fn in_set(x: i32) -> u32 {
    if matches!(x, 1 | 3..=5 | 100) {
        7
    } else {
        0
    }
}

/// Runs the control-flow device functions per thread; their host copies are the oracle.
#[kernel]
pub fn control_flow(xs: &[i32], out: &mut [u32]) {
    let i = thread_idx().x as usize;
    if i < xs.len() {
        out[i] = classify(xs[i]) * 10_000 + loops(i as u32) + in_set(xs[i]);
    }
}
