//! Cooperative groups (CUDA's `cooperative_groups`, guide appendix "Cooperative Groups") as free
//! functions of the group they act on: device code has no methods on library types, so CUDA's
//! `tile.shfl_down(v, 1)` on a `thread_block_tile<8>` is `tile_shfl_down::<8, _>(v, 1)` here.
//!
//! | CUDA | here |
//! |---|---|
//! | `this_thread_block().sync()`, `.thread_rank()`, `.size()` | `block_sync()`, `block_thread_rank()`, `block_size()` |
//! | `.group_index()`, `.thread_index()`, `.dim_threads()` | `block_idx()`, `thread_idx()`, `block_dim()` |
//! | `tiled_partition<N>(block)`: `.sync()`, `.thread_rank()`, `.meta_group_rank()`, `.meta_group_size()`, `.size()` | `tile_sync::<N>()`, `tile_thread_rank::<N>()`, `tile_meta_group_rank::<N>()`, `tile_meta_group_size::<N>()`, `N` |
//! | `.shfl(v, src)`, `.shfl_up`, `.shfl_down`, `.shfl_xor` | `tile_shfl::<N, T>(v, src)`, `tile_shfl_up`, `tile_shfl_down`, `tile_shfl_xor` |
//! | `.any(p)`, `.all(p)`, `.ballot(p)` | `tile_any::<N>(p)`, `tile_all::<N>(p)`, `tile_ballot::<N>(p)` |
//! | `reduce(tile, v, plus<T>())`, `less`, `greater`, `bit_and`, `bit_or`, `bit_xor` | `tile_reduce_add::<N, T>(v)`, `tile_reduce_min`, `tile_reduce_max`, `tile_reduce_and`, `tile_reduce_or`, `tile_reduce_xor` |
//! | `inclusive_scan(tile, v)`, `exclusive_scan(tile, v)` (plus) | `tile_inclusive_scan_add::<N, T>(v)`, `tile_exclusive_scan_add::<N, T>(v)` (integers) |
//! | `coalesced_threads()`: `.size()`, `.thread_rank()`, `.shfl(v, rank)`, `.sync()` | `coalesced_size()`, `coalesced_thread_rank()`, `coalesced_shfl(v, rank)`, `coalesced_sync()` |
//! | `this_cluster()`: `.sync()`, `.block_rank()`, `.num_blocks()`, `.map_shared_rank(p, r)` | `cluster_sync()`, `cluster_ctarank()`, `cluster_nctarank()`, `map_shared_rank(p, r)` |
//! | `this_grid()`: `.sync()`, `.thread_rank()`, `.size()` | `grid_sync()`, `grid_thread_rank()`, `grid_num_threads()` |
//!
//! A tile of `N` threads (1, 2, 4, 8, 16 or 32: any other `N` does not type-check, the error at
//! the call) is `N` consecutive threads of the block by `block_thread_rank()`, all in one warp;
//! its functions are the warp intrinsics with the tile's lanes as the mask and `N` as the
//! shuffle width, so every thread of the tile must call them together (as in CUDA), and a
//! block whose size is not a multiple of 32 has a partial last warp whose tiles must be whole.
//! The simulator runs them as those intrinsics, with their mask checks.

#![allow(clippy::manual_range_contains)]

use core::ops::{Add, BitAnd, BitOr, BitXor, Sub};

use kernel_macros::device;

use crate::intrinsics::integer::{fns, popc};
use crate::intrinsics::registers::{block_dim, lane_id, sync_threads, thread_idx};
use crate::intrinsics::warp::{
    activemask, all_sync, any_sync, ballot_sync, shfl_down_sync, shfl_sync, shfl_up_sync,
    shfl_xor_sync, sync_warp, ShuffleValue,
};

/// A tile size: `Tile<N>` implements [`TileSize`] for exactly the sizes CUDA's
/// `tiled_partition<N>` takes at compile time.
pub struct Tile<const N: u32>;

/// Implemented by `Tile<1>`, `Tile<2>`, `Tile<4>`, `Tile<8>`, `Tile<16>` and `Tile<32>`.
/// `tile_sync::<3>()` fails to type-check with "the trait bound `Tile<3>: TileSize` is not
/// satisfied" at the call.
#[diagnostic::on_unimplemented(
    message = "a thread block tile has 1, 2, 4, 8, 16 or 32 threads, not {Self}",
    label = "`tiled_partition` sizes are powers of two up to a warp (32)"
)]
pub trait TileSize {}
impl TileSize for Tile<1> {}
impl TileSize for Tile<2> {}
impl TileSize for Tile<4> {}
impl TileSize for Tile<8> {}
impl TileSize for Tile<16> {}
impl TileSize for Tile<32> {}

