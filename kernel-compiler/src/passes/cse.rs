//! Common subexpression elimination over the structured tree.
//!
//! Walking each block in order, a pure value (arithmetic, comparisons, casts, selects, pure
//! intrinsics such as `tid.x`, shared-memory addresses) computed again from the same operands
//! while the variable that holds the first result still holds it becomes a `mov` from that
//! variable; `const_fold` then propagates the copy. What is available is forgotten as soon as an
//! operand or the holding variable is written. Facts flow into both branches of an `if` and out
//! of it only where both branches agree (or from the branch that falls through); a loop body
//! starts without facts about anything the loop writes.
//!
//! Loads are never merged (memory may change in between). Float multiplies are left alone so
//! that `fma` contraction still sees one product per add, as nvcc does.
//!
//! Besides smaller code, this makes repeated index computations one variable, so `bce` can see
//! that two checks are identical.

use super::fx::FxHashMap;

use super::util::{falls_through, for_each_def, is_removable, walk};
use kernel_ir::intrinsic::IntrinsicId;
use kernel_ir::ir::{BinOp, Block, Inst, Kernel, Operand, Ty, Var};

/// A pure computation: what is computed and from which operands, in a fixed-size `Copy` value.
///
/// Why this shape: the pass looks up a key for every pure instruction, mostly finding one seen
/// before (unrolled bodies repeat the same computations). An enum with an argument vector cost a
/// derived hash and comparison that matched on every nested variant, and a clone per new key;
/// operands are encoded as plain words once, so hashing and comparing keys never match on an
/// enum.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Key {
    /// The kind of computation in the low byte (`KIND_*`), then its operator, result type,
    /// operand count, intrinsic or allocation id as [`Key::new`] packs them.
    head: u64,
    /// Three operand slots of two words each, as [`encode`] writes them; slots past the
    /// operands hold [`NO_OPERAND`]. An intrinsic with more than three arguments has
    /// [`LONG_ARGS`] and its interned argument list's index in the first slot instead.
    ops: [[u64; 2]; 3],
}

/// A variable operand is `[var, 0]`; a constant `[CONST_TAG | ty, bits]`.
const CONST_TAG: u64 = 1 << 32;
/// Fills the operand slots a key does not use (no variable has this index).
const NO_OPERAND: [u64; 2] = [u32::MAX as u64, 0];
/// First word of the slot that holds a long intrinsic's argument list index.
const LONG_ARGS: u64 = 2 << 32;

fn encode(o: Operand) -> [u64; 2] {
    match o {
        Operand::Var(v) => [v.0 as u64, 0],
        Operand::Const(c) => [CONST_TAG | c.ty as u64, c.bits],
    }
}

/// The variable an operand slot holds, if it holds one.
fn slot_var(w: [u64; 2]) -> Option<Var> {
    (w[0] < u32::MAX as u64).then_some(Var(w[0] as u32))
}

const KIND_UN: u64 = 0;
const KIND_BIN: u64 = 1;
const KIND_FMA: u64 = 2;
const KIND_CAST: u64 = 3;
const KIND_BITCAST: u64 = 4;
const KIND_SELECT: u64 = 5;
const KIND_INTRINSIC: u64 = 6;
/// An intrinsic with more than three arguments (rare): see [`Key::ops`].
const KIND_LONG_INTRINSIC: u64 = 7;
const KIND_SHARED_ADDR: u64 = 8;
const KIND_DYN_SHARED_ADDR: u64 = 9;
const KIND_DYN_SHARED_BYTES: u64 = 10;

impl Key {
    /// `kind` in bits 0..8, the operator `op` in 8..16, the result type `ty` in 16..24,
    /// the operand count in 24..32 and `id` (intrinsic or shared allocation) in 32..64.
    fn new(kind: u64, op: u64, ty: u64, ops: &[Operand], id: u32) -> Self {
        let mut all = [NO_OPERAND; 3];
        for (slot, o) in all.iter_mut().zip(ops) {
            *slot = encode(*o);
        }
        Key {
            head: kind | op << 8 | ty << 16 | (ops.len() as u64) << 24 | (id as u64) << 32,
            ops: all,
        }
    }

    fn kind(&self) -> u64 {
        self.head & 0xff
    }

