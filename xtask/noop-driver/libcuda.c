// A no-op libcuda: every driver call the host runtime makes succeeds at once (memory is host
// memory, launches do nothing). Host-side costs of our own code, without the driver's, show up
// in `cargo xtask bench launch` and under `perf` on a machine without a GPU:
//   gcc -O2 -shared -fPIC -o /tmp/noop/libcuda.so.1 xtask/noop-driver/libcuda.c
//   LD_LIBRARY_PATH=/tmp/noop FERROCUDA_CACHE_DIR=/tmp/noop-cache cargo xtask bench launch
// Kernel results are meaningless; only the launch rows are.
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
typedef int CUresult;
typedef unsigned long long CUdeviceptr;
static int attr_value(int a) {
    switch (a) {
    case 1: return 1024; case 2: return 1024; case 3: return 1024; case 4: return 64;
    case 5: return 2147483647; case 6: return 65535; case 7: return 65535;
    case 8: return 49152; case 9: return 65536; case 10: return 32; case 12: return 65536;
    case 13: return 1980000; case 16: return 132; case 39: return 2048; case 75: return 9; case 76: return 0;
    case 81: return 233472; case 82: return 65536; case 97: return 232448; case 106: return 32;
    default: return 1;
    }
}
CUresult cuInit(unsigned f) { return 0; }
CUresult cuDriverGetVersion(int *v) { *v = 13000; return 0; }
CUresult cuDeviceGetCount(int *c) { *c = 1; return 0; }
CUresult cuDeviceGet(int *d, int o) { *d = 0; return 0; }
CUresult cuDeviceGetAttribute(int *v, int a, int d) { *v = attr_value(a); return 0; }
CUresult cuDeviceGetName(char *n, int len, int d) { strncpy(n, "stub GPU", len); return 0; }
CUresult cuDeviceTotalMem_v2(size_t *b, int d) { *b = 80ull << 30; return 0; }
CUresult cuDevicePrimaryCtxRetain(void **c, int d) { *c = (void *)0x1234; return 0; }
CUresult cuDevicePrimaryCtxRelease_v2(int d) { return 0; }
CUresult cuDevicePrimaryCtxGetState(int d, unsigned *f, int *a) { *f = 0; *a = 1; return 0; }
CUresult cuCtxSetCurrent(void *c) { return 0; }
CUresult cuCtxGetCurrent(void **c) { *c = (void *)0x1234; return 0; }
CUresult cuCtxPushCurrent_v2(void *c) { return 0; }
CUresult cuCtxPopCurrent_v2(void **c) { *c = (void *)0x1234; return 0; }
CUresult cuCtxGetDevice(int *d) { *d = 0; return 0; }
CUresult cuCtxSynchronize(void) { return 0; }
CUresult cuCtxGetLimit(size_t *v, int l) { *v = 1 << 20; return 0; }
CUresult cuCtxSetLimit(int l, size_t v) { return 0; }
CUresult cuCtxGetStreamPriorityRange(int *lo, int *hi) { *lo = 0; *hi = -5; return 0; }
CUresult cuMemHostAlloc(void **p, size_t n, unsigned f) { *p = calloc(1, n ? n : 1); return 0; }
CUresult cuMemFreeHost(void *p) { free(p); return 0; }
CUresult cuMemHostGetDevicePointer_v2(CUdeviceptr *d, void *p, unsigned f) { *d = (CUdeviceptr)(uintptr_t)p; return 0; }
CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t n) { *p = (CUdeviceptr)(uintptr_t)calloc(1, n ? n : 1); return 0; }
CUresult cuMemFree_v2(CUdeviceptr p) { free((void *)(uintptr_t)p); return 0; }
CUresult cuMemcpyHtoD_v2(CUdeviceptr d, const void *s, size_t n) { memcpy((void *)(uintptr_t)d, s, n); return 0; }
CUresult cuMemcpyDtoH_v2(void *d, CUdeviceptr s, size_t n) { memcpy(d, (void *)(uintptr_t)s, n); return 0; }
CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr d, const void *s, size_t n, void *st) { memcpy((void *)(uintptr_t)d, s, n); return 0; }
CUresult cuMemcpyDtoHAsync_v2(void *d, CUdeviceptr s, size_t n, void *st) { memcpy(d, (void *)(uintptr_t)s, n); return 0; }
CUresult cuMemsetD8_v2(CUdeviceptr d, unsigned char v, size_t n) { memset((void *)(uintptr_t)d, v, n); return 0; }
CUresult cuMemsetD32_v2(CUdeviceptr d, unsigned v, size_t n) { unsigned *p = (unsigned *)(uintptr_t)d; for (size_t i = 0; i < n; i++) p[i] = v; return 0; }
CUresult cuMemGetInfo_v2(size_t *f, size_t *t) { *f = 70ull << 30; *t = 80ull << 30; return 0; }
static char cubin[16] = "stubcubin";
CUresult cuModuleLoadData(void **m, const void *i) { *m = (void *)0x5678; return 0; }
CUresult cuModuleLoadDataEx(void **m, const void *i, unsigned n, void *o, void **v) { *m = (void *)0x5678; return 0; }
CUresult cuModuleUnload(void *m) { return 0; }
CUresult cuLinkCreate_v2(unsigned n, void *o, void **v, void **st) { *st = (void *)0x77; return 0; }
CUresult cuLinkAddData_v2(void *st, int t, void *d, size_t n, const char *name, unsigned k, void *o, void **v) { return 0; }
CUresult cuLinkComplete(void *st, void **c, size_t *n) { *c = cubin; *n = sizeof cubin; return 0; }
CUresult cuLinkDestroy(void *st) { return 0; }
CUresult cuModuleGetFunction(void **f, void *m, const char *n) { *f = (void *)0x9abc; return 0; }
CUresult cuModuleGetGlobal_v2(CUdeviceptr *p, size_t *b, void *m, const char *n) { void *q = calloc(1, 256); if (p) *p = (CUdeviceptr)(uintptr_t)q; if (b) *b = 8; return 0; }
CUresult cuFuncGetAttribute(int *v, int a, void *f) { *v = a == 0 ? 1024 : 0; return 0; }
CUresult cuFuncSetAttribute(void *f, int a, int v) { return 0; }
CUresult cuFuncGetName(const char **n, void *f) { *n = "stub"; return 0; }
CUresult cuStreamCreateWithPriority(void **s, unsigned f, int p) { *s = (void *)0x42; return 0; }
CUresult cuStreamCreate(void **s, unsigned f) { *s = (void *)0x43; return 0; }
CUresult cuStreamDestroy_v2(void *s) { return 0; }
CUresult cuStreamSynchronize(void *s) { return 0; }
CUresult cuStreamQuery(void *s) { return 0; }
CUresult cuStreamWaitEvent(void *s, void *e, unsigned f) { return 0; }
CUresult cuEventCreate(void **e, unsigned f) { *e = malloc(8); return 0; }
CUresult cuEventDestroy_v2(void *e) { return 0; }
CUresult cuEventRecord(void *e, void *s) { return 0; }
CUresult cuEventQuery(void *e) { return 0; }
CUresult cuEventSynchronize(void *e) { return 0; }
CUresult cuEventElapsedTime(float *ms, void *a, void *b) { *ms = 1.0f; return 0; }
CUresult cuEventElapsedTime_v2(float *ms, void *a, void *b) { *ms = 1.0f; return 0; }
static volatile uint64_t sink;
CUresult cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                        unsigned smem, void *s, void **params, void **extra) {
    sink += (uint64_t)(uintptr_t)params[0];
    return 0;
}
CUresult cuGetErrorName(int r, const char **s) { *s = "CUDA_ERROR_STUB"; return 0; }
CUresult cuGetErrorString(int r, const char **s) { *s = "stub"; return 0; }
CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *n, void *f, int b, size_t s) { *n = 8; return 0; }
CUresult cuDeviceGetDefaultMemPool(void **p, int d) { *p = (void *)0x99; return 0; }
CUresult cuMemPoolSetAttribute(void *p, int a, void *v) { return 0; }
CUresult cuMemPoolGetAttribute(void *p, int a, void *v) { return 0; }
