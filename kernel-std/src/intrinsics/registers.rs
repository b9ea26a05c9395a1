//! Built-in registers (`threadIdx`...), clocks and `__syncthreads`.

use super::{Class, IntrinsicDef, SimEnv};
use kernel_ir::ir::Ty;

const U32: Ty = Ty::U32;

fn sim_tid_x(e: &mut dyn SimEnv, _: &[u64], o: &mut [u64]) {
    o[0] = e.thread_idx()[0] as u64;
}
fn sim_tid_y(e: &mut dyn SimEnv, _: &[u64], o: &mut [u64]) {
    o[0] = e.thread_idx()[1] as u64;
}
fn sim_tid_z(e: &mut dyn SimEnv, _: &[u64], o: &mut [u64]) {
    o[0] = e.thread_idx()[2] as u64;
}
fn sim_ctaid_x(e: &mut dyn SimEnv, _: &[u64], o: &mut [u64]) {
    o[0] = e.block_idx()[0] as u64;
}
fn sim_ctaid_y(e: &mut dyn SimEnv, _: &[u64], o: &mut [u64]) {
    o[0] = e.block_idx()[1] as u64;
}
fn sim_ctaid_z(e: &mut dyn SimEnv, _: &[u64], o: &mut [u64]) {
    o[0] = e.block_idx()[2] as u64;
}
fn sim_ntid_x(e: &mut dyn SimEnv, _: &[u64], o: &mut [u64]) {
    o[0] = e.block_dim()[0] as u64;
}
fn sim_ntid_y(e: &mut dyn SimEnv, _: &[u64], o: &mut [u64]) {
    o[0] = e.block_dim()[1] as u64;
}
fn sim_ntid_z(e: &mut dyn SimEnv, _: &[u64], o: &mut [u64]) {
    o[0] = e.block_dim()[2] as u64;
}
fn sim_nctaid_x(e: &mut dyn SimEnv, _: &[u64], o: &mut [u64]) {
    o[0] = e.grid_dim()[0] as u64;
}
fn sim_nctaid_y(e: &mut dyn SimEnv, _: &[u64], o: &mut [u64]) {
    o[0] = e.grid_dim()[1] as u64;
}
fn sim_nctaid_z(e: &mut dyn SimEnv, _: &[u64], o: &mut [u64]) {
    o[0] = e.grid_dim()[2] as u64;
}
fn sim_warp_size(_: &mut dyn SimEnv, _: &[u64], o: &mut [u64]) {
    o[0] = 32;
}
fn sim_lane_id(e: &mut dyn SimEnv, _: &[u64], o: &mut [u64]) {
    let [x, y, z] = e.thread_idx();
    let [dx, dy, _] = e.block_dim();
    o[0] = ((x + dx * (y + dy * z)) % 32) as u64;
}
fn sim_clock(e: &mut dyn SimEnv, _: &[u64], o: &mut [u64]) {
    o[0] = e.clock() & 0xffff_ffff;
}
fn sim_clock64(e: &mut dyn SimEnv, _: &[u64], o: &mut [u64]) {
    o[0] = e.clock();
}

macro_rules! reg {
    ($name:literal, $ptx:literal, $sim:ident) => {
        IntrinsicDef {
            name: $name,
            args: &[],
            rets: &[U32],
            min_sm: 70,
            ptx: $ptx,
            class: Class::Pure,
            sim: Some($sim),
            sim_warp: None,
        }
    };
}

/// Thread/block registers, clocks and the block barrier.
pub(super) static ENTRIES: &[IntrinsicDef] = &[
    reg!("tid.x", "mov.u32 {d0}, %tid.x", sim_tid_x),
    reg!("tid.y", "mov.u32 {d0}, %tid.y", sim_tid_y),
    reg!("tid.z", "mov.u32 {d0}, %tid.z", sim_tid_z),
    reg!("ctaid.x", "mov.u32 {d0}, %ctaid.x", sim_ctaid_x),
    reg!("ctaid.y", "mov.u32 {d0}, %ctaid.y", sim_ctaid_y),
    reg!("ctaid.z", "mov.u32 {d0}, %ctaid.z", sim_ctaid_z),
    reg!("ntid.x", "mov.u32 {d0}, %ntid.x", sim_ntid_x),
    reg!("ntid.y", "mov.u32 {d0}, %ntid.y", sim_ntid_y),
    reg!("ntid.z", "mov.u32 {d0}, %ntid.z", sim_ntid_z),
    reg!("nctaid.x", "mov.u32 {d0}, %nctaid.x", sim_nctaid_x),
    reg!("nctaid.y", "mov.u32 {d0}, %nctaid.y", sim_nctaid_y),
    reg!("nctaid.z", "mov.u32 {d0}, %nctaid.z", sim_nctaid_z),
    reg!("warp_size", "mov.u32 {d0}, WARP_SZ", sim_warp_size),
    reg!("lane_id", "mov.u32 {d0}, %laneid", sim_lane_id),
    IntrinsicDef {
        name: "clock",
        args: &[],
        rets: &[U32],
        min_sm: 70,
        ptx: "mov.u32 {d0}, %clock",
        class: Class::Memory,
        sim: Some(sim_clock),
        sim_warp: None,
    },
    IntrinsicDef {
        name: "clock64",
        args: &[],
        rets: &[Ty::U64],
        min_sm: 70,
        ptx: "mov.u64 {d0}, %clock64",
        class: Class::Memory,
        sim: Some(sim_clock64),
        sim_warp: None,
    },
    IntrinsicDef {
        name: "sync_threads",
        args: &[],
        rets: &[],
        min_sm: 70,
        ptx: "bar.sync 0",
        class: Class::Barrier,
        sim: None,
        sim_warp: None,
    },
];
