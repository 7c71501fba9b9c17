// The include graph of a source tree (src/), read from the sources alone, and
// the three rules DESIGN §1 and issue 34 set on it: no two files include
// each other, src/bench's folders include each other without a cycle, and
// each layer includes only the layers below it. The tests of
// test_include_graph.cpp run these on src/ and on small planted trees, so a
// rule that stopped finding what it should would fail there too.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

namespace edp::tools {

// One `#include "..."` that names a file of the tree, resolved as the
// preprocessor does for quotes with the tree on the include path: beside the
// including file first, then from the tree's root. Paths are relative to the
// root ("bench/config/config.h"). Includes of files outside the tree (the
// public include/edpbench headers, generated headers, <system> headers) are
// not edges of the tree's graph.
struct Include {
  std::string from;
  int line = 0;
  std::string to;
};

// Every such include of every C and C++ source under `root` (.h, .hpp, .cpp,
// .cu, .cuh, and the X-macro lists .def and .inc), sorted by file and line.
// Throws std::runtime_error when `root` cannot be read.
std::vector<Include> read_includes(const std::string& root);

// A file's unit: its path without the extension, so that a header and its
// source are one ("bench/config/config_keys" for config_keys.h and .cpp).
std::string unit_of(const std::string& path);

// Two units each of which includes the other (from its header or its
// source), with one include each way as evidence.
struct MutualInclude {
  std::string a, b;  // a < b
  Include a_to_b, b_to_a;
  std::string pair() const { return a + " <-> " + b; }
  // "bench/x <-> bench/y (bench/x.cpp:3 includes bench/y.h; bench/y.h:7 includes bench/x.h)"
  std::string describe() const;
};
std::vector<MutualInclude> mutual_includes(const std::vector<Include>& includes);

// Cycles between the folders directly under `parent` ("bench": config,
// engine, studies, ...; a file in studies/mlp/ is in studies): one line per
// set of folders that reach each other, naming them and, for each edge
// inside the set, one include that makes it. Empty when the folders' graph
// has no cycle.
std::vector<std::string> folder_cycles(const std::vector<Include>& includes,
                                       const std::string& parent);

// Which layers (the folders directly under the root) each layer may
// include; a layer may always include itself.
using Layers = std::map<std::string, std::set<std::string>>;
// DESIGN §1's: cli -> bench -> power, workloads, report, platform -> common,
// with the monitor library on bench (§11, §12).
const Layers& design_layers();
// One line per include from a layer into one it may not include, and one per
// layer that `layers` does not name (a new folder must be placed).
std::vector<std::string> layer_violations(const std::vector<Include>& includes,
                                          const Layers& layers);

}  // namespace edp::tools
