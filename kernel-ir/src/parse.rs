//! Reads the IR text that [`crate::print`] writes (`impl Display for Kernel`) back into a
//! [`Kernel`]: `print(parse(print(k))) == print(k)` for every kernel. Pass tests are written
//! as IR text in and IR text out (`kernel-compiler/tests/filetests`).
//!
//! Blank lines and lines starting with `;` are skipped, and indentation is free (nesting follows
//! the braces). Types printed for the reader's sake (`add.u32`, `load.global.f32`,
//! `cast.u64.u32`) are checked against the variable table, so a hand-written test with a
//! mistyped operand fails here rather than in a pass. Intrinsics are named by their table entry,
//! which this crate does not hold: the caller resolves names (`kernel_compiler::parse_ir`
//! passes the device library's table).

use std::collections::HashSet;
use std::fmt;
use std::sync::Mutex;

use crate::intrinsic::IntrinsicId;
use crate::ir::{
    ArrayId, BinOp, Block, Const, Inst, Kernel, KernelAttrs, LocalArray, LoopId, Operand,
    OverflowOp, PanicKind, PanicSite, Param, ParamKind, SharedAlloc, SharedId, SiteId, SourceLoc,
    Space, Ty, UnOp, Unroll, Var,
};

/// A line that does not read as IR.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based line number in the text.
    pub line: usize,
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for ParseError {}

type Res<T> = Result<T, String>;

