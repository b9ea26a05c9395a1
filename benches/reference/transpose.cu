// CUDA C twin of examples' transpose: 32x32 tiles through shared memory padded to 33 columns,
// blocks of 32x8 threads, each thread moving four rows of its tile.
#define TILE 32
#define ROWS 8

extern "C" __global__ void transpose(float *__restrict__ out, const float *__restrict__ in, unsigned w, unsigned h)
{
    __shared__ float tile[TILE][TILE + 1];
    unsigned x = blockIdx.x * TILE + threadIdx.x;
    unsigned y = blockIdx.y * TILE + threadIdx.y;
    for (unsigned r = 0; r < TILE; r += ROWS) {
        if (x < w && y + r < h) {
            tile[threadIdx.y + r][threadIdx.x] = in[(unsigned long long)(y + r) * w + x];
        }
    }
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (unsigned r = 0; r < TILE; r += ROWS) {
        if (x < h && y + r < w) {
            out[(unsigned long long)(y + r) * h + x] = tile[threadIdx.x][threadIdx.y + r];
        }
    }
}
