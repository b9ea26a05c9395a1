//! `gpu_print!` / `gpu_println!` -> `ExprKind::Print`: the format string is parsed here, with
//! Rust's syntax, into text and placeholders, so mistakes are reported at the macro call; what a
//! placeholder may print depends on the argument's type and is checked by the compiler once
//! types are known. Only what C's `printf` can reproduce is accepted (see `SUPPORTED`).

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{Expr, Token};

use super::{err, err_spanned, Lower};

const SUPPORTED: &str =
    "supported in `gpu_print!`: `{}`, `{:?}`, `{:x}`, `{:X}`, `{:o}`, `{:e}`, `{:E}` \
    with an optional `<`/`>` alignment (space fill), `+`, `#` (hex/octal), `0`, width and \
    `.precision`, positional (`{0}`) and named (`{x}`, `x = expr`) arguments";

/// What follows the `:` of a placeholder.
#[derive(Default, Debug, PartialEq)]
pub(crate) struct Spec {
    pub conv: &'static str,
    pub width: Option<u32>,
    pub precision: Option<u32>,
    pub left: bool,
    pub zero: bool,
    pub plus: bool,
    pub alternate: bool,
}

/// Which argument a placeholder prints.
#[derive(Debug, PartialEq)]
pub(crate) enum ArgRef {
    Next,
    Index(usize),
    Name(String),
}

#[derive(Debug, PartialEq)]
pub(crate) enum Piece {
    Text(String),
    Arg(ArgRef, Spec),
}

/// Parses a Rust format string; `Err` says what is wrong or unsupported.
pub(crate) fn parse_format(s: &str) -> Result<Vec<Piece>, String> {
    let mut pieces = Vec::new();
    let mut text = String::new();
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' if chars.peek() == Some(&'{') => {
                chars.next();
                text.push('{');
            }
            '}' if chars.peek() == Some(&'}') => {
                chars.next();
                text.push('}');
            }
            '}' => {
                return Err(
                    "unmatched `}` in format string (write `}}` for a literal brace)".into(),
                )
            }
            '{' => {
                let mut inner = String::new();
                loop {
                    match chars.next() {
                        Some('}') => break,
                        Some('{') => {
                            return Err(
                                "`{` inside a placeholder (write `{{` for a literal brace)".into()
                            )
                        }
                        Some(c) => inner.push(c),
                        None => return Err("unterminated placeholder: `{` without its `}`".into()),
                    }
                }
                if !text.is_empty() {
                    pieces.push(Piece::Text(std::mem::take(&mut text)));
                }
                let (arg, spec) = match inner.split_once(':') {
                    Some((a, s)) => (a, s),
                    None => (inner.as_str(), ""),
                };
                pieces.push(Piece::Arg(parse_arg(arg.trim())?, parse_spec(spec)?));
            }
            '\0' => return Err("a NUL character would end the C format string early".into()),
            c => text.push(c),
        }
    }
    if !text.is_empty() {
        pieces.push(Piece::Text(text));
    }
    Ok(pieces)
}

fn parse_arg(a: &str) -> Result<ArgRef, String> {
    if a.is_empty() {
        return Ok(ArgRef::Next);
    }
    if a.bytes().all(|b| b.is_ascii_digit()) {
        return a
            .parse()
            .map(ArgRef::Index)
            .map_err(|_| format!("argument index `{a}` is too large"));
    }
    let ident = a
        .chars()
        .next()
        .is_some_and(|c| c == '_' || c.is_alphabetic())
        && a.chars().all(|c| c == '_' || c.is_alphanumeric());
    if ident {
        Ok(ArgRef::Name(a.to_string()))
    } else {
        Err(format!(
            "`{a}` is not an argument index or name; {SUPPORTED}"
        ))
    }
}

/// Largest width or precision accepted: more is surely a typo, and C's printf would have to
/// produce that many characters per call through a 1 MiB buffer.
const MAX_FIELD: u32 = 4096;

fn number(s: &[char], at: &mut usize) -> Option<u32> {
    let start = *at;
    while *at < s.len() && s[*at].is_ascii_digit() {
        *at += 1;
    }
    if *at == start {
        return None;
    }
    let text: String = s[start..*at].iter().collect();
    // Digits only, so this fails only on overflow, which a width of billions is anyway.
    Some(text.parse().unwrap_or(u32::MAX))
}

