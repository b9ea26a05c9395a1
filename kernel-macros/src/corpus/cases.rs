use super::{Expect, Kind};

// Generated corpus of odd and malformed kernel sources (see corpus/mod.rs).

pub(super) const CASES: &[(Kind, Expect, &str)] = &[
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { let f = |a: u32| a + 1; y[0] = f(1); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { y[0] = (|| 3u32)(); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { let f = move || y.len(); let _ = f; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { let g = |a| a; y[0] = g(2); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { let h = async || 1u32; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { assert!(y.len() > 0); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { assert_eq!(y[0], 1, "one"); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { debug_assert_ne!(y[0], 2); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { y[0] = matches!(y[1], 1 | 2) as u32; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { gpu_println!("{} {:x}", y[0], y[1]); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { unreachable!(); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { todo!("later"); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { panic!("{}", y[0]); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { println!("x"); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { let v = vec![1u32]; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { format!("a"); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { dbg!(y[0]); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { my_macro!(y); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { assert!(); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { assert_eq!(y[0]); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { write!(w, "x"); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { y[0] = line!(); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { let s = stringify!(y); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { matches!(y[0], Some(_)); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { gpu_print!("{"); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { gpu_print!("{:q}", y[0]); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { gpu_println!(); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { let mut z = 1u32; #[allow(unused)] { z += 1; } y[0] = z; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { #[allow(unused)] let z = 2u32; y[0] = 1; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { match y[0] { #[allow(unused)] 0 => y[1] = 1, _ => {} } }"####,
    ),
    (
        Kind::Device,
        Expect::Accept,
        r####"#[allow(unused)] fn d(x: u32) -> u32 { x }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { let mut z = 1u32; #[allow(clippy::all)] { z += 1; } y[0] = z; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { #[allow(clippy::all)] let z = 2u32; y[0] = 1; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { match y[0] { #[allow(clippy::all)] 0 => y[1] = 1, _ => {} } }"####,
    ),
    (
        Kind::Device,
        Expect::Accept,
        r####"#[allow(clippy::all)] fn d(x: u32) -> u32 { x }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { let mut z = 1u32; #[rustfmt::skip] { z += 1; } y[0] = z; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { #[rustfmt::skip] let z = 2u32; y[0] = 1; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { match y[0] { #[rustfmt::skip] 0 => y[1] = 1, _ => {} } }"####,
    ),
    (
        Kind::Device,
        Expect::Accept,
        r####"#[rustfmt::skip] fn d(x: u32) -> u32 { x }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { let mut z = 1u32; #[cfg(all())] { z += 1; } y[0] = z; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { #[cfg(all())] let z = 2u32; y[0] = 1; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { match y[0] { #[cfg(all())] 0 => y[1] = 1, _ => {} } }"####,
    ),
    (
        Kind::Device,
        Expect::Accept,
        r####"#[cfg(all())] fn d(x: u32) -> u32 { x }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { let mut z = 1u32; #[cfg(any())] { z += 1; } y[0] = z; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { #[cfg(any())] let z = 2u32; y[0] = 1; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { match y[0] { #[cfg(any())] 0 => y[1] = 1, _ => {} } }"####,
    ),
    (
        Kind::Device,
        Expect::Accept,
        r####"#[cfg(any())] fn d(x: u32) -> u32 { x }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { let mut z = 1u32; #[cfg(debug_assertions)] { z += 1; } y[0] = z; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { #[cfg(debug_assertions)] let z = 2u32; y[0] = 1; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { match y[0] { #[cfg(debug_assertions)] 0 => y[1] = 1, _ => {} } }"####,
    ),
    (
        Kind::Device,
        Expect::Accept,
        r####"#[cfg(debug_assertions)] fn d(x: u32) -> u32 { x }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { let mut z = 1u32; #[cfg(not(debug_assertions))] { z += 1; } y[0] = z; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { #[cfg(not(debug_assertions))] let z = 2u32; y[0] = 1; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { match y[0] { #[cfg(not(debug_assertions))] 0 => y[1] = 1, _ => {} } }"####,
    ),
    (
        Kind::Device,
        Expect::Accept,
        r####"#[cfg(not(debug_assertions))] fn d(x: u32) -> u32 { x }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { let mut z = 1u32; #[cfg_attr(all(), allow(unused))] { z += 1; } y[0] = z; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { #[cfg_attr(all(), allow(unused))] let z = 2u32; y[0] = 1; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { match y[0] { #[cfg_attr(all(), allow(unused))] 0 => y[1] = 1, _ => {} } }"####,
    ),
    (
        Kind::Device,
        Expect::Accept,
        r####"#[cfg_attr(all(), allow(unused))] fn d(x: u32) -> u32 { x }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { let mut z = 1u32; #[cfg_attr(any(), cfg(any()))] { z += 1; } y[0] = z; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { #[cfg_attr(any(), cfg(any()))] let z = 2u32; y[0] = 1; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { match y[0] { #[cfg_attr(any(), cfg(any()))] 0 => y[1] = 1, _ => {} } }"####,
    ),
    (
        Kind::Device,
        Expect::Accept,
        r####"#[cfg_attr(any(), cfg(any()))] fn d(x: u32) -> u32 { x }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { let mut z = 1u32; #[cfg(feature = "nope")] { z += 1; } y[0] = z; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { #[cfg(feature = "nope")] let z = 2u32; y[0] = 1; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { match y[0] { #[cfg(feature = "nope")] 0 => y[1] = 1, _ => {} } }"####,
    ),
    (
        Kind::Device,
        Expect::Accept,
        r####"#[cfg(feature = "nope")] fn d(x: u32) -> u32 { x }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { let mut z = 1u32; #[cfg(target_os = "linux")] { z += 1; } y[0] = z; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { #[cfg(target_os = "linux")] let z = 2u32; y[0] = 1; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { match y[0] { #[cfg(target_os = "linux")] 0 => y[1] = 1, _ => {} } }"####,
    ),
    (
        Kind::Device,
        Expect::Accept,
        r####"#[cfg(target_os = "linux")] fn d(x: u32) -> u32 { x }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { let mut z = 1u32; #[cfg(all(unix, not(windows)))] { z += 1; } y[0] = z; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { #[cfg(all(unix, not(windows)))] let z = 2u32; y[0] = 1; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { match y[0] { #[cfg(all(unix, not(windows)))] 0 => y[1] = 1, _ => {} } }"####,
    ),
    (
        Kind::Device,
        Expect::Accept,
        r####"#[cfg(all(unix, not(windows)))] fn d(x: u32) -> u32 { x }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { let mut z = 1u32; #[deny(warnings)] { z += 1; } y[0] = z; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { #[deny(warnings)] let z = 2u32; y[0] = 1; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { match y[0] { #[deny(warnings)] 0 => y[1] = 1, _ => {} } }"####,
    ),
    (
        Kind::Device,
        Expect::Accept,
        r####"#[deny(warnings)] fn d(x: u32) -> u32 { x }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { let mut z = 1u32; #[expect(unused)] { z += 1; } y[0] = z; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { #[expect(unused)] let z = 2u32; y[0] = 1; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { match y[0] { #[expect(unused)] 0 => y[1] = 1, _ => {} } }"####,
    ),
    (
        Kind::Device,
        Expect::Accept,
        r####"#[expect(unused)] fn d(x: u32) -> u32 { x }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { #[unroll] for i in 0..4 { y[i] = i as u32; } }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { #[unroll(4)] for i in 0..4 { y[i] = i as u32; } }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { #[no_unroll] for i in 0..4 { y[i] = i as u32; } }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { #[cfg_attr(debug_assertions, unroll)] for i in 0..4 { y[i] = i as u32; } }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { #[cfg_attr(all(), unroll(2), allow(unused))] for i in 0..4 { y[i] = i as u32; } }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { #[unroll(0)] for i in 0..4 { y[i] = i as u32; } }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { #[unroll(x)] for i in 0..4 { y[i] = i as u32; } }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { #[unroll = 3] for i in 0..4 { y[i] = i as u32; } }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { #[no_unroll(2)] for i in 0..4 { y[i] = i as u32; } }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { #[unroll] #[unroll] for i in 0..4 { y[i] = i as u32; } }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { #[unroll] while y[0] < 4 { y[0] += 1; } }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { #[no_unroll] while y[0] < 4 { y[0] += 1; } }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { #[cfg] { y[0] = 1; } }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { #[cfg(a, b)] { y[0] = 1; } }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { #[cfg_attr(a)] { y[0] = 1; } }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { #[cfg_attr] { y[0] = 1; } }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k<'a>(y: &'a mut [u32]) { y[0] = 1; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &'static mut [u32]) { y[0] = 1; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &'_ mut [u32]) { y[0] = 1; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k<T: Float>(y: &mut [T]) where T: Copy { y[0] = T::ONE; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k<T>(y: &mut [T]) where T: Float { y[0] = y[0].max(T::ZERO); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k<T>(y: &mut [T]) where T: Float, for<'a> &'a T: Copy { y[0] = T::ONE; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k<T: Float>(y: &mut [T]) where 'static: 'static { y[0] = T::ONE; }"####,
    ),
    (
        Kind::Device,
        Expect::Reject,
        r####"fn d<'a>(x: &'a u32) -> u32 { *x }"####,
    ),
    (
        Kind::Device,
        Expect::Accept,
        r####"fn d(x: &u32) -> u32 { *x }"####,
    ),
    (
        Kind::Device,
        Expect::Accept,
        r####"fn d<T: Float>(x: T) -> T where T: Copy { x.abs() }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub async fn k(y: &mut [u32]) { y[0] = 1; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub const fn k(y: &mut [u32]) { }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub unsafe fn k(y: &mut [u32]) { y[0] = 1; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub extern "C" fn k(y: &mut [u32]) { y[0] = 1; }"####,
    ),
    (
        Kind::Device,
        Expect::Reject,
        r####"async fn d(x: u32) -> u32 { x }"####,
    ),
    (
        Kind::Device,
        Expect::Accept,
        r####"const fn d(x: u32) -> u32 { x + 1 }"####,
    ),
    (
        Kind::Device,
        Expect::Reject,
        r####"unsafe fn d(x: u32) -> u32 { x }"####,
    ),
    (
        Kind::Device,
        Expect::Reject,
        r####"extern "C" fn d(x: u32) -> u32 { x }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) -> u32 { 0 }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) -> &u32 { &y[0] }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) -> () { y[0] = 1; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(self, y: &mut [u32]) { }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32], ...) { }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(p: *mut u32) { }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { let p = &raw const y[0]; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { let p = y.as_ptr(); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { let p: *const u32 = 0 as *const u32; }"####,
    ),
    (
        Kind::Device,
        Expect::Reject,
        r####"fn d(p: *const f32) -> f32 { 0.0 }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(x: &[u32], y: &mut [u32]) { y[0] = x[0] + x[1] + x[2] + x[3] + x[0] + x[1] + x[2] + x[3] + x[0] + x[1] + x[2] + x[3] + x[0] + x[1] + x[2] + x[3] + x[0] + x[1] + x[2] + x[3] + x[0] + x[1] + x[2] + x[3] + x[0] + x[1] + x[2] + x[3] + x[0] + x[1] + x[2] + x[3] + x[0] + x[1] + x[2] + x[3] + x[0] + x[1] + x[2] + x[3] + x[0] + x[1] + x[2] + x[3] + x[0] + x[1] + x[2] + x[3] + x[0] + x[1] + x[2] + x[3] + x[0] + x[1] + x[2] + x[3] + x[0] + x[1] + x[2] + x[3] + x[0] + x[1] + x[2] + x[3] + x[0] + x[1] + x[2] + x[3] + x[0] + x[1] + x[2] + x[3] + x[0] + x[1] + x[2] + x[3] + x[0] + x[1] + x[2] + x[3] + x[0] + x[1] + x[2] + x[3] + x[0] + x[1] + x[2] + x[3] + x[0] + x[1] + x[2] + x[3] + x[0] + x[1] + x[2] + x[3] + x[0] + x[1] + x[2] + x[3]; }"####,
    ),
    (
        Kind::Device,
        Expect::Accept,
        r####"fn d(x: u32) -> u32 { x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x * x }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(x: &[u32], y: &mut [u32]) { y[0] = ((((((((((((((((((((((((((((((((((((((((((((((((((x[0] + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(x: &[u32], y: &mut [u32]) { let mut v = 0u32; if v < 5 { if v < 5 { if v < 5 { if v < 5 { if v < 5 { if v < 5 { if v < 5 { if v < 5 { if v < 5 { if v < 5 { if v < 5 { if v < 5 { if v < 5 { if v < 5 { if v < 5 { if v < 5 { if v < 5 { if v < 5 { if v < 5 { if v < 5 { if v < 5 { if v < 5 { if v < 5 { if v < 5 { if v < 5 { if v < 5 { if v < 5 { if v < 5 { if v < 5 { if v < 5 { if v < 5 { if v < 5 { if v < 5 { if v < 5 { if v < 5 { if v < 5 { if v < 5 { if v < 5 { if v < 5 { if v < 5 { if v < 5 { if v < 5 { if v < 5 { if v < 5 { if v < 5 { if v < 5 { if v < 5 { if v < 5 { if v < 5 { if v < 5 {  v = 7; } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } }  y[0] = v; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(x: &[u32], y: &mut [u32]) { y[0] = { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { x[0] } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } }; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(x: &[u32], y: &mut [u32]) { let mut v = 0u32; loop { loop { loop { loop { loop { loop { loop { loop { loop { loop { loop { loop { loop { loop { loop { loop { loop { loop { loop { loop { loop { loop { loop { loop { loop { loop { loop { loop { loop { loop { loop { loop { loop { loop { loop { loop { loop { loop { loop { loop { loop { loop { loop { loop { loop { loop { loop { loop { loop { loop {  v += 1; break; } break; } break; } break; } break; } break; } break; } break; } break; } break; } break; } break; } break; } break; } break; } break; } break; } break; } break; } break; } break; } break; } break; } break; } break; } break; } break; } break; } break; } break; } break; } break; } break; } break; } break; } break; } break; } break; } break; } break; } break; } break; } break; } break; } break; } break; } break; } break; } break; } break; }  y[0] = v; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(x: &[u32], y: &mut [u32]) { y[0] = !!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!x[0]; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(x: &[u32], y: &mut [u32]) { y[0] = ((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((x[0] + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(x: &[u32], y: &mut [u32]) { y[0] = { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { x[0] } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } }; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(x: &[u32], y: &mut [u32]) { y[0] = !!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!x[0]; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(x: &[u32], y: &mut [u32]) { y[0] = ((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((x[0] + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1) + 1); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(x: &[u32], y: &mut [u32]) { y[0] = { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { x[0] } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } }; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(x: &[u32], y: &mut [u32]) { y[0] = !!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!x[0]; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(x: &[u32], y: &mut [u32]) { y[0] = ((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((x[0])))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(x: &[u32], y: &mut [u32]) { y[0] = !!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!x[0]; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(x: &[u32], y: &mut [u32]) { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { { {   } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } } }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { let café = 3u32; y[0] = café; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { let 数 = 3u32; let δ = 数 * 2; y[0] = δ; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn kérnel(y: &mut [u32]) { y[0] = 1; }"####,
    ),
    (
        Kind::Device,
        Expect::Accept,
        r####"fn 倍(x: u32) -> u32 { x * 2 }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { let r#type = 3u32; y[0] = r#type; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { let x = 1u32; let x = x + 1; let x = x * 3; y[0] = x; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { let y0 = y[0]; { let y0 = y0 + 1; y[1] = y0; } y[0] = y0; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { for y0 in 0..2u32 { let y0 = y0 * 2; y[0] += y0; } }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { let len = y.len(); let y = 5usize; let _ = len + y; }"####,
    ),
    (
        Kind::Device,
        Expect::Accept,
        r####"fn d(x: u32) -> u32 { let x = x as u64; let x = x as u32; x }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { y[0] = 'a: loop { break 'a 5; }; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { y[0] = 'o: loop { loop { break 'o 7; } }; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { 'o: for i in 0..4 { for j in 0..4 { if i * j > 3 { break 'o; } y[0] += 1; } } }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { 'o: while y[0] < 10 { y[0] += 1; continue 'o; } }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { y[0] = 'b: { 5 }; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { y[0] = loop { break; }; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(p: Pair, y: &mut [u32]) { y[0] = p.0; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { let p = Pair(1, 2.0); y[0] = p.0; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { let p = Pair { 0: 1, 1: 2.0 }; y[0] = p.0; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { let Pair(a, b) = Pair(1, 2.0); y[0] = a; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { let p = Pair { 0: 1, ..q }; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { let t = (1u32, (2u32, 3u32)); y[0] = (t.1).1 + t.0; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { let (a, (b, c)) = (1u32, (2u32, 3u32)); y[0] = a + b + c; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { let [a, b] = [1u32, 2]; y[0] = a + b; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { let [a, ..] = [1u32, 2]; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { let S { a, b } = s; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { let v = Color::Red(1); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { match y[0] { Red => 1, _ => 2 }; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { match y[0] { Color::Red => 1, _ => 2 }; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { match y[0] { x @ 1..=3 => x, _ => 2 }; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { match y[0] { ref x => *x, }; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { match (y[0], y[1]) { (0, _) | (_, 0) => 0, (a, b) => a + b }; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { let o = Some(1u32); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { let o: Option<u32> = None; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { let r = Ok::<u32, u32>(1); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { let e = Err(1u32); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { let v = Vec::new(); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { let b = Box::new(1u32); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { let s = String::new(); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { let v: Vec<u32> = Vec::with_capacity(2); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { core::mem::swap(&mut y[0], &mut y[1]); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { let m = std::cmp::max(y[0], y[1]); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { let s = core::mem::size_of::<u32>(); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { let b = core::hint::black_box(1u32); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { let p = std::process::id(); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { std::thread::sleep(d); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { let t = std::time::Instant::now(); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { let r = core::ptr::null::<u32>(); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { let a = alloc::vec::Vec::<u32>::new(); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { let x = ::std::f32::consts::PI; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { let x = core::f32::consts::E; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { let m = u32::MAX; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { let m = f32::EPSILON; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { let x = u32::from(3u8); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { let x = u32::try_from(3u64); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { let x = Dim3::new(1, 1, 1); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { let x = i32::abs(-3); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { let x = f32::sqrt(2.0); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { let x = <f32>::max(1.0, 2.0); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { let x = f32::from_bits(0u32); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { let x = f16::from_f32(1.0); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { let x = u32::pow(2, 3); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { let x = u32::len(3); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { let x = f64::consts(); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { y[0] = y[1].min(1); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { y[0] = y[1].max(1); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { y[0] = y[1].clamp(0, 4); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { y[0] = y[1].wrapping_add(1); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { y[0] = y[1].wrapping_sub(1); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { y[0] = y[1].wrapping_mul(3); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { y[0] = y[1].leading_zeros(); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { y[0] = y[1].trailing_zeros(); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { y[0] = y[1].count_ones(); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { y[0] = y[1].count_zeros(); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { y[0] = y[1].reverse_bits(); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { y[0] = y[1].pow(2); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { y[0] = y[1].rotate_left(3); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { y[0] = y[1].rotate_right(3); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { y[0] = y[1].div_ceil(3); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { y[0] = y[1].saturating_add(1); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { y[0] = y[1].saturating_sub(1); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { y[0] = y[1].abs_diff(3); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { y[0] = y[1].is_power_of_two() as u32; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { y[0] = y[1].checked_div(2).unwrap_or(0); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { y[0] = y[1].checked_add(1); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { y[0] = y[1].overflowing_add(1).0; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { y[0] = y[1].clone(); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { y[0] = y[1].into(); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { y[0] = y[1].to_string(); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { y[0] = y[1].to_be(); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { y[0] = y[1].swap_bytes(); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { y[0] = y[1].ilog2(); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { y[0] = y[1].isqrt(); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { y[0] = y[1].unwrap(); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { y[0] = y[1].get(0); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { y[0] = y[1].powf(2.0); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { y[0] = y[1].my_trait_fn(); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { y[0] = y[1].fmt(); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { y[0] = y[1].to_owned(); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { y[0] = y[1].cmp(&1); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { y[0] = y[1].partial_cmp(&1); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { y[0] = y[1].eq(&1); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { y[0] = y[1].hash(h); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(x: &[u32], y: &mut [u32]) { let _ = y.iter().sum(); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(x: &[u32], y: &mut [u32]) { let _ = y.iter().map(|v| v + 1).count(); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(x: &[u32], y: &mut [u32]) { let _ = y.get(1); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(x: &[u32], y: &mut [u32]) { let _ = y.get_mut(1); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(x: &[u32], y: &mut [u32]) { let _ = y.first(); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(x: &[u32], y: &mut [u32]) { let _ = y.last(); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(x: &[u32], y: &mut [u32]) { let _ = y.contains(&1); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(x: &[u32], y: &mut [u32]) { let _ = y.iter().copied().max(); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(x: &[u32], y: &mut [u32]) { let _ = y.windows(2).count(); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(x: &[u32], y: &mut [u32]) { let _ = y.chunks(2).len(); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(x: &[u32], y: &mut [u32]) { let _ = y.to_vec(); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(x: &[u32], y: &mut [u32]) { let _ = y.fill(0); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(x: &[u32], y: &mut [u32]) { let _ = y.sort(); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(x: &[u32], y: &mut [u32]) { let _ = y.swap(0, 1); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(x: &[u32], y: &mut [u32]) { let _ = y.reverse(); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(x: &[u32], y: &mut [u32]) { let _ = y.copy_from_slice(x); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(x: &[u32], y: &mut [u32]) { let _ = y.into_iter().next(); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(x: &[u32], y: &mut [u32]) { let _ = y.split_at(1); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { let _ = y.len(); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { let _ = y.is_empty(); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { let _ = y.iter().enumerate(); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { let _ = y.iter_mut(); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [f32]) { let _ = y[0].sin(); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [f32]) { let _ = y[0].cos(); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [f32]) { let _ = y[0].exp(); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [f32]) { let _ = y[0].ln(); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [f32]) { let _ = y[0].sqrt(); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [f32]) { let _ = y[0].mul_add(1.0, 2.0); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [f32]) { let _ = y[0].atan2(1.0); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [f32]) { let _ = y[0].powi(2); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [f32]) { let _ = y[0].powf(0.5); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [f32]) { let _ = y[0].fract(); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [f32]) { let _ = y[0].recip(); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [f32]) { let _ = y[0].to_bits(); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [f32]) { let _ = y[0].is_nan(); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [f32]) { let _ = y[0].sin_cos().0; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [f32]) { let _ = y[0].hypot(3.0); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [f32]) { let _ = y[0].rsqrt(); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [f32]) { let _ = y[0].fast_exp(); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [f32]) { let _ = y[0].tanh(); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [f32]) { let _ = y[0].erf(); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [f32]) { let _ = y[0].cbrt(); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k<T: Float>(y: &mut [T]) { y[0] = y[0].my_scale(); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k<T: Float>(y: &mut [T]) { y[0] = T::my_scale(y[0]); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k<T: Float>(y: &mut [T]) { y[0] = <T as Scale>::scale(y[0]); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k<T: Float>(y: &mut [T]) { y[0] = <T as Float>::sqrt(y[0]); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k<T: Float, const N: usize>(y: &mut [T]) { let a = [T::ZERO; N]; y[0] = a[0]; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k<const N: u32>(y: &mut [u32]) { y[0] = N; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k<const N: f32>(y: &mut [f32]) { }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k<T = f32>(y: &mut [T]) { }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k<#[cfg(any())] T>(y: &mut [u32]) { }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { y[0] = twice::<u32>(1); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { y[0] = helpers::twice::<u32>(1); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { y[0] = helpers::<u32>::twice(1); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { y[0] = k(y); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { let f = 1u32; y[0] = f(2); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { y[0] = (helpers::twice)(2); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { y[0] = [helpers::twice][0](2); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [impl Copy]) { }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32], f: fn(u32) -> u32) { }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32], d: &dyn Fn()) { }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32], v: Vec<u32>) { }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32], s: &str) { }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32], t: (u32, u32)) { }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32], r: &u32) { }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k((a, b): (u32, u32)) { }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32], _: u32) { y[0] = 1; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(mut y: &mut [u32]) { y[0] = 1; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { y[0] = 1;; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { ;;; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) {  }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { y[0] = { 1 }; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { y[0] = if y[1] > 0 { 1 } else { 2 }; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { y[0] = y[1] as u8 as u32; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { y[0] = !y[1] & 3 | 4 ^ 5 << 1 >> 1; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { y[0] %= 3; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { y[0] = (y[1] > 2 && y[2] < 4 || y[0] == 1) as u32; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { let _ = 0..10; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { let _ = ..; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { let r = &mut y[0]; *r = 3; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { return; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { y[0] = 'a' as u32; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { y[0] = "s".len() as u32; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { y[0] = b'a' as u32; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { y[0] = 1_000u32; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { y[0] = 0xffu32; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { y[0] = 1e3 as u32; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { y[0] = 1u128 as u32; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { let x: i128 = 1; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { let x = 5u32?; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { let x = try { 1 }; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { let x = const { 1 }; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { let x = y[0].await; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { yield 1; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { let _ = _; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { if let 1 = y[0] { } }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { while let 1 = y[0] { } }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { let Some(x) = y.get(0) else { return; }; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { unsafe { y[0] = 1; } }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { y[0] = unsafe { *y.get_unchecked(1) }; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { unsafe { *y.get_unchecked_mut(0) = 2 }; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { unsafe { foo() } }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { fn inner() {}  }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { struct S; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { const C: u32 = 3; y[0] = C; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { use core::f32::consts::PI; y[0] = PI as u32; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { static S: u32 = 1; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { impl X {} }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { let x = self; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { y[0] = Self::C; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Reject,
        r####"pub fn k(y: &mut [u32]) { let x: Self = 1; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { y[0] = y[1..].len() as u32; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { let s = &y[1..3]; y[0] = s[0]; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { let a = [[0u32; 2]; 3]; y[0] = a[2][1]; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { let a: [u32; 3] = [1, 2, 3]; for v in a { y[0] += v; } }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { for (i, v) in y.iter().enumerate() { } }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { for i in (0..10).rev().step_by(2) { y[0] += i; } }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { let t = thread_idx(); y[0] = t.x + t.y; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { sync_threads(); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { let sh = shared_array::<[u32; 32]>(); sh[0] = 1; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { let x = y[0] as f32 as f64; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { let x = -(y[0] as i32); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { let x = *&y[0]; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { y[0] = 3 - -1i32 as u32; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { let z = [1u32, #[cfg(any())] 2, 3]; y[0] = z.len() as u32; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { y[0] = helpers::add(#[cfg(any())] 1, 2); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { let p = Pair { 0: 1, #[cfg(any())] 1: 2.0, #[cfg(not(any()))] 1: 3.0 }; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(#[cfg(any())] a: u32, y: &mut [u32]) { }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { #[cfg(any())] for i in 0..2 { y[i] = 1; } }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { #[cfg(any())] const C: u32 = 1; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { #[cfg(any())] { println!("host"); } }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { #[cfg_attr(any(), cfg(any()))] y[0] = 1; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { let z = [1u32, #[cfg(all())] 2, 3]; y[0] = z.len() as u32; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { y[0] = helpers::add(#[cfg(all())] 1, 2); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { let p = Pair { 0: 1, #[cfg(all())] 1: 2.0, #[cfg(not(all()))] 1: 3.0 }; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(#[cfg(all())] a: u32, y: &mut [u32]) { }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { #[cfg(all())] for i in 0..2 { y[i] = 1; } }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { #[cfg(all())] const C: u32 = 1; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { #[cfg(all())] { println!("host"); } }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { #[cfg_attr(all(), cfg(any()))] y[0] = 1; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { let z = [1u32, #[cfg(debug_assertions)] 2, 3]; y[0] = z.len() as u32; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { y[0] = helpers::add(#[cfg(debug_assertions)] 1, 2); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { let p = Pair { 0: 1, #[cfg(debug_assertions)] 1: 2.0, #[cfg(not(debug_assertions))] 1: 3.0 }; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(#[cfg(debug_assertions)] a: u32, y: &mut [u32]) { }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { #[cfg(debug_assertions)] for i in 0..2 { y[i] = 1; } }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { #[cfg(debug_assertions)] const C: u32 = 1; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { #[cfg(debug_assertions)] { println!("host"); } }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { #[cfg_attr(debug_assertions, cfg(any()))] y[0] = 1; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { let z = [1u32, #[cfg(not(debug_assertions))] 2, 3]; y[0] = z.len() as u32; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { y[0] = helpers::add(#[cfg(not(debug_assertions))] 1, 2); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { let p = Pair { 0: 1, #[cfg(not(debug_assertions))] 1: 2.0, #[cfg(not(not(debug_assertions)))] 1: 3.0 }; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(#[cfg(not(debug_assertions))] a: u32, y: &mut [u32]) { }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { #[cfg(not(debug_assertions))] for i in 0..2 { y[i] = 1; } }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { #[cfg(not(debug_assertions))] const C: u32 = 1; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { #[cfg(not(debug_assertions))] { println!("host"); } }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { #[cfg_attr(not(debug_assertions), cfg(any()))] y[0] = 1; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { let z = [1u32, #[cfg(feature = "x")] 2, 3]; y[0] = z.len() as u32; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { y[0] = helpers::add(#[cfg(feature = "x")] 1, 2); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { let p = Pair { 0: 1, #[cfg(feature = "x")] 1: 2.0, #[cfg(not(feature = "x"))] 1: 3.0 }; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(#[cfg(feature = "x")] a: u32, y: &mut [u32]) { }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { #[cfg(feature = "x")] for i in 0..2 { y[i] = 1; } }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { #[cfg(feature = "x")] const C: u32 = 1; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { #[cfg(feature = "x")] { println!("host"); } }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { #[cfg_attr(feature = "x", cfg(any()))] y[0] = 1; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { let z = [1u32, #[cfg(unix)] 2, 3]; y[0] = z.len() as u32; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { y[0] = helpers::add(#[cfg(unix)] 1, 2); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { let p = Pair { 0: 1, #[cfg(unix)] 1: 2.0, #[cfg(not(unix))] 1: 3.0 }; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(#[cfg(unix)] a: u32, y: &mut [u32]) { }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { #[cfg(unix)] for i in 0..2 { y[i] = 1; } }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { #[cfg(unix)] const C: u32 = 1; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { #[cfg(unix)] { println!("host"); } }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { #[cfg_attr(unix, cfg(any()))] y[0] = 1; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { let z = [1u32, #[cfg(all(any(), all()))] 2, 3]; y[0] = z.len() as u32; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { y[0] = helpers::add(#[cfg(all(any(), all()))] 1, 2); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { let p = Pair { 0: 1, #[cfg(all(any(), all()))] 1: 2.0, #[cfg(not(all(any(), all())))] 1: 3.0 }; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(#[cfg(all(any(), all()))] a: u32, y: &mut [u32]) { }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { #[cfg(all(any(), all()))] for i in 0..2 { y[i] = 1; } }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { #[cfg(all(any(), all()))] const C: u32 = 1; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { #[cfg(all(any(), all()))] { println!("host"); } }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { #[cfg_attr(all(any(), all()), cfg(any()))] y[0] = 1; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { let z = [1u32, #[cfg(test)] 2, 3]; y[0] = z.len() as u32; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { y[0] = helpers::add(#[cfg(test)] 1, 2); }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { let p = Pair { 0: 1, #[cfg(test)] 1: 2.0, #[cfg(not(test))] 1: 3.0 }; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(#[cfg(test)] a: u32, y: &mut [u32]) { }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { #[cfg(test)] for i in 0..2 { y[i] = 1; } }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { #[cfg(test)] const C: u32 = 1; }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { #[cfg(test)] { println!("host"); } }"####,
    ),
    (
        Kind::Kernel,
        Expect::Accept,
        r####"pub fn k(y: &mut [u32]) { #[cfg_attr(test, cfg(any()))] y[0] = 1; }"####,
    ),
];
