// Issue 33, item 7: every check the docs promise, everywhere. A config's
// problems and this machine's come in one pass; values the key table would
// refuse are refused on the command line too (nan and inf included); labels
// with control characters are refused wherever a label is taken.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "support/fixtures.h"
#include "support/process.h"

using edp::testing::edpbench;
using edp::testing::write_text;

using edp::testing::kConstantTrace;
using edp::testing::kOrinSweep;
using edp::testing::kTx2Sweep;

namespace {

// Lines of stderr that name a place "c.yaml:L:C:".
int located_lines(const std::string& err) {
  int n = 0;
  for (size_t at = err.find("c.yaml:"); at != std::string::npos; at = err.find("c.yaml:", at + 1))
    ++n;
  return n;
}

}  // namespace

TEST_CASE("a config's problems and this machine's are reported in one pass", "[cli][checks]") {
  // Seven problems: three the parser finds, four only this machine shows
  // (a CPU it lacks, a sampler CPU it lacks, a size beyond its memory, a
  // trace file that is missing). Before: three rounds of fixes.
  const std::string dir = edp::testing::temp_dir("one-pass");
  write_text(dir + "/c.yaml", R"(runs: 0
bogus: 1
learning_rate: 1e-400
workloads: [tensors]
devices: [{kind: cpu, cpus: "4095"}]
sizes: {t: {n: 16777216, d_in: 16777216, h: 1, d_out: 1}}
power: {source: trace, trace: {file: none.csv}, sampler_cpu: 4095}
)");
  for (const std::string& cmd : {std::string("plan --no-calibrate"), "run --out " + dir + "/o"}) {
    const auto r = edpbench(cmd + " --config " + dir + "/c.yaml");
    INFO(cmd << ": " << r.err);
    CHECK(r.exit_code == 2);
    for (const char* place : {"c.yaml:1:7: ", "c.yaml:2:1: ", "c.yaml:3:16: ", "c.yaml:5:29: ",
                              "c.yaml:6:9: ", "c.yaml:7:38: ", "c.yaml:7:62: "})
      CHECK(r.err.find(place) != std::string::npos);
    CHECK(located_lines(r.err) == 7);  // the missing trace once, not twice
  }
}

TEST_CASE("config values the documentation rules out are errors at their place", "[cli][checks]") {
  const std::string dir = edp::testing::temp_dir("config-values");
  const std::string base =
      "workloads: [tensors]\ndevices: [{kind: reference}]\n"
      "sizes: {t: {n: 2, d_in: 4, h: 4, d_out: 2}}\n";
  const std::vector<std::pair<std::string, std::string>> cases{
      // 1e-400 silently became 0.
      {"learning_rate: 1e-400\n", "c.yaml:4:16: 'learning_rate' = 1e-400 is too small"},
      // A warning, and the sampler ran unpinned.
      {"power: {source: none, sampler_cpu: 4095}\n",
       "c.yaml:4:36: power.sampler_cpu 4095 is not a CPU this process may run on"},
      // An empty list meant auto.
      {"power: {source: trace, trace: {file: " + kConstantTrace + "}, total_rails: []}\n",
       "'total_rails' is an empty list"},
      // Labels: a control character in a name.
      {"name: \"a\\x1b[2Jb\"\n", "c.yaml:4:7: 'name' contains a control character (0x1b"},
      {"sizes: {\"t\\tx\": {n: 2, d_in: 4, h: 4, d_out: 2}}\n",
       "size name contains a control character (0x09"},
  };
  for (const auto& [extra, expected] : cases) {
    std::string text = base + extra;
    if (extra.rfind("sizes:", 0) == 0) text = "workloads: [tensors]\n" + extra;
    write_text(dir + "/c.yaml", text);
    const auto r = edpbench("plan --no-calibrate --config " + dir + "/c.yaml");
    INFO(extra << " -> " << r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find(expected) != std::string::npos);
  }
  // A trace with a column given twice was accepted (one rail read twice).
  write_text(dir + "/t.csv", "t_s,VDD_IN_w,VDD_IN_w\n0,5,5\n0.1,5,5\n");
  write_text(dir + "/c.yaml", base + "power: {source: trace, trace: {file: t.csv}}\n");
  const auto r = edpbench("plan --no-calibrate --config " + dir + "/c.yaml");
  INFO(r.err);
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("t.csv:1: trace column 'VDD_IN_w' is given twice") != std::string::npos);
}

TEST_CASE("command-line values go through the config's ranges and nan and inf are refused",
          "[cli][checks]") {
  const std::string dir = edp::testing::temp_dir("cli-values");
  const std::vector<std::pair<std::string, std::string>> cases{
      // Each was accepted (compare exited 0 on a +857% regression).
      {"compare " + kOrinSweep + " " + kTx2Sweep + " --fail-on-regression nan --metric time",
       "--fail-on-regression: 'nan' is not a finite decimal number"},
      {"compare " + kOrinSweep + " " + kTx2Sweep + " --alpha inf",
       "--alpha: 'inf' is not a finite"},
      {"recommend " + kTx2Sweep + "/results.csv --battery-wh inf",
       "--battery-wh: 'inf' is not a finite"},
      {"recommend " + kTx2Sweep + "/results.csv --deadline-s nan", "--deadline-s: 'nan' is not a"},
      {"report " + kTx2Sweep + " -o " + dir + "/r.html --objective bogus", "--objective: bogus"},
      {"sensors --source none --measure-s 1e9", "--measure-s: '1e9' is outside 0 to 3600"},
      {"sensors --source none --rate-hz nan", "--rate-hz nan: 'rate_hz' must be a number"},
      {"measure --rate-hz 50000 -- true",
       "--rate-hz 50000: 'rate_hz' = 50000 is out of range [1, 10000]"},
      {"measure --baseline-s inf -- true", "--baseline-s inf: 'baseline_s' must be a number"},
      {"measure --cooldown-s nan -- true", "--cooldown-s nan: 'cooldown_s' must be a number"},
      // The monitor refused these labels; measure took them.
      {"measure --label \"$(printf 'a\\033[2Jb')\" -- true",
       "--label contains a control character (0x1b"},
      {"measure --label " + std::string(5000, 'x') + " -- true",
       "--label is 5000 bytes long; at most 200"},
  };
  for (const auto& [args, expected] : cases) {
    const auto r = edpbench(args);
    INFO(args.substr(0, 200) << " -> " << r.err.substr(0, 400));
    CHECK(r.exit_code == 2);
    CHECK(r.err.find(expected) != std::string::npos);
  }
}
