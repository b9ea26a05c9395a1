//! Integer multiplies by powers of two become shifts, and a byte extract scaled to an address
//! offset, `((x >> a) & m) << k`, becomes `(x >> (a - k)) & (m << k)`.
//!
//! Why: ptxas keeps `mul.lo.u64 x, 4` a 64-bit multiply (`IMAD.WIDE.U32` plus an `IMAD.SHL` and
//! an `IADD` for the high half) where `shl.b64 x, 2` is one `LEA`/`LEA.HI.X` pair folded into the
//! base add: one instruction more per global access in every grid-stride loop (measured on the
//! reduction and histogram kernels against nvcc, whose front end emits `shl`). And ptxas does not
//! merge the shift of an extract into its mask: `sub[(w >> 8) & 0xff]` costs `SHF`, `LOP3` and a
//! `LEA` for the address, nvcc's `(w >> 6) & 0x3fc` costs `SHF` and `LOP3`, the shared base going
//! into the instruction's `[R+UR]` operand. Also `(x + c) & m` -> `x & m` when `c` has no bit the
//! mask can see (SGEMM's unrolled `(tid + l * 256) % 8` become one value, as nvcc has them).
//!
//! Within a straight-line run, reads of a copy `v = mov s` read `s` while `s` is unchanged, and an
//! integer operation computed again from unchanged operands becomes a copy of the first result:
//! `early_checks` recomputes each checked index at the run's head and `cse` leaves the run's own
//! computation as a chain of copies, which hid these patterns and left SGEMM's indices computed
//! twice (once for the check, once for the load).
//!
//! Runs after `vectorize` (whose address forms read multiplies) and only rewrites values: both
//! forms are equal for every input (wrapping multiply by `2^k` is a left shift by `k`; the merged
//! extract keeps exactly the bits the original kept, for unsigned types, where `>>` is logical).

use super::fx::FxHashMap;

use kernel_ir::ir::{BinOp, Block, Const, Inst, Kernel, Operand, Ty, Var};

/// Returns whether anything was rewritten.
pub fn shifts(k: &mut Kernel) -> bool {
    let mut body = std::mem::take(&mut k.body);
    let mut changed = false;
    block(k, &mut body, &mut changed, &mut Vec::new(), &mut Vec::new());
    k.body = body;
    changed
}

fn width_mask(ty: Ty) -> u64 {
    if ty.bits() >= 64 {
        u64::MAX
    } else {
        (1u64 << ty.bits()) - 1
    }
}

/// `Some(k)` when `o` is the integer constant `2^k` of type `ty`, `k >= 1`.
fn log2_const(o: Operand, ty: Ty) -> Option<u32> {
    match o {
        Operand::Const(c) if c.ty == ty => {
            let v = c.bits & width_mask(ty);
            (v.is_power_of_two() && v > 1).then(|| v.trailing_zeros())
        }
        _ => None,
    }
}

fn const_u32(o: Operand) -> Option<u32> {
    match o {
        Operand::Const(c) if c.ty == Ty::U32 => Some(c.bits as u32),
        _ => None,
    }
}

/// A pure definition seen earlier in the current straight-line run, with the definition counts
/// of its operand variables at that point (it may be re-evaluated later only while they match).
#[derive(Clone)]
struct Avail {
    op: BinOp,
    a: Operand,
    b: Operand,
    a_version: u32,
}

struct Run {
    /// How many times each variable has been assigned so far in this run.
    version: Vec<u32>,
    defs: Vec<Option<Avail>>,
    /// `v = mov s` in this run: `s` and its version then (reads of `v` may read `s` while it
    /// still holds that value).
    copy_of: Vec<Option<(Var, u32)>>,
    /// Integer values computed in this run, by operation and operands: the variable holding
    /// each, with its version and its operands' versions then.
    values: FxHashMap<PackedKey, (Var, [u32; 3])>,
    /// Indices assigned in this run (with repeats): what [`Run::reset`] clears.
    touched: Vec<u32>,
}

