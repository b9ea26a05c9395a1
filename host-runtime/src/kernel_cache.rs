//! Compiled kernels per (kernel, instantiation, device): what `launch_kernel` looks up on every
//! launch.
//!
//! The fast path is one atomic load and a few compares: each `#[kernel]` remembers the entry it
//! used last, and a launch that matches it (same device, same context generation, same type and
//! const arguments) goes straight to the driver. Other instantiations are found under a mutex;
//! a miss compiles the kernel (`kernel_compiler::compile` for the device's architecture), loads it
//! through the disk cache, and publishes the entry. Entries are never freed: a `#[kernel]` lives
//! for the whole program and has few instantiations, so an entry's address can be published
//! without reclamation. After [`crate::Device::recover`] old entries stop matching (their
//! generation is stale) and the kernel is compiled and loaded again.

use std::any::TypeId;
use std::sync::atomic::{AtomicPtr, Ordering};
use std::sync::{Arc, Mutex};

use kernel_compiler::{CompileOptions, Compiled};
use kernel_ir::ast::FnDef;

use crate::device::CudaDevice;
use crate::disk_cache;
use crate::launch_api::{GenericsFn, InstanceKey};
use crate::module::{jit_load, link_ptx, load_cubin_raw};
use crate::{Device, Error, Function, Module, Result};

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
    /// The loaded entry point (`None` on backends that interpret the IR).
    pub(crate) function: Option<Function>,
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

    /// The loaded instantiation for `key` on `device` (whose context is in `generation`),
    /// compiling it for `sm` (with source markers if the backend runs the IR: `markers`) and
    /// handing it to `load` on a miss. `load` returns the backend's
    /// loaded function (`None` for backends that run the IR directly, like the simulator).
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn get(
        &self,
        device: &Device,
        generation: u64,
        sm: u32,
        markers: bool,
        def: fn() -> &'static FnDef,
        key: &InstanceKey<'_>,
        generics: GenericsFn<'_>,
        load: Loader<'_>,
    ) -> Result<&'static Entry> {
        let uid = device.uid();
        let last = self.last.load(Ordering::Acquire);
        // SAFETY: published entries are leaked, so a non-null pointer is valid forever.
        if let Some(e) = unsafe { last.as_ref() } {
            if e.matches(uid, generation, key) {
                return Ok(e);
            }
        }
        self.slow(uid, generation, sm, markers, def, key, generics, load)
    }

    #[cold]
    #[allow(clippy::too_many_arguments)]
    fn slow(
        &self,
        uid: u64,
        generation: u64,
        sm: u32,
        markers: bool,
        def: fn() -> &'static FnDef,
        key: &InstanceKey<'_>,
        generics: GenericsFn<'_>,
        load: Loader<'_>,
    ) -> Result<&'static Entry> {
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(e) = entries.iter().find(|e| e.matches(uid, generation, key)) {
            self.last
                .store(*e as *const Entry as *mut Entry, Ordering::Release);
            return Ok(e);
        }
        let opts = CompileOptions {
            sm,
            source_markers: markers,
            ..CompileOptions::default()
        };
        let compiled = kernel_compiler::compile(def(), &generics(), &opts)?;
        let function = load(&compiled)?;
        let entry: &'static Entry = Box::leak(Box::new(Entry {
            key: EntryKey::new(uid, generation, key),
            function,
            param_count: compiled.kernel.params.len(),
            compiled: Arc::new(compiled),
        }));
        entries.push(entry);
        self.last
            .store(entry as *const Entry as *mut Entry, Ordering::Release);
        Ok(entry)
    }
}

/// Loads a freshly compiled instantiation into a backend.
pub(crate) type Loader<'a> = &'a dyn Fn(&Compiled) -> Result<Option<Function>>;

/// The CUDA loader: PTX through the disk cache, then the entry point.
pub(crate) fn cuda_loader<'a>(
    device: &'a Device,
    cuda: &'a CudaDevice,
) -> impl Fn(&Compiled) -> Result<Option<Function>> + 'a {
    move |c: &Compiled| {
        let module = load_compiled(device, cuda, c)?;
        // The PTX entry is the kernel name made a valid PTX identifier.
        Ok(Some(
            module
                .function(&kernel_compiler::ptx::entry_name(&c.kernel.name))?
                .with_required_block(c.kernel.attrs.block_dim),
        ))
    }
}

/// Loads compiled PTX through the disk cache (or straight through the JIT when it is disabled).
pub(crate) fn load_compiled(device: &Device, cuda: &CudaDevice, c: &Compiled) -> Result<Module> {
    let sites = Some(c.kernel.panic_sites.clone().into());
    let name = c.kernel.display_name.clone();
    let Some(dir) = disk_cache::cache_dir() else {
        let raw = jit_load(device, &c.ptx)?;
        return Module::adopt(device, raw, name, sites);
    };
    let key = disk_cache::disk_cache_key(&c.ptx, cuda.props.sm(), cuda.driver_version);
    if let Some(cubin) = disk_cache::load(&dir, &key) {
        match load_cubin_raw(device, &cubin) {
            Ok(raw) => return Module::adopt(device, raw, name, sites),
            Err(_) => disk_cache::evict(&dir, &key),
        }
    }
    let cubin = match link_ptx(device, &c.ptx) {
        Ok(cubin) => cubin,
        Err(e @ Error::Jit { .. }) => return Err(e),
        // The linker path is an optimization; fall back to the plain JIT on other failures.
        Err(_) => {
            let raw = jit_load(device, &c.ptx)?;
            return Module::adopt(device, raw, name, sites);
        }
    };
    disk_cache::store(&dir, &key, &cubin);
    let raw = load_cubin_raw(device, &cubin)?;
    Module::adopt(device, raw, name, sites)
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
