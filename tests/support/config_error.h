// The message parse_config throws for a config's text read as the file
// `origin`, or "<no error>": the config tests compare it whole.
#pragma once

#include <string>

#include "bench/studies/config_schema.h"
#include "common/errors.h"

namespace edp::testing {

inline std::string config_error(const std::string& yaml, const std::string& origin) {
  try {
    bench::parse_config(yaml, origin);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "<no error>";
}

}  // namespace edp::testing
