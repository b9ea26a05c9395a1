//! Compiled kernels per (kernel, instantiation, device, launch specialization): what
//! `launch_kernel` looks up on every launch.
//!
//! The fast path is one atomic load and a few compares: each `#[kernel]` remembers the entry it
//! used last, and a launch that matches it (same device, same context generation, same type and
//! const arguments, a block shape the entry was compiled for) goes straight to the driver. Other
//! entries are found under a mutex; a miss compiles the kernel (`kernel_compiler::compile` for the
//! device's architecture), has the device's backend load it, and publishes the entry. Entries are
//! never freed: a `#[kernel]` lives for the whole program and has few instantiations, so an
//! entry's address can be published without reclamation. After [`crate::Device::recover`] old
//! entries stop matching (their generation is stale) and the kernel is compiled and loaded again.
//!
//! Launch-time specialization (`kernel_compiler::specialize`): a kernel without `block_dim` is
//! compiled for the block shape of its launch, one variant per shape, up to [`MAX_VARIANTS`] per
//! instantiation and device; launches with any further shape share one general variant. A shape
//! always gets the same variant (the first [`MAX_VARIANTS`] shapes launched keep theirs), so its
//! performance does not depend on launch order. The general variant of a kernel that specializes
//! is reached through the mutex on every launch (the fast path cannot tell a shape with its own
//! variant from one without).
//!
//! The launch's dynamic shared memory size is part of the key too, for a kernel that uses
//! `dynamic_shared` (its length is then a constant, so a pipeline's stage tiles are proven in
//! bounds): the same bound counts a (block shape, size) pair as one variant. Whether an
//! instantiation uses dynamic shared memory is known once its first variant is compiled; the
//! size is dropped from the key of one that does not, so launches of it with any size share
//! their block shape's variant.
//!
//! `FERROCUDA_LOG_COMPILE=1` prints one line per compile to stderr: the kernel, its
//! specialization key, the target and the time it took.

use std::any::TypeId;
use std::sync::atomic::{AtomicPtr, Ordering};
use std::sync::{Arc, Mutex};

use std::sync::OnceLock;
use std::time::Instant;

use kernel_compiler::{CompileOptions, Compiled, Specialization};
use kernel_ir::ast::FnDef;

use crate::backend::LoadedKernel;
use crate::launch_api::{GenericsFn, InstanceKey};
use crate::{Device, Result};

/// Compiled variants per instantiation and device, beyond which launches of further block shapes
/// share the general variant: each variant costs a compile and a driver JIT, and a program that
/// sweeps block sizes should not pay them without end.
pub const MAX_VARIANTS: usize = 8;

/// What identifies a loaded variant: the device, its context generation, the generic arguments
/// and the launch specialization it was compiled for.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct EntryKey {
    device_uid: u64,
    generation: u64,
    types: Box<[TypeId]>,
    consts: Box<[i128]>,
    spec: Specialization,
}

impl EntryKey {
    fn new(device_uid: u64, generation: u64, key: &InstanceKey<'_>, spec: Specialization) -> Self {
        EntryKey {
            device_uid,
            generation,
            types: key.types.into(),
            consts: key.consts.into(),
            spec,
        }
    }

    /// Allocation-free comparison with a launch's instantiation (any specialization).
    #[inline]
    fn same_instance(&self, uid: u64, generation: u64, key: &InstanceKey<'_>) -> bool {
        self.device_uid == uid
            && self.generation == generation
            && same(&self.types, key.types)
            && same(&self.consts, key.consts)
    }
}

/// Slice equality element by element. `==` on slices of plain integers calls `memcmp`, which cost
/// a typed launch over 0.1 us even for the empty slices of a non-generic kernel (measured with a
/// no-op driver under `perf`: glibc's AVX-512 `memcmp` was half the launcher's time).
#[inline]
fn same<T: PartialEq>(a: &[T], b: &[T]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y)
}

