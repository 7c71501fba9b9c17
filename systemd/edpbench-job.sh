#!/bin/sh
# edpbench-job: one resumable sweep, run by edpbench.service (installed as
# /usr/lib/edpbench/edpbench-job).
#
#   1. edpbench run --config $EDPBENCH_CONFIG --out /var/lib/edpbench/<UTC timestamp>
#   2. edpbench recommend <dir>/results.csv --csv /var/lib/edpbench/recommendation.csv
#
# Resume: /var/lib/edpbench/current is a symlink to the sweep in progress. It is
# created before the sweep starts and removed only when the sweep completed, so
# after a crash, a power cut or SIGKILL the next start (Restart=on-failure, the
# timer, or a manual `systemctl start edpbench`) continues that sweep with
# `edpbench run --resume` instead of starting over. `latest` points at the last
# completed sweep.
#
# A resume refused with exit 2 abandons the unfinished sweep only when the
# config itself changed since the sweep started: the job records a sha256 of
# the config file and EDPBENCH_RUN_ARGS in $STATE_DIRECTORY/current.config-sha256
# when it starts a sweep. With the same config, exit 2 has a transient cause
# (a power source not present yet at boot, another edpbench holding the
# directory, a config typo fixed since); `current` is kept, the journal says
# so, and the job exits 75 so that systemd retries later (Restart=on-failure).
#
# Exit status is edpbench's: 0 ok, 1 runtime failure (systemd restarts and we
# resume), 2 usage/config error (no restart: fix /etc/edpbench/config.yaml),
# 130/143 interrupted after saving (the next start resumes); 75: the resume
# failed for a transient reason and is retried later; and 3: the sweep
# completed but `edpbench recommend` failed (no restart: a new sweep would
# not help).
set -u

state_dir="${STATE_DIRECTORY:-/var/lib/edpbench}"
config="${EDPBENCH_CONFIG:-/etc/edpbench/config.yaml}"
bin="${EDPBENCH_BIN:-/usr/bin/edpbench}"
objective="${EDPBENCH_OBJECTIVE:-edp}"
# In-process retries, for systemd < 244 where a Type=oneshot unit cannot use
# Restart=on-failure (JetPack 4 has systemd 237; see packaging/postinst).
retries="${EDPBENCH_RETRIES:-0}"
retry_sleep_s="${EDPBENCH_RETRY_SLEEP_S:-60}"

log() { echo "edpbench-job: $*" >&2; }

# systemd sends SIGTERM to every process of the unit. edpbench saves what it
# has and exits 143; this shell waits for it and passes that status on. A
# trap (not an ignore) so that edpbench itself still gets the default action.
interrupted=0
trap 'interrupted=143' TERM
trap 'interrupted=130' INT HUP

current="$state_dir/current"
hash_file="$state_dir/current.config-sha256"

# The config as the sweep sees it: the file and the filters of EDPBENCH_RUN_ARGS.
config_hash() {
  { cat "$config" 2>/dev/null || echo "(unreadable)"; printf '\n%s\n' "${EDPBENCH_RUN_ARGS:-}"; } |
    sha256sum | cut -d ' ' -f 1
}

# run_sweep DIR [--resume]
run_sweep() {
  log "$bin run --config $config --out $1 $2"
  # shellcheck disable=SC2086  # EDPBENCH_RUN_ARGS is a word list by design
  "$bin" run --config "$config" --out "$1" $2 ${EDPBENCH_RUN_ARGS:-}
}

start_new() {
  stamp="$(date -u +%Y%m%dT%H%M%SZ)"
  n=0
  while [ -e "$state_dir/$stamp" ]; do n=$((n + 1)); stamp="$(date -u +%Y%m%dT%H%M%SZ)-$n"; done
  config_hash > "$hash_file.new" && mv -f "$hash_file.new" "$hash_file"
  ln -sfn "$stamp" "$current"
  run_dir="$state_dir/$stamp"
  log "starting sweep $run_dir"
  run_sweep "$run_dir" ""
}

