//! The simulator's C `printf`: formats a `vprintf` call from its format string and argument
//! buffer the way glibc does, for the conversions `conversion` generates (`d i u x X o` with
//! `hh h l ll` lengths, `f F e E g G`, `c`, `%%`) with flags `- + space # 0`, width and precision.
//! Reading arguments from the packed buffer, not from typed values, checks the buffer layout too.

/// Largest width or precision formatted (the macro accepts at most 4096), so that a hand-made
/// format cannot make the simulator allocate without bound.
const MAX_FIELD: usize = 1 << 16;

/// One parsed conversion specification.
#[derive(Default)]
struct Spec {
    left: bool,
    plus: bool,
    space: bool,
    alt: bool,
    zero: bool,
    width: usize,
    precision: Option<usize>,
    /// `ll` / `l` / `j` / `z` / `t`: a 64-bit argument.
    wide: bool,
}

/// Formats `fmt` with the arguments packed in `args` (see `layout`). Errors name what this
/// formatter cannot do or an argument the buffer lacks; nothing panics.
pub fn format_c(fmt: &str, args: &[u8]) -> Result<String, String> {
    let mut out = String::new();
    let mut at = 0usize;
    let mut chars = fmt.char_indices().peekable();
    while let Some((_, c)) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        let mut s = Spec::default();
        while let Some(&(_, f)) = chars.peek() {
            match f {
                '-' => s.left = true,
                '+' => s.plus = true,
                ' ' => s.space = true,
                '#' => s.alt = true,
                '0' => s.zero = true,
                _ => break,
            }
            chars.next();
        }
        s.width = digits(&mut chars);
        if chars.peek().map(|&(_, c)| c) == Some('.') {
            chars.next();
            s.precision = Some(digits(&mut chars));
        }
        if s.width.max(s.precision.unwrap_or(0)) > MAX_FIELD {
            return Err(format!("width or precision above {MAX_FIELD}"));
        }
        while let Some(&(_, l)) = chars.peek() {
            match l {
                'l' | 'j' | 'z' | 't' => s.wide = true,
                'h' => {}
                _ => break,
            }
            chars.next();
        }
        let Some((_, conv)) = chars.next() else {
            return Err("format string ends inside a conversion".into());
        };
        let mut take = |size: usize| -> Result<u64, String> {
            let start = at.div_ceil(size) * size;
            let bytes = args
                .get(start..start + size)
                .ok_or_else(|| format!("no argument at byte {start} of the printf buffer"))?;
            at = start + size;
            let mut b = [0u8; 8];
            b[..size].copy_from_slice(bytes);
            Ok(u64::from_le_bytes(b))
        };
        let int_size = if s.wide { 8 } else { 4 };
        match conv {
            '%' => out.push('%'),
            'd' | 'i' => {
                let raw = take(int_size)?;
                let v = if s.wide {
                    raw as i64
                } else {
                    raw as u32 as i32 as i64
                };
                let sign = if v < 0 {
                    "-"
                } else if s.plus {
                    "+"
                } else if s.space {
                    " "
                } else {
                    ""
                };
                let digits = int_digits(v.unsigned_abs(), 10, false, s.precision);
                out.push_str(&pad_number(&s, sign, "", &digits, s.precision.is_none()));
            }
            'u' | 'x' | 'X' | 'o' => {
                let v = take(int_size)?;
                let (radix, upper) = match conv {
                    'x' => (16, false),
                    'X' => (16, true),
                    'o' => (8, false),
                    _ => (10, false),
                };
                let mut digits = int_digits(v, radix, upper, s.precision);
                let mut prefix = "";
                if s.alt && v != 0 && radix == 16 {
                    prefix = if upper { "0X" } else { "0x" };
                }
                if s.alt && radix == 8 && !digits.starts_with('0') {
                    digits.insert(0, '0');
                }
                out.push_str(&pad_number(&s, "", prefix, &digits, s.precision.is_none()));
            }
            'c' => {
                let v = take(4)? as u8;
                out.push_str(&pad_text(&s, &char::from(v).to_string()));
            }
            'f' | 'F' | 'e' | 'E' | 'g' | 'G' => {
                let x = f64::from_bits(take(8)?);
                let sign = if x.is_sign_negative() {
                    "-"
                } else if s.plus {
                    "+"
                } else if s.space {
                    " "
                } else {
                    ""
                };
                let upper = conv.is_ascii_uppercase();
                if !x.is_finite() {
                    let t = if x.is_nan() { "nan" } else { "inf" };
                    let t = if upper {
                        t.to_uppercase()
                    } else {
                        t.to_string()
                    };
                    // glibc pads non-finite values with spaces even under `0`.
                    let s2 = Spec { zero: false, ..s };
                    out.push_str(&pad_number(&s2, sign, "", &t, false));
                    continue;
                }
                let p = s.precision.unwrap_or(6);
                let body = match conv.to_ascii_lowercase() {
                    'f' => fixed(x.abs(), p, s.alt),
                    'e' => exponential(x.abs(), p, s.alt, upper),
                    _ => general(x.abs(), p, s.alt, upper),
                };
                out.push_str(&pad_number(&s, sign, "", &body, true));
            }
            other => return Err(format!("unsupported printf conversion `%{other}`")),
        }
    }
    Ok(out)
}

