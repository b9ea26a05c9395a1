//! Runs a launch: validates it, lowers the kernel, then runs blocks one at a time in the requested
//! order. Within a block, threads run in linear-id order, each until it exits or parks; when none
//! can run, warp collectives fire (lanes gathered per warp and program point), then a barrier
//! releases if every live thread waits at that same barrier, and anything else is reported as
//! divergence instead of hanging. A thread that reads shared memory nobody wrote yet is held
//! there (never resumed) while the others run: a later write to that byte by another thread makes
//! the read a race, and otherwise the read is reported once nothing else can run. Before anything
//! runs, the launch is checked against its target (`Target`).

use super::compile::{self, Op, Program};
use super::detect::Shadow;
use super::error::{SimError, SimErrorKind};
use super::exec::{self, Fault, Guess, Machine, RawWarning, Stop};
use super::memory::GlobalMemory;
use super::warn::{self, SimWarning, SimWarningKind};
use super::{BlockOrder, SimLaunch, SimStats};
use kernel_ir::intrinsic::Class;
use kernel_ir::ir::{Kernel, ParamKind, Ty};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Status {
    Run,
    /// Parked after the barrier / collective at op `pc - 1`.
    Barrier,
    Warp,
    Done,
    /// Parked at an asynchronous barrier's wait (`async_state`): retried while the block's
    /// barriers change, reported when nothing left could complete the phase.
    Blocked,
    /// Held at a read of shared memory no thread wrote yet: never resumed. The launch reports the
    /// read once nothing else can run, unless a later write by another thread shows it is a race.
    Held,
}

pub(crate) fn launch(
    kernel: &Kernel,
    cfg: &SimLaunch,
    params: &[&[u8]],
    mem: &mut GlobalMemory,
    max_instructions: u64,
) -> Result<SimStats, SimError> {
    let mut warnings = Vec::new();
    let r = run_launch(kernel, cfg, params, mem, max_instructions, &mut warnings);
    warn::report(&warnings);
    r.map(|mut stats| {
        stats.warnings = warnings;
        stats
    })
}

