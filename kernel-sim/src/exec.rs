//! The bytecode interpreter: runs one thread until it exits, panics, or parks at a barrier or a
//! warp collective. Memory accesses are checked here (bounds, alignment, and the shared-memory
//! detectors).

use super::async_state::{self, AsyncState, Fail, How};
use super::compile::{Op, Program};
use super::detect::{Hazard, Note, Shadow};
use super::error::SimErrorKind;
use super::memory::GlobalMemory;
use super::ops;
use kernel_ir::intrinsic::SimEnv;
use kernel_ir::ir::{SiteId, Space, Ty};

/// Everything one block's threads share while they run.
pub(crate) struct Machine<'a> {
    pub prog: &'a Program,
    pub global: &'a mut GlobalMemory,
    /// The shared memory of every block of the cluster, one window of `window` bytes each in
    /// rank order (one window without clusters).
    pub shared: &'a mut [u8],
    pub shadow: &'a mut Shadow,
    /// Bytes of one block's shared memory.
    pub window: usize,
    /// The running block's window in `shared` and its entry in `exited`: its rank in its
    /// cluster, or with the whole grid running together (`grid_sync`) its index among those.
    pub rank: u32,
    /// The window of rank 0 of the running block's cluster (0 unless the grid runs together).
    pub rank_base: u32,
    /// Blocks per cluster along each axis, and in all.
    pub cluster_dim: [u32; 3],
    pub cluster_blocks: u32,
    /// The shadow's id of this block's thread 0 (`rank` times the block's threads rounded up to
    /// whole warps), so that threads of different blocks are told apart by the race detector.
    pub tid_base: u32,
    /// Per rank: whether that block has exited (its shared memory is gone).
    pub exited: &'a [bool],
    /// Last allocation hit in `global`.
    pub hint: usize,
    pub icount: u64,
    /// Stop the launch when `icount` passes this (checked on loop back edges).
    pub max_instructions: u64,
    pub block_idx: [u32; 3],
    pub block_dim: [u32; 3],
    pub grid_dim: [u32; 3],
    /// The op being executed, for warnings (set before the ops that read shared memory).
    pub pc: usize,
    /// Per thread of the block: its plain read that conflicted with another thread's atomic,
    /// awaiting the thread's own atomic access of the word (see `detect::Note::ReadOfAtomic`).
    pub guesses: &'a mut [Option<Guess>],
    /// Warnings of the launch so far, one per op.
    pub warnings: &'a mut Vec<RawWarning>,
    /// The block's asynchronous barriers and copies in flight.
    pub asyncs: &'a mut AsyncState,
}

/// Where the simulator's `mapa` puts the target block's rank in a distributed shared address
/// (`kernel_std`'s `map_shared_rank` entry agrees): above any block's shared memory.
pub(crate) const CLUSTER_RANK_SHIFT: u32 = kernel_ir::intrinsic::CLUSTER_RANK_SHIFT;

/// A plain read that conflicted with another thread's atomic: a compare-and-swap loop's first
/// read if the thread then accesses the word atomically, a race if it reaches a barrier or exits
/// first.
#[derive(Clone, Copy)]
pub(crate) struct Guess {
    pub offset: usize,
    pub other: u32,
    pub pc: usize,
}

/// A warning before it gets a location: op, thread (linear id) and block.
pub(crate) struct RawWarning {
    pub pc: usize,
    pub t: u32,
    pub block: [u32; 3],
    pub message: String,
    pub other: Option<u32>,
    pub count: u64,
}

pub(crate) enum Stop {
    Exit,
    /// Parked at the barrier or warp collective just before `pc`.
    Barrier,
    Warp,
    /// Parked at an asynchronous barrier's wait (`async_state`), at the op or after it.
    Blocked,
}

/// Why a thread stopped abnormally, at op `pc`.
pub(crate) struct Fault {
    pub kind: SimErrorKind,
    pub message: String,
    pub pc: usize,
    pub a: u64,
    pub b: u64,
    pub site: Option<SiteId>,
    /// Linear id of the other thread of a race.
    pub other: Option<u32>,
}

