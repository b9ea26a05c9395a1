// CUDA C twin of examples' shared-memory array reverse within each block (block size 256).
extern "C" __global__ void reverse_block(const int *__restrict__ in, int *__restrict__ out)
{
    __shared__ int s[256];
    unsigned t = threadIdx.x, base = blockIdx.x * 256;
    s[t] = in[base + t];
    __syncthreads();
    out[base + t] = s[255 - t];
}
