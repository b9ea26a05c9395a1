// CUDA C twin of examples' histogram256: per-block 256-bin sub-histogram in shared memory built
// with block-scope shared atomics over a grid-stride loop (four bytes per 32-bit word), then
// merged into the global histogram with atomicAdd.
#define BLOCK 256
#define BINS 256

extern "C" __global__ void __launch_bounds__(BLOCK) histogram256(const unsigned *__restrict__ words, unsigned long long n, unsigned *hist)
{
    __shared__ unsigned sub[BINS];
    unsigned t = threadIdx.x;
    sub[t] = 0;
    __syncthreads();
    unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
    for (unsigned long long i = (unsigned long long)blockIdx.x * BLOCK + t; i < n; i += stride) {
        unsigned w = words[i];
        atomicAdd_block(&sub[w & 0xff], 1);
        atomicAdd_block(&sub[(w >> 8) & 0xff], 1);
        atomicAdd_block(&sub[(w >> 16) & 0xff], 1);
        atomicAdd_block(&sub[w >> 24], 1);
    }
    __syncthreads();
    unsigned c = sub[t];
    if (c != 0) {
        atomicAdd(&hist[t], c);
    }
}
