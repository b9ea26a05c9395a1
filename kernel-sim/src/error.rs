//! What a simulated launch reports when it stops early: a kernel panic, or a bug the simulator's
//! detectors caught that real hardware would turn into silent corruption, a hang or a fault.

use std::fmt;

use kernel_ir::ir::{PanicKind, SiteId};

#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SimErrorKind {
    /// A thread panicked (`BoundsCheck` failure or `Panic`); the detail values are `SimError::a/b`.
    Panic(PanicKind),
    /// A global, shared or local access outside any allocation (or a bad `GlobalMemory` call).
    OutOfBounds,
    /// An access whose address is not a multiple of its size (a misaligned-address fault on a GPU).
    Misaligned,
    /// Two threads touched the same shared byte between two barriers, at least one writing.
    SharedRace,
    /// Some threads wait at a barrier that others will never reach (exited or at another barrier).
    BarrierDivergence,
    /// A warp collective's mask names a lane that does not take part, or lanes that one mask
    /// names pass different masks.
    WarpMaskMismatch,
    /// A read of shared memory that no thread of the block wrote during this launch.
    UninitSharedRead,
    /// The parameter slices do not match the kernel's parameters.
    InvalidParams,
    /// Grid, block or dynamic shared-memory size outside what CUDA allows for this kernel on the
    /// launch's target.
    InvalidLaunch,
    /// The kernel is one the launch's target cannot run whatever the configuration, which ptxas
    /// would refuse: an intrinsic newer than the target (at the call's location), or more static
    /// shared memory than a block may declare.
    TargetLimit,
    /// `GlobalMemory::free` of an address that is not a live allocation.
    InvalidFree,
    /// The launch executed more operations than its limit (see `sim::max_instructions`): a
    /// thread spins forever, or waits in a loop for another thread the simulator runs later.
    InstructionLimit,
    /// The IR breaks an invariant of `ir` (wrong operand types, zero loop step...) or uses an
    /// intrinsic without simulator semantics.
    MalformedIr,
}

impl SimErrorKind {
    fn describe(&self) -> &'static str {
        match self {
            SimErrorKind::Panic(_) => "panicked",
            SimErrorKind::OutOfBounds => "made an out-of-bounds access",
            SimErrorKind::Misaligned => "made a misaligned access",
            SimErrorKind::SharedRace => "has a shared-memory data race",
            SimErrorKind::BarrierDivergence => "has a divergent barrier",
            SimErrorKind::WarpMaskMismatch => "has a warp collective mask mismatch",
            SimErrorKind::UninitSharedRead => "read uninitialised shared memory",
            SimErrorKind::InvalidParams => "got invalid parameters",
            SimErrorKind::InvalidLaunch => "has an invalid launch configuration",
            SimErrorKind::TargetLimit => "does not fit its target",
            SimErrorKind::InvalidFree => "freed an invalid address",
            SimErrorKind::MalformedIr => "cannot be simulated",
            SimErrorKind::InstructionLimit => "ran past the simulator's instruction limit",
        }
    }
}

/// Where and why a launch stopped. `file:line:col` is the panic's site for panics, and for the
/// detectors the source marker (`ir::Inst::Loc`) in force at the offending operation: the statement,
/// memory access or barrier call the front end marked. IR built without markers falls back to the
/// nearest panic site in program order. `inst` gives the instruction's pre-order index in
/// `Kernel::body` so IR dumps can pinpoint it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimError {
    pub kind: SimErrorKind,
    /// `Kernel::display_name` (empty for errors outside a launch).
    pub kernel: String,
    pub file: String,
    pub line: u32,
    pub col: u32,
    pub block: [u32; 3],
    pub thread: [u32; 3],
    pub message: String,
    /// Panic detail values (bounds: `a` = index, `b` = length), as in `PanicRecord`.
    pub a: u64,
    pub b: u64,
    /// The panic site, for `Panic` errors.
    pub site: Option<SiteId>,
    /// Pre-order index of the IR instruction that stopped, when inside a launch.
    pub inst: Option<u32>,
}

impl SimError {
    /// An error outside any kernel (memory API misuse, parameter checks).
    pub(crate) fn host(kind: SimErrorKind, message: impl Into<String>) -> Self {
        SimError {
            kind,
            kernel: String::new(),
            file: String::new(),
            line: 0,
            col: 0,
            block: [0; 3],
            thread: [0; 3],
            message: message.into(),
            a: 0,
            b: 0,
            site: None,
            inst: None,
        }
    }

    /// Index and length of a failed bounds check.
    pub fn bounds_detail(&self) -> Option<(u64, u64)> {
        matches!(self.kind, SimErrorKind::Panic(PanicKind::Bounds)).then_some((self.a, self.b))
    }
}

impl fmt::Display for SimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.kernel.is_empty() {
            return write!(f, "simulator: {}", self.message);
        }
        write!(f, "kernel `{}` {}", self.kernel, self.kind.describe())?;
        // Errors of the launch as a whole (configuration, target) name no thread.
        let whole = self.inst.is_none() || self.kind == SimErrorKind::TargetLimit;
        if whole && self.file.is_empty() {
            return write!(f, ": {}", self.message);
        }
        write!(f, " at ")?;
        if self.file.is_empty() {
            write!(f, "<unknown location>")?;
        } else {
            write!(f, "{}:{}:{}", self.file, self.line, self.col)?;
        }
        if whole {
            return write!(f, ": {}", self.message);
        }
        let [bx, by, bz] = self.block;
        let [tx, ty, tz] = self.thread;
        write!(
            f,
            " (block ({bx},{by},{bz}), thread ({tx},{ty},{tz})): {}",
            self.message
        )?;
        if let (false, Some(i)) = (matches!(self.kind, SimErrorKind::Panic(_)), self.inst) {
            write!(f, " [IR instruction #{i}]")?;
        }
        Ok(())
    }
}

impl std::error::Error for SimError {}
