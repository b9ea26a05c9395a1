//! A readable, stable text form of the IR (`cargo xtask ptx --stage ir|opt`, the passes' tests
//! and filetests); [`crate::parse`] reads it back.
//!
//! The format is line oriented and deterministic: a header listing parameters, variables with their
//! types, local arrays, shared allocations and panic sites, then the structured body indented by two
//! spaces per nesting level. Constants carry their type as a suffix (`4u32`, `1.5f32`, `true`) so a
//! line can be read without the variable table; floats that do not round-trip through `{:?}` (NaNs
//! with payloads) print their bits instead.

use std::fmt::{self, Write};

use crate::ir::{BinOp, Block, Const, Inst, Kernel, Operand, ParamKind, Space, Ty, UnOp, Unroll};

/// Lower-case type name as in Rust (`u32`, `f16`, `bool`).
pub fn ty_name(t: Ty) -> &'static str {
    t.rust_name()
}

/// A constant with its type suffix.
pub fn const_text(c: Const) -> String {
    let name = ty_name(c.ty);
    match c.ty {
        Ty::Bool => (c.bits != 0).to_string(),
        Ty::F32 => {
            let v = f32::from_bits(c.bits as u32);
            if v.is_nan() {
                format!("{name}(0x{:08x})", c.bits as u32)
            } else {
                format!("{v:?}{name}")
            }
        }
        Ty::F64 => {
            let v = f64::from_bits(c.bits);
            if v.is_nan() {
                format!("{name}(0x{:016x})", c.bits)
            } else {
                format!("{v:?}{name}")
            }
        }
        Ty::F16 | Ty::BF16 => format!("{name}(0x{:04x})", c.bits as u16),
        t if t.is_signed() => format!("{}{name}", c.as_i128()),
        _ => format!("{}{name}", c.bits),
    }
}

pub fn operand_text(o: Operand) -> String {
    match o {
        Operand::Var(v) => v.to_string(),
        Operand::Const(c) => const_text(c),
    }
}

pub(crate) fn unop_name(op: UnOp) -> &'static str {
    match op {
        UnOp::Neg => "neg",
        UnOp::Not => "not",
        UnOp::Abs => "abs",
        UnOp::Sqrt => "sqrt",
        UnOp::Popc => "popc",
        UnOp::Clz => "clz",
        UnOp::Floor => "floor",
        UnOp::Ceil => "ceil",
        UnOp::Trunc => "trunc",
        UnOp::Round => "round",
    }
}

pub(crate) fn binop_name(op: BinOp) -> &'static str {
    match op {
        BinOp::Add => "add",
        BinOp::Sub => "sub",
        BinOp::Mul => "mul",
        BinOp::Div => "div",
        BinOp::Rem => "rem",
        BinOp::And => "and",
        BinOp::Or => "or",
        BinOp::Xor => "xor",
        BinOp::Shl => "shl",
        BinOp::Shr => "shr",
        BinOp::Min => "min",
        BinOp::Max => "max",
        BinOp::MulHi => "mulhi",
        BinOp::AddOverflows => "add_ovf",
        BinOp::SubOverflows => "sub_ovf",
        BinOp::MulOverflows => "mul_ovf",
        BinOp::Eq => "eq",
        BinOp::Ne => "ne",
        BinOp::Lt => "lt",
        BinOp::Le => "le",
        BinOp::Gt => "gt",
        BinOp::Ge => "ge",
    }
}

fn space_name(s: Space) -> &'static str {
    match s {
        Space::Global => "global",
        Space::Shared => "shared",
        Space::Local => "local",
        Space::Cluster => "cluster",
    }
}

fn unroll_text(u: Unroll) -> String {
    match u {
        Unroll::Auto => String::new(),
        Unroll::Full => " unroll(full)".into(),
        Unroll::By(n) => format!(" unroll({n})"),
        Unroll::Never => " unroll(never)".into(),
    }
}

/// Prints one block at `depth` levels of indentation (two spaces each), one instruction per line.
pub fn write_block(k: &Kernel, b: &Block, depth: usize, out: &mut String) {
    for inst in &b.0 {
        write_inst(k, inst, depth, out);
    }
}

/// The body alone, indented from column 0: what the passes' tests compare.
pub fn body_text(k: &Kernel) -> String {
    let mut s = String::new();
    write_block(k, &k.body, 0, &mut s);
    s
}

fn ty_of(k: &Kernel, o: Operand) -> &'static str {
    match o {
        Operand::Var(v) if (v.0 as usize) < k.vars.len() => ty_name(k.ty(v)),
        Operand::Var(_) => "?",
        Operand::Const(c) => ty_name(c.ty),
    }
}

fn var_ty(k: &Kernel, v: crate::ir::Var) -> &'static str {
    ty_of(k, Operand::Var(v))
}

