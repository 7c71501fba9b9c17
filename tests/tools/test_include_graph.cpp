// The include rules of DESIGN §1 and issue 34, checked on every source under
// src/: no two files (a header and its source are one) include each other,
// src/bench's folders include each other without a cycle, each layer
// includes only the layers below it, a source defines only what its own
// header declares (a source without one joins the one header it implements,
// and no two units include each other then either), and a source includes
// its own header first. Each rule is also run on a small tree
// planted in a temporary folder with the fault it must find, so a rule that
// stopped finding it fails here rather than passing on src/ by accident.
#include <catch2/catch.hpp>

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "tools/include_graph.h"

using namespace edp::tools;

namespace {

// EDPBENCH_FIXTURES is tests/fixtures; the sources are beside tests/.
const std::string kSrc = std::string(EDPBENCH_FIXTURES) + "/../../src";

// Sources that define what a header of another unit declares, left to
// their owners (docs/engine.md, "Hand-over"): the platform's privileges,
// which implement two headers. The list may only shrink: a source that no
// longer does fails the test below until its line is removed.
const std::vector<std::string> kKnownForeignDefinitions{
    "platform/operating_point_privileges.cpp",  // operating_point.h's and _detail.h's
};

// Units that include each other once a source without a header of its own
// counts as the header it implements (probe.cpp is platform.h's, and
// includes cpu_topology.h, which includes platform.h). Left to the layers'
// owners (docs/engine.md, "Hand-over"); the list may only shrink.
const std::vector<std::string> kKnownHiddenPairs{
    "platform/cpu_topology <-> platform/platform",  // probe.cpp:8, cpu_topology.h:8
    "platform/operating_point <-> platform/operating_point_detail",  // clock_state_file.cpp:24
    "platform/operating_point <-> platform/platform",                // platform_json.cpp:13
    "platform/platform <-> platform/thermal",                        // probe.cpp:11, thermal.h:8
    "workloads/cuda/cuda_backend <-> workloads/cuda_factory",        // cuda_factory.cpp:13
};

std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& l : lines) out += "\n  " + l;
  return out;
}

// A source tree in a temporary folder, removed when the test ends.
class PlantedTree {
 public:
  PlantedTree() {
    char name[] = "/tmp/edp-include-graph-XXXXXX";
    if (!::mkdtemp(name)) FAIL("mkdtemp failed");
    root_ = name;
  }
  ~PlantedTree() {
    for (auto it = files_.rbegin(); it != files_.rend(); ++it) std::remove(it->c_str());
    for (auto it = dirs_.rbegin(); it != dirs_.rend(); ++it) ::rmdir(it->c_str());
    ::rmdir(root_.c_str());
  }
  PlantedTree(const PlantedTree&) = delete;
  PlantedTree& operator=(const PlantedTree&) = delete;

  // Writes `path` (relative to the root) with one `#include "..."` per name.
  void file(const std::string& path, const std::vector<std::string>& includes) {
    std::string dir = root_;
    size_t start = 0;
    for (auto slash = path.find('/'); slash != std::string::npos; slash = path.find('/', start)) {
      dir = root_ + "/" + path.substr(0, slash);
      if (::mkdir(dir.c_str(), 0700) == 0) dirs_.push_back(dir);
      start = slash + 1;
    }
    const std::string full = root_ + "/" + path;
    std::ofstream out(full);
    out << "// planted\n#pragma once\n";
    for (const auto& i : includes) out << "#include \"" << i << "\"\n";
    files_.push_back(full);
  }
  // Writes `path` with `text` as it is (an include written another way).
  void raw(const std::string& path, const std::string& text) {
    file(path, {});
    std::ofstream(root_ + "/" + path, std::ios::app) << text;
  }
  const std::string& root() const { return root_; }

 private:
  std::string root_;
  std::vector<std::string> dirs_, files_;
};

}  // namespace

TEST_CASE("include graph: no two files in src/ include each other", "[tools]") {
  const auto includes = read_includes(kSrc);
  REQUIRE(includes.size() > 500);  // src/ was read, not an empty folder
  std::vector<std::string> found;
  for (const auto& m : mutual_includes(includes)) found.push_back(m.describe());
  INFO("files that include each other; move what both need to where it belongs:" << joined(found));
  CHECK(found.empty());
}

TEST_CASE("include graph: src/bench's folders include each other without a cycle", "[tools]") {
  const auto cycles = folder_cycles(read_includes(kSrc), "bench");
  INFO(joined(cycles));
  CHECK(cycles.empty());
}

