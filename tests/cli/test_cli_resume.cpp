// Sweeps that survive: SIGTERM/SIGINT in the middle of a sweep save what is
// complete and exit 143/130; --resume finishes it without duplicating or
// recomputing anything, and refuses a different configuration.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>
#include <catch2/catch.hpp>

#include <chrono>
#include <regex>
#include <set>
#include <thread>

#include "report/csv.h"
#include "report/json_read.h"
#include "support/csv.h"
#include "support/process.h"

extern char** environ;

using edp::testing::rows_in;

namespace {

std::string sweep_config(const std::string& dir) {
  const std::string path = dir + "/sweep.yaml";
  // 3 workloads x 2 sizes x 1 device = 6 configurations of a few tenths of a second.
  edp::testing::write_text(path,
                           "name: resume-test\niterations: 150\nruns: 3\nwarmup_iterations: 1\n"
                           "learning_rate: 1.0e-6\ninit_scale: 0.1\n"
                           "workloads: [tensors, autograd, custom_relu]\n"
                           "sizes:\n  a: {n: 32, d_in: 3000, h: 64, d_out: 8}\n"
                           "  b: {n: 32, d_in: 4000, h: 64, d_out: 8}\n"
                           "devices: [{kind: cpu, threads: 1}]\npower: {source: none}\n");
  return path;
}

pid_t spawn_resumable_run(const std::string& cfg, const std::string& out) {
  const std::string bin = EDPBENCH_BINARY;
  std::vector<std::string> args{bin, "run", "--config", cfg, "--out", out};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid = -1;
  REQUIRE(posix_spawn(&pid, bin.c_str(), &fa, nullptr, argv.data(), environ) == 0);
  posix_spawn_file_actions_destroy(&fa);
  return pid;
}

int interrupt_mid_sweep(const std::string& cfg, const std::string& out, int sig) {
  const pid_t pid = spawn_resumable_run(cfg, out);
  // Wait for the first completed configuration, then stop the sweep.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (rows_in(out + "/results.csv") < 1 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ::kill(pid, sig);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace

TEST_CASE("SIGTERM mid-sweep then --resume gives one row per configuration", "[cli][resume]") {
  const std::string dir = edp::testing::temp_dir("resume");
  const std::string cfg = sweep_config(dir), out = dir + "/out";
  CHECK(interrupt_mid_sweep(cfg, out, SIGTERM) == 143);
  const size_t done = rows_in(out + "/results.csv");
  CHECK(done >= 1);
  CHECK(done < 6);
  CHECK(rows_in(out + "/runs.csv") == done * 3);  // only complete configurations
  CHECK_THAT(edp::testing::slurp(out + "/context.json"), Catch::Contains("\"complete\": false"));

  const auto r = edp::testing::edpbench("run --config " + cfg + " --out " + out + " --resume");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.err, Catch::Contains("resuming: " + std::to_string(done) + " item(s) already done"));
  const auto results = edp::report::read_csv_file(out + "/results.csv");
  CHECK(results.rows.size() == 6);
  std::set<std::string> keys;
  for (size_t i = 0; i < results.rows.size(); ++i)
    keys.insert(results.get(i, "workload") + "/" + results.get(i, "size") + "/" +
                results.get(i, "device"));
  CHECK(keys.size() == 6);
  CHECK(rows_in(out + "/runs.csv") == 6 * 3);
  CHECK_THAT(edp::testing::slurp(out + "/context.json"), Catch::Contains("\"complete\": true"));

  // Resuming a finished sweep recomputes nothing.
  const auto again = edp::testing::edpbench("run --config " + cfg + " --out " + out + " --resume");
  CHECK(again.exit_code == 0);
  CHECK(rows_in(out + "/results.csv") == 6);
  CHECK(rows_in(out + "/runs.csv") == 18);
}

TEST_CASE("SIGINT mid-sweep exits 130 after saving", "[cli][resume]") {
  const std::string dir = edp::testing::temp_dir("sigint");
  const std::string cfg = sweep_config(dir), out = dir + "/out";
  CHECK(interrupt_mid_sweep(cfg, out, SIGINT) == 130);
  CHECK(rows_in(out + "/results.csv") >= 1);
}

// A sweep whose only items left are skipped ones (a GPU the machine lacks)
// is finished: resuming it exits 0, as its first run did. It exited 1, "no
// item could be measured", which a systemd job takes for a failure.
TEST_CASE("resume of a sweep whose items left are skipped ones exits 0", "[cli][resume]") {
  const std::string dir = edp::testing::temp_dir("resume-skipped");
  const std::string cfg = dir + "/c.yaml", out = dir + "/out";
  edp::testing::write_text(cfg,
                           "name: resume-skipped\niterations: 2\nruns: 2\nwarmup_iterations: 0\n"
                           "workloads: [tensors]\nsizes: {t: {n: 4, d_in: 8, h: 4, d_out: 2}}\n"
                           "devices: [{kind: cpu, threads: 1}, {kind: gpu, index: 7}]\n"
                           "power: {source: none}\n");
  const auto first = edp::testing::edpbench("run --config " + cfg + " --out " + out);
  INFO(first.err);
  REQUIRE(first.exit_code == 0);
  REQUIRE(rows_in(out + "/results.csv") == 2);
  const auto again = edp::testing::edpbench("run --config " + cfg + " --out " + out + " --resume");
  INFO(again.err);
  CHECK(again.exit_code == 0);
  CHECK_THAT(again.err, !Catch::Contains("no item could be measured"));
  // A sweep with nothing measured at all is still a failure.
  const std::string none = dir + "/none.yaml";
  edp::testing::write_text(none,
                           "name: resume-none\niterations: 2\nruns: 2\nwarmup_iterations: 0\n"
                           "workloads: [tensors]\nsizes: {t: {n: 4, d_in: 8, h: 4, d_out: 2}}\n"
                           "devices: [{kind: gpu, index: 7}]\npower: {source: none}\n");
  const auto nothing = edp::testing::edpbench("run --config " + none + " --out " + dir + "/o2");
  CHECK(nothing.exit_code == 1);
  CHECK_THAT(nothing.err, Catch::Contains("no item could be measured"));
}

// Resumed, items left that fail for real (the sensor's reads fail) are a
// failure, whatever the first run committed: only skipped ones are not.
TEST_CASE("resume of a sweep whose items left all fail exits 1", "[cli][resume]") {
  const std::string dir = edp::testing::temp_dir("resume-failing");
  const std::string cfg = dir + "/c.yaml", out = dir + "/out", trace = dir + "/p.csv";
  std::string good = "t_s,VDD_IN_w\n", bad = "t_s,VDD_IN_w\n";
  for (int i = 0; i <= 30; ++i) {
    good += std::to_string(i * 0.01) + ",7.5\n";
    bad += std::to_string(i * 0.01) + (i < 30 ? ",6.0\n" : ",\n");  // reads fail from 0.3 s
  }
  edp::testing::write_text(trace, good);
  edp::testing::write_text(
      cfg,
      "name: resume-failing\niterations: 30\nruns: 2\nwarmup_iterations: 1\n"
      "workloads: [tensors]\nsizes: {a: {n: 8, d_in: 64, h: 16, d_out: 4}, b: {n: 8, d_in: "
      "64, h: 32, d_out: 4}, c: {n: 8, d_in: 64, h: 8, d_out: 4}}\n"
      "devices: [{kind: cpu, threads: 1}]\npower: {source: trace, trace: {file: " +
          trace + ", loop: true}, baseline_s: 0, min_run_s: 0.4}\n");
  REQUIRE(interrupt_mid_sweep(cfg, out, SIGTERM) == 143);
  REQUIRE(rows_in(out + "/results.csv") >= 1);
  REQUIRE(rows_in(out + "/results.csv") < 3);
  edp::testing::write_text(trace, bad);
  const auto r = edp::testing::edpbench("run --config " + cfg + " --out " + out + " --resume");
  INFO(r.err);
  CHECK_THAT(r.err, Catch::Contains("failed: energy incomplete"));
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.err, Catch::Contains("no item could be measured"));
}

