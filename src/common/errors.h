// Error types that decide the exit code (DESIGN §6): a UsageError (bad
// arguments, bad config, missing input file) exits 2; anything else that
// escapes a command exits 1.
#pragma once

#include <stdexcept>
#include <string>

namespace edp {

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace edp
