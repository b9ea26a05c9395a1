// CUDA C twin of examples' sgemm: C = alpha * A * B + beta * C for row-major A (m x k), B (k x n),
// C (m x n), m, n multiples of 128 and k a multiple of 8. 256 threads compute a 128x128 tile of C,
// each an 8x8 block held in registers; A and B stream through shared memory 8 columns/rows at a time.
#define BM 128
#define BN 128
#define BK 8
#define TM 8
#define TN 8

extern "C" __global__ void __launch_bounds__(256)
sgemm(const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ c,
      unsigned m, unsigned n, unsigned k, float alpha, float beta)
{
    __shared__ float as[BK][BM];   // A tile, transposed: as[kk][row]
    __shared__ float bs[BK][BN];
    const unsigned tid = threadIdx.x;
    const unsigned tx = tid % 16, ty = tid / 16;
    const unsigned row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;

    float acc[TM][TN];
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j)
            acc[i][j] = 0.0f;

    for (unsigned kt = 0; kt < k; kt += BK) {
        // Each thread loads 4 elements of A (128 rows x 8 cols) and 4 of B (8 rows x 128 cols).
#pragma unroll
        for (int l = 0; l < 4; ++l) {
            unsigned e = tid + l * 256;
            unsigned ar = e / BK, ac = e % BK;
            as[ac][ar] = a[(unsigned long long)(row0 + ar) * k + kt + ac];
            unsigned br = e / BN, bc = e % BN;
            bs[br][bc] = b[(unsigned long long)(kt + br) * n + col0 + bc];
        }
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
            float af[TM], bf[TN];
#pragma unroll
            for (int i = 0; i < TM; ++i) af[i] = as[kk][ty * TM + i];
#pragma unroll
            for (int j = 0; j < TN; ++j) bf[j] = bs[kk][tx * TN + j];
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN; ++j)
                    acc[i][j] += af[i] * bf[j];
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) {
            unsigned long long idx = (unsigned long long)(row0 + ty * TM + i) * n + col0 + tx * TN + j;
            c[idx] = alpha * acc[i][j] + beta * c[idx];
        }
}
