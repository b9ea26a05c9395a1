//! Simulated device memory: one `GlobalMemory` per device.

use std::sync::MutexGuard;

use kernel_sim::GlobalMemory;

use super::kernel::sim_error;
use super::Shared;
use crate::backend::{Copy2d, End2d};
use crate::{Error, Result};

impl Shared {
    pub(super) fn mem(&self) -> MutexGuard<'_, GlobalMemory> {
        self.mem.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub(super) fn alloc(&self, bytes: usize) -> u64 {
        if bytes == 0 {
            0
        } else {
            self.mem().alloc(bytes)
        }
    }

    pub(super) fn free(&self, addr: u64) {
        if addr != 0 {
            let _ = self.mem().free(addr);
        }
    }

    pub(super) fn write(&self, addr: u64, data: &[u8]) -> Result<()> {
        if data.is_empty() {
            return Ok(());
        }
        self.mem().write(addr, data).map_err(sim_error)
    }

    pub(super) fn read(&self, addr: u64, out: &mut [u8]) -> Result<()> {
        if out.is_empty() {
            return Ok(());
        }
        self.mem().read(addr, out).map_err(sim_error)
    }

    pub(super) fn copy(&self, dst: u64, src: u64, bytes: usize) -> Result<()> {
        if bytes == 0 {
            return Ok(());
        }
        let mut mem = self.mem();
        let mut tmp = vec![0u8; bytes];
        mem.read(src, &mut tmp).map_err(sim_error)?;
        mem.write(dst, &tmp).map_err(sim_error)
    }

    /// Fills `count` elements of `elem` bytes with the low bytes of `pattern`.
    pub(super) fn fill(&self, addr: u64, elem: usize, pattern: u32, count: usize) -> Result<()> {
        if count == 0 {
            return Ok(());
        }
        if elem == 1 {
            return self
                .mem()
                .fill(addr, count, pattern as u8)
                .map_err(sim_error);
        }
        let one = &pattern.to_le_bytes()[..elem.min(4)];
        let bytes: Vec<u8> = one.iter().copied().cycle().take(elem * count).collect();
        self.write(addr, &bytes)
    }

    /// Row-by-row copies through the simulator's memory.
    ///
    /// # Safety
    /// Every host end must be valid for the rows described.
    pub(super) unsafe fn copy_2d(&self, c: &Copy2d) -> Result<()> {
        let row = c.row_bytes;
        if row == 0 || c.height == 0 {
            return Ok(());
        }
        for r in 0..c.height {
            let (so, d_o) = (r * c.src_pitch, r * c.dst_pitch);
            // SAFETY (each arm): the caller's contract, `height` rows of `pitch` bytes.
            match (c.src, c.dst) {
                (End2d::Host(h), End2d::Device(d)) => {
                    let bytes =
                        unsafe { std::slice::from_raw_parts((h as *const u8).add(so), row) };
                    self.write(d + d_o as u64, bytes)?;
                }
                (End2d::HostMut(h), End2d::Device(d)) => {
                    let bytes =
                        unsafe { std::slice::from_raw_parts((h as *const u8).add(so), row) };
                    self.write(d + d_o as u64, bytes)?;
                }
                (End2d::Device(s), End2d::HostMut(h)) => {
                    let bytes =
                        unsafe { std::slice::from_raw_parts_mut((h as *mut u8).add(d_o), row) };
                    self.read(s + so as u64, bytes)?;
                }
                (End2d::Device(s), End2d::Device(d)) => {
                    self.copy(d + d_o as u64, s + so as u64, row)?
                }
                _ => return Err(Error::InvalidValue("host-to-host 2-D copy".into())),
            }
        }
        Ok(())
    }
}
