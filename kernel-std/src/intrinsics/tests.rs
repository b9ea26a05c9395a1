//! The table's invariants, and every function's stub against the entries it lowers to where the
//! declaration does not already make them agree (a scalar function's entry takes its stub's
//! types by construction).

use kernel_ir::ast::{Callable, FloatTy, IntTy, Type};
use kernel_ir::ir::{Space, Ty};

use super::{all, lookup, specs, Custom, Lowering, MathImpl, SpecialReg};

#[test]
fn every_entry_is_found_by_its_name() {
    for d in all() {
        let id = lookup(d.name).unwrap_or_else(|| panic!("{} not found", d.name));
        assert!(std::ptr::eq(id.def(), d), "{}", d.name);
    }
    for unknown in ["", "atomic_", "atomic_add.u32", "tid.w", "sync_threadz"] {
        assert_eq!(lookup(unknown), None);
    }
}

#[test]
fn names_are_unique() {
    let mut names: Vec<&str> = all().map(|d| d.name).collect();
    names.sort_unstable();
    let before = names.len();
    names.dedup();
    assert_eq!(before, names.len(), "duplicate intrinsic names");
    let mut fns: Vec<&str> = specs().map(|s| s.name).collect();
    fns.sort_unstable();
    let before = fns.len();
    fns.dedup();
    assert_eq!(before, fns.len(), "duplicate function names");
}

/// The IR registers a value of a user-facing type travels in: a scalar, or a struct's fields.
fn lanes(t: &Type) -> Vec<Ty> {
    match t {
        Type::Bool => vec![Ty::Bool],
        Type::Int(i) => vec![match i {
            IntTy::I8 => Ty::I8,
            IntTy::I16 => Ty::I16,
            IntTy::I32 => Ty::I32,
            IntTy::I64 | IntTy::Isize => Ty::I64,
            IntTy::U8 => Ty::U8,
            IntTy::U16 => Ty::U16,
            IntTy::U32 => Ty::U32,
            IntTy::U64 | IntTy::Usize => Ty::U64,
        }],
        Type::Float(f) => vec![match f {
            FloatTy::F16 => Ty::F16,
            FloatTy::BF16 => Ty::BF16,
            FloatTy::F32 => Ty::F32,
            FloatTy::F64 => Ty::F64,
        }],
        Type::Struct(s) => (s.def)()
            .fields
            .iter()
            .flat_map(|(_, f)| lanes(f))
            .collect(),
        other => panic!("no lanes for {other:?}"),
    }
}

#[test]
fn lanes_entries_take_their_stubs_fields() {
    let mut n = 0;
    for s in specs() {
        if let Lowering::Lanes { entry, params, ret } = s.lowering {
            let args: Vec<Ty> = params.iter().flat_map(|p| lanes(&p())).collect();
            assert_eq!(entry.args, args, "{}", s.name);
            assert_eq!(entry.rets, lanes(&ret()), "{}", s.name);
            n += 1;
        }
    }
    assert!(n >= 24, "{n}");
}

#[test]
fn families_hold_one_entry_per_value_type() {
    for s in specs() {
        let Lowering::Typed { arg } = s.lowering else {
            continue;
        };
        let entries = (s.entries)();
        assert!(!entries.is_empty(), "{}", s.name);
        let mut types: Vec<Ty> = entries.iter().map(|e| e.args[arg]).collect();
        types.sort_by_key(|t| format!("{t:?}"));
        types.dedup();
        assert_eq!(
            types.len(),
            entries.len(),
            "{}: two entries for one type",
            s.name
        );
        for e in entries {
            assert_eq!(e.args.len(), entries[0].args.len(), "{}", e.name);
            assert_eq!(e.rets.len(), entries[0].rets.len(), "{}", e.name);
        }
    }
}

/// An access entry's `args[0]` says its memory space; within a space, the pointee's lanes pick
/// one entry.
#[test]
fn access_entries_are_picked_by_space_and_lanes() {
    for s in specs() {
        let Lowering::Access(_) = s.lowering else {
            continue;
        };
        let entries = (s.entries)();
        assert!(!entries.is_empty(), "{} has no entries", s.name);
        for space in [Space::Global, Space::Shared, Space::Cluster] {
            let mut keys: Vec<String> = entries
                .iter()
                .filter(|e| e.access_space() == space)
                .map(|e| format!("{:?}", e.value_lanes()))
                .collect();
            let before = keys.len();
            keys.sort();
            keys.dedup();
            assert_eq!(
                before,
                keys.len(),
                "{}: two entries for one pointee",
                s.name
            );
        }
        assert!(entries
            .iter()
            .all(|e| matches!(e.args[0], Ty::U64 | Ty::U32)));
    }
}

