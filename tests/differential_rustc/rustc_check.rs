//! The differential suite's host reference (`tests/differential_random/reference.rs`) checked
//! against rustc: `rustc_kernels.rs` holds generated kernels (no shared memory or warp
//! collectives, one parameter list) printed twice, as host functions that rustc compiles and this
//! file runs thread by thread, and as `#[kernel]`s. For each:
//! reference == rustc's host function, and the `#[kernel]` macro's AST of the printed source runs
//! on the simulator to the same result (the printed source means what the generated AST means).
//!
//! `rustc_kernels.rs` is generated: after a generator change,
//! `FERROCUDA_BLESS=1 cargo test --test differential_rustc rustc_kernels_are_current` rewrites it.

use std::cell::Cell;
use std::fmt::Write;

use crate::gen::{self, Features, CATALOGUE};
use crate::rustc_kernels as rk;
use crate::{compare, reference};

/// First seed of the checked-in set.
const RUSTC_BASE: u64 = 0xc0ffee;
const RUSTC_COUNT: usize = 30;

fn rustc_case(i: usize) -> gen::Case {
    gen::generate(
        crate::rng::case_seed(RUSTC_BASE, i as u64),
        Features::host_checkable(),
    )
}

/// What the printed host functions call instead of the device API: the ids of the thread being
/// run, and atomics as plain read-modify-writes (threads run one at a time).
#[allow(dead_code)]
pub mod shims {
    use super::IDS;
    pub use half::{bf16, f16};

    pub struct Dim3 {
        pub x: u32,
        pub y: u32,
        pub z: u32,
    }
    fn dim(i: usize) -> Dim3 {
        let v = IDS.with(|c| c.get())[i];
        Dim3 { x: v, y: 0, z: 0 }
    }
    pub fn thread_idx() -> Dim3 {
        dim(0)
    }
    pub fn block_idx() -> Dim3 {
        dim(1)
    }
    pub fn block_dim() -> Dim3 {
        let mut d = dim(2);
        (d.y, d.z) = (1, 1);
        d
    }
    pub fn grid_dim() -> Dim3 {
        let mut d = dim(3);
        (d.y, d.z) = (1, 1);
        d
    }
    pub fn lane_id() -> u32 {
        thread_idx().x % 32
    }
    pub fn warp_size() -> u32 {
        32
    }
    /// Nothing to wait for: threads run one after another, and these kernels share no memory.
    pub fn sync_threads() {}

    pub trait Atomic: Copy + PartialEq + PartialOrd {
        fn add(self, v: Self) -> Self;
        fn sub(self, v: Self) -> Self;
        fn and(self, v: Self) -> Self;
        fn or(self, v: Self) -> Self;
        fn xor(self, v: Self) -> Self;
    }
    macro_rules! ints {
        ($($t:ty),*) => {$(
            impl Atomic for $t {
                fn add(self, v: Self) -> Self { self.wrapping_add(v) }
                fn sub(self, v: Self) -> Self { self.wrapping_sub(v) }
                fn and(self, v: Self) -> Self { self & v }
                fn or(self, v: Self) -> Self { self | v }
                fn xor(self, v: Self) -> Self { self ^ v }
            }
        )*};
    }
    ints!(u32, i32, u64, i64);
    macro_rules! floats {
        ($($t:ty),*) => {$(
            impl Atomic for $t {
                fn add(self, v: Self) -> Self { self + v }
                fn sub(self, _: Self) -> Self { unreachable!() }
                fn and(self, _: Self) -> Self { unreachable!() }
                fn or(self, _: Self) -> Self { unreachable!() }
                fn xor(self, _: Self) -> Self { unreachable!() }
            }
        )*};
    }
    floats!(f32, f64);

