//! Bounds checks and panics.
//!
//! A failing check (a bounds check, or an overflow check: `if overflows { panic }` with an
//! overflow site) branches to a per-site cold block after the kernel body, which loads the site id
//! and the two detail values into three fixed registers and jumps to the single shared panic block
//! at the very end of the entry. That block implements the protocol of `panic_record`: load the
//! stream's slot from the trailing `__fc_panic` parameter; if non-zero, win the slot's `claim`
//! 0 -> 1 with a device-scope CAS on device memory, load the record's address from the slot, write
//! the fields (and the module id) with plain stores, `membar.sys`, store `state` = 2; then `exit`
//! (never `trap`, so the context survives and other threads finish). No atomic touches the
//! host-mapped record, and nothing here runs unless a thread panics.

use super::emit::{ColdBounds, ColdPanic, Emitter, Res};
use super::regs::Reg;
use super::types::reg_bits;
use kernel_ir::ir::{Block, Inst, Operand, PanicKind, SiteId, Ty};
use kernel_ir::panic_record as pr;

/// Label of the shared panic block.
pub const PANIC_LABEL: &str = "$Lfc_panic";

impl Emitter<'_> {
    fn panic_regs(&mut self) -> (Reg, Reg, Reg) {
        if let Some(r) = self.panic_regs {
            return r;
        }
        let r = (self.tmp(Ty::U32), self.tmp(Ty::U64), self.tmp(Ty::U64));
        self.panic_regs = Some(r);
        r
    }

    fn check_site(&self, site: SiteId) -> Res {
        if (site.0 as usize) < self.k.panic_sites.len() {
            Ok(())
        } else {
            self.err(format!(
                "panic site {} is not in the kernel's site table",
                site.0
            ))
        }
    }

    pub fn bounds_check(&mut self, idx: Operand, len: Operand, site: SiteId) -> Res {
        self.check_site(site)?;
        let ty = self.oty(idx)?;
        if ty != self.oty(len)? || !matches!(ty, Ty::U32 | Ty::U64) {
            return self.err("bounds check operands must both be u32 or both u64");
        }
        let i = self.src(idx)?;
        let l = self.src(len)?;
        let p = self.tmp(Ty::Bool);
        let label = self.new_label("bounds");
        let sfx = if ty == Ty::U32 { "u32" } else { "u64" };
        self.op(["setp.ge.", sfx], [p, i, l]);
        self.ins().s("@").r(p).s(" bra ").l(label).end();
        self.cold.push(ColdBounds {
            label,
            site: site.0,
            idx: i,
            len: l,
            ty,
        });
        Ok(())
    }

    /// Writes `v` (of type `ty`) into the 64-bit register `d`: integers extended per signedness,
    /// floats as their bits, bool as 0/1.
    fn widen_to_u64(&mut self, ty: Ty, v: Reg, d: Reg) {
        match ty {
            Ty::Bool => self.line(format_args!("selp.u64 {d}, 1, 0, {v}")),
            Ty::F32 => {
                let t = self.tmp(Ty::U32);
                self.op(["mov.b32"], [t, v]);
                self.op(["cvt.u64.u32"], [d, t]);
            }
            Ty::F64 => self.op(["mov.b64"], [d, v]),
            Ty::F16 | Ty::BF16 => self.op(["cvt.u64.u16"], [d, v]),
            t => match reg_bits(t) {
                64 => self.op(["mov.b64"], [d, v]),
                32 if t.is_signed() => self.op(["cvt.s64.s32"], [d, v]),
                _ => self.op(["cvt.u64.u32"], [d, v]),
            },
        }
    }

    pub fn panic(&mut self, site: SiteId, a: Operand, b: Operand) -> Res {
        self.check_site(site)?;
        let (rs, ra, rb) = self.panic_regs();
        let (ta, tb) = (self.oty(a)?, self.oty(b)?);
        let sa = self.src(a)?;
        let sb = self.src(b)?;
        self.ins()
            .s("mov.u32 ")
            .r(rs)
            .s(", ")
            .n(u64::from(site.0))
            .end();
        self.widen_to_u64(ta, sa, ra);
        self.widen_to_u64(tb, sb, rb);
        self.ins().s("bra ").s(PANIC_LABEL).end();
        Ok(())
    }

    /// The panic of `if c { panic }` when it is an overflow check, whose failure branch goes to
    /// a cold block like a bounds check's (other panics keep their inline code).
    pub fn overflow_panic(&self, then: &Block) -> Option<(SiteId, Operand, Operand)> {
        let mut it = then.0.iter().filter(|i| !matches!(i, Inst::Loc(_)));
        let (Some(&Inst::Panic { site, a, b }), None) = (it.next(), it.next()) else {
            return None;
        };
        let kind = &self.k.panic_sites.get(site.0 as usize)?.kind;
        matches!(kind, PanicKind::Overflow(_)).then_some((site, a, b))
    }

    /// `@c bra` to a cold block that panics at `site` with details `a` and `b`.
    pub fn cold_panic_if(&mut self, c: Reg, site: SiteId, a: Operand, b: Operand) -> Res {
        self.check_site(site)?;
        for o in [a, b] {
            self.oty(o)?;
        }
        let label = self.new_label("overflow");
        self.ins().s("@").r(c).s(" bra ").l(label).end();
        self.cold_panics.push(ColdPanic {
            label,
            site: site.0,
            a,
            b,
        });
        Ok(())
    }

    /// Emits the cold bounds blocks and the shared panic block (after the body's final `ret`).
    pub fn panic_tail(&mut self) {
        let cold = std::mem::take(&mut self.cold);
        let cold_panics = std::mem::take(&mut self.cold_panics);
        if cold.is_empty() && cold_panics.is_empty() && self.panic_regs.is_none() {
            return;
        }
        let (rs, ra, rb) = self.panic_regs();
        for c in cold {
            self.put_label(c.label);
            self.ins()
                .s("mov.u32 ")
                .r(rs)
                .s(", ")
                .n(u64::from(c.site))
                .end();
            self.widen_to_u64(c.ty, c.idx, ra);
            self.widen_to_u64(c.ty, c.len, rb);
            self.ins().s("bra ").s(PANIC_LABEL).end();
        }
        for c in cold_panics {
            self.put_label(c.label);
            self.ins()
                .s("mov.u32 ")
                .r(rs)
                .s(", ")
                .n(u64::from(c.site))
                .end();
            for (o, d) in [(c.a, ra), (c.b, rb)] {
                match o {
                    Operand::Const(k) => {
                        let bits = if k.ty.is_float() {
                            k.bits
                        } else {
                            k.as_i128() as u64
                        };
                        self.line(format_args!("mov.b64 {d}, {bits}"));
                    }
                    Operand::Var(v) => {
                        // Checked when the branch was emitted.
                        if let (Ok(t), Ok(r)) = (self.ty(v), self.reg(v)) {
                            self.widen_to_u64(t, r, d);
                        }
                    }
                }
            }
            self.ins().s("bra ").s(PANIC_LABEL).end();
        }
        let slot = self.tmp(Ty::U64);
        let rec = self.tmp(Ty::U64);
        let old = self.tmp(Ty::U32);
        let t = self.tmp(Ty::U32);
        let p = self.tmp(Ty::Bool);
        let done = self.new_label("panic_exit");
        self.label(PANIC_LABEL);
        self.line(format_args!("ld.param.u64 {slot}, [{}]", pr::PANIC_PARAM));
        self.line(format_args!("setp.eq.u64 {p}, {slot}, 0"));
        self.line(format_args!("@{p} bra {done}"));
        // The claim is device memory: a plain (relaxed, .gpu scope) CAS is all CUDA needs.
        self.line(format_args!(
            "atom.global.cas.b32 {old}, [{slot}+{}], {}, {}",
            pr::SLOT_OFF_CLAIM,
            pr::CLAIM_FREE,
            pr::CLAIM_TAKEN
        ));
        self.line(format_args!("setp.ne.u32 {p}, {old}, {}", pr::CLAIM_FREE));
        self.line(format_args!("@{p} bra {done}"));
        self.line(format_args!(
            "ld.global.u64 {rec}, [{slot}+{}]",
            pr::SLOT_OFF_RECORD
        ));
        self.line(format_args!("st.global.u32 [{rec}+{}], {rs}", pr::OFF_SITE));
        self.line(format_args!("st.global.u64 [{rec}+{}], {ra}", pr::OFF_A));
        self.line(format_args!("st.global.u64 [{rec}+{}], {rb}", pr::OFF_B));
        for (i, c) in ["x", "y", "z"].iter().enumerate() {
            self.line(format_args!("mov.u32 {t}, %ctaid.{c}"));
            self.line(format_args!(
                "st.global.u32 [{rec}+{}], {t}",
                pr::OFF_BLOCK + 4 * i as u32
            ));
        }
        for (i, c) in ["x", "y", "z"].iter().enumerate() {
            self.line(format_args!("mov.u32 {t}, %tid.{c}"));
            self.line(format_args!(
                "st.global.u32 [{rec}+{}], {t}",
                pr::OFF_THREAD + 4 * i as u32
            ));
        }
        self.line(format_args!("ld.global.u32 {t}, [{}]", pr::MODULE_SYMBOL));
        self.line(format_args!(
            "st.global.u32 [{rec}+{}], {t}",
            pr::OFF_MODULE
        ));
        self.line("membar.sys");
        // A plain (weak) store: the host reads the record only after the kernel completed, and
        // a strong store anywhere in a kernel, even in this cold block, makes ptxas put a `YIELD`
        // into every loop (measured on histogram256: 21 -> 20 instructions in its grid-stride loop).
        self.line(format_args!(
            "st.global.u32 [{rec}+{}], {}",
            pr::OFF_STATE,
            pr::STATE_DONE
        ));
        self.put_label(done);
        self.line("exit");
    }
}