/// Values a tile reduction or scan combines: the shuffle types with the operators the
/// reductions use.
pub trait TileValue: ShuffleValue + Copy + PartialOrd + Add<Output = Self> {}
impl TileValue for u32 {}
impl TileValue for i32 {}
impl TileValue for f32 {}
impl TileValue for u64 {}
impl TileValue for i64 {}
impl TileValue for f64 {}

/// Integers the bitwise tile reductions and the exclusive scan take.
pub trait TileBits:
    TileValue
    + Sub<Output = Self>
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
{
}
impl TileBits for u32 {}
impl TileBits for i32 {}
impl TileBits for u64 {}
impl TileBits for i64 {}

/// `this_thread_block().sync()`: `__syncthreads()`.
#[device]
pub fn block_sync() {
    sync_threads();
}

/// `this_thread_block().thread_rank()`: the thread's linear index in its block (x fastest).
#[device]
pub fn block_thread_rank() -> u32 {
    let (t, d) = (thread_idx(), block_dim());
    t.x + d.x * (t.y + d.y * t.z)
}

/// `this_thread_block().size()` (`num_threads()`): threads in the block.
#[device]
pub fn block_size() -> u32 {
    let d = block_dim();
    d.x * d.y * d.z
}

/// The lanes of this thread's tile of `N`, as a warp mask.
#[device]
pub fn tile_mask<const N: u32>() -> u32
where
    Tile<N>: TileSize,
{
    if N == 32 {
        0xffff_ffff
    } else {
        ((1u32 << N) - 1) << (lane_id() / N * N)
    }
}

/// `tile.thread_rank()`: the thread's index in its tile, `0..N`.
#[device]
pub fn tile_thread_rank<const N: u32>() -> u32
where
    Tile<N>: TileSize,
{
    block_thread_rank() % N
}

/// `tile.meta_group_rank()`: which tile of the block this thread's is.
#[device]
pub fn tile_meta_group_rank<const N: u32>() -> u32
where
    Tile<N>: TileSize,
{
    block_thread_rank() / N
}

/// `tile.meta_group_size()`: tiles in the block (a partial last tile counts).
#[device]
pub fn tile_meta_group_size<const N: u32>() -> u32
where
    Tile<N>: TileSize,
{
    block_size().div_ceil(N)
}

/// `tile.sync()`: `__syncwarp` over the tile's lanes.
#[device]
pub fn tile_sync<const N: u32>()
where
    Tile<N>: TileSize,
{
    sync_warp(tile_mask::<N>());
}

/// `tile.shfl(v, src)`: `v` of the tile's thread `src` (taken modulo `N`).
#[device]
pub fn tile_shfl<const N: u32, T: ShuffleValue>(v: T, src: u32) -> T
where
    Tile<N>: TileSize,
{
    shfl_sync(tile_mask::<N>(), v, src, N)
}

/// `tile.shfl_up(v, delta)`: `v` of the thread `delta` below in the tile (its own below that).
#[device]
pub fn tile_shfl_up<const N: u32, T: ShuffleValue>(v: T, delta: u32) -> T
where
    Tile<N>: TileSize,
{
    shfl_up_sync(tile_mask::<N>(), v, delta, N)
}

/// `tile.shfl_down(v, delta)`: `v` of the thread `delta` above in the tile (its own past the end).
#[device]
pub fn tile_shfl_down<const N: u32, T: ShuffleValue>(v: T, delta: u32) -> T
where
    Tile<N>: TileSize,
{
    shfl_down_sync(tile_mask::<N>(), v, delta, N)
}

/// `tile.shfl_xor(v, mask)`: `v` of the tile's thread `rank ^ mask`.
#[device]
pub fn tile_shfl_xor<const N: u32, T: ShuffleValue>(v: T, lane_mask: u32) -> T
where
    Tile<N>: TileSize,
{
    shfl_xor_sync(tile_mask::<N>(), v, lane_mask, N)
}

/// `tile.any(p)`: whether `p` holds for any thread of the tile.
#[device]
pub fn tile_any<const N: u32>(p: bool) -> bool
where
    Tile<N>: TileSize,
{
    any_sync(tile_mask::<N>(), p)
}

/// `tile.all(p)`: whether `p` holds for every thread of the tile.
#[device]
pub fn tile_all<const N: u32>(p: bool) -> bool
where
    Tile<N>: TileSize,
{
    all_sync(tile_mask::<N>(), p)
}

/// `tile.ballot(p)`: bit `r` set when `p` holds for the tile's thread `r` (bits from 0, as
/// CUDA's tile ballot, not the warp's lane positions).
#[device]
pub fn tile_ballot<const N: u32>(p: bool) -> u32
where
    Tile<N>: TileSize,
{
    let bits = ballot_sync(tile_mask::<N>(), p);
    if N == 32 {
        bits
    } else {
        (bits >> (lane_id() / N * N)) & ((1u32 << N) - 1)
    }
}

