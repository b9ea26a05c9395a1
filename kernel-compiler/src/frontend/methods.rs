//! Built-in methods: on slices and arrays (`len`, `get_unchecked`), on integers and floats
//! (`min`, `abs`, `mul_add`, `pow`, `to_bits`, ...), also when named through the type
//! (`f32::max(a, b)`, `f32::from_bits(u)`).

use kernel_ir::ast::{self, Expr, MathFn, MathImpl, Span};
use kernel_ir::ir::{self, BinOp, Const, Inst, Operand, PanicKind, UnOp};
use kernel_std::intrinsics::{integer, math};

use super::builtins::results;
use super::consts::{convert_type, eval_const};
use super::types::Ty;
use super::value::{c_int, c_u32, c_u64, scalar_ir, Val};
use super::{Lower, R};

impl Lower {
    pub fn method_call(&mut self, e: &Expr, recv: &Expr, name: &str, args: &[Expr]) -> R<Val> {
        let sp = e.span;
        let rt = self.ty(recv);
        match (rt.deref_all(), name) {
            (
                Ty::Slice(..) | Ty::Array(..),
                "len" | "is_empty" | "get_unchecked" | "get_unchecked_mut",
            ) => {
                let (l, t) = self.place_or_temp(recv)?;
                let (l, t) = self.auto_deref(l, t, sp)?;
                let len = match &t {
                    Ty::Array(_, n) => c_u64(*n),
                    _ => self.slice_of(&l, &t, sp)?.len,
                };
                match name {
                    "len" => Ok(Val::Scalar(len)),
                    "is_empty" => Ok(Val::Scalar(self.bin(BinOp::Eq, len, c_u64(0)))),
                    _ => {
                        let idx = self.scalar(&args[0])?;
                        match &t {
                            Ty::Array(..) => Ok(Val::Ref(self.array_elem_loc(&l, &t, idx, sp)?)),
                            Ty::Slice(et, _) => {
                                let et = (**et).clone();
                                let s = self.slice_of(&l, &t, sp)?;
                                Ok(Val::Ref(self.slice_elem(&s, &et, idx, sp)?))
                            }
                            _ => Err(self.err(sp, "internal: container expected")),
                        }
                    }
                }
            }
            _ => {
                let x = self.scalar(recv)?;
                let xt = rt.deref_all().clone();
                self.scalar_method(name, x, &xt, args, sp)
            }
        }
    }

    pub fn assoc_call(&mut self, e: &Expr, ty: &ast::Type, name: &str, args: &[Expr]) -> R<Val> {
        let sp = e.span;
        let env = self.cx().env.clone();
        let t = convert_type(ty, &env, &mut || Ty::Unit).map_err(|m| self.err(sp, m))?;
        if matches!(name, "from_f32" | "from_f64") {
            let a = self.scalar(&args[0])?;
            return Ok(Val::Scalar(self.cast(a, scalar_ir(&t))));
        }
        if name == "from_bits" {
            let a = self.scalar(&args[0])?;
            return Ok(Val::Scalar(self.bitcast(a, scalar_ir(&t))));
        }
        let x = self.scalar(&args[0])?;
        self.scalar_method(name, x, &t, &args[1..], sp)
    }

