//! `assert!`-family and `panic!`-family macros -> `ExprKind::Assert` / `ExprKind::Panic` with a
//! fixed message (there is no formatting on the device).

use proc_macro2::{Delimiter, Spacing, TokenStream, TokenTree};
use quote::quote;
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{Expr, Token};

use super::{err_spanned, Lower};

const SUPPORTED: &str = "supported macros in device code: `assert!`, `assert_eq!`, `assert_ne!`, \
    `debug_assert!`, `debug_assert_eq!`, `debug_assert_ne!`, `panic!`, `unreachable!`, `todo!`, \
    `unimplemented!` (each with at most a literal message), `matches!`, and `gpu_print!` / \
    `gpu_println!`";

const FORMATTING: &[&str] = &[
    "println",
    "print",
    "eprintln",
    "eprint",
    "format",
    "format_args",
    "write",
    "writeln",
    "dbg",
];

/// Source-like text of tokens (`x.len() > 0`), for `assert!` messages that quote the condition.
pub(crate) fn pretty(tokens: &TokenStream) -> String {
    let mut out = String::new();
    // The next token attaches without a space.
    let mut glue = true;
    // The previous token ends an operand (so a following operator is binary, `(` is a call).
    let mut prev_word = false;
    // The previous token was the first character of a multi-character operator (`==`, `::`).
    let mut after_joint = false;
    let mut op_unary = false;
    for tt in tokens.clone() {
        match &tt {
            TokenTree::Ident(_) | TokenTree::Literal(_) => {
                if !glue {
                    out.push(' ');
                }
                out.push_str(&tt.to_string());
                glue = false;
                prev_word = true;
                after_joint = false;
            }
            TokenTree::Group(g) => {
                let (open, close) = match g.delimiter() {
                    Delimiter::Parenthesis => ("(", ")"),
                    Delimiter::Bracket => ("[", "]"),
                    Delimiter::Brace => ("{ ", " }"),
                    Delimiter::None => ("", ""),
                };
                let call = prev_word && g.delimiter() != Delimiter::Brace;
                if !glue && !call {
                    out.push(' ');
                }
                out.push_str(open);
                out.push_str(&pretty(&g.stream()));
                out.push_str(close);
                glue = false;
                prev_word = true;
                after_joint = false;
            }
            TokenTree::Punct(p) => {
                let c = p.as_char();
                let joint = p.spacing() == Spacing::Joint;
                match c {
                    '.' | ',' | ';' | '?' if !after_joint => {
                        out.push(c);
                        glue = c == '.' || joint;
                        prev_word = c == '?';
                        op_unary = true;
                        after_joint = joint;
                    }
                    ':' if joint || after_joint => {
                        out.push(c);
                        glue = true;
                        prev_word = false;
                        after_joint = joint;
                    }
                    _ => {
                        if !after_joint {
                            op_unary = !prev_word;
                            if !glue {
                                out.push(' ');
                            }
                        }
                        out.push(c);
                        glue = joint || op_unary;
                        prev_word = false;
                        after_joint = joint;
                    }
                }
            }
        }
    }
    out
}

/// The text of a literal message: `{{`/`}}` unescaped; placeholders are an error.
fn literal_message(e: &Expr) -> syn::Result<String> {
    let only_literal = || {
        err_spanned(
            e,
            "only literal messages are supported in device code (no formatting arguments or `{..}` placeholders)",
        )
    };
    let Expr::Lit(syn::ExprLit {
        lit: syn::Lit::Str(s),
        ..
    }) = e
    else {
        return only_literal();
    };
    let raw = s.value();
    let mut out = String::new();
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' | '}' if chars.peek() == Some(&c) => {
                chars.next();
                out.push(c);
            }
            '{' | '}' => return only_literal(),
            c => out.push(c),
        }
    }
    Ok(out)
}

/// `matches!(expr, pattern if guard)`.
struct MatchesArgs {
    expr: Expr,
    pat: syn::Pat,
    guard: Option<Expr>,
}

impl syn::parse::Parse for MatchesArgs {
    fn parse(input: syn::parse::ParseStream) -> syn::Result<Self> {
        let expr = input.parse()?;
        input.parse::<Token![,]>()?;
        let pat = syn::Pat::parse_multi_with_leading_vert(input)?;
        let guard = if input.peek(Token![if]) {
            input.parse::<Token![if]>()?;
            Some(input.parse()?)
        } else {
            None
        };
        if input.peek(Token![,]) {
            input.parse::<Token![,]>()?;
        }
        Ok(MatchesArgs { expr, pat, guard })
    }
}