/// Prints one instruction (and, for structured instructions, their nested blocks).
pub fn write_inst(k: &Kernel, inst: &Inst, depth: usize, out: &mut String) {
    let pad = "  ".repeat(depth);
    let o = operand_text;
    // Writing to a String cannot fail.
    let _ = match inst {
        Inst::Mov { dst, src } => writeln!(out, "{pad}{dst} = mov {}", o(*src)),
        Inst::Unary { dst, op, a } => writeln!(
            out,
            "{pad}{dst} = {}.{} {}",
            unop_name(*op),
            ty_of(k, *a),
            o(*a)
        ),
        Inst::Binary { dst, op, a, b } => writeln!(
            out,
            "{pad}{dst} = {}.{} {}, {}",
            binop_name(*op),
            ty_of(k, *a),
            o(*a),
            o(*b)
        ),
        Inst::Fma { dst, a, b, c } => writeln!(
            out,
            "{pad}{dst} = fma.{} {}, {}, {}",
            var_ty(k, *dst),
            o(*a),
            o(*b),
            o(*c)
        ),
        Inst::Cast { dst, a } => writeln!(
            out,
            "{pad}{dst} = cast.{}.{} {}",
            var_ty(k, *dst),
            ty_of(k, *a),
            o(*a)
        ),
        Inst::Bitcast { dst, a } => writeln!(
            out,
            "{pad}{dst} = bitcast.{}.{} {}",
            var_ty(k, *dst),
            ty_of(k, *a),
            o(*a)
        ),
        Inst::Select { dst, cond, a, b } => writeln!(
            out,
            "{pad}{dst} = select {}, {}, {}",
            o(*cond),
            o(*a),
            o(*b)
        ),
        Inst::Load {
            dst,
            space,
            addr,
            readonly,
        } => writeln!(
            out,
            "{pad}{dst} = load.{}{}.{} [{}]",
            space_name(*space),
            if *readonly { ".ro" } else { "" },
            var_ty(k, *dst),
            o(*addr)
        ),
        Inst::LoadVec {
            dsts,
            space,
            addr,
            readonly,
        } => writeln!(
            out,
            "{pad}{{{}}} = load.{}{}.v{}.{} [{}]",
            dsts.iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join(", "),
            space_name(*space),
            if *readonly { ".ro" } else { "" },
            dsts.len(),
            dsts.first().map(|d| var_ty(k, *d)).unwrap_or_default(),
            o(*addr)
        ),
        Inst::StoreVec { space, addr, vals } => writeln!(
            out,
            "{pad}store.{}.v{}.{} [{}], {{{}}}",
            space_name(*space),
            vals.len(),
            vals.first().map(|v| ty_of(k, *v)).unwrap_or_default(),
            o(*addr),
            vals.iter().map(|v| o(*v)).collect::<Vec<_>>().join(", ")
        ),
        Inst::Store { space, addr, val } => writeln!(
            out,
            "{pad}store.{}.{} [{}], {}",
            space_name(*space),
            ty_of(k, *val),
            o(*addr),
            o(*val)
        ),
        Inst::SharedAddr { dst, alloc } => writeln!(out, "{pad}{dst} = shared_addr s{}", alloc.0),
        Inst::DynSharedAddr { dst } => writeln!(out, "{pad}{dst} = dyn_shared_addr"),
        Inst::DynSharedBytes { dst } => writeln!(out, "{pad}{dst} = dyn_shared_bytes"),
        Inst::ArrayLoad { dst, array, idx } => {
            writeln!(out, "{pad}{dst} = array_load a{}[{}]", array.0, o(*idx))
        }
        Inst::ArrayStore { array, idx, val } => {
            writeln!(
                out,
                "{pad}array_store a{}[{}], {}",
                array.0,
                o(*idx),
                o(*val)
            )
        }
        Inst::Intrinsic { id, dsts, args } => {
            let name = id.name();
            let dsts: Vec<String> = dsts.iter().map(|d| d.to_string()).collect();
            let args: Vec<String> = args.iter().map(|a| o(*a)).collect();
            if dsts.is_empty() {
                writeln!(out, "{pad}call {name}({})", args.join(", "))
            } else {
                writeln!(
                    out,
                    "{pad}{} = call {name}({})",
                    dsts.join(", "),
                    args.join(", ")
                )
            }
        }
        Inst::BoundsCheck { idx, len, site } => writeln!(
            out,
            "{pad}bounds_check.{} {}, {} @site{}",
            ty_of(k, *idx),
            o(*idx),
            o(*len),
            site.0
        ),
        Inst::Panic { site, a, b } => {
            writeln!(out, "{pad}panic @site{} {}, {}", site.0, o(*a), o(*b))
        }
        Inst::Print { format, args } => {
            let args: Vec<String> = args.iter().map(|a| o(*a)).collect();
            writeln!(out, "{pad}printf {format:?} [{}]", args.join(", "))
        }
        Inst::If { cond, then, els } => {
            let _ = writeln!(out, "{pad}if {} {{", o(*cond));
            write_block(k, then, depth + 1, out);
            if !els.0.is_empty() {
                let _ = writeln!(out, "{pad}}} else {{");
                write_block(k, els, depth + 1, out);
            }
            writeln!(out, "{pad}}}")
        }
        Inst::For {
            id,
            iv,
            start,
            end,
            inclusive,
            step,
            reverse,
            body,
            unroll,
        } => {
            let _ = writeln!(
                out,
                "{pad}for L{} {iv} in {}{}{} step {}{}{} {{",
                id.0,
                o(*start),
                if *inclusive { "..=" } else { ".." },
                o(*end),
                o(*step),
                if *reverse { " rev" } else { "" },
                unroll_text(*unroll)
            );
            write_block(k, body, depth + 1, out);
            writeln!(out, "{pad}}}")
        }
        Inst::Loop { id, body } => {
            let _ = writeln!(out, "{pad}loop L{} {{", id.0);
            write_block(k, body, depth + 1, out);
            writeln!(out, "{pad}}}")
        }
        Inst::Break(id) => writeln!(out, "{pad}break L{}", id.0),
        Inst::Continue(id) => writeln!(out, "{pad}continue L{}", id.0),
        Inst::Return => writeln!(out, "{pad}return"),
        Inst::Loc(l) => writeln!(out, "{pad}loc {}:{}:{}", l.file, l.line, l.col),
    };
}

