#!/usr/bin/env python3
"""FFMA share of a kernel's hottest loop, read from `cuobjdump -sass` text.

usage: cuobjdump -sass kernels.o | scripts/sass_ffma_share.py --kernel fma_peak_kernel
           [--min-share 0.95]

A loop is the run of instructions from a backward branch's target to the
branch itself. The loop with the most FFMA instructions is the kernel's hot
loop; the script prints its instruction count, FFMA count and share, per
architecture found in the dump, and exits 1 when a share is below
--min-share. Maxwell/Pascal SASS interleaves scheduling control words
(a line holding only `/* 0x... */`); those are not instructions and are not
counted.
"""
import argparse
import re
import sys

FUNC = re.compile(r"^\s*Function\s*:\s*(\S+)")
ARCH = re.compile(r"^\s*code for (sm_\d+)")
INSN = re.compile(r"^\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;?\s*(?:/\*.*\*/)?\s*$")
BRA = re.compile(r"\bBRA\b.*?(0x[0-9a-f]+)")


def parse(text):
    """{(arch, function): [(address, opcode_text)]}"""
    out = {}
    arch, func = None, None
    for line in text.splitlines():
        m = ARCH.match(line)
        if m:
            arch, func = m.group(1), None
            continue
        m = FUNC.match(line)
        if m:
            func = m.group(1)
            out[(arch, func)] = []
            continue
        if func is None:
            continue
        m = INSN.match(line)
        if m and m.group(2):
            body = m.group(2).strip().lstrip("{").strip().rstrip("}").strip()
            if body:
                out[(arch, func)].append((int(m.group(1), 16), body))
    return out


def opcode(text):
    words = text.split()
    if words and words[0].startswith("@"):  # predicate guard
        words = words[1:]
    return words[0].split(".")[0] if words else ""


def hot_loop(insns):
    """(instructions, ffma) of the backward-branch loop with the most FFMA."""
    best = None
    for addr, text in insns:
        if opcode(text) != "BRA":
            continue
        m = BRA.search(text)
        if not m:
            continue
        target = int(m.group(1), 16)
        if target > addr:
            continue
        body = [t for a, t in insns if target <= a <= addr]
        ffma = sum(1 for t in body if opcode(t) == "FFMA")
        if best is None or ffma > best[1]:
            best = (len(body), ffma)
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kernel", required=True, help="substring of the mangled kernel name")
    ap.add_argument("--min-share", type=float, default=0.0)
    args = ap.parse_args()
    found = {k: v for k, v in parse(sys.stdin.read()).items() if args.kernel in k[1]}
    if not found:
        print(f"sass_ffma_share: no function matching '{args.kernel}' in the dump "
              "(was it compiled? is the name right?)", file=sys.stderr)
        return 2
    failed = False
    for (arch, func), insns in sorted(found.items()):
        loop = hot_loop(insns)
        if loop is None or loop[1] == 0:
            print(f"{arch} {args.kernel}: no loop with FFMA found", file=sys.stderr)
            failed = True
            continue
        total, ffma = loop
        share = ffma / total
        verdict = "ok" if share >= args.min_share else f"BELOW {args.min_share:.0%}"
        print(f"{arch} {args.kernel}: hot loop {total} instructions, {ffma} FFMA, "
              f"FFMA share {share:.1%} ({verdict})")
        failed |= share < args.min_share
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