    fn scalar_method(
        &mut self,
        name: &str,
        x: Operand,
        xt: &Ty,
        args: &[Expr],
        sp: Span,
    ) -> R<Val> {
        let t = self.op_ty(x);
        if name == "pow" {
            let env = self.cx().env.clone();
            let r = match eval_const(&args[0], &env) {
                Ok((n, _)) if (0..=u32::MAX as i128).contains(&n) => {
                    self.int_pow_const(x, n as u32, sp)
                }
                _ => {
                    let n = self.scalar(&args[0])?;
                    self.int_pow_dyn(x, n, sp)
                }
            };
            return Ok(Val::Scalar(r));
        }
        let mut a = Vec::new();
        for x in args {
            a.push(self.scalar(x)?);
        }
        if let Some(m) = math::method(name).filter(|_| t.is_float()) {
            let mut all = vec![x];
            all.extend(a);
            return self.math_call(name, m, &all, sp);
        }
        let int = t.is_int();
        let r = match name {
            "min" | "max" => {
                let op = if name == "min" {
                    BinOp::Min
                } else {
                    BinOp::Max
                };
                if int {
                    self.bin(op, x, a[0])
                } else {
                    self.float_op(op, x, a[0])
                }
            }
            "clamp" => {
                let (lo, hi) = (a[0], a[1]);
                let ok = self.arith(ast::BinOp::Le, lo, hi, sp)?;
                if !matches!(ok, Operand::Const(c) if c.bits == 1) {
                    let site = self.site(
                        PanicKind::Explicit("assertion failed: min <= max".into()),
                        sp,
                    );
                    let bad = self.un(UnOp::Not, ok, ir::Ty::Bool);
                    self.panic_if(bad, site);
                }
                let below = self.arith(ast::BinOp::Lt, x, lo, sp)?;
                let r = self.select(below, lo, x);
                let above = self.arith(ast::BinOp::Gt, r, hi, sp)?;
                self.select(above, hi, r)
            }
            "abs" if int => {
                self.check_neg(x, sp);
                self.un(UnOp::Abs, x, t)
            }
            "wrapping_abs" => self.un(UnOp::Abs, x, t),
            "wrapping_neg" => self.un(UnOp::Neg, x, t),
            "wrapping_add" => self.bin(BinOp::Add, x, a[0]),
            "wrapping_sub" => self.bin(BinOp::Sub, x, a[0]),
            "wrapping_mul" => self.bin(BinOp::Mul, x, a[0]),
            "signum" if int => {
                let z = c_int(t, 0);
                let pos = self.bin(BinOp::Gt, x, z);
                let neg = self.bin(BinOp::Lt, x, z);
                let p = self.cast(pos, t);
                let n = self.cast(neg, t);
                self.bin(BinOp::Sub, p, n)
            }
            "is_positive" => self.bin(BinOp::Gt, x, c_int(t, 0)),
            "is_negative" => self.bin(BinOp::Lt, x, c_int(t, 0)),
            "leading_zeros" => {
                let u = self.zext32(x);
                let ut = self.op_ty(u);
                let c = self.un(UnOp::Clz, u, ir::Ty::U32);
                let extra = ut.bits() - t.bits();
                self.bin(BinOp::Sub, c, c_u32(extra))
            }
            "count_ones" | "count_zeros" => {
                let u = self.zext32(x);
                let c = self.un(UnOp::Popc, u, ir::Ty::U32);
                if name == "count_ones" {
                    c
                } else {
                    self.bin(BinOp::Sub, c_u32(t.bits()), c)
                }
            }
            "reverse_bits" => {
                // `brev` works on 32/64-bit registers: narrower values are reversed in 32 bits and
                // shifted back down.
                let u = self.zext32(x);
                let ut = self.op_ty(u);
                let (brev, shift) = if ut == ir::Ty::U64 {
                    (&integer::brevll::ENTRY, 0)
                } else {
                    (&integer::brev::ENTRY, 32 - t.bits())
                };
                let r = Operand::Var(self.intrinsic(brev, &[u], sp)?[0]);
                let r = if shift > 0 {
                    self.bin(BinOp::Shr, r, c_u32(shift))
                } else {
                    r
                };
                self.cast(r, t)
            }
            "rotate_left" | "rotate_right" => {
                // `(x << r) | (x >> (bits - r))` with both amounts reduced modulo the width, in
                // the unsigned type (a logical right shift); ptxas makes it one funnel shift.
                let u = self.unsigned_of(x);
                let ut = self.op_ty(u);
                let mask = c_u32(t.bits() - 1);
                let r = self.bin(BinOp::And, a[0], mask);
                let back = self.bin(BinOp::Sub, c_u32(t.bits()), r);
                let back = self.bin(BinOp::And, back, mask);
                let (l, rr) = if name == "rotate_left" {
                    (r, back)
                } else {
                    (back, r)
                };
                let hi = self.bin(BinOp::Shl, u, l);
                let lo = self.bin(BinOp::Shr, u, rr);
                let v = self.bin(BinOp::Or, hi, lo);
                if ut == t {
                    v
                } else {
                    self.cast(v, t)
                }
            }
            "trailing_zeros" => {
                let u = self.unsigned_of(x);
                let ut = self.op_ty(u);
                let not = self.un(UnOp::Not, u, ut);
                let dec = self.bin(BinOp::Sub, u, c_int(ut, 1));
                let m = self.bin(BinOp::And, not, dec);
                let m = self.zext32(m);
                self.un(UnOp::Popc, m, ir::Ty::U32)
            }
            "abs" => self.float_un(UnOp::Abs, x),
            "sqrt" => self.float_un(UnOp::Sqrt, x),
            "floor" => self.float_un(UnOp::Floor, x),
            "ceil" => self.float_un(UnOp::Ceil, x),
            "round" => self.float_un(UnOp::Round, x),
            "trunc" => self.float_un(UnOp::Trunc, x),
            "fract" => {
                let tr = self.float_un(UnOp::Trunc, x);
                self.float_op(BinOp::Sub, x, tr)
            }
            "recip" => {
                let one = self.float_const(1.0, t);
                self.float_op(BinOp::Div, one, x)
            }
            "mul_add" => {
                let half = matches!(t, ir::Ty::F16 | ir::Ty::BF16);
                let ct = if half { ir::Ty::F32 } else { t };
                let (p, q, r) = (self.cast(x, ct), self.cast(a[0], ct), self.cast(a[1], ct));
                let dst = self.var(ct);
                self.emit(Inst::Fma {
                    dst,
                    a: p,
                    b: q,
                    c: r,
                });
                self.cast(Operand::Var(dst), t)
            }
            "powi" => self.powi(x, a[0]),
            "is_nan" => self.float_op(BinOp::Ne, x, x),
            "is_finite" | "is_infinite" => {
                let ax = self.float_un(UnOp::Abs, x);
                let inf = self.float_const(f64::INFINITY, t);
                let op = if name == "is_finite" {
                    BinOp::Lt
                } else {
                    BinOp::Eq
                };
                self.float_op(op, ax, inf)
            }
            "is_sign_negative" | "is_sign_positive" => {
                let st = match t.bits() {
                    16 => ir::Ty::I16,
                    32 => ir::Ty::I32,
                    _ => ir::Ty::I64,
                };
                let b = self.bitcast(x, st);
                let op = if name == "is_sign_negative" {
                    BinOp::Lt
                } else {
                    BinOp::Ge
                };
                self.bin(op, b, c_int(st, 0))
            }
            "signum" => {
                let st = match t.bits() {
                    16 => ir::Ty::I16,
                    32 => ir::Ty::I32,
                    _ => ir::Ty::I64,
                };
                let b = self.bitcast(x, st);
                let neg = self.bin(BinOp::Lt, b, c_int(st, 0));
                let (m1, p1) = (self.float_const(-1.0, t), self.float_const(1.0, t));
                let s = self.select(neg, m1, p1);
                let nan = self.float_op(BinOp::Ne, x, x);
                self.select(nan, x, s)
            }
            "div_ceil" => {
                // Rust: q + (r > 0) with the usual division-by-zero panic (unsigned only).
                let q = self.arith(ast::BinOp::Div, x, a[0], sp)?;
                let r = self.bin(BinOp::Rem, x, a[0]);
                let up = self.bin(BinOp::Ne, r, c_int(t, 0));
                let up = self.cast(up, t);
                self.bin(BinOp::Add, q, up)
            }
            "abs_diff" => {
                let gt = self.bin(BinOp::Gt, x, a[0]);
                let (d1, d2) = (self.bin(BinOp::Sub, x, a[0]), self.bin(BinOp::Sub, a[0], x));
                let d = self.select(gt, d1, d2);
                self.unsigned_of(d)
            }
            "saturating_add" | "saturating_sub" => {
                self.saturating(name == "saturating_add", x, a[0])
            }
            "to_f32" => self.cast(x, ir::Ty::F32),
            "to_f64" => self.cast(x, ir::Ty::F64),
            "is_power_of_two" => {
                // count_ones() == 1, as Rust (false for 0).
                let u = self.zext32(x);
                let c = self.un(UnOp::Popc, u, ir::Ty::U32);
                self.bin(BinOp::Eq, c, c_u32(1))
            }
            "to_bits" => {
                let ut = match t.bits() {
                    16 => ir::Ty::U16,
                    32 => ir::Ty::U32,
                    _ => ir::Ty::U64,
                };
                self.bitcast(x, ut)
            }
            _ => return Err(self.err(sp, format!("method `{name}` is not supported on `{xt}`"))),
        };
        Ok(Val::Scalar(r))
    }

