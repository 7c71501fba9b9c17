#!/usr/bin/env python3
"""Mutation testing of the GPU code: does a test fail when the code is wrong?

Each mutant below is a bug a review looks for, written into the CUDA sources
(src/workloads/cuda/). For each: apply it, rebuild incrementally, run the
tests, restore the sources. A mutant is killed when a test case fails (or the
simulator aborts with a report); the first failing case is its killing test.

Two modes:
  simulator (default)  the simulator build (scripts/ci-gpu-sim.sh's
                       build-gpusim/): edp_tests_gpu_sim, the test cases tagged
                       [gpu], [gpu_sim] or [cuda]
  --cuda-build DIR     a CUDA build on a machine with a GPU (scripts/gpu-check.sh's
                       build-gpu-check/): edp_tests_workloads, the test cases
                       tagged [gpu]. A case that skips (exit 77: no usable GPU)
                       did not run; a mutant no case ran is NOT RUN, never killed.
                       Without --only, the mutants marked for a real GPU.

The unmodified sources are built and every selected case run first: if one
fails (or, on a GPU, none ran), nothing else is done. Cases are selected by
their tags, never by excluding some (a hidden case such as
"[.cuda-probe-child]" is never selected). They run one per process, the fastest
first (by the unmodified run's times), until one fails.

Prints a table (mutant, file:line, result, seconds, killing test, its first
failure) and the count. Exit 0: every mutant killed; 1: a survivor, a mutant
whose text is gone, or a failing unmodified suite; 4: none survived but some
were not run (no GPU); 2: bad arguments.

usage: scripts/gpu-mutants.sh [--build-dir DIR | --cuda-build DIR] [--jobs N]
         [--only a,b,...] [--list] [--timeout-s S] [--markdown FILE]
"""
import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CUDA_DIR = os.path.join(ROOT, "src", "workloads", "cuda")


class Mutant:
    def __init__(self, name, file, edits, kills, gpu=False, why=""):
        self.name = name
        self.file = file  # under src/workloads/cuda
        self.edits = edits  # [(old, new)]: each old text occurs exactly once
        self.kills = kills  # the case expected to kill it (a prefix of its name)
        self.gpu = gpu  # in the default set of a real-GPU run
        self.why = why


GEMM_CALL = (
    "cublasSgemm(cublas_.get(), op_b, op_a, n, m, k, &alpha, b.data(), ldb, a.data(),\n"
    "                               lda, &beta"
)
BLOCK_SUM_HEAD = (
    "  __shared__ double warp_sums[kThreads / kWarp];\n"
    "  for (int offset = kWarp / 2; offset > 0; offset /= 2) {\n"
    "    v += __shfl_down_sync(0xffffffffu,"
)
LOOP_HEAD = (
    "  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;"
    " i < n;\n       i += stride) {\n"
)

