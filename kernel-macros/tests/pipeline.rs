//! The macros' output through the rest of the pipeline: every kernel of `kernels/mod.rs` compiles to PTX,
//! and two of them compute the right values on the simulator. Guards the AST conventions shared
//! with the front end (labels, negative patterns, `unsafe { *x.get_unchecked(i) }`, asserts...).

mod kernels;

use ferrocuda::__private::ast::{FloatTy, Type};
use ferrocuda::device_std::sim::{self, GlobalMemory, SimLaunch};
use ferrocuda::device_std::{compile, CompileOptions, GenericValue};
use kernels::{generic_scale, nested, particles, saxpy, transpose, with_alias};

fn f32_generic() -> GenericValue {
    GenericValue::Type(Type::Float(FloatTy::F32))
}

#[test]
fn every_kernel_compiles_to_ptx() {
    let o = CompileOptions::default();
    let cases = [
        ("saxpy", compile(saxpy::ast(), &[], &o)),
        (
            "transpose",
            compile(transpose::ast(), &[GenericValue::Const(16)], &o),
        ),
        (
            "generic_scale",
            compile(
                generic_scale::ast(),
                &[f32_generic(), GenericValue::Const(4)],
                &o,
            ),
        ),
        ("particles", compile(particles::ast(), &[], &o)),
        ("with_alias", compile(with_alias::ast(), &[], &o)),
        ("relative", compile(nested::relative::ast(), &[], &o)),
    ];
    for (name, result) in cases {
        match result {
            Ok(c) => assert!(c.ptx.contains(".entry"), "{name}: no entry in\n{}", c.ptx),
            Err(e) => panic!("{name}: {e}"),
        }
    }
}

fn upload(mem: &mut GlobalMemory, v: &[f32]) -> [u8; 16] {
    let bytes: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
    let ptr = mem.alloc(bytes.len());
    mem.write(ptr, &bytes).expect("write");
    let mut arg = [0u8; 16];
    arg[..8].copy_from_slice(&ptr.to_le_bytes());
    arg[8..].copy_from_slice(&(v.len() as u64).to_le_bytes());
    arg
}

fn download(mem: &GlobalMemory, arg: &[u8; 16], n: usize) -> Vec<f32> {
    let ptr = u64::from_le_bytes(arg[..8].try_into().unwrap());
    let mut bytes = vec![0u8; n * 4];
    mem.read(ptr, &mut bytes).expect("read");
    bytes
        .chunks(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

#[test]
fn saxpy_runs_on_the_simulator() {
    let c = compile(saxpy::ast(), &[], &CompileOptions::default()).expect("compiles");
    let n = 100;
    let x: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let y: Vec<f32> = (0..n).map(|i| 1.0 - i as f32).collect();
    let mut mem = GlobalMemory::new();
    let (xa, ya) = (upload(&mut mem, &x), upload(&mut mem, &y));
    let a = 3.0f32.to_le_bytes();
    sim::launch(
        &c.kernel,
        &SimLaunch::linear(4, 32),
        &[&a, &xa, &ya],
        &mut mem,
    )
    .expect("runs");
    let got = download(&mem, &ya, n);
    let want: Vec<f32> = x
        .iter()
        .zip(&y)
        .map(|(x, y)| 3.0f32.mul_add(*x, *y))
        .collect();
    assert_eq!(got, want);
}

#[test]
fn generic_kernel_with_device_calls_runs_on_the_simulator() {
    let generics = [f32_generic(), GenericValue::Const(4)];
    let c = compile(generic_scale::ast(), &generics, &CompileOptions::default()).expect("compiles");
    let v: Vec<f32> = (0..32).map(|i| i as f32 / 16.0 - 0.5).collect();
    let mut mem = GlobalMemory::new();
    let va = upload(&mut mem, &v);
    let s = 2.0f32.to_le_bytes();
    sim::launch(&c.kernel, &SimLaunch::linear(1, 32), &[&va, &s], &mut mem).expect("runs");
    let got = download(&mem, &va, v.len());
    let want: Vec<f32> = v.iter().map(|x| (x * 2.0).clamp(0.0, 1.0)).collect();
    assert_eq!(got, want);
}
