//! `bench tma` (sm_90): the tensor memory accelerator against the baselines issue 18 names. The
//! TMA 2-D copy of a 1 GiB f32 tensor (32x32 boxes, `tma_copy_2d`) against `cuMemcpyDtoD` of
//! the same bytes (the ratio must reach 0.9), and the 128-byte-swizzled TMA transpose
//! (`tma_transpose`) against the shared-memory transpose of the `transpose` row (the ratio must
//! reach 1). Every output is checked in full at the timed size, after the timed runs (which all
//! write the same values).

use ferrocuda::host_runtime::{Device, DeviceBuffer, Stream, TensorMapSwizzle};
use ferrocuda_examples::tma::{self, tma_copy_2d, tma_transpose};
use ferrocuda_examples::transpose;
use ferrocuda_examples::util::Rng;

use super::checks;
use super::report::{Row, Unit};
use super::timing::time_pair;
use super::twins::Twins;

fn e(x: impl std::fmt::Display) -> String {
    x.to_string()
}

pub fn bench(dev: &Device, _: &Twins) -> Result<Vec<Row>, String> {
    let copy_name = "TMA 2-D copy, 16384^2 f32 in 32x32 boxes (vs cuMemcpyDtoD of the same 1 GiB)";
    let transpose_name =
        "TMA transpose, 128 B swizzle, 8192^2 f32 (vs the shared-memory transpose)";
    let sm = dev.properties().sm();
    if sm < 90 {
        let why = format!("needs sm_90; this device is sm_{sm}");
        return Ok(vec![
            Row::failed(copy_name, &why),
            Row::failed(transpose_name, &why),
        ]);
    }
    let s = Stream::new(dev).map_err(e)?;
    let mut rows = Vec::new();

    // The copy.
    let (w, h) = (16384u32, 16384u32);
    let n = (w * h) as usize;
    let host = Rng::new(31).vec_f32(n);
    let src = DeviceBuffer::upload(dev, &host).map_err(e)?;
    let mut dst = DeviceBuffer::upload(dev, &vec![f32::NAN; n]).map_err(e)?;
    let mut dst2 = DeviceBuffer::<f32>::alloc(dev, n).map_err(e)?;
    {
        let sm = tma::map_desc(w, h, TensorMapSwizzle::None)
            .encode(&src)
            .map_err(e)?;
        let mut dm = tma::map_desc(w, h, TensorMapSwizzle::None)
            .encode_mut(&mut dst)
            .map_err(e)?;
        let cfg = tma::config(w, h);
        tma_copy_2d::launch(&s, cfg, &sm, &mut dm)
            .and_then(|()| s.synchronize())
            .map_err(e)?;
        let (ours, memcpy) = time_pair(
            dev,
            &s,
            |s| tma_copy_2d::launch(s, cfg, &sm, &mut dm),
            Some(|s: &Stream| dst2.copy_from_async(&src, s)),
        )
        .map_err(e)?;
        rows.push(Row::new(
            copy_name,
            Unit::GBps,
            8.0 * n as f64,
            Some(ours),
            memcpy,
        ));
    }
    if dst.to_vec().map_err(e)? != host {
        return Err("TMA copy: the destination differs from the source".into());
    }
    drop((dst, dst2, src));

    // The transpose.
    let (w, h) = (8192u32, 8192u32);
    let n = (w * h) as usize;
    let host = Rng::new(3).vec_f32(n);
    let inp = DeviceBuffer::upload(dev, &host).map_err(e)?;
    let mut out = DeviceBuffer::upload(dev, &vec![f32::NAN; n]).map_err(e)?;
    let mut out2 = DeviceBuffer::upload(dev, &vec![f32::NAN; n]).map_err(e)?;
    {
        let im = tma::map_desc(w, h, TensorMapSwizzle::B128)
            .encode(&inp)
            .map_err(e)?;
        let mut om = tma::map_desc(h, w, TensorMapSwizzle::None)
            .encode_mut(&mut out)
            .map_err(e)?;
        let cfg = tma::config(w, h);
        let scfg = transpose::config(w, h);
        tma_transpose::launch(&s, cfg, &im, &mut om)
            .and_then(|()| s.synchronize())
            .map_err(e)?;
        transpose::transpose::launch::<32>(&s, scfg, &mut out2, &inp, w, h)
            .and_then(|()| s.synchronize())
            .map_err(e)?;
        let (ours, smem) = time_pair(
            dev,
            &s,
            |s| tma_transpose::launch(s, cfg, &im, &mut om),
            Some(|s: &Stream| transpose::transpose::launch::<32>(s, scfg, &mut out2, &inp, w, h)),
        )
        .map_err(e)?;
        rows.push(Row::new(
            transpose_name,
            Unit::GBps,
            8.0 * n as f64,
            Some(ours),
            smem,
        ));
    }
    checks::transpose(&host, w as usize, h as usize, &out.to_vec().map_err(e)?)
        .map_err(|m| format!("TMA transpose: {m}"))?;
    checks::transpose(&host, w as usize, h as usize, &out2.to_vec().map_err(e)?)
        .map_err(|m| format!("shared-memory transpose: {m}"))?;
    Ok(rows)
}
