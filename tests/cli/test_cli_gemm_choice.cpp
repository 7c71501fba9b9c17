// `gemm: auto` end to end: two sweeps of the same tiny config record the same
// GEMM path in context.json, and every workload of the size reuses the
// decision of the first (issue 17).
#include <yaml-cpp/yaml.h>
#include <algorithm>
#include <catch2/catch.hpp>
#include <regex>

#include "bench/protocol/gemm_choice.h"
#include "edpbench/config.h"
#include "support/process.h"
#include "workloads/cpu_backend.h"

using edp::testing::edpbench;

namespace {

std::string gemm_tiny_config(const std::string& dir) {
  const std::string path = dir + "/gemm-auto.yaml";
  edp::testing::write_text(path,
                           "name: gemm-auto\niterations: 5\nruns: 2\nwarmup_iterations: 1\n"
                           "learning_rate: 1.0e-3\ninit_scale: 0.1\n"
                           "workloads: [tensors, autograd, custom_relu]\n"
                           "sizes: {tiny: {n: 8, d_in: 64, h: 16, d_out: 4}}\n"
                           "devices:\n"
                           "  - {kind: cpu, threads: 1, cpus: all, gemm: auto}\n"
                           "  - {kind: cpu, threads: 2, cpus: all, gemm: auto}\n"
                           "power:\n  source: trace\n  baseline_s: 0\n"
                           "  trace: {file: " EDPBENCH_FIXTURES "/cli/constant_7w5.csv}\n");
  return path;
}

// device label -> {gemm_path, gemm_choice} from a sweep's context.json.
std::map<std::string, std::pair<std::string, std::string>> sweep(const std::string& cfg,
                                                                 const std::string& out) {
  const auto r = edpbench("run --config " + cfg + " --out " + out);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const YAML::Node ctx = YAML::LoadFile(out + "/context.json");
  std::map<std::string, std::pair<std::string, std::string>> got;
  for (const auto& kv : ctx["backends"])
    got[kv.first.as<std::string>()] = {kv.second["gemm_path"].as<std::string>(),
                                       kv.second["gemm_choice"].as<std::string>()};
  return got;
}

// The medians a gemm_choice record gives ("openblas median 0.002755 ms").
std::map<std::string, double> medians(const std::string& choice) {
  std::map<std::string, double> out;
  const std::regex one(R"(; (\w+) median ([0-9.eE+-]+) ms)");
  for (auto it = std::sregex_iterator(choice.begin(), choice.end(), one);
       it != std::sregex_iterator(); ++it)
    out[(*it)[1]] = std::stod((*it)[2]);
  return out;
}

// Whether a sweep's two fastest paths were within twice the rule's least
// gain of each other (edp::bench::kMinGain, 5%): near its margin the rule
// may go either way between two processes (a median 5.4% apart was
// "measured" in one sweep, a tie in the next, in the fresh Debian root's CI
// stage), and either path is then within 10% of the other.
bool near_margin(const std::string& choice) {
  std::vector<double> m;
  for (const auto& [path, ms] : medians(choice)) m.push_back(ms);
  if (m.size() < 2) return false;
  std::sort(m.begin(), m.end());
  return m[1] - m[0] <= 2 * edp::bench::kMinGain * m[0];
}

}  // namespace

