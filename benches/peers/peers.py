#!/usr/bin/env python3
"""Peers of the porting corpus: the corpus's workloads as Numba-CUDA and Triton users write
them, at the corpus's timed sizes, timed the way `cargo xtask bench corpus` times ours (CUDA
events around each run enqueued behind an untimed one, warm-up of at least 5 runs and 200 ms,
median of 30). Each result is checked against a NumPy or PyTorch reference before timing.

Also measured: each peer's host cost per launch (median over batches of launches of a small
kernel) and its first-launch compile time (first call of a kernel not compiled yet, to the
end of its run; Triton's cache points at an empty folder).

Run by `cargo xtask bench corpus --peers`, which merges the rows it writes (tab-separated, see
xtask/src/bench/peers.rs). Stand-alone: `python3 peers.py --out rows.tsv [--cases a,b]
[--sms 132] [--small]` (`--small`: tiny sizes, e.g. for Numba's simulator with
NUMBA_ENABLE_CUDASIM=1).

The kernels follow each peer's usual user style (Numba: `@cuda.jit` with `cuda.grid`, shared
arrays, `math.exp`; Triton: one program per block of elements or per row, `tl.load` with masks,
`tl.dot` at its default precision) with float32 kept explicit so that the comparison is of
compilers, not of an accidental float64 accumulator.
"""

import argparse
import math
import os
import sys
import tempfile
import time
import traceback

# Cold first launches: Triton compiles into an empty cache folder (set before importing it).
os.environ["TRITON_CACHE_DIR"] = tempfile.mkdtemp(prefix="ferrocuda-peers-triton-")
os.environ.setdefault("CUDA_HOME", "/usr/local/cuda")

# Module-level imports: the kernels below resolve `cuda`, `tl`, `float32`... as globals, which
# both JITs (and Numba's simulator) accept.
try:
    import numpy as np

    # NumPy 2.5 dropped `row_stack` (an alias of `vstack`), which numba-cuda 0.30 still
    # registers an overload for when it compiles its first kernel (see `numba_ready`).
    if not hasattr(np, "row_stack"):
        np.row_stack = np.vstack
except Exception:  # noqa: BLE001
    np = None
try:
    import numba
    from numba import cuda, float32

    if os.environ.get("NUMBA_ENABLE_CUDASIM") == "1":
        # The simulator's libdevice functions return nothing.
        class libdevice:  # noqa: N801 - stands in for the module on the simulator
            rsqrtf = staticmethod(lambda x: 1.0 / math.sqrt(x))

    else:
        from numba.cuda import libdevice

    NUMBA_ERROR = None
except Exception as _e:  # noqa: BLE001
    NUMBA_ERROR = _e
try:
    import torch
    import triton
    import triton.language as tl

    TRITON_ERROR = None
except Exception as _e:  # noqa: BLE001
    TRITON_ERROR = _e

TPB = 16  # Numba matmul tile

WARMUP, WARMUP_MS, RUNS = 5, 200.0, 30
LAUNCH_BATCH, LAUNCH_ROUNDS = 2000, 30

OUT = None
SMALL = False
CASES = None


def emit(*fields):
    OUT.write("\t".join(str(f).replace("\t", " ").replace("\n", " ") for f in fields) + "\n")
    OUT.flush()


def log(msg):
    print(f"peers: {msg}", file=sys.stderr, flush=True)


def wanted(case):
    return CASES is None or case in CASES


