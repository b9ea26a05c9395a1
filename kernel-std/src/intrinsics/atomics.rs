//! Atomic read-modify-write operations on global and shared memory (B.14).
//!
//! Entries are named `op.type.space` (`atomic_add.u32.shared`); the front end picks one from the
//! pointee type and the address space of the `&mut T` argument (see [`super::typed_family`]). Each
//! op exists in three scopes: device (`atomic_add`, CUDA's `atomicAdd`), block (`atomic_add_block`)
//! and system (`atomic_add_system`), and four orderings: relaxed (no suffix, as CUDA's),
//! `_acquire`, `_release` and `_acq_rel` (`atomic_add_block_acquire`); atomic loads and stores
//! (`atomic_load_acquire`, `atomic_store_release`) complete the set. Float min/max are CAS loops
//! (PTX has no `atom.min.f32`). The simulator runs each entry as one uninterrupted read-modify-write through
//! `SimEnv::atomic_read/atomic_write`, which the race detector treats as atomic.

use super::{Class, IntrinsicDef, SimEnv, SimFn};
use kernel_ir::ir::{Space, Ty};

/// Operations, as const-generic codes for the simulator functions.
const ADD: u8 = 0;
const SUB: u8 = 1;
const EXCH: u8 = 2;
const MIN: u8 = 3;
const MAX: u8 = 4;
const INC: u8 = 5;
const DEC: u8 = 6;
const CAS: u8 = 7;
const AND: u8 = 8;
const OR: u8 = 9;
const XOR: u8 = 10;
const LOAD: u8 = 11;
const STORE: u8 = 12;

/// Value types, as const-generic codes.
const T_U32: u8 = 0;
const T_I32: u8 = 1;
const T_U64: u8 = 2;
const T_I64: u8 = 3;
const T_F32: u8 = 4;
const T_F64: u8 = 5;
const T_F16: u8 = 6;
const T_BF16: u8 = 7;

const TYPES: [(u8, &str, Ty); 8] = [
    (T_U32, "u32", Ty::U32),
    (T_I32, "i32", Ty::I32),
    (T_U64, "u64", Ty::U64),
    (T_I64, "i64", Ty::I64),
    (T_F32, "f32", Ty::F32),
    (T_F64, "f64", Ty::F64),
    (T_F16, "f16", Ty::F16),
    (T_BF16, "bf16", Ty::BF16),
];

/// `(name, op, types it exists for)`, following CUDA's overloads.
const OPS: [(&str, u8, &[u8]); 13] = [
    (
        "atomic_add",
        ADD,
        &[T_U32, T_I32, T_U64, T_I64, T_F32, T_F64, T_F16, T_BF16],
    ),
    ("atomic_sub", SUB, &[T_U32, T_I32, T_U64, T_I64]),
    (
        "atomic_exch",
        EXCH,
        &[T_U32, T_I32, T_U64, T_I64, T_F32, T_F64],
    ),
    (
        "atomic_min",
        MIN,
        &[T_U32, T_I32, T_U64, T_I64, T_F32, T_F64],
    ),
    (
        "atomic_max",
        MAX,
        &[T_U32, T_I32, T_U64, T_I64, T_F32, T_F64],
    ),
    ("atomic_inc", INC, &[T_U32]),
    ("atomic_dec", DEC, &[T_U32]),
    ("atomic_cas", CAS, &[T_U32, T_I32, T_U64, T_I64]),
    ("atomic_and", AND, &[T_U32, T_I32, T_U64, T_I64]),
    ("atomic_or", OR, &[T_U32, T_I32, T_U64, T_I64]),
    ("atomic_xor", XOR, &[T_U32, T_I32, T_U64, T_I64]),
    (
        "atomic_load",
        LOAD,
        &[T_U32, T_I32, T_U64, T_I64, T_F32, T_F64],
    ),
    (
        "atomic_store",
        STORE,
        &[T_U32, T_I32, T_U64, T_I64, T_F32, T_F64],
    ),
];

