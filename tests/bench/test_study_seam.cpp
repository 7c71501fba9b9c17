// The study seam (docs/engine.md, "How to add a study"): a study with a
// config section of its own is its folder and one registry line; nothing in
// src/bench/config/ names it. Shown with a throwaway study, `probe`, whose
// section and keys live in this file only: the key table is built from the
// registry's studies plus probe's section through the function the registry
// uses (make_config_schema), and the config reaches the study's plan.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "bench/config/config_key_builders.h"
#include "bench/studies/config_schema.h"
#include "bench/studies/study.h"
#include "common/errors.h"

using namespace edp::bench;

namespace {

// What would be studies/probe/probe_config.h ...
struct ProbeConfig {
  static constexpr const char* kStudy = "probe";
  int64_t n = 1;  // items planned
};

// ... and probe_config.cpp.
void add_probe_config_keys(KeyTable& t) {
  std::vector<ConfigKey> keys;
  keys.push_back(integer_key("probe.n", 1, 10, "Items planned", section_member(&ProbeConfig::n)));
  add_study_section(t, "probe", "A throwaway study", std::move(keys));
}

// What would be studies/probe/probe_study.cpp: its items from the config.
class ProbeStudy final : public Study {
 public:
  std::string name() const override { return "probe"; }
  std::vector<PlanItem> plan(const Config& cfg) const override {
    std::vector<PlanItem> items;
    for (int64_t i = 0; i < cfg.section<ProbeConfig>().n; ++i) {
      PlanItem item;
      item.study = name();
      item.params = {{"i", std::to_string(i)}};
      item.key = item_key(item.study, item.params);
      items.push_back(item);
    }
    return items;
  }
  std::string commit_file() const override { return "probe.csv"; }
  FileRows rows(const edp::report::ItemRecord&, const edp::report::CsvTable&) const override {
    return {};
  }
};

// The registry's studies and probe's line: what studies.def would list.
const ConfigSchema& schema_with_probe() {
  static const ConfigSchema schema = [] {
    std::vector<StudyKeys> studies = registered_study_keys();
    studies.push_back({"probe", add_probe_config_keys});
    return make_config_schema(studies, {"mlp"});
  }();
  return schema;
}

std::string seam_error_of(const ConfigSchema& s, const std::string& yaml) {
  try {
    parse_config(s, yaml, "probe.yaml");
  } catch (const edp::UsageError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("study seam: a study's own section loads, validates and round-trips", "[config][study]") {
  const ConfigSchema& s = schema_with_probe();
  const std::string yaml = "studies: [probe]\nprobe: {n: 3}\n";
  const Config c = parse_config(s, yaml, "probe.yaml");
  CHECK(c.studies == std::vector<std::string>{"probe"});
  CHECK(c.section<ProbeConfig>().n == 3);
  CHECK(c.where.at("probe.n") == "probe.yaml:2:12");

  // Out of range, named by its place and its whole path; an unknown key of
  // the section too.
  CHECK(seam_error_of(s, "studies: [probe]\nprobe: {n: 11}\n") ==
        "probe.yaml:2:12: 'probe.n' = 11 is out of range [1, 10]");
  CHECK_THAT(seam_error_of(s, "probe: {m: 1}\n"),
             Catch::StartsWith("probe.yaml:1:9: unknown key 'm' in probe"));

  // Written where the studies' sections go, on one line, and read back the same.
  const std::string out = to_yaml(s, c);
  CHECK_THAT(out, Catch::Contains("\nprobe: {n: 3}\noperating_points") ||
                      Catch::Contains("\nprobe: {n: 3}\ncooldown_s"));
  CHECK(to_yaml(s, parse_config(s, out, "again.yaml")) == out);
  // Not selected, not written (as every study's section).
  CHECK(to_yaml(s, parse_config(s, "probe: {n: 3}\n", "p.yaml")).find("probe:") ==
        std::string::npos);

  // The command line's overrides go through the same key.
  Config o = c;
  set_config_value(s, o, "probe.n", "5", "--probe-n");
  CHECK(o.section<ProbeConfig>().n == 5);
  CHECK_THROWS_WITH(set_config_value(s, o, "probe.n", "0", "--probe-n"),
                    "--probe-n 0: 'probe.n' = 0 is out of range [1, 10]");

  // It reaches the study.
  const std::vector<PlanItem> items = ProbeStudy().plan(c);
  REQUIRE(items.size() == 3);
  CHECK(items.back().key == item_key("probe", {{"i", "2"}}));
}

TEST_CASE("study seam: the sections are values of the Config", "[config][study]") {
  const ConfigSchema& s = schema_with_probe();
  const Config c = parse_config(s, "studies: [probe]\nprobe: {n: 3}\n", "probe.yaml");
  Config copy = c;
  copy.edit<ProbeConfig>().n = 7;
  CHECK(copy.section<ProbeConfig>().n == 7);
  CHECK(c.section<ProbeConfig>().n == 3);  // the copy has its own section
  // A config that never set a section reads its struct's defaults.
  const Config plain = parse_config(s, "name: x\n", "plain.yaml");
  CHECK_FALSE(plain.study_sections.has("probe"));
  CHECK(plain.section<ProbeConfig>().n == ProbeConfig().n);
}

TEST_CASE("study seam: without its registry line the study is unknown", "[config][study]") {
  // The registry's own table, and the engine's core table, know no probe.
  CHECK_THAT(seam_error_of(config_schema(), "studies: [probe]\n"),
             Catch::Contains("unknown study 'probe'"));
  CHECK_THAT(seam_error_of(config_schema(), "probe: {n: 3}\n"),
             Catch::Contains("unknown key 'probe'"));
  CHECK_THAT(seam_error_of(core_config_schema(), "probe: {n: 3}\n"),
             Catch::Contains("unknown key 'probe'"));
  CHECK(core_config_schema().find("power.rate_hz"));
  for (const auto& k : core_config_schema().keys) CHECK_FALSE(k.path_label);  // no study section
}
