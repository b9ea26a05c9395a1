//! `wmma` (guide B.24): every fragment type and `mma_sync` form of the table, each against a
//! CPU reference on the simulator and on a GPU (`--ignored`), assembled by ptxas for sm_80 and
//! sm_90; the tile bounds check, and that fragments stay in registers.
//!
//! Inputs are small multiples of 1/4 (integers for u8/i8), so every product and sum is exact
//! in every format and accumulation order: results must match the reference bit for bit.

use crate::intr_common;

use ferrocuda::prelude::wmma::*;
use ferrocuda::prelude::*;
use intr_common::{assembles, gpu, sim};

/// Leading dimension of every matrix in these tests (a multiple of 16 bytes for every type).
const LD: usize = 48;
/// Every matrix is `LINES` rows (row-major) or columns (col-major) of `LD` elements.
const LINES: usize = 64;

/// The first element of the tile at (`row`, `col`) of a matrix with leading dimension `ld`.
#[device]
pub fn tile_at(row: usize, col: usize, col_major: bool, ld: usize) -> usize {
    if col_major {
        col * ld + row
    } else {
        row * ld + col
    }
}

/// One kernel per combination: two warps, warp `w` multiplies the tile of A whose rows start at
/// `32 w` by the tile of B whose columns start at `32 w`, adds the tile of C at (`32 w`, `32 w`)
/// and stores twice the result (an element-wise epilogue) at the same place of D.
macro_rules! wmma_case {
    ($name:ident: $m:tt $n:tt $k:tt, $t:tt from $mem:tt, $la:tt $lb:tt, $ct:tt -> $dt:tt,
     $a_col:tt $b_col:tt $c_layout:tt $d_layout:tt) => {
        #[kernel]
        pub fn $name(a: &[$mem], b: &[$mem], c: &[$ct], d: &mut [$dt]) {
            let w = (thread_idx().x / 32) as usize;
            let ld = 48usize;
            let mut fa: Fragment<MatrixA, $m, $n, $k, $t, $la> = fragment();
            let mut fb: Fragment<MatrixB, $m, $n, $k, $t, $lb> = fragment();
            let mut fc: Fragment<Accumulator, $m, $n, $k, $ct> = fragment();
            load_matrix_sync(&mut fa, a, tile_at(32 * w, 0, $a_col, ld), ld as u32);
            load_matrix_sync(&mut fb, b, tile_at(0, 32 * w, $b_col, ld), ld as u32);
            load_accumulator_sync(
                &mut fc,
                c,
                tile_at(32 * w, 32 * w, $c_layout == MEM_COL_MAJOR, ld),
                ld as u32,
                $c_layout,
            );
            let mut fd: Fragment<Accumulator, $m, $n, $k, $dt> = mma_sync(&fa, &fb, &fc);
            for i in 0..fd.x.len() {
                fd.x[i] = fd.x[i] + fd.x[i];
            }
            store_matrix_sync(
                d,
                tile_at(32 * w, 32 * w, $d_layout == MEM_COL_MAJOR, ld),
                &fd,
                ld as u32,
                $d_layout,
            );
        }
    };
}