/// A memory error before it gets a location.
pub(crate) struct MemErr {
    kind: SimErrorKind,
    message: String,
    other: Option<u32>,
}

impl MemErr {
    /// A race with thread `other` (`{OTHER}` in the message), or with the thread itself.
    pub(crate) fn race(message: String, other: Option<u32>) -> Self {
        MemErr {
            kind: SimErrorKind::SharedRace,
            message,
            other,
        }
    }
}

fn mem_err(kind: SimErrorKind, message: String) -> MemErr {
    MemErr {
        kind,
        message,
        other: None,
    }
}

fn space_name(s: Space) -> &'static str {
    match s {
        Space::Global => "global",
        Space::Shared => "shared",
        Space::Local => "local",
        Space::Cluster => "distributed shared",
    }
}

/// How a shared access interacts with the detectors.
#[derive(Clone, Copy)]
enum Access {
    Read,
    Write,
    Atomic { reads: bool },
}

impl Machine<'_> {
    fn check_align(space: Space, addr: u64, bytes: usize) -> Result<(), MemErr> {
        if !addr.is_multiple_of(bytes as u64) {
            return Err(mem_err(
                SimErrorKind::Misaligned,
                format!(
                    "{bytes}-byte {} access at {addr:#x} is not {bytes}-byte aligned",
                    space_name(space)
                ),
            ));
        }
        Ok(())
    }

    /// Global memory, and `alloca` stacks (which the simulator keeps in global memory, each
    /// block its own allocation).
    fn global_loc(
        &mut self,
        space: Space,
        addr: u64,
        bytes: usize,
        write: bool,
    ) -> Result<(usize, usize), MemErr> {
        Self::check_align(space, addr, bytes)?;
        self.global
            .locate(addr, bytes as u64, &mut self.hint)
            .ok_or_else(|| {
                mem_err(
                    SimErrorKind::OutOfBounds,
                    format!(
                        "{} of {bytes} bytes at {} address {addr:#x}, outside every allocation",
                        if write { "write" } else { "read" },
                        space_name(space)
                    ),
                )
            })
    }

    /// The byte of the cluster's shared memory that `addr` in `space` names: an offset into the
    /// running block's window (`Shared`), or a `mapa` address (`Cluster`: the rank above
    /// [`CLUSTER_RANK_SHIFT`], the offset in that block's window below).
    fn shared_offset(&self, space: Space, addr: u64, bytes: usize) -> Result<usize, MemErr> {
        Self::check_align(space, addr, bytes)?;
        let (rank, addr) = match space {
            Space::Cluster => (
                (addr >> CLUSTER_RANK_SHIFT) as u32,
                addr & ((1 << CLUSTER_RANK_SHIFT) - 1),
            ),
            _ => (self.rank - self.rank_base, addr),
        };
        let size = self.window as u64;
        if rank >= self.cluster_blocks {
            return Err(mem_err(
                SimErrorKind::OutOfBounds,
                format!(
                    "{bytes}-byte distributed shared access to block rank {rank}, but the cluster has {} blocks",
                    self.cluster_blocks
                ),
            ));
        }
        if addr.checked_add(bytes as u64).is_none_or(|e| e > size) {
            let whose = if space == Space::Cluster {
                format!("block rank {rank}'s")
            } else {
                "the block's".into()
            };
            return Err(mem_err(
                SimErrorKind::OutOfBounds,
                format!(
                    "{bytes}-byte shared access at offset {addr} is outside {whose} {size} bytes of shared memory"
                ),
            ));
        }
        let rank = self.rank_base + rank;
        if self.exited[rank as usize] {
            return Err(mem_err(
                SimErrorKind::OutOfBounds,
                format!(
                    "distributed shared access to block rank {rank}, which has exited: a block's \
                     shared memory lives only while it runs (end with `cluster_sync()` before \
                     exiting when other blocks may still access it)"
                ),
            ));
        }
        Ok(rank as usize * self.window + addr as usize)
    }

    fn shared_loc(
        &mut self,
        t: u32,
        space: Space,
        addr: u64,
        bytes: usize,
        how: Access,
    ) -> Result<usize, MemErr> {
        let off = self.shared_offset(space, addr, bytes)?;
        let st = self.tid_base + t;
        // Copies in flight are this block's own (`async_state`, by block-local offset).
        let own = off.checked_sub(self.rank as usize * self.window.max(1));
        if let Some(other) = own
            .filter(|&o| o < self.window.max(1))
            .and_then(|o| self.asyncs.in_flight(o, bytes))
        {
            return Err(MemErr::race(
                format!(
                    "{} of shared byte {} races with an asynchronous copy (`memcpy_async`) by {} \
                     that has not landed: wait for it first (`cp_async_wait_group` / \
                     `cp_async_wait_all`, or the barrier it completes on)",
                    match how {
                        Access::Read => "read",
                        _ => "write",
                    },
                    off - self.rank as usize * self.window.max(1),
                    if other == t {
                        "this thread"
                    } else {
                        "thread {OTHER}"
                    }
                ),
                (other != t).then_some(self.tid_base + other),
            ));
        }
        if !matches!(how, Access::Read) {
            if let Some(owner) = own
                .filter(|&o| o < self.window.max(1))
                .and_then(|o| self.asyncs.store_reading(o, bytes))
            {
                let f = super::tma::write_under_store(
                    off - self.rank as usize * self.window.max(1),
                    bytes,
                    owner,
                    t,
                );
                return Err(MemErr::race(f.message, f.other.map(|o| self.tid_base + o)));
            }
        }
        let r = match how {
            Access::Read => self.shadow.read(off, bytes, st),
            Access::Write => self.shadow.write(off, bytes, st).map(|()| None),
            Access::Atomic { reads } => {
                let r = self.shadow.atomic(off, bytes, st, reads);
                self.validate_guess(t, off, bytes);
                r
            }
        };
        // Offsets as the block that owns the byte sees them.
        let (window, clustered) = (self.window.max(1), self.cluster_blocks > 1);
        let byte = |offset: usize| {
            if clustered {
                format!("{} of block rank {}", offset % window, offset / window)
            } else {
                offset.to_string()
            }
        };
        let note = r.map_err(|h| match h {
            Hazard::Uninit { offset } => mem_err(
                SimErrorKind::UninitSharedRead,
                format!(
                    "read of shared byte {}, which no thread of this block has written",
                    byte(offset)
                ),
            ),
            Hazard::Race {
                offset,
                other,
                other_access,
            } => MemErr {
                kind: SimErrorKind::SharedRace,
                message: format!(
                    "{} of shared byte {} races with {other_access} by {} since the last barrier",
                    match how {
                        Access::Read => "read",
                        Access::Write => "write",
                        Access::Atomic { .. } => "atomic access",
                    },
                    byte(offset),
                    who(other)
                ),
                other: (other != super::detect::MANY).then_some(other),
            },
        })?;
        match note {
            None => {}
            Some(Note::ReadOfAtomic { offset, other }) => {
                let g = &mut self.guesses[t as usize];
                if g.is_none() {
                    *g = Some(Guess {
                        offset,
                        other,
                        pc: self.pc,
                    });
                }
            }
            Some(Note::AtomicAfterGuesses { offset, other }) => self.warn(
                self.pc,
                t,
                format!(
                    "atomic access of shared byte {offset} races with a plain read by {} since the \
                     last barrier; allowed because every such reader then accessed the word \
                     atomically (a compare-and-swap loop)",
                    who(other)
                ),
                other,
            ),
        }
        Ok(off)
    }

    /// An atomic access by `t` of `[off, off + bytes)` turns its pending guess there into a warning.
    fn validate_guess(&mut self, t: u32, off: usize, bytes: usize) {
        let g = &mut self.guesses[t as usize];
        if let Some(Guess { offset, other, pc }) = *g {
            if (off..off + bytes).contains(&offset) {
                *g = None;
                self.warn(
                    pc,
                    t,
                    format!(
                        "read of shared byte {offset} races with an atomic access by {} since the \
                         last barrier; allowed as the first read of a compare-and-swap loop, since \
                         the thread then accesses the word atomically",
                        who(other)
                    ),
                    other,
                );
            }
        }
    }

    fn warn(&mut self, pc: usize, t: u32, message: String, other: u32) {
        if let Some(w) = self.warnings.iter_mut().find(|w| w.pc == pc) {
            w.count += 1;
            return;
        }
        self.warnings.push(RawWarning {
            pc,
            t,
            block: self.block_idx,
            message,
            other: (other != super::detect::MANY).then_some(other),
            count: 1,
        });
    }

    fn read(
        &mut self,
        t: u32,
        space: Space,
        addr: u64,
        ty: Ty,
        how: Access,
    ) -> Result<u64, MemErr> {
        let bytes = ty.bytes() as usize;
        Ok(match space {
            Space::Global | Space::Local => {
                let (i, off) = self.global_loc(space, addr, bytes, false)?;
                ops::from_bytes(ty, &self.global.bytes(i)[off..off + bytes])
            }
            Space::Shared | Space::Cluster => {
                let off = self.shared_loc(t, space, addr, bytes, how)?;
                ops::from_bytes(ty, &self.shared[off..off + bytes])
            }
        })
    }

    fn write(
        &mut self,
        t: u32,
        space: Space,
        addr: u64,
        bytes: usize,
        v: u64,
        how: Access,
    ) -> Result<(), MemErr> {
        let src = &v.to_le_bytes()[..bytes];
        match space {
            Space::Global | Space::Local => {
                let (i, off) = self.global_loc(space, addr, bytes, true)?;
                self.global.bytes_mut(i)[off..off + bytes].copy_from_slice(src);
            }
            Space::Shared | Space::Cluster => {
                let off = self.shared_loc(t, space, addr, bytes, how)?;
                self.shared[off..off + bytes].copy_from_slice(src);
            }
        }
        Ok(())
    }
}

