#!/usr/bin/env python3
"""The seed paper's experiment in PyTorch itself, measured with edpbench's
monitor: the three programs of "Learning PyTorch with Examples" (raw tensors
with a hand-written backward, autograd, autograd with a custom ReLU Function)
at the paper's sizes on the CPU and, where CUDA is present, the GPU. Each run
(`--iterations` training steps) is one energy window; the results go into
`--out` as edpbench's own results.csv/runs.csv/rails.csv/context.json rows
(workloads torch_tensors, torch_autograd, torch_custom_relu), so that

    edpbench recommend OUT/results.csv

picks CPU or GPU for PyTorch, beside edpbench's own backends when OUT is also
the --out of an `edpbench run` (rows of other configurations are kept).

    python3 examples/pytorch_mlp_energy.py --sizes small --out results/torch
    python3 examples/pytorch_mlp_energy.py --source trace --trace T.csv --n 8 ...

Exits 77 (skipped) when torch is not installed (Debian: python3-torch).
Python 3.6 syntax (JetPack 4).
"""
import argparse
import os
import sys

SIZES = {  # configs/paper.yaml, seed 002
    "small": (64, 15000, 100, 150),
    "medium": (192, 20000, 300, 200),
    "large": (384, 40000, 600, 400),
}


def programs():
    """The three programs, from their one definition: bench/pytorch_mlp.py
    (the peer edpbench's own workloads are compared with). Needs torch."""
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, os.path.join(here, "..", "bench"))
    import pytorch_mlp  # noqa: E402 (found through the path above)
    return pytorch_mlp.STEPS


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", required=True, help="results directory (merged into)")
    p.add_argument("--sizes", default="small", help="comma list of small,medium,large")
    p.add_argument("--n", type=int, help="custom size: N (with --d-in --h --d-out)")
    p.add_argument("--d-in", type=int)
    p.add_argument("--h", type=int)
    p.add_argument("--d-out", type=int)
    p.add_argument("--workloads", default="tensors,autograd,custom_relu")
    p.add_argument("--devices", default="cpu,gpu", help="cpu,gpu (gpu skipped without CUDA)")
    p.add_argument("--iterations", type=int, default=20, help="steps per run (paper: 500)")
    p.add_argument("--runs", type=int, default=3, help="runs per configuration (paper: 10)")
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--threads", type=int, default=0, help="torch.set_num_threads; 0 = default")
    p.add_argument("--lr", type=float, default=1e-6)
    p.add_argument("--init-scale", type=float, default=0.01)
    p.add_argument("--baseline-s", type=float, default=3.0, help="idle baseline; 0 = none")
    p.add_argument("--source", default="auto", help="power.source of edpbench")
    p.add_argument("--trace", default=None, help="trace CSV for --source trace")
    p.add_argument("--sysfs-root", default="")
    p.add_argument("--rate-hz", type=float, default=100.0)
    return p.parse_args()


def main():
    a = parse_args()
    try:
        import torch
    except ImportError:
        print("pytorch_mlp_energy: torch is not installed (Debian: apt-get install "
              "python3-torch; JetPack: NVIDIA's torch wheel); nothing measured", file=sys.stderr)
        return 77
    import edpbench

    if a.n is not None:
        if None in (a.d_in, a.h, a.d_out):
            sys.exit("pytorch_mlp_energy: --n needs --d-in, --h and --d-out")
        sizes = [("custom", (a.n, a.d_in, a.h, a.d_out))]
    else:
        unknown = [s for s in a.sizes.split(",") if s not in SIZES]
        if unknown:
            sys.exit("pytorch_mlp_energy: unknown size %s; use %s" % (unknown[0], ",".join(SIZES)))
        sizes = [(s, SIZES[s]) for s in a.sizes.split(",")]
    steps = programs()
    workloads = a.workloads.split(",")
    for w in workloads:
        if w not in steps:
            sys.exit("pytorch_mlp_energy: unknown workload %s; use %s" % (w, ",".join(steps)))
    devices = []
    for d in a.devices.split(","):
        if d == "gpu" and not torch.cuda.is_available():
            print("pytorch_mlp_energy: no CUDA device: gpu skipped", file=sys.stderr)
        elif d in ("cpu", "gpu"):
            devices.append(d)
        else:
            sys.exit("pytorch_mlp_energy: unknown device %s; use cpu,gpu" % d)
    if a.threads > 0:
        torch.set_num_threads(a.threads)
    torch.set_flush_denormal(True)  # as edpbench's CPU backend (FTZ/DAZ)

    mon = edpbench.Monitor(source=a.source, trace=a.trace, sysfs_root=a.sysfs_root,
                           rate_hz=a.rate_hz, sync="torch")
    print("energy: %s (source %s)" % (mon.total_rails_why.splitlines()[0] if mon.total_rails_why
                                      else "not measured", mon.source), file=sys.stderr)
    if a.baseline_s > 0 and mon.measures_energy:
        idle = mon.measure_idle(a.baseline_s)
        print("idle: %.3f W" % idle["power_w"], file=sys.stderr)

    print("%-18s %-7s %-4s %4s %10s %10s %10s %8s  %s" % (
        "workload", "size", "dev", "run", "time_s", "energy_j", "dyn_j", "power_w", "flags"))
    for size, (n, d_in, h, d_out) in sizes:
        for device in devices:
            dev = torch.device("cuda" if device == "gpu" else "cpu")
            if dev.type == "cuda":
                torch.backends.cuda.matmul.allow_tf32 = False  # float32, as edpbench
            for workload in workloads:
                torch.manual_seed(0)
                s = a.init_scale
                x = torch.randn(n, d_in, device=dev) * s
                y = torch.randn(n, d_out, device=dev) * s
                w1_0 = torch.randn(d_in, h, device=dev) * s
                w2_0 = torch.randn(h, d_out, device=dev) * s
                grad = workload != "tensors"
                w1 = w1_0.clone().requires_grad_(grad)
                w2 = w2_0.clone().requires_grad_(grad)
                step = steps[workload]
                grad_mode = torch.enable_grad() if grad else torch.no_grad()
                with grad_mode:
                    for _ in range(a.warmup):
                        step(x, y, w1, w2, a.lr)
                    for run in range(1, a.runs + 1):
                        with torch.no_grad():
                            w1.copy_(w1_0)
                            w2.copy_(w2_0)
                        name = "%s/%s/%s/%d" % (workload, size, device, run)
                        with mon.window(name) as win:  # syncs CUDA at both edges
                            for _ in range(a.iterations):
                                loss = step(x, y, w1, w2, a.lr)
                        final_loss = float(loss.item())
                        mon.record(win, workload="torch_" + workload, size=size, device=device,
                                   iterations=a.iterations, final_loss=final_loss, n=n,
                                   d_in=d_in, h=h, d_out=d_out, threads=torch.get_num_threads())
                        flags = ",".join(f for f, on in (("low_confidence", win.low_confidence),
                                                         ("frozen", win.frozen),
                                                         ("untrusted", not win.ok)) if on)
                        print("%-18s %-7s %-4s %4d %10.4f %10.4f %10.4f %8.3f  %s" % (
                            "torch_" + workload, size, device, run, win.time_s, win.energy_j,
                            win.dynamic_energy_j, win.power_w_mean, flags))
                        sys.stdout.flush()
                del x, y, w1, w2, w1_0, w2_0
    mon.write(a.out)
    print("wrote %s/results.csv; next: edpbench recommend %s/results.csv" % (a.out, a.out),
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