#[test]
fn registers_and_custom_entries_have_their_shapes() {
    for s in specs() {
        match s.lowering {
            Lowering::Dim3 { axes, .. } => {
                for a in axes {
                    assert!(a.args.is_empty() && a.rets == [Ty::U32], "{}", a.name);
                }
            }
            // The math library's approximate units keep their instructions' names
            // (`approx_ex2.f32`).
            // The math library's approximate units (`select_u32` -> `select.u32`).
            Lowering::Scalar(_)
                if crate::math::approx::SPECS
                    .iter()
                    .any(|a| std::ptr::eq(*a, s)) => {}
            Lowering::Scalar(e) if e.name.ends_with(".f32") => {
                assert!(crate::math::approx::SPECS
                    .iter()
                    .any(|a| std::ptr::eq(*a, s)))
            }
            Lowering::Scalar(e) => assert_eq!(e.name, s.name),
            Lowering::Custom(Custom::PmCounter(es)) => assert_eq!(es.len(), 16),
            _ => {}
        }
    }
}

/// An entry marked as reading a special register reads that one and does nothing else (the
/// simulator then reads the register instead of calling it), and every plain register read is
/// marked.
#[test]
fn special_registers_are_what_their_ptx_reads() {
    let mut marked = 0;
    for d in all() {
        let reads_sreg = d.ptx.starts_with("mov.u32 {d0}, %") || d.ptx.contains("WARP_SZ");
        let Some(r) = d.reg else {
            assert!(
                // Cluster registers derive from the launch's cluster shape, which the
                // simulator computes (`intrinsics/cluster.rs`) rather than keeps.
                !reads_sreg
                    || d.ptx.contains("clock")
                    || d.ptx.contains("%pm")
                    || d.ptx.contains("cluster"),
                "{} reads a register without saying which",
                d.name
            );
            continue;
        };
        marked += 1;
        let axis = |a: u8| ["x", "y", "z"][a as usize];
        let want = match r {
            SpecialReg::Tid(a) => format!("%tid.{}", axis(a)),
            SpecialReg::Ctaid(a) => format!("%ctaid.{}", axis(a)),
            SpecialReg::Ntid(a) => format!("%ntid.{}", axis(a)),
            SpecialReg::Nctaid(a) => format!("%nctaid.{}", axis(a)),
            SpecialReg::WarpSize => "WARP_SZ".into(),
            SpecialReg::LaneId => "%laneid".into(),
        };
        assert_eq!(d.ptx, format!("mov.u32 {{d0}}, {want}"), "{}", d.name);
        assert!(d.args.is_empty() && d.rets == [Ty::U32], "{}", d.name);
    }
    assert_eq!(marked, 14);
}

/// Every method name of the math library reaches an implementation for f32, Rust's own
/// methods one for f64 too, and an alias the same functions as its target.
#[test]
fn math_methods_reach_their_implementations() {
    use super::math::{method, method_names};
    let same = |a: Option<MathImpl>, b: Option<MathImpl>| match (a, b) {
        (Some(MathImpl::Entry(x)), Some(MathImpl::Entry(y))) => std::ptr::eq(x, y),
        (Some(MathImpl::Device(x)), Some(MathImpl::Device(y))) => match (x(), y()) {
            (Callable::Device(x), Callable::Device(y)) => std::ptr::eq(x, y),
            _ => false,
        },
        (None, None) => true,
        _ => false,
    };
    let names: Vec<&str> = method_names().collect();
    for name in &names {
        let m = method(name).unwrap_or_else(|| panic!("{name}"));
        assert!(m.f32.is_some(), "{name}");
        assert!((1..=4).contains(&m.args), "{name}");
    }
    for rust in [
        "sin", "exp", "ln", "atan2", "powf", "hypot", "copysign", "cbrt",
    ] {
        assert!(method(rust).unwrap().f64.is_some(), "{rust}");
    }
    for (alias, to) in [
        ("exp_m1", "expm1"),
        ("ln_1p", "log1p"),
        ("sin_cos", "sincos"),
    ] {
        let (a, t) = (method(alias).unwrap(), method(to).unwrap());
        assert!(
            same(a.f32, t.f32) && same(a.f64, t.f64) && a.pair == t.pair,
            "{alias}"
        );
    }
    assert!(method("sincos").unwrap().pair);
    let fast = method("fast_sin").unwrap();
    assert!(fast.f64.is_none() && matches!(fast.f32, Some(MathImpl::Entry(_))));
    assert!(method("exp_cr").unwrap().f64.is_none());
    assert!(method("popc").is_none() && method("min").is_none());
    assert!(names.contains(&"add_rz") && names.contains(&"sin_cos"));
}
