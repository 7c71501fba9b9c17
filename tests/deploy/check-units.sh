#!/bin/sh
# The systemd units load cleanly (systemd-analyze verify prints nothing) and
# the service's exposure score is 2.0 or lower (systemd-analyze security).
# usage: check-units.sh SOURCE_DIR        exit 77 = skipped (no systemd-analyze)
set -eu
src="$(cd "$1" && pwd)"
if ! command -v systemd-analyze >/dev/null 2>&1; then
  echo "SKIP: systemd-analyze not found (apt-get install systemd)"; exit 77
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# verify checks that ExecStart= is an executable file, and the package installs
# the job as /usr/lib/edpbench/edpbench-job: point a copy of the unit at the
# job script in the source tree instead. Everything else is checked as shipped.
job="$src/systemd/edpbench-job.sh"
[ -x "$job" ] || { echo "FAIL: $job is not executable"; exit 1; }
sed "s|^ExecStart=/usr/lib/edpbench/edpbench-job\$|ExecStart=$job|" \
  "$src/systemd/edpbench.service" > "$tmp/edpbench.service"
grep -q "^ExecStart=$job\$" "$tmp/edpbench.service" \
  || { echo "FAIL: edpbench.service has no ExecStart=/usr/lib/edpbench/edpbench-job"; exit 1; }
cp "$src/systemd/edpbench.timer" "$tmp/"

out="$(cd "$tmp" && systemd-analyze verify "$tmp/edpbench.service" "$tmp/edpbench.timer" 2>&1)" \
  || { echo "FAIL: systemd-analyze verify:"; echo "$out"; exit 1; }
if [ -n "$out" ]; then
  echo "FAIL: systemd-analyze verify is not clean:"; echo "$out"; exit 1
fi
echo "ok: systemd-analyze verify edpbench.service edpbench.timer"

# No I2C bus is open as shipped (char-i2c would open every one); the shipped
# drop-in opens exactly one node, and the unit still verifies with it.
if grep -Eq '^DeviceAllow=(char-i2c|/dev/i2c)' "$src/systemd/edpbench.service"; then
  echo "FAIL: edpbench.service opens I2C buses itself; that belongs in the drop-in"; exit 1
fi
dropin="$src/packaging/edpbench-i2c.service.conf"
[ "$(grep -c '^DeviceAllow=' "$dropin")" -eq 1 ] && grep -q '^DeviceAllow=/dev/i2c-[0-9][0-9]* rw$' "$dropin" \
  || { echo "FAIL: $dropin must allow exactly one /dev/i2c-N"; exit 1; }
mkdir -p "$tmp/with-i2c/edpbench.service.d"
cp "$tmp/edpbench.service" "$tmp/edpbench.timer" "$tmp/with-i2c/"
cp "$dropin" "$tmp/with-i2c/edpbench.service.d/i2c.conf"
out="$(cd "$tmp/with-i2c" && SYSTEMD_UNIT_PATH="$tmp/with-i2c:" systemd-analyze verify \
  "$tmp/with-i2c/edpbench.service" 2>&1)" || { echo "FAIL: verify with the i2c drop-in:"; echo "$out"; exit 1; }
[ -z "$out" ] || { echo "FAIL: verify with the i2c drop-in is not clean:"; echo "$out"; exit 1; }
echo "ok: no I2C bus as shipped; the i2c drop-in opens one and verifies"

# --offline needs systemd >= 250.
sec="$(systemd-analyze security --offline=true --no-pager "$src/systemd/edpbench.service" 2>&1)" || true
line="$(printf '%s\n' "$sec" | grep 'Overall exposure level for edpbench.service:' || true)"
if [ -z "$line" ]; then
  if printf '%s\n' "$sec" | grep -q -- "--offline"; then
    echo "SKIP: this systemd-analyze has no --offline (needs systemd >= 250)"; exit 77
  fi
  echo "FAIL: no 'Overall exposure level' line from systemd-analyze security:"; echo "$sec"; exit 1
fi
score="$(printf '%s\n' "$line" | sed 's/.*edpbench.service: *\([0-9][0-9]*\.[0-9]\).*/\1/')"
echo "$line"
if ! awk -v s="$score" 'BEGIN { exit !(s + 0 <= 2.0) }'; then
  echo "FAIL: exposure score $score exceeds 2.0. Exposed settings:"
  printf '%s\n' "$sec" | grep '✗' || true
  exit 1
fi

# The exporter's unit: verify (its ExecStart pointed at an executable that
# exists here), hardening as the checklist of issue 36 asks, score <= 2.0.
exp="$src/systemd/edpbench-exporter.service"
for k in '^User=edpbench$' '^ProtectSystem=strict$' '^ReadOnlyPaths=' '^NoNewPrivileges=yes$' \
         '^CapabilityBoundingSet=$' '^PrivateTmp=yes$' '^ProtectHome=yes$' '^WantedBy=multi-user.target$' \
         '^ExecStart=/usr/bin/edpbench exporter --listen '; do
  grep -q "$k" "$exp" || { echo "FAIL: edpbench-exporter.service lacks $k"; exit 1; }
done
grep -q '^Environment=EDPBENCH_EXPORTER_LISTEN=127\.0\.0\.1:' "$exp" \
  || { echo "FAIL: edpbench-exporter.service does not listen on the loopback by default"; exit 1; }
sed "s|^ExecStart=/usr/bin/edpbench |ExecStart=$(command -v true) |" "$exp" > "$tmp/edpbench-exporter.service"
out="$(cd "$tmp" && systemd-analyze verify "$tmp/edpbench-exporter.service" 2>&1)" \
  || { echo "FAIL: systemd-analyze verify edpbench-exporter.service:"; echo "$out"; exit 1; }
[ -z "$out" ] || { echo "FAIL: verify edpbench-exporter.service is not clean:"; echo "$out"; exit 1; }
esec="$(systemd-analyze security --offline=true --no-pager "$exp" 2>&1)" || true
eline="$(printf '%s\n' "$esec" | grep 'Overall exposure level for edpbench-exporter.service:' || true)"
[ -n "$eline" ] || { echo "FAIL: no exposure level for edpbench-exporter.service:"; echo "$esec"; exit 1; }
escore="$(printf '%s\n' "$eline" | sed 's/.*service: *\([0-9][0-9]*\.[0-9]\).*/\1/')"
echo "$eline"
awk -v s="$escore" 'BEGIN { exit !(s + 0 <= 2.0) }' \
  || { echo "FAIL: edpbench-exporter.service exposure $escore exceeds 2.0"; exit 1; }
echo "ok: edpbench-exporter.service verifies, exposure $escore <= 2.0"

# The maintainer scripts and the job are POSIX sh (dash on Ubuntu).
for f in "$src"/packaging/postinst "$src"/packaging/prerm "$src"/packaging/postrm "$job"; do
  sh -n "$f" || { echo "FAIL: syntax error in $f"; exit 1; }
done
echo "ok: exposure $score <= 2.0"
