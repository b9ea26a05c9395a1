//! `gpu_print!` / `gpu_println!` through the whole pipeline: the macro's parse (positional,
//! named and captured arguments, escapes, no-newline and empty forms), the front end's
//! conversions (generic `T`, references, narrow integers, f16), argument evaluation (once each,
//! in order), the simulator's output, PTX that ptxas accepts, and errors for what C cannot print.

use ferrocuda::__private::ast::{FloatTy, IntTy, Type};
use ferrocuda::kernel_compiler::{compile, CompileOptions};
use ferrocuda::kernel_ir::GenericValue;
use ferrocuda::kernel_sim::{self as sim, capture_output, GlobalMemory, SimLaunch};
use ferrocuda::prelude::*;

#[device]
fn show<T: Float>(label: u32, v: T) {
    gpu_print!("{label}:");
    gpu_println!("{:.2}", v);
}

#[kernel]
pub fn forms(n: u32, h: f16, k: i16) {
    let t = thread_idx().x;
    for i in 0..n {
        gpu_print!("t{} i{}", t, i);
        gpu_print!(" ");
    }
    gpu_println!();
    let r = &k;
    gpu_println!("{{{0}}} {r} {x:#x} {0:>3}", t, x = k as u16);
    show(t, 1.5f32 + t as f32);
    show(7, -0.125f64);
    gpu_println!("{:.3}", h);
    let mut c = 0u32;
    gpu_println!(
        "{1} {0} {1}",
        {
            c += 1;
            c
        },
        {
            c += 10;
            c
        }
    );
}

#[kernel]
pub fn generic_print<T: Float>(x: T) {
    gpu_println!("{} {:e}", x, x);
}

#[kernel]
pub fn prints_bool(b: bool) {
    gpu_println!("{}", b);
}

fn run(
    def: &'static ferrocuda::__private::ast::FnDef,
    generics: &[GenericValue],
    params: &[&[u8]],
    threads: u32,
) -> String {
    let c = compile(def, generics, &CompileOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let mut mem = GlobalMemory::new();
    // The error only becomes a message, which keeps the closure's result small.
    let (r, text) = capture_output(|| {
        sim::launch(&c.kernel, &SimLaunch::linear(1, threads), params, &mut mem)
            .map_err(|e| e.to_string())
    });
    r.unwrap_or_else(|e| panic!("{e}"));
    text
}

#[test]
fn every_form_prints_what_rust_would() {
    let n = 2u32.to_le_bytes();
    let h = f16::from_f32(-0.125).to_bits().to_le_bytes();
    let k = (-2i16).to_le_bytes();
    let text = run(forms::ast(), &[], &[&n, &h, &k], 2);
    let want = |t: u32| {
        format!(
            "t{t} i0 t{t} i1 \n{{{t}}} -2 {:#x} {t:>3}\n{t}:{:.2}\n7:-0.12\n-0.125\n11 1 11\n",
            -2i16 as u16,
            1.5f32 + t as f32
        )
    };
    // Threads run one after another in the simulator, each line whole.
    assert_eq!(text, want(0) + &want(1));
}

#[test]
fn generic_values_are_promoted_to_double() {
    for (ty, bytes, want) in [
        (
            FloatTy::F32,
            0.1f32.to_le_bytes().to_vec(),
            "0.1 1.000000e-01\n",
        ),
        (
            FloatTy::F64,
            1e300f64.to_le_bytes().to_vec(),
            "1e+300 1.000000e+300\n",
        ),
        (
            FloatTy::BF16,
            bf16::from_f32(3.0).to_bits().to_le_bytes().to_vec(),
            "3 3.000000e+00\n",
        ),
    ] {
        let g = [GenericValue::Type(Type::Float(ty))];
        assert_eq!(run(generic_print::ast(), &g, &[&bytes], 1), want, "{ty:?}");
    }
}

#[test]
fn what_c_cannot_print_is_a_compile_error_at_the_argument() {
    let e = compile(prints_bool::ast(), &[], &CompileOptions::default()).unwrap_err();
    assert!(e.message.contains("bool"), "{e}");
    assert!(e.line > 0 && e.file.ends_with("printf.rs"), "{e}");
    let g = [GenericValue::Type(Type::Int(IntTy::U32))];
    let e = compile(generic_print::ast(), &g, &CompileOptions::default());
    assert!(e.is_err(), "`{{:e}}` on an integer must be rejected");
}

#[test]
fn printing_kernels_assemble_for_sm80_and_sm90() {
    if kernel_testkit::ptxas::require_ptxas().is_none() {
        return;
    }
    let f32_t = [GenericValue::Type(Type::Float(FloatTy::F32))];
    for sm in [80, 90] {
        let o = CompileOptions {
            sm,
            ..CompileOptions::default()
        };
        for (name, c) in [
            ("forms", compile(forms::ast(), &[], &o)),
            ("generic_print", compile(generic_print::ast(), &f32_t, &o)),
        ] {
            let c = c.unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(c.ptx.contains("call.uni (fc_pf_ret), vprintf"), "{name}");
            kernel_testkit::ptxas::assemble(&c.ptx, sm)
                .unwrap_or_else(|e| panic!("{name} sm_{sm}: {e}"));
        }
    }
}
