#!/usr/bin/env bash
# CI: compiles every .cu file for the Jetson GPUs with a real CUDA 11.8 (the
# newest toolkit that still targets sm_62, the TX2) and checks what ptxas
# made of it. Debian 12 packages CUDA 11.8 in non-free; this script fetches
# nvidia-cuda-toolkit, libnvvm4 and the headers of nvidia-cuda-dev with
# `apt-get download` through a private apt configuration (the machine's own
# sources and lists stay as they are) and unpacks them with `dpkg -x` into a
# cache folder, reused when present. It installs nothing from them: installing
# nvidia-cuda-toolkit would pull libcuda1, the driver.
#
# Steps, each failing the script:
#  1. nvcc 11.8 with g++-11 as host compiler (CUDA 11.8's crt/host_config.h
#     rejects GCC > 11; Debian 12 has g++-11) compiles every .cu under src/
#     for sm_62, sm_72 and sm_87 with -std=c++14 -Werror all-warnings.
#  2. The ptxas budget (scripts/ptxas_budget.py on -Xptxas -v): no spills, and
#     every kernel's 256-thread blocks reach the SM's thread limit (8 blocks
#     on sm_62/72, 6 on sm_87) without the registers or shared memory
#     limiting them. A table per architecture is printed.
#  3. fma_peak's hot loop is >= 95% FFMA in the SASS of each architecture
#     (cuobjdump -sass | scripts/sass_ffma_share.py).
#  4. The checks can fail: a log with the 40-register map2 of before the fix
#     fails step 2, and kernels.cu with the round loop left to nvcc (unroll 1)
#     fails step 3 (84% on sm_62).
#
# usage: scripts/ci-cuda118.sh [--cache DIR] [--out DIR]
#   --cache DIR  where the unpacked toolkit lives (default
#                $EDPBENCH_CUDA118_CACHE or ~/.cache/edpbench/cuda-11.8)
#   --out DIR    objects, ptxas log, SASS (default build-cuda118/)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cache="${EDPBENCH_CUDA118_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/edpbench/cuda-11.8}"
out="$root/build-cuda118"
while [ $# -gt 0 ]; do
  case "$1" in
    --cache) cache="${2:?--cache needs a folder}"; shift 2 ;;
    --out) out="${2:?--out needs a folder}"; shift 2 ;;
    -h|--help) sed -n '2,29p' "$0"; exit 0 ;;
    *) echo "ci-cuda118.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
start=$(date +%s)
archs=(62 72 87)
pkgs=(nvidia-cuda-toolkit libnvvm4 nvidia-cuda-dev)

"$root/scripts/setup-deps.sh" --cuda118  # g++-11
host_cxx=g++-11
command -v "$host_cxx" >/dev/null || { echo "ci-cuda118: $host_cxx not found" >&2; exit 1; }

