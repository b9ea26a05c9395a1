//! Launch-time specialization through the kernel cache, on the simulator (which runs the same
//! specialized IR the PTX is emitted from): a kernel without `block_dim` is compiled per launch
//! block shape as if it had that attribute, up to `MAX_VARIANTS` shapes, then shares a general
//! variant; `#[kernel(specialize = false)]` and `block_dim` kernels keep one variant per block
//! shape. A kernel that uses `dynamic_shared` is also compiled per dynamic shared memory size (a
//! constant length), a `block_dim` one too; an opted-out one is not.
//!
//! Each test has its own kernels: a kernel's cache is a process-wide `static`.

use ferrocuda::prelude::*;
use host_runtime::kernel_cache::MAX_VARIANTS;
use host_runtime::{compiled_kernel, InstanceKey};
use kernel_compiler::Specialization;

/// Each block reverses its own run of `block_dim().x * block_dim().y` elements through a shared
/// tile sized for the largest block: right only if `block_dim()` is the launch's.
#[kernel]
pub fn reverse_blocks(out: &mut [u32], inp: &[u32]) {
    let tile = shared_array::<[u32; 1024]>();
    let per_block = (block_dim().x * block_dim().y) as usize;
    let t = (thread_idx().y * block_dim().x + thread_idx().x) as usize;
    let base = block_idx().x as usize * per_block;
    if base + t < inp.len() {
        tile[t] = inp[base + t];
    }
    sync_threads();
    if base + t < out.len() {
        out[base + t] = tile[per_block - 1 - t];
    }
}

/// `reverse_blocks` with the block shape declared.
#[kernel(block_dim(32, 8))]
pub fn reverse_blocks_fixed(out: &mut [u32], inp: &[u32]) {
    let tile = shared_array::<[u32; 1024]>();
    let per_block = (block_dim().x * block_dim().y) as usize;
    let t = (thread_idx().y * block_dim().x + thread_idx().x) as usize;
    let base = block_idx().x as usize * per_block;
    if base + t < inp.len() {
        tile[t] = inp[base + t];
    }
    sync_threads();
    if base + t < out.len() {
        out[base + t] = tile[per_block - 1 - t];
    }
}

/// A variant for a launch block is what the attribute gives: the same PTX, but for the names.
#[test]
fn a_specialized_variant_is_the_attributes_code() {
    use kernel_compiler::{compile, CompileOptions};
    let opts = |specialization| CompileOptions {
        sm: 90,
        source_markers: false,
        specialization,
        ..CompileOptions::default()
    };
    let launch = Specialization::for_launch(reverse_blocks::ast(), [32, 8, 1]);
    assert_eq!(launch, spec(32, 8));
    let ours = compile(reverse_blocks::ast(), &[], &opts(launch)).unwrap();
    let fixed = compile(
        reverse_blocks_fixed::ast(),
        &[],
        &opts(Specialization::GENERAL),
    )
    .unwrap();
    assert_eq!(
        ours.ptx,
        fixed.ptx.replace("reverse_blocks_fixed", "reverse_blocks")
    );
    let general = compile(reverse_blocks::ast(), &[], &opts(Specialization::GENERAL)).unwrap();
    assert_ne!(ours.ptx, general.ptx);
    // The attribute's own shape wins over a launch's (a mismatched launch is refused instead).
    assert!(Specialization::for_launch(reverse_blocks_fixed::ast(), [16, 16, 1]).is_general());
}

fn reversed(inp: &[u32], per_block: usize) -> Vec<u32> {
    inp.chunks(per_block)
        .flat_map(|c| c.iter().rev().copied())
        .collect()
}

fn block(x: u32, y: u32) -> Dim3 {
    Dim3::new(x, y, 1)
}

fn spec(x: u32, y: u32) -> Specialization {
    Specialization {
        block: Some([x, y, 1]),
        dyn_shared: None,
    }
}