/// Scope suffix of the API name and its PTX scope.
const SCOPES: [(&str, &str); 3] = [("", "gpu"), ("_block", "cta"), ("_system", "sys")];

/// Ordering suffix of the API name and its PTX semantics.
const ORDERS: [(&str, &str); 4] = [
    ("", "relaxed"),
    ("_acquire", "acquire"),
    ("_release", "release"),
    ("_acq_rel", "acq_rel"),
];

/// Orderings that make sense for an op: loads acquire, stores release, read-modify-writes any.
fn orders_of(op: u8) -> &'static [(&'static str, &'static str)] {
    const LOAD_ORDERS: [(&str, &str); 2] = [ORDERS[0], ORDERS[1]];
    const STORE_ORDERS: [(&str, &str); 2] = [ORDERS[0], ORDERS[2]];
    match op {
        LOAD => &LOAD_ORDERS,
        STORE => &STORE_ORDERS,
        _ => &ORDERS,
    }
}

/// Every entry's name starts with this (the table skips building [`ENTRIES`] for other names).
pub(super) const PREFIX: &str = "atomic_";

/// Whether `name` (an API name such as `atomic_add_block_acquire`) is an atomic family.
pub(super) fn is_family(name: &str) -> bool {
    OPS.iter().any(|(op_name, op, _)| {
        name.strip_prefix(op_name).is_some_and(|rest| {
            SCOPES.iter().any(|(sc, _)| {
                rest.strip_prefix(sc)
                    .is_some_and(|o| orders_of(*op).iter().any(|(or, _)| *or == o))
            })
        })
    })
}

fn apply<const OP: u8, const T: u8>(old: u64, a: u64, b: u64) -> u64 {
    let bits32 = matches!(T, T_U32 | T_I32 | T_F32);
    let r = match (OP, T) {
        (ADD, T_F32) => (f32::from_bits(old as u32) + f32::from_bits(a as u32)).to_bits() as u64,
        (ADD, T_F64) => (f64::from_bits(old) + f64::from_bits(a)).to_bits(),
        (ADD, T_F16) => {
            (half::f16::from_bits(old as u16) + half::f16::from_bits(a as u16)).to_bits() as u64
        }
        (ADD, T_BF16) => {
            (half::bf16::from_bits(old as u16) + half::bf16::from_bits(a as u16)).to_bits() as u64
        }
        (ADD, _) => old.wrapping_add(a),
        (SUB, _) => old.wrapping_sub(a),
        (EXCH, _) => a,
        (MIN | MAX, T_F32) => {
            let (x, y) = (f32::from_bits(old as u32), f32::from_bits(a as u32));
            (if OP == MIN { x.min(y) } else { x.max(y) }).to_bits() as u64
        }
        (MIN | MAX, T_F64) => {
            let (x, y) = (f64::from_bits(old), f64::from_bits(a));
            (if OP == MIN { x.min(y) } else { x.max(y) }).to_bits()
        }
        (MIN | MAX, T_I32) => {
            let (x, y) = (old as u32 as i32, a as u32 as i32);
            (if OP == MIN { x.min(y) } else { x.max(y) }) as u32 as u64
        }
        (MIN | MAX, T_I64) => {
            let (x, y) = (old as i64, a as i64);
            (if OP == MIN { x.min(y) } else { x.max(y) }) as u64
        }
        (MIN, _) => old.min(a),
        (MAX, _) => old.max(a),
        (INC, _) => {
            if old as u32 >= a as u32 {
                0
            } else {
                old + 1
            }
        }
        (DEC, _) => {
            if old as u32 == 0 || old as u32 > a as u32 {
                a
            } else {
                old - 1
            }
        }
        (CAS, _) => {
            let eq = if bits32 {
                old as u32 == a as u32
            } else {
                old == a
            };
            if eq {
                b
            } else {
                old
            }
        }
        (AND, _) => old & a,
        (OR, _) => old | a,
        _ => old ^ a,
    };
    match T {
        T_F16 | T_BF16 => r & 0xffff,
        _ if bits32 => r & 0xffff_ffff,
        _ => r,
    }
}

