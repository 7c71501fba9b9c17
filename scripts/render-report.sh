#!/usr/bin/env bash
# Screenshot of an `edpbench report` HTML page with headless Chromium, to check
# the figures by eye or attach them to an issue. Installs nothing: it needs
# /usr/bin/chromium (Debian/Ubuntu package `chromium`).
#   usage: scripts/render-report.sh REPORT.html OUT.png [WIDTHxHEIGHT]
set -euo pipefail

if [[ $# -lt 2 || $# -gt 3 ]]; then
  echo "usage: $0 REPORT.html OUT.png [WIDTHxHEIGHT (default 1280x2400)]" >&2
  exit 2
fi
report=$1
out=$2
size=${3:-1280x2400}
if [[ ! -f $report ]]; then
  echo "$0: no such file: $report" >&2
  exit 2
fi
if [[ ! $size =~ ^[0-9]+x[0-9]+$ ]]; then
  echo "$0: size must look like 1280x2400, got '$size'" >&2
  exit 2
fi
chromium=${CHROMIUM:-/usr/bin/chromium}
if [[ ! -x $chromium ]]; then
  echo "$0: $chromium not found; install it with: sudo apt-get install chromium" >&2
  exit 1
fi

abs_report=$(cd "$(dirname "$report")" && pwd)/$(basename "$report")
case $out in
  /*) abs_out=$out ;;
  *) abs_out=$PWD/$out ;;
esac
rm -f "$abs_out"
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT

# No network: the report is self-contained, and these flags keep Chromium from
# phoning home (updates, sync, QUIC) while it renders a local file.
"$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --user-data-dir="$profile" --window-size="${size/x/,}" \
  --screenshot="$abs_out" "file://$abs_report" >/dev/null 2>&1 || true

if [[ ! -s $abs_out ]]; then
  echo "$0: chromium wrote no screenshot to $abs_out" >&2
  exit 1
fi
echo "$abs_out"