fn run_launch(
    kernel: &Kernel,
    cfg: &SimLaunch,
    params: &[&[u8]],
    mem: &mut GlobalMemory,
    max_instructions: u64,
    warnings: &mut Vec<SimWarning>,
) -> Result<SimStats, SimError> {
    let err = |kind, message: String| {
        let mut e = SimError::host(kind, message);
        e.kernel = kernel.display_name.clone();
        e
    };
    check_dims(kernel, cfg).map_err(|m| err(SimErrorKind::InvalidLaunch, m))?;
    // Stacks of a launch that stopped early.
    mem.release_stacks();
    let mut prog = compile::lower(kernel, cfg.dyn_shared_bytes, cfg.target.sm)?;
    check_target(kernel, cfg, &prog)?;
    let shared_bytes = check_shared(cfg, &prog).map_err(|(kind, m)| err(kind, m))?;
    bind_params(kernel, params, &mut prog).map_err(|m| err(SimErrorKind::InvalidParams, m))?;

    let [gx, gy, gz] = cfg.grid;
    let cluster_dim = cluster_of(kernel, cfg);
    // The blocks that run together: a cluster, or with `grid_sync` the whole grid (a
    // cooperative launch, every block resident at once).
    let grid_sync = kernel.uses_grid_sync();
    if grid_sync && cluster_dim != [1, 1, 1] {
        return Err(err(
            SimErrorKind::InvalidLaunch,
            format!(
                "`grid_sync` in a launch with clusters {cluster_dim:?} is not simulated (the \
                 simulator runs either a cluster's blocks or the whole grid together)"
            ),
        ));
    }
    let [cx, cy, cz] = if grid_sync { cfg.grid } else { cluster_dim };
    let cblocks = (cx as usize) * (cy as usize) * (cz as usize);
    if grid_sync && cblocks > MAX_GRID_SYNC_BLOCKS {
        return Err(err(
            SimErrorKind::InvalidLaunch,
            format!(
                "`grid_sync` with {cblocks} blocks: the simulator runs at most \
                 {MAX_GRID_SYNC_BLOCKS} blocks together"
            ),
        ));
    }
    // Clusters in the grid along each axis (check_dims made the grid whole clusters).
    let (ngx, ngy, ngz) = (gx / cx, gy / cy, gz / cz);
    let nclusters = ngx as u64 * ngy as u64 * ngz as u64;
    let order = BlockSequence::new(nclusters, cfg.block_order);
    let [bx, by, bz] = cfg.block;
    let nthreads = (bx * by * bz) as usize;
    // Each block's threads start at a whole warp of the shadow's ids, so no warp spans blocks.
    let stride = if cblocks == 1 {
        nthreads
    } else {
        nthreads.next_multiple_of(32)
    };
    let tid_of = |t: usize| {
        let t = (t % stride.max(1)) as u32;
        [t % bx, (t / bx) % by, t / (bx * by)]
    };

    let reg_words = (cblocks * stride) as u64 * prog.nslots as u64;
    if reg_words > MAX_REGISTER_WORDS {
        return Err(err(
            SimErrorKind::InvalidLaunch,
            format!(
                "{} registers and local array elements per thread are too many for {nthreads} threads",
                prog.nslots
            ),
        ));
    }
    let all = cblocks * stride;
    let mut regs = vec![0u64; reg_words as usize];
    let mut pcs = vec![0usize; all];
    let mut status = vec![Status::Run; all];
    let mut shared = vec![0u8; shared_bytes as usize * cblocks];
    let mut shadow = Shadow::new();
    let mut guesses: Vec<Option<Guess>> = vec![None; all];
    // Per block of the cluster: its asynchronous barriers and copies in flight.
    let mut asyncs: Vec<super::async_state::AsyncState> =
        (0..cblocks).map(|_| Default::default()).collect();
    let mut raw_warnings: Vec<RawWarning> = Vec::new();
    let mut stats = SimStats::default();
    let mut hint = 0usize;
    let mut exited = vec![false; cblocks];
    let n = prog.nslots;

    let result = (|| {
        for c in order {
            let cluster = [
                (c % ngx as u64) as u32,
                ((c / ngx as u64) % ngy as u64) as u32,
                (c / (ngx as u64 * ngy as u64)) as u32,
            ];
            let block_of = |r: usize| {
                let r = r as u32;
                [
                    cluster[0] * cx + r % cx,
                    cluster[1] * cy + (r / cx) % cy,
                    cluster[2] * cz + r / (cx * cy),
                ]
            };
            for chunk in regs.chunks_exact_mut(n.max(1)).take(all) {
                chunk.copy_from_slice(&prog.template[..n]);
            }
            pcs.fill(0);
            for (t, s) in status.iter_mut().enumerate() {
                // The padding of a block's last warp never runs.
                *s = if t % stride < nthreads {
                    Status::Run
                } else {
                    Status::Done
                };
            }
            guesses.fill(None);
            exited.fill(false);
            shadow.start_cluster(shared.len(), all, cblocks);
            for a in &mut asyncs {
                a.start_block(shared_bytes as usize, nthreads);
            }
            let mut left = cblocks;
            while left > 0 {
                for rank in 0..cblocks {
                    if exited[rank] {
                        continue;
                    }
                    let block_idx = block_of(rank);
                    let threads = rank * stride..rank * stride + nthreads;
                    let mut m = Machine {
                        prog: &prog,
                        global: mem,
                        shared: &mut shared,
                        shadow: &mut shadow,
                        window: shared_bytes as usize,
                        rank: rank as u32,
                        // The grid of a `grid_sync` kernel runs together, in clusters of 1.
                        rank_base: if grid_sync { rank as u32 } else { 0 },
                        cluster_dim,
                        cluster_blocks: if grid_sync { 1 } else { cblocks as u32 },
                        tid_base: (rank * stride) as u32,
                        exited: &exited,
                        hint,
                        icount: stats.instructions,
                        max_instructions,
                        block_idx,
                        block_dim: cfg.block,
                        grid_dim: cfg.grid,
                        pc: 0,
                        guesses: &mut guesses[threads.clone()],
                        warnings: &mut raw_warnings,
                        asyncs: &mut asyncs[rank],
                    };
                    let end = run_block(
                        &mut m,
                        &mut regs[threads.start * n..threads.end * n],
                        &mut pcs[threads.clone()],
                        &mut status[threads.clone()],
                        n,
                        &mut stats,
                        &tid_of,
                    )
                    .map_err(|(f, t)| {
                        let other = f.other;
                        let mut e = locate(kernel, &prog, f, block_idx, tid_of(t), tid_of);
                        if let Some(o) = other.filter(|_| cblocks > 1) {
                            let [x, y, z] = block_of(o as usize / stride);
                            e.message.push_str(&format!(
                                " (the other thread is in block ({x},{y},{z}))"
                            ));
                        }
                        e
                    })?;
                    hint = m.hint;
                    stats.instructions = m.icount;
                    if end == BlockEnd::Exited {
                        exited[rank] = true;
                        left -= 1;
                        stats.blocks += 1;
                        stats.threads += nthreads as u64;
                    }
                }
                if left == 0 {
                    break;
                }
                // Every block still running waits at a cluster (or grid) barrier: all must.
                if let Some(gone) = exited.iter().position(|&e| e) {
                    let (what, whose) = if grid_sync {
                        ("grid barrier (`grid_sync`)", "the grid")
                    } else {
                        ("cluster barrier", "its cluster")
                    };
                    let rank = exited.iter().position(|&e| !e).unwrap_or(0);
                    let t = (rank * stride..rank * stride + nthreads)
                        .find(|&t| status[t] == Status::Barrier)
                        .unwrap_or(rank * stride);
                    let f = Fault {
                        kind: SimErrorKind::BarrierDivergence,
                        message: format!(
                            "the thread waits at a {what} that block {:?} of {whose} will never reach: it has exited",
                            block_of(gone)
                        ),
                        pc: pcs[t].saturating_sub(1),
                        a: 0,
                        b: 0,
                        site: None,
                        other: None,
                    };
                    return Err(locate(kernel, &prog, f, block_of(rank), tid_of(t), tid_of));
                }
                shadow.barrier();
                stats.barriers += 1;
                for s in status.iter_mut() {
                    if *s == Status::Barrier {
                        *s = Status::Run;
                    }
                }
            }
            // The cluster's threads are gone, and their `alloca` stacks with them.
            mem.release_stacks();
        }
        Ok(())
    })();
    // Warnings are located whether or not the launch completed.
    for w in raw_warnings {
        let f = Fault {
            kind: SimErrorKind::SharedRace,
            message: w.message,
            pc: w.pc,
            a: 0,
            b: 0,
            site: None,
            other: w.other,
        };
        let e = locate(kernel, &prog, f, w.block, tid_of(w.t as usize), tid_of);
        warnings.push(SimWarning {
            kind: SimWarningKind::ReadRacesWithAtomic,
            kernel: e.kernel,
            file: e.file,
            line: e.line,
            col: e.col,
            block: e.block,
            thread: e.thread,
            message: e.message,
            count: w.count,
        });
    }
    result.map(|()| stats)
}

