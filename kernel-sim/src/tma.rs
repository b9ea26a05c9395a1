//! The copy engine's bulk and tensor copies (`kernel_std::intrinsics::tma`, sm_90), on the
//! block's asynchronous state (`async_state`).
//!
//! - A load (tensor box or contiguous bytes) reads global memory when it is issued, and its
//!   bytes land in shared memory when the phase of its barrier completes, as `memcpy_async`'s
//!   do; it completes its bytes on the barrier at once (the engine's `complete_tx`), so the
//!   phase completes once the arrivals and every expected byte are in. Until then the
//!   destination is in flight: any access of it is a race.
//! - A box is read element by element from the tensor map's description (coordinates, element
//!   strides, byte strides); elements outside the tensor read as zero, or as NaN when the map
//!   asks for it. In shared memory the box is dense, innermost dimension first, and with a
//!   swizzle the 16-byte chunk at shared address `a` moves to `a ^ (((a >> 7) & m) << 4)`, m = 1,
//!   3, 7 for the 32-, 64- and 128-byte swizzles (bits 4.. exchanged with bits 7..: the PTX ISA's
//!   swizzle modes, which is why the shared address must be aligned).
//! - A store or reduction reads its shared source when issued and writes global memory at
//!   once (elements outside the tensor are skipped); its source bytes stay "being read" until the
//!   thread's `cp_async_bulk_wait_group_read` covers its group: writing them before is a race.
//! - Multicast and im2col loads are not modelled: a kernel using them runs on the GPU only, and
//!   the simulator says so at the call.

use kernel_ir::async_ops::{AsyncOp, BulkReduce};
use kernel_ir::ir::{Space, Ty};
use kernel_ir::tensor_map::SimTensorMap;

use super::async_state::{
    complete_tx, fail, push_copy, race_fail, touch, Fail, How, Mem, PendingStore,
};
use super::error::SimErrorKind;

fn elem_ty(bytes: u8) -> Ty {
    match bytes {
        1 => Ty::U8,
        2 => Ty::U16,
        4 => Ty::U32,
        _ => Ty::U64,
    }
}

/// The map a grid-constant handle names.
fn map_of(m: &impl Mem, handle: u64, what: &str) -> Result<SimTensorMap, Fail> {
    m.grid_constant(handle)
        .and_then(SimTensorMap::decode)
        .ok_or_else(|| {
            fail(
                SimErrorKind::InvalidParams,
                format!("`{what}` on a tensor map parameter that holds no tensor map (build it with `HostTensorMap` for this device)"),
            )
        })
}

/// The 16-byte-chunk swizzle of shared address `a` (see the module doc).
pub fn swizzle(a: u32, span: u8) -> u32 {
    let mask = match span {
        32 => 1,
        64 => 3,
        128 => 7,
        _ => return a,
    };
    a ^ (((a >> 7) & mask) << 4)
}

/// The shared window's checks for the tile at `addr` of `bytes`.
fn check_tile(m: &impl Mem, addr: u64, bytes: u64, what: &str) -> Result<(), Fail> {
    if !addr.is_multiple_of(128) {
        return Err(fail(
            SimErrorKind::Misaligned,
            format!("`{what}` with shared address {addr}: tensor copies need 128-byte aligned shared memory"),
        ));
    }
    let size = m.shared_len() as u64;
    if addr + bytes > size {
        return Err(fail(
            SimErrorKind::OutOfBounds,
            format!("`{what}` of {bytes} bytes at shared offset {addr}, outside the block's {size} bytes of shared memory"),
        ));
    }
    Ok(())
}

/// Calls `f(k, Some(global byte address))` for each element `k` of the box at `coords`, in
/// shared-memory order, with `None` for an element outside the tensor.
fn for_box(
    map: &SimTensorMap,
    coords: &[i64],
    mut f: impl FnMut(usize, Option<u64>) -> Result<(), Fail>,
) -> Result<(), Fail> {
    let r = map.rank as usize;
    let n: [u64; 5] = std::array::from_fn(|i| if i < r { map.box_elems(i) } else { 1 });
    let total: u64 = n.iter().product();
    let mut idx = [0u64; 5];
    for k in 0..total as usize {
        let mut inside = true;
        let mut addr = map.global_address;
        for i in 0..r {
            let c = coords[i] + (idx[i] * map.elem_strides[i].max(1) as u64) as i64;
            if c < 0 || c as u64 >= map.dims[i] {
                inside = false;
            } else {
                addr += c as u64 * map.strides[i];
            }
        }
        f(k, inside.then_some(addr))?;
        for i in 0..r {
            idx[i] += 1;
            if idx[i] < n[i] {
                break;
            }
            idx[i] = 0;
        }
    }
    Ok(())
}

