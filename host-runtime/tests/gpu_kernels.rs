//! Raw modules and functions: JIT errors, launch validation on a real device, dynamic shared
//! memory opt-in, occupancy against the driver, launch overhead. Run on a GPU with `--ignored`.

mod common;

use std::ffi::c_void;
use std::time::Instant;

use common::{gpu, kernels, serial};
use cudarc::driver::sys;
use host_runtime::{DeviceBuffer, Error, KernelSlice, LaunchConfig, LaunchError, Module, Stream};
use kernel_std::api::Dim3;

const BAD_PTX: &str = ".version 7.0\n.target sm_70\n.address_size 64\n\n.visible .entry broken()\n{\n\t.reg .b32 %r<2>;\n\tbogus.u32 %r1, 1;\n\tret;\n}\n";

#[test]
#[ignore]
fn bad_ptx_is_a_jit_error_with_log_and_line() {
    let _g = serial();
    let Some(dev) = gpu() else { return };
    match Module::from_ptx(&dev, BAD_PTX) {
        Err(Error::Jit { log, ptx_line }) => {
            assert!(log.contains("bogus"), "log: {log}");
            assert_eq!(ptx_line, Some((8, "\tbogus.u32 %r1, 1;".to_string())));
        }
        Err(e) => panic!("expected a JIT error, got {e}"),
        Ok(_) => panic!("bad PTX loaded"),
    }
    assert!(matches!(
        Module::from_ptx(&dev, "a\0b"),
        Err(Error::InvalidValue(_))
    ));
    let m = kernels(&dev);
    assert!(matches!(m.function("nope"), Err(Error::Driver { .. })));
}

#[test]
#[ignore]
fn invalid_launches_are_rejected_before_the_driver() {
    let _g = serial();
    let Some(dev) = gpu() else { return };
    let m = kernels(&dev);
    let f = m.function("empty").unwrap();
    let s = Stream::new(&dev).unwrap();
    let launch = |grid: Dim3, block: Dim3, smem: u32| unsafe {
        f.launch_raw(
            &s,
            LaunchConfig {
                grid,
                block,
                shared_mem_bytes: smem,
                attrs: Default::default(),
            },
            &mut [],
        )
    };
    let one = Dim3::new(1, 1, 1);
    launch(one, one, 0).unwrap();
    let e = launch(one, Dim3::new(2048, 1, 1), 0).unwrap_err();
    assert!(
        matches!(
            e,
            Error::InvalidLaunch(LaunchError::BlockDimTooLarge { axis: 'x', .. })
        ),
        "{e}"
    );
    let e = launch(one, Dim3::new(64, 32, 1), 0).unwrap_err();
    assert!(
        matches!(
            e,
            Error::InvalidLaunch(LaunchError::TooManyThreads { threads: 2048, .. })
        ),
        "{e}"
    );
    let e = launch(Dim3::new(0, 1, 1), one, 0).unwrap_err();
    assert!(
        matches!(e, Error::InvalidLaunch(LaunchError::ZeroGrid { .. })),
        "{e}"
    );
    let e = launch(Dim3::new(1, 1 << 17, 1), one, 0).unwrap_err();
    assert!(
        matches!(
            e,
            Error::InvalidLaunch(LaunchError::GridDimTooLarge { axis: 'y', .. })
        ),
        "{e}"
    );
    let optin = dev.properties().shared_mem_per_block_optin;
    let e = launch(one, one, optin + 1).unwrap_err();
    assert!(
        matches!(
            e,
            Error::InvalidLaunch(LaunchError::SharedMemTooLarge { .. })
        ),
        "{e}"
    );
    s.synchronize().unwrap();
}

#[test]
#[ignore]
fn large_dynamic_shared_memory_is_opted_in_automatically() {
    let _g = serial();
    let Some(dev) = gpu() else { return };
    let m = kernels(&dev);
    let f = m.function("touch_dyn_smem").unwrap();
    let s = Stream::new(&dev).unwrap();
    let out = DeviceBuffer::<u32>::alloc(&dev, 1).unwrap();
    let optin = dev.properties().shared_mem_per_block_optin;
    for bytes in [1024u32, 64 * 1024, optin] {
        if bytes > optin {
            continue;
        }
        let mut b = bytes;
        let mut p = out.kernel_arg().ptr;
        let mut args = [
            &mut b as *mut u32 as *mut c_void,
            &mut p as *mut u64 as *mut c_void,
        ];
        let cfg = LaunchConfig {
            grid: Dim3::new(1, 1, 1),
            block: Dim3::new(32, 1, 1),
            shared_mem_bytes: bytes,
            attrs: Default::default(),
        };
        unsafe { f.launch_raw(&s, cfg, &mut args) }.unwrap_or_else(|e| panic!("{bytes} B: {e}"));
        s.synchronize().unwrap();
        assert_eq!(out.to_vec().unwrap(), vec![bytes]);
    }
}