    fn rmw<T: Atomic>(p: &mut T, f: impl FnOnce(T) -> T) -> T {
        let old = *p;
        *p = f(old);
        old
    }
    pub fn atomic_add<T: Atomic>(p: &mut T, v: T) -> T {
        rmw(p, |o| o.add(v))
    }
    pub fn atomic_sub<T: Atomic>(p: &mut T, v: T) -> T {
        rmw(p, |o| o.sub(v))
    }
    pub fn atomic_and<T: Atomic>(p: &mut T, v: T) -> T {
        rmw(p, |o| o.and(v))
    }
    pub fn atomic_or<T: Atomic>(p: &mut T, v: T) -> T {
        rmw(p, |o| o.or(v))
    }
    pub fn atomic_xor<T: Atomic>(p: &mut T, v: T) -> T {
        rmw(p, |o| o.xor(v))
    }
    // Operands of atomic min/max are never NaN: `<` decides.
    pub fn atomic_min<T: Atomic>(p: &mut T, v: T) -> T {
        rmw(p, |o| if v < o { v } else { o })
    }
    pub fn atomic_max<T: Atomic>(p: &mut T, v: T) -> T {
        rmw(p, |o| if v > o { v } else { o })
    }
    pub fn atomic_exch<T: Atomic>(p: &mut T, v: T) -> T {
        rmw(p, |_| v)
    }
    pub fn atomic_cas<T: Atomic>(p: &mut T, compare: T, v: T) -> T {
        rmw(p, |o| if o == compare { v } else { o })
    }
    pub fn atomic_inc(p: &mut u32, limit: u32) -> u32 {
        rmw(p, |o| if o >= limit { 0 } else { o + 1 })
    }
    pub fn atomic_dec(p: &mut u32, limit: u32) -> u32 {
        rmw(p, |o| if o == 0 || o > limit { limit } else { o - 1 })
    }
}

thread_local! {
    /// `[threadIdx.x, blockIdx.x, blockDim.x, gridDim.x]` of the thread a host function runs as.
    static IDS: Cell<[u32; 4]> = const { Cell::new([0; 4]) };
}

/// Runs a printed host function over the grid, thread after thread, on the case's data.
fn run_host(case: &gen::Case, f: rk::HostFn) -> Vec<Vec<u8>> {
    let b = &case.init;
    let (inp, fin, din) = (
        typed::<u64>(&b[0]),
        typed::<f32>(&b[1]),
        typed::<f64>(&b[2]),
    );
    let (mut o8, mut o16) = (typed::<u8>(&b[3]), typed::<i16>(&b[4]));
    let (mut o32, mut o64) = (typed::<u32>(&b[5]), typed::<i64>(&b[6]));
    let (mut of, mut od) = (typed::<f32>(&b[7]), typed::<f64>(&b[8]));
    let (mut ga, mut gi) = (typed::<u32>(&b[9]), typed::<i32>(&b[10]));
    let (mut gu, mut gl) = (typed::<u64>(&b[11]), typed::<i64>(&b[12]));
    let (mut gf, mut gd) = (typed::<f32>(&b[13]), typed::<f64>(&b[14]));
    for blk in 0..case.grid {
        for t in 0..case.block {
            IDS.with(|c| c.set([t, blk, case.block, case.grid]));
            f(
                &inp, &fin, &din, &mut o8, &mut o16, &mut o32, &mut o64, &mut of, &mut od, &mut ga,
                &mut gi, &mut gu, &mut gl, &mut gf, &mut gd,
            );
        }
    }
    vec![
        bytes(&inp),
        bytes(&fin),
        bytes(&din),
        bytes(&o8),
        bytes(&o16),
        bytes(&o32),
        bytes(&o64),
        bytes(&of),
        bytes(&od),
        bytes(&ga),
        bytes(&gi),
        bytes(&gu),
        bytes(&gl),
        bytes(&gf),
        bytes(&gd),
    ]
}

/// Numbers to and from little-endian bytes.
trait Le: Copy {
    const SIZE: usize;
    fn get(b: &[u8]) -> Self;
    fn put(self, out: &mut Vec<u8>);
}
macro_rules! le {
    ($($t:ty),*) => {$(
        impl Le for $t {
            const SIZE: usize = std::mem::size_of::<$t>();
            fn get(b: &[u8]) -> Self { <$t>::from_le_bytes(b.try_into().unwrap()) }
            fn put(self, out: &mut Vec<u8>) { out.extend_from_slice(&self.to_le_bytes()) }
        }
    )*};
}
le!(u8, i16, u32, i32, u64, i64, f32, f64);

fn typed<T: Le>(b: &[u8]) -> Vec<T> {
    b.chunks(T::SIZE).map(T::get).collect()
}