/// The most blocks a `grid_sync` kernel may run together on the simulator (its registers and
/// shared memory are all live at once): far more than any test needs, and about what a GPU holds.
const MAX_GRID_SYNC_BLOCKS: usize = 4096;

/// How a block's run ended: every thread exited, or every live one waits at a cluster barrier
/// (for the other blocks of its cluster).
#[derive(Clone, Copy, PartialEq, Eq)]
enum BlockEnd {
    Exited,
    AtClusterBarrier,
}

/// The launch's cluster shape: its own, else the kernel's compile-time one (1x1x1 without).
fn cluster_of(kernel: &Kernel, cfg: &SimLaunch) -> [u32; 3] {
    match (cfg.cluster, kernel.attrs.cluster_dims) {
        ([1, 1, 1], Some(c)) => c,
        (c, _) => c,
    }
}

/// Runs the threads of one block (`m`'s; `regs`, `pcs`, `status` are its threads') until all
/// exit or all wait at a cluster barrier: threads in linear-id order, each until it exits or
/// parks; when none can run, warp collectives fire, then a block barrier releases if every thread
/// waits at it. Errors carry the block-local thread.
fn run_block(
    m: &mut Machine,
    regs: &mut [u64],
    pcs: &mut [usize],
    status: &mut [Status],
    n: usize,
    stats: &mut SimStats,
    tid_of: &dyn Fn(usize) -> [u32; 3],
) -> Result<BlockEnd, (Fault, usize)> {
    let prog = m.prog;
    let nthreads = status.len();
    // The first read of never-written shared memory, held until it is known not to race.
    let mut held: Option<(Fault, usize)> = None;
    loop {
        let progress = m.asyncs.progress;
        for t in 0..nthreads {
            if status[t] != Status::Run {
                continue;
            }
            let r = &mut regs[t * n..(t + 1) * n];
            match exec::run(m, r, &mut pcs[t], t as u32, tid_of(t)) {
                Ok(stop) => {
                    status[t] = match stop {
                        Stop::Exit => Status::Done,
                        Stop::Barrier => Status::Barrier,
                        Stop::Warp => Status::Warp,
                        Stop::Blocked => Status::Blocked,
                    };
                    // A compare-and-swap guess must be validated before the thread leaves
                    // the epoch.
                    if !matches!(stop, Stop::Warp) {
                        if let Some(g) = m.guesses[t].take() {
                            return Err((unvalidated_read(g), t));
                        }
                    }
                }
                Err(f) if f.kind == SimErrorKind::UninitSharedRead => {
                    status[t] = Status::Held;
                    held.get_or_insert((f, t));
                }
                // A race may be the held read's (a later write to the byte it read);
                // anything else comes after the held read in the schedule.
                Err(f) => match held.take() {
                    Some((h, ht)) if f.kind != SimErrorKind::SharedRace => return Err((h, ht)),
                    _ => return Err((f, t)),
                },
            }
        }
        if status.contains(&Status::Warp) && fire_warps(m, regs, pcs, status, n, stats)? {
            continue;
        }
        if let Some(h) = held.take() {
            return Err(h);
        }
        if let Some(t) = status.iter().position(|s| *s == Status::Blocked) {
            // A barrier changed: the parked threads try again. Otherwise nothing can change it
            // any more (the others exited, or wait themselves).
            if m.asyncs.progress != progress {
                for s in status.iter_mut().filter(|s| **s == Status::Blocked) {
                    *s = Status::Run;
                }
                continue;
            }
            let f = Fault {
                kind: SimErrorKind::BarrierDivergence,
                message: std::mem::take(&mut m.asyncs.parked[t]),
                pc: m.asyncs.parked_pc[t],
                a: 0,
                b: 0,
                site: None,
                other: None,
            };
            return Err((f, t));
        }
        let Some(first) = status.iter().position(|s| *s == Status::Barrier) else {
            return Ok(BlockEnd::Exited);
        };
        let call = &prog.calls[barrier_call(prog, pcs[first])];
        if matches!(call.def.class, Class::ClusterBarrier | Class::GridBarrier) {
            check_cluster_barrier(prog, pcs, status, first)?;
            return Ok(BlockEnd::AtClusterBarrier);
        }
        check_barrier(prog, pcs, status, first)?;
        if let Some(sim) = call.def.sim_warp {
            // A barrier with results (`__syncthreads_count` and friends) reduces over the block.
            let args: Vec<Option<Vec<u64>>> = (0..nthreads)
                .map(|t| {
                    Some(
                        call.args
                            .iter()
                            .map(|&s| regs[t * n + s as usize])
                            .collect(),
                    )
                })
                .collect();
            let mut out = vec![vec![0u64; call.dsts.len()]; nthreads];
            sim(&args, &mut out).map_err(|msg| {
                let f = Fault {
                    kind: SimErrorKind::BarrierDivergence,
                    message: msg,
                    pc: pcs[first] - 1,
                    a: 0,
                    b: 0,
                    site: None,
                    other: None,
                };
                (f, first)
            })?;
            for (t, o) in out.iter().enumerate() {
                for ((&d, &v), ty) in call.dsts.iter().zip(o).zip(call.def.rets) {
                    regs[t * n + d as usize] = exec::canonical(*ty, v);
                }
            }
        }
        m.shadow.block_barrier(m.rank as usize);
        stats.barriers += 1;
        status.fill(Status::Run);
    }
}