wmma_case!(f16_rr_f32_f32: 16 16 16, f16 from f16, RowMajor RowMajor, f32 -> f32, false false MEM_ROW_MAJOR MEM_ROW_MAJOR);
wmma_case!(f16_rc_f32_f32: 16 16 16, f16 from f16, RowMajor ColMajor, f32 -> f32, false true MEM_COL_MAJOR MEM_ROW_MAJOR);
wmma_case!(f16_cr_f16_f32: 16 16 16, f16 from f16, ColMajor RowMajor, f16 -> f32, true false MEM_ROW_MAJOR MEM_COL_MAJOR);
wmma_case!(f16_cc_f32_f16: 16 16 16, f16 from f16, ColMajor ColMajor, f32 -> f16, true true MEM_ROW_MAJOR MEM_ROW_MAJOR);
wmma_case!(f16_rc_f16_f16: 16 16 16, f16 from f16, RowMajor ColMajor, f16 -> f16, false true MEM_COL_MAJOR MEM_COL_MAJOR);
wmma_case!(bf16_rc: 16 16 16, bf16 from bf16, RowMajor ColMajor, f32 -> f32, false true MEM_ROW_MAJOR MEM_ROW_MAJOR);
wmma_case!(bf16_cr: 16 16 16, bf16 from bf16, ColMajor RowMajor, f32 -> f32, true false MEM_COL_MAJOR MEM_ROW_MAJOR);
wmma_case!(tf32_rc: 16 16 8, Tf32 from f32, RowMajor ColMajor, f32 -> f32, false true MEM_ROW_MAJOR MEM_ROW_MAJOR);
wmma_case!(tf32_cr: 16 16 8, Tf32 from f32, ColMajor RowMajor, f32 -> f32, true false MEM_ROW_MAJOR MEM_COL_MAJOR);
wmma_case!(u8_rc: 16 16 16, u8 from u8, RowMajor ColMajor, i32 -> i32, false true MEM_ROW_MAJOR MEM_ROW_MAJOR);
wmma_case!(u8_cr: 16 16 16, u8 from u8, ColMajor RowMajor, i32 -> i32, true false MEM_COL_MAJOR MEM_ROW_MAJOR);
wmma_case!(s8_rc: 16 16 16, i8 from i8, RowMajor ColMajor, i32 -> i32, false true MEM_ROW_MAJOR MEM_ROW_MAJOR);
wmma_case!(s8_rr: 16 16 16, i8 from i8, RowMajor RowMajor, i32 -> i32, false false MEM_ROW_MAJOR MEM_COL_MAJOR);
wmma_case!(f64_rc: 8 8 4, f64 from f64, RowMajor ColMajor, f64 -> f64, false true MEM_ROW_MAJOR MEM_ROW_MAJOR);
wmma_case!(f64_cr: 8 8 4, f64 from f64, ColMajor RowMajor, f64 -> f64, true false MEM_COL_MAJOR MEM_COL_MAJOR);

/// A matrix element type of the tests: exact small values and their f64 value.
trait El: Copy + Default + DeviceType + Send + Sync + std::fmt::Debug + PartialEq + 'static {
    /// The `i`-th value of a deterministic sequence of small exact values.
    fn small(i: usize, seed: u64) -> Self;
    fn value(self) -> f64;
    /// The element nearest `v` (exact for every value these tests produce).
    fn of(v: f64) -> Self;
    /// What the tests fill untouched memory with.
    fn sentinel() -> Self;
}

