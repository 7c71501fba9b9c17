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

#include "report/csv.h"
#include "support/fixtures.h"
#include "support/process.h"

using edp::testing::edpbench;
using edp::testing::slurp;
using edp::testing::write_text;

// The 4 GiB address-space limit keeps a runaway read from hurting the
// machine; an AddressSanitizer build reserves terabytes of shadow memory at
// start and cannot run under it (it aborted before main), so there the limit
// is left out and `timeout` alone bounds the command.
#if defined(__SANITIZE_ADDRESS__)
#define EDP_ADDRESS_LIMIT ""
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define EDP_ADDRESS_LIMIT ""
#endif
#endif
#ifndef EDP_ADDRESS_LIMIT
#define EDP_ADDRESS_LIMIT "ulimit -v 4194304; "
#endif

using edp::testing::kConstantTrace;
using edp::testing::kTx2Sweep;

namespace {

// A copy of the TX2 fixture sweep and a secret beside it.
struct Planted {
  std::string root = edp::testing::temp_dir("untrusted");
  std::string dir = root + "/sweep";
  std::string secret = root + "/secret";
  Planted() {
    ::mkdir(dir.c_str(), 0755);
    for (const char* f : {"results.csv", "runs.csv", "context.json"})
      write_text(dir + "/" + f, slurp(kTx2Sweep + "/" + f));
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
  auto r = edpbench("compare " + kTx2Sweep + " " + p.dir);
  INFO(r.err);
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("runs.csv: not read: it is a symbolic link") != std::string::npos);
  p.link("results.csv");
  r = edpbench("recommend " + p.dir + "/results.csv");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("results.csv: not read: it is a symbolic link") != std::string::npos);
  CHECK((r.out + r.err).find("SECRET") == std::string::npos);
}

namespace {

// A finished two-item sweep (reference device, trace power: a second).
std::string finished_sweep(const std::string& root, const std::string& name) {
  const std::string cfg = root + "/" + name + ".yaml";
  write_text(cfg,
             "iterations: 3\nruns: 2\nwarmup_iterations: 1\nworkloads: [tensors]\n"
             "devices: [{kind: reference}]\n"
             "sizes: {t: {n: 2, d_in: 4, h: 4, d_out: 2}, u: {n: 3, d_in: 4, h: 4, "
             "d_out: 2}}\n"
             "power: {source: trace, trace: {file: " +
                 kConstantTrace + "}, baseline_s: 0}\n");
  const std::string out = root + "/" + name;
  const auto r = edpbench("run --config " + cfg + " --out " + out);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  return out;
}

std::string resume(const std::string& out) {
  return "run --config " + out + ".yaml --out " + out + " --resume";
}

}  // namespace

TEST_CASE("run --resume refuses planted result files instead of reading through them",
          "[cli][untrusted]") {
  const std::string root = edp::testing::temp_dir("resume-links");
  const std::string other = finished_sweep(root, "other");
  const std::string secret = root + "/secret";
  write_text(secret, "root:SECRET-HASH:19000:0:99999:7:::\n");
  for (const char* name : {"runs.csv", "results.csv", "rails.csv", "config.yaml"}) {
    const std::string out = finished_sweep(root, std::string("o-") + name);
    const std::string before = slurp(other + "/runs.csv");
    ::unlink((out + "/" + name).c_str());
    // The audit's cases: another sweep's runs.csv (its 3 runs replaced O's
    // 2), /etc/shadow at results.csv (its first line printed as a column).
    const std::string target = std::string(name) == "runs.csv" ? other + "/runs.csv" : secret;
    REQUIRE(::symlink(target.c_str(), (out + "/" + name).c_str()) == 0);
    const auto r = edpbench(resume(out));
    INFO(name << ": " << r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find(out + "/" + name + ": not read: it is a symbolic link") != std::string::npos);
    CHECK(r.err.find("SECRET") == std::string::npos);
    CHECK(slurp(other + "/runs.csv") == before);
    struct stat st {};
    CHECK(::lstat((out + "/" + name).c_str(), &st) == 0);
    CHECK(S_ISLNK(st.st_mode));  // left as it was: nothing rewritten
  }
}

