// Issue 33: reading is as untrusted as writing. The directories `report`,
// `compare`, `recommend` and `run --resume` read may be written by the
// service user, and an administrator runs them (docs/deployment.md: `sudo
// edpbench report /var/lib/edpbench/latest`). Real symbolic links, real
// FIFOs (mkfifo) and real devices are planted in a copy of a fixture sweep.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "support/process.h"

using edp::testing::edpbench;
using edp::testing::slurp;
using edp::testing::write_text;

namespace {

const std::string kTx2 = EDPBENCH_FIXTURES "/report/tx2_sweep";

// A copy of the TX2 fixture sweep and a secret beside it.
struct Planted {
  std::string root = edp::testing::temp_dir("untrusted");
  std::string dir = root + "/sweep";
  std::string secret = root + "/secret";
  Planted() {
    ::mkdir(dir.c_str(), 0755);
    for (const char* f : {"results.csv", "runs.csv", "context.json"})
      write_text(dir + "/" + f, slurp(kTx2 + "/" + f));
    // JSON, so that the report of the code before drew it as the context.
    write_text(secret, "{\"board\": {\"model\": \"SECRET-HASH\"}}\n");
  }
  void link(const std::string& name) {
    ::unlink((dir + "/" + name).c_str());
    REQUIRE(::symlink(secret.c_str(), (dir + "/" + name).c_str()) == 0);
  }
};

}  // namespace

TEST_CASE("report refuses a planted context.json link and copies nothing into report.html",
          "[cli][untrusted]") {
  // The audit's case: `ln -s /root/secret D/context.json; edpbench report D`
  // wrote the secret into D/report.html (mode 0644).
  for (const char* name : {"context.json", "runs.csv", "results.csv"}) {
    Planted p;
    p.link(name);
    const auto r = edpbench("report " + p.dir);
    INFO(name << ": " << r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find(p.dir + "/" + name + ": not read: it is a symbolic link") !=
          std::string::npos);
    CHECK(r.err.find("SECRET") == std::string::npos);
    CHECK(slurp(p.dir + "/report.html").find("SECRET") == std::string::npos);
  }
}

TEST_CASE("compare and recommend refuse planted links too", "[cli][untrusted]") {
  Planted p;
  p.link("runs.csv");
  auto r = edpbench("compare " + kTx2 + " " + p.dir);
  INFO(r.err);
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("runs.csv: not read: it is a symbolic link") != std::string::npos);
  p.link("results.csv");
  r = edpbench("recommend " + p.dir + "/results.csv");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("results.csv: not read: it is a symbolic link") != std::string::npos);
  CHECK((r.out + r.err).find("SECRET") == std::string::npos);
}
