//! Integer overflow checks: with them on, `+ - *`, unary `-`, out-of-range shifts, `abs` and
//! `pow` panic with Rust's words at the operator's `file:line:col`, `/` and `%` always check zero
//! and `MIN / -1`, and `wrapping_*` never panics; the setting follows the build profile unless
//! `#[kernel(overflow_checks = ..)]` says otherwise, also for the device functions a kernel calls.
//!
//! Each body takes the device: the plain tests run it on the simulator, the `_gpu` twins (run
//! with `--ignored` from the GPU bundle) on CUDA device 0.

mod common;

use std::ops::{Add, Mul, Sub};

use common::{gpu, serial};
use ferrocuda::prelude::*;
use host_runtime::KernelPanic;
use kernel_ir::ir::{OverflowOp, PanicKind};

#[kernel(overflow_checks = true)]
pub fn checked(op: u32, a: i32, b: i32, out: &mut [i32]) {
    let s = b as u32;
    out[0] = match op {
        0 => a + b,
        1 => a - b,
        2 => a * b,
        3 => -a,
        4 => a << b,
        5 => a >> s,
        6 => a / b,
        7 => a % b,
        8 => a.abs(),
        9 => a.pow(s),
        _ => {
            let mut x = a;
            x *= b;
            x
        }
    };
}

#[kernel(overflow_checks = true)]
pub fn never_panics(a: i32, b: i32, out: &mut [i32]) {
    out[0] = a.wrapping_add(b);
    out[1] = a.wrapping_sub(b);
    out[2] = a.wrapping_mul(b);
    out[3] = a.wrapping_neg();
    out[4] = a.wrapping_abs();
    out[5] = (a as u32).wrapping_add(b as u32) as i32;
    out[6] = a as u8 as i32 + (b as i8) as i32;
    out[7] = a.saturating_add(b);
}

#[kernel]
pub fn follows_profile(a: u32, out: &mut [u32]) {
    out[0] = a + 1;
}

#[kernel(overflow_checks = false)]
pub fn unchecked(a: i32, b: i32, out: &mut [i32]) {
    out[0] = a + b;
    out[1] = a * b;
    out[2] = -a;
    out[3] = a << b;
    out[4] = increment(a);
}

#[kernel(overflow_checks = true)]
pub fn calls_device(a: i32, out: &mut [i32]) {
    out[0] = increment(a);
}

#[device]
fn increment(x: i32) -> i32 {
    x + 1
}

/// `out[i] = a[i] op b[i]` (op 0: add, 1: sub, 2: mul) for every `i`, or for `i == only` alone.
#[kernel(overflow_checks = true)]
pub fn edges<T: DeviceType + Add<Output = T> + Sub<Output = T> + Mul<Output = T>>(
    op: u32,
    only: u32,
    a: &[T],
    b: &[T],
    out: &mut [T],
) {
    let i = thread_idx().x;
    if i < out.len() as u32 && (only == u32::MAX || i == only) {
        let (x, y) = (a[i as usize], b[i as usize]);
        out[i as usize] = if op == 0 {
            x + y
        } else if op == 1 {
            x - y
        } else {
            x * y
        };
    }
}

/// One operand a constant (the PTX compares the other with the bounds of an interval).
#[kernel(overflow_checks = true)]
pub fn constant_operands(op: u32, a: i8, b: u8, c: i64, d: u64, out: &mut [i64]) {
    out[0] = match op {
        0 => (a + 100) as i64,
        1 => (a - 100) as i64,
        2 => (a * -3) as i64,
        3 => (-100 - a) as i64,
        4 => (b + 200) as i64,
        5 => (b * 3) as i64,
        6 => (10 - b) as i64,
        7 => c * -1000,
        8 => c - i64::MAX,
        9 => (d * 1000) as i64,
        _ => (d + u64::MAX / 2) as i64,
    };
}

/// Shifts of types other than `i32`: the limit is the shifted value's width, and the amount's
/// own type decides what a negative amount means (a huge unsigned amount).
#[kernel(overflow_checks = true)]
pub fn narrow_shifts(op: u32, a: u8, b: i64, n: i8, out: &mut [i64]) {
    out[0] = match op {
        0 => (a << n) as i64,
        1 => b >> n,
        _ => b << a,
    };
}

/// The math library stays unchecked inside a checked kernel.
#[kernel(overflow_checks = true)]
pub fn uses_library(x: &mut [f64]) {
    x[0] = x[0].sin() + x[0].powf(x[1]) + x[0].cbrt();
}