fn mix(i: usize, seed: u64) -> u64 {
    let mut s = (i as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ seed;
    s ^= s >> 29;
    s = s.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    s ^ (s >> 32)
}
fn quarter(i: usize, seed: u64) -> f64 {
    (mix(i, seed) % 17) as f64 / 4.0 - 2.0
}

impl El for f16 {
    fn small(i: usize, seed: u64) -> Self {
        f16::from_f64(quarter(i, seed))
    }
    fn value(self) -> f64 {
        self.to_f64()
    }
    fn of(v: f64) -> Self {
        f16::from_f64(v)
    }
    fn sentinel() -> Self {
        f16::from_f64(-1000.0)
    }
}
impl El for bf16 {
    fn small(i: usize, seed: u64) -> Self {
        bf16::from_f64(quarter(i, seed))
    }
    fn value(self) -> f64 {
        self.to_f64()
    }
    fn of(v: f64) -> Self {
        bf16::from_f64(v)
    }
    fn sentinel() -> Self {
        bf16::from_f64(-1000.0)
    }
}
impl El for f32 {
    fn small(i: usize, seed: u64) -> Self {
        quarter(i, seed) as f32
    }
    fn value(self) -> f64 {
        self as f64
    }
    fn of(v: f64) -> Self {
        v as f32
    }
    fn sentinel() -> Self {
        -1000.0
    }
}
impl El for f64 {
    fn small(i: usize, seed: u64) -> Self {
        quarter(i, seed)
    }
    fn value(self) -> f64 {
        self
    }
    fn of(v: f64) -> Self {
        v
    }
    fn sentinel() -> Self {
        -1000.0
    }
}
impl El for u8 {
    fn small(i: usize, seed: u64) -> Self {
        mix(i, seed) as u8
    }
    fn value(self) -> f64 {
        self as f64
    }
    fn of(v: f64) -> Self {
        v as u8
    }
    fn sentinel() -> Self {
        0xee
    }
}
impl El for i8 {
    fn small(i: usize, seed: u64) -> Self {
        mix(i, seed) as i8
    }
    fn value(self) -> f64 {
        self as f64
    }
    fn of(v: f64) -> Self {
        v as i8
    }
    fn sentinel() -> Self {
        -0x12
    }
}
impl El for i32 {
    fn small(i: usize, seed: u64) -> Self {
        (mix(i, seed) % 20001) as i32 - 10000
    }
    fn value(self) -> f64 {
        self as f64
    }
    fn of(v: f64) -> Self {
        // Integer accumulation wraps (no `satf`): the exact sum taken mod 2^32.
        (v as i64) as i32
    }
    fn sentinel() -> Self {
        -0x1234_5678
    }
}

/// The element (row, col) of a matrix stored with layout `col_major` and leading dimension LD.
fn at(row: usize, col: usize, col_major: bool) -> usize {
    if col_major {
        col * LD + row
    } else {
        row * LD + col
    }
}

/// The layouts of A, B, C and D of a case.
#[derive(Clone, Copy)]
struct Layouts {
    a: bool,
    b: bool,
    c: bool,
    d: bool,
}

/// Runs `launch` (the case's kernel) on `dev` and compares D with the f64 reference.
fn check<M: El, C: El, D: El>(
    dev: &Device,
    (m, n, k): (usize, usize, usize),
    l: Layouts,
    launch: impl FnOnce(
        &Stream,
        &DeviceBuffer<M>,
        &DeviceBuffer<M>,
        &DeviceBuffer<C>,
        &mut DeviceBuffer<D>,
    ) -> ferrocuda::host_runtime::Result<()>,
) {
    let size = LD * LINES;
    let a: Vec<M> = (0..size).map(|i| M::small(i, 1)).collect();
    let b: Vec<M> = (0..size).map(|i| M::small(i, 2)).collect();
    let c: Vec<C> = (0..size).map(|i| C::small(i, 3)).collect();
    let s = dev.new_stream().unwrap();
    let (da, db, dc) = (
        dev.upload(&a).unwrap(),
        dev.upload(&b).unwrap(),
        dev.upload(&c).unwrap(),
    );
    let mut dd = dev.upload(&vec![D::sentinel(); size]).unwrap();
    launch(&s, &da, &db, &dc, &mut dd).unwrap();
    let got = dd.to_vec().unwrap();
    let mut want = vec![D::sentinel(); size];
    for w in 0..2 {
        let (r0, c0) = (32 * w, 32 * w);
        for i in 0..m {
            for j in 0..n {
                let mut acc = c[at(r0 + i, c0 + j, l.c)].value();
                for kk in 0..k {
                    acc += a[at(r0 + i, kk, l.a)].value() * b[at(kk, c0 + j, l.b)].value();
                }
                let v = D::of(acc);
                // The epilogue doubles D's element (wrapping for integers).
                want[at(r0 + i, c0 + j, l.d)] = D::of(v.value() * 2.0);
            }
        }
    }
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_eq!(
            g,
            w,
            "element {i} (row {}, col {} row-major)",
            i / LD,
            i % LD
        );
    }
}

fn launch_cfg() -> LaunchConfig {
    LaunchConfig::for_elements(64, 64)
}

macro_rules! run_case {
    ($dev:expr, $name:ident, $shape:expr, $a:expr, $b:expr, $c:expr, $d:expr) => {
        check(
            $dev,
            $shape,
            Layouts {
                a: $a,
                b: $b,
                c: $c,
                d: $d,
            },
            |s, a, b, c, d| $name::launch(s, launch_cfg(), a, b, c, d),
        )
    };
}

