// CUDA C twins of examples' reduction (reduce_shfl): each thread sums a grid-stride slice, warps
// combine with __shfl_down_sync, warp sums meet in shared memory, the first warp combines them and
// thread 0 adds the block's sum to *out with atomicAdd. Wrapping unsigned sums.
// Two twins of the one Rust kernel:
// - reduce_shfl writes the grid-stride loop plainly, as the Rust kernel is written; nvcc compiles
//   it as written, one load in flight per thread.
// - reduce_shfl_unrolled is what a CUDA expert writes for bandwidth: the loop unrolled by hand to
//   four loads per trip, issued before their adds, then the last zero to three elements (what our
//   compiler's stride_unroll does to the Rust kernel's loop).
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

// Each thread's sum `s` combined over the block and added to *out.
__device__ __forceinline__ void block_sum(unsigned s, unsigned *out)
{
    __shared__ unsigned warp_sums[WARPS];
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

extern "C" __global__ void __launch_bounds__(BLOCK) reduce_shfl(const unsigned *__restrict__ in, unsigned long long n, unsigned *out)
{
    unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
    unsigned s = 0;
    for (unsigned long long i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        s += in[i];
    }
    block_sum(s, out);
}

extern "C" __global__ void __launch_bounds__(BLOCK) reduce_shfl_unrolled(const unsigned *__restrict__ in, unsigned long long n, unsigned *out)
{
    unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
    unsigned long long i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned s = 0;
    // Four independent loads in flight per thread (n >= 3 * stride: no wrap below zero).
    for (; n >= 3 * stride && i < n - 3 * stride; i += 4 * stride) {
        unsigned a = in[i];
        unsigned b = in[i + stride];
        unsigned c = in[i + 2 * stride];
        unsigned d = in[i + 3 * stride];
        s += (a + b) + (c + d);
    }
    for (; i < n; i += stride) {
        s += in[i];
    }
    block_sum(s, out);
}