TEST_CASE("include graph: src/ keeps DESIGN §1's layering", "[tools]") {
  const auto violations = layer_violations(read_includes(kSrc), design_layers());
  INFO(joined(violations));
  CHECK(violations.empty());
}

TEST_CASE("include graph: a planted pair that includes each other is named with both includes",
          "[tools]") {
  PlantedTree t;
  t.file("bench/config/config.h", {"bench/config/keys.h"});
  t.file("bench/config/keys.h", {});
  t.file("bench/config/keys.cpp", {"keys.h", "config.h"});   // beside it, as the preprocessor
  t.file("bench/config/reader.h", {"bench/config/keys.h"});  // one way only: no pair
  const auto pairs = mutual_includes(read_includes(t.root()));
  REQUIRE(pairs.size() == 1);
  CHECK(pairs[0].pair() == "bench/config/config <-> bench/config/keys");
  CHECK(pairs[0].describe() ==
        "bench/config/config <-> bench/config/keys (bench/config/config.h:3 includes "
        "bench/config/keys.h; bench/config/keys.cpp:4 includes bench/config/config.h)");
}

TEST_CASE("include graph: a planted cycle between folders is named with its includes", "[tools]") {
  PlantedTree t;
  t.file("bench/engine/session.h", {"bench/config/config.h"});
  t.file("bench/config/config.h", {});
  t.file("bench/protocol/protocol.h", {"bench/engine/session.h"});
  t.file("bench/studies/mlp/mlp_study.h", {"bench/protocol/protocol.h"});
  SECTION("no cycle: config <- engine <- protocol <- studies") {
    CHECK(folder_cycles(read_includes(t.root()), "bench").empty());
  }
  SECTION("config including studies/mlp closes a cycle of four folders") {
    t.file("bench/config/config.cpp", {"bench/studies/mlp/mlp_study.h"});
    const auto cycles = folder_cycles(read_includes(t.root()), "bench");
    REQUIRE(cycles.size() == 1);
    CHECK(cycles[0] ==
          "bench/: the folders config engine protocol studies include each other: "
          "bench/config/config.cpp:3 includes bench/studies/mlp/mlp_study.h; "
          "bench/engine/session.h:3 includes bench/config/config.h; "
          "bench/protocol/protocol.h:3 includes bench/engine/session.h; "
          "bench/studies/mlp/mlp_study.h:3 includes bench/protocol/protocol.h");
  }
}

TEST_CASE("include graph: a planted include against DESIGN §1's layers is named", "[tools]") {
  PlantedTree t;
  t.file("common/text.h", {});
  t.file("report/html_report.h", {"common/text.h"});
  t.file("bench/sweep/runner.h", {"report/html_report.h", "common/text.h"});
  t.file("cli/main.cpp", {"bench/sweep/runner.h"});
  SECTION("downward includes only") {
    CHECK(layer_violations(read_includes(t.root()), design_layers()).empty());
  }
  SECTION("report including bench") {
    t.file("report/html_mlp.cpp", {"bench/sweep/runner.h"});
    CHECK(layer_violations(read_includes(t.root()), design_layers()) ==
          std::vector<std::string>{"report/html_mlp.cpp:3 includes bench/sweep/runner.h: "
                                   "report/ may not include bench/ (DESIGN §1)"});
  }
  SECTION("power including workloads, a sibling") {
    t.file("workloads/tensor.h", {});
    t.file("power/sampler.cpp", {"workloads/tensor.h"});
    CHECK(layer_violations(read_includes(t.root()), design_layers()) ==
          std::vector<std::string>{"power/sampler.cpp:3 includes workloads/tensor.h: "
                                   "power/ may not include workloads/ (DESIGN §1)"});
  }
  SECTION("a folder DESIGN §1 does not place") {
    t.file("gui/window.cpp", {"common/text.h"});
    CHECK(layer_violations(read_includes(t.root()), design_layers()) ==
          std::vector<std::string>{"gui/ (gui/window.cpp): a layer DESIGN §1 does not place; "
                                   "add it to design_layers()"});
  }
}

TEST_CASE("include graph: an include written with <...> or through .. is followed", "[tools]") {
  PlantedTree t;
  t.file("common/text.h", {});
  t.file("bench/sweep/runner.h", {"common/text.h"});
  SECTION("<...>: src/ is on the include path") {
    t.raw("report/html_mlp.cpp", "#include <bench/sweep/runner.h>\n#include <vector>\n");
    CHECK(layer_violations(read_includes(t.root()), design_layers()) ==
          std::vector<std::string>{"report/html_mlp.cpp:3 includes bench/sweep/runner.h: "
                                   "report/ may not include bench/ (DESIGN §1)"});
  }
  SECTION("a path that climbs out of src/ and back in") {
    const std::string self = t.root().substr(t.root().rfind('/') + 1);
    t.raw("report/html_mlp.cpp", "#include \"../../" + self + "/bench/sweep/runner.h\"\n");
    CHECK(layer_violations(read_includes(t.root()), design_layers()) ==
          std::vector<std::string>{"report/html_mlp.cpp:3 includes bench/sweep/runner.h: "
                                   "report/ may not include bench/ (DESIGN §1)"});
  }
}