/// One loaded variant of an instantiation.
pub(crate) struct Entry {
    key: EntryKey,
    /// Whether every launch shape runs this entry: the kernel is never specialized (it has
    /// `block_dim` or `specialize = false`).
    any_block: bool,
    /// Whether launches with any dynamic shared memory size run this entry: the kernel does not
    /// use dynamic shared memory, or is never specialized on its size (`specialize = false`).
    any_dyn_shared: bool,
    /// Whether the instantiation uses dynamic shared memory (the same for all its variants).
    uses_dyn_shared: bool,
    /// Keeps the device open while the cache can hand out its loaded kernel, so a later
    /// `Device::new` of the same ordinal finds it rather than opening a second state.
    _device: Device,
    /// The instantiation as the device's backend runs it.
    pub(crate) kernel: Arc<dyn LoadedKernel>,
    /// Parameters of the kernel, checked against the launcher's argument count.
    pub(crate) param_count: usize,
    pub(crate) compiled: Arc<Compiled>,
}

impl Entry {
    /// Whether a launch of `key` with `block` and `dyn_shared` bytes of dynamic shared memory
    /// runs this entry, as far as the entry alone can tell (the fast path): a general variant of
    /// a kernel that specializes never answers yes.
    #[inline]
    fn serves(
        &self,
        uid: u64,
        generation: u64,
        key: &InstanceKey<'_>,
        block: [u32; 3],
        dyn_shared: u32,
    ) -> bool {
        (self.any_block || self.key.spec.block == Some(block))
            && (self.any_dyn_shared || self.key.spec.dyn_shared == Some(dyn_shared))
            && self.key.same_instance(uid, generation, key)
    }
}

/// The per-kernel cache (const-constructible, so it can sit in a `static`).
pub struct KernelCache {
    last: AtomicPtr<Entry>,
    entries: Mutex<Vec<&'static Entry>>,
}

impl Default for KernelCache {
    fn default() -> Self {
        Self::new()
    }
}

impl KernelCache {
    /// An empty cache.
    pub const fn new() -> Self {
        KernelCache {
            last: AtomicPtr::new(std::ptr::null_mut()),
            entries: Mutex::new(Vec::new()),
        }
    }

