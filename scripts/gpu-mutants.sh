#!/usr/bin/env bash
# Mutation testing of the GPU code (scripts/gpu_mutants.py, which holds the
# mutant list): each mutant is written into src/workloads/cuda/, the build is
# redone incrementally and the GPU tests run until one fails; the sources are
# restored after each mutant and on exit. The unmodified suite runs first and
# must pass. Prints each mutant's file:line and killing test.
#
#   scripts/gpu-mutants.sh                      every mutant, on the simulator
#                                               build (build-gpusim/, from
#                                               scripts/ci-gpu-sim.sh)
#   scripts/gpu-mutants.sh --cuda-build build-gpu-check --only a,b
#                                               on a machine with a GPU: the
#                                               [gpu] tests of a CUDA build
#                                               (scripts/gpu-check.sh's); without
#                                               --only, the mutants marked gpu
#   scripts/gpu-mutants.sh --list               the mutants
#
# Exit 0: all killed; 1: a survivor, a stale mutant or a failing unmodified
# suite; 4: none survived, some not run (no usable GPU); 2: bad arguments.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
exec python3 "$root/scripts/gpu_mutants.py" "$@"
