// Corpus twin: 256-bin byte histogram over uint4 loads with a shared sub-histogram per block.
extern "C" __global__ void histogram_uint4(const uint4 *data, unsigned *hist, int n4)
{
    __shared__ unsigned sub[256];
    int t = threadIdx.x;
    sub[t] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += blockDim.x * gridDim.x) {
        uint4 v = data[i];
        unsigned words[4] = {v.x, v.y, v.z, v.w};
        for (int k = 0; k < 4; ++k) {
            unsigned w = words[k];
            atomicAdd(&sub[w & 0xff], 1);
            atomicAdd(&sub[(w >> 8) & 0xff], 1);
            atomicAdd(&sub[(w >> 16) & 0xff], 1);
            atomicAdd(&sub[w >> 24], 1);
        }
    }
    __syncthreads();
    if (sub[t] > 0) {
        atomicAdd(&hist[t], sub[t]);
    }
}
