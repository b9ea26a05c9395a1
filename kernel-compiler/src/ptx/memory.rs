//! Loads and stores: global (64-bit addresses), shared (32-bit offsets into the block's window),
//! distributed shared (`.shared::cluster`, 32-bit addresses from `mapa`) and thread-private
//! `.local` arrays. Bools are stored as one byte (0/1), as in Rust.

use super::emit::{Emitter, Res};
use super::regs::Reg;
use super::types::{mem_suffix, sanitize};
use kernel_ir::ir::{ArrayId, Operand, SharedId, Space, Ty, Var};

/// PTX symbol of a static shared allocation.
pub fn shared_symbol(id: u32, name: &str) -> String {
    format!("__fc_shared_{id}_{}", sanitize(name))
}

/// PTX symbol of a local array that stayed in memory.
pub fn local_symbol(id: u32) -> String {
    format!("__fc_local_{id}")
}

impl Emitter<'_> {
    fn address(&mut self, space: Space, addr: Operand) -> Res<Reg> {
        let want = space.addr_ty();
        let ty = self.oty(addr)?;
        if ty != want {
            return self.err(format!(
                "{space:?} address of type {ty:?} (expects {want:?})"
            ));
        }
        self.src(addr)
    }

    /// Loads `ty` from `[addr]` in `space_ins` (`global`, `global.nc`, `shared`, `local`) into `d`.
    fn load_into(&mut self, space_ins: &str, ty: Ty, d: Reg, addr: Reg) {
        if ty == Ty::Bool {
            let t = self.tmp(Ty::U32);
            self.line(format_args!("ld.{space_ins}.u8 {t}, [{addr}]"));
            self.line(format_args!("setp.ne.u32 {d}, {t}, 0"));
        } else {
            self.ins()
                .s("ld.")
                .s(space_ins)
                .s(".")
                .s(mem_suffix(ty))
                .s(" ")
                .r(d)
                .s(", [")
                .r(addr)
                .s("]")
                .end();
        }
    }

    fn store_from(&mut self, space_ins: &str, ty: Ty, addr: Reg, v: Reg) {
        if ty == Ty::Bool {
            let t = self.tmp(Ty::U32);
            self.line(format_args!("selp.u32 {t}, 1, 0, {v}"));
            self.line(format_args!("st.{space_ins}.u8 [{addr}], {t}"));
        } else {
            self.ins()
                .s("st.")
                .s(space_ins)
                .s(".")
                .s(mem_suffix(ty))
                .s(" [")
                .r(addr)
                .s("], ")
                .r(v)
                .end();
        }
    }

    pub fn load(&mut self, dst: Var, space: Space, addr: Operand, readonly: bool) -> Res {
        let ty = self.ty(dst)?;
        let d = self.reg(dst)?;
        let a = self.address(space, addr)?;
        let sp = match (space, readonly) {
            (Space::Global, true) => "global.nc",
            (Space::Global, false) => "global",
            (Space::Shared, _) => "shared",
            (Space::Local, _) => "local",
            (Space::Cluster, _) => "shared::cluster",
        };
        self.load_into(sp, ty, d, a);
        Ok(())
    }

    /// The registers of a vector access's lanes (2 or 4 of one integer or float type, at most
    /// 16 bytes together) and that type; `what` names the access in errors.
    fn vector_lanes(&mut self, lanes: &[Operand], what: &str) -> Res<(Vec<Reg>, Ty)> {
        let Some(&first) = lanes.first() else {
            return self.err(format!("vector {what} without lanes"));
        };
        let ty = self.oty(first)?;
        if !matches!(lanes.len(), 2 | 4) || ty == Ty::Bool || lanes.len() as u32 * ty.bytes() > 16 {
            return self.err(format!(
                "vector {what} of {} {ty:?} elements (expects 2 or 4, at most 16 bytes)",
                lanes.len()
            ));
        }
        let mut regs = Vec::with_capacity(lanes.len());
        for &l in lanes {
            if self.oty(l)? != ty {
                return self.err(format!("vector {what} of values of different types"));
            }
            regs.push(self.src(l)?);
        }
        Ok((regs, ty))
    }

    /// `ld.<space>.v2/.v4`; the address's alignment was proved by the pass that made the
    /// instruction. Lanes of 8 or 16 bits load into 32-bit registers (zero-extended), as the
    /// scalar loads do; ptxas makes `ld.v4.u8` one 32-bit load and byte extractions.
    pub fn load_vec(&mut self, dsts: &[Var], space: Space, addr: Operand, readonly: bool) -> Res {
        let lanes: Vec<Operand> = dsts.iter().map(|&d| Operand::Var(d)).collect();
        let (regs, ty) = self.vector_lanes(&lanes, "load")?;
        let a = self.address(space, addr)?;
        let sp = match (space, readonly) {
            (Space::Global, true) => "global.nc",
            (Space::Global, false) => "global",
            (Space::Shared, _) => "shared",
            (Space::Local, _) => "local",
            (Space::Cluster, _) => "shared::cluster",
        };
        let mut ln = self
            .ins()
            .s("ld.")
            .s(sp)
            .s(if regs.len() == 2 { ".v2." } else { ".v4." })
            .s(mem_suffix(ty))
            .s(" {");
        for (n, &r) in regs.iter().enumerate() {
            ln = if n == 0 { ln.r(r) } else { ln.cr(r) };
        }
        ln.s("}, [").r(a).s("]").end();
        Ok(())
    }

    /// `st.<space>.v2/.v4`, under the same rules as [`Emitter::load_vec`].
    pub fn store_vec(&mut self, space: Space, addr: Operand, vals: &[Operand]) -> Res {
        let (regs, ty) = self.vector_lanes(vals, "store")?;
        let a = self.address(space, addr)?;
        let sp = match space {
            Space::Global => "global",
            Space::Shared => "shared",
            Space::Local => "local",
            Space::Cluster => "shared::cluster",
        };
        let mut ln = self
            .ins()
            .s("st.")
            .s(sp)
            .s(if regs.len() == 2 { ".v2." } else { ".v4." })
            .s(mem_suffix(ty))
            .s(" [")
            .r(a)
            .s("], {");
        for (n, &r) in regs.iter().enumerate() {
            ln = if n == 0 { ln.r(r) } else { ln.cr(r) };
        }
        ln.s("}").end();
        Ok(())
    }

    pub fn store(&mut self, space: Space, addr: Operand, val: Operand) -> Res {
        let ty = self.oty(val)?;
        let a = self.address(space, addr)?;
        let v = self.src(val)?;
        let sp = match space {
            Space::Global => "global",
            Space::Shared => "shared",
            Space::Local => "local",
            Space::Cluster => "shared::cluster",
        };
        self.store_from(sp, ty, a, v);
        Ok(())
    }

    pub fn shared_addr(&mut self, dst: Var, alloc: SharedId) -> Res {
        let Some(s) = self.k.shared.get(alloc.0 as usize) else {
            return self.err(format!("unknown shared allocation {}", alloc.0));
        };
        let sym = shared_symbol(alloc.0, &s.name);
        let d = self.reg(dst)?;
        self.line(format_args!("mov.u32 {d}, {sym}"));
        Ok(())
    }

    /// Address of element `idx` of a local array (`base + idx * size`).
    fn element(&mut self, array: ArrayId, idx: Operand) -> Res<(Reg, Ty)> {
        let Some(arr) = self.k.arrays.get(array.0 as usize) else {
            return self.err(format!("unknown local array {}", array.0));
        };
        let elem = arr.elem;
        if self.oty(idx)? != Ty::U32 {
            return self.err("local array index must be u32");
        }
        self.used_arrays.insert(array);
        let base = self.tmp(Ty::U32);
        self.line(format_args!("mov.u32 {base}, {}", local_symbol(array.0)));
        let addr = self.tmp(Ty::U32);
        match idx {
            Operand::Const(c) => {
                let off = (c.bits as u32).wrapping_mul(elem.bytes());
                self.line(format_args!("add.u32 {addr}, {base}, {off}"));
            }
            Operand::Var(v) => {
                let i = self.reg(v)?;
                self.line(format_args!(
                    "mad.lo.u32 {addr}, {i}, {}, {base}",
                    elem.bytes()
                ));
            }
        }
        Ok((addr, elem))
    }

    pub fn array_load(&mut self, dst: Var, array: ArrayId, idx: Operand) -> Res {
        let (addr, elem) = self.element(array, idx)?;
        if self.ty(dst)? != elem {
            return self.err("array load into a variable of another type");
        }
        let d = self.reg(dst)?;
        self.load_into("local", elem, d, addr);
        Ok(())
    }

    pub fn array_store(&mut self, array: ArrayId, idx: Operand, val: Operand) -> Res {
        let (addr, elem) = self.element(array, idx)?;
        if self.oty(val)? != elem {
            return self.err("array store of a value of another type");
        }
        let v = self.src(val)?;
        self.store_from("local", elem, addr, v);
        Ok(())
    }
}