MUTANTS = [
    Mutant("operands-not-swapped", "cuda_backend.cpp",
           [(GEMM_CALL, GEMM_CALL.replace("op_b, op_a, n, m, k, &alpha, b.data(), ldb, a.data(),",
                                          "op_a, op_b, m, n, k, &alpha, a.data(), lda, b.data(),")
             .replace("lda, &beta", "ldb, &beta"))],
           "cuda gemm matches", why="row-major operands passed as if column-major"),
    Mutant("transposes-swapped", "cuda_backend.cpp",
           [("cublasSgemm(cublas_.get(), op_b, op_a,", "cublasSgemm(cublas_.get(), op_a, op_b,")],
           "cuda gemm matches"),
    Mutant("ldc-is-m", "cuda_backend.cpp", [("const int ldc = n;", "const int ldc = m;")],
           "cuda gemm matches"),
    Mutant("no-syncthreads", "kernels.cu",
           [("  if (lane == 0) warp_sums[warp] = v;\n  __syncthreads();\n",
             "  if (lane == 0) warp_sums[warp] = v;\n")],
           "cuda sum and sub_square_sum", gpu=True,
           why="warp 0 reads the other warps' sums before they are written"),
    Mutant("half-warp-shuffle", "kernels.cu",
           [(BLOCK_SUM_HEAD, BLOCK_SUM_HEAD.replace("0xffffffffu,", "0x0000ffffu,"))],
           "cuda sum and sub_square_sum"),
    Mutant("tail-off-by-one-map1", "kernels.cu",
           [("i < n; i += stride) out[i] = op(x[i]);", "i <= n; i += stride) out[i] = op(x[i]);")],
           "cuda element-wise ops"),
    Mutant("tail-off-by-one-map2", "kernels.cu",
           [("i < n; i += stride) out[i] = op(a[i], b[i]);",
             "i <= n; i += stride) out[i] = op(a[i], b[i]);")],
           "cuda element-wise ops"),
    Mutant("tail-restarts-at-n4-map2", "kernels.cu",
           [("for (std::int64_t i = n4 * 4 + first; i < n; i += stride) out[i] = op(a[i], b[i]);",
             "for (std::int64_t i = n4 + first; i < n; i += stride) out[i] = op(a[i], b[i]);")],
           "cuda element-wise ops", why="the tail redoes vector elements: twice in place"),
    Mutant("stride-without-grid-map1", "kernels.cu",
           [("  const std::int64_t stride = static_cast<std::int64_t>(blockDim.x) * gridDim.x;\n"
             "  const std::int64_t first = static_cast<std::int64_t>(blockIdx.x) * blockDim.x +"
             " threadIdx.x;\n  const std::int64_t n4 = vec ? n / 4 : 0;\n"
             "  const float4* x4 = reinterpret_cast<const float4*>(x);",
             "  const std::int64_t stride = static_cast<std::int64_t>(blockDim.x);\n"
             "  const std::int64_t first = static_cast<std::int64_t>(blockIdx.x) * blockDim.x +"
             " threadIdx.x;\n  const std::int64_t n4 = vec ? n / 4 : 0;\n"
             "  const float4* x4 = reinterpret_cast<const float4*>(x);")],
           "cuda element-wise ops", why="every block walks the rest of the array"),
    Mutant("relu-drops-nan", "kernels.cu",
           [("return x < 0.0f ? 0.0f : x; }", "return x > 0.0f ? x : 0.0f; }")],
           "cuda relu keeps NaN", why="max(x, 0) written the other way round: relu(NaN) = 0"),
    Mutant("relu-grad-masked-at-zero", "kernels.cu",
           [("return x < 0.0f ? 0.0f : grad_y; }", "return x <= 0.0f ? 0.0f : grad_y; }")],
           "cuda relu keeps NaN"),
    Mutant("plain-add-in-fma-peak", "kernels.cu",
           [("if (threadIdx.x % kWarp == 0) atomicAdd(sink, total);",
             "if (threadIdx.x % kWarp == 0) *sink += total;")],
           "cuda fma_peak", gpu=True, why="warps and blocks lose each other's updates"),
    Mutant("unguarded-warp-sums", "kernels.cu",
           [("  __shared__ double warp_sums[kThreads / kWarp];",
             "  __shared__ double warp_sums[kWarp];"),
            ("v = lane < static_cast<int>(blockDim.x / kWarp) ? warp_sums[lane] : 0.0;",
             "v = warp_sums[lane];")],
           "cuda sum and sub_square_sum", gpu=True,
           why="warp 0 adds 24 entries no warp wrote: garbage on a GPU"),
    Mutant("static-shared-49k", "kernels.cu",
           [("  __shared__ double warp_sums[kThreads / kWarp];",
             "  __shared__ double warp_sums[6350];")],
           "cuda sum and sub_square_sum", why="50800 bytes of __shared__: ptxas refuses"),
    Mutant("float-loss-accumulator", "kernels.cu",
           [("  double acc = 0.0;\n" + LOOP_HEAD +
             "    const float d = a[i] - b[i];\n    diff[i] = d;\n"
             "    acc += static_cast<double>(d) * static_cast<double>(d);",
             "  float acc = 0.0f;\n" + LOOP_HEAD +
             "    const float d = a[i] - b[i];\n    diff[i] = d;\n    acc += d * d;")],
           "cuda sum and sub_square_sum", gpu=True,
           why="each thread's squares added in float: stalls at 2^24"),
    Mutant("float-sum-accumulator", "kernels.cu",
           [("  double acc = 0.0;\n" + LOOP_HEAD + "    acc += static_cast<double>(x[i]);",
             "  float acc = 0.0f;\n" + LOOP_HEAD + "    acc += x[i];")],
           "cuda sum and sub_square_sum"),
    Mutant("diff-not-written", "kernels.cu", [("    diff[i] = d;\n", "")],
           "cuda sum and sub_square_sum"),
    Mutant("no-launch-check-map0", "kernels.cu",
           [("             l.stream, out, n, vec, op);\n  CUDA_CHECK_THROW(cudaGetLastError());",
             "             l.stream, out, n, vec, op);")],
           "sim gpu: a kernel launch the device refuses"),
    Mutant("no-launch-check-map1", "kernels.cu",
           [("             l.stream, x, out, n, vec, op);\n  CUDA_CHECK_THROW(cudaGetLastError());",
             "             l.stream, x, out, n, vec, op);")],
           "sim gpu: a kernel launch the device refuses"),
    Mutant("no-launch-check-map2", "kernels.cu",
           [("             l.stream, a, b, out, n, vec, op);\n"
             "  CUDA_CHECK_THROW(cudaGetLastError());",
             "             l.stream, a, b, out, n, vec, op);")],
           "sim gpu: a kernel launch the device refuses"),
    Mutant("no-launch-check-partial-sum", "kernels.cu",
           [("    EDP_LAUNCH(partial_sum_kernel, blocks, kThreads, 0, l.stream, x, n, scratch);\n"
             "    CUDA_CHECK_THROW(cudaGetLastError());\n",
             "    EDP_LAUNCH(partial_sum_kernel, blocks, kThreads, 0, l.stream, x, n, scratch);\n")],
           "sim gpu: a kernel launch the device refuses"),
    Mutant("no-launch-check-finish-sum", "kernels.cu",
           [("  EDP_LAUNCH(finish_sum_kernel, 1, kThreads, 0, l.stream, scratch, blocks, out);\n"
             "  CUDA_CHECK_THROW(cudaGetLastError());\n}\n\nvoid launch_sub_square_sum",
             "  EDP_LAUNCH(finish_sum_kernel, 1, kThreads, 0, l.stream, scratch, blocks, out);\n"
             "}\n\nvoid launch_sub_square_sum")],
           "sim gpu: a kernel launch the device refuses"),
    Mutant("no-launch-check-fma-peak", "kernels.cu",
           [("             1e-3f, sink);\n  CUDA_CHECK_THROW(cudaGetLastError());",
             "             1e-3f, sink);")],
           "sim gpu: a kernel launch the device refuses"),
    Mutant("no-oom-retry", "device_pool.cpp",
           [("    if (status == cudaErrorMemoryAllocation) {\n      (void)cudaGetLastError();\n"
             "      release_cached();\n      status = cudaMalloc(&block, size);\n    }\n", "")],
           "sim gpu: out of device memory"),
    Mutant("stale-oom-error", "device_pool.cpp",
           [("      (void)cudaGetLastError();\n      release_cached();", "      release_cached();")],
           "sim gpu: out of device memory",
           why="the retried cudaMalloc's error is left for the next launch check"),
    Mutant("check-keeps-last-error", "cuda_check.cpp",
           [("  (void)cudaGetLastError();\n  throw_error(call, cudaGetErrorString(status), file, line);",
             "  throw_error(call, cudaGetErrorString(status), file, line);")],
           "cuda out-of-memory"),
    Mutant("pool-rounds-down", "device_pool.cpp",
           [("return (bytes + kGranule - 1) / kGranule * kGranule;",
             "return bytes < kGranule ? kGranule : bytes / kGranule * kGranule;")],
           "cuda gemm matches", why="a block smaller than its tensor"),
    Mutant("cudnn-not-propagate-nan", "cuda_backend.cpp",
           [("CUDNN_ACTIVATION_RELU, CUDNN_PROPAGATE_NAN, 0.0",
             "CUDNN_ACTIVATION_RELU, CUDNN_NOT_PROPAGATE_NAN, 0.0")],
           "cuda relu keeps NaN", gpu=True, why="cuDNN turns a diverged run's NaN into 0"),
    Mutant("no-event-sync-in-timer", "cuda_backend.cpp",
           [("  CUDA_CHECK_THROW(cudaEventSynchronize(run_stop_.get()));\n", "")],
           "cuda device timer"),
    Mutant("timer-stop-on-legacy-stream", "cuda_backend.cpp",
           [("CUDA_CHECK_THROW(cudaEventRecord(run_stop_.get(), stream_.get()));",
             "CUDA_CHECK_THROW(cudaEventRecord(run_stop_.get(), nullptr));")],
           "cuda device timer"),
    Mutant("no-stream-sync-in-synchronize", "cuda_backend.cpp",
           [("void CudaBackend::synchronize() {\n  activate();\n"
             "  CUDA_CHECK_THROW(cudaStreamSynchronize(stream_.get()));\n",
             "void CudaBackend::synchronize() {\n  activate();\n")],
           "sim gpu: synchronize() leaves no queued work"),
    Mutant("sync-flags-on-live-context", "cuda_backend.cpp",
           [("  const bool already_ours =\n      before.known && before.active && "
             "(before.flags & cudaDeviceScheduleMask) == schedule_flag_;",
             "  const bool already_ours = before.known && false;")],
           "sim gpu: making, sharing and releasing backends",
           why="the H200's 18 memcheck errors: SetFlags on a live context"),
    Mutant("fma-peak-flop-without-chains", "cuda_backend.cpp",
           [("return 2.0 * kFmaPeakChains * static_cast<double>(rounds) * kFmaPeakThreads *",
             "return 2.0 * static_cast<double>(rounds) * kFmaPeakThreads *")],
           "cuda fma_peak"),
]


