#!/usr/bin/env python3
"""The ops study's GEMM against its peers, side by side (issue 38).

Each round runs, in an order that rotates from round to round:
  - edpbench: `edpbench run` with `studies: [ops]` (gemm at the square orders
    and at the five GEMMs of each MLP size, gemm: auto, and fma_peak), one
    sweep per size because the study takes the MLP shapes of its first size;
    its ops.csv gflops, and the path context.json says gemm: auto chose;
  - OpenBLAS with its own thread pool, as NumPy calls it, and Eigen with its
    own OpenMP threading (edp_gemm_bench --impl openblas | eigen, each in its
    own process);
  - NumPy (bench/ops_numpy.py --gemm, OPENBLAS_NUM_THREADS = threads);
  - the three MLP workloads at the --mlp sizes (`edpbench run`, gemm: auto).
Then, per shape, the median GFLOP/s over the rounds, edpbench / best of
OpenBLAS and Eigen (target >= 0.95), the path chosen in each round (the same
in every round: stable), and the MLP's GFLOP/s as a share of the same rounds'
fma_peak (targets: medium >= 90%, large >= 95%). The load average is printed
with every round: figures taken on a busy machine say little.
"""
import argparse
import csv
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import ops_numpy  # noqa: E402  (SIZES, the MLP's five GEMMs, shape texts)


def loadavg():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def busy(load1, own):
    """Whether a 1-minute load average says others are running: above half the
    CPUs, plus the `own` runnable threads this script keeps busy itself."""
    return load1 > own + 0.5 * (os.cpu_count() or 1)


def run(cmd, env=None, log=None):
    r = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if log:
        with open(log, "a") as f:
            f.write(f"$ {' '.join(cmd)}\n{r.stdout}{r.stderr}\n")
    if r.returncode != 0:
        sys.exit(f"gemm_ceiling: {' '.join(cmd)} exited {r.returncode}:\n{r.stderr[-2000:]}")
    return r.stdout


def study_shape(text):
    """ops.csv's shape ('15000x100x64 tA') -> edp_gemm_bench's ('15000x100x64:tA')."""
    dims, *flags = text.split()
    return dims + "".join(":" + f for f in flags)


def sizes_yaml(names):
    return "{" + ", ".join(
        f"{s}: {{n: {v[0]}, d_in: {v[1]}, h: {v[2]}, d_out: {v[3]}}}"
        for s, v in ((s, ops_numpy.SIZES[s]) for s in names)) + "}"


def edpbench_ops(a, binary, work, tag):
    """{shape: (gflops, path)} and the fma_peak GFLOP/s of one set of sweeps."""
    out, peak = {}, None
    for i, size in enumerate(a.sizes or [None]):
        d = os.path.join(work, f"ops-{tag}-{size}")
        os.makedirs(d)
        ops = "[gemm, fma_peak]" if i == 0 else "[gemm]"
        square = ", ".join(str(n) for n in a.square) if i == 0 else ""
        sizes = f"sizes: {sizes_yaml([size])}\n" if size else "sizes: {}\n"
        with open(os.path.join(d, "c.yaml"), "w") as f:
            f.write(f"""name: gemm-ceiling
studies: [ops]
{sizes}devices:
  - {{kind: cpu, threads: {a.threads}, cpus: all, gemm: auto}}
ops: {{ops: {ops}, gemm_n: [{square}], cold: false, steps: 1, runs: {a.runs},
      max_rel_ci: 0, min_run_s: 0.25}}
power: {{source: none}}
""")
        run([binary, "run", "--config", os.path.join(d, "c.yaml"), "--out",
             os.path.join(d, "out")], log=os.path.join(work, "log.txt"))
        with open(os.path.join(d, "out", "context.json")) as f:
            facts = json.load(f)["backends"]["cpu"]
        with open(os.path.join(d, "out", "ops.csv")) as f:
            for row in csv.DictReader(f):
                if row["status"] != "ok":
                    sys.exit(f"gemm_ceiling: {row['key']}: {row['status']} {row['note']}")
                if row["op"] == "fma_peak":
                    peak = float(row["gflops"])
                    continue
                choice = facts.get("gemm_choice gemm " + row["shape"], facts["gemm_path"] + " (?)")
                path = choice.split(" ")[0]
                rule = "tie" if "tie within" in choice else "measured" if "measured" in choice \
                    else "fixed"
                out[study_shape(row["shape"])] = (float(row["gflops"]), f"{path}/{rule}")
    return out, peak


