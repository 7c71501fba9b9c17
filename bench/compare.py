#!/usr/bin/env python3
"""Per-iteration time of edpbench against the same program in PyTorch, on
the CPU or a CUDA GPU, in one run of this script (the machines are shared and
noisy: the two are interleaved per configuration and medians are compared).

Prints a table: workload, size, median seconds per iteration for both, the
PyTorch/edpbench ratio (> 1: edpbench is faster) and the GFLOP/s each
achieved from the GEMM FLOP count of DESIGN §2 (4*N*D_in*H + 6*N*H*D_out).
With --device cuda it also measures the device's SGEMM rate with
torch.mm on a 8192^3 product and reports each result as a fraction of it.
"""
import argparse
import csv
import json
import os
import statistics
import subprocess
import sys
import tempfile

SIZES = {
    "small": (64, 15000, 100, 150),
    "medium": (192, 20000, 300, 200),
    "large": (384, 40000, 600, 400),
}
HERE = os.path.dirname(os.path.abspath(__file__))


def gflop(n, d_in, h, d_out):
    return (4.0 * n * d_in * h + 6.0 * n * h * d_out) / 1e9


def run_edpbench(binary, workload, size, args, out_root, backend=None):
    """Seconds per run; `backend`, a dict, receives the device's describe()
    from context.json (the GEMM path chosen, the threads, ...)."""
    n, d_in, h, d_out = SIZES[size]
    device = "{kind: gpu, index: 0}" if args.device == "cuda" else \
        f"{{kind: cpu, threads: {args.threads}, cpus: all, gemm: {args.gemm}}}"
    cfg = f"""name: bench
iterations: {args.iterations}
runs: {args.runs}
warmup_iterations: {args.warmup}
learning_rate: 1.0e-6
init_scale: 0.1
workloads: [{workload}]
sizes: {{{size}: {{n: {n}, d_in: {d_in}, h: {h}, d_out: {d_out}}}}}
devices: [{device}]
gpu: {{relu: {args.relu}}}
power: {{source: none}}
"""
    d = tempfile.mkdtemp(dir=out_root)
    with open(os.path.join(d, "bench.yaml"), "w") as f:
        f.write(cfg)
    subprocess.run([binary, "run", "--config", os.path.join(d, "bench.yaml"), "--out",
                    os.path.join(d, "out")], check=True, stderr=subprocess.DEVNULL)
    with open(os.path.join(d, "out", "results.csv")) as f:
        row = next(csv.DictReader(f))
    if row["status"] != "ok":
        raise SystemExit(f"edpbench {workload}/{size}: {row['status']}: {row['note']}")
    if backend is not None:
        with open(os.path.join(d, "out", "context.json")) as f:
            backend.update(next(iter(json.load(f)["backends"].values())))
    with open(os.path.join(d, "out", "runs.csv")) as f:
        return [float(r["time_s"]) for r in csv.DictReader(f)]


def run_pytorch(python, workload, size, args):
    n, d_in, h, d_out = SIZES[size]
    cmd = [python, os.path.join(HERE, "pytorch_mlp.py"), "--workload", workload, "--n", str(n),
           "--d-in", str(d_in), "--h", str(h), "--d-out", str(d_out), "--iterations",
           str(args.iterations), "--runs", str(args.runs), "--warmup", str(args.warmup),
           "--threads", str(args.threads), "--device", args.device]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    runs = [json.loads(l) for l in out.splitlines() if l.startswith("{")]
    return [r["time_s"] for r in runs], runs[0]["torch"]


def sgemm_rate(python):
    code = ("import torch,time\n"
            "torch.backends.cuda.matmul.allow_tf32=False\n"
            "a=torch.randn(8192,8192,device='cuda');b=torch.randn(8192,8192,device='cuda')\n"
            "for _ in range(3): a.mm(b)\n"
            "torch.cuda.synchronize();t=time.perf_counter()\n"
            "for _ in range(10): a.mm(b)\n"
            "torch.cuda.synchronize();print(10*2*8192**3/(time.perf_counter()-t)/1e9)\n")
    return float(subprocess.run([python, "-c", code], check=True, capture_output=True,
                                text=True).stdout)


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--edpbench", required=True, help="path of the edpbench binary")
    p.add_argument("--python", default="/usr/bin/python3", help="python with torch")
    p.add_argument("--device", choices=["cpu", "cuda"], default="cpu")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--gemm", default="auto", help="edpbench cpu gemm path")
    p.add_argument("--relu", default="kernel", help="edpbench gpu relu path")
    p.add_argument("--sizes", default="medium,large")
    p.add_argument("--workloads", default="tensors,autograd,custom_relu")
    p.add_argument("--iterations", type=int, default=10)
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--rounds", type=int, default=2,
                   help="alternate edpbench and PyTorch this many times per configuration")
    args = p.parse_args()
    out_root = tempfile.mkdtemp(prefix="edpbench-bench-")
    peak = sgemm_rate(args.python) if args.device == "cuda" else None
    rows = []
    torch_version = "?"
    for size in args.sizes.split(","):
        for w in args.workloads.split(","):
            e_times, t_times = [], []
            for _ in range(args.rounds):  # interleaved: drift hits both alike
                e_times += run_edpbench(args.edpbench, w, size, args, out_root)
                t, torch_version = run_pytorch(args.python, w, size, args)
                t_times += t
            e = statistics.median(e_times) / args.iterations
            t = statistics.median(t_times) / args.iterations
            g = gflop(*SIZES[size])
            rows.append((w, size, e, t, t / e, g / e, g / t))
            print(f"  done {w}/{size}: edpbench {e*1e3:.2f} ms/iter, pytorch {t*1e3:.2f} ms/iter",
                  file=sys.stderr, flush=True)
    print(f"device={args.device} threads={args.threads} iterations={args.iterations} "
          f"runs={args.runs}x{args.rounds} torch={torch_version}"
          + (f" sgemm_peak={peak:.0f} GFLOP/s" if peak else ""))
    hdr = f"{'workload':<12} {'size':<7} {'edpbench ms/it':>15} {'pytorch ms/it':>14} " \
          f"{'pytorch/edp':>11} {'edp GFLOP/s':>12} {'torch GFLOP/s':>14}"
    if peak:
        hdr += f" {'edp % sgemm':>12}"
    print(hdr)
    for w, size, e, t, ratio, ge, gt in rows:
        line = f"{w:<12} {size:<7} {e*1e3:>15.2f} {t*1e3:>14.2f} {ratio:>11.2f} {ge:>12.1f} {gt:>14.1f}"
        if peak:
            line += f" {100*ge/peak:>11.1f}%"
        print(line)
    print(f"median ratio pytorch/edpbench: {statistics.median(r[4] for r in rows):.2f}, "
          f"min {min(r[4] for r in rows):.2f}")


if __name__ == "__main__":
    main()