/// Every thread of a block whose thread `first` waits at a cluster barrier must wait at one too
/// (any of them: `cluster_sync` or `cluster_wait`), not at a block barrier or exited.
fn check_cluster_barrier(
    prog: &Program,
    pcs: &[usize],
    status: &[Status],
    first: usize,
) -> Result<(), (Fault, usize)> {
    let at = pcs[first];
    let class = prog.calls[barrier_call(prog, at)].def.class;
    let what = if class == Class::GridBarrier {
        "grid barrier (`grid_sync`)"
    } else {
        "cluster barrier"
    };
    for (t, s) in status.iter().enumerate() {
        let other = match s {
            Status::Done => "has exited".to_string(),
            Status::Barrier => match prog.calls[barrier_call(prog, pcs[t])].def.class {
                c if c == class => continue,
                Class::GridBarrier => "waits at a grid barrier".to_string(),
                Class::ClusterBarrier => "waits at a cluster barrier".to_string(),
                _ => "waits at a block barrier".to_string(),
            },
            _ => continue,
        };
        return Err((
            Fault {
                kind: SimErrorKind::BarrierDivergence,
                message: format!(
                    "the thread waits at a {what} that thread {{T{t}}} of its block will never reach: it {other}"
                ),
                pc: at - 1,
                a: 0,
                b: 0,
                site: None,
                other: None,
            },
            first,
        ));
    }
    Ok(())
}

/// The race of a plain read that conflicted with another thread's atomic and was not followed by
/// the thread's own atomic access of the word before a barrier or its exit.
fn unvalidated_read(g: Guess) -> Fault {
    Fault {
        kind: SimErrorKind::SharedRace,
        message: format!(
            "read of shared byte {} races with an atomic access by {} since the last barrier",
            g.offset,
            if g.other == super::detect::MANY {
                "several other threads"
            } else {
                "thread {OTHER}"
            }
        ),
        pc: g.pc,
        a: 0,
        b: 0,
        site: None,
        other: (g.other != super::detect::MANY).then_some(g.other),
    }
}

