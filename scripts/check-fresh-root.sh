#!/usr/bin/env bash
# Runs the README's two commands and then .ci/run in a freshly made Debian 12
# root, as on a machine that has never seen edpbench: a root built with
# mmdebstrap (Debian's apt and git, nothing else), this repository's HEAD
# cloned into /root/edpbench, and each step run there as root with chroot
# (proc, sys, dev and a fresh /run mounted in a private mount namespace, so
# nothing stays mounted when a step ends). Prints each step's exit status,
# seconds (wall, and the CPU seconds of its processes) and load average, then the stage table .ci/run printed. Not part of
# .ci/run (it takes as long as CI does and more); run it when set-up, build
# or CI scripts change (docs/ci.md).
#
# usage: scripts/check-fresh-root.sh [--dir DIR] [--base TAR] [--keep] [--logs DIR]
#                                    [-- STEP...]
#   --dir DIR   where the root is made (default /var/tmp/edpbench-fresh-root);
#               an existing DIR is refused unless --reuse is given
#   --reuse     run the steps in the root already in DIR (no new root, no clone)
#   --base TAR  unpack this mmdebstrap tarball instead of running mmdebstrap
#               (a tarball that check-fresh-root.sh --save-base wrote)
#   --save-base TAR  also write the new root, before any step, to TAR
#   --keep      leave the root in place afterwards (default: removed)
#   --logs DIR  each step's output, whole (default fresh-root-<date>/ here)
#   STEP        a command run in /root/edpbench inside the root (default:
#               scripts/run.sh, scripts/test.sh, .ci/run)
# Needs root, mmdebstrap (apt-get install mmdebstrap), unshare and chroot,
# and Debian's archive (deb.debian.org) over the network. Only HEAD is
# cloned: commit first, uncommitted changes are not in the root.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
dir=/var/tmp/edpbench-fresh-root
base=""
save_base=""
keep=0
reuse=0
logs="$PWD/fresh-root-$(date -u +%Y%m%dT%H%M%SZ)"
steps=()
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) dir="${2:?--dir needs a folder}"; shift 2 ;;
    --base) base="${2:?--base needs a tarball}"; shift 2 ;;
    --save-base) save_base="${2:?--save-base needs a file name}"; shift 2 ;;
    --keep) keep=1; shift ;;
    --reuse) reuse=1; keep=1; shift ;;
    --logs) logs="${2:?--logs needs a folder}"; shift 2 ;;
    --) shift; steps=("$@"); break ;;
    -h|--help) sed -n '2,27p' "$0"; exit 0 ;;
    *) echo "check-fresh-root.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
