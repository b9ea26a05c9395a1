//! Runs a launch: validates it, lowers the kernel, then runs blocks one at a time in the requested
//! order. Within a block, threads run in linear-id order, each until it exits or parks; when none
//! can run, warp collectives fire (lanes gathered per warp and program point), then a barrier
//! releases if every live thread waits at that same barrier, and anything else is reported as
//! divergence instead of hanging.

use super::compile::{self, Op, Program};
use super::detect::Shadow;
use super::error::{SimError, SimErrorKind};
use super::exec::{self, Fault, Machine, Stop};
use super::memory::GlobalMemory;
use super::{BlockOrder, SimLaunch, SimStats};
use kernel_ir::ir::{Kernel, ParamKind};

/// Largest shared memory per block of the GPUs we target (sm_90 with the opt-in carve-out).
pub const MAX_SHARED_BYTES: u32 = 227 * 1024;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Status {
    Run,
    /// Parked after the barrier / collective at op `pc - 1`.
    Barrier,
    Warp,
    Done,
}

pub(crate) fn launch(
    kernel: &Kernel,
    cfg: &SimLaunch,
    params: &[&[u8]],
    mem: &mut GlobalMemory,
    max_instructions: u64,
) -> Result<SimStats, SimError> {
    let err = |kind, message: String| {
        let mut e = SimError::host(kind, message);
        e.kernel = kernel.display_name.clone();
        e
    };
    check_dims(kernel, cfg).map_err(|m| err(SimErrorKind::InvalidLaunch, m))?;
    // Stacks of a launch that stopped early.
    mem.release_stacks();
    let mut prog = compile::lower(kernel, cfg.dyn_shared_bytes)?;
    let shared_bytes = if cfg.dyn_shared_bytes > 0 {
        prog.dyn_offset as u64 + cfg.dyn_shared_bytes as u64
    } else {
        prog.shared_static_bytes as u64
    };
    if shared_bytes > MAX_SHARED_BYTES as u64 {
        return Err(err(
            SimErrorKind::InvalidLaunch,
            format!("the block needs {shared_bytes} bytes of shared memory; at most {MAX_SHARED_BYTES} exist"),
        ));
    }
    bind_params(kernel, params, &mut prog).map_err(|m| err(SimErrorKind::InvalidParams, m))?;

    let [gx, gy, gz] = cfg.grid;
    let nblocks = gx as u64 * gy as u64 * gz as u64;
    let order = BlockSequence::new(nblocks, cfg.block_order);
    let [bx, by, bz] = cfg.block;
    let nthreads = (bx * by * bz) as usize;
    let tid_of = |t: usize| {
        let t = t as u32;
        [t % bx, (t / bx) % by, t / (bx * by)]
    };

    let reg_words = nthreads as u64 * prog.nslots as u64;
    if reg_words > MAX_REGISTER_WORDS {
        return Err(err(
            SimErrorKind::InvalidLaunch,
            format!(
                "{} registers and local array elements per thread are too many for {nthreads} threads",
                prog.nslots
            ),
        ));
    }
    let mut regs = vec![0u64; reg_words as usize];
    let mut pcs = vec![0usize; nthreads];
    let mut status = vec![Status::Run; nthreads];
    let mut shared = vec![0u8; shared_bytes as usize];
    let mut shadow = Shadow::new();
    let mut stats = SimStats::default();
    let mut hint = 0usize;
    let n = prog.nslots;

    for b in order {
        let block_idx = [
            (b % gx as u64) as u32,
            ((b / gx as u64) % gy as u64) as u32,
            (b / (gx as u64 * gy as u64)) as u32,
        ];
        for chunk in regs.chunks_exact_mut(n.max(1)).take(nthreads) {
            chunk.copy_from_slice(&prog.template[..n]);
        }
        pcs.fill(0);
        status.fill(Status::Run);
        shadow.start_block(shared.len(), nthreads);
        let mut m = Machine {
            prog: &prog,
            global: mem,
            shared: &mut shared,
            shadow: &mut shadow,
            hint,
            icount: stats.instructions,
            max_instructions,
            block_idx,
            block_dim: cfg.block,
            grid_dim: cfg.grid,
        };
        let located = |f: Fault, t: usize| locate(kernel, &prog, f, block_idx, tid_of(t), tid_of);
        loop {
            for t in 0..nthreads {
                if status[t] != Status::Run {
                    continue;
                }
                let r = &mut regs[t * n..(t + 1) * n];
                match exec::run(&mut m, r, &mut pcs[t], t as u32, tid_of(t)) {
                    Ok(Stop::Exit) => status[t] = Status::Done,
                    Ok(Stop::Barrier) => status[t] = Status::Barrier,
                    Ok(Stop::Warp) => status[t] = Status::Warp,
                    Err(f) => return Err(located(f, t)),
                }
            }
            if status.contains(&Status::Warp) {
                fire_warps(&mut m, &mut regs, &pcs, &mut status, n, &mut stats)
                    .map_err(|(f, t)| located(f, t))?;
                continue;
            }
            let Some(first) = status.iter().position(|s| *s == Status::Barrier) else {
                break;
            };
            check_barrier(&prog, &pcs, &status, first).map_err(|(f, t)| located(f, t))?;
            let call = &prog.calls[barrier_call(&prog, pcs[first])];
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
                    located(f, first)
                })?;
                for (t, o) in out.iter().enumerate() {
                    for ((&d, &v), ty) in call.dsts.iter().zip(o).zip(call.def.rets) {
                        regs[t * n + d as usize] = exec::canonical(*ty, v);
                    }
                }
            }
            m.shadow.barrier();
            stats.barriers += 1;
            status.fill(Status::Run);
        }
        // The block's threads are gone, and their `alloca` stacks with them.
        m.global.release_stacks();
        hint = m.hint;
        stats.instructions = m.icount;
        stats.blocks += 1;
        stats.threads += nthreads as u64;
    }
    Ok(stats)
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

