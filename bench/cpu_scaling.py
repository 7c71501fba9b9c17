#!/usr/bin/env python3
"""Thread scaling of edpbench's cpu backend against PyTorch (issue 17).

Per size and workload: ms/iteration on 1 and on 2 threads (medians over
rounds that interleave edpbench 1 thread, edpbench 2 threads, PyTorch 1
thread and PyTorch 2 threads, so drift on a shared machine hits all alike),
the 1-thread/2-thread ratio, the GEMM path `gemm: auto` chose (and by which
rule) and PyTorch's time with the same thread counts.
"""
import argparse
import statistics
import sys
import tempfile
from types import SimpleNamespace

import compare


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--edpbench", required=True, help="path of the edpbench binary")
    p.add_argument("--python", default="/usr/bin/python3", help="python with torch")
    p.add_argument("--gemm", default="auto", help="edpbench cpu gemm path")
    p.add_argument("--sizes", default="small,medium")
    p.add_argument("--workloads", default="tensors,autograd,custom_relu")
    p.add_argument("--iterations", type=int, default=20)
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--no-torch", action="store_true", help="edpbench only")
    a = p.parse_args()
    out_root = tempfile.mkdtemp(prefix="edpbench-scaling-")

    def opts(threads):
        return SimpleNamespace(device="cpu", threads=threads, gemm=a.gemm, relu="kernel",
                               iterations=a.iterations, runs=a.runs, warmup=a.warmup)

    rows, torch_version = [], "-"
    for size in a.sizes.split(","):
        for w in a.workloads.split(","):
            e = {1: [], 2: []}
            t = {1: [], 2: []}
            path = {1: set(), 2: set()}
            for _ in range(a.rounds):
                for threads in (1, 2):
                    be = {}
                    e[threads] += compare.run_edpbench(a.edpbench, w, size, opts(threads),
                                                       out_root, be)
                    choice = be.get("gemm_choice", "")
                    rule = "tie" if "tie within" in choice else \
                        "measured" if "measured" in choice else "configured"
                    path[threads].add(f"{be.get('gemm_path', '?')}/{rule}")
                if not a.no_torch:
                    for threads in (1, 2):
                        times, torch_version = compare.run_pytorch(a.python, w, size,
                                                                   opts(threads))
                        t[threads] += times
            med = {k: statistics.median(v) / a.iterations * 1e3 for k, v in e.items()}
            tmed = {k: statistics.median(v) / a.iterations * 1e3 if v else float("nan")
                    for k, v in t.items()}
            rows.append((w, size, med[1], med[2], med[1] / med[2],
                         ",".join(sorted(path[1])), ",".join(sorted(path[2])),
                         tmed[1], tmed[2], tmed[1] / tmed[2]))
            print(f"  done {w}/{size}: edpbench {med[1]:.2f} / {med[2]:.2f} ms/iter, "
                  f"pytorch {tmed[1]:.2f} / {tmed[2]:.2f}", file=sys.stderr, flush=True)
    print(f"iterations={a.iterations} runs={a.runs}x{a.rounds} (interleaved) gemm={a.gemm} "
          f"torch={torch_version}")
    print(f"{'workload':<12} {'size':<7} {'edp 1t ms':>9} {'edp 2t ms':>9} {'1t/2t':>6} "
          f"{'path 1t':>16} {'path 2t':>16} {'torch 1t':>9} {'torch 2t':>9} {'1t/2t':>6}")
    for w, size, e1, e2, r, p1, p2, t1, t2, tr in rows:
        print(f"{w:<12} {size:<7} {e1:>9.2f} {e2:>9.2f} {r:>6.2f} {p1:>16} {p2:>16} "
              f"{t1:>9.2f} {t2:>9.2f} {tr:>6.2f}")
    print(f"edpbench 2-thread scaling: median {statistics.median(r[4] for r in rows):.2f}x, "
          f"min {min(r[4] for r in rows):.2f}x")


if __name__ == "__main__":
    main()