// [alone]: the choice is the same on a quiet machine (issue 38); beside three
// other tests on two CPUs a median near the rule's margin flipped it once.
TEST_CASE("two sweeps of the same config record the same gemm choice", "[cli][gemm][alone]") {
  const std::string dir = edp::testing::temp_dir("gemm-auto");
  const std::string cfg = gemm_tiny_config(dir);
  const auto a = sweep(cfg, dir + "/a");
  const auto b = sweep(cfg, dir + "/b");
  REQUIRE(a.size() == 2);  // cpu (1 thread) and cpu#2 (2 threads)
  for (const auto& [device, choice] : a) {
    INFO(device << ": " << choice.second << "\nsecond sweep: " << b.at(device).second);
    // The same path, unless one sweep's paths were within the rule's noise
    // margin of each other: only there may the choice differ.
    if (b.at(device).first != choice.first)
      CHECK((near_margin(choice.second) || near_margin(b.at(device).second)));
    if (edp::cpu_auto_gemm_paths().size() < 2) {
      CHECK_THAT(choice.second, Catch::Contains("not in this build"));
      continue;
    }
    // The record says how: the rule, then every sample of every path.
    CHECK_THAT(choice.second, Catch::StartsWith(choice.first + " (auto: "));
    const std::vector<std::string> measured = edp::cpu_auto_gemm_paths();
    for (const std::string& path : measured)
      CHECK_THAT(choice.second, Catch::Contains("; " + path + " median "));
    // A path the build has but auto leaves out (BLIS beside OpenBLAS) is
    // not raced.
    for (const std::string& path : edp::cpu_gemm_paths())
      if (std::find(measured.begin(), measured.end(), path) == measured.end())
        CHECK_THAT(choice.second, !Catch::Contains("; " + path + " median "));
    // context.json holds the last workload's backend (custom_relu): it reused
    // the decision that tensors measured.
    CHECK_THAT(choice.second, Catch::Contains("decided by the first configuration"));
  }
}

// BLIS ends the process on a BLIS_ARCH_TYPE its build lacks (and, in 0.9,
// on any value before it is initialised): with it set, a sweep on another
// path still runs, says why BLIS was left alone, and `gemm: blis` is a usage
// error at its place in the config before any work.
TEST_CASE("BLIS_ARCH_TYPE set: BLIS is left alone, gemm: blis is refused at its place",
          "[cli][gemm]") {
  const std::string dir = edp::testing::temp_dir("blis-arch");
  auto config = [&](const std::string& gemm) {
    const std::string path = dir + "/" + gemm + ".yaml";
    edp::testing::write_text(
        path,
        "name: blis-arch\niterations: 2\nruns: 2\nwarmup_iterations: 0\n"
        "workloads: [tensors]\nsizes: {tiny: {n: 8, d_in: 64, h: 16, d_out: 4}}\n"
        "devices:\n  - {kind: cpu, threads: 2, gemm: " +
            gemm + "}\npower: {source: none}\n");
    return path;
  };
  const std::string env = "BLIS_ARCH_TYPE=99 ";  // no such id: BLIS 0.9 aborts
  const auto ok = edp::testing::run(env + EDPBENCH_BINARY + " run --config " + config("auto") +
                                    " --out " + dir + "/auto");
  INFO(ok.err);
  REQUIRE(ok.exit_code == 0);  // not 134 (SIGABRT from bli_abort)
  const YAML::Node cpu = YAML::LoadFile(dir + "/auto/context.json")["backends"]["cpu"];
  REQUIRE(cpu);
  CHECK(cpu["gemm_path"].as<std::string>() != "blis");
  CHECK_THAT(cpu["gemm_choice"].as<std::string>(), !Catch::Contains("blis median"));
  if (EDPBENCH_HAVE_BLIS) {  // a build with BLIS says why it was not used
    REQUIRE(cpu["blis"]);
    CHECK_THAT(cpu["blis"].as<std::string>(),
               Catch::Contains("BLIS_ARCH_TYPE is set in the environment ('99')"));
  }

  const auto refused = edp::testing::run(env + EDPBENCH_BINARY + " run --config " + config("blis") +
                                         " --out " + dir + "/blis");
  CHECK(refused.exit_code == 2);
  CHECK_THAT(refused.err, Catch::Contains(dir + "/blis.yaml:8:35: device cpu: cpu gemm: blis "
                                                "requested, but "));
  CHECK_THAT(refused.err, Catch::Contains("(or use gemm: eigen|auto)"));
}
