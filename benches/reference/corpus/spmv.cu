// Corpus twins: CSR sparse matrix-vector product, one thread per row and one warp per row.
extern "C" __global__ void spmv_csr_scalar(const int *row_ptr, const int *cols, const float *vals,
                                           const float *x, float *y, int rows)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) {
        float sum = 0.0f;
        for (int j = row_ptr[r]; j < row_ptr[r + 1]; ++j) {
            sum += vals[j] * x[cols[j]];
        }
        y[r] = sum;
    }
}

extern "C" __global__ void spmv_csr_vector(const int *row_ptr, const int *cols, const float *vals,
                                           const float *x, float *y, int rows)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    int r = tid / 32;
    int lane = tid % 32;
    if (r < rows) {
        float sum = 0.0f;
        for (int j = row_ptr[r] + lane; j < row_ptr[r + 1]; j += 32) {
            sum += vals[j] * x[cols[j]];
        }
        for (int offset = 16; offset > 0; offset /= 2) {
            sum += __shfl_down_sync(0xffffffff, sum, offset);
        }
        if (lane == 0) {
            y[r] = sum;
        }
    }
}
