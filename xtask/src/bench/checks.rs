//! Checks of a benchmark kernel's output at the size it is timed, applied to ours and to the nvcc
//! twin alike before their row is timed: a kernel that computes the wrong thing fails its row
//! instead of reporting a speed (a small-size check says nothing of the indexing at 2^28
//! elements, and an unchecked twin could be fast because it is wrong).
//!
//! saxpy and transpose are checked in full (one pass over the data). SGEMM at 4096^3 would take
//! the CPU minutes, so [`sgemm_sampled`] checks [`SGEMM_SAMPLES`] elements spread over the whole
//! output (its corners among them) against an f64 dot product, within the rounding-error bound of
//! an f32 sum of `k` products in any order.

use ferrocuda_examples::util::Rng;

/// Unit roundoff of f32 (2^-24).
const U: f64 = f32::EPSILON as f64 / 2.0;

/// Elements of C an SGEMM check computes: with one wrong 32x32 tile among 128x128 of them
/// (4096^2 outputs), a random sample of this many misses it with probability below 2e-7.
pub const SGEMM_SAMPLES: usize = 16384;

/// `got == a * x + y0` elementwise, within the rounding of a multiply and an add (fused or not).
pub fn saxpy(a: f32, x: &[f32], y0: &[f32], got: &[f32]) -> Result<(), String> {
    same_len(got.len(), x.len())?;
    same_len(y0.len(), x.len())?;
    for (i, ((&x, &y), &g)) in x.iter().zip(y0).zip(got).enumerate() {
        let (ax, y) = (a as f64 * x as f64, y as f64);
        let want = ax + y;
        let tol = 2.0 * U * (ax.abs() + y.abs()) + f64::from(f32::MIN_POSITIVE);
        if !(g as f64 - want).abs().le(&tol) {
            return Err(format!("y[{i}] is {g}, expected {want} (a * x + y)"));
        }
    }
    Ok(())
}

/// `got[x * h + y] == inp[y * w + x]` bit for bit: `inp` is `h` rows of `w`, `got` its transpose.
pub fn transpose(inp: &[f32], w: usize, h: usize, got: &[f32]) -> Result<(), String> {
    same_len(inp.len(), w * h)?;
    same_len(got.len(), w * h)?;
    for y in 0..h {
        for x in 0..w {
            let (g, want) = (got[x * h + y], inp[y * w + x]);
            if g.to_bits() != want.to_bits() {
                return Err(format!(
                    "out[{x}][{y}] is {g}, expected in[{y}][{x}] = {want}"
                ));
            }
        }
    }
    Ok(())
}

/// The shapes and scalars of `C = alpha * A * B + beta * C0` (row-major, A m x k, B k x n).
#[derive(Clone, Copy, Debug)]
pub struct Gemm {
    pub m: usize,
    pub n: usize,
    pub k: usize,
    pub alpha: f32,
    pub beta: f32,
}

/// `samples` (row, column) positions of an m x n output: the four corners, then positions drawn
/// at random (seeded, so a failure repeats).
pub fn sample_positions(m: usize, n: usize, samples: usize, seed: u64) -> Vec<(usize, usize)> {
    let mut out = vec![(0, 0), (0, n - 1), (m - 1, 0), (m - 1, n - 1)];
    let mut rng = Rng::new(seed);
    while out.len() < samples.max(4) {
        out.push((rng.next_u32() as usize % m, rng.next_u32() as usize % n));
    }
    out
}

/// `got` against `C = alpha * A * B + beta * C0` at `positions`: each element within the
/// worst-case rounding of an f32 sum of `k` products plus the scaling (`(k + 2) * u` times the
/// sum of the terms' magnitudes), whatever order and fusing the kernel uses.
pub fn sgemm_at(
    g: Gemm,
    a: &[f32],
    b: &[f32],
    c0: &[f32],
    got: &[f32],
    positions: &[(usize, usize)],
) -> Result<(), String> {
    same_len(a.len(), g.m * g.k)?;
    same_len(b.len(), g.k * g.n)?;
    same_len(c0.len(), g.m * g.n)?;
    same_len(got.len(), g.m * g.n)?;
    for &(i, j) in positions {
        let (mut dot, mut mag) = (0.0f64, 0.0f64);
        for p in 0..g.k {
            let t = a[i * g.k + p] as f64 * b[p * g.n + j] as f64;
            dot += t;
            mag += t.abs();
        }
        let (alpha, beta, c) = (g.alpha as f64, g.beta as f64, c0[i * g.n + j] as f64);
        let want = alpha * dot + beta * c;
        let tol = (g.k as f64 + 2.0) * U * (alpha.abs() * mag + (beta * c).abs())
            + f64::from(f32::MIN_POSITIVE);
        let v = got[i * g.n + j];
        if !(v as f64 - want).abs().le(&tol) {
            return Err(format!("C[{i}][{j}] is {v}, expected {want} (+-{tol:.2e})"));
        }
    }
    Ok(())
}

/// [`sgemm_at`] over [`SGEMM_SAMPLES`] sampled positions.
pub fn sgemm_sampled(g: Gemm, a: &[f32], b: &[f32], c0: &[f32], got: &[f32]) -> Result<(), String> {
    let positions = sample_positions(g.m, g.n, SGEMM_SAMPLES, 0x5eed);
    sgemm_at(g, a, b, c0, got, &positions)
}

