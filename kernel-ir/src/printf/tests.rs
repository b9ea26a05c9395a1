//! Format translation, buffer layout, PTX escaping, and the simulator's formatter against output
//! captured from glibc's `printf` for the same format strings and values.

use super::*;

fn spec(conv: FmtConv) -> FmtSpec {
    FmtSpec {
        conv,
        ..FmtSpec::default()
    }
}

fn text(s: FmtSpec, t: Ty) -> String {
    conversion(&s, t).expect("supported").text
}

#[test]
fn display_maps_to_the_promoted_c_type() {
    let d = spec(FmtConv::Display);
    assert_eq!(text(d, Ty::I32), "%d");
    assert_eq!(text(d, Ty::U32), "%u");
    assert_eq!(text(d, Ty::I64), "%lld");
    assert_eq!(text(d, Ty::U64), "%llu");
    assert_eq!(text(d, Ty::F64), "%g");
    assert_eq!(text(spec(FmtConv::Debug), Ty::I16), "%d");
    let c = conversion(&d, Ty::I8).unwrap();
    assert_eq!((c.via, c.ty), (None, Ty::I32));
    let c = conversion(&d, Ty::U16).unwrap();
    assert_eq!((c.via, c.ty), (None, Ty::U32));
    for f in [Ty::F16, Ty::BF16, Ty::F32, Ty::F64] {
        assert_eq!(conversion(&d, f).unwrap().ty, Ty::F64, "{f:?}");
    }
}

#[test]
fn radix_conversions_are_unsigned_of_the_values_width() {
    assert_eq!(text(spec(FmtConv::LowerHex), Ty::I32), "%x");
    assert_eq!(text(spec(FmtConv::UpperHex), Ty::U64), "%llX");
    assert_eq!(text(spec(FmtConv::Octal), Ty::U8), "%o");
    let c = conversion(&spec(FmtConv::LowerHex), Ty::I8).unwrap();
    assert_eq!((c.via, c.ty), (Some(Ty::U8), Ty::U32));
    let c = conversion(&spec(FmtConv::LowerHex), Ty::I64).unwrap();
    assert_eq!((c.via, c.ty), (None, Ty::U64));
    let alt = FmtSpec {
        alternate: true,
        ..spec(FmtConv::LowerHex)
    };
    assert_eq!(text(alt, Ty::U32), "0x%x");
    let alt_o = FmtSpec {
        alternate: true,
        ..spec(FmtConv::Octal)
    };
    assert_eq!(text(alt_o, Ty::U64), "0o%llo");
}

#[test]
fn width_fill_alignment_and_precision() {
    let s = FmtSpec {
        width: Some(8),
        precision: Some(3),
        ..spec(FmtConv::Display)
    };
    assert_eq!(text(s, Ty::F32), "%8.3f");
    // Rust ignores a precision on integers.
    assert_eq!(text(s, Ty::I32), "%8d");
    let z = FmtSpec {
        width: Some(5),
        zero: true,
        left: true,
        ..spec(FmtConv::Display)
    };
    assert_eq!(text(z, Ty::I32), "%05d");
    let l = FmtSpec {
        width: Some(5),
        left: true,
        plus: true,
        ..spec(FmtConv::Display)
    };
    assert_eq!(text(l, Ty::I64), "%-+5lld");
    let e = FmtSpec {
        precision: Some(2),
        width: Some(12),
        ..spec(FmtConv::UpperExp)
    };
    assert_eq!(text(e, Ty::F64), "%12.2E");
    assert_eq!(text(spec(FmtConv::LowerExp), Ty::F16), "%e");
}

#[test]
fn what_c_cannot_print_is_an_error() {
    assert!(conversion(&spec(FmtConv::Display), Ty::Bool)
        .unwrap_err()
        .contains("bool"));
    assert!(conversion(&spec(FmtConv::LowerHex), Ty::F32).is_err());
    assert!(conversion(&spec(FmtConv::LowerExp), Ty::U32).is_err());
    let plus_hex = FmtSpec {
        plus: true,
        ..spec(FmtConv::LowerHex)
    };
    assert!(conversion(&plus_hex, Ty::U32).is_err());
    let wide_alt = FmtSpec {
        alternate: true,
        width: Some(6),
        ..spec(FmtConv::LowerHex)
    };
    assert!(conversion(&wide_alt, Ty::U32).is_err());
}

#[test]
fn text_percent_signs_are_escaped() {
    let pieces = [
        FmtPiece::Text("100% of ".into()),
        FmtPiece::Arg {
            index: 0,
            spec: spec(FmtConv::Display),
        },
        FmtPiece::Text("\n".into()),
    ];
    let convs = [conversion(&spec(FmtConv::Display), Ty::U32).unwrap()];
    assert_eq!(c_format(&pieces, &convs), "100%% of %u\n");
}

#[test]
fn eight_byte_values_are_eight_aligned() {
    let (offs, size) = layout(&[Ty::I32, Ty::F64, Ty::U32, Ty::U32, Ty::I64, Ty::I32]);
    assert_eq!(offs, vec![0, 8, 16, 20, 24, 32]);
    assert_eq!(size, 36);
    assert_eq!(layout(&[]), (vec![], 0));
}

#[test]
fn ptx_strings_are_decimal_bytes_with_a_nul() {
    assert_eq!(ptx_bytes("a%\n"), "{97, 37, 10, 0}");
    assert_eq!(ptx_bytes(""), "{0}");
    assert_eq!(ptx_bytes("\"\\é"), "{34, 92, 195, 169, 0}");
}

