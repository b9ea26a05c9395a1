//! Calls to `#[device]` functions: each call is inlined for its own generic substitution inside
//! an `Inst::Loop`, so that `return` is "store the result, break".

use kernel_ir::ast::{Expr, FnDef};
use kernel_ir::ir::{self, Inst};

use super::consts::convert_type;
use super::infer::key;
use super::scope::{Binding, FnCtx, RetTarget};
use super::types::Ty;
use super::value::Val;
use super::{Lower, R};

impl Lower {
    pub fn call_device(&mut self, e: &Expr, def: &'static FnDef, args: &[Expr]) -> R<Val> {
        let sp = e.span;
        if self.fns.iter().any(|f| std::ptr::eq(f.def, def)) {
            return Err(self.err(
                sp,
                format!("recursive call of `{}`: device functions are inlined, so recursion is not supported", def.name),
            ));
        }
        let env = self
            .cx()
            .types
            .calls
            .get(&key(e))
            .cloned()
            .ok_or_else(|| self.err(sp, "internal: call was not type checked"))?;
        let conv = |t: &kernel_ir::ast::Type| convert_type(t, &env, &mut || Ty::Unit);
        let mut vals = Vec::new();
        let mut param_tys = Vec::new();
        for (a, p) in args.iter().zip(&def.params) {
            let pt = conv(&p.ty).map_err(|m| self.err(a.span, m))?;
            let v = self.expr(a)?;
            let v = self.coerce_val(v, &self.ty(a), &pt, a.span)?;
            vals.push(v);
            param_tys.push(pt);
        }
        let ret = conv(&def.ret).map_err(|m| self.err(sp, m))?;
        self.inline_body(def, env, vals, param_tys, ret, sp)
    }

    /// Inlines a non-generic device function on already-lowered arguments: how built-in methods
    /// (`x.sin()`) reach the math library written as `#[device]` functions in `kernel_std::math`.
    pub fn inline_device_vals(
        &mut self,
        def: &'static FnDef,
        vals: Vec<Val>,
        sp: kernel_ir::ast::Span,
    ) -> R<Val> {
        if self.fns.iter().any(|f| std::ptr::eq(f.def, def)) {
            return Err(self.err(
                sp,
                format!("internal: math function `{}` calls itself", def.name),
            ));
        }
        let env = super::consts::Env::default();
        let conv = |t: &kernel_ir::ast::Type| convert_type(t, &env, &mut || Ty::Unit);
        let mut param_tys = Vec::new();
        for p in &def.params {
            param_tys.push(conv(&p.ty).map_err(|m| self.err(sp, m))?);
        }
        let ret = conv(&def.ret).map_err(|m| self.err(sp, m))?;
        self.inline_body(def, env, vals, param_tys, ret, sp)
    }

    fn inline_body(
        &mut self,
        def: &'static FnDef,
        env: super::consts::Env,
        vals: Vec<Val>,
        param_tys: Vec<Ty>,
        ret: Ty,
        sp: kernel_ir::ast::Span,
    ) -> R<Val> {
        let types = self.types_for(def, &env)?;
        let id = self.k.new_loop();
        self.fns.push(FnCtx::new(
            def,
            env,
            types,
            RetTarget::Inline {
                id,
                ty: ret.clone(),
            },
        ));
        self.open();
        let r = (|| {
            for ((p, v), t) in def.params.iter().zip(vals).zip(param_tys.iter()) {
                let loc = self.bind_value(t, v, p.mutable, &p.name, p.span)?;
                self.cx_mut().bind(&p.name, Binding { ty: t.clone(), loc });
            }
            let v = self.block(&def.body)?;
            let v = match &def.body.tail {
                Some(t) => self.coerce_val(v, &self.ty(t), &ret, t.span)?,
                None => v,
            };
            self.set_return(&ret, &v, def.body.span)?;
            self.emit(Inst::Break(id));
            Ok(())
        })();
        let body = self.close();
        let result = self.fns.pop().and_then(|f| f.ret_slot);
        r?;
        self.emit(Inst::Loop {
            id,
            body: ir::Block(body.0),
        });
        match result {
            Some(l) => self.read(&l, &ret, sp),
            // Every path diverged (or the body is empty and returns `()`).
            None if ret == Ty::Unit => Ok(Val::Unit),
            None => Ok(Val::Never),
        }
    }
}
