#!/usr/bin/env python3
"""The peer of edpbench's three MLP workloads in PyTorch (seed paper 002's
programs, from "Learning PyTorch with Examples"): raw tensors with a
hand-written backward, autograd, and autograd with a custom ReLU Function.

Same protocol as edpbench: set-up, warm-up iterations, then runs that each
start from the initial weights and are timed between two device
synchronisations. The loss is read once per run (after the timed window), as
edpbench does; the tutorial's per-iteration .item() would add a host sync per
iteration on a GPU. Prints one JSON object per run on stdout.
"""
import argparse
import json
import time

import torch


class MyReLU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.clamp(min=0)

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        grad_input = grad_output.clone()
        grad_input[x < 0] = 0
        return grad_input


def step_tensors(x, y, w1, w2, lr):
    h = x.mm(w1)
    h_relu = h.clamp(min=0)
    y_pred = h_relu.mm(w2)
    loss = (y_pred - y).pow(2).sum()
    grad_y_pred = 2.0 * (y_pred - y)
    grad_w2 = h_relu.t().mm(grad_y_pred)
    grad_h_relu = grad_y_pred.mm(w2.t())
    grad_h = grad_h_relu.clone()
    grad_h[h < 0] = 0
    grad_w1 = x.t().mm(grad_h)
    w1 -= lr * grad_w1
    w2 -= lr * grad_w2
    return loss


def make_step_autograd(relu):
    def step(x, y, w1, w2, lr):
        y_pred = relu(x.mm(w1)).mm(w2)
        loss = (y_pred - y).pow(2).sum()
        loss.backward()
        with torch.no_grad():
            w1 -= lr * w1.grad
            w2 -= lr * w2.grad
            w1.grad = None
            w2.grad = None
        return loss
    return step


STEPS = {
    "tensors": step_tensors,
    "autograd": make_step_autograd(lambda h: h.clamp(min=0)),
    "custom_relu": make_step_autograd(MyReLU.apply),
}


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--workload", choices=sorted(STEPS), required=True)
    p.add_argument("--n", type=int, required=True)
    p.add_argument("--d-in", type=int, required=True)
    p.add_argument("--h", type=int, required=True)
    p.add_argument("--d-out", type=int, required=True)
    p.add_argument("--iterations", type=int, default=20)
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--threads", type=int, default=0)
    p.add_argument("--device", default="cpu")
    p.add_argument("--lr", type=float, default=1e-6)
    p.add_argument("--init-scale", type=float, default=0.1)
    a = p.parse_args()
    if a.threads > 0:
        torch.set_num_threads(a.threads)
    # edpbench's CPU backend runs with flush-to-zero and denormals-are-zero
    # (context.json: flush_to_zero on); PyTorch by default does not, and its
    # small-N steps with lr 1e-6 spend most of their time on denormals
    # (tensors at N = 1: 13-22 ms per step without, 2.2-2.5 ms with, 1 thread).
    torch.set_flush_denormal(True)
    dev = torch.device(a.device)
    sync = torch.cuda.synchronize if dev.type == "cuda" else (lambda: None)
    if dev.type == "cuda":
        torch.backends.cuda.matmul.allow_tf32 = False  # float32 GEMMs, as edpbench
    torch.manual_seed(0)
    s = a.init_scale
    x = torch.randn(a.n, a.d_in, device=dev) * s
    y = torch.randn(a.n, a.d_out, device=dev) * s
    w1_0 = torch.randn(a.d_in, a.h, device=dev) * s
    w2_0 = torch.randn(a.h, a.d_out, device=dev) * s
    needs_grad = a.workload != "tensors"
    w1 = w1_0.clone().requires_grad_(needs_grad)
    w2 = w2_0.clone().requires_grad_(needs_grad)
    step = STEPS[a.workload]
    grad_ctx = torch.enable_grad if needs_grad else torch.no_grad
    with grad_ctx():
        for _ in range(a.warmup):
            step(x, y, w1, w2, a.lr)
        sync()
        for run in range(1, a.runs + 1):
            with torch.no_grad():
                w1.copy_(w1_0)
                w2.copy_(w2_0)
            sync()
            t0 = time.perf_counter()
            for _ in range(a.iterations):
                loss = step(x, y, w1, w2, a.lr)
            sync()
            t = time.perf_counter() - t0
            print(json.dumps({"run": run, "time_s": t, "final_loss": float(loss.item()),
                              "torch": torch.__version__, "threads": torch.get_num_threads()}),
                  flush=True)


if __name__ == "__main__":
    main()