/// A value for the packed buffer.
#[derive(Clone, Copy)]
enum A {
    I(i32),
    U(u32),
    L(i64),
    Q(u64),
    D(f64),
}

fn pack(args: &[A]) -> Vec<u8> {
    let tys: Vec<Ty> = args
        .iter()
        .map(|a| match a {
            A::I(_) => Ty::I32,
            A::U(_) => Ty::U32,
            A::L(_) => Ty::I64,
            A::Q(_) => Ty::U64,
            A::D(_) => Ty::F64,
        })
        .collect();
    let (offs, size) = layout(&tys);
    let mut buf = vec![0u8; size as usize];
    for (a, &o) in args.iter().zip(&offs) {
        let o = o as usize;
        match *a {
            A::I(v) => buf[o..o + 4].copy_from_slice(&v.to_le_bytes()),
            A::U(v) => buf[o..o + 4].copy_from_slice(&v.to_le_bytes()),
            A::L(v) => buf[o..o + 8].copy_from_slice(&v.to_le_bytes()),
            A::Q(v) => buf[o..o + 8].copy_from_slice(&v.to_le_bytes()),
            A::D(v) => buf[o..o + 8].copy_from_slice(&v.to_bits().to_le_bytes()),
        }
    }
    buf
}

fn c(fmt: &str, args: &[A]) -> String {
    format_c(fmt, &pack(args)).expect("formats")
}

// Expected strings below are glibc 2.x `printf` output for the same format and arguments.

#[test]
fn integers_match_glibc() {
    use A::*;
    assert_eq!(
        c(
            "[%d|%5d|%-5d|%05d|%+d|%u|%x|%X|%o|%#x|%#o|%08x]",
            &[
                I(-42),
                I(42),
                I(42),
                I(-42),
                I(7),
                U(4_000_000_000),
                U(255),
                U(255),
                U(8),
                U(255),
                U(8),
                U(0xbeef)
            ]
        ),
        "[-42|   42|42   |-0042|+7|4000000000|ff|FF|10|0xff|010|0000beef]"
    );
    assert_eq!(
        c(
            "[%lld|%llu|%llx|%20lld|%-20llu|]",
            &[
                L(-9_000_000_000),
                Q(u64::MAX),
                Q(0xdead_beef_cafe),
                L(-1),
                Q(5)
            ]
        ),
        "[-9000000000|18446744073709551615|deadbeefcafe|                  -1|5                   |]"
    );
}

#[test]
fn floats_match_glibc() {
    use A::*;
    assert_eq!(
        c(
            "[%f|%.3f|%10.2f|%-10.2f|%010.3f|%+.1f|%.0f|%.0f|%.0f|%#.0f]",
            &[
                D(1.23456),
                D(2.0005),
                D(-1.5),
                D(1.5),
                D(-2.25),
                D(0.05),
                D(0.5),
                D(1.5),
                D(2.5),
                D(3.0)
            ]
        ),
        "[1.234560|2.001|     -1.50|1.50      |-00002.250|+0.1|0|2|2|3.]"
    );
    assert_eq!(
        c(
            "[%e|%.3e|%E|%.0e|%12.4e|%e|%e]",
            &[
                D(1234.5678),
                D(0.00012345),
                D(1e100),
                D(5e-300),
                D(-6.02e23),
                D(0.0),
                D(-0.0)
            ]
        ),
        "[1.234568e+03|1.234e-04|1.000000E+100|5e-300| -6.0200e+23|0.000000e+00|-0.000000e+00]"
    );
    assert_eq!(
        c(
            "[%g|%g|%g|%g|%g|%g|%g|%.3g|%.10g|%g|%G|%g|%#g]",
            &[
                D(1.5),
                D(1.0),
                D(0.1f32 as f64),
                D(100000.0),
                D(1000000.0),
                D(1e-4),
                D(1e-5),
                D(1.23456),
                D(1.0 / 3.0),
                D(0.0),
                D(1e-10),
                D(123456789.0),
                D(1.0)
            ]
        ),
        "[1.5|1|0.1|100000|1e+06|0.0001|1e-05|1.23|0.3333333333|0|1E-10|1.23457e+08|1.00000]"
    );
    assert_eq!(
        c(
            "[%f|%f|%5.1f|%05f|%E|%G|%g]",
            &[
                D(f64::INFINITY),
                D(f64::NEG_INFINITY),
                D(f64::NAN),
                D(f64::INFINITY),
                D(f64::INFINITY),
                D(f64::NAN),
                D(-f64::NAN)
            ]
        ),
        "[inf|-inf|  nan|  inf|INF|NAN|-nan]"
    );
    assert_eq!(
        c(
            "[%.3f|%.2f|%g|%10.3g|%-8g|]",
            &[
                D(std::f32::consts::PI as f64),
                D(0.125),
                D(9.9999996e-5),
                D(0.00099999),
                D(2.5)
            ]
        ),
        "[3.142|0.12|0.0001|     0.001|2.5     |]"
    );
}

#[test]
fn malformed_calls_are_errors_not_panics() {
    assert!(format_c("%d", &[]).is_err());
    assert!(format_c("%lld", &[0; 4]).is_err());
    assert!(format_c("abc %", &[]).is_err());
    assert!(format_c("%s", &[0; 8]).is_err());
    assert!(format_c("%99999999999999999999d", &[0; 4]).is_err());
    assert_eq!(format_c("%% %c", &[65, 0, 0, 0]).unwrap(), "% A");
}
