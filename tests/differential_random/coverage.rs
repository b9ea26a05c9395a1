//! What the 500-kernel sample exercises: every construct the generator can write must appear in
//! it, so a generator change cannot quietly stop testing something.

use std::collections::BTreeMap;

use ferrocuda::kernel_ir::ast::*;

use crate::gen::MATH;

fn tag(out: &mut BTreeMap<String, usize>, t: impl Into<String>) {
    *out.entry(t.into()).or_default() += 1;
}

fn walk_block(b: &Block, out: &mut BTreeMap<String, usize>) {
    for s in &b.stmts {
        match s {
            Stmt::Let { pat, ty, init, .. } => {
                if matches!(pat, Pat::Tuple(_)) {
                    tag(out, "let (a, b)");
                }
                if let Type::Array(..) = ty {
                    tag(out, "local array");
                }
                if let Some(x) = init {
                    walk(x, out);
                }
            }
            Stmt::Expr(x) => walk(x, out),
        }
    }
    if let Some(t) = &b.tail {
        walk(t, out);
    }
}

fn pat(p: &Pat, out: &mut BTreeMap<String, usize>) {
    match p {
        Pat::Or(ps) => {
            tag(out, "pattern a | b");
            ps.iter().for_each(|q| pat(q, out));
        }
        Pat::Range { inclusive, .. } => tag(
            out,
            if *inclusive {
                "pattern a..=b"
            } else {
                "pattern a..b"
            },
        ),
        Pat::Lit(_) => tag(out, "pattern literal"),
        _ => {}
    }
}

fn walk(e: &Expr, out: &mut BTreeMap<String, usize>) {
    match &e.kind {
        ExprKind::Unary(op, x) => {
            tag(out, format!("{op:?}"));
            walk(x, out);
        }
        ExprKind::Binary(op, a, b) => {
            tag(out, format!("{op:?}"));
            walk(a, out);
            walk(b, out);
        }
        ExprKind::Assign(a, b) => {
            walk(a, out);
            walk(b, out);
        }
        ExprKind::AssignOp(op, a, b) => {
            tag(out, format!("{op:?}="));
            walk(a, out);
            walk(b, out);
        }
        ExprKind::Cast(x, t) => {
            tag(out, format!("as {}", crate::print::type_text(t)));
            walk(x, out);
        }
        ExprKind::Index(a, i) => {
            walk(a, out);
            walk(i, out);
        }
        ExprKind::Field(a, _) => walk(a, out),
        ExprKind::Call { callee, args, .. } => {
            tag(out, callee.path);
            args.iter().for_each(|a| walk(a, out));
        }
        ExprKind::AssocCall { ty, method, args } => {
            tag(out, format!("{}::{method}", crate::print::type_text(ty)));
            args.iter().for_each(|a| walk(a, out));
        }
        ExprKind::MethodCall {
            receiver,
            method,
            args,
            ..
        } => {
            tag(out, format!(".{method}"));
            walk(receiver, out);
            args.iter().for_each(|a| walk(a, out));
        }
        ExprKind::Array(xs) => {
            tag(out, "[a, b]");
            xs.iter().for_each(|x| walk(x, out));
        }
        ExprKind::ArrayRepeat(x, _) => {
            tag(out, "[a; n]");
            walk(x, out);
        }
        ExprKind::Block(b) => {
            tag(out, "block");
            walk_block(b, out);
        }
        ExprKind::If { cond, then, els } => {
            tag(out, "if");
            walk(cond, out);
            walk_block(then, out);
            if let Some(x) = els {
                walk(x, out);
            }
        }
        ExprKind::Match { scrutinee, arms } => {
            tag(out, "match");
            walk(scrutinee, out);
            for a in arms {
                pat(&a.pat, out);
                if let Some(g) = &a.guard {
                    tag(out, "match guard");
                    walk(g, out);
                }
                walk(&a.body, out);
            }
        }
        ExprKind::While { label, cond, body } => {
            tag(out, "while");
            if label.is_some() {
                tag(out, "labelled loop");
            }
            walk(cond, out);
            walk_block(body, out);
        }
        ExprKind::Loop { label, body } => {
            tag(out, "loop");
            if label.is_some() {
                tag(out, "labelled loop");
            }
            walk_block(body, out);
        }
        ExprKind::For {
            label, iter, body, ..
        } => {
            tag(out, "for");
            if label.is_some() {
                tag(out, "labelled loop");
            }
            walk(iter, out);
            walk_block(body, out);
        }
        ExprKind::Range {
            start,
            end,
            inclusive,
        } => {
            tag(out, if *inclusive { "a..=b" } else { "a..b" });
            for x in start.iter().chain(end.iter()) {
                walk(x, out);
            }
        }
        ExprKind::Break { label, value } => {
            tag(out, "break");
            if label.is_some() {
                tag(out, "break 'label");
            }
            if let Some(v) = value {
                tag(out, "break value");
                walk(v, out);
            }
        }
        ExprKind::Continue { label } => {
            tag(out, "continue");
            if label.is_some() {
                tag(out, "continue 'label");
            }
        }
        ExprKind::Ref(_, x) | ExprKind::Deref(x) => walk(x, out),
        ExprKind::AssocConst { name, .. } => tag(out, format!("::{name}")),
        _ => {}
    }
}

