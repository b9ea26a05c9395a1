//! Atomic read-modify-write, load and store on global or shared memory (`atomicAdd` and
//! friends, guide B.14).
//!
//! Each takes a reference to a slice element or shared-array element
//! (`atomic_add(&mut hist[b], 1)`) and returns the old value. The plain names are CUDA's: device scope, relaxed ordering. Suffixes
//! choose another scope (`_block`: atomic only with respect to the block, as `atomicAdd_block`;
//! `_system`: also with respect to the host and peer devices, as `atomicAdd_system`) and another
//! ordering (`_acquire`, `_release`, `_acq_rel`, as `cuda::atomic_ref` with `memory_order_*`), in
//! that order: `atomic_add_block_acq_rel`. The compiler picks the PTX instruction for the value
//! type and for the memory the reference points into (`atom.shared` / `atom.global`, and
//! `atom.shared::cluster` for another block's shared memory through `map_shared_rank_mut`,
//! sm_90).
//!
//! Entries are named `function.type.space` (`atomic_add_block.u32.shared`); each function's
//! entries come from its name (operation, scope, ordering: `family`). Float min/max are CAS
//! loops (PTX has no `atom.min.f32`). The simulator runs each entry as one uninterrupted
//! read-modify-write through `SimEnv::atomic_read/atomic_write`, which the race detector treats
//! as atomic.

use kernel_ir::ir::{Space, Ty};

use super::{Class, DeviceType, IntrinsicDef, SimEnv, SimFn};

/// Types with atomic add, exchange, min, max, load and store: 32/64-bit integers and floats.
pub trait AtomicValue: DeviceType {}
/// Types with `atomic_add`: every [`AtomicValue`], plus `f16` (sm_70) and `bf16` (sm_90) on
/// global memory only.
pub trait AtomicAddValue: DeviceType {}
/// Integer types with the bitwise atomics and `atomic_sub`.
pub trait AtomicInt: AtomicValue {}
/// Types `atomic_cas` swaps: the 32- and 64-bit integers, and `u16` (CUDA's `unsigned short`
/// overload, `atom.cas.b16`).
pub trait AtomicCasValue: DeviceType {}

value_types!(AtomicValue, ATOMIC_VALUE_TYPES: u32, i32, u64, i64, f32, f64);
value_types!(AtomicInt, ATOMIC_INT_TYPES: u32, i32, u64, i64);
value_types!(AtomicCasValue, ATOMIC_CAS_TYPES: u32, i32, u64, i64, u16);
value_types!(
    AtomicAddValue,
    ATOMIC_ADD_TYPES: u32, i32, u64, i64, f32, f64, half::f16, half::bf16
);

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
const T_U16: u8 = 8;

