//! What a backend made of a case, and the comparisons: integers bit for bit, floats bit for bit
//! too (every float operation generated is correctly rounded: docs/simulator.md's 0-ulp rows),
//! except that any two NaNs are equal (NaN payloads differ between x86 and PTX and are never
//! observed by the kernels); panics by kind and source location.

use std::fmt::Write;

use ferrocuda::kernel_ir::ast::FloatTy;
use ferrocuda::kernel_ir::ir::PanicKind;

use crate::gen::{Case, SLOTS};
use crate::reference::{elem_size, RefOutcome, RefPanic};
use crate::syntax::Sc;
use crate::value::V;

/// A kernel panic as a backend reported it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Panic {
    pub kind: Option<PanicKind>,
    pub line: u32,
    pub col: u32,
    pub block: u32,
    pub thread: u32,
    pub a: u64,
    pub b: u64,
}

pub enum Outcome {
    Done(Vec<Vec<u8>>),
    Panicked(Panic),
    /// Compile error, simulator detector, driver error.
    Failed(String),
}

/// Whether `backend` (named `who`) agrees with the reference; the differences otherwise.
/// `exact_thread`: the backend reports the first panicking thread in block-then-thread order (the
/// simulator) rather than any one of them (a GPU).
pub fn check(
    case: &Case,
    reference: &RefOutcome,
    who: &str,
    backend: &Outcome,
    exact_thread: bool,
) -> Result<(), String> {
    match (reference, backend) {
        (_, Outcome::Failed(m)) => Err(format!("{who} failed: {m}")),
        (RefOutcome::Done(r), Outcome::Done(b)) => {
            compare_buffers(case, r, b, "reference", who, true)
        }
        (RefOutcome::Done(_), Outcome::Panicked(p)) => Err(format!(
            "{who} panicked ({p:?}) where the reference ran to completion"
        )),
        (RefOutcome::Panicked(ps), Outcome::Done(_)) => Err(format!(
            "the reference panicked ({:?}) where {who} ran to completion",
            first(ps)
        )),
        (RefOutcome::Panicked(ps), Outcome::Panicked(p)) => {
            let want = if exact_thread {
                Some(first(ps))
            } else {
                ps.iter()
                    .find(|r| r.block == p.block && r.thread == p.thread)
            };
            let Some(want) = want else {
                return Err(format!(
                    "{who} reports a panic of block {} thread {}, which does not panic in the reference ({} threads do, first {:?})",
                    p.block,
                    p.thread,
                    ps.len(),
                    first(ps)
                ));
            };
            let same = p.kind.as_ref() == Some(&want.kind)
                && (p.line, p.col) == (want.line, want.col)
                && (p.block, p.thread) == (want.block, want.thread)
                && (want.kind != PanicKind::Bounds || (p.a, p.b) == (want.a, want.b));
            if same {
                Ok(())
            } else {
                Err(format!("{who} panic {p:?}, reference {want:?}"))
            }
        }
    }
}

fn first(ps: &[RefPanic]) -> &RefPanic {
    ps.iter()
        .min_by_key(|p| (p.block, p.thread))
        .expect("a panicked outcome lists its panics")
}

/// Element-wise comparison of every parameter slice. With `tolerant`, the output slots a math
/// function wrote allow that function's error (`Case::tolerance`); everything else is exact.
pub fn compare_buffers(
    case: &Case,
    a: &[Vec<u8>],
    b: &[Vec<u8>],
    an: &str,
    bn: &str,
    tolerant: bool,
) -> Result<(), String> {
    let mut out = String::new();
    let mut n = 0;
    for ((spec, x), y) in case.params.iter().zip(a).zip(b) {
        let size = elem_size(spec.elem);
        let slot_ulps = |i: usize| {
            case.tolerance
                .iter()
                .filter(|(p, k, _)| tolerant && *p == spec.name && *k == i % SLOTS)
                .map(|t| t.2)
                .max()
        };
        for (i, (ex, ey)) in x.chunks(size).zip(y.chunks(size)).enumerate() {
            if same_element(spec.elem, ex, ey) {
                continue;
            }
            if let Some(u) = slot_ulps(i) {
                if within_ulps(spec.elem, ex, ey, u) {
                    continue;
                }
            }
            n += 1;
            if n <= 8 {
                let _ = writeln!(
                    out,
                    "  {}[{i}]: {an} {:?}, {bn} {:?}",
                    spec.name,
                    V::from_le(spec.elem, ex),
                    V::from_le(spec.elem, ey)
                );
            }
        }
    }
    if n == 0 {
        Ok(())
    } else {
        Err(format!("{n} elements differ:\n{out}"))
    }
}

/// Distance in representable values, for floats that are both finite or both equal infinities
/// (NaN-ness and infinities must match, as docs/math-ulp.md counts them).
fn within_ulps(t: Sc, x: &[u8], y: &[u8], ulps: u32) -> bool {
    let (p, q) = match (V::from_le(t, x), V::from_le(t, y)) {
        (V::F32(p), V::F32(q)) => (p as f64, q as f64),
        (V::F64(p), V::F64(q)) => (p, q),
        _ => return false,
    };
    if p.is_nan() || q.is_nan() || p.is_infinite() || q.is_infinite() {
        return false;
    }
    let ordered = |b: &[u8]| -> i128 {
        let (bits, sign) = match t {
            Sc::F(FloatTy::F32) => (u32::from_le_bytes(b.try_into().unwrap()) as u64, 1u64 << 31),
            _ => (u64::from_le_bytes(b.try_into().unwrap()), 1u64 << 63),
        };
        if bits & sign != 0 {
            -((bits & !sign) as i128)
        } else {
            bits as i128
        }
    };
    (ordered(x) - ordered(y)).abs() <= ulps as i128
}

fn same_element(t: Sc, x: &[u8], y: &[u8]) -> bool {
    if x == y {
        return true;
    }
    match t {
        Sc::F(FloatTy::F32) => {
            let (p, q) = (V::from_le(t, x), V::from_le(t, y));
            matches!((p, q), (V::F32(p), V::F32(q)) if p.is_nan() && q.is_nan())
        }
        Sc::F(FloatTy::F64) => {
            let (p, q) = (V::from_le(t, x), V::from_le(t, y));
            matches!((p, q), (V::F64(p), V::F64(q)) if p.is_nan() && q.is_nan())
        }
        _ => false,
    }
}