def log(text):
    print(text, file=sys.stderr, flush=True)


def line_of(text, old):
    return text[: text.index(old)].count("\n") + 1


class Sources:
    """The CUDA sources, backed up once and restored after each mutant and at exit."""

    def __init__(self):
        self.backup = tempfile.mkdtemp(prefix="gpu-mutants-")
        self.files = sorted(f for f in os.listdir(CUDA_DIR) if f.endswith((".cu", ".cpp", ".h")))
        for f in self.files:
            shutil.copy2(os.path.join(CUDA_DIR, f), self.backup)
        self.dirty = set()

    def restore(self):
        # Contents only, and a fresh modification time: the build must see the
        # file as changed again (copy2's old time would leave the mutant's
        # object in place).
        for f in self.dirty:
            path = os.path.join(CUDA_DIR, f)
            shutil.copyfile(os.path.join(self.backup, f), path)
            os.utime(path, None)
        self.dirty.clear()

    def apply(self, m):
        """Writes the mutant in; returns its first line, or None when its text is gone."""
        path = os.path.join(CUDA_DIR, m.file)
        text = open(os.path.join(self.backup, m.file)).read()
        first = None
        for old, new in m.edits:
            if text.count(old) != 1:
                return None
            line = line_of(text, old)
            first = line if first is None else min(first, line)
            text = text.replace(old, new, 1)
        self.dirty.add(m.file)
        with open(path, "w") as out:
            out.write(text)
        return first

    def close(self):
        self.restore()
        shutil.rmtree(self.backup, ignore_errors=True)


