//! `Inst::Print` as nvcc compiles `printf`: the C format string is a module-scope byte array in
//! global memory, the promoted arguments are stored into one `.local` buffer laid out by
//! `printf::layout`, and `vprintf` receives both as generic addresses (`cvta`). The driver's JIT
//! links `vprintf` itself; the module only declares it.

use super::emit::{Emitter, Res};
use super::types::mem_suffix;
use kernel_ir::ir::{Operand, Ty};
use kernel_ir::printf::{layout, ptx_bytes};
use std::fmt::Write;

/// Name of the `.local` argument buffer shared by every print in the entry.
pub const PRINTF_BUFFER: &str = "__fc_printf_buf";

/// The declaration of `vprintf` (what `nvcc -ptx` emits for `printf`).
pub const VPRINTF_DECL: &str = ".extern .func (.param .b32 func_retval0) vprintf\n(\n\t.param .b64 vprintf_param_0,\n\t.param .b64 vprintf_param_1\n);";

/// The symbol of the `i`th format string of the module.
pub fn string_symbol(i: usize) -> String {
    format!("$fc_str_{i}")
}

/// Module-scope declarations for the prints `e` emitted: `vprintf` and the format strings.
pub fn module_decls(e: &Emitter<'_>) -> String {
    let mut out = String::new();
    if e.printf_formats.is_empty() {
        return out;
    }
    let _ = writeln!(out, "{VPRINTF_DECL}");
    for (i, f) in e.printf_formats.iter().enumerate() {
        let _ = writeln!(
            out,
            ".global .align 1 .b8 {}[{}] = {};",
            string_symbol(i),
            f.len() + 1,
            ptx_bytes(f)
        );
    }
    out
}

/// The entry's argument buffer declaration, when some print has arguments.
pub fn buffer_decl(e: &Emitter<'_>) -> Option<String> {
    (e.printf_buffer_bytes > 0).then(|| {
        format!(
            "\t.local .align 8 .b8 {PRINTF_BUFFER}[{}];",
            e.printf_buffer_bytes
        )
    })
}

impl Emitter<'_> {
    pub fn print(&mut self, format: &str, args: &[Operand]) -> Res {
        if self.pred.is_some() {
            return self.err("printf cannot be emitted as predicated code");
        }
        let mut tys = Vec::with_capacity(args.len());
        for &a in args {
            let t = self.oty(a)?;
            if !matches!(t, Ty::I32 | Ty::U32 | Ty::I64 | Ty::U64 | Ty::F64) {
                return self.err(format!("printf argument of unpromoted type {t:?}"));
            }
            tys.push(t);
        }
        let (offsets, size) = layout(&tys);
        self.printf_buffer_bytes = self.printf_buffer_bytes.max(size);
        let index = match self.printf_formats.iter().position(|f| f == format) {
            Some(i) => i,
            None => {
                self.printf_formats.push(format.to_string());
                self.printf_formats.len() - 1
            }
        };
        for (&a, (&off, &t)) in args.iter().zip(offsets.iter().zip(&tys)) {
            let s = self.src(a)?;
            self.line(format_args!(
                "st.local.{} [{PRINTF_BUFFER}+{off}], {s}",
                mem_suffix(t)
            ));
        }
        let fmt = self.tmp(Ty::U64);
        self.line(format_args!("mov.u64 {fmt}, {}", string_symbol(index)));
        self.line(format_args!("cvta.global.u64 {fmt}, {fmt}"));
        let buf = self.tmp(Ty::U64);
        if size > 0 {
            self.line(format_args!("mov.u64 {buf}, {PRINTF_BUFFER}"));
            self.line(format_args!("cvta.local.u64 {buf}, {buf}"));
        } else {
            self.line(format_args!("mov.u64 {buf}, 0"));
        }
        let ret = self.tmp(Ty::I32);
        let _ = writeln!(
            self.body,
            "\t{{\n\t.param .b64 fc_pf_0;\n\tst.param.b64 [fc_pf_0], {fmt};\n\t.param .b64 fc_pf_1;\n\
             \tst.param.b64 [fc_pf_1], {buf};\n\t.param .b32 fc_pf_ret;\n\
             \tcall.uni (fc_pf_ret), vprintf, (fc_pf_0, fc_pf_1);\n\
             \tld.param.b32 {ret}, [fc_pf_ret];\n\t}}"
        );
        Ok(())
    }
}
