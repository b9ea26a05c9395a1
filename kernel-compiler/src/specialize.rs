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
//! The launch's dynamic shared memory size is the second key, for kernels that use
//! `dynamic_shared` (only those: the cache drops the key of a kernel that turned out not to). Its
//! length is otherwise a run-time value (`%dynamic_smem_size`), so every index into it keeps a
//! 64-bit check the compiler cannot prove and a loop over a tile in it is unrolled with those
//! checks deferred rather than cleanly; with the size a constant, a multi-stage pipeline's stage
//! tiles are proven in bounds exactly as `shared_array` tiles are. A specialized variant checks
//! once, where it takes the slice, that it runs with the size it was compiled for (a `KernelPanic`
//! otherwise: the cache never hands it another launch, but a tool might).
//!
//! A kernel opts out with `#[kernel(specialize = false)]` (one variant for every launch, as
//! before); a kernel with `block_dim` already has its shape and is specialized on its dynamic
//! shared memory size only.

use std::fmt;

use kernel_ir::ast::{FnDef, FnKind};

/// The launch facts one compile assumes (its part of the kernel cache's key). The default assumes
/// nothing: the general variant, valid for every launch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Specialization {
    /// The block shape of every launch of this variant, applied as `#[kernel(block_dim(..))]`.
    pub block: Option<[u32; 3]>,
    /// The dynamic shared memory bytes of every launch of this variant: `dynamic_shared::<T>()`
    /// is then a slice of the constant length `bytes / size_of::<T>()`.
    pub dyn_shared: Option<u32>,
}

/// The most dynamic shared memory a block can have on any supported device (sm_90's 227 KiB
/// opt-in limit): a launch asking for more is refused by launch validation, so it gets no variant
/// of its own.
pub const MAX_DYNAMIC_SHARED_BYTES: u32 = 227 * 1024;

impl Specialization {
    /// The general variant.
    pub const GENERAL: Specialization = Specialization {
        block: None,
        dyn_shared: None,
    };

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
        Specialization {
            block: Some(block),
            dyn_shared: None,
        }
    }

    /// This key and a launch of `def` with `bytes` of dynamic shared memory: the size becomes
    /// part of it unless the kernel opts out (`specialize = false`) or the size is more than any
    /// device has (such a launch is refused before the driver anyway). Whether the kernel uses
    /// dynamic shared memory at all is known only once it is lowered: the kernel cache drops the
    /// size again for one that does not ([`Specialization::without_dynamic_shared`]).
    pub fn with_dynamic_shared(self, def: &FnDef, bytes: u32) -> Specialization {
        let dyn_shared = (Self::applies_to_dynamic_shared(def)
            && bytes <= MAX_DYNAMIC_SHARED_BYTES)
            .then_some(bytes);
        Specialization { dyn_shared, ..self }
    }

    /// This key without the dynamic shared memory size (for a kernel that does not use it).
    pub fn without_dynamic_shared(self) -> Specialization {
        Specialization {
            dyn_shared: None,
            ..self
        }
    }

    /// Whether launches of `def` are specialized on their dynamic shared memory size: every
    /// kernel without `specialize = false` (a `block_dim` kernel too).
    pub fn applies_to_dynamic_shared(def: &FnDef) -> bool {
        matches!(&def.kind, FnKind::Kernel(a) if a.specialize)
    }

    /// Whether launches of `def` are specialized at all: a kernel with neither `block_dim` nor
    /// `specialize = false`.
    pub fn applies(def: &FnDef) -> bool {
        matches!(&def.kind, FnKind::Kernel(a) if a.specialize && a.block_dim.is_none())
    }

    /// Whether this is the general variant.
    pub fn is_general(&self) -> bool {
        self.block.is_none() && self.dyn_shared.is_none()
    }
}

/// The key as logs and `cargo xtask ptx` show it: `block=32x8x1`, `dyn_shared=65536`, both
/// (`block=32x32x1 dyn_shared=65536`), or `general`.
impl fmt::Display for Specialization {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.block, self.dyn_shared) {
            (None, None) => f.write_str("general"),
            (Some([x, y, z]), None) => write!(f, "block={x}x{y}x{z}"),
            (None, Some(b)) => write!(f, "dyn_shared={b}"),
            (Some([x, y, z]), Some(b)) => write!(f, "block={x}x{y}x{z} dyn_shared={b}"),
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
    fn the_dynamic_shared_size_is_a_key_unless_opted_out_or_impossible() {
        let plain = def(KernelAttrs::default());
        let s = Specialization::for_launch(&plain, [32, 32, 1]).with_dynamic_shared(&plain, 65536);
        assert_eq!(s.dyn_shared, Some(65536));
        assert_eq!(s.to_string(), "block=32x32x1 dyn_shared=65536");
        assert!(!s.is_general());
        let only = Specialization::GENERAL.with_dynamic_shared(&plain, 0);
        assert_eq!(only.to_string(), "dyn_shared=0");
        assert!(!only.is_general() && only.without_dynamic_shared().is_general());
        let too_big =
            Specialization::GENERAL.with_dynamic_shared(&plain, MAX_DYNAMIC_SHARED_BYTES + 16);
        assert!(too_big.is_general());
        // A fixed block shape still specializes on the size; the opt-out on nothing.
        let fixed = def(KernelAttrs {
            block_dim: Some([32, 8, 1]),
            ..KernelAttrs::default()
        });
        let s = Specialization::for_launch(&fixed, [32, 8, 1]).with_dynamic_shared(&fixed, 4096);
        assert_eq!((s.block, s.dyn_shared), (None, Some(4096)));
        let opted_out = def(KernelAttrs {
            specialize: false,
            ..KernelAttrs::default()
        });
        let s = Specialization::for_launch(&opted_out, [32, 8, 1])
            .with_dynamic_shared(&opted_out, 4096);
        assert!(s.is_general());
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