class Suite:
    def __init__(self, args):
        self.cuda = args.cuda_build is not None
        self.build = os.path.abspath(args.cuda_build or args.build_dir)
        self.target = "edp_tests_workloads" if self.cuda else "edp_tests_gpu_sim"
        self.binary = os.path.join(self.build, "tests", self.target)
        self.spec = "[gpu]" if self.cuda else "[gpu],[gpu_sim],[cuda]"
        self.jobs = args.jobs or ((os.cpu_count() or 2) if self.cuda else 2)
        self.timeout_s = args.timeout_s
        self.env = dict(os.environ)
        # The simulator suite's loss trajectories: 3 iterations per size.
        self.env.setdefault("EDPBENCH_SIM_ITERATIONS", "3")
        self.order = []

    def check_build_dir(self):
        cache = os.path.join(self.build, "CMakeCache.txt")
        if not os.path.isfile(cache):
            return f"{self.build} is not a CMake build (no CMakeCache.txt)"
        text = open(cache).read()
        sim = "EDPBENCH_GPU_SIM:BOOL=ON" in text
        if self.cuda and sim:
            return f"{self.build} is a simulator build; --cuda-build wants a CUDA build"
        if not self.cuda and not sim:
            return f"{self.build} is not a simulator build; run scripts/ci-gpu-sim.sh first"
        if self.cuda and "EDPBENCH_WITH_CUDA:BOOL=ON" not in text:
            return f"{self.build} was configured without CUDA (EDPBENCH_WITH_CUDA)"
        return None

    def rebuild(self, log_file):
        cmd = ["cmake", "--build", self.build, "-j", str(self.jobs), "--target", self.target]
        with open(log_file, "a") as out:
            return subprocess.run(cmd, stdout=out, stderr=subprocess.STDOUT).returncode == 0

    def list_cases(self):
        out = subprocess.run([self.binary, self.spec, "--list-test-names-only"], env=self.env,
                             capture_output=True, text=True)
        return [line for line in out.stdout.splitlines() if line.strip()]

    def run_case(self, name):
        """(status, seconds, output): status is pass, fail, skip or timeout."""
        t0 = time.monotonic()
        try:
            # A name is a Catch2 test spec: ',' '[' ']' are escaped, as
            # catch_discover_tests does.
            spec = re.sub(r"([,\[\]])", r"\\\1", name)
            p = subprocess.run([self.binary, spec, "--warn", "NoTests"], env=self.env,
                               capture_output=True, text=True, timeout=self.timeout_s)
        except subprocess.TimeoutExpired as e:
            out = e.stdout or ""
            if isinstance(out, bytes):
                out = out.decode(errors="replace")
            return "timeout", time.monotonic() - t0, out
        output = p.stdout + p.stderr
        if p.returncode == 0:
            status = "pass"
        elif p.returncode == 77 and self.cuda:  # tests/support/skip.h
            status = "skip"  # every case of the process skipped: no usable GPU
        else:
            status = "fail"
        return status, time.monotonic() - t0, output