#[test]
fn each_block_shape_gets_its_own_variant_with_a_constant_block_dim() {
    let dev = Device::simulator();
    let s = dev.new_stream().unwrap();
    let n = 1024;
    let inp: Vec<u32> = (0..n as u32).map(|i| i * 7 + 1).collect();
    let din = dev.upload(&inp).unwrap();
    for (x, y) in [(32, 8), (16, 16), (32, 8)] {
        let per_block = (x * y) as usize;
        let mut dout = dev.upload(&vec![0u32; n]).unwrap();
        let cfg = LaunchConfig {
            grid: Dim3::new((n / per_block) as u32, 1, 1),
            block: block(x, y),
            shared_mem_bytes: 0,
            attrs: Default::default(),
        };
        reverse_blocks::launch(&s, cfg, &mut dout, &din).unwrap();
        assert_eq!(dout.to_vec().unwrap(), reversed(&inp, per_block), "{x}x{y}");
    }
    assert_eq!(
        reverse_blocks::KERNEL.cache.variants(),
        [spec(32, 8), spec(16, 16)],
        "one variant per shape, the repeated shape reuses its own"
    );
    for (x, y) in [(32, 8), (16, 16)] {
        let c = compiled_kernel(
            &dev,
            &reverse_blocks::KERNEL,
            &InstanceKey::EMPTY,
            &Vec::new,
            Some(block(x, y)),
        )
        .unwrap();
        assert_eq!(c.kernel.attrs.block_dim, Some([x, y, 1]));
        assert!(
            c.ptx.contains(&format!(".reqntid {x}, {y}, 1")),
            "{}",
            c.ptx
        );
        assert!(
            !c.ptx.contains("%ntid"),
            "block_dim() is a constant:\n{}",
            c.ptx
        );
        // The tile indices `t` and `per_block - 1 - t` are known below x * y <= 1024: the
        // shared accesses need no checks.
        assert_eq!(checks(&c.kernel), 0, "{}", c.kernel);
    }
    // The general variant (what tools and occupancy queries get) keeps them.
    let c = compiled_kernel(
        &dev,
        &reverse_blocks::KERNEL,
        &InstanceKey::EMPTY,
        &Vec::new,
        None,
    )
    .unwrap();
    assert!(c.kernel.attrs.block_dim.is_none());
    assert!(!c.ptx.contains(".reqntid") && c.ptx.contains("%ntid"));
    assert!(checks(&c.kernel) > 0, "{}", c.kernel);
}

/// Bounds checks left in a kernel's optimized IR.
fn checks(k: &kernel_ir::ir::Kernel) -> usize {
    k.to_string().matches("bounds_check").count()
}

#[kernel]
pub fn add_index(y: &mut [u32]) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    if i < y.len() {
        y[i] += i as u32;
    }
}

#[test]
fn shapes_beyond_the_bound_share_the_general_variant() {
    let dev = Device::simulator();
    let s = dev.new_stream().unwrap();
    let n = 300;
    let mut dy = dev.upload(&vec![5u32; n]).unwrap();
    let shapes: Vec<u32> = (1..=MAX_VARIANTS as u32 + 2).map(|i| 32 * i).collect();
    // Every shape twice, the first ones again after the bound was reached.
    for &x in shapes.iter().chain(&shapes) {
        add_index::launch(&s, LaunchConfig::for_elements(n, x), &mut dy).unwrap();
    }
    let want: Vec<u32> = (0..n as u32)
        .map(|i| 5 + 2 * shapes.len() as u32 * i)
        .collect();
    assert_eq!(dy.to_vec().unwrap(), want);
    let mut expect: Vec<Specialization> =
        shapes[..MAX_VARIANTS].iter().map(|&x| spec(x, 1)).collect();
    expect.push(Specialization::GENERAL);
    assert_eq!(add_index::KERNEL.cache.variants(), expect);
    let ptx_of = |x: u32| {
        compiled_kernel(
            &dev,
            &add_index::KERNEL,
            &InstanceKey::EMPTY,
            &Vec::new,
            Some(block(x, 1)),
        )
        .unwrap()
        .ptx
        .clone()
    };
    assert!(ptx_of(shapes[0]).contains(&format!(".reqntid {}, 1, 1", shapes[0])));
    let beyond = ptx_of(shapes[MAX_VARIANTS]);
    assert!(!beyond.contains(".reqntid") && beyond.contains("%ntid.x"));
    assert_eq!(add_index::KERNEL.cache.variants().len(), MAX_VARIANTS + 1);
}

#[kernel(specialize = false)]
pub fn add_index_general(y: &mut [u32]) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    if i < y.len() {
        y[i] += i as u32;
    }
}

#[kernel(block_dim(64))]
pub fn add_index_fixed(y: &mut [u32]) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    if i < y.len() {
        y[i] += i as u32;
    }
}