/// 1-based line of the first line of this file that contains `needle`, and the 1-based column
/// where `needle` starts in it.
fn pos_of(needle: &str) -> (u32, u32) {
    let src = include_str!("overflow_checks.rs");
    src.lines()
        .enumerate()
        .find_map(|(n, l)| l.find(needle).map(|c| (n as u32 + 1, c as u32 + 1)))
        .expect("text in this file")
}

fn run_checked(dev: &Device, op: u32, a: i32, b: i32) -> Result<i32, Error> {
    let s = dev.new_stream()?;
    let mut out = dev.alloc_zeroed::<i32>(1)?;
    checked::launch(&s, LaunchConfig::for_elements(1, 1), op, a, b, &mut out)?;
    Ok(out.to_vec()?[0])
}

fn kernel_panic(r: Result<impl std::fmt::Debug, Error>) -> KernelPanic {
    match r {
        Err(Error::KernelPanic(p)) => *p,
        other => panic!("expected a kernel panic, got {other:?}"),
    }
}

fn messages_and_positions(dev: &Device) {
    let cases: [(u32, i32, i32, PanicKind, &str, &str); 13] = [
        (
            0,
            i32::MAX,
            1,
            PanicKind::Overflow(OverflowOp::Add),
            "attempt to add with overflow",
            "a + b",
        ),
        (
            1,
            i32::MIN,
            1,
            PanicKind::Overflow(OverflowOp::Sub),
            "attempt to subtract with overflow",
            "a - b",
        ),
        (
            2,
            1 << 16,
            1 << 15,
            PanicKind::Overflow(OverflowOp::Mul),
            "attempt to multiply with overflow",
            "a * b",
        ),
        (
            3,
            i32::MIN,
            0,
            PanicKind::Overflow(OverflowOp::Neg),
            "attempt to negate with overflow",
            "-a,",
        ),
        (
            4,
            1,
            32,
            PanicKind::Overflow(OverflowOp::Shl),
            "attempt to shift left with overflow",
            "a << b",
        ),
        (
            4,
            1,
            -1,
            PanicKind::Overflow(OverflowOp::Shl),
            "attempt to shift left with overflow",
            "a << b",
        ),
        (
            5,
            1,
            40,
            PanicKind::Overflow(OverflowOp::Shr),
            "attempt to shift right with overflow",
            "a >> s",
        ),
        (
            6,
            1,
            0,
            PanicKind::DivByZero,
            "attempt to divide by zero",
            "a / b",
        ),
        (
            7,
            1,
            0,
            PanicKind::RemByZero,
            "attempt to calculate the remainder with a divisor of zero",
            "a % b",
        ),
        (
            6,
            i32::MIN,
            -1,
            PanicKind::DivOverflow,
            "attempt to divide with overflow",
            "a / b",
        ),
        (
            7,
            i32::MIN,
            -1,
            PanicKind::RemOverflow,
            "attempt to calculate the remainder with overflow",
            "a % b",
        ),
        (
            8,
            i32::MIN,
            0,
            PanicKind::Overflow(OverflowOp::Neg),
            "attempt to negate with overflow",
            "abs()",
        ),
        (
            9,
            3,
            21,
            PanicKind::Overflow(OverflowOp::Mul),
            "attempt to multiply with overflow",
            "pow(s)",
        ),
    ];
    for (op, a, b, kind, message, at) in cases {
        let p = kernel_panic(run_checked(dev, op, a, b));
        let (line, col) = pos_of(at);
        assert_eq!(p.message, message, "op {op}");
        assert_eq!(p.kind, Some(kind), "op {op}");
        assert!(p.file.ends_with("overflow_checks.rs"), "{}", p.file);
        assert_eq!((p.line, p.col), (line, col), "op {op}: {p}");
        assert!(p.kernel.ends_with("checked"), "{}", p.kernel);
    }
    // Compound assignment: the panic points at the whole `x *= b`.
    let p = kernel_panic(run_checked(dev, 10, i32::MAX, 2));
    assert_eq!(p.message, "attempt to multiply with overflow");
    assert_eq!((p.line, p.col), pos_of("x *= b"));
    // The same operations in range give Rust's values.
    let fine = [
        (0, i32::MAX - 1, 1, i32::MAX),
        (1, i32::MIN + 1, 1, i32::MIN),
        (2, -(1 << 15), 1 << 16, i32::MIN),
        (3, i32::MAX, 0, -i32::MAX),
        (4, -1, 31, i32::MIN),
        (5, i32::MIN, 31, -1),
        (6, i32::MIN, 2, i32::MIN / 2),
        (7, -7, 2, -1),
        (8, i32::MIN + 1, 0, i32::MAX),
        (9, -2, 31, i32::MIN),
        (9, 3, 19, 3i32.pow(19)),
        (10, -(1 << 30), 2, i32::MIN),
    ];
    for (op, a, b, want) in fine {
        assert_eq!(run_checked(dev, op, a, b).unwrap(), want, "op {op} {a} {b}");
    }
}