TEST_CASE("resume refuses a different configuration and names the difference", "[cli][resume]") {
  const std::string dir = edp::testing::temp_dir("resume-diff");
  const std::string cfg = sweep_config(dir), out = dir + "/out";
  const auto first = edp::testing::edpbench("run --config " + cfg + " --out " + out +
                                            " --workloads tensors --sizes a --runs 1");
  REQUIRE(first.exit_code == 0);
  const auto r = edp::testing::edpbench("run --config " + cfg + " --out " + out +
                                        " --workloads tensors --sizes a --runs 2 --resume");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("configuration differs") &&
                        Catch::Contains("sweep has 'runs: 1', now 'runs: 2'"));
  CHECK(rows_in(out + "/results.csv") == 1);  // nothing was touched

  // Two long lines that differ past the excerpt's length: the excerpts
  // start near the difference (both read the same 60 characters before).
  const std::string long_name(70, 'n');
  std::string text = edp::testing::slurp(cfg);
  edp::testing::write_text(cfg, "name: " + long_name + "-a\n" + text.substr(text.find('\n') + 1));
  const std::string out2 = dir + "/out2";
  REQUIRE(edp::testing::edpbench("run --config " + cfg + " --out " + out2 +
                                 " --workloads tensors --sizes a --runs 1")
              .exit_code == 0);
  edp::testing::write_text(cfg, "name: " + long_name + "-b\n" + text.substr(text.find('\n') + 1));
  const auto r2 = edp::testing::edpbench("run --config " + cfg + " --out " + out2 +
                                         " --workloads tensors --sizes a --runs 1 --resume");
  CHECK(r2.exit_code == 2);
  CHECK_THAT(r2.err, Catch::Contains("line 1, column 78: sweep has '...nnnnnnnnnnnnnnnnnnn-a', "
                                     "now '...nnnnnnnnnnnnnnnnnnn-b'"));
}