fn nan_bits(map: &SimTensorMap) -> u64 {
    match map.data_type {
        6 => 0x7fff,                // f16
        9 => 0x7fff,                // bf16
        8 => 0x7fff_ffff_ffff_ffff, // f64
        _ => 0x7fff_ffff,           // f32 and its tf32 / ftz forms
    }
}

fn reduce(map: &SimTensorMap, op: BulkReduce, old: u64, v: u64) -> u64 {
    reduce_as(map.data_type, map.elem_bytes, op, old, v)
}

/// The `CUtensorMapDataType` code of a non-tensor bulk reduction's element type, and its size.
fn data_type_of(ty: Ty) -> (u8, u8) {
    match ty {
        Ty::U32 => (2, 4),
        Ty::I32 => (3, 4),
        Ty::U64 => (4, 8),
        Ty::I64 => (5, 8),
        Ty::F16 => (6, 2),
        Ty::F32 => (7, 4),
        Ty::F64 => (8, 8),
        Ty::BF16 => (9, 2),
        // The entries take no other type (`kernel_std::intrinsics::tma`).
        _ => (0, 1),
    }
}

/// Whether PTX defines `op` on elements of data type `dt` (a `CUtensorMapDataType` code): `.inc`
/// and `.dec` on `u32` only, the bitwise operations on 32- and 64-bit integers only. `add`, `min`
/// and `max` are checked by the entries' types (non-tensor) or left to the map (tensor).
fn reduce_defined(op: BulkReduce, dt: u8) -> bool {
    match op {
        BulkReduce::Inc | BulkReduce::Dec => dt == 2,
        BulkReduce::And | BulkReduce::Or | BulkReduce::Xor => matches!(dt, 2..=5),
        BulkReduce::Add | BulkReduce::Min | BulkReduce::Max => true,
    }
}

/// The name of a `CUtensorMapDataType` code, for errors.
fn data_type_name(dt: u8) -> &'static str {
    match dt {
        0 => "u8",
        1 => "u16",
        2 => "u32",
        3 => "i32",
        4 => "u64",
        5 => "i64",
        6 => "f16",
        7 => "f32",
        8 => "f64",
        9 => "bf16",
        _ => "tf32 / ftz f32",
    }
}

/// `op(old, v)` on elements of data type `dt` (a `CUtensorMapDataType` code) of `eb` bytes.
fn reduce_as(dt: u8, eb: u8, op: BulkReduce, old: u64, v: u64) -> u64 {
    let float = matches!(dt, 6..=12);
    let signed = matches!(dt, 3 | 5);
    let mask = if eb == 8 {
        u64::MAX
    } else {
        (1u64 << (8 * eb as u32)) - 1
    };
    let r = if float {
        let (a, b) = match dt {
            8 => (f64::from_bits(old), f64::from_bits(v)),
            6 => (
                half::f16::from_bits(old as u16).to_f64(),
                half::f16::from_bits(v as u16).to_f64(),
            ),
            9 => (
                half::bf16::from_bits(old as u16).to_f64(),
                half::bf16::from_bits(v as u16).to_f64(),
            ),
            _ => (
                f32::from_bits(old as u32) as f64,
                f32::from_bits(v as u32) as f64,
            ),
        };
        let x = match op {
            BulkReduce::Add => a + b,
            BulkReduce::Min => a.min(b),
            BulkReduce::Max => a.max(b),
            _ => a,
        };
        match dt {
            8 => x.to_bits(),
            6 => half::f16::from_f64(x).to_bits() as u64,
            9 => half::bf16::from_f64(x).to_bits() as u64,
            // One rounding of the exact f32 sum (a + b of two f32 is exact in f64 except for
            // far-apart exponents, where the double rounding is still the nearest f32).
            _ => (x as f32).to_bits() as u64,
        }
    } else {
        let sx = |x: u64| ((x << (64 - 8 * eb as u32)) as i64) >> (64 - 8 * eb as u32);
        match op {
            BulkReduce::Add => old.wrapping_add(v),
            BulkReduce::Min if signed => sx(old).min(sx(v)) as u64,
            BulkReduce::Max if signed => sx(old).max(sx(v)) as u64,
            BulkReduce::Min => old.min(v),
            BulkReduce::Max => old.max(v),
            BulkReduce::Inc => {
                if old >= v {
                    0
                } else {
                    old + 1
                }
            }
            BulkReduce::Dec => {
                if old == 0 || old > v {
                    v
                } else {
                    old - 1
                }
            }
            BulkReduce::And => old & v,
            BulkReduce::Or => old | v,
            BulkReduce::Xor => old ^ v,
        }
    };
    r & mask
}