/// An integer binary operation or cast (`op` `None`) and its operands.
type ValueKey = (Option<BinOp>, Ty, Operand, Operand);

/// A [`ValueKey`] packed for lookup, with the destination and operands whose versions go
/// with it (worked out once per instruction, for the lookup and for recording).
#[derive(Clone, Copy)]
struct Keyed {
    key: PackedKey,
    dst: Var,
    a: Operand,
    b: Operand,
}

/// A [`ValueKey`] as three words, equal exactly when the keys are: hashing the tuple field by
/// field was most of the cost of a lookup.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct PackedKey(u64, u64, u64);

impl PackedKey {
    fn of(key: &ValueKey) -> PackedKey {
        let (op, ty, a, b) = *key;
        let op = op.map_or(0, |o| o as u64 + 1);
        let part = |o: Operand| match o {
            Operand::Var(v) => (0u64, v.0 as u64),
            Operand::Const(c) => (1 | (c.ty as u64) << 1, c.bits),
        };
        let ((ta, va), (tb, vb)) = (part(a), part(b));
        PackedKey(op | (ty as u64) << 8 | ta << 16 | tb << 32, va, vb)
    }
}

impl Run {
    fn new(n: usize) -> Self {
        Run {
            version: vec![0; n],
            defs: vec![None; n],
            copy_of: vec![None; n],
            values: FxHashMap::default(),
            touched: Vec::new(),
        }
    }
    /// Back to a fresh run's state, keeping the allocations (a run per nested block, each
    /// sized for every variable, made SGEMM's hundreds of small checked blocks slow).
    fn reset(&mut self) {
        for &i in &self.touched {
            let i = i as usize;
            self.version[i] = 0;
            self.defs[i] = None;
            self.copy_of[i] = None;
        }
        self.touched.clear();
        self.values.clear();
    }
    /// The value `inst` computes, packed, with its destination and operands.
    fn value_key(k: &Kernel, inst: &Inst) -> Option<Keyed> {
        let (key, dst) = match *inst {
            Inst::Binary { dst, op, a, b } => ((Some(op), k.ty(dst), a, b), dst),
            Inst::Cast { dst, a } => ((None, k.ty(dst), a, a), dst),
            _ => return None,
        };
        let (_, ty, a, b) = key;
        let self_ref = a == Operand::Var(dst) || b == Operand::Var(dst);
        (ty.is_int() && !self_ref).then(|| Keyed {
            key: PackedKey::of(&key),
            dst,
            a,
            b,
        })
    }
    /// A variable that already holds the value `key` stands for.
    fn same_value(&self, key: &Keyed) -> Option<Var> {
        let &(w, [vw, va, vb]) = self.values.get(&key.key)?;
        let now = [
            self.version_of(w.into()),
            self.version_of(key.a),
            self.version_of(key.b),
        ];
        (now == [vw, va, vb]).then_some(w)
    }
    fn note_value(&mut self, key: Keyed) {
        let vers = [
            self.version_of(key.dst.into()),
            self.version_of(key.a),
            self.version_of(key.b),
        ];
        self.values.insert(key.key, (key.dst, vers));
    }
    /// The variable `v` is a still valid copy of.
    fn source(&self, v: Var) -> Option<Var> {
        let (s, ver) = (*self.copy_of.get(v.0 as usize)?)?;
        (self.version_of(s.into()) == ver).then_some(s)
    }
    fn version_of(&self, o: Operand) -> u32 {
        match o {
            Operand::Var(v) => self.version.get(v.0 as usize).copied().unwrap_or(0),
            Operand::Const(_) => 0,
        }
    }
    /// The definition of `v` if it is `op` with its first operand still holding the same value.
    fn get(&self, v: Operand, op: BinOp) -> Option<Avail> {
        let Operand::Var(v) = v else { return None };
        let d = self.defs.get(v.0 as usize)?.as_ref()?;
        (d.op == op && self.version_of(d.a) == d.a_version).then(|| d.clone())
    }
    fn assign(&mut self, v: Var, def: Option<Avail>) {
        let i = v.0 as usize;
        if i >= self.version.len() {
            self.version.resize(i + 1, 0);
            self.defs.resize(i + 1, None);
            self.copy_of.resize(i + 1, None);
        }
        self.touched.push(v.0);
        self.version[i] += 1;
        self.defs[i] = def;
        self.copy_of[i] = None;
    }
}

