// Corpus twins: separable convolution, radius 8, clamped edges, row and column passes.
#define R 8

extern "C" __global__ void conv_row(const float *in, float *out, const float *taps, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) {
        float sum = 0.0f;
        for (int j = 0; j < 2 * R + 1; ++j) {
            int xx = min(max(x + j - R, 0), w - 1);
            sum += taps[j] * in[y * w + xx];
        }
        out[y * w + x] = sum;
    }
}

extern "C" __global__ void conv_col(const float *in, float *out, const float *taps, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) {
        float sum = 0.0f;
        for (int j = 0; j < 2 * R + 1; ++j) {
            int yy = min(max(y + j - R, 0), h - 1);
            sum += taps[j] * in[yy * w + x];
        }
        out[y * w + x] = sum;
    }
}
