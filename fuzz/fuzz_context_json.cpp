// context.json as the report reads it: parse_json either returns a tree or
// throws runtime_error with a line and column; the tree is printed back.
#include <regex>

#include <stdexcept>

#include "fuzz_common.h"
#include "report/json_read.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::regex located(R"(^context\.json: line [0-9]+ column [0-9]+: .+)");
  try {
    const auto v = edp::report::parse_json(edp::fuzz::text(data, size), "context.json");
    (void)v.to_text();
    (void)v.at({"board", "nvpmodel", "mode"});
  } catch (const std::runtime_error& e) {
    if (!std::regex_search(e.what(), located))
      edp::fuzz::broken_promise(std::string("error without line and column: ") + e.what());
  }
  return 0;
}
