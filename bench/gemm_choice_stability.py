#!/usr/bin/env python3
"""Is `gemm: auto` stable? Runs the same sweep (the three workloads at the
given sizes on cpu 1 thread and cpu 2 threads, gemm: auto) several times and
prints, per size and device, the GEMM path each sweep recorded and by which
rule (context.json's gemm_choice). Every size gets its own sweep per
repetition, because context.json keeps one describe() per device.
"""
import argparse
import collections
import json
import os
import subprocess
import tempfile

import compare


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--edpbench", required=True)
    p.add_argument("--sizes", default="small,medium")
    p.add_argument("--repeat", type=int, default=10)
    a = p.parse_args()
    root = tempfile.mkdtemp(prefix="edpbench-choice-")
    seen = collections.defaultdict(list)
    for rep in range(a.repeat):
        for size in a.sizes.split(","):
            n, d_in, h, d_out = compare.SIZES[size]
            d = os.path.join(root, f"{size}-{rep}")
            os.makedirs(d)
            with open(os.path.join(d, "c.yaml"), "w") as f:
                f.write(f"""name: choice
iterations: 2
runs: 1
warmup_iterations: 1
learning_rate: 1.0e-6
init_scale: 0.1
workloads: [tensors, autograd, custom_relu]
sizes: {{{size}: {{n: {n}, d_in: {d_in}, h: {h}, d_out: {d_out}}}}}
devices: [{{kind: cpu, threads: 1, cpus: all, gemm: auto}},
          {{kind: cpu, threads: 2, cpus: all, gemm: auto}}]
power: {{source: none}}
""")
            subprocess.run([a.edpbench, "run", "--config", os.path.join(d, "c.yaml"), "--out",
                            os.path.join(d, "out")], check=True, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
            with open(os.path.join(d, "out", "context.json")) as f:
                for dev, be in json.load(f)["backends"].items():
                    c = be["gemm_choice"]
                    rule = "tie" if "tie within" in c else "measured" if "measured" in c else c
                    seen[(size, be["threads"])].append(f"{be['gemm_path']}/{rule}")
    print(f"{'size':<7} {'threads':>7}  choices over {a.repeat} sweeps")
    for (size, threads), v in seen.items():
        counts = collections.Counter(v)
        print(f"{size:<7} {threads:>7}  " + ", ".join(f"{k} x{c}" for k, c in counts.items()))


if __name__ == "__main__":
    main()