/// One atomic read-modify-write: `args` = (address, operand[, new value for CAS]); returns the old
/// value.
fn sim_atomic<const OP: u8, const T: u8, const SHARED: bool>(
    e: &mut dyn SimEnv,
    args: &[u64],
    out: &mut [u64],
) {
    let space = if SHARED { Space::Shared } else { Space::Global };
    let bytes = match T {
        T_U32 | T_I32 | T_F32 => 4,
        T_F16 | T_BF16 => 2,
        _ => 8,
    };
    let addr = args[0];
    let a = args.get(1).copied().unwrap_or(0);
    let b = args.get(2).copied().unwrap_or(0);
    if OP == STORE {
        // A store reads nothing: it may initialise the word.
        e.atomic_write(space, addr, bytes, a);
        return;
    }
    let old = e.atomic_read(space, addr, bytes);
    if OP != LOAD {
        e.atomic_write(space, addr, bytes, apply::<OP, T>(old, a, b));
    }
    if let Some(o) = out.first_mut() {
        *o = old;
    }
}

fn pick_space<const OP: u8, const T: u8>(shared: bool) -> SimFn {
    if shared {
        sim_atomic::<OP, T, true>
    } else {
        sim_atomic::<OP, T, false>
    }
}

fn pick_ty<const OP: u8>(t: u8, shared: bool) -> SimFn {
    match t {
        T_U32 => pick_space::<OP, T_U32>(shared),
        T_I32 => pick_space::<OP, T_I32>(shared),
        T_U64 => pick_space::<OP, T_U64>(shared),
        T_I64 => pick_space::<OP, T_I64>(shared),
        T_F32 => pick_space::<OP, T_F32>(shared),
        T_F64 => pick_space::<OP, T_F64>(shared),
        T_F16 => pick_space::<OP, T_F16>(shared),
        _ => pick_space::<OP, T_BF16>(shared),
    }
}

fn pick(op: u8, t: u8, shared: bool) -> SimFn {
    match op {
        ADD => pick_ty::<ADD>(t, shared),
        SUB => pick_ty::<SUB>(t, shared),
        EXCH => pick_ty::<EXCH>(t, shared),
        MIN => pick_ty::<MIN>(t, shared),
        MAX => pick_ty::<MAX>(t, shared),
        INC => pick_ty::<INC>(t, shared),
        DEC => pick_ty::<DEC>(t, shared),
        CAS => pick_ty::<CAS>(t, shared),
        AND => pick_ty::<AND>(t, shared),
        OR => pick_ty::<OR>(t, shared),
        XOR => pick_ty::<XOR>(t, shared),
        LOAD => pick_ty::<LOAD>(t, shared),
        _ => pick_ty::<STORE>(t, shared),
    }
}

