// `edpbench exporter` as a user runs it (DESIGN §12): a bad --listen is exit
// 2 before anything listens, and on the fake TX2 tree /metrics serves the
// board's rails over HTTP (fetched with curl; skipped without it).
#include <catch2/catch.hpp>

#include "edpbench/config.h"
#include "edpbench/exporter_config.h"
#include "support/fixtures.h"
#include "support/process.h"

using edp::testing::edpbench;

using edp::testing::kTx2Rails;

namespace {

// The start of a client script: the exporter on the power tree `root`, on
// any free loopback port, in the background ($pid), its stderr in DIR/err;
// the script waits until it says where it serves ($port).
std::string start_exporter(const std::string& dir, const std::string& root, int duration_s) {
  return std::string(EDPBENCH_BINARY) + " exporter --power-source jetson --sysfs-root " + root +
         " --listen 127.0.0.1:0 --duration-s " + std::to_string(duration_s) + " 2>" + dir +
         "/err & pid=$!\n"
         "port=\n"
         "for i in $(seq 1 100); do\n"
         "  port=$(sed -n 's|^edpbench: exporter: serving "
         "http://127.0.0.1:\\([0-9]*\\)/metrics$|\\1|p' " +
         dir +
         "/err)\n"
         "  [ -n \"$port\" ] && break; sleep 0.1\n"
         "done\n";
}
}  // namespace

#if EDPBENCH_HAVE_PROMETHEUS

TEST_CASE("exporter refuses a bad --listen with exit 2 and says how to write one", "[cli]") {
  for (const char* bad : {"9477", "board.local:9477", "127.0.0.1:70000", "[::1]"}) {
    INFO(bad);
    const auto r = edpbench(std::string("exporter --power-source jetson --sysfs-root ") +
                            kTx2Rails + " --listen '" + bad + "' --duration-s 1");
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains(bad) && Catch::Contains("127.0.0.1:9477"));
  }
}

TEST_CASE("exporter serves the TX2's rails on /metrics over HTTP", "[cli]") {
  if (edp::testing::run("command -v curl").exit_code != 0) {
    WARN("skipped: curl is not installed");
    return;
  }
  const std::string dir = edp::testing::temp_dir("exporter");
  // The exporter on any free loopback port; the script reads which from its
  // stderr, fetches /metrics twice and stops it.
  const std::string script =
      std::string(EDPBENCH_BINARY) + " exporter --power-source jetson --sysfs-root " + kTx2Rails +
      " --listen 127.0.0.1:0 --duration-s 20 2>" + dir +
      "/err & pid=$!; port=; for i in $(seq 1 100); do port=$(sed -n "
      "'s|^edpbench: exporter: serving http://127.0.0.1:\\([0-9]*\\)/metrics$|\\1|p' " +
      dir +
      "/err); [ -n \"$port\" ] && break; sleep 0.1; done; sleep 0.5; curl -sf "
      "http://127.0.0.1:$port/metrics >" +
      dir +
      "/m1 && sleep 0.6 && curl -sf http://127.0.0.1:$port/metrics; rc=$?; kill $pid; "
      "wait $pid; echo \"exporter exit $?\" >&2; exit $rc";
  const auto r = edp::testing::run("sh -c '" + [&] {
    std::string q;
    for (char c : script) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q;
  }() + "'");
  INFO(r.err << edp::testing::slurp(dir + "/err"));
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.err, Catch::Contains("exporter exit 143"));  // SIGTERM: 128 + 15
  CHECK_THAT(r.out, Catch::Contains("edpbench_rail_power_watts{rail=\"VDD_IN\",sensor=\"jetson\"} "
                                    "1.929"));
  CHECK_THAT(r.out, Catch::Contains("edpbench_board_info{"));
  CHECK_THAT(r.out, Catch::Contains("total_rails=\"VDD_IN\""));
  // The fixture's files never change: a constant 1.929 W, integrated.
  const auto joules = [](const std::string& text) {
    const std::string key = "\nedpbench_energy_joules_total ";
    const size_t at = text.find(key);
    return at == std::string::npos ? -1.0 : std::stod(text.substr(at + key.size()));
  };
  const double j1 = joules(edp::testing::slurp(dir + "/m1")), j2 = joules(r.out);
  REQUIRE(j1 >= 0);
  CHECK(j2 > j1);
  // The fake tree's files never change, so the sensor reads as frozen after
  // a few expected updates; the flag is served either way.
  CHECK_THAT(r.out, Catch::Contains("edpbench_sensor_frozen "));
}

