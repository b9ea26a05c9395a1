//! The kinds of `wmma` fragment (role, shape, element type) and which matrix element each
//! thread's `x[i]` holds.
//!
//! PTX leaves the fragment layout of `wmma` unspecified; the simulator uses the one documented
//! for `mma.sync` (PTX ISA, "Matrix Fragments for mma.m16n8k16" and kin), which is how sm_80's
//! tensor cores run `wmma`: an m16n16 tile is two m16n8 halves (elements `0..4` and `4..8` of
//! an accumulator), lane `l` is in group `l / 4` (its rows) at position `l % 4` in it (its
//! columns). The 16 elements of an f16 `matrix_a`/`matrix_b` fragment hold the 8 of the `mma`
//! layout twice. Kernels that only treat elements alike (CUDA's rule) run the same anywhere.

use kernel_ir::ir::Ty;

/// Which operand a fragment is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Role {
    A,
    B,
    Acc,
}

/// A fragment's element type as PTX names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Prec {
    F16,
    Bf16,
    Tf32,
    U8,
    S8,
    F64,
    F32,
    S32,
}

impl Prec {
    pub(crate) fn ptx(self) -> &'static str {
        match self {
            Prec::F16 => "f16",
            Prec::Bf16 => "bf16",
            Prec::Tf32 => "tf32",
            Prec::U8 => "u8",
            Prec::S8 => "s8",
            Prec::F64 => "f64",
            Prec::F32 => "f32",
            Prec::S32 => "s32",
        }
    }
    /// The IR type of `x`'s elements.
    pub(crate) fn ir(self) -> Ty {
        match self {
            Prec::F16 => Ty::F16,
            Prec::Bf16 => Ty::BF16,
            Prec::Tf32 | Prec::F32 => Ty::F32,
            Prec::U8 => Ty::U8,
            Prec::S8 => Ty::I8,
            Prec::F64 => Ty::F64,
            Prec::S32 => Ty::I32,
        }
    }
    /// Bytes of one element in memory.
    pub(crate) fn bytes(self) -> u32 {
        self.ir().bytes()
    }
    /// Elements per PTX fragment register.
    pub(crate) fn per_reg(self) -> usize {
        match self {
            Prec::F16 | Prec::Bf16 => 2,
            Prec::U8 | Prec::S8 => 4,
            _ => 1,
        }
    }
}

/// One kind of fragment.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Kind {
    pub role: Role,
    pub m: u32,
    pub n: u32,
    pub k: u32,
    pub prec: Prec,
    /// Elements per thread (`num_elements`).
    pub count: usize,
    /// The oldest target with it.
    pub min_sm: u32,
}

impl Kind {
    /// PTX's shape qualifier (`m16n16k16`).
    pub(crate) fn shape(&self) -> String {
        format!("m{}n{}k{}", self.m, self.n, self.k)
    }
    /// Rows and columns of the tile in memory.
    pub(crate) fn tile(&self) -> (u32, u32) {
        match self.role {
            Role::A => (self.m, self.k),
            Role::B => (self.k, self.n),
            Role::Acc => (self.m, self.n),
        }
    }
    /// The tile position (row, column) of lane `lane`'s element `i`.
    pub(crate) fn position(&self, lane: u32, i: usize) -> (u32, u32) {
        let (g, t) = (lane / 4, lane % 4);
        let i = i as u32;
        match (self.role, self.prec, self.m, self.k) {
            // f16/bf16 m16n16k16 (the f16 fragments hold the 8 positions twice).
            (Role::A, Prec::F16 | Prec::Bf16, ..) => {
                let j = i % 8;
                (g + 8 * ((j >> 1) & 1), 2 * t + (j & 1) + 8 * (j >> 2))
            }
            (Role::B, Prec::F16 | Prec::Bf16, ..) => {
                let j = i % 8;
                let q = j & 3;
                (2 * t + (q & 1) + 8 * (q >> 1), g + 8 * (j >> 2))
            }
            (Role::A, Prec::Tf32, ..) => (g + 8 * (i & 1), t + 4 * (i >> 1)),
            (Role::B, Prec::Tf32, ..) => (t + 4 * (i & 1), g + 8 * (i >> 1)),
            (Role::A, Prec::U8 | Prec::S8, ..) => (g + 8 * (i >> 2), 4 * t + (i & 3)),
            (Role::B, Prec::U8 | Prec::S8, ..) => (4 * t + (i & 3), g + 8 * (i >> 2)),
            (Role::A, ..) => (g, t),
            (Role::B, ..) => (t, g),
            (Role::Acc, Prec::F64, ..) => (g, 2 * t + i),
            (Role::Acc, ..) => {
                let q = i & 3;
                (g + 8 * (q >> 1), 2 * t + (q & 1) + 8 * (i >> 2))
            }
        }
    }
}

