//! Kernels written with `#[kernel]` / `#[device]`, compiled by the whole pipeline and run on the
//! simulator: Rust semantics of casts, wrapping arithmetic, division panics, loops, `match`,
//! shadowing, tuples, structs, arrays and generic device functions. Every kernel's PTX is also
//! assembled with `ptxas` when it is available.

// Kernels and device functions are reached through their ASTs, never called on the host.
#![allow(dead_code, clippy::all)]

use ferrocuda::kernel_compiler::{compile, CompileOptions};
use ferrocuda::kernel_ir::ast::FnDef;
use ferrocuda::kernel_ir::ir::PanicKind;
use ferrocuda::kernel_ir::GenericValue;
use ferrocuda::kernel_sim::{self as sim, GlobalMemory, SimError, SimErrorKind, SimLaunch};
use ferrocuda::prelude::*;

/// Plain numbers that travel as little-endian bytes.
trait Num: Copy {
    fn put(self, out: &mut Vec<u8>);
    fn get(b: &[u8]) -> Self;
    const SIZE: usize;
}
macro_rules! num {
    ($($t:ty),*) => {$(
        impl Num for $t {
            fn put(self, out: &mut Vec<u8>) { out.extend_from_slice(&self.to_le_bytes()) }
            fn get(b: &[u8]) -> Self { <$t>::from_le_bytes(b.try_into().unwrap()) }
            const SIZE: usize = std::mem::size_of::<$t>();
        }
    )*};
}
num!(i32, u32, i64, u64, f32, f64, u8);

fn bytes<T: Num>(v: &[T]) -> Vec<u8> {
    let mut out = Vec::new();
    for x in v {
        x.put(&mut out);
    }
    out
}
fn back<T: Num>(b: &[u8]) -> Vec<T> {
    b.chunks(T::SIZE).map(T::get).collect()
}

/// A launch argument: a slice (its bytes, read back after the launch) or a by-value parameter.
enum A {
    Slice(Vec<u8>),
    Val(Vec<u8>),
}
fn sl<T: Num>(v: &[T]) -> A {
    A::Slice(bytes(v))
}
fn val<T: Num>(v: T) -> A {
    A::Val(bytes(&[v]))
}

