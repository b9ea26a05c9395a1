//! Compile work that grows with the source polynomially, counted in IR instructions (not timed):
//! a pass that copies code per nesting level shows up as a count that doubles per level.

mod common;

use common::*;
use kernel_compiler::{passes, CompileOptions};
use kernel_ir::ast::{BinOp, FnDef, IntTy};

/// `fn nested(x: &[i32], out: &mut [i32]) { if x[0] > 0 { if x[1] > 0 { .. out[0] = 1 } } }`,
/// `depth` levels, each a bounds-checked load and a compare.
fn nested_ifs(depth: usize) -> &'static FnDef {
    let mut inner = blk(vec![st(assign(index(var("out"), int(0)), int(1)))], None);
    for d in (0..depth).rev() {
        let c = bin(BinOp::Gt, index(var("x"), int(d as i128)), int(0));
        inner = blk(vec![st(if_(c, inner, None))], None);
    }
    kernel(
        "nested",
        vec![
            param("x", tslice(ti(IntTy::I32), false)),
            param("out", tslice(ti(IntTy::I32), true)),
        ],
        inner,
    )
}

/// Instructions of the kernel, nested blocks included.
fn size(k: &kernel_ir::ir::Kernel) -> usize {
    let mut n = 0;
    kernel_ir::visit::walk(&k.body, &mut |_| n += 1);
    n
}

/// Before: `speculate` flattened each `if` into selects, then flattened the enclosing `if`
/// again, selects included, two instructions for each: the code doubled per level (8 levels: 59
/// instructions lowered, 1,672 after `speculate`; 16 levels took a second, 30 would take hours).
/// Now the optimized kernel stays within a small factor of the lowered one at every depth, and
/// so does every pass's work; each depth is checked before the next, so a regression fails at
/// the first depth that blows up instead of running for hours.
#[test]
fn nested_ifs_with_loads_compile_in_polynomial_work() {
    for depth in [4usize, 8, 12, 16, 20, 24, 30] {
        let mut k = kernel_compiler::compile::lower(nested_ifs(depth), &[]).unwrap();
        let lowered = size(&k);
        let mut largest = (0, String::new());
        passes::optimize_with(&mut k, &CompileOptions::default(), &mut |pass, k| {
            let n = size(k);
            if n > largest.0 {
                largest = (n, pass.to_string());
            }
        });
        // Lowering makes 7 instructions a level; the passes add a few times that (the deferred
        // bounds checks' guards, selects: 978 at 30 levels), never a factor per level.
        assert!(
            largest.0 <= 8 * lowered,
            "{depth} levels: {lowered} instructions lowered, {} after `{}`",
            largest.0,
            largest.1
        );
        // The PTX of the deepest one is emitted too.
        if depth == 30 {
            kernel_compiler::ptx::emit(&k, &CompileOptions::default()).unwrap();
        }
    }
}