TEST_CASE("a trace reached through a link is refused, its first line never echoed",
          "[cli][untrusted]") {
  const std::string root = edp::testing::temp_dir("trace-link");
  const std::string secret = root + "/secret";
  write_text(secret, "root:SECRET-HASH:19000:0:99999:7:::\n");
  const std::string link = root + "/trace.csv";
  REQUIRE(::symlink(secret.c_str(), link.c_str()) == 0);
  write_text(root + "/c.yaml",
             "workloads: [tensors]\ndevices: [{kind: reference}]\n"
             "sizes: {t: {n: 2, d_in: 4, h: 4, d_out: 2}}\n"
             "power: {source: trace, trace: {file: trace.csv}}\n");
  auto r = edpbench("plan --no-calibrate --config " + root + "/c.yaml");
  INFO(r.err);
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("c.yaml:4:") != std::string::npos);
  CHECK(r.err.find("is a symbolic link") != std::string::npos);
  CHECK(r.err.find("SECRET") == std::string::npos);
  r = edpbench("measure --runs 1 --warmup 0 --trace " + link + " -- true");
  INFO(r.err);
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("not read: it is a symbolic link") != std::string::npos);
  CHECK(r.err.find("SECRET") == std::string::npos);
  // A trace that is not one (a regular file): its line is shown short and escaped.
  write_text(root + "/bad.csv", "\x1b]0;owned\x07" + std::string(200, 'A') + "\n");
  r = edpbench("measure --runs 1 --warmup 0 --trace " + root + "/bad.csv -- true");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("\x1b") == std::string::npos);
  CHECK(r.err.find(std::string(40, 'A')) == std::string::npos);
}

TEST_CASE("FIFOs and devices where a file is read: refused at once, never waited on",
          "[cli][untrusted]") {
  // `timeout -k 5 20`: before, each of these hung (exit 124; measure ignored
  // timeout's SIGTERM, hence -k) or read /dev/zero until bad_alloc (the 4 GiB
  // address-space limit keeps that from hurting the machine).
  const std::string root = edp::testing::temp_dir("fifos");
  for (const char* name : {"results.csv", "runs.csv", "rails.csv", "config.yaml"}) {
    const std::string out = finished_sweep(root, std::string("o-") + name);
    ::unlink((out + "/" + name).c_str());
    REQUIRE(::mkfifo((out + "/" + name).c_str(), 0644) == 0);
    const auto r = edp::testing::run(EDP_ADDRESS_LIMIT "timeout -k 5 20 " +
                                     std::string(EDPBENCH_BINARY) + " " + resume(out));
    INFO(name << ": " << r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find(out + "/" + name + ": not read: it is a FIFO") != std::string::npos);
  }
  const std::string fifo = root + "/fifo";
  REQUIRE(::mkfifo(fifo.c_str(), 0644) == 0);
  for (const std::string& args :
       {"run --config " + fifo + " --out " + root + "/x", "plan --config " + fifo,
        "measure --runs 1 --warmup 0 --trace " + fifo + " -- true",
        "sensors --source trace --trace " + fifo,
        std::string("measure --runs 1 --trace /dev/zero -- true"), "report " + root + "/o-runs.csv",
        "recommend " + fifo}) {
    const auto r = edp::testing::run(EDP_ADDRESS_LIMIT "timeout -k 5 20 " +
                                     std::string(EDPBENCH_BINARY) + " " + args);
    INFO(args << ": " << r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("not read: it is a") != std::string::npos);
  }
}

TEST_CASE("a 3 GB sparse runs.csv is refused from its size, not read", "[cli][untrusted]") {
  Planted p;
  const std::string runs = p.dir + "/runs.csv";
  REQUIRE(::truncate(runs.c_str(), 3LL << 30) == 0);
  // Before, report and compare read it (2.8 GB resident).
  for (const std::string& cmd : {"report " + p.dir, "compare " + kTx2Sweep + " " + p.dir}) {
    const auto t0 = std::chrono::steady_clock::now();
    const auto r = edp::testing::run(EDP_ADDRESS_LIMIT "timeout -k 5 60 " +
                                     std::string(EDPBENCH_BINARY) + " " + cmd);
    CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(10));
    INFO(cmd << ": " << r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("runs.csv: not read: 3072.0 MiB, more than the 64.0 MiB a results CSV") !=
          std::string::npos);
  }
}

