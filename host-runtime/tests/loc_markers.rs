//! Source markers (`ir::Inst::Loc`) are no-ops for the optimizer: optimizing a kernel with its
//! markers and dropping them afterwards gives exactly the IR of optimizing it without markers
//! (so unrolling, scalar replacement, bounds-check elimination, fma contraction and dead-code
//! removal all see through them), and the markers that survive still name the user's lines.

use ferrocuda::kernel_compiler::{compile, passes, CompileOptions};
use ferrocuda::kernel_ir::ast::FnDef;
use ferrocuda::kernel_ir::ir::{Block, Inst, Kernel};
use ferrocuda::kernel_ir::GenericValue;
use ferrocuda::prelude::*;

/// Products and sums in separate statements (fma across markers), a local array indexed by an
/// unrolled loop (scalar replacement), guarded indexing (bounds-check elimination), a dead
/// branch whose only content is statements that compute nothing (dead-code removal) and an `if`
/// whose branches differ only in their source lines (branch merging).
#[kernel]
pub fn marker_mix(x: &[f32], y: &mut [f32], n: u32) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    let mut acc = [0.0f32; 4];
    for k in 0..4 {
        let p = x[k] * 2.0;
        acc[k] = p + 1.0;
    }
    if n > 1000000 {
        let unused = n * 3;
        let _ = unused;
    }
    // Both branches do the same on different lines: the condition still folds away.
    let z = 2.0f32;
    if n > 5 {
        sync_threads();
    } else {
        sync_threads();
    }
    if i < y.len() && i < x.len() {
        let prod = x[i] * acc[3];
        let sum = prod + acc[1];
        y[i] = sum * z;
    }
}

fn count_markers(b: &Block) -> usize {
    let mut n = 0;
    for inst in &b.0 {
        n += matches!(inst, Inst::Loc(_)) as usize;
        match inst {
            Inst::If { then, els, .. } => n += count_markers(then) + count_markers(els),
            Inst::For { body, .. } | Inst::Loop { body, .. } => n += count_markers(body),
            _ => {}
        }
    }
    n
}

fn both_ways(def: &'static FnDef, generics: &[GenericValue]) -> (Kernel, Kernel) {
    let opts = CompileOptions::default();
    let lowered = compile::lower(def, generics).unwrap();
    assert!(count_markers(&lowered.body) > 0, "{}: no markers", def.name);
    let mut with = lowered.clone();
    passes::optimize(&mut with, &opts);
    let mut without = lowered;
    passes::util::strip_locs(&mut without.body);
    passes::optimize(&mut without, &opts);
    (with, without)
}

#[test]
fn markers_do_not_change_optimized_ir() {
    let mut defs: Vec<(&'static FnDef, Vec<GenericValue>)> = ferrocuda_examples::registry::KERNELS
        .iter()
        .map(|e| ((e.def)(), (e.generics)()))
        .collect();
    defs.push((marker_mix::ast(), Vec::new()));
    for (def, generics) in defs {
        let (mut with, without) = both_ways(def, &generics);
        assert!(
            count_markers(&with.body) > 0,
            "{}: markers all gone",
            def.name
        );
        passes::util::strip_locs(&mut with.body);
        assert_eq!(
            with.to_string(),
            without.to_string(),
            "{}: markers changed the optimized IR",
            def.name
        );
    }
}

#[test]
fn surviving_markers_name_the_kernels_lines() {
    let (with, _) = both_ways(marker_mix::ast(), &[]);
    let text = with.to_string();
    let src = include_str!("loc_markers.rs");
    let line = |s: &str| src.lines().position(|l| l.trim() == s).unwrap() + 1;
    for stmt in ["y[i] = sum * z;", "let prod = x[i] * acc[3];"] {
        let want = format!("loc {}:{}:", file!(), line(stmt));
        assert!(text.contains(&want), "no `{want}` in\n{text}");
    }
    assert!(text.contains("fma"), "{text}");
    assert!(!text.contains("for "), "{text}");
    assert!(with.arrays.is_empty(), "{text}");
    // The `if` whose branches differ only in their lines is gone.
    assert!(!text.contains("else"), "{text}");
}

/// What a GPU launch compiles (`source_markers: false`) is the PTX of the IR the simulator runs,
/// byte for byte, for every example kernel on both architectures we validate, checks on and off.
#[test]
fn compiling_without_markers_gives_the_same_ptx() {
    use ferrocuda::kernel_compiler::specialize::Specialization;
    use ferrocuda_examples::registry::{CORPUS_KERNELS, KERNELS};
    // The corpus's kernels as their launches compile them: specialized on the block shape.
    for e in KERNELS.iter().chain(CORPUS_KERNELS) {
        let (def, generics) = ((e.def)(), (e.generics)());
        let specialization = e.launch_block.map_or(Specialization::GENERAL, |b| {
            Specialization::for_launch(def, b)
        });
        for sm in [80, 90] {
            for bounds_checks in [true, false] {
                let opts = |source_markers| CompileOptions {
                    sm,
                    bounds_checks,
                    source_markers,
                    specialization,
                    ..CompileOptions::default()
                };
                let with = compile(def, &generics, &opts(true)).unwrap();
                let without = compile(def, &generics, &opts(false)).unwrap();
                assert!(count_markers(&with.kernel.body) > 0, "{}", def.name);
                assert_eq!(count_markers(&without.kernel.body), 0, "{}", def.name);
                assert!(
                    with.ptx == without.ptx,
                    "{} (sm_{sm}, checks {bounds_checks}): markers changed the PTX",
                    def.name
                );
            }
        }
    }
}
