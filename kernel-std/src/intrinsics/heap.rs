//! The device heap (B.33 `malloc`/`free`): PTX calls the CUDA runtime's `malloc` and `free`,
//! which the driver links in when a module declares them `.extern .func`; the simulator
//! allocates blocks in its global memory under the same 8 MiB default limit.
//!
//! Arguments and results are global addresses (U64), as every slice pointer in the IR:
//! `malloc` returns a generic pointer, which `cvta.to.global` turns into one (the identity on
//! every supported GPU), and `free` converts back.

use super::{Class, IntrinsicDef, SimEnv};
use crate::ir::{Block, Inst, Kernel, Ty};

/// The table names of the two calls.
pub const MALLOC: &str = "heap.malloc";
pub const FREE: &str = "heap.free";

/// `malloc(bytes)`: `d0` the block's address, `d1` whether it is null (heap exhausted).
fn sim_malloc(e: &mut dyn SimEnv, a: &[u64], o: &mut [u64]) {
    let addr = e.heap_alloc(a[0]);
    o[0] = addr;
    o[1] = (addr == 0) as u64;
}

/// `free(ptr)`: `d0` is the generic pointer passed to `free` (a scratch register in PTX).
fn sim_free(e: &mut dyn SimEnv, a: &[u64], o: &mut [u64]) {
    e.heap_free(a[0]);
    o[0] = a[0];
}

/// This category's entries (appended to the table in `mod.rs`'s order). Both are `Memory`
/// class so no pass merges two calls or drops one whose result is unused.
pub(super) static ENTRIES: &[IntrinsicDef] = &[
    IntrinsicDef {
        name: MALLOC,
        args: &[Ty::U64],
        rets: &[Ty::U64, Ty::Bool],
        min_sm: 70,
        ptx: ".param .b64 fc_malloc_arg{uid};\
              .param .b64 fc_malloc_ret{uid};\
              st.param.b64 [fc_malloc_arg{uid}], {a0};\
              call.uni (fc_malloc_ret{uid}), malloc, (fc_malloc_arg{uid});\
              ld.param.b64 {d0}, [fc_malloc_ret{uid}];\
              setp.eq.u64 {d1}, {d0}, 0;\
              cvta.to.global.u64 {d0}, {d0}",
        class: Class::Memory,
        sim: Some(sim_malloc),
        sim_warp: None,
    },
    IntrinsicDef {
        name: FREE,
        args: &[Ty::U64],
        rets: &[Ty::U64],
        min_sm: 70,
        ptx: "cvta.global.u64 {d0}, {a0};\
              .param .b64 fc_free_arg{uid};\
              st.param.b64 [fc_free_arg{uid}], {d0};\
              call.uni free, (fc_free_arg{uid})",
        class: Class::Memory,
        sim: Some(sim_free),
        sim_warp: None,
    },
];

/// The module-scope `.extern .func` declarations of the runtime functions `k` calls (empty
/// when it calls none), to print before the entry.
pub fn extern_declarations(k: &Kernel) -> String {
    let (mut malloc, mut free) = (false, false);
    let ids = [super::lookup(MALLOC), super::lookup(FREE)];
    visit(&k.body, &mut |id| {
        malloc |= Some(id) == ids[0];
        free |= Some(id) == ids[1];
    });
    let mut out = String::new();
    if malloc {
        out.push_str(".extern .func (.param .b64 func_retval0) malloc (.param .b64 size);\n");
    }
    if free {
        out.push_str(".extern .func free (.param .b64 ptr);\n");
    }
    out
}

fn visit(b: &Block, f: &mut dyn FnMut(crate::ir::IntrinsicId)) {
    for i in &b.0 {
        match i {
            Inst::Intrinsic { id, .. } => f(*id),
            Inst::If { then, els, .. } => {
                visit(then, f);
                visit(els, f);
            }
            Inst::For { body, .. } | Inst::Loop { body, .. } => visit(body, f),
            _ => {}
        }
    }
}
