//! Every kernel of the examples by name, with the generic arguments tooling compiles it with
//! (`cargo xtask ptx`, the ptxas validation test).

use ferrocuda::kernel_ir::ast::FnDef;
use ferrocuda::kernel_ir::GenericValue;

pub struct KernelEntry {
    pub name: &'static str,
    pub def: fn() -> &'static FnDef,
    pub generics: fn() -> Vec<GenericValue>,
}

fn none() -> Vec<GenericValue> {
    Vec::new()
}

pub static KERNELS: &[KernelEntry] = &[
    KernelEntry {
        name: "vector_add",
        def: crate::vector_add::vector_add::ast,
        generics: none,
    },
    KernelEntry {
        name: "saxpy",
        def: crate::saxpy::saxpy::ast,
        generics: none,
    },
    KernelEntry {
        name: "reverse_block",
        def: crate::reverse::reverse_block::ast,
        generics: none,
    },
    KernelEntry {
        name: "transpose",
        def: crate::transpose::transpose::ast,
        generics: || vec![GenericValue::Const(32)],
    },
    KernelEntry {
        name: "sgemm",
        def: crate::sgemm::sgemm::ast,
        generics: none,
    },
    KernelEntry {
        name: "atomics_u32",
        def: crate::simple_atomics::atomics_u32::ast,
        generics: none,
    },
    KernelEntry {
        name: "atomics_i32",
        def: crate::simple_atomics::atomics_i32::ast,
        generics: none,
    },
    KernelEntry {
        name: "atomics_64",
        def: crate::simple_atomics::atomics_64::ast,
        generics: none,
    },
    KernelEntry {
        name: "atomics_float",
        def: crate::simple_atomics::atomics_float::ast,
        generics: none,
    },
    KernelEntry {
        name: "simple_printf",
        def: crate::simple_printf::test_kernel::ast,
        generics: none,
    },
    KernelEntry {
        name: "printf_showcase",
        def: crate::simple_printf::format_showcase::ast,
        generics: none,
    },
    KernelEntry {
        name: "vote",
        def: crate::simple_vote::vote::ast,
        generics: none,
    },
    KernelEntry {
        name: "scan_block",
        def: crate::shfl_scan::scan_block::ast,
        generics: none,
    },
    KernelEntry {
        name: "add_block_prefix",
        def: crate::shfl_scan::add_block_prefix::ast,
        generics: none,
    },
    KernelEntry {
        name: "reduce_shared",
        def: crate::reduction::reduce_shared::ast,
        generics: none,
    },
    KernelEntry {
        name: "reduce_shfl",
        def: crate::reduction::reduce_shfl::ast,
        generics: none,
    },
    KernelEntry {
        name: "reduce_redux",
        def: crate::reduction::reduce_redux::ast,
        generics: none,
    },
    KernelEntry {
        name: "histogram256",
        def: crate::histogram::histogram256::ast,
        generics: none,
    },
    KernelEntry {
        name: "fence_reduce",
        def: crate::fence_reduction::fence_reduce::ast,
        generics: none,
    },
    KernelEntry {
        name: "timed_reduction",
        def: crate::clock::timed_reduction::ast,
        generics: none,
    },
];

pub fn find(name: &str) -> Option<&'static KernelEntry> {
    KERNELS.iter().find(|k| k.name == name)
}
