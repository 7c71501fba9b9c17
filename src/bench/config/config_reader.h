// Reading one YAML config document (DESIGN §7) with every problem reported as
// FILE:LINE:COL and collected, so that one load reports all of them: fail()
// records the error and abandons the value being read; guard() resumes with
// the next one. The key table (config_keys.h) and the studies' sections read
// through it.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace edp::bench {

// "FILE:LINE:COL" (1-based). A node without a position is reported at 1:1.
std::string located(const std::string& origin, const YAML::Mark& m);

class ConfigReader {
 public:
  // `positions` false: values from the command line, named by `origin`
  // ("--gemm-n 0") without a line and column.
  explicit ConfigReader(std::string origin, bool positions = true)
      : origin_(std::move(origin)), positions_(positions) {}

  const std::string& origin() const { return origin_; }
  std::string where(const YAML::Node& at) const {
    return positions_ ? located(origin_, at.Mark()) : origin_;
  }

  // Records "FILE:LINE:COL: msg" and goes on.
  void error(const YAML::Node& at, const std::string& msg);
  void error_at(const std::string& where, const std::string& msg);
  // Records and abandons the value being read (up to the enclosing guard).
  [[noreturn]] void fail(const YAML::Node& at, const std::string& msg);
  // Runs `read`; a fail() inside it ends it, and reading goes on.
  void guard(const std::function<void()>& read);

  const std::vector<std::string>& errors() const { return errors_; }

  void expect_map(const YAML::Node& n, const std::string& what);
  // A mapping key as text (a list or mapping as a key is an error).
  std::string key_name(const YAML::Node& k);
  // Unknown and repeated keys are errors (yaml-cpp keeps a repeated key's
  // first value and drops the rest silently, so the keys are walked here).
  void check_keys(const YAML::Node& map, const std::vector<std::string>& allowed,
                  const std::string& section);

  std::string scalar(const YAML::Node& n, const std::string& key);
  // Decimal only: "010" (octal in YAML 1.1), "0x10", "0o10", "1e3" are
  // refused; `hex` also accepts 0x.. (I2C addresses).
  int64_t integer(const YAML::Node& n, const std::string& key, int64_t lo, int64_t hi,
                  bool hex = false);
  double number(const YAML::Node& n, const std::string& key, double lo, double hi);
  bool boolean(const YAML::Node& n, const std::string& key);
  std::string one_of(const YAML::Node& n, const std::string& key,
                     const std::vector<std::string>& allowed);
  // A list of scalars; an entry given twice is an error at its second place.
  std::vector<std::string> string_list(const YAML::Node& n, const std::string& key);
  std::vector<int64_t> integer_list(const YAML::Node& n, const std::string& key, int64_t lo,
                                    int64_t hi);

 private:
  struct Abandon {};
  std::string origin_;
  bool positions_ = true;
  std::vector<std::string> errors_;
};

std::string join_names(const std::vector<std::string>& v, const std::string& sep = ", ");

}  // namespace edp::bench