/// The PTX of one entry; `q` = semantics, scope and space (`.relaxed.cta.shared`; empty
/// semantics and scope for the relaxed device-scope default), `space` = `.global` / `.shared`.
fn ptx(op: u8, t: u8, q: &str, space: &str) -> String {
    let wide = matches!(t, T_U64 | T_I64 | T_F64);
    let b = if wide { "b64" } else { "b32" };
    let (u, s) = if wide { ("u64", "s64") } else { ("u32", "s32") };
    let signed = matches!(t, T_I32 | T_I64);
    let float = match t {
        T_F32 => Some("f32"),
        T_F64 => Some("f64"),
        T_F16 => Some("noftz.f16"),
        T_BF16 => Some("noftz.bf16"),
        _ => None,
    };
    match op {
        ADD => format!("atom{q}.add.{} {{d0}}, [{{a0}}], {{a1}}", float.unwrap_or(u)),
        SUB => format!(
            ".reg .{b} %fca{{uid}}_n; neg.{s} %fca{{uid}}_n, {{a1}}; atom{q}.add.{u} {{d0}}, [{{a0}}], %fca{{uid}}_n"
        ),
        EXCH => format!("atom{q}.exch.{b} {{d0}}, [{{a0}}], {{a1}}"),
        MIN | MAX if float.is_some() => {
            let f = float.unwrap_or("f32");
            let m = if op == MIN { "min" } else { "max" };
            // Compare-and-swap until no other thread changed the word in between.
            format!(
                ".reg .{b} %fca{{uid}}_<3>; .reg .{f} %fca{{uid}}_f; .reg .pred %fca{{uid}}_p; \
                 ld.volatile{space}.{b} %fca{{uid}}_0, [{{a0}}]; \
                 $Lfca{{uid}}_retry: mov.{b} %fca{{uid}}_f, %fca{{uid}}_0; \
                 {m}.{f} %fca{{uid}}_f, %fca{{uid}}_f, {{a1}}; mov.{b} %fca{{uid}}_1, %fca{{uid}}_f; \
                 atom{q}.cas.{b} %fca{{uid}}_2, [{{a0}}], %fca{{uid}}_0, %fca{{uid}}_1; \
                 setp.ne.{b} %fca{{uid}}_p, %fca{{uid}}_2, %fca{{uid}}_0; mov.{b} %fca{{uid}}_0, %fca{{uid}}_2; \
                 @%fca{{uid}}_p bra $Lfca{{uid}}_retry; mov.{b} {{d0}}, %fca{{uid}}_0"
            )
        }
        MIN | MAX => {
            let m = if op == MIN { "min" } else { "max" };
            format!("atom{q}.{m}.{} {{d0}}, [{{a0}}], {{a1}}", if signed { s } else { u })
        }
        INC => format!("atom{q}.inc.u32 {{d0}}, [{{a0}}], {{a1}}"),
        DEC => format!("atom{q}.dec.u32 {{d0}}, [{{a0}}], {{a1}}"),
        CAS => format!("atom{q}.cas.{b} {{d0}}, [{{a0}}], {{a1}}, {{a2}}"),
        AND => format!("atom{q}.and.{b} {{d0}}, [{{a0}}], {{a1}}"),
        OR => format!("atom{q}.or.{b} {{d0}}, [{{a0}}], {{a1}}"),
        XOR => format!("atom{q}.xor.{b} {{d0}}, [{{a0}}], {{a1}}"),
        LOAD => format!("ld{q}.{} {{d0}}, [{{a0}}]", exact(t)),
        _ => format!("st{q}.{} [{{a0}}], {{a1}}", exact(t)),
    }
}

fn exact(t: u8) -> &'static str {
    match t {
        T_U32 => "u32",
        T_I32 => "s32",
        T_U64 => "u64",
        T_I64 => "s64",
        T_F32 => "f32",
        _ => "f64",
    }
}

/// Stand-ins for the qualifier and space in a per-(op, type) template: the entries of one op and
/// type differ only there, so [`ENTRIES`] formats each template once and splices the rest.
const Q_MARK: char = '\u{1}';
const SPACE_MARK: char = '\u{2}';

/// `template` cut at its marks: each piece of text, then the mark that ends it (`None` last).
fn cut(template: &str) -> Vec<(&str, Option<char>)> {
    let mut pieces = Vec::new();
    let mut rest = template;
    while let Some(i) = rest.find([Q_MARK, SPACE_MARK]) {
        let mark = rest[i..].chars().next();
        pieces.push((&rest[..i], mark));
        // Both marks are one byte long.
        rest = &rest[i + 1..];
    }
    pieces.push((rest, None));
    pieces
}

/// Appends the template cut by [`cut`] with each [`Q_MARK`] replaced by the pieces of `q` and
/// each [`SPACE_MARK`] by `.space`.
fn splice(out: &mut String, pieces: &[(&str, Option<char>)], q: &[&str], space: &str) {
    for (text, mark) in pieces {
        out.push_str(text);
        match mark {
            Some(Q_MARK) => q.iter().for_each(|p| out.push_str(p)),
            Some(_) => {
                out.push('.');
                out.push_str(space);
            }
            None => {}
        }
    }
}

