// CUDA C side of the graph-replay row: a chain of 1000 nodes of the empty three-argument kernel
// built with cudaGraphAddKernelNode, instantiated and uploaded, then timed as the Rust side times
// its exec (each timed replay behind an untimed one, events around it, median of the samples).
// Prints `graph_replay_us <microseconds per replay of the whole graph>`.
#include <algorithm>
#include <cstdio>
#include <vector>

extern "C" __global__ void empty3(float a, const float *x, float *y) {}

#define CHECK(call)                                                              \
    do {                                                                         \
        cudaError_t err_ = (call);                                               \
        if (err_ != cudaSuccess) {                                               \
            fprintf(stderr, "%s: %s\n", #call, cudaGetErrorString(err_));        \
            return 1;                                                            \
        }                                                                        \
    } while (0)

int main()
{
    const int nodes = 1000, warmup = 10, runs = 50;
    float *x, *y;
    CHECK(cudaMalloc(&x, 256 * sizeof(float)));
    CHECK(cudaMalloc(&y, 256 * sizeof(float)));
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    float a = 1.0f;
    void *args[] = {&a, &x, &y};
    cudaGraph_t g;
    CHECK(cudaGraphCreate(&g, 0));
    cudaKernelNodeParams p = {};
    p.func = (void *)empty3;
    p.gridDim = dim3(1);
    p.blockDim = dim3(256);
    p.kernelParams = args;
    cudaGraphNode_t prev = nullptr;
    for (int i = 0; i < nodes; i++) {
        cudaGraphNode_t n;
        CHECK(cudaGraphAddKernelNode(&n, g, prev ? &prev : nullptr, prev ? 1 : 0, &p));
        prev = n;
    }
    cudaGraphExec_t exec;
    CHECK(cudaGraphInstantiateWithFlags(&exec, g, 0));
    CHECK(cudaGraphUpload(exec, s));
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    std::vector<float> ms;
    for (int r = 0; r < warmup + runs; r++) {
        CHECK(cudaGraphLaunch(exec, s));
        CHECK(cudaEventRecord(start, s));
        CHECK(cudaGraphLaunch(exec, s));
        CHECK(cudaEventRecord(stop, s));
        CHECK(cudaEventSynchronize(stop));
        float t;
        CHECK(cudaEventElapsedTime(&t, start, stop));
        if (r >= warmup) ms.push_back(t);
    }
    std::sort(ms.begin(), ms.end());
    printf("graph_replay_us %.4f\n", ms[ms.size() / 2] * 1e3);
    return 0;
}