[ ${#steps[@]} -gt 0 ] || steps=(scripts/run.sh scripts/test.sh .ci/run)
log() { echo "check-fresh-root: $*" >&2; }

[ "$(id -u)" -eq 0 ] || { log "needs root (chroot, mounts): sudo $0 $*"; exit 2; }
for t in unshare chroot git; do
  command -v "$t" >/dev/null || { log "needs $t"; exit 2; }
done
if [ $reuse -eq 0 ] && [ -z "$base" ] && ! command -v mmdebstrap >/dev/null; then
  log "needs mmdebstrap to make the root: apt-get install mmdebstrap"; exit 2
fi
if [ $reuse -eq 1 ]; then
  [ -d "$dir/root/edpbench" ] || { log "--reuse: no root with a clone in $dir"; exit 2; }
elif [ -e "$dir" ]; then
  log "$dir exists: remove it, pick another --dir, or add --reuse"; exit 2
fi
case "$dir" in /|/usr|/var|/tmp|/root|/home) log "refusing --dir $dir"; exit 2 ;; esac
commit="$(git -C "$repo" rev-parse HEAD)"
if [ -n "$(git -C "$repo" status --porcelain --untracked-files=no)" ]; then
  log "warning: $repo has uncommitted changes; the root gets HEAD ($commit) only"
fi
mkdir -p "$logs"

rows=()
row() { rows+=("$1"$'\t'"$2"$'\t'"$3"$'\t'"$4"$'\t'"$5"); }
tck="$(getconf CLK_TCK)"
cpu_children() {  # CPU seconds (user + system) of this shell's finished children
  awk -v t="$tck" '{ printf "%d", ($16 + $17) / t }' "/proc/$$/stat"
}
# The load average over a step: the 1-minute figure sampled every 15 s,
# averaged, with its peak (this machine may be shared).
load_sampler() {
  while :; do cut -d' ' -f1 /proc/loadavg >>"$1"; sleep 15; done
}
load_summary() {
  awk '{ s += $1; n++; if ($1 > m) m = $1 } END { if (n) printf "%.2f (peak %.2f)", s / n, m }' "$1"
}
timed() {  # timed NAME LOGFILE COMMAND...: runs it, adds a row, returns its status
  local name="$1" out="$2" t0 c0 rc=0 pid samples
  shift 2
  samples="$(mktemp)"
  load_sampler "$samples" &
  pid=$!
  t0=$(date +%s)
  c0=$(cpu_children)
  "$@" > >(tee "$out") 2>&1 || rc=$?
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  cut -d' ' -f1 /proc/loadavg >>"$samples"
  row "$name" "$rc" "$(( $(date +%s) - t0 ))" "$(( $(cpu_children) - c0 ))" \
    "$(load_summary "$samples")"
  rm -f "$samples"
  return $rc
}
in_root() {  # in_root COMMAND: runs COMMAND with bash in the clone, inside the root
  unshare --mount --propagation private -- /bin/sh -ec '
    r="$1"
    # The root a mount point of its own, as on a machine: `ip netns exec`
    # (the ansible stage) remounts / as a slave, which fails on a plain
    # directory ("mount --make-rslave /: Invalid argument").
    mount --bind "$r" "$r"
    mount -t proc proc "$r/proc"
    mount -t sysfs sysfs "$r/sys"
    mount --rbind /dev "$r/dev"
    mount -t tmpfs -o mode=0755 tmpfs "$r/run"
    exec chroot "$r" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
      PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
      /bin/bash -c "cd /root/edpbench && $2"' sh "$dir" "$1"
}
cleanup() {
  if [ $keep -eq 0 ] && [ -d "$dir" ]; then rm -rf --one-file-system "$dir"; fi
}
trap cleanup EXIT

if [ $reuse -eq 0 ]; then
  if [ -n "$base" ]; then
    timed "root: unpack $(basename "$base")" "$logs/root.log" \
      sh -c 'mkdir -p "$1" && tar -x -C "$1" -f "$2"' sh "$dir" "$base"
  else
    # Debian's apt, and git to clone: a minimal image (no iproute2, no sudo,
    # no compiler). mmdebstrap empties apt's lists, as a new image has them
    # stale: the scripts must update them.
    timed "root: mmdebstrap bookworm" "$logs/root.log" \
      mmdebstrap --variant=apt --include=git,ca-certificates bookworm "$dir"
  fi
  # What the installer writes and mmdebstrap does not.
  printf '127.0.0.1\tlocalhost\n::1\t\tlocalhost ip6-localhost ip6-loopback\n' >"$dir/etc/hosts"
  if [ -n "$save_base" ]; then
    tar -C "$dir" -cf "$save_base" . && log "root saved as $save_base"
  fi
  git clone -q --no-checkout "$repo" "$dir/root/edpbench"
  git -C "$dir/root/edpbench" checkout -q "$commit"
  log "root $dir, clone of $commit in /root/edpbench"
fi

failed=0
for s in "${steps[@]}"; do
  name="$(echo "$s" | tr -c 'A-Za-z0-9._-' '_' | sed 's/_*$//')"
  log "==> $s (log: $logs/$name.log)"
  timed "$s" "$logs/$name.log" in_root "$s" || failed=1
done

echo
echo "fresh Debian 12 root ($dir), commit ${commit:0:12}, $(nproc) CPUs:"
printf '%s\n' "step"$'\t'"exit"$'\t'"seconds"$'\t'"cpu_s"$'\t'"load average (1 min: mean, peak)" \
  "${rows[@]}" |
  awk -F'\t' '{ n[NR] = $1; e[NR] = $2; s[NR] = $3; c[NR] = $4; l[NR] = $5
                 if (length($1) > w) w = length($1) }
    END { if (w > 60) w = 60
          for (i = 1; i <= NR; i++)
            printf "%-" w "." w "s %5s %8s %6s   %s\n", n[i], e[i], s[i], c[i], l[i] }'
for s in "${steps[@]}"; do
  name="$(echo "$s" | tr -c 'A-Za-z0-9._-' '_' | sed 's/_*$//')"
  # .ci/run ends with its stage table; show it again here.
  if grep -q '^ci stages' "$logs/$name.log" 2>/dev/null; then
    echo
    sed -n '/^ci stages/,$p' "$logs/$name.log"
  fi
done
echo "logs: $logs"
exit $failed