fn launch(
    def: &'static FnDef,
    generics: &[GenericValue],
    cfg: SimLaunch,
    args: &mut [A],
) -> Result<(), SimError> {
    let c = compile(def, generics, &CompileOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    if kernel_testkit::ptxas::find().is_some() {
        kernel_testkit::ptxas::assemble(&c.ptx, 80)
            .unwrap_or_else(|e| panic!("ptxas: {e}\n{}", c.ptx));
    }
    let mut mem = GlobalMemory::new();
    let mut params = Vec::new();
    let mut addrs = Vec::new();
    for (a, p) in args.iter().zip(&c.kernel.params) {
        match a {
            A::Slice(data) => {
                let elem = match p.kind {
                    ferrocuda::kernel_ir::ir::ParamKind::Slice { elem_bytes, .. } => {
                        elem_bytes as usize
                    }
                    _ => panic!("parameter {} is not a slice", p.name),
                };
                let addr = mem.alloc(data.len().max(1));
                mem.write(addr, data).unwrap();
                addrs.push(Some(addr));
                let mut b = addr.to_le_bytes().to_vec();
                b.extend_from_slice(&((data.len() / elem) as u64).to_le_bytes());
                params.push(b);
            }
            A::Val(b) => {
                addrs.push(None);
                params.push(b.clone());
            }
        }
    }
    let refs: Vec<&[u8]> = params.iter().map(|p| p.as_slice()).collect();
    let r = sim::launch(&c.kernel, &cfg, &refs, &mut mem);
    for (a, addr) in args.iter_mut().zip(addrs) {
        if let (A::Slice(data), Some(addr)) = (a, addr) {
            mem.read(addr, data).unwrap();
        }
    }
    r.map(|_| ())
}

fn one() -> SimLaunch {
    SimLaunch::linear(1, 1)
}

// ---------------------------------------------------------------------------------------------

#[kernel]
pub fn casts(out: &mut [i64], f: &[f32], i: &[i32]) {
    out[0] = f[0] as u8 as i64; // -1.5 -> 0
    out[1] = f[1] as u8 as i64; // 300.7 -> 255
    out[2] = f[2] as i32 as i64; // NaN -> 0
    out[3] = f[3] as i32 as i64; // 1e20 -> i32::MAX
    out[4] = f[4] as i64; // -1e20 -> i64::MIN
    out[5] = i[0] as u32 as i64; // -1 -> 4294967295
    out[6] = i[1] as u8 as i64; // 300 -> 44
    out[7] = (i[1] as u8) as i8 as i64; // 44
    out[8] = (i[2] as u8 as i8) as i64; // 200 -> -56
    out[9] = (i[0] as i16 as u16) as i64; // 65535
    out[10] = (f[5] as f64 * 2.0) as i64; // 2.5 -> 5
    out[11] = (true as u8 + false as u8) as i64;
}

#[test]
fn casts_match_rust() {
    let f = [-1.5f32, 300.7, f32::NAN, 1e20, -1e20, 2.5];
    let i = [-1i32, 300, 200];
    let mut args = [sl(&[0i64; 12]), sl(&f), sl(&i)];
    launch(casts::ast(), &[], one(), &mut args).unwrap();
    let A::Slice(out) = &args[0] else {
        unreachable!()
    };
    let want: Vec<i64> = vec![
        f[0] as u8 as i64,
        f[1] as u8 as i64,
        f[2] as i32 as i64,
        f[3] as i32 as i64,
        f[4] as i64,
        i[0] as u32 as i64,
        i[1] as u8 as i64,
        (i[1] as u8) as i8 as i64,
        (i[2] as u8 as i8) as i64,
        (i[0] as i16 as u16) as i64,
        (f[5] as f64 * 2.0) as i64,
        1,
    ];
    assert_eq!(back::<i64>(out), want);
}

// Release semantics whatever the profile: `overflow_checks.rs` in host-runtime tests the checks.
#[kernel(overflow_checks = false)]
pub fn wrapping(out: &mut [i32], x: i32, s: u32) {
    out[0] = x + 1;
    out[1] = x * 3;
    out[2] = (x as u8).wrapping_add(200) as i32;
    out[3] = 1i32 << s; // amount masked to s % 32
    out[4] = -x;
    out[5] = (x as u32 >> s) as i32;
    out[6] = x.wrapping_mul(x);
    let mut y = x;
    y -= i32::MAX;
    y <<= 1;
    out[7] = y;
}

#[test]
fn integer_arithmetic_wraps() {
    let (x, s) = (i32::MAX, 35u32);
    let mut args = [sl(&[0i32; 8]), val(x), val(s)];
    launch(wrapping::ast(), &[], one(), &mut args).unwrap();
    let A::Slice(out) = &args[0] else {
        unreachable!()
    };
    let want = vec![
        x.wrapping_add(1),
        x.wrapping_mul(3),
        (x as u8).wrapping_add(200) as i32,
        1i32.wrapping_shl(s),
        x.wrapping_neg(),
        (x as u32).wrapping_shr(s) as i32,
        x.wrapping_mul(x),
        (x - i32::MAX) << 1,
    ];
    assert_eq!(back::<i32>(out), want);
}

#[kernel]
pub fn divide(out: &mut [i32], a: i32, b: i32) {
    out[0] = a / b;
    out[1] = a % b;
}

#[test]
fn division_by_zero_and_overflow_panic_at_the_operator() {
    let run = |a: i32, b: i32| {
        let mut args = [sl(&[0i32; 2]), val(a), val(b)];
        let r = launch(divide::ast(), &[], one(), &mut args);
        let A::Slice(out) = &args[0] else {
            unreachable!()
        };
        (r, back::<i32>(out))
    };
    let (r, out) = run(-7, 2);
    r.unwrap();
    assert_eq!(out, vec![-3, -1]);
    let (r, _) = run(7, 0);
    let e = r.unwrap_err();
    assert_eq!(e.kind, SimErrorKind::Panic(PanicKind::DivByZero));
    assert!(e.file.ends_with("frontend_semantics.rs"), "{}", e.file);
    let def = divide::ast();
    assert!(
        e.line > def.span.line && e.line < def.span.line + 4,
        "{e:?}"
    );
    let (r, _) = run(i32::MIN, -1);
    assert_eq!(
        r.unwrap_err().kind,
        SimErrorKind::Panic(PanicKind::DivOverflow)
    );
}

#[kernel]
pub fn loops(out: &mut [u64]) {
    let mut s = 0;
    for i in 0..10 {
        s += i;
    }
    out[0] = s;
    let mut d = 0u64;
    for i in (0..10u64).rev().step_by(3) {
        d = d * 10 + i;
    }
    out[1] = d;
    d = 0;
    for i in (1..=5).step_by(2) {
        d = d * 10 + i;
    }
    out[2] = d;
    let mut c = 0;
    'outer: for i in 0..5 {
        for j in 0..5 {
            if j > i {
                continue 'outer;
            }
            if i == 3 {
                break 'outer;
            }
            c += 1;
        }
    }
    out[3] = c;
    let mut n = 1u64;
    let v = loop {
        n *= 3;
        if n > 100 {
            break n + 1;
        }
    };
    out[4] = v;
    let mut k = 0;
    while k < out.len() {
        k += 2;
    }
    out[5] = k as u64;
    let mut m = 0;
    for i in (0..=4).rev() {
        if i % 2 == 1 {
            continue;
        }
        m = m * 10 + i;
    }
    out[6] = m;
}