const fn kind(
    role: Role,
    (m, n, k): (u32, u32, u32),
    prec: Prec,
    count: usize,
    min_sm: u32,
) -> Kind {
    Kind {
        role,
        m,
        n,
        k,
        prec,
        count,
        min_sm,
    }
}

const M16: (u32, u32, u32) = (16, 16, 16);
const M16K8: (u32, u32, u32) = (16, 16, 8);
const M8: (u32, u32, u32) = (8, 8, 4);

/// Every kind; `types::fragment`'s list names them by index.
pub(crate) const KINDS: [Kind; 17] = [
    kind(Role::A, M16, Prec::F16, 16, 70),
    kind(Role::B, M16, Prec::F16, 16, 70),
    kind(Role::Acc, M16, Prec::F16, 8, 70),
    kind(Role::Acc, M16, Prec::F32, 8, 70),
    kind(Role::A, M16, Prec::Bf16, 8, 80),
    kind(Role::B, M16, Prec::Bf16, 8, 80),
    kind(Role::A, M16K8, Prec::Tf32, 4, 80),
    kind(Role::B, M16K8, Prec::Tf32, 4, 80),
    kind(Role::Acc, M16K8, Prec::F32, 8, 80),
    kind(Role::A, M16, Prec::U8, 8, 72),
    kind(Role::B, M16, Prec::U8, 8, 72),
    kind(Role::A, M16, Prec::S8, 8, 72),
    kind(Role::B, M16, Prec::S8, 8, 72),
    kind(Role::Acc, M16, Prec::S32, 8, 72),
    kind(Role::A, M8, Prec::F64, 1, 80),
    kind(Role::B, M8, Prec::F64, 1, 80),
    kind(Role::Acc, M8, Prec::F64, 2, 80),
];

/// One `mma_sync` form: the kinds of A, B, C and D and the layouts of A and B.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Mma {
    pub a: usize,
    pub b: usize,
    pub c: usize,
    pub d: usize,
    pub a_col: bool,
    pub b_col: bool,
}

/// Every `mma_sync` form, in a fixed order (an entry's simulator semantics find theirs by
/// index): per input type the accumulator kinds C and D may take, then the four layouts.
pub(crate) fn mma_forms() -> Vec<Mma> {
    let groups: [(usize, usize, &[usize]); 6] = [
        (0, 1, &[2, 3]),
        (4, 5, &[3]),
        (6, 7, &[8]),
        (9, 10, &[13]),
        (11, 12, &[13]),
        (14, 15, &[16]),
    ];
    let mut out = Vec::new();
    for (a, b, accs) in groups {
        for &d in accs {
            for &c in accs {
                for (a_col, b_col) in [(false, false), (false, true), (true, false), (true, true)] {
                    out.push(Mma {
                        a,
                        b,
                        c,
                        d,
                        a_col,
                        b_col,
                    });
                }
            }
        }
    }
    out
}

/// How many `mma_sync` forms there are (`mma_forms().len()`).
pub(crate) const MMA_FORMS: usize = 36;