/// `cg::reduce(tile, v, cg::plus<T>())`: the sum over the tile, in every thread (a butterfly of
/// `shfl_xor`, so each thread combines in the same order and all get the same bits).
#[device]
pub fn tile_reduce_add<const N: u32, T: TileValue>(v: T) -> T
where
    Tile<N>: TileSize,
{
    let mut acc = v;
    let mut m = N / 2;
    while m > 0 {
        acc = acc + tile_shfl_xor::<N, T>(acc, m);
        m /= 2;
    }
    acc
}

/// `cg::reduce(tile, v, cg::less<T>())`: the least value over the tile.
#[device]
pub fn tile_reduce_min<const N: u32, T: TileValue>(v: T) -> T
where
    Tile<N>: TileSize,
{
    let mut acc = v;
    let mut m = N / 2;
    while m > 0 {
        let o = tile_shfl_xor::<N, T>(acc, m);
        if o < acc {
            acc = o;
        }
        m /= 2;
    }
    acc
}

/// `cg::reduce(tile, v, cg::greater<T>())`: the greatest value over the tile.
#[device]
pub fn tile_reduce_max<const N: u32, T: TileValue>(v: T) -> T
where
    Tile<N>: TileSize,
{
    let mut acc = v;
    let mut m = N / 2;
    while m > 0 {
        let o = tile_shfl_xor::<N, T>(acc, m);
        if o > acc {
            acc = o;
        }
        m /= 2;
    }
    acc
}

/// `cg::reduce(tile, v, cg::bit_and<T>())`.
#[device]
pub fn tile_reduce_and<const N: u32, T: TileBits>(v: T) -> T
where
    Tile<N>: TileSize,
{
    let mut acc = v;
    let mut m = N / 2;
    while m > 0 {
        acc = acc & tile_shfl_xor::<N, T>(acc, m);
        m /= 2;
    }
    acc
}

/// `cg::reduce(tile, v, cg::bit_or<T>())`.
#[device]
pub fn tile_reduce_or<const N: u32, T: TileBits>(v: T) -> T
where
    Tile<N>: TileSize,
{
    let mut acc = v;
    let mut m = N / 2;
    while m > 0 {
        acc = acc | tile_shfl_xor::<N, T>(acc, m);
        m /= 2;
    }
    acc
}

/// `cg::reduce(tile, v, cg::bit_xor<T>())`.
#[device]
pub fn tile_reduce_xor<const N: u32, T: TileBits>(v: T) -> T
where
    Tile<N>: TileSize,
{
    let mut acc = v;
    let mut m = N / 2;
    while m > 0 {
        acc = acc ^ tile_shfl_xor::<N, T>(acc, m);
        m /= 2;
    }
    acc
}

/// `cg::inclusive_scan(tile, v)`: the sum of `v` over the tile's threads `0..=rank`
/// (Hillis-Steele over `shfl_up`).
#[device]
pub fn tile_inclusive_scan_add<const N: u32, T: TileValue>(v: T) -> T
where
    Tile<N>: TileSize,
{
    let rank = tile_thread_rank::<N>();
    let mut acc = v;
    let mut d = 1u32;
    while d < N {
        let o = tile_shfl_up::<N, T>(acc, d);
        if rank >= d {
            acc = acc + o;
        }
        d *= 2;
    }
    acc
}

/// `cg::exclusive_scan(tile, v)`: the sum of `v` over the tile's threads `0..rank` (0 in
/// thread 0), for integers: the inclusive sum less the thread's own value, exact. (Floats are
/// not offered: that difference would not be the sum CUDA forms.)
#[device]
pub fn tile_exclusive_scan_add<const N: u32, T: TileBits>(v: T) -> T
where
    Tile<N>: TileSize,
{
    tile_inclusive_scan_add::<N, T>(v) - v
}

/// `coalesced_threads().sync()`: `__syncwarp` over the lanes active here.
#[device]
pub fn coalesced_sync() {
    sync_warp(activemask());
}

/// `coalesced_threads().size()`: the lanes active here.
#[device]
pub fn coalesced_size() -> u32 {
    popc(activemask()) as u32
}

/// `coalesced_threads().thread_rank()`: this lane's index among the active ones (lowest first).
#[device]
pub fn coalesced_thread_rank() -> u32 {
    let below = (1u32 << lane_id()) - 1;
    popc(activemask() & below) as u32
}

/// `coalesced_threads().shfl(v, rank)`: `v` of the active lane of index `rank` (its `rank`-th
/// set bit of the active mask: `__fns`).
#[device]
pub fn coalesced_shfl<T: ShuffleValue>(v: T, rank: u32) -> T {
    let mask = activemask();
    let src = fns(mask, 0, rank as i32 + 1);
    shfl_sync(mask, v, src, 32)
}