fn wrapping_methods_never_panic(dev: &Device) {
    let s = dev.new_stream().unwrap();
    for (a, b) in [
        (i32::MAX, i32::MAX),
        (i32::MIN, -1),
        (i32::MIN, i32::MIN),
        (-1, 300),
    ] {
        let mut out = dev.alloc_zeroed::<i32>(8).unwrap();
        never_panics::launch(&s, LaunchConfig::for_elements(1, 1), a, b, &mut out).unwrap();
        let want = vec![
            a.wrapping_add(b),
            a.wrapping_sub(b),
            a.wrapping_mul(b),
            a.wrapping_neg(),
            a.wrapping_abs(),
            (a as u32).wrapping_add(b as u32) as i32,
            a as u8 as i32 + (b as i8) as i32,
            a.saturating_add(b),
        ];
        assert_eq!(out.to_vec().unwrap(), want, "{a} {b}");
    }
}

fn the_profile_and_the_attribute_decide(dev: &Device) {
    let s = dev.new_stream().unwrap();
    let mut out = dev.alloc_zeroed::<u32>(1).unwrap();
    follows_profile::launch(&s, LaunchConfig::for_elements(1, 1), u32::MAX, &mut out).unwrap();
    let r = out.to_vec();
    if cfg!(debug_assertions) {
        let p = kernel_panic(r);
        assert_eq!(p.message, "attempt to add with overflow");
        assert_eq!((p.line, p.col), pos_of("a + 1;"));
    } else {
        assert_eq!(r.unwrap(), vec![0]);
    }

    // Off for the kernel and the device function it calls, whatever the profile.
    let (a, b) = (i32::MAX, 33);
    let mut out = dev.alloc_zeroed::<i32>(5).unwrap();
    unchecked::launch(&s, LaunchConfig::for_elements(1, 1), a, b, &mut out).unwrap();
    let want = vec![
        a.wrapping_add(b),
        a.wrapping_mul(b),
        a.wrapping_neg(),
        a.wrapping_shl(b as u32),
        a.wrapping_add(1),
    ];
    assert_eq!(out.to_vec().unwrap(), want);

    // On for both, whatever the profile: the panic points into the device function.
    let mut out = dev.alloc_zeroed::<i32>(1).unwrap();
    calls_device::launch(&s, LaunchConfig::for_elements(1, 1), i32::MAX, &mut out).unwrap();
    let p = kernel_panic(out.to_vec());
    assert_eq!(p.message, "attempt to add with overflow");
    assert_eq!((p.line, p.col), pos_of("x + 1"));
    calls_device::launch(&s, LaunchConfig::for_elements(1, 1), 41, &mut out).unwrap();
    assert_eq!(out.to_vec().unwrap(), vec![42]);
}

/// Host twins of the checked operations, for the edge-value sweep.
trait Edge:
    DeviceType
    + Default
    + PartialEq
    + std::fmt::Debug
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
{
    const VALUES: &'static [Self];
    fn checked(op: u32, a: Self, b: Self) -> Option<Self>;
}

macro_rules! edge {
    ($($t:ty),*) => {$(
        impl Edge for $t {
            const VALUES: &'static [Self] = &[
                <$t>::MIN,
                <$t>::MIN + 1,
                <$t>::MIN / 2,
                0,
                1,
                2,
                3,
                (1 as $t) << (<$t>::BITS / 2 - 1),
                (1 as $t) << (<$t>::BITS / 2),
                <$t>::MAX / 2,
                <$t>::MAX - 1,
                <$t>::MAX,
                (0 as $t).wrapping_sub(1),
                (0 as $t).wrapping_sub(1 << (<$t>::BITS / 2)),
            ];
            fn checked(op: u32, a: Self, b: Self) -> Option<Self> {
                match op {
                    0 => a.checked_add(b),
                    1 => a.checked_sub(b),
                    _ => a.checked_mul(b),
                }
            }
        }
    )*};
}
edge!(i8, i16, i32, i64, u8, u16, u32, u64);