    /// Whether variable `v` is one of the operands (of a key other than a long intrinsic's).
    fn reads(&self, v: Var) -> bool {
        self.ops.iter().any(|w| w[0] == v.0 as u64)
    }
}

impl Key {
    /// Multiply-rotate hashing of the words (as `fx::FxHasher`); the high bits are the best
    /// mixed, so [`Ids`] uses those.
    #[inline]
    fn hash(&self) -> u64 {
        const K: u64 = 0x517c_c1b7_2722_0a95;
        let add = |h: u64, w: u64| (h.rotate_left(5) ^ w).wrapping_mul(K);
        let mut h = add(0, self.head);
        for [a, b] in self.ops {
            h = add(add(h, a), b);
        }
        h
    }
}

/// The ids of the keys seen so far: an open-addressing table with linear probing, each slot the
/// high half of a key's hash and its id ([`NIL`] when empty).
///
/// Why not a `HashMap<Key, u32>`: this lookup runs for every pure instruction, and the generic
/// entry API moved the key in and out and hashed through a `Hasher`; here a probe compares 32
/// hash bits before it looks at a key, and growing needs no rehash (the slot keeps those bits).
struct Ids {
    slots: Vec<(u32, u32)>,
    /// 32 minus log2 of the slot count: a hash's top bits pick its first slot.
    shift: u32,
    len: usize,
}

impl Ids {
    fn with_capacity(keys: usize) -> Self {
        // At most half full.
        let n = (keys * 2).next_power_of_two().max(16);
        Ids {
            slots: vec![(0, NIL); n],
            shift: 32 - n.trailing_zeros(),
            len: 0,
        }
    }

    /// The id of `key` among `keys`, or `next` (recorded) if it is new.
    #[inline]
    fn get_or_insert(&mut self, keys: &[Key], key: &Key, next: u32) -> u32 {
        let h = (key.hash() >> 32) as u32;
        let mask = self.slots.len() - 1;
        let mut i = (h >> self.shift) as usize;
        loop {
            let (sh, id) = self.slots[i];
            if id == NIL {
                self.slots[i] = (h, next);
                self.len += 1;
                if self.len * 2 > self.slots.len() {
                    self.grow();
                }
                return next;
            }
            if sh == h && keys[id as usize] == *key {
                return id;
            }
            i = (i + 1) & mask;
        }
    }

    /// Doubles the slots, placing each entry again by its stored hash bits.
    fn grow(&mut self) {
        let n = self.slots.len() * 2;
        let old = std::mem::replace(&mut self.slots, vec![(0, NIL); n]);
        self.shift -= 1;
        let mask = n - 1;
        for (h, id) in old {
            if id != NIL {
                let mut i = (h >> self.shift) as usize;
                while self.slots[i].1 != NIL {
                    i = (i + 1) & mask;
                }
                self.slots[i] = (h, id);
            }
        }
    }
}

/// No list node / empty list in [`Avail::head`].
const NIL: u32 = u32::MAX;

/// One change to [`Avail`], with what it replaced: enough to undo it and to redo it.
enum Change {
    /// `holder[key]` went from `old` to `new`.
    Holder {
        key: u32,
        old: Option<Var>,
        new: Option<Var>,
    },
    /// [`Avail::add`] changed `holder[key]` from `old` to the variable of node
    /// `first + count - 1`, having pushed nodes `first..first + count` onto their variables'
    /// lists. (One entry where a `Push` per node and a `Holder` took four for a binary op.)
    Add {
        key: u32,
        old: Option<Var>,
        first: u32,
        count: u32,
    },
    /// `var`'s list, starting at node `old`, was emptied.
    Take { var: u32, old: u32 },
}

impl Change {
    /// The key whose holder this changed, and its holder before.
    fn holder_change(&self) -> Option<(u32, Option<Var>)> {
        match *self {
            Change::Holder { key, old, .. } | Change::Add { key, old, .. } => Some((key, old)),
            Change::Take { .. } => None,
        }
    }
}

/// A node of the per-variable lists in [`Avail::nodes`].
#[derive(Clone, Copy)]
struct Node {
    key: u32,
    /// The next node of `var`'s list.
    next: u32,
    /// The variable whose list this node is on (for undoing [`Change::Add`]).
    var: u32,
}