#[test]
fn loops_follow_rust() {
    let mut args = [sl(&[0u64; 7])];
    launch(loops::ast(), &[], one(), &mut args).unwrap();
    let A::Slice(out) = &args[0] else {
        unreachable!()
    };
    assert_eq!(back::<u64>(out), vec![45, 9630, 135, 6, 244, 8, 420]);
}

const LIMIT: i32 = 50;

#[kernel]
pub fn matching(out: &mut [i32], xs: &[i32]) {
    for i in 0..xs.len() {
        let x = xs[i];
        out[i] = match x {
            1 | 2 => 10,
            -5..=-1 => 15,
            3..=9 if x % 2 == 0 => 20,
            3..10 => 30,
            LIMIT => 40,
            v if v > 100 => v / 100,
            _ => 99,
        };
    }
    let b = xs[0] > 0;
    out[xs.len()] = match (b, xs[1]) {
        (true, 2) => 1,
        (true, _) => 2,
        _ => 3,
    };
}

#[test]
fn match_ranges_guards_or_patterns() {
    let xs = [1, 2, 4, 5, 9, -3, 50, 700, 12];
    let mut args = [sl(&[0i32; 10]), sl(&xs)];
    launch(matching::ast(), &[], one(), &mut args).unwrap();
    let A::Slice(out) = &args[0] else {
        unreachable!()
    };
    assert_eq!(back::<i32>(out), vec![10, 10, 20, 30, 30, 15, 40, 7, 99, 1]);
}

#[derive(Clone, Copy, DeviceCopy)]
#[repr(C)]
pub struct Particle {
    pos: [f32; 3],
    mass: f32,
    id: u16,
}

#[device]
fn centre(p: Particle) -> f32 {
    (p.pos[0] + p.pos[1] + p.pos[2]) / 3.0
}

#[device]
fn heavier(mut p: Particle, by: f32) -> Particle {
    p.mass *= by;
    p
}