fn bytes<T: Le>(v: &[T]) -> Vec<u8> {
    let mut out = Vec::new();
    for x in v {
        x.put(&mut out);
    }
    out
}

/// The checked-in kernels' source, as `rustc_kernels.rs` must read.
fn expected_file() -> String {
    let mut host = String::new();
    let mut device = String::new();
    let mut names = Vec::new();
    for i in 0..RUSTC_COUNT {
        let case = rustc_case(i);
        names.push(case.def.name);
        let body = case
            .source
            .strip_prefix("#[kernel]\n")
            .expect("printed with #[kernel]");
        for l in body.lines() {
            let _ = writeln!(host, "    {l}");
        }
        let _ = writeln!(device, "    #[kernel]");
        for l in body.lines() {
            let _ = writeln!(device, "    {l}");
        }
    }
    let sig: Vec<String> = CATALOGUE
        .iter()
        .map(|(_, elem, role)| {
            let t = crate::print::type_text(&crate::syntax::ty(*elem));
            if *role == gen::Role::Input {
                format!("&[{t}]")
            } else {
                format!("&mut [{t}]")
            }
        })
        .collect();
    let mut out = String::new();
    let _ = write!(
        out,
        "//! @generated by `FERROCUDA_BLESS=1 cargo test --test differential_rustc \
         rustc_kernels_are_current`:\n\
         //! do not edit. {RUSTC_COUNT} kernels of the generator (`Features::host_checkable`), each as a host\n\
         //! function (`host`) and as a `#[kernel]` (`device`); see `rustc_check.rs`.\n\
         #![allow(warnings, clippy::all, clippy::pedantic)]\n\n\
         pub type HostFn = fn({});\n\n\
         pub const HOST: [HostFn; {RUSTC_COUNT}] = [{}];\n\n\
         pub fn device_ast(i: usize) -> &'static ferrocuda::kernel_ir::ast::FnDef {{\n    \
         match i {{\n",
        sig.join(", "),
        names
            .iter()
            .map(|n| format!("host::{n}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    for (i, n) in names.iter().enumerate() {
        let _ = writeln!(out, "        {i} => device::{n}::ast(),");
    }
    let _ = write!(
        out,
        "        _ => unreachable!(),\n    }}\n}}\n\n\
         pub mod host {{\n    use crate::rustc_check::shims::*;\n\n{host}}}\n\n\
         pub mod device {{\n    use ferrocuda::prelude::*;\n\n{device}}}\n"
    );
    out
}

#[test]
fn rustc_kernels_are_current() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/differential_rustc/rustc_kernels.rs"
    );
    let want = expected_file();
    if std::env::var("FERROCUDA_BLESS").as_deref() == Ok("1") {
        std::fs::write(path, &want).expect("write rustc_kernels.rs");
        return;
    }
    let have = std::fs::read_to_string(path).expect("read rustc_kernels.rs");
    assert!(
        have == want,
        "tests/differential_rustc/rustc_kernels.rs is not what the generator makes now; \
         regenerate it with FERROCUDA_BLESS=1 cargo test --test differential_rustc rustc_kernels_are_current"
    );
}

#[test]
fn reference_agrees_with_rustc() {
    let mut failures = Vec::new();
    for (i, &f) in rk::HOST.iter().enumerate() {
        let case = rustc_case(i);
        let r = match reference::run(&case) {
            reference::RefOutcome::Done(b) => b,
            reference::RefOutcome::Panicked(p) => {
                failures.push(format!("{}: the reference panicked: {p:?}", case.def.name));
                continue;
            }
        };
        let host = run_host(&case, f);
        if let Err(m) = compare::compare_buffers(&case, &r, &host, "reference", "rustc", false) {
            failures.push(format!("{}: {m}", case.def.name));
        }
        // The printed source through `#[kernel]`, on the simulator.
        let macro_case = gen::Case {
            def: rk::device_ast(i),
            ..rustc_case(i)
        };
        let s = crate::backends::run_sim(&macro_case, macro_case.def);
        if let Err(m) = compare::check(
            &macro_case,
            &reference::RefOutcome::Done(r),
            "#[kernel] on the simulator",
            &s,
            true,
        ) {
            failures.push(format!("{}: {m}", case.def.name));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