fn parse_spec(spec: &str) -> Result<Spec, String> {
    let s: Vec<char> = spec.chars().collect();
    let mut out = Spec {
        conv: "",
        ..Spec::default()
    };
    let mut at = 0;
    let is_align = |c: char| matches!(c, '<' | '>' | '^');
    let align = if s.len() >= 2 && is_align(s[1]) {
        if s[0] != ' ' {
            return Err(format!(
                "fill character `{}` is not supported (C's printf pads with spaces or `0` only); {SUPPORTED}",
                s[0]
            ));
        }
        at = 2;
        Some(s[1])
    } else if !s.is_empty() && is_align(s[0]) {
        at = 1;
        Some(s[0])
    } else {
        None
    };
    match align {
        Some('^') => {
            return Err(format!(
                "centred alignment `^` has no C printf equivalent; {SUPPORTED}"
            ))
        }
        Some('<') => out.left = true,
        _ => {}
    }
    match s.get(at) {
        Some('+') => {
            out.plus = true;
            at += 1;
        }
        Some('-') => return Err("the `-` flag is unused in Rust formatting".into()),
        _ => {}
    }
    if s.get(at) == Some(&'#') {
        out.alternate = true;
        at += 1;
    }
    if s.get(at) == Some(&'0') && s.get(at + 1) != Some(&'$') {
        out.zero = true;
        at += 1;
    }
    out.width = number(&s, &mut at);
    if s.get(at) == Some(&'$')
        || s.get(at)
            .is_some_and(|c| c.is_alphabetic() && s[at + 1..].contains(&'$'))
    {
        return Err(format!(
            "a width taken from an argument (`$`) is not supported; {SUPPORTED}"
        ));
    }
    if s.get(at) == Some(&'.') {
        at += 1;
        if s.get(at) == Some(&'*') {
            return Err(format!(
                "a precision taken from an argument (`.*`) is not supported; {SUPPORTED}"
            ));
        }
        match number(&s, &mut at) {
            Some(p) if s.get(at) != Some(&'$') => out.precision = Some(p),
            _ => return Err(format!("a precision must be a number; {SUPPORTED}")),
        }
    }
    if out.width.max(out.precision).is_some_and(|n| n > MAX_FIELD) {
        return Err(format!("widths and precisions are limited to {MAX_FIELD}"));
    }
    let rest: String = s[at..].iter().collect();
    out.conv = match rest.as_str() {
        "" => "Display",
        "?" => "Debug",
        "x" | "x?" => "LowerHex",
        "X" | "X?" => "UpperHex",
        "o" => "Octal",
        "e" => "LowerExp",
        "E" => "UpperExp",
        "b" => {
            return Err(format!(
            "`{{:b}}` (binary) has no C printf conversion; use `{{:x}}` or `{{:o}}`; {SUPPORTED}"
        ))
        }
        other => return Err(format!("unsupported format spec `{other}`; {SUPPORTED}")),
    };
    Ok(out)
}