/// What is available, with every change journaled: a branch or loop body is processed in
/// place and rolled back after (cloning the whole table at each `if` was quadratic on
/// unrolled kernels with many small checks). Outside every branch and loop body nothing is
/// ever rolled back, so changes there are not journaled (on unrolled kernels much of the code
/// is there).
///
/// The keys that mention each variable form a singly linked list in one arena of nodes that
/// are never changed once made: pushing, emptying and undoing either just move a list head.
/// (A vector per variable cost an allocation per variable touched and its growth, and freeing
/// them all, which was a third of this pass on unrolled kernels.)
struct Avail {
    /// Keys seen so far; `holder` and the lists name them by index.
    keys: Vec<Key>,
    ids: Ids,
    /// Argument lists of intrinsics with more than three arguments, interned: a key holds the
    /// index.
    long_args: Vec<Vec<Operand>>,
    long_ids: FxHashMap<Vec<Operand>, u32>,
    /// A small number per intrinsic entry met, for the keys' 32-bit id field.
    intrinsic_nums: FxHashMap<IntrinsicId, u32>,
    holder: Vec<Option<Var>>,
    /// Per variable, the first node of the list of keys that mention it (as operand or
    /// holder); may hold stale keys.
    head: Vec<u32>,
    nodes: Vec<Node>,
    journal: Vec<Change>,
    /// How many branches and loop bodies enclose what is being processed ([`Avail::enter`]).
    depth: u32,
}

impl Avail {
    fn new(vars: usize) -> Self {
        // About one key per variable: sized once (growing the table rehashed every key).
        Avail {
            keys: Vec::with_capacity(vars),
            ids: Ids::with_capacity(vars),
            long_args: Vec::new(),
            long_ids: FxHashMap::default(),
            intrinsic_nums: FxHashMap::default(),
            holder: Vec::with_capacity(vars),
            head: vec![NIL; vars],
            nodes: Vec::with_capacity(vars * 2),
            journal: Vec::with_capacity(vars * 2),
            depth: 0,
        }
    }

    fn id(&mut self, key: Key) -> u32 {
        let next = self.keys.len() as u32;
        let id = self.ids.get_or_insert(&self.keys, &key, next);
        if id == next {
            self.keys.push(key);
            self.holder.push(None);
        }
        id
    }

    /// The key of intrinsic `id` applied to `args`.
    fn intrinsic(&mut self, id: IntrinsicId, args: &[Operand]) -> u32 {
        let next = self.intrinsic_nums.len() as u32;
        let num = *self.intrinsic_nums.entry(id).or_insert(next);
        if args.len() <= 3 {
            return self.id(Key::new(KIND_INTRINSIC, 0, 0, args, num));
        }
        let next = self.long_args.len() as u32;
        let list = *self.long_ids.entry(args.to_vec()).or_insert(next);
        if list == next {
            self.long_args.push(args.to_vec());
        }
        let mut key = Key::new(KIND_LONG_INTRINSIC, 0, 0, &[], num);
        key.ops[0] = [LONG_ARGS, list as u64];
        self.id(key)
    }

    /// The variables `key` reads, in order (with repeats).
    fn vars_read(&self, key: u32) -> Vec<Var> {
        let k = &self.keys[key as usize];
        match k.ops[0] {
            [LONG_ARGS, list] => self.long_args[list as usize]
                .iter()
                .filter_map(|a| match a {
                    Operand::Var(v) => Some(*v),
                    Operand::Const(_) => None,
                })
                .collect(),
            _ => k.ops.iter().filter_map(|w| slot_var(*w)).collect(),
        }
    }

    /// Journals `c`, unless nothing encloses it that could roll it back.
    #[inline]
    fn log(&mut self, c: Change) {
        if self.depth > 0 {
            self.journal.push(c);
        }
    }

    /// Starts a branch or loop body; returns the mark to roll back to.
    fn enter(&mut self) -> usize {
        self.depth += 1;
        self.journal.len()
    }

    /// Ends what [`Avail::enter`] started: changes from here on are journaled only if something
    /// still encloses them.
    fn leave(&mut self) {
        self.depth -= 1;
    }

    /// Forgets the journal after `mark` once the `if` that took it is merged, if nothing
    /// encloses it (the merge itself still reads it).
    fn merged(&mut self, mark: usize) {
        if self.depth == 0 {
            self.journal.truncate(mark);
        }
    }

