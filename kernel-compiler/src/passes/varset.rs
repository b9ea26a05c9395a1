//! A set of variables as a bit vector indexed by `Var.0`.
//!
//! Why: liveness sets are copied at every branch and loop and updated at every instruction; the
//! kernels have at most a few thousand variables, so a dense bit vector makes each update one
//! word operation and each copy a short memcpy, where a hash set hashed every variable.

use kernel_ir::ir::Var;

#[derive(Clone, Debug, Default)]
pub struct VarSet {
    /// Bit `v % 64` of word `v / 64` is set when `Var(v)` is in the set. Words past the end are
    /// zero; the vector grows on insert.
    words: Vec<u64>,
}

impl VarSet {
    pub fn new() -> Self {
        VarSet::default()
    }

    /// An empty set with room for variables `0..vars` without growing.
    pub fn with_capacity(vars: usize) -> Self {
        VarSet {
            words: Vec::with_capacity(vars.div_ceil(64)),
        }
    }

    #[inline]
    pub fn contains(&self, v: &Var) -> bool {
        let (w, b) = (v.0 as usize / 64, v.0 % 64);
        self.words.get(w).is_some_and(|x| x >> b & 1 != 0)
    }

    /// Returns whether `v` was not in the set.
    #[inline]
    pub fn insert(&mut self, v: Var) -> bool {
        let (w, b) = (v.0 as usize / 64, v.0 % 64);
        if w >= self.words.len() {
            self.words.resize(w + 1, 0);
        }
        let old = self.words[w];
        self.words[w] = old | 1 << b;
        old >> b & 1 == 0
    }

    /// Returns whether `v` was in the set.
    #[inline]
    pub fn remove(&mut self, v: &Var) -> bool {
        let (w, b) = (v.0 as usize / 64, v.0 % 64);
        match self.words.get_mut(w) {
            Some(x) => {
                let had = *x >> b & 1 != 0;
                *x &= !(1 << b);
                had
            }
            None => false,
        }
    }

    pub fn clear(&mut self) {
        self.words.clear();
    }

    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|w| *w == 0)
    }

    /// Adds every element of `other`.
    pub fn union_with(&mut self, other: &VarSet) {
        if other.words.len() > self.words.len() {
            self.words.resize(other.words.len(), 0);
        }
        for (a, b) in self.words.iter_mut().zip(&other.words) {
            *a |= *b;
        }
    }

    /// Removes every element of `other`.
    pub fn difference_with(&mut self, other: &VarSet) {
        for (a, b) in self.words.iter_mut().zip(&other.words) {
            *a &= !*b;
        }
    }

    pub fn is_disjoint(&self, other: &VarSet) -> bool {
        self.words.iter().zip(&other.words).all(|(a, b)| a & b == 0)
    }

    /// Makes `self` equal to `other`, reusing its storage.
    pub fn assign(&mut self, other: &VarSet) {
        self.words.clear();
        self.words.extend_from_slice(&other.words);
    }

    /// The elements in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = Var> + '_ {
        self.words.iter().enumerate().flat_map(|(i, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                if w == 0 {
                    return None;
                }
                let b = w.trailing_zeros();
                w &= w - 1;
                Some(Var(i as u32 * 64 + b))
            })
        })
    }
}

impl PartialEq for VarSet {
    fn eq(&self, other: &Self) -> bool {
        let n = self.words.len().min(other.words.len());
        self.words[..n] == other.words[..n]
            && self.words[n..].iter().all(|w| *w == 0)
            && other.words[n..].iter().all(|w| *w == 0)
    }
}

impl Eq for VarSet {}

impl Extend<Var> for VarSet {
    fn extend<I: IntoIterator<Item = Var>>(&mut self, iter: I) {
        for v in iter {
            self.insert(v);
        }
    }
}

impl FromIterator<Var> for VarSet {
    fn from_iter<I: IntoIterator<Item = Var>>(iter: I) -> Self {
        let mut s = VarSet::new();
        s.extend(iter);
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn agrees_with_a_btree_set() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut rnd = move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        let mut s = VarSet::new();
        let mut r = BTreeSet::new();
        for _ in 0..5000 {
            let v = Var(rnd(300) as u32);
            match rnd(3) {
                0 => assert_eq!(s.insert(v), r.insert(v)),
                1 => assert_eq!(s.remove(&v), r.remove(&v)),
                _ => assert_eq!(s.contains(&v), r.contains(&v)),
            }
        }
        assert_eq!(
            s.iter().collect::<Vec<_>>(),
            r.iter().copied().collect::<Vec<_>>()
        );
        let other: VarSet = [Var(1), Var(299), Var(1000)].into_iter().collect();
        s.union_with(&other);
        r.extend([Var(1), Var(299), Var(1000)]);
        assert_eq!(
            s.iter().collect::<Vec<_>>(),
            r.iter().copied().collect::<Vec<_>>()
        );
    }

    #[test]
    fn equality_ignores_capacity() {
        let mut a = VarSet::new();
        a.insert(Var(500));
        a.remove(&Var(500));
        assert_eq!(a, VarSet::new());
        assert!(a.is_empty());
        a.insert(Var(3));
        let b: VarSet = [Var(3)].into_iter().collect();
        assert_eq!(a, b);
        assert_ne!(a, VarSet::new());
    }
}
