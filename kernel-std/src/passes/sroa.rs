//! Scalar replacement of local arrays: an array every access of which uses a constant, in-range
//! index becomes one variable per element (`array_load a[3]` -> `mov v_a3`, `array_store` ->
//! `mov` into it). This is what keeps register-blocked accumulators (`[[f32; 8]; 8]` in SGEMM)
//! in registers instead of a `.local` stack frame, once unrolling and folding have made the
//! indices constant. Arrays with any variable or out-of-range index stay in memory untouched;
//! the emptied array entries themselves are dropped later by `dce`.

use std::collections::HashMap;

use super::util::{walk, walk_mut};
use crate::ir::{ArrayId, Inst, Kernel, Operand, Var};

/// Returns whether any array was replaced.
pub fn sroa(k: &mut Kernel) -> bool {
    let mut ok = vec![true; k.arrays.len()];
    let mut touched = vec![false; k.arrays.len()];
    walk(&k.body, &mut |i| {
        if let Inst::ArrayLoad { array, idx, .. } | Inst::ArrayStore { array, idx, .. } = i {
            let a = array.0 as usize;
            touched[a] = true;
            let in_range = matches!(idx, Operand::Const(c) if c.bits < k.arrays[a].len as u64);
            ok[a] &= in_range;
        }
    });
    if !ok.iter().zip(&touched).any(|(o, t)| *o && *t) {
        return false;
    }
    let mut elems: HashMap<(ArrayId, u64), Var> = HashMap::new();
    let mut body = std::mem::take(&mut k.body);
    walk_mut(&mut body, &mut |i| {
        let (array, idx) = match i {
            Inst::ArrayLoad { array, idx, .. } | Inst::ArrayStore { array, idx, .. } => {
                (*array, *idx)
            }
            _ => return,
        };
        if !ok[array.0 as usize] {
            return;
        }
        let Operand::Const(c) = idx else { return };
        let elem_ty = k.arrays[array.0 as usize].elem;
        let v = *elems.entry((array, c.bits)).or_insert_with(|| {
            let v = k.new_var(elem_ty);
            if !k.var_names.is_empty() {
                k.var_names.resize(k.vars.len() - 1, String::new());
                k.var_names.push(format!("a{}[{}]", array.0, c.bits));
            }
            v
        });
        *i = match *i {
            Inst::ArrayLoad { dst, .. } => Inst::Mov {
                dst,
                src: Operand::Var(v),
            },
            Inst::ArrayStore { val, .. } => Inst::Mov { dst: v, src: val },
            _ => return,
        };
    });
    k.body = body;
    true
}