#[test]
fn opted_out_and_fixed_shape_kernels_keep_one_variant() {
    let dev = Device::simulator();
    let s = dev.new_stream().unwrap();
    let n = 200;
    let mut dy = dev.upload(&vec![0u32; n]).unwrap();
    for x in [32, 64, 128] {
        add_index_general::launch(&s, LaunchConfig::for_elements(n, x), &mut dy).unwrap();
    }
    let want: Vec<u32> = (0..n as u32).map(|i| 3 * i).collect();
    assert_eq!(dy.to_vec().unwrap(), want);
    assert_eq!(
        add_index_general::KERNEL.cache.variants(),
        [Specialization::GENERAL]
    );
    let c = compiled_kernel(
        &dev,
        &add_index_general::KERNEL,
        &InstanceKey::EMPTY,
        &Vec::new,
        Some(block(64, 1)),
    )
    .unwrap();
    assert!(!c.ptx.contains(".reqntid") && c.ptx.contains("%ntid.x"));

    add_index_fixed::launch(&s, LaunchConfig::for_elements(n, 64), &mut dy).unwrap();
    let e = add_index_fixed::launch(&s, LaunchConfig::for_elements(n, 32), &mut dy).unwrap_err();
    assert!(e.to_string().contains("required block_dim"), "{e}");
    assert_eq!(
        add_index_fixed::KERNEL.cache.variants(),
        [Specialization::GENERAL],
        "the attribute's shape is the kernel's own, not a specialization"
    );
}

#[kernel]
pub fn add_one(y: &mut [u32]) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    if i < y.len() {
        y[i] += 1;
    }
}

/// Set in the child process [`compile_log_names_the_specialization_key`] starts.
const LOG_CHILD: &str = "FERROCUDA_SPECIALIZATION_LOG_CHILD";

/// `FERROCUDA_LOG_COMPILE=1` prints each compile with its key. The variable is read once per
/// process, so the launches run in a child process of this test binary, which has it set.
#[test]
fn compile_log_names_the_specialization_key() {
    if std::env::var_os(LOG_CHILD).is_some() {
        let dev = Device::simulator();
        let s = dev.new_stream().unwrap();
        let mut dy = dev.upload(&[0u32; 100]).unwrap();
        for x in [32, 64, 64] {
            add_one::launch(&s, LaunchConfig::for_elements(100, x), &mut dy).unwrap();
        }
        assert_eq!(dy.to_vec().unwrap(), [3u32; 100]);
        let din = dev.upload(&[1u32; 128]).unwrap();
        let mut dout = dev.alloc_zeroed::<u32>(64).unwrap();
        stage_sums::launch(&s, stage_cfg(512), &mut dout, &din, 2).unwrap();
        assert_eq!(dout.to_vec().unwrap(), [3u32; 64]);
        return;
    }
    let exe = std::env::current_exe().expect("the test binary's path");
    let out = std::process::Command::new(exe)
        .args([
            "compile_log_names_the_specialization_key",
            "--exact",
            "--nocapture",
            "-q",
        ])
        .env(LOG_CHILD, "1")
        .env("FERROCUDA_LOG_COMPILE", "1")
        .output()
        .expect("the test binary runs");
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "child failed:\n{log}");
    let lines: Vec<&str> = log
        .lines()
        .filter(|l| l.starts_with("ferrocuda: compiled"))
        .collect();
    assert_eq!(lines.len(), 3, "one line per compile:\n{log}");
    assert!(
        lines[0].contains("specialization::add_one [block=32x1x1] for sm_"),
        "{log}"
    );
    assert!(lines[1].contains("[block=64x1x1]"), "{log}");
    assert!(
        lines[2].contains("stage_sums [block=64x1x1 dyn_shared=512]"),
        "{log}"
    );
}

/// `stages` tiles of 64 words staged in dynamic shared memory, each thread then sums its
/// column of them reversed: right only if every stage fits the launch's size.
#[kernel]
pub fn stage_sums(out: &mut [u32], inp: &[u32], stages: u32) {
    let smem = dynamic_shared::<u32>();
    let t = thread_idx().x as usize;
    for s in 0..stages as usize {
        smem[s * 64 + t] = inp[s * 64 + t];
    }
    sync_threads();
    let mut acc = 0u32;
    for s in 0..stages as usize {
        acc += smem[s * 64 + 63 - t] * (s as u32 + 1);
    }
    out[t] = acc;
}

