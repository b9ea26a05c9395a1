//! The on-disk cubin cache: PTX compiled once per (PTX, architecture, driver) with the driver's
//! linker and reused by later processes. Opt-in: set `$FERROCUDA_CACHE_DIR` to a directory.
//!
//! Why opt-in: the linker (`cuLinkAddData`) compiles PTX as relocatable code, and that code can be
//! much slower: on an H200 our SGEMM ran at 20.2 TFLOP/s from the linker's cubin against 29.8
//! from `cuModuleLoadDataEx` on the same PTX. By default kernels load through
//! `cuModuleLoadDataEx`, whose results the driver itself caches on disk (its compute cache,
//! `CUDA_CACHE_PATH`), so a second process still skips the JIT. The key hashes the PTX with a fixed
//! function (128-bit FNV-1a: stable across Rust releases, unlike `DefaultHasher`) and adds the
//! architecture and the driver version, since a driver update may change the generated code.
//! A file that fails to load is deleted and rebuilt; writes go through a temporary file and a
//! rename, so concurrent processes never read half a cubin.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// Bumped when the cache's layout or key changes.
const FORMAT: u32 = 1;

/// 128-bit FNV-1a.
pub fn fnv1a_128(bytes: &[u8]) -> u128 {
    const OFFSET: u128 = 0x6c62272e07bb014262b821756295c58d;
    const PRIME: u128 = 0x0000000001000000000000000000013b;
    bytes
        .iter()
        .fold(OFFSET, |h, &b| (h ^ b as u128).wrapping_mul(PRIME))
}

/// The file name of the cubin for `ptx` compiled for `sm` by driver `driver_version`.
pub fn disk_cache_key(ptx: &str, sm: u32, driver_version: i32) -> String {
    format!(
        "v{FORMAT}-{:032x}-sm{sm}-drv{driver_version}.cubin",
        fnv1a_128(ptx.as_bytes())
    )
}

/// Resolves the cache directory from `FERROCUDA_CACHE_DIR` (separated out for testing): unset,
/// empty or `off` disable the cache.
pub fn cache_dir_from(ferrocuda: Option<OsString>) -> Option<PathBuf> {
    match ferrocuda {
        Some(v) if v.is_empty() || v == "off" => None,
        Some(v) => Some(PathBuf::from(v)),
        None => None,
    }
}

/// The cache directory for this process (`None` = the cache is off, the default).
pub fn cache_dir() -> Option<PathBuf> {
    cache_dir_from(std::env::var_os("FERROCUDA_CACHE_DIR"))
}

/// Reads an entry; `None` when absent or unreadable.
pub fn load(dir: &Path, key: &str) -> Option<Vec<u8>> {
    std::fs::read(dir.join(key)).ok().filter(|b| !b.is_empty())
}

/// Stores an entry atomically; failures only cost the next process a JIT, so they are ignored.
pub fn store(dir: &Path, key: &str, cubin: &[u8]) {
    let _ = (|| -> std::io::Result<()> {
        std::fs::create_dir_all(dir)?;
        let tmp = dir.join(format!("{key}.{}.tmp", std::process::id()));
        std::fs::write(&tmp, cubin)?;
        std::fs::rename(&tmp, dir.join(key))
    })();
}

/// Deletes an entry that failed to load.
pub fn evict(dir: &Path, key: &str) {
    let _ = std::fs::remove_file(dir.join(key));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv_matches_the_reference_values() {
        assert_eq!(fnv1a_128(b""), 0x6c62272e07bb014262b821756295c58d);
        // Reference value of the published FNV-1a 128 test vector for "a".
        assert_eq!(fnv1a_128(b"a"), 0xd228cb696f1a8caf78912b704e4a8964);
    }

    #[test]
    fn key_depends_on_ptx_arch_and_driver() {
        let k = disk_cache_key(".entry k", 90, 13000);
        assert_eq!(k, disk_cache_key(".entry k", 90, 13000));
        assert_ne!(k, disk_cache_key(".entry j", 90, 13000));
        assert_ne!(k, disk_cache_key(".entry k", 80, 13000));
        assert_ne!(k, disk_cache_key(".entry k", 90, 12080));
        assert!(
            k.starts_with("v1-") && k.ends_with("-sm90-drv13000.cubin"),
            "{k}"
        );
        assert!(k
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '.'));
    }

    #[test]
    fn cache_dir_resolution() {
        let s = |v: &str| Some(OsString::from(v));
        assert_eq!(cache_dir_from(s("/c")), Some(PathBuf::from("/c")));
        assert_eq!(cache_dir_from(s("off")), None);
        assert_eq!(cache_dir_from(s("")), None);
        assert_eq!(cache_dir_from(None), None);
    }

    #[test]
    fn store_and_load_round_trip() {
        let dir = std::env::temp_dir().join(format!("ferrocuda-cache-test-{}", std::process::id()));
        let key = disk_cache_key("x", 90, 1);
        assert_eq!(load(&dir, &key), None);
        store(&dir, &key, b"\x7fELF cubin");
        assert_eq!(load(&dir, &key).as_deref(), Some(&b"\x7fELF cubin"[..]));
        evict(&dir, &key);
        assert_eq!(load(&dir, &key), None);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
