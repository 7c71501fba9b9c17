// The YAML config (configs/*.yaml): parse_config either returns a Config or
// throws a UsageError "fuzz.yaml:LINE:COL: ..."; anything else is a finding.
#include <regex>

#include "bench/studies/config_schema.h"
#include "common/errors.h"
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::regex located(R"(^fuzz\.yaml:[0-9]+:[0-9]+: .+)");
  try {
    const edp::bench::Config cfg =
        edp::bench::parse_config(edp::fuzz::text(data, size), "fuzz.yaml");
    (void)cfg;
  } catch (const edp::UsageError& e) {
    if (!std::regex_search(e.what(), located))
      edp::fuzz::broken_promise(std::string("UsageError without line and column: ") + e.what());
  } catch (const std::exception& e) {
    edp::fuzz::broken_promise(std::string("not a UsageError: ") + e.what());
  }
  return 0;
}
