#!/usr/bin/env bash
# CI stage (issue 25): deploy/ansible/site.yml against real hosts of ours.
#
#   1. localhost (connection local): install the .deb, copy the config, run
#      the sweep, wait, fetch results/localhost/, report.
#   2. two "boards": network namespaces of this test (edp-ci-b1, edp-ci-b2),
#      each reached over real SSH: the ProxyCommand starts `sshd -i` inside
#      the namespace (inetd mode: the connection is the pipe, so nothing
#      listens and no address other than the namespaces' own loopback
#      exists). Then `edpbench compare` and the cross-board report here.
#
# Without systemd as PID 1 (containers, most CI machines) the role runs the
# unit's job wrapper directly as user edpbench (edpbench_run_mode=direct);
# with systemd it starts edpbench.service. The job uses the trace power
# source. Needs root (dpkg, namespaces); re-runs itself with sudo otherwise.
# Prints its time. Leaves the package installed only if it was before.
#
# usage: scripts/ci-ansible.sh [--build-dir DIR] [--keep DIR]
set -euo pipefail
start=$(date +%s)
root="$(cd "$(dirname "$0")/.." && pwd)"
build="$root/build"
keep=""
while [ $# -gt 0 ]; do
  case "$1" in
    --build-dir) build="$2"; shift 2 ;;
    --keep) keep="$2"; shift 2 ;;
    *) echo "ci-ansible.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
if [ "$(id -u)" -ne 0 ]; then exec sudo -E "$0" --build-dir "$build" ${keep:+--keep "$keep"}; fi
log() { echo "ci-ansible: $*"; }

# 1. Tools (Debian packages): ansible-playbook, sshd (not started as a
# service), ssh, python3-apt, ip (iproute2: minimal images lack it).
"$root/scripts/setup-deps.sh" --run --ansible
for t in ansible-playbook ssh ip /usr/sbin/sshd; do
  command -v "$t" >/dev/null || { log "FAIL: $t not found after scripts/setup-deps.sh --ansible"; exit 1; }
done
log "tools: $(( $(date +%s) - start )) s"

