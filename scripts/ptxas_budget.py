#!/usr/bin/env python3
"""Checks the ptxas resource budget of our kernels, read from `nvcc -Xptxas -v`.

usage: nvcc ... -Xptxas -v 2> ptxas.txt
       scripts/ptxas_budget.py [--threads 256] ptxas.txt

For every kernel and architecture: registers, static shared memory, spills,
and the blocks of --threads threads resident on one SM, computed as the CUDA
occupancy calculator does (registers allocated per warp in units of 256, the
SM's register file, shared memory, thread and block limits). Prints a table
per architecture and exits 1 if a kernel spills or if fewer blocks fit than
the SM's thread limit allows (the register file or shared memory, not the
threads, would limit occupancy): on sm_62 and sm_72 that is 8 blocks of 256,
on sm_87 6.

The limits are those of the CUDA C++ Programming Guide, "Compute
Capabilities", table "Technical Specifications per Compute Capability"
(CUDA 11.8 edition) and the CUDA Occupancy Calculator's allocation
granularities.
"""
import argparse
import re
import subprocess
import sys

# arch: (threads/SM, blocks/SM, registers/SM, registers/block, shared bytes/SM,
#        shared bytes reserved per block, shared allocation unit)
LIMITS = {
    "sm_62": (2048, 32, 65536, 32768, 64 * 1024, 0, 256),
    "sm_72": (2048, 32, 65536, 32768, 96 * 1024, 0, 256),
    "sm_87": (1536, 16, 65536, 65536, 164 * 1024, 1024, 128),
}
REG_UNIT = 256  # registers are allocated per warp in units of 256
WARP = 32

ENTRY = re.compile(r"Compiling entry function '([^']+)' for '(sm_\d+)'")
SPILL = re.compile(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads")
USED = re.compile(r"Used (\d+) registers(?:, (\d+) bytes smem)?")


def parse(text):
    """[(arch, mangled, regs, smem, spill_bytes)] in the order ptxas wrote them."""
    out = []
    current = None
    spill = 0
    for line in text.splitlines():
        m = ENTRY.search(line)
        if m:
            current = (m.group(2), m.group(1))
            spill = 0
            continue
        if current is None:
            continue
        m = SPILL.search(line)
        if m:
            spill = int(m.group(2)) + int(m.group(3))
            continue
        m = USED.search(line)
        if m:
            smem = int(m.group(2) or 0)
            out.append((current[0], current[1], int(m.group(1)), smem, spill))
            current = None
    return out


def blocks_per_sm(arch, regs, smem, threads):
    sm_threads, sm_blocks, sm_regs, block_regs, sm_smem, reserved, unit = LIMITS[arch]
    warps = -(-threads // WARP)
    by_threads = sm_threads // threads
    regs_per_warp = -(-max(regs, 1) * WARP // REG_UNIT) * REG_UNIT
    if regs_per_warp * warps > block_regs:
        return 0, "registers"
    by_regs = sm_regs // (regs_per_warp * warps)
    need = -(-(smem + reserved) // unit) * unit
    by_smem = sm_smem // need if need > 0 else sm_blocks
    limits = {"threads": by_threads, "blocks": sm_blocks, "registers": by_regs,
              "shared": by_smem}
    limiter = min(limits, key=lambda k: (limits[k], k != "threads"))
    return limits[limiter], limiter


def demangle(names):
    try:
        res = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True,
                             text=True, check=True)
        lines = res.stdout.splitlines()
    except (OSError, subprocess.CalledProcessError):
        lines = names
    short = []
    for name in lines:
        name = re.sub(r"\(anonymous namespace\)::|edp::cuda::", "", name)
        name = re.sub(r"^void ", "", name)
        short.append(re.sub(r"\((?:[^()]|\([^()]*\))*\)$", "", name))  # drop the parameters
    return dict(zip(names, short))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--threads", type=int, default=256, help="threads per block of every kernel")
    ap.add_argument("ptxas_log")
    args = ap.parse_args()
    with open(args.ptxas_log, encoding="utf-8", errors="replace") as f:
        rows = parse(f.read())
    if not rows:
        print(f"ptxas_budget: no 'Compiling entry function' in {args.ptxas_log}; "
              "was nvcc run with -Xptxas -v?", file=sys.stderr)
        return 2
    names = demangle(sorted({r[1] for r in rows}))
    failures = []
    for arch in sorted({r[0] for r in rows}):
        if arch not in LIMITS:
            print(f"ptxas_budget: no limits known for {arch} (add it to LIMITS)", file=sys.stderr)
            return 2
        full = LIMITS[arch][0] // args.threads
        print(f"\n{arch}: {args.threads} threads per block, full occupancy = {full} blocks/SM")
        print(f"| kernel | registers | shared B | spill B | blocks/SM | limited by |")
        print(f"| --- | ---: | ---: | ---: | ---: | --- |")
        for r in sorted((r for r in rows if r[0] == arch), key=lambda r: names[r[1]]):
            _, mangled, regs, smem, spill = r
            blocks, limiter = blocks_per_sm(arch, regs, smem, args.threads)
            print(f"| {names[mangled]} | {regs} | {smem} | {spill} | {blocks} | {limiter} |")
            if spill:
                failures.append(f"{arch} {names[mangled]}: {spill} bytes of spills")
            if blocks < full:
                failures.append(f"{arch} {names[mangled]}: {blocks} blocks/SM < {full} "
                                f"(limited by {limiter}: {regs} registers, {smem} B shared)")
    if failures:
        print("\nptxas budget FAILED:\n  " + "\n  ".join(failures), file=sys.stderr)
        print("fix: bound the kernel's registers (__launch_bounds__, EDP_LAUNCH_BOUNDS in "
              "kernels.cu) or reduce its shared memory", file=sys.stderr)
        return 1
    print(f"\nptxas budget ok: {len(rows)} kernel builds, no spills, full occupancy")
    return 0


if __name__ == "__main__":
    sys.exit(main())
