// Corpus twins: row softmax and layer normalization, one 256-thread block per row.
#include <math.h>
#define BLOCK 256

extern "C" __global__ void softmax_rows(const float *in, float *out, int cols)
{
    __shared__ float red[BLOCK];
    int t = threadIdx.x;
    const float *x = in + blockIdx.x * cols;
    float *y = out + blockIdx.x * cols;
    float m = -INFINITY;
    for (int c = t; c < cols; c += blockDim.x) {
        m = fmaxf(m, x[c]);
    }
    red[t] = m;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s /= 2) {
        if (t < s) {
            red[t] = fmaxf(red[t], red[t + s]);
        }
        __syncthreads();
    }
    m = red[0];
    __syncthreads();
    float sum = 0.0f;
    for (int c = t; c < cols; c += blockDim.x) {
        sum += expf(x[c] - m);
    }
    red[t] = sum;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s /= 2) {
        if (t < s) {
            red[t] += red[t + s];
        }
        __syncthreads();
    }
    sum = red[0];
    for (int c = t; c < cols; c += blockDim.x) {
        y[c] = expf(x[c] - m) / sum;
    }
}

extern "C" __global__ void layernorm(const float *in, float *out, const float *gamma, const float *beta,
                                     int cols, float eps)
{
    __shared__ float s1[BLOCK];
    __shared__ float s2[BLOCK];
    int t = threadIdx.x;
    const float *x = in + blockIdx.x * cols;
    float *y = out + blockIdx.x * cols;
    float sum = 0.0f, sq = 0.0f;
    for (int c = t; c < cols; c += blockDim.x) {
        float v = x[c];
        sum += v;
        sq += v * v;
    }
    s1[t] = sum;
    s2[t] = sq;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s /= 2) {
        if (t < s) {
            s1[t] += s1[t + s];
            s2[t] += s2[t + s];
        }
        __syncthreads();
    }
    float mean = s1[0] / cols;
    float var = s2[0] / cols - mean * mean;
    float rstd = 1.0f / sqrtf(var + eps);
    for (int c = t; c < cols; c += blockDim.x) {
        y[c] = (x[c] - mean) * rstd * gamma[c] + beta[c];
    }
}