/// Parses one kernel as `print` writes it; `intrinsic` finds an intrinsic's entry by name.
pub fn parse(
    text: &str,
    intrinsic: &dyn Fn(&str) -> Option<IntrinsicId>,
) -> Result<Kernel, ParseError> {
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .map(|(n, l)| (n + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with(';'))
        .collect();
    let mut p = Parser {
        lines,
        at: 0,
        intrinsic,
        k: Kernel {
            name: String::new(),
            display_name: String::new(),
            params: Vec::new(),
            vars: Vec::new(),
            var_names: Vec::new(),
            arrays: Vec::new(),
            shared: Vec::new(),
            uses_dyn_shared: false,
            panic_sites: Vec::new(),
            body: Block::default(),
            attrs: KernelAttrs::default(),
            next_loop: 0,
        },
    };
    let result = p.kernel();
    // The line the error is about is the last one read.
    let line = p.lines.get(p.at.saturating_sub(1)).map_or(1, |l| l.0);
    result.map_err(|message| ParseError { line, message })?;
    let mut next_loop = 0;
    crate::visit::walk(&p.k.body, &mut |i| {
        if let Inst::For { id, .. } | Inst::Loop { id, .. } | Inst::Break(id) | Inst::Continue(id) =
            i
        {
            next_loop = next_loop.max(id.0 + 1);
        }
    });
    p.k.next_loop = next_loop;
    Ok(p.k)
}

struct Parser<'a> {
    lines: Vec<(usize, &'a str)>,
    at: usize,
    intrinsic: &'a dyn Fn(&str) -> Option<IntrinsicId>,
    k: Kernel,
}

/// How a block's last line ended it.
#[derive(PartialEq)]
enum End {
    Brace,
    Else,
}

impl<'a> Parser<'a> {
    fn next(&mut self) -> Res<&'a str> {
        let l = self.lines.get(self.at).ok_or("unexpected end of text")?.1;
        self.at += 1;
        Ok(l)
    }

    fn kernel(&mut self) -> Res<()> {
        let head = self.next()?;
        let rest = head
            .strip_prefix("kernel ")
            .ok_or("expected `kernel NAME (DISPLAY)`")?;
        let (name, display) = rest
            .split_once(" (")
            .and_then(|(n, d)| Some((n, d.strip_suffix(')')?)))
            .ok_or("expected `kernel NAME (DISPLAY)`")?;
        self.k.name = name.to_string();
        self.k.display_name = display.to_string();
        let mut names = Vec::new();
        loop {
            let l = self.next()?;
            if l == "{" {
                break;
            }
            if let Some(r) = l.strip_prefix("param ") {
                let p = self.param(r)?;
                self.k.params.push(p);
            } else if let Some(r) = l.strip_prefix("attrs ") {
                self.attrs(r)?;
            } else if let Some(r) = l.strip_prefix("var ") {
                let (v, rest) = r.split_once(": ").ok_or("expected `var vN: TYPE`")?;
                if var(v)?.0 as usize != self.k.vars.len() {
                    return Err(format!("expected v{} next", self.k.vars.len()));
                }
                let (ty, name) = match rest.split_once(" ; ") {
                    Some((t, n)) => (t, n),
                    None => (rest, ""),
                };
                self.k.vars.push(ty_named(ty)?);
                names.push(name.to_string());
            } else if let Some(r) = l.strip_prefix("array ") {
                let (a, rest) = r
                    .split_once(": ")
                    .ok_or("expected `array aN: [TYPE; LEN]`")?;
                if index(a, "a")? as usize != self.k.arrays.len() {
                    return Err(format!("expected a{} next", self.k.arrays.len()));
                }
                let inner = rest
                    .strip_prefix('[')
                    .and_then(|r| r.strip_suffix(']'))
                    .and_then(|r| r.split_once("; "))
                    .ok_or("expected `[TYPE; LEN]`")?;
                self.k.arrays.push(LocalArray {
                    elem: ty_named(inner.0)?,
                    len: number(inner.1)?,
                });
            } else if let Some(r) = l.strip_prefix("shared ") {
                let (s, rest) = r
                    .split_once(' ')
                    .ok_or("expected `shared sN \"NAME\": ...`")?;
                if index(s, "s")? as usize != self.k.shared.len() {
                    return Err(format!("expected s{} next", self.k.shared.len()));
                }
                let (name, rest) = debug_string(rest)?;
                let rest = rest
                    .strip_prefix(": ")
                    .ok_or("expected `: N bytes align N`")?;
                let (bytes, align) = rest
                    .split_once(" bytes align ")
                    .ok_or("expected `N bytes align N`")?;
                self.k.shared.push(SharedAlloc {
                    name,
                    bytes: number(bytes)?,
                    align: number(align)?,
                });
            } else if l == "dyn_shared" {
                self.k.uses_dyn_shared = true;
            } else if let Some(r) = l.strip_prefix("site") {
                let (n, rest) = r
                    .split_once(": ")
                    .ok_or("expected `siteN: KIND at FILE:LINE:COL`")?;
                if number::<usize>(n)? != self.k.panic_sites.len() {
                    return Err(format!("expected site{} next", self.k.panic_sites.len()));
                }
                let (kind, at) = rest
                    .rsplit_once(" at ")
                    .ok_or("expected `KIND at FILE:LINE:COL`")?;
                let kind = match kind {
                    "Bounds" => PanicKind::Bounds,
                    "DivByZero" => PanicKind::DivByZero,
                    "DivOverflow" => PanicKind::DivOverflow,
                    "RemByZero" => PanicKind::RemByZero,
                    "RemOverflow" => PanicKind::RemOverflow,
                    "Overflow(Add)" => PanicKind::Overflow(OverflowOp::Add),
                    "Overflow(Sub)" => PanicKind::Overflow(OverflowOp::Sub),
                    "Overflow(Mul)" => PanicKind::Overflow(OverflowOp::Mul),
                    "Overflow(Neg)" => PanicKind::Overflow(OverflowOp::Neg),
                    "Overflow(Shl)" => PanicKind::Overflow(OverflowOp::Shl),
                    "Overflow(Shr)" => PanicKind::Overflow(OverflowOp::Shr),
                    k => {
                        let inner = k
                            .strip_prefix("Explicit(")
                            .and_then(|k| k.strip_suffix(')'))
                            .ok_or_else(|| format!("unknown panic kind `{k}`"))?;
                        let (msg, rest) = debug_string(inner)?;
                        if !rest.is_empty() {
                            return Err(format!("unexpected `{rest}`"));
                        }
                        PanicKind::Explicit(msg)
                    }
                };
                let (file, line, col) = position(at)?;
                self.k.panic_sites.push(PanicSite {
                    kind,
                    file: file.to_string(),
                    line,
                    col,
                });
            } else {
                return Err(format!("unexpected header line `{l}`"));
            }
        }
        if names.iter().any(|n| !n.is_empty()) {
            self.k.var_names = names;
        }
        for p in &self.k.params {
            for (_, v) in &p.pieces {
                self.var(&v.to_string())?;
            }
        }
        let (body, end) = self.block()?;
        if end != End::Brace {
            return Err("`} else {` outside an `if`".into());
        }
        self.k.body = body;
        if self.at < self.lines.len() {
            return Err("text after the kernel's closing brace".into());
        }
        Ok(())
    }

    fn param(&self, r: &str) -> Res<Param> {
        let (name, rest) = r
            .split_once(": ")
            .ok_or("expected `param NAME: KIND ...`")?;
        let (kind, rest) = rest.split_once(" size=").ok_or("expected ` size=`")?;
        let kind = match kind {
            "scalar" => ParamKind::Scalar,
            "struct" => ParamKind::Struct,
            "grid_constant" => ParamKind::GridConstant { writable: false },
            "grid_constant_mut" => ParamKind::GridConstant { writable: true },
            k => {
                let (which, elem) = k
                    .split_once(" elem=")
                    .ok_or_else(|| format!("unknown parameter kind `{k}`"))?;
                let readonly = match which {
                    "slice" => true,
                    "slice_mut" => false,
                    _ => return Err(format!("unknown parameter kind `{k}`")),
                };
                let (elem, ptr_align) = match elem.split_once(" ptr_align=") {
                    Some((e, a)) => (e, number::<u32>(a)?),
                    None => (elem, 1u32),
                };
                if !ptr_align.is_power_of_two() {
                    return Err(format!("`ptr_align={ptr_align}` is not a power of two"));
                }
                ParamKind::Slice {
                    readonly,
                    elem_bytes: number(elem)?,
                    ptr_align,
                }
            }
        };
        let (size, rest) = rest.split_once(" align=").ok_or("expected ` align=`")?;
        let (align, pieces) = rest.split_once(" {").ok_or("expected ` {pieces}`")?;
        let pieces = pieces.strip_suffix('}').ok_or("expected `}`")?;
        let pieces = list(pieces)
            .map(|p| {
                let (off, v) = p
                    .strip_prefix('+')
                    .and_then(|p| p.split_once(": "))
                    .ok_or_else(|| format!("expected `+OFFSET: vN`, found `{p}`"))?;
                // Checked once the variables are declared (they are printed after).
                Ok((number(off)?, var(v)?))
            })
            .collect::<Res<_>>()?;
        Ok(Param {
            name: name.to_string(),
            size: number(size)?,
            align: number(align)?,
            kind,
            pieces,
        })
    }

    fn attrs(&mut self, r: &str) -> Res<()> {
        for part in r.split(' ') {
            let (key, val) = part.split_once('=').ok_or("expected `key=value`")?;
            let a = &mut self.k.attrs;
            match key {
                "block_dim" => {
                    let dims: Vec<u32> = val
                        .strip_prefix('(')
                        .and_then(|v| v.strip_suffix(')'))
                        .ok_or("expected `(x,y,z)`")?
                        .split(',')
                        .map(number)
                        .collect::<Res<_>>()?;
                    a.block_dim = Some(dims.try_into().map_err(|_| "expected three dimensions")?);
                }
                "cluster_dims" => {
                    let dims: Vec<u32> = val
                        .strip_prefix('(')
                        .and_then(|v| v.strip_suffix(')'))
                        .ok_or("expected `(x,y,z)`")?
                        .split(',')
                        .map(number)
                        .collect::<Res<_>>()?;
                    a.cluster_dims =
                        Some(dims.try_into().map_err(|_| "expected three dimensions")?);
                }
                "max_threads" => a.max_threads = Some(number(val)?),
                "min_blocks" => a.min_blocks = Some(number(val)?),
                "max_registers" => a.max_registers = Some(number(val)?),
                _ => return Err(format!("unknown attribute `{key}`")),
            }
        }
        Ok(())
    }

    /// The instructions up to the closing `}` (or `} else {`) of the current block.
    fn block(&mut self) -> Res<(Block, End)> {
        let mut out = Vec::new();
        loop {
            let l = self.next()?;
            match l {
                "}" => return Ok((Block(out), End::Brace)),
                "} else {" => return Ok((Block(out), End::Else)),
                _ => {
                    let inst = self.inst(l)?;
                    out.push(inst);
                }
            }
        }
    }

    /// A nested block that must end with a plain `}`.
    fn closed_block(&mut self) -> Res<Block> {
        match self.block()? {
            (b, End::Brace) => Ok(b),
            (_, End::Else) => Err("`} else {` outside an `if`".into()),
        }
    }

    fn var(&self, s: &str) -> Res<Var> {
        let v = var(s)?;
        if v.0 as usize >= self.k.vars.len() {
            return Err(format!("`{s}` is not declared"));
        }
        Ok(v)
    }

    fn op(&self, s: &str) -> Res<Operand> {
        if s.starts_with('v') && s[1..].bytes().all(|b| b.is_ascii_digit()) {
            return self.var(s).map(Operand::Var);
        }
        constant(s).map(Operand::Const)
    }

    fn ty(&self, o: Operand) -> Ty {
        self.k.operand_ty(o)
    }

    /// Checks a printed type against the operand's.
    fn typed(&self, o: Operand, printed: &str) -> Res<()> {
        let t = ty_named(printed)?;
        if self.ty(o) != t {
            return Err(format!(
                "`{}` is {}, not {printed}",
                crate::print::operand_text(o),
                self.ty(o).rust_name()
            ));
        }
        Ok(())
    }

    fn ops<const N: usize>(&self, s: &str) -> Res<[Operand; N]> {
        let v: Vec<Operand> = list(s).map(|o| self.op(o)).collect::<Res<_>>()?;
        v.try_into()
            .map_err(|_| format!("expected {N} operands in `{s}`"))
    }

    fn inst(&mut self, l: &str) -> Res<Inst> {
        let word = l.split(' ').next().unwrap_or_default();
        let rest = l.get(word.len() + 1..).unwrap_or_default();
        Ok(match word {
            "return" => Inst::Return,
            "break" => Inst::Break(LoopId(index(rest, "L")?)),
            "continue" => Inst::Continue(LoopId(index(rest, "L")?)),
            "loc" => {
                let (file, line, col) = position(rest)?;
                Inst::Loc(SourceLoc {
                    file: intern(file),
                    line,
                    col,
                })
            }
            "if" => {
                let cond = self.op(rest.strip_suffix(" {").ok_or("expected `if COND {`")?)?;
                let (then, end) = self.block()?;
                let els = match end {
                    End::Else => self.closed_block()?,
                    End::Brace => Block::default(),
                };
                Inst::If { cond, then, els }
            }
            "loop" => {
                let id = LoopId(index(
                    rest.strip_suffix(" {").ok_or("expected `loop LN {`")?,
                    "L",
                )?);
                let body = self.closed_block()?;
                Inst::Loop { id, body }
            }
            "for" => self.for_(rest)?,
            "array_store" => {
                let (target, val) = rest.split_once("], ").ok_or("expected `aN[IDX], VAL`")?;
                let (array, idx) = target.split_once('[').ok_or("expected `aN[IDX]`")?;
                Inst::ArrayStore {
                    array: self.array(array)?,
                    idx: self.op(idx)?,
                    val: self.op(val)?,
                }
            }
            "call" => self.call(rest, Vec::new())?,
            "panic" => {
                let (site, args) = rest.split_once(' ').ok_or("expected `panic @siteN A, B`")?;
                let [a, b] = self.ops(args)?;
                Inst::Panic {
                    site: self.site(site)?,
                    a,
                    b,
                }
            }
            "printf" => {
                let (format, rest) = debug_string(rest)?;
                let args = rest
                    .strip_prefix(" [")
                    .and_then(|r| r.strip_suffix(']'))
                    .ok_or("expected ` [ARGS]` after the format")?;
                Inst::Print {
                    format,
                    args: list(args).map(|a| self.op(a)).collect::<Res<_>>()?,
                }
            }
            w if w.starts_with("store.") && w.split('.').count() == 4 => {
                let parts: Vec<&str> = w.split('.').collect();
                let (space, n, ty) = (parts[1], parts[2], parts[3]);
                let (addr, vals) = rest
                    .strip_prefix('[')
                    .and_then(|r| r.split_once("], {"))
                    .and_then(|(a, v)| Some((a, v.strip_suffix('}')?)))
                    .ok_or("expected `[ADDR], {VALS}`")?;
                let vals: Vec<Operand> = list(vals).map(|v| self.op(v)).collect::<Res<_>>()?;
                if n != format!("v{}", vals.len()) {
                    return Err(format!("`{n}` does not match {} values", vals.len()));
                }
                for v in &vals {
                    self.typed(*v, ty)?;
                }
                Inst::StoreVec {
                    space: space_named(space)?,
                    addr: self.op(addr)?,
                    vals,
                }
            }
            w if w.starts_with("store.") => {
                let (space, ty) = w["store.".len()..]
                    .split_once('.')
                    .ok_or("expected `store.SPACE.TYPE`")?;
                let (addr, val) = rest
                    .strip_prefix('[')
                    .and_then(|r| r.split_once("], "))
                    .ok_or("expected `[ADDR], VAL`")?;
                let val = self.op(val)?;
                self.typed(val, ty)?;
                Inst::Store {
                    space: space_named(space)?,
                    addr: self.op(addr)?,
                    val,
                }
            }
            w if w.starts_with("bounds_check.") => {
                let (ops, site) = rest.split_once(" @").ok_or("expected `IDX, LEN @siteN`")?;
                let [idx, len] = self.ops(ops)?;
                self.typed(idx, &w["bounds_check.".len()..])?;
                Inst::BoundsCheck {
                    idx,
                    len,
                    site: self.site(&format!("@{site}"))?,
                }
            }
            _ => {
                let (lhs, rhs) = l
                    .split_once(" = ")
                    .ok_or_else(|| format!("unknown instruction `{l}`"))?;
                self.assignment(lhs, rhs)?
            }
        })
    }

    fn for_(&mut self, rest: &str) -> Res<Inst> {
        let r = rest.strip_suffix(" {").ok_or("expected `for ... {`")?;
        let (id, r) = r.split_once(' ').ok_or("expected `for LN vN in ...`")?;
        let (iv, r) = r.split_once(" in ").ok_or("expected `vN in A..B`")?;
        let (range, r) = r.split_once(" step ").ok_or("expected ` step S`")?;
        let (inclusive, (start, end)) = match range.split_once("..=") {
            Some(p) => (true, p),
            None => (
                false,
                range.split_once("..").ok_or("expected `A..B` or `A..=B`")?,
            ),
        };
        let mut words = r.split(' ');
        let step = words.next().unwrap_or_default();
        let mut reverse = false;
        let mut unroll = Unroll::Auto;
        for w in words {
            match w {
                "rev" => reverse = true,
                "unroll(full)" => unroll = Unroll::Full,
                "unroll(never)" => unroll = Unroll::Never,
                w => {
                    let n = w
                        .strip_prefix("unroll(")
                        .and_then(|w| w.strip_suffix(')'))
                        .ok_or_else(|| format!("unexpected `{w}`"))?;
                    unroll = Unroll::By(number(n)?);
                }
            }
        }
        let id = LoopId(index(id, "L")?);
        let iv = self.var(iv)?;
        let (start, end, step) = (self.op(start)?, self.op(end)?, self.op(step)?);
        let body = self.closed_block()?;
        Ok(Inst::For {
            id,
            iv,
            start,
            end,
            inclusive,
            step,
            reverse,
            body,
            unroll,
        })
    }

    fn array(&self, s: &str) -> Res<ArrayId> {
        let a = index(s, "a")?;
        if a as usize >= self.k.arrays.len() {
            return Err(format!("`{s}` is not declared"));
        }
        Ok(ArrayId(a))
    }

    fn site(&self, s: &str) -> Res<SiteId> {
        let n = index(s, "@site")?;
        if n as usize >= self.k.panic_sites.len() {
            return Err(format!("`{s}` is not declared"));
        }
        Ok(SiteId(n))
    }

    fn call(&self, rest: &str, dsts: Vec<Var>) -> Res<Inst> {
        let (name, args) = rest
            .strip_suffix(')')
            .and_then(|r| r.split_once('('))
            .ok_or("expected `call NAME(ARGS)`")?;
        let id = (self.intrinsic)(name).ok_or_else(|| format!("no intrinsic named `{name}`"))?;
        Ok(Inst::Intrinsic {
            id,
            dsts,
            args: list(args).map(|a| self.op(a)).collect::<Res<_>>()?,
        })
    }

    fn assignment(&mut self, lhs: &str, rhs: &str) -> Res<Inst> {
        let word = rhs.split(' ').next().unwrap_or_default();
        let rest = rhs.get(word.len() + 1..).unwrap_or_default();
        if let Some(inner) = lhs.strip_prefix('{').and_then(|l| l.strip_suffix('}')) {
            let dsts: Vec<Var> = list(inner).map(|d| self.var(d)).collect::<Res<_>>()?;
            let parts: Vec<&str> = word.split('.').collect();
            let (space, readonly, n, ty) = match parts[..] {
                ["load", s, "ro", n, t] => (s, true, n, t),
                ["load", s, n, t] => (s, false, n, t),
                _ => {
                    return Err(format!(
                        "expected `load.SPACE[.ro].vN.TYPE`, found `{word}`"
                    ))
                }
            };
            if n != format!("v{}", dsts.len()) {
                return Err(format!("`{n}` does not match {} destinations", dsts.len()));
            }
            for d in &dsts {
                self.typed(Operand::Var(*d), ty)?;
            }
            return Ok(Inst::LoadVec {
                dsts,
                space: space_named(space)?,
                addr: self.op(bracketed(rest)?)?,
                readonly,
            });
        }
        if word == "call" {
            let dsts = list(lhs).map(|d| self.var(d)).collect::<Res<_>>()?;
            return self.call(rest, dsts);
        }
        let dst = self.var(lhs)?;
        let parts: Vec<&str> = word.split('.').collect();
        Ok(match parts[..] {
            ["mov"] => Inst::Mov {
                dst,
                src: self.op(rest)?,
            },
            ["select"] => {
                let [cond, a, b] = self.ops(rest)?;
                Inst::Select { dst, cond, a, b }
            }
            ["fma", t] => {
                self.typed(Operand::Var(dst), t)?;
                let [a, b, c] = self.ops(rest)?;
                Inst::Fma { dst, a, b, c }
            }
            ["cast" | "bitcast", to, from] => {
                self.typed(Operand::Var(dst), to)?;
                let a = self.op(rest)?;
                self.typed(a, from)?;
                match parts[0] {
                    "cast" => Inst::Cast { dst, a },
                    _ => Inst::Bitcast { dst, a },
                }
            }
            ["load", space, "ro", t] | ["load", space, t] => {
                self.typed(Operand::Var(dst), t)?;
                Inst::Load {
                    dst,
                    space: space_named(space)?,
                    addr: self.op(bracketed(rest)?)?,
                    readonly: parts.len() == 4,
                }
            }
            ["shared_addr"] => {
                let s = index(rest, "s")?;
                if s as usize >= self.k.shared.len() {
                    return Err(format!("`{rest}` is not declared"));
                }
                Inst::SharedAddr {
                    dst,
                    alloc: SharedId(s),
                }
            }
            ["dyn_shared_addr"] => Inst::DynSharedAddr { dst },
            ["dyn_shared_bytes"] => Inst::DynSharedBytes { dst },
            ["array_load"] => {
                let (array, idx) = rest
                    .strip_suffix(']')
                    .and_then(|r| r.split_once('['))
                    .ok_or("expected `aN[IDX]`")?;
                Inst::ArrayLoad {
                    dst,
                    array: self.array(array)?,
                    idx: self.op(idx)?,
                }
            }
            [name, t] => {
                if let Some(op) = unop_named(name) {
                    let a = self.op(rest)?;
                    self.typed(a, t)?;
                    Inst::Unary { dst, op, a }
                } else if let Some(op) = binop_named(name) {
                    let [a, b] = self.ops(rest)?;
                    self.typed(a, t)?;
                    Inst::Binary { dst, op, a, b }
                } else {
                    return Err(format!("unknown operation `{word}`"));
                }
            }
            _ => return Err(format!("unknown operation `{word}`")),
        })
    }
}