# 2. The .deb, from the native build of scripts/test.sh (built if absent).
tmp="$(mktemp -d /tmp/edpbench-ansible-XXXXXX)"
chmod 0755 "$tmp"   # the sweep's user reads its config under it
had_pkg=0
dpkg-query -W -f='${Status}' edpbench 2>/dev/null | grep -q "install ok installed" && had_pkg=1
cleanup() {
  for ns in edp-ci-b1 edp-ci-b2; do ip netns del "$ns" 2>/dev/null || true; done
  if [ "$had_pkg" -eq 0 ]; then dpkg -P edpbench >/dev/null 2>&1 || true; fi
  if [ -n "$keep" ]; then mkdir -p "$keep" && cp -r "$tmp/results" "$tmp/results-lab" "$tmp"/*.log "$keep/" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT
if [ ! -f "$build/CPackConfig.cmake" ] || [ ! -x "$build/src/cli/edpbench" ]; then
  cmake -S "$root" -B "$build" -G Ninja >/dev/null
  cmake --build "$build" -j2 --target edpbench
fi
cpack -G DEB --config "$build/CPackConfig.cmake" -B "$tmp/deb" >"$tmp/cpack.log" 2>&1 \
  || { cat "$tmp/cpack.log"; exit 1; }
deb="$(ls "$tmp"/deb/edpbench_*.deb)"
log "package $(basename "$deb"): $(( $(date +%s) - start )) s"

mode=direct
[ -d /run/systemd/system ] && mode=systemd
# Both run paths are static imports: the syntax check parses the systemd one
# too, also where it cannot run.
(cd "$root/deploy/ansible" && ANSIBLE_CONFIG=ansible.cfg ansible-playbook \
  -i inventory.example.yml site.yml --syntax-check >/dev/null)
export ANSIBLE_CONFIG="$root/deploy/ansible/ansible.cfg" ANSIBLE_NOCOLOR=1 \
  ANSIBLE_LOCAL_TEMP="$tmp/ansible-local" ANSIBLE_REMOTE_TMP="$tmp/ansible-remote" \
  ANSIBLE_SSH_CONTROL_PATH_DIR="$tmp/cp"
common=(-e "edpbench_deb=$deb" -e "edpbench_config=$root/deploy/ansible/tests/ci-config.yaml"
        -e "{\"edpbench_files\": [\"$root/tests/fixtures/cli/constant_7w5.csv\"]}"
        -e "edpbench_local_bin=$build/src/cli/edpbench" -e edpbench_poll_s=1
        -e edpbench_timeout_s=240)

# 3. localhost.
t=$(date +%s)
cat > "$tmp/local.ini" <<INI
[boards]
localhost ansible_connection=local ansible_become_method=su ansible_python_interpreter=/usr/bin/python3
INI
mkdir -p "$tmp/local-state"
ansible-playbook -i "$tmp/local.ini" "$root/deploy/ansible/site.yml" "${common[@]}" \
  -e "edpbench_run_mode=$mode" -e "edpbench_results_dir=$tmp/results" \
  -e "edpbench_state_dir=$([ $mode = systemd ] && echo /var/lib/edpbench || echo "$tmp/local-state")" \
  -e "edpbench_config_path=$([ $mode = systemd ] && echo /etc/edpbench/config.yaml || echo "$tmp/local-etc/config.yaml")" \
  >"$tmp/local.log" 2>&1 || { cat "$tmp/local.log"; log "FAIL: the localhost run"; exit 1; }
grep -E '^(PLAY RECAP|localhost )' "$tmp/local.log" | tail -2
test -s "$tmp/results/localhost/results.csv" && test -s "$tmp/results/localhost/runs.csv" \
  && test -s "$tmp/results/localhost/context.json" && test -s "$tmp/results/report.html" \
  || { log "FAIL: results/localhost/ or report.html missing"; ls -R "$tmp/results"; exit 1; }
grep -q '^tensors,small,.*,cpu,1,3,5,ok,' "$tmp/results/localhost/results.csv" \
  || { log "FAIL: no ok row"; cat "$tmp/results/localhost/results.csv"; exit 1; }
log "localhost ($mode): sweep installed, run, fetched, reported: $(( $(date +%s) - t )) s"

# 4. Two boards in network namespaces, over SSH.
t=$(date +%s)
ssh-keygen -q -t ed25519 -N '' -f "$tmp/id" && ssh-keygen -q -t ed25519 -N '' -f "$tmp/hostkey"
cp "$tmp/id.pub" "$tmp/authorized_keys"
cat > "$tmp/sshd_config" <<CFG
HostKey $tmp/hostkey
AuthorizedKeysFile $tmp/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
Subsystem sftp internal-sftp
CFG
mkdir -p /run/sshd   # sshd's privilege-separation directory
printf '[boards]\n' > "$tmp/lab.ini"
for b in b1 b2; do
  ns="edp-ci-$b"
  ip netns del "$ns" 2>/dev/null || true
  ip netns add "$ns"
  ip netns exec "$ns" ip link set lo up
  mkdir -p "$tmp/$b-state" "$tmp/$b-etc"
  echo "$b ansible_host=$ns ansible_user=root ansible_become_method=su ansible_python_interpreter=/usr/bin/python3 ansible_ssh_private_key_file=$tmp/id ansible_ssh_common_args='-o ProxyCommand=\"ip netns exec $ns /usr/sbin/sshd -i -f $tmp/sshd_config\" -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null' edpbench_state_dir=$tmp/$b-state edpbench_config_path=$tmp/$b-etc/config.yaml" >> "$tmp/lab.ini"
done
ansible-playbook -i "$tmp/lab.ini" "$root/deploy/ansible/site.yml" "${common[@]}" \
  -e edpbench_run_mode=direct -e "edpbench_results_dir=$tmp/results-lab" \
  >"$tmp/lab.log" 2>&1 || { cat "$tmp/lab.log"; log "FAIL: the two-board run"; exit 1; }
grep -E '^(b1|b2) ' "$tmp/lab.log" | tail -2
for b in b1 b2; do
  test -s "$tmp/results-lab/$b/results.csv" || { log "FAIL: results/$b/ missing"; exit 1; }
done
grep -q 'edpbench compare: b1 (base) vs b2' "$tmp/results-lab/compare.txt" \
  && grep -q 'tensors/small/cpu' "$tmp/results-lab/compare.txt" \
  && grep -q 'cross-board report' "$tmp/results-lab/report.html" \
  || { log "FAIL: compare.txt or the cross-board report"; cat "$tmp/results-lab/compare.txt"; exit 1; }
sed -n '1,12p' "$tmp/results-lab/compare.txt"
log "two boards in network namespaces over SSH (direct): $(( $(date +%s) - t )) s"
log "OK: total $(( $(date +%s) - start )) s"