/// This category's entries (appended to the table in `mod.rs`'s order): every op x type x scope x
/// space, built once per process. All their strings go into one text and all their argument lists
/// into one slice, each leaked once: the first compile of a process pays for building the table,
/// and 1272 entries of `format!`s and leaked boxes were 7.5 M instructions (over 1 ms).
pub(super) static ENTRIES: std::sync::LazyLock<Vec<IntrinsicDef>> =
    std::sync::LazyLock::new(|| {
        // Byte ranges into `text` and `tys`, resolved once both are complete and leaked.
        struct Pending {
            name: (usize, usize),
            ptx: (usize, usize),
            args: (usize, usize),
            rets: (usize, usize),
            min_sm: u32,
            sim: SimFn,
        }
        let mut text = String::with_capacity(1 << 18);
        let mut tys: Vec<Ty> = Vec::new();
        let mut pending = Vec::new();
        let push = |text: &mut String, parts: &[&str]| {
            let start = text.len();
            parts.iter().for_each(|p| text.push_str(p));
            (start, text.len())
        };
        for (op_name, op, types) in OPS {
            for &t in types {
                let (_, tname, ty) = TYPES[t as usize];
                let template = ptx(op, t, &Q_MARK.to_string(), &SPACE_MARK.to_string());
                let pieces = cut(&template);
                for (scope, ptx_scope) in SCOPES {
                    for &(order, sem) in orders_of(op) {
                        for (space, shared) in [("global", false), ("shared", true)] {
                            // 16-bit float atomics on shared memory: ptxas 13 fails on them
                            // for sm_90 (internal error), so they exist on global memory only.
                            if shared && matches!(t, T_F16 | T_BF16) {
                                continue;
                            }
                            let addr = if shared { Ty::U32 } else { Ty::U64 };
                            let args_at = tys.len();
                            tys.push(addr);
                            match op {
                                CAS => tys.extend([ty, ty]),
                                LOAD => {}
                                _ => tys.push(ty),
                            }
                            let rets_at = tys.len();
                            if op != STORE {
                                tys.push(ty);
                            }
                            let name =
                                push(&mut text, &[op_name, scope, order, ".", tname, ".", space]);
                            // Plain `atom` is already relaxed at device scope; loads and
                            // stores always spell it out (a bare `ld` is not atomic).
                            let plain = scope.is_empty() && order.is_empty() && op < LOAD;
                            let q: &[&str] = if plain {
                                &[".", space]
                            } else {
                                &[".", sem, ".", ptx_scope, ".", space]
                            };
                            let ptx_at = text.len();
                            splice(&mut text, &pieces, q, space);
                            pending.push(Pending {
                                name,
                                ptx: (ptx_at, text.len()),
                                args: (args_at, rets_at),
                                rets: (rets_at, tys.len()),
                                min_sm: if t == T_BF16 { 90 } else { 70 },
                                sim: pick(op, t, shared),
                            });
                        }
                    }
                }
            }
        }
        let text: &'static str = Box::leak(text.into_boxed_str());
        let tys: &'static [Ty] = Box::leak(tys.into_boxed_slice());
        pending
            .into_iter()
            .map(|p| IntrinsicDef {
                name: &text[p.name.0..p.name.1],
                args: &tys[p.args.0..p.args.1],
                rets: &tys[p.rets.0..p.rets.1],
                min_sm: p.min_sm,
                ptx: &text[p.ptx.0..p.ptx.1],
                class: Class::Memory,
                sim: Some(p.sim),
                sim_warp: None,
            })
            .collect()
    });

#[cfg(test)]
mod tests {
    use super::super::{all, lookup, typed_family, typed_name};
    use kernel_ir::ir::{Space, Ty};

    #[test]
    fn names_are_unique() {
        let mut names: Vec<&str> = all().map(|d| d.name).collect();
        names.sort_unstable();
        let before = names.len();
        names.dedup();
        assert_eq!(before, names.len(), "duplicate intrinsic names");
    }