attempt=0
while :; do
  rc=0
  if [ -L "$current" ] && [ -n "$(readlink "$current")" ] && [ -d "$state_dir/$(readlink "$current")" ]; then
    run_dir="$state_dir/$(readlink "$current")"
    log "resuming unfinished sweep $run_dir"
    run_sweep "$run_dir" --resume || rc=$?
    if [ "$rc" -eq 2 ] && [ "$interrupted" -eq 0 ]; then
      old_hash="$(cat "$hash_file" 2>/dev/null || true)"
      new_hash="$(config_hash)"
      if [ -n "$old_hash" ] && [ "$old_hash" != "$new_hash" ]; then
        # The config changed since the sweep started: it cannot be continued.
        # Keep it for inspection and start over; a genuinely bad config fails
        # again below with 2.
        log "cannot resume $run_dir (exit 2): $config changed since the sweep started" \
          "(sha256 $old_hash -> $new_hash); keeping it for inspection, starting a new sweep"
        rm -f "$current" "$hash_file"
        rc=0
        start_new || rc=$?
      else
        # Same config (or a sweep from before the hash was recorded): the
        # cause is transient. Keep the sweep; systemd retries later.
        log "cannot resume $run_dir (exit 2, see edpbench's message above), but the config" \
          "is unchanged${old_hash:+ (sha256 $old_hash)}: keeping it as the current sweep;" \
          "the next start retries (to abandon it: rm $current)"
        rc=75
      fi
    fi
  else
    rm -f "$current"
    start_new || rc=$?
  fi

  [ "$interrupted" -ne 0 ] && [ "$rc" -eq 0 ] && rc=$interrupted
  case "$rc" in
    0) break ;;
    2) log "configuration or usage error (exit 2): fix $config, then systemctl start edpbench"
       rm -f "$current" "$hash_file"   # a fresh sweep that never started: nothing to resume
       exit 2 ;;
    130|143) log "interrupted (exit $rc); the next start resumes $run_dir"
       exit "$rc" ;;
  esac
  if [ "$attempt" -ge "$retries" ] || [ "$interrupted" -ne 0 ]; then
    log "sweep failed (exit $rc); the next start resumes $run_dir"
    exit "$rc"
  fi
  attempt=$((attempt + 1))
  log "sweep failed (exit $rc); retry $attempt/$retries in ${retry_sleep_s}s"
  sleep "$retry_sleep_s" || true
  if [ "$interrupted" -ne 0 ]; then
    log "stopped while waiting to retry; the next start resumes $run_dir"
    exit "$interrupted"
  fi
done

# The sweep is complete: it is no longer "current".
rm -f "$current" "$hash_file"
ln -sfn "$(basename "$run_dir")" "$state_dir/latest.new" && mv -Tf "$state_dir/latest.new" "$state_dir/latest"

# Recommendation, replaced atomically so that readers never see half a file.
rec="$state_dir/recommendation.csv"
log "$bin recommend $run_dir/results.csv --objective $objective --csv $rec"
rc=0
# shellcheck disable=SC2086
"$bin" recommend "$run_dir/results.csv" --objective "$objective" --csv "$rec.tmp" \
  ${EDPBENCH_RECOMMEND_ARGS:-} || rc=$?
if [ "$rc" -ne 0 ]; then
  rm -f "$rec.tmp"
  log "recommend failed (exit $rc); the sweep is complete in $run_dir"
  # Exit 3, not edpbench's 1: the sweep is complete, and a restart would
  # start a new one (hours) to fail the same way; the unit has
  # RestartPreventExitStatus=3. Typical cause: no energy was measured (no
  # power source), so EDP/energy cannot decide; EDPBENCH_OBJECTIVE=time can.
  exit 3
fi
mv -f "$rec.tmp" "$rec"
# --remove-destination: a link planted at the destination is replaced, not written through
cp --remove-destination "$rec" "$run_dir/recommendation.csv" 2>/dev/null || true
log "done: $run_dir/results.csv, $rec"
exit 0
