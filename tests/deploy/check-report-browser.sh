#!/bin/sh
# The HTML report in a real browser (issue 15): `edpbench report` on the
# tx2_sweep fixture, loaded in Debian's headless Chromium at a desktop and a
# phone width. Checks that the page logs no console error, that every figure
# (svg.chart) is laid out with a nonzero size, that at the phone's width the
# page does not overflow sideways (wide tables scroll inside their own box) and
# its text (paragraphs, cells, headings,
# captions) is at least 12 px, and that nothing is fetched from the network.
# Screenshots go to OUT_DIR (report-desktop.png, report-phone.png).
# Exits 77 (skip) when Chromium is not installed.
#
# With more fixture directories after OUT_DIR, the report is the cross-board
# report over all of them (issue 25).
#
# usage: check-report-browser.sh EDPBENCH FIXTURE_DIR OUT_DIR [FIXTURE_DIR...]
set -eu
edpbench="$1"; fixture="$2"; out="$3"; shift 3
chromium="${CHROMIUM:-}"
if [ -z "$chromium" ]; then
  for c in chromium chromium-browser google-chrome; do
    if command -v "$c" >/dev/null 2>&1; then chromium="$(command -v "$c")"; break; fi
  done
fi
if [ -z "$chromium" ]; then
  echo "SKIP: no Chromium (apt-get install chromium; scripts/setup-deps.sh installs it)"
  exit 77
fi
mkdir -p "$out"
out="$(cd "$out" && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cp -r "$fixture" "$tmp/sweep"
set -- "$tmp/sweep" "$@"
"$edpbench" report "$@" -o "$tmp/report.html" >/dev/null 2>&1
expected=$(grep -o '<svg[^>]*class="chart"' "$tmp/report.html" | wc -l)
[ "$expected" -gt 0 ] || { echo "FAIL: the report has no figure"; exit 1; }
if grep -Eq '(src|href)="(https?:)?//' "$tmp/report.html"; then
  echo "FAIL: the report refers to the network:"
  grep -Eo '(src|href)="(https?:)?//[^"]*' "$tmp/report.html" | head -5
  exit 1
fi

browse() {  # browse LOG ARGS... : headless Chromium, no network, no profile
  log="$1"; shift
  "$chromium" --headless --no-sandbox --disable-gpu --no-first-run --disable-sync \
    --disable-background-networking --disable-component-update --disable-quic \
    --host-resolver-rules="MAP * ~NOTFOUND" --user-data-dir="$tmp/profile" \
    --enable-logging=stderr --v=0 --hide-scrollbars --virtual-time-budget=5000 "$@" 2>"$log"
}

# The probe page loads the report in same-origin iframes (file URLs are one
# origin with --allow-file-access-from-files) and writes what it measured
# into its own DOM, which --dump-dom prints.
cat > "$tmp/probe.html" <<'HTML'
<!DOCTYPE html><html><body><pre id="out"></pre>
<iframe id="desktop" src="report.html" style="width:1280px;height:900px;border:0"></iframe>
<iframe id="phone" src="report.html" style="width:390px;height:844px;border:0"></iframe>
<script>
function measure(id) {
  const doc = document.getElementById(id).contentDocument;
  const win = document.getElementById(id).contentWindow;
  const lines = [];
  const charts = doc.querySelectorAll('svg.chart');
  let empty = 0;
  charts.forEach(function (s) {
    const r = s.getBoundingClientRect();
    if (!(r.width > 0 && r.height > 0)) empty++;
  });
  lines.push(id + ' charts ' + charts.length + ' empty ' + empty);
  lines.push(id + ' overflow ' + Math.max(0, doc.documentElement.scrollWidth - win.innerWidth));
  let small = 0, smallest = 1e9;
  doc.querySelectorAll('p, li, td, th, figcaption, dt, dd, h1, h2, h3, summary').forEach(function (e) {
    if (!e.textContent.trim() || e.getClientRects().length === 0) return;
    const px = parseFloat(win.getComputedStyle(e).fontSize);
    smallest = Math.min(smallest, px);
    if (px < 12) small++;
  });
  lines.push(id + ' small_text ' + small + ' smallest_px ' + smallest);
  return lines.join('\n');
}
window.addEventListener('load', function () {
  document.getElementById('out').textContent =
      'PROBE\n' + measure('desktop') + '\n' + measure('phone') + '\nEND';
});
</script></body></html>
HTML
cp "$tmp/report.html" "$out/report.html"
browse "$tmp/probe.log" --allow-file-access-from-files --dump-dom "file://$tmp/probe.html" \
  > "$tmp/dom.html" || true
result=$(sed -n '/id="out">PROBE$/,/^END<\/pre>/p' "$tmp/dom.html" | sed '1d;$d')
if [ -z "$result" ]; then
  echo "FAIL: Chromium produced no measurement"; tail -20 "$tmp/probe.log"; exit 1
fi
echo "$result"
fail=0
if grep -E 'CONSOLE|Uncaught|SyntaxError|ReferenceError|TypeError' "$tmp/probe.log" >"$tmp/console"; then
  echo "FAIL: console messages:"; cat "$tmp/console"; fail=1
fi
for id in desktop phone; do
  n=$(echo "$result" | awk -v id="$id" '$1 == id && $2 == "charts" {print $3}')
  e=$(echo "$result" | awk -v id="$id" '$1 == id && $2 == "charts" {print $5}')
  [ "$n" = "$expected" ] || { echo "FAIL ($id): $n figures laid out, the page has $expected"; fail=1; }
  [ "$e" = 0 ] || { echo "FAIL ($id): $e figures have no size"; fail=1; }
done
over=$(echo "$result" | awk '$1 == "phone" && $2 == "overflow" {print $3}')
[ "$over" -le 4 ] || { echo "FAIL (phone): the page is ${over} px wider than the screen"; fail=1; }
small=$(echo "$result" | awk '$1 == "phone" && $2 == "small_text" {print $3}')
[ "$small" = 0 ] || { echo "FAIL (phone): $small text elements smaller than 12 px"; fail=1; }

# Screenshots, to look at (and a check that they are real images).
for shot in desktop:1280,2400 phone:390,2400; do
  name=${shot%%:*}
  browse "$tmp/shot-$name.log" --window-size="${shot#*:}" \
    --screenshot="$out/report-$name.png" "file://$tmp/report.html" >/dev/null || true
  if [ ! -s "$out/report-$name.png" ] || ! head -c 8 "$out/report-$name.png" | grep -q PNG; then
    echo "FAIL: no screenshot $out/report-$name.png"; fail=1
  fi
done
[ $fail -eq 0 ] && echo "OK: $expected figures; screenshots in $out"
exit $fail
