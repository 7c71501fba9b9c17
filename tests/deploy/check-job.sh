#!/bin/sh
# edpbench-job (the service's wrapper) resumes an unfinished sweep, clears it
# when the sweep completed, and writes the recommendation atomically. A fake
# edpbench records its arguments and exits with scripted codes.
# usage: check-job.sh JOB_SCRIPT
set -eu
job="$1"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
state="$tmp/state"; mkdir "$state"
log="$tmp/calls"; codes="$tmp/codes"
cfg="$tmp/config.yaml"; echo "name: a" > "$cfg"

cat > "$tmp/edpbench" <<'FAKE'
#!/bin/sh
# Fake edpbench: log "argv", take the next exit code from $FAKE_CODES.
echo "$*" >> "$FAKE_LOG"
code="$(head -n 1 "$FAKE_CODES" 2>/dev/null || true)"; [ -n "$code" ] || code=0
sed -i 1d "$FAKE_CODES" 2>/dev/null || true
if [ "$code" = hang ]; then   # a long sweep: SIGTERM saves and exits 143
  trap 'echo "saved after SIGTERM" >> "$FAKE_LOG"; exit 143' TERM
  touch "$FAKE_LOG.running"
  while :; do sleep 0.1; done
fi
case "$1" in
  run)
    out=""; prev=""
    for a in "$@"; do [ "$prev" = "--out" ] && out="$a"; prev="$a"; done
    mkdir -p "$out"; echo "workload,size" > "$out/results.csv" ;;
  recommend)
    csv=""; prev=""
    for a in "$@"; do [ "$prev" = "--csv" ] && csv="$a"; prev="$a"; done
    [ "$code" -eq 0 ] && echo "workload,size,objective,choice" > "$csv" ;;
esac
exit "$code"
FAKE
chmod +x "$tmp/edpbench"

run_job() {  # run_job EXPECTED_RC CODE...
  want="$1"; shift
  printf '%s\n' "$@" > "$codes"
  rc=0
  # shellcheck disable=SC2086  # EXTRA_ENV is a list of NAME=value words
  env STATE_DIRECTORY="$state" EDPBENCH_BIN="$tmp/edpbench" EDPBENCH_CONFIG="$cfg" \
      FAKE_LOG="$log" FAKE_CODES="$codes" EDPBENCH_RETRY_SLEEP_S=0 ${EXTRA_ENV:-} \
      sh "$job" 2>>"$tmp/job.log" || rc=$?
  [ "$rc" -eq "$want" ] || fail "job exited $rc, expected $want"
}
fail() { echo "FAIL: $*"; echo "--- calls:"; cat "$log" 2>/dev/null; echo "--- job log:"; cat "$tmp/job.log"; exit 1; }

# 1. A sweep that fails (exit 1) leaves "current" pointing at its directory.
run_job 1 1
[ -L "$state/current" ] || fail "no current link after a failed sweep"
dir="$(readlink "$state/current")"
grep -q "^run --config $cfg --out $state/$dir\$" "$log" || fail "first call"
echo "$dir" | grep -Eq '^[0-9]{8}T[0-9]{6}Z$' || fail "run directory '$dir' is not a UTC timestamp"

# 2. The restart resumes that directory, then recommends and clears "current".
# A link planted where the run's copy of the recommendation goes is replaced,
# not written through (cp --remove-destination).
: > "$log"
echo "victim" > "$state/victim"
ln -s "$state/victim" "$state/$dir/recommendation.csv"
run_job 0 0 0
[ "$(cat "$state/victim")" = "victim" ] || fail "the copy wrote through a planted link"
[ -f "$state/$dir/recommendation.csv" ] && [ ! -L "$state/$dir/recommendation.csv" ] \
  || fail "the run's recommendation.csv is not a plain file"
grep -q "^run --config $cfg --out $state/$dir --resume\$" "$log" || fail "no --resume of $dir"
grep -q "^recommend $state/$dir/results.csv --objective edp --csv $state/recommendation.csv.tmp\$" "$log" \
  || fail "recommend call"
[ ! -e "$state/current" ] || fail "current still set after a completed sweep"
[ -f "$state/recommendation.csv" ] || fail "no recommendation.csv"
[ ! -e "$state/recommendation.csv.tmp" ] || fail "temporary recommendation left behind"
[ "$(readlink "$state/latest")" = "$dir" ] || fail "latest does not point at $dir"

# 3. The next start begins a new sweep (no --resume).
: > "$log"; sleep 1
run_job 0 0 0
grep -q -- "--resume" "$log" && fail "a completed sweep was resumed"
[ "$(readlink "$state/latest")" != "$dir" ] || fail "latest not updated"

