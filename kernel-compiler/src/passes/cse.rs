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
use kernel_ir::intrinsic::IntrinsicId;
use kernel_ir::ir::{BinOp, Block, Inst, Kernel, Operand, SharedId, Ty, UnOp, Var};
use kernel_ir::props::Props;
use kernel_ir::visit::{falls_through, for_each_def, walk};

/// A pure computation: what is computed and from which operands.
#[derive(Clone, PartialEq, Eq, Hash)]
enum Key {
    Unary(UnOp, Ty, Operand),
    Binary(BinOp, Ty, Operand, Operand),
    Fma(Operand, Operand, Operand),
    Cast(Ty, Operand),
    Bitcast(Ty, Operand),
    Select(Operand, Operand, Operand),
    Intrinsic(IntrinsicId, Vec<Operand>),
    SharedAddr(SharedId),
    DynSharedAddr,
    DynSharedBytes,
}

impl Key {
    /// The key of what `inst` computes, if it is a pure value worth merging, and the variable
    /// it writes.
    fn of(inst: &Inst, vars: &[Ty]) -> Option<(Key, Var)> {
        let ty = |v: &Var| vars[v.0 as usize];
        Some(match inst {
            Inst::Unary { dst, op, a } => (Key::Unary(*op, ty(dst), *a), *dst),
            // Each float product may feed its own `fma`.
            Inst::Binary { dst, op, .. } if *op == BinOp::Mul && ty(dst).is_float() => return None,
            Inst::Binary { dst, op, a, b } => (Key::Binary(*op, ty(dst), *a, *b), *dst),
            Inst::Fma { dst, a, b, c } => (Key::Fma(*a, *b, *c), *dst),
            Inst::Cast { dst, a } => (Key::Cast(ty(dst), *a), *dst),
            Inst::Bitcast { dst, a } => (Key::Bitcast(ty(dst), *a), *dst),
            Inst::Select { dst, cond, a, b } => (Key::Select(*cond, *a, *b), *dst),
            Inst::Intrinsic { id, dsts, args }
                if dsts.len() == 1 && inst.props().contains(Props::VALUE) =>
            {
                (Key::Intrinsic(*id, args.clone()), dsts[0])
            }
            Inst::SharedAddr { dst, alloc } => (Key::SharedAddr(*alloc), *dst),
            Inst::DynSharedAddr { dst } => (Key::DynSharedAddr, *dst),
            Inst::DynSharedBytes { dst } => (Key::DynSharedBytes, *dst),
            _ => return None,
        })
    }

    /// Calls `f` on every variable the computation reads.
    fn for_each_var(&self, mut f: impl FnMut(Var)) {
        let mut op = |o: &Operand| {
            if let Operand::Var(v) = o {
                f(*v)
            }
        };
        match self {
            Key::Unary(_, _, a) | Key::Cast(_, a) | Key::Bitcast(_, a) => op(a),
            Key::Binary(_, _, a, b) => {
                op(a);
                op(b)
            }
            Key::Fma(a, b, c) | Key::Select(a, b, c) => {
                op(a);
                op(b);
                op(c)
            }
            Key::Intrinsic(_, args) => args.iter().for_each(op),
            Key::SharedAddr(_) | Key::DynSharedAddr | Key::DynSharedBytes => {}
        }
    }
}

/// One change to [`Avail`], with what it replaced, so that it can be undone.
enum Change {
    /// `holder[key]` was `old`.
    Holder { key: u32, old: Option<Var> },
    /// `users[var]` (the first node of its list) was `old`.
    Users { var: u32, old: u32 },
}

/// No node: the end of a list.
const NIL: u32 = u32::MAX;

/// A node of the per-variable lists of keys: the key and the next node.
#[derive(Clone, Copy)]
struct Node {
    key: u32,
    next: u32,
}

/// What is available at a point of the walk: for each key, the variable that holds its value.
/// Every change is journaled, so that a branch or a loop body is processed in place and then
/// rolled back (copying the tables at every `if` would be quadratic on unrolled kernels).
#[derive(Default)]
struct Avail {
    ids: FxHashMap<Key, u32>,
    /// By key id: the variable holding its value.
    holder: Vec<Option<Var>>,
    /// Per variable, the first node of the list of keys that mention it (as an operand or as
    /// their holder); entries may be stale (a key since held by another variable). The lists
    /// live in `nodes`, which only grows: pushing, emptying and undoing either move a head.
    users: Vec<u32>,
    nodes: Vec<Node>,
    journal: Vec<Change>,
}

impl Avail {
    /// The id of `key`.
    fn id(&mut self, key: &Key) -> u32 {
        if let Some(&id) = self.ids.get(key) {
            return id;
        }
        let id = self.holder.len() as u32;
        self.holder.push(None);
        self.ids.insert(key.clone(), id);
        id
    }

    /// Lists `key` under `v`.
    fn push(&mut self, v: Var, key: u32) {
        let old = self.users[v.0 as usize];
        self.nodes.push(Node { key, next: old });
        self.users[v.0 as usize] = self.nodes.len() as u32 - 1;
        self.journal.push(Change::Users { var: v.0, old });
    }

    fn set(&mut self, key: u32, new: Option<Var>) {
        let old = std::mem::replace(&mut self.holder[key as usize], new);
        if old != new {
            self.journal.push(Change::Holder { key, old });
        }
    }

