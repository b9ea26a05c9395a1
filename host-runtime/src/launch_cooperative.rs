//! The checks of a cooperative launch (`LaunchConfig::cooperative`, what `grid_sync()` needs)
//! before a backend sees it: the kernel's need for one, the device's support, and whether the
//! grid fits on the device at once. The driver would say `CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE`
//! for the last, and nothing at all for a kernel that spins on a barrier without one: it hangs.

use crate::launch_config::LaunchConfig;
use crate::launch_error::LaunchError;

/// The rules of `launch::validate` for cooperative launches: a kernel named by `grid_sync` (it
/// calls `grid_sync()`) needs one; the device must support them (`device_ok`); and a
/// cooperative launch may not also be programmatic (it could overlap the previous kernel's use
/// of the stream's barrier words).
pub(crate) fn validate_cooperative(
    cfg: &LaunchConfig,
    device_ok: bool,
    grid_sync: Option<&str>,
) -> Result<(), LaunchError> {
    if let (Some(kernel), false) = (grid_sync, cfg.attrs.cooperative) {
        return Err(LaunchError::GridSyncNeedsCooperative {
            kernel: kernel.to_string(),
        });
    }
    if !cfg.attrs.cooperative {
        return Ok(());
    }
    if !device_ok {
        return Err(LaunchError::CooperativeUnsupported);
    }
    if cfg.attrs.programmatic_serialization {
        return Err(LaunchError::CooperativeProgrammatic);
    }
    Ok(())
}

/// Whether a cooperative grid of `cfg` fits when `per_sm` of its blocks are resident per
/// multiprocessor and the device has `sms` of them (the occupancy the backend measured).
pub(crate) fn check_co_resident(
    cfg: &LaunchConfig,
    per_sm: u32,
    sms: u32,
) -> Result<(), LaunchError> {
    let blocks = cfg.grid.volume();
    let (per_sm, sms) = (u64::from(per_sm), u64::from(sms));
    if blocks > per_sm * sms {
        return Err(LaunchError::CooperativeGridTooLarge {
            blocks,
            per_sm,
            sms,
        });
    }
    Ok(())
}

/// The simulator's occupancy model (it knows no register counts): blocks of `threads` threads
/// using `shared` bytes of shared memory resident on one multiprocessor of a target with these
/// limits, the least of the block, thread (whole warps) and shared-memory limits.
pub(crate) fn modelled_blocks_per_sm(
    threads: u64,
    shared: u64,
    max_blocks: u32,
    max_threads: u32,
    shared_per_sm: u32,
) -> u32 {
    let warps_threads = threads.div_ceil(32).max(1) * 32;
    let by_threads = u64::from(max_threads) / warps_threads;
    // No shared memory: no limit from it.
    let by_shared = u64::from(shared_per_sm)
        .checked_div(shared)
        .unwrap_or(u64::MAX);
    by_threads.min(by_shared).min(u64::from(max_blocks)) as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use kernel_std::api::Dim3;

    fn grid(blocks: u32) -> LaunchConfig {
        LaunchConfig {
            grid: Dim3::new(blocks, 1, 1),
            ..LaunchConfig::for_elements(1, 256)
        }
    }

    #[test]
    fn grid_sync_kernels_need_a_cooperative_launch() {
        assert_eq!(
            validate_cooperative(&grid(4), true, Some("m::k")),
            Err(LaunchError::GridSyncNeedsCooperative {
                kernel: "m::k".into()
            })
        );
        assert_eq!(
            validate_cooperative(&grid(4).cooperative(), true, Some("m::k")),
            Ok(())
        );
        // Cooperative without grid_sync is allowed (CUDA allows it too).
        assert_eq!(
            validate_cooperative(&grid(4).cooperative(), true, None),
            Ok(())
        );
        assert_eq!(validate_cooperative(&grid(4), false, None), Ok(()));
    }

    #[test]
    fn device_support_and_pdl() {
        assert_eq!(
            validate_cooperative(&grid(4).cooperative(), false, None),
            Err(LaunchError::CooperativeUnsupported)
        );
        let both = grid(4).cooperative().programmatic_stream_serialization();
        assert_eq!(
            validate_cooperative(&both, true, None),
            Err(LaunchError::CooperativeProgrammatic)
        );
    }

    #[test]
    fn co_residency() {
        assert_eq!(check_co_resident(&grid(264), 2, 132), Ok(()));
        let e = check_co_resident(&grid(265), 2, 132).unwrap_err();
        assert_eq!(
            e,
            LaunchError::CooperativeGridTooLarge {
                blocks: 265,
                per_sm: 2,
                sms: 132
            }
        );
        assert!(e.to_string().contains("265 blocks"), "{e}");
        assert!(e.to_string().contains("is 264"), "{e}");
        // No block fits at all (too much shared memory): every grid is too large.
        assert!(check_co_resident(&grid(1), 0, 132).is_err());
    }

    #[test]
    fn simulator_occupancy_model() {
        // sm_80: 32 blocks, 2048 threads, 164 KiB per multiprocessor.
        let m = |t, s| modelled_blocks_per_sm(t, s, 32, 2048, 164 << 10);
        assert_eq!(m(256, 0), 8);
        assert_eq!(m(32, 0), 32);
        assert_eq!(
            m(33, 0),
            32,
            "a partial warp counts whole (64 threads), then the block limit"
        );
        assert_eq!(m(100, 0), 16, "100 threads take 4 warps");
        assert_eq!(m(64, 48 << 10), 3);
        assert_eq!(m(1024, 0), 2);
    }
}