fn same_len(got: usize, want: usize) -> Result<(), String> {
    if got == want {
        Ok(())
    } else {
        Err(format!("{got} elements, expected {want}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saxpy_accepts_fused_and_unfused_and_rejects_a_wrong_element() {
        let mut rng = Rng::new(1);
        let (x, y) = (rng.vec_f32(4099), rng.vec_f32(4099));
        let a = 1.0001f32;
        let fused: Vec<f32> = x.iter().zip(&y).map(|(x, y)| a.mul_add(*x, *y)).collect();
        let unfused: Vec<f32> = x.iter().zip(&y).map(|(x, y)| a * x + y).collect();
        saxpy(a, &x, &y, &fused).unwrap();
        saxpy(a, &x, &y, &unfused).unwrap();
        for bad in [
            // The untouched input (a kernel that did not run), one element off, a NaN.
            y.clone(),
            {
                let mut v = fused.clone();
                v[4098] = f32::from_bits(v[4098].to_bits() + 4);
                v
            },
            {
                let mut v = fused.clone();
                v[17] = f32::NAN;
                v
            },
        ] {
            assert!(saxpy(a, &x, &y, &bad).is_err());
        }
        assert!(saxpy(a, &x, &y, &fused[1..]).is_err());
    }

    #[test]
    fn transpose_is_checked_bit_for_bit() {
        let (w, h) = (48, 40);
        let inp = Rng::new(2).vec_f32(w * h);
        let mut out = vec![0.0; w * h];
        for y in 0..h {
            for x in 0..w {
                out[x * h + y] = inp[y * w + x];
            }
        }
        transpose(&inp, w, h, &out).unwrap();
        // Square-like mix-ups: the input itself, and the transpose of the other shape.
        assert!(transpose(&inp, w, h, &inp).is_err());
        let mut swapped = out.clone();
        swapped.swap(5, 6);
        assert!(transpose(&inp, w, h, &swapped).is_err());
        let mut neg_zero = out.clone();
        let i = neg_zero.iter().position(|v| *v != 0.0).unwrap();
        neg_zero[i] = -neg_zero[i];
        assert!(transpose(&inp, w, h, &neg_zero).is_err());
    }

    fn gemm_f32(g: Gemm, a: &[f32], b: &[f32], c0: &[f32]) -> Vec<f32> {
        let mut c = vec![0.0f32; g.m * g.n];
        for i in 0..g.m {
            for j in 0..g.n {
                // Plain f32 accumulation in order, as a kernel's loop does.
                let mut s = 0.0f32;
                for p in 0..g.k {
                    s = a[i * g.k + p].mul_add(b[p * g.n + j], s);
                }
                c[i * g.n + j] = g.alpha * s + g.beta * c0[i * g.n + j];
            }
        }
        c
    }

    #[test]
    fn sgemm_accepts_an_f32_product_and_rejects_a_wrong_tile() {
        let g = Gemm {
            m: 96,
            n: 128,
            k: 512,
            alpha: 1.25,
            beta: -0.5,
        };
        let mut rng = Rng::new(3);
        let (a, b, c0) = (
            rng.vec_f32(g.m * g.k),
            rng.vec_f32(g.k * g.n),
            rng.vec_f32(g.m * g.n),
        );
        let c = gemm_f32(g, &a, &b, &c0);
        let all: Vec<(usize, usize)> = (0..g.m)
            .flat_map(|i| (0..g.n).map(move |j| (i, j)))
            .collect();
        sgemm_at(g, &a, &b, &c0, &c, &all).unwrap();
        sgemm_sampled(g, &a, &b, &c0, &c).unwrap();
        // One 32x32 tile that skipped the last 8 products of its sums (a k-loop bound bug).
        let short = Gemm { k: g.k - 8, ..g };
        let mut bad = c.clone();
        let partial = gemm_f32(
            short,
            &(0..g.m)
                .flat_map(|i| a[i * g.k..i * g.k + short.k].to_vec())
                .collect::<Vec<_>>(),
            &b[..short.k * g.n],
            &c0,
        );
        for i in 32..64 {
            for j in 64..96 {
                bad[i * g.n + j] = partial[i * g.n + j];
            }
        }
        assert!(sgemm_at(g, &a, &b, &c0, &bad, &all).is_err());
        assert!(sgemm_sampled(g, &a, &b, &c0, &bad).is_err());
        // beta ignored: every element off by 0.5 * C0.
        let no_beta = gemm_f32(Gemm { beta: 0.0, ..g }, &a, &b, &c0);
        assert!(sgemm_sampled(g, &a, &b, &c0, &no_beta).is_err());
        // A corner the random draw could miss is always checked.
        let mut corner = c.clone();
        corner[g.m * g.n - 1] += 1.0;
        assert!(sgemm_sampled(g, &a, &b, &c0, &corner).is_err());
    }

    #[test]
    fn samples_cover_the_corners_and_stay_inside() {
        let p = sample_positions(7, 5, 100, 9);
        assert_eq!(p.len(), 100);
        for c in [(0, 0), (0, 4), (6, 0), (6, 4)] {
            assert!(p.contains(&c));
        }
        assert!(p.iter().all(|&(i, j)| i < 7 && j < 5));
    }
}
