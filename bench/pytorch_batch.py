#!/usr/bin/env python3
"""The batch sweep (issue 11, seed 001) in PyTorch on the CPU, next to
edpbench's: the same MLP programs (bench/pytorch_mlp.py's steps) at one
size's layer shapes with the batch size N swept, the same thread count, the
same protocol (warm-up, runs of `iterations` steps from the initial weights,
timed between two synchronisations; the median run counts).

With --edpbench-results RESULTS.csv (the results.csv of an `edpbench run` with
`studies: [batch]`) it prints, per workload and N, the time per sample of
both (PyTorch also with 1 thread), the ratio of PyTorch's better time to
edpbench's (> 1: edpbench is faster) and whether the issue's targets hold
(>= 1.5x at N <= 8, >= 1x everywhere).
"""
import argparse
import csv
import statistics
import sys
import time

import torch

from pytorch_mlp import STEPS


def time_per_sample(workload, n, d_in, h, d_out, iterations, runs, warmup):
    torch.manual_seed(0)
    x = torch.randn(n, d_in) * 0.1
    y = torch.randn(n, d_out) * 0.1
    w1_0 = torch.randn(d_in, h) * 0.1
    w2_0 = torch.randn(h, d_out) * 0.1
    needs_grad = workload != "tensors"
    w1 = w1_0.clone().requires_grad_(needs_grad)
    w2 = w2_0.clone().requires_grad_(needs_grad)
    step = STEPS[workload]
    times = []
    with (torch.enable_grad if needs_grad else torch.no_grad)():
        for _ in range(warmup):
            step(x, y, w1, w2, 1e-6)
        for _ in range(runs):
            with torch.no_grad():
                w1.copy_(w1_0)
                w2.copy_(w2_0)
            t0 = time.perf_counter()
            for _ in range(iterations):
                loss = step(x, y, w1, w2, 1e-6)
            float(loss.item())
            times.append(time.perf_counter() - t0)
    return statistics.median(times) / (n * iterations)


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--edpbench-results", required=True)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--iterations", type=int, default=20)
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--warmup", type=int, default=3)
    a = p.parse_args()
    torch.set_num_threads(a.threads)
    # edpbench's CPU backend runs with flush-to-zero and denormals-are-zero
    # (context.json: flush_to_zero on); PyTorch by default does not, and its
    # small-N steps with lr 1e-6 spend most of their time on denormals
    # (tensors at N = 1: 13-22 ms per step without, 2.2-2.5 ms with, 1 thread).
    torch.set_flush_denormal(True)
    with open(a.edpbench_results) as f:
        rows = [r for r in csv.DictReader(f) if r.get("study") == "batch"]
    if not rows:
        sys.exit(f"no batch rows in {a.edpbench_results}")
    print(f"torch {torch.__version__}, threads {torch.get_num_threads()}, "
          f"iterations {a.iterations} x runs {a.runs} (median run)")
    # Debian's torch 1.13 is erratic with two threads at small N on this kind
    # of machine (tensors N = 1: 8-34 ms per step with 2 threads, 2.2 ms with
    # 1), so the targets are checked against PyTorch's better thread count,
    # the stricter comparison; both are printed.
    alt = 1 if a.threads != 1 else None
    print(f"{'workload':<12} {'N':>4} {'edpbench us/sample':>19} "
          f"{'pytorch us/sample':>18} {'pytorch 1t':>11} {'best/edp':>9}")
    ok = True
    for r in rows:
        if r["status"] != "ok" or not r["device"].startswith("cpu"):
            continue
        n = int(r["n"])
        edp = float(r["time_per_sample_s_mean"])
        shape = (r["workload"], n, int(r["d_in"]), int(r["h"]), int(r["d_out"]))
        torch.set_num_threads(a.threads)
        pt = time_per_sample(*shape, a.iterations, a.runs, a.warmup)
        pt1 = None
        if alt:
            torch.set_num_threads(alt)
            pt1 = time_per_sample(*shape, a.iterations, a.runs, a.warmup)
        best = min(pt, pt1) if pt1 else pt
        ratio = best / edp
        target = 1.5 if n <= 8 else 1.0
        mark = "" if ratio >= target else f"  below target {target}x"
        ok = ok and ratio >= target
        pt1_text = f"{pt1 * 1e6:>11.2f}" if pt1 else f"{'-':>11}"
        print(f"{r['workload']:<12} {n:>4} {edp * 1e6:>19.2f} {pt * 1e6:>18.2f} {pt1_text} "
              f"{ratio:>8.2f}x{mark}", flush=True)
    print("targets met" if ok else "targets NOT met (see above)")


if __name__ == "__main__":
    main()