/// Every pair of edge values, each operation: the in-range results in one launch, then each
/// overflowing pair alone, which must panic with the operation's message.
fn sweep<T: Edge>(dev: &Device) {
    let s = dev.new_stream().unwrap();
    let mut a = Vec::new();
    let mut b = Vec::new();
    for &x in T::VALUES {
        for &y in T::VALUES {
            a.push(x);
            b.push(y);
        }
    }
    let (da, db) = (dev.upload(&a).unwrap(), dev.upload(&b).unwrap());
    let n = a.len();
    let cfg = LaunchConfig::for_elements(n, n as u32);
    let messages = [
        "attempt to add with overflow",
        "attempt to subtract with overflow",
        "attempt to multiply with overflow",
    ];
    for op in 0..3u32 {
        let want: Vec<Option<T>> = (0..n).map(|i| T::checked(op, a[i], b[i])).collect();
        let mut out = dev.alloc_zeroed::<T>(n).unwrap();
        for (i, w) in want.iter().enumerate() {
            if w.is_none() {
                edges::launch(&s, cfg, op, i as u32, &da, &db, &mut out).unwrap();
                let p = kernel_panic(s.synchronize());
                assert_eq!(p.message, messages[op as usize], "{:?} {:?}", a[i], b[i]);
                assert_eq!(p.thread[0], i as u32);
            }
        }
        // Lanes whose operation overflows would panic: give them in-range operands.
        let safe = |v: &[T], i: usize| {
            if want[i].is_some() {
                v[i]
            } else {
                T::default()
            }
        };
        let sa: Vec<T> = (0..n).map(|i| safe(&a, i)).collect();
        let sb: Vec<T> = (0..n).map(|i| safe(&b, i)).collect();
        let (dsa, dsb) = (dev.upload(&sa).unwrap(), dev.upload(&sb).unwrap());
        edges::launch(&s, cfg, op, u32::MAX, &dsa, &dsb, &mut out).unwrap();
        let got = out.to_vec().unwrap();
        for i in 0..n {
            if let Some(w) = want[i] {
                assert_eq!(got[i], w, "op {op}: {:?} {:?}", a[i], b[i]);
            }
        }
    }
}

fn constant_operands_on(dev: &Device) {
    let s = dev.new_stream().unwrap();
    let host = |op: u32, a: i8, b: u8, c: i64, d: u64| -> Option<i64> {
        Some(match op {
            0 => a.checked_add(100)? as i64,
            1 => a.checked_sub(100)? as i64,
            2 => a.checked_mul(-3)? as i64,
            3 => (-100i8).checked_sub(a)? as i64,
            4 => b.checked_add(200)? as i64,
            5 => b.checked_mul(3)? as i64,
            6 => 10u8.checked_sub(b)? as i64,
            7 => c.checked_mul(-1000)?,
            8 => c.checked_sub(i64::MAX)?,
            9 => d.checked_mul(1000)? as i64,
            _ => d.checked_add(u64::MAX / 2)? as i64,
        })
    };
    let mut out = dev.alloc_zeroed::<i64>(1).unwrap();
    for op in 0..11u32 {
        for k in 0..i8::VALUES.len() {
            let (a, b) = (i8::VALUES[k], u8::VALUES[k]);
            let (c, d) = (i64::VALUES[k], u64::VALUES[k]);
            let cfg = LaunchConfig::for_elements(1, 1);
            constant_operands::launch(&s, cfg, op, a, b, c, d, &mut out).unwrap();
            match host(op, a, b, c, d) {
                Some(w) => assert_eq!(out.to_vec().unwrap(), vec![w], "op {op} case {k}"),
                None => {
                    let p = kernel_panic(out.to_vec());
                    assert!(
                        p.message.ends_with("with overflow"),
                        "op {op} case {k}: {p}"
                    );
                }
            }
        }
    }
}

fn shifts_of_other_widths(dev: &Device) {
    let s = dev.new_stream().unwrap();
    let mut out = dev.alloc_zeroed::<i64>(1).unwrap();
    let host = |op: u32, a: u8, b: i64, n: i8| -> Option<i64> {
        Some(match op {
            0 => a.checked_shl(n as u8 as u32)? as i64,
            1 => b.checked_shr(n as u8 as u32)?,
            _ => b.checked_shl(u32::from(a))?,
        })
    };
    for op in 0..3u32 {
        for (a, b, n) in [
            (1u8, -8i64, 7i8),
            (1, -8, 8),
            (3, i64::MIN, -1),
            (63, -1, 63),
            (64, 5, 64),
            (200, 5, 100),
        ] {
            let cfg = LaunchConfig::for_elements(1, 1);
            narrow_shifts::launch(&s, cfg, op, a, b, n, &mut out).unwrap();
            match host(op, a, b, n) {
                Some(w) => assert_eq!(out.to_vec().unwrap(), vec![w], "op {op}: {a} {b} {n}"),
                None => {
                    let p = kernel_panic(out.to_vec());
                    let dir = if op == 1 { "right" } else { "left" };
                    let want = format!("attempt to shift {dir} with overflow");
                    assert_eq!(p.message, want, "op {op}: {a} {b} {n}");
                }
            }
        }
    }
}