/// The items of a comma-separated list (none for an empty string).
fn list(s: &str) -> impl Iterator<Item = &str> {
    s.split(',').map(str::trim).filter(|x| !x.is_empty())
}

fn bracketed(s: &str) -> Res<&str> {
    s.strip_prefix('[')
        .and_then(|s| s.strip_suffix(']'))
        .ok_or_else(|| format!("expected `[ADDR]`, found `{s}`"))
}

fn number<T: std::str::FromStr>(s: &str) -> Res<T> {
    s.trim()
        .parse()
        .map_err(|_| format!("expected a number, found `{s}`"))
}

/// The number after `prefix` (`v3`, `L2`, `a0`, `@site1`).
fn index(s: &str, prefix: &str) -> Res<u32> {
    number(
        s.strip_prefix(prefix)
            .ok_or_else(|| format!("expected `{prefix}N`, found `{s}`"))?,
    )
}

fn var(s: &str) -> Res<Var> {
    index(s, "v").map(Var)
}

/// `FILE:LINE:COL` (the file may hold colons).
fn position(s: &str) -> Res<(&str, u32, u32)> {
    let mut parts = s.rsplitn(3, ':');
    let col = parts.next().ok_or("expected `FILE:LINE:COL`")?;
    let line = parts.next().ok_or("expected `FILE:LINE:COL`")?;
    let file = parts.next().ok_or("expected `FILE:LINE:COL`")?;
    Ok((file, number(line)?, number(col)?))
}