fn stage_cfg(bytes: u32) -> LaunchConfig {
    LaunchConfig {
        grid: Dim3::new(1, 1, 1),
        block: block(64, 1),
        shared_mem_bytes: bytes,
        attrs: Default::default(),
    }
}

fn stage_spec(bytes: u32) -> Specialization {
    Specialization {
        dyn_shared: Some(bytes),
        ..spec(64, 1)
    }
}

/// Each dynamic shared memory size gets its own variant (the slice's length a constant), and a
/// launch reading past its own size panics with that size's length, whichever variant ran first.
#[test]
fn each_dynamic_shared_size_gets_its_own_variant() {
    let dev = Device::simulator();
    let s = dev.new_stream().unwrap();
    let inp: Vec<u32> = (0..4 * 64).map(|i| i * 3 + 1).collect();
    let din = dev.upload(&inp).unwrap();
    let want = |stages: usize| -> Vec<u32> {
        (0..64)
            .map(|t| {
                (0..stages)
                    .map(|s| inp[s * 64 + 63 - t] * (s as u32 + 1))
                    .sum()
            })
            .collect()
    };
    for (stages, bytes) in [(2u32, 512u32), (4, 1024), (2, 512), (4, 1024)] {
        let mut dout = dev.alloc_zeroed::<u32>(64).unwrap();
        stage_sums::launch(&s, stage_cfg(bytes), &mut dout, &din, stages).unwrap();
        assert_eq!(
            dout.to_vec().unwrap(),
            want(stages as usize),
            "{stages} stages"
        );
    }
    assert_eq!(
        stage_sums::KERNEL.cache.variants(),
        [stage_spec(512), stage_spec(1024)],
        "one variant per size, a repeated size reuses its own"
    );
    // Four stages in the smaller size: index 128 of 128 words.
    let mut dout = dev.alloc_zeroed::<u32>(64).unwrap();
    let e = stage_sums::launch(&s, stage_cfg(512), &mut dout, &din, 4)
        .and_then(|_| s.synchronize())
        .unwrap_err();
    let msg = e.to_string();
    assert!(msg.contains("the len is 128 but the index is 128"), "{msg}");
    assert_eq!(stage_sums::KERNEL.cache.variants().len(), 2);
}

/// Two stages of a block's 64 words in dynamic shared memory, summed reversed.
#[kernel]
pub fn two_stages(out: &mut [u32], inp: &[u32]) {
    let smem = dynamic_shared::<u32>();
    let t = thread_idx().x as usize;
    let i = block_idx().x as usize * 64 + t;
    if i < inp.len() {
        smem[t] = inp[i];
        smem[64 + t] = inp[i] * 2;
    }
    sync_threads();
    if i < out.len() {
        out[i] = smem[63 - t] + smem[127 - t];
    }
}

/// The variant compiled for a size has that constant length: with the block shape known too, the
/// stage indices are proven (none of the kernel's checks is left), as for a `shared_array` tile.
#[test]
fn a_dynamic_shared_variant_proves_its_tile_indices() {
    use kernel_compiler::{compile, CompileOptions};
    let opts = |specialization| CompileOptions {
        sm: 90,
        source_markers: false,
        specialization,
        ..CompileOptions::default()
    };
    let ir_of = |spec| {
        let c = compile(two_stages::ast(), &[], &opts(spec)).unwrap();
        c.kernel.to_string()
    };
    let launch = Specialization::for_launch(two_stages::ast(), [64, 1, 1])
        .with_dynamic_shared(two_stages::ast(), 512);
    assert_eq!(launch, stage_spec(512));
    let ours = ir_of(launch);
    let general = ir_of(spec(64, 1));
    assert_eq!(checks_of(&ours), 0, "{ours}");
    assert!(checks_of(&general) > 0, "{general}");

    let dev = Device::simulator();
    let s = dev.new_stream().unwrap();
    let inp: Vec<u32> = (0..256).collect();
    let din = dev.upload(&inp).unwrap();
    let mut dout = dev.alloc_zeroed::<u32>(256).unwrap();
    let cfg = LaunchConfig {
        grid: Dim3::new(4, 1, 1),
        ..stage_cfg(512)
    };
    two_stages::launch(&s, cfg, &mut dout, &din).unwrap();
    let want: Vec<u32> = (0..256u32)
        .map(|i| 3 * ((i / 64) * 64 + 63 - i % 64))
        .collect();
    assert_eq!(dout.to_vec().unwrap(), want);
    assert_eq!(two_stages::KERNEL.cache.variants(), [stage_spec(512)]);
}

