//! The macro fuzz corpus: odd and malformed kernel sources expanded in-process (proc-macro2's
//! fallback mode), each on a thread with a small stack, catching panics. Every case must either
//! expand to code that parses as Rust or fail with an error at a user's token (never at the
//! macro's call site); none may panic or overflow the stack. `tests/corpus_run.rs` builds and
//! runs the accepted cases whose run-time behaviour matters.

use proc_macro2::TokenStream;

mod cases;

#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Kind {
    Kernel,
    Device,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Expect {
    /// The macro expands it (rustc may still reject it, with its own spanned message).
    Accept,
    /// The macro rejects it with a spanned error.
    Reject,
}

/// Cases too long to write out: chains of 100 to 10,000 operands, nesting up to and past the
/// limit.
fn generated() -> Vec<(Kind, Expect, String)> {
    use Expect::*;
    use Kind::*;
    let mut out = Vec::new();
    let terms = |n: usize, op: &str| {
        (0..n)
            .map(|i| format!("x[{}]", i % 4))
            .collect::<Vec<_>>()
            .join(op)
    };
    for n in [100, 1000, 10_000] {
        out.push((
            Kernel,
            Accept,
            format!(
                "pub fn k(x: &[u32], y: &mut [u32]) {{ y[0] = {}; }}",
                terms(n, " + ")
            ),
        ));
        out.push((
            Kernel,
            Accept,
            format!(
                "pub fn k(x: &[u32], y: &mut [u32]) {{ y[0] = {} - 1; }}",
                terms(n, " * ")
            ),
        ));
    }
    out.push((
        Device,
        Accept,
        format!("fn d(x: &[u32]) -> u32 {{ {} }}", terms(2000, " + ")),
    ));
    out.push((
        Device,
        Reject,
        format!("fn d(x: &[u32]) -> u32 {{ {} }}", terms(4200, " + ")),
    ));
    for (n, e) in [(300, Accept), (4200, Reject)] {
        out.push((
            Kernel,
            e,
            format!(
                "pub fn k(x: &[u32], y: &mut [u32]) {{ y[0] = x[0]{}; }}",
                ".max(x[1])".repeat(n)
            ),
        ));
    }
    for (d, e) in [
        (50, Accept),
        (200, Accept),
        (220, Accept),
        (230, Reject),
        (3000, Reject),
    ] {
        let k = |body: String| {
            (
                Kernel,
                e,
                format!("pub fn k(x: &[u32], y: &mut [u32]) {{ {body} }}"),
            )
        };
        out.push(k(format!(
            "y[0] = {}x[0]{};",
            "(".repeat(d),
            " + 1)".repeat(d)
        )));
        out.push(k(format!(
            "let mut v = 0u32; {} v = 7; {} y[0] = v;",
            "if v < 5 { ".repeat(d),
            "} ".repeat(d)
        )));
        out.push(k(format!(
            "y[0] = {}x[0]{};",
            "{ ".repeat(d),
            " }".repeat(d)
        )));
        out.push(k(format!(
            "let mut v = 0u32; {} v += 1; {} y[0] = v;",
            "loop { ".repeat(d),
            "break; } ".repeat(d)
        )));
        out.push(k(format!("y[0] = {}x[0];", "!".repeat(d))));
        out.push(k(format!(
            "y[0] = {}x[0]{};",
            "[".repeat(d),
            "][0]".repeat(d)
        )));
        out.push(k(format!(
            "y[0] = if x[0] == 0 {{ 0 }} {} else {{ 1 }};",
            (1..d)
                .map(|i| format!("else if x[0] == {i} {{ {i} }} "))
                .collect::<String>()
        )));
    }
    out.push((
        Kernel,
        Accept,
        format!(
            "pub fn k(y: &mut [u32]) {{ y[0] = [{}].len() as u32; }}",
            (0..3000)
                .map(|i| i.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    ));
    out.push((
        Kernel,
        Accept,
        format!(
            "pub fn k(y: &mut [u32]) {{ {} }}",
            (0..3000)
                .map(|i| format!("y[0] += {i};"))
                .collect::<String>()
        ),
    ));
    out.push((
        Kernel,
        Accept,
        format!(
            "pub fn k(y: &mut [u32]) {{ y[0] = match y[1] {{ {} _ => 0 }}; }}",
            (0..1000)
                .map(|i| format!("{i} => {},", i * 3))
                .collect::<String>()
        ),
    ));
    out
}

/// What became of one case.
enum Outcome {
    Expanded,
    Rejected { spanned: bool, message: String },
    Unparsable(String),
}

fn expand(kind: Kind, src: &str) -> Outcome {
    // One blank line first: a user's token is then on line 2 or later, the call site on line 1.
    let Ok(item) = format!("\n{src}").parse::<TokenStream>() else {
        return Outcome::Unparsable("not tokens".into());
    };
    let result = match kind {
        Kind::Kernel => crate::kernel::expand(TokenStream::new(), item),
        Kind::Device => crate::device::expand(TokenStream::new(), item),
    };
    match result {
        // Parsed as text on a thread of its own: the macro's output goes to rustc, whose stack
        // is not the one measured here.
        Ok(tokens) => {
            let text = tokens.to_string();
            let parsed = std::thread::Builder::new()
                .stack_size(256 << 20)
                .spawn(move || {
                    syn::parse_str::<syn::File>(&text)
                        .map(|_| ())
                        .map_err(|e| e.to_string())
                })
                .map(|h| h.join());
            match parsed {
                Ok(Ok(Ok(()))) => Outcome::Expanded,
                Ok(Ok(Err(e))) => Outcome::Unparsable(e),
                _ => Outcome::Unparsable("the parse of the output failed".into()),
            }
        }
        Err(e) => {
            let spanned = e.clone().into_iter().all(|e| e.span().start().line >= 2);
            Outcome::Rejected {
                spanned,
                message: e.to_string(),
            }
        }
    }
}

/// Expands every case, each on a 6 MiB thread (less than the 8 MiB of rustc's thread, which
/// also holds rustc's own frames), and lists what went wrong.
fn run_all() -> (usize, Vec<String>) {
    let mut all: Vec<(Kind, Expect, String)> = cases::CASES
        .iter()
        .map(|(k, e, s)| (*k, *e, s.to_string()))
        .collect();
    all.extend(generated());
    let n = all.len();
    let mut problems = Vec::new();
    for (i, (kind, expect, src)) in all.into_iter().enumerate() {
        let short: String = src.chars().take(120).collect();
        if std::env::var_os("FC_CORPUS_TRACE").is_some() {
            eprintln!("case {i}: {short}");
        }
        let worker = std::thread::Builder::new()
            .stack_size(6 << 20)
            .spawn(move || std::panic::catch_unwind(|| expand(kind, &src)));
        let outcome = match worker.map(|h| h.join()) {
            Ok(Ok(Ok(o))) => o,
            _ => {
                problems.push(format!("case {i}: the macro panicked: {short}"));
                continue;
            }
        };
        match (expect, outcome) {
            (_, Outcome::Unparsable(e)) => {
                problems.push(format!("case {i}: output does not parse ({e}): {short}"))
            }
            (
                _,
                Outcome::Rejected {
                    spanned: false,
                    message,
                },
            ) => problems.push(format!(
                "case {i}: error at the call site, not the user's code ({message}): {short}"
            )),
            (Expect::Accept, Outcome::Rejected { message, .. }) => {
                problems.push(format!("case {i}: rejected ({message}): {short}"))
            }
            (Expect::Reject, Outcome::Expanded) => {
                problems.push(format!("case {i}: accepted: {short}"))
            }
            _ => {}
        }
    }
    (n, problems)
}

#[test]
fn corpus_expands_or_fails_with_a_spanned_error() {
    let (n, problems) = run_all();
    assert!(n >= 300, "only {n} cases");
    assert!(
        problems.is_empty(),
        "{} of {n} cases went wrong:\n{}",
        problems.len(),
        problems.join("\n")
    );
}
