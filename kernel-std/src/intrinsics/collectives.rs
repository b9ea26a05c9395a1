//! Simulator semantics of CUDA's warp collectives, as `SimWarpFn`s for the intrinsic table.
//!
//! Argument order follows the CUDA functions: `mask` first, then the value, then the lane
//! selector, then `width` (`__shfl_sync(mask, var, srcLane, width)`); values travel as raw bits,
//! so one function serves every 32- and 64-bit type. Each collective checks CUDA's rules for the
//! lanes gathered at it: every lane named in a mask must be taking part, every participant must
//! name itself, and a shuffle must read from a participating lane.

type Args<'a> = &'a [Option<Vec<u64>>];

fn participants(args: Args) -> u32 {
    args.iter()
        .enumerate()
        .filter(|(_, a)| a.is_some())
        .fold(0, |m, (l, _)| m | 1 << l)
}

/// Checks the masks (argument 0) of all participants; returns the participant set.
fn check_masks(args: Args) -> Result<u32, String> {
    let present = participants(args);
    for (lane, a) in args.iter().enumerate() {
        let Some(a) = a else { continue };
        let mask = a.first().copied().unwrap_or(0) as u32;
        if mask & (1 << lane) == 0 {
            return Err(format!(
                "lane {lane} calls it with mask {mask:#010x}, which does not include itself"
            ));
        }
        let missing = mask & !present;
        if missing != 0 {
            return Err(format!(
                "lane {lane}'s mask {mask:#010x} names lane {}, which is not taking part (exited, waiting elsewhere, or outside the block)",
                missing.trailing_zeros()
            ));
        }
    }
    Ok(present)
}

fn arg(args: Args, lane: usize, i: usize) -> u64 {
    args[lane]
        .as_ref()
        .and_then(|a| a.get(i).copied())
        .unwrap_or(0)
}

/// Shared body of the shuffles: `src(lane, selector, width)` picks the source lane.
fn shuffle(args: Args, out: &mut [Vec<u64>], src: fn(u32, u32, u32) -> u32) -> Result<(), String> {
    let present = check_masks(args)?;
    for lane in 0..args.len().min(32) {
        if args[lane].is_none() {
            continue;
        }
        let width = arg(args, lane, 3) as u32;
        if !width.is_power_of_two() || width > 32 {
            return Err(format!(
                "lane {lane} passes width {width}; it must be a power of two up to 32"
            ));
        }
        let from = src(lane as u32, arg(args, lane, 2) as u32, width);
        if present & (1 << from) == 0 {
            return Err(format!(
                "lane {lane} reads from lane {from}, which is not taking part"
            ));
        }
        let mask = arg(args, lane, 0) as u32;
        if mask & (1 << from) == 0 {
            return Err(format!(
                "lane {lane} reads from lane {from}, which its mask {mask:#010x} leaves out"
            ));
        }
        if let Some(o) = out[lane].first_mut() {
            *o = arg(args, from as usize, 1);
        }
    }
    Ok(())
}

/// `__shfl_sync(mask, var, src_lane, width)`.
pub fn sim_shfl_sync(args: Args, out: &mut [Vec<u64>]) -> Result<(), String> {
    shuffle(args, out, |lane, src, w| (lane & !(w - 1)) + (src % w))
}
/// `__shfl_up_sync(mask, var, delta, width)`: lanes below `delta` in their segment keep their value.
pub fn sim_shfl_up_sync(args: Args, out: &mut [Vec<u64>]) -> Result<(), String> {
    shuffle(
        args,
        out,
        |lane, d, w| if lane % w >= d { lane - d } else { lane },
    )
}
/// `__shfl_down_sync(mask, var, delta, width)`.
pub fn sim_shfl_down_sync(args: Args, out: &mut [Vec<u64>]) -> Result<(), String> {
    shuffle(args, out, |lane, d, w| {
        if (lane % w).saturating_add(d) < w {
            lane + d
        } else {
            lane
        }
    })
}
/// `__shfl_xor_sync(mask, var, lane_mask, width)`: reaching into a later segment keeps the value.
pub fn sim_shfl_xor_sync(args: Args, out: &mut [Vec<u64>]) -> Result<(), String> {
    shuffle(args, out, |lane, m, w| {
        let src = lane ^ (m & 31);
        if src >= (lane & !(w - 1)) + w {
            lane
        } else {
            src
        }
    })
}

