// CUDA C twin of examples' saxpy: y = a * x + y, one element per thread.
extern "C" __global__ void saxpy(float a, const float *__restrict__ x, float *__restrict__ y, unsigned long long n)
{
    unsigned long long i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] = a * x[i] + y[i];
    }
}
