//! Intrinsic calls: the table entry's PTX template with its placeholders filled in.
//!
//! Placeholders: `{d0}`, `{d1}`... result registers; `{a0}`, `{a1}`... argument registers (constants
//! are materialized into registers first, so templates never depend on immediate forms); `{uid}` a
//! number unique within the kernel, for templates that need private labels (`$Lfc_i{uid}_x`).
//! `{{` and `}}` are literal braces. Instructions in a template are separated by `;`.

use super::emit::{Emitter, Res};
use super::regs::Reg;
use kernel_ir::intrinsic::IntrinsicId;
use kernel_ir::ir::{Operand, Var};
use kernel_std::intrinsics;
use std::fmt::{Display, Write};

/// Substitutes `{dN}`, `{aN}` and `{uid}`; fails on an unknown or out-of-range placeholder.
pub fn fill<D: Display>(
    template: &str,
    dsts: &[D],
    args: &[D],
    uid: u32,
) -> Result<String, String> {
    let mut out = String::with_capacity(template.len() + 16);
    let mut rest = template;
    while let Some(open) = rest.find(['{', '}']) {
        out.push_str(&rest[..open]);
        // `{{` and `}}` stand for literal braces (PTX vector operands: `mov.b32 %r, {{{a0}, {a1}}}`).
        if rest[open..].starts_with("{{") || rest[open..].starts_with("}}") {
            out.push_str(&rest[open..open + 1]);
            rest = &rest[open + 2..];
            continue;
        }
        if rest[open..].starts_with('}') {
            return Err(format!("unmatched `}}` in `{template}`"));
        }
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else {
            return Err(format!("unclosed placeholder in `{template}`"));
        };
        let key = &after[..close];
        if key == "uid" {
            let _ = write!(out, "{uid}");
        } else {
            let (list, num) = match key.split_at_checked(1) {
                Some(("d", n)) => (dsts, n),
                Some(("a", n)) => (args, n),
                _ => return Err(format!("unknown placeholder `{{{key}}}` in `{template}`")),
            };
            let i: usize = num
                .parse()
                .map_err(|_| format!("bad placeholder `{{{key}}}` in `{template}`"))?;
            match list.get(i) {
                Some(v) => {
                    let _ = write!(out, "{v}");
                }
                None => {
                    return Err(format!(
                        "placeholder `{{{key}}}` out of range in `{template}`"
                    ))
                }
            }
        }
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

impl Emitter<'_> {
    pub fn intrinsic(&mut self, id: IntrinsicId, dsts: &[Var], args: &[Operand]) -> Res {
        let def = id.def();
        if def.min_sm > self.sm {
            return self.err(format!(
                "`{}` needs sm_{} or newer, but the target is sm_{}",
                def.name, def.min_sm, self.sm
            ));
        }
        if dsts.len() != def.rets.len() || args.len() != def.args.len() {
            return self.err(format!(
                "`{}` takes {} arguments and returns {} values; the IR passes {} and expects {}",
                def.name,
                def.args.len(),
                def.rets.len(),
                args.len(),
                dsts.len()
            ));
        }
        for (i, (&d, &want)) in dsts.iter().zip(def.rets).enumerate() {
            if self.ty(d)? != want {
                return self.err(format!("result {i} of `{}` must be {want:?}", def.name));
            }
        }
        for (i, (&a, &want)) in args.iter().zip(def.args).enumerate() {
            if self.oty(a)? != want {
                return self.err(format!("argument {i} of `{}` must be {want:?}", def.name));
            }
        }
        let d: Vec<Reg> = dsts.iter().map(|&v| self.reg(v)).collect::<Res<_>>()?;
        let a: Vec<Reg> = args.iter().map(|&o| self.src(o)).collect::<Res<_>>()?;
        if def.name == intrinsics::HEAP_MALLOC || def.name == intrinsics::HEAP_FREE {
            self.maybe_heap_calls = true;
        }
        let uid = self.unique();
        let text = match fill(def.ptx, &d, &a, uid) {
            Ok(t) => t,
            Err(e) => return self.err(format!("intrinsic `{}`: {e}", def.name)),
        };
        for ins in text.split(';').map(str::trim).filter(|s| !s.is_empty()) {
            // A label inside a template (`$L...: instr`) goes on its own line.
            if let Some((lab, after)) = ins.split_once(':').filter(|(l, _)| l.starts_with('$')) {
                self.label(lab.trim());
                if !after.trim().is_empty() {
                    self.line(after.trim());
                }
            } else {
                self.line(ins);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::fill;

    #[test]
    fn fills_placeholders() {
        let d = vec!["%r1".to_string()];
        let a = vec!["%r2".to_string(), "%r3".to_string()];
        assert_eq!(
            fill("add.u32 {d0}, {a0}, {a1}", &d, &a, 7).unwrap(),
            "add.u32 %r1, %r2, %r3"
        );
        assert_eq!(
            fill("$Lfc_i{uid}_x: ret", &d, &a, 7).unwrap(),
            "$Lfc_i7_x: ret"
        );
        assert_eq!(
            fill("mov.b32 {d0}, {{{a0}, {a1}}}", &d, &a, 0).unwrap(),
            "mov.b32 %r1, {%r2, %r3}"
        );
        assert!(fill("mov.u32 {d0}, 0 }", &d, &a, 0).is_err());
        assert!(fill("mov.u32 {d1}, 0", &d, &a, 0).is_err());
        assert!(fill("mov.u32 {x0}, 0", &d, &a, 0).is_err());
        assert!(fill("mov.u32 {d0, 0", &d, &a, 0).is_err());
    }
}
