//! Host callbacks: Rust closures run by the driver's callback thread, once
//! (`Stream::launch_host_fn`, a [`HostCall`]) or at every run of a graph's host node
//! ([`HostNode`]).
//!
//! A panic in one must not unwind into the driver (that is undefined behaviour), so the trampolines
//! catch it and store the message on the stream, for its next synchronize. Callbacks must not
//! call into CUDA (a driver rule).

use std::any::Any;
use std::ffi::c_void;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Mutex};

/// What the driver carries to the callback thread.
pub(crate) struct HostCall {
    pub(crate) f: Box<dyn FnOnce() + Send>,
    pub(crate) panics: Arc<Mutex<Vec<String>>>,
}

/// The `CUhostFn` every Rust callback goes through; it never unwinds.
///
/// # Safety
/// `data` must come from `Box::into_raw(Box<HostCall>)` and be passed exactly once.
pub(crate) unsafe extern "C" fn host_trampoline(data: *mut c_void) {
    let call = unsafe { Box::from_raw(data as *mut HostCall) };
    let HostCall { f, panics } = *call;
    if let Err(payload) = catch_unwind(AssertUnwindSafe(f)) {
        let message = payload_message(&*payload);
        // Dropping a payload can itself panic; keep that inside too.
        let _ = catch_unwind(AssertUnwindSafe(move || drop(payload)));
        panics
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(message);
    }
}

/// The closure of a graph's host node, run each time an exec runs the node (on a driver thread),
/// with a panic caught and kept for the launching stream's synchronize.
pub(crate) struct HostNode {
    pub(crate) f: Box<dyn Fn() + Send + Sync>,
    pub(crate) panics: Arc<Mutex<Vec<String>>>,
}

impl HostNode {
    /// Runs the closure; a panic becomes a message (it must never unwind into the driver).
    pub(crate) fn run(&self) {
        if let Err(payload) = catch_unwind(AssertUnwindSafe(&self.f)) {
            let message = payload_message(&*payload);
            let _ = catch_unwind(AssertUnwindSafe(move || drop(payload)));
            self.panics
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(message);
        }
    }
}

/// The `CUhostFn` of graph host nodes: runs the node each time, frees nothing (the graph keeps
/// the node).
///
/// # Safety
/// `data` must point at a live [`HostNode`].
pub(crate) unsafe extern "C" fn host_node_trampoline(data: *mut c_void) {
    let node = unsafe { &*(data as *const HostNode) };
    node.run();
}

fn payload_message(p: &(dyn Any + Send)) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "non-string panic payload".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU32, Ordering};

    fn run(f: impl FnOnce() + Send + 'static) -> Arc<Mutex<Vec<String>>> {
        let panics: Arc<Mutex<Vec<String>>> = Arc::default();
        let call = Box::new(HostCall {
            f: Box::new(f),
            panics: panics.clone(),
        });
        unsafe { host_trampoline(Box::into_raw(call) as *mut c_void) };
        panics
    }

    #[test]
    fn trampoline_runs_the_closure_once() {
        let n = Arc::new(AtomicU32::new(0));
        let m = n.clone();
        let panics = run(move || {
            m.fetch_add(1, Ordering::SeqCst);
        });
        assert_eq!(n.load(Ordering::SeqCst), 1);
        assert!(panics.lock().unwrap().is_empty());
    }

    #[test]
    fn trampoline_catches_panics_and_keeps_the_message() {
        let panics = run(|| panic!("callback exploded: {}", 42));
        assert_eq!(
            *panics.lock().unwrap(),
            vec!["callback exploded: 42".to_string()]
        );
        let panics = run(|| std::panic::panic_any(7u8));
        assert_eq!(
            *panics.lock().unwrap(),
            vec!["non-string panic payload".to_string()]
        );
    }

    #[test]
    fn trampoline_survives_a_payload_whose_drop_panics() {
        struct Bomb;
        impl Drop for Bomb {
            fn drop(&mut self) {
                panic!("drop bomb");
            }
        }
        let panics = run(|| std::panic::panic_any(Bomb));
        assert_eq!(panics.lock().unwrap().len(), 1);
    }
}