/// What ptxas would refuse for the target, whatever the launch: an intrinsic newer than the
/// target, static shared memory above its limit.
fn check_target(kernel: &Kernel, cfg: &SimLaunch, prog: &Program) -> Result<(), SimError> {
    let target = cfg.target;
    let mut e = SimError::host(SimErrorKind::TargetLimit, String::new());
    e.kernel = kernel.display_name.clone();
    if let Some((op, def)) = prog.too_new {
        let f = Fault {
            kind: SimErrorKind::TargetLimit,
            message: format!(
                "`{}` needs sm_{} or newer, but the target is {target}",
                def.name, def.min_sm
            ),
            pc: op,
            a: 0,
            b: 0,
            site: None,
            other: None,
        };
        return Err(locate(kernel, prog, f, [0; 3], [0; 3], |_| [0; 3]));
    }
    if prog.shared_static_bytes > target.max_static_shared {
        let names: Vec<String> = kernel
            .shared
            .iter()
            .map(|s| format!("`{}` ({} bytes)", s.name, s.bytes))
            .collect();
        e.message = format!(
            "{} bytes of static shared memory ({}); {target} allows at most {} per block: \
             allocate beyond that as dynamic shared memory, with the opt-in",
            prog.shared_static_bytes,
            names.join(", "),
            target.max_static_shared
        );
        return Err(e);
    }
    Ok(())
}

/// The block's shared memory size, once the launch's dynamic part fits CUDA's rules: without the
/// opt-in attribute, static plus dynamic within the target's default; with it, dynamic within the
/// attribute and static plus the attribute within the target's opt-in limit.
fn check_shared(cfg: &SimLaunch, prog: &Program) -> Result<u64, (SimErrorKind, String)> {
    let target = cfg.target;
    let stat = prog.shared_static_bytes as u64;
    let dynamic = cfg.dyn_shared_bytes as u64;
    let invalid = |m: String| Err((SimErrorKind::InvalidLaunch, m));
    match cfg.max_dynamic_shared_bytes {
        None if stat + dynamic > target.default_shared_per_block as u64 => invalid(format!(
            "{stat} bytes of static and {dynamic} of dynamic shared memory exceed the {} bytes a \
             block of {target} gets without opting in (`cudaFuncAttributeMaxDynamicSharedMemorySize`)",
            target.default_shared_per_block
        )),
        Some(max) if stat + max as u64 > target.max_shared_per_block_optin as u64 => {
            invalid(format!(
                "the kernel's dynamic shared memory limit of {max} bytes plus its {stat} static \
                 bytes exceed the {} bytes a block of {target} may opt in to",
                target.max_shared_per_block_optin
            ))
        }
        Some(max) if dynamic > max as u64 => invalid(format!(
            "{dynamic} bytes of dynamic shared memory exceed the kernel's limit of {max} \
             (`cudaFuncAttributeMaxDynamicSharedMemorySize`)"
        )),
        _ => Ok(if dynamic > 0 {
            prog.dyn_offset as u64 + dynamic
        } else {
            stat
        }),
    }
}

fn barrier_call(prog: &Program, pc: usize) -> usize {
    match prog.ops[pc - 1] {
        Op::Barrier { call } | Op::Warp { call } => call as usize,
        _ => unreachable!("parked thread not after a barrier or collective"),
    }
}

/// Every live thread must wait at the same barrier.
fn check_barrier(
    prog: &Program,
    pcs: &[usize],
    status: &[Status],
    first: usize,
) -> Result<(), (Fault, usize)> {
    let at = pcs[first];
    let diverge = |message: String| {
        Err((
            Fault {
                kind: SimErrorKind::BarrierDivergence,
                message,
                pc: at - 1,
                a: 0,
                b: 0,
                site: None,
                other: None,
            },
            first,
        ))
    };
    for (t, s) in status.iter().enumerate() {
        match s {
            Status::Done => {
                return diverge(format!(
                    "the thread waits at a barrier that thread {{T{t}}} will never reach: it has exited"
                ))
            }
            Status::Barrier if pcs[t] != at => {
                let (inst, _, src) = prog.locs[pcs[t] - 1];
                let other = match src.map(|s| prog.srcs[s as usize]) {
                    Some(l) => format!("{}:{}:{}", l.file, l.line, l.col),
                    None => format!("IR instruction #{inst}"),
                };
                return diverge(format!(
                    "the thread waits at this barrier while thread {{T{t}}} waits at another one ({other})"
                ));
            }
            _ => {}
        }
    }
    Ok(())
}