/// `pool` holds cleared runs for reuse by nested blocks. Every variable the block assigns
/// (nested code included, with repeats) is appended to `assigned`, for the enclosing block's
/// run to forget.
fn block(
    k: &mut Kernel,
    b: &mut Block,
    changed: &mut bool,
    pool: &mut Vec<Run>,
    assigned: &mut Vec<u32>,
) {
    // Room for the variables and instructions the rewrites add, so the tables and the block
    // are not copied to grow.
    let mut run = pool.pop().unwrap_or_else(|| Run::new(k.vars.len() + 64));
    // Rewrites happen in place; the few that turn one instruction into two are spliced in at
    // the end (rebuilding every block moved each instruction twice, for a handful of splices).
    let mut splices: Vec<(usize, Vec<Inst>)> = Vec::new();
    for at in 0..b.0.len() {
        let inst = &mut b.0[at];
        let nested = matches!(inst, Inst::If { .. } | Inst::For { .. } | Inst::Loop { .. });
        if nested {
            // Whatever the nested code assigned is unknown from here on: the nested runs list
            // it (walking the nested code again cost as much as the runs themselves).
            let from = assigned.len();
            match inst {
                Inst::If { then, els, .. } => {
                    block(k, then, changed, pool, assigned);
                    block(k, els, changed, pool, assigned);
                }
                Inst::For { body, .. } | Inst::Loop { body, .. } => {
                    block(k, body, changed, pool, assigned)
                }
                _ => {}
            }
            kernel_ir::visit::for_each_def(inst, |v| run.assign(v, None));
            for &v in &assigned[from..] {
                run.assign(Var(v), None);
            }
            assigned.truncate(from);
            continue;
        }
        // Reads of a copy read its source (the copies `early_checks` and `cse` leave would hide
        // the patterns below, and the copies' sources are what ptxas can see are equal).
        kernel_ir::visit::for_each_use_mut(inst, |o| {
            if let Operand::Var(v) = *o {
                if let Some(s) = run.source(v) {
                    *o = s.into();
                    *changed = true;
                }
            }
        });
        let mut key = Run::value_key(k, inst);
        if let Some(w) = key.as_ref().and_then(|key| run.same_value(key)) {
            if let Some(dst) = kernel_ir::visit::single_def(inst) {
                *inst = Inst::Mov { dst, src: w.into() };
                *changed = true;
                key = None;
            }
        }
        let mut rewritten = false;
        if let Inst::Binary {
            dst,
            op: op @ BinOp::Mul,
            a,
            b: bb,
        } = inst
        {
            let ty = k.ty(*dst);
            if ty.is_int() {
                if let Some(s) = log2_const(*bb, ty) {
                    (*op, *bb) = (BinOp::Shl, Const::u32(s).into());
                    rewritten = true;
                } else if let Some(s) = log2_const(*a, ty) {
                    (*op, *a, *bb) = (BinOp::Shl, *bb, Const::u32(s).into());
                    rewritten = true;
                }
            }
        }
        if let Some(and) = mask_past_offset(k, &run, inst) {
            *inst = and;
            rewritten = true;
        }
        if let Some(seq) = merge_extract(k, &run, inst) {
            *changed = true;
            for i in &seq {
                let key = Run::value_key(k, i);
                record(k, &mut run, i, key);
            }
            splices.push((at, seq));
            continue;
        }
        if rewritten {
            *changed = true;
            key = Run::value_key(k, inst);
        }
        record(k, &mut run, inst, key);
    }
    if !splices.is_empty() {
        let old = std::mem::take(&mut b.0);
        b.0.reserve(old.len() + splices.len());
        let mut next = splices.into_iter().peekable();
        for (at, inst) in old.into_iter().enumerate() {
            match next.next_if(|(s, _)| *s == at) {
                Some((_, seq)) => b.0.extend(seq),
                None => b.0.push(inst),
            }
        }
    }
    assigned.extend_from_slice(&run.touched);
    run.reset();
    pool.push(run);
}

