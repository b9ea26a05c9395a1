// Corpus twins: RGBA8 (uchar4) pixels, gain and bias on the colour channels, and to grey.
extern "C" __global__ void rgba_adjust(const uchar4 *src, uchar4 *dst, int n, float gain, float bias)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        uchar4 p = src[i];
        unsigned char r = (unsigned char)fminf(fmaxf(p.x * gain + bias, 0.0f), 255.0f);
        unsigned char g = (unsigned char)fminf(fmaxf(p.y * gain + bias, 0.0f), 255.0f);
        unsigned char b = (unsigned char)fminf(fmaxf(p.z * gain + bias, 0.0f), 255.0f);
        dst[i] = make_uchar4(r, g, b, p.w);
    }
}

extern "C" __global__ void rgba_to_gray(const uchar4 *src, unsigned char *gray, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        uchar4 p = src[i];
        float y = 0.299f * p.x + 0.587f * p.y + 0.114f * p.z;
        gray[i] = (unsigned char)y;
    }
}
