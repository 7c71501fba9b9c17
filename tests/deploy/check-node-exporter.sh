#!/bin/sh
# `run --prometheus-textfile DIR` read by Debian's real node_exporter (issue
# 36): a two-item sweep on a constant trace writes DIR/edpbench.prom, then
# prometheus-node-exporter (textfile collector only, on 127.0.0.1) serves it
# and its scrape must hold the sweep's progress, status and last result with
# no textfile error. A missing DIR is exit 2. Exit 77 without
# prometheus-node-exporter or curl.
# usage: check-node-exporter.sh EDPBENCH SOURCE_DIR
set -eu
edpbench="$1"
src="$(cd "$2" && pwd)"
ne="$(command -v prometheus-node-exporter || command -v node_exporter || true)"
if [ -z "$ne" ]; then
  echo "SKIP: Debian's prometheus-node-exporter is not installed (scripts/setup-deps.sh, or" \
       "apt-get install --no-install-recommends prometheus-node-exporter)"; exit 77
fi
command -v curl >/dev/null 2>&1 || { echo "SKIP: curl is not installed"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 is not installed"; exit 77; }
tmp="$(mktemp -d)"
pid=""
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
mkdir "$tmp/textfiles"
cat >"$tmp/c.yaml" <<YML
name: textfile
iterations: 2
runs: 2
workloads: [tensors]
sizes:
  tiny: {n: 4, d_in: 32, h: 8, d_out: 3}
  small: {n: 8, d_in: 32, h: 8, d_out: 3}
devices:
  - {kind: cpu, threads: 1}
power:
  source: trace
  trace: {file: $src/tests/fixtures/cli/constant_7w5.csv}
  baseline_s: 0.2
  min_run_s: 0.3
YML
rc=0
"$edpbench" run --config "$tmp/c.yaml" --out "$tmp/none" --prometheus-textfile "$tmp/missing" \
  >/dev/null 2>"$tmp/err" || rc=$?
[ "$rc" = 2 ] || { echo "FAIL: a missing textfile directory gave exit $rc, not 2"; exit 1; }
grep -q "prometheus-textfile $tmp/missing: not a directory" "$tmp/err" \
  || { echo "FAIL: no message naming the missing directory:"; cat "$tmp/err"; exit 1; }
"$edpbench" run --config "$tmp/c.yaml" --out "$tmp/out" --prometheus-textfile "$tmp/textfiles" \
  >/dev/null 2>"$tmp/run.err" || { echo "FAIL: the sweep failed:"; tail "$tmp/run.err"; exit 1; }
ls "$tmp/textfiles" | grep -v '^edpbench\.prom$' && { echo "FAIL: temp files left behind"; exit 1; }

port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
"$ne" --collector.disable-defaults --collector.textfile \
  --collector.textfile.directory="$tmp/textfiles" --web.listen-address="127.0.0.1:$port" \
  >"$tmp/ne.log" 2>&1 &
pid=$!
ok=""
for _ in $(seq 1 50); do
  if curl -sf "http://127.0.0.1:$port/metrics" >"$tmp/scrape" 2>/dev/null; then ok=1; break; fi
  sleep 0.2
done
[ -n "$ok" ] || { echo "FAIL: node_exporter did not answer:"; cat "$tmp/ne.log"; exit 1; }
out="out=\"$tmp/out\""
for want in "edpbench_sweep_items{$out} 2" "edpbench_sweep_items_done{$out} 2" \
            "edpbench_sweep_progress_ratio{$out} 1" \
            "edpbench_sweep_status{$out,status=\"finished\"} 1" \
            "edpbench_sweep_status{$out,status=\"running\"} 0" \
            'node_textfile_scrape_error 0'; do
  grep -qF "$want" "$tmp/scrape" || { echo "FAIL: node_exporter's scrape lacks: $want"; \
    grep edpbench_ "$tmp/scrape" | head -30; exit 1; }
done
grep -q "^edpbench_sweep_last_item_info{.*key=\"mlp:workload=tensors,size=small,device=cpu\"" \
  "$tmp/scrape" || { echo "FAIL: no last item"; exit 1; }
grep -q '^edpbench_sweep_last_energy_joules{' "$tmp/scrape" || { echo "FAIL: no last energy"; exit 1; }
echo "ok: node_exporter serves the sweep's textfile ($(grep -c '^edpbench_' "$tmp/scrape") samples)"