/// Names the other thread of a conflict in a message (`{OTHER}` is filled in when located).
fn who(other: u32) -> &'static str {
    if other == super::detect::MANY {
        "several other threads"
    } else {
        "thread {OTHER}"
    }
}

/// The thread an intrinsic runs on, as `SimEnv` sees it.
struct Env<'m, 'a> {
    m: &'m mut Machine<'a>,
    t: u32,
    tid: [u32; 3],
    fault: Option<MemErr>,
}

impl SimEnv for Env<'_, '_> {
    fn thread_idx(&self) -> [u32; 3] {
        self.tid
    }
    fn block_idx(&self) -> [u32; 3] {
        self.m.block_idx
    }
    fn block_dim(&self) -> [u32; 3] {
        self.m.block_dim
    }
    fn grid_dim(&self) -> [u32; 3] {
        self.m.grid_dim
    }
    fn cluster_dim(&self) -> [u32; 3] {
        self.m.cluster_dim
    }
    fn clock(&mut self) -> u64 {
        self.m.icount
    }
    fn atomic_read(&mut self, space: Space, addr: u64, bytes: u32) -> u64 {
        let ty = match bytes {
            1 => Ty::U8,
            2 => Ty::U16,
            4 => Ty::U32,
            _ => Ty::U64,
        };
        match self
            .m
            .read(self.t, space, addr, ty, Access::Atomic { reads: true })
        {
            Ok(v) => v,
            Err(e) => {
                self.fault.get_or_insert(e);
                0
            }
        }
    }
    fn atomic_write(&mut self, space: Space, addr: u64, bytes: u32, bits: u64) {
        let how = Access::Atomic { reads: false };
        if let Err(e) = self
            .m
            .write(self.t, space, addr, bytes.min(8) as usize, bits, how)
        {
            self.fault.get_or_insert(e);
        }
    }
    fn load(&mut self, space: Space, addr: u64, bytes: u32) -> u64 {
        let ty = match bytes {
            1 => Ty::U8,
            2 => Ty::U16,
            4 => Ty::U32,
            _ => Ty::U64,
        };
        match self.m.read(self.t, space, addr, ty, Access::Read) {
            Ok(v) => v,
            Err(e) => {
                self.fault.get_or_insert(e);
                0
            }
        }
    }
    fn store(&mut self, space: Space, addr: u64, bytes: u32, bits: u64) {
        let n = bytes.min(8) as usize;
        if let Err(e) = self.m.write(self.t, space, addr, n, bits, Access::Write) {
            self.fault.get_or_insert(e);
        }
    }
    fn misaligned(&mut self, message: String) {
        self.fault
            .get_or_insert(mem_err(SimErrorKind::Misaligned, message));
    }
    fn heap_alloc(&mut self, bytes: u64) -> u64 {
        self.m.global.heap_alloc(bytes).unwrap_or(0)
    }
    fn stack_alloc(&mut self, bytes: u64) -> u64 {
        match self.m.global.stack_alloc(bytes) {
            Some(a) => a,
            None => {
                self.fault.get_or_insert(mem_err(
                    SimErrorKind::OutOfBounds,
                    format!(
                        "alloca of {bytes} bytes overflows the thread's stack (the simulator grants at most {} bytes per call)",
                        super::memory::MAX_ALLOCA_BYTES
                    ),
                ));
                0
            }
        }
    }
    fn heap_free(&mut self, addr: u64) {
        if let Err(message) = self.m.global.heap_free(addr) {
            self.fault
                .get_or_insert(mem_err(SimErrorKind::InvalidFree, message));
        }
    }
    fn async_op(&mut self, op: kernel_ir::async_ops::AsyncOp, args: &[u64], out: &mut [u64]) {
        // The copy engine's operations have their own file, on the same state.
        let r = if super::tma::handles(op) {
            super::tma::run(self.m, self.t, op, args)
        } else {
            async_state::run(self.m, self.t, op, args, out)
        };
        if let Err(f) = r {
            self.fault.get_or_insert(MemErr {
                kind: f.kind,
                message: f.message,
                other: f.other,
            });
        }
    }
}

