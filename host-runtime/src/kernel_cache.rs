//! Compiled kernels per (kernel, instantiation, device): what `launch_kernel` looks up on every
//! launch.
//!
//! The fast path is one atomic load and a few compares: each `#[kernel]` remembers the entry it
//! used last, and a launch that matches it (same device, same context generation, same type and
//! const arguments) goes straight to the driver. Other instantiations are found under a mutex;
//! a miss compiles the kernel (`kernel_compiler::compile` for the device's architecture), has the
//! device's backend load it, and publishes the entry. Entries are never freed: a `#[kernel]` lives
//! for the whole program and has few instantiations, so an entry's address can be published
//! without reclamation. After [`crate::Device::recover`] old entries stop matching (their
//! generation is stale) and the kernel is compiled and loaded again.

use std::any::TypeId;
use std::sync::atomic::{AtomicPtr, Ordering};
use std::sync::{Arc, Mutex};

use kernel_compiler::{CompileOptions, Compiled};
use kernel_ir::ast::FnDef;

use crate::backend::LoadedKernel;
use crate::launch_api::{GenericsFn, InstanceKey};
use crate::{Device, Result};

/// What identifies a loaded instantiation: the device, its context generation and the generic
/// arguments.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct EntryKey {
    device_uid: u64,
    generation: u64,
    types: Box<[TypeId]>,
    consts: Box<[i128]>,
}

impl EntryKey {
    fn new(device_uid: u64, generation: u64, key: &InstanceKey<'_>) -> Self {
        EntryKey {
            device_uid,
            generation,
            types: key.types.into(),
            consts: key.consts.into(),
        }
    }

    /// Allocation-free comparison with a launch's key.
    #[inline]
    fn matches(&self, uid: u64, generation: u64, key: &InstanceKey<'_>) -> bool {
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

/// One loaded instantiation.
pub(crate) struct Entry {
    key: EntryKey,
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
    #[inline]
    fn matches(&self, uid: u64, generation: u64, key: &InstanceKey<'_>) -> bool {
        self.key.matches(uid, generation, key)
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

    /// The loaded instantiation for `key` on `device`: compiled for its backend's target and
    /// loaded by it on a miss.
    #[inline]
    pub(crate) fn get(
        &self,
        device: &Device,
        def: fn() -> &'static FnDef,
        key: &InstanceKey<'_>,
        generics: GenericsFn<'_>,
    ) -> Result<&'static Entry> {
        let uid = device.uid();
        let generation = device.ops().generation();
        let last = self.last.load(Ordering::Acquire);
        // SAFETY: published entries are leaked, so a non-null pointer is valid forever.
        if let Some(e) = unsafe { last.as_ref() } {
            if e.matches(uid, generation, key) {
                return Ok(e);
            }
        }
        self.slow(uid, generation, device, def, key, generics)
    }

    #[cold]
    fn slow(
        &self,
        uid: u64,
        generation: u64,
        device: &Device,
        def: fn() -> &'static FnDef,
        key: &InstanceKey<'_>,
        generics: GenericsFn<'_>,
    ) -> Result<&'static Entry> {
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(e) = entries.iter().find(|e| e.matches(uid, generation, key)) {
            self.last
                .store(*e as *const Entry as *mut Entry, Ordering::Release);
            return Ok(e);
        }
        let ops = device.ops();
        let (sm, source_markers) = ops.compile_target();
        let opts = CompileOptions {
            sm,
            source_markers,
            ..CompileOptions::default()
        };
        let compiled = Arc::new(kernel_compiler::compile(def(), &generics(), &opts)?);
        let kernel = ops.load(&compiled)?;
        let entry: &'static Entry = Box::leak(Box::new(Entry {
            key: EntryKey::new(uid, generation, key),
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entry_keys_match_exactly_their_instantiation() {
        let types = [TypeId::of::<f32>()];
        let k = EntryKey::new(1, 0, &InstanceKey::new(&types, &[32]));
        assert!(k.matches(1, 0, &InstanceKey::new(&[TypeId::of::<f32>()], &[32])));
        assert!(
            !k.matches(2, 0, &InstanceKey::new(&types, &[32])),
            "other device"
        );
        assert!(
            !k.matches(1, 1, &InstanceKey::new(&types, &[32])),
            "context was reset"
        );
        assert!(!k.matches(1, 0, &InstanceKey::new(&[TypeId::of::<f64>()], &[32])));
        assert!(!k.matches(1, 0, &InstanceKey::new(&types, &[64])));
        assert!(!k.matches(1, 0, &InstanceKey::new(&types, &[])));
        assert!(!k.matches(1, 0, &InstanceKey::EMPTY));
        let plain = EntryKey::new(1, 0, &InstanceKey::EMPTY);
        assert!(plain.matches(1, 0, &InstanceKey::EMPTY));
    }

    #[test]
    fn empty_cache_is_const_constructible() {
        static C: KernelCache = KernelCache::new();
        assert!(C.last.load(Ordering::Relaxed).is_null());
        assert!(C.entries.lock().unwrap().is_empty());
    }
}