TEST_CASE("exporter: a request body is refused unread, idle connections do not stop scrapes",
          "[cli]") {
  if (edp::testing::run("command -v curl && command -v bash").exit_code != 0) {
    WARN("skipped: curl or bash is not installed");
    return;
  }
  const std::string dir = edp::testing::temp_dir("exporter-clients");
  // 1 MB POSTed to /metrics, and 1 MB sent chunked with a GET: refused
  // before they are read. Then
  // six connections that send nothing (bash's /dev/tcp), more than the
  // serving threads: each is closed after the 2 s read timeout, so a scrape
  // 2.5 s later is answered within 2 s.
  edp::testing::write_text(
      dir + "/client.sh",
      start_exporter(dir, kTx2Rails, 30) +
          "head -c 1000000 /dev/zero | curl -s -o /dev/null -w 'post %{http_code}\\n' "
          "--data-binary @- http://127.0.0.1:$port/metrics\n"
          "head -c 1000000 /dev/zero | curl -s -o /dev/null -w 'chunked %{http_code}\\n' "
          "-X GET -H 'Transfer-Encoding: chunked' --data-binary @- "
          "http://127.0.0.1:$port/metrics\n"
          "for i in 1 2 3 4 5 6; do bash -c \"exec 3<>/dev/tcp/127.0.0.1/$port; sleep 8\" & done\n"
          "sleep 2.5\n"
          "curl -s -m 2 -o /dev/null -w 'scrape %{http_code}\\n' http://127.0.0.1:$port/metrics\n"
          "kill $pid; wait $pid\n");
  const auto r = edp::testing::run("sh " + dir + "/client.sh");
  INFO(r.err << edp::testing::slurp(dir + "/err"));
  // Any method but GET and HEAD, and any body (a chunked one too, which
  // httplib 0.11 would read whole), is answered before the body is read.
  CHECK_THAT(r.out, Catch::Contains("post 405"));
  CHECK_THAT(r.out, Catch::Contains("chunked 413"));
  CHECK_THAT(r.out, Catch::Contains("scrape 200"));
}

TEST_CASE("exporter: a client trickling its headers does not hold up a stop", "[cli]") {
  if (edp::testing::run("command -v bash").exit_code != 0) {
    WARN("skipped: bash is not installed");
    return;
  }
  const std::string dir = edp::testing::temp_dir("exporter-stop");
  // Review: a client sending one header byte a second kept a worker reading
  // (each byte restarts the 2 s read timeout), and SIGTERM waited for it
  // until the client gave up: 30 s, past the unit's TimeoutStopSec.
  edp::testing::write_text(
      dir + "/client.sh",
      start_exporter(dir, kTx2Rails, 60) +
          "bash -c \"exec 3<>/dev/tcp/127.0.0.1/$port; printf 'GET /metrics HTTP/1.1\\r\\n' >&3; "
          "for i in \\$(seq 1 40); do printf X >&3 || exit; sleep 0.5; done\" &\n"
          "client=$!\n"
          "sleep 1.5\n"
          "start=$(date +%s%N)\n"
          "kill $pid; wait $pid; rc=$?\n"
          "end=$(date +%s%N)\n"
          "kill $client 2>/dev/null\n"
          "echo \"exit $rc after $(( (end - start) / 1000000 )) ms\"\n");
  const auto r = edp::testing::run("sh " + dir + "/client.sh");
  const std::string err = edp::testing::slurp(dir + "/err");
  INFO(r.out << r.err << err);
  REQUIRE_THAT(r.out, Catch::Contains("exit 143 after "));
  const long ms = std::stol(r.out.substr(r.out.find("after ") + 6));
  CHECK(ms < 3000);
  CHECK_THAT(err, Catch::Contains("a client still holds a connection; stopping without it"));
}

TEST_CASE("exporter: the info metric follows a change of the power mode", "[cli]") {
  if (edp::testing::run("command -v curl").exit_code != 0) {
    WARN("skipped: curl is not installed");
    return;
  }
  // The TX2's platform tree (nvpmodel status) with its INA3221 rails.
  const std::string dir = edp::testing::temp_dir("exporter-mode");
  REQUIRE(edp::testing::run("cp -r " EDPBENCH_FIXTURES "/platform/tx2/. " + dir +
                            "/tree && cp -r " + kTx2Rails + "/. " + dir + "/tree")
              .exit_code == 0);
  edp::testing::write_text(dir + "/tree/var/lib/nvpmodel/status", "pmode:0000\n");
  edp::testing::write_text(
      dir + "/client.sh",
      start_exporter(dir, dir + "/tree", 30) +
          "curl -sf http://127.0.0.1:$port/metrics | grep '^edpbench_board_info'\n"
          "echo pmode:0001 > " +
          dir +
          "/tree/var/lib/nvpmodel/status\n"
          "sleep 1.2\n"
          "curl -sf http://127.0.0.1:$port/metrics | grep '^edpbench_board_info'\n"
          "kill $pid; wait $pid\n");
  const auto r = edp::testing::run("sh " + dir + "/client.sh");
  INFO(r.out << r.err << edp::testing::slurp(dir + "/err"));
  // The tree's nvpmodel.conf: mode 0 is MAXN, mode 1 MAXQ.
  const size_t first = r.out.find("nvpmodel=\"MAXN\"");
  const size_t second = r.out.find("nvpmodel=\"MAXQ\"");
  REQUIRE(first != std::string::npos);
  REQUIRE(second != std::string::npos);
  CHECK(first < second);
}

#endif  // EDPBENCH_HAVE_PROMETHEUS
