//! simplePrintf: every thread of a 2x2 grid of 2x2x2 blocks prints its block and thread number
//! and a value with device `printf` (CUDA guide B.32), here `gpu_println!`; a second kernel prints
//! one line exercising widths, alignment, zero padding, radixes and precision.
//!
//! Output goes where CUDA puts it: the process's stdout, written by the driver when the host
//! synchronizes (in no particular thread order), or by the simulator as each thread runs. So a
//! check compares sets of lines: [`expected_lines`] with what a run printed.

use ferrocuda::prelude::*;

#[kernel]
pub fn test_kernel(val: i32) {
    let b = block_idx();
    let t = thread_idx();
    let d = block_dim();
    let block = b.y * grid_dim().x + b.x;
    let thread = t.z * d.x * d.y + t.y * d.x + t.x;
    gpu_println!("[{}, {}]:\t\tValue is:{}", block, thread, val);
}

/// One line whose every placeholder prints exactly what Rust's `format!` prints for it, so the
/// host's `format!` with the same string is the reference ([`showcase_reference`]), and one line
/// whose float forms follow C (`%g` for `{}`, `e+00` exponents) as documented.
#[kernel]
pub fn format_showcase(a: u32, b: i32, c: i64, d: i8, e: u64, f: u16, x: f32, y: f64, h: f16) {
    if thread_idx().x == 0 {
        let z = (a / 6) as usize;
        gpu_println!(
            "{:>4}|{:<4}|{:05}|{:x}|{:#X}|{:o}|{:.3}|{:+.2}|{}|{1}|{z:>3}|{:.1}|{{ok}} 100%",
            a,
            b,
            c,
            d,
            e,
            f,
            x,
            y,
            z,
            h
        );
        gpu_println!("{} {} {:e} {:.2E} {:08.3}", x, y, y, x, -y);
    }
}

/// Grid and block of the simplePrintf sample.
pub fn config() -> LaunchConfig {
    LaunchConfig {
        grid: Dim3::new(2, 2, 1),
        block: Dim3::new(2, 2, 2),
        shared_mem_bytes: 0,
        attrs: Default::default(),
    }
}

/// The lines `test_kernel` prints for `val`, sorted.
pub fn expected_lines(val: i32) -> Vec<String> {
    let cfg = config();
    let (g, bd) = (cfg.grid, cfg.block);
    let mut lines = Vec::new();
    for by in 0..g.y {
        for bx in 0..g.x {
            for tz in 0..bd.z {
                for ty in 0..bd.y {
                    for tx in 0..bd.x {
                        let block = by * g.x + bx;
                        let thread = tz * bd.x * bd.y + ty * bd.x + tx;
                        lines.push(format!("[{block}, {thread}]:\t\tValue is:{val}"));
                    }
                }
            }
        }
    }
    lines.sort();
    lines
}

/// The showcase's arguments.
pub const SHOWCASE: (u32, i32, i64, i8, u64, u16, f32, f64, f32) =
    (42, -7, -42, -1, 0xBEEF, 8, 1.23456, 2.5, 0.75);

/// What `format_showcase` prints for [`SHOWCASE`]: the first line by Rust's own `format!`.
pub fn showcase_reference() -> Vec<String> {
    let (a, b, c, d, e, f, x, y, h) = SHOWCASE;
    let z = (a / 6) as usize;
    let h = f16::from_f32(h);
    vec![
        format!(
            "{:>4}|{:<4}|{:05}|{:x}|{:#X}|{:o}|{:.3}|{:+.2}|{}|{1}|{z:>3}|{:.1}|{{ok}} 100%",
            a, b, c, d, e, f, x, y, z, h
        ),
        // C's `%g`, `%e` and `%.2E` forms of 1.23456f32 and 2.5.
        "1.23456 2.5 2.500000e+00 1.23E+00 -002.500".to_string(),
    ]
}

/// Launches both kernels and synchronizes (which is when a GPU prints).
pub fn run(dev: &Device, val: i32) -> ferrocuda::host_runtime::Result<()> {
    let stream = dev.new_stream()?;
    test_kernel::launch(&stream, config(), val)?;
    let (a, b, c, d, e, f, x, y, h) = SHOWCASE;
    format_showcase::launch(
        &stream,
        LaunchConfig::for_elements(1, 32),
        a,
        b,
        c,
        d,
        e,
        f,
        x,
        y,
        f16::from_f32(h),
    )?;
    stream.synchronize()?;
    dev.synchronize()
}

/// Compares printed text with what the kernels must print, as sorted sets of lines; `printed`
/// may hold other lines too (a test harness's), which are ignored.
pub fn check_output(printed: &str, val: i32) -> Result<(), String> {
    let mut got: Vec<&str> = printed.lines().filter(|l| l.starts_with('[')).collect();
    got.sort_unstable();
    let want = expected_lines(val);
    if got != want {
        return Err(format!(
            "simplePrintf lines differ:\n got {got:#?}\nwant {want:#?}"
        ));
    }
    for line in showcase_reference() {
        if !printed.lines().any(|l| l == line) {
            return Err(format!("missing line {line:?} in output:\n{printed}"));
        }
    }
    Ok(())
}

/// On the simulator, runs with the output captured and checks it; on a GPU the driver writes to
/// the process's stdout, which this process cannot read back, so there it only checks that the
/// launches succeed (`examples/tests/simple_printf.rs` checks a GPU's text from a child process).
pub fn check(dev: &Device, val: i32) -> Result<(), String> {
    if dev.backend() == ferrocuda::host_runtime::BackendKind::Sim {
        let (r, text) = ferrocuda::kernel_sim::capture_output(|| run(dev, val));
        r.map_err(|e| e.to_string())?;
        check_output(&text, val)
    } else {
        run(dev, val).map_err(|e| e.to_string())
    }
}