#[kernel]
pub fn structs(out: &mut [f32], ps: &mut [Particle], extra: Particle) {
    let x = 2;
    let x = x * 3; // shadowing
    let (a, b) = (x as f32, 0.5f32);
    let t = (a, (b, x));
    out[0] = t.0 + (t.1).0 + (t.1).1 as f32; // 6 + 0.5 + 6
    out[1] = centre(ps[0]);
    let q = heavier(ps[1], 2.0);
    out[2] = q.mass;
    out[3] = extra.id as f32 + extra.pos[2];
    ps[0] = Particle {
        pos: [1.0, 2.0, 3.0],
        mass: q.mass + 1.0,
        id: 9,
    };
    let mut arr = [[0.0f32; 3]; 2];
    for i in 0..2 {
        for j in 0..3 {
            arr[i][j] = (i * 3 + j) as f32;
        }
    }
    let copy = arr;
    arr[1][2] = 100.0;
    let row = &mut arr[0];
    row[1] = -7.0;
    out[4] = copy[1][2];
    out[5] = arr[1][2] + arr[0][1];
}

fn particle(pos: [f32; 3], mass: f32, id: u16) -> Vec<u8> {
    let mut b = bytes(&pos);
    mass.put(&mut b);
    b.extend_from_slice(&id.to_le_bytes());
    b.extend_from_slice(&[0, 0]);
    b
}

#[test]
fn structs_tuples_arrays_and_shadowing() {
    let mut ps = particle([3.0, 6.0, 9.0], 1.0, 1);
    ps.extend(particle([0.0; 3], 4.5, 2));
    let mut args = [
        sl(&[0.0f32; 6]),
        A::Slice(ps),
        A::Val(particle([0.0, 0.0, 0.25], 0.0, 7)),
    ];
    launch(structs::ast(), &[], one(), &mut args).unwrap();
    let A::Slice(out) = &args[0] else {
        unreachable!()
    };
    assert_eq!(back::<f32>(out), vec![12.5, 6.0, 9.0, 7.25, 5.0, 93.0]);
    let A::Slice(ps) = &args[1] else {
        unreachable!()
    };
    assert_eq!(&ps[..20], &particle([1.0, 2.0, 3.0], 10.0, 9)[..]);
}

#[device]
fn add<T: Float>(a: T, b: T) -> T {
    a + b
}

#[device]
fn sum<const N: usize>(a: [i64; N]) -> i64 {
    let mut s = 0;
    for i in 0..N {
        s += a[i];
    }
    s
}

#[device]
fn first_negative(a: &[i64]) -> (bool, i64) {
    for i in 0..a.len() {
        if a[i] < 0 {
            return (true, i as i64);
        }
    }
    (false, 0)
}

#[kernel]
pub fn generics<T: Float>(out: &mut [T], ints: &mut [i64]) {
    out[0] = add(T::ONE, T::ONE);
    out[1] = add::<T>(out[0], T::ONE).max(T::ZERO);
    ints[0] = sum([1, 2, 3, 4]);
    ints[1] = sum::<2>([5, 6]);
    let (found, at) = first_negative(ints);
    ints[2] = if found { at } else { -1 };
}

#[test]
fn generic_device_functions_are_monomorphized() {
    let mut args = [sl(&[0.0f32; 2]), sl(&[0i64, 0, 0, -4])];
    launch(
        generics::ast(),
        &[GenericValue::Type(f32::ast_type())],
        one(),
        &mut args,
    )
    .unwrap();
    let A::Slice(out) = &args[0] else {
        unreachable!()
    };
    assert_eq!(back::<f32>(out), vec![2.0, 3.0]);
    let A::Slice(ints) = &args[1] else {
        unreachable!()
    };
    assert_eq!(back::<i64>(ints), vec![10, 11, 3, -4]);

    let mut args = [sl(&[0.0f64; 2]), sl(&[0i64, 0, 0, 0])];
    launch(
        generics::ast(),
        &[GenericValue::Type(f64::ast_type())],
        one(),
        &mut args,
    )
    .unwrap();
    let A::Slice(out) = &args[0] else {
        unreachable!()
    };
    assert_eq!(back::<f64>(out), vec![2.0, 3.0]);
}

