// context.json against its schema (issue 22.4, common/context_schema.h): a
// real context.json, written by context_json over a sweep with a trace
// meter, holds every key of the schema, and every key it holds (top level,
// board.*, power.*) is in the schema, so the report, which reads only the
// schema's keys, shows everything the writer records and nothing else.
#include <catch2/catch.hpp>

#include <set>

#include <nlohmann/json.hpp>

#include "bench/sweep/context_json.h"
#include "common/context_schema.h"
#include "protocol_fixture.h"

using namespace edp;
using namespace edp::testing;

namespace {

void collect(const nlohmann::json& j, const std::string& prefix, int depth,
             std::set<std::string>& out) {
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string path = prefix.empty() ? it.key() : prefix + "." + it.key();
    out.insert(path);
    if (depth > 0 && it.value().is_object()) collect(it.value(), path, depth - 1, out);
  }
}

}  // namespace

TEST_CASE("context.json holds exactly the schema's keys", "[bench][context]") {
  Fixture f;
  f.sweep.start_time = "2026-11-23T20:00:00Z";
  const auto doc = nlohmann::json::parse(bench::context_json(f.sweep, true));
  std::set<std::string> written;
  collect(doc, "", 0, written);
  for (const char* nested : {"board", "power"}) collect(doc.at(nested), nested, 0, written);

  std::set<std::string> schema;
  for (const ContextField& field : context_fields()) {
    schema.insert(field.path);
    INFO(field.path);
    if (!field.optional) CHECK(written.count(field.path) == 1);
  }
  for (const std::string& path : written) {
    INFO(path << " is written but not in common/context_schema.h");
    CHECK(schema.count(path) == 1);
  }
}
