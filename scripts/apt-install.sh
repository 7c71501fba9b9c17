#!/usr/bin/env bash
# Installs the Debian packages of the list that are not installed yet, for the
# set-up scripts (setup-deps.sh, setup-cross-deps.sh). Prints nothing and runs
# no apt command when every package is there. Otherwise it names what it
# installs, refreshes apt's lists (a new machine or image may have none) and
# installs without recommends; apt's own output is kept, and shown with the
# package list when apt fails. Waits up to 5 minutes for another apt or dpkg
# (unattended-upgrades on a new machine) to release its lock. As root, or
# through sudo.
#
# usage: scripts/apt-install.sh [--who NAME] PKG[:ARCH]...
#   --who NAME  the prefix of its messages (default apt-install)
# Exit status: 0 when every package is installed, 1 when apt failed.
set -euo pipefail
who=apt-install
if [ "${1:-}" = --who ]; then who="${2:?--who needs a name}"; shift 2; fi
log() { echo "$who: $*" >&2; }

installed() { dpkg-query -W -f='${db:Status-Abbrev}' "$1" 2>/dev/null | grep -q '^ii'; }
missing=()
for p in "$@"; do installed "$p" || missing+=("$p"); done
[ ${#missing[@]} -gt 0 ] || exit 0

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || {
    log "${missing[*]} missing; run this as root (there is no sudo here)"; exit 1; }
  sudo_cmd=(sudo)
fi
log "installing ${missing[*]}"
out="$(mktemp)"
trap 'rm -f "$out"' EXIT
apt_get() {  # apt_get ARGS...: apt-get, its output in $out
  "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -q -o DPkg::Lock::Timeout=300 \
    "$@" >"$out" 2>&1
}
failed() {  # failed WHAT: apt's own lines and the list, then exit 1
  log "apt-get $1 failed; apt said:"
  grep -v -E '^(Get|Hit|Ign|Selecting|Preparing|Unpacking|Setting up|Processing)[: ]' "$out" \
    | tail -n 40 | sed 's/^/    /' >&2
  log "packages asked for: ${missing[*]}"
  exit 1
}
apt_get update || failed update
apt_get install -y --no-install-recommends "${missing[@]}" || failed install
still=()
for p in "${missing[@]}"; do installed "$p" || still+=("$p"); done
if [ ${#still[@]} -gt 0 ]; then
  log "apt-get install exited 0 but ${still[*]} is not installed; apt said:"
  tail -n 20 "$out" | sed 's/^/    /' >&2
  exit 1
fi