/// Constructs every sample must contain.
const REQUIRED: &[&str] = &[
    // integers
    ".wrapping_add",
    ".wrapping_sub",
    ".wrapping_mul",
    ".wrapping_neg",
    ".wrapping_abs",
    ".reverse_bits",
    ".rotate_left",
    ".rotate_right",
    ".saturating_add",
    ".saturating_sub",
    ".count_ones",
    ".count_zeros",
    ".leading_zeros",
    ".trailing_zeros",
    ".min",
    ".max",
    ".clamp",
    ".abs_diff",
    ".signum",
    ".div_ceil",
    ".is_power_of_two",
    ".is_positive",
    ".is_negative",
    "BitAnd",
    "BitOr",
    "BitXor",
    "Shl",
    "Shr",
    "Div",
    "Rem",
    "Not",
    "Neg",
    "Eq",
    "Ne",
    "Lt",
    "Le",
    "Gt",
    "Ge",
    "And",
    "Or",
    "BitXor=",
    "BitOr=",
    "BitAnd=",
    "::MIN",
    // casts into every type
    "as i8",
    "as i16",
    "as i32",
    "as i64",
    "as isize",
    "as u8",
    "as u16",
    "as u32",
    "as u64",
    "as usize",
    "as f32",
    "as f64",
    // floats
    "Add",
    "Sub",
    "Mul",
    "Add=",
    "Sub=",
    "Mul=",
    ".sqrt",
    ".floor",
    ".ceil",
    ".round",
    ".trunc",
    ".fract",
    ".recip",
    ".abs",
    ".mul_add",
    ".is_nan",
    ".is_finite",
    ".is_infinite",
    "f32::from_bits",
    "f64::from_bits",
    "::NAN",
    "::INFINITY",
    "f16::from_f32",
    "f16::from_f64",
    "bf16::from_f32",
    "bf16::from_f64",
    ".to_f32",
    ".to_f64",
    // control flow
    "if",
    "match",
    "match guard",
    "pattern literal",
    "pattern a | b",
    "pattern a..=b",
    "pattern a..b",
    "block",
    "while",
    "loop",
    "for",
    "a..b",
    "a..=b",
    ".rev",
    ".step_by",
    "labelled loop",
    "break",
    "break value",
    "break 'label",
    "continue",
    "continue 'label",
    // memory
    "local array",
    "[a, b]",
    "[a; n]",
    "shared_array",
    "let (a, b)",
    // thread ids and collectives
    "thread_idx",
    "block_idx",
    "block_dim",
    "grid_dim",
    "lane_id",
    "sync_threads",
    "sync_threads_count",
    "sync_threads_and",
    "sync_threads_or",
    "sync_warp",
    "shfl_sync",
    "shfl_up_sync",
    "shfl_down_sync",
    "shfl_xor_sync",
    "ballot_sync",
    "all_sync",
    "any_sync",
    "reduce_add_sync",
    "reduce_min_sync",
    "reduce_max_sync",
    "reduce_and_sync",
    "reduce_or_sync",
    "reduce_xor_sync",
    "match_any_sync",
    "match_all_sync",
    // atomics
    "atomic_add",
    "atomic_sub",
    "atomic_and",
    "atomic_or",
    "atomic_xor",
    "atomic_min",
    "atomic_max",
    "atomic_inc",
    "atomic_dec",
    "atomic_exch",
    "atomic_cas",
];

#[test]
fn sample_covers_the_generator() {
    let mut seen = BTreeMap::new();
    let mut panics = 0;
    for i in 0..500 {
        let case = crate::case_for(crate::rng::case_seed(crate::BASE, i));
        walk_block(&case.def.body, &mut seen);
        panics += case.features.panic_site as usize;
    }
    let mut missing: Vec<&str> = REQUIRED
        .iter()
        .copied()
        .filter(|t| !seen.contains_key(*t))
        .collect();
    missing.extend(
        MATH.iter()
            .map(|m| m.0)
            .filter(|m| !seen.contains_key(&format!(".{m}"))),
    );
    assert!(panics >= 10, "only {panics} kernels of the panic family");
    assert!(
        missing.is_empty(),
        "the 500-kernel sample never uses {missing:?}; seen: {seen:?}"
    );
}