impl fmt::Display for Kernel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let k = self;
        writeln!(f, "kernel {} ({})", k.name, k.display_name)?;
        for p in &k.params {
            let kind = match p.kind {
                ParamKind::Scalar => "scalar".to_string(),
                ParamKind::Slice {
                    readonly,
                    elem_bytes,
                    ptr_align,
                } => format!(
                    "{} elem={elem_bytes}{}",
                    if readonly { "slice" } else { "slice_mut" },
                    if ptr_align > 1 {
                        format!(" ptr_align={ptr_align}")
                    } else {
                        String::new()
                    }
                ),
                ParamKind::Struct => "struct".to_string(),
                ParamKind::GridConstant { writable } => if writable {
                    "grid_constant_mut"
                } else {
                    "grid_constant"
                }
                .to_string(),
            };
            let pieces: Vec<String> = p
                .pieces
                .iter()
                .map(|(off, v)| format!("+{off}: {v}"))
                .collect();
            writeln!(
                f,
                "  param {}: {kind} size={} align={} {{{}}}",
                p.name,
                p.size,
                p.align,
                pieces.join(", ")
            )?;
        }
        let a = &k.attrs;
        if a.max_threads.is_some()
            || a.min_blocks.is_some()
            || a.max_registers.is_some()
            || a.block_dim.is_some()
            || a.cluster_dims.is_some()
        {
            let mut parts = Vec::new();
            if let Some([x, y, z]) = a.block_dim {
                parts.push(format!("block_dim=({x},{y},{z})"));
            }
            if let Some([x, y, z]) = a.cluster_dims {
                parts.push(format!("cluster_dims=({x},{y},{z})"));
            }
            if let Some(n) = a.max_threads {
                parts.push(format!("max_threads={n}"));
            }
            if let Some(n) = a.min_blocks {
                parts.push(format!("min_blocks={n}"));
            }
            if let Some(n) = a.max_registers {
                parts.push(format!("max_registers={n}"));
            }
            writeln!(f, "  attrs {}", parts.join(" "))?;
        }
        for (i, t) in k.vars.iter().enumerate() {
            match k.var_names.get(i).filter(|n| !n.is_empty()) {
                Some(n) => writeln!(f, "  var v{i}: {} ; {n}", ty_name(*t))?,
                None => writeln!(f, "  var v{i}: {}", ty_name(*t))?,
            }
        }
        for (i, arr) in k.arrays.iter().enumerate() {
            writeln!(f, "  array a{i}: [{}; {}]", ty_name(arr.elem), arr.len)?;
        }
        for (i, s) in k.shared.iter().enumerate() {
            writeln!(
                f,
                "  shared s{i} {:?}: {} bytes align {}",
                s.name, s.bytes, s.align
            )?;
        }
        if k.uses_dyn_shared {
            writeln!(f, "  dyn_shared")?;
        }
        for (i, s) in k.panic_sites.iter().enumerate() {
            writeln!(
                f,
                "  site{i}: {:?} at {}:{}:{}",
                s.kind, s.file, s.line, s.col
            )?;
        }
        writeln!(f, "{{")?;
        let mut body = String::new();
        write_block(k, &k.body, 1, &mut body);
        f.write_str(&body)?;
        writeln!(f, "}}")
    }
}