TEST_CASE("include graph: no source in src/ defines what a header of another unit declares",
          "[tools]") {
  const auto violations = definition_violations(foreign_definitions(kSrc), read_headers(kSrc));
  std::vector<std::string> unexpected;
  for (const auto& v : violations)
    if (std::none_of(
            kKnownForeignDefinitions.begin(), kKnownForeignDefinitions.end(),
            [&](const std::string& s) { return v.compare(0, s.size() + 1, s + ":") == 0; }))
      unexpected.push_back(v);
  {
    INFO("sources that define what another unit's header declares:" << joined(unexpected));
    CHECK(unexpected.empty());
  }
  std::vector<std::string> stale;
  for (const auto& s : kKnownForeignDefinitions)
    if (std::none_of(violations.begin(), violations.end(), [&](const std::string& v) {
          return v.compare(0, s.size() + 1, s + ":") == 0;
        }))
      stale.push_back(s);
  INFO("known sources that no longer do; remove them from kKnownForeignDefinitions:"
       << joined(stale));
  CHECK(stale.empty());
}

TEST_CASE("include graph: every source in src/ with a header of its own includes it first",
          "[tools]") {
  const auto violations = own_header_violations(kSrc);
  INFO(joined(violations));
  CHECK(violations.empty());
}

TEST_CASE(
    "include graph: no two units include each other once sources join the header they "
    "implement",
    "[tools]") {
  const auto pairs = mutual_includes(
      read_includes(kSrc), implementing_units(foreign_definitions(kSrc), read_headers(kSrc)));
  std::vector<std::string> found, unexpected;
  for (const auto& m : pairs) {
    found.push_back(m.pair());
    if (std::find(kKnownHiddenPairs.begin(), kKnownHiddenPairs.end(), m.pair()) ==
        kKnownHiddenPairs.end())
      unexpected.push_back(m.describe());
  }
  {
    INFO("units that include each other through a source that implements another header:"
         << joined(unexpected));
    CHECK(unexpected.empty());
  }
  std::vector<std::string> stale;
  for (const auto& p : kKnownHiddenPairs)
    if (std::find(found.begin(), found.end(), p) == found.end()) stale.push_back(p);
  INFO("known pairs that no longer include each other; remove them from kKnownHiddenPairs:"
       << joined(stale));
  CHECK(stale.empty());
}

TEST_CASE("include graph: a planted definition in a source of another name joins its header's unit",
          "[tools]") {
  PlantedTree t;
  // all_studies() as it was: declared in study.h, defined in registry.cpp,
  // which includes a study's header, which includes study.h.
  t.raw("bench/studies/study.h",
        "namespace edp {\nstruct Study {\n  int x;\n};\n"
        "std::vector<Study> all_studies();\n}  // namespace edp\n");
  t.file("bench/studies/mlp/mlp_study.h", {"bench/studies/study.h"});
  t.raw("bench/studies/registry.cpp",
        "#include \"bench/studies/mlp/mlp_study.h\"\nnamespace edp {\n"
        "std::vector<Study> all_studies() {\n  return {};\n}\n}  // namespace edp\n");
  const auto includes = read_includes(t.root());
  SECTION("by file names alone the pair is not seen") { CHECK(mutual_includes(includes).empty()); }
  SECTION("with registry.cpp in study.h's unit it is") {
    const auto defs = foreign_definitions(t.root());
    REQUIRE(defs.size() == 1);
    CHECK(defs[0].source == "bench/studies/registry.cpp");
    CHECK(defs[0].line == 5);
    CHECK(defs[0].name == "all_studies");
    CHECK(defs[0].header == "bench/studies/study.h");
    const auto units = implementing_units(defs, read_headers(t.root()));
    CHECK(units == Units{{"bench/studies/registry.cpp", "bench/studies/study"}});
    const auto pairs = mutual_includes(includes, units);
    REQUIRE(pairs.size() == 1);
    CHECK(pairs[0].describe() ==
          "bench/studies/mlp/mlp_study <-> bench/studies/study (bench/studies/mlp/mlp_study.h:3 "
          "includes bench/studies/study.h; bench/studies/registry.cpp:3 includes "
          "bench/studies/mlp/mlp_study.h)");
    CHECK(definition_violations(defs, read_headers(t.root())).empty());  // it implements one header
  }
  SECTION("declared in registry.h, which registry.cpp includes first, it is a unit of its own") {
    t.raw("bench/studies/study.h", "namespace edp {\nstruct Study {\n  int x;\n};\n}\n");
    t.raw("bench/studies/registry.h",
          "#include \"bench/studies/study.h\"\nnamespace edp {\n"
          "std::vector<Study> all_studies();\n}  // namespace edp\n");
    t.raw("bench/studies/registry.cpp",
          "#include \"bench/studies/registry.h\"\n#include \"bench/studies/mlp/mlp_study.h\"\n"
          "namespace edp {\nstd::vector<Study> all_studies() {\n  return {};\n}\n}\n");
    CHECK(foreign_definitions(t.root()).empty());
    CHECK(mutual_includes(read_includes(t.root()),
                          implementing_units(foreign_definitions(t.root()), read_headers(t.root())))
              .empty());
    CHECK(own_header_violations(t.root()).empty());
  }
}