    #[test]
    fn families_resolve_by_type_and_space() {
        assert_eq!(typed_family("atomic_add_block_acq_rel"), Some(0));
        assert_eq!(typed_family("atomic_load_acquire"), Some(0));
        assert_eq!(typed_family("atomic_load_release"), None);
        assert_eq!(typed_family("atomic_store_acquire"), None);
        assert_eq!(typed_family("shfl_xor_sync"), Some(1));
        assert_eq!(typed_family("sync_threads"), None);
        let n = typed_name("atomic_cas_system", Ty::I64, Space::Shared);
        assert_eq!(n, "atomic_cas_system.i64.shared");
        assert!(lookup(&n).is_some());
        assert!(lookup(&typed_name("atomic_inc", Ty::U64, Space::Global)).is_none());
        assert!(lookup(&typed_name("atomic_add", Ty::F16, Space::Shared)).is_none());
        assert!(lookup(&typed_name("shfl_up_sync", Ty::BF16, Space::Global)).is_some());
    }

    /// The spliced table says what formatting each entry in full says.
    #[test]
    fn spliced_entries_equal_formatted_ones() {
        use super::*;
        let mut n = 0;
        for (op_name, op, types) in OPS {
            for &t in types {
                let (_, tname, ty) = TYPES[t as usize];
                for (scope, ptx_scope) in SCOPES {
                    for &(order, sem) in orders_of(op) {
                        for (space, shared) in [("global", false), ("shared", true)] {
                            if shared && matches!(t, T_F16 | T_BF16) {
                                continue;
                            }
                            let e = &ENTRIES[n];
                            n += 1;
                            assert_eq!(e.name, format!("{op_name}{scope}{order}.{tname}.{space}"));
                            let plain = scope.is_empty() && order.is_empty() && op < LOAD;
                            let q = if plain {
                                format!(".{space}")
                            } else {
                                format!(".{sem}.{ptx_scope}.{space}")
                            };
                            assert_eq!(e.ptx, ptx(op, t, &q, &format!(".{space}")), "{}", e.name);
                            let addr = if shared { Ty::U32 } else { Ty::U64 };
                            assert_eq!(e.args[0], addr);
                            assert_eq!(
                                e.args.len(),
                                1 + (op != LOAD) as usize + (op == CAS) as usize
                            );
                            assert!(e.args[1..].iter().chain(e.rets).all(|&r| r == ty));
                            assert_eq!(e.rets.len(), (op != STORE) as usize);
                        }
                    }
                }
            }
        }
        assert_eq!(n, ENTRIES.len());
        assert!(ENTRIES.iter().all(|e| e.name.starts_with(PREFIX)));
    }

    #[test]
    fn operations_follow_cuda() {
        use super::*;
        assert_eq!(apply::<INC, T_U32>(17, 17, 0), 0);
        assert_eq!(apply::<INC, T_U32>(3, 17, 0), 4);
        assert_eq!(apply::<DEC, T_U32>(0, 9, 0), 9);
        assert_eq!(apply::<DEC, T_U32>(12, 9, 0), 9);
        assert_eq!(apply::<DEC, T_U32>(5, 9, 0), 4);
        assert_eq!(
            apply::<MIN, T_I32>((-3i32) as u32 as u64, 2, 0),
            (-3i32) as u32 as u64
        );
        assert_eq!(apply::<SUB, T_U32>(1, 2, 0), 0xffff_ffff);
        assert_eq!(apply::<CAS, T_U64>(5, 5, 9), 9);
        assert_eq!(apply::<CAS, T_U64>(5, 6, 9), 5);
        let f = |x: f32| x.to_bits() as u64;
        assert_eq!(apply::<MAX, T_F32>(f(-1.0), f(2.5), 0), f(2.5));
        assert_eq!(apply::<ADD, T_F32>(f(1.5), f(2.0), 0), f(3.5));
    }
}