/// Gathers, per warp and program point, the lanes parked at a collective and runs it.
fn fire_warps(
    m: &mut Machine,
    regs: &mut [u64],
    pcs: &[usize],
    status: &mut [Status],
    n: usize,
    stats: &mut SimStats,
) -> Result<(), (Fault, usize)> {
    let nthreads = status.len();
    for w in 0..nthreads.div_ceil(32) {
        let lanes = w * 32..(w * 32 + 32).min(nthreads);
        let mut points: Vec<usize> = lanes
            .clone()
            .filter(|&t| status[t] == Status::Warp)
            .map(|t| pcs[t])
            .collect();
        points.sort_unstable();
        points.dedup();
        // A collective whose mask names lanes parked at another collective of this warp waits
        // for them (they run on once theirs fires), unless every point is waiting that way: then
        // the first one reports the mismatch.
        let waits_elsewhere = |pc: usize| -> bool {
            let call = &m.prog.calls[barrier_call(m.prog, pc)];
            let Some(&mask_slot) = call.args.first() else {
                return false;
            };
            let elsewhere = lanes
                .clone()
                .filter(|&t| status[t] == Status::Warp && pcs[t] != pc)
                .fold(0u32, |b, t| b | 1 << (t % 32));
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
        let points = if ready.is_empty() {
            points.truncate(1);
            points
        } else {
            ready
        };
        for pc in points {
            let group: Vec<u32> = lanes
                .clone()
                .filter(|&t| status[t] == Status::Warp && pcs[t] == pc)
                .map(|t| t as u32)
                .collect();
            let call = &m.prog.calls[barrier_call(m.prog, pc)];
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
                let f = Fault {
                    kind: SimErrorKind::WarpMaskMismatch,
                    message: format!("`{}`: {msg}", call.def.name),
                    pc: pc - 1,
                    a: 0,
                    b: 0,
                    site: None,
                    other: None,
                };
                return Err((f, group[0] as usize));
            }
            for &t in &group {
                let t = t as usize;
                for ((&d, &v), ty) in call.dsts.iter().zip(&out[t % 32]).zip(call.def.rets) {
                    regs[t * n + d as usize] = exec::canonical(*ty, v);
                }
                status[t] = Status::Run;
            }
            m.shadow.warp_sync(w, &group);
            stats.warp_collectives += 1;
        }
    }
    Ok(())
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
    let [gx, gy, gz] = cfg.grid;
    let [bx, by, bz] = cfg.block;
    if cfg.grid.contains(&0) || cfg.block.contains(&0) {
        return Err(format!(
            "grid {:?} and block {:?} must be at least 1 in every dimension",
            cfg.grid, cfg.block
        ));
    }
    if gx > i32::MAX as u32 || gy > 65535 || gz > 65535 {
        return Err(format!(
            "grid {:?} exceeds ({}, 65535, 65535)",
            cfg.grid,
            i32::MAX
        ));
    }
    let threads = bx as u64 * by as u64 * bz as u64;
    if bx > 1024 || by > 1024 || bz > 64 || threads > 1024 {
        return Err(format!(
            "block {:?} exceeds 1024 threads or (1024, 1024, 64)",
            cfg.block
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