fn all_cases_on(dev: &Device, has_sm80: bool) {
    let m16 = (16, 16, 16);
    run_case!(dev, f16_rr_f32_f32, m16, false, false, false, false);
    run_case!(dev, f16_rc_f32_f32, m16, false, true, true, false);
    run_case!(dev, f16_cr_f16_f32, m16, true, false, false, true);
    run_case!(dev, f16_cc_f32_f16, m16, true, true, false, false);
    run_case!(dev, f16_rc_f16_f16, m16, false, true, true, true);
    run_case!(dev, u8_rc, m16, false, true, false, false);
    run_case!(dev, u8_cr, m16, true, false, true, false);
    run_case!(dev, s8_rc, m16, false, true, false, false);
    run_case!(dev, s8_rr, m16, false, false, false, true);
    if !has_sm80 {
        return;
    }
    run_case!(dev, bf16_rc, m16, false, true, false, false);
    run_case!(dev, bf16_cr, m16, true, false, true, false);
    run_case!(dev, tf32_rc, (16, 16, 8), false, true, false, false);
    run_case!(dev, tf32_cr, (16, 16, 8), true, false, false, true);
    run_case!(dev, f64_rc, (8, 8, 4), false, true, false, false);
    run_case!(dev, f64_cr, (8, 8, 4), true, false, true, true);
}

#[test]
fn wmma_every_type_and_layout_matches_cpu_on_the_simulator() {
    all_cases_on(&sim(), true);
}

#[test]
#[ignore = "needs a GPU"]
fn wmma_every_type_and_layout_on_the_gpu() {
    let Some(dev) = gpu() else { return };
    all_cases_on(&dev, true);
}

#[test]
fn wmma_kernels_assemble_for_sm80_and_sm90() {
    for def in case_kernels() {
        assembles(def);
    }
    assembles(wmma_from::ast());
}

fn case_kernels() -> [&'static ferrocuda::kernel_ir::ast::FnDef; 15] {
    [
        f16_rr_f32_f32::ast(),
        f16_rc_f32_f32::ast(),
        f16_cr_f16_f32::ast(),
        f16_cc_f32_f16::ast(),
        f16_rc_f16_f16::ast(),
        bf16_rc::ast(),
        bf16_cr::ast(),
        tf32_rc::ast(),
        tf32_cr::ast(),
        u8_rc::ast(),
        u8_cr::ast(),
        s8_rc::ast(),
        s8_rr::ast(),
        f64_rc::ast(),
        f64_cr::ast(),
    ]
}

/// Fragments live in registers: no local arrays in the PTX, and ptxas neither spills nor
/// keeps a stack frame, with checks on (the default) and off.
#[test]
fn wmma_fragments_stay_in_registers() {
    use ferrocuda::kernel_compiler::{compile, CompileOptions};
    for def in case_kernels() {
        for checks in [true, false] {
            let opts = CompileOptions {
                sm: 80,
                bounds_checks: checks,
                ..CompileOptions::default()
            };
            let c = compile(def, &[], &opts).unwrap();
            assert!(c.ptx.contains("wmma.mma.sync"), "{}", c.ptx);
            assert!(
                !c.ptx.contains(".local"),
                "{}: fragment in local memory\n{}",
                def.name,
                c.ptx
            );
            if kernel_testkit::ptxas::require_ptxas().is_none() {
                continue;
            }
            let r = kernel_testkit::ptxas::assemble(&c.ptx, 80).unwrap();
            for e in &r.entries {
                assert_eq!(
                    (e.spill_stores, e.spill_loads, e.stack_frame),
                    (0, 0, 0),
                    "{e}"
                );
            }
        }
    }
}

#[kernel]
pub fn wmma_from(a: &[f16], out: &mut [f32], offset: usize, ldm: u32) {
    let mut fa: Fragment<MatrixA, 16, 16, 16, f16, RowMajor> = fragment();
    let mut fb: Fragment<MatrixB, 16, 16, 16, f16, ColMajor> = fragment();
    load_matrix_sync(&mut fa, a, offset, ldm);
    load_matrix_sync(&mut fb, a, 0, 16);
    let mut c: Fragment<Accumulator, 16, 16, 16, f32> = fragment();
    fill_fragment(&mut c, 1.0);
    c = mma_sync(&fa, &fb, &c);
    store_matrix_sync(out, 0, &c, 16, MEM_ROW_MAJOR);
}