/// A source file name that lives as long as the program (markers hold `&'static str`): each
/// distinct name is leaked once.
fn intern(file: &str) -> &'static str {
    static NAMES: Mutex<Option<HashSet<&'static str>>> = Mutex::new(None);
    let mut names = NAMES.lock().unwrap_or_else(|e| e.into_inner());
    let names = names.get_or_insert_with(HashSet::new);
    if let Some(n) = names.get(file) {
        return n;
    }
    let n: &'static str = Box::leak(file.to_string().into_boxed_str());
    names.insert(n);
    n
}

/// A string as Rust's `{:?}` writes it, at the start of `s`; returns it and what follows.
fn debug_string(s: &str) -> Res<(String, &str)> {
    let mut chars = s
        .strip_prefix('"')
        .ok_or("expected a quoted string")?
        .char_indices();
    let body = &s[1..];
    let mut out = String::new();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Ok((out, &body[i + 1..])),
            '\\' => {
                let (_, e) = chars.next().ok_or("unterminated escape")?;
                out.push(match e {
                    'n' => '\n',
                    'r' => '\r',
                    't' => '\t',
                    '0' => '\0',
                    '\\' | '"' | '\'' => e,
                    'u' => {
                        let mut hex = String::new();
                        for (_, h) in chars.by_ref() {
                            match h {
                                '{' => {}
                                '}' => break,
                                h => hex.push(h),
                            }
                        }
                        u32::from_str_radix(&hex, 16)
                            .ok()
                            .and_then(char::from_u32)
                            .ok_or_else(|| format!("bad escape `\\u{{{hex}}}`"))?
                    }
                    e => return Err(format!("unknown escape `\\{e}`")),
                });
            }
            c => out.push(c),
        }
    }
    Err("unterminated string".into())
}