/// The source bytes `[src, src + len)` of a store by `t` are being read until its group's wait.
fn hold_source(m: &mut impl Mem, t: u32, src: u32, len: u32) {
    let s = m.asyncs();
    s.store_src[src as usize..(src + len) as usize].fill(t + 1);
    s.stores.push(PendingStore {
        t,
        src,
        len,
        group: None,
    });
}

/// Whether `op` is one of the copy engine's (run here rather than by `async_state::run`).
pub(crate) fn handles(op: AsyncOp) -> bool {
    matches!(
        op,
        AsyncOp::TensorLoad { .. }
            | AsyncOp::TensorStore { .. }
            | AsyncOp::BulkLoad
            | AsyncOp::BulkStore
            | AsyncOp::BulkReduce { .. }
            | AsyncOp::BulkCommit
            | AsyncOp::BulkWait { .. }
            | AsyncOp::TensorPrefetch
    )
}

pub(crate) fn run(m: &mut impl Mem, t: u32, op: AsyncOp, a: &[u64]) -> Result<(), Fail> {
    match op {
        AsyncOp::TensorLoad {
            dims,
            im2col,
            multicast,
        } => {
            let d = dims as usize;
            let what = format!("cp_async_bulk_tensor_{d}d_global_to_shared");
            if multicast || im2col {
                return Err(fail(
                    SimErrorKind::MalformedIr,
                    format!("`{what}`{}: the simulator does not model {} tensor loads; run this kernel on the GPU", if multicast { "_multicast" } else { "_im2col" }, if multicast { "multicast" } else { "im2col" }),
                ));
            }
            let (dst, bar) = (a[0], a[2 + d] as u32);
            let map = map_of(m, a[1], &what)?;
            if map.rank != dims || map.im2col.is_some() {
                return Err(fail(
                    SimErrorKind::InvalidParams,
                    format!(
                        "`{what}` on a tensor map of rank {}{}: the map and the call must agree",
                        map.rank,
                        if map.im2col.is_some() {
                            " in im2col mode"
                        } else {
                            ""
                        }
                    ),
                ));
            }
            if map.interleave != 0 {
                return Err(fail(
                    SimErrorKind::MalformedIr,
                    format!("`{what}`: the simulator does not model interleaved tensor maps; run this kernel on the GPU"),
                ));
            }
            let bytes = map.box_bytes();
            check_tile(m, dst, bytes, &what)?;
            if map.swizzle != 0 && !bytes.is_multiple_of(128) {
                return Err(fail(
                    SimErrorKind::MalformedIr,
                    format!("`{what}`: a swizzled box of {bytes} bytes is not whole 128-byte lines, which the simulator does not model"),
                ));
            }
            touch(m, t, bar, &what)?;
            let coords: Vec<i64> = a[2..2 + d]
                .iter()
                .map(|&c| c as u32 as i32 as i64)
                .collect();
            let eb = map.elem_bytes as usize;
            let mut data = vec![0u8; bytes as usize];
            let fill = if map.oob_nan { nan_bits(&map) } else { 0 };
            let base = dst as u32;
            for_box(&map, &coords, |k, at| {
                let v = match at {
                    Some(g) => m.read(t, Space::Global, g, elem_ty(map.elem_bytes), How::Read)?,
                    None => fill,
                };
                let off = (swizzle(base + (k * eb) as u32, map.swizzle) - base) as usize;
                data[off..off + eb].copy_from_slice(&v.to_le_bytes()[..eb]);
                Ok(())
            })?;
            push_copy(m, t, base, data, bar, &what)?;
            complete_tx(m, bar, bytes as i64)?;
        }
        AsyncOp::TensorStore { dims, reduce: op } => {
            let d = dims as usize;
            let what = match op {
                None => format!("cp_async_bulk_tensor_{d}d_shared_to_global"),
                Some(r) => format!("cp_reduce_async_bulk_tensor_{d}d_{}", r.ptx()),
            };
            let map = map_of(m, a[0], &what)?;
            if let Some(r) = op.filter(|&r| !reduce_defined(r, map.data_type)) {
                return Err(fail(
                    SimErrorKind::InvalidParams,
                    format!(
                        "`{what}` on a tensor map of `{}` elements: PTX defines `.{}` on {} only",
                        data_type_name(map.data_type),
                        r.ptx(),
                        if matches!(r, BulkReduce::Inc | BulkReduce::Dec) {
                            "u32"
                        } else {
                            "32- and 64-bit integers"
                        }
                    ),
                ));
            }
            if map.rank != dims || map.im2col.is_some() || map.interleave != 0 {
                return Err(fail(
                    SimErrorKind::InvalidParams,
                    format!("`{what}` on a tensor map of rank {}: the map and the call must agree (and the simulator models tiled, non-interleaved maps only)", map.rank),
                ));
            }
            let src = a[1 + d];
            let bytes = map.box_bytes();
            check_tile(m, src, bytes, &what)?;
            let coords: Vec<i64> = a[1..1 + d]
                .iter()
                .map(|&c| c as u32 as i32 as i64)
                .collect();
            let eb = map.elem_bytes as usize;
            let ty = elem_ty(map.elem_bytes);
            let base = src as u32;
            for_box(&map, &coords, |k, at| {
                let s = swizzle(base + (k * eb) as u32, map.swizzle) as u64;
                let v = m.read(t, Space::Shared, s, ty, How::Read)?;
                if let Some(g) = at {
                    let v = match op {
                        None => v,
                        Some(r) => {
                            let old = m.read(t, Space::Global, g, ty, How::Read)?;
                            reduce(&map, r, old, v)
                        }
                    };
                    m.write(t, Space::Global, g, eb, v, How::Write)?;
                }
                Ok(())
            })?;
            hold_source(m, t, base, bytes as u32);
        }
        AsyncOp::BulkLoad => {
            let what = "cp_async_bulk_global_to_shared";
            let (dst, src, bytes, bar) = (a[0], a[1], a[2] as u32, a[3] as u32);
            bulk_checks(m, dst, src, bytes, what)?;
            touch(m, t, bar, what)?;
            let mut data = vec![0u8; bytes as usize];
            for (k, w) in data.chunks_mut(8).enumerate() {
                let v = m.read(t, Space::Global, src + 8 * k as u64, Ty::U64, How::Read)?;
                w.copy_from_slice(&v.to_le_bytes());
            }
            push_copy(m, t, dst as u32, data, bar, what)?;
            complete_tx(m, bar, bytes as i64)?;
        }
        AsyncOp::BulkStore => {
            let what = "cp_async_bulk_shared_to_global";
            let (dst, src, bytes) = (a[0], a[1], a[2] as u32);
            bulk_checks(m, src, dst, bytes, what)?;
            for k in 0..bytes as u64 / 8 {
                let v = m.read(t, Space::Shared, src + 8 * k, Ty::U64, How::Read)?;
                m.write(t, Space::Global, dst + 8 * k, 8, v, How::Write)?;
            }
            hold_source(m, t, src as u32, bytes);
        }
        AsyncOp::BulkReduce { op, ty } => {
            let (dt, eb) = data_type_of(ty);
            let what = format!("cp_reduce_async_bulk_{}_{}", op.ptx(), data_type_name(dt));
            let (dst, src, bytes) = (a[0], a[1], a[2] as u32);
            bulk_checks(m, src, dst, bytes, &what)?;
            let ety = elem_ty(eb);
            for k in 0..(bytes / eb as u32) as u64 {
                let off = k * eb as u64;
                let v = m.read(t, Space::Shared, src + off, ety, How::Read)?;
                let old = m.read(t, Space::Global, dst + off, ety, How::Read)?;
                let r = reduce_as(dt, eb, op, old, v);
                m.write(t, Space::Global, dst + off, eb as usize, r, How::Write)?;
            }
            hold_source(m, t, src as u32, bytes);
        }
        AsyncOp::BulkCommit => {
            let s = m.asyncs();
            let g = s.bulk_committed[t as usize];
            for p in s
                .stores
                .iter_mut()
                .filter(|p| p.t == t && p.group.is_none())
            {
                p.group = Some(g);
            }
            s.bulk_committed[t as usize] += 1;
        }
        AsyncOp::BulkWait { n, .. } => {
            // Writes to global memory were made at issue, so `.read` and the full wait differ
            // only on the GPU; both release the sources of the groups they cover.
            let s = m.asyncs();
            let done = s.bulk_committed[t as usize].saturating_sub(n);
            let (go, stay): (Vec<_>, Vec<_>) = std::mem::take(&mut s.stores)
                .into_iter()
                .partition(|p| p.t == t && p.group.is_some_and(|g| g < done));
            s.stores = stay;
            for p in go {
                s.store_src[p.src as usize..(p.src + p.len) as usize].fill(0);
            }
            // Sources another pending store still reads stay marked.
            let marks: Vec<(u32, u32, u32)> =
                s.stores.iter().map(|p| (p.t, p.src, p.len)).collect();
            for (pt, src, len) in marks {
                s.store_src[src as usize..(src + len) as usize].fill(pt + 1);
            }
            s.progress += 1;
        }
        AsyncOp::TensorPrefetch => {
            map_of(m, a[0], "prefetch_tensormap")?;
        }
        _ => unreachable!("not a bulk operation"),
    }
    Ok(())
}

