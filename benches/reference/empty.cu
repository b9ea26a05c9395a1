// CUDA C twin of the launch-overhead workload: an empty kernel taking three arguments.
extern "C" __global__ void empty3(float a, const float *x, float *y) {}