    /// A function of the math library (`x.sin()`, `rsqrt(x)`, float `%`) on lowered float
    /// arguments of one type; `f16`/`bf16` compute in f32 and round once at the end.
    pub fn math_call(&mut self, name: &str, m: MathFn, args: &[Operand], sp: Span) -> R<Val> {
        // The float type is that of the first argument that is not one of its `i32`s.
        let is_int = |i: usize| m.int_args >> i & 1 == 1;
        let fi = (0..args.len()).find(|&i| !is_int(i)).unwrap_or(0);
        let t = self.op_ty(args[fi]);
        let ct = match t {
            ir::Ty::F16 | ir::Ty::BF16 => ir::Ty::F32,
            t => t,
        };
        let imp = match ct {
            ir::Ty::F32 => m.f32,
            ir::Ty::F64 => m.f64,
            _ => None,
        };
        let imp = imp.ok_or_else(|| {
            self.err(
                sp,
                format!("math function `{name}` is not available for `{t:?}`"),
            )
        })?;
        let a: Vec<Operand> = args
            .iter()
            .enumerate()
            .map(|(i, &x)| self.cast(x, m.int_arg(i).unwrap_or(ct)))
            .collect();
        let v = match imp {
            MathImpl::Entry(def) => results(&self.intrinsic(def, &a, sp)?),
            MathImpl::Device(f) => {
                let ast::Callable::Device(def) = f() else {
                    return Err(self.err(sp, format!("internal: `{name}` is not a device fn")));
                };
                let vals = a.into_iter().map(Val::Scalar).collect();
                self.inline_device_vals(def, vals, sp)?
            }
        };
        if ct == t {
            return Ok(v);
        }
        // f16/bf16: the float results rounded once to the argument type, `i32`s as they are.
        let int_ret = |i: usize| m.int_rets >> i & 1 == 1;
        Ok(match v {
            Val::Scalar(x) if int_ret(0) => Val::Scalar(x),
            Val::Scalar(x) => Val::Scalar(self.cast(x, t)),
            Val::Agg(xs) => {
                let mut out = Vec::new();
                for (i, x) in xs.into_iter().enumerate() {
                    match x {
                        Val::Scalar(x) if int_ret(i) => out.push(Val::Scalar(x)),
                        Val::Scalar(x) => out.push(Val::Scalar(self.cast(x, t))),
                        other => out.push(other),
                    }
                }
                Val::Agg(out)
            }
            other => other,
        })
    }

