#!/bin/sh
# Debian's real Prometheus server scrapes `edpbench exporter` (issue 36): the
# exporter replays tests/fixtures/cli/square_5w.csv (VDD_IN 3 W / 7 W, mean
# 5 W: a known integral), Prometheus scrapes it every 0.5 s on 127.0.0.1, and
# increase(edpbench_energy_joules_total[10s]) through Prometheus's HTTP API
# must be 5 W x 10 s = 50 J within 1%, after at least ten scrapes. Both
# servers start and stop inside the test, on loopback, bounded in time.
# usage: check-prometheus.sh EDPBENCH SOURCE_DIR   exit 77 = skipped (no prometheus)
set -eu
edpbench="$1"
src="$(cd "$2" && pwd)"
if ! command -v prometheus >/dev/null 2>&1; then
  echo "SKIP: Debian's prometheus is not installed (scripts/setup-deps.sh, or" \
       "apt-get install --no-install-recommends prometheus)"; exit 77
fi
if ! "$edpbench" exporter --help >/dev/null 2>&1; then
  echo "FAIL: $edpbench has no exporter command"; exit 1
fi
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 (reads the API's JSON) is missing"; exit 77; }
tmp="$(mktemp -d)"
exporter_pid=""; prometheus_pid=""
cleanup() {
  [ -n "$exporter_pid" ] && kill "$exporter_pid" 2>/dev/null || true
  [ -n "$prometheus_pid" ] && kill "$prometheus_pid" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT

# The exporter on any free loopback port; it says which.
: >"$tmp/exporter.err"
"$edpbench" exporter --listen 127.0.0.1:0 --trace "$src/tests/fixtures/cli/square_5w.csv" \
  --total-rails VDD_IN --duration-s 60 2>"$tmp/exporter.err" &
exporter_pid=$!
port=""
for _ in $(seq 1 100); do
  port="$(sed -n 's|^edpbench: exporter: serving http://127.0.0.1:\([0-9]*\)/metrics$|\1|p' \
    "$tmp/exporter.err")"
  [ -n "$port" ] && break
  sleep 0.1
done
[ -n "$port" ] || { echo "FAIL: the exporter did not start:"; cat "$tmp/exporter.err"; exit 1; }

# A free port for Prometheus's own API (bound then released: a race with
# another program is possible and would fail the start below, not pass).
web="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
cat >"$tmp/prometheus.yml" <<YML
global:
  scrape_interval: 500ms
  scrape_timeout: 400ms
  evaluation_interval: 1s
scrape_configs:
  - job_name: edpbench
    static_configs:
      - targets: ['127.0.0.1:$port']
YML
prometheus --config.file="$tmp/prometheus.yml" --storage.tsdb.path="$tmp/data" \
  --web.listen-address="127.0.0.1:$web" >"$tmp/prometheus.log" 2>&1 &
prometheus_pid=$!

api="http://127.0.0.1:$web/api/v1/query"
# query EXPR -> the first result's value, or empty
query() {
  python3 - "$api" "$1" <<'PY'
import json, sys, urllib.parse, urllib.request
url = sys.argv[1] + "?" + urllib.parse.urlencode({"query": sys.argv[2]})
try:
    with urllib.request.urlopen(url, timeout=2) as r:
        data = json.load(r)
except Exception:
    sys.exit(0)
res = data.get("data", {}).get("result", [])
if res:
    print(res[0]["value"][1])
PY
}

# At least ten scrapes inside the window: wait (at most 45 s) for 20.
n=""
for _ in $(seq 1 90); do
  n="$(query 'count_over_time(edpbench_energy_joules_total[10s])')"
  [ -n "$n" ] && [ "${n%%.*}" -ge 20 ] && break
  sleep 0.5
done
if [ -z "$n" ] || [ "${n%%.*}" -lt 10 ]; then
  echo "FAIL: Prometheus holds ${n:-no} samples of edpbench_energy_joules_total after 45 s"
  echo "--- prometheus.log"; tail -20 "$tmp/prometheus.log"
  echo "--- exporter"; cat "$tmp/exporter.err"
  exit 1
fi
up="$(query 'up{job="edpbench"}')"
[ "$up" = "1" ] || { echo "FAIL: up{job=\"edpbench\"} is '$up'"; exit 1; }
inc="$(query 'increase(edpbench_energy_joules_total[10s])')"
python3 - "$inc" "$n" <<'PY' || exit 1
import sys
inc, n = float(sys.argv[1]), sys.argv[2]
want = 5.0 * 10.0
err = (inc - want) / want
print(f"increase(edpbench_energy_joules_total[10s]) = {inc:.3f} J over {n} scrapes; "
      f"the trace's integral 5 W x 10 s = {want:.1f} J; error {100 * err:+.2f}%")
if abs(err) > 0.01:
    print("FAIL: more than 1% off the known integral")
    sys.exit(1)
PY
echo "ok: Prometheus scraped the exporter and its increase() matches the trace's integral"