fn checks_of(text: &str) -> usize {
    text.matches("bounds_check").count()
}

/// A kernel without dynamic shared memory keeps one variant per block shape whatever size its
/// launches ask for.
#[kernel]
pub fn add_two(y: &mut [u32]) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    if i < y.len() {
        y[i] += 2;
    }
}

#[test]
fn the_size_is_no_key_for_a_kernel_without_dynamic_shared_memory() {
    let dev = Device::simulator();
    let s = dev.new_stream().unwrap();
    let mut dy = dev.upload(&[0u32; 100]).unwrap();
    for bytes in [0, 256, 4096] {
        let cfg = LaunchConfig {
            shared_mem_bytes: bytes,
            ..LaunchConfig::for_elements(100, 32)
        };
        add_two::launch(&s, cfg, &mut dy).unwrap();
    }
    assert_eq!(dy.to_vec().unwrap(), [6u32; 100]);
    assert_eq!(add_two::KERNEL.cache.variants(), [spec(32, 1)]);
}

/// `two_stages` with its block shape declared: specialized on the size alone.
#[kernel(block_dim(64))]
pub fn two_stages_fixed(out: &mut [u32], inp: &[u32]) {
    let smem = dynamic_shared::<u32>();
    let t = thread_idx().x as usize;
    let i = block_idx().x as usize * 64 + t;
    if i < inp.len() {
        smem[t] = inp[i];
        smem[64 + t] = inp[i] * 2;
    }
    sync_threads();
    if i < out.len() {
        out[i] = smem[63 - t] + smem[127 - t];
    }
}

/// `two_stages` opted out: one variant, the size read at run time.
#[kernel(specialize = false)]
pub fn two_stages_general(out: &mut [u32], inp: &[u32]) {
    let smem = dynamic_shared::<u32>();
    let t = thread_idx().x as usize;
    let i = block_idx().x as usize * 64 + t;
    if i < inp.len() {
        smem[t] = inp[i];
        smem[64 + t] = inp[i] * 2;
    }
    sync_threads();
    if i < out.len() {
        out[i] = smem[63 - t] + smem[127 - t];
    }
}

#[test]
fn fixed_shape_kernels_specialize_on_the_size_and_opted_out_ones_not() {
    let dev = Device::simulator();
    let s = dev.new_stream().unwrap();
    let inp: Vec<u32> = (0..128).collect();
    let din = dev.upload(&inp).unwrap();
    let want: Vec<u32> = (0..128u32)
        .map(|i| 3 * ((i / 64) * 64 + 63 - i % 64))
        .collect();
    for bytes in [512, 1024, 512] {
        let cfg = LaunchConfig {
            grid: Dim3::new(2, 1, 1),
            ..stage_cfg(bytes)
        };
        let mut dout = dev.alloc_zeroed::<u32>(128).unwrap();
        two_stages_fixed::launch(&s, cfg, &mut dout, &din).unwrap();
        assert_eq!(dout.to_vec().unwrap(), want, "fixed, {bytes} bytes");
        let mut dout = dev.alloc_zeroed::<u32>(128).unwrap();
        two_stages_general::launch(&s, cfg, &mut dout, &din).unwrap();
        assert_eq!(dout.to_vec().unwrap(), want, "general, {bytes} bytes");
    }
    let size = |bytes| Specialization {
        block: None,
        dyn_shared: Some(bytes),
    };
    assert_eq!(
        two_stages_fixed::KERNEL.cache.variants(),
        [size(512), size(1024)]
    );
    assert_eq!(
        two_stages_general::KERNEL.cache.variants(),
        [Specialization::GENERAL]
    );
    // Too small for the second stage: the opted-out kernel's run-time length says so too.
    let cfg = LaunchConfig {
        grid: Dim3::new(2, 1, 1),
        ..stage_cfg(256)
    };
    let mut dout = dev.alloc_zeroed::<u32>(128).unwrap();
    for e in [
        two_stages_fixed::launch(&s, cfg, &mut dout, &din).and_then(|_| s.synchronize()),
        two_stages_general::launch(&s, cfg, &mut dout, &din).and_then(|_| s.synchronize()),
    ] {
        let msg = e.unwrap_err().to_string();
        assert!(msg.contains("the len is 64 but the index is"), "{msg}");
    }
}
