#!/usr/bin/env python3
"""NumPy side of scripts/bench-ops.sh: the same ops and working sets as
edp_ops_bench (src/workloads/bench/ops_bench.cpp), single-threaded (the
script sets OMP_NUM_THREADS and OPENBLAS_NUM_THREADS to 1 before NumPy loads),
timed with time.perf_counter, median of samples of >= 20 ms.
Prints op,size,threads,time_s_median,flop,bytes per case."""
import statistics
import sys
import time

import numpy as np

MB = 1 << 20


def time_step(fn, samples):
    fn()  # warm-up
    t0 = time.perf_counter()
    fn()
    one = time.perf_counter() - t0
    steps = max(1, int(0.02 / max(one, 1e-9)))
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


def main():
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