#[kernel]
pub fn reverse(data: &mut [i32]) {
    let s = shared_array::<[i32; 64]>();
    let t = thread_idx().x as usize;
    let base = block_idx().x as usize * 64;
    s[t] = data[base + t];
    sync_threads();
    data[base + t] = s[63 - t];
}

#[test]
fn shared_memory_reverse_across_threads() {
    let input: Vec<i32> = (0..128).collect();
    let mut args = [sl(&input)];
    launch(reverse::ast(), &[], SimLaunch::linear(2, 64), &mut args).unwrap();
    let A::Slice(out) = &args[0] else {
        unreachable!()
    };
    let want: Vec<i32> = input
        .chunks(64)
        .flat_map(|c| c.iter().rev().copied())
        .collect();
    assert_eq!(back::<i32>(out), want);
}

#[kernel]
pub fn bounds(out: &mut [f32], i: usize) {
    out[i] = 1.0;
}

#[test]
fn out_of_bounds_reports_index_and_length() {
    let mut args = [sl(&[0.0f32; 4]), val(6u64)];
    let e = launch(bounds::ast(), &[], one(), &mut args).unwrap_err();
    assert_eq!(e.kind, SimErrorKind::Panic(PanicKind::Bounds));
    assert_eq!((e.a, e.b), (6, 4));
}

#[kernel]
pub fn floats(out: &mut [f32], x: &[f32]) {
    out[0] = x[0].min(x[1]); // NaN.min(2) = 2
    out[1] = x[2].mul_add(x[3], 1.0);
    out[2] = x[3].powi(3);
    out[3] = x[4].clamp(-1.0, 1.0);
    out[4] = f32::from_bits(x[3].to_bits() + 1) - x[3];
    out[5] = (f16::from_f32(x[2]) * f16::from_f32(x[3])).to_f32();
    out[6] = x[4].signum() * x[4].abs().sqrt();
    out[7] = x[4].round() + x[4].floor() + x[4].ceil() + x[4].trunc();
}

#[test]
fn float_methods_match_the_host() {
    let x = [f32::NAN, 2.0, 1.5, 1.1, -2.25];
    let mut args = [sl(&[0.0f32; 8]), sl(&x)];
    launch(floats::ast(), &[], one(), &mut args).unwrap();
    let A::Slice(out) = &args[0] else {
        unreachable!()
    };
    let want = [
        x[0].min(x[1]),
        x[2].mul_add(x[3], 1.0),
        x[3].powi(3),
        x[4].clamp(-1.0, 1.0),
        f32::from_bits(x[3].to_bits() + 1) - x[3],
        (f16::from_f32(x[2]) * f16::from_f32(x[3])).to_f32(),
        x[4].signum() * x[4].abs().sqrt(),
        x[4].round() + x[4].floor() + x[4].ceil() + x[4].trunc(),
    ];
    let got = back::<f32>(out);
    for (g, w) in got.iter().zip(want) {
        assert_eq!(g.to_bits(), w.to_bits(), "{got:?} vs {want:?}");
    }
}

#[kernel]
pub fn int_methods(out: &mut [u32], x: &[i32]) {
    out[0] = (x[0] as u32).div_ceil(x[1] as u32);
    out[1] = x[0].abs_diff(x[2]);
    out[2] = (x[1] as u32).is_power_of_two() as u32 + (x[0] as u32).is_power_of_two() as u32;
    out[3] = (x[2] as u8).leading_zeros() + (x[2] as i16).trailing_zeros() * 100;
    out[4] = x[2].count_ones() + x[0].pow(2) as u32 + x[1].pow(x[1] as u32) as u32;
    // Wrapping as on the host: `-1 as u32 + 3` overflows, which panics in debug builds.
    out[5] = (x[2].signum() as u32)
        .wrapping_add(x[0].clamp(-3, 3) as u32)
        .wrapping_add(x[2].min(x[1]).max(-100) as u32);
}

