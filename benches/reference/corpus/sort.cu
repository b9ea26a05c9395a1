// Corpus twin: one bitonic sort step (compare-and-swap at distance j within sequences of k).
extern "C" __global__ void bitonic_step(float *data, int j, int k)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned ixj = i ^ j;
    if (ixj > i) {
        float a = data[i];
        float b = data[ixj];
        if ((i & k) == 0) {
            if (a > b) {
                data[i] = b;
                data[ixj] = a;
            }
        } else if (a < b) {
            data[i] = b;
            data[ixj] = a;
        }
    }
}
