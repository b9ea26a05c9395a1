//! Calls to `#[device]` functions: each call is inlined for its own generic substitution inside
//! an `Inst::Loop`, so that `return` is "store the result, break".

use crate::ast::{Expr, FnDef};
use crate::ir::{self, Inst};

use super::consts::convert_type;
use super::infer::key;
use super::scope::{Binding, FnCtx, RetTarget};
use super::types::Ty;
use super::value::{Loc, Val};
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
        let conv = |t: &crate::ast::Type| convert_type(t, &env, &mut || Ty::Unit);
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
        let result = match &ret {
            Ty::Slice(..) => {
                // Shape the result after a slice argument (same memory space), if any.
                let init = vals.iter().find(|v| matches!(v, Val::Slice(_))).cloned();
                match init {
                    Some(v) => self.alloc(&ret, Some(&v), true, "ret", sp)?,
                    None => return Err(self.err(sp, "device functions returning slices must take a slice argument")),
                }
            }
            Ty::Ref(..) => {
                return Err(self.err(sp, format!("`{}` returns a reference; device functions returning references are not supported", def.name)))
            }
            _ => self.alloc_uninit(&ret, "ret", sp)?,
        };
        let types = self.types_for(def, &env)?;
        let id = self.k.new_loop();
        self.fns.push(FnCtx::new(
            def,
            env,
            types,
            RetTarget::Inline {
                id,
                result: result.clone(),
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
            self.write(&result, &ret, &v, def.body.span)?;
            self.emit(Inst::Break(id));
            Ok(())
        })();
        let body = self.close();
        self.fns.pop();
        r?;
        self.emit(Inst::Loop {
            id,
            body: ir::Block(body.0),
        });
        if let Loc::Unit = result {
            return Ok(if ret == Ty::Never {
                Val::Never
            } else {
                Val::Unit
            });
        }
        self.read(&result, &ret, sp)
    }
}
