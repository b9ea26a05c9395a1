// CUDA C twins of xtask's f32 math benchmarks (bench/math.rs): per-function throughput kernels
// (each thread evaluates the function ITERS times on inputs from memory) and three kernels
// written the plain way: all-pairs n-body with shared tiles (rsqrtf), row softmax (expf) and
// layernorm (rsqrtf). Built with nvcc -O3 for the device's architecture, default flags
// (-prec-div=true -prec-sqrt=true -ftz=false, no fast math).
#define ITERS 64

#define UN(name, EXPR)                                                                         \
    extern "C" __global__ void name(const float *__restrict__ x, unsigned long long n,      \
                                    float *__restrict__ y)                                  \
    {                                                                                      \
        unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;  \
        if (i < n) {                                                                       \
            float v = x[i];                                                                \
            float acc = 0.0f;                                                              \
            _Pragma("unroll 8") for (int k = 0; k < ITERS; k++) {                          \
                acc += (EXPR);                                                             \
                v += 1e-4f;                                                                \
            }                                                                              \
            y[i] = acc;                                                                    \
        }                                                                                  \
    }

#define BIN(name, EXPR)                                                                        \
    extern "C" __global__ void name(const float *__restrict__ x, const float *__restrict__ z, \
                                    unsigned long long n, float *__restrict__ y)            \
    {                                                                                      \
        unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;  \
        if (i < n) {                                                                       \
            float v = x[i];                                                                \
            float w = z[i];                                                                \
            float acc = 0.0f;                                                              \
            _Pragma("unroll 8") for (int k = 0; k < ITERS; k++) {                          \
                acc += (EXPR);                                                             \
                v += 1e-4f;                                                                \
            }                                                                              \
            y[i] = acc;                                                                    \
        }                                                                                  \
    }

__device__ __forceinline__ float sc_sum(float v) { float s, c; sincosf(v, &s, &c); return s + c; }
__device__ __forceinline__ float scpi_sum(float v) { float s, c; sincospif(v, &s, &c); return s + c; }
__device__ __forceinline__ float frexp_sum(float v) { int e; float m = frexpf(v, &e); return m + (float)e; }
__device__ __forceinline__ float modf_sum(float v) { float i; float f = modff(v, &i); return f + i; }
__device__ __forceinline__ float remquo_sum(float v, float w) { int q; float r = remquof(v, w, &q); return r + (float)(q % 8); }

UN(m_sqrt, sqrtf(v))
UN(m_rsqrt, rsqrtf(v))
UN(m_cbrt, cbrtf(v))
UN(m_exp, expf(v))
UN(m_exp2, exp2f(v))
UN(m_exp10, exp10f(v))
UN(m_expm1, expm1f(v))
UN(m_log, logf(v))
UN(m_log2, log2f(v))
UN(m_log10, log10f(v))
UN(m_log1p, log1pf(v))
UN(m_sin, sinf(v))
UN(m_cos, cosf(v))
UN(m_sincos, sc_sum(v))
UN(m_tan, tanf(v))
UN(m_sinpi, sinpif(v))
UN(m_cospi, cospif(v))
UN(m_sincospi, scpi_sum(v))
UN(m_asin, asinf(v))
UN(m_acos, acosf(v))
UN(m_atan, atanf(v))
UN(m_sinh, sinhf(v))
UN(m_cosh, coshf(v))
UN(m_tanh, tanhf(v))
UN(m_asinh, asinhf(v))
UN(m_acosh, acoshf(v))
UN(m_atanh, atanhf(v))
UN(m_erf, erff(v))
UN(m_erfc, erfcf(v))
UN(m_lgamma, lgammaf(v))
UN(m_tgamma, tgammaf(v))
BIN(m_atan2, atan2f(v, w))
BIN(m_pow, powf(v, w))
BIN(m_hypot, hypotf(v, w))
BIN(m_fmod, fmodf(v, w))
BIN(m_copysign, copysignf(v, w))
UN(m_rcbrt, rcbrtf(v))
BIN(m_rhypot, rhypotf(v, w))
BIN(m_norm3d, norm3df(v, w, 0.5f * v))
BIN(m_rnorm3d, rnorm3df(v, w, 0.5f * v))
BIN(m_norm4d, norm4df(v, w, 0.5f * v, 0.25f * w))
BIN(m_rnorm4d, rnorm4df(v, w, 0.5f * v, 0.25f * w))
UN(m_frexp, frexp_sum(v))
UN(m_logb, logbf(v))
UN(m_ilogb, (float)ilogbf(v))
BIN(m_ldexp, ldexpf(v, (int)w))
BIN(m_fdim, fdimf(v, w))
BIN(m_nextafter, nextafterf(v, w))
BIN(m_remainder, remainderf(v, w))
BIN(m_remquo, remquo_sum(v, w))
UN(m_modf, modf_sum(v))
UN(m_erfinv, erfinvf(v))
UN(m_erfcinv, erfcinvf(v))
UN(m_normcdfinv, normcdfinvf(v))
UN(m_j0, j0f(v))
UN(m_j1, j1f(v))
UN(m_y0, y0f(v))
UN(m_y1, y1f(v))
UN(m_jn, jnf(5, v))
UN(m_yn, ynf(5, v))