/// Notes what `inst` assigns; `key` is its [`Run::value_key`].
fn record(k: &Kernel, run: &mut Run, inst: &Inst, key: Option<Keyed>) {
    let def = match inst {
        Inst::Binary { dst, op, a, b }
            if matches!(op, BinOp::Shr | BinOp::And | BinOp::Add) && !k.ty(*dst).is_signed() =>
        {
            // Only `var op constant` is recorded (constant first for the commutative ones), so
            // `a_version` covers the one variable operand; one that is the destination itself
            // is not available afterwards.
            let (a, b) = match (a, b) {
                (Operand::Const(_), Operand::Var(_)) if *op != BinOp::Shr => (*b, *a),
                _ => (*a, *b),
            };
            let form = matches!((a, b), (Operand::Var(_), Operand::Const(_)));
            (form && a != Operand::Var(*dst)).then(|| Avail {
                op: *op,
                a,
                b,
                a_version: run.version_of(a),
            })
        }
        _ => None,
    };
    // A single result takes the definition; every result of anything else is unknown.
    match kernel_ir::visit::single_def(inst) {
        Some(d) => run.assign(d, def),
        None => kernel_ir::visit::for_each_def(inst, |v| run.assign(v, None)),
    }
    if let Some(key) = key {
        run.note_value(key);
    }
    if let Inst::Mov {
        dst,
        src: Operand::Var(s),
    } = inst
    {
        if s != dst {
            let ver = run.version_of((*s).into());
            run.copy_of[dst.0 as usize] = Some((*s, ver));
        }
    }
}

/// `dst = (x + c) & m` where `c` has no bit at or below `m`'s highest: the add cannot change the
/// kept bits (carries only move upwards), so `dst = x & m`. Unrolled copies of
/// `(tid + l * 256) % 8` all become `tid & 7`, one value for ptxas instead of four.
fn mask_past_offset(k: &Kernel, run: &Run, inst: &Inst) -> Option<Inst> {
    let Inst::Binary {
        dst,
        op: BinOp::And,
        a,
        b,
    } = inst
    else {
        return None;
    };
    let ty = k.ty(*dst);
    if !ty.is_int() || ty.is_signed() {
        return None;
    }
    let (s, m) = match (a, b) {
        (s @ Operand::Var(_), Operand::Const(m)) | (Operand::Const(m), s @ Operand::Var(_)) => {
            (*s, m.bits & width_mask(ty))
        }
        _ => return None,
    };
    let sum = run.get(s, BinOp::Add)?;
    let Operand::Const(c) = sum.b else {
        return None;
    };
    // Bits up to and including `m`'s highest set bit.
    let low = if m == 0 {
        0
    } else {
        u64::MAX >> m.leading_zeros()
    };
    (c.bits & low == 0).then(|| Inst::Binary {
        dst: *dst,
        op: BinOp::And,
        a: sum.a,
        b: Const { ty, bits: m }.into(),
    })
}

