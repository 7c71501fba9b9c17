// Each study's config section lives in the study's own files
// (study_*_config.h, .cpp) and is entered in the one key table through the
// study registry (issue 22 item 5): the canonical YAML still round-trips
// each section, a section key's error still names file:line:column and the
// whole key path, and the memory check asks each selected study what its
// items hold. Real YAML through yaml-cpp.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

#include "bench/config/config_keys.h"
#include "bench/studies/batch/batch_config.h"
#include "bench/studies/config_schema.h"
#include "bench/studies/memory_check.h"
#include "bench/studies/ops/ops_config.h"
#include "bench/studies/registry.h"
#include "bench/studies/stages/stages_config.h"
#include "bench/studies/study.h"
#include "bench/sweep/results_store.h"
#include "common/errors.h"
#include "support/config_error.h"

using namespace edp::bench;

namespace {
std::string study_error_of(const std::string& yaml) {
  return edp::testing::config_error(yaml, "s.yaml");
}

bool has_line(const std::string& yaml, const std::string& line) {
  return ("\n" + yaml).find("\n" + line + "\n") != std::string::npos;
}
}  // namespace

TEST_CASE("the canonical YAML round-trips each study's section", "[config][study]") {
  struct Case {
    const char* study;
    const char* section;  // as to_yaml writes it
  };
  const Case cases[] = {
      {"batch", "batch: {sizes: [large, small], n: [3, 1]}"},
      {"stages", "stages: {sizes: [medium]}"},
      {"ops",
       "ops: {ops: [gemm, copy], bytes: [4KB, 1GB], gemm_n: [], cold: false, steps: 7, runs: 3, "
       "max_runs: 9, max_rel_ci: 0.02, time_limit_s: 1.5, min_run_s: 0.5}"},
  };
  for (const Case& k : cases) {
    SECTION(k.study) {
      const std::string given = std::string("studies: [mlp, ") + k.study + "]\n" + k.section + "\n";
      const Config c = parse_config(given, "s.yaml");
      const std::string yaml = to_yaml(c);
      INFO(yaml);
      CHECK(has_line(yaml, k.section));
      CHECK(has_line(yaml, std::string("studies: [mlp, ") + k.study + "]"));
      // The other studies are not selected: their sections are not written.
      for (const char* other : {"batch", "stages", "ops"})
        if (std::string(other) != k.study)
          CHECK(yaml.find("\n" + std::string(other) + ":") == std::string::npos);
      const Config again = parse_config(yaml, "again.yaml");
      CHECK(to_yaml(again) == yaml);
      CHECK(again.section<BatchConfig>().n == c.section<BatchConfig>().n);
      CHECK(again.section<BatchConfig>().sizes == c.section<BatchConfig>().sizes);
      CHECK(again.section<StagesConfig>().sizes == c.section<StagesConfig>().sizes);
      CHECK(again.section<OpsConfig>().bytes == c.section<OpsConfig>().bytes);
      CHECK(again.section<OpsConfig>().max_rel_ci == c.section<OpsConfig>().max_rel_ci);
    }
  }
  SECTION("a section given for a study not selected is read but not written") {
    const Config c = parse_config("ops: {steps: 7}\n", "s.yaml");
    CHECK(c.section<OpsConfig>().steps == 7);
    CHECK(to_yaml(c).find("\nops:") == std::string::npos);
  }
}

TEST_CASE("a study section's key errors name file:line:column and the key's path",
          "[config][study]") {
  CHECK(study_error_of("studies: [ops]\nops: {steps: 0}\n") ==
        "s.yaml:2:14: 'ops.steps' = 0 is out of range [1, 100000000]");
  CHECK(study_error_of("stages: {sizes: [huge]}\n") ==
        "s.yaml:1:18: unknown size 'huge' in stages.sizes (sizes: small, medium, large)");
  CHECK_THAT(study_error_of("batch: {n: [0]}\n"),
             Catch::StartsWith("s.yaml:1:13: 'batch.n' = 0 is out of range [1, 1048576]"));
  CHECK_THAT(study_error_of("ops: {stepz: 1}\n"),
             Catch::StartsWith("s.yaml:1:7: unknown key 'stepz' in ops (valid keys: ops, bytes, "
                               "gemm_n, cold, steps, runs, max_runs,"));
  // A check across keys (ConfigKey::check) names the place of the key it is on.
  CHECK(study_error_of("ops:\n  runs: 9\n  max_runs: 3\n") ==
        "s.yaml:3:13: 'ops.max_runs' must be at least 'ops.runs'");
  // Every error at once, in file order, top-level and section keys alike.
  CHECK(study_error_of("ops: {runs: 9, max_runs: 3}\nruns: 0\nbatch: {n: [0]}\n") ==
        "s.yaml:1:26: 'ops.max_runs' must be at least 'ops.runs'\n"
        "s.yaml:2:7: 'runs' = 0 is out of range [1, 100000]\n"
        "s.yaml:3:13: 'batch.n' = 0 is out of range [1, 1048576]");
}