/// Register bits of an intrinsic result of type `ty` (whatever garbage sits above its width).
pub(crate) fn canonical(ty: Ty, v: u64) -> u64 {
    match ty.bits() {
        1 => (v != 0) as u64,
        64 => v,
        b => v & ((1u64 << b) - 1),
    }
}

/// Calls a `Pure`/`Memory` intrinsic's `sim` on thread `t` with its arguments from `regs`.
pub(crate) fn call_intrinsic(
    m: &mut Machine,
    regs: &mut [u64],
    call: u32,
    t: u32,
    tid: [u32; 3],
) -> Result<(), MemErr> {
    let c = &m.prog.calls[call as usize];
    let sim = c.def.sim.expect("checked when lowering");
    let mut args = [0u64; 16];
    let mut out = [0u64; 16];
    let args_v: Vec<u64>;
    let argv: &[u64] = if c.args.len() <= 16 {
        for (a, &s) in args.iter_mut().zip(&c.args) {
            *a = regs[s as usize];
        }
        &args[..c.args.len()]
    } else {
        args_v = c.args.iter().map(|&s| regs[s as usize]).collect();
        &args_v
    };
    let mut out_v;
    let outv: &mut [u64] = if c.dsts.len() <= 16 {
        &mut out[..c.dsts.len()]
    } else {
        out_v = vec![0; c.dsts.len()];
        &mut out_v
    };
    let prog = m.prog;
    let mut env = Env {
        m,
        t,
        tid,
        fault: None,
    };
    sim(&mut env, argv, outv);
    if let Some(f) = env.fault {
        return Err(f);
    }
    let c = &prog.calls[call as usize];
    for (&d, (&v, ty)) in c.dsts.iter().zip(outv.iter().zip(c.def.rets)) {
        regs[d as usize] = canonical(*ty, v);
    }
    Ok(())
}

