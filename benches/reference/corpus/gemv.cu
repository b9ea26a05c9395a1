// Corpus twins: dense matrix-vector products, thread per row (A x) and per column (A^T x).
extern "C" __global__ void gemv_rows(const float *a, const float *x, float *y, int m, int n)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < m) {
        float sum = 0.0f;
        for (int c = 0; c < n; ++c) {
            sum += a[r * n + c] * x[c];
        }
        y[r] = sum;
    }
}

extern "C" __global__ void gemv_cols(const float *a, const float *x, float *y, int m, int n)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c < n) {
        float sum = 0.0f;
        for (int r = 0; r < m; ++r) {
            sum += a[r * n + c] * x[r];
        }
        y[c] = sum;
    }
}