    fn set(&mut self, key: u32, new: Option<Var>) {
        let old = std::mem::replace(&mut self.holder[key as usize], new);
        if old != new {
            self.log(Change::Holder { key, old, new });
        }
    }

    /// Forgets the keys that mention `v`; inline, as most variables written have no list.
    #[inline]
    fn kill(&mut self, v: Var) {
        if self.head[v.0 as usize] != NIL {
            self.take(v.0 as usize);
        }
    }

    /// Forgets the keys that mention variable `var`, emptying its list (journaled).
    fn take(&mut self, var: usize) {
        let old = self.head[var];
        if old == NIL {
            return;
        }
        let mut n = old;
        while n != NIL {
            let Node { key, next, .. } = self.nodes[n as usize];
            self.set(key, None);
            n = next;
        }
        self.head[var] = NIL;
        self.log(Change::Take {
            var: var as u32,
            old,
        });
    }

    /// Forgets every variable `b` assigns (kills commute, and killing a variable again finds
    /// its list empty and does nothing, so no set of variables already seen is needed).
    fn kill_assigned(&mut self, b: &Block) {
        walk(b, &mut |i| for_each_def(i, |v| self.kill(v)));
    }

    /// Pushes a node for `key` onto `var`'s list (journaled by the caller).
    fn link(&mut self, var: Var, key: u32) {
        let node = self.nodes.len() as u32;
        let h = &mut self.head[var.0 as usize];
        self.nodes.push(Node {
            key,
            next: *h,
            var: var.0,
        });
        *h = node;
    }

    /// Makes `h` the holder of `key`, listing the key under its variable operands and `h`.
    fn add(&mut self, key: u32, h: Var) {
        let first = self.nodes.len() as u32;
        let k = self.keys[key as usize];
        if k.kind() == KIND_LONG_INTRINSIC {
            for v in self.vars_read(key) {
                self.link(v, key);
            }
        } else {
            for w in k.ops {
                if let Some(v) = slot_var(w) {
                    self.link(v, key);
                }
            }
        }
        self.link(h, key);
        let old = self.holder[key as usize].replace(h);
        let count = self.nodes.len() as u32 - first;
        self.log(Change::Add {
            key,
            old,
            first,
            count,
        });
    }

    /// Undoes every change after `mark`, returning them in the order they were made.
    fn undo_to(&mut self, mark: usize) -> Vec<Change> {
        let done = self.journal.split_off(mark);
        Self::rollback(&mut self.holder, &mut self.head, &self.nodes, &done);
        done
    }

    /// Undoes every change after `mark`, forgetting them.
    fn drop_to(&mut self, mark: usize) {
        Self::rollback(
            &mut self.holder,
            &mut self.head,
            &self.nodes,
            &self.journal[mark..],
        );
        self.journal.truncate(mark);
    }

    fn rollback(holder: &mut [Option<Var>], head: &mut [u32], nodes: &[Node], done: &[Change]) {
        for c in done.iter().rev() {
            match *c {
                Change::Holder { key, old, .. } => holder[key as usize] = old,
                Change::Add {
                    key,
                    old,
                    first,
                    count,
                } => {
                    holder[key as usize] = old;
                    for n in nodes[first as usize..(first + count) as usize].iter().rev() {
                        head[n.var as usize] = n.next;
                    }
                }
                Change::Take { var, old } => head[var as usize] = old,
            }
        }
    }

    /// Applies changes undone by [`Avail::undo_to`] again.
    fn redo(&mut self, changes: Vec<Change>) {
        for c in changes {
            match c {
                Change::Holder { key, new, .. } => self.holder[key as usize] = new,
                Change::Add {
                    key, first, count, ..
                } => {
                    for n in first..first + count {
                        self.head[self.nodes[n as usize].var as usize] = n;
                    }
                    let last = self.nodes[(first + count - 1) as usize].var;
                    self.holder[key as usize] = Some(Var(last));
                }
                Change::Take { var, .. } => self.head[var as usize] = NIL,
            }
            self.log(c);
        }
    }