/// The built-in register `reg` (see `compile::SREGS`) of thread `t`; must agree with the
/// intrinsic table's `sim` functions, which `sregs_agree_with_the_table` checks.
#[inline]
fn sreg_value(m: &Machine, t: u32, tid: [u32; 3], reg: u8) -> u64 {
    (match reg {
        0..=2 => tid[reg as usize],
        3..=5 => m.block_idx[reg as usize - 3],
        6..=8 => m.block_dim[reg as usize - 6],
        9..=11 => m.grid_dim[reg as usize - 9],
        12 => 32,
        _ => t % 32,
    }) as u64
}

/// Runs thread `t` (linear id; `tid` its `threadIdx`) from `*pc`.
pub(crate) fn run(
    m: &mut Machine,
    regs: &mut [u64],
    pc: &mut usize,
    t: u32,
    tid: [u32; 3],
) -> Result<Stop, Fault> {
    let prog = m.prog;
    let ops = &prog.ops[..];
    let mut p = *pc;
    let mut count = 0u64;
    let fault = |kind, message, p: usize| Fault {
        kind,
        message,
        pc: p,
        a: 0,
        b: 0,
        site: None,
        other: None,
    };
    let from_mem = |e: MemErr, p: usize| Fault {
        kind: e.kind,
        message: e.message,
        pc: p,
        a: 0,
        b: 0,
        site: None,
        other: e.other,
    };
    let over_limit = |m: &Machine, count: u64, p: usize| {
        (m.icount + count > m.max_instructions).then(|| Fault {
            kind: SimErrorKind::InstructionLimit,
            message: format!(
                "the launch executed more than {} operations; the thread is probably spinning \
                 (raise FERROCUDA_SIM_MAX_INSTRUCTIONS if the kernel is just long)",
                m.max_instructions
            ),
            pc: p,
            a: 0,
            b: 0,
            site: None,
            other: None,
        })
    };
    let result = loop {
        let op = ops[p];
        count += 1;
        match op {
            Op::Mov { d, a } => regs[d as usize] = regs[a as usize],
            Op::Un { f, d, a } => regs[d as usize] = f(regs[a as usize]),
            Op::Bin { f, d, a, b } => regs[d as usize] = f(regs[a as usize], regs[b as usize]),
            Op::Fma { f, d, a, b, c } => {
                regs[d as usize] = f(regs[a as usize], regs[b as usize], regs[c as usize])
            }
            Op::Cast { from, to, d, a } => {
                regs[d as usize] = ops::cast(from, to, regs[a as usize]).unwrap_or(0)
            }
            Op::Select { d, c, a, b } => {
                regs[d as usize] = if regs[c as usize] != 0 {
                    regs[a as usize]
                } else {
                    regs[b as usize]
                }
            }
            Op::Load { space, ty, d, addr } => {
                m.pc = p;
                match m.read(t, space, regs[addr as usize], ty, Access::Read) {
                    Ok(v) => regs[d as usize] = v,
                    Err(e) => break Err(from_mem(e, p)),
                }
            }
            Op::LoadVec {
                space,
                ty,
                n,
                d,
                addr,
            } => {
                m.pc = p;
                let a = regs[addr as usize];
                let size = ty.bytes() as u64;
                let whole = Machine::check_align(space, a, n as usize * size as usize);
                let mut got = [0u64; 4];
                let mut fault = whole.err();
                for (i, g) in got.iter_mut().enumerate().take(n as usize) {
                    if fault.is_some() {
                        break;
                    }
                    match m.read(t, space, a + i as u64 * size, ty, Access::Read) {
                        Ok(v) => *g = v,
                        Err(e) => fault = Some(e),
                    }
                }
                if let Some(e) = fault {
                    break Err(from_mem(e, p));
                }
                for i in 0..n as usize {
                    regs[d[i] as usize] = got[i];
                }
            }
            Op::Store {
                space,
                bytes,
                addr,
                v,
            } => {
                let (a, v) = (regs[addr as usize], regs[v as usize]);
                if let Err(e) = m.write(t, space, a, bytes as usize, v, Access::Write) {
                    break Err(from_mem(e, p));
                }
            }
            Op::StoreVec {
                space,
                bytes,
                n,
                v,
                addr,
            } => {
                m.pc = p;
                let a = regs[addr as usize];
                let mut fault = Machine::check_align(space, a, n as usize * bytes as usize).err();
                for (i, &s) in v.iter().enumerate().take(n as usize) {
                    if fault.is_some() {
                        break;
                    }
                    let at = a + i as u64 * bytes as u64;
                    if let Err(e) = m.write(
                        t,
                        space,
                        at,
                        bytes as usize,
                        regs[s as usize],
                        Access::Write,
                    ) {
                        fault = Some(e);
                    }
                }
                if let Some(e) = fault {
                    break Err(from_mem(e, p));
                }
            }
            Op::ArrLoad { base, len, d, i } => {
                let i = regs[i as usize];
                if i >= len as u64 {
                    break Err(fault(
                        SimErrorKind::OutOfBounds,
                        format!("local array index {i} is outside its {len} elements"),
                        p,
                    ));
                }
                regs[d as usize] = regs[base as usize + i as usize];
            }
            Op::ArrStore { base, len, i, v } => {
                let i = regs[i as usize];
                if i >= len as u64 {
                    break Err(fault(
                        SimErrorKind::OutOfBounds,
                        format!("local array index {i} is outside its {len} elements"),
                        p,
                    ));
                }
                regs[base as usize + i as usize] = regs[v as usize];
            }
            Op::Sreg { d, reg } => regs[d as usize] = sreg_value(m, t, tid, reg),
            Op::Call { call } => {
                m.pc = p;
                m.icount += count;
                count = 0;
                if let Err(e) = call_intrinsic(m, regs, call, t, tid) {
                    break Err(from_mem(e, p));
                }
                if let Some(after) = m.asyncs.block.take() {
                    m.asyncs.parked_pc[t as usize] = p;
                    if after {
                        p += 1;
                    }
                    break Ok(Stop::Blocked);
                }
            }
            Op::Barrier { .. } => {
                p += 1;
                break Ok(Stop::Barrier);
            }
            Op::Warp { .. } => {
                p += 1;
                break Ok(Stop::Warp);
            }
            Op::Bounds { i, l, site } => {
                let (i, l) = (regs[i as usize], regs[l as usize]);
                if i >= l {
                    break Err(Fault {
                        kind: SimErrorKind::Panic(kernel_ir::ir::PanicKind::Bounds),
                        message: String::new(),
                        pc: p,
                        a: i,
                        b: l,
                        site: Some(SiteId(site)),
                        other: None,
                    });
                }
            }
            Op::Panic { site, a, b } => {
                break Err(Fault {
                    kind: SimErrorKind::Panic(kernel_ir::ir::PanicKind::Bounds),
                    message: String::new(),
                    pc: p,
                    a: regs[a as usize],
                    b: regs[b as usize],
                    site: Some(SiteId(site)),
                    other: None,
                });
            }
            Op::Jmp { t } => {
                if t as usize <= p {
                    if let Some(f) = over_limit(m, count, p) {
                        break Err(f);
                    }
                }
                p = t as usize;
                continue;
            }
            Op::Jz { c, t } => {
                if regs[c as usize] == 0 {
                    p = t as usize;
                    continue;
                }
            }
            Op::ForInit { info, exit } => {
                let f = &prog.fors[info as usize];
                let (lo, hi, st) = (
                    regs[f.start as usize],
                    regs[f.end as usize],
                    regs[f.step as usize],
                );
                let step = ops::int_value(f.ty, st);
                if step <= 0 {
                    break Err(fault(
                        SimErrorKind::MalformedIr,
                        format!("counted loop with step {step}"),
                        p,
                    ));
                }
                regs[f.lo as usize] = lo;
                regs[f.hi as usize] = hi;
                regs[f.st as usize] = st;
                let (l, h) = (ops::int_value(f.ty, lo), ops::int_value(f.ty, hi));
                let empty = if f.inclusive { l > h } else { l >= h };
                if empty {
                    p = exit as usize;
                    continue;
                }
                let first = match (f.reverse, f.inclusive) {
                    (false, _) => l,
                    (true, true) => h,
                    (true, false) => h - 1,
                };
                regs[f.iv as usize] = ops::int_bits(f.ty, first);
            }
            Op::ForNext { info, top } => {
                let f = &prog.fors[info as usize];
                let cur = ops::int_value(f.ty, regs[f.iv as usize]);
                let step = ops::int_value(f.ty, regs[f.st as usize]);
                let more = if f.reverse {
                    let next = cur - step;
                    let go = next >= ops::int_value(f.ty, regs[f.lo as usize]);
                    if go {
                        regs[f.iv as usize] = ops::int_bits(f.ty, next);
                    }
                    go
                } else {
                    let next = cur + step;
                    let h = ops::int_value(f.ty, regs[f.hi as usize]);
                    let go = if f.inclusive { next <= h } else { next < h };
                    if go {
                        regs[f.iv as usize] = ops::int_bits(f.ty, next);
                    }
                    go
                };
                if more {
                    if let Some(f) = over_limit(m, count, p) {
                        break Err(f);
                    }
                    p = top as usize;
                    continue;
                }
            }
            Op::Exit => break Ok(Stop::Exit),
            Op::Print { call } => {
                if let Err(msg) = super::print::run(&prog.prints[call as usize], regs) {
                    break Err(fault(SimErrorKind::MalformedIr, msg, p));
                }
            }
            Op::Invalid { msg } => {
                break Err(fault(
                    SimErrorKind::MalformedIr,
                    prog.msgs[msg as usize].clone(),
                    p,
                ))
            }
        }
        p += 1;
    };
    m.icount += count;
    *pc = p;
    result
}

