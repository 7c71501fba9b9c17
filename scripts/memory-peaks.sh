#!/bin/bash
# The memory check against the real thing (issue 33): for each size, `edpbench
# run` of one CPU item (2 threads, 2 iterations, 1 run, no power source),
# its resident size when it prints its first line, before the first item (the
# check ran just before: the limit it compares with is net of this),
# its peak resident size (wait4's ru_maxrss), and the estimate: the item's
# tensors and host copies (the arithmetic of mlp_memory_computed,
# src/workloads/mlp_stages.cpp, the host copies once) plus the run's
# allowance (run_allowance_bytes, src/bench/studies/memory_check.h: 72 MiB, or 24 MiB
# when a tensor is larger than 32 MiB). Prints one markdown row per item; the last
# column is (resident + estimate) / peak, which the check keeps in 1.0..1.1.
# Usage: scripts/memory-peaks.sh [EDPBENCH] [NxD_INxHxD_OUT,...] [workload,...]
set -eu
E=$(realpath "${1:-build/src/cli/edpbench}")
SIZES=${2:-2x4x4x2,64x15000x100x150,192x20000x300x200,384x40000x600x400,4096x13000x100x10,16384x9000x100x10}
WORKLOADS=${3:-tensors,autograd}
exec python3 - "$E" "$SIZES" "$WORKLOADS" <<'EOF'
import os, shutil, sys, tempfile
exe, sizes, workloads = sys.argv[1], sys.argv[2], sys.argv[3]
MIB = 1 << 20

def item_bytes(p, n, d, h, o):
    f = lambda a, b: 4.0 * a * b
    t = [f(n, d), f(n, o), f(d, h), f(h, o), f(n, h), f(n, h), f(n, o)]  # x y w1 w2 h h_relu y_pred
    if p == 'tensors':
        t += [f(n, o), f(n, h), 4]  # diff grad_h loss
    else:  # the tape's own; "saved" tensors are references, not counted
        t += [f(n, o), f(n, o), 4, 4, f(n, o), f(n, o), f(n, h), f(n, h), f(h, o), f(d, h)]
    return sum(t) + f(n, d) + f(n, o) + f(d, h) + f(h, o), max(t)  # + the host copies once

def rss_kb(pid, field):
    for line in open(f'/proc/{pid}/status'):
        if line.startswith(field):
            return int(line.split()[1])
    return 0

print('| workload | N x D_in x H x D_out | resident at the check (MB) | estimate (MB) | peak (MB) | (resident + estimate) / peak |')
print('|---|---|---|---|---|---|')
for w in workloads.split(','):
    for s in sizes.split(','):
        n, d, h, o = map(int, s.split('x'))
        t = tempfile.mkdtemp(prefix='edp-peaks-')
        with open(t + '/c.yaml', 'w') as f:
            f.write(f'workloads: [{w}]\ndevices: [{{kind: cpu, threads: 2}}]\n'
                    f'sizes: {{s: {{n: {n}, d_in: {d}, h: {h}, d_out: {o}}}}}\n'
                    'iterations: 2\nruns: 1\nwarmup_iterations: 1\n'
                    'power: {source: none, baseline_s: 0}\n')
        r, w_ = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(r)
            os.dup2(w_, 2)
            os.execv(exe, [exe, 'run', '--config', t + '/c.yaml', '--out', t + '/o'])
        os.close(w_)
        # run's first line comes right after the check and the store, before
        # any item: the resident size then is what the check's limit is net of.
        first = os.read(r, 1)
        base = rss_kb(pid, 'VmRSS:') * 1024 if first else 0
        while os.read(r, 65536):
            pass
        os.close(r)
        _, status, ru = os.wait4(pid, 0)
        shutil.rmtree(t)
        peak = ru.ru_maxrss * 1024
        item, largest = item_bytes(w, n, d, h, o)
        est = item + (24 * MIB if largest > 32 * MIB else 72 * MIB)
        ok = '' if os.waitstatus_to_exitcode(status) == 0 else f' (exit {os.waitstatus_to_exitcode(status)})'
        print(f'| {w} | {n} x {d} x {h} x {o} | {base/1e6:.0f} | {est/1e6:.0f} | {peak/1e6:.0f}{ok} | '
              f'{(base + est) / peak:.3f} |', flush=True)
EOF