fn vote(args: Args, out: &mut [Vec<u64>], f: fn(u32, u32) -> u64) -> Result<(), String> {
    check_masks(args)?;
    for lane in 0..args.len().min(32) {
        if args[lane].is_none() {
            continue;
        }
        let mask = arg(args, lane, 0) as u32;
        let ballot = (0..32)
            .filter(|&l| mask & (1 << l) != 0 && arg(args, l, 1) != 0)
            .fold(0u32, |b, l| b | 1 << l);
        if let Some(o) = out[lane].first_mut() {
            *o = f(ballot, mask);
        }
    }
    Ok(())
}

/// `__ballot_sync(mask, pred) -> u32`.
pub fn sim_ballot_sync(args: Args, out: &mut [Vec<u64>]) -> Result<(), String> {
    vote(args, out, |b, _| b as u64)
}
/// `__any_sync(mask, pred) -> bool`.
pub fn sim_any_sync(args: Args, out: &mut [Vec<u64>]) -> Result<(), String> {
    vote(args, out, |b, _| (b != 0) as u64)
}
/// `__all_sync(mask, pred) -> bool`.
pub fn sim_all_sync(args: Args, out: &mut [Vec<u64>]) -> Result<(), String> {
    vote(args, out, |b, m| (b == m) as u64)
}
/// `__syncwarp(mask)`: only the mask rules; the scheduler orders the lanes' memory accesses.
pub fn sim_sync_warp(args: Args, _out: &mut [Vec<u64>]) -> Result<(), String> {
    check_masks(args).map(|_| ())
}
/// `__activemask() -> u32`: the lanes that reached this point together.
pub fn sim_activemask(args: Args, out: &mut [Vec<u64>]) -> Result<(), String> {
    let present = participants(args);
    for (lane, o) in out.iter_mut().enumerate().take(32) {
        if present & (1 << lane) != 0 {
            if let Some(o) = o.first_mut() {
                *o = present as u64;
            }
        }
    }
    Ok(())
}

/// `__match_any_sync(mask, value) -> u32`: the lanes of `mask` holding the same bits as this lane.
pub fn sim_match_any_sync(args: Args, out: &mut [Vec<u64>]) -> Result<(), String> {
    check_masks(args)?;
    for lane in 0..args.len().min(32) {
        if args[lane].is_none() {
            continue;
        }
        let mask = arg(args, lane, 0) as u32;
        let mine = arg(args, lane, 1);
        let same = (0..32)
            .filter(|&l| mask & (1 << l) != 0 && arg(args, l, 1) == mine)
            .fold(0u32, |b, l| b | 1 << l);
        if let Some(o) = out[lane].first_mut() {
            *o = same as u64;
        }
    }
    Ok(())
}

/// `__match_all_sync(mask, value, &pred) -> u32`, as the pair (mask or 0, pred).
pub fn sim_match_all_sync(args: Args, out: &mut [Vec<u64>]) -> Result<(), String> {
    check_masks(args)?;
    for lane in 0..args.len().min(32) {
        if args[lane].is_none() {
            continue;
        }
        let mask = arg(args, lane, 0) as u32;
        let mine = arg(args, lane, 1);
        let all = (0..32).all(|l| mask & (1 << l) == 0 || arg(args, l, 1) == mine);
        if let [m, p, ..] = out[lane].as_mut_slice() {
            *m = if all { mask as u64 } else { 0 };
            *p = all as u64;
        }
    }
    Ok(())
}