impl Lower {
    /// `matches!(e, p if g)` -> `match e { p if g => true, _ => false }`.
    fn lower_matches(&mut self, mac: &syn::Macro) -> syn::Result<TokenStream> {
        let a = super::ast();
        let args: MatchesArgs = mac.parse_body()?;
        let scrutinee = self.boxed(&args.expr)?;
        self.scopes.push();
        let pat = self.lower_pat(&args.pat, true);
        let guard = match (&pat, &args.guard) {
            (Ok(_), Some(g)) => Some(self.lower_expr(g)),
            _ => None,
        };
        self.scopes.pop();
        let pat = pat?;
        let guard = match guard {
            Some(g) => {
                let g = g?;
                quote!(::core::option::Option::Some(#g))
            }
            None => quote!(::core::option::Option::None),
        };
        let span = crate::span::loc(mac.path.span());
        let lit = |b: bool| quote!(#a::build::e(#a::ExprKind::Lit(#a::Lit::Bool(#b)), #span));
        let (t, f) = (lit(true), lit(false));
        Ok(quote!(#a::ExprKind::Match {
            scrutinee: #scrutinee,
            arms: ::std::vec::Vec::from([
                #a::Arm { pat: #pat, guard: #guard, body: #t, span: #a::Span::new(#span) },
                #a::Arm { pat: #a::Pat::Wild, guard: ::core::option::Option::None, body: #f, span: #a::Span::new(#span) },
            ]),
        }))
    }

    /// The `ExprKind` tokens of a macro invocation in device code.
    pub(crate) fn lower_macro(&mut self, mac: &syn::Macro) -> syn::Result<TokenStream> {
        let a = super::ast();
        let name = mac
            .path
            .segments
            .last()
            .map(|s| s.ident.to_string())
            .unwrap_or_default();
        if name == "gpu_print" || name == "gpu_println" {
            return self.lower_print(mac, name == "gpu_println");
        }
        if FORMATTING.contains(&name.as_str()) {
            return err_spanned(
                &mac.path,
                format!(
                    "`{name}!` is not supported in device code: there are no strings on the device; \
                     print numbers with `gpu_print!` / `gpu_println!` (CUDA's printf); {SUPPORTED}"
                ),
            );
        }
        if name == "matches" {
            return self.lower_matches(mac);
        }
        let (kind, debug) = match name.strip_prefix("debug_") {
            Some(rest) => (rest.to_string(), true),
            None => (name.clone(), false),
        };
        let args: Punctuated<Expr, Token![,]> =
            match mac.parse_body_with(Punctuated::parse_terminated) {
                Ok(args) => args,
                Err(e) => {
                    return Err(syn::Error::new(
                        e.span(),
                        format!("cannot parse the arguments of `{name}!`: {e}"),
                    ))
                }
            };
        let args: Vec<&Expr> = args.iter().collect();
        let message = |i: usize, default: String, prefix: Option<&str>| -> syn::Result<String> {
            match args.len() {
                n if n <= i => Ok(default),
                n if n == i + 1 => {
                    let m = literal_message(args[i])?;
                    Ok(match prefix {
                        Some(p) => format!("{p}: {m}"),
                        None => m,
                    })
                }
                _ => err_spanned(
                    args[i + 1],
                    "only literal messages are supported in device code (no formatting arguments)",
                ),
            }
        };
        let assert = match kind.as_str() {
            "assert" if !args.is_empty() => {
                let first = args[0];
                let cond = self.boxed(first)?;
                let text = pretty(&quote!(#first));
                let msg = message(1, format!("assertion failed: {text}"), None)?;
                Some((cond, msg))
            }
            "assert_eq" | "assert_ne" if args.len() >= 2 => {
                let (op, sym) = if kind == "assert_eq" {
                    (quote!(Eq), "==")
                } else {
                    (quote!(Ne), "!=")
                };
                let l = self.boxed(args[0])?;
                let r = self.boxed(args[1])?;
                let head = format!("assertion `left {sym} right` failed");
                let msg = message(2, head.clone(), Some(&head))?;
                let span = crate::span::loc(
                    mac.path
                        .segments
                        .last()
                        .map(|s| s.ident.span())
                        .unwrap_or_else(proc_macro2::Span::call_site),
                );
                let cond = quote!(::std::boxed::Box::new(#a::build::e(#a::ExprKind::Binary(#a::BinOp::#op, #l, #r), #span)));
                Some((cond, msg))
            }
            "assert" | "assert_eq" | "assert_ne" => {
                return err_spanned(mac, format!("`{name}!` is missing its arguments"));
            }
            _ => None,
        };
        if let Some((cond, msg)) = assert {
            let node = quote!(#a::ExprKind::Assert { cond: #cond, message: ::std::string::String::from(#msg) });
            if debug {
                // Checked only where the crate itself has debug assertions, like `debug_assert!`.
                return Ok(quote!(
                    if ::core::cfg!(debug_assertions) { #node } else { #a::ExprKind::Tuple(::std::vec::Vec::new()) }
                ));
            }
            return Ok(node);
        }
        if debug {
            return err_spanned(
                &mac.path,
                format!("unsupported macro `{name}!`; {SUPPORTED}"),
            );
        }
        let msg = match name.as_str() {
            "panic" => message(0, "explicit panic".into(), None)?,
            "unreachable" => message(
                0,
                "internal error: entered unreachable code".into(),
                Some("internal error: entered unreachable code"),
            )?,
            "todo" => message(0, "not yet implemented".into(), Some("not yet implemented"))?,
            "unimplemented" => message(0, "not implemented".into(), Some("not implemented"))?,
            _ => {
                return err_spanned(
                    &mac.path,
                    format!("unsupported macro `{name}!`; {SUPPORTED}"),
                )
            }
        };
        Ok(quote!(#a::ExprKind::Panic { message: ::std::string::String::from(#msg) }))
    }
}

#[cfg(test)]
mod tests {
    use super::pretty;

    fn p(s: &str) -> String {
        pretty(&s.parse().expect("tokens"))
    }

    #[test]
    fn pretty_reads_like_source() {
        assert_eq!(p("i < y.len()"), "i < y.len()");
        assert_eq!(p("a[i] >= -1.0"), "a[i] >= -1.0");
        assert_eq!(
            p("!done && x == core::f32::MAX"),
            "!done && x == core::f32::MAX"
        );
        assert_eq!(p("f(a, b) != (c + d) * 2"), "f(a, b) != (c + d) * 2");
        assert_eq!(p("(0..n).contains(&k)"), "(0..n).contains(&k)");
        assert_eq!(p("x.min(y) <= T::ONE"), "x.min(y) <= T::ONE");
        assert_eq!(p("a - -b"), "a - -b");
    }
}