    /// `saturating_add` / `saturating_sub`: the wrapped result unless it overflowed, then the
    /// bound in the direction of the overflow.
    fn saturating(&mut self, add: bool, x: Operand, y: Operand) -> Operand {
        let t = self.op_ty(x);
        let op = if add { BinOp::Add } else { BinOp::Sub };
        let r = self.bin(op, x, y);
        let (min, max) = if t.is_signed() {
            let b = t.bits();
            (-(1i128 << (b - 1)), (1i128 << (b - 1)) - 1)
        } else {
            (0, (1i128 << t.bits()) - 1)
        };
        if !t.is_signed() {
            // Unsigned: overflow iff the result wrapped past the operand.
            let cmp = if add { BinOp::Lt } else { BinOp::Gt };
            let over = self.bin(cmp, r, x);
            let bound = c_int(t, if add { max } else { min });
            return self.select(over, bound, r);
        }
        // Signed: overflow iff the sign of the result differs from what the operands allow:
        // add: x and y agree in sign and r does not; sub: x and y differ and r differs from x.
        let xr = self.bin(BinOp::Xor, x, r);
        let other = if add {
            self.bin(BinOp::Xor, y, r)
        } else {
            self.bin(BinOp::Xor, x, y)
        };
        let both = self.bin(BinOp::And, xr, other);
        let over = self.bin(BinOp::Lt, both, c_int(t, 0));
        let neg = self.bin(BinOp::Lt, x, c_int(t, 0));
        let bound = self.select(neg, c_int(t, min), c_int(t, max));
        self.select(over, bound, r)
    }

