//! simplePrintf's output, compared as a set of lines with what every thread must print.
//!
//! CUDA's driver writes device printf text to the process's stdout (fd 1) when the host
//! synchronizes, out of reach of an in-process check; so the GPU test re-runs this test binary
//! as a child (`FERROCUDA_PRINTF_CHILD` set, only the one test selected) and reads its stdout.
//! The simulator is checked both ways: captured in process (`sim::capture_output`) and through
//! the same child-process path, which covers its default of printing to stdout.

use std::process::Command;

use ferrocuda::prelude::*;
use ferrocuda_examples::simple_printf;

const CHILD: &str = "FERROCUDA_PRINTF_CHILD";
const VAL: i32 = 10;

/// Runs test `name` of this binary alone in a child process (as the child) and returns its stdout.
fn child_stdout(name: &str) -> String {
    let exe = std::env::current_exe().expect("the test binary's path");
    let out = Command::new(exe)
        .args([name, "--exact", "--include-ignored", "--nocapture", "-q"])
        .env(CHILD, "1")
        .output()
        .expect("the test binary runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "child run of {name} failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

fn is_child() -> bool {
    std::env::var_os(CHILD).is_some()
}

#[test]
fn simple_printf_sim_captured() {
    simple_printf::check(&Device::simulator(), VAL).unwrap();
}

#[test]
fn simple_printf_sim_stdout() {
    if is_child() {
        return simple_printf::run(&Device::simulator(), VAL).unwrap();
    }
    let out = child_stdout("simple_printf_sim_stdout");
    simple_printf::check_output(&out, VAL).unwrap();
}

#[test]
fn printf_fifo_size_is_a_no_op_on_the_simulator() {
    let dev = Device::simulator();
    dev.set_printf_fifo_size(4 << 20).unwrap();
    assert!(matches!(
        dev.printf_fifo_size(),
        Err(ferrocuda::host_runtime::Error::Unsupported(_))
    ));
}

#[test]
fn capture_keeps_only_its_own_launches_output() {
    let dev = Device::simulator();
    let (r, outer) = ferrocuda::kernel_sim::capture_output(|| {
        let (r, inner) = ferrocuda::kernel_sim::capture_output(|| simple_printf::run(&dev, 1));
        r.unwrap();
        assert!(inner.contains("Value is:1\n"), "{inner}");
        simple_printf::run(&dev, 2)
    });
    r.unwrap();
    assert!(!outer.contains("Value is:1\n"), "{outer}");
    simple_printf::check_output(&outer, 2).unwrap();
}

fn gpu() -> Option<Device> {
    match Device::cuda(0) {
        Ok(d) => Some(d),
        Err(e) if std::env::var_os("FERROCUDA_REQUIRE_GPU").is_none() => {
            eprintln!("skipping GPU test: {e}");
            None
        }
        Err(e) => panic!("GPU required: {e}"),
    }
}

#[test]
#[ignore = "needs a GPU"]
fn simple_printf_gpu_stdout() {
    let Some(dev) = gpu() else { return };
    if is_child() {
        // A bigger buffer than the 1 MiB default, set before the first printing launch.
        dev.set_printf_fifo_size(4 << 20).unwrap();
        assert!(dev.printf_fifo_size().unwrap() >= 4 << 20);
        return simple_printf::run(&dev, VAL).unwrap();
    }
    drop(dev);
    let out = child_stdout("simple_printf_gpu_stdout");
    simple_printf::check_output(&out, VAL).unwrap();
}
