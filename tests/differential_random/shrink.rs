//! Shrinking a failing case to the few statements that still fail (as C-Reduce does for Csmith
//! programs): a mismatch in a 150-line random kernel names a seed, not a cause.
//!
//! The moves are syntactic and greedy: delete one statement, or replace a compound statement
//! (`if`, a loop, a block) by one of its bodies. Statements are numbered in pre-order over every
//! block of the kernel, nested blocks inside expressions included; each move that keeps the case
//! failing is kept, and passes repeat until none does (or the try budget is spent). A move may
//! leave the kernel ill-typed (a deleted `let` whose name is used later): the caller's predicate
//! then sees a compile error or a reference failure and says "not failing", so no type checker is
//! needed here.
//!
//! Spans are the original kernel's, on the reference and the compiled kernel alike, so panic
//! locations stay comparable; the shrunk kernel is printed anew for the report.

use ferrocuda::kernel_ir::ast::{Block, Expr, ExprKind, FnDef, Stmt};

use crate::gen::Case;
use crate::print;

#[derive(Clone, Copy, Debug)]
enum Move {
    Delete,
    /// The `then` body (0) or the `else` expression (1) of an `if`; the body of a loop or block.
    Inline(u8),
}

const MOVES: [Move; 3] = [Move::Delete, Move::Inline(0), Move::Inline(1)];

/// The case with statement `target` (pre-order) rewritten by `mv`, or `None` when that move does
/// not apply there.
fn moved(case: &Case, target: usize, mv: Move) -> Option<Case> {
    let mut def: FnDef = case.def.clone();
    let mut n = 0;
    if !in_block(&mut def.body, &mut n, target, mv) {
        return None;
    }
    let mut c = case.clone();
    c.def = Box::leak(Box::new(def));
    Some(c)
}

fn in_block(b: &mut Block, n: &mut usize, target: usize, mv: Move) -> bool {
    for i in 0..b.stmts.len() {
        if *n == target {
            return rewrite(b, i, mv);
        }
        *n += 1;
        let found = match &mut b.stmts[i] {
            Stmt::Let { init, .. } => init.as_mut().is_some_and(|e| in_expr(e, n, target, mv)),
            Stmt::Expr(e) => in_expr(e, n, target, mv),
        };
        if found {
            return true;
        }
    }
    b.tail.as_mut().is_some_and(|t| in_expr(t, n, target, mv))
}

fn rewrite(b: &mut Block, i: usize, mv: Move) -> bool {
    match mv {
        Move::Delete => {
            b.stmts.remove(i);
            true
        }
        Move::Inline(which) => {
            let Stmt::Expr(e) = &b.stmts[i] else {
                return false;
            };
            let span = e.span;
            let inner = match (&e.kind, which) {
                (ExprKind::If { then, .. }, 0) => ExprKind::Block(then.clone()),
                (ExprKind::If { els: Some(x), .. }, 1) => x.kind.clone(),
                (ExprKind::While { body, .. }, 0)
                | (ExprKind::Loop { body, .. }, 0)
                | (ExprKind::For { body, .. }, 0) => ExprKind::Block(body.clone()),
                (ExprKind::Block(inner), 0) if !inner.stmts.is_empty() => {
                    // A block statement's own statements, spliced into the enclosing block.
                    let inner = inner.clone();
                    b.stmts.remove(i);
                    let mut at = i;
                    for s in inner.stmts {
                        b.stmts.insert(at, s);
                        at += 1;
                    }
                    if let Some(t) = inner.tail {
                        b.stmts.insert(at, Stmt::Expr(*t));
                    }
                    return true;
                }
                _ => return false,
            };
            b.stmts[i] = Stmt::Expr(Expr { kind: inner, span });
            true
        }
    }
}

