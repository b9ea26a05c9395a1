//! The size of device `printf`'s buffer (`gpu_println!`; CUDA's `cudaLimitPrintfFifoSize`).
//!
//! On a GPU, printing threads append to one circular buffer per context (1 MiB by default) that
//! the driver drains to stdout when the host synchronizes; a launch that prints more than fits
//! overwrites its own older output. The simulator prints each call as it runs, so it has no such
//! buffer: setting the size there succeeds and changes nothing.

use crate::backend::ContextLimit;
use crate::device::Device;
use crate::Result;

impl Device {
    /// `cudaDeviceSetLimit(cudaLimitPrintfFifoSize, bytes)`: call it before the first launch
    /// that prints (the driver refuses while the buffer is in use).
    pub fn set_printf_fifo_size(&self, bytes: usize) -> Result<()> {
        self.ops().set_limit(ContextLimit::PrintfFifo, bytes)
    }

    /// `cudaDeviceGetLimit(&size, cudaLimitPrintfFifoSize)`; `Err(Unsupported)` on the
    /// simulator, which has no buffer.
    pub fn printf_fifo_size(&self) -> Result<usize> {
        self.ops().limit(ContextLimit::PrintfFifo)
    }
}