    /// A float unary operation; half types go through f32 (exact for these operations).
    fn float_un(&mut self, op: UnOp, x: Operand) -> Operand {
        let t = self.op_ty(x);
        if matches!(t, ir::Ty::F16 | ir::Ty::BF16) {
            let w = self.cast(x, ir::Ty::F32);
            let r = self.un(op, w, ir::Ty::F32);
            return self.cast(r, t);
        }
        self.un(op, x, t)
    }

    /// The same bits as an unsigned integer of the same width.
    fn unsigned_of(&mut self, x: Operand) -> Operand {
        let ut = match self.op_ty(x) {
            ir::Ty::I8 => ir::Ty::U8,
            ir::Ty::I16 => ir::Ty::U16,
            ir::Ty::I32 => ir::Ty::U32,
            ir::Ty::I64 => ir::Ty::U64,
            t => t,
        };
        self.cast(x, ut)
    }

    /// Zero-extends to at least 32 bits (bit counting works on 32/64-bit registers).
    fn zext32(&mut self, x: Operand) -> Operand {
        let u = self.unsigned_of(x);
        if self.op_ty(u).bits() < 32 {
            self.cast(u, ir::Ty::U32)
        } else {
            u
        }
    }

    /// `x.pow(n)` for a constant `n`: square-and-multiply, unrolled, as `core` computes it: the
    /// base is squared only while bits of `n` remain, so with overflow checks a multiply
    /// overflows exactly when the result does.
    fn int_pow_const(&mut self, x: Operand, mut n: u32, sp: Span) -> Operand {
        let t = self.op_ty(x);
        let mut r = c_int(t, 1);
        let mut b = x;
        while n > 0 {
            if n & 1 == 1 {
                self.check_arith(BinOp::Mul, r, b, sp);
                r = self.bin(BinOp::Mul, r, b);
            }
            n >>= 1;
            if n > 0 {
                self.check_arith(BinOp::Mul, b, b, sp);
                b = self.bin(BinOp::Mul, b, b);
            }
        }
        r
    }

