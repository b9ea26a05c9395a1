// CUDA C twin of examples' reduction (reduce_shfl): each thread sums a grid-stride slice, warps
// combine with __shfl_down_sync, warp sums meet in shared memory, the first warp combines them and
// thread 0 adds the block's sum to *out with atomicAdd. Wrapping unsigned sums.
#define BLOCK 256
#define WARPS (BLOCK / 32)
#define FULL 0xffffffffu

__device__ __forceinline__ unsigned warp_sum(unsigned s)
{
    s += __shfl_down_sync(FULL, s, 16);
    s += __shfl_down_sync(FULL, s, 8);
    s += __shfl_down_sync(FULL, s, 4);
    s += __shfl_down_sync(FULL, s, 2);
    s += __shfl_down_sync(FULL, s, 1);
    return s;
}

extern "C" __global__ void __launch_bounds__(BLOCK) reduce_shfl(const unsigned *__restrict__ in, unsigned long long n, unsigned *out)
{
    __shared__ unsigned warp_sums[WARPS];
    unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
    unsigned s = 0;
    for (unsigned long long i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        s += in[i];
    }
    s = warp_sum(s);
    unsigned t = threadIdx.x;
    if (t % 32 == 0) {
        warp_sums[t / 32] = s;
    }
    __syncthreads();
    if (t < 32) {
        unsigned w = t < WARPS ? warp_sums[t] : 0;
        unsigned total = warp_sum(w);
        if (t == 0) {
            atomicAdd(out, total);
        }
    }
}