namespace {

// The review's repro 07: a two-item sweep on a trace (7.5 W constant), its
// second item dropped from results.csv so that --resume has one to measure.
std::string two_item_sweep(const std::string& dir) {
  const std::string path = dir + "/tiny.yaml";
  edp::testing::write_text(path,
                           "name: tiny\niterations: 2\nruns: 2\nwarmup_iterations: 0\n"
                           "init_scale: 0.1\nworkloads: [tensors]\nsizes:\n"
                           "  s1: {n: 4, d_in: 16, h: 8, d_out: 4}\n"
                           "  s2: {n: 4, d_in: 32, h: 8, d_out: 4}\n"
                           "devices:\n  - {kind: reference}\npower:\n  source: trace\n"
                           "  baseline_s: 0.2\n  trace: {file: " EDPBENCH_FIXTURES
                           "/cli/constant_7w5.csv}\n");
  const std::string out = dir + "/sw";
  const auto first = edp::testing::edpbench("run --config " + path + " --out " + out);
  INFO(first.err);
  REQUIRE(first.exit_code == 0);
  const std::string results = out + "/results.csv";
  const auto t = edp::report::read_csv_file(results);
  std::string text = edp::report::csv_line(t.header);
  for (size_t r = 0; r < t.rows.size(); ++r)
    if (t.get(r, "size") != "s2") text += edp::report::csv_line(t.rows[r]);
  edp::testing::write_text(results, text);
  return path;
}

std::string replace_first(const std::string& text, const std::string& pattern,
                          const std::string& with) {
  const std::string out =
      std::regex_replace(text, std::regex(pattern), with, std::regex_constants::format_first_only);
  REQUIRE(out != text);
  return out;
}

}  // namespace

