//! Device `printf` (`gpu_print!` / `gpu_println!`, CUDA guide B.32 "Formatted Output").
//!
//! CUDA kernels print through `vprintf(format, args)`: a C format string in global memory and a
//! thread-local buffer holding the arguments as C varargs would pass them (integers of 32 bits
//! or less promoted to 32 bits, `float` promoted to `double`, every value aligned to its size).
//! The driver formats the text on the host with C `printf` rules when the host synchronizes.
//!
//! The macro parses Rust's format syntax into [`FmtPiece`]s; once the argument types are known,
//! [`conversion`] picks the C conversion that prints what Rust would, and rejects what C cannot
//! reproduce (binary, centred text, `+` on hexadecimal...). [`layout`] is the one definition of the
//! argument buffer shared by the PTX emitter and the simulator, and [`format_c`] is the simulator's
//! C formatter for the conversions we generate, so simulated output matches the GPU's.

mod cformat;

pub use cformat::format_c;

use crate::ast::{FmtConv, FmtPiece, FmtSpec};
use crate::ir::Ty;

/// At most this many arguments per call: the limit CUDA documents for device `printf`.
pub const MAX_ARGS: usize = 32;

/// How one placeholder's value reaches `vprintf`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CConv {
    /// The conversion text, e.g. `%5.3f` or `0x%llx`.
    pub text: String,
    /// An intermediate type to cast through first (`i8` -> `u8` so that `{:x}` of a negative
    /// `i8` prints its own two's complement, as Rust does, not a sign-extended one).
    pub via: Option<Ty>,
    /// The promoted type stored in the argument buffer (`I32`, `U32`, `I64`, `U64` or `F64`).
    pub ty: Ty,
}

/// The C conversion for a placeholder `spec` applied to a value of type `ty`, or why there is none.
pub fn conversion(spec: &FmtSpec, ty: Ty) -> Result<CConv, String> {
    let mut flags = String::new();
    // Rust's `0` flag wins over alignment; C's `-` would win over `0`, so drop it.
    if spec.left && !spec.zero {
        flags.push('-');
    }
    if spec.plus {
        flags.push('+');
    }
    if spec.zero {
        flags.push('0');
    }
    let width = spec.width.map(|w| w.to_string()).unwrap_or_default();
    match ty {
        Ty::Bool => Err(
            "`bool` cannot be printed by the device printf (C's printf has no boolean conversion); \
             print it as a number (`b as u32`)"
                .into(),
        ),
        t if t.is_int() => {
            let wide = t.bits() == 64;
            let ll = if wide { "ll" } else { "" };
            let (c, unsigned) = match spec.conv {
                FmtConv::Display | FmtConv::Debug => (if t.is_signed() { 'd' } else { 'u' }, !t.is_signed()),
                FmtConv::LowerHex => ('x', true),
                FmtConv::UpperHex => ('X', true),
                FmtConv::Octal => ('o', true),
                FmtConv::LowerExp | FmtConv::UpperExp => {
                    return Err(format!(
                        "`{{:e}}` on an integer (`{}`) has no C printf conversion; cast it to `f64` first",
                        t.rust_name()
                    ))
                }
            };
            let radix = matches!(c, 'x' | 'X' | 'o');
            if radix && spec.plus {
                return Err("`+` with `{:x}`/`{:X}`/`{:o}` has no C printf equivalent".into());
            }
            let prefix = match (spec.alternate && radix, c) {
                (false, _) => "",
                (true, 'o') => "0o",
                (true, _) => "0x",
            };
            if !prefix.is_empty() && spec.width.is_some() {
                return Err(
                    "`{:#x}`/`{:#o}` with a width has no C printf equivalent; drop the width or the `#`"
                        .into(),
                );
            }
            let promoted = match (wide, unsigned) {
                (true, true) => Ty::U64,
                (true, false) => Ty::I64,
                (false, true) => Ty::U32,
                (false, false) => Ty::I32,
            };
            // Narrow signed values printed in a radix keep their own width's bits.
            let via = match t {
                Ty::I8 if radix => Some(Ty::U8),
                Ty::I16 if radix => Some(Ty::U16),
                _ => None,
            };
            // Rust ignores a precision on integers; C would read it as a minimum digit count.
            Ok(CConv {
                text: format!("{prefix}%{flags}{width}{ll}{c}"),
                via,
                ty: promoted,
            })
        }
        t if t.is_float() => {
            if spec.alternate && spec.conv != FmtConv::Display && spec.conv != FmtConv::Debug {
                return Err("`#` on a float has no C printf equivalent".into());
            }
            let prec = spec.precision.map(|p| format!(".{p}")).unwrap_or_default();
            let c = match (spec.conv, spec.precision) {
                // Rust prints the shortest text that reads back; `%g` (six significant digits,
                // no trailing zeros) is C's nearest; a precision means fixed digits, as `%f`.
                (FmtConv::Display | FmtConv::Debug, None) => 'g',
                (FmtConv::Display | FmtConv::Debug, Some(_)) => 'f',
                (FmtConv::LowerExp, _) => 'e',
                (FmtConv::UpperExp, _) => 'E',
                (FmtConv::LowerHex | FmtConv::UpperHex | FmtConv::Octal, _) => {
                    return Err(format!(
                        "`{{:x}}`/`{{:X}}`/`{{:o}}` need an integer, not `{}`",
                        t.rust_name()
                    ))
                }
            };
            Ok(CConv {
                text: format!("%{flags}{width}{prec}{c}"),
                via: None,
                ty: Ty::F64,
            })
        }
        _ => Err(format!("`{}` cannot be printed", ty.rust_name())),
    }
}

/// `text` as C format text: `%` doubled.
pub fn escape_text(text: &str) -> String {
    text.replace('%', "%%")
}

/// The C format string of a parsed format: text escaped, one conversion per placeholder.
pub fn c_format(pieces: &[FmtPiece], convs: &[CConv]) -> String {
    let mut out = String::new();
    let mut next = convs.iter();
    for p in pieces {
        match p {
            FmtPiece::Text(t) => out.push_str(&escape_text(t)),
            FmtPiece::Arg { .. } => {
                if let Some(c) = next.next() {
                    out.push_str(&c.text);
                }
            }
        }
    }
    out
}

/// Byte offsets of the promoted arguments in the `vprintf` buffer and the buffer's size: each
/// value aligned to its own size (4 or 8 bytes), as C varargs are laid out for the device.
pub fn layout(tys: &[Ty]) -> (Vec<u32>, u32) {
    let mut offsets = Vec::with_capacity(tys.len());
    let mut at = 0u32;
    for t in tys {
        let size = t.bytes().max(4);
        at = at.div_ceil(size) * size;
        offsets.push(at);
        at += size;
    }
    (offsets, at)
}

/// A PTX `.b8` array initializer for `s` plus its terminating NUL: `{104, 105, 0}`. Every byte
/// is a decimal number, so quotes, backslashes, `%` and non-ASCII text need no escaping.
pub fn ptx_bytes(s: &str) -> String {
    let mut out = String::from("{");
    for b in s.bytes().chain(std::iter::once(0)) {
        if out.len() > 1 {
            out.push_str(", ");
        }
        out.push_str(&b.to_string());
    }
    out.push('}');
    out
}

#[cfg(test)]
mod tests;
