// Corpus twin: Mandelbrot escape counts, one pixel per thread.
extern "C" __global__ void mandelbrot(int *out, int w, int h, float x0, float y0, float dx, float dy, int max_iter)
{
    int px = blockIdx.x * blockDim.x + threadIdx.x;
    int py = blockIdx.y * blockDim.y + threadIdx.y;
    if (px < w && py < h) {
        float cr = x0 + px * dx;
        float ci = y0 + py * dy;
        float zr = 0.0f, zi = 0.0f;
        int it = 0;
        while (it < max_iter && zr * zr + zi * zi < 4.0f) {
            float t = zr * zr - zi * zi + cr;
            zi = 2.0f * zr * zi + ci;
            zr = t;
            it++;
        }
        out[py * w + px] = it;
    }
}