/// Visits the blocks nested in `e` (and in its operands) in source order.
fn in_expr(e: &mut Expr, n: &mut usize, target: usize, mv: Move) -> bool {
    let mut go = |x: &mut Expr| in_expr(x, n, target, mv);
    match &mut e.kind {
        ExprKind::Block(b) => in_block(b, n, target, mv),
        ExprKind::If { cond, then, els } => {
            go(cond)
                || in_block(then, n, target, mv)
                || els.as_mut().is_some_and(|x| in_expr(x, n, target, mv))
        }
        ExprKind::While { cond, body, .. } => go(cond) || in_block(body, n, target, mv),
        ExprKind::Loop { body, .. } => in_block(body, n, target, mv),
        ExprKind::For { iter, body, .. } => go(iter) || in_block(body, n, target, mv),
        ExprKind::Match { scrutinee, arms } => {
            if go(scrutinee) {
                return true;
            }
            arms.iter_mut().any(|a| {
                a.guard.as_mut().is_some_and(|g| in_expr(g, n, target, mv))
                    || in_expr(&mut a.body, n, target, mv)
            })
        }
        ExprKind::Unary(_, a)
        | ExprKind::Cast(a, _)
        | ExprKind::Field(a, _)
        | ExprKind::Ref(_, a)
        | ExprKind::Deref(a) => go(a),
        ExprKind::Binary(_, a, b)
        | ExprKind::Assign(a, b)
        | ExprKind::AssignOp(_, a, b)
        | ExprKind::Index(a, b)
        | ExprKind::ArrayRepeat(a, b) => go(a) || go(b),
        ExprKind::Call { args, .. }
        | ExprKind::AssocCall { args, .. }
        | ExprKind::Tuple(args)
        | ExprKind::Array(args)
        | ExprKind::Print { args, .. } => args.iter_mut().any(go),
        ExprKind::MethodCall { receiver, args, .. } => go(receiver) || args.iter_mut().any(go),
        ExprKind::StructLit { fields, .. } => fields.iter_mut().any(|(_, x)| go(x)),
        ExprKind::Range { start, end, .. } => {
            start.as_mut().is_some_and(|x| go(x)) || end.as_mut().is_some_and(|x| go(x))
        }
        ExprKind::Break { value, .. } | ExprKind::Return(value) => {
            value.as_mut().is_some_and(|x| go(x))
        }
        ExprKind::Assert { cond, .. } => go(cond),
        _ => false,
    }
}

/// Statements of the kernel, every nested block counted.
fn statements(def: &FnDef) -> usize {
    let mut d = def.clone();
    let mut n = 0;
    // No target is this large: the walk counts every statement and changes nothing.
    in_block(&mut d.body, &mut n, usize::MAX, Move::Delete);
    n
}

/// The smallest case reached from `case` by moves that keep `fails` true, after at most `tries`
/// calls of `fails`. `fails(case)` itself is assumed.
pub fn shrink(case: &Case, tries: usize, fails: &mut dyn FnMut(&Case) -> bool) -> Case {
    let mut best = case.clone();
    let mut left = tries;
    loop {
        let mut progress = false;
        let mut target = 0;
        while target < statements(best.def) {
            let mut kept = false;
            for mv in MOVES {
                if left == 0 {
                    return best;
                }
                let Some(c) = moved(&best, target, mv) else {
                    continue;
                };
                left -= 1;
                if quietly(|| fails(&c)) {
                    best = c;
                    kept = true;
                    progress = true;
                    break;
                }
            }
            // After a kept move the same number names the next statement.
            if !kept {
                target += 1;
            }
        }
        if !progress {
            return best;
        }
    }
}

/// `f()`, with a panic inside it (the reference on an ill-typed candidate) counted as false and
/// not printed.
fn quietly(f: impl FnOnce() -> bool) -> bool {
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_or(false);
    std::panic::set_hook(hook);
    r
}

/// The case's kernel as numbered source (spans are set on a copy).
pub fn source(case: &Case) -> String {
    let mut d = case.def.clone();
    print::numbered(&print::print_kernel(&mut d, true))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backends;
    use crate::compare::check;
    use crate::reference;

    /// A stand-in for a GPU mismatch: the reference and the simulator agree (the candidate is a
    /// valid kernel) and the outputs still hold the word the full kernel writes into one slot.
    /// Shrinking must keep that store and drop most of the rest.
    #[test]
    fn shrinking_keeps_what_the_predicate_needs() {
        let seed = 0x46e6_1ca6_d54f_b1ce;
        let case = crate::case_for(seed);
        let reference::RefOutcome::Done(want) = reference::run(&case) else {
            panic!("seed {seed:#x} panics in the reference");
        };
        // The first output byte of the first written parameter that differs from its input.
        let (p, i) = want
            .iter()
            .zip(&case.init)
            .enumerate()
            .find_map(|(p, (w, init))| w.iter().zip(init).position(|(a, b)| a != b).map(|i| (p, i)))
            .expect("the kernel writes something");
        let byte = want[p][i];
        let mut fails = |c: &Case| {
            let r = reference::run(c);
            let s = backends::run_sim(c, c.def);
            check(c, &r, "simulator", &s, true).is_ok()
                && matches!(&r, reference::RefOutcome::Done(o) if o[p][i] == byte && o[p][i] != c.init[p][i])
        };
        assert!(fails(&case));
        let before = statements(case.def);
        let small = shrink(&case, 400, &mut fails);
        let after = statements(small.def);
        assert!(fails(&small), "the shrunk case must still fail");
        assert!(
            after * 3 < before,
            "{before} statements shrunk only to {after}:\n{}",
            source(&small)
        );
    }
}
