//! Simulated device memory: sparse allocations at distinct 64-bit addresses, with unmapped gaps
//! between them so that any access past an allocation's end faults instead of landing in a
//! neighbour (unlike a real GPU, where it often silently succeeds).

use super::error::{SimError, SimErrorKind};

/// Where the first allocation starts: looks like a device pointer and is far from 0, so null and
/// small-integer pointers always fault.
const BASE: u64 = 0x7f00_0000_0000;
/// Unmapped bytes kept after every allocation.
const GAP: u64 = 1 << 16;
const ALIGN: u64 = 256;

struct Allocation {
    base: u64,
    data: Vec<u8>,
}

/// Device memory of the simulator. New allocations are zero-filled and never reuse the
/// addresses of freed ones, so use-after-free is detected as an out-of-bounds access.
pub struct GlobalMemory {
    /// Sorted by `base` (addresses only grow).
    allocs: Vec<Allocation>,
    next: u64,
    /// The device heap (`malloc`/`free` in kernels): live blocks by address with their sizes.
    heap: std::collections::BTreeMap<u64, u64>,
    heap_used: u64,
    heap_limit: u64,
    /// Live `alloca` blocks: freed together when their block of threads finishes.
    stacks: Vec<u64>,
}

/// The largest `alloca` the simulator grants in one call. A GPU's limit is the context's
/// per-thread stack size (`cudaLimitStackSize`), which the driver may grow for a kernel.
pub const MAX_ALLOCA_BYTES: u64 = 64 << 10;

/// CUDA's default device heap size (`cudaLimitMallocHeapSize`): 8 MiB.
pub const DEFAULT_HEAP_LIMIT: u64 = 8 << 20;

impl Default for GlobalMemory {
    fn default() -> Self {
        Self::new()
    }
}

impl GlobalMemory {
    pub fn new() -> Self {
        GlobalMemory {
            allocs: Vec::new(),
            next: BASE,
            heap: Default::default(),
            heap_used: 0,
            heap_limit: DEFAULT_HEAP_LIMIT,
            stacks: Vec::new(),
        }
    }

    /// Sets the device heap size, as `cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE)`.
    pub fn set_heap_limit(&mut self, bytes: u64) {
        self.heap_limit = bytes;
    }

    pub fn heap_limit(&self) -> u64 {
        self.heap_limit
    }

    /// Device-side `malloc`: a fresh allocation, or `None` (a null pointer) once the live heap
    /// blocks would exceed the heap size. Blocks are separate allocations, so indexing past one
    /// or using it after `heap_free` faults.
    pub fn heap_alloc(&mut self, bytes: u64) -> Option<u64> {
        let used = self.heap_used.checked_add(bytes)?;
        if used > self.heap_limit {
            return None;
        }
        let addr = self.alloc(bytes as usize);
        self.heap.insert(addr, bytes);
        self.heap_used = used;
        Some(addr)
    }

    /// `alloca`: a fresh zeroed block of `bytes` for one thread, `None` above
    /// [`MAX_ALLOCA_BYTES`].
    pub fn stack_alloc(&mut self, bytes: u64) -> Option<u64> {
        if bytes > MAX_ALLOCA_BYTES {
            return None;
        }
        let addr = self.alloc(bytes as usize);
        self.stacks.push(addr);
        Some(addr)
    }

    /// Frees every `alloca` block (at the end of each block of threads).
    pub fn release_stacks(&mut self) {
        if self.stacks.is_empty() {
            return;
        }
        let dead: std::collections::HashSet<u64> = self.stacks.drain(..).collect();
        self.allocs.retain(|a| !dead.contains(&a.base));
    }

    /// Device-side `free`: null is a no-op, as in C; anything but a live heap block (a double
    /// free, a pointer into the middle of a block, a host allocation) is an error.
    pub fn heap_free(&mut self, addr: u64) -> Result<(), String> {
        if addr == 0 {
            return Ok(());
        }
        match self.heap.remove(&addr) {
            Some(bytes) => {
                self.heap_used -= bytes;
                self.free(addr).map_err(|e| e.message)
            }
            None => Err(format!(
                "device free of {addr:#x}, which is not a live block of the device heap (double free, or not from device malloc)"
            )),
        }
    }