TEST_CASE("include graph: a planted source that defines another unit's declaration is named",
          "[tools]") {
  PlantedTree t;
  t.raw("power/measurement.h",
        "namespace edp {\nstruct Measurement {\n  double energy_j() const;\n};\n}\n");
  t.raw("power/sensor.h", "namespace edp {\nconst char* timing_name(int t);\n}\n");
  t.raw("power/plausible.h", "namespace edp {\nint outside_range(int r);\n}\n");
  SECTION("its own header's names, and look-alikes, are not") {
    t.raw("power/sensor.cpp",
          "#include \"power/sensor.h\"\nnamespace edp {\nnamespace {\n"
          "int outside_range(int r) { return r; }\n}  // namespace\n"
          "static double energy_j() { return 0; }\n"
          "// double Measurement::energy_j() const {\n"
          "const char* s = \"int outside_range(int r) {\";\n"
          "const char* timing_name(int t) {\n  return \"?\";\n}\n}  // namespace edp\n");
    CHECK(foreign_definitions(t.root()).empty());
  }
  SECTION("a member of a class another header declares") {
    t.raw("power/sensor.cpp",
          "#include \"power/sensor.h\"\n#include \"power/measurement.h\"\nnamespace edp {\n"
          "double Measurement::energy_j() const {\n  return 0;\n}\n}  // namespace edp\n");
    CHECK(definition_violations(foreign_definitions(t.root()), read_headers(t.root())) ==
          std::vector<std::string>{
              "power/sensor.cpp:6 defines Measurement, declared in power/measurement.h: a source "
              "defines what its own header declares; declare it there or define it in the source "
              "of power/measurement.h"});
  }
  SECTION("a source without a header of its own that implements two") {
    t.raw("power/helpers.cpp",
          "namespace edp {\nconst char* timing_name(int t) {\n  return \"?\";\n}\n"
          "int outside_range(int r) {\n  return r;\n}\n}\n");
    const auto defs = foreign_definitions(t.root());
    CHECK(implementing_units(defs, read_headers(t.root())).empty());
    CHECK(definition_violations(defs, read_headers(t.root())) ==
          std::vector<std::string>{
              "power/helpers.cpp:4 defines timing_name, declared in power/sensor.h: a source "
              "without a header of its own defines what 2 headers declare; give it a header of its "
              "own",
              "power/helpers.cpp:7 defines outside_range, declared in power/plausible.h: a source "
              "without a header of its own defines what 2 headers declare; give it a header of its "
              "own"});
  }
}

TEST_CASE("include graph: a planted source that does not include its own header first is named",
          "[tools]") {
  PlantedTree t;
  t.file("common/text.h", {});
  t.file("report/csv.h", {"common/text.h"});
  SECTION("own header first") {
    t.file("report/csv.cpp", {"report/csv.h", "common/text.h"});
    CHECK(own_header_violations(t.root()).empty());
  }
  SECTION("another header first") {
    t.file("report/csv.cpp", {"common/text.h", "report/csv.h"});
    CHECK(own_header_violations(t.root()) ==
          std::vector<std::string>{"report/csv.cpp: its first include of src/ is common/text.h "
                                   "(line 3), not its own header report/csv.h; include it first"});
  }
  SECTION("none") {
    t.raw("report/csv.cpp", "#include <string>\n");
    CHECK(own_header_violations(t.root()) ==
          std::vector<std::string>{"report/csv.cpp: its first include of src/ is none, not its "
                                   "own header report/csv.h; include it first"});
  }
}
