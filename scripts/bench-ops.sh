#!/bin/sh
# edpbench's op workloads (cpu backend, THREADS pinned threads) against NumPy
# (single-threaded), interleaved: ROUNDS rounds of "edp_ops_bench, then NumPy",
# each case's median over the rounds, then the ratios and the issue's targets
# (docs/ops.md). Needs a build with edp_ops_bench and python3-numpy.
#
#   scripts/bench-ops.sh [build-dir]     env: THREADS=2 ROUNDS=3 SAMPLES=5 QUICK=
set -eu
BUILD=${1:-build}
THREADS=${THREADS:-2}
ROUNDS=${ROUNDS:-3}
SAMPLES=${SAMPLES:-5}
PY=${PYTHON:-/usr/bin/python3}
HERE=$(cd "$(dirname "$0")/.." && pwd)
BIN="$BUILD/src/workloads/edp_ops_bench"
[ -x "$BIN" ] || { echo "no $BIN: cmake --build $BUILD --target edp_ops_bench" >&2; exit 2; }
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
QUICK_FLAG=${QUICK:+--quick}
r=1
while [ "$r" -le "$ROUNDS" ]; do
  "$BIN" --threads "$THREADS" --samples "$SAMPLES" $QUICK_FLAG >>"$OUT/edp.csv"
  OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 \
    "$PY" "$HERE/bench/ops_numpy.py" "$SAMPLES" $QUICK_FLAG >>"$OUT/numpy.csv"
  r=$((r + 1))
done
"$PY" - "$OUT/edp.csv" "$OUT/numpy.csv" "$THREADS" <<'PYEOF'
import statistics, sys
def load(path):
    rows = {}
    for line in open(path):
        f = line.strip().split(",")
        rows.setdefault((f[0], f[1]), []).append([float(x) for x in f[3:]])
    return {k: [statistics.median(c) for c in zip(*v)] for k, v in rows.items()}
edp, ref, threads = load(sys.argv[1]), load(sys.argv[2]), sys.argv[3]
copy_gbs = None
if ("copy", "256MB") in edp:
    t, _, b = edp[("copy", "256MB")][:3]
    copy_gbs = b / t / 1e9
print(f"{'op':8} {'size':7} {'edp ' + threads + 't':>12} {'numpy 1t':>12} {'ratio':>6}  note")
for key, v in edp.items():
    op, size = key
    t, flop, nbytes = v[:3]
    rate = (flop / t / 1e9, "GFLOP/s") if op in ("gemm", "fma_peak") else (nbytes / t / 1e9, "GB/s")
    note = ""
    if key in ref:
        rt = ref[key][0]
        ratio = rt / t
        nrate = flop / rt / 1e9 if op == "gemm" else nbytes / rt / 1e9
        if op in ("add", "mul", "scalar", "tanh"):
            note = f"target >= 1.5x: {'ok' if ratio >= 1.5 else 'MISSED'}"
            if size == "256MB" and copy_gbs:
                frac = (nbytes / t / 1e9) / copy_gbs
                note += f"; {100 * frac:.0f}% of copy ({'ok' if frac >= 0.7 else 'MISSED'} >= 70%)"
        if key == ("gemm", "n=4096"):
            note = f"target >= 1x: {'ok' if ratio >= 1 else 'MISSED'}"
        print(f"{op:8} {size:7} {rate[0]:8.2f} {rate[1]:7} {nrate:6.2f} {ratio:6.2f}  {note}")
    elif op == "fma_peak":
        at_clock, nominal, at_measured, hz = v[3:7]
        achieved = flop / t
        def within(ref):
            return "ok" if abs(achieved / ref - 1) <= 0.1 else "MISSED"
        print(f"{op:8} {'-':7} {achieved / 1e9:8.2f} GFLOP/s  nominal at the clock read "
              f"{at_clock / 1e9:.2f}: {100 * achieved / at_clock:.0f}% "
              f"(target within 10%: {within(at_clock)}); at the clock measured "
              f"({hz / 1e9:.2f} GHz) {at_measured / 1e9:.2f}: {100 * achieved / at_measured:.0f}% "
              f"({within(at_measured)})")
    else:
        print(f"{op:8} {size:7} {rate[0]:8.2f} {rate[1]}")
PYEOF