#[test]
fn integer_methods_match_the_host() {
    let x = [7i32, 4, -12];
    let mut args = [sl(&[0u32; 6]), sl(&x)];
    launch(int_methods::ast(), &[], one(), &mut args).unwrap();
    let A::Slice(out) = &args[0] else {
        unreachable!()
    };
    let want = vec![
        (x[0] as u32).div_ceil(x[1] as u32),
        x[0].abs_diff(x[2]),
        (x[1] as u32).is_power_of_two() as u32 + (x[0] as u32).is_power_of_two() as u32,
        (x[2] as u8).leading_zeros() + (x[2] as i16).trailing_zeros() * 100,
        x[2].count_ones() + x[0].pow(2) as u32 + x[1].pow(x[1] as u32) as u32,
        (x[2].signum() as u32)
            .wrapping_add(x[0].clamp(-3, 3) as u32)
            .wrapping_add(x[2].min(x[1]).max(-100) as u32),
    ];
    assert_eq!(back::<u32>(out), want);
}

const TABLE: [f32; 4] = [0.5, 1.5, 2.5, 3.5];

#[kernel]
pub fn bools_consts_dyn_shared(out: &mut [f32], ps: &mut [Particle], flag: bool, n: usize) {
    let mut flags = [false; 4];
    for i in 0..n {
        flags[i] = flag && i % 2 == 0;
    }
    let mut count = 0.0;
    for i in 0..4 {
        if flags[i] {
            count += TABLE[i];
        }
    }
    out[0] = count;
    let d = dynamic_shared::<f32>();
    d[d.len() - 1] = 4.0;
    out[1] = d[d.len() - 1] + d.len() as f32;
    ps[1].mass += 1.5;
    ps[1].pos[2] = ps[1].mass * 2.0;
    let p = &mut ps[0];
    p.id = 42;
}

#[test]
fn bools_host_const_tables_dynamic_shared_and_field_places() {
    let mut ps = particle([0.0; 3], 1.0, 1);
    ps.extend(particle([0.0; 3], 2.0, 2));
    let mut args = [sl(&[0.0f32; 2]), A::Slice(ps), A::Val(vec![1]), val(4u64)];
    let cfg = SimLaunch {
        dyn_shared_bytes: 32,
        ..one()
    };
    launch(bools_consts_dyn_shared::ast(), &[], cfg, &mut args).unwrap();
    let A::Slice(out) = &args[0] else {
        unreachable!()
    };
    assert_eq!(back::<f32>(out), vec![0.5 + 2.5, 12.0]);
    let A::Slice(ps) = &args[1] else {
        unreachable!()
    };
    assert_eq!(&ps[..20], &particle([0.0; 3], 1.0, 42)[..]);
    assert_eq!(&ps[20..], &particle([0.0, 0.0, 7.0], 3.5, 2)[..]);
}

#[device]
fn ping(x: u32) -> u32 {
    if x == 0 {
        0
    } else {
        pong(x - 1)
    }
}

#[device]
fn pong(x: u32) -> u32 {
    ping(x)
}

#[kernel]
pub fn recursive(out: &mut [u32]) {
    out[0] = ping(3);
}

#[kernel]
pub fn float_rem(out: &mut [f32]) {
    out[0] = out[1] % 2.0;
}

#[test]
fn unsupported_code_is_a_compile_error_at_the_source_line() {
    let e = compile(recursive::ast(), &[], &CompileOptions::default()).unwrap_err();
    assert!(e.message.contains("recursive"), "{e}");
    assert!(e.file.ends_with("frontend_semantics.rs"));
    let ferrocuda::__private::ast::Callable::Device(dev) = ping::__fc_callable() else {
        panic!("`ping` is a device function")
    };
    assert!(
        e.line > dev.span.line && e.line < recursive::ast().span.line,
        "{e}"
    );
    // Float `%` is C's fmod from the math library (accuracy: tests/math_ulp.rs).
    assert!(compile(float_rem::ast(), &[], &CompileOptions::default()).is_ok());
}

#[device]
fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut s = 0.0;
    for i in 0..a.len() {
        s += a[i] * b[i];
    }
    s
}