fn wmma_from_run(
    dev: &Device,
    len: usize,
    offset: usize,
    ldm: u32,
) -> ferrocuda::host_runtime::Result<Vec<f32>> {
    let a: Vec<f16> = (0..len).map(|i| f16::small(i, 5)).collect();
    let s = dev.new_stream()?;
    let da = dev.upload(&a)?;
    let mut out = dev.upload(&vec![0f32; 256])?;
    wmma_from::launch(
        &s,
        LaunchConfig::for_elements(32, 32),
        &da,
        &mut out,
        offset,
        ldm,
    )?;
    out.to_vec()
}

/// One check per load: the tile's last element, `offset + 15 * ldm + 15`, must be in the slice.
fn wmma_bounds_on(dev: &Device) {
    use ferrocuda::host_runtime::Error;
    // The last tile that fits, at a 32-byte aligned offset, then one row further.
    let got = wmma_from_run(dev, 16 + 15 * 32 + 16, 16, 32).unwrap();
    assert!(got.iter().all(|v| v.is_finite()));
    for (len, offset, ldm) in [
        (16 + 15 * 32 + 15, 16, 32),
        (256, 16 * 16, 16),
        (4096, usize::MAX - 8, 16),
    ] {
        match wmma_from_run(dev, len, offset, ldm) {
            Err(Error::KernelPanic(p)) => {
                assert!(
                    p.message.starts_with(&format!(
                        "index out of bounds: the len is {len} but the index is "
                    )),
                    "{}",
                    p.message
                );
                assert!(p.file.ends_with("intrinsics/wmma.rs"), "{}", p.file);
            }
            other => {
                panic!("expected a bounds panic for len {len}, offset {offset}, got {other:?}")
            }
        }
    }
}

#[test]
fn wmma_tiles_are_bounds_checked_on_the_simulator() {
    wmma_bounds_on(&sim());
}

#[test]
#[ignore = "needs a GPU"]
fn wmma_tiles_are_bounds_checked_on_the_gpu() {
    let Some(dev) = gpu() else { return };
    wmma_bounds_on(&dev);
}

/// The GPU faults on a tile that is not 32-byte aligned; the simulator says so.
#[test]
fn wmma_misaligned_tile_is_reported_by_the_simulator() {
    use ferrocuda::host_runtime::Error;
    match wmma_from_run(&sim(), 1024, 8, 16) {
        Err(Error::Simulator(e)) => assert!(e.to_string().contains("32-byte aligned"), "{e}"),
        other => panic!("expected a misaligned tile, got {other:?}"),
    }
    match wmma_from_run(&sim(), 1024, 0, 12) {
        Err(Error::Simulator(e)) => assert!(e.to_string().contains("multiple of 16 bytes"), "{e}"),
        other => panic!("expected a bad leading dimension, got {other:?}"),
    }
}

#[kernel]
pub fn wmma_runtime_layout(c: &[f32], d: &mut [f32], layout: u32) {
    let mut f: Fragment<Accumulator, 16, 16, 16, f32> = fragment();
    load_accumulator_sync(&mut f, c, 0, 16, layout);
    store_matrix_sync(d, 0, &f, 16, MEM_ROW_MAJOR);
}

/// The layout of an accumulator's load or store is a qualifier of the PTX instruction: a value
/// known only at run time is refused, at the argument.
#[test]
fn wmma_accumulator_layout_must_be_a_constant() {
    use ferrocuda::kernel_compiler::{compile, CompileOptions};
    let err = compile(wmma_runtime_layout::ast(), &[], &CompileOptions::default()).unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains("the layout must be the constant `MEM_ROW_MAJOR` or `MEM_COL_MAJOR`"),
        "{text}"
    );
    assert!(text.contains("tests/intrinsics/wmma.rs"), "{text}");
}
