//! `bench async-matmul`: globalToShmemAsyncCopy's three stagings of the same tiled multiply
//! (examples/src/async_matmul.rs), timed against each other: `memcpy_async` and the 4- and
//! 8-stage pipelines each against synchronous staging (the ratio column: above 1 is faster
//! than synchronous staging). Every variant's output is checked at the timed size first.

use ferrocuda::host_runtime::{Device, DeviceBuffer, LaunchConfig, Stream};
use ferrocuda::prelude::Dim3;
use ferrocuda_examples::async_matmul::{
    matmul_async, matmul_pipelined, matmul_sync, pipeline_bytes,
};
use ferrocuda_examples::util::Rng;

use super::checks;
use super::report::{Row, Unit};
use super::timing::time_pair;
use super::twins::Twins;

fn e(x: impl std::fmt::Display) -> String {
    x.to_string()
}

pub fn bench(dev: &Device, _twins: &Twins) -> Result<Vec<Row>, String> {
    let n = 2048u32;
    let mut rng = Rng::new(21);
    let len = (n * n) as usize;
    let (a_host, b_host) = (rng.vec_f32(len), rng.vec_f32(len));
    let a = DeviceBuffer::upload(dev, &a_host).map_err(e)?;
    let b = DeviceBuffer::upload(dev, &b_host).map_err(e)?;
    let mut c = DeviceBuffer::upload(dev, &vec![0.0f32; len]).map_err(e)?;
    // The synchronous staging writes its own output while the variant it is timed with runs.
    let mut c_sync = DeviceBuffer::upload(dev, &vec![0.0f32; len]).map_err(e)?;
    let s = Stream::new(dev).map_err(e)?;
    let cfg = LaunchConfig {
        grid: Dim3::new(n / 32, n / 32, 1),
        block: Dim3::new(32, 32, 1),
        shared_mem_bytes: 0,
        attrs: Default::default(),
    };
    let stages = |k: usize| LaunchConfig {
        shared_mem_bytes: pipeline_bytes(32, k),
        ..cfg
    };
    let g = checks::Gemm {
        m: n as usize,
        n: n as usize,
        k: n as usize,
        alpha: 1.0,
        beta: 0.0,
    };
    let zero = vec![0.0f32; len];
    let check = |c: &mut DeviceBuffer<f32>, who: &str| -> Result<(), String> {
        s.synchronize().map_err(e)?;
        let got = c.to_vec().map_err(e)?;
        checks::sgemm_sampled(g, &a_host, &b_host, &zero, &got)
            .map_err(|m| format!("{who}: {m}"))?;
        c.copy_from_host(&zero).map_err(e)
    };
    matmul_sync::launch::<32>(&s, cfg, &a, &b, &mut c, n, n).map_err(e)?;
    check(&mut c, "sync staging")?;
    matmul_async::launch::<32>(&s, cfg, &a, &b, &mut c, n, n).map_err(e)?;
    check(&mut c, "memcpy_async")?;
    matmul_pipelined::launch::<32, 4>(&s, stages(4), &a, &b, &mut c, n, n).map_err(e)?;
    check(&mut c, "4-stage pipeline")?;
    matmul_pipelined::launch::<32, 8>(&s, stages(8), &a, &b, &mut c, n, n).map_err(e)?;
    check(&mut c, "8-stage pipeline")?;

    let flops = 2.0 * (n as f64).powi(3);
    let mut rows = Vec::new();
    let (ours, sync) = time_pair(
        dev,
        &s,
        |s| matmul_async::launch::<32>(s, cfg, &a, &b, &mut c, n, n),
        Some(|s: &Stream| matmul_sync::launch::<32>(s, cfg, &a, &b, &mut c_sync, n, n)),
    )
    .map_err(e)?;
    rows.push(Row::new(
        "async matmul: memcpy_async vs sync staging (2048^3, 32x32 tiles)",
        Unit::Tflops,
        flops,
        Some(ours),
        sync,
    ));
    let (ours, sync) = time_pair(
        dev,
        &s,
        |s| matmul_pipelined::launch::<32, 4>(s, stages(4), &a, &b, &mut c, n, n),
        Some(|s: &Stream| matmul_sync::launch::<32>(s, cfg, &a, &b, &mut c_sync, n, n)),
    )
    .map_err(e)?;
    rows.push(Row::new(
        "async matmul: 4-stage pipeline vs sync staging",
        Unit::Tflops,
        flops,
        Some(ours),
        sync,
    ));
    let (ours, sync) = time_pair(
        dev,
        &s,
        |s| matmul_pipelined::launch::<32, 8>(s, stages(8), &a, &b, &mut c, n, n),
        Some(|s: &Stream| matmul_sync::launch::<32>(s, cfg, &a, &b, &mut c_sync, n, n)),
    )
    .map_err(e)?;
    rows.push(Row::new(
        "async matmul: 8-stage pipeline (64 KiB dynamic shared) vs sync staging",
        Unit::Tflops,
        flops,
        Some(ours),
        sync,
    ));
    Ok(rows)
}
