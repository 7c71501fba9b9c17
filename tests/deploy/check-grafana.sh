#!/bin/sh
# Every metric a dashboard under deploy/grafana queries is one the exporter
# really serves (issue 36): the names in the dashboards' PromQL are checked
# against the # TYPE lines of a live /metrics (the exporter replaying
# tests/fixtures/cli/square_5w.csv on 127.0.0.1). The scrape-config example
# must be valid YAML naming a job. Exit 77 without curl or python3.
# usage: check-grafana.sh EDPBENCH SOURCE_DIR
set -eu
edpbench="$1"
src="$(cd "$2" && pwd)"
for t in curl python3; do
  command -v "$t" >/dev/null 2>&1 || { echo "SKIP: $t is not installed"; exit 77; }
done
tmp="$(mktemp -d)"
pid=""
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
: >"$tmp/err"
"$edpbench" exporter --listen 127.0.0.1:0 --trace "$src/tests/fixtures/cli/square_5w.csv" \
  --duration-s 30 2>"$tmp/err" &
pid=$!
port=""
for _ in $(seq 1 100); do
  port="$(sed -n 's|^edpbench: exporter: serving http://127.0.0.1:\([0-9]*\)/metrics$|\1|p' "$tmp/err")"
  [ -n "$port" ] && break
  sleep 0.1
done
[ -n "$port" ] || { echo "FAIL: the exporter did not start:"; cat "$tmp/err"; exit 1; }
curl -sf "http://127.0.0.1:$port/metrics" >"$tmp/metrics" || { echo "FAIL: no /metrics"; exit 1; }
python3 - "$tmp/metrics" "$src"/deploy/grafana/*.json <<'PY'
import json, re, sys
served = set(re.findall(r"^# TYPE (\S+) ", open(sys.argv[1]).read(), re.M))
bad = 0
for path in sys.argv[2:]:
    dash = json.load(open(path))
    exprs = []
    def walk(x):
        if isinstance(x, dict):
            for k, v in x.items():
                if k in ("expr", "query") and isinstance(v, str):
                    exprs.append(v)
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
    walk(dash)
    names = set()
    for e in exprs:
        names.update(re.findall(r"\bedpbench_[a-z0-9_]+", e))
    if not names:
        print(f"FAIL: {path} queries no edpbench metric"); bad += 1
    for n in sorted(names):
        if n not in served:
            print(f"FAIL: {path} queries {n}, which the exporter does not serve"); bad += 1
    print(f"{path}: {len(names)} metric names, all served" if not bad else "")
sys.exit(1 if bad else 0)
PY
python3 - "$src/deploy/prometheus/edpbench-scrape.yml" <<'PY'
import sys
try:
    import yaml
except ImportError:
    sys.exit(0)
c = yaml.safe_load(open(sys.argv[1]))
jobs = [s["job_name"] for s in c["scrape_configs"]]
assert "edpbench" in jobs, jobs
print("scrape config: jobs", jobs)
PY
echo "ok: every metric the dashboards query is served by the exporter"
