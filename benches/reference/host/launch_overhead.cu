// CUDA C side of the launch-overhead row: the host cost of enqueuing the empty three-argument
// kernel through the runtime API, `cudaLaunchKernel` and `<<<>>>`, measured as the Rust side
// measures its launchers (batches of 2000 launches, each batch followed by a synchronize; the
// two take turns; median over the batches). Prints one `name us` line per launcher.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

extern "C" __global__ void empty3(float a, const float *x, float *y) {}

static double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

int main()
{
    const int batch = 2000, rounds = 30;
    float *x, *y;
    if (cudaMalloc(&x, 256 * sizeof(float)) != cudaSuccess || cudaMalloc(&y, 256 * sizeof(float)) != cudaSuccess) {
        fprintf(stderr, "cudaMalloc failed\n");
        return 1;
    }
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    float a = 1.0f;
    void *args[] = {&a, &x, &y};
    empty3<<<1, 256, 0, s>>>(a, x, y);
    cudaStreamSynchronize(s);
    std::vector<double> api, chevron;
    for (int r = 0; r < rounds; r++) {
        for (int turn = 0; turn < 2; turn++) {
            bool use_api = (r + turn) % 2 == 0;
            auto t0 = std::chrono::steady_clock::now();
            for (int i = 0; i < batch; i++) {
                if (use_api) {
                    cudaLaunchKernel((const void *)empty3, dim3(1), dim3(256), args, 0, s);
                } else {
                    empty3<<<1, 256, 0, s>>>(a, x, y);
                }
            }
            double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / batch;
            (use_api ? api : chevron).push_back(us);
            cudaStreamSynchronize(s);
        }
    }
    if (cudaGetLastError() != cudaSuccess) {
        fprintf(stderr, "launch failed\n");
        return 1;
    }
    printf("cudaLaunchKernel %.4f\n", median(api));
    printf("chevron %.4f\n", median(chevron));
    return 0;
}
