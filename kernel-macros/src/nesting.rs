//! A check of the raw tokens before syn parses them: syn's parser (and ours after it) recurses
//! once per level of brackets, per prefix operator (`- - - x`) and per `else if`, on whatever
//! stack the compiler gives the macro. Code nested deeper than the documented limit is a
//! spanned compile error here instead of a stack overflow that takes rustc down.

use proc_macro2::{Group, TokenStream, TokenTree};

use crate::lower::MAX_NESTING;

fn too_deep(span: proc_macro2::Span, what: &str) -> syn::Error {
    syn::Error::new(
        span,
        format!(
            "{what} nest deeper than {MAX_NESTING} levels here; device code is limited to \
             {MAX_NESTING} levels of nesting: split it into `let` statements or `#[device]` fns"
        ),
    )
}

/// Running counts of one bracket level.
struct Level {
    tokens: proc_macro2::token_stream::IntoIter,
    depth: usize,
    prefix_run: usize,
    else_ifs: usize,
    prev_else: bool,
    prev_ends_operand: bool,
}

impl Level {
    fn new(tokens: TokenStream, depth: usize) -> Self {
        Level {
            tokens: tokens.into_iter(),
            depth,
            prefix_run: 0,
            else_ifs: 0,
            prev_else: false,
            prev_ends_operand: false,
        }
    }
}

/// Rejects tokens nested deeper than [`MAX_NESTING`] (brackets, prefix operators, `else if`).
pub(crate) fn check(tokens: &TokenStream) -> syn::Result<()> {
    // An explicit stack of levels: the walk itself does not recurse.
    let mut stack = vec![Level::new(tokens.clone(), 0)];
    while let Some(level) = stack.last_mut() {
        let mut inner: Option<Group> = None;
        for tt in level.tokens.by_ref() {
            match &tt {
                TokenTree::Group(g) => {
                    if level.depth + 1 > MAX_NESTING {
                        return Err(too_deep(g.span_open(), "brackets, blocks and calls"));
                    }
                    level.prefix_run = 0;
                    level.prev_else = false;
                    level.prev_ends_operand = true;
                    inner = Some(g.clone());
                    break;
                }
                TokenTree::Punct(p) => {
                    let prefix =
                        matches!(p.as_char(), '-' | '!' | '*' | '&') && !level.prev_ends_operand;
                    if prefix {
                        level.prefix_run += 1;
                        if level.prefix_run > MAX_NESTING {
                            return Err(too_deep(p.span(), "prefix operators"));
                        }
                    } else {
                        level.prefix_run = 0;
                    }
                    level.prev_ends_operand = false;
                    level.prev_else = false;
                }
                TokenTree::Ident(i) => {
                    if i == "if" && level.prev_else {
                        level.else_ifs += 1;
                        if level.else_ifs > MAX_NESTING {
                            return Err(too_deep(i.span(), "`else if` branches"));
                        }
                    } else if i == "if" {
                        // A new `if`: a new chain.
                        level.else_ifs = 0;
                    }
                    level.prev_else = i == "else";
                    level.prefix_run = 0;
                    level.prev_ends_operand = !matches!(
                        i.to_string().as_str(),
                        "return" | "break" | "in" | "if" | "else" | "match" | "while" | "let"
                    );
                }
                TokenTree::Literal(_) => {
                    level.prefix_run = 0;
                    level.prev_ends_operand = true;
                    level.prev_else = false;
                }
            }
        }
        match inner {
            Some(g) => {
                let depth = level.depth + 1;
                stack.push(Level::new(g.stream(), depth));
            }
            None => {
                stack.pop();
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_src(src: &str) -> syn::Result<()> {
        check(&src.parse().expect("tokens"))
    }

    #[test]
    fn the_limit_itself_is_accepted() {
        let n = MAX_NESTING - 2;
        let parens = format!("fn f() {{ {}1{} }}", "(".repeat(n), ")".repeat(n));
        assert!(check_src(&parens).is_ok());
        let neg = format!("fn f() {{ {}1 }}", "- ".repeat(n));
        assert!(check_src(&neg).is_ok());
        assert!(check_src("fn f(x: &[u32]) -> u32 { x[0] - -x[1] * *&x[2] }").is_ok());
    }

    #[test]
    fn deeper_is_an_error() {
        let n = MAX_NESTING + 1;
        let parens = format!("fn f() {{ {}1{} }}", "(".repeat(n), ")".repeat(n));
        assert!(check_src(&parens).is_err());
        let neg = format!("fn f() {{ {}1 }}", "! ".repeat(n));
        assert!(check_src(&neg).is_err());
        let elses = format!(
            "fn f(x: u32) -> u32 {{ if x == 0 {{ 0 }} {} else {{ 1 }} }}",
            (0..n)
                .map(|i| format!("else if x == {i} {{ {i} }}"))
                .collect::<String>()
        );
        assert!(check_src(&elses).is_err());
    }
}
