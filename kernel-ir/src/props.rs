//! What an instruction does besides computing its results, in one place: every pass (and the PTX
//! emitter) asks [`Inst::props`] whether it may delete, move, repeat or predicate an
//! instruction, instead of listing instruction kinds itself. An intrinsic's properties come
//! from its table entry ([`crate::intrinsic::Class`]).

use std::ops::BitOr;

use crate::intrinsic::Class;
use crate::ir::{BinOp, Inst, Operand, UnOp};

/// A set of instruction properties (the constants below).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Props(u16);

impl Props {
    /// Writes its results and does nothing else, so it may be deleted when no result is read.
    /// Loads count (a load that would fault is undefined behaviour anyway); whether it may also
    /// move is [`Props::READS_MEMORY`] and [`Props::MAY_FAULT`].
    pub const VALUE: Props = Props(1);
    /// Reads memory (loads, local-array loads, atomics): not to be merged with another read or
    /// moved across a write of the same memory.
    pub const READS_MEMORY: Props = Props(1 << 1);
    /// Writes memory (stores, local-array stores, atomics).
    pub const WRITES_MEMORY: Props = Props(1 << 2);
    /// May fault when run on operands its guard excludes: integer division or remainder by a
    /// value that may be 0 or -1 (where it is written, the front end's check guards it).
    pub const MAY_FAULT: Props = Props(1 << 3);
    /// May stop the thread with a panic: a bounds check, a panic.
    pub const CHECK: Props = Props(1 << 4);
    /// Meets other threads: a barrier or a warp collective. Never removed, repeated, or moved
    /// into or out of conditional code.
    pub const SYNC: Props = Props(1 << 5);
    /// An effect observed in program order by other threads or the host, besides plain memory
    /// accesses: atomics, fences and other memory intrinsics, device `printf`.
    pub const EFFECT: Props = Props(1 << 6);
    /// Control flow: nests blocks (`if`, loops) or leaves the straight line (`break`,
    /// `continue`, `return`, `panic`).
    pub const CONTROL: Props = Props(1 << 7);
    /// Its PTX is straight-line code with no guard or label of its own, so the emitter may put
    /// it under a predicate (`@%p`).
    pub const PREDICABLE: Props = Props(1 << 8);

    const NONE: Props = Props(0);

    /// Whether every property of `other` is in `self`.
    #[inline]
    pub fn contains(self, other: Props) -> bool {
        self.0 & other.0 == other.0
    }

    /// Whether `self` and `other` share a property.
    #[inline]
    pub fn intersects(self, other: Props) -> bool {
        self.0 & other.0 != 0
    }

    /// A value that reads no memory and cannot fault: it may run earlier than written, again,
    /// or on a path that would not have run it (speculated), and two with the same operands
    /// give the same result.
    #[inline]
    pub fn is_pure(self) -> bool {
        self.contains(Props::VALUE) && !self.intersects(Props::READS_MEMORY | Props::MAY_FAULT)
    }
}

impl BitOr for Props {
    type Output = Props;
    fn bitor(self, rhs: Props) -> Props {
        Props(self.0 | rhs.0)
    }
}

/// Whether integer division or remainder by `b` may fault (by 0, or `MIN / -1`).
fn division_may_fault(b: Operand) -> bool {
    match b {
        Operand::Const(c) if c.ty.is_int() => matches!(c.as_i128(), 0 | -1),
        Operand::Const(c) => !c.ty.is_float(),
        Operand::Var(_) => true,
    }
}

impl Inst {
    /// This instruction's properties (the instructions nested in an `if` or loop are not
    /// looked at).
    #[inline]
    pub fn props(&self) -> Props {
        let value = Props::VALUE;
        let predicable = Props::PREDICABLE;
        let (read, write) = (Props::READS_MEMORY, Props::WRITES_MEMORY);
        match self {
            Inst::Mov { .. }
            | Inst::Fma { .. }
            | Inst::Cast { .. }
            | Inst::Bitcast { .. }
            | Inst::Select { .. }
            | Inst::SharedAddr { .. } => value | predicable,
            // Float `round` (half away from zero) is a guarded sequence of its own in PTX.
            Inst::Unary { op, .. } if *op == UnOp::Round => value,
            Inst::Unary { .. } => value | predicable,
            Inst::Binary {
                op: BinOp::Div | BinOp::Rem,
                b,
                ..
            } if division_may_fault(*b) => value | predicable | Props::MAY_FAULT,
            Inst::Binary { .. } => value | predicable,
            Inst::DynSharedAddr { .. } | Inst::DynSharedBytes { .. } => value,
            Inst::Load { .. } | Inst::ArrayLoad { .. } => value | read | predicable,
            Inst::LoadVec { .. } => value | read | predicable,
            Inst::Store { .. } | Inst::StoreVec { .. } | Inst::ArrayStore { .. } => {
                write | predicable
            }
            Inst::Intrinsic { id, .. } => match id.def().class {
                Class::Pure => value,
                Class::Barrier | Class::ClusterBarrier | Class::GridBarrier | Class::Warp => {
                    Props::SYNC
                }
                Class::Memory => read | write | Props::EFFECT,
            },
            Inst::BoundsCheck { .. } => Props::CHECK,
            Inst::Panic { .. } => Props::CHECK | Props::CONTROL,
            Inst::Print { .. } => Props::EFFECT,
            Inst::If { .. }
            | Inst::For { .. }
            | Inst::Loop { .. }
            | Inst::Break(_)
            | Inst::Continue(_)
            | Inst::Return => Props::CONTROL,
            Inst::Loc(_) => Props::NONE,
        }
    }
}