/// Shared body of `__reduce_*_sync`: folds the 32-bit values of the lanes in each lane's mask.
fn reduce(args: Args, out: &mut [Vec<u64>], f: fn(u32, u32) -> u32) -> Result<(), String> {
    check_masks(args)?;
    for lane in 0..args.len().min(32) {
        if args[lane].is_none() {
            continue;
        }
        let mask = arg(args, lane, 0) as u32;
        let r = (0..32)
            .filter(|&l| mask & (1 << l) != 0)
            .map(|l| arg(args, l, 1) as u32)
            .reduce(f)
            .unwrap_or(0);
        if let Some(o) = out[lane].first_mut() {
            *o = r as u64;
        }
    }
    Ok(())
}

/// `__reduce_add_sync` (wrapping; the same bits for signed and unsigned).
pub fn sim_reduce_add_sync(args: Args, out: &mut [Vec<u64>]) -> Result<(), String> {
    reduce(args, out, u32::wrapping_add)
}
/// `__reduce_min_sync` on `unsigned`.
pub fn sim_reduce_min_u32_sync(args: Args, out: &mut [Vec<u64>]) -> Result<(), String> {
    reduce(args, out, u32::min)
}
/// `__reduce_max_sync` on `unsigned`.
pub fn sim_reduce_max_u32_sync(args: Args, out: &mut [Vec<u64>]) -> Result<(), String> {
    reduce(args, out, u32::max)
}
/// `__reduce_min_sync` on `int`.
pub fn sim_reduce_min_i32_sync(args: Args, out: &mut [Vec<u64>]) -> Result<(), String> {
    reduce(args, out, |a, b| (a as i32).min(b as i32) as u32)
}
/// `__reduce_max_sync` on `int`.
pub fn sim_reduce_max_i32_sync(args: Args, out: &mut [Vec<u64>]) -> Result<(), String> {
    reduce(args, out, |a, b| (a as i32).max(b as i32) as u32)
}
/// `__reduce_and_sync`.
pub fn sim_reduce_and_sync(args: Args, out: &mut [Vec<u64>]) -> Result<(), String> {
    reduce(args, out, |a, b| a & b)
}
/// `__reduce_or_sync`.
pub fn sim_reduce_or_sync(args: Args, out: &mut [Vec<u64>]) -> Result<(), String> {
    reduce(args, out, |a, b| a | b)
}
/// `__reduce_xor_sync`.
pub fn sim_reduce_xor_sync(args: Args, out: &mut [Vec<u64>]) -> Result<(), String> {
    reduce(args, out, |a, b| a ^ b)
}

/// Block-wide reducing barriers: `args[t]` is thread `t`'s predicate (every thread of the block).
fn block_votes(args: Args) -> (usize, usize) {
    let n = args.iter().flatten().count();
    let yes = args
        .iter()
        .flatten()
        .filter(|a| a.first().copied().unwrap_or(0) != 0)
        .count();
    (n, yes)
}
fn fill_all(out: &mut [Vec<u64>], v: u64) {
    for o in out.iter_mut() {
        if let Some(o) = o.first_mut() {
            *o = v;
        }
    }
}
/// `__syncthreads_count(pred) -> int`: how many threads of the block passed a true predicate.
pub fn sim_sync_threads_count(args: Args, out: &mut [Vec<u64>]) -> Result<(), String> {
    let (_, yes) = block_votes(args);
    fill_all(out, yes as u64);
    Ok(())
}
/// `__syncthreads_and(pred) -> int`: whether every thread's predicate was true.
pub fn sim_sync_threads_and(args: Args, out: &mut [Vec<u64>]) -> Result<(), String> {
    let (n, yes) = block_votes(args);
    fill_all(out, (n == yes) as u64);
    Ok(())
}
/// `__syncthreads_or(pred) -> int`: whether any thread's predicate was true.
pub fn sim_sync_threads_or(args: Args, out: &mut [Vec<u64>]) -> Result<(), String> {
    let (_, yes) = block_votes(args);
    fill_all(out, (yes != 0) as u64);
    Ok(())
}
