//! The table entries of `wmma`, built on first use: per fragment kind a load (and for
//! accumulators a store) per memory space and layout, and one `mma` per form, each with its PTX
//! and simulator semantics; plus the lookups the front end finds them by ([`WMMA`]).
//!
//! PTX fragments are vectors of 32-bit (or f64) registers; the IR holds one register per
//! element, so templates pack elements into private `.b32` registers (`mov.b32 {lo, hi}` for
//! 16-bit elements, `prmt` for bytes) and unpack results the same way. ptxas folds the moves.

use std::fmt::Write;
use std::sync::OnceLock;

use kernel_ir::ast::{WmmaFragment, WmmaTable};
use kernel_ir::ir::Ty;

use super::wmma_kinds::{mma_forms, Kind, Prec, Role, KINDS, MMA_FORMS};
use super::wmma_sim::{sim_load, sim_mma, sim_store};
use super::{Class, IntrinsicDef, SimFn, SimWarpFn};
use crate::types::fragment::FRAGMENT_TYPES;

/// `sim_load`/`sim_store` for every code `0..68`, `sim_mma` for every form.
macro_rules! codes {
    ($f:ident: $t:ty; $($n:literal)*) => { [$($f::<$n> as $t),*] };
}
#[rustfmt::skip]
static LOADS: [SimFn; 68] = codes!(sim_load: SimFn; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20
    21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51
    52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67);
#[rustfmt::skip]
static STORES: [SimFn; 68] = codes!(sim_store: SimFn; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20
    21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51
    52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67);
#[rustfmt::skip]
static MMAS: [SimWarpFn; MMA_FORMS] = codes!(sim_mma: SimWarpFn; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14
    15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35);

fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}
fn leak_tys(t: Vec<Ty>) -> &'static [Ty] {
    Box::leak(t.into_boxed_slice())
}

fn layout(col: bool) -> &'static str {
    if col {
        "col"
    } else {
        "row"
    }
}
fn space_name(shared: bool) -> &'static str {
    if shared {
        "shared"
    } else {
        "global"
    }
}

/// The PTX registers of one fragment operand, whose elements are the template operands
/// `{p}{first}...` (`p` = `a` or `d`); `tag` names its private registers.
struct Operand {
    /// Declarations of the private registers.
    decl: String,
    /// The register list, braces escaped (`{{%r0, %r1}}`).
    list: String,
    /// Instructions that pack the elements into the private registers (inputs).
    pack: String,
    /// Instructions that unpack the private registers into the elements (results).
    unpack: String,
}

fn operand(kind: &Kind, p: char, first: usize, tag: &str) -> Operand {
    let prec = kind.prec;
    let per = prec.per_reg();
    let direct = matches!(prec, Prec::F32 | Prec::F64 | Prec::S32);
    let regs = kind.count.div_ceil(per);
    let el = |i: usize| format!("{{{p}{}}}", first + i);
    let mut o = Operand {
        decl: String::new(),
        list: String::new(),
        pack: String::new(),
        unpack: String::new(),
    };
    let name = |r: usize| format!("%fcw{{uid}}_{tag}{r}");
    if direct {
        let items: Vec<String> = (0..kind.count).map(el).collect();
        o.list = format!("{{{{{}}}}}", items.join(", "));
        return o;
    }
    let _ = write!(o.decl, ".reg .b32 %fcw{{uid}}_{tag}<{regs}>; ");
    if per == 4 {
        let _ = write!(o.decl, ".reg .b32 %fcw{{uid}}_{tag}x<2>; ");
    }
    let items: Vec<String> = (0..regs).map(name).collect();
    o.list = format!("{{{{{}}}}}", items.join(", "));
    for r in 0..regs {
        let w = name(r);
        match per {
            1 => {
                let _ = write!(o.pack, "mov.b32 {w}, {}; ", el(r));
                let _ = write!(o.unpack, "mov.b32 {}, {w}; ", el(r));
            }
            2 => {
                let (lo, hi) = (el(2 * r), el(2 * r + 1));
                let _ = write!(o.pack, "mov.b32 {w}, {{{{{lo}, {hi}}}}}; ");
                let _ = write!(o.unpack, "mov.b32 {{{{{lo}, {hi}}}}}, {w}; ");
            }
            _ => {
                // Bytes sit normalized in 32-bit registers: gather the low bytes in two pairs,
                // then join the pairs.
                let x = format!("%fcw{{uid}}_{tag}x");
                let e: Vec<String> = (0..4).map(|j| el(4 * r + j)).collect();
                let _ = write!(
                    o.pack,
                    "prmt.b32 {x}0, {}, {}, 0x0040; prmt.b32 {x}1, {}, {}, 0x0040; prmt.b32 {w}, {x}0, {x}1, 0x5410; ",
                    e[0], e[1], e[2], e[3]
                );
                // Byte j of the word into its own register: unsigned zero-extends (upper bytes
                // from the zero operand), signed replicates the byte's sign (selector bit 3).
                for (j, ej) in e.iter().enumerate() {
                    let sel = if prec == Prec::S8 {
                        ((8 + j) * 0x111) << 4 | j
                    } else {
                        0x4440 + j
                    };
                    let _ = write!(o.unpack, "prmt.b32 {ej}, {w}, 0, {sel:#06X}; ");
                }
            }
        }
    }
    o
}

