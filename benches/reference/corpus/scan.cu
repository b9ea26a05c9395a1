// Corpus twins: per-block inclusive scan (Hillis-Steele, double-buffered shared array), the
// offset pass of the device-wide scan, and the flag and scatter passes of stream compaction.
#define BLOCK 256

extern "C" __global__ void scan_block(const unsigned *in, unsigned *out, unsigned *sums, int n)
{
    __shared__ unsigned temp[2][BLOCK];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    temp[0][t] = i < n ? in[i] : 0;
    __syncthreads();
    int pout = 0;
    for (int offset = 1; offset < BLOCK; offset *= 2) {
        pout = 1 - pout;
        int pin = 1 - pout;
        if (t >= offset) {
            temp[pout][t] = temp[pin][t] + temp[pin][t - offset];
        } else {
            temp[pout][t] = temp[pin][t];
        }
        __syncthreads();
    }
    if (i < n) {
        out[i] = temp[pout][t];
    }
    if (t == BLOCK - 1) {
        sums[blockIdx.x] = temp[pout][t];
    }
}

extern "C" __global__ void add_offsets(unsigned *data, const unsigned *scanned_sums, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (blockIdx.x > 0 && i < n) {
        data[i] += scanned_sums[blockIdx.x - 1];
    }
}

extern "C" __global__ void compact_flags(const float *x, unsigned *flags, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        flags[i] = x[i] > 0.0f ? 1 : 0;
    }
}

extern "C" __global__ void compact_scatter(const float *x, const unsigned *ranks, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        if (v > 0.0f) {
            out[ranks[i] - 1] = v;
        }
    }
}
