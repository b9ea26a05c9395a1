//! The device heap (B.33 `malloc`/`free`): PTX calls the CUDA runtime's `malloc` and `free`,
//! which the driver links in when a module declares them `.extern .func`; the simulator
//! allocates blocks in its global memory under the same 8 MiB default limit.
//!
//! Arguments and results are global addresses (U64), as every slice pointer in the IR:
//! `malloc` returns a generic pointer, which `cvta.to.global` turns into one (the identity on
//! every supported GPU), and `free` converts back.

use super::{Class, IntrinsicDef, SimEnv};
use kernel_ir::ir::{Block, Inst, Kernel, Ty};

/// The table names of the two calls, and of `alloca` (B.17), the per-thread stack's allocator.
pub const MALLOC: &str = "heap.malloc";
pub const FREE: &str = "heap.free";
pub const ALLOCA: &str = "stack.alloca";

/// `alloca(bytes)`: `d0` the block's `.local` address.
fn sim_alloca(e: &mut dyn SimEnv, a: &[u64], o: &mut [u64]) {
    o[0] = e.stack_alloc(a[0]);
}

/// `malloc(bytes)`: `d0` the block's address, `d1` whether it is null (heap exhausted).
fn sim_malloc(e: &mut dyn SimEnv, a: &[u64], o: &mut [u64]) {
    let addr = e.heap_alloc(a[0]);
    o[0] = addr;
    o[1] = (addr == 0) as u64;
}

/// `free(ptr)`.
fn sim_free(e: &mut dyn SimEnv, a: &[u64], _: &mut [u64]) {
    e.heap_free(a[0]);
}

/// This category's entries (appended to the table in `mod.rs`'s order). All are `Memory`
/// class so no pass merges two calls or drops one whose result is unused. The calls are plain
/// `call`, not `call.uni`: threads of a warp may reach them divergently.
pub(super) static ENTRIES: &[IntrinsicDef] = &[
    // PTX `alloca` (ISA 7.3, sm_52): 16-byte alignment covers every element type.
    IntrinsicDef {
        name: ALLOCA,
        args: &[Ty::U64],
        rets: &[Ty::U64],
        min_sm: 70,
        ptx: "alloca.u64 {d0}, {a0}, 16",
        class: Class::Memory,
        sim: Some(sim_alloca),
        sim_warp: None,
    },
    IntrinsicDef {
        name: MALLOC,
        args: &[Ty::U64],
        rets: &[Ty::U64, Ty::Bool],
        min_sm: 70,
        ptx: ".param .b64 fc_malloc_arg{uid};\
              .param .b64 fc_malloc_ret{uid};\
              st.param.b64 [fc_malloc_arg{uid}], {a0};\
              call (fc_malloc_ret{uid}), malloc, (fc_malloc_arg{uid});\
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
        rets: &[],
        min_sm: 70,
        ptx: ".reg .b64 %fcf{uid};\
              cvta.global.u64 %fcf{uid}, {a0};\
              .param .b64 fc_free_arg{uid};\
              st.param.b64 [fc_free_arg{uid}], %fcf{uid};\
              call free, (fc_free_arg{uid})",
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

fn visit(b: &Block, f: &mut dyn FnMut(kernel_ir::intrinsic::IntrinsicId)) {
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
