//! The IR's scalar types and memory spaces: what an intrinsic's signature and every instruction
//! are made of.

/// A scalar type. `Bool` is a PTX predicate; integers carry signedness because Rust's semantics
/// (shifts, division, casts, comparisons) depend on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Ty {
    Bool,
    I8,
    I16,
    I32,
    I64,
    U8,
    U16,
    U32,
    U64,
    F16,
    BF16,
    F32,
    F64,
}

impl Ty {
    /// Every scalar type, in declaration order (for parsers and exhaustive tests).
    pub const ALL: [Ty; 13] = [
        Ty::Bool,
        Ty::I8,
        Ty::I16,
        Ty::I32,
        Ty::I64,
        Ty::U8,
        Ty::U16,
        Ty::U32,
        Ty::U64,
        Ty::F16,
        Ty::BF16,
        Ty::F32,
        Ty::F64,
    ];
    /// The type's name as Rust spells it (`u32`, `f16`, `bool`): IR dumps, typed intrinsic
    /// names and messages all use it.
    pub fn rust_name(self) -> &'static str {
        match self {
            Ty::Bool => "bool",
            Ty::I8 => "i8",
            Ty::I16 => "i16",
            Ty::I32 => "i32",
            Ty::I64 => "i64",
            Ty::U8 => "u8",
            Ty::U16 => "u16",
            Ty::U32 => "u32",
            Ty::U64 => "u64",
            Ty::F16 => "f16",
            Ty::BF16 => "bf16",
            Ty::F32 => "f32",
            Ty::F64 => "f64",
        }
    }
    pub fn bits(self) -> u32 {
        match self {
            Ty::Bool => 1,
            Ty::I8 | Ty::U8 => 8,
            Ty::I16 | Ty::U16 | Ty::F16 | Ty::BF16 => 16,
            Ty::I32 | Ty::U32 | Ty::F32 => 32,
            Ty::I64 | Ty::U64 | Ty::F64 => 64,
        }
    }
    /// Size in memory (bool is one byte, as in Rust).
    pub fn bytes(self) -> u32 {
        match self {
            Ty::Bool => 1,
            t => t.bits() / 8,
        }
    }
    pub fn is_int(self) -> bool {
        matches!(
            self,
            Ty::I8 | Ty::I16 | Ty::I32 | Ty::I64 | Ty::U8 | Ty::U16 | Ty::U32 | Ty::U64
        )
    }
    pub fn is_signed(self) -> bool {
        matches!(self, Ty::I8 | Ty::I16 | Ty::I32 | Ty::I64)
    }
    pub fn is_float(self) -> bool {
        matches!(self, Ty::F16 | Ty::BF16 | Ty::F32 | Ty::F64)
    }
}

/// Memory spaces of loads and stores. Addresses are byte addresses: 64-bit generic-width for
/// `Global` and `Local`, 32-bit for `Shared` (offsets into the block's shared window) and
/// `Cluster`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Space {
    Global,
    Shared,
    /// Thread-private stack memory from `alloca` (64-bit `.local` addresses); fixed-size arrays
    /// are `LocalArray`s instead.
    Local,
    /// Distributed shared memory (`.shared::cluster`, sm_90): the shared memory of any block of
    /// the thread block cluster, at 32-bit addresses that `mapa` made from a `Shared` one. The
    /// own block's memory is in it too, so it may alias `Shared`.
    Cluster,
}

impl Space {
    /// Whether an access in `self` may touch memory an access in `other` touches: the same
    /// space, or shared memory seen from the block and from the cluster.
    pub fn may_alias(self, other: Space) -> bool {
        self == other
            || matches!(
                (self, other),
                (Space::Shared, Space::Cluster) | (Space::Cluster, Space::Shared)
            )
    }

    /// The width of its addresses.
    pub fn addr_ty(self) -> Ty {
        match self {
            Space::Global | Space::Local => Ty::U64,
            Space::Shared | Space::Cluster => Ty::U32,
        }
    }
}