# 4. Interrupted (143): keep "current" so the next start resumes.
: > "$log"; sleep 1
run_job 143 143
[ -L "$state/current" ] || fail "current dropped after an interrupted sweep"
dir4="$(readlink "$state/current")"

# 5a. Resume refused with exit 2 but the config is unchanged (a power source
#     not there yet at boot, the directory locked): keep "current", exit 75 so
#     that systemd retries later, and say so in the journal.
: > "$log"; : > "$tmp/job.log"
run_job 75 2
[ "$(readlink "$state/current")" = "$dir4" ] || fail "current dropped on a transient exit 2"
[ "$(grep -c '^run ' "$log")" -eq 1 ] || fail "a new sweep started on a transient exit 2"
grep -q "config is unchanged" "$tmp/job.log" || fail "the journal does not say the sweep is kept"
# ... and with in-process retries it is retried, resuming the same sweep.
: > "$log"
EXTRA_ENV="EDPBENCH_RETRIES=1" run_job 143 2 143
[ "$(grep -c "^run .* --out $state/$dir4 --resume\$" "$log")" -eq 2 ] || fail "retry did not resume $dir4"
[ "$(readlink "$state/current")" = "$dir4" ] || fail "current dropped after retries"

# 5b. Resume refused with exit 2 after the config changed: start a new sweep
#     right away, keeping the old directory for inspection.
: > "$log"; : > "$tmp/job.log"; sleep 1
echo "name: b" > "$cfg"
run_job 0 2 0 0
grep -q "changed since the sweep started" "$tmp/job.log" || fail "the journal does not name the change"
[ -d "$state/$dir4" ] || fail "the abandoned sweep was deleted"
grep -q "^run .* --out $state/$dir4 --resume\$" "$log" || fail "resume of $dir4 not tried"
[ "$(grep -c '^run ' "$log")" -eq 2 ] || fail "no fresh sweep after a refused resume"
[ "$(readlink "$state/latest")" != "$dir4" ] || fail "the refused sweep became latest"

# 6. A config error on a fresh sweep: exit 2, nothing left to resume.
: > "$log"; sleep 1
run_job 2 2
[ ! -e "$state/current" ] || fail "current kept after a config error"

# 7. With in-process retries (systemd < 244 drop-in) a failure is retried with --resume.
: > "$log"; sleep 1
EXTRA_ENV="EDPBENCH_RETRIES=2" run_job 0 1 0 0
[ "$(grep -c '^run ' "$log")" -eq 2 ] || fail "expected one retry"
grep -q "^run .* --resume\$" "$log" || fail "the retry did not resume"

# 8. EDPBENCH_RUN_ARGS and EDPBENCH_OBJECTIVE (from /etc/default/edpbench) reach edpbench.
: > "$log"; sleep 1
export EDPBENCH_RUN_ARGS="--devices cpu --sizes small" EDPBENCH_OBJECTIVE=energy
run_job 0 0 0
unset EDPBENCH_RUN_ARGS EDPBENCH_OBJECTIVE
grep -q "^run .* --devices cpu --sizes small\$" "$log" || fail "EDPBENCH_RUN_ARGS not passed"
grep -q "^recommend .* --objective energy " "$log" || fail "EDPBENCH_OBJECTIVE not passed"
# 10. recommend fails after a complete sweep: exit 3 (no restart), sweep kept as latest.
: > "$log"; sleep 1
run_job 3 0 1
[ ! -e "$state/current" ] || fail "current kept after a complete sweep"
[ "$(grep -c '^run ' "$log")" -eq 1 ] || fail "a new sweep started after recommend failed"
d10="$(sed -n 's/^run .* --out \([^ ]*\).*/\1/p' "$log")"
[ "$(readlink "$state/latest")" = "$(basename "$d10")" ] || fail "latest is not the completed sweep"

# 9. systemctl stop: SIGTERM to the whole unit (job and edpbench, as
#    KillMode=control-group does). The job waits for edpbench and exits 143.
: > "$log"; rm -f "$log.running"
printf 'hang\n' > "$codes"
STATE_DIRECTORY="$state" EDPBENCH_BIN="$tmp/edpbench" FAKE_LOG="$log" FAKE_CODES="$codes" \
  setsid sh "$job" 2>>"$tmp/job.log" &
pid=$!
i=0; while [ ! -e "$log.running" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
[ -e "$log.running" ] || fail "fake sweep did not start"
kill -TERM "-$pid"
rc=0; wait "$pid" || rc=$?
[ "$rc" -eq 143 ] || fail "job exited $rc after SIGTERM, expected 143"
grep -q "saved after SIGTERM" "$log" || fail "edpbench did not get SIGTERM"
[ -L "$state/current" ] || fail "current dropped after SIGTERM"

echo "ok: edpbench-job resume, completion, interruption, config errors and retries"