const TYPES: [Ty; 13] = Ty::ALL;

fn ty_named(s: &str) -> Res<Ty> {
    TYPES
        .into_iter()
        .find(|t| t.rust_name() == s)
        .ok_or_else(|| format!("unknown type `{s}`"))
}

fn space_named(s: &str) -> Res<Space> {
    Ok(match s {
        "global" => Space::Global,
        "shared" => Space::Shared,
        "local" => Space::Local,
        "cluster" => Space::Cluster,
        _ => return Err(format!("unknown memory space `{s}`")),
    })
}

fn unop_named(s: &str) -> Option<UnOp> {
    UnOp::ALL
        .into_iter()
        .find(|op| crate::print::unop_name(*op) == s)
}

fn binop_named(s: &str) -> Option<BinOp> {
    BinOp::ALL
        .into_iter()
        .find(|op| crate::print::binop_name(*op) == s)
}

/// A constant as [`crate::print::const_text`] writes it (`4u32`, `-1.5f32`, `true`).
pub fn constant(s: &str) -> Result<Const, String> {
    match s {
        "true" => return Ok(Const::bool(true)),
        "false" => return Ok(Const::bool(false)),
        _ => {}
    }
    // Bit patterns: `f32(0x7fc00000)`, `f16(0x3c00)`.
    if let Some((name, hex)) = s.strip_suffix(')').and_then(|s| s.split_once("(0x")) {
        let ty = ty_named(name)?;
        let bits = u64::from_str_radix(hex, 16).map_err(|_| format!("bad bits in `{s}`"))?;
        return Ok(Const { ty, bits });
    }
    // The longest type name the text ends with (`u16` before `6`...).
    let ty = TYPES
        .into_iter()
        .filter(|t| *t != Ty::Bool && s.ends_with(t.rust_name()))
        .max_by_key(|t| t.rust_name().len())
        .ok_or_else(|| format!("`{s}` is neither a variable nor a typed constant"))?;
    let digits = &s[..s.len() - ty.rust_name().len()];
    let bad = || format!("bad {} constant `{s}`", ty.rust_name());
    let bits = match ty {
        Ty::F32 => digits.parse::<f32>().map_err(|_| bad())?.to_bits() as u64,
        Ty::F64 => digits.parse::<f64>().map_err(|_| bad())?.to_bits(),
        t if t.is_signed() => {
            let v: i128 = digits.parse().map_err(|_| bad())?;
            let mask = u64::MAX >> (64 - t.bits());
            (v as u64) & mask
        }
        _ => digits.parse::<u64>().map_err(|_| bad())?,
    };
    Ok(Const { ty, bits })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn no_intrinsics(_: &str) -> Option<IntrinsicId> {
        None
    }

    const TEXT: &str = r#"kernel k$x (m::k)
  param a: slice elem=4 size=16 align=8 {+0: v0, +8: v1}
  param n: scalar size=4 align=4 {+0: v2}
  attrs block_dim=(32,8,1) max_threads=256
  var v0: u64 ; a.ptr
  var v1: u64 ; a.len
  var v2: u32 ; n
  var v3: u32
  var v4: f32
  var v5: bool
  var v6: i8
  var v7: f32
  var v8: f32
  array a0: [u32; 4]
  shared s0 "tile": 4224 bytes align 16
  dyn_shared
  site0: Bounds at src/a:b.rs:3:9
  site1: Explicit("say \"hi\"\n\u{1b}") at src/k.rs:10:5
{
  loc src/k.rs:1:2
  v3 = mul.u32 v2, 4294967295u32
  v6 = neg.i8 -128i8
  v4 = cast.f32.u32 v3
  v4 = fma.f32 v4, 1.5f32, -0.0f32
  v4 = mov f32(0x7fc00001)
  v7 = mov inff32
  v8 = mov 1e-7f32
  v5 = lt.u32 v3, v2
  {v4, v7} = load.shared.v2.f32 [v3]
  v3 = shared_addr s0
  v3 = dyn_shared_addr
  v3 = array_load a0[2u32]
  array_store a0[v3], 7u32
  bounds_check.u64 v1, v1 @site0
  if v5 {
    store.global.f32 [v0], v4
  } else {
    v4 = load.global.ro.f32 [v0]
    panic @site1 1u32, 2u32
  }
  for L0 v3 in 0u32..=v2 step 2u32 rev unroll(4) {
    if v5 {
      break L0
    }
    continue L0
  }
  loop L1 {
    printf "%u, %f\n" [v2, v4]
    return
  }
}
"#;

    #[test]
    fn every_form_reads_back_as_printed() {
        let k = parse(TEXT, &no_intrinsics).unwrap();
        assert_eq!(k.to_string(), TEXT);
        assert_eq!(k.next_loop, 2);
        assert_eq!(k.var_names[3], "");
    }

    #[test]
    fn errors_name_the_line() {
        let bad = TEXT.replace("v5 = lt.u32 v3, v2", "v5 = lt.u64 v3, v2");
        let e = parse(&bad, &no_intrinsics).unwrap_err();
        assert_eq!(e.line, 28, "{e}");
        assert!(e.message.contains("not u64"), "{e}");
        let e = parse(
            &TEXT.replace("v7 = mov inff32", "v9 = mov inff32"),
            &no_intrinsics,
        )
        .unwrap_err();
        assert!(e.message.contains("`v9` is not declared"), "{e}");
        let e = parse(&TEXT.replace("} else {", "}\n} else {"), &no_intrinsics).unwrap_err();
        assert!(e.message.contains("outside an `if`"), "{e}");
        let e = parse("kernel a (b)\n{\n  v0 = call tid.x()\n}\n", &no_intrinsics).unwrap_err();
        assert_eq!(e.line, 3);
    }
}