/// Gathers, per warp and program point, the lanes parked at a collective and runs it. Returns
/// whether any fired: none does when every waiting collective waits for a lane held at a read of
/// uninitialised shared memory.
fn fire_warps(
    m: &mut Machine,
    regs: &mut [u64],
    pcs: &[usize],
    status: &mut [Status],
    n: usize,
    stats: &mut SimStats,
) -> Result<bool, (Fault, usize)> {
    let nthreads = status.len();
    let mut fired = false;
    for w in 0..nthreads.div_ceil(32) {
        let lanes = w * 32..(w * 32 + 32).min(nthreads);
        let mut points: Vec<usize> = lanes
            .clone()
            .filter(|&t| status[t] == Status::Warp)
            .map(|t| pcs[t])
            .collect();
        points.sort_unstable();
        points.dedup();
        // A collective whose mask names lanes parked at another collective of this warp (or held
        // at a read) waits for them (they run on once theirs fires), unless every point is
        // waiting that way: then the first one reports the mismatch.
        let held = lanes
            .clone()
            .filter(|&t| status[t] == Status::Held)
            .fold(0u32, |b, t| b | 1 << (t % 32));
        let waits_elsewhere = |pc: usize| -> bool {
            let call = &m.prog.calls[barrier_call(m.prog, pc)];
            let Some(&mask_slot) = call.args.first() else {
                return false;
            };
            let elsewhere = lanes
                .clone()
                .filter(|&t| status[t] == Status::Warp && pcs[t] != pc)
                .fold(held, |b, t| b | 1 << (t % 32));
            lanes
                .clone()
                .filter(|&t| status[t] == Status::Warp && pcs[t] == pc)
                .any(|t| regs[t * n + mask_slot as usize] as u32 & elsewhere != 0)
        };
        let ready: Vec<usize> = points
            .iter()
            .copied()
            .filter(|&pc| !waits_elsewhere(pc))
            .collect();
        let points = match (ready.is_empty(), held) {
            (false, _) => ready,
            // The held read is reported once nothing else can run.
            (true, h) if h != 0 => continue,
            (true, _) => {
                points.truncate(1);
                points
            }
        };
        for pc in points {
            let group: Vec<u32> = lanes
                .clone()
                .filter(|&t| status[t] == Status::Warp && pcs[t] == pc)
                .map(|t| t as u32)
                .collect();
            let call = &m.prog.calls[barrier_call(m.prog, pc)];
            let mismatch = |message: String, t: u32| {
                let f = Fault {
                    kind: SimErrorKind::WarpMaskMismatch,
                    message: format!("`{}`: {message}", call.def.name),
                    pc: pc - 1,
                    a: 0,
                    b: 0,
                    site: None,
                    other: None,
                };
                Err((f, t as usize))
            };
            if call.def.args.first() == Some(&Ty::U32) {
                if let Some(msg) = masks_disagree(&group, |t| {
                    regs[t as usize * n + call.args[0] as usize] as u32
                }) {
                    return mismatch(msg.0, msg.1);
                }
            }
            let mut args: Vec<Option<Vec<u64>>> = vec![None; 32];
            for &t in &group {
                let t = t as usize;
                args[t % 32] = Some(
                    call.args
                        .iter()
                        .map(|&s| regs[t * n + s as usize])
                        .collect(),
                );
            }
            let mut out = vec![vec![0u64; call.dsts.len()]; 32];
            let sim = call.def.sim_warp.expect("checked when lowering");
            if let Err(msg) = sim(&args, &mut out) {
                return mismatch(msg, group[0]);
            }
            for &t in &group {
                let t = t as usize;
                for ((&d, &v), ty) in call.dsts.iter().zip(&out[t % 32]).zip(call.def.rets) {
                    regs[t * n + d as usize] = exec::canonical(*ty, v);
                }
                status[t] = Status::Run;
            }
            // The shadow tells blocks apart by id (`Machine::tid_base`, a whole number of warps).
            let base = m.tid_base;
            let ids: Vec<u32> = group.iter().map(|&t| t + base).collect();
            m.shadow.warp_sync(w + base as usize / 32, &ids);
            stats.warp_collectives += 1;
            fired = true;
        }
    }
    Ok(fired)
}

/// CUDA requires every lane a collective's mask names to pass the same mask (lanes of disjoint
/// masks may share the call). Returns the message and the lane (linear id) of the first breach.
fn masks_disagree(group: &[u32], mask_of: impl Fn(u32) -> u32) -> Option<(String, u32)> {
    for &t in group {
        let mask = mask_of(t);
        for &l in group {
            let other = mask_of(l);
            if mask & 1 << (l % 32) != 0 && other != mask {
                return Some((
                    format!(
                        "lane {} passes mask {mask:#010x} but lane {}, which that mask names, passes \
                         {other:#010x}; every lane a mask names must pass the same mask",
                        t % 32,
                        l % 32
                    ),
                    t,
                ));
            }
        }
    }
    None
}