    fn int_pow_dyn(&mut self, x: Operand, n: Operand, sp: Span) -> Operand {
        let t = self.op_ty(x);
        let r = self.var(t);
        let b = self.var(t);
        let e = self.var(ir::Ty::U32);
        self.emit(Inst::Mov {
            dst: r,
            src: c_int(t, 1),
        });
        self.emit(Inst::Mov { dst: b, src: x });
        self.emit(Inst::Mov { dst: e, src: n });
        let id = self.k.new_loop();
        self.open();
        let done = self.bin(BinOp::Eq, Operand::Var(e), c_u32(0));
        self.open();
        self.emit(Inst::Break(id));
        let brk = self.close();
        self.emit(Inst::If {
            cond: done,
            then: brk,
            els: ir::Block::default(),
        });
        let bit = self.bin(BinOp::And, Operand::Var(e), c_u32(1));
        let odd = self.bin(BinOp::Ne, bit, c_u32(0));
        self.open();
        self.check_arith(BinOp::Mul, Operand::Var(r), Operand::Var(b), sp);
        let m = self.bin(BinOp::Mul, Operand::Var(r), Operand::Var(b));
        self.emit(Inst::Mov { dst: r, src: m });
        let then = self.close();
        self.emit(Inst::If {
            cond: odd,
            then,
            els: ir::Block::default(),
        });
        let sh = self.bin(BinOp::Shr, Operand::Var(e), c_u32(1));
        self.emit(Inst::Mov { dst: e, src: sh });
        if self.overflow_checks() {
            // The last square is never used (`core` returns before it), so it may not panic.
            let ovf = self.bin(BinOp::MulOverflows, Operand::Var(b), Operand::Var(b));
            let more = self.bin(BinOp::Ne, Operand::Var(e), c_u32(0));
            let both = self.bin(BinOp::And, ovf, more);
            let site = self.site(PanicKind::Overflow(ir::OverflowOp::Mul), sp);
            self.panic_if(both, site);
        }
        let sq = self.bin(BinOp::Mul, Operand::Var(b), Operand::Var(b));
        self.emit(Inst::Mov { dst: b, src: sq });
        let body = self.close();
        self.emit(Inst::Loop { id, body });
        Operand::Var(r)
    }

    /// `x.powi(n)` with the algorithm of compiler-rt's `__powisf2` / `__powidf2`, so results
    /// match the host bit for bit; unrolled when `n` is a constant.
    fn powi(&mut self, x: Operand, n: Operand) -> Operand {
        let t = self.op_ty(x);
        if let Operand::Const(c) = n {
            let n0 = c.as_i128() as i32;
            let mut b = n0;
            let mut r = self.float_const(1.0, t);
            let mut a = x;
            loop {
                if b & 1 != 0 {
                    r = self.float_op(BinOp::Mul, r, a);
                }
                b /= 2;
                if b == 0 {
                    break;
                }
                a = self.float_op(BinOp::Mul, a, a);
            }
            if n0 < 0 {
                let one = self.float_const(1.0, t);
                r = self.float_op(BinOp::Div, one, r);
            }
            return r;
        }
        let r = self.var(t);
        let a = self.var(t);
        let b = self.var(ir::Ty::I32);
        let one = self.float_const(1.0, t);
        self.emit(Inst::Mov { dst: r, src: one });
        self.emit(Inst::Mov { dst: a, src: x });
        self.emit(Inst::Mov { dst: b, src: n });
        let id = self.k.new_loop();
        self.open();
        let bit = self.bin(BinOp::And, Operand::Var(b), Operand::Const(Const::i32(1)));
        let odd = self.bin(BinOp::Ne, bit, Operand::Const(Const::i32(0)));
        self.open();
        let m = self.float_op(BinOp::Mul, Operand::Var(r), Operand::Var(a));
        self.emit(Inst::Mov { dst: r, src: m });
        let then = self.close();
        self.emit(Inst::If {
            cond: odd,
            then,
            els: ir::Block::default(),
        });
        let half = self.var(ir::Ty::I32);
        self.emit(Inst::Binary {
            dst: half,
            op: BinOp::Div,
            a: Operand::Var(b),
            b: Operand::Const(Const::i32(2)),
        });
        self.emit(Inst::Mov {
            dst: b,
            src: Operand::Var(half),
        });
        let done = self.bin(BinOp::Eq, Operand::Var(b), Operand::Const(Const::i32(0)));
        self.open();
        self.emit(Inst::Break(id));
        let brk = self.close();
        self.emit(Inst::If {
            cond: done,
            then: brk,
            els: ir::Block::default(),
        });
        let sq = self.float_op(BinOp::Mul, Operand::Var(a), Operand::Var(a));
        self.emit(Inst::Mov { dst: a, src: sq });
        let body = self.close();
        self.emit(Inst::Loop { id, body });
        let neg = self.bin(BinOp::Lt, n, Operand::Const(Const::i32(0)));
        let one = self.float_const(1.0, t);
        let inv = self.float_op(BinOp::Div, one, Operand::Var(r));
        self.select(neg, inv, Operand::Var(r))
    }
}
