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