/// Turns a thread's fault into the launch's error, with source location and ids.
fn locate(
    kernel: &Kernel,
    prog: &Program,
    f: Fault,
    block: [u32; 3],
    thread: [u32; 3],
    tid_of: impl Fn(usize) -> [u32; 3],
) -> SimError {
    let (inst, near, src) = prog.locs[f.pc];
    let site = f.site.or(near);
    let ps = site.and_then(|s| kernel.panic_sites.get(s.0 as usize));
    let (kind, mut message) = match (&f.kind, f.site.and(ps)) {
        (SimErrorKind::Panic(_), Some(ps)) => (
            SimErrorKind::Panic(ps.kind.clone()),
            ps.kind.message(f.a, f.b),
        ),
        (SimErrorKind::Panic(_), None) => (
            SimErrorKind::MalformedIr,
            format!(
                "panic site {:?} is not in the kernel's `panic_sites`",
                f.site.map(|s| s.0)
            ),
        ),
        _ => (f.kind.clone(), f.message.clone()),
    };
    let fmt = |t: [u32; 3]| format!("({},{},{})", t[0], t[1], t[2]);
    if let Some(o) = f.other {
        message = message.replace("{OTHER}", &fmt(tid_of(o as usize)));
    }
    // `{T<n>}` placeholders name other threads by linear id.
    while let Some(i) = message.find("{T") {
        let Some(j) = message[i..].find('}') else {
            break;
        };
        let t: usize = message[i + 2..i + j].parse().unwrap_or(0);
        message.replace_range(i..i + j + 1, &fmt(tid_of(t)));
    }
    // A panic is located at its site; everything else at the source marker in force, falling back
    // to the nearest panic site for IR built without markers.
    let marker = match f.site {
        Some(_) => None,
        None => src.map(|s| prog.srcs[s as usize]),
    };
    let (file, line, col) = match (marker, ps) {
        (Some(l), _) => (l.file.to_string(), l.line, l.col),
        (None, Some(p)) => (p.file.clone(), p.line, p.col),
        (None, None) => (String::new(), 0, 0),
    };
    SimError {
        kind,
        kernel: kernel.display_name.clone(),
        file,
        line,
        col,
        block,
        thread,
        message,
        a: f.a,
        b: f.b,
        site: f.site,
        inst: Some(inst),
    }
}

fn check_dims(kernel: &Kernel, cfg: &SimLaunch) -> Result<(), String> {
    let t = cfg.target;
    let [bx, by, bz] = cfg.block;
    if cfg.grid.contains(&0) || cfg.block.contains(&0) {
        return Err(format!(
            "grid {:?} and block {:?} must be at least 1 in every dimension",
            cfg.grid, cfg.block
        ));
    }
    if cfg.grid.iter().zip(t.max_grid_dim).any(|(&g, max)| g > max) {
        return Err(format!(
            "grid {:?} exceeds {:?}, the largest grid of {t}",
            cfg.grid, t.max_grid_dim
        ));
    }
    let c = cluster_of(kernel, cfg);
    if c != [1, 1, 1] || kernel.attrs.cluster_dims.is_some() {
        if t.sm < 90 {
            return Err(format!(
                "thread block clusters need sm_90; the target is {t}"
            ));
        }
        if let Some(k) = kernel
            .attrs
            .cluster_dims
            .filter(|&k| cfg.cluster != [1, 1, 1] && cfg.cluster != k)
        {
            return Err(format!(
                "cluster {:?} is not the kernel's cluster_dims {k:?}",
                cfg.cluster
            ));
        }
        if c.contains(&0) || c.iter().product::<u32>() > 16 {
            return Err(format!(
                "cluster {c:?} must be 1 to 16 blocks, at least 1 along each axis"
            ));
        }
        if cfg.grid.iter().zip(c).any(|(&g, c)| g % c != 0) {
            return Err(format!(
                "grid {:?} is not a whole number of clusters {c:?}",
                cfg.grid
            ));
        }
    }
    let threads = bx as u64 * by as u64 * bz as u64;
    if cfg
        .block
        .iter()
        .zip(t.max_block_dim)
        .any(|(&b, max)| b > max)
        || threads > t.max_threads_per_block as u64
    {
        return Err(format!(
            "block {:?} exceeds {} threads or {:?}, the limits of {t}",
            cfg.block, t.max_threads_per_block, t.max_block_dim
        ));
    }
    if let Some(d) = kernel.attrs.block_dim {
        if [bx, by, bz] != d {
            return Err(format!(
                "block {:?} is not the kernel's required block_dim ({}, {}, {})",
                cfg.block, d[0], d[1], d[2]
            ));
        }
    }
    if let Some(max) = kernel.attrs.max_threads {
        if threads > max as u64 {
            return Err(format!(
                "block of {threads} threads exceeds the kernel's launch bound of {max}"
            ));
        }
    }
    Ok(())
}