// All-pairs n-body, one body per thread, positions (x, y, z, mass) tiled through shared memory.
#define NB_TILE 256
extern "C" __global__ void nbody(const float *__restrict__ pos, unsigned n, float soft2,
                                 float *__restrict__ acc)
{
    __shared__ float tile[NB_TILE * 4];
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    float px = pos[4 * i], py = pos[4 * i + 1], pz = pos[4 * i + 2];
    float ax = 0.0f, ay = 0.0f, az = 0.0f;
    for (unsigned base = 0; base < n; base += NB_TILE) {
        unsigned t = threadIdx.x;
        tile[4 * t] = pos[4 * (base + t)];
        tile[4 * t + 1] = pos[4 * (base + t) + 1];
        tile[4 * t + 2] = pos[4 * (base + t) + 2];
        tile[4 * t + 3] = pos[4 * (base + t) + 3];
        __syncthreads();
#pragma unroll 4
        for (unsigned j = 0; j < NB_TILE; j++) {
            float dx = tile[4 * j] - px;
            float dy = tile[4 * j + 1] - py;
            float dz = tile[4 * j + 2] - pz;
            float d2 = dx * dx + dy * dy + dz * dz + soft2;
            float inv = rsqrtf(d2);
            float s = tile[4 * j + 3] * inv * inv * inv;
            ax += dx * s;
            ay += dy * s;
            az += dz * s;
        }
        __syncthreads();
    }
    acc[3 * i] = ax;
    acc[3 * i + 1] = ay;
    acc[3 * i + 2] = az;
}

// Row softmax: one block of 256 threads per row of `cols` floats; shared-memory tree reductions.
extern "C" __global__ void softmax_rows(const float *__restrict__ x, unsigned cols,
                                        float *__restrict__ y)
{
    __shared__ float red[256];
    const float *row = x + (unsigned long long)blockIdx.x * cols;
    float *out = y + (unsigned long long)blockIdx.x * cols;
    unsigned t = threadIdx.x;
    float m = -INFINITY;
    for (unsigned c = t; c < cols; c += 256) m = fmaxf(m, row[c]);
    red[t] = m;
    __syncthreads();
    for (unsigned h = 128; h > 0; h /= 2) {
        if (t < h) red[t] = fmaxf(red[t], red[t + h]);
        __syncthreads();
    }
    m = red[0];
    __syncthreads();
    float s = 0.0f;
    for (unsigned c = t; c < cols; c += 256) s += expf(row[c] - m);
    red[t] = s;
    __syncthreads();
    for (unsigned h = 128; h > 0; h /= 2) {
        if (t < h) red[t] += red[t + h];
        __syncthreads();
    }
    float inv = 1.0f / red[0];
    for (unsigned c = t; c < cols; c += 256) out[c] = expf(row[c] - m) * inv;
}

// Layernorm: one block of 256 threads per row; mean and variance by shared-memory reductions.
extern "C" __global__ void layernorm_rows(const float *__restrict__ x, const float *__restrict__ gamma,
                                          const float *__restrict__ beta, unsigned cols, float eps,
                                          float *__restrict__ y)
{
    __shared__ float red[256];
    const float *row = x + (unsigned long long)blockIdx.x * cols;
    float *out = y + (unsigned long long)blockIdx.x * cols;
    unsigned t = threadIdx.x;
    float s = 0.0f;
    for (unsigned c = t; c < cols; c += 256) s += row[c];
    red[t] = s;
    __syncthreads();
    for (unsigned h = 128; h > 0; h /= 2) {
        if (t < h) red[t] += red[t + h];
        __syncthreads();
    }
    float mean = red[0] / cols;
    __syncthreads();
    float q = 0.0f;
    for (unsigned c = t; c < cols; c += 256) {
        float d = row[c] - mean;
        q += d * d;
    }
    red[t] = q;
    __syncthreads();
    for (unsigned h = 128; h > 0; h /= 2) {
        if (t < h) red[t] += red[t + h];
        __syncthreads();
    }
    float r = rsqrtf(red[0] / cols + eps);
    for (unsigned c = t; c < cols; c += 256) out[c] = (row[c] - mean) * r * gamma[c] + beta[c];
}
