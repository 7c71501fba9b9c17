#!/bin/bash
# Feeds edpbench the bad configs, traces and command-line values of
# docs/reliability.md ("Configs, traces and command-line values") and prints
# one markdown row per input: its exit status and the first line of its error.
# Usage: scripts/bad-inputs.sh [path/to/edpbench]   (default build/src/cli/edpbench)
set -u
E=$(realpath "${1:-build/src/cli/edpbench}")
SRC=$(realpath "$(dirname "$0")/..")
T=$(mktemp -d /tmp/edpbench-bad-inputs-XXXXXX)
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1
printf 't_s,VDD_IN_w\n0,5\n0.1,5\n' > ok.csv
: > empty.csv
BASE='power: {source: none}
workloads: [tensors]
devices: [{kind: reference}]
sizes: {t: {n: 2, d_in: 4, h: 4, d_out: 2}}'
n_cfg=0; n_trace=0; n_cli=0; ok_cfg=0; ok_trace=0; ok_cli=0
row() {  # kind, input shown, status, stderr file
  local msg
  msg=$(grep -m1 -v -e '^$' -e '^edpbench: warning' -e 'cannot run on this machine' "$4" |
    sed 's/^edpbench: error: //; s/^  - //; s/|/\\|/g' | cut -c1-150)
  printf '| %s | `%s` | %s | %s |\n' "$1" "$2" "$3" "$msg"
}
config() {  # shown, yaml (the whole config)
  printf '%s\n' "$2" > c.yaml
  timeout 60 "$E" plan --no-calibrate --config c.yaml > /dev/null 2> err; local rc=$?
  n_cfg=$((n_cfg + 1)); grep -q 'c.yaml:[0-9]*:[0-9]*:' err && [ $rc = 2 ] && ok_cfg=$((ok_cfg + 1))
  row config "$1" $rc err
}
trace() {  # shown, trace text
  printf '%s\n' "$2" > t.csv
  printf '%s\npower: {source: trace, trace: {file: t.csv}}\n' "$(echo "$BASE" | sed 1d)" > c.yaml
  timeout 60 "$E" plan --no-calibrate --config c.yaml > /dev/null 2> err; local rc=$?
  n_trace=$((n_trace + 1)); grep -q 't.csv:[0-9]*' err && [ $rc = 2 ] && ok_trace=$((ok_trace + 1))
  row trace "$1" $rc err
}
cli() {  # args [shown]
  timeout -k 5 60 "$E" $1 > /dev/null 2> err < /dev/null; local rc=$?
  n_cli=$((n_cli + 1)); [ $rc = 2 ] && ok_cli=$((ok_cli + 1))
  row cli "${2:-$1}" $rc err
}
echo "| kind | input | exit | message |"
echo "|---|---|---|---|"
# --- configs: syntax, structure, types, ranges, choices, repeats, spellings
config 'runs: [1' 'runs: [1'
config 'empty file' ''
config 'a list, not a mapping' '- runs: 1'
config 'bogus: 1' "$BASE
bogus: 1"
config 'runs: 0' "$BASE
runs: 0"
config 'runs: -1 + workloads: [resnet]' 'runs: -1
workloads: [resnet]'
config 'runs: many' 'runs: many'
config 'runs: 1.5' 'runs: 1.5'
config 'runs: 1e3' 'runs: 1e3'
config 'runs: 0x10' 'runs: 0x10'
config 'runs: 0o10' 'runs: 0o10'
config 'n: 010' 'sizes: {t: {n: 010, d_in: 4, h: 4, d_out: 2}}'
config 'iterations: 100000001' 'iterations: 100000001'
config 'seed: 9223372036854775808' 'seed: 9223372036854775808'
config 'learning_rate: fast' 'learning_rate: fast'
config 'learning_rate: .inf' 'learning_rate: .inf'
config 'learning_rate: .nan' 'learning_rate: .nan'
config 'cooldown_s: 0x1p3' 'cooldown_s: 0x1p3'
config 'cooldown_s: 3601' 'cooldown_s: 3601'
config 'init_scale: 0' 'init_scale: 0'
config 'runs: 3 twice' "$BASE
runs: 3
runs: 5"
config 'power.rate_hz twice' 'power:
  rate_hz: 10
  rate_hz: 20'