TEST_CASE("resume refuses a context.json of another board and names both values", "[cli][resume]") {
  const std::string dir = edp::testing::temp_dir("resume-context");
  const std::string cfg = two_item_sweep(dir), ctx = dir + "/sw/context.json";
  const std::string other = replace_first(edp::testing::slurp(ctx), R"("model": *("[^"]*"|null))",
                                          R"("model": "SOME OTHER BOARD")");
  edp::testing::write_text(ctx, other);
  const auto r = edp::testing::edpbench("run --config " + cfg + " --out " + dir + "/sw --resume");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err,
             Catch::Contains("board.model 'SOME OTHER BOARD'") && Catch::Contains("context.json"));
  CHECK(edp::testing::slurp(ctx) == other);  // nothing rewritten
  CHECK(rows_in(dir + "/sw/results.csv") == 1);
}

TEST_CASE("resume refuses a context.json with a key twice and says where", "[cli][resume]") {
  const std::string dir = edp::testing::temp_dir("resume-twice");
  const std::string cfg = two_item_sweep(dir), ctx = dir + "/sw/context.json";
  // A first "complete": true before the file's own "complete": readers that
  // take the first or the last key would disagree on whether it finished.
  std::string text = edp::testing::slurp(ctx);
  REQUIRE(text.rfind("{\n", 0) == 0);
  text.insert(2, "  \"complete\": true,\n");
  edp::testing::write_text(ctx, text);
  const auto r = edp::testing::edpbench("run --config " + cfg + " --out " + dir + "/sw --resume");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains(ctx + ": line ") &&
                        Catch::Contains("the key \"complete\" appears twice") &&
                        Catch::Contains("restore the file"));
  CHECK(edp::testing::slurp(ctx) == text);  // nothing rewritten
  CHECK(rows_in(dir + "/sw/results.csv") == 1);
}

TEST_CASE("resume keeps the first session's start_time and baselines", "[cli][resume]") {
  const std::string dir = edp::testing::temp_dir("resume-keep");
  const std::string cfg = two_item_sweep(dir), ctx = dir + "/sw/context.json";
  std::string text = edp::testing::slurp(ctx);
  text =
      replace_first(text, R"("start_time": *"[^"]*")", R"("start_time": "1999-01-01T00:00:00Z")");
  text = replace_first(text, R"("total_w": *[-+0-9.eE]+)", R"("total_w": 123.0)");
  // What a Python monitor writing into the directory added (review: a
  // resume dropped it, and the monitor then took its own rows for another
  // writer's), and a key of a newer edpbench.
  text = replace_first(text, R"(^\{)",
                       R"({"monitor": {"configurations": ["monitor:py_mlp"], "writers": )"
                       R"({"monitor:py_mlp": "vm:12476:1"}}, "from_the_future": [1, 2],)");
  edp::testing::write_text(ctx, text);
  const auto before = edp::report::parse_json(text);
  const auto* old_baselines = before.at({"power", "baselines"});
  REQUIRE(old_baselines);
  const size_t n_before = old_baselines->array.size();

  const auto r = edp::testing::edpbench("run --config " + cfg + " --out " + dir + "/sw --resume");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(rows_in(dir + "/sw/results.csv") == 2);
  const auto after = edp::report::read_json_file(ctx);
  REQUIRE(after.find("start_time"));
  CHECK(after.find("start_time")->string == "1999-01-01T00:00:00Z");
  const auto* baselines = after.at({"power", "baselines"});
  REQUIRE(baselines);
  REQUIRE(baselines->array.size() > n_before);  // the first session's, then this one's
  REQUIRE(baselines->array[0].find("total_w"));
  CHECK(baselines->array[0].find("total_w")->number == 123.0);
  const auto* writer = after.at({"monitor", "writers", "monitor:py_mlp"});
  REQUIRE(writer);
  CHECK(writer->string == "vm:12476:1");
  REQUIRE(after.find("from_the_future"));
  CHECK(after.find("from_the_future")->array.size() == 2);
}