tk="$cache/usr/lib/nvidia-cuda-toolkit"
nvcc="$tk/bin/nvcc"
if [ ! -f "$cache/.complete" ]; then
  echo "ci-cuda118: fetching CUDA 11.8 from Debian non-free into $cache"
  dl_start=$(date +%s)
  rm -rf "$cache"
  mkdir -p "$cache/apt/lists/partial" "$cache/apt/cache/archives/partial" \
    "$cache/apt/sources.list.d" "$cache/apt/preferences.d" "$cache/debs"
  echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg]" \
    "http://deb.debian.org/debian bookworm main contrib non-free" >"$cache/apt/sources.list"
  apt_opts=(-q -o "Dir::Etc::sourcelist=$cache/apt/sources.list"
    -o "Dir::Etc::sourceparts=$cache/apt/sources.list.d"
    -o "Dir::Etc::preferencesparts=$cache/apt/preferences.d"
    -o "Dir::State::lists=$cache/apt/lists" -o "Dir::Cache=$cache/apt/cache"
    -o "Debug::NoLocking=1")
  # As root, apt downloads as the _apt user, who cannot write into $cache.
  [ "$(id -u)" -ne 0 ] || apt_opts+=(-o "APT::Sandbox::User=root")
  apt-get "${apt_opts[@]}" update >/dev/null
  (cd "$cache/debs" && apt-get "${apt_opts[@]}" download "${pkgs[@]}" >/dev/null)
  dl_bytes=$(du -cb "$cache"/debs/*.deb | tail -1 | cut -f1)
  dl_end=$(date +%s)
  for p in nvidia-cuda-toolkit libnvvm4; do dpkg -x "$cache"/debs/"$p"_*.deb "$cache"; done
  # nvidia-cuda-dev is 774 MB, almost all static libraries: only its headers.
  dpkg-deb --fsys-tarfile "$cache"/debs/nvidia-cuda-dev_*.deb | tar -x -C "$cache" ./usr/include
  versions=$(cd "$cache/debs" && ls)
  rm -rf "$cache/debs" "$cache/apt"
  # The package's nvcc.profile is a link to /etc/nvcc.profile with absolute
  # paths; this one is relative to nvcc ($(_HERE_)).
  rm -f "$tk/bin/nvcc.profile"
  cat >"$tk/bin/nvcc.profile" <<'EOF'
NVVMIR_LIBRARY_DIR = $(_HERE_)/../libdevice
PATH += $(_HERE_):$(_HERE_)/../../../bin:
INCLUDES += "-I$(_HERE_)/../../../include" $(_SPACE_)
EOF
  echo "$versions" >"$cache/.complete"
  echo "ci-cuda118: downloaded $((dl_bytes / 1000000)) MB in $((dl_end - dl_start)) s," \
    "unpacked in $(($(date +%s) - dl_end)) s ($(du -sh "$cache" | cut -f1) on disk)"
else
  echo "ci-cuda118: using the toolkit in $cache"
fi
"$nvcc" --version | grep -q 'release 11\.8' || {
  echo "ci-cuda118: $nvcc is not CUDA 11.8 ($("$nvcc" --version | tail -1)); remove $cache" >&2
  exit 1
}

# edpbench/config.h as CMake would write it for a CUDA build without cuDNN
# (Debian has no cuDNN package to unpack).
rm -rf "$out"
mkdir -p "$out/generated/edpbench"
sed -e 's/@EDPBENCH_HAVE_CUDA@/1/' -e 's/@EDPBENCH_HAVE_CUDNN@/0/' \
  -e 's/@CMAKE_CUDA_ARCHITECTURES@/62;72;87/' -e 's/@PROJECT_VERSION@/ci-cuda118/' \
  -e 's/"@[A-Za-z_]*@[^"]*"/"ci-cuda118"/' -e 's/@[A-Za-z_]*@/0/g' \
  "$root/cmake/config.h.in" >"$out/generated/edpbench/config.h"

gencode=()
for a in "${archs[@]}"; do gencode+=(-gencode "arch=compute_$a,code=sm_$a"); done
arch_list="$(printf 'sm_%s ' "${archs[@]}")"
flags=(-ccbin "$host_cxx" -std=c++14 -Werror all-warnings -Xcompiler=-Wall,-Wextra
  -I"$root/src" -I"$out/generated" "${gencode[@]}" -Xptxas -v)

compile_start=$(date +%s)
mapfile -t sources < <(cd "$root" && find src -name '*.cu' | sort)
[ ${#sources[@]} -gt 0 ] || { echo "ci-cuda118: no .cu file under src/" >&2; exit 1; }
: >"$out/ptxas.log"
for src in "${sources[@]}"; do
  obj="$out/$(echo "$src" | tr / _).o"
  if ! "$nvcc" "${flags[@]}" -c "$root/$src" -o "$obj" >>"$out/ptxas.log" 2>&1; then
    grep -v '^ptxas info\|^    [0-9]* bytes stack' "$out/ptxas.log" >&2 || true
    echo "ci-cuda118: $src does not compile with CUDA 11.8 for $arch_list" >&2
    exit 1
  fi
  echo "ci-cuda118: $src compiled for $arch_list"
done
echo "ci-cuda118: ${#sources[@]} .cu file(s) in $(($(date +%s) - compile_start)) s"

python3 "$root/scripts/ptxas_budget.py" --threads 256 "$out/ptxas.log"

kernels_obj="$out/src_workloads_cuda_kernels.cu.o"
"$cache/usr/bin/cuobjdump" -sass "$kernels_obj" >"$out/kernels.sass"
python3 "$root/scripts/sass_ffma_share.py" --kernel fma_peak_kernel --min-share 0.95 \
  <"$out/kernels.sass"

# 4. The checks can fail.
cat >"$out/ptxas-before.log" <<'EOF'
ptxas info    : Compiling entry function '_ZN3edp4cuda43_GLOBAL__N__d0ce6257_10_kernels_cu_d53f93a011map2_kernelINS1_5AddOpEEEvPKfS5_PflbT_' for 'sm_62'
ptxas info    : Function properties for _ZN3edp4cuda43_GLOBAL__N__d0ce6257_10_kernels_cu_d53f93a011map2_kernelINS1_5AddOpEEEvPKfS5_PflbT_
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 40 registers, 354 bytes cmem[0]
EOF
if python3 "$root/scripts/ptxas_budget.py" "$out/ptxas-before.log" >/dev/null 2>&1; then
  echo "ci-cuda118: the ptxas budget passed map2 with 40 registers (6 blocks/SM on sm_62)" >&2
  exit 1
fi
mkdir -p "$out/mutant/workloads/cuda"
sed 's/constexpr int kFmaPeakUnroll = [0-9]*;/constexpr int kFmaPeakUnroll = 1;/' \
  "$root/src/workloads/cuda/kernels.cu" >"$out/mutant/workloads/cuda/kernels.cu"
cmp -s "$root/src/workloads/cuda/kernels.cu" "$out/mutant/workloads/cuda/kernels.cu" && {
  echo "ci-cuda118: kernels.cu has no 'constexpr int kFmaPeakUnroll = N;' to mutate" >&2
  exit 1
}
"$nvcc" -ccbin "$host_cxx" -std=c++14 -I"$root/src" -I"$out/generated" \
  -gencode arch=compute_62,code=sm_62 -c "$out/mutant/workloads/cuda/kernels.cu" \
  -o "$out/mutant.o"
echo "ci-cuda118: kernels.cu with kFmaPeakUnroll = 1 (must fail):"
if "$cache/usr/bin/cuobjdump" -sass "$out/mutant.o" |
  python3 "$root/scripts/sass_ffma_share.py" --kernel fma_peak_kernel --min-share 0.95; then
  echo "ci-cuda118: the FFMA share check passed fma_peak without its unroll" >&2
  exit 1
fi
echo "ci-cuda118: both checks fail on the code of before the fix, as they must"
echo "ci-cuda118: $(($(date +%s) - start)) s"