def time_runs(launch, timer):
    """Median, min, max in ms of `launch`, each timed run behind an untimed one."""

    def once():
        launch()
        timer.start()
        launch()
        return timer.stop()

    warm, runs = 0.0, 0
    while runs < WARMUP or warm < WARMUP_MS:
        warm += once()
        runs += 1
    v = sorted(once() for _ in range(RUNS))
    return v[len(v) // 2], v[0], v[-1]


def rel_err(got, want):
    """||got - want|| / ||want|| in float64 (NumPy arrays); NaN counts as failure."""
    g = np.asarray(got, dtype=np.float64).ravel()
    w = np.asarray(want, dtype=np.float64).ravel()
    if not np.all(np.isfinite(g)):
        return float("inf")
    return float(np.linalg.norm(g - w) / max(np.linalg.norm(w), 1e-300))


def check(name, got, want, tol):
    e = rel_err(got, want)
    if not e <= tol:
        raise AssertionError(f"{name}: relative error {e:.3g} above {tol:g}")


def sizes():
    """The corpus's timed sizes (examples/src/corpus), or tiny ones with --small."""
    if SMALL:
        return dict(n=10_001, t=(70, 100), rows=(7, 300), mm=48, nbody=512, sgemm=256)
    return dict(n=1 << 26, t=(8192, 8192), rows=(32_768, 2048), mm=2048, nbody=1 << 16, sgemm=4096)


# ---------------------------------------------------------------------------------------------
# Numba-CUDA


def numba_ready():
    """Compiles a trivial kernel so that numba-cuda loads its registries. Where it still names a
    NumPy function that the installed NumPy no longer has (an alias removed in NumPy 2.x), a
    placeholder takes the name and the load is tried again."""
    import re

    def probe(a):
        a[0] = float32(1.0)

    for _ in range(20):
        try:
            cuda.compile_ptx(probe, "void(float32[:])", cc=(9, 0))
            return
        except AttributeError as e:
            m = re.search(r"module 'numpy' has no attribute '(\w+)'", str(e))
            if m is None:
                raise
            log(f"numpy has no `{m.group(1)}`: a placeholder stands in for numba-cuda's overload")
            setattr(np, m.group(1), lambda *a, **k: None)
    raise RuntimeError("numba-cuda still fails to load its registries")


# Numba-CUDA kernels (module level: globals for the JIT, compilable on their own).
if NUMBA_ERROR is None:

    @cuda.jit
    def saxpy(a, x, y):
        i = cuda.grid(1)
        if i < y.size:
            y[i] = a * x[i] + y[i]

    @cuda.jit
    def transpose_naive(out, inp):
        x, y = cuda.grid(2)
        h, w = inp.shape
        if x < w and y < h:
            out[x, y] = inp[y, x]

    @cuda.jit
    def transpose_tiled(out, inp):
        tile = cuda.shared.array(shape=(32, 33), dtype=float32)
        h, w = inp.shape
        tx, ty = cuda.threadIdx.x, cuda.threadIdx.y
        x = cuda.blockIdx.x * 32 + tx
        y = cuda.blockIdx.y * 32 + ty
        for j in range(0, 32, 8):
            if x < w and y + j < h:
                tile[ty + j, tx] = inp[y + j, x]
        cuda.syncthreads()
        x = cuda.blockIdx.y * 32 + tx
        y = cuda.blockIdx.x * 32 + ty
        for j in range(0, 32, 8):
            if x < h and y + j < w:
                out[y + j, x] = tile[tx, ty + j]

    @cuda.jit
    def reduce_shfl(inp, out):
        warp_sums = cuda.shared.array(32, dtype=float32)
        t = cuda.threadIdx.x
        s = float32(0.0)
        for i in range(cuda.grid(1), inp.size, cuda.gridsize(1)):
            s += inp[i]
        offset = 16
        while offset > 0:
            s += cuda.shfl_down_sync(0xFFFFFFFF, s, offset)
            offset //= 2
        if t % 32 == 0:
            warp_sums[t // 32] = s
        cuda.syncthreads()
        if t < 32:
            s = warp_sums[t] if t < cuda.blockDim.x // 32 else float32(0.0)
            offset = 16
            while offset > 0:
                s += cuda.shfl_down_sync(0xFFFFFFFF, s, offset)
                offset //= 2
            if t == 0:
                cuda.atomic.add(out, 0, s)

    @cuda.jit
    def softmax_rows(inp, out):
        red = cuda.shared.array(256, dtype=float32)
        t = cuda.threadIdx.x
        bd = cuda.blockDim.x
        row = cuda.blockIdx.x
        cols = inp.shape[1]
        m = float32(-math.inf)
        for c in range(t, cols, bd):
            m = max(m, inp[row, c])
        red[t] = m
        cuda.syncthreads()
        s = bd // 2
        while s > 0:
            if t < s:
                red[t] = max(red[t], red[t + s])
            cuda.syncthreads()
            s //= 2
        m = red[0]
        cuda.syncthreads()
        total = float32(0.0)
        for c in range(t, cols, bd):
            total += math.exp(inp[row, c] - m)
        red[t] = total
        cuda.syncthreads()
        s = bd // 2
        while s > 0:
            if t < s:
                red[t] += red[t + s]
            cuda.syncthreads()
            s //= 2
        total = red[0]
        for c in range(t, cols, bd):
            out[row, c] = math.exp(inp[row, c] - m) / total

    @cuda.jit
    def matmul_tiled(a, b, c):
        sa = cuda.shared.array(shape=(TPB, TPB), dtype=float32)
        sb = cuda.shared.array(shape=(TPB, TPB), dtype=float32)
        x, y = cuda.grid(2)
        tx, ty = cuda.threadIdx.x, cuda.threadIdx.y
        acc = float32(0.0)
        for t in range(cuda.gridDim.x):
            sa[ty, tx] = 0
            sb[ty, tx] = 0
            if y < a.shape[0] and tx + t * TPB < a.shape[1]:
                sa[ty, tx] = a[y, tx + t * TPB]
            if x < b.shape[1] and ty + t * TPB < b.shape[0]:
                sb[ty, tx] = b[ty + t * TPB, x]
            cuda.syncthreads()
            for k in range(TPB):
                acc += sa[ty, k] * sb[k, tx]
            cuda.syncthreads()
        if y < c.shape[0] and x < c.shape[1]:
            c[y, x] = acc

    @cuda.jit
    def nbody_forces(pos, acc, eps2):
        sh = cuda.shared.array(shape=(256, 4), dtype=float32)
        t = cuda.threadIdx.x
        i = cuda.grid(1)
        n = pos.shape[0]
        mx, my, mz = pos[i, 0], pos[i, 1], pos[i, 2]
        ax = float32(0.0)
        ay = float32(0.0)
        az = float32(0.0)
        for tile in range(0, n, 256):
            for k in range(4):
                sh[t, k] = pos[tile + t, k]
            cuda.syncthreads()
            for j in range(256):
                dx = sh[j, 0] - mx
                dy = sh[j, 1] - my
                dz = sh[j, 2] - mz
                d2 = dx * dx + dy * dy + dz * dz + eps2
                inv = libdevice.rsqrtf(d2)
                s = sh[j, 3] * inv * inv * inv
                ax += dx * s
                ay += dy * s
                az += dz * s
            cuda.syncthreads()
        acc[i, 0] = ax
        acc[i, 1] = ay
        acc[i, 2] = az
        acc[i, 3] = float32(0.0)

    @cuda.jit
    def vec_add(a, b, c):
        i = cuda.grid(1)
        if i < c.size:
            c[i] = a[i] + b[i]


def numba_peer(sms):
    if NUMBA_ERROR is not None or np is None:
        emit("error", "numba", "-", f"numba-cuda not importable: {NUMBA_ERROR!r}")
        return
    numba_ready()
    emit("info", "numba", f"numba {numba.__version__}")
    sz = sizes()
    rng = np.random.default_rng(7)
    stream = cuda.stream()

    def event():
        try:
            return cuda.event(timing=True)
        except TypeError:  # Numba's simulator takes no arguments
            return cuda.event()

    class Timer:
        def __init__(self):
            self.a = event()
            self.b = event()

        def start(self):
            self.a.record(stream)

        def stop(self):
            self.b.record(stream)
            self.b.synchronize()
            return self.a.elapsed_time(self.b)

    timer = Timer()

    def first_launch(kernel_name, call):
        try:
            t0 = time.perf_counter()
            call()
            cuda.synchronize()
            ms = (time.perf_counter() - t0) * 1e3
            emit("compile", "numba", kernel_name, f"{ms:.3f}", "first call: type inference, NVVM, driver load")
        except Exception as e:  # noqa: BLE001
            traceback.print_exc()
            emit("error", "numba", f"first launch of {kernel_name}", repr(e))

    def run(case, body):
        if not wanted(case):
            return
        log(f"numba {case}")
        try:
            med, lo, hi, note = body()
            emit("row", case, "numba", f"{med:.6f}", f"{lo:.6f}", f"{hi:.6f}", note)
        except Exception as e:  # noqa: BLE001
            traceback.print_exc()
            emit("error", "numba", case, repr(e))

    # saxpy -------------------------------------------------------------------------------
    def saxpy_case():
        n = sz["n"]
        a = np.float32(1.5)
        x = rng.uniform(-1, 1, n).astype(np.float32)
        y = rng.uniform(-1, 1, n).astype(np.float32)
        dx, dy = cuda.to_device(x), cuda.to_device(y)
        blocks = (n + 255) // 256
        saxpy[blocks, 256, stream](a, dx, dy)
        stream.synchronize()
        check("saxpy", dy.copy_to_host(), a * x.astype(np.float64) + y, 1e-6)
        t = time_runs(lambda: saxpy[blocks, 256, stream](a, dx, dy), timer)
        return (*t, "cuda.grid(1), one element per thread")

    first_launch(
        "saxpy",
        lambda: saxpy[1, 256](np.float32(1.0), cuda.to_device(np.ones(256, np.float32)),
                              cuda.to_device(np.ones(256, np.float32))),
    )
    run("saxpy", saxpy_case)

    # transpose ---------------------------------------------------------------------------
    def transpose_case(tiled):
        def body():
            w, h = sz["t"]
            a = rng.uniform(-1, 1, (h, w)).astype(np.float32)
            din = cuda.to_device(a)
            dout = cuda.device_array((w, h), np.float32)
            if tiled:
                k, grid = transpose_tiled, ((w + 31) // 32, (h + 31) // 32)
            else:
                k, grid = transpose_naive, ((w + 31) // 32, (h + 7) // 8)
            k[grid, (32, 8), stream](dout, din)
            stream.synchronize()
            if not np.array_equal(dout.copy_to_host(), a.T):
                raise AssertionError("transpose: wrong result")
            t = time_runs(lambda: k[grid, (32, 8), stream](dout, din), timer)
            return (*t, "32x33 shared tile, 32x8 threads" if tiled else "cuda.grid(2), 32x8 threads")

        return body

    run("transpose_naive", transpose_case(False))
    run("transpose_tiled", transpose_case(True))

    # reduction (grid-stride + shuffle + shared + atomic) ---------------------------------
    def reduce_case():
        n = sz["n"]
        x = rng.uniform(-1, 1, n).astype(np.float32)
        dx = cuda.to_device(x)
        dout = cuda.to_device(np.zeros(1, np.float32))
        blocks = 5 if SMALL else sms * 8
        reduce_shfl[blocks, 256, stream](dx, dout)
        stream.synchronize()
        got, want = float(dout.copy_to_host()[0]), float(x.astype(np.float64).sum())
        if not abs(got - want) <= 1e-5 * float(np.abs(x).astype(np.float64).sum()):
            raise AssertionError(f"reduce: {got} vs {want}")
        t = time_runs(lambda: reduce_shfl[blocks, 256, stream](dx, dout), timer)
        return (*t, "grid-stride, shfl_down_sync, shared, atomic.add")

    run("reduce_shfl", reduce_case)

    # softmax, one block per row -----------------------------------------------------------
    def softmax_case():
        rows, cols = sz["rows"]
        x = (4 * rng.uniform(-1, 1, (rows, cols))).astype(np.float32)
        dx = cuda.to_device(x)
        dout = cuda.device_array((rows, cols), np.float32)
        softmax_rows[rows, 256, stream](dx, dout)
        stream.synchronize()
        x64 = x.astype(np.float64)
        e = np.exp(x64 - x64.max(axis=1, keepdims=True))
        check("softmax", dout.copy_to_host(), e / e.sum(axis=1, keepdims=True), 1e-5)
        t = time_runs(lambda: softmax_rows[rows, 256, stream](dx, dout), timer)
        return (*t, "block of 256 per row, shared-memory trees, math.exp")

    first_launch(
        "softmax_rows",
        lambda: softmax_rows[1, 256](cuda.to_device(np.ones((1, 256), np.float32)),
                                     cuda.device_array((1, 256), np.float32)),
    )
    run("softmax", softmax_case)

    # matmul, 16x16 shared tiles --------------------------------------------------------------

    def matmul_case():
        n = sz["mm"]
        a = rng.uniform(-1, 1, (n, n)).astype(np.float32)
        b = rng.uniform(-1, 1, (n, n)).astype(np.float32)
        da, db = cuda.to_device(a), cuda.to_device(b)
        dc = cuda.device_array((n, n), np.float32)
        grid = ((n + TPB - 1) // TPB, (n + TPB - 1) // TPB)
        matmul_tiled[grid, (TPB, TPB), stream](da, db, dc)
        stream.synchronize()
        rows = slice(0, n, max(1, n // 64))
        want = a[rows].astype(np.float64) @ b.astype(np.float64)
        check("matmul", dc.copy_to_host()[rows], want, 1e-5)
        t = time_runs(lambda: matmul_tiled[grid, (TPB, TPB), stream](da, db, dc), timer)
        return (*t, "16x16 shared tiles, one output per thread")

    first_launch(
        "matmul_tiled",
        lambda: matmul_tiled[(1, 1), (TPB, TPB)](cuda.to_device(np.ones((16, 16), np.float32)),
                                                 cuda.to_device(np.ones((16, 16), np.float32)),
                                                 cuda.device_array((16, 16), np.float32)),
    )
    run("matmul_tiled", matmul_case)

    # n-body, shared tiles of 256 bodies ------------------------------------------------------
    def nbody_case():
        n = sz["nbody"]
        pos = rng.uniform(-1, 1, (n, 4)).astype(np.float32)
        pos[:, 3] = (0.5 + 0.5 * np.abs(pos[:, 3])).astype(np.float32)
        eps2 = np.float32(0.01)
        dpos = cuda.to_device(pos)
        dacc = cuda.device_array((n, 4), np.float32)
        nbody_forces[n // 256, 256, stream](dpos, dacc, eps2)
        stream.synchronize()
        got = dacc.copy_to_host()
        idx = np.arange(0, n, max(1, n // 128))
        p = pos.astype(np.float64)
        d = p[None, :, :3] - p[idx, None, :3]
        d2 = (d * d).sum(axis=2) + float(eps2)
        want = (d * (p[None, :, 3] / (d2 * np.sqrt(d2)))[:, :, None]).sum(axis=1)
        check("nbody", got[idx, :3], want, 1e-4)
        t = time_runs(lambda: nbody_forces[n // 256, 256, stream](dpos, dacc, eps2), timer)
        return (*t, "(n, 4) float32 array, shared tile of 256, libdevice rsqrtf")

    run("nbody", nbody_case)

    # host cost per launch ----------------------------------------------------------------------
    try:
        a = cuda.to_device(np.ones(256, np.float32))
        b = cuda.to_device(np.ones(256, np.float32))
        c = cuda.device_array(256, np.float32)
        vec_add[1, 256, stream](a, b, c)
        stream.synchronize()
        per = []
        for _ in range(LAUNCH_ROUNDS):
            t0 = time.perf_counter()
            for _ in range(LAUNCH_BATCH):
                vec_add[1, 256, stream](a, b, c)
            per.append((time.perf_counter() - t0) * 1e6 / LAUNCH_BATCH)
            stream.synchronize()
        per.sort()
        emit("launch", "numba", f"{per[len(per) // 2]:.3f}", "kernel[1, 256, stream](3 device arrays)")
    except Exception as e:  # noqa: BLE001
        emit("error", "numba", "launch", repr(e))


# ---------------------------------------------------------------------------------------------
# Triton


# Triton kernels (module level, where Triton's JIT reads their source and globals).
if TRITON_ERROR is None:

    @triton.jit
    def add_kernel(x, y, out, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n
        tl.store(out + offs, tl.load(x + offs, mask=mask) + tl.load(y + offs, mask=mask), mask=mask)

    @triton.jit
    def softmax_kernel(out, inp, stride, n_cols, BLOCK: tl.constexpr):
        row = tl.program_id(0)
        cols = tl.arange(0, BLOCK)
        mask = cols < n_cols
        x = tl.load(inp + row * stride + cols, mask=mask, other=-float("inf"))
        x = x - tl.max(x, axis=0)
        num = tl.exp(x)
        tl.store(out + row * stride + cols, num / tl.sum(num, axis=0), mask=mask)

    @triton.jit
    def layernorm_kernel(x_ptr, y_ptr, w_ptr, b_ptr, stride, n, eps, BLOCK: tl.constexpr):
        row = tl.program_id(0)
        x_ptr += row * stride
        y_ptr += row * stride
        acc = tl.zeros([BLOCK], dtype=tl.float32)
        for start in range(0, n, BLOCK):
            cols = start + tl.arange(0, BLOCK)
            acc += tl.load(x_ptr + cols, mask=cols < n, other=0.0)
        mean = tl.sum(acc, axis=0) / n
        acc = tl.zeros([BLOCK], dtype=tl.float32)
        for start in range(0, n, BLOCK):
            cols = start + tl.arange(0, BLOCK)
            d = tl.where(cols < n, tl.load(x_ptr + cols, mask=cols < n, other=0.0) - mean, 0.0)
            acc += d * d
        rstd = 1.0 / tl.sqrt(tl.sum(acc, axis=0) / n + eps)
        for start in range(0, n, BLOCK):
            cols = start + tl.arange(0, BLOCK)
            mask = cols < n
            x = tl.load(x_ptr + cols, mask=mask, other=0.0)
            w = tl.load(w_ptr + cols, mask=mask)
            b = tl.load(b_ptr + cols, mask=mask)
            tl.store(y_ptr + cols, (x - mean) * rstd * w + b, mask=mask)

    @triton.jit
    def matmul_kernel(a, b, c, M, N, K, sam, sak, sbk, sbn, scm, scn,
                      BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP: tl.constexpr,
                      PRECISION: tl.constexpr):
        pid = tl.program_id(0)
        tiles_m = tl.cdiv(M, BM)
        tiles_n = tl.cdiv(N, BN)
        per_group = GROUP * tiles_n
        first_m = (pid // per_group) * GROUP
        group_rows = tl.minimum(tiles_m - first_m, GROUP)
        pid_m = first_m + (pid % per_group) % group_rows
        pid_n = (pid % per_group) // group_rows
        rm = pid_m * BM + tl.arange(0, BM)
        rn = pid_n * BN + tl.arange(0, BN)
        rk = tl.arange(0, BK)
        pa = a + rm[:, None] * sam + rk[None, :] * sak
        pb = b + rk[:, None] * sbk + rn[None, :] * sbn
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in range(0, tl.cdiv(K, BK)):
            left = K - k * BK
            x = tl.load(pa, mask=rk[None, :] < left, other=0.0)
            y = tl.load(pb, mask=rk[:, None] < left, other=0.0)
            acc = tl.dot(x, y, acc, input_precision=PRECISION)
            pa += BK * sak
            pb += BK * sbk
        pc = c + rm[:, None] * scm + rn[None, :] * scn
        tl.store(pc, acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


def triton_peer():
    if TRITON_ERROR is not None or np is None:
        emit("error", "triton", "-", f"triton not importable: {TRITON_ERROR!r}")
        return
    emit("info", "triton", f"triton {triton.__version__}, torch {torch.__version__}")
    sz = sizes()
    gen = torch.Generator(device="cuda").manual_seed(11)

    def rand(*shape):
        return torch.rand(*shape, device="cuda", generator=gen) * 2 - 1

    class Timer:
        def __init__(self):
            self.a = torch.cuda.Event(enable_timing=True)
            self.b = torch.cuda.Event(enable_timing=True)

        def start(self):
            self.a.record()

        def stop(self):
            self.b.record()
            self.b.synchronize()
            return self.a.elapsed_time(self.b)

    timer = Timer()

    def first_launch(kernel_name, call, note):
        try:
            torch.cuda.synchronize()
            t0 = time.perf_counter()
            call()
            torch.cuda.synchronize()
            ms = (time.perf_counter() - t0) * 1e3
            emit("compile", "triton", kernel_name, f"{ms:.3f}", note)
        except Exception as e:  # noqa: BLE001
            traceback.print_exc()
            emit("error", "triton", f"first launch of {kernel_name}", repr(e))

    def run(case, label, body):
        if not wanted(case):
            return
        log(f"triton {label}")
        try:
            med, lo, hi, note = body()
            emit("row", case, label, f"{med:.6f}", f"{lo:.6f}", f"{hi:.6f}", note)
        except Exception as e:  # noqa: BLE001
            traceback.print_exc()
            emit("error", label, case, repr(e))

    # vector add: one program per block of 1024 elements ---------------------------------------
    def add(x, y, out, block=1024):
        n = out.numel()
        add_kernel[(triton.cdiv(n, block),)](x, y, out, n, BLOCK=block)

    def add_case():
        n = sz["n"]
        x, y = rand(n), rand(n)
        out = torch.full((n,), float("nan"), device="cuda")
        add(x, y, out)
        torch.cuda.synchronize()
        check("vector add", out.cpu().numpy(), (x.double() + y.double()).cpu().numpy(), 1e-7)
        t = time_runs(lambda: add(x, y, out), timer)
        return (*t, "BLOCK=1024, masked loads")

    first_launch("vector_add",
                 lambda: add(torch.ones(256, device="cuda"), torch.ones(256, device="cuda"),
                             torch.empty(256, device="cuda")),
                 "first call: Triton compile to cubin, load")
    run("vector_add", "triton", add_case)

    # softmax: one program per row, the whole row in registers --------------------------------
    def softmax(x, out):
        rows, cols = x.shape
        block = triton.next_power_of_2(cols)
        warps = 16 if block >= 4096 else 8 if block >= 2048 else 4
        softmax_kernel[(rows,)](out, x, x.stride(0), cols, BLOCK=block, num_warps=warps)

    def softmax_case():
        rows, cols = sz["rows"]
        x = 4 * rand(rows, cols)
        out = torch.full_like(x, float("nan"))
        softmax(x, out)
        torch.cuda.synchronize()
        check("softmax", out.cpu().numpy(), torch.softmax(x.double(), dim=1).cpu().numpy(), 1e-5)
        t = time_runs(lambda: softmax(x, out), timer)
        return (*t, "program per row, BLOCK=next_power_of_2(cols), tl.exp")

    first_launch("softmax_rows",
                 lambda: softmax(torch.ones(1, 256, device="cuda"), torch.empty(1, 256, device="cuda")),
                 "first call: Triton compile to cubin, load")
    run("softmax", "triton", softmax_case)

    # layernorm: one program per row, three passes over the row in BLOCK chunks ----------------
    def layernorm(x, y, w, b, eps=1e-5):
        rows, cols = x.shape
        block = min(16384, triton.next_power_of_2(cols))
        warps = min(max(block // 256, 1), 8)
        layernorm_kernel[(rows,)](x, y, w, b, x.stride(0), cols, eps, BLOCK=block, num_warps=warps)

    def layernorm_case():
        rows, cols = sz["rows"]
        x, w, b = 4 * rand(rows, cols), rand(cols), rand(cols)
        y = torch.full_like(x, float("nan"))
        layernorm(x, y, w, b)
        torch.cuda.synchronize()
        want = torch.nn.functional.layer_norm(x.double(), (cols,), w.double(), b.double(), 1e-5)
        check("layernorm", y.cpu().numpy(), want.cpu().numpy(), 1e-5)
        t = time_runs(lambda: layernorm(x, y, w, b), timer)
        return (*t, "program per row, mean and variance passes, BLOCK=next_power_of_2(cols)")

    first_launch("layernorm",
                 lambda: layernorm(torch.ones(1, 256, device="cuda"), torch.empty(1, 256, device="cuda"),
                                   torch.ones(256, device="cuda"), torch.ones(256, device="cuda")),
                 "first call: Triton compile to cubin, load")
    run("layernorm", "triton", layernorm_case)

    # matmul: 128x128 tiles, grouped program order, tl.dot ---------------------------------------
    def matmul(x, y, out, precision):
        m, k = x.shape
        n = y.shape[1]
        grid = (triton.cdiv(m, 128) * triton.cdiv(n, 128),)
        matmul_kernel[grid](x, y, out, m, n, k, x.stride(0), x.stride(1), y.stride(0), y.stride(1),
                            out.stride(0), out.stride(1), BM=128, BN=128, BK=32, GROUP=8,
                            PRECISION=precision, num_warps=8, num_stages=3)

    def matmul_case(n, precision):
        def body():
            x, y = rand(n, n), rand(n, n)
            out = torch.full((n, n), float("nan"), device="cuda")
            matmul(x, y, out, precision)
            torch.cuda.synchronize()
            want = (x.double() @ y.double()).cpu().numpy()
            check(f"matmul {precision}", out.cpu().numpy(), want, 5e-3 if precision == "tf32" else 1e-5)
            t = time_runs(lambda: matmul(x, y, out, precision), timer)
            what = "tf32 tensor cores (tl.dot's default for f32)" if precision == "tf32" else "f32 FMA (ieee)"
            return (*t, f"128x128x32 tiles, 8 warps, 3 stages, {what}")

        return body

    first_launch("matmul_tiled",
                 lambda: matmul(torch.ones(128, 128, device="cuda"), torch.ones(128, 128, device="cuda"),
                                torch.empty(128, 128, device="cuda"), "ieee"),
                 "first call (ieee): Triton compile to cubin, load")
    for case, n in (("matmul_tiled", sz["mm"]), ("sgemm_regtile", sz["sgemm"])):
        run(case, "triton tl.dot default (tf32)", matmul_case(n, "tf32"))
        run(case, "triton tl.dot ieee", matmul_case(n, "ieee"))

    # host cost per launch ------------------------------------------------------------------------
    try:
        a, b, c = (torch.ones(256, device="cuda") for _ in range(3))
        add(a, b, c, 256)
        torch.cuda.synchronize()
        per = []
        for _ in range(LAUNCH_ROUNDS):
            t0 = time.perf_counter()
            for _ in range(LAUNCH_BATCH):
                add_kernel[(1,)](a, b, c, 256, BLOCK=256)
            per.append((time.perf_counter() - t0) * 1e6 / LAUNCH_BATCH)
            torch.cuda.synchronize()
        per.sort()
        emit("launch", "triton", f"{per[len(per) // 2]:.3f}", "kernel[(1,)](3 tensors, n, BLOCK=256)")
    except Exception as e:  # noqa: BLE001
        emit("error", "triton", "launch", repr(e))


def main():
    global OUT, SMALL, CASES  # noqa: PLW0603
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--sms", type=int, default=132)
    ap.add_argument("--cases", default="")
    ap.add_argument("--small", action="store_true")
    ap.add_argument("--only", choices=["numba", "triton"], default=None)
    args = ap.parse_args()
    SMALL = args.small
    if SMALL:
        # A functional check (e.g. on Numba's simulator), not a measurement.
        global WARMUP, WARMUP_MS, RUNS, LAUNCH_BATCH, LAUNCH_ROUNDS
        WARMUP, WARMUP_MS, RUNS, LAUNCH_BATCH, LAUNCH_ROUNDS = 1, 0.0, 1, 2, 1
    CASES = set(args.cases.split(",")) if args.cases else None
    with open(args.out, "w") as OUT:
        # Each peer on its own: a failure in one (an import, a kernel) leaves the other's rows.
        for name, peer in (("numba", lambda: numba_peer(args.sms)), ("triton", triton_peer)):
            if args.only in (None, name):
                try:
                    peer()
                except Exception as e:  # noqa: BLE001
                    traceback.print_exc()
                    emit("error", name, "-", repr(e))


if __name__ == "__main__":
    main()
