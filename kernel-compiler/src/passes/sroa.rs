//! Scalar replacement of local arrays: an array every access of which uses a constant, in-range
//! index becomes one variable per element (`array_load a[3]` -> `mov v_a3`, `array_store` ->
//! `mov` into it). This is what keeps register-blocked accumulators (`[[f32; 8]; 8]` in SGEMM)
//! in registers instead of a `.local` stack frame, once unrolling and folding have made the
//! indices constant. Arrays with any variable or out-of-range index stay in memory untouched;
//! the emptied array entries themselves are dropped later by `dce`.

use super::fx::FxHashMap;

use kernel_ir::ir::{ArrayId, Block, Inst, Kernel, Operand, Var};

/// Returns whether any array was replaced.
pub fn sroa(k: &mut Kernel) -> bool {
    sroa_left(k).0
}

/// Arrays longer than this keep their element variables in a hash map rather than a table
/// with a slot per element (a huge array indexed at a few constants must not allocate one).
const TABLE_LEN: u32 = 4096;

/// [`sroa`], also saying whether any array access is left afterwards. Where none is, no later
/// pass that only copies or removes instructions (unrolling, folding) can make a candidate, so
/// the pipeline skips running `sroa` again.
pub(crate) fn sroa_left(k: &mut Kernel) -> (bool, bool) {
    let mut ok = vec![true; k.arrays.len()];
    let mut touched = vec![false; k.arrays.len()];
    accesses(&k.body, &mut |i| {
        if let Inst::ArrayLoad { array, idx, .. } | Inst::ArrayStore { array, idx, .. } = i {
            let a = array.0 as usize;
            touched[a] = true;
            let in_range = matches!(idx, Operand::Const(c) if c.bits < k.arrays[a].len as u64);
            ok[a] &= in_range;
        }
    });
    let left = ok.iter().zip(&touched).any(|(o, t)| !*o && *t);
    if !ok.iter().zip(&touched).any(|(o, t)| *o && *t) {
        return (false, left);
    }
    // Element variables of short replaced arrays: `table[start[a] + idx]` (`u32::MAX`: none
    // yet); longer ones go through `elems`.
    let mut start = vec![u32::MAX; k.arrays.len()];
    let mut slots = 0u32;
    for (a, arr) in k.arrays.iter().enumerate() {
        if ok[a] && touched[a] && arr.len <= TABLE_LEN {
            start[a] = slots;
            slots += arr.len;
        }
    }
    let mut table = vec![u32::MAX; slots as usize];
    let mut elems: FxHashMap<(ArrayId, u64), Var> = FxHashMap::default();
    let mut body = std::mem::take(&mut k.body);
    accesses_mut(&mut body, &mut |i| {
        let (array, bits) = match i {
            Inst::ArrayLoad {
                array,
                idx: Operand::Const(c),
                ..
            }
            | Inst::ArrayStore {
                array,
                idx: Operand::Const(c),
                ..
            } => (*array, c.bits),
            _ => return,
        };
        let a = array.0 as usize;
        if !ok[a] {
            return;
        }
        let new_elem = |k: &mut Kernel| {
            let v = k.new_var(k.arrays[a].elem);
            if !k.var_names.is_empty() {
                k.var_names.resize(k.vars.len() - 1, String::new());
                k.var_names.push(format!("a{}[{}]", array.0, bits));
            }
            v
        };
        let v = if start[a] != u32::MAX {
            let slot = &mut table[(start[a] + bits as u32) as usize];
            if *slot == u32::MAX {
                *slot = new_elem(k).0;
            }
            Var(*slot)
        } else {
            *elems.entry((array, bits)).or_insert_with(|| new_elem(k))
        };
        let new = match *i {
            Inst::ArrayLoad { dst, .. } => Inst::Mov {
                dst,
                src: Operand::Var(v),
            },
            Inst::ArrayStore { val, .. } => Inst::Mov { dst: v, src: val },
            _ => return,
        };
        // An array access owns nothing to free: forgetting it saves the call to `Inst`'s drop
        // glue that `*i = new` makes (about 2300 times per SGEMM compile).
        std::mem::forget(std::mem::replace(i, new));
    });
    k.body = body;
    (true, left)
}

/// Calls `f` on every array access in `b`, in `util::walk`'s order: one match per instruction
/// (the walk's callback and its own test for nested blocks were two).
fn accesses(b: &Block, f: &mut impl FnMut(&Inst)) {
    for inst in &b.0 {
        match inst {
            Inst::ArrayLoad { .. } | Inst::ArrayStore { .. } => f(inst),
            Inst::If { then, els, .. } => {
                accesses(then, f);
                accesses(els, f);
            }
            Inst::For { body, .. } | Inst::Loop { body, .. } => accesses(body, f),
            _ => {}
        }
    }
}

/// [`accesses`], mutably.
fn accesses_mut(b: &mut Block, f: &mut impl FnMut(&mut Inst)) {
    for inst in &mut b.0 {
        match inst {
            Inst::ArrayLoad { .. } | Inst::ArrayStore { .. } => f(inst),
            Inst::If { then, els, .. } => {
                accesses_mut(then, f);
                accesses_mut(els, f);
            }
            Inst::For { body, .. } | Inst::Loop { body, .. } => accesses_mut(body, f),
            _ => {}
        }
    }
}