def first_failure(output):
    for pattern in (r"edpbench GPU simulator: (kernel |cublasSgemm wrote|.* wrote past).*",
                    r"edpbench GPU simulator: .*"):
        m = re.search(pattern, output)
        if m:
            return m.group(0)
    lines = output.splitlines()
    for i, line in enumerate(lines):
        if "FAILED:" in line:
            detail = " ".join(x.strip() for x in lines[i + 1:i + 5] if x.strip())
            return (line.strip() + " " + detail).strip()
    for line in lines:
        if "error:" in line:
            return line.strip()
    return lines[-1].strip() if lines else ""


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build-dir", default=os.path.join(ROOT, "build-gpusim"))
    parser.add_argument("--cuda-build", metavar="DIR")
    parser.add_argument("--jobs", type=int)
    parser.add_argument("--only", help="comma-separated mutant names")
    parser.add_argument("--list", action="store_true", help="list the mutants and exit")
    parser.add_argument("--timeout-s", type=int, default=600, help="per test case")
    parser.add_argument("--markdown", help="also write the table as Markdown to FILE")
    args = parser.parse_args()

    if args.list:
        for m in MUTANTS:
            print(f"{m.name:32} {m.file:17} {'gpu' if m.gpu else '   '}  {m.kills}")
        return 0
    names = [m.name for m in MUTANTS]
    if args.only:
        wanted = [w for w in args.only.split(",") if w]
        unknown = [w for w in wanted if w not in names]
        if unknown:
            log(f"gpu-mutants: unknown mutant(s) {', '.join(unknown)}; known: {', '.join(names)}")
            return 2
        chosen = [m for m in MUTANTS if m.name in wanted]
    elif args.cuda_build:
        chosen = [m for m in MUTANTS if m.gpu]
    else:
        chosen = list(MUTANTS)

    suite = Suite(args)
    problem = suite.check_build_dir()
    if problem:
        log(f"gpu-mutants: {problem}")
        return 2
    start = time.monotonic()
    log_dir = os.path.join(suite.build, "mutants")
    os.makedirs(log_dir, exist_ok=True)
    sources = Sources()
    interrupted = []

    def on_signal(signum, _frame):
        interrupted.append(signum)
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_signal)
    try:
        # ---- the unmodified suite ---------------------------------------------------------
        base_log = os.path.join(log_dir, "unmodified.log")
        open(base_log, "w").close()
        if not suite.rebuild(base_log):
            log(f"gpu-mutants: the unmodified sources do not build (see {base_log})")
            return 1
        cases = suite.list_cases()
        if not cases:
            log(f"gpu-mutants: {suite.binary} lists no test case for {suite.spec}")
            return 1
        timings, ran = {}, 0
        for name in cases:
            status, seconds, output = suite.run_case(name)
            timings[name] = seconds
            with open(base_log, "a") as out:
                out.write(f"==== {name}: {status} ({seconds:.1f} s)\n{output}\n")
            if status in ("fail", "timeout"):
                log(f"gpu-mutants: the UNMODIFIED suite fails: '{name}' ({status}): "
                    f"{first_failure(output)[:200]}; nothing else was run (see {base_log})")
                return 1
            ran += status == "pass"
        # Fastest first, in half-second steps so that the order (and the
        # killing test) does not change with a few milliseconds of noise.
        suite.order = sorted(cases, key=lambda n: round(timings[n] * 2))
        skipped = len(cases) - ran
        log(f"gpu-mutants: unmodified suite: {ran} of {len(cases)} cases passed, {skipped} "
            f"skipped ({sum(timings.values()):.0f} s)")
        if ran == 0:
            log("gpu-mutants: every case skipped (no usable GPU): each mutant is applied and "
                "built, and reported NOT RUN")

        # ---- the mutants ---------------------------------------------------------------------
        rows = []
        for m in chosen:
            sources.restore()
            t0 = time.monotonic()
            mlog = os.path.join(log_dir, f"{m.name}.log")
            open(mlog, "w").close()
            line = sources.apply(m)
            where = f"{m.file}:{line}" if line else m.file
            if line is None:
                rows.append((m, where, "NOT-APPLIED", 0.0, "", "the text to mutate is gone: "
                             "update scripts/gpu_mutants.py"))
                continue
            if not suite.rebuild(mlog):
                rows.append((m, where, "killed", time.monotonic() - t0, "(build)",
                             first_failure(open(mlog).read())))
                continue
            result, killer, why, any_ran = "SURVIVED", "", "every selected case passed", False
            for name in suite.order:
                status, _, output = suite.run_case(name)
                with open(mlog, "a") as out:
                    out.write(f"==== {name}: {status}\n{output}\n")
                if status == "skip":
                    continue
                any_ran = True
                if status in ("fail", "timeout"):
                    result, killer = "killed", name
                    why = "timed out" if status == "timeout" else first_failure(output)
                    break
            if not any_ran:
                result, why = "NOT RUN", "every case skipped (no usable GPU)"
            rows.append((m, where, result, time.monotonic() - t0, killer, why))
            log(f"gpu-mutants: {m.name}: {result} {killer}")
    except KeyboardInterrupt:
        log("gpu-mutants: interrupted; restoring the sources")
        return 130
    finally:
        sources.close()
    log("gpu-mutants: rebuilding the unmodified sources")
    suite.rebuild(os.path.join(log_dir, "unmodified.log"))

    # ---- the table -----------------------------------------------------------------------------
    killed = sum(r[2] == "killed" for r in rows)
    survived = sum(r[2] in ("SURVIVED", "NOT-APPLIED") for r in rows)
    not_run = sum(r[2] == "NOT RUN" for r in rows)
    mode = f"CUDA build {suite.build}" if suite.cuda else f"simulator build {suite.build}"
    print(f"{'mutant':30} {'where':24} {'result':11} {'time':>5}  killing test: first failure")
    for m, where, result, seconds, killer, why in rows:
        print(f"{m.name:30} {where:24} {result:11} {seconds:4.0f}s  {killer}: {why[:150]}")
    print(f"gpu mutants ({mode}): {killed} of {len(rows)} killed, {survived} survived, "
          f"{not_run} not run, in {time.monotonic() - start:.0f} s")
    if args.markdown:
        with open(args.markdown, "w") as out:
            out.write("| mutant | where | result | killing test | first failure |\n")
            out.write("| --- | --- | --- | --- | --- |\n")
            for m, where, result, _, killer, why in rows:
                cell = why.replace("|", "\\|")[:160]
                out.write(f"| {m.name} | {where} | {result} | {killer} | {cell} |\n")
    if survived:
        return 1
    return 4 if not_run else 0


if __name__ == "__main__":
    sys.exit(main())