    /// The loaded variant for a launch of `key` on `device` with block shape `block` and
    /// `dyn_shared` bytes of dynamic shared memory (`None`: the variant general in that fact, for
    /// tools and occupancy queries): compiled for its backend's target and loaded by it on a miss.
    #[inline]
    pub(crate) fn get(
        &self,
        device: &Device,
        def: fn() -> &'static FnDef,
        key: &InstanceKey<'_>,
        generics: GenericsFn<'_>,
        block: Option<[u32; 3]>,
        dyn_shared: Option<u32>,
    ) -> Result<&'static Entry> {
        let uid = device.uid();
        let generation = device.ops().generation();
        let last = self.last.load(Ordering::Acquire);
        // SAFETY: published entries are leaked, so a non-null pointer is valid forever.
        if let (Some(e), Some(b), Some(d)) = (unsafe { last.as_ref() }, block, dyn_shared) {
            if e.serves(uid, generation, key, b, d) {
                return Ok(e);
            }
        }
        self.slow(
            uid, generation, device, def, key, generics, block, dyn_shared,
        )
    }

    #[cold]
    #[allow(clippy::too_many_arguments)]
    fn slow(
        &self,
        uid: u64,
        generation: u64,
        device: &Device,
        def: fn() -> &'static FnDef,
        key: &InstanceKey<'_>,
        generics: GenericsFn<'_>,
        block: Option<[u32; 3]>,
        dyn_shared: Option<u32>,
    ) -> Result<&'static Entry> {
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        let def = def();
        let any_block = !Specialization::applies(def);
        let mut spec = match block {
            Some(b) => Specialization::for_launch(def, b),
            None => Specialization::GENERAL,
        };
        if let Some(bytes) = dyn_shared {
            spec = spec.with_dynamic_shared(def, bytes);
        }
        let ours = |e: &&&'static Entry| e.key.same_instance(uid, generation, key);
        // An instantiation compiled before tells whether it uses dynamic shared memory at all.
        if entries.iter().filter(ours).any(|e| !e.uses_dyn_shared) {
            spec = spec.without_dynamic_shared();
        }
        if !spec.is_general()
            && !entries.iter().filter(ours).any(|e| e.key.spec == spec)
            && entries
                .iter()
                .filter(ours)
                .filter(|e| !e.key.spec.is_general())
                .count()
                >= MAX_VARIANTS
        {
            spec = Specialization::GENERAL;
        }
        if let Some(e) = entries.iter().filter(ours).find(|e| e.key.spec == spec) {
            self.last
                .store(*e as *const Entry as *mut Entry, Ordering::Release);
            return Ok(e);
        }
        let ops = device.ops();
        let (sm, source_markers) = ops.compile_target();
        let opts = CompileOptions {
            sm,
            source_markers,
            specialization: spec,
            ..CompileOptions::default()
        };
        let started = Instant::now();
        let compiled = Arc::new(kernel_compiler::compile(def, &generics(), &opts)?);
        let uses_dyn_shared = compiled.kernel.uses_dyn_shared;
        if !uses_dyn_shared {
            // Its first compile: the size changed nothing, and is no part of the key.
            spec = spec.without_dynamic_shared();
        }
        if log_compiles() {
            eprintln!(
                "ferrocuda: compiled {} [{spec}] for sm_{sm} in {:.1} ms",
                compiled.kernel.display_name,
                started.elapsed().as_secs_f64() * 1e3
            );
        }
        let kernel = ops.load(&compiled)?;
        let entry: &'static Entry = Box::leak(Box::new(Entry {
            key: EntryKey::new(uid, generation, key, spec),
            any_block,
            any_dyn_shared: !uses_dyn_shared || !Specialization::applies_to_dynamic_shared(def),
            uses_dyn_shared,
            _device: device.clone(),
            kernel,
            param_count: compiled.kernel.params.len(),
            compiled,
        }));
        entries.push(entry);
        self.last
            .store(entry as *const Entry as *mut Entry, Ordering::Release);
        Ok(entry)
    }

    /// The specialization keys of the variants loaded so far, in the order they were compiled
    /// (for tests and tools).
    pub fn variants(&self) -> Vec<Specialization> {
        let entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        entries.iter().map(|e| e.key.spec).collect()
    }
}

/// `FERROCUDA_LOG_COMPILE` (set and not `0`), read once per process.
fn log_compiles() -> bool {
    static LOG: OnceLock<bool> = OnceLock::new();
    *LOG.get_or_init(|| std::env::var_os("FERROCUDA_LOG_COMPILE").is_some_and(|v| v != "0"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entry_keys_match_exactly_their_instantiation() {
        let types = [TypeId::of::<f32>()];
        let k = EntryKey::new(
            1,
            0,
            &InstanceKey::new(&types, &[32]),
            Specialization::GENERAL,
        );
        assert!(k.same_instance(1, 0, &InstanceKey::new(&[TypeId::of::<f32>()], &[32])));
        assert!(
            !k.same_instance(2, 0, &InstanceKey::new(&types, &[32])),
            "other device"
        );
        assert!(
            !k.same_instance(1, 1, &InstanceKey::new(&types, &[32])),
            "context was reset"
        );
        assert!(!k.same_instance(1, 0, &InstanceKey::new(&[TypeId::of::<f64>()], &[32])));
        assert!(!k.same_instance(1, 0, &InstanceKey::new(&types, &[64])));
        assert!(!k.same_instance(1, 0, &InstanceKey::new(&types, &[])));
        assert!(!k.same_instance(1, 0, &InstanceKey::EMPTY));
        let plain = EntryKey::new(1, 0, &InstanceKey::EMPTY, Specialization::GENERAL);
        assert!(plain.same_instance(1, 0, &InstanceKey::EMPTY));
    }

    #[test]
    fn empty_cache_is_const_constructible() {
        static C: KernelCache = KernelCache::new();
        assert!(C.last.load(Ordering::Relaxed).is_null());
        assert!(C.entries.lock().unwrap().is_empty());
    }
}