    /// Makes `h` the holder of `key` (whose id is `id`), listing it under its operands and `h`.
    fn add(&mut self, key: &Key, id: u32, h: Var) {
        self.set(id, Some(h));
        key.for_each_var(|v| self.push(v, id));
        self.push(h, id);
    }

    /// Forgets every key that mentions `v`.
    fn kill(&mut self, v: Var) {
        let old = self.users[v.0 as usize];
        if old == NIL {
            return;
        }
        let mut n = old;
        while n != NIL {
            let Node { key, next } = self.nodes[n as usize];
            self.set(key, None);
            n = next;
        }
        self.users[v.0 as usize] = NIL;
        self.journal.push(Change::Users { var: v.0, old });
    }

    /// Forgets every variable `b` assigns.
    fn kill_assigned(&mut self, b: &Block) {
        walk(b, &mut |i| for_each_def(i, |v| self.kill(v)));
    }

    /// Undoes every change after `mark`.
    fn undo_to(&mut self, mark: usize) {
        while self.journal.len() > mark {
            match self.journal.pop().expect("journal entry") {
                Change::Holder { key, old } => self.holder[key as usize] = old,
                Change::Users { var, old } => self.users[var as usize] = old,
            }
        }
    }

    /// The keys whose holder changed after `mark` (with repeats).
    fn changed_since(&self, mark: usize) -> impl Iterator<Item = u32> + '_ {
        self.journal[mark..].iter().filter_map(|c| match c {
            Change::Holder { key, .. } => Some(*key),
            _ => None,
        })
    }

    /// Forgets everything.
    fn clear(&mut self) {
        for key in 0..self.holder.len() as u32 {
            self.set(key, None);
        }
    }
}

/// Returns whether any computation was replaced by a copy.
pub fn cse(k: &mut Kernel) -> bool {
    let mut cx = Cx {
        vars: &k.vars,
        changed: false,
        av: Avail {
            users: vec![NIL; k.vars.len()],
            ..Avail::default()
        },
    };
    cx.block(&mut k.body);
    cx.changed
}

struct Cx<'a> {
    vars: &'a [Ty],
    changed: bool,
    av: Avail,
}

impl Cx<'_> {
    fn block(&mut self, b: &mut Block) {
        for inst in &mut b.0 {
            match inst {
                Inst::If { then, els, .. } => self.if_(then, els),
                Inst::For { iv, body, .. } => {
                    self.av.kill_assigned(body);
                    self.av.kill(*iv);
                    let mark = self.av.journal.len();
                    self.block(body);
                    self.av.undo_to(mark);
                }
                Inst::Loop { body, .. } => {
                    self.av.kill_assigned(body);
                    let mark = self.av.journal.len();
                    self.block(body);
                    self.av.undo_to(mark);
                }
                _ => match Key::of(inst, self.vars) {
                    Some((key, d)) => {
                        // An instruction that reads its destination leaves no value to reuse.
                        let mut reads_d = false;
                        key.for_each_var(|v| reads_d |= v == d);
                        let id = self.av.id(&key);
                        match self.av.holder[id as usize] {
                            Some(h) if h != d => {
                                *inst = Inst::Mov {
                                    dst: d,
                                    src: Operand::Var(h),
                                };
                                self.changed = true;
                                self.av.kill(d);
                            }
                            _ => {
                                self.av.kill(d);
                                if !reads_d {
                                    self.av.add(&key, id, d);
                                }
                            }
                        }
                    }
                    None => for_each_def(inst, |v| self.av.kill(v)),
                },
            }
        }
    }

    /// An `if`: what is available after it is what the branches that fall through agree on.
    fn if_(&mut self, then: &mut Block, els: &mut Block) {
        let mark = self.av.journal.len();
        match (falls_through(then), falls_through(els)) {
            (true, true) => {
                self.block(then);
                let after_then: FxHashMap<u32, Option<Var>> = self
                    .av
                    .changed_since(mark)
                    .map(|k| (k, self.av.holder[k as usize]))
                    .collect();
                self.av.undo_to(mark);
                self.block(els);
                // The holders before the `if` of the keys `else` changed.
                let mut before: FxHashMap<u32, Option<Var>> = FxHashMap::default();
                for c in &self.av.journal[mark..] {
                    if let Change::Holder { key, old } = c {
                        before.entry(*key).or_insert(*old);
                    }
                }
                let mut keys: Vec<u32> = after_then.keys().chain(before.keys()).copied().collect();
                keys.sort_unstable();
                keys.dedup();
                for key in keys {
                    let in_then = after_then
                        .get(&key)
                        .or_else(|| before.get(&key))
                        .copied()
                        .unwrap_or(self.av.holder[key as usize]);
                    if in_then != self.av.holder[key as usize] {
                        self.av.set(key, None);
                    }
                }
            }
            // Only one branch falls through: what follows sees its facts.
            (true, false) => {
                self.block(els);
                self.av.undo_to(mark);
                self.block(then);
            }
            (false, true) => {
                self.block(then);
                self.av.undo_to(mark);
                self.block(els);
            }
            (false, false) => {
                self.block(then);
                self.av.undo_to(mark);
                self.block(els);
                self.av.undo_to(mark);
                self.av.clear();
            }
        }
    }
}
