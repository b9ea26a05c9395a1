//! Runs lowered (unoptimized) IR on the simulator, one thread, with the argument shapes the
//! front-end tests use.

use kernel_ir::ir::{Kernel, ParamKind, SiteId};
use kernel_sim::{self as sim, BlockOrder, GlobalMemory, SimErrorKind, SimLaunch};

/// A kernel argument: a scalar's bits, a buffer (for slices), or raw bytes (structs, arrays).
#[derive(Clone, Debug)]
pub enum Arg {
    Bits(u64),
    Buf(Vec<u8>),
    Bytes(Vec<u8>),
}

pub fn f32s(v: &[f32]) -> Arg {
    Arg::Buf(v.iter().flat_map(|x| x.to_le_bytes()).collect())
}
pub fn i32s(v: &[i32]) -> Arg {
    Arg::Buf(v.iter().flat_map(|x| x.to_le_bytes()).collect())
}
pub fn i64s(v: &[i64]) -> Arg {
    Arg::Buf(v.iter().flat_map(|x| x.to_le_bytes()).collect())
}
pub fn as_i32(b: &[u8]) -> Vec<i32> {
    b.chunks(4)
        .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}
pub fn as_f32(b: &[u8]) -> Vec<f32> {
    b.chunks(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}
pub fn as_i64(b: &[u8]) -> Vec<i64> {
    b.chunks(8)
        .map(|c| i64::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

#[derive(Debug)]
pub struct Outcome {
    /// Final contents of each buffer argument, in argument order.
    pub bufs: Vec<Vec<u8>>,
    /// `(site, a, b)` when the thread panicked.
    pub panic: Option<(SiteId, u64, u64)>,
}

/// Runs a one-thread launch with `dyn_shared` bytes of dynamic shared memory. Simulator errors
/// other than kernel panics fail the test.
pub fn run(k: &Kernel, args: &[Arg], dyn_shared: u32) -> Outcome {
    assert_eq!(k.params.len(), args.len(), "argument count");
    let mut mem = GlobalMemory::new();
    let mut params = Vec::new();
    let mut bufs = Vec::new();
    for (p, a) in k.params.iter().zip(args) {
        match (p.kind, a) {
            (ParamKind::Scalar, Arg::Bits(b)) => {
                params.push(b.to_le_bytes()[..p.size as usize].to_vec())
            }
            (ParamKind::Slice { elem_bytes, .. }, Arg::Buf(data)) => {
                let addr = mem.alloc(data.len().max(1));
                mem.write(addr, data).unwrap();
                let mut b = addr.to_le_bytes().to_vec();
                b.extend_from_slice(&(data.len() as u64 / elem_bytes as u64).to_le_bytes());
                params.push(b);
                bufs.push((addr, data.len()));
            }
            (ParamKind::Struct, Arg::Bytes(data)) => params.push(data.clone()),
            (kind, a) => panic!("argument {a:?} does not fit parameter kind {kind:?}"),
        }
    }
    let cfg = SimLaunch {
        grid: [1, 1, 1],
        block: [1, 1, 1],
        block_order: BlockOrder::Sequential,
        ..SimLaunch::linear(1, 1).with_dynamic_shared(dyn_shared)
    };
    let refs: Vec<&[u8]> = params.iter().map(|p| p.as_slice()).collect();
    let panic = match sim::launch(k, &cfg, &refs, &mut mem) {
        Ok(_) => None,
        Err(e) => match e.kind {
            SimErrorKind::Panic(_) => Some((e.site.expect("panic site"), e.a, e.b)),
            _ => panic!("simulator error: {e}\n{k:#?}"),
        },
    };
    let bufs = bufs
        .into_iter()
        .map(|(addr, n)| {
            let mut out = vec![0u8; n];
            mem.read(addr, &mut out).unwrap();
            out
        })
        .collect();
    Outcome { bufs, panic }
}
