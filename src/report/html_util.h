// Small helpers the HTML report's shell and sections share: numbers from CSV
// fields, printf formatting, joining labels. Internal to src/report.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "common/text.h"
#include "report/csv.h"

namespace edp::report::html {

// The one fmt and join of the code base (common/text.h), also as html::.
using edp::fmt;
using edp::join;

// A finite number from a CSV field, else nullopt.
inline std::optional<double> number(const std::string& s) {
  const auto v = parse_double(s);
  if (v && std::isfinite(*v)) return v;
  return std::nullopt;
}

inline bool truthy(const std::string& s) { return s == "true" || s == "1" || s == "yes"; }

inline void add_unique(std::vector<std::string>& v, const std::string& s) {
  if (!s.empty() && std::find(v.begin(), v.end(), s) == v.end()) v.push_back(s);
}

inline std::string upper(std::string s) {
  for (char& c : s)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  return s;
}

}  // namespace edp::report::html
