//! The table's invariants, and every function's stub against the entries it lowers to where the
//! declaration does not already make them agree (a scalar function's entry takes its stub's
//! types by construction).

use kernel_ir::ast::{FloatTy, IntTy, Type};
use kernel_ir::ir::Ty;

use super::{all, lookup, specs, Custom, Lowering};

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
        for space in [Ty::U64, Ty::U32] {
            let mut keys: Vec<String> = entries
                .iter()
                .filter(|e| e.args[0] == space)
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
            Lowering::Scalar(e) => assert_eq!(e.name, s.name),
            Lowering::Custom(Custom::PmCounter(es)) => assert_eq!(es.len(), 16),
            _ => {}
        }
    }
}