    /// Allocates `bytes` zeroed bytes; the address is 256-aligned and never 0.
    pub fn alloc(&mut self, bytes: usize) -> u64 {
        let base = self.next;
        let end = base + bytes as u64 + GAP;
        self.next = end.div_ceil(ALIGN) * ALIGN;
        self.allocs.push(Allocation {
            base,
            data: vec![0; bytes],
        });
        base
    }

    pub fn free(&mut self, addr: u64) -> Result<(), SimError> {
        match self.allocs.binary_search_by_key(&addr, |a| a.base) {
            Ok(i) => {
                self.allocs.remove(i);
                Ok(())
            }
            Err(_) => Err(SimError::host(
                SimErrorKind::InvalidFree,
                format!("free of {addr:#x}, which is not the start of a live allocation"),
            )),
        }
    }

    pub fn write(&mut self, addr: u64, data: &[u8]) -> Result<(), SimError> {
        let (i, off) = self.locate_or_err(addr, data.len())?;
        self.allocs[i].data[off..off + data.len()].copy_from_slice(data);
        Ok(())
    }

    pub fn read(&self, addr: u64, out: &mut [u8]) -> Result<(), SimError> {
        let (i, off) = self.locate_or_err(addr, out.len())?;
        out.copy_from_slice(&self.allocs[i].data[off..off + out.len()]);
        Ok(())
    }

    pub fn fill(&mut self, addr: u64, len: usize, byte: u8) -> Result<(), SimError> {
        let (i, off) = self.locate_or_err(addr, len)?;
        self.allocs[i].data[off..off + len].fill(byte);
        Ok(())
    }

    /// Size of the live allocation starting at `addr`.
    pub fn size_of(&self, addr: u64) -> Option<usize> {
        self.allocs
            .binary_search_by_key(&addr, |a| a.base)
            .ok()
            .map(|i| self.allocs[i].data.len())
    }

    fn locate_or_err(&self, addr: u64, len: usize) -> Result<(usize, usize), SimError> {
        let mut hint = 0;
        self.locate(addr, len as u64, &mut hint).ok_or_else(|| {
            SimError::host(
                SimErrorKind::OutOfBounds,
                format!("{len} bytes at {addr:#x} are not inside one allocation"),
            )
        })
    }

    /// The allocation index and offset holding `[addr, addr + len)`. `hint` caches the last hit,
    /// which makes streaming kernels skip the binary search.
    #[inline]
    pub(crate) fn locate(&self, addr: u64, len: u64, hint: &mut usize) -> Option<(usize, usize)> {
        if let Some(a) = self.allocs.get(*hint) {
            let off = addr.wrapping_sub(a.base);
            if addr >= a.base
                && off
                    .checked_add(len)
                    .is_some_and(|e| e <= a.data.len() as u64)
            {
                return Some((*hint, off as usize));
            }
        }
        let i = match self.allocs.binary_search_by_key(&addr, |a| a.base) {
            Ok(i) => i,
            Err(0) => return None,
            Err(i) => i - 1,
        };
        let a = &self.allocs[i];
        let off = addr - a.base;
        if off.checked_add(len)? <= a.data.len() as u64 {
            *hint = i;
            Some((i, off as usize))
        } else {
            None
        }
    }

    /// The host address of the bytes of the live allocation starting at `addr`. It stays valid
    /// until that allocation is freed (other allocations and frees never move it), which lets a
    /// host runtime offer direct host access to simulated memory, as managed memory does on a GPU.
    pub fn host_ptr(&mut self, addr: u64) -> Option<*mut u8> {
        let i = self.allocs.binary_search_by_key(&addr, |a| a.base).ok()?;
        Some(self.allocs[i].data.as_mut_ptr())
    }

    #[inline]
    pub(crate) fn bytes(&self, i: usize) -> &[u8] {
        &self.allocs[i].data
    }

    #[inline]
    pub(crate) fn bytes_mut(&mut self, i: usize) -> &mut [u8] {
        &mut self.allocs[i].data
    }
}
