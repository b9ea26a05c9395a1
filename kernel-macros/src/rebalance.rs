//! The hidden host copy of a kernel with its long operator chains regrouped.
//!
//! rustc overflows its own stack on a left-leaning chain of some thousands of operands (`a + b +
//! c + ...`): its passes recurse once per operand. The host copy of a kernel is never run, only
//! type-checked, so a chain of one precedence level can be regrouped as a balanced tree (`(a + b)
//! + (c + d)`) without changing what rustc checks, and a 10,000-term sum then nests 14 levels.
//! A `#[device]` fn's host copy is the function the host calls, whose grouping decides its
//! floating-point results: its chains are limited instead (see `MAX_CHAIN`).

use syn::visit_mut::{self, VisitMut};
use syn::{BinOp, Expr};

/// Chains shorter than this are left as written.
const MIN_CHAIN: usize = 64;

/// The precedence level of an associative operator, `None` for the others.
fn level(op: &BinOp) -> Option<u8> {
    Some(match op {
        BinOp::Add(_) | BinOp::Sub(_) => 1,
        BinOp::Mul(_) | BinOp::Div(_) | BinOp::Rem(_) => 2,
        BinOp::Shl(_) | BinOp::Shr(_) => 3,
        BinOp::BitAnd(_) => 4,
        BinOp::BitXor(_) => 5,
        BinOp::BitOr(_) => 6,
        BinOp::And(_) => 7,
        BinOp::Or(_) => 8,
        _ => return None,
    })
}

/// How many operands the left-leaning chain at `e` has.
fn chain_len(e: &Expr) -> usize {
    let Expr::Binary(b) = e else { return 1 };
    let Some(l) = level(&b.op) else { return 1 };
    let mut n = 2;
    let mut cur = &*b.left;
    while let Expr::Binary(x) = cur {
        if level(&x.op) != Some(l) || !x.attrs.is_empty() {
            break;
        }
        n += 1;
        cur = &x.left;
    }
    n
}

fn placeholder() -> Expr {
    Expr::Verbatim(proc_macro2::TokenStream::new())
}

fn paren(e: Expr) -> Expr {
    match e {
        Expr::Binary(_) => Expr::Paren(syn::ExprParen {
            attrs: Vec::new(),
            paren_token: Default::default(),
            expr: Box::new(e),
        }),
        e => e,
    }
}

/// `operands[0] ops[0] operands[1] ops[1] ...` grouped as a balanced tree.
fn balanced(mut operands: Vec<Expr>, mut ops: Vec<BinOp>) -> Expr {
    if operands.len() == 1 {
        return operands.pop().unwrap_or_else(placeholder);
    }
    let mid = operands.len() / 2;
    let right_operands = operands.split_off(mid);
    let right_ops = ops.split_off(mid);
    let op = ops.pop();
    let left = balanced(operands, ops);
    let right = balanced(right_operands, right_ops);
    match op {
        Some(op) => Expr::Binary(syn::ExprBinary {
            attrs: Vec::new(),
            left: Box::new(paren(left)),
            op,
            right: Box::new(paren(right)),
        }),
        None => left,
    }
}

struct Rebalance;

impl VisitMut for Rebalance {
    fn visit_expr_mut(&mut self, e: &mut Expr) {
        if chain_len(e) < MIN_CHAIN {
            visit_mut::visit_expr_mut(self, e);
            return;
        }
        let Some(l) = (match &*e {
            Expr::Binary(b) => level(&b.op),
            _ => None,
        }) else {
            return;
        };
        let mut operands = Vec::new();
        let mut ops = Vec::new();
        let mut cur = std::mem::replace(e, placeholder());
        loop {
            match cur {
                Expr::Binary(b) if level(&b.op) == Some(l) && b.attrs.is_empty() => {
                    operands.push(*b.right);
                    ops.push(b.op);
                    cur = *b.left;
                }
                other => {
                    operands.push(other);
                    break;
                }
            }
        }
        operands.reverse();
        ops.reverse();
        for o in &mut operands {
            self.visit_expr_mut(o);
        }
        *e = balanced(operands, ops);
    }
}

/// Whether the block has a chain worth regrouping (an iterative scan of left spines is not
/// needed: syn's visitor would recurse through the chain, so this uses the same bounded walk).
pub(crate) fn rebalance_block(b: &mut syn::Block) {
    Rebalance.visit_block_mut(b);
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::ToTokens;

    #[test]
    fn long_chains_become_shallow_and_keep_their_operands() {
        let src = format!(
            "{{ y[0] = {} - 1; }}",
            (0..1000)
                .map(|i| format!("x[{i}]"))
                .collect::<Vec<_>>()
                .join(" + ")
        );
        std::thread::Builder::new()
            .stack_size(1 << 20)
            .spawn(move || {
                let mut b: syn::Block = syn::parse_str(&src).expect("block");
                rebalance_block(&mut b);
                let text = b.to_token_stream().to_string();
                assert_eq!(text.matches("x [").count(), 1000);
                assert_eq!(text.matches(" - 1").count(), 1);
                let depth = text
                    .chars()
                    .scan(0i32, |d, c| {
                        *d += match c {
                            '(' => 1,
                            ')' => -1,
                            _ => 0,
                        };
                        Some(*d)
                    })
                    .max();
                assert!(depth.unwrap_or(0) < 16, "{depth:?}");
            })
            .expect("thread")
            .join()
            .expect("no overflow");
    }
}
