// The include graph of a source tree (src/), read from the sources alone, and
// the rules DESIGN §1 and issue 34 set on it: no two files include each
// other, src/bench's folders include each other without a cycle, and each
// layer includes only the layers below it; and, so that the graph has the
// edges the link has, a source defines only what its own header declares
// (or, without one, what one header declares, whose unit it then joins) and
// includes its own header first. The tests of
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
// Units given to sources that unit_of does not place (implementing_units).
using Units = std::map<std::string, std::string>;  // source path -> unit

// Two units each of which includes the other (from its header or its
// source), with one include each way as evidence.
struct MutualInclude {
  std::string a, b;  // a < b
  Include a_to_b, b_to_a;
  std::string pair() const { return a + " <-> " + b; }
  // "bench/x <-> bench/y (bench/x.cpp:3 includes bench/y.h; bench/y.h:7 includes bench/x.h)"
  std::string describe() const;
};
// `units` (implementing_units) places sources without a header of their own.
std::vector<MutualInclude> mutual_includes(const std::vector<Include>& includes,
                                           const Units& units = {});

// Cycles between the folders directly under `parent` ("bench": config,
// engine, studies, ...; a file in studies/mlp/ is in studies): one line per
// set of folders that reach each other, naming them and, for each edge
// inside the set, one include that makes it. Empty when the folders' graph
// has no cycle.
std::vector<std::string> folder_cycles(const std::vector<Include>& includes,
                                       const std::string& parent);

// What a source defines that a header declares, as clang-format lays both
// out (src/ is formatted with the repo's .clang-format, Google style):
// a function or a class's member whose line starts in column 0 at namespace
// scope, outside an anonymous namespace and not `static`; a header's
// functions and classes the same way. Comments and string literals (raw
// ones included) are blanked first. A definition made by a macro, or a name
// declared only inside a class, is not seen.
struct Definition {
  std::string source;  // "bench/studies/registry.cpp"
  int line = 0;
  std::string name;    // "all_studies", or "Measurement" for Measurement::energy_j
  std::string header;  // the header of another unit that declares it
};
// Every definition in a source under `root` of a name declared in a header
// of another unit (a header with the source's own name, when it declares the
// name too, wins: the source implements its own header). A name some other
// header also declares is listed once per such header.
std::vector<Definition> foreign_definitions(const std::string& root);

// The unit each source without a header of its own (none among `headers`,
// read_headers) belongs to: that of the one header all its foreign
// definitions are declared in (html_results.cpp, which defines
// html_sections.h's render_results_section, is report/html_sections).
// mutual_includes() counts such a source's includes as its header's: its
// header's users reach what it includes through the link.
Units implementing_units(const std::vector<Definition>& definitions,
                         const std::vector<std::string>& headers);

// One line per definition that hides an edge the include graph cannot see:
// a source with a header of its own that defines what another header
// declares ("power/sensor.cpp:60 defines Measurement, declared in
// power/measurement.h: ..."), and each definition of a source without one
// that defines what two or more headers declare.
std::vector<std::string> definition_violations(const std::vector<Definition>& definitions,
                                               const std::vector<std::string>& headers);

// Every header (.h, .hpp, .cuh) under `root`, relative to it.
std::vector<std::string> read_headers(const std::string& root);

// One line per source with a header of its own (X.cpp or X.cu beside X.h,
// X.hpp or X.cuh) whose first include of the tree is not that header: a header its own
// source includes first is known to compile alone, and names the unit the
// source implements.
std::vector<std::string> own_header_violations(const std::string& root);

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