fn role_letter(r: Role, store: bool) -> &'static str {
    match (r, store) {
        (Role::A, _) => "a",
        (Role::B, _) => "b",
        (Role::Acc, false) => "c",
        (Role::Acc, true) => "d",
    }
}

fn load_entry(ki: usize, shared: bool, col: bool) -> IntrinsicDef {
    let kind = &KINDS[ki];
    let code = 4 * ki + 2 * shared as usize + col as usize;
    let addr = if shared { Ty::U32 } else { Ty::U64 };
    let (ty, shape) = (kind.prec.ptx(), kind.shape());
    let (l, sp) = (layout(col), space_name(shared));
    let r = role_letter(kind.role, false);
    let o = operand(kind, 'd', 0, "l");
    IntrinsicDef {
        name: leak(format!("wmma.load.{r}.{l}.{shape}.{ty}.{sp}")),
        args: leak_tys(vec![addr, Ty::U32]),
        rets: leak_tys(vec![kind.prec.ir(); kind.count]),
        min_sm: kind.min_sm,
        ptx: leak(
            format!(
                "{}wmma.load.{r}.sync.aligned.{l}.{shape}.{sp}.{ty} {}, [{{a0}}], {{a1}}; {}",
                o.decl, o.list, o.unpack
            )
            .trim_end_matches([' ', ';'])
            .to_string(),
        ),
        class: Class::Memory,
        sim: Some(LOADS[code]),
        sim_warp: None,
        reg: None,
    }
}

fn store_entry(ki: usize, shared: bool, col: bool) -> IntrinsicDef {
    let kind = &KINDS[ki];
    let code = 4 * ki + 2 * shared as usize + col as usize;
    let addr = if shared { Ty::U32 } else { Ty::U64 };
    let (ty, shape) = (kind.prec.ptx(), kind.shape());
    let (l, sp) = (layout(col), space_name(shared));
    let o = operand(kind, 'a', 2, "s");
    let mut args = vec![addr, Ty::U32];
    args.extend(std::iter::repeat_n(kind.prec.ir(), kind.count));
    IntrinsicDef {
        name: leak(format!("wmma.store.d.{l}.{shape}.{ty}.{sp}")),
        args: leak_tys(args),
        rets: &[],
        min_sm: kind.min_sm,
        ptx: leak(format!(
            "{}{}wmma.store.d.sync.aligned.{l}.{shape}.{sp}.{ty} [{{a0}}], {}, {{a1}}",
            o.decl, o.pack, o.list
        )),
        class: Class::Memory,
        sim: Some(STORES[code]),
        sim_warp: None,
        reg: None,
    }
}