const TYPES: [(u8, &str, Ty); 9] = [
    (T_U32, "u32", Ty::U32),
    (T_I32, "i32", Ty::I32),
    (T_U64, "u64", Ty::U64),
    (T_I64, "i64", Ty::I64),
    (T_F32, "f32", Ty::F32),
    (T_F64, "f64", Ty::F64),
    (T_F16, "f16", Ty::F16),
    (T_BF16, "bf16", Ty::BF16),
    (T_U16, "u16", Ty::U16),
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
    ("atomic_cas", CAS, &[T_U32, T_I32, T_U64, T_I64, T_U16]),
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

/// Memory spaces, as const-generic codes: global, the block's shared memory, and distributed
/// shared memory (another block's of the cluster, through `map_shared_rank`; sm_90).
const S_GLOBAL: u8 = 0;
const S_SHARED: u8 = 1;
const S_CLUSTER: u8 = 2;

/// `(code, name, PTX space, IR space)`; an entry's name ends in the space's name.
const SPACES: [(u8, &str, &str, Space); 3] = [
    (S_GLOBAL, "global", "global", Space::Global),
    (S_SHARED, "shared", "shared", Space::Shared),
    (S_CLUSTER, "cluster", "shared::cluster", Space::Cluster),
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
            let eq = match T {
                T_U16 => old as u16 == a as u16,
                _ if bits32 => old as u32 == a as u32,
                _ => old == a,
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
        T_F16 | T_BF16 | T_U16 => r & 0xffff,
        _ if bits32 => r & 0xffff_ffff,
        _ => r,
    }
}

/// One atomic read-modify-write: `args` = (address, operand[, new value for CAS]); returns the old
/// value.
fn sim_atomic<const OP: u8, const T: u8, const SPACE: u8>(
    e: &mut dyn SimEnv,
    args: &[u64],
    out: &mut [u64],
) {
    let space = SPACES[SPACE as usize].3;
    let bytes = match T {
        T_U32 | T_I32 | T_F32 => 4,
        T_F16 | T_BF16 | T_U16 => 2,
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

fn pick_space<const OP: u8, const T: u8>(space: u8) -> SimFn {
    match space {
        S_GLOBAL => sim_atomic::<OP, T, S_GLOBAL>,
        S_SHARED => sim_atomic::<OP, T, S_SHARED>,
        _ => sim_atomic::<OP, T, S_CLUSTER>,
    }
}

fn pick_ty<const OP: u8>(t: u8, shared: u8) -> SimFn {
    match t {
        T_U32 => pick_space::<OP, T_U32>(shared),
        T_I32 => pick_space::<OP, T_I32>(shared),
        T_U64 => pick_space::<OP, T_U64>(shared),
        T_I64 => pick_space::<OP, T_I64>(shared),
        T_F32 => pick_space::<OP, T_F32>(shared),
        T_F64 => pick_space::<OP, T_F64>(shared),
        T_F16 => pick_space::<OP, T_F16>(shared),
        T_BF16 => pick_space::<OP, T_BF16>(shared),
        _ => pick_space::<OP, T_U16>(shared),
    }
}

fn pick(op: u8, t: u8, shared: u8) -> SimFn {
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
    let b = match t {
        T_U16 => "b16",
        _ if wide => "b64",
        _ => "b32",
    };
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
        // 16-bit integers live in 32-bit registers; the 16-bit `atom` takes 16-bit ones.
        CAS if t == T_U16 => format!(
            ".reg .b16 %fca{{uid}}_h<3>; cvt.u16.u32 %fca{{uid}}_h0, {{a1}}; \
             cvt.u16.u32 %fca{{uid}}_h1, {{a2}}; \
             atom{q}.cas.b16 %fca{{uid}}_h2, [{{a0}}], %fca{{uid}}_h0, %fca{{uid}}_h1; \
             cvt.u32.u16 {{d0}}, %fca{{uid}}_h2"
        ),
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
/// type differ only there, so [`TABLE`] formats each template once and splices the rest.
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

/// Every entry, each family's (one API function: `atomic_add_block_acquire`) together, and where
/// each family lies in `entries`.
struct Table {
    entries: Vec<IntrinsicDef>,
    families: Vec<(&'static str, usize, usize)>,
}

/// The entries of every op x scope x ordering x type x space, built once per process on the
/// first atomic a kernel uses. All their strings go into one text and all their argument lists
/// into one slice, each leaked once: 1272 entries of `format!`s and leaked boxes were 7.5 M
/// instructions (over 1 ms).
static TABLE: std::sync::LazyLock<Table> = std::sync::LazyLock::new(|| {
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
    let mut families = Vec::new();
    let push = |text: &mut String, parts: &[&str]| {
        let start = text.len();
        parts.iter().for_each(|p| text.push_str(p));
        (start, text.len())
    };
    for (op_name, op, types) in OPS {
        let templates: Vec<String> = types
            .iter()
            .map(|&t| ptx(op, t, &Q_MARK.to_string(), &SPACE_MARK.to_string()))
            .collect();
        let cuts: Vec<_> = templates.iter().map(|t| cut(t)).collect();
        for (scope, ptx_scope) in SCOPES {
            for &(order, sem) in orders_of(op) {
                let family = push(&mut text, &[op_name, scope, order]);
                let first = pending.len();
                for (&t, pieces) in types.iter().zip(&cuts) {
                    let (_, tname, ty) = TYPES[t as usize];
                    for (code, space_name, space, ir_space) in SPACES {
                        let shared = code != S_GLOBAL;
                        // 16-bit float atomics on shared memory: ptxas 13 fails on them for
                        // sm_90 (internal error), so they exist on global memory only.
                        if shared && matches!(t, T_F16 | T_BF16) {
                            continue;
                        }
                        let addr = ir_space.addr_ty();
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
                        let name = push(
                            &mut text,
                            &[op_name, scope, order, ".", tname, ".", space_name],
                        );
                        // Plain `atom` is already relaxed at device scope; loads and stores
                        // always spell it out (a bare `ld` is not atomic).
                        let plain = scope.is_empty() && order.is_empty() && op < LOAD;
                        let q: &[&str] = if plain {
                            &[".", space]
                        } else {
                            &[".", sem, ".", ptx_scope, ".", space]
                        };
                        let ptx_at = text.len();
                        splice(&mut text, pieces, q, space);
                        pending.push(Pending {
                            name,
                            ptx: (ptx_at, text.len()),
                            args: (args_at, rets_at),
                            rets: (rets_at, tys.len()),
                            min_sm: if t == T_BF16 || code == S_CLUSTER {
                                90
                            } else {
                                70
                            },
                            sim: pick(op, t, code),
                        });
                    }
                }
                families.push((family, first, pending.len()));
            }
        }
    }
    let text: &'static str = Box::leak(text.into_boxed_str());
    let tys: &'static [Ty] = Box::leak(tys.into_boxed_slice());
    let entries = pending
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
            reg: None,
        })
        .collect();
    let families = families
        .into_iter()
        .map(|((a, b), first, end)| (&text[a..b], first, end))
        .collect();
    Table { entries, families }
});

/// The entries of the atomic function `name` (`atomic_add_block_acquire`): one per value type
/// and memory space. Its name says its operation, scope and ordering; a name that says none
/// has no entries (`every_function_has_its_entries`).
fn family(name: &str) -> &'static [IntrinsicDef] {
    let t = &*TABLE;
    match t.families.iter().find(|(n, ..)| *n == name) {
        Some(&(_, first, end)) => &t.entries[first..end],
        None => &[],
    }
}

/// Declares atomic functions with their scoped and ordered variants (one `intrinsics!` table):
/// each item is the function's doc, `fn name {signature}` and its variants with their scope and
/// ordering for the doc. The entries of each come from its name ([`family`]).
macro_rules! atomic_fns {
    (table $table:ident, writes $w:tt; $($rest:tt)*) => {
        atomic_fns!(@fn $table $w [] $($rest)*);
    };
    // Every function declared: hand them to `intrinsics!`.
    (@fn $table:ident $w:tt [$($items:tt)*]) => {
        intrinsics! { table $table; $($items)* }
    };
    (@fn $table:ident $w:tt [$($items:tt)*]
        $(#[$m:meta])* fn $f0:ident {$($sig:tt)*} [$($f:ident $scope:literal $order:literal),*];
        $($rest:tt)*
    ) => {
        atomic_fns!(@var $table $w [
            $($items)*
            $(#[$m])*
            pub fn $f0 $($sig)* = access($w, false, entries() = family(stringify!($f0)));
        ] $f0 {$($sig)*} [$($f $scope $order),*] $($rest)*);
    };
    // The next variant of function `$f0`.
    (@var $table:ident $w:tt [$($items:tt)*] $f0:ident {$($sig:tt)*}
        [$f:ident $scope:literal $order:literal $(, $fs:ident $ss:literal $os:literal)*]
        $($rest:tt)*
    ) => {
        atomic_fns!(@var $table $w [
            $($items)*
            #[doc = concat!(
                "`", stringify!($f0), "` at ", $scope, " scope, ", $order, " ordering."
            )]
            pub fn $f $($sig)* = access($w, false, entries() = family(stringify!($f)));
        ] $f0 {$($sig)*} [$($fs $ss $os),*] $($rest)*);
    };
    (@var $table:ident $w:tt [$($items:tt)*] $f0:ident {$($sig:tt)*} [] $($rest:tt)*) => {
        atomic_fns!(@fn $table $w [$($items)*] $($rest)*);
    };
}

atomic_fns! {
    table ARITHMETIC, writes true;

    /// `atomicAdd`: `*p += v` (wrapping for integers); returns the old value.
    fn atomic_add {<T: AtomicAddValue>(p: &mut T, v: T) -> T} [
        atomic_add_acquire "device" "acquire",
        atomic_add_release "device" "release",
        atomic_add_acq_rel "device" "acquire-release",
        atomic_add_block "block" "relaxed",
        atomic_add_block_acquire "block" "acquire",
        atomic_add_block_release "block" "release",
        atomic_add_block_acq_rel "block" "acquire-release",
        atomic_add_system "system" "relaxed",
        atomic_add_system_acquire "system" "acquire",
        atomic_add_system_release "system" "release",
        atomic_add_system_acq_rel "system" "acquire-release"
    ];
    /// `atomicSub`: `*p -= v` (wrapping); returns the old value.
    fn atomic_sub {<T: AtomicInt>(p: &mut T, v: T) -> T} [
        atomic_sub_acquire "device" "acquire",
        atomic_sub_release "device" "release",
        atomic_sub_acq_rel "device" "acquire-release",
        atomic_sub_block "block" "relaxed",
        atomic_sub_block_acquire "block" "acquire",
        atomic_sub_block_release "block" "release",
        atomic_sub_block_acq_rel "block" "acquire-release",
        atomic_sub_system "system" "relaxed",
        atomic_sub_system_acquire "system" "acquire",
        atomic_sub_system_release "system" "release",
        atomic_sub_system_acq_rel "system" "acquire-release"
    ];
    /// `atomicExch`: `*p = v`; returns the old value.
    fn atomic_exch {<T: AtomicValue>(p: &mut T, v: T) -> T} [
        atomic_exch_acquire "device" "acquire",
        atomic_exch_release "device" "release",
        atomic_exch_acq_rel "device" "acquire-release",
        atomic_exch_block "block" "relaxed",
        atomic_exch_block_acquire "block" "acquire",
        atomic_exch_block_release "block" "release",
        atomic_exch_block_acq_rel "block" "acquire-release",
        atomic_exch_system "system" "relaxed",
        atomic_exch_system_acquire "system" "acquire",
        atomic_exch_system_release "system" "release",
        atomic_exch_system_acq_rel "system" "acquire-release"
    ];
    /// `atomicMin`: `*p = min(*p, v)`; returns the old value (floats: a compare-and-swap loop).
    fn atomic_min {<T: AtomicValue>(p: &mut T, v: T) -> T} [
        atomic_min_acquire "device" "acquire",
        atomic_min_release "device" "release",
        atomic_min_acq_rel "device" "acquire-release",
        atomic_min_block "block" "relaxed",
        atomic_min_block_acquire "block" "acquire",
        atomic_min_block_release "block" "release",
        atomic_min_block_acq_rel "block" "acquire-release",
        atomic_min_system "system" "relaxed",
        atomic_min_system_acquire "system" "acquire",
        atomic_min_system_release "system" "release",
        atomic_min_system_acq_rel "system" "acquire-release"
    ];
    /// `atomicMax`: `*p = max(*p, v)`; returns the old value (floats: a compare-and-swap loop).
    fn atomic_max {<T: AtomicValue>(p: &mut T, v: T) -> T} [
        atomic_max_acquire "device" "acquire",
        atomic_max_release "device" "release",
        atomic_max_acq_rel "device" "acquire-release",
        atomic_max_block "block" "relaxed",
        atomic_max_block_acquire "block" "acquire",
        atomic_max_block_release "block" "release",
        atomic_max_block_acq_rel "block" "acquire-release",
        atomic_max_system "system" "relaxed",
        atomic_max_system_acquire "system" "acquire",
        atomic_max_system_release "system" "release",
        atomic_max_system_acq_rel "system" "acquire-release"
    ];
}

atomic_fns! {
    table BITWISE, writes true;

    /// `atomicInc`: `*p = if *p >= limit { 0 } else { *p + 1 }`; returns the old value.
    fn atomic_inc {(p: &mut u32, limit: u32) -> u32} [
        atomic_inc_acquire "device" "acquire",
        atomic_inc_release "device" "release",
        atomic_inc_acq_rel "device" "acquire-release",
        atomic_inc_block "block" "relaxed",
        atomic_inc_block_acquire "block" "acquire",
        atomic_inc_block_release "block" "release",
        atomic_inc_block_acq_rel "block" "acquire-release",
        atomic_inc_system "system" "relaxed",
        atomic_inc_system_acquire "system" "acquire",
        atomic_inc_system_release "system" "release",
        atomic_inc_system_acq_rel "system" "acquire-release"
    ];
    /// `atomicDec`: `*p = if *p == 0 || *p > limit { limit } else { *p - 1 }`; returns the old
    /// value.
    fn atomic_dec {(p: &mut u32, limit: u32) -> u32} [
        atomic_dec_acquire "device" "acquire",
        atomic_dec_release "device" "release",
        atomic_dec_acq_rel "device" "acquire-release",
        atomic_dec_block "block" "relaxed",
        atomic_dec_block_acquire "block" "acquire",
        atomic_dec_block_release "block" "release",
        atomic_dec_block_acq_rel "block" "acquire-release",
        atomic_dec_system "system" "relaxed",
        atomic_dec_system_acquire "system" "acquire",
        atomic_dec_system_release "system" "release",
        atomic_dec_system_acq_rel "system" "acquire-release"
    ];
    /// `atomicCAS`: `*p = if *p == compare { v } else { *p }`; returns the old value. Also on
    /// `u16`, which touches only its own two bytes of the word.
    fn atomic_cas {<T: AtomicCasValue>(p: &mut T, compare: T, v: T) -> T} [
        atomic_cas_acquire "device" "acquire",
        atomic_cas_release "device" "release",
        atomic_cas_acq_rel "device" "acquire-release",
        atomic_cas_block "block" "relaxed",
        atomic_cas_block_acquire "block" "acquire",
        atomic_cas_block_release "block" "release",
        atomic_cas_block_acq_rel "block" "acquire-release",
        atomic_cas_system "system" "relaxed",
        atomic_cas_system_acquire "system" "acquire",
        atomic_cas_system_release "system" "release",
        atomic_cas_system_acq_rel "system" "acquire-release"
    ];
    /// `atomicAnd`: `*p &= v`; returns the old value.
    fn atomic_and {<T: AtomicInt>(p: &mut T, v: T) -> T} [
        atomic_and_acquire "device" "acquire",
        atomic_and_release "device" "release",
        atomic_and_acq_rel "device" "acquire-release",
        atomic_and_block "block" "relaxed",
        atomic_and_block_acquire "block" "acquire",
        atomic_and_block_release "block" "release",
        atomic_and_block_acq_rel "block" "acquire-release",
        atomic_and_system "system" "relaxed",
        atomic_and_system_acquire "system" "acquire",
        atomic_and_system_release "system" "release",
        atomic_and_system_acq_rel "system" "acquire-release"
    ];
    /// `atomicOr`: `*p |= v`; returns the old value.
    fn atomic_or {<T: AtomicInt>(p: &mut T, v: T) -> T} [
        atomic_or_acquire "device" "acquire",
        atomic_or_release "device" "release",
        atomic_or_acq_rel "device" "acquire-release",
        atomic_or_block "block" "relaxed",
        atomic_or_block_acquire "block" "acquire",
        atomic_or_block_release "block" "release",
        atomic_or_block_acq_rel "block" "acquire-release",
        atomic_or_system "system" "relaxed",
        atomic_or_system_acquire "system" "acquire",
        atomic_or_system_release "system" "release",
        atomic_or_system_acq_rel "system" "acquire-release"
    ];
    /// `atomicXor`: `*p ^= v`; returns the old value.
    fn atomic_xor {<T: AtomicInt>(p: &mut T, v: T) -> T} [
        atomic_xor_acquire "device" "acquire",
        atomic_xor_release "device" "release",
        atomic_xor_acq_rel "device" "acquire-release",
        atomic_xor_block "block" "relaxed",
        atomic_xor_block_acquire "block" "acquire",
        atomic_xor_block_release "block" "release",
        atomic_xor_block_acq_rel "block" "acquire-release",
        atomic_xor_system "system" "relaxed",
        atomic_xor_system_acquire "system" "acquire",
        atomic_xor_system_release "system" "release",
        atomic_xor_system_acq_rel "system" "acquire-release"
    ];
}

atomic_fns! {
    table LOADS, writes false;

    /// An atomic load of `*p` (`cuda::atomic_ref::load`), never torn and never cached across calls.
    fn atomic_load {<T: AtomicValue>(p: &T) -> T} [
        atomic_load_acquire "device" "acquire",
        atomic_load_block "block" "relaxed",
        atomic_load_block_acquire "block" "acquire",
        atomic_load_system "system" "relaxed",
        atomic_load_system_acquire "system" "acquire"
    ];
}

atomic_fns! {
    table STORES, writes true;

    /// An atomic store of `v` to `*p` (`cuda::atomic_ref::store`).
    fn atomic_store {<T: AtomicValue>(p: &mut T, v: T)} [
        atomic_store_release "device" "release",
        atomic_store_block "block" "relaxed",
        atomic_store_block_release "block" "release",
        atomic_store_system "system" "relaxed",
        atomic_store_system_release "system" "release"
    ];
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn functions_find_their_entries_by_name() {
        // Global 8 types, shared and cluster 6 each (no 16-bit floats).
        assert_eq!(family("atomic_add_block_acq_rel").len(), 20);
        assert_eq!(family("atomic_load_acquire").len(), 18);
        let add = family("atomic_add");
        let dsmem = add
            .iter()
            .find(|e| e.name == "atomic_add.u32.cluster")
            .expect("a distributed shared memory add");
        assert_eq!(dsmem.ptx, "atom.shared::cluster.add.u32 {d0}, [{a0}], {a1}");
        assert_eq!(
            (dsmem.min_sm, dsmem.access_space()),
            (90, kernel_ir::ir::Space::Cluster)
        );
        assert!(family("atomic_load_release").is_empty());
        assert!(family("atomic_store_acquire").is_empty());
        assert!(family("atomic_nope").is_empty());
        let cas = family("atomic_cas_system");
        assert!(cas.iter().any(|e| e.name == "atomic_cas_system.i64.shared"));
        let cas16 = cas
            .iter()
            .find(|e| e.name == "atomic_cas_system.u16.shared");
        assert!(cas16.is_some_and(|e| e
            .ptx
            .contains("atom.relaxed.sys.shared.cas.b16 %fca{uid}_h2, [{a0}]")));
        assert!(family("atomic_inc").iter().all(|e| e.rets == [Ty::U32]));
        // 16-bit float adds exist on global memory only.
        let add = family("atomic_add");
        assert!(add
            .iter()
            .any(|e| e.args[0] == Ty::U64 && e.rets == [Ty::F16]));
        assert!(!add
            .iter()
            .any(|e| e.args[0] == Ty::U32 && e.rets == [Ty::F16]));
    }

    /// Every function's entries exist, and on global memory they take exactly the value types of
    /// its stub's trait.
    #[test]
    fn every_function_has_its_entries() {
        let mut n = 0;
        for t in [&ARITHMETIC, &BITWISE, &LOADS, &STORES] {
            for s in t.specs {
                let name = s.name;
                let want: &[Ty] = if name.starts_with("atomic_add") {
                    ATOMIC_ADD_TYPES
                } else if ["atomic_inc", "atomic_dec"]
                    .iter()
                    .any(|p| name.starts_with(p))
                {
                    &[Ty::U32]
                } else if name.starts_with("atomic_cas") {
                    ATOMIC_CAS_TYPES
                } else if ["atomic_sub", "atomic_and", "atomic_or", "atomic_xor"]
                    .iter()
                    .any(|p| name.starts_with(p))
                {
                    ATOMIC_INT_TYPES
                } else {
                    ATOMIC_VALUE_TYPES
                };
                let global: Vec<Ty> = (s.entries)()
                    .iter()
                    .filter(|e| e.args[0] == Ty::U64)
                    .map(|e| e.value_lanes()[0])
                    .collect();
                assert_eq!(global, want, "{name}");
                n += 1;
            }
        }
        assert_eq!(n, 11 * 12 + 2 * 6);
    }

    /// The spliced table says what formatting each entry in full says.
    #[test]
    fn spliced_entries_equal_formatted_ones() {
        let mut n = 0;
        for (op_name, op, types) in OPS {
            for (scope, ptx_scope) in SCOPES {
                for &(order, sem) in orders_of(op) {
                    for &t in types {
                        let (_, tname, ty) = TYPES[t as usize];
                        for (code, space_name, space, ir_space) in SPACES {
                            if code != S_GLOBAL && matches!(t, T_F16 | T_BF16) {
                                continue;
                            }
                            let e = &TABLE.entries[n];
                            n += 1;
                            assert_eq!(
                                e.name,
                                format!("{op_name}{scope}{order}.{tname}.{space_name}")
                            );
                            assert_eq!(e.access_space(), ir_space, "{}", e.name);
                            let plain = scope.is_empty() && order.is_empty() && op < LOAD;
                            let q = if plain {
                                format!(".{space}")
                            } else {
                                format!(".{sem}.{ptx_scope}.{space}")
                            };
                            assert_eq!(e.ptx, ptx(op, t, &q, &format!(".{space}")), "{}", e.name);
                            assert_eq!(e.args[0], ir_space.addr_ty());
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
        assert_eq!(n, TABLE.entries.len());
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
        // 16-bit swaps compare and write the halfword only.
        assert_eq!(apply::<CAS, T_U16>(5, 0x1_0005, 0x2_0009), 9);
        assert_eq!(apply::<CAS, T_U16>(5, 6, 9), 5);
        let f = |x: f32| x.to_bits() as u64;
        assert_eq!(apply::<MAX, T_F32>(f(-1.0), f(2.5), 0), f(2.5));
        assert_eq!(apply::<ADD, T_F32>(f(1.5), f(2.0), 0), f(3.5));
    }
}
