//! L2 access policy windows (launch attribute and stream attribute), the persisting-L2
//! set-aside and its reset, and stream priorities: each refused configuration is its own error
//! before the driver; the simulator accepts and records what a GPU would take, and a kernel
//! launched with a window computes what it computes without one. The same body runs on a GPU
//! with `--ignored`.

use ferrocuda::prelude::*;
use host_runtime::{AccessPolicyError, LaunchError, StreamOptions};

/// Reads `x` `rounds` times (the repeated-access pattern a persisting window helps).
#[kernel]
pub fn sum_rounds(x: &[u32], out: &mut [u32], rounds: u32) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    if i < out.len() {
        let mut acc = 0u32;
        let mut r = 0u32;
        while r < rounds {
            acc = acc.wrapping_add(x[(i + r as usize * 977) % x.len()]);
            r += 1;
        }
        out[i] = acc;
    }
}

fn body(dev: &Device) {
    let p = dev.properties().clone();
    assert!(p.max_access_policy_window_size > 0, "{p:?}");
    assert!(p.max_persisting_l2_cache_size > 0, "{p:?}");
    let s = dev.new_stream().unwrap();
    let n = 1 << 16;
    let x = dev
        .upload(&(0..n as u32).map(|v| v * 3).collect::<Vec<_>>())
        .unwrap();
    let mut out = dev.alloc_zeroed::<u32>(n).unwrap();
    let want: Vec<u32> = (0..n)
        .map(|i| {
            (0..4u32).fold(0u32, |a, r| {
                a.wrapping_add(((i + r as usize * 977) % n) as u32 * 3)
            })
        })
        .collect();

    // The set-aside, within the device's limit, and read back.
    let aside = (p.max_persisting_l2_cache_size as usize).min(4 << 20);
    dev.set_persisting_l2_cache_size(aside).unwrap();
    assert!(dev.persisting_l2_cache_size().unwrap() > 0);
    let too_much = p.max_persisting_l2_cache_size as usize + 1;
    assert!(matches!(
        dev.set_persisting_l2_cache_size(too_much),
        Err(Error::InvalidValue(m)) if m.contains("persisting L2")
    ));

    // A launch with a persisting window computes the same.
    let w = AccessPolicyWindow::persisting(&x, 0.75).unwrap();
    assert_eq!(w.base, x.device_ptr());
    assert_eq!(w.num_bytes, n * 4);
    let cfg = LaunchConfig::for_elements(n, 256);
    sum_rounds::launch(&s, cfg.access_policy(w), &x, &mut out, 4).unwrap();
    assert_eq!(out.to_vec().unwrap(), want);

    // Bad windows: each its own error, before the launch.
    for (bad, what) in [
        (
            AccessPolicyWindow {
                hit_ratio: 1.5,
                ..w
            },
            "hit_ratio",
        ),
        (
            AccessPolicyWindow {
                hit_ratio: f32::NAN,
                ..w
            },
            "hit_ratio",
        ),
        (
            AccessPolicyWindow {
                hit_ratio: -0.1,
                ..w
            },
            "hit_ratio",
        ),
        (
            AccessPolicyWindow {
                num_bytes: p.max_access_policy_window_size as usize + 1,
                ..w
            },
            "largest",
        ),
    ] {
        match sum_rounds::launch(&s, cfg.access_policy(bad), &x, &mut out, 4) {
            Err(Error::InvalidLaunch(LaunchError::AccessPolicy(e))) => {
                assert!(e.to_string().contains(what), "{e}")
            }
            other => panic!("{bad:?}: {other:?}"),
        }
        assert!(s.set_access_policy_window(bad).is_err());
    }
    assert_eq!(
        AccessPolicyWindow::for_buffer(
            &x,
            10..n + 1,
            1.0,
            AccessProperty::Persisting,
            AccessProperty::Normal
        )
        .unwrap_err(),
        AccessPolicyError::OutsideBuffer {
            start: 10,
            end: n + 1,
            len: n
        }
    );
    assert_eq!(
        AccessPolicyWindow::for_buffer(
            &x,
            5..5,
            1.0,
            AccessProperty::Persisting,
            AccessProperty::Normal
        )
        .unwrap_err(),
        AccessPolicyError::EmptyWindow
    );
    let part = AccessPolicyWindow::for_buffer(
        &x,
        256..1280,
        0.5,
        AccessProperty::Streaming,
        AccessProperty::Normal,
    )
    .unwrap();
    assert_eq!(part.base, x.device_ptr() + 1024);
    assert_eq!(part.num_bytes, 4096);

    // The stream attribute: set, recorded, used by the next launch, cleared.
    s.set_access_policy_window(w).unwrap();
    assert_eq!(s.access_policy_window(), Some(w));
    let mut out2 = dev.alloc_zeroed::<u32>(n).unwrap();
    sum_rounds::launch(&s, cfg, &x, &mut out2, 4).unwrap();
    assert_eq!(out2.to_vec().unwrap(), want);
    s.clear_access_policy_window().unwrap();
    assert_eq!(s.access_policy_window(), None);
    dev.reset_persisting_l2_cache().unwrap();

    // Stream priorities: the device's range, and a stream at its most urgent.
    let (least, greatest) = dev.stream_priority_range().unwrap();
    assert!(greatest <= least);
    let urgent = Stream::with_options(
        dev,
        StreamOptions {
            non_blocking: true,
            priority: greatest,
        },
    )
    .unwrap();
    let mut out3 = dev.alloc_zeroed::<u32>(n).unwrap();
    sum_rounds::launch(&urgent, cfg, &x, &mut out3, 4).unwrap();
    assert_eq!(out3.to_vec().unwrap(), want);
}

#[test]
fn l2_access_policy_sim() {
    body(&Device::simulator_with_arch(90).unwrap());
}

/// Before sm_80 there is no L2 access management: every window is refused.
#[test]
fn l2_access_policy_needs_sm80_sim() {
    let dev = Device::simulator_with_arch(75).unwrap();
    let s = dev.new_stream().unwrap();
    let x = dev.alloc_zeroed::<u32>(256).unwrap();
    let mut out = dev.alloc_zeroed::<u32>(256).unwrap();
    let w = AccessPolicyWindow::persisting(&x, 1.0).unwrap();
    assert!(matches!(
        sum_rounds::launch(
            &s,
            LaunchConfig::for_elements(256, 256).access_policy(w),
            &x,
            &mut out,
            1
        ),
        Err(Error::InvalidLaunch(LaunchError::AccessPolicy(
            AccessPolicyError::Unsupported
        )))
    ));
    assert!(dev.set_persisting_l2_cache_size(1 << 20).is_err());
}

#[test]
#[ignore = "needs an sm_80+ GPU"]
fn l2_access_policy_gpu() {
    let dev = match Device::cuda(0) {
        Ok(d) => d,
        Err(e) if std::env::var_os("FERROCUDA_REQUIRE_GPU").is_none() => {
            eprintln!("skipping GPU test: {e}");
            return;
        }
        Err(e) => panic!("GPU required: {e}"),
    };
    body(&dev);
}