#[device]
fn fill(a: &mut [f32], v: f32) {
    for i in 0..a.len() {
        a[i] = v + i as f32;
    }
}

#[kernel]
pub fn local_slices(out: &mut [f32], g: &[f32]) {
    let mut x = [1.0f32, 2.0, 3.0, 4.0];
    let y = [[0.5f32; 4]; 2];
    out[0] = dot(&x, &y[1]);
    fill(&mut x[1..3], 10.0);
    out[1] = x[0] + x[1] * 10.0 + x[2] * 100.0 + x[3] * 1000.0;
    out[2] = dot(&x[2..], &g[..2]);
    let mut s: &[f32] = &x;
    s = &s[3..];
    out[3] = s[0] + s.len() as f32;
}

#[test]
fn slices_of_thread_local_arrays() {
    let mut args = [sl(&[0.0f32; 4]), sl(&[2.0f32, 3.0])];
    launch(local_slices::ast(), &[], one(), &mut args).unwrap();
    let A::Slice(out) = &args[0] else {
        unreachable!()
    };
    assert_eq!(
        back::<f32>(out),
        vec![
            5.0,
            1.0 + 100.0 + 1100.0 + 4000.0,
            11.0 * 2.0 + 4.0 * 3.0,
            5.0
        ]
    );
}

#[kernel]
pub fn iterate(out: &mut [f32], g: &[f32]) {
    let arr = [1.0f32, 2.0, 3.0];
    let mut s = 0.0;
    for x in arr {
        s += x;
    }
    for x in g.iter() {
        s += *x * 10.0;
    }
    for (i, x) in g.iter().enumerate() {
        s += x * 100.0 * i as f32;
    }
    out[0] = s;
    let mut local = [0.0f32; 4];
    for (i, x) in local.iter_mut().enumerate() {
        *x = i as f32 + 0.5;
    }
    for x in out[1..].iter_mut() {
        *x = 7.0;
    }
    for x in &local {
        out[3] += x;
    }
}

#[test]
fn for_loops_over_arrays_and_slices() {
    let g = [1.0f32, 2.0];
    let mut args = [sl(&[0.0f32; 4]), sl(&g)];
    launch(iterate::ast(), &[], one(), &mut args).unwrap();
    let A::Slice(out) = &args[0] else {
        unreachable!()
    };
    assert_eq!(
        back::<f32>(out),
        vec![6.0 + 30.0 + 200.0, 7.0, 7.0, 7.0 + 8.0]
    );
}

#[kernel]
pub fn guarded(out: &mut [f32], n: usize) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    if i < n && i < out.len() {
        out[i] = 1.0;
    }
    if i >= out.len() || i == 0 {
        return;
    }
    out[i - 1] += 1.0;
}

#[test]
fn guards_with_and_or_remove_bounds_checks() {
    let c = compile(guarded::ast(), &[], &CompileOptions::default()).unwrap();
    let checks = format!("{:?}", c.kernel.body)
        .matches("BoundsCheck")
        .count();
    assert_eq!(
        checks, 1,
        "only `out[i - 1]` keeps its check: {:#?}",
        c.kernel.body
    );
    let mut args = [sl(&[0.0f32; 5]), val(3u64)];
    launch(guarded::ast(), &[], SimLaunch::linear(2, 4), &mut args).unwrap();
    let A::Slice(out) = &args[0] else {
        unreachable!()
    };
    assert_eq!(back::<f32>(out), vec![2.0, 2.0, 2.0, 1.0, 0.0]);
}

#[kernel]
pub fn slice_branches(out: &mut [f32], a: &[f32], b: &[f32], c: u32) {
    let s = if c > 0 { &a[..2] } else { &b[1..] };
    out[0] = s[0] + s.len() as f32 * 10.0;
    let t = match c {
        0 => &b[..1],
        1 => &a[1..],
        _ => a,
    };
    out[1] = t[t.len() - 1] + t.len() as f32 * 10.0;
    let mut k = 0;
    let u = loop {
        if k == c {
            break &b[k as usize..];
        }
        if k > 5 {
            break a;
        }
        k += 1;
    };
    out[2] = u[0] + u.len() as f32 * 10.0;
}

