// Corpus twins: matrix transpose, naive and through a 32x33 shared tile (blocks of 32x8).
#define TILE_DIM 32
#define BLOCK_ROWS 8

extern "C" __global__ void transpose_naive(float *out, const float *in, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) {
        out[x * h + y] = in[y * w + x];
    }
}

extern "C" __global__ void transpose_tiled(float *out, const float *in, int w, int h)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
        if (x < w && y + j < h) {
            tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
        }
    }
    __syncthreads();
    x = blockIdx.y * TILE_DIM + threadIdx.x;
    y = blockIdx.x * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
        if (x < h && y + j < w) {
            out[(y + j) * h + x] = tile[threadIdx.x][threadIdx.y + j];
        }
    }
}