TEST_CASE("the study registry: every name has its study and its section", "[config][study]") {
  CHECK(known_studies() == std::vector<std::string>{"mlp", "batch", "stages", "ops", "deploy"});
  for (const auto& name : known_studies()) {
    INFO(name);
    CHECK(make_study(name)->name() == name);
  }
  CHECK_THROWS_WITH(make_study("fft"), Catch::Contains("studies: mlp, batch, stages, ops"));
  // A study's keys sit in its section and are named by their path in errors;
  // every other key by its name.
  for (const auto& k : config_schema().keys) {
    INFO(k.path);
    const std::string top = k.path.substr(0, k.path.find('.'));
    const bool in_study = k.path != top && std::find(known_studies().begin(), known_studies().end(),
                                                     top) != known_studies().end();
    CHECK(k.path_label == in_study);
    CHECK(k.label() == (in_study ? k.path : k.name()));
  }
  for (const char* section : {"batch", "stages", "ops"}) {
    const ConfigKey* k = find_config_key(section);
    REQUIRE(k);
    CHECK(k->type == KeyType::section);
  }
}

TEST_CASE("the memory check asks each selected study what its items hold", "[config][study]") {
  const Config c = parse_config(
      "studies: [stages, ops]\nworkloads: [tensors]\n"
      "sizes:\n  small: {n: 8, d_in: 100, h: 10, d_out: 2}\n"
      "  wide: {n: 8, d_in: 1000000, h: 100, d_out: 2}\n"
      "batch: {sizes: [wide], n: [1, 2]}\n"
      "stages: {sizes: [small, wide]}\n"
      "ops: {ops: [copy, gemm], gemm_n: [8, 8192]}\n"
      "devices: [{kind: cpu}, {kind: gpu}]\n",
      "m.yaml");
  MemoryLimit limit;
  limit.bytes = (64 << 20) + kRunAllowanceBytes;  // 64 MiB for the items themselves
  limit.source = "test";
  // The stages study's wide size and the ops study's 8192 GEMM (3 x 8192^2
  // floats); not the batch study, which is not selected; not the GPU's
  // items, which have their own memory.
  const auto p = memory_problems(c, limit, false);
  REQUIRE(p.size() == 2);
  CHECK_THAT(p[0], Catch::StartsWith("m.yaml:5:3: stages tensors size wide (N=8) on cpu needs " +
                                     std::to_string(mlp_item_bytes("tensors", c.sizes[1]) +
                                                    kRunAllowanceLargeBytes) +
                                     " bytes ("));
  CHECK(p[1] ==
        "m.yaml:8:34: ops gemm n=8192 on cpu needs 830472192 bytes (792.0 MiB: 768.0 MiB of "
        "tensors and host copies, 24.0 MiB for the run itself), more than the 142606336 bytes "
        "(136.0 MiB) this process may use (test); use a smaller order or free memory");
  // A GPU that shares the host's memory counts too.
  CHECK(memory_problems(c, limit, true).size() == 4);
}

TEST_CASE("each study's output files are its own, and its commit file comes after its rows",
          "[bench][study]") {
  const auto& files = output_files();
  std::set<std::string> names;
  for (const auto& f : files) CHECK(names.insert(f.name).second);  // no file twice
  const auto index = [&](const std::string& name) {
    for (size_t i = 0; i < files.size(); ++i)
      if (files[i].name == name) return static_cast<long>(i);
    return -1L;
  };
  for (const auto& study : all_studies()) {
    INFO(study->name());
    const long commit = index(study->commit_file());
    REQUIRE(commit >= 0);
    CHECK(files[static_cast<size_t>(commit)].commit);
    // Every file the study owns is an output file; its non-committing ones
    // come before its commit file (a crash between them leaves rows that no
    // commit names, which --resume drops, never a commit without its rows).
    for (const auto& own : study->own_files()) {
      CHECK(index(own.name) >= 0);
      if (!own.commit) CHECK(index(own.name) < commit);
    }
    // The files every study writes come before any commit file.
    CHECK(index("runs.csv") < commit);
    CHECK(index("rails.csv") < commit);
  }
  // A study's own files: ops.csv is the ops study's, memory.csv and stages.csv the stages study's.
  CHECK(make_study("ops")->own_files().size() == 1);
  CHECK(make_study("stages")->own_files().size() == 2);
  CHECK(make_study("mlp")->own_files().empty());
}
