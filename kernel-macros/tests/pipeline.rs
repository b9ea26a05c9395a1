//! The macros' output through the rest of the pipeline: every kernel of `kernels/mod.rs` compiles to PTX,
//! and two of them compute the right values on the simulator. Guards the AST conventions shared
//! with the front end (labels, negative patterns, `unsafe { *x.get_unchecked(i) }`, asserts...).

mod kernels;

use ferrocuda::__private::ast::{FloatTy, Type};
use ferrocuda::kernel_compiler::{compile, CompileOptions};
use ferrocuda::kernel_ir::GenericValue;
use ferrocuda::kernel_sim::{self as sim, GlobalMemory, SimLaunch};
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

#[test]
fn device_fns_match_their_host_copies_on_the_simulator() {
    use kernels::{classify, control_flow, in_set, loops};
    let c = compile(control_flow::ast(), &[], &CompileOptions::default()).expect("compiles");
    let xs: Vec<i32> = vec![
        -5,
        -1,
        0,
        1,
        2,
        3,
        5,
        7,
        50,
        51,
        99,
        100,
        101,
        i32::MIN,
        i32::MAX,
        4,
        6,
        8,
        9,
        10,
        11,
        12,
        13,
        14,
        15,
        16,
        17,
        18,
        19,
        20,
        21,
        22,
    ];
    let mut mem = GlobalMemory::new();
    let xs_bytes: Vec<u8> = xs.iter().flat_map(|x| x.to_le_bytes()).collect();
    let xp = mem.alloc(xs_bytes.len());
    mem.write(xp, &xs_bytes).expect("write");
    let op = mem.alloc(xs.len() * 4);
    let slice = |ptr: u64, len: usize| {
        let mut a = [0u8; 16];
        a[..8].copy_from_slice(&ptr.to_le_bytes());
        a[8..].copy_from_slice(&(len as u64).to_le_bytes());
        a
    };
    let (xa, oa) = (slice(xp, xs.len()), slice(op, xs.len()));
    sim::launch(&c.kernel, &SimLaunch::linear(1, 32), &[&xa, &oa], &mut mem).expect("runs");
    let mut out = vec![0u8; xs.len() * 4];
    mem.read(op, &mut out).expect("read");
    let got: Vec<u32> = out
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    let want: Vec<u32> = xs
        .iter()
        .enumerate()
        .map(|(i, x)| classify(*x) * 10_000 + loops(i as u32) + in_set(*x))
        .collect();
    assert_eq!(got, want);
}
