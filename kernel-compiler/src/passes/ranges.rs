//! Value ranges of integers, shared by bounds-check elimination and 32-bit index narrowing.
//!
//! A range `(lo, hi)` is inclusive and non-negative: it is only known for unsigned values and for
//! signed values proven non-negative, so the same numbers describe the value under either
//! interpretation. Every rule here is exact for Rust's wrapping semantics: a result that could
//! wrap gets its type's full range (unsigned) or no range (signed).

use kernel_ir::intrinsic::IntrinsicId;
use kernel_ir::ir::{BinOp, Const, KernelAttrs, Ty};

pub type Range = (u128, u128);

/// The largest non-negative value of an integer type.
pub fn type_max(t: Ty) -> u128 {
    if t.is_signed() {
        (1u128 << (t.bits() - 1)) - 1
    } else {
        (1u128 << t.bits()) - 1
    }
}

/// What is known about a value of type `t` with no other information.
pub fn full(t: Ty) -> Option<Range> {
    (t.is_int() && !t.is_signed()).then(|| (0, type_max(t)))
}

pub fn of_const(c: Const) -> Option<Range> {
    let v = c.as_i128();
    (c.ty.is_int() && v >= 0).then_some((v as u128, v as u128))
}

/// `r` if it fits type `t`, else the type's full range.
pub fn fit(r: Range, t: Ty) -> Option<Range> {
    if r.1 <= type_max(t) {
        Some(r)
    } else {
        full(t)
    }
}

/// Hardware limits of the special registers (any supported GPU), tightened by the kernel's
/// launch bounds: `.maxntid n` makes every launch with more than `n` threads per block fail, so
/// each thread index is below `n` and each block dimension at most `n`; `.reqntid` gives each
/// axis exactly.
pub fn of_intrinsic(id: IntrinsicId, attrs: &KernelAttrs) -> Option<Range> {
    let threads = attrs.max_threads.map_or(1024, |n| n.clamp(1, 1024)) as u128;
    let name = id.name();
    if let Some(d) = attrs.block_dim {
        let axis = |c: &str| match c {
            "x" => d[0],
            "y" => d[1],
            _ => d[2],
        } as u128;
        if let Some(c) = name.strip_prefix("tid.") {
            return Some((0, axis(c).max(1) - 1));
        }
        if let Some(c) = name.strip_prefix("ntid.") {
            return Some((axis(c), axis(c)));
        }
    }
    Some(match name {
        "tid.x" | "tid.y" => (0, threads - 1),
        "tid.z" => (0, threads.min(64) - 1),
        "ntid.x" | "ntid.y" => (1, threads),
        "ntid.z" => (1, threads.min(64)),
        "ctaid.x" => (0, (1 << 31) - 2),
        "ctaid.y" | "ctaid.z" => (0, 65534),
        "nctaid.x" => (1, (1 << 31) - 1),
        "nctaid.y" | "nctaid.z" => (1, 65535),
        "lane_id" => (0, 31),
        "warp_size" => (32, 32),
        _ => return None,
    })
}

/// Range of an integer `as` cast from a value in `r` to type `to`.
pub fn of_cast(r: Option<Range>, to: Ty) -> Option<Range> {
    if !to.is_int() {
        return None;
    }
    match r {
        Some(r) => fit(r, to),
        None => full(to),
    }
}

/// Range of `a op b` in type `t` (the operands' type).
pub fn of_binary(op: BinOp, a: Option<Range>, b: Option<Range>, t: Ty) -> Option<Range> {
    if !t.is_int() || op.is_overflow_test() {
        return None;
    }
    let (Some(ra), Some(rb)) = (a, b) else {
        return match (op, a, b) {
            // `x & m` with a known non-negative side is at most that side, whatever `x` is
            // (for signed `x` too: the result's sign bit is clear).
            (BinOp::And, Some(r), None) | (BinOp::And, None, Some(r)) => Some((0, r.1)),
            (BinOp::Rem, None, Some(rb)) if !t.is_signed() && rb.0 > 0 => Some((0, rb.1 - 1)),
            _ => full(t),
        };
    };
    let bits = t.bits() as u128;
    let r = match op {
        BinOp::Add => (ra.0 + rb.0, ra.1 + rb.1),
        BinOp::Mul => match (ra.0.checked_mul(rb.0), ra.1.checked_mul(rb.1)) {
            (Some(lo), Some(hi)) => (lo, hi),
            _ => return full(t),
        },
        BinOp::Sub if ra.0 >= rb.1 => (ra.0 - rb.1, ra.1 - rb.0),
        BinOp::Shl if rb.0 == rb.1 && rb.1 < bits => match ra.1.checked_shl(rb.1 as u32) {
            Some(hi) if hi >> rb.1 == ra.1 => (ra.0 << rb.1, hi),
            _ => return full(t),
        },
        BinOp::Shr if rb.1 < bits => (ra.0 >> rb.1, ra.1 >> rb.0),
        BinOp::And => (0, ra.1.min(rb.1)),
        BinOp::Or | BinOp::Xor => {
            let top = u128::BITS - ra.1.max(rb.1).leading_zeros();
            (0, (1u128 << top) - 1)
        }
        BinOp::Rem if rb.0 > 0 => (0, ra.1.min(rb.1 - 1)),
        BinOp::Div if rb.0 > 0 => (ra.0 / rb.1, ra.1 / rb.0),
        BinOp::Min => (ra.0.min(rb.0), ra.1.min(rb.1)),
        BinOp::Max => (ra.0.max(rb.0), ra.1.max(rb.1)),
        _ => return full(t),
    };
    fit(r, t)
}