fn digits(chars: &mut std::iter::Peekable<std::str::CharIndices<'_>>) -> usize {
    let mut n = 0usize;
    while let Some(&(_, d)) = chars.peek() {
        let Some(v) = d.to_digit(10) else { break };
        n = n.saturating_mul(10).saturating_add(v as usize);
        chars.next();
    }
    n
}

/// Digits of `v` in `radix`, at least `precision` of them (C: precision 0 prints 0 as nothing).
fn int_digits(v: u64, radix: u32, upper: bool, precision: Option<usize>) -> String {
    let mut d = match radix {
        16 if upper => format!("{v:X}"),
        16 => format!("{v:x}"),
        8 => format!("{v:o}"),
        _ => v.to_string(),
    };
    if let Some(p) = precision {
        if p == 0 && v == 0 {
            d.clear();
        }
        while d.len() < p {
            d.insert(0, '0');
        }
    }
    d
}

/// Sign, prefix and body in the field width: spaces before (or after with `-`), or zeros between
/// the sign/prefix and the body with `0` (where `zero_ok`: C ignores `0` for integers with a
/// precision and for non-finite floats).
fn pad_number(s: &Spec, sign: &str, prefix: &str, body: &str, zero_ok: bool) -> String {
    let len = sign.len() + prefix.len() + body.chars().count();
    let fill = s.width.saturating_sub(len);
    if s.left {
        format!("{sign}{prefix}{body}{}", " ".repeat(fill))
    } else if s.zero && zero_ok {
        format!("{sign}{prefix}{}{body}", "0".repeat(fill))
    } else {
        format!("{}{sign}{prefix}{body}", " ".repeat(fill))
    }
}

fn pad_text(s: &Spec, body: &str) -> String {
    let fill = s.width.saturating_sub(body.chars().count());
    if s.left {
        format!("{body}{}", " ".repeat(fill))
    } else {
        format!("{}{body}", " ".repeat(fill))
    }
}

/// `%f` of a non-negative finite value: Rust's exact decimal expansion rounds half to even on
/// the exact binary value, as glibc does in the default rounding mode.
fn fixed(x: f64, p: usize, alt: bool) -> String {
    let mut t = format!("{x:.p$}");
    if alt && p == 0 {
        t.push('.');
    }
    t
}

/// `%e`: Rust's `{:.pe}` mantissa with C's exponent (sign and at least two digits).
fn exponential(x: f64, p: usize, alt: bool, upper: bool) -> String {
    let (mant, exp) = split_exp(x, p);
    let mut m = mant;
    if alt && p == 0 {
        m.push('.');
    }
    let e = if upper { 'E' } else { 'e' };
    let sign = if exp < 0 { '-' } else { '+' };
    format!("{m}{e}{sign}{:02}", exp.unsigned_abs())
}

/// The mantissa text and decimal exponent of `x` rounded to `p` digits after the point.
fn split_exp(x: f64, p: usize) -> (String, i32) {
    let t = format!("{x:.p$e}");
    match t.split_once('e') {
        Some((m, e)) => (m.to_string(), e.parse().unwrap_or(0)),
        None => (t, 0),
    }
}

/// `%g`: `%e` or `%f` by the exponent after rounding to `p` significant digits, then trailing
/// zeros (and a bare point) removed unless `#`.
fn general(x: f64, p: usize, alt: bool, upper: bool) -> String {
    let p = p.max(1);
    let exp = if x == 0.0 { 0 } else { split_exp(x, p - 1).1 };
    let (mut t, suffix) = if exp < -4 || exp >= p as i32 {
        let full = exponential(x, p - 1, alt, upper);
        let at = full.find(['e', 'E']).unwrap_or(full.len());
        (full[..at].to_string(), full[at..].to_string())
    } else {
        let digits = (p as i32 - 1 - exp).max(0) as usize;
        (fixed(x, digits, alt), String::new())
    };
    if !alt && t.contains('.') {
        while t.ends_with('0') {
            t.pop();
        }
        if t.ends_with('.') {
            t.pop();
        }
    }
    t + &suffix
}
