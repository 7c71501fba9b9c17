#!/bin/sh
# scripts/gpu-check.sh without a GPU: it says why, exits 0, and runs and
# writes nothing (no build folder, no report), quickly. Three ways a machine
# has no GPU: no nvidia-smi on PATH; nvidia-smi that finds no device (the real
# one prints "No devices were found" and exits 6); CUDA_VISIBLE_DEVICES=-1.
# usage: check-gpu-check.sh SOURCE_DIR
set -eu
src="$(cd "$1" && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin-none" "$tmp/bin-nodev" "$tmp/bin-gpu"
for tool in bash sh date dirname sed grep head tr cat mkdir env; do
  p="$(command -v "$tool")" || { echo "SKIP: $tool not found"; exit 77; }
  for d in bin-none bin-nodev bin-gpu; do ln -s "$p" "$tmp/$d/$tool"; done
done
printf '#!/bin/sh\necho "No devices were found"\nexit 6\n' >"$tmp/bin-nodev/nvidia-smi"
printf '#!/bin/sh\necho "GPU 0: NVIDIA H100 (UUID: GPU-0)"\n' >"$tmp/bin-gpu/nvidia-smi"
chmod +x "$tmp/bin-nodev/nvidia-smi" "$tmp/bin-gpu/nvidia-smi"

check() {  # check LABEL EXPECTED_REASON env...
  label="$1"; want="$2"; shift 2
  start=$(date +%s)
  rc=0
  out="$(cd "$tmp" && env "$@" bash "$src/scripts/gpu-check.sh" --out "$tmp/report-$label" \
    --build-dir "$tmp/build-$label" 2>&1)" || rc=$?
  took=$(( $(date +%s) - start ))
  [ "$rc" -eq 0 ] || { echo "FAIL ($label): exit $rc, want 0: $out"; exit 1; }
  echo "$out" | grep -q "no NVIDIA GPU here ($want" \
    || { echo "FAIL ($label): output does not say '$want': $out"; exit 1; }
  echo "$out" | grep -q "nothing was run" || { echo "FAIL ($label): $out"; exit 1; }
  if [ -e "$tmp/report-$label" ] || [ -e "$tmp/build-$label" ]; then
    echo "FAIL ($label): wrote a report or a build folder without a GPU"; exit 1
  fi
  [ "$took" -le 5 ] || { echo "FAIL ($label): took $took s, want a quick no-op"; exit 1; }
  echo "ok ($label, ${took} s): $out"
}
check no-driver "no nvidia-smi on PATH" -u CUDA_VISIBLE_DEVICES PATH="$tmp/bin-none"
check no-device "nvidia-smi -L failed: No devices were found" -u CUDA_VISIBLE_DEVICES \
  PATH="$tmp/bin-nodev"
check hidden "CUDA_VISIBLE_DEVICES='-1'" CUDA_VISIBLE_DEVICES=-1 PATH="$tmp/bin-gpu"
check hidden-empty "CUDA_VISIBLE_DEVICES=''" CUDA_VISIBLE_DEVICES= PATH="$tmp/bin-gpu"