#[test]
fn the_device_library_is_never_checked() {
    use kernel_compiler::{compile, CompileOptions};
    let c = compile(uses_library::ast(), &[], &CompileOptions::default()).unwrap();
    let sites = &c.kernel.panic_sites;
    assert!(sites.iter().any(|s| s.kind == PanicKind::Bounds));
    assert!(
        !sites
            .iter()
            .any(|s| matches!(s.kind, PanicKind::Overflow(_))),
        "{sites:#?}"
    );
}

fn edge_values_of_every_integer_type(dev: &Device) {
    sweep::<i8>(dev);
    sweep::<i16>(dev);
    sweep::<i32>(dev);
    sweep::<i64>(dev);
    sweep::<u8>(dev);
    sweep::<u16>(dev);
    sweep::<u32>(dev);
    sweep::<u64>(dev);
}

/// The checked kernels' PTX assembles for both targets.
#[test]
fn checked_ptx_assembles_for_sm80_and_sm90() {
    if kernel_testkit::ptxas::require_ptxas().is_none() {
        return;
    }
    use kernel_compiler::{compile, CompileOptions};
    use kernel_ir::GenericValue;
    let ints = [
        i8::ast_type(),
        i16::ast_type(),
        i32::ast_type(),
        i64::ast_type(),
        u8::ast_type(),
        u16::ast_type(),
        u32::ast_type(),
        u64::ast_type(),
    ];
    for sm in [80, 90] {
        let opts = CompileOptions {
            sm,
            ..CompileOptions::default()
        };
        let mut kernels = vec![
            compile(checked::ast(), &[], &opts),
            compile(never_panics::ast(), &[], &opts),
            compile(calls_device::ast(), &[], &opts),
            compile(constant_operands::ast(), &[], &opts),
            compile(narrow_shifts::ast(), &[], &opts),
        ];
        for t in &ints {
            kernels.push(compile(
                edges::ast(),
                &[GenericValue::Type(t.clone())],
                &opts,
            ));
        }
        for c in kernels {
            let c = c.unwrap_or_else(|e| panic!("{e}"));
            kernel_testkit::ptxas::assemble(&c.ptx, sm)
                .unwrap_or_else(|e| panic!("ptxas sm_{sm}: {e}\n{}", c.ptx));
        }
    }
}

#[test]
fn messages_and_positions_on_the_simulator() {
    messages_and_positions(&Device::simulator());
}

#[test]
fn wrapping_methods_never_panic_on_the_simulator() {
    wrapping_methods_never_panic(&Device::simulator());
}

#[test]
fn the_profile_and_the_attribute_decide_on_the_simulator() {
    the_profile_and_the_attribute_decide(&Device::simulator());
}

#[test]
fn edge_values_on_the_simulator() {
    edge_values_of_every_integer_type(&Device::simulator());
}

#[test]
fn constant_operands_on_the_simulator() {
    constant_operands_on(&Device::simulator());
}

#[test]
fn shifts_of_other_widths_on_the_simulator() {
    shifts_of_other_widths(&Device::simulator());
}

#[test]
#[ignore]
fn shifts_of_other_widths_on_the_gpu() {
    let _g = serial();
    let Some(dev) = gpu() else { return };
    shifts_of_other_widths(&dev);
}

#[test]
#[ignore]
fn constant_operands_on_the_gpu() {
    let _g = serial();
    let Some(dev) = gpu() else { return };
    constant_operands_on(&dev);
}

#[test]
#[ignore]
fn messages_and_positions_on_the_gpu() {
    let _g = serial();
    let Some(dev) = gpu() else { return };
    messages_and_positions(&dev);
}

#[test]
#[ignore]
fn wrapping_methods_never_panic_on_the_gpu() {
    let _g = serial();
    let Some(dev) = gpu() else { return };
    wrapping_methods_never_panic(&dev);
}

#[test]
#[ignore]
fn the_profile_and_the_attribute_decide_on_the_gpu() {
    let _g = serial();
    let Some(dev) = gpu() else { return };
    the_profile_and_the_attribute_decide(&dev);
}

#[test]
#[ignore]
fn edge_values_on_the_gpu() {
    let _g = serial();
    let Some(dev) = gpu() else { return };
    edge_values_of_every_integer_type(&dev);
}