    /// Forgets everything (journaled, so an enclosing branch can still roll back).
    fn clear(&mut self) {
        for key in 0..self.holder.len() as u32 {
            self.set(key, None);
        }
        for var in 0..self.head.len() {
            self.take(var);
        }
    }
}

fn touched(changes: &[Change], out: &mut Vec<u32>) {
    for c in changes {
        if let Some((key, _)) = c.holder_change() {
            out.push(key);
        }
    }
}

/// Returns whether any computation was replaced by a copy.
pub fn cse(k: &mut Kernel) -> bool {
    let mut body = std::mem::take(&mut k.body);
    let mut cx = Cx {
        vars: &k.vars,
        changed: false,
        scratch: Vec::new(),
        differ: Vec::new(),
    };
    cx.block(&mut body, &mut Avail::new(k.vars.len()));
    k.body = body;
    cx.changed
}

struct Cx<'a> {
    vars: &'a [Ty],
    changed: bool,
    /// Keys a one-armed `if` changed, with their holders after it (reused between `if`s).
    scratch: Vec<(u32, Option<Var>)>,
    differ: Vec<bool>,
}

impl Cx<'_> {
    /// The key of what `inst` computes, if it is a pure value worth merging, with the one
    /// variable it writes and whether it also reads that variable (found here, where the
    /// operands are at hand, rather than by a second look at the instruction).
    fn key(&self, inst: &Inst, av: &mut Avail) -> Option<(u32, Var, bool)> {
        let ty = |v: Var| self.vars[v.0 as usize] as u64;
        let (key, dst) = match inst {
            Inst::Unary { dst, op, a } => (Key::new(KIND_UN, *op as u64, ty(*dst), &[*a], 0), *dst),
            Inst::Binary { dst, op, a, b } => {
                if *op == BinOp::Mul && self.vars[dst.0 as usize].is_float() {
                    return None;
                }
                (Key::new(KIND_BIN, *op as u64, ty(*dst), &[*a, *b], 0), *dst)
            }
            Inst::Fma { dst, a, b, c } => (Key::new(KIND_FMA, 0, 0, &[*a, *b, *c], 0), *dst),
            Inst::Cast { dst, a } => (Key::new(KIND_CAST, 0, ty(*dst), &[*a], 0), *dst),
            Inst::Bitcast { dst, a } => (Key::new(KIND_BITCAST, 0, ty(*dst), &[*a], 0), *dst),
            Inst::Select { dst, cond, a, b } => {
                (Key::new(KIND_SELECT, 0, 0, &[*cond, *a, *b], 0), *dst)
            }
            Inst::Intrinsic { id, dsts, args } if dsts.len() == 1 && is_removable(inst) => {
                let d = dsts[0];
                let reads = args.contains(&Operand::Var(d));
                return Some((av.intrinsic(*id, args), d, reads));
            }
            Inst::SharedAddr { dst, alloc } => {
                (Key::new(KIND_SHARED_ADDR, 0, 0, &[], alloc.0), *dst)
            }
            Inst::DynSharedAddr { dst } => (Key::new(KIND_DYN_SHARED_ADDR, 0, 0, &[], 0), *dst),
            Inst::DynSharedBytes { dst } => (Key::new(KIND_DYN_SHARED_BYTES, 0, 0, &[], 0), *dst),
            _ => return None,
        };
        let reads = key.reads(dst);
        Some((av.id(key), dst, reads))
    }

    fn block(&mut self, b: &mut Block, av: &mut Avail) {
        for inst in &mut b.0 {
            match inst {
                // Most `if`s after `defer_checks` guard one access and have no `else`: the
                // `else` path keeps the facts from before the `if`, so a fact survives only
                // where the branch left it as it was. Same result as the general case below,
                // without its three vectors per `if`.
                Inst::If { then, els, .. } if els.0.is_empty() && falls_through(then) => {
                    let mark = av.enter();
                    self.block(then, av);
                    av.leave();
                    let mut changed = std::mem::take(&mut self.scratch);
                    changed.clear();
                    for c in &av.journal[mark..] {
                        if let Some((key, _)) = c.holder_change() {
                            changed.push((key, av.holder[key as usize]));
                        }
                    }
                    if !changed.is_empty() {
                        // Holders as they were before the branch (the journal stays as is).
                        for c in av.journal[mark..].iter().rev() {
                            if let Some((key, old)) = c.holder_change() {
                                av.holder[key as usize] = old;
                            }
                        }
                        // A key changed twice appears twice, with the same holder after.
                        let mut differ = std::mem::take(&mut self.differ);
                        differ.clear();
                        differ.extend(
                            changed
                                .iter()
                                .map(|&(key, after)| av.holder[key as usize] != after),
                        );
                        for &(key, after) in &changed {
                            av.holder[key as usize] = after;
                        }
                        for (&(key, _), &d) in changed.iter().zip(&differ) {
                            if d {
                                av.set(key, None);
                            }
                        }
                        self.differ = differ;
                    }
                    self.scratch = changed;
                    av.merged(mark);
                }
                Inst::If { then, els, .. } => {
                    let mark = av.enter();
                    self.block(then, av);
                    let then_changes = av.undo_to(mark);
                    self.block(els, av);
                    av.leave();
                    match (falls_through(then), falls_through(els)) {
                        (true, true) => {
                            // Keep what both branches agree on: only keys either one changed
                            // can differ.
                            let mut keys = Vec::new();
                            touched(&then_changes, &mut keys);
                            touched(&av.journal[mark..], &mut keys);
                            let in_else: Vec<Option<Var>> =
                                keys.iter().map(|&k| av.holder[k as usize]).collect();
                            av.drop_to(mark);
                            av.redo(then_changes);
                            for (&key, &h) in keys.iter().zip(&in_else) {
                                if av.holder[key as usize] != h {
                                    av.set(key, None);
                                }
                            }
                        }
                        (true, false) => {
                            av.drop_to(mark);
                            av.redo(then_changes);
                        }
                        (false, true) => {}
                        (false, false) => av.clear(),
                    }
                    av.merged(mark);
                }
                Inst::For { iv, body, .. } => {
                    av.kill_assigned(body);
                    av.kill(*iv);
                    let mark = av.enter();
                    self.block(body, av);
                    av.leave();
                    av.drop_to(mark);
                }
                Inst::Loop { body, .. } => {
                    av.kill_assigned(body);
                    let mark = av.enter();
                    self.block(body, av);
                    av.leave();
                    av.drop_to(mark);
                }
                _ => match self.key(inst, av) {
                    // A pure value writes only `d`.
                    Some((key, d, reads_dst)) => match av.holder[key as usize] {
                        Some(h) if h != d => {
                            *inst = Inst::Mov {
                                dst: d,
                                src: Operand::Var(h),
                            };
                            self.changed = true;
                            av.kill(d);
                        }
                        _ => {
                            av.kill(d);
                            if !reads_dst {
                                av.add(key, d);
                            }
                        }
                    },
                    None => for_each_def(inst, |v| av.kill(v)),
                },
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::passes::testkit::*;
    use kernel_ir::ir::{Const, Unroll};

    #[test]
    fn repeated_index_math_is_computed_once() {
        let mut k = kernel();
        let p = param(&mut k, "p", Ty::U64);
        let x = param(&mut k, "x", Ty::F32);
        let (t, a, b, c) = (
            k.new_var(Ty::U32),
            k.new_var(Ty::U32),
            k.new_var(Ty::U32),
            k.new_var(Ty::U32),
        );
        let (m1, m2) = (k.new_var(Ty::F32), k.new_var(Ty::F32));
        k.body.0 = vec![
            intr("tid.x", vec![t], vec![]),
            bin(a, BinOp::Mul, t, u32c(4)),
            intr("tid.x", vec![c], vec![]),
            bin(b, BinOp::Mul, c, u32c(4)),
            store(p, b),
            bin(b, BinOp::Mul, t, u32c(4)),
            store(p, b),
            // `a`'s holder is rewritten: the product must be computed again.
            bin(a, BinOp::Add, a, u32c(1)),
            bin(c, BinOp::Mul, t, u32c(4)),
            store(p, c),
            store(p, a),
            // Float products stay separate (each may feed its own fma).
            bin(m1, BinOp::Mul, x, x),
            bin(m2, BinOp::Mul, x, x),
            store(p, m1),
            store(p, m2),
        ];
        assert!(cse(&mut k));
        assert_body(
            &k,
            "
            v2 = call tid.x()
            v3 = mul.u32 v2, 4u32
            v5 = mov v2
            v4 = mul.u32 v5, 4u32
            store.global.u32 [v0], v4
            v4 = mov v3
            store.global.u32 [v0], v4
            v3 = add.u32 v3, 1u32
            v5 = mul.u32 v2, 4u32
            store.global.u32 [v0], v5
            store.global.u32 [v0], v3
            v6 = mul.f32 v1, v1
            v7 = mul.f32 v1, v1
            store.global.f32 [v0], v6
            store.global.f32 [v0], v7
            ",
        );
    }

    #[test]
    fn loops_and_branches_limit_availability() {
        let mut k = kernel();
        let p = param(&mut k, "p", Ty::U64);
        let n = param(&mut k, "n", Ty::U32);
        let q = param(&mut k, "q", Ty::Bool);
        let (a, b, i, s) = (
            k.new_var(Ty::U32),
            k.new_var(Ty::U32),
            k.new_var(Ty::U32),
            k.new_var(Ty::U32),
        );
        let body = vec![
            // `s` changes every iteration, so `s + n` is not available from before the loop.
            bin(b, BinOp::Add, s, n),
            store(p, b),
            bin(s, BinOp::Add, s, u32c(1)),
            // `n * 2` is loop invariant and available from before the loop.
            bin(b, BinOp::Mul, n, u32c(2)),
            store(p, b),
        ];
        let l = for_(&mut k, i, u32c(0), u32c(3), Unroll::Never, body);
        k.body.0 = vec![
            mov(s, u32c(0)),
            bin(a, BinOp::Add, s, n),
            bin(a, BinOp::Mul, n, u32c(2)),
            l,
            if_(
                q,
                vec![bin(b, BinOp::Sub, n, u32c(1))],
                vec![bin(b, BinOp::Sub, n, u32c(1))],
            ),
            bin(a, BinOp::Sub, n, u32c(1)),
            store(p, a),
        ];
        let orig = k.clone();
        cse(&mut k);
        let got = text(&k);
        assert!(got.contains("  v4 = add.u32 v6, v1\n"), "{got}");
        assert!(got.contains("  v4 = mov v3\n"), "{got}");
        assert!(
            got.ends_with("v3 = mov v4\nstore.global.u32 [v0], v3\n"),
            "{got}"
        );
        for (nv, qv) in [(3u32, true), (9, false)] {
            let args = [
                (p, Const::u64(0)),
                (n, Const::u32(nv)),
                (q, Const::bool(qv)),
            ];
            assert_eq!(run(&orig, &args), run(&k, &args));
        }
    }

    #[test]
    fn keys_of_long_intrinsics_compare_their_arguments() {
        let mut av = Avail::new(8);
        let three = kernel_std::intrinsics::lookup("tid.x").unwrap();
        let four = kernel_std::intrinsics::lookup("tid.y").unwrap();
        let args = |last: u32| {
            let mut a: Vec<Operand> = (0..4).map(|v| Operand::Var(Var(v))).collect();
            a.push(Operand::Const(Const::u32(last)));
            a
        };
        let k1 = av.intrinsic(three, &args(1));
        let k2 = av.intrinsic(three, &args(2));
        assert_ne!(k1, k2);
        assert_eq!(av.intrinsic(three, &args(1)), k1);
        assert_ne!(av.intrinsic(four, &args(1)), k1);
        let vars: Vec<Var> = (0..4).map(Var).collect();
        assert_eq!(av.vars_read(k2), vars);
        let short = av.intrinsic(three, &args(1)[2..]);
        assert_eq!(av.vars_read(short), vars[2..]);
        assert_ne!(av.intrinsic(three, &args(2)[2..]), short);
    }

    #[test]
    fn key_ids_survive_the_table_growing() {
        let mut av = Avail::new(4);
        let key = |i: u32| {
            Key::new(
                KIND_BIN,
                BinOp::Add as u64,
                Ty::U32 as u64,
                &[Operand::Var(Var(i % 7)), Operand::Const(Const::u32(i))],
                0,
            )
        };
        for i in 0..1000 {
            assert_eq!(av.id(key(i)), i);
        }
        for i in (0..1000).rev() {
            assert_eq!(av.id(key(i)), i);
        }
        assert_eq!(av.keys.len(), 1000);
    }
}