/// `dst = ((x >> a) & m) << s` or `dst = (x >> a) << s` with `a >= s`, unsigned: the shift moves
/// into the extract, `n = x >> (a - s); dst = n & (m' << s)` with `m'` the bits the original kept.
fn merge_extract(k: &mut Kernel, run: &Run, inst: &Inst) -> Option<Vec<Inst>> {
    let Inst::Binary {
        dst,
        op: BinOp::Shl,
        a: inner,
        b,
    } = inst
    else {
        return None;
    };
    let ty = k.ty(*dst);
    if !ty.is_int() || ty.is_signed() {
        return None;
    }
    let s = const_u32(*b)?;
    let full = width_mask(ty);
    // `inner` is `src & m` or the shift itself.
    let (src, mut keep) = match run.get(*inner, BinOp::And) {
        Some(Avail {
            a: src,
            b: Operand::Const(m),
            ..
        }) if m.ty == ty => (src, m.bits & full),
        Some(_) => return None,
        None => (*inner, full),
    };
    let shr = run.get(src, BinOp::Shr)?;
    let a = const_u32(shr.b)?;
    if a < s || a >= ty.bits() {
        return None;
    }
    // Bits of `x >> a` that exist at all, then the mask's.
    keep &= full >> a;
    let mask = (keep << s) & full;
    let n = k.new_var(ty);
    let shifted = if a == s {
        Inst::Mov { dst: n, src: shr.a }
    } else {
        Inst::Binary {
            dst: n,
            op: BinOp::Shr,
            a: shr.a,
            b: Const::u32(a - s).into(),
        }
    };
    Some(vec![
        shifted,
        Inst::Binary {
            dst: *dst,
            op: BinOp::And,
            a: n.into(),
            b: Const { ty, bits: mask }.into(),
        },
    ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::passes::testkit::*;

    #[test]
    fn power_of_two_multiplies_become_shifts() {
        let mut kn = kernel();
        let p = param(&mut kn, "p", Ty::U64);
        let x = param(&mut kn, "x", Ty::U64);
        let y = param(&mut kn, "y", Ty::I32);
        let (a, b, c) = (
            kn.new_var(Ty::U64),
            kn.new_var(Ty::I32),
            kn.new_var(Ty::U64),
        );
        kn.body.0 = vec![
            bin(a, BinOp::Mul, x, u64c(4)),
            bin(b, BinOp::Mul, i32c(8), y),
            bin(c, BinOp::Mul, x, u64c(6)),
            store(p, a),
            store(p, b),
            store(p, c),
        ];
        let orig = kn.clone();
        assert!(shifts(&mut kn));
        assert_body(
            &kn,
            "
            v3 = shl.u64 v1, 2u32
            v4 = shl.i32 v2, 3u32
            v5 = mul.u64 v1, 6u64
            store.global.u64 [v0], v3
            store.global.i32 [v0], v4
            store.global.u64 [v0], v5
            ",
        );
        for (xv, yv) in [
            (0u64, 0i32),
            (u64::MAX, -1),
            (1 << 62, i32::MIN),
            (12345, 77),
        ] {
            let args = [(p, Const::u64(8)), (x, Const::u64(xv)), (y, Const::i32(yv))];
            assert_eq!(run(&orig, &args), run(&kn, &args));
        }
    }

    /// The histogram's four bin addresses, against the interpreter on edge and random words.
    #[test]
    fn scaled_byte_extracts_merge_their_shifts() {
        let mut kn = kernel();
        let p = param(&mut kn, "p", Ty::U64);
        let w = param(&mut kn, "w", Ty::U32);
        let mut body = Vec::new();
        let mut results = Vec::new();
        for (sh, mask) in [
            (8u32, Some(0xffu32)),
            (16, Some(0x7f)),
            (24, None),
            (2, None),
        ] {
            let t = kn.new_var(Ty::U32);
            body.push(bin(t, BinOp::Shr, w, u32c(sh)));
            let e = match mask {
                Some(m) => {
                    let e = kn.new_var(Ty::U32);
                    body.push(bin(e, BinOp::And, t, u32c(m)));
                    e
                }
                None => t,
            };
            let r = kn.new_var(Ty::U32);
            body.push(bin(r, BinOp::Mul, e, u32c(4)));
            results.push(r);
        }
        for r in &results {
            body.push(store(p, *r));
        }
        kn.body.0 = body;
        let orig = kn.clone();
        assert!(shifts(&mut kn));
        let t = text(&kn);
        assert!(t.contains("shr.u32 v1, 6u32"), "{t}");
        assert!(t.contains("and.u32") && t.contains("1020u32"), "{t}");
        assert!(t.contains("shr.u32 v1, 22u32"), "{t}");
        let mut seed = 0x9e37_79b9u32;
        for i in 0..300u32 {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            let wv = match i {
                0 => 0,
                1 => u32::MAX,
                2 => 0x8000_0001,
                _ => seed,
            };
            let args = [(p, Const::u64(8)), (w, Const::u32(wv))];
            assert_eq!(run(&orig, &args), run(&kn, &args), "{wv:#x}\n{t}");
        }
    }

    #[test]
    fn extract_is_not_merged_once_its_source_changes() {
        let mut kn = kernel();
        let p = param(&mut kn, "p", Ty::U64);
        let w = param(&mut kn, "w", Ty::U32);
        let (t, e, r) = (
            kn.new_var(Ty::U32),
            kn.new_var(Ty::U32),
            kn.new_var(Ty::U32),
        );
        kn.body.0 = vec![
            bin(t, BinOp::Shr, w, u32c(8)),
            bin(e, BinOp::And, t, u32c(0xff)),
            bin(w, BinOp::Add, w, u32c(1)),
            bin(r, BinOp::Shl, e, u32c(2)),
            store(p, r),
        ];
        assert!(!shifts(&mut kn));
    }

    #[test]
    fn signed_and_short_shifts_stay() {
        let mut kn = kernel();
        let p = param(&mut kn, "p", Ty::U64);
        let x = param(&mut kn, "x", Ty::I32);
        let w = param(&mut kn, "w", Ty::U32);
        let (t, r, u, q) = (
            kn.new_var(Ty::I32),
            kn.new_var(Ty::I32),
            kn.new_var(Ty::U32),
            kn.new_var(Ty::U32),
        );
        kn.body.0 = vec![
            // Arithmetic shift right: not an extract.
            bin(t, BinOp::Shr, x, u32c(8)),
            bin(r, BinOp::Shl, t, u32c(2)),
            // Shifted left further than right: the low bits would have to be cleared too.
            bin(u, BinOp::Shr, w, u32c(1)),
            bin(q, BinOp::Shl, u, u32c(2)),
            store(p, r),
            store(p, q),
        ];
        assert!(!shifts(&mut kn));
    }

    /// SGEMM's `(tid + l * 256) % 8` after `strength`: the offset goes, the value is exact.
    #[test]
    fn masks_ignore_offsets_below_nothing_they_keep() {
        let mut kn = kernel();
        let p = param(&mut kn, "p", Ty::U64);
        let t = param(&mut kn, "t", Ty::U32);
        let (e, a, f, b) = (
            kn.new_var(Ty::U32),
            kn.new_var(Ty::U32),
            kn.new_var(Ty::U32),
            kn.new_var(Ty::U32),
        );
        kn.body.0 = vec![
            bin(e, BinOp::Add, t, u32c(768)),
            bin(a, BinOp::And, e, u32c(127)),
            // 4 has a bit the mask keeps: stays.
            bin(f, BinOp::Add, t, u32c(4)),
            bin(b, BinOp::And, u32c(7), f),
            store(p, a),
            store(p, b),
        ];
        let orig = kn.clone();
        assert!(shifts(&mut kn));
        let text = text(&kn);
        assert!(text.contains("v3 = and.u32 v1, 127u32"), "{text}");
        assert!(text.contains("v5 = and.u32 7u32, v4"), "{text}");
        for tv in [0u32, 5, 255, 1000, u32::MAX - 3, u32::MAX] {
            let args = [(p, Const::u64(8)), (t, Const::u32(tv))];
            assert_eq!(run(&orig, &args), run(&kn, &args), "{tv}");
        }
    }

    #[test]
    fn runs_continue_past_ifs_that_leave_the_operands_alone() {
        let mut kn = kernel();
        let p = param(&mut kn, "p", Ty::U64);
        let t = param(&mut kn, "t", Ty::U32);
        let c = param(&mut kn, "c", Ty::Bool);
        let (e, a, x, e2, b) = (
            kn.new_var(Ty::U32),
            kn.new_var(Ty::U32),
            kn.new_var(Ty::U32),
            kn.new_var(Ty::U32),
            kn.new_var(Ty::U32),
        );
        kn.body.0 = vec![
            bin(e, BinOp::Add, t, u32c(256)),
            bin(e2, BinOp::Add, t, u32c(512)),
            if_(c, vec![mov(x, u32c(1)), store(p, x)], vec![]),
            bin(a, BinOp::And, e, u32c(7)),
            // The if writes `e2`'s operand: no rewrite.
            if_(c, vec![mov(t, u32c(3))], vec![]),
            bin(b, BinOp::And, e2, u32c(7)),
            store(p, a),
            store(p, b),
        ];
        assert!(shifts(&mut kn));
        let text = text(&kn);
        assert!(text.contains("v4 = and.u32 v1, 7u32"), "{text}");
        assert!(text.contains("v7 = and.u32 v6, 7u32"), "{text}");
    }

    #[test]
    fn copies_are_read_through_while_their_source_holds() {
        let mut kn = kernel();
        let p = param(&mut kn, "p", Ty::U64);
        let t = param(&mut kn, "t", Ty::U32);
        let (e, c, a, d, b) = (
            kn.new_var(Ty::U32),
            kn.new_var(Ty::U32),
            kn.new_var(Ty::U32),
            kn.new_var(Ty::U32),
            kn.new_var(Ty::U32),
        );
        kn.body.0 = vec![
            bin(e, BinOp::Add, t, u32c(256)),
            mov(c, e),
            bin(a, BinOp::And, c, u32c(7)),
            mov(d, e),
            // `e` changes: `d` keeps the old value and is read as itself.
            bin(e, BinOp::Add, e, u32c(1)),
            bin(b, BinOp::And, d, u32c(7)),
            store(p, a),
            store(p, b),
        ];
        let orig = kn.clone();
        assert!(shifts(&mut kn));
        let text = text(&kn);
        assert!(text.contains("v4 = and.u32 v1, 7u32"), "{text}");
        assert!(text.contains("v6 = and.u32 v5, 7u32"), "{text}");
        for tv in [0u32, 9, u32::MAX] {
            let args = [(p, Const::u64(8)), (t, Const::u32(tv))];
            assert_eq!(run(&orig, &args), run(&kn, &args), "{tv}");
        }
    }

    #[test]
    fn recomputed_values_become_copies() {
        let mut kn = kernel();
        let p = param(&mut kn, "p", Ty::U64);
        let t = param(&mut kn, "t", Ty::U32);
        let (a, b, c, d) = (
            kn.new_var(Ty::U32),
            kn.new_var(Ty::U32),
            kn.new_var(Ty::U64),
            kn.new_var(Ty::U64),
        );
        kn.body.0 = vec![
            bin(a, BinOp::Add, t, u32c(3)),
            cast(c, a),
            bin(b, BinOp::Add, t, u32c(3)),
            cast(d, b),
            // `t` changes: a third add is a new value.
            bin(t, BinOp::Xor, t, u32c(1)),
            bin(b, BinOp::Add, t, u32c(3)),
            store(p, c),
            store(p, d),
            store(p, b),
        ];
        let orig = kn.clone();
        assert!(shifts(&mut kn));
        let text = text(&kn);
        assert!(text.contains("v3 = mov v2"), "{text}");
        assert!(text.contains("v5 = mov v4"), "{text}");
        assert_eq!(text.matches("add.u32").count(), 2, "{text}");
        for tv in [0u32, 9, u32::MAX] {
            let args = [(p, Const::u64(8)), (t, Const::u32(tv))];
            assert_eq!(run(&orig, &args), run(&kn, &args), "{tv}");
        }
    }
}
