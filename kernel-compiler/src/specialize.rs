//! Launch-time specialization: what a compile may assume about the launch it serves.
//!
//! A kernel compiles at its first launch, so the compiler can know that launch. The block shape is
//! the fact that pays: a kernel written without `#[kernel(block_dim(..))]` and compiled for the
//! block it is launched with gets exactly what the attribute gives (a constant `block_dim()`, each
//! thread index bounded by its axis, shared-tile checks proven away, `.reqntid` in the PTX so the
//! driver refuses any other shape). The host keeps one compiled variant per specialization key
//! (`host-runtime`'s kernel cache), a bounded number per kernel, then one general variant.
//!
//! The argument facts Triton specializes on (scalars equal to 1 or divisible by 16, 16-byte aligned
//! slices, lengths below 2^31) are not keys here: measured on the porting corpus they change no
//! hot loop while checks stay 64-bit (`docs/perf-notes.md`), so they would only multiply variants.
//!
//! A kernel opts out with `#[kernel(specialize = false)]` (one variant for every launch, as
//! before); a kernel with `block_dim` already has its shape and is never specialized further.

use std::fmt;

use kernel_ir::ast::{FnDef, FnKind};

/// The launch facts one compile assumes (its part of the kernel cache's key). The default assumes
/// nothing: the general variant, valid for every launch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Specialization {
    /// The block shape of every launch of this variant, applied as `#[kernel(block_dim(..))]`.
    pub block: Option<[u32; 3]>,
}

impl Specialization {
    /// The general variant.
    pub const GENERAL: Specialization = Specialization { block: None };

    /// What a launch of `def` with `block` is compiled for: its block shape when the kernel
    /// neither fixes one (`block_dim`) nor opts out (`specialize = false`) and the shape is one
    /// the kernel can run (within its `launch_bounds` and the 1024 threads of a block; any other
    /// launch gets the general variant, which launch validation then refuses with its own error).
    pub fn for_launch(def: &FnDef, block: [u32; 3]) -> Specialization {
        let FnKind::Kernel(a) = &def.kind else {
            return Self::GENERAL;
        };
        let threads: u64 = block.iter().map(|&v| u64::from(v)).product();
        let limit = u64::from(a.max_threads.unwrap_or(1024).min(1024));
        let runnable = (1..=limit).contains(&threads)
            && block[0] <= 1024
            && block[1] <= 1024
            && block[2] <= 64;
        if !Self::applies(def) || !runnable {
            return Self::GENERAL;
        }
        Specialization { block: Some(block) }
    }

    /// Whether launches of `def` are specialized at all: a kernel with neither `block_dim` nor
    /// `specialize = false`.
    pub fn applies(def: &FnDef) -> bool {
        matches!(&def.kind, FnKind::Kernel(a) if a.specialize && a.block_dim.is_none())
    }

    /// Whether this is the general variant.
    pub fn is_general(&self) -> bool {
        self.block.is_none()
    }
}

/// The key as logs and `cargo xtask ptx` show it: `block=32x8x1`, or `general`.
impl fmt::Display for Specialization {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.block {
            Some([x, y, z]) => write!(f, "block={x}x{y}x{z}"),
            None => f.write_str("general"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kernel_ir::ast::{Block, KernelAttrs, Span, Type};

    fn def(attrs: KernelAttrs) -> FnDef {
        FnDef {
            name: "k",
            module: "m",
            file: "m.rs",
            span: Span::default(),
            kind: FnKind::Kernel(attrs),
            generics: vec![],
            params: vec![],
            ret: Type::Unit,
            body: Block {
                stmts: vec![],
                tail: None,
                span: Span::default(),
            },
            overflow_checks: false,
        }
    }

    #[test]
    fn plain_kernels_specialize_on_the_launch_block() {
        let s = Specialization::for_launch(&def(KernelAttrs::default()), [32, 8, 1]);
        assert_eq!(s.block, Some([32, 8, 1]));
        assert_eq!(s.to_string(), "block=32x8x1");
        assert_eq!(Specialization::GENERAL.to_string(), "general");
    }

    #[test]
    fn attributes_and_unrunnable_blocks_get_the_general_variant() {
        let fixed = KernelAttrs {
            block_dim: Some([32, 8, 1]),
            ..KernelAttrs::default()
        };
        let opted_out = KernelAttrs {
            specialize: false,
            ..KernelAttrs::default()
        };
        let bounded = KernelAttrs {
            max_threads: Some(128),
            ..KernelAttrs::default()
        };
        for (a, block) in [
            (fixed, [32, 8, 1]),
            (opted_out, [32, 8, 1]),
            (bounded, [32, 8, 1]),
            (KernelAttrs::default(), [64, 32, 1]),
            (KernelAttrs::default(), [1, 1, 65]),
            (KernelAttrs::default(), [0, 1, 1]),
        ] {
            assert!(Specialization::for_launch(&def(a), block).is_general());
        }
    }
}