/// Whether the overflow test `op` (`AddOverflows`...) of operands in `a` and `b` (of type `t`)
/// is false for all of them. Ranges are non-negative, so a signed difference cannot overflow.
pub fn never_overflows(op: BinOp, a: Option<Range>, b: Option<Range>, t: Ty) -> bool {
    let (Some(ra), Some(rb)) = (a, b) else {
        return false;
    };
    let max = type_max(t);
    match op {
        BinOp::AddOverflows => ra.1 + rb.1 <= max,
        BinOp::SubOverflows => t.is_signed() || ra.0 >= rb.1,
        BinOp::MulOverflows => ra.1.checked_mul(rb.1).is_some_and(|p| p <= max),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_required_block_shape_bounds_each_axis() {
        let id = |n: &str| kernel_std::intrinsics::lookup(n).expect(n);
        let attrs = KernelAttrs {
            block_dim: Some([32, 8, 1]),
            max_threads: Some(256),
            ..KernelAttrs::default()
        };
        assert_eq!(of_intrinsic(id("tid.x"), &attrs), Some((0, 31)));
        assert_eq!(of_intrinsic(id("tid.y"), &attrs), Some((0, 7)));
        assert_eq!(of_intrinsic(id("tid.z"), &attrs), Some((0, 0)));
        assert_eq!(of_intrinsic(id("ntid.y"), &attrs), Some((8, 8)));
        let bounds_only = KernelAttrs {
            max_threads: Some(256),
            ..KernelAttrs::default()
        };
        assert_eq!(of_intrinsic(id("tid.y"), &bounds_only), Some((0, 255)));
    }

    /// Every rule against brute force over small unsigned and signed operand ranges.
    #[test]
    fn binary_ranges_contain_every_result() {
        use crate::passes::eval::{eval_binary, int_const};
        let ops = [
            BinOp::Add,
            BinOp::Sub,
            BinOp::Mul,
            BinOp::Shl,
            BinOp::Shr,
            BinOp::And,
            BinOp::Or,
            BinOp::Xor,
            BinOp::Rem,
            BinOp::Div,
            BinOp::Min,
            BinOp::Max,
        ];
        let ranges = [
            (0u128, 0u128),
            (0, 3),
            (1, 5),
            (2, 9),
            (7, 7),
            (3, 16),
            (100, 130),
        ];
        for t in [Ty::U8, Ty::I8] {
            for op in ops {
                for ra in ranges {
                    for rb in ranges {
                        let Some(r) = of_binary(op, fit(ra, t), fit(rb, t), t) else {
                            continue;
                        };
                        if ra.1 > type_max(t) || rb.1 > type_max(t) {
                            continue;
                        }
                        for x in ra.0..=ra.1 {
                            for y in rb.0..=rb.1 {
                                let (cx, cy) = (int_const(t, x as i128), int_const(t, y as i128));
                                let cy = if matches!(op, BinOp::Shl | BinOp::Shr) {
                                    Const::u32(y as u32)
                                } else {
                                    cy
                                };
                                let Some(v) = eval_binary(op, cx, cy) else {
                                    continue;
                                };
                                let v = v.as_i128();
                                assert!(
                                    v >= 0 && (v as u128) >= r.0 && (v as u128) <= r.1,
                                    "{t:?} {op:?} {x} {y} = {v} outside {r:?}"
                                );
                            }
                        }
                    }
                }
            }
        }
    }

    /// `never_overflows` against brute force over small ranges of both signednesses.
    #[test]
    fn overflow_tests_only_proven_false() {
        use crate::passes::eval::{eval_binary, int_const};
        let ranges = [
            (0u128, 0u128),
            (0, 3),
            (1, 5),
            (7, 7),
            (3, 16),
            (100, 130),
            (0, 255),
        ];
        for t in [Ty::U8, Ty::I8] {
            for op in [
                BinOp::AddOverflows,
                BinOp::SubOverflows,
                BinOp::MulOverflows,
            ] {
                for ra in ranges {
                    for rb in ranges {
                        let (fa, fb) = (fit(ra, t), fit(rb, t));
                        if fa != Some(ra) || fb != Some(rb) {
                            continue;
                        }
                        if !never_overflows(op, fa, fb, t) {
                            continue;
                        }
                        for x in ra.0..=ra.1 {
                            for y in rb.0..=rb.1 {
                                let (cx, cy) = (int_const(t, x as i128), int_const(t, y as i128));
                                let v = eval_binary(op, cx, cy).expect("integer test");
                                assert_eq!(v.bits, 0, "{t:?} {op:?} {x} {y}");
                            }
                        }
                    }
                }
            }
        }
        // Proven where it holds.
        assert!(never_overflows(
            BinOp::AddOverflows,
            Some((0, 100)),
            Some((0, 155)),
            Ty::U8
        ));
        assert!(!never_overflows(
            BinOp::AddOverflows,
            Some((0, 100)),
            Some((0, 156)),
            Ty::U8
        ));
        assert!(never_overflows(
            BinOp::SubOverflows,
            Some((0, 127)),
            Some((0, 127)),
            Ty::I8
        ));
        assert!(!never_overflows(
            BinOp::SubOverflows,
            Some((0, 5)),
            Some((0, 6)),
            Ty::U8
        ));
        assert!(never_overflows(
            BinOp::MulOverflows,
            Some((0, 15)),
            Some((0, 17)),
            Ty::U8
        ));
        assert!(!never_overflows(
            BinOp::MulOverflows,
            Some((0, 16)),
            Some((0, 16)),
            Ty::U8
        ));
    }
}
