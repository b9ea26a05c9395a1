// Corpus twins: row-major matrix products, naive, 16x16 shared tiles (as in the programming
// guide), and a 128x128 register-tiled SGEMM (8x8 accumulators per thread, 256 threads).
#define T 16

extern "C" __global__ void matmul_naive(const float *a, const float *b, float *c, int n)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < n && col < n) {
        float sum = 0.0f;
        for (int k = 0; k < n; ++k) {
            sum += a[row * n + k] * b[k * n + col];
        }
        c[row * n + col] = sum;
    }
}

extern "C" __global__ void matmul_tiled(const float *a, const float *b, float *c, int n)
{
    __shared__ float as[T][T];
    __shared__ float bs[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * T + ty;
    int col = blockIdx.x * T + tx;
    float sum = 0.0f;
    for (int t = 0; t < n / T; ++t) {
        as[ty][tx] = a[row * n + t * T + tx];
        bs[ty][tx] = b[(t * T + ty) * n + col];
        __syncthreads();
        for (int k = 0; k < T; ++k) {
            sum += as[ty][k] * bs[k][tx];
        }
        __syncthreads();
    }
    c[row * n + col] = sum;
}

extern "C" __global__ void sgemm_regtile(const float *a, const float *b, float *c, int m, int n, int k,
                                         float alpha, float beta)
{
    __shared__ float as[8][128];
    __shared__ float bs[8][128];
    int tid = threadIdx.x;
    int tx = tid % 16, ty = tid / 16;
    int row0 = blockIdx.y * 128, col0 = blockIdx.x * 128;
    float acc[8][8];
    for (int i = 0; i < 8; ++i)
        for (int j = 0; j < 8; ++j)
            acc[i][j] = 0.0f;
    for (int kt = 0; kt < k; kt += 8) {
        for (int l = 0; l < 4; ++l) {
            int e = tid + l * 256;
            int ar = e / 8, ac = e % 8;
            as[ac][ar] = a[(row0 + ar) * k + kt + ac];
            int br = e / 128, bc = e % 128;
            bs[br][bc] = b[(kt + br) * n + col0 + bc];
        }
        __syncthreads();
        for (int kk = 0; kk < 8; ++kk) {
            float af[8], bf[8];
            for (int i = 0; i < 8; ++i) af[i] = as[kk][ty * 8 + i];
            for (int j = 0; j < 8; ++j) bf[j] = bs[kk][tx * 8 + j];
            for (int i = 0; i < 8; ++i)
                for (int j = 0; j < 8; ++j)
                    acc[i][j] += af[i] * bf[j];
        }
        __syncthreads();
    }
    for (int i = 0; i < 8; ++i)
        for (int j = 0; j < 8; ++j) {
            int idx = (row0 + ty * 8 + i) * n + col0 + tx * 8 + j;
            c[idx] = alpha * acc[i][j] + beta * c[idx];
        }
}
