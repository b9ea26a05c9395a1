//! A fast non-cryptographic hasher for the passes' maps and sets keyed by variables, ids and
//! small tuples of them.
//!
//! Why: std's default SipHash is built to resist hash flooding from untrusted keys, which costs
//! several times more per lookup than these small integer keys need; on an unrolled kernel the
//! passes do millions of lookups and SipHash was a large part of compile time. The keys come from
//! our own IR, so flooding is not a concern. The output never depends on iteration order (std's
//! `RandomState` already randomizes it per process), so the hasher does not change what is
//! compiled.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// Multiply-rotate hashing of machine words (the scheme rustc uses internally).
#[derive(Clone, Copy, Default)]
pub struct FxHasher {
    hash: u64,
}

const K: u64 = 0x517c_c1b7_2722_0a95;

impl FxHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(K);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes(c.try_into().unwrap_or([0; 8])));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut w = [0u8; 8];
            w[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(w) ^ ((rest.len() as u64) << 59));
        }
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(i as u64)
    }
    #[inline]
    fn write_u16(&mut self, i: u16) {
        self.add(i as u64)
    }
    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.add(i as u64)
    }
    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i)
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64)
    }
    #[inline]
    fn finish(&self) -> u64 {
        self.hash
    }
}

pub type FxBuild = BuildHasherDefault<FxHasher>;
pub type FxHashMap<K, V> = HashMap<K, V, FxBuild>;
pub type FxHashSet<T> = HashSet<T, FxBuild>;

#[cfg(test)]
mod tests {
    use super::*;
    use kernel_ir::ir::Var;

    #[test]
    fn maps_keyed_by_vars_behave_like_std() {
        let mut m: FxHashMap<Var, u32> = FxHashMap::default();
        for i in 0..10_000u32 {
            m.insert(Var(i * 7), i);
        }
        assert_eq!(m.len(), 10_000);
        assert!((0..10_000u32).all(|i| m.get(&Var(i * 7)) == Some(&i)));
        assert!(!m.contains_key(&Var(1)));
        let s: FxHashSet<(u32, u64)> = (0..100u32).map(|i| (i, i as u64 * 3)).collect();
        assert!(s.contains(&(5, 15)) && !s.contains(&(5, 16)));
    }

    #[test]
    fn distinct_small_keys_hash_apart() {
        use std::hash::BuildHasher;
        let b = FxBuild::default();
        let hs: FxHashSet<u64> = (0..1000u32).map(|i| b.hash_one(Var(i))).collect();
        assert_eq!(hs.len(), 1000);
    }
}