TEST_CASE("a config handed over as a pipe (--config <(...)) is still read", "[cli][untrusted]") {
  const auto r = edp::testing::run(
      "bash -c '" + std::string(EDPBENCH_BINARY) +
      " plan --no-calibrate --config <(printf \"workloads: [tensors]\\ndevices: [{kind: "
      "reference}]\\nsizes: {t: {n: 2, d_in: 4, h: 4, d_out: 2}}\\npower: {source: none}\\n\")'");
  INFO(r.err);
  CHECK(r.exit_code == 0);
}

TEST_CASE("resume refuses a damaged directory and says which file is short", "[cli][untrusted]") {
  const std::string root = edp::testing::temp_dir("damaged");
  struct Damage {
    const char* what;
    std::function<void(const std::string&)> apply;
    const char* expected;
  };
  const std::vector<Damage> damages{
      // The audit: resume said all done and the runs were gone.
      {"runs.csv deleted", [](const std::string& o) { ::unlink((o + "/runs.csv").c_str()); },
       "/runs.csv has 0 of the 2 runs that results.csv row 1 commits"},
      {"runs.csv cut short",
       [](const std::string& o) {
         std::string t = slurp(o + "/runs.csv");
         t.resize(t.rfind('\n', t.size() - 2) + 1);  // the last run gone
         write_text(o + "/runs.csv", t);
       },
       "/runs.csv has 1 of the 2 runs that results.csv row 2 commits"},
      // A duplicated results.csv row was kept.
      {"a results.csv row twice",
       [](const std::string& o) {
         std::string t = slurp(o + "/results.csv");
         const size_t first = t.find('\n') + 1;
         const size_t second = t.find("\r\ntensors,", first) + 2;
         write_text(o + "/results.csv", t + t.substr(first, second - first));
       },
       "/results.csv row 3 repeats row 1"},
      {"a rails.csv row of no run",
       [](const std::string& o) {
         std::string t = slurp(o + "/rails.csv");
         const size_t first = t.find('\n') + 1;
         std::string row = t.substr(first, t.find('\n', first) + 1 - first);
         row.replace(row.find(",1,"), 3, ",9,");
         write_text(o + "/rails.csv", t + row);
       },
       "rails.csv row 9 is a rail of run 9"},
      // An ok row edited to a value no run writes was kept as done, and
      // report then refused the finished sweep.
      {"an ok row's time_s_mean edited to -1",
       [](const std::string& o) {
         edp::report::CsvTable t = edp::report::read_csv_file(o + "/results.csv");
         t.rows[0][static_cast<size_t>(t.column("time_s_mean"))] = "-1";
         std::string text = edp::report::csv_line(t.header);
         for (const auto& row : t.rows) text += edp::report::csv_line(row);
         write_text(o + "/results.csv", text);
       },
       "/results.csv line 2: time_s_mean = '-1' is below zero"},
      // A quote left open was exit 1 without a fix.
      {"rails.csv cut inside a quoted field",
       [](const std::string& o) {
         write_text(o + "/rails.csv", slurp(o + "/rails.csv") + "tensors,\"cut");
       },
       "unterminated quoted field: the sweep's file cannot be read"},
      {"context.json deleted",
       [](const std::string& o) { ::unlink((o + "/context.json").c_str()); },
       "/context.json is missing but 2 configuration(s) are committed"},
      // Deleting config.yaml skipped the config check.
      {"config.yaml deleted", [](const std::string& o) { ::unlink((o + "/config.yaml").c_str()); },
       "/config.yaml is missing but"},
  };
  int n = 0;
  for (const auto& d : damages) {
    const std::string out = finished_sweep(root, "d" + std::to_string(n++));
    d.apply(out);
    const std::string results = slurp(out + "/results.csv");
    const auto r = edpbench(resume(out));
    INFO(d.what << ": " << r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find(d.expected) != std::string::npos);
    CHECK(slurp(out + "/results.csv") == results);  // nothing rewritten
  }
  // An intact directory still resumes (nothing left to do).
  const std::string intact = finished_sweep(root, "intact");
  const auto r = edpbench(resume(intact));
  INFO(r.err);
  CHECK(r.exit_code == 0);
}

TEST_CASE("report on one directory refuses a runs.csv of another sweep, as compare does",
          "[cli][untrusted]") {
  Planted p;
  write_text(p.dir + "/runs.csv", slurp(EDPBENCH_FIXTURES "/report/orin_nx_sweep/runs.csv"));
  const auto r = edpbench("report " + p.dir);
  INFO(r.err);
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("has runs=10 but runs.csv has 0") != std::string::npos);
}
