#!/bin/sh
# The .deb built by CPack installs what docs/deployment.md promises: the
# binary, the job wrapper, the configs and the default environment as
# conffiles, the systemd units (not enabled), and a postinst that creates
# the edpbench system user in the i2c and video groups. Its Architecture
# matches the binary's ELF machine. The monitor API: library, header, CMake
# and pkg-config files, and the Python module where the build made one, each
# shared object built for the package's architecture (an arm64 package holds
# an aarch64 libedpbench-monitor and _edpbench.cpython-3XY-aarch64-linux-gnu.so).
# usage: check-deb.sh BUILD_DIR [DEB]     exit 77 = skipped (no dpkg-deb / cpack)
#   env EDPBENCH_DEB_EXPECT_PYTHON=1: the Python module must be in the package
#   (scripts/ci-cross.sh --deb; the ctest sets it where the build has the module)
set -eu
build="$1"; deb="${2:-}"
command -v dpkg-deb >/dev/null 2>&1 || { echo "SKIP: dpkg-deb not found (apt-get install dpkg)"; exit 77; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

if [ -z "$deb" ]; then
  cpack="${CPACK:-cpack}"
  command -v "$cpack" >/dev/null 2>&1 || { echo "SKIP: cpack not found"; exit 77; }
  command -v dpkg-shlibdeps >/dev/null 2>&1 \
    || { echo "SKIP: dpkg-shlibdeps not found (apt-get install dpkg-dev)"; exit 77; }
  "$cpack" -G DEB --config "$build/CPackConfig.cmake" -B "$tmp/out" > "$tmp/cpack.log" 2>&1 \
    || { cat "$tmp/cpack.log"; fail "cpack failed"; }
  deb="$(ls "$tmp"/out/*.deb)"
fi
echo "package: $deb"

field() { dpkg-deb --field "$deb" "$1"; }
[ "$(field Package)" = edpbench ] || fail "Package is '$(field Package)'"

# Architecture = the binary's.
dpkg-deb -x "$deb" "$tmp/root"
bin="$tmp/root/usr/bin/edpbench"
[ -x "$bin" ] || fail "no executable /usr/bin/edpbench"
elf_arch_of() {  # Debian architecture of an ELF file, from e_machine (little-endian)
  case "$(od -An -t x1 -j 18 -N 2 "$1" | tr -d ' \n')" in
    3e00) echo amd64 ;;
    b700) echo arm64 ;;
    2800) echo armhf ;;
    *)    echo unknown ;;
  esac
}
elf_arch="$(elf_arch_of "$bin")"
[ "$(field Architecture)" = "$elf_arch" ] \
  || fail "Architecture is $(field Architecture) but /usr/bin/edpbench is $elf_arch"
echo "ok: Package edpbench, Architecture $elf_arch"

depends="$(field Depends)"
echo "Depends: $depends"
echo "$depends" | grep -q 'adduser' || fail "Depends lacks adduser (postinst uses it)"
echo "$depends" | grep -q 'libc6' || fail "Depends lacks libc6 (dpkg-shlibdeps did not run?)"
echo "$depends" | grep -q 'libyaml-cpp' || fail "Depends lacks libyaml-cpp"
# `edpbench exporter`'s libraries, when the binary was built with them.
if dpkg-deb --fsys-tarfile "$deb" | tar -xO ./usr/bin/edpbench | grep -aq 'edpbench: exporter: serving'; then
  echo "$depends" | grep -q 'libprometheus-cpp-core' || fail "Depends lacks libprometheus-cpp-core"
  echo "$depends" | grep -q 'libcpp-httplib' || fail "Depends lacks libcpp-httplib"
  echo "ok: Depends has the exporter's libraries"
fi

# File list and modes.
dpkg-deb --contents "$deb" > "$tmp/contents"
for f in ./usr/bin/edpbench ./usr/lib/edpbench/edpbench-job ./usr/lib/edpbench/systemd-pre-244.conf \
         ./usr/lib/edpbench/edpbench-i2c.service.conf \
         ./etc/edpbench/config.yaml ./etc/default/edpbench \
         ./lib/systemd/system/edpbench.service ./lib/systemd/system/edpbench.timer \
         ./lib/systemd/system/edpbench-exporter.service ./usr/share/doc/edpbench/observability.md \
         ./usr/share/man/man1/edpbench.1.gz ./usr/share/bash-completion/completions/edpbench; do
  grep -q " $f\$" "$tmp/contents" || fail "$f missing from the package"
done
grep -q '^-rwxr-xr-x .* ./usr/lib/edpbench/edpbench-job$' "$tmp/contents" || fail "edpbench-job not executable"
# The generated man page renders without warnings; the completion parses.
man1="$tmp/root/usr/share/man/man1/edpbench.1.gz"
gzip -dc "$man1" | grep -q '^\.SS "edpbench measure"' || fail "edpbench.1 lacks the measure command"
if command -v groff >/dev/null 2>&1; then
  warnings="$(gzip -dc "$man1" | groff -man -ww -z 2>&1)"
  [ -z "$warnings" ] || fail "edpbench.1: groff warns: $warnings"
