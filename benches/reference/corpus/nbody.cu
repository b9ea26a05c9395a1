// Corpus twin: all-pairs n-body accelerations over shared tiles of 256 float4 bodies.
#define BLOCK 256

extern "C" __global__ void nbody_forces(const float4 *pos, float4 *acc, int n, float eps2)
{
    __shared__ float4 sh[BLOCK];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 me = pos[i];
    float ax = 0.0f, ay = 0.0f, az = 0.0f;
    for (int tile = 0; tile < n; tile += BLOCK) {
        sh[t] = pos[tile + t];
        __syncthreads();
        for (int j = 0; j < BLOCK; ++j) {
            float4 p = sh[j];
            float dx = p.x - me.x;
            float dy = p.y - me.y;
            float dz = p.z - me.z;
            float d2 = dx * dx + dy * dy + dz * dz + eps2;
            float inv = rsqrtf(d2);
            float s = p.w * inv * inv * inv;
            ax += dx * s;
            ay += dy * s;
            az += dz * s;
        }
        __syncthreads();
    }
    acc[i] = make_float4(ax, ay, az, 0.0f);
}
