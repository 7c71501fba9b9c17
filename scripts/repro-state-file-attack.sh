#!/bin/sh
# Reproduces the tampered-state-file attacks of issue 20 item 1 against an
# edpbench binary; prints per attack: exit code, the first message, whether the
# script named in nvpmodel_tool= ran, and the victim file's content.
# docs/reliability.md has the table of outcomes before and after.
# usage: scripts/repro-state-file-attack.sh EDPBENCH
set -u
src="$(cd "$(dirname "$0")/.." && pwd)"
B="$1"
T=$(mktemp -d)
cp -r "$src"/tests/fixtures/platform/tx2 $T/root
chmod -R u+w $T/root
echo precious > $T/victim.conf
printf '#!/bin/sh\ntouch %s/script-ran\n' "$T" > $T/evil.sh; chmod +x $T/evil.sh
st() { printf 'version=1\nsysfs_root=%s\nnvpmodel_id=0\nnvpmodel_tool=%s/evil.sh\npid=999999999\n%s\n' "$1" "$T" "$2" > $T/state.txt; }
show() { rc=0; out=$("$@" 2>&1) || rc=$?; echo "rc=$rc | $(echo "$out" | head -c 260 | tr '\n' ' ') | script-ran=$([ -e $T/script-ran ] && echo YES || echo no) victim=$(cat $T/victim.conf)"; rm -f $T/script-ran; echo precious > $T/victim.conf; }
C=/sys/devices/system/cpu/cpu
echo "== attack, real root, as $(id -un)"; st "" "file=$T/victim.conf=PWNED"; show $B restore --state $T/state.txt
echo "== attack --allow-root"; st "" "file=$T/victim.conf=PWNED"; show $B restore --allow-root --state $T/state.txt
echo "== attack, fake root"; st "$T/root" "file=$T/victim.conf=PWNED"; show $B restore --state $T/state.txt
echo "== traversal"; st "$T/root" "file=${C}1/../../../../../../victim.conf=PWNED"; show $B restore --state $T/state.txt
echo "== not a clock file"; st "$T/root" "file=/sys/devices/system/cpu/cpu0/cpufreq/scaling_available_frequencies=1"; show $B restore --state $T/state.txt
echo "== out of range"; st "$T/root" "file=${C}0/cpufreq/scaling_max_freq=99999999"; show $B restore --state $T/state.txt
echo "== governor"; st "$T/root" "file=${C}0/cpufreq/scaling_governor=evil"; show $B restore --state $T/state.txt
echo "== online=2"; st "$T/root" "file=${C}1/online=2"; show $B restore --state $T/state.txt
mv $T/root$C'1/online' $T/online.bak; ln -s $T/victim.conf $T/root$C'1/online'
echo "== planted symlink"; st "$T/root" "file=${C}1/online=1"; show $B restore --state $T/state.txt
rm $T/root$C'1/online'; mv $T/online.bak $T/root$C'1/online'
echo 0 > $T/root$C'1/online'
echo "== valid (tool named, cpu1 online 0 -> 1)"; st "$T/root" "file=${C}1/online=1"; show $B restore --state $T/state.txt; echo "cpu1/online now $(cat $T/root${C}1/online)"
rm -rf $T
