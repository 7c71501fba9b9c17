// The include rules of DESIGN §1 and issue 34, checked on every source under
// src/: no two files (a header and its source are one) include each other,
// src/bench's folders include each other without a cycle, and each layer
// includes only the layers below it. Each rule is also run on a small tree
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