fn fail(e: MemErr) -> Fail {
    Fail {
        kind: e.kind,
        message: e.message,
        other: e.other,
    }
}

fn access(how: How) -> Access {
    match how {
        How::Read => Access::Read,
        How::Write => Access::Write,
        How::Atomic { reads } => Access::Atomic { reads },
    }
}

impl async_state::Mem for Machine<'_> {
    fn asyncs(&mut self) -> &mut AsyncState {
        self.asyncs
    }
    fn shared_len(&self) -> usize {
        self.window
    }
    fn read(&mut self, t: u32, space: Space, addr: u64, ty: Ty, how: How) -> Result<u64, Fail> {
        Machine::read(self, t, space, addr, ty, access(how)).map_err(fail)
    }
    fn write(
        &mut self,
        t: u32,
        space: Space,
        addr: u64,
        bytes: usize,
        v: u64,
        how: How,
    ) -> Result<(), Fail> {
        Machine::write(self, t, space, addr, bytes, v, access(how)).map_err(fail)
    }
    fn order_all(&mut self) {
        self.shadow.block_barrier(self.rank as usize);
    }
    fn grid_constant(&self, handle: u64) -> Option<&[u8]> {
        let i = kernel_ir::tensor_map::grid_constant_index(handle)?;
        self.prog.grid_constants.get(i).map(|b| b.as_slice())
    }
}