#[test]
fn if_and_match_can_produce_slices() {
    let run = |c: u32| {
        let mut args = [
            sl(&[0.0f32; 3]),
            sl(&[1.0f32, 2.0, 3.0]),
            sl(&[4.0f32, 5.0, 6.0, 7.0]),
            val(c),
        ];
        launch(slice_branches::ast(), &[], one(), &mut args).unwrap();
        let A::Slice(out) = &args[0] else {
            unreachable!()
        };
        back::<f32>(out)
    };
    assert_eq!(run(0), vec![5.0 + 30.0, 4.0 + 10.0, 4.0 + 40.0]);
    assert_eq!(run(1), vec![1.0 + 20.0, 3.0 + 20.0, 5.0 + 30.0]);
    assert_eq!(run(2), vec![1.0 + 20.0, 3.0 + 30.0, 6.0 + 20.0]);
    assert_eq!(run(9), vec![1.0 + 20.0, 3.0 + 30.0, 1.0 + 30.0]);
}

#[kernel]
pub fn saturating(out: &mut [i32], x: &[i32]) {
    out[0] = x[0].saturating_add(x[1]);
    out[1] = x[2].saturating_sub(x[1]);
    out[2] = (x[1] as u32).saturating_sub(x[0] as u32) as i32;
    out[3] = (x[0] as u8).saturating_add(x[3] as u8) as i32;
    out[4] = x[3].saturating_sub(x[3]);
    out[5] = (x[3] as i8).saturating_add(x[3] as i8) as i32;
}

#[test]
fn saturating_arithmetic_matches_the_host() {
    let x = [i32::MAX - 1, 5, i32::MIN + 2, 100];
    let mut args = [sl(&[0i32; 6]), sl(&x)];
    launch(saturating::ast(), &[], one(), &mut args).unwrap();
    let A::Slice(out) = &args[0] else {
        unreachable!()
    };
    let want = vec![
        x[0].saturating_add(x[1]),
        x[2].saturating_sub(x[1]),
        (x[1] as u32).saturating_sub(x[0] as u32) as i32,
        (x[0] as u8).saturating_add(x[3] as u8) as i32,
        0,
        (x[3] as i8).saturating_add(x[3] as i8) as i32,
    ];
    assert_eq!(back::<i32>(out), want);
}

#[device]
fn larger(v: &mut [f32], i: usize, j: usize) -> &mut f32 {
    if v[i] >= v[j] {
        return &mut v[i];
    }
    &mut v[j]
}

#[device]
fn pick(a: &[f32; 3], k: u32) -> &f32 {
    match k {
        0 => &a[0],
        1 => &a[1],
        _ => &a[2],
    }
}

#[kernel]
pub fn references(out: &mut [f32], v: &mut [f32]) {
    *larger(v, 0, 1) += 100.0;
    *larger(v, 2, 1) = -1.0;
    let mut r = &mut v[0];
    *r += 1.0;
    r = &mut v[2];
    *r += 2.0;
    let local = [7.0f32, 8.0, 9.0];
    out[0] = *pick(&local, 1) + *pick(&local, 5);
    let mut best = &local[0];
    for i in 0..3 {
        if local[i] > *best {
            best = &local[i];
        }
    }
    out[1] = *best;
}

#[test]
fn references_returned_and_re_pointed() {
    let mut args = [sl(&[0.0f32; 2]), sl(&[1.0f32, 5.0, 3.0])];
    launch(references::ast(), &[], one(), &mut args).unwrap();
    let A::Slice(out) = &args[0] else {
        unreachable!()
    };
    assert_eq!(back::<f32>(out), vec![17.0, 9.0]);
    let A::Slice(v) = &args[1] else {
        unreachable!()
    };
    assert_eq!(back::<f32>(v), vec![2.0, -1.0, 5.0]);
}