fi
bash -n "$tmp/root/usr/share/bash-completion/completions/edpbench" || fail "the bash completion does not parse"
grep -q '^-rw-r--r-- .* ./etc/edpbench/config.yaml$' "$tmp/contents" || fail "config.yaml mode"
grep -q 'timers.target.wants\|multi-user.target.wants' "$tmp/contents" && fail "the package enables a unit"
for c in "$(dirname "$0")"/../../configs/*.yaml; do
  [ -e "$c" ] || continue
  n="$(basename "$c")"
  grep -q " ./etc/edpbench/$n\$" "$tmp/contents" || fail "configs/$n not installed"
done
echo "ok: files"

# The monitor API (DESIGN §11): library, header, CMake package, pkg-config
# file; the Python module where the build had pybind11 (and, in a cross
# build, -DEDPBENCH_BUILD_PYTHON=ON with the target's Python).
for pat in '/libedpbench-monitor\.so\.0\.[0-9.]*$' '/include/edpbench/monitor\.h$' \
           '/cmake/edpbench/edpbenchConfig\.cmake$' '/cmake/edpbench/edpbenchTargets\.cmake$' \
           '/pkgconfig/edpbench-monitor\.pc$'; do
  grep -q "$pat" "$tmp/contents" || fail "monitor file matching $pat missing from the package"
done
lib="$(find "$tmp/root" -name 'libedpbench-monitor.so.0.*' -type f | head -n 1)"
[ "$(elf_arch_of "$lib")" = "$elf_arch" ] \
  || fail "${lib#"$tmp/root"} is built for $(elf_arch_of "$lib"), the package is $elf_arch"
case "$elf_arch" in  # the multiarch triplet in extension names (EXT_SUFFIX)
  amd64) triplet=x86_64-linux-gnu ;;
  arm64) triplet=aarch64-linux-gnu ;;
  armhf) triplet=arm-linux-gnueabihf ;;
  *)     triplet=unknown ;;
esac
if grep -q '/dist-packages/edpbench/_edpbench\..*\.so$' "$tmp/contents"; then
  grep -q '/dist-packages/edpbench/__init__\.py$' "$tmp/contents" \
    || fail "the Python extension is packaged without edpbench/__init__.py"
  for ext in "$tmp"/root/usr/lib/python3*/dist-packages/edpbench/_edpbench.*so; do
    name="${ext#"$tmp/root"}"
    [ "$(elf_arch_of "$ext")" = "$elf_arch" ] \
      || fail "$name is built for $(elf_arch_of "$ext"), the package is $elf_arch"
    # Python loads only .so, .abi3.so and .cpython-3XY[m]-<triplet>.so.
    case "$name" in
      *.cpython-3*-"$triplet".so|*/_edpbench.so|*.abi3.so) ;;
      *) fail "$name: Python on $elf_arch loads only _edpbench.cpython-3XY-$triplet.so" ;;
    esac
    echo "ok: Python module $name ($elf_arch)"
  done
  echo "ok: monitor library ($elf_arch), header, CMake and pkg-config files, Python module"
elif [ "${EDPBENCH_DEB_EXPECT_PYTHON:-0}" = 1 ]; then
  fail "no Python module (dist-packages/edpbench/_edpbench.*.so) in the package, though the build has one"
else
  echo "ok: monitor library ($elf_arch), header, CMake and pkg-config files (no Python module in this build)"
fi

# conffiles: every file under /etc, nothing else.
dpkg-deb --ctrl-tarfile "$deb" | tar -x -C "$tmp" ./conffiles ./postinst ./prerm ./postrm
sort "$tmp/conffiles" > "$tmp/conffiles.sorted"
grep ' \./etc/.*[^/]$' "$tmp/contents" | sed 's|.* \./|/|' | sort > "$tmp/etcfiles"
diff -u "$tmp/etcfiles" "$tmp/conffiles.sorted" || fail "conffiles differ from the files under /etc"
echo "ok: conffiles $(tr '\n' ' ' < "$tmp/conffiles.sorted")"

# Maintainer scripts.
for s in postinst prerm postrm; do [ -x "$tmp/$s" ] || fail "$s missing or not executable"; done
grep -q 'adduser --system --group --no-create-home --home /var/lib/edpbench' "$tmp/postinst" \
  || fail "postinst does not create the edpbench system user"
grep -q 'addgroup --system' "$tmp/postinst" || fail "postinst does not create missing groups"
grep -q 'for g in i2c video' "$tmp/postinst" || fail "postinst does not handle i2c and video"
grep -q 'systemctl daemon-reload' "$tmp/postinst" || fail "postinst does not reload systemd"
grep -v '^[[:space:]]*#' "$tmp/postinst" | grep -q 'systemctl.*enable\|deb-systemd-helper' \
  && fail "postinst enables a unit (admins enable them explicitly)"
grep -q 'deluser --system' "$tmp/postrm" || fail "postrm purge does not remove the user"
grep -q 'rm -rf /var/lib/edpbench' "$tmp/postrm" || fail "postrm purge does not remove /var/lib/edpbench"

# The installed unit runs the installed job.
grep -q '^ExecStart=/usr/lib/edpbench/edpbench-job$' "$tmp/root/lib/systemd/system/edpbench.service" \
  || fail "edpbench.service does not run /usr/lib/edpbench/edpbench-job"
echo "ok: maintainer scripts and units"
