// Corpus twins: 5-point 2-D and 7-point 3-D stencils from global memory, and a 5x5 filter over
// a 20x20 shared tile (16x16 block plus a clamped 2-pixel halo).

extern "C" __global__ void stencil2d(const float *in, float *out, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) {
        int i = y * w + x;
        if (x > 0 && y > 0 && x < w - 1 && y < h - 1) {
            out[i] = 0.25f * (in[i - 1] + in[i + 1] + in[i - w] + in[i + w]);
        } else {
            out[i] = in[i];
        }
    }
}

extern "C" __global__ void stencil3d(const float *in, float *out, int nx, int ny, int nz, float c0, float c1)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x < nx && y < ny && z < nz) {
        int i = (z * ny + y) * nx + x;
        if (x > 0 && y > 0 && z > 0 && x < nx - 1 && y < ny - 1 && z < nz - 1) {
            int plane = nx * ny;
            out[i] = c0 * in[i] + c1 * (in[i - 1] + in[i + 1] + in[i - nx] + in[i + nx] + in[i - plane] + in[i + plane]);
        } else {
            out[i] = in[i];
        }
    }
}

extern "C" __global__ void filter5x5(const float *in, float *out, const float *weights, int w, int h)
{
    __shared__ float tile[20][20];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x0 = blockIdx.x * 16 - 2;
    int y0 = blockIdx.y * 16 - 2;
    for (int k = ty * 16 + tx; k < 400; k += 256) {
        int gx = min(max(x0 + k % 20, 0), w - 1);
        int gy = min(max(y0 + k / 20, 0), h - 1);
        tile[k / 20][k % 20] = in[gy * w + gx];
    }
    __syncthreads();
    int x = blockIdx.x * 16 + tx;
    int y = blockIdx.y * 16 + ty;
    if (x < w && y < h) {
        float sum = 0.0f;
        for (int dy = 0; dy < 5; ++dy) {
            for (int dx = 0; dx < 5; ++dx) {
                sum += weights[dy * 5 + dx] * tile[ty + dy][tx + dx];
            }
        }
        out[y * w + x] = sum;
    }
}
