//! Bounds checks and panics.
//!
//! A failing check branches to a per-site cold block after the kernel body, which loads the site id
//! and the two detail values into three fixed registers and jumps to the single shared panic block
//! at the very end of the entry. That block implements the protocol of `panic_record`: read
//! `__fc_panic_slot`; if non-zero, win `state` 0 -> 1 with a CAS, write the fields, `membar.sys`,
//! set `state` = 2 (a relaxed device-scope exchange); then `exit` (never `trap`, so the context
//! survives and other threads finish).

use super::emit::{ColdBounds, Emitter, Res};
use super::regs::Reg;
use super::types::reg_bits;
use kernel_ir::ir::{Operand, SiteId, Ty};
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
                16 if t.is_signed() => self.op(["cvt.s64.s16"], [d, v]),
                32 if t.is_signed() => self.op(["cvt.s64.s32"], [d, v]),
                16 => self.op(["cvt.u64.u16"], [d, v]),
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

    /// Emits the cold bounds blocks and the shared panic block (after the body's final `ret`).
    pub fn panic_tail(&mut self) {
        let cold = std::mem::take(&mut self.cold);
        if cold.is_empty() && self.panic_regs.is_none() {
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
        let slot = self.tmp(Ty::U64);
        let old = self.tmp(Ty::U32);
        let t = self.tmp(Ty::U32);
        let p = self.tmp(Ty::Bool);
        let done = self.new_label("panic_exit");
        self.label(PANIC_LABEL);
        self.line(format_args!("ld.global.u64 {slot}, [{}]", pr::SLOT_SYMBOL));
        self.line(format_args!("setp.eq.u64 {p}, {slot}, 0"));
        self.line(format_args!("@{p} bra {done}"));
        self.line(format_args!(
            "atom.global.cas.b32 {old}, [{slot}+{}], {}, {}",
            pr::OFF_STATE,
            pr::STATE_EMPTY,
            pr::STATE_WRITING
        ));
        self.line(format_args!("setp.ne.u32 {p}, {old}, {}", pr::STATE_EMPTY));
        self.line(format_args!("@{p} bra {done}"));
        self.line(format_args!(
            "st.global.u32 [{slot}+{}], {rs}",
            pr::OFF_SITE
        ));
        self.line(format_args!("st.global.u64 [{slot}+{}], {ra}", pr::OFF_A));
        self.line(format_args!("st.global.u64 [{slot}+{}], {rb}", pr::OFF_B));
        for (i, c) in ["x", "y", "z"].iter().enumerate() {
            self.line(format_args!("mov.u32 {t}, %ctaid.{c}"));
            self.line(format_args!(
                "st.global.u32 [{slot}+{}], {t}",
                pr::OFF_BLOCK + 4 * i as u32
            ));
        }
        for (i, c) in ["x", "y", "z"].iter().enumerate() {
            self.line(format_args!("mov.u32 {t}, %tid.{c}"));
            self.line(format_args!(
                "st.global.u32 [{slot}+{}], {t}",
                pr::OFF_THREAD + 4 * i as u32
            ));
        }
        self.line("membar.sys");
        // An atomic rather than a store: any strong store in a kernel, even one in this cold
        // block, makes ptxas put a `YIELD` into every loop (measured on histogram256: 21 -> 20
        // instructions in its grid-stride loop). Device scope: the host reads the record only
        // after synchronizing, and a system-scope atomic on mapped host memory is one the GPU
        // need not support natively over PCIe (compute-sanitizer's memcheck stops the kernel
        // there: "Invalid __global__ system-scoped atomic").
        self.line(format_args!(
            "atom.relaxed.gpu.global.exch.b32 {old}, [{slot}+{}], {}",
            pr::OFF_STATE,
            pr::STATE_DONE
        ));
        self.put_label(done);
        self.line("exit");
    }
}