impl Lower {
    /// `gpu_print!(fmt, args..)` (`newline`: `gpu_println!`).
    pub(crate) fn lower_print(
        &mut self,
        mac: &syn::Macro,
        newline: bool,
    ) -> syn::Result<TokenStream> {
        let a = super::ast();
        let args: Punctuated<Expr, Token![,]> =
            match mac.parse_body_with(Punctuated::parse_terminated) {
                Ok(args) => args,
                Err(e) => {
                    return err(
                        e.span(),
                        format!("cannot parse the arguments of the print macro: {e}"),
                    );
                }
            };
        let mut args = args.into_iter();
        let (fmt, lit_span) = match args.next() {
            None => (String::new(), mac.path.span()),
            Some(Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            })) => (s.value(), s.span()),
            Some(other) => return err_spanned(other, "the format string must be a string literal"),
        };
        // Positional arguments, then `name = expr` ones, as `format_args!` requires.
        let mut exprs: Vec<Expr> = Vec::new();
        let mut names: Vec<(String, usize)> = Vec::new();
        for e in args {
            match e {
                Expr::Assign(asg) => {
                    let Expr::Path(p) = &*asg.left else {
                        return err_spanned(&asg.left, "a named argument is `name = expr`");
                    };
                    let Some(id) = p.path.get_ident() else {
                        return err_spanned(&asg.left, "a named argument is `name = expr`");
                    };
                    let name = id.to_string();
                    if names.iter().any(|(n, _)| *n == name) {
                        return err_spanned(id, format!("duplicate argument named `{name}`"));
                    }
                    names.push((name, exprs.len()));
                    exprs.push(*asg.right);
                }
                e if !names.is_empty() => {
                    return err_spanned(e, "positional arguments cannot follow named arguments");
                }
                e => exprs.push(e),
            }
        }
        let explicit = exprs.len();
        let parsed = parse_format(&fmt).map_err(|m| syn::Error::new(lit_span, m))?;
        let mut pieces = Vec::new();
        let mut used = vec![false; explicit];
        let mut next = 0usize;
        for p in parsed {
            match p {
                Piece::Text(t) => pieces.push(PieceOut::Text(t)),
                Piece::Arg(r, spec) => {
                    let positional = |i: usize| -> syn::Result<usize> {
                        if i < explicit {
                            return Ok(i);
                        }
                        let s = if explicit == 1 { "" } else { "s" };
                        err(
                            lit_span,
                            format!(
                                "invalid reference to argument {i} ({explicit} argument{s} given)"
                            ),
                        )
                    };
                    let index = match r {
                        ArgRef::Next => {
                            next += 1;
                            positional(next - 1)?
                        }
                        ArgRef::Index(i) => positional(i)?,
                        ArgRef::Name(n) => match names.iter().find(|(m, _)| *m == n) {
                            Some(&(_, i)) => i,
                            None => {
                                // `{x}` captures the variable `x`, as in Rust 2021.
                                let Ok(mut id) = syn::parse_str::<syn::Ident>(&n) else {
                                    return err(lit_span, format!("`{n}` is not a variable name"));
                                };
                                id.set_span(lit_span);
                                names.push((n, exprs.len()));
                                exprs.push(syn::parse_quote!(#id));
                                exprs.len() - 1
                            }
                        },
                    };
                    if let Some(u) = used.get_mut(index) {
                        *u = true;
                    }
                    pieces.push(PieceOut::Arg(index, spec));
                }
            }
        }
        if let Some(i) = used.iter().position(|u| !u) {
            return err_spanned(&exprs[i], "argument never used by the format string");
        }
        if newline {
            match pieces.last_mut() {
                Some(PieceOut::Text(t)) => t.push('\n'),
                _ => pieces.push(PieceOut::Text("\n".into())),
            }
        }
        let pieces: Vec<TokenStream> = pieces
            .iter()
            .map(|p| match p {
                PieceOut::Text(t) => quote!(#a::FmtPiece::Text(::std::string::String::from(#t))),
                PieceOut::Arg(index, s) => {
                    let conv = syn::Ident::new(s.conv, Span::call_site());
                    let opt = |v: Option<u32>| match v {
                        Some(v) => quote!(::core::option::Option::Some(#v)),
                        None => quote!(::core::option::Option::None),
                    };
                    let (width, precision) = (opt(s.width), opt(s.precision));
                    let (left, zero, plus, alternate) = (s.left, s.zero, s.plus, s.alternate);
                    quote!(#a::FmtPiece::Arg {
                        index: #index,
                        spec: #a::FmtSpec {
                            conv: #a::FmtConv::#conv,
                            width: #width,
                            precision: #precision,
                            left: #left,
                            zero: #zero,
                            plus: #plus,
                            alternate: #alternate,
                        },
                    })
                }
            })
            .collect();
        let args = self.lower_exprs(exprs.iter())?;
        Ok(quote!(#a::ExprKind::Print {
            pieces: ::std::vec::Vec::from([#(#pieces),*]),
            args: ::std::vec::Vec::from([#(#args),*]),
        }))
    }
}

enum PieceOut {
    Text(String),
    Arg(usize, Spec),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arg(r: ArgRef, conv: &'static str) -> Piece {
        Piece::Arg(
            r,
            Spec {
                conv,
                ..Spec::default()
            },
        )
    }

    #[test]
    fn text_escapes_and_placeholders() {
        let p = parse_format("a {{b}} {} {0} {x:?}").unwrap();
        assert_eq!(
            p,
            vec![
                Piece::Text("a {b} ".into()),
                arg(ArgRef::Next, "Display"),
                Piece::Text(" ".into()),
                arg(ArgRef::Index(0), "Display"),
                Piece::Text(" ".into()),
                arg(ArgRef::Name("x".into()), "Debug"),
            ]
        );
    }

    #[test]
    fn specs() {
        let one = |s: &str| match parse_format(s).unwrap().pop() {
            Some(Piece::Arg(_, spec)) => spec,
            other => panic!("no placeholder in {s}: {other:?}"),
        };
        let s = one("{:>8.3}");
        assert_eq!(
            (s.width, s.precision, s.left, s.conv),
            (Some(8), Some(3), false, "Display")
        );
        let s = one("{: <5x}");
        assert_eq!((s.width, s.left, s.conv), (Some(5), true, "LowerHex"));
        let s = one("{:+08.2e}");
        assert!(s.plus && s.zero);
        assert_eq!(
            (s.width, s.precision, s.conv),
            (Some(8), Some(2), "LowerExp")
        );
        let s = one("{:#X}");
        assert!(s.alternate);
        assert_eq!(s.conv, "UpperHex");
        assert!(one("{:0}").zero);
        assert_eq!(one("{:10}").width, Some(10));
        // Pretty debug of a number is its plain debug form.
        assert_eq!(one("{:#?}").conv, "Debug");
    }

    #[test]
    fn unsupported_is_an_error_not_a_panic() {
        for bad in [
            "{:b}", "{:^5}", "{:*<5}", "{:1$}", "{:.*}", "{:w$}", "{:s}", "{", "}", "{a{}",
            "{:.x}", "{:-}", "{ 1 2 }", "{:99999}", "{:.5000}", "a\0b",
        ] {
            assert!(parse_format(bad).is_err(), "{bad} should be rejected");
        }
    }
}