#[test]
#[ignore]
fn occupancy_matches_the_driver() {
    let _g = serial();
    let Some(dev) = gpu() else { return };
    let m = kernels(&dev);
    for name in ["inc_u32", "spin", "touch_dyn_smem"] {
        let f = m.function(name).unwrap();
        for smem in [0u32, 16 * 1024] {
            let (mut g, mut b) = (0i32, 0i32);
            let r = unsafe {
                sys::cuOccupancyMaxPotentialBlockSize(
                    &mut g,
                    &mut b,
                    f.raw(),
                    None,
                    smem as usize,
                    0,
                )
            };
            assert_eq!(r, sys::CUresult::CUDA_SUCCESS);
            assert_eq!(
                f.max_potential_block_size(smem).unwrap(),
                (g as u32, b as u32)
            );
            let cfg = LaunchConfig::occupancy_based(&f, 1 << 20, smem).unwrap();
            assert_eq!(cfg.block.x, b as u32);
            assert_eq!(cfg.grid.x, (1u32 << 20).div_ceil(b as u32));
            assert_eq!(cfg.shared_mem_bytes, smem);
            for block in [32u32, 128, 256, 1024] {
                let mut n = 0i32;
                let r = unsafe {
                    sys::cuOccupancyMaxActiveBlocksPerMultiprocessor(
                        &mut n,
                        f.raw(),
                        block as i32,
                        smem as usize,
                    )
                };
                assert_eq!(r, sys::CUresult::CUDA_SUCCESS);
                assert_eq!(f.max_active_blocks_per_sm(block, smem).unwrap(), n as u32);
            }
        }
        // Too large is an error, never a wrapped value: a block of 3e9 threads would become a
        // negative `int`, and a grid cut at the device's limit would skip elements.
        assert!(matches!(
            f.max_active_blocks_per_sm(3_000_000_000, 0),
            Err(Error::InvalidValue(_))
        ));
        assert!(matches!(
            LaunchConfig::occupancy_based(&f, usize::MAX, 0),
            Err(Error::InvalidLaunch(LaunchError::TooManyElements { .. }))
        ));
    }
}

#[test]
#[ignore]
fn raw_launches_succeed_and_their_overhead_is_reported() {
    let _g = serial();
    let Some(dev) = gpu() else { return };
    let m = kernels(&dev);
    let f = m.function("empty").unwrap();
    let s = Stream::new(&dev).unwrap();
    let cfg = LaunchConfig::for_elements(1, 1);
    // 60,000 launches take minutes under compute-sanitizer, where the numbers mean nothing:
    // there a few launches check that both paths work.
    let n = kernel_testkit::sanitizer::rounds(1000, 10);
    // The module's entries take a panic slot last; 0 means "no reporting".
    let mut no_slot = 0u64;
    let mut raw_args = [&mut no_slot as *mut u64 as *mut std::ffi::c_void];
    let (mut best_raw, mut best_ours) = (f64::MAX, f64::MAX);
    for _ in 0..kernel_testkit::sanitizer::rounds(30, 1) {
        let t = Instant::now();
        for _ in 0..n {
            let r = unsafe {
                sys::cuLaunchKernel(
                    f.raw(),
                    1,
                    1,
                    1,
                    1,
                    1,
                    1,
                    0,
                    s.raw(),
                    raw_args.as_mut_ptr(),
                    std::ptr::null_mut(),
                )
            };
            assert_eq!(r, sys::CUresult::CUDA_SUCCESS);
        }
        best_raw = best_raw.min(t.elapsed().as_secs_f64() * 1e6 / f64::from(n));
        s.synchronize().unwrap();
        let t = Instant::now();
        for _ in 0..n {
            unsafe { f.launch_raw(&s, cfg, &mut []) }.unwrap();
        }
        best_ours = best_ours.min(t.elapsed().as_secs_f64() * 1e6 / f64::from(n));
        s.synchronize().unwrap();
    }
    let overhead = best_ours - best_raw;
    eprintln!(
        "cuLaunchKernel {best_raw:.3} us, launch_raw {best_ours:.3} us, overhead {overhead:.3} us"
    );
    // Timing is the benchmark's job (`cargo xtask bench launch` reports medians of many batches); a
    // timed assertion here would make the suite flaky, so this only prints.
}