def probe(a, impl):
    """None when edp_gemm_bench runs --impl impl, else why not (a library this
    build lacks, or a failure)."""
    r = subprocess.run([a.gemm_bench, "--impl", impl, "--samples", "1", "8"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    return None if r.returncode == 0 else f"exited {r.returncode}: {r.stderr.strip()[-200:]}"


def peer(a, impl, shapes, work):
    """{shape: GFLOP/s} of edp_gemm_bench --impl impl, or NumPy."""
    if impl == "numpy":
        env = dict(os.environ, OPENBLAS_NUM_THREADS=str(a.threads), OMP_NUM_THREADS=str(a.threads))
        cmd = [a.python, os.path.join(HERE, "ops_numpy.py"), "--gemm", "--samples",
               str(a.samples)] + shapes
    else:
        env = dict(os.environ)
        cmd = [a.gemm_bench, "--impl", impl, "--threads", str(a.threads), "--samples",
               str(a.samples)] + shapes
    out = {}
    for line in run(cmd, env=env, log=os.path.join(work, "log.txt")).splitlines():
        _, shape, _, t, flop = line.split(",")
        out[shape] = float(flop) / float(t) / 1e9
    return out


def edpbench_mlp(a, binary, work, tag):
    """{(workload, size): (GFLOP/s from the median run, path)}."""
    d = os.path.join(work, f"mlp-{tag}")
    os.makedirs(d)
    with open(os.path.join(d, "c.yaml"), "w") as f:
        f.write(f"""name: gemm-ceiling-mlp
iterations: {a.iterations}
runs: {a.runs}
warmup_iterations: 2
learning_rate: 1.0e-6
init_scale: 0.01
workloads: [tensors, autograd, custom_relu]
sizes: {sizes_yaml(a.mlp)}
devices: [{{kind: cpu, threads: {a.threads}, cpus: all, gemm: auto}}]
power: {{source: none}}
""")
    run([binary, "run", "--config", os.path.join(d, "c.yaml"), "--out",
         os.path.join(d, "out")], log=os.path.join(work, "log.txt"))
    with open(os.path.join(d, "out", "context.json")) as f:
        facts = json.load(f)["backends"]["cpu"]
    out = {}
    with open(os.path.join(d, "out", "results.csv")) as f:
        for row in csv.DictReader(f):
            n, d_in, h, d_out = (int(row[k]) for k in ("n", "d_in", "h", "d_out"))
            flop = 4 * n * d_in * h + 6 * n * h * d_out
            gflops = flop * int(row["iterations"]) / float(row["time_s_median"]) / 1e9
            choice = facts.get(f"gemm_choice {n}x{d_in}x{h}x{d_out}", "?")
            out[(row["workload"], row["size"])] = (gflops, choice.split(" ")[0])
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--build", default="build", help="build directory (edpbench, edp_gemm_bench)")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--samples", type=int, default=5, help="peers: samples of >= 50 ms")
    p.add_argument("--runs", type=int, default=5, help="edpbench: runs per item")
    p.add_argument("--iterations", type=int, default=10, help="MLP: iterations per run")
    p.add_argument("--square", default="256,1024,4096")
    p.add_argument("--sizes", default="small,medium,large", help="MLP sizes whose GEMMs to time")
    p.add_argument("--mlp", default="medium,large", help="MLP sizes to run ('' for none)")
    p.add_argument("--python", default="/usr/bin/python3", help="a Python with NumPy")
    p.add_argument("--split", default="medium",
                   help="after the rounds, where a step's time goes at this MLP size on each "
                   "GEMM path (edp_gemm_bench --split; '' for none)")
    p.add_argument("--edpbench", help="the edpbench to measure (default: BUILD/src/cli/edpbench)")
    p.add_argument("--before", help="another edpbench (an older build) measured in the same "
                   "rounds, for a before/after table")
    p.add_argument("--keep", help="keep every output in this directory")
    a = p.parse_args()
    a.square = [int(x) for x in a.square.split(",") if x]
    a.sizes = [s for s in a.sizes.split(",") if s]
    a.mlp = [s for s in a.mlp.split(",") if s]
    a.edpbench = a.edpbench or os.path.join(a.build, "src", "cli", "edpbench")
    a.gemm_bench = os.path.join(a.build, "src", "workloads", "edp_gemm_bench")
    for b in [a.edpbench, a.gemm_bench] + ([a.before] if a.before else []):
        if not os.access(b, os.X_OK):
            sys.exit(f"gemm_ceiling: no {b}: cmake --build {a.build} --target edpbench "
                     "edp_gemm_bench")
    for impl in ("openblas", "eigen"):  # the peers; a BLIS-only build has no OpenBLAS
        why = probe(a, impl)
        if why:
            sys.exit(f"gemm_ceiling: the peer {impl} cannot run in {a.build} "
                     f"(edp_gemm_bench --impl {impl} {why}); the comparison needs OpenBLAS and "
                     "Eigen: install libopenblas-dev (scripts/setup-deps.sh --run) and rebuild")
    work = a.keep or tempfile.mkdtemp(prefix="edpbench-gemm-ceiling-")
    os.makedirs(work, exist_ok=True)
    shapes = [ops_numpy.shape_text(n, n, n, False, False) for n in a.square]
    for s in a.sizes:
        shapes += [ops_numpy.shape_text(*g) for g in ops_numpy.mlp_gemms(*ops_numpy.SIZES[s])]

    rates = {}  # (impl, shape) -> [GFLOP/s per round]
    paths = {}  # shape -> [path/rule per round]
    peaks, mlp, mlp_paths = [], {}, {}
    started = time.time()
    print(f"threads={a.threads} rounds={a.rounds} output in {work}", flush=True)
    start_load = os.getloadavg()[0]
    noisy = busy(start_load, 0)
    print(f"load average {loadavg()} on {os.cpu_count()} CPUs at the start: "
          + ("WARNING: the machine is NOT quiet, these figures are not the quiet-machine "
             "figures" if noisy else "quiet"), flush=True)
    for r in range(a.rounds):
        steps = ["edpbench", "openblas", "eigen", "numpy"] + (["before"] if a.before else [])
        steps = steps[r % len(steps):] + steps[:r % len(steps)]
        if a.mlp:
            steps += ["mlp", "mlp-before"] if a.before else ["mlp"]
            if a.before and r % 2:
                steps[-2:] = steps[-1:-3:-1]
        before = loadavg()
        noisy |= busy(float(before.split()[0]), a.threads if r else 0)
        for step in steps:
            if step in ("edpbench", "before"):
                binary = a.edpbench if step == "edpbench" else a.before
                got, peak = edpbench_ops(a, binary, work, f"{step}-{r}")
                if step == "edpbench":
                    peaks.append(peak)
                for shape, (g, path) in got.items():
                    rates.setdefault((step, shape), []).append(g)
                    paths.setdefault((step, shape), []).append(path)
            elif step.startswith("mlp"):
                who = "before" if step == "mlp-before" else "edpbench"
                binary = a.edpbench if who == "edpbench" else a.before
                for (w, s), (g, path) in edpbench_mlp(a, binary, work, f"{who}-{r}").items():
                    mlp.setdefault((who, w, s), []).append(g)
                    mlp_paths.setdefault((who, w, s), []).append(path)
            else:
                for shape, g in peer(a, step, shapes, work).items():
                    rates.setdefault((step, shape), []).append(g)
        print(f"round {r + 1}: load average {before} before, {loadavg()} after "
              f"({time.time() - started:.0f} s so far)", flush=True)

    med = {k: statistics.median(v) for k, v in rates.items()}
    nan = float("nan")
    print(f"\nGFLOP/s, {a.threads} threads, median of {a.rounds} rounds; "
          "ratio = edpbench / best of OpenBLAS and Eigen (target >= 0.95)")
    before_head = f" {'before':>8} {'ratio':>6}" if a.before else ""
    print(f"{'shape':<20} {'edpbench':>9} {'openblas':>9} {'eigen':>9} {'numpy':>9} "
          f"{'ratio':>6}  {'target':<7}{before_head}  path chosen per round")
    missed = 0
    for shape in shapes:
        e = med.get(("edpbench", shape), nan)
        best = max(med.get(("openblas", shape), 0), med.get(("eigen", shape), 0))
        ratio = e / best if best else nan
        ok = ratio >= 0.95
        missed += not ok
        chosen = paths.get(("edpbench", shape), [])
        stable = "stable" if len(set(c.split("/")[0] for c in chosen)) == 1 else "CHANGED"
        before = ""
        if a.before:
            b = med.get(("before", shape), nan)
            before = f" {b:8.1f} {b / best if best else nan:6.2f}"
        print(f"{shape:<20} {e:9.1f} {med.get(('openblas', shape), nan):9.1f} "
              f"{med.get(('eigen', shape), nan):9.1f} {med.get(('numpy', shape), nan):9.1f} "
              f"{ratio:6.2f}  {'ok' if ok else 'MISSED':<7}{before}  {' '.join(chosen)} "
              f"({stable})")
    peak = statistics.median([x for x in peaks if x]) if any(peaks) else nan
    print(f"\nfma_peak: {peak:.1f} GFLOP/s (median of {len(peaks)}: "
          + " ".join(f"{x:.1f}" for x in peaks) + ")")
    if mlp:
        print(f"\nMLP, {a.threads} threads, {a.iterations} iterations x {a.runs} runs, "
              "GFLOP/s of the median run, median of the rounds, share of fma_peak")
        for (who, w, s), v in sorted(mlp.items(), key=lambda kv: (kv[0][2], kv[0][1], kv[0][0])):
            g = statistics.median(v)
            want = {"medium": 0.90, "large": 0.95}.get(s)
            share = g / peak
            note = f"target >= {want:.0%}: {'ok' if share >= want else 'MISSED'}" if want else ""
            print(f"{who:<8} {w:<12} {s:<7} {g:8.1f} GFLOP/s {100 * share:5.1f}%  {note:<20} "
                  f"path {' '.join(mlp_paths[(who, w, s)])}")
    if a.split:
        for path in ("eigen", "openblas", "blis"):
            cmd = [a.gemm_bench, "--split", a.split, "--threads", str(a.threads), "--gemm", path,
                   "--steps", "10", "--programs", "tensors,autograd"]
            why = probe(a, "edp-" + path)
            if why:  # a library this build lacks, or a failure
                print(f"\n(no --split on {path}: the probe {why})")
                continue
            print(f"\nwhere the time goes (edp_gemm_bench --split {a.split} --gemm {path}, "
                  f"load average {loadavg()}):")
            print(run(cmd, log=os.path.join(work, "log.txt")), end="")
    print(f"\n{time.time() - started:.0f} s in all; load average now {loadavg()}")
    if noisy:
        print(f"WARNING: the machine was NOT quiet (1-minute load average above "
              f"{0.5 * (os.cpu_count() or 1):.1f} before a round, not counting this script's "
              f"{a.threads} threads): rerun on a quiet machine before quoting these figures",
              flush=True)
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