/// The rules of a non-tensor bulk copy: `shared` and `global` 16-byte aligned, `bytes` a nonzero
/// multiple of 16 inside the block's shared memory.
fn bulk_checks(m: &impl Mem, shared: u64, global: u64, bytes: u32, what: &str) -> Result<(), Fail> {
    if bytes == 0 || !bytes.is_multiple_of(16) {
        return Err(fail(
            SimErrorKind::InvalidParams,
            format!("`{what}` of {bytes} bytes: bulk copies move a nonzero multiple of 16 bytes"),
        ));
    }
    if !shared.is_multiple_of(16) || !global.is_multiple_of(16) {
        return Err(fail(
            SimErrorKind::Misaligned,
            format!("`{what}` between shared offset {shared} and global address {global:#x}: both must be 16-byte aligned"),
        ));
    }
    let size = m.shared_len() as u64;
    if shared + bytes as u64 > size {
        return Err(fail(
            SimErrorKind::OutOfBounds,
            format!("`{what}` of {bytes} bytes at shared offset {shared}, outside the block's {size} bytes of shared memory"),
        ));
    }
    Ok(())
}

/// A write of shared bytes `[off, off + len)` while a bulk store of `owner` still reads them.
pub(crate) fn write_under_store(off: usize, len: usize, owner: u32, t: u32) -> Fail {
    race_fail(
        format!(
            "write of shared bytes {off}..{} races with a bulk store (`cp_async_bulk_*_shared_to_global`) by {} that may still be reading them: wait with `cp_async_bulk_wait_group_read` first",
            off + len,
            if owner == t { "this thread" } else { "thread {OTHER}" }
        ),
        (owner != t).then_some(owner),
    )
}

#[cfg(test)]
mod tests {
    use super::swizzle;

    #[test]
    fn swizzle_128b_permutes_chunks_within_each_line() {
        // Line r of a 1024-byte atom: chunk c goes to chunk c ^ r.
        for r in 0..8u32 {
            let mut seen = [false; 8];
            for c in 0..8u32 {
                let s = swizzle(r * 128 + c * 16, 128);
                assert_eq!(s / 128, r);
                assert_eq!((s % 128) / 16, c ^ r);
                seen[((s % 128) / 16) as usize] = true;
            }
            assert!(seen.iter().all(|&x| x));
        }
        assert_eq!(swizzle(128 + 4, 32), 128 + 16 + 4);
        assert_eq!(swizzle(3 * 128, 64), 3 * 128 + 48);
        assert_eq!(swizzle(5 * 128 + 4, 0), 5 * 128 + 4);
    }
}
