#!/usr/bin/env python3
"""NumPy side of scripts/bench-ops.sh: the same ops and working sets as
edp_ops_bench (src/workloads/bench/ops_bench.cpp), single-threaded (the
script sets OMP_NUM_THREADS and OPENBLAS_NUM_THREADS to 1 before NumPy loads),
timed with time.perf_counter, median of samples of >= 20 ms.
Prints op,size,threads,time_s_median,flop,bytes per case.

With --gemm SHAPE..., the NumPy side of bench/gemm_ceiling.py: np.matmul at
each shape (the ops study's: MxNxK with :tA / :tB for a transposed operand
stored as the ops study stores it, a square order, or small|medium|large for
the five GEMMs of that MLP size), with as many OpenBLAS threads as the
caller's OPENBLAS_NUM_THREADS, median of samples of >= 50 ms, printed as
edp_gemm_bench prints: numpy,shape,threads,time_s_median,flop."""
import os
import statistics
import sys
import time

try:
    import numpy as np
except ImportError:  # gemm_ceiling.py imports the shape helpers without NumPy
    np = None

MB = 1 << 20


def time_step(fn, samples, min_s=0.02):
    fn()  # warm-up
    t0 = time.perf_counter()
    fn()
    one = time.perf_counter() - t0
    steps = max(1, int(min_s / max(one, 1e-9)))
    per_step = []
    for _ in range(samples):
        start = time.perf_counter()
        for _ in range(steps):
            fn()
        per_step.append((time.perf_counter() - start) / steps)
    return statistics.median(per_step)


def elementwise(op, nbytes):
    # bytes = working set of one step, as in op_workloads.h
    arrays = 3 if op in ("add", "mul") else 2
    n = nbytes // (4 * arrays)
    a = np.full(n, 0.5, dtype=np.float32)
    b = np.full(n, 0.25, dtype=np.float32)
    out = np.zeros(n, dtype=np.float32)
    alpha = np.float32(1.0001)
    fns = {
        "copy": lambda: np.copyto(out, a),
        "add": lambda: np.add(a, b, out=out),
        "mul": lambda: np.multiply(a, b, out=out),
        "scalar": lambda: np.multiply(a, alpha, out=out),
        "tanh": lambda: np.tanh(a, out=out),
    }
    flop = {"copy": 0, "add": 1, "mul": 1, "scalar": 1, "tanh": 1}[op] * n
    return fns[op], flop, 4 * arrays * n


def gemm(n):
    a = np.full((n, n), 0.01, dtype=np.float32)
    b = np.full((n, n), 0.02, dtype=np.float32)
    c = np.zeros((n, n), dtype=np.float32)
    return (lambda: np.matmul(a, b, out=c)), 2 * n**3, 4 * 3 * n * n


# DESIGN §2.1's sizes (n, d_in, h, d_out) and the five GEMMs of one training
# step, as op_workloads.cpp's mlp_gemm_specs lists them: (m, n, k, tA, tB).
SIZES = {"small": (64, 15000, 100, 150), "medium": (192, 20000, 300, 200),
         "large": (384, 40000, 600, 400)}


def mlp_gemms(n, d_in, h, d_out):
    return [(n, h, d_in, False, False),   # h = x w1
            (n, d_out, h, False, False),  # y_pred = h_relu w2
            (h, d_out, n, True, False),   # grad_w2 = h_relu^T g
            (n, h, d_out, False, True),   # grad_h = g w2^T
            (d_in, h, n, True, False)]    # grad_w1 = x^T grad_h


def gemm_shapes(text):
    """'1024', '192x300x20000:tA' or 'medium' -> [(m, n, k, tA, tB)]."""
    if text in SIZES:
        return mlp_gemms(*SIZES[text])
    if text.isdigit():
        return [(int(text),) * 3 + (False, False)]
    dims, *flags = text.split(":")
    m, n, k = (int(x) for x in dims.split("x"))
    return [(m, n, k, "tA" in flags, "tB" in flags)]


def shape_text(m, n, k, ta, tb):
    return f"{m}x{n}x{k}" + (":tA" if ta else "") + (":tB" if tb else "")


def gemm_case(m, n, k, ta, tb):
    # Stored as the ops study's Gemm workload stores them (A is k x m when
    # transposed, B is n x k), filled with the same values.
    a = np.full((k, m) if ta else (m, k), 0.01, dtype=np.float32)
    b = np.full((n, k) if tb else (k, n), 0.02, dtype=np.float32)
    c = np.zeros((m, n), dtype=np.float32)
    opa, opb = (a.T if ta else a), (b.T if tb else b)
    return lambda: np.matmul(opa, opb, out=c)


def main_gemm(argv):
    samples, shapes = 5, []
    it = iter(argv)
    for arg in it:
        if arg == "--samples":
            samples = int(next(it))
        elif arg != "--gemm":
            shapes.append(arg)
    threads = os.environ.get("OPENBLAS_NUM_THREADS", "?")
    for text in shapes:
        for m, n, k, ta, tb in gemm_shapes(text):
            t = time_step(gemm_case(m, n, k, ta, tb), samples, 0.05)
            print(f"numpy,{shape_text(m, n, k, ta, tb)},{threads},{t:.6e},{2.0 * m * n * k:.6e}",
                  flush=True)


def main():
    if np is None:
        sys.exit("ops_numpy.py: this Python has no NumPy (Debian: apt install python3-numpy, "
                 "then run it with /usr/bin/python3)")
    if "--gemm" in sys.argv:
        main_gemm(sys.argv[1:])
        return
    samples = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    quick = "--quick" in sys.argv
    cases = [("copy", 256), ("add", 64), ("add", 256), ("mul", 64), ("mul", 256), ("scalar", 64),
             ("scalar", 256), ("tanh", 64), ("tanh", 256), ("gemm", 1024), ("gemm", 4096)]
    if quick:
        cases = [("add", 64), ("gemm", 1024)]
    for op, size in cases:
        if op == "gemm":
            fn, flop, nbytes = gemm(size)
            label = f"n={size}"
        else:
            fn, flop, nbytes = elementwise(op, size * MB)
            label = f"{size}MB"
        t = time_step(fn, samples)
        print(f"{op},{label},1,{t:.6e},{flop:.6e},{nbytes:.6e}", flush=True)


if __name__ == "__main__":
    main()
