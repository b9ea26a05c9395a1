//! `Inst::Print` in PTX, as nvcc compiles `printf`: the format string as a NUL-terminated
//! `.global` byte array (one per distinct format), the arguments in one `.local` buffer with C
//! varargs alignment, generic pointers from `cvta`, and a `vprintf` call; ptxas must accept it
//! for sm_70 (as sm_75), sm_80 and sm_90.

mod ptx_support;
use kernel_compiler::ptx;
use kernel_ir::ir::*;
use kernel_ir::printf::ptx_bytes;
use ptx_support::*;

const FMT: &str = "i=\"%d\" 100%% \\ %f %llu\n";

fn printing_kernel() -> Kernel {
    let mut b = KB::new("prints");
    let i = b.scalar_param("i", Ty::I32);
    let x = b.scalar_param("x", Ty::F64);
    let n = b.scalar_param("n", Ty::U64);
    let (buf, _) = b.slice_param("out", false, Ty::F64);
    let tid = b.tid_x();
    let first = b.bin(BinOp::Eq, v(tid), c(Ty::U32, 0));
    b.if_(
        v(first),
        |b| {
            b.store_global(buf, v(x));
            b.push(Inst::Print {
                format: FMT.into(),
                args: vec![v(i), v(x), v(n)],
            });
        },
        |_| {},
    );
    b.push(Inst::Print {
        format: FMT.into(),
        args: vec![c(Ty::I32, 7), c(Ty::F64, 1.5f64.to_bits()), v(n)],
    });
    b.push(Inst::Print {
        format: "no arguments\n".into(),
        args: vec![],
    });
    b.finish()
}

#[test]
fn vprintf_call_like_nvcc() {
    let p = check(&printing_kernel());
    assert_line(&p, ".extern .func (.param .b32 func_retval0) vprintf");
    let fmt_len = FMT.len() + 1;
    assert_line(
        &p,
        &format!(
            ".global .align 1 .b8 $fc_str_0[{fmt_len}] = {};",
            ptx_bytes(FMT)
        ),
    );
    assert_line(&p, ".global .align 1 .b8 $fc_str_1[14] = {110, 111, 32,");
    assert!(
        !p.contains("$fc_str_2"),
        "equal formats share one string:\n{p}"
    );
    // An i32 at 0, then the double 8-aligned, then the u64: 24 bytes.
    assert_line(&p, ".local .align 8 .b8 __fc_printf_buf[24];");
    assert_line(&p, "st.local.s32 [__fc_printf_buf+0],");
    assert_line(&p, "st.local.f64 [__fc_printf_buf+8],");
    assert_line(&p, "st.local.u64 [__fc_printf_buf+16],");
    assert_line(&p, "cvta.global.u64");
    assert_line(&p, "cvta.local.u64");
    assert_eq!(
        p.matches("call.uni (fc_pf_ret), vprintf, (fc_pf_0, fc_pf_1);")
            .count(),
        3,
        "{p}"
    );
}

#[test]
fn no_arguments_pass_a_null_buffer() {
    let mut b = KB::new("hello");
    b.push(Inst::Print {
        format: "hello\n".into(),
        args: vec![],
    });
    let p = check(&b.finish());
    assert!(!p.contains("__fc_printf_buf"), "{p}");
    assert_line(&p, "st.param.b64 [fc_pf_1],");
}

#[test]
fn unpromoted_arguments_are_an_emitter_error() {
    let mut b = KB::new("bad");
    let x = b.scalar_param("x", Ty::F32);
    b.push(Inst::Print {
        format: "%f\n".into(),
        args: vec![v(x)],
    });
    let e = ptx::emit(&b.finish(), &opts(80)).unwrap_err();
    assert!(e.message.contains("unpromoted"), "{e}");
}