/// Copies each parameter's scalar pieces into the register template.
fn bind_params(kernel: &Kernel, params: &[&[u8]], prog: &mut Program) -> Result<(), String> {
    if params.len() != kernel.params.len() {
        return Err(format!(
            "{} parameter buffers given; the kernel takes {}",
            params.len(),
            kernel.params.len()
        ));
    }
    for (p, bytes) in kernel.params.iter().zip(params) {
        if bytes.len() != p.size as usize {
            return Err(format!(
                "parameter `{}` is {} bytes; {} given",
                p.name,
                p.size,
                bytes.len()
            ));
        }
        if let ParamKind::Slice { elem_bytes, .. } = p.kind {
            let len = u64::from_le_bytes(
                bytes
                    .get(8..16)
                    .and_then(|b| b.try_into().ok())
                    .unwrap_or([0; 8]),
            );
            if elem_bytes > 0 && len.checked_mul(elem_bytes as u64).is_none() {
                return Err(format!(
                    "slice parameter `{}` has impossible length {len}",
                    p.name
                ));
            }
        }
        if let ParamKind::GridConstant { .. } = p.kind {
            // The piece is the parameter's address: a handle of its bytes.
            let i = prog.grid_constants.len();
            prog.grid_constants.push(bytes.to_vec());
            for &(_, v) in &p.pieces {
                if let Some(slot) = prog.template.get_mut(v.0 as usize) {
                    *slot = kernel_ir::tensor_map::grid_constant_handle(i);
                }
            }
            continue;
        }
        prog.grid_constants.push(Vec::new());
        for &(off, v) in &p.pieces {
            let ty = kernel.vars.get(v.0 as usize).copied().ok_or_else(|| {
                format!(
                    "parameter `{}` names variable {v}, which does not exist",
                    p.name
                )
            })?;
            let range = off as usize..off as usize + ty.bytes() as usize;
            let piece = bytes.get(range).ok_or_else(|| {
                format!(
                    "parameter `{}` piece at offset {off} lies outside its {} bytes",
                    p.name, p.size
                )
            })?;
            prog.template[v.0 as usize] = super::ops::from_bytes(ty, piece);
        }
    }
    Ok(())
}

/// splitmix64: a tiny deterministic generator for the block shuffle.
fn splitmix(s: &mut u64) -> u64 {
    *s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *s;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Grids up to this many blocks are shuffled with Fisher-Yates over a materialised order.
const MAX_MATERIALISED_BLOCKS: u64 = 1 << 24;
/// Cap on one block's register file (u64 words), far above any real kernel's local memory.
const MAX_REGISTER_WORDS: u64 = 1 << 28;

/// The linear block ids in launch order, without materialising huge grids: those get a seeded
/// affine permutation `i -> (a * i + c) mod n` with `a` coprime to `n`.
enum BlockSequence {
    Range(std::ops::Range<u64>),
    List(std::vec::IntoIter<u64>),
    Affine { n: u64, a: u64, c: u64, i: u64 },
}

impl BlockSequence {
    fn new(n: u64, order: BlockOrder) -> Self {
        let BlockOrder::Shuffled(seed) = order else {
            return BlockSequence::Range(0..n);
        };
        let mut s = seed;
        if n <= MAX_MATERIALISED_BLOCKS {
            let mut v: Vec<u64> = (0..n).collect();
            for i in (1..v.len()).rev() {
                let j = (splitmix(&mut s) % (i as u64 + 1)) as usize;
                v.swap(i, j);
            }
            return BlockSequence::List(v.into_iter());
        }
        let mut a = splitmix(&mut s) % n;
        while gcd(a, n) != 1 {
            a = (a + 1) % n;
        }
        let c = splitmix(&mut s) % n;
        BlockSequence::Affine { n, a, c, i: 0 }
    }
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl Iterator for BlockSequence {
    type Item = u64;
    fn next(&mut self) -> Option<u64> {
        match self {
            BlockSequence::Range(r) => r.next(),
            BlockSequence::List(l) => l.next(),
            BlockSequence::Affine { n, a, c, i } => {
                if *i == *n {
                    return None;
                }
                let v = ((*a as u128 * *i as u128 + *c as u128) % *n as u128) as u64;
                *i += 1;
                Some(v)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn affine_block_orders_are_permutations() {
        for n in [1u64, 2, 12, 97, 1000] {
            let mut s = n;
            let mut a = splitmix(&mut s) % n;
            while gcd(a, n) != 1 {
                a = (a + 1) % n;
            }
            let seq = BlockSequence::Affine {
                n,
                a,
                c: splitmix(&mut s) % n,
                i: 0,
            };
            let mut v: Vec<u64> = seq.collect();
            v.sort_unstable();
            assert_eq!(v, (0..n).collect::<Vec<_>>());
        }
    }
}