fn mma_entry(i: usize) -> IntrinsicDef {
    let f = mma_forms()[i];
    let (ka, kb, kc, kd) = (&KINDS[f.a], &KINDS[f.b], &KINDS[f.c], &KINDS[f.d]);
    let a = operand(ka, 'a', 0, "a");
    let b = operand(kb, 'a', ka.count, "b");
    let c = operand(kc, 'a', ka.count + kb.count, "c");
    let d = operand(kd, 'd', 0, "d");
    let (al, bl, shape) = (layout(f.a_col), layout(f.b_col), ka.shape());
    let (dt, at, bt, ct) = (kd.prec.ptx(), ka.prec.ptx(), kb.prec.ptx(), kc.prec.ptx());
    // f16 inputs name only D's and C's types; the others name all four.
    let types = if ka.prec == Prec::F16 {
        format!("{dt}.{ct}")
    } else {
        format!("{dt}.{at}.{bt}.{ct}")
    };
    let rnd = if ka.prec == Prec::F64 { ".rn" } else { "" };
    let mut args = Vec::new();
    for k in [ka, kb, kc] {
        args.extend(std::iter::repeat_n(k.prec.ir(), k.count));
    }
    IntrinsicDef {
        name: leak(format!("wmma.mma.{al}.{bl}.{shape}.{dt}.{at}.{bt}.{ct}")),
        args: leak_tys(args),
        rets: leak_tys(vec![kd.prec.ir(); kd.count]),
        min_sm: ka.min_sm,
        ptx: leak(
            format!(
                "{}{}{}{}{}{}{}wmma.mma.sync.aligned.{al}.{bl}.{shape}{rnd}.{types} {}, {}, {}, {}; {}",
                a.decl, b.decl, c.decl, d.decl, a.pack, b.pack, c.pack, d.list, a.list, b.list,
                c.list, d.unpack
            )
            .trim_end_matches([' ', ';'])
            .to_string(),
        ),
        class: Class::Warp,
        sim: None,
        sim_warp: Some(MMAS[i]),
        reg: None,
    }
}

/// All entries: per kind 4 loads and (accumulators) 4 stores at `2 * shared + col`, then the
/// `mma` forms.
struct Built {
    entries: Vec<IntrinsicDef>,
    /// Index of each kind's first load / store in `entries`.
    loads: Vec<usize>,
    stores: Vec<Option<usize>>,
    mma: usize,
}

fn built() -> &'static Built {
    static B: OnceLock<Built> = OnceLock::new();
    B.get_or_init(|| {
        let mut entries = Vec::new();
        let (mut loads, mut stores) = (Vec::new(), Vec::new());
        for (ki, kind) in KINDS.iter().enumerate() {
            loads.push(entries.len());
            for at in 0..4 {
                entries.push(load_entry(ki, at >= 2, at & 1 == 1));
            }
            if kind.role == Role::Acc {
                stores.push(Some(entries.len()));
                for at in 0..4 {
                    entries.push(store_entry(ki, at >= 2, at & 1 == 1));
                }
            } else {
                stores.push(None);
            }
        }
        let mma = entries.len();
        entries.extend((0..MMA_FORMS).map(mma_entry));
        Built {
            entries,
            loads,
            stores,
            mma,
        }
    })
}

/// Every `wmma` entry.
pub(crate) fn entries() -> &'static [IntrinsicDef] {
    &built().entries
}

fn fragments() -> &'static [WmmaFragment] {
    static F: OnceLock<Vec<WmmaFragment>> = OnceLock::new();
    F.get_or_init(|| {
        let b = built();
        let e = &b.entries;
        FRAGMENT_TYPES
            .iter()
            .map(|t| {
                let kind = &KINDS[t.kind];
                let (rows, cols) = kind.tile();
                let ok = |at: usize| t.col_major.is_none_or(|c| c == (at & 1 == 1));
                let load = std::array::from_fn(|at| ok(at).then(|| &e[b.loads[t.kind] + at]));
                let store = std::array::from_fn(|at| b.stores[t.kind].map(|s| &e[s + at]));
                WmmaFragment {
                    name: t.name,
                    rows,
                    cols,
                    mem: kind.prec.ir(),
                    elems: kind.count as u32,
                    col_major: t.col_major,
                    load,
                    store,
                }
            })
            .collect()
    })
}

fn fragment(name: &str) -> Option<&'static WmmaFragment> {
    // Every fragment type's name starts `Fragment<`; others fail fast.
    if !name.starts_with("Fragment<") {
        return None;
    }
    fragments().iter().find(|f| f.name == name)
}

fn mma(d: &str, a: &str, b: &str, c: &str) -> Option<&'static IntrinsicDef> {
    let ty = |n: &str| FRAGMENT_TYPES.iter().find(|t| t.name == n);
    let (d, a, b, c) = (ty(d)?, ty(a)?, ty(b)?, ty(c)?);
    let i = mma_forms().iter().position(|f| {
        (f.a, f.b, f.c, f.d) == (a.kind, b.kind, c.kind, d.kind)
            && a.col_major == Some(f.a_col)
            && b.col_major == Some(f.b_col)
    })?;
    Some(&built().entries[built().mma + i])
}

/// What the front end knows `wmma` fragments by.
pub static WMMA: WmmaTable = WmmaTable { fragment, mma };
