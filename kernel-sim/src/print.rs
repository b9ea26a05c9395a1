//! `Inst::Print` in the simulator: the arguments are packed into a buffer exactly as the PTX
//! emitter packs them for `vprintf`, then formatted with C rules (`printf::format_c`), so the
//! layout and the format string are exercised as on the GPU.
//!
//! Where the text goes: the process's stdout by default, one whole call per write, in the order
//! threads execute (CUDA's driver also writes to stdout, but only at synchronization points and in
//! an unspecified thread order). [`capture_output`] redirects the calls made on the current thread
//! into a string instead: a launch runs on the thread that issues it, so tests and the runtime's
//! per-device capture see exactly their own kernels' output, even with tests running in parallel.

use std::cell::RefCell;
use std::io::Write;

use super::compile::PrintCall;
use kernel_ir::ir::Ty;
use kernel_ir::printf::{format_c, layout};

thread_local! {
    static SINK: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Runs `f` with device printf output of this thread's launches collected instead of printed;
/// returns `f`'s result and the collected text. Nests: an inner capture takes its own output only.
pub fn capture_output<R>(f: impl FnOnce() -> R) -> (R, String) {
    let outer = SINK.with(|s| s.borrow_mut().replace(String::new()));
    let r = f();
    let text = SINK.with(|s| std::mem::replace(&mut *s.borrow_mut(), outer));
    (r, text.unwrap_or_default())
}

fn write(text: &str) {
    let captured = SINK.with(|s| match s.borrow_mut().as_mut() {
        Some(buf) => {
            buf.push_str(text);
            true
        }
        None => false,
    });
    if !captured {
        // A closed stdout loses the text, as it would on the GPU; it must not stop the kernel.
        let mut out = std::io::stdout().lock();
        let _ = out.write_all(text.as_bytes());
        let _ = out.flush();
    }
}

/// Formats and writes one call from the thread's registers; `Err` describes a malformed call.
pub(crate) fn run(call: &PrintCall, regs: &[u64]) -> Result<(), String> {
    let tys: Vec<Ty> = call.args.iter().map(|&(_, t)| t).collect();
    let (offsets, size) = layout(&tys);
    let mut buf = vec![0u8; size as usize];
    for (&(slot, ty), &off) in call.args.iter().zip(&offsets) {
        let bits = regs.get(slot as usize).copied().unwrap_or(0);
        let n = ty.bytes().max(4) as usize;
        let off = off as usize;
        buf[off..off + n].copy_from_slice(&bits.to_le_bytes()[..n]);
    }
    let text = format_c(&call.format, &buf)?;
    write(&text);
    Ok(())
}