config 'size named twice' 'sizes:
  a: {n: 1, d_in: 1, h: 1, d_out: 1}
  a: {n: 2, d_in: 1, h: 1, d_out: 1}'
config 'workloads: [tensors, tensors]' 'workloads: [tensors, tensors]'
config 'studies: [mlp, mlp]' 'studies: [mlp, mlp]'
config 'batch.n: [1, 2, 1]' 'studies: [batch]
batch: {n: [1, 2, 1]}'
config 'ops.bytes: [1MB, 1024KB]' 'ops: {bytes: [1MB, 1024KB]}'
config 'two identical devices' 'devices: [{kind: reference}, {kind: reference}]'
config 'second document' "$BASE
---
runs: 3"
config 'workloads: []' 'workloads: []'
config 'workloads: tensors' 'workloads: tensors'
config 'studies: [training]' 'studies: [training]'
config 'sizes: {}' 'sizes: {}'
config 'size missing d_out' 'sizes: {t: {n: 1, d_in: 1, h: 1}}'
config 'size with extra key' 'sizes: {t: {n: 1, d_in: 1, h: 1, d_out: 1, k: 2}}'
config 'n: 16777217' 'sizes: {t: {n: 16777217, d_in: 1, h: 1, d_out: 1}}'
config 'devices: []' 'devices: []'
config 'kind: tpu' 'devices: [{kind: tpu}]'
config 'gpu device with threads' 'devices: [{kind: gpu, threads: 2}]'
config 'cpus: fast' 'devices: [{kind: cpu, cpus: fast}]'
config 'cpus: "7" (this machine: 2 CPUs)' "$(echo "$BASE" | sed 3d)
devices: [{kind: cpu, cpus: \"7\"}]"
config 'cpus: "0-999999999"' "$(echo "$BASE" | sed 3d)
devices: [{kind: cpu, cpus: \"0-999999999\"}]"
config 'cpus: carmel (this machine: x86)' "$(echo "$BASE" | sed 3d)
devices: [{kind: cpu, cpus: carmel}]"
config 'gemm: mkl' 'devices: [{kind: cpu, gemm: mkl}]'
config 'source: magic' 'power: {source: magic}'
config 'source: trace without file' 'power: {source: trace}'
config 'trace file missing' 'power: {source: trace, trace: {file: none.csv}}'
config 'trace file a directory' 'power: {source: trace, trace: {file: /tmp}}'
config 'source: nvml (no NVIDIA GPU here)' "$(echo "$BASE" | sed 1d)
power: {source: nvml}"
config 'total_rails: [NOPE]' "$(echo "$BASE" | sed 1d)
power: {source: trace, trace: {file: ok.csv}, total_rails: [NOPE]}"
config 'ina226 address: 0x20' 'power: {ina226: {address: 0x20}}'
config 'ina226 averages: 3' 'power: {ina226: {averages: 3}}'
config 'gpu: {relu: fast}' 'gpu: {relu: fast}'
config 'batch.sizes: [huge]' 'studies: [batch]
batch: {sizes: [huge]}'
config 'ops.ops: [fft]' 'ops: {ops: [fft]}'
config 'ops.bytes: [16XB]' 'ops: {bytes: [16XB]}'
config 'ops.max_runs < ops.runs' 'ops: {runs: 5, max_runs: 2}'
config 'operating point named twice' 'operating_points: [{name: a}, {name: a}]'
config 'operating point without name' 'operating_points: [{nvpmodel: 1}]'
config 'key that is a list' '? [a]
: 1'
config 'size beyond memory (N=2^24, d_in 2^24)' "$(echo "$BASE" | sed 4d)
sizes: {t: {n: 16777216, d_in: 16777216, h: 1, d_out: 1}}"
config 'batch N beyond memory' "$(echo "$BASE" | sed 4d)
studies: [batch]
batch: {sizes: [t], n: [1048576]}
sizes: {t: {n: 2, d_in: 100000, h: 4, d_out: 2}}"
config 'ops gemm_n 65536 beyond memory' "$BASE
studies: [ops]
ops: {ops: [gemm], gemm_n: [65536]}"
config 'learning_rate: 1e-400 (underflows to 0)' 'learning_rate: 1e-400'
config 'sampler_cpu: 4095 (this machine: 2 CPUs)' "$(echo "$BASE" | sed 1d)
power: {source: none, sampler_cpu: 4095}"
config 'total_rails: []' "$(echo "$BASE" | sed 1d)
power: {source: trace, trace: {file: ok.csv}, total_rails: []}"
config 'name with ESC' 'name: "a\x1b[2Jb"'
config 'operating point cpu_max_khz: 12345' 'operating_points: [{name: a, cpu_max_khz: 12345}]'
config 'seven problems in one pass' 'runs: 0
bogus: 1
learning_rate: 1e-400
workloads: [tensors]
devices: [{kind: cpu, cpus: "4095"}]
sizes: {t: {n: 16777216, d_in: 16777216, h: 1, d_out: 1}}
power: {source: trace, trace: {file: none.csv}, sampler_cpu: 4095}'
seven=$(grep -c 'c.yaml:[0-9]*:[0-9]*:' err)
# --- traces
trace 'no header' '0,5'
trace 'header without t_s' 'time,VDD_IN_w
0,5'
trace 'column without _w' 't_s,VDD_IN
0,5'
trace 'header only' 't_s,VDD_IN_w'
trace 'empty file' ''
trace 'too few fields' 't_s,VDD_IN_w,GPU_w
0,5'
trace 'too many fields' 't_s,VDD_IN_w
0,5,6'
trace 't_s not a number' 't_s,VDD_IN_w
zero,5'
trace 't_s going back' 't_s,VDD_IN_w
0,5
1,5
0.5,5'
trace 't_s repeated' 't_s,VDD_IN_w
0,5
0,5'
trace 'watts not a number' 't_s,VDD_IN_w
0,five'
trace 'negative watts' 't_s,VDD_IN_w
0,5
0.1,-0.5'
trace '1e308 W' 't_s,VDD_IN_w
0,5
0.1,1e308'
trace '10 kW + 0.5 W' 't_s,VDD_IN_w
0,5
0.1,10000.5'
trace 'inf W' 't_s,VDD_IN_w
0,inf'
trace 'nan W' 't_s,VDD_IN_w
0,nan'
trace '-inf W' 't_s,VDD_IN_w
0,-inf'
trace '1e999 W' 't_s,VDD_IN_w
0,1e999'
trace 'hex watts 0x10' 't_s,VDD_IN_w
0,0x10'
trace 't_s inf' 't_s,VDD_IN_w
inf,5'
trace 'a column given twice' 't_s,VDD_IN_w,VDD_IN_w
0,5,5'
# --- command-line values
cli 'ops --out o --gemm-n 0'
cli 'ops --out o --gemm-n 100000'
cli 'ops --out o --gemm-n -5'
cli 'ops --out o --gemm-n 010'
cli 'ops --out o --gemm-n 64,64'
cli 'ops --out o --gemm-n 65536'
cli 'ops --out o --bytes 16XB'
cli 'ops --out o --bytes 0MB'
cli 'ops --out o --bytes 2048GB'
cli 'ops --out o --bytes 1MB,1024KB'
cli 'ops --out o --ops fft'
cli 'ops --out o --ops copy,copy'
cli 'ops --out o --runs 0'
cli 'ops --out o --runs 100001'
cli 'ops --out o --runs x'
cli 'ops --out o --power-source magic'
cli 'ops --out o --trace /tmp'
cli 'ops --out o --trace none.csv'
cli 'ops --out o --devices tpu'
cli 'run --config c.yaml --runs 200000'
cli 'run --config c.yaml --runs 0'
cli 'run --config c.yaml --iterations 0'
cli 'run --config c.yaml --workloads resnet'
cli 'run --config c.yaml --sizes huge'
cli 'run --config c.yaml --devices tpu'
cli 'run --config c.yaml --studies training'
cli 'run --config none.yaml'
cli 'run --config /tmp'
cli 'run --config /dev/zero'
cli 'plan --config c.yaml --json /nonexistent/x'
cli 'plan --config c.yaml --json /tmp'
cli 'recommend /dev/zero'
cli 'recommend /tmp'
cli 'recommend none.csv'
cli 'recommend empty.csv'
cli 'recommend ok.csv'
sed 's/,1\.5,0,/,1e-300,0,/' "$SRC/tests/fixtures/deploy/cpu-gpu/deploy.csv" > deploy.csv
cli 'recommend deploy.csv --rate 5 --battery-wh 10' 'recommend deploy.csv --rate 5 --battery-wh 10 (an idle power_w of 1e-300)'
# --- issue 33: what edpbench reads (links, FIFOs, devices, sizes), resume's
# integrity, and what it writes into CSV cells. Each case starts from a
# finished two-item sweep S (reference device, trace power).
n_read=0; ok_read=0
sweep() {  # dir: a finished sweep
  printf '%s\npower: {source: trace, trace: {file: ok.csv}, baseline_s: 0}\niterations: 2\nruns: 2\nwarmup_iterations: 0\n' \
    "$(echo "$BASE" | sed '1d;4d')
sizes: {t: {n: 2, d_in: 4, h: 4, d_out: 2}, u: {n: 3, d_in: 4, h: 4, d_out: 2}}" > "$1.yaml"
  rm -rf "$1"; "$E" run --config "$1.yaml" --out "$1" > /dev/null 2>&1
}
read_case() {  # shown, setup (shell, $S is the sweep), command (shell)
  S=s$n_read; sweep "$S"; (cd "$T" && S=$S && eval "$2")
  (ulimit -v 4194304; S=$S; eval "timeout -k 5 20 $E $3") > out 2> err < /dev/null; local rc=$?
  n_read=$((n_read + 1)); [ $rc = 2 ] && ok_read=$((ok_read + 1))
  row read "$1" $rc err
}
sweep o1
cli 'compare o1 o1 --fail-on-regression nan'
cli 'compare o1 o1 --alpha inf'
cli 'recommend o1/results.csv --battery-wh inf'
cli 'report o1 -o r.html --objective bogus'
cli 'sensors --source none --measure-s 1e9'
cli 'measure --rate-hz 50000 -- true'
cli 'measure --baseline-s nan -- true'
cli "measure --label $(printf 'a\033[2Jb') -- true" 'measure --label a\033[2Jb -- true'
cli "measure --label $(printf '%05000d' 0) -- true" 'measure --label <5000 characters> -- true'
printf 'root:SECRET:19000:0:99999:7:::\n' > secret
read_case 'report D: D/context.json a link to a secret' 'ln -sf "$T/secret" $S/context.json' 'report $S'
read_case 'report D: D/runs.csv a link' 'ln -sf "$T/secret" $S/runs.csv' 'report $S'
read_case 'run --resume: O/runs.csv a link to another sweep'"'"'s' 'sweep other; ln -sf "$T/other/runs.csv" $S/runs.csv' 'run --config $S.yaml --out $S --resume'
read_case 'run --resume: O/results.csv a link to /etc/shadow-like' 'ln -sf "$T/secret" $S/results.csv' 'run --config $S.yaml --out $S --resume'
read_case 'measure --trace a link to a secret' 'ln -sf "$T/secret" link.csv' 'measure --runs 1 --trace link.csv -- true'
read_case 'run --resume: a FIFO at results.csv' 'rm $S/results.csv; mkfifo $S/results.csv' 'run --config $S.yaml --out $S --resume'
read_case 'run --resume: a FIFO at runs.csv' 'rm $S/runs.csv; mkfifo $S/runs.csv' 'run --config $S.yaml --out $S --resume'
read_case 'run --resume: a FIFO at config.yaml' 'rm $S/config.yaml; mkfifo $S/config.yaml' 'run --config $S.yaml --out $S --resume'
read_case 'run --config FIFO' 'rm -f f; mkfifo f' 'run --config f --out x'
read_case 'measure --trace FIFO' 'rm -f f; mkfifo f' 'measure --runs 1 --trace f -- true'
read_case 'sensors --trace FIFO' 'rm -f f; mkfifo f' 'sensors --source trace --trace f'
read_case 'measure --trace /dev/zero' ':' 'measure --runs 1 --trace /dev/zero -- true'
read_case 'report D: a 3 GB sparse runs.csv' 'truncate -s 3G $S/runs.csv' 'report $S'
read_case 'compare: a 3 GB sparse runs.csv' 'truncate -s 3G $S/runs.csv' 'compare $S $S'
read_case 'resume: runs.csv deleted' 'rm $S/runs.csv' 'run --config $S.yaml --out $S --resume'
read_case 'resume: a results.csv row twice' 'sed -n 2p $S/results.csv >> $S/results.csv' 'run --config $S.yaml --out $S --resume'
read_case 'resume: config.yaml deleted' 'rm $S/config.yaml' 'run --config $S.yaml --out $S --resume'
read_case 'resume: context.json deleted' 'rm $S/context.json' 'run --config $S.yaml --out $S --resume'
read_case 'resume: context.json with a key twice' 'sed -i "1a\\  \"complete\": true," $S/context.json' 'run --config $S.yaml --out $S --resume'
drop_columns='python3 -c "import csv,sys; p,drop=sys.argv[1],sys.argv[2:]; r=list(csv.reader(open(p))); k=[i for i,c in enumerate(r[0]) if c not in drop]; csv.writer(open(p,\"w\"),lineterminator=\"\\n\").writerows([[x[i] for i in k] for x in r])"'
read_case 'resume: results.csv without status' "$drop_columns \$S/results.csv status" 'run --config $S.yaml --out $S --resume'
read_case 'resume: results.csv without energy_j_mean, edp_js_mean' "$drop_columns \$S/results.csv energy_j_mean edp_js_mean" 'run --config $S.yaml --out $S --resume'
read_case 'recommend D: no key column, a configuration twice' "$drop_columns \$S/results.csv key; sed -n 2p \$S/results.csv >> \$S/results.csv" 'recommend $S'
read_case 'report D: runs.csv of another sweep' 'sweep other; sed "s/,t,/,v,/" other/runs.csv > $S/runs.csv' 'report $S'
# A command that stops itself: the command's own status (128 + SIGSTOP), not a hang.
(timeout -k 5 20 "$E" measure --runs 1 --power-source none -- sh -c 'kill -STOP $$') > out 2> err < /dev/null
rc=$?; grep -v '^edpbench: power' err > err2
row measure 'measure -- sh -c "kill -STOP $$"' $rc err2
# CSV injection: a size named =cmd|' -C calc'!A0 must reach results.csv as text.
printf '%s\npower: {source: none}\niterations: 1\nruns: 1\nwarmup_iterations: 0\n' "$(echo "$BASE" | sed '1d;4d')
sizes: {\"=cmd|' -C calc'!A0\": {n: 2, d_in: 4, h: 4, d_out: 2}}" > inj.yaml
rm -rf inj; "$E" run --config inj.yaml --out inj > /dev/null 2>&1
if grep -q "^tensors,=cmd" inj/results.csv; then inj="written as a formula: tensors,=cmd|' -C calc'!A0,..."; else inj="written as text: $(grep -o "^tensors,\"'=cmd[^,]*" inj/results.csv | head -1)"; fi
printf '| %s | `%s` | %s | %s |\n' write "size =cmd|' -C calc'!A0 in results.csv" - "$inj"
echo
echo "configs: $ok_cfg of $n_cfg exit 2 naming FILE:LINE:COL; traces: $ok_trace of $n_trace exit 2 naming the trace file (and the line, where the fault is on one); command-line values: $ok_cli of $n_cli exit 2; read side (issue 33): $ok_read of $n_read exit 2; the seven-problem config: $seven located lines in one pass"
